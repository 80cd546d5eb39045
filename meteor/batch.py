"""The corpus runner's core: many segments through one scorer, and their sum.

Every runner drives it (:meth:`meteor.Meteor.corpus_score`, :mod:`meteor.runners.parallel`,
:mod:`meteor.runners.cluster`, the streaming command): the input checks, the scoring loop
(:func:`score_segments`), the sum (:class:`Totals`, Meteor 1.5 ``MeteorStats.addStats``)
and a worker process's scorer (:func:`process_scorer`).  The scorer is anything shaped
like :class:`Scorer`; this module imports no scorer, so the metric can delegate to it.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import pickle
import threading
from collections.abc import Callable, Container, Hashable, Iterable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, cast

from meteor.errors import InputError
from meteor.params import Params
from meteor.runtime import Progress, gc_paused
from meteor.scoring import Breakdown, compute
from meteor.signatures import check_same_settings
from meteor.types import CorpusResult, MeteorResult, Stats

__all__ = [
    "EMPTY_CORPUS",
    "PREFETCH_BLOCK",
    "PROCESS_SCORERS_KEPT",
    "SCORERS",
    "Scorer",
    "Totals",
    "by_reference",
    "check_corpus",
    "check_count",
    "collection_paused",
    "combine",
    "corpus_score",
    "process_scorer",
    "score_segments",
    "segment_texts",
    "single_use",
    "spec_key",
    "unique_pairs",
]


#: A corpus of no segments (:class:`meteor.errors.InputError`), refused by every runner.
EMPTY_CORPUS = "no segments: hyps and refs are empty; a corpus needs at least one segment"
#: Segments whose per-sentence work a corpus run does in one go (:meth:`Scorer.prefetch`).
PREFETCH_BLOCK = 256


class Scorer(Protocol):
    """What the runner asks of a scorer (:class:`meteor.Meteor` is one)."""

    params: Params

    def signature(self, nrefs: int = 1) -> str: ...

    def prefetch(self, texts: Iterable[str]) -> None: ...

    def _score(
        self, hyp: str, refs: str | Sequence[str], candidates: bool, *, prefetch: bool
    ) -> MeteorResult: ...

    @property
    def _tok_cache(self) -> Container[str]:
        """The texts whose tokens are memoised."""

    def _forget(self, text: str) -> None: ...


# -- checks ---------------------------------------------------------------------------


def check_corpus(hyps: Any, refs: Any) -> None:
    """A corpus's inputs, as every runner checks them before any work starts.

    Raises:
        TypeError: ``hyps`` or ``refs`` is not a list (a string is refused: it would
            be read as its characters).
        ValueError: they have different lengths.
        InputError: both are empty (:data:`EMPTY_CORPUS`: a score of 0.0 would mean nothing).
    """
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        raise TypeError("hyps must be a list of strings (one segment each)")
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise TypeError("refs must be a list with one entry per segment")
    if len(hyps) != len(refs):
        raise ValueError(f"hypotheses have {len(hyps)} segments but references have {len(refs)}")
    if not hyps:
        raise InputError(EMPTY_CORPUS)


def check_count(name: str, value: Any, *, segments: bool = False) -> None:
    """``value`` (an argument called ``name``) is ``None`` or a whole number of at least 1
    (``segments``: of segments, as the message says)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        what = (
            "a whole number of segments, at least 1" if segments else "a whole number of at least 1"
        )
        raise ValueError(f"{name} must be {what}, got {value!r}")


# -- which pairs, in which order --------------------------------------------------------


def unique_pairs(hyps: Sequence[Any], refs: Sequence[Any]) -> tuple[list[int], list[int]]:
    """(first index of each distinct pair, for each segment the position of its pair there).

    Unhashable or non-string entries are never merged.
    """
    first: list[int] = []
    where: list[int] = []
    seen: dict[Any, int] = {}
    for k, (h, r) in enumerate(zip(hyps, refs, strict=True)):
        try:
            key = (h, r if isinstance(r, str) else tuple(r)) if isinstance(h, str) else None
            hash(key)
        except TypeError:
            key = None
        pos = seen.get(key) if key is not None else None
        if pos is None:
            pos = len(first)
            first.append(k)
            if key is not None:
                seen[key] = pos
        where.append(pos)
    return first, where


def by_reference(refs: Sequence[Any], first: Sequence[int]) -> list[int]:
    """The positions ``0 … len(first) − 1`` of the distinct pairs ``first``, those with the
    same references together (so that chunks hand a reference's pairs to one worker)."""
    groups: dict[Any, list[int]] = {}
    for pos, k in enumerate(first):
        r = refs[k]
        try:
            key = r if isinstance(r, str) else tuple(r)
            group = groups.setdefault(key, [])
        except TypeError:  # an unhashable entry: a group of its own (its error comes later)
            group = groups.setdefault(("", pos), [])
        group.append(pos)
    return [pos for group in groups.values() for pos in group]


def single_use(hyps: Sequence[Any], refs: Sequence[Any], memo: Container[str]) -> set[str]:
    """The hypotheses that occur once, are no reference and are not in ``memo`` yet."""
    seen: dict[str, int] = {}
    for h in hyps:
        if isinstance(h, str):
            seen[h] = seen.get(h, 0) + 1
    for r in refs:
        for text in (r,) if isinstance(r, str) else r if isinstance(r, Sequence) else ():
            seen.pop(text, None)
    return {h for h, n in seen.items() if n == 1 and h not in memo}


def segment_texts(hyps: Sequence[Any], refs: Sequence[Any]) -> Iterator[str]:
    """Every text of some segments (for :meth:`Scorer.prefetch`), skipping non-strings."""
    for h, r in zip(hyps, refs, strict=False):
        if isinstance(h, str):
            yield h
        if isinstance(r, str):
            yield r
        elif isinstance(r, Sequence):
            yield from (x for x in r if isinstance(x, str))


# -- the loop -------------------------------------------------------------------------


def score_segments(
    scorer: Scorer,
    hyps: Sequence[Any],
    refs: Sequence[Any],
    *,
    candidates: bool = True,
    progress: Progress | None = None,
    numbers: Sequence[int] | None = None,
    name_errors: bool = True,
    forget: bool = True,
) -> list[MeteorResult]:
    """One record per segment, in order: the loop behind every corpus run.

    Identical pairs are scored once and share their record; each block of
    :data:`PREFETCH_BLOCK` distinct pairs is prefetched in one pass; cyclic garbage
    collection is paused; single-use hypotheses are forgotten once scored
    (:func:`single_use`: keeping them took a third of a corpus run's memory).

    Args:
        hyps, refs: as :func:`check_corpus` (same length, not checked here).
        candidates: keep each record's candidate list (see :meth:`meteor.Meteor.score`).
        progress: ``progress(fraction, message)`` callback.
        numbers: the segments' indices in the caller's corpus, for error
            messages (default ``0, 1, …``).
        name_errors: an error names its segment (below); ``False`` for one pair
            scored on its own (the app's), whose error is the scorer's, unchanged.
        forget: forget single-use hypotheses once scored; ``False`` when the caller
            uses them again (the app explains the pair it scored).

    Raises:
        TypeError, ValueError: as :meth:`meteor.Meteor.score`, the message prefixed with
            ``segment N:`` (1-based) unless ``name_errors`` is false.
    """
    n = len(hyps)
    step = max(1, n // 200)
    first, where = unique_pairs(hyps, refs)
    once = single_use(hyps, refs, scorer._tok_cache) if forget else set()
    unique: list[MeteorResult] = []
    segments: list[MeteorResult] = []
    with gc_paused():
        for k, pos in enumerate(where):
            if pos == len(unique):
                if pos % PREFETCH_BLOCK == 0:  # the next block of distinct pairs
                    block = first[pos : pos + PREFETCH_BLOCK]
                    scorer.prefetch(
                        segment_texts([hyps[i] for i in block], [refs[i] for i in block])
                    )
                index = (numbers[k] if numbers is not None else k) if name_errors else None
                unique.append(_numbered(scorer, hyps[k], refs[k], index, candidates))
                if hyps[k] in once:
                    scorer._forget(hyps[k])
            segments.append(unique[pos])
            if progress and (k % step == 0 or k == n - 1):
                progress((k + 1) / n, f"scored {k + 1:,} of {n:,} segments")
    return segments


def _numbered(
    scorer: Scorer, hyp: str, refs: str | Sequence[str], index: int | None, candidates: bool
) -> MeteorResult:
    """The pair's record; an error names the segment (1-based) it came from, if ``index``."""
    try:  # score_segments has prefetched the block the pair is in
        return scorer._score(hyp, refs, candidates, prefetch=False)
    except (ValueError, TypeError) as exc:
        if index is None:
            raise
        message = f"segment {index + 1}: {exc}"
        try:
            named = type(exc)(message)
        except Exception:  # an exception type with another constructor
            named = ValueError(message)
        raise named from exc


# -- combining ------------------------------------------------------------------------


class Totals:
    """Segments summed one at a time (Meteor 1.5 ``addStats``), keeping no records; the
    mean of segment scores is summed exactly (Shewchuk's partials, as :func:`math.fsum`)."""

    def __init__(self, params: Params) -> None:
        self.params = params
        self.stats = Stats()
        self.n = 0
        self.nrefs = 1
        self._partials: list[float] = []

    def add(self, contribution: Stats, score: float, nrefs: int) -> None:
        """Count one segment: its corpus contribution, score and number of references."""
        self.stats = self.stats + contribution
        self.n += 1
        self.nrefs = max(self.nrefs, nrefs)
        x = score
        partials: list[float] = []
        for y in self._partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials.append(lo)
            x = hi
        partials.append(x)
        self._partials = partials

    def add_record(self, r: MeteorResult) -> None:
        self.add(
            r.stats.corpus_contribution(perfect_rule=self.params.perfect_rule),
            r.score,
            len(r.refs),
        )

    def mean(self) -> float:
        """The mean of the segment scores (0.0 with none)."""
        return math.fsum(self._partials) / self.n if self.n else 0.0

    def breakdown(self) -> Breakdown:
        """The formula on the summed statistics."""
        return compute(self.stats, self.params)


def combine(scorer: Scorer, segments: Iterable[MeteorResult]) -> CorpusResult:
    """Corpus result from already scored segments (sum of their statistics).

    Raises:
        meteor.signatures.SettingsMismatchError: a segment scored with other
            settings than ``scorer``'s (both signatures in the message).
    """
    segs = tuple(segments)
    first: dict[str, int] = {}
    for k, seg in enumerate(segs):
        first.setdefault(seg.signature, k)
    check_same_settings(
        [
            *((f"segment {k + 1}", sig) for sig, k in first.items()),
            ("this scorer", scorer.signature()),
        ],
        "a corpus score",
    )
    totals = Totals(scorer.params)
    for s in segs:
        totals.add_record(s)
    return CorpusResult(
        segments=segs,
        stats=totals.stats,
        breakdown=totals.breakdown(),
        mean_segment_score=totals.mean(),
        signature=scorer.signature(totals.nrefs),
    )


def corpus_score(
    scorer: Scorer,
    hyps: Sequence[Any],
    refs: Sequence[Any],
    *,
    candidates: bool = True,
    progress: Progress | None = None,
) -> CorpusResult:
    """A corpus in this process: checked (:func:`check_corpus`), scored, combined."""
    check_corpus(hyps, refs)
    return combine(
        scorer, score_segments(scorer, hyps, refs, candidates=candidates, progress=progress)
    )


# -- a worker process's part --------------------------------------------------------


class _Loads(Protocol):
    def prepare(self) -> None: ...


L = TypeVar("L", bound=_Loads)

#: Settings whose scorer one process keeps (:func:`process_scorer`); beyond this many,
#: the scorer built first is dropped.
PROCESS_SCORERS_KEPT = 64
#: This process's scorers, one per setting (:func:`process_scorer`), by key.
SCORERS: dict[Hashable, Any] = {}
_SCORERS_LOCK = threading.Lock()


def spec_key(params: Params, preset: str | None) -> str:
    """A name for a setting (params and preset name): a :func:`process_scorer` key, the
    same in every process."""
    digest = hashlib.sha256(pickle.dumps((params, preset), protocol=4)).hexdigest()
    return f"meteor-{digest[:16]}"


def process_scorer(key: Hashable, build: Callable[[], L], *, freeze: bool = True) -> L:
    """This process's scorer for the setting ``key``: one per setting per process.

    The first time, ``build()`` makes it, ``prepare()`` loads its resources and
    :func:`gc.freeze` hides them from the collector (collections walking them cost a
    quarter of a run), unless ``freeze=False`` (a process whose other objects come and
    go).  At most :data:`PROCESS_SCORERS_KEPT` settings are kept; one is built at a time.
    """
    m = SCORERS.get(key)
    if m is not None:
        return cast(L, m)
    with _SCORERS_LOCK:
        m = SCORERS.get(key)
        if m is None:
            m = build()
            m.prepare()
            if freeze:
                gc.freeze()
            while len(SCORERS) >= PROCESS_SCORERS_KEPT:
                SCORERS.pop(next(iter(SCORERS)))
            SCORERS[key] = m
    return cast(L, m)


def collection_paused() -> contextlib.AbstractContextManager[None]:
    """Cyclic garbage collection off while a worker process scores a job, whatever
    threads it runs (:func:`meteor.runtime.gc_paused` with ``worker=True``; counted, so
    jobs running at once in threads end it together).  Not for the app's server.
    """
    return gc_paused(worker=True)
