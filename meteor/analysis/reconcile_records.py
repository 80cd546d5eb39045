"""The records of :func:`meteor.analysis.reconcile.reconcile`: a step of the path, a
combination that cannot run, and the whole reconciliation (each frozen, ``to_dict()`` JSON-ready)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meteor.analysis.reconcile_reasons import Reason
from meteor.json_numbers import json_ready
from meteor.params import Params
from meteor.presets import PRESETS
from meteor.types import Match, MeteorResult

__all__ = ["Invalid", "Reconciliation", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the path: the groups switched from A's values to B's, and its effect.

    ``score`` is the score after the step (under the aggregation in force); the alignment
    fields are ``None`` for a corpus, the corpus fields for a pair.  ``result`` and ``params``
    (a pair's record and setting after the step, which the app draws) are not in
    :meth:`to_dict`; ``words`` and ``note`` render ``reasons`` and ``note_reason`` in English.
    """

    groups: tuple[str, ...]
    changes: tuple[tuple[str, Any, Any], ...]
    score_before: float
    score: float
    reasons: tuple[Reason, ...]
    note_reason: Reason | None = None
    matches_added: tuple[Match, ...] = ()
    matches_lost: tuple[Match, ...] = ()
    chunks: tuple[int, int] | None = None
    precision: tuple[float, float] | None = None
    recall: tuple[float, float] | None = None
    penalty: tuple[float, float] | None = None
    best_ref: tuple[int, int] | None = None
    score_sum: float | None = None
    score_mean: float | None = None
    moved: tuple[tuple[int, float, float], ...] = ()
    result: MeteorResult | None = field(default=None, compare=False, repr=False)
    params: Params | None = field(default=None, compare=False, repr=False)

    @property
    def group(self) -> str:
        """The group's key (``a+b`` when a step had to switch several together)."""
        return "+".join(self.groups)

    @property
    def delta(self) -> float:
        return self.score - self.score_before

    @property
    def words(self) -> tuple[str, ...]:
        """What the step did, in English (:attr:`reasons` rendered)."""
        return tuple(r.text for r in self.reasons)

    @property
    def note(self) -> str:
        """Why the path's order moved here, in English (``""``: it did not)."""
        return self.note_reason.text if self.note_reason is not None else ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (an undefined number, e.g. the penalty with no match, ``None``)."""
        d: dict[str, Any] = {
            "group": self.group,
            "groups": list(self.groups),
            "changes": {f: [va, vb] for f, va, vb in self.changes},
            "score_before": self.score_before,
            "score": self.score,
            "delta": self.delta,
            "words": list(self.words),
        }
        if self.note:
            d["note"] = self.note
        if self.chunks is not None:
            d["matches_added"] = [_match_dict(m) for m in self.matches_added]
            d["matches_lost"] = [_match_dict(m) for m in self.matches_lost]
            for f in ("chunks", "precision", "recall", "penalty", "best_ref"):  # (before, after)
                d[f] = list(getattr(self, f) or ())
        if self.score_sum is not None:
            d["score_sum"] = self.score_sum
            d["score_mean"] = self.score_mean
            d["moved"] = [{"segment": k + 1, "before": x, "after": y} for k, x, y in self.moved]
        out: dict[str, Any] = json_ready(d)
        return out


@dataclass(frozen=True, slots=True)
class Invalid:
    """A combination of switched groups that cannot run, and how the shares value it."""

    groups: tuple[str, ...]
    reason: str
    valued_as: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": list(self.groups),
            "reason": self.reason,
            "valued_as": list(self.valued_as),
        }


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """Why A and B disagree: both scores, the path from A to B and each group's share."""

    name_a: str
    name_b: str
    params_a: Params
    params_b: Params
    corpus: bool
    segments: int
    score_a: float
    score_b: float
    groups: tuple[str, ...]
    steps: tuple[Step, ...]
    shares: tuple[tuple[str, float], ...]
    share_reason: Reason
    share_errors: tuple[tuple[str, float], ...] = ()
    invalid: tuple[Invalid, ...] = ()
    interactions: tuple[tuple[str, str, float], ...] = ()
    reasons: tuple[Reason, ...] = ()
    aggregation: tuple[str, str] = ("sum", "sum")
    #: a pair's record under A (B's is the last step's ``result``); not in :meth:`to_dict`
    result_a: MeteorResult | None = field(default=None, compare=False, repr=False)

    @property
    def gap(self) -> float:
        return self.score_b - self.score_a

    @property
    def share_method(self) -> str:
        """How the shares were computed, in English (:attr:`share_reason` rendered)."""
        return self.share_reason.text

    @property
    def words(self) -> tuple[str, ...]:
        """The path against the shares, in English (:attr:`reasons` rendered)."""
        return tuple(r.text for r in self.reasons)

    def share(self, key: str) -> float:
        """The share of group ``key`` (0.0 for a group in which A and B agree)."""
        return dict(self.shares).get(key, 0.0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``score_a``, ``score_b``, ``steps``, ``shares`` ...; an undefined
        number ``None``, :func:`~meteor.json_numbers.json_ready`)."""
        d = {
            "from": self.name_a,
            "to": self.name_b,
            "corpus": self.corpus,
            "segments": self.segments,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "gap": self.gap,
            "aggregation": {"a": self.aggregation[0], "b": self.aggregation[1]},
            "groups": list(self.groups),
            "steps": [s.to_dict() for s in self.steps],
            "shares": dict(self.shares),
            "share_method": self.share_method,
            "share_errors": dict(self.share_errors),
            "invalid": [i.to_dict() for i in self.invalid],
            "interactions": [{"groups": [g, h], "value": v} for g, h, v in self.interactions],
            "words": list(self.words),
            "params_a": self.params_a.to_dict(),
            "params_b": self.params_b.to_dict(),
            "signature_a": self.params_a.signature(preset=_preset_of(self.name_a)),
            "signature_b": self.params_b.signature(preset=_preset_of(self.name_b)),
        }
        out: dict[str, Any] = json_ready(d)
        return out


def _preset_of(name: str) -> str | None:
    return name if name in PRESETS else None


def _match_dict(m: Match) -> dict[str, Any]:
    return {
        "stage": m.module.value,
        "hyp": list(m.hyp_words),
        "ref": list(m.ref_words),
        "hyp_span": [m.hyp.start, m.hyp.end],
        "ref_span": [m.ref.start, m.ref.end],
    }
