"""The typed record of a METEOR computation: frozen dataclasses only.

Everything the CLI, the exports and the app show is a field of these records;
nothing downstream recomputes a number.  The layout follows CMU Meteor 1.5 (``Aligner``
→ ``Alignment`` → ``MeteorStats`` → ``MeteorScorer``), with the sides named ``hyp``/``ref``
instead of Java's ``line1``/``line2``.  :class:`Module` (:mod:`meteor.module_registry`),
:class:`Stats` (:mod:`meteor.stats`) and :data:`Candidate` (:mod:`meteor.match_tuples`)
are re-exported here.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from meteor.json_numbers import json_number
from meteor.match_tuples import Candidate, Packed, check_spans, pack_raw, unpack_raw
from meteor.module_registry import (
    MODULE_ORDER,
    STAGE_NAME,
    Module,
    extend_module,
    module_order,
    module_slot,
    retract_module,
    stage_modules,
)
from meteor.stats import Breakdown, BreakdownFields, Stats

__all__ = [
    "MODULE_ORDER",
    "STAGE_NAME",
    "Alignment",
    "Candidate",
    "Chunk",
    "CorpusResult",
    "Match",
    "MeteorResult",
    "Module",
    "Span",
    "Stats",
    "Token",
    "candidate_of",
    "chunk_matches",
    "chunk_starts",
    "extend_module",
    "match_of",
    "matches_of",
    "module_order",
    "module_slot",
    "retract_module",
    "shared_span",
    "stage_modules",
]


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """The slot's own setter, for the hand-written ``__init__`` of a hot frozen record (a
    third faster than ``object.__setattr__``)."""
    return cast(Callable[[Any, Any], None], cls.__dict__[name].__set__)


@dataclass(frozen=True, slots=True, init=False)
class Span:
    """Half-open token range ``[start, end)``."""

    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        if not 0 <= start < end:
            raise ValueError(f"bad span [{start}, {end})")
        _SPAN_START(self, start)
        _SPAN_END(self, end)

    def __len__(self) -> int:
        return self.end - self.start

    def __iter__(self) -> Any:
        return iter(range(self.start, self.end))

    def to_list(self) -> list[int]:
        return [self.start, self.end]


#: Most spans :func:`shared_span` keeps (about 1.3 MB when full; a sentence of 200 words
#: with matches of up to 7 words needs 1,400).
SHARED_SPANS_MAX = 8192
_SHARED_SPANS: dict[tuple[int, int], Span] = {}


def shared_span(start: int, end: int) -> Span:
    """``Span(start, end)``, one object for every record that asks for the same span (the
    first :data:`SHARED_SPANS_MAX` distinct spans asked for are kept).

    Raises:
        ValueError: as :class:`Span`.
    """
    key = (start, end)
    span = _SHARED_SPANS.get(key)
    if span is None:
        span = Span(start, end)
        if len(_SHARED_SPANS) < SHARED_SPANS_MAX:
            _SHARED_SPANS[key] = span
    return span


@dataclass(frozen=True, slots=True, init=False)
class Token:
    """One token as the aligner sees it.

    Attributes:
        text: the token after normalisation (what is compared).
        start: offset of the first character of the original text it came from.
        end: offset one past the last such character (``original[start:end]``).
        function_word: whether the language's function-word list contains it.
    """

    text: str
    start: int
    end: int
    function_word: bool = False

    def __init__(self, text: str, start: int, end: int, function_word: bool = False) -> None:
        _TOKEN_TEXT(self, text)
        _TOKEN_START(self, start)
        _TOKEN_END(self, end)
        _TOKEN_FUNCTION_WORD(self, function_word)


@dataclass(frozen=True, slots=True, init=False)
class Match:
    """One aligned pair of spans and the stage that made it.

    ``detail`` says why the stage fired (the shared stem, the shared synset, the
    paraphrase pair, the cosine similarity), for teaching and debugging.
    """

    module: Module
    hyp: Span
    ref: Span
    hyp_words: tuple[str, ...]
    ref_words: tuple[str, ...]
    detail: str = ""
    similarity: float | None = None

    def __init__(
        self,
        module: Module,
        hyp: Span,
        ref: Span,
        hyp_words: tuple[str, ...],
        ref_words: tuple[str, ...],
        detail: str = "",
        similarity: float | None = None,
    ) -> None:
        _MATCH_MODULE(self, module)
        _MATCH_HYP(self, hyp)
        _MATCH_REF(self, ref)
        _MATCH_HYP_WORDS(self, hyp_words)
        _MATCH_REF_WORDS(self, ref_words)
        _MATCH_DETAIL(self, detail)
        _MATCH_SIMILARITY(self, similarity)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "hyp_span": self.hyp.to_list(),
            "ref_span": self.ref.to_list(),
            "module": self.module.value,
            "hyp_words": list(self.hyp_words),
            "ref_words": list(self.ref_words),
            "detail": self.detail,
        }
        if self.similarity is not None:
            d["similarity"] = self.similarity
        return d


@dataclass(frozen=True, slots=True, init=False)
class Chunk:
    """A maximal run of matches contiguous and in the same order on both sides."""

    index: int
    hyp: Span
    ref: Span
    matches: tuple[int, ...]  # indices into Alignment.matches

    def __init__(self, index: int, hyp: Span, ref: Span, matches: tuple[int, ...]) -> None:
        _CHUNK_INDEX(self, index)
        _CHUNK_HYP(self, hyp)
        _CHUNK_REF(self, ref)
        _CHUNK_MATCHES(self, matches)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "hyp_span": self.hyp.to_list(),
            "ref_span": self.ref.to_list(),
            "matches": list(self.matches),
        }


def chunk_starts(matches: Sequence[tuple[Any, ...]]) -> list[int]:
    """Where chunks start: the positions in ``matches`` that open a new chunk.

    ``matches`` are :data:`Candidate`-like tuples in reference order.  The one chunk
    rule, Meteor 1.5 ``Aligner.getCountAndChunks`` (Aligner.java:407-443): a match
    starts a new chunk unless it begins where the previous one ended on both sides.
    For one-to-one matches this equals NLTK's ``_count_chunks`` and the 2005 paper's chunks.
    """
    starts: list[int] = []
    prev_he = prev_re = -1
    for k, c in enumerate(matches):
        hs, he, rs, re_ = c[1:5]
        if rs != prev_re or hs != prev_he:
            starts.append(k)
        prev_he, prev_re = he, re_
    return starts


def chunk_matches(matches: Sequence[Match]) -> tuple[Chunk, ...]:
    """Group ``matches`` (any order) into chunks (:func:`chunk_starts`); indices refer
    to ``matches``."""
    order = sorted(range(len(matches)), key=lambda k: matches[k].ref.start)
    raw = [
        (None, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
        for m in map(matches.__getitem__, order)
    ]
    bounds = [*chunk_starts(raw), len(order)]
    chunks: list[Chunk] = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        run = order[a:b]
        first, last = matches[run[0]], matches[run[-1]]
        chunks.append(
            Chunk(
                len(chunks),
                shared_span(first.hyp.start, last.hyp.end),
                shared_span(first.ref.start, last.ref.end),
                tuple(run),
            )
        )
    return tuple(chunks)


class _Deferrable:
    """The hidden slot of :meth:`Alignment.deferred` (no dataclass field of it)."""

    __slots__ = ("_deferred",)


@dataclass(frozen=True, slots=True)
class Alignment(_Deferrable):
    """Tokens of both sides, the chosen matches (in reference order) and the chunks."""

    hyp: tuple[Token, ...]
    ref: tuple[Token, ...]
    matches: tuple[Match, ...]
    chunks: tuple[Chunk, ...]

    def __post_init__(self) -> None:
        check_spans(
            len(self.hyp),
            len(self.ref),
            [(m.hyp.start, m.hyp.end, m.ref.start, m.ref.end) for m in self.matches],
        )

    @classmethod
    def deferred(
        cls, hyp: tuple[Token, ...], ref: tuple[Token, ...], matches: tuple[Candidate, ...]
    ) -> Alignment:
        """An alignment whose :class:`Match` and :class:`Chunk` records are made when first read.

        ``matches``: the chosen matches as plain tuples, in reference order, checked now
        and kept packed (:func:`pack_raw`).  Equals ``Alignment(hyp, ref, ms,
        chunk_matches(ms))``; reading ``matches`` or ``chunks`` builds both, once (a
        tenth of a corpus run's time and half its memory, docs/performance.md).
        """
        check_spans(len(hyp), len(ref), [c[1:5] for c in matches])
        return cls.deferred_packed(hyp, ref, pack_raw(matches))

    @classmethod
    def deferred_packed(
        cls, hyp: tuple[Token, ...], ref: tuple[Token, ...], packed: Packed
    ) -> Alignment:
        """:meth:`deferred` of matches already packed (:func:`pack_raw`, reference order)
        and one-to-one by construction (not checked again)."""
        obj = object.__new__(cls)
        _ALIGN_HYP(obj, hyp)
        _ALIGN_REF(obj, ref)
        _ALIGN_DEFERRED(obj, packed)
        return obj

    def __getattr__(self, name: str) -> Any:  # an empty slot: a deferred alignment's
        raw = self.pending() if name in ("matches", "chunks") else None
        if raw is None:
            raise AttributeError(name)
        hw = [t.text for t in self.hyp]
        rw = [t.text for t in self.ref]
        matches = tuple(match_of(c, hw, rw) for c in raw)
        _ALIGN_MATCHES(self, matches)
        _ALIGN_CHUNKS(self, chunk_matches(matches))
        _ALIGN_DEFERRED_DEL(self)  # the records hold it all now
        return getattr(self, name)

    def pending(self) -> tuple[Candidate, ...] | None:
        """A deferred alignment's matches as tuples while its records are not built yet
        (:meth:`deferred`); ``None`` once they are, or for an alignment made whole."""
        try:
            return unpack_raw(_ALIGN_DEFERRED_GET(self, Alignment))
        except AttributeError:
            return None

    @classmethod
    def trusted(
        cls,
        hyp: tuple[Token, ...],
        ref: tuple[Token, ...],
        matches: tuple[Match, ...],
        chunks: tuple[Chunk, ...],
    ) -> Alignment:
        """An alignment already checked once (a copy of a record made by this library,
        e.g. in a worker process): the check of ``__init__`` is skipped."""
        obj = object.__new__(cls)
        for name, value in (("hyp", hyp), ("ref", ref), ("matches", matches), ("chunks", chunks)):
            object.__setattr__(obj, name, value)
        return obj

    @property
    def hyp_words(self) -> tuple[str, ...]:
        return tuple(t.text for t in self.hyp)

    @property
    def ref_words(self) -> tuple[str, ...]:
        return tuple(t.text for t in self.ref)

    def hyp_matched(self) -> tuple[bool, ...]:
        covered = {i for m in self.matches for i in m.hyp}
        return tuple(i in covered for i in range(len(self.hyp)))

    def ref_matched(self) -> tuple[bool, ...]:
        covered = {j for m in self.matches for j in m.ref}
        return tuple(j in covered for j in range(len(self.ref)))


@dataclass(frozen=True, slots=True)
class MeteorResult(BreakdownFields):
    """The full record of one segment scored against its best reference.

    ``breakdown`` holds the formula's numbers; ``precision`` … ``score`` read it.
    ``precision``/``recall``/``fmean``/``frag`` may be NaN where Meteor 1.5 prints
    NaN (an empty side, no match); ``score`` is then 0, as in Meteor 1.5.
    """

    hyp: str
    refs: tuple[str, ...]
    alignment: Alignment
    stats: Stats
    breakdown: Breakdown
    best_ref_index: int
    ref_scores: tuple[float, ...]
    signature: str
    candidates: tuple[Match, ...] = field(default=(), compare=False)

    @property
    def chunks(self) -> int:
        return self.stats.chunks

    @property
    def matches(self) -> tuple[Match, ...]:
        return self.alignment.matches

    def to_dict(self, *, candidates: bool = False) -> dict[str, Any]:
        """Stable JSON form (documented in docs/api.md, "The record")."""
        d: dict[str, Any] = {
            "score": self.score,
            **_undefined_as_null(self.breakdown),
            "chunks": self.stats.chunks,
            "matches_hyp": self.stats.hyp_word_matches,
            "matches_ref": self.stats.ref_word_matches,
            "hyp": self.hyp,
            "refs": list(self.refs),
            "best_ref_index": self.best_ref_index,
            "ref_scores": list(self.ref_scores),
            "hyp_tokens": [t.text for t in self.alignment.hyp],
            "ref_tokens": [t.text for t in self.alignment.ref],
            "hyp_offsets": [[t.start, t.end] for t in self.alignment.hyp],
            "ref_offsets": [[t.start, t.end] for t in self.alignment.ref],
            "hyp_function_words": [t.function_word for t in self.alignment.hyp],
            "ref_function_words": [t.function_word for t in self.alignment.ref],
            "alignment": [m.to_dict() for m in self.alignment.matches],
            "chunk_spans": [c.to_dict() for c in self.alignment.chunks],
            "stats": self.stats.to_dict(),
            "signature": self.signature,
        }
        if candidates:
            d["candidates"] = [m.to_dict() for m in self.candidates]
        return d


@dataclass(frozen=True, slots=True)
class CorpusResult(BreakdownFields):
    """A corpus scored the Meteor 1.5 way (summed statistics) and the naive way.

    ``score`` comes from the summed sufficient statistics (what Meteor 1.5 prints
    as the system score); ``mean_segment_score`` is the average of the segment
    scores (what many scripts report instead).  They differ on purpose.  ``breakdown``
    holds the formula on the summed statistics; ``precision`` … ``score`` read it.
    """

    segments: tuple[MeteorResult, ...]
    stats: Stats
    breakdown: Breakdown
    mean_segment_score: float
    signature: str

    def to_dict(self, *, segments: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {
            "score": self.score,
            "mean_segment_score": self.mean_segment_score,
            **_undefined_as_null(self.breakdown),
            "segments": len(self.segments),
            "stats": self.stats.to_dict(),
            "signature": self.signature,
        }
        if segments:
            d["segment_records"] = [s.to_dict() for s in self.segments]
        return d


def _undefined_as_null(b: Breakdown) -> dict[str, float | None]:
    """``precision`` … ``penalty`` as JSON holds them (``null`` where Meteor 1.5 prints NaN)."""
    return {
        k: json_number(getattr(b, k)) for k in ("precision", "recall", "fmean", "frag", "penalty")
    }


def match_of(c: Candidate, hyp_words: Sequence[str], ref_words: Sequence[str]) -> Match:
    """The :class:`Match` record of a candidate between two word lists (spans shared:
    :func:`shared_span`)."""
    module, hs, he, rs, re_, detail, sim = c
    return Match(
        module,
        shared_span(hs, he),
        shared_span(rs, re_),
        tuple(hyp_words[hs:he]),
        tuple(ref_words[rs:re_]),
        detail,
        similarity=sim,
    )


def matches_of(
    cands: Sequence[Candidate], hyp_words: Sequence[str], ref_words: Sequence[str]
) -> tuple[Match, ...]:
    """:func:`match_of` of many candidates; each distinct word tuple is built once and
    shared."""
    span = shared_span
    hw_of: dict[tuple[int, int], tuple[str, ...]] = {}
    rw_of: dict[tuple[int, int], tuple[str, ...]] = {}
    out: list[Match] = []
    for module, hs, he, rs, re_, detail, sim in cands:
        hw = hw_of.get((hs, he))
        if hw is None:
            hw = hw_of[hs, he] = tuple(hyp_words[hs:he])
        rw = rw_of.get((rs, re_))
        if rw is None:
            rw = rw_of[rs, re_] = tuple(ref_words[rs:re_])
        out.append(Match(module, span(hs, he), span(rs, re_), hw, rw, detail, sim))
    return tuple(out)


def candidate_of(m: Match) -> Candidate:
    """The candidate tuple of a :class:`Match` (the inverse of :func:`match_of`)."""
    return (m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end, m.detail, m.similarity)


def __getattr__(name: str) -> Any:
    if name == "RawMatch":  # the old name of Candidate
        warnings.warn(
            "meteor.types.RawMatch is deprecated: use meteor.types.Candidate",
            DeprecationWarning,
            stacklevel=2,
        )
        return Candidate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_SPAN_START, _SPAN_END = _setter(Span, "start"), _setter(Span, "end")
_TOKEN_TEXT, _TOKEN_START = _setter(Token, "text"), _setter(Token, "start")
_TOKEN_END, _TOKEN_FUNCTION_WORD = _setter(Token, "end"), _setter(Token, "function_word")
_MATCH_MODULE, _MATCH_HYP, _MATCH_REF = (_setter(Match, f) for f in ("module", "hyp", "ref"))
_MATCH_HYP_WORDS, _MATCH_REF_WORDS = _setter(Match, "hyp_words"), _setter(Match, "ref_words")
_MATCH_DETAIL, _MATCH_SIMILARITY = _setter(Match, "detail"), _setter(Match, "similarity")
_CHUNK_INDEX, _CHUNK_HYP = _setter(Chunk, "index"), _setter(Chunk, "hyp")
_CHUNK_REF, _CHUNK_MATCHES = _setter(Chunk, "ref"), _setter(Chunk, "matches")
_ALIGN_HYP, _ALIGN_REF = _setter(Alignment, "hyp"), _setter(Alignment, "ref")
_ALIGN_MATCHES, _ALIGN_CHUNKS = _setter(Alignment, "matches"), _setter(Alignment, "chunks")
_ALIGN_DEFERRED = _setter(_Deferrable, "_deferred")
_ALIGN_DEFERRED_DEL = cast(Callable[[Any], None], _Deferrable.__dict__["_deferred"].__delete__)
_ALIGN_DEFERRED_GET = cast(Callable[[Any, type], Packed], _Deferrable.__dict__["_deferred"].__get__)
