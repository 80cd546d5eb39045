"""Figures of the corpus report: pure functions, :class:`CorpusReport` → ``go.Figure``, every
user string escaped, titles from ``labels`` (English by default); :func:`report_figures` lists
them all, each with the stable id the HTML report and the app use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import plotly.graph_objects as go

from meteor.analysis.buckets import BucketTable
from meteor.analysis.corpus_report import CorpusReport
from meteor.analysis.pvalue_text import bootstrap_resolution, p_value_text, plus_one_resolution
from meteor.viz.style import (
    MODULE_COLORS,
    OTHER_STAGE_COLOR,
    SYSTEM_COLORS,
    escape,
    frame,
    system_color,
    system_pattern,
    system_symbol,
)

__all__ = [
    "LABELS_EN",
    "STAGE_LABEL",
    "bucket_figure",
    "frag_figure",
    "pvalue_figure",
    "ranking_figure",
    "report_figures",
    "stage_figure",
]

LABELS_EN = {
    "ranking": "Corpus METEOR with 95 % interval (colour: cluster)",
    "pvalues": "Deciding p-values: {test}, {correction}",
    "test_ar": "approximate randomisation",
    "test_bootstrap": "paired bootstrap",
    "correction_holm": "Holm correction",
    "correction_bonferroni": "Bonferroni correction",
    "correction_none": "no correction",
    "adjusted": "adjusted",
    "decides": "decides",
    "stages": "Share of matched reference words by stage",
    "frag": "Fragmentation of the segments",
    "meteor": "METEOR",
    "recall": "recall",
    "segments": "segments",
    "cluster": "cluster {n}",
    "frag_axis": "chunks / matched words",
}
#: A stage's name in the stage figure's legend: ``labels["stage_<name>"]``, else the name.
STAGE_LABEL = "stage_{}"
#: Okabe-Ito's seven for the first clusters, then the system colours none of them repeats.
_CLUSTER_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000",
                   *(c for c in SYSTEM_COLORS if c != "#222a2a"))  # fmt: skip


def _t(labels: Mapping[str, str] | None, key: str) -> str:
    return (labels or {}).get(key, LABELS_EN[key])


def _nan0(x: float | None) -> float:
    return 0.0 if x is None or not math.isfinite(x) else x


def ranking_figure(rep: CorpusReport, labels: Mapping[str, str] | None = None) -> go.Figure:
    """Each system's corpus METEOR and interval, best first, coloured by cluster."""
    rows = rep.ranking.systems
    fig = go.Figure()
    for cluster in sorted({r.cluster for r in rows}):
        sel = [r for r in rows if r.cluster == cluster]
        fig.add_trace(
            go.Scatter(
                x=[r.corpus.value for r in sel],
                y=[escape(r.name) for r in sel],
                mode="markers",
                name=_t(labels, "cluster").format(n=cluster),
                marker={"color": _CLUSTER_COLORS[(cluster - 1) % len(_CLUSTER_COLORS)], "size": 9},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": [_nan0(r.corpus.high - r.corpus.value) for r in sel],
                    "arrayminus": [_nan0(r.corpus.value - r.corpus.low) for r in sel],
                },
            )
        )
    fig.update_yaxes(autorange="reversed", categoryorder="array",
                     categoryarray=[escape(r.name) for r in rows])  # fmt: skip
    fig.update_xaxes(title_text=_t(labels, "meteor"))
    fig.update_layout(height=max(260, 28 * len(rows) + 80), **frame(_t(labels, "ranking")))
    return fig


def pvalue_figure(rep: CorpusReport, labels: Mapping[str, str] | None = None) -> go.Figure:
    """The p-value that decides each pair's significance (the deciding test's, adjusted;
    both named in the title), as a matrix in ranking order; the hover gives both tests' raw
    and adjusted p (:meth:`Ranking.adjusted_p_values`)."""
    rk = rep.ranking
    names = list(rep.systems)
    z: list[list[float | None]] = [[None] * len(names) for _ in names]
    text = [[""] * len(names) for _ in names]
    resolution = {
        "ar": plus_one_resolution(rk.trials),
        "bootstrap": bootstrap_resolution(rk.samples),
    }
    order = (rk.test, *(x for x in resolution if x != rk.test))  # the deciding test first
    adjusted = {test: rk.adjusted_p_values(test) for test in order}
    for k, p in enumerate(rk.pairs):
        i, j = names.index(p.a), names.index(p.b)
        z[i][j] = z[j][i] = p.p_adjusted
        lines = []
        for test in order:
            res = resolution[test]
            line = (
                f"{_t(labels, 'test_' + test)}: p {p_value_text(p.p_raw(test), res, relation=True)}"
                f", {_t(labels, 'adjusted')} {p_value_text(adjusted[test][k], res)}"
            )
            lines.append(line + (f" ({_t(labels, 'decides')})" if test == rk.test else ""))
        text[i][j] = text[j][i] = "<br>".join(lines)
    esc = [escape(n) for n in names]
    title = _t(labels, "pvalues").format(
        test=_t(labels, f"test_{rk.test}"), correction=_t(labels, f"correction_{rk.correction}")
    )
    fig = go.Figure(
        go.Heatmap(z=z, x=esc, y=esc, zmin=0, zmax=1, colorscale="Viridis", text=text,
                   hovertemplate="%{y} / %{x}<br>%{text}<extra></extra>")
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(height=max(300, 24 * len(names) + 120), **frame(title))
    return fig


def bucket_figure(
    rep: CorpusReport, table: BucketTable, labels: Mapping[str, str] | None = None
) -> go.Figure:
    """Every system side by side in each bucket: METEOR with interval (segment buckets)
    or recall (word buckets)."""
    seg = table.unit == "segments"
    fig = go.Figure()
    for k, system in enumerate(rep.systems):
        bs = [table.get(system, lab) for lab in table.labels]
        y = [_nan0(b.meteor if seg else b.recall) if b else 0.0 for b in bs]
        err = None
        if seg:
            err = {
                "type": "data",
                "symmetric": False,
                "array": [_nan0((b.high or 0) - (b.meteor or 0)) if b and b.high is not None else 0
                          for b in bs],
                "arrayminus": [_nan0((b.meteor or 0) - (b.low or 0)) if b and b.low is not None
                               else 0 for b in bs],
            }  # fmt: skip
        fig.add_trace(
            go.Bar(
                x=[escape(lab) for lab in table.labels],
                y=y,
                name=escape(system),
                marker={"color": system_color(k), "pattern": {"shape": system_pattern(k)}},
                error_y=err,
                customdata=[b.count if b else 0 for b in bs],
                hovertemplate="%{x}: %{y:.4f} (n = %{customdata})<extra>"
                + escape(system)
                + "</extra>",
            )
        )
    fig.update_layout(barmode="group", height=380, **frame(escape(table.title)))
    fig.update_yaxes(title_text=_t(labels, "meteor" if seg else "recall"))
    return fig


def stage_figure(rep: CorpusReport, labels: Mapping[str, str] | None = None) -> go.Figure:
    """What each stage rescued: stacked shares of matched reference words per system."""
    fig = go.Figure()
    # every stage that matched, in the order the systems first name them
    modules = list(dict.fromkeys(m for loss in rep.losses for m, _c, _s in loss.stage_matches))
    for m in modules:
        shares = [
            dict((x, s) for x, _c, s in loss.stage_matches).get(m, 0.0) for loss in rep.losses
        ]
        fig.add_trace(
            go.Bar(x=shares, y=[escape(loss.system) for loss in rep.losses], orientation="h",
                   name=(labels or {}).get(STAGE_LABEL.format(m), m),
                   marker={"color": MODULE_COLORS.get(m, OTHER_STAGE_COLOR)})
        )  # fmt: skip
    fig.update_layout(barmode="stack", height=max(260, 26 * len(rep.losses) + 90),
                      **frame(_t(labels, "stages")))  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    return fig


def frag_figure(rep: CorpusReport, labels: Mapping[str, str] | None = None) -> go.Figure:
    """Each system's fragmentation distribution (segments per bin of 0.1)."""
    fig = go.Figure()
    for s, loss in enumerate(rep.losses):
        n = len(loss.frag_histogram)
        fig.add_trace(
            go.Scatter(x=[(k + 0.5) / n for k in range(n)], y=list(loss.frag_histogram),
                       mode="lines+markers", name=escape(loss.system),
                       line={"color": system_color(s)},
                       marker={"color": system_color(s), "symbol": system_symbol(s)})
        )  # fmt: skip
    fig.update_xaxes(title_text=_t(labels, "frag_axis"), range=[0, 1])
    fig.update_yaxes(title_text=_t(labels, "segments"))
    fig.update_layout(height=340, **frame(_t(labels, "frag")))
    return fig


def report_figures(
    rep: CorpusReport, labels: Mapping[str, str] | None = None
) -> list[tuple[str, go.Figure]]:
    """Every figure of the report, ``(id, figure)``, in reading order."""
    figs = [("ranking", ranking_figure(rep, labels))]
    if rep.ranking.pairs:
        figs.append(("pvalues", pvalue_figure(rep, labels)))
    for k, t in enumerate(rep.buckets):
        figs.append((f"bucket-{k}", bucket_figure(rep, t, labels)))
    figs.append(("stages", stage_figure(rep, labels)))
    figs.append(("frag", frag_figure(rep, labels)))
    return figs
