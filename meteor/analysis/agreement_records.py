"""The records of :func:`meteor.analysis.agreement.correlate`: :class:`Agreement` (with
:class:`MetricAgreement` per metric and :class:`Comparison` per pair of metrics), frozen and
JSON-serialisable, every measure under its exact name (:data:`MEASURE_NAMES`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypeVar

from meteor.analysis.agreement_limits import williams_reason
from meteor.analysis.agreement_stats import Estimate
from meteor.analysis.judged import Join
from meteor.analysis.system_level import SystemLevel
from meteor.json_numbers import json_number
from meteor.params import Params
from meteor.stats import Stats

__all__ = [
    "MEASURE_NAMES",
    "SYSTEM_MEASURE_NAMES",
    "Agreement",
    "Comparison",
    "MetricAgreement",
]


#: The exact name of each segment-level measure in the JSON record and the text output.
MEASURE_NAMES: dict[str, str] = {
    "kendall_flat": "kendall_tau_b_flattened",
    "kendall_item": "kendall_tau_b_by_item",
    "pearson_flat": "pearson_flattened",
    "pearson_item": "pearson_by_item",
    "spearman_flat": "spearman_flattened",
    "spearman_item": "spearman_by_item",
    "darr_flat": "tau_like_flattened",
    "darr_item": "tau_like_by_item_pair_weighted",
}
#: The exact name of each system-level measure.
SYSTEM_MEASURE_NAMES: dict[str, str] = {"pearson": "pearson", "kendall": "kendall_tau_b"}


@dataclass(frozen=True)
class MetricScores:
    """One metric's scores on a judged corpus's rows (system-major, corpus order).

    Attributes:
        name: the label (a preset name, a Params label, ``chrf``, a column name).
        kind: ``preset``, ``params``, ``baseline`` or ``column``.
        signature: the metric's signature (METEOR's, sacreBLEU's; ``column:NAME``).
        segment: per row, the segment score.
        system: per system, the corpus score.
        stats: METEOR only: per row, the sufficient statistics (for :func:`rescore`).
        params: METEOR only: the settings.
        system_rule: how ``system`` was computed (:mod:`meteor.analysis.system_level`).
        systems: the systems' names, in the order of ``system``.
    """

    name: str
    kind: str
    signature: str
    segment: tuple[float, ...]
    system: tuple[float, ...]
    stats: tuple[Stats, ...] | None = None
    params: Params | None = None
    system_rule: str = ""
    systems: tuple[str, ...] = ()


@dataclass(frozen=True)
class MetricAgreement:
    """One metric's agreement: ``segment`` by :data:`~meteor.analysis.agreement_stats.MEASURES`
    key, ``system`` by ``pearson``/``kendall``."""

    name: str
    kind: str
    signature: str
    segment: tuple[tuple[str, Estimate], ...]
    system: tuple[tuple[str, Estimate], ...]
    system_rule: str = ""

    def seg(self, key: str) -> Estimate:
        return dict(self.segment)[key]

    def sys(self, key: str) -> Estimate:
        return dict(self.system)[key]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "signature": self.signature,
            "segment": {MEASURE_NAMES[k]: e.to_dict() for k, e in self.segment},
            "system": {SYSTEM_MEASURE_NAMES[k]: e.to_dict() for k, e in self.system},
            "system_score": self.system_rule,
        }


@dataclass(frozen=True)
class Comparison:
    """``a`` vs ``b`` on one segment-level measure: Δ = a − b and its PERM-BOTH p-value;
    beside it Williams' test of their Pearson correlations, ``(t, two-sided p)``, at
    segment level (flattened, over the rows) and system level (None: no human scores)."""

    a: str
    b: str
    measure: str
    delta: float
    p_value: float
    williams_segment: tuple[float, float] | None = None
    williams_system: tuple[float, float] | None = None

    @property
    def reason(self) -> str | None:
        """Why Δ and its p-value are undefined (None when they are numbers)."""
        if math.isfinite(self.delta) and math.isfinite(self.p_value):
            return None
        return f"{self.measure} is undefined for {self.a} or {self.b} on these rows"

    def to_dict(self) -> dict[str, Any]:
        def w(x: tuple[float, float] | None) -> dict[str, Any] | None:
            if x is None:
                return None
            return {
                "t": json_number(x[0]),
                "p_value": json_number(x[1]),
                "reason": williams_reason(x),
            }

        return {"a": self.a, "b": self.b, "measure": MEASURE_NAMES.get(self.measure),
                "delta": json_number(self.delta), "p_value": json_number(self.p_value),
                "reason": self.reason,
                "williams_pearson": {"segment_flat": w(self.williams_segment),
                                     "system": w(self.williams_system)}}  # fmt: skip


@dataclass(frozen=True)
class Agreement:
    """What :func:`correlate` measured, with the settings that reproduce it."""

    human_column: str
    higher_is_better: bool
    darr_column: str
    darr_threshold: float
    n_rows: int
    n_items: int
    n_systems: int
    n_darr_pairs: int
    n_bootstrap: int
    n_permutations: int
    seed: int
    level: float
    test_measure: str
    metrics: tuple[MetricAgreement, ...]
    comparisons: tuple[Comparison, ...]
    pairs_source: str | None = None
    joins: tuple[Join, ...] = ()
    system_level: SystemLevel = SystemLevel()
    darr_notice: str = ""
    sided: str = "two"
    #: the scores measured, in the order of ``metrics`` (not part of :meth:`to_dict`).
    scores: tuple[MetricScores, ...] = field(default=(), compare=False, repr=False)

    def scores_of(self, name: str) -> MetricScores:
        """The scores of metric ``name``."""
        return _named(self.scores, name, "scores of")

    def sides(self) -> str:
        """How the tests' p-values are sided, in words (the default, two-sided, named)."""
        if self.sided == "one":
            return "one-sided in the direction observed (mt-metrics-eval's reading)"
        return "two-sided (the default; --sided one: mt-metrics-eval's one-sided)"

    def metric(self, name: str) -> MetricAgreement:
        return _named(self.metrics, name, "metric")

    def to_dict(self) -> dict[str, Any]:
        return {
            "human_column": self.human_column,
            "higher_is_better": self.higher_is_better,
            "darr": {
                "column": None if self.pairs_source else self.darr_column,
                "threshold": None if self.pairs_source else self.darr_threshold,
                "pairs_file": self.pairs_source,
                "pairs": self.n_darr_pairs,
                "rule": None if self.pairs_source else "difference >= threshold (mt-metrics-eval)",
                "by_item": "pair-weighted (= all pairs pooled, WMT's DARR)",
                "notice": self.darr_notice or None,
            },  # fmt: skip
            "joins": [j.to_dict() for j in self.joins],
            "system_level": self.system_level.to_dict(),
            "rows": self.n_rows,
            "items": self.n_items,
            "systems": self.n_systems,
            "bootstrap": {
                "resamples": self.n_bootstrap,
                "seed": self.seed,
                "level": self.level,
                "segment_level": "items",
                "system_level": "systems",
            },  # fmt: skip
            "significance": {
                "method": f"PERM-BOTH (Deutsch et al. 2021), z-scored metrics, {self.sides()}, "
                "p = (k + 1) / (N + 1)",
                "pearson": f"Williams (1959) t, n - 3 df, {self.sides()} (Graham & Baldwin 2014)",
                "sided": self.sided,
                "measure": MEASURE_NAMES.get(self.test_measure),
                "permutations": self.n_permutations,
            },  # fmt: skip
            "metrics": [m.to_dict() for m in self.metrics],
            "comparisons": [c.to_dict() for c in self.comparisons],
        }


_Named = TypeVar("_Named", MetricScores, MetricAgreement)


def _named(items: tuple[_Named, ...], name: str, what: str) -> _Named:
    """The item called ``name`` (KeyError naming ``what`` was asked for and what there is)."""
    for m in items:
        if m.name == name:
            return m
    raise KeyError(f"no {what} {name!r}; metrics: {', '.join(m.name for m in items)}")
