"""The "why this score" waterfall (:func:`waterfall_figure`): 1.0, each loss, the score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import plotly.graph_objects as go

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

__all__ = ["LABEL_LINE", "WaterfallStep", "waterfall_bars", "waterfall_figure", "wrap_label"]


class WaterfallStep(Protocol):
    """A waterfall bar (as :class:`meteor.analysis.explain.parts.WaterfallStep`; no import upwards)."""

    @property
    def key(self) -> str: ...
    @property
    def value(self) -> float: ...


def waterfall_bars(
    x: Sequence[str],
    y: Sequence[float],
    measure: Sequence[str],
    text: Sequence[str],
    hover: Sequence[str],
    meta: Mapping[str, object],
) -> go.Waterfall:
    """The bars of every waterfall here: gains green, losses red, totals blue, text outside."""
    return go.Waterfall(
        x=x,
        y=y,
        measure=measure,
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


def waterfall_figure(
    steps: Sequence[WaterfallStep],
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
    title: str | None = None,
) -> go.Figure:
    """1.0 → each loss → the score, as a waterfall (from :func:`meteor.analysis.explain.parts.waterfall`)."""
    xs = [label(labels, s.key) for s in steps]
    measure = ["absolute"] + ["relative"] * (len(steps) - 2) + ["total"]
    ys = [s.value for s in steps[:-1]] + [0.0]
    text = [fmt(steps[0].value)]
    text += [signed(s.value, fmt) for s in steps[1:-1]]
    text.append(fmt(steps[-1].value))
    hover = [f"{escape(x)}: {t}" for x, t in zip(xs, text, strict=True)]
    meta = {"role": "waterfall", "keys": [s.key for s in steps]}
    fig = go.Figure(waterfall_bars([escape(x) for x in xs], ys, measure, text, hover, meta))
    ticks = [wrap_label(escape(x)) for x in xs]
    lines = max((t.count("<br>") + 1 for t in ticks), default=1)
    fig.update_layout(
        height=360,
        **frame(title, bottom=16 * lines + 14),
        yaxis={"range": [0, 1.12]},
        # horizontal labels broken into short lines, with room below them: rotated labels
        # ran off the figure's bottom edge ("perfect m", "unmatche") where no theme grows
        # the margin (the HTML download)
        xaxis={
            "tickmode": "array",
            "tickvals": [escape(x) for x in xs],
            "ticktext": ticks,
            "tickangle": 0,
            "automargin": True,
        },
        showlegend=False,
        plot_bgcolor="white",
    )
    return fig


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
