"""The "why this score" waterfall (:func:`waterfall_figure`): 1.0, each loss, the score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import plotly.graph_objects as go

from meteor.viz.style import MODULE_COLORS, UNMATCHED, Fmt, default_fmt, escape, frame, label

__all__ = ["WaterfallStep", "waterfall_figure"]


class WaterfallStep(Protocol):
    """A waterfall bar (as :class:`meteor.analysis.explain.parts.WaterfallStep`; no import upwards)."""

    @property
    def key(self) -> str: ...
    @property
    def value(self) -> float: ...


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
    text += [_signed(s.value, fmt) for s in steps[1:-1]]
    text.append(fmt(steps[-1].value))
    fig = go.Figure(
        go.Waterfall(
            x=[escape(x) for x in xs],
            y=ys,
            measure=measure,
            text=text,
            textposition="outside",
            hovertext=[f"{escape(x)}: {t}" for x, t in zip(xs, text, strict=True)],
            hoverinfo="text",
            decreasing={"marker": {"color": UNMATCHED}},
            increasing={"marker": {"color": MODULE_COLORS["exact"]}},
            totals={"marker": {"color": MODULE_COLORS["stem"]}},
            connector={"line": {"color": "#999999", "width": 1}},
            meta={"role": "waterfall", "keys": [s.key for s in steps]},
        )
    )
    fig.update_layout(
        height=360,
        **frame(title),
        yaxis={"range": [0, 1.12]},
        showlegend=False,
        plot_bgcolor="white",
    )
    return fig


def _signed(x: float, fmt: Fmt) -> str:
    if x == 0:
        return fmt(0.0)
    return ("−" if x < 0 else "+") + fmt(abs(x))
