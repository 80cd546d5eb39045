"""The system level of :func:`meteor.analysis.agreement.correlate`: WMT's convention, the
official human system scores against each metric's system score over the whole test set as
the metric defines it (:func:`official_level`, :func:`system_rule`), or without official
scores the mean of each system's judged rows (:class:`SystemLevel` says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from meteor.errors import InputError
from meteor.io.system_scores import SystemScores
from meteor.params import Params

__all__ = [
    "COLUMN_MEAN",
    "CORPUS",
    "MEAN",
    "SUMMED",
    "SystemLevel",
    "official_level",
    "system_rule",
]

#: How a metric's system score is computed, by rule.
SUMMED = "summed statistics (Meteor 1.5's system score)"
MEAN = "mean of segment scores (as NLTK / HF evaluate, which define no corpus statistics)"
CORPUS = "sacreBLEU corpus_score"
COLUMN_MEAN = "mean of the column's segment scores"


def system_rule(params: Params, *, by_definition: bool = True) -> str:
    """How a METEOR setting defines its system score: Meteor 1.5 sums the segments'
    statistics; the NLTK family (greedy aligner) defines only a sentence score, and HF
    evaluate's corpus number is their mean.  ``by_definition=False``: summed for every
    setting."""
    return MEAN if by_definition and params.aligner == "greedy" else SUMMED


@dataclass(frozen=True)
class SystemLevel:
    """Which system scores the system level correlates.

    Attributes:
        official: the official human system scores' file (None: the mean of each system's
            judged rows' human scores, not WMT's convention).
        column: the official scores' column.
        all_rows: the metric's system score from every output of the input (WMT's
            convention), or only from the judged rows (False).
        systems: the systems correlated.
        no_official: systems of the input without an official score (left out).
        not_in_input: systems with an official score but no output in the input.
    """

    official: str | None = None
    column: str | None = None
    all_rows: bool = False
    systems: tuple[str, ...] = ()
    no_official: tuple[str, ...] = ()
    not_in_input: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: what the system level correlates."""
        if self.official is None:
            return ("system level: human = mean of each system's judged segment scores, metric "
                    "= over the judged rows only (not WMT's convention: give --system-scores "
                    "for the official system scores)")  # fmt: skip
        text = (f"system level: human = official system scores ({self.official}, column "
                f"{self.column}), metric = over "
                f"{'every output of the input' if self.all_rows else 'the judged rows'}; "
                f"{len(self.systems)} systems")  # fmt: skip
        if self.no_official:
            text += f"; without an official score, left out: {', '.join(self.no_official)}"
        if self.not_in_input:
            text += f"; official score but no output, unused: {', '.join(self.not_in_input)}"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "human": "official" if self.official else "mean_of_judged_segments",
            "official_file": self.official,
            "official_column": self.column,
            "metric_rows": "all" if self.all_rows else "judged",
            "systems": list(self.systems),
            "no_official_score": list(self.no_official),
            "not_in_input": list(self.not_in_input),
            "description": self.describe(),
        }


def official_level(
    official: SystemScores,
    scored: Sequence[tuple[Sequence[str], Sequence[float]]],
    *,
    higher_is_better: bool = True,
    all_rows: bool = True,
) -> tuple[SystemLevel, np.ndarray, list[np.ndarray]]:
    """The official human system scores and each metric's system scores (``scored``: per
    metric, its system names and scores) over the systems both have, and the record.

    Raises:
        InputError: fewer than 2 systems in common.
    """
    corpus_names = list(scored[0][0]) if scored else []
    given = official.as_dict()
    used = tuple(n for n in corpus_names if n in given)
    level = SystemLevel(
        official.source,
        official.column,
        all_rows,
        used,
        tuple(n for n in corpus_names if n not in given),
        tuple(n for n in given if n not in corpus_names),
    )
    if len(used) < 2:
        raise InputError(
            f"{official.source}: {len(used)} system(s) match the input's systems "
            f"({', '.join(corpus_names)}); the system level needs at least 2"
        )
    sign = 1.0 if higher_is_better else -1.0
    sys_human = sign * np.asarray([given[n] for n in used], dtype=float)
    sys_metric = []
    for systems, values in scored:
        by_name = dict(zip(systems, values, strict=True))
        sys_metric.append(np.asarray([by_name[n] for n in used], dtype=float))
    return level, sys_human, sys_metric
