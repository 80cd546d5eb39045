"""The numbers of a score: the additive sufficient statistics of a segment (Meteor 1.5
``MeteorStats``), :class:`Stats`, and the formula's quantities on them, :class:`Breakdown`
(computed by :func:`meteor.scoring.compute`; the one record of P, R, Fmean, frag,
penalty and score that every result holds)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from operator import add, attrgetter
from typing import Any

from meteor.module_registry import N_BUILTIN, ZEROS, Module, module_order, module_slot
from meteor.rules import is_perfect_segment

__all__ = ["Breakdown", "BreakdownFields", "Stats", "counted_stats"]


@dataclass(frozen=True, slots=True)
class Stats:
    """Additive sufficient statistics (Meteor 1.5 ``MeteorStats``).

    Per-module tuples are indexed by :data:`MODULE_ORDER` (six entries), then the slots
    of registered stages that matched something (:func:`module_order`).  ``stats_a +
    stats_b`` sums every field; the corpus sum is :meth:`corpus_contribution` summed.
    """

    hyp_len: int = 0
    ref_len: int = 0
    hyp_function_words: int = 0
    ref_function_words: int = 0
    hyp_content_matches: tuple[int, ...] = ZEROS
    ref_content_matches: tuple[int, ...] = ZEROS
    hyp_function_matches: tuple[int, ...] = ZEROS
    ref_function_matches: tuple[int, ...] = ZEROS
    chunks: int = 0
    hyp_word_matches: int = 0
    ref_word_matches: int = 0

    def __post_init__(self) -> None:
        vecs = self.per_module(0)
        if len(vecs[0]) == len(vecs[1]) == len(vecs[2]) == len(vecs[3]) == N_BUILTIN:
            return  # the built-in stages only: the common case, nothing to do
        most = len(module_order())
        for name, vec in zip(_VECTORS, vecs, strict=True):
            if not N_BUILTIN <= len(vec) <= most:
                raise ValueError(
                    f"Stats.{name} must have {N_BUILTIN} entries (one per built-in module), or up "
                    f"to {most} with the registered stages, got {len(vec)}"
                )
        # One form per value: the registered stages' slots up to the last non-zero one.
        width = max(
            [N_BUILTIN] + [k + 1 for vec in vecs for k in range(N_BUILTIN, len(vec)) if vec[k]],
        )
        for name, vec in zip(_VECTORS, vecs, strict=True):
            object.__setattr__(self, name, _width(vec, width))

    def per_module(
        self, width: int
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """The four per-module tuples (hyp/ref content, hyp/ref function), at least ``width``
        long (a registered stage that matched nothing has no slot of its own)."""
        vecs = _PER_MODULE(self)
        if len(vecs[0]) >= width:
            return vecs
        a, b, c, d = vecs
        return _width(a, width), _width(b, width), _width(c, width), _width(d, width)

    def __add__(self, other: Stats) -> Stats:
        if not isinstance(other, Stats):
            return NotImplemented
        n = max(len(self.hyp_content_matches), len(other.hyp_content_matches))
        a, b = self.per_module(n), other.per_module(n)
        return Stats(
            self.hyp_len + other.hyp_len,
            self.ref_len + other.ref_len,
            self.hyp_function_words + other.hyp_function_words,
            self.ref_function_words + other.ref_function_words,
            _vsum(a[0], b[0]),
            _vsum(a[1], b[1]),
            _vsum(a[2], b[2]),
            _vsum(a[3], b[3]),
            self.chunks + other.chunks,
            self.hyp_word_matches + other.hyp_word_matches,
            self.ref_word_matches + other.ref_word_matches,
        )

    @property
    def is_perfect(self) -> bool:
        """Every word of both sides matched, in one chunk (Meteor 1.5's frag = 0 case)."""
        return is_perfect_segment(
            self.hyp_word_matches, self.hyp_len, self.ref_word_matches, self.ref_len, self.chunks
        )

    def corpus_contribution(self, *, perfect_rule: bool) -> Stats:
        """What this segment adds to the corpus total.

        With the perfect-segment rule it reproduces ``MeteorStats.addStats``
        (MeteorStats.java:144-146): the chunks of a perfect segment are not added, its
        matches are.  Without it (nltk, hf, the 2005 paper) it adds all of its statistics.
        """
        if perfect_rule and self.is_perfect:
            return replace(self, chunks=0)
        return self

    def to_meteor_vector(self, modules: tuple[Module, ...]) -> list[float]:
        """The 23 numbers of Meteor 1.5 ``-ssOut``, slots following ``modules``."""
        out: list[float] = [
            float(self.hyp_len),
            float(self.ref_len),
            float(self.hyp_function_words),
            float(self.ref_function_words),
        ]
        for slot in range(4):
            if slot < len(modules):
                k = module_slot(modules[slot])
                out += [float(vec[k]) for vec in self.per_module(k + 1)]
            else:
                out += [0.0, 0.0, 0.0, 0.0]
        out += [float(self.chunks), float(self.hyp_word_matches), float(self.ref_word_matches)]
        return out

    def to_dict(self) -> dict[str, Any]:
        """Every field in order; the per-module tuples by stage name (:func:`_by_name`)."""
        return {
            k: _by_name(getattr(self, k)) if k in _VECTORS else getattr(self, k) for k in _FIELDS
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Stats:
        order = module_order()
        kw: dict[str, Any] = {
            f.name: tuple(int(d[f.name].get(m.value, 0)) for m in order)
            if f.name in _VECTORS
            else int(d[f.name])
            for f in fields(cls)
        }
        return cls(**kw)


#: One object per distinct per-module count tuple (a corpus run keeps four per segment;
#: a few hundred distinct ones cover a WMT set).  Cleared when it gets large.
_COUNTS: dict[tuple[int, ...], tuple[int, ...]] = {}
_MAX_COUNTS = 1 << 16


def _shared(counts: tuple[int, ...]) -> tuple[int, ...]:
    """``counts`` itself or an equal tuple made before (tuples are immutable)."""
    got = _COUNTS.get(counts)
    if got is None:
        if len(_COUNTS) >= _MAX_COUNTS:
            _COUNTS.clear()
        got = _COUNTS[counts] = counts
    return got


def counted_stats(
    lengths: tuple[int, int, int, int],
    vectors: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    chunks: int,
    hyp_word_matches: int,
    ref_word_matches: int,
) -> Stats:
    """A segment's :class:`Stats` from its counts: ``lengths`` (hypothesis and reference
    words, their function words), ``vectors`` (hypothesis content, reference content,
    hypothesis function, reference function matches per module slot), each vector one
    shared object per distinct value."""
    hc, rc, hf, rf = vectors
    return Stats(
        *lengths,
        _shared(hc),
        _shared(rc),
        _shared(hf),
        _shared(rf),
        chunks,
        hyp_word_matches,
        ref_word_matches,
    )


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Every intermediate quantity of the formula (:func:`meteor.scoring.compute`), for
    display and teaching.  ``precision``/``recall``/``fmean``/``frag`` may be NaN where
    Meteor 1.5 prints NaN.
    """

    hyp_weighted_len: float
    ref_weighted_len: float
    hyp_weighted_matches: float
    ref_weighted_matches: float
    precision: float
    recall: float
    fmean: float
    frag: float
    penalty: float
    score: float


class BreakdownFields:
    """``precision`` … ``score`` of a record that holds one :class:`Breakdown` (read-only:
    the numbers live in the breakdown alone)."""

    __slots__ = ()
    breakdown: Breakdown

    @property
    def precision(self) -> float:
        return self.breakdown.precision

    @property
    def recall(self) -> float:
        return self.breakdown.recall

    @property
    def fmean(self) -> float:
        return self.breakdown.fmean

    @property
    def frag(self) -> float:
        return self.breakdown.frag

    @property
    def penalty(self) -> float:
        return self.breakdown.penalty

    @property
    def score(self) -> float:
        return self.breakdown.score


_VECTORS = (
    "hyp_content_matches",
    "ref_content_matches",
    "hyp_function_matches",
    "ref_function_matches",
)
_PER_MODULE = attrgetter(*_VECTORS)


def _vsum(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """``a + b`` entry by entry, both of one width (a corpus sums four per segment: ``map``
    is a third of a generator's time)."""
    return tuple(map(add, a, b))


def _width(vec: tuple[int, ...], width: int) -> tuple[int, ...]:
    """``vec`` cut or padded with zeros to ``width`` entries."""
    n = len(vec)
    return vec if n == width else vec[:width] if n > width else vec + (0,) * (width - n)


def _by_name(vec: tuple[int, ...]) -> dict[str, int]:
    """Per-module counts by stage name (the six built-in ones always, then the registered
    stages that have a slot in ``vec``)."""
    return dict(zip((m.value for m in module_order()), vec, strict=False))


#: Stats' field names in order (its records' key order), read once: :meth:`Stats.to_dict`.
_FIELDS = tuple(f.name for f in fields(Stats))
