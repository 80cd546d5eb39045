"""Plotly figures for corpus results: library records in, ``go.Figure`` out.

Every point that stands for a segment carries ``customdata = [system index, segment index]``
(0-based) so a page can open that segment; a hover shows its number as the tables do
(1-based, ``customdata[2]``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from meteor.analysis.significance import CorpusIntervals
from meteor.types import CorpusResult, MeteorResult
from meteor.viz.style import SYSTEM_COLORS, escape, system_color, system_symbol

__all__ = [
    "FIELDS",
    "LABELS_EN",
    "SYSTEM_COLORS",
    "ab_scatter",
    "distributions",
    "interval_bars",
    "score_vs_length",
]

#: Segment fields that can be plotted, with their axis titles.
FIELDS: dict[str, str] = {
    "score": "segment score",
    "precision": "precision",
    "recall": "recall",
    "frag": "fragmentation (chunks / mean matches)",
    "penalty": "fragmentation penalty",
    "fmean": "Fmean",
}


#: Every display string of these figures by key (a page passes ``labels`` with these keys;
#: missing keys fall back to these).  ``field_*`` title the :data:`FIELDS`.
LABELS_EN: dict[str, str] = {
    **{f"field_{k}": v for k, v in FIELDS.items()},
    "segments": "segments",
    "segment": "segment",
    "length": "length",
    "score": "score",
    "ref_length": "reference length (tokens)",
    "hyp_length": "hypothesis length (tokens)",
    "better": "{name} better",
    "tie": "tie",
    "equal": "equal",
    "a_axis": "{name} segment score (A)",
    "b_axis": "{name} segment score (B)",
    "corpus_bar": "corpus score (summed statistics)",
    "mean_bar": "mean of segment scores",
}


#: A horizontal legend above the plot (below, it covers the x-axis title), with room for it.
_LEGEND_ABOVE: dict[str, Any] = {
    "legend": dict(orientation="h", yanchor="bottom", y=1.02, x=0.0),
    "margin": dict(t=50, b=40, l=50, r=10),
}


def _l(labels: Mapping[str, str] | None, key: str, **kw: str) -> str:
    """The display string ``key`` (``labels`` first, then English), Plotly-escaped."""
    text = (labels or {}).get(key) or LABELS_EN[key]
    return escape(text.format(**kw) if kw else text)


def _values(segments: Sequence[MeteorResult], field: str) -> tuple[list[float], list[int]]:
    """Finite values of ``field`` and their segment indices (NaN P/R/frag are left out)."""
    values = [float(getattr(s, field)) for s in segments]
    idx = [k for k, v in enumerate(values) if math.isfinite(v)]
    return [values[k] for k in idx], idx


def distributions(
    systems: Mapping[str, CorpusResult],
    *,
    bins: int = 20,
    labels: Mapping[str, str] | None = None,
) -> go.Figure:
    """A 2×2 grid of histograms: score, precision, recall and fragmentation."""
    panels = ("score", "precision", "recall", "frag")
    fig = make_subplots(rows=2, cols=2, subplot_titles=[_l(labels, "field_" + p) for p in panels])
    for p, field in enumerate(panels):
        row, col = p // 2 + 1, p % 2 + 1
        hover = f"%{{fullData.name}}<br>%{{x}}<br>%{{y}} {_l(labels, 'segments')}<extra></extra>"
        for k, (name, res) in enumerate(systems.items()):
            xs, idx = _values(res.segments, field)  # bins on [0, 1] but for fragmentation
            trace = go.Histogram(
                x=xs,
                name=escape(name),
                marker_color=system_color(k),
                opacity=0.6 if len(systems) > 1 else 0.9,
                xbins=dict(start=0.0, end=1.0 + 1e-9, size=1.0 / bins) if field != "frag" else None,
                customdata=[[k, i] for i in idx],  # each bar's segments
                hovertemplate=hover,
            )
            fig.add_trace(trace.update(legendgroup=str(k), showlegend=p == 0), row=row, col=col)
    fig.update_layout(
        barmode="overlay",
        height=560,
        legend=dict(orientation="h"),
        margin=dict(t=40, b=30, l=40, r=10),
    )
    return fig


def score_vs_length(
    systems: Mapping[str, CorpusResult],
    *,
    length: str = "ref_len",
    labels: Mapping[str, str] | None = None,
) -> go.Figure:
    """Segment score against length in tokens (``ref_len`` or ``hyp_len``), one trace per system."""
    if length not in ("ref_len", "hyp_len"):
        raise ValueError(f"length must be 'ref_len' or 'hyp_len', got {length!r}")
    fig = go.Figure()
    for k, (name, res) in enumerate(systems.items()):
        segs = res.segments
        fig.add_trace(
            go.Scatter(
                x=[getattr(s.stats, length) for s in segs],
                y=[s.score for s in segs],
                mode="markers",
                name=escape(name),
                marker=dict(color=system_color(k), symbol=system_symbol(k), size=6, opacity=0.6),
                customdata=[[k, i, i + 1] for i in range(len(segs))],
                hovertemplate=f"%{{fullData.name}} {_l(labels, 'segment')} %{{customdata[2]}}"
                f"<br>{_l(labels, 'length')} %{{x}}<br>{_l(labels, 'score')} %{{y:.4f}}"
                "<extra></extra>",
            )
        )
    fig.update_layout(
        xaxis_title=_l(labels, "ref_length" if length == "ref_len" else "hyp_length"),
        yaxis_title=_l(labels, "field_score"),
        yaxis_range=[-0.02, 1.02],
        height=360,
        clickmode="event+select",
        **_LEGEND_ABOVE,
    )
    return fig


def ab_scatter(
    a: CorpusResult,
    b: CorpusResult,
    *,
    names: tuple[str, str] = ("A", "B"),
    labels: Mapping[str, str] | None = None,
) -> go.Figure:
    """Segment scores of A (x) against B (y), with the diagonal: traces "B better" (above
    it), "A better" and "tie"; ``customdata`` is ``[1, segment index]``."""
    sa, sb = a.segments, b.segments
    if len(sa) != len(sb):
        raise ValueError(f"A has {len(sa)} segments but B has {len(sb)}")
    # by side, not by label: two systems may share a name
    traces = {
        "b": (_l(labels, "better", name=names[1]), system_color(1)),
        "a": (_l(labels, "better", name=names[0]), system_color(0)),
        "tie": (_l(labels, "tie"), "#7f7f7f"),
    }
    groups: dict[str, list[int]] = {side: [] for side in traces}
    for k, (x, y) in enumerate(zip(sa, sb, strict=True)):
        groups["b" if y.score > x.score else "a" if x.score > y.score else "tie"].append(k)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            line=dict(color="#aaaaaa", dash="dot"),
            hoverinfo="skip",
            name=_l(labels, "equal"),
            showlegend=False,
        )
    )
    for side, idx in groups.items():
        label, color = traces[side]
        fig.add_trace(
            go.Scatter(
                x=[sa[k].score for k in idx],
                y=[sb[k].score for k in idx],
                mode="markers",
                name=label,
                marker=dict(color=color, size=7, opacity=0.7),
                customdata=[[1, k, k + 1] for k in idx],
                hovertemplate=_l(labels, "segment")
                + " %{customdata[2]}<br>A %{x:.4f}<br>B %{y:.4f}<extra></extra>",
            )
        )
    fig.update_layout(
        xaxis_title=_l(labels, "a_axis", name=names[0]),
        yaxis_title=_l(labels, "b_axis", name=names[1]),
        xaxis_range=[-0.02, 1.02],
        yaxis_range=[-0.02, 1.02],
        height=420,
        clickmode="event+select",
        **_LEGEND_ABOVE,
    )
    return fig


def interval_bars(
    intervals: Mapping[str, CorpusIntervals], *, labels: Mapping[str, str] | None = None
) -> go.Figure:
    """Corpus score and mean segment score per system, with bootstrap intervals as error bars."""
    fig = go.Figure()
    names = list(intervals)
    for label, attr, color in (
        (_l(labels, "corpus_bar"), "corpus", "#1f77b4"),
        (_l(labels, "mean_bar"), "mean_segment", "#ff7f0e"),
    ):
        vals = [getattr(intervals[n], attr) for n in names]
        fig.add_trace(
            go.Bar(
                x=[escape(n) for n in names],
                y=[v.value for v in vals],
                name=label,
                marker_color=color,
                error_y=dict(
                    type="data",
                    symmetric=False,
                    array=[v.high - v.value for v in vals],
                    arrayminus=[v.value - v.low for v in vals],
                ),
                hovertemplate="%{x}: %{y:.4f}<extra>" + label + "</extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        yaxis_title="METEOR",
        height=320,
        **_LEGEND_ABOVE,
    )
    return fig
