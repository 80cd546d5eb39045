"""Why A and B differ (issue 33): the path as a waterfall (:func:`reconcile_figure`) of a
:class:`meteor.analysis.reconcile_records.Reconciliation` read through the protocols below
(no import upwards).  Group keys are looked up in ``labels`` and escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import plotly.graph_objects as go

from meteor.viz.style import (
    Fmt,
    default_fmt,
    escape,
    frame,
    label,
    signed,
)
from meteor.viz.waterfall import waterfall_bars

__all__ = ["ReconcileRecord", "ReconcileStep", "reconcile_figure"]


class ReconcileStep(Protocol):
    """A step of the path (as :class:`meteor.analysis.reconcile_records.Step`)."""

    @property
    def group(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def score_before(self) -> float: ...


class ReconcileRecord(Protocol):
    """The record drawn (as :class:`meteor.analysis.reconcile_records.Reconciliation`)."""

    @property
    def name_a(self) -> str: ...
    @property
    def name_b(self) -> str: ...
    @property
    def score_a(self) -> float: ...
    @property
    def score_b(self) -> float: ...
    @property
    def steps(self) -> Sequence[ReconcileStep]: ...


def _group_label(labels: Mapping[str, str] | None, key: str) -> str:
    """``a+b`` (groups switched together): each label joined."""
    return " + ".join(label(labels, k) for k in key.split("+"))


def reconcile_figure(
    record: ReconcileRecord,
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
    title: str | None = None,
) -> go.Figure:
    """A's score → each step's change → B's score, as a waterfall.

    The relative bars are the steps' changes (they add up to the gap); the last bar is
    B's score.  ``meta.keys`` holds ``"A"``, the group keys and ``"B"``.
    """
    steps = list(record.steps)
    xs = [record.name_a] + [_group_label(labels, s.group) for s in steps] + [record.name_b]
    deltas = [s.score - s.score_before for s in steps]
    ys = [record.score_a, *deltas, 0.0]
    measure = ["absolute"] + ["relative"] * len(steps) + ["total"]
    text = [fmt(record.score_a), *(signed(d, fmt) for d in deltas), fmt(record.score_b)]
    hover = [f"{escape(x)}: {t}" for x, t in zip(xs, text, strict=True)]
    for k, s in enumerate(steps, start=1):
        hover[k] += f" → {fmt(s.score)}"
    # two steps may share a label (never here, but plotly would merge them): number them
    ticks = [escape(xs[0])] + [f"{k}. {escape(x)}" for k, x in enumerate(xs[1:-1], 1)]
    ticks.append(escape(xs[-1]))
    meta = {"role": "reconcile_path", "keys": ["A", *(s.group for s in steps), "B"]}
    fig = go.Figure(waterfall_bars(ticks, ys, measure, text, hover, meta))
    top = max([record.score_a, record.score_b, *(s.score for s in steps), 0.0])
    fig.update_layout(
        height=380,
        **frame(title),
        yaxis={"range": [0, max(1.0, top) * 1.12]},
        showlegend=False,
        plot_bgcolor="white",
    )
    return fig
