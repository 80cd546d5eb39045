"""A segment-level agreement over a grid of two of α, β, γ, δ (:func:`agreement_grid`).

Each point re-scores a METEOR metric's kept sufficient statistics
(:func:`~meteor.analysis.agreement.rescore`, no aligning: Meteor 1.5's aligner never reads
these parameters), so each cell equals :func:`~meteor.analysis.agreement.correlate` run
with those settings.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Judged, MetricScores, judged_rows, rescore
from meteor.errors import InputError
from meteor.json_numbers import json_ready

__all__ = ["GRID_PARAMS", "GRID_VALUES", "AgreementGrid", "agreement_grid"]

#: The parameters a grid may span: the score formula's, which leave the alignment alone.
GRID_PARAMS = ("alpha", "beta", "gamma", "delta")

#: Default values per parameter (two decimals, inside the app's slider ranges).
GRID_VALUES: dict[str, tuple[float, ...]] = {
    "alpha": tuple(round(0.1 * k, 2) for k in range(1, 11)),
    "beta": tuple(round(0.5 * k, 2) for k in range(0, 11)),
    "gamma": tuple(round(0.1 * k, 2) for k in range(0, 11)),
    "delta": tuple(round(0.1 * k, 2) for k in range(0, 11)),
}


@dataclass(frozen=True)
class AgreementGrid:
    """A segment-level measure at every (x, y) setting of two parameters.

    Attributes:
        metric: the METEOR metric re-scored.
        measure: the :data:`~meteor.analysis.agreement_stats.MEASURES` key.
        x_param, y_param: the two parameters (of :data:`GRID_PARAMS`).
        x_values, y_values: their values.
        values: ``values[i][j]``: the measure at ``y_values[i]``, ``x_values[j]`` (NaN:
            undefined, e.g. every score equal).
        base: the metric's own ``(x, y)`` values.
    """

    metric: str
    measure: str
    x_param: str
    y_param: str
    x_values: tuple[float, ...]
    y_values: tuple[float, ...]
    values: tuple[tuple[float, ...], ...]
    base: tuple[float, float]

    def best(self) -> tuple[float, float, float] | None:
        """``(x, y, value)`` of the highest finite cell (the first on ties), or None."""
        found: tuple[float, float, float] | None = None
        for i, row in enumerate(self.values):
            for j, v in enumerate(row):
                if math.isfinite(v) and (found is None or v > found[2]):
                    found = (self.x_values[j], self.y_values[i], v)
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "measure": self.measure,
            "x": {"param": self.x_param, "values": list(self.x_values)},
            "y": {"param": self.y_param, "values": list(self.y_values)},
            "values": json_ready(self.values),
            "base": list(self.base),
        }


def agreement_grid(
    judged: Judged,
    scores: MetricScores,
    x_param: str = "alpha",
    y_param: str = "beta",
    *,
    x_values: Sequence[float] | None = None,
    y_values: Sequence[float] | None = None,
    measure: str = "kendall_flat",
    darr_threshold: float = 25.0,
    progress: Callable[[float, str], None] | None = None,
) -> AgreementGrid:
    """``measure`` at every point of ``x_values × y_values`` (default :data:`GRID_VALUES`).

    Raises:
        InputError: a parameter not in :data:`GRID_PARAMS`, the same parameter twice, an
            unknown measure, a metric without kept statistics (not METEOR), or a value
            the parameter does not accept.
    """
    for p in (x_param, y_param):
        if p not in GRID_PARAMS:
            raise InputError(f"unknown grid parameter {p!r}; choose from {', '.join(GRID_PARAMS)}")
    if x_param == y_param:
        raise InputError(f"the grid needs two different parameters, got {x_param!r} twice")
    if measure not in st.MEASURES:
        raise InputError(f"unknown measure {measure!r}; choose from {', '.join(st.MEASURES)}")
    if scores.stats is None or scores.params is None:
        raise InputError(f"{scores.name} is not a METEOR metric: it has no statistics to re-score")
    xs = tuple(float(v) for v in (GRID_VALUES[x_param] if x_values is None else x_values))
    ys = tuple(float(v) for v in (GRID_VALUES[y_param] if y_values is None else y_values))
    if not xs or not ys:
        raise InputError("the grid needs at least one value per parameter")
    human, darr, items, _ = judged_rows(judged)
    data = st.SegmentData.build(human, items, darr, darr_threshold)
    rows: list[tuple[float, ...]] = []
    for i, y in enumerate(ys):
        row: list[float] = []
        for x in xs:
            try:
                changes: dict[str, Any] = {x_param: x, y_param: y}
                params = dataclasses.replace(scores.params, **changes)
            except ValueError as exc:  # ParamError is a ValueError
                raise InputError(str(exc)) from exc
            seg = np.asarray(rescore(scores, params), dtype=float)
            row.append(st.segment_measure(measure, data, seg))
        rows.append(tuple(row))
        if progress is not None:
            progress((i + 1) / len(ys), f"{scores.name}: {y_param} = {y:g}")
    base = (float(getattr(scores.params, x_param)), float(getattr(scores.params, y_param)))
    return AgreementGrid(scores.name, measure, x_param, y_param, xs, ys, tuple(rows), base)
