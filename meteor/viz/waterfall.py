"""Waterfalls: why this score (:func:`waterfall_figure`: 1.0, each loss, the score) and why A
and B differ (:func:`reconcile_figure`: the path of a
:class:`meteor.analysis.reconcile_records.Reconciliation`).  Labels are escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from meteor.analysis.explain.parts import WaterfallStep
from meteor.analysis.reconcile_records import Reconciliation
from meteor.viz.style import (
    MODULE_COLORS,
    UNMATCHED,
    Fmt,
    default_fmt,
    escape,
    frame,
    label,
    signed,
)

__all__ = ["LABEL_LINE", "reconcile_figure", "waterfall_figure", "wrap_label"]


def _waterfall(
    names: Sequence[str],
    ticks: Sequence[str],
    values: tuple[float, Sequence[float], float],
    fmt: Fmt,
    meta: Mapping[str, object],
    hover_after: Sequence[str],
    **layout: Any,
) -> go.Figure:
    """The first value, the changes and the last (a total) as a waterfall: gains green,
    losses red, totals blue, text outside; a bar's hover is its name, its text and
    ``hover_after`` (the changes' only)."""
    first, deltas, last = values
    text = [fmt(first), *(signed(d, fmt) for d in deltas), fmt(last)]
    hover = [f"{escape(x)}: {t}" for x, t in zip(names, text, strict=True)]
    for k, after in enumerate(hover_after, start=1):
        hover[k] += after
    bars = go.Waterfall(
        x=ticks,
        y=[first, *deltas, 0.0],
        measure=["absolute"] + ["relative"] * len(deltas) + ["total"],
        text=text,
        textposition="outside",
        hovertext=hover,
        hoverinfo="text",
        decreasing={"marker": {"color": UNMATCHED}},
        increasing={"marker": {"color": MODULE_COLORS["exact"]}},
        totals={"marker": {"color": MODULE_COLORS["stem"]}},
        connector={"line": {"color": "#999999", "width": 1}},
        meta=meta,
    )
    fig = go.Figure(bars)
    fig.update_layout(**layout, showlegend=False, plot_bgcolor="white")
    return fig


def waterfall_figure(
    steps: Sequence[WaterfallStep],
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
    title: str | None = None,
) -> go.Figure:
    """1.0 → each loss → the score, as a waterfall (from :func:`meteor.analysis.explain.parts.waterfall`)."""
    xs = [label(labels, s.key) for s in steps]
    ticks = [wrap_label(escape(x)) for x in xs]
    lines = max((t.count("<br>") + 1 for t in ticks), default=1)
    return _waterfall(
        xs,
        [escape(x) for x in xs],
        (steps[0].value, [s.value for s in steps[1:-1]], steps[-1].value),
        fmt,
        {"role": "waterfall", "keys": [s.key for s in steps]},
        (),
        height=360,
        **frame(title, bottom=16 * lines + 14),
        yaxis={"range": [0, 1.12]},
        # horizontal labels in short lines, room below them (no theme grows the margin)
        xaxis={
            "tickmode": "array",
            "tickvals": [escape(x) for x in xs],
            "ticktext": ticks,
            "tickangle": 0,
            "automargin": True,
        },
    )


#: Characters per line of a waterfall's tick label: six labels share the plot's width.
LABEL_LINE = 16


def wrap_label(text: str, width: int = LABEL_LINE) -> str:
    """``text`` broken at spaces into lines of at most ``width`` characters (a longer word
    keeps its own line), joined with ``<br>`` for a plotly tick label."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(lines)


def reconcile_figure(
    record: Reconciliation,
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
    title: str | None = None,
) -> go.Figure:
    """A's score → each step's change (they add up to the gap) → B's score, as a waterfall;
    ``meta.keys`` holds ``"A"``, the group keys and ``"B"`` (``a+b``: each label joined)."""
    steps = list(record.steps)
    groups = [" + ".join(label(labels, k) for k in s.group.split("+")) for s in steps]
    xs = [record.name_a, *groups, record.name_b]
    # two steps may share a label (never here, but plotly would merge them): number them
    ticks = [escape(xs[0])] + [f"{k}. {escape(x)}" for k, x in enumerate(groups, 1)]
    ticks.append(escape(xs[-1]))
    top = max([record.score_a, record.score_b, *(s.score for s in steps), 0.0])
    return _waterfall(
        xs,
        ticks,
        (record.score_a, [s.score - s.score_before for s in steps], record.score_b),
        fmt,
        {"role": "reconcile_path", "keys": ["A", *(s.group for s in steps), "B"]},
        [f" → {fmt(s.score)}" for s in steps],
        height=380,
        **frame(title),
        yaxis={"range": [0, max(1.0, top) * 1.12]},
    )
