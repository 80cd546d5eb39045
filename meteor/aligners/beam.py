"""Meteor 1.5's alignment search, reproduced exactly.

Replicates ``Aligner.align`` and ``Aligner.resolve`` (cmu-mtlab/meteor,
``src/edu/cmu/meteor/aligner/Aligner.java``; ``meteor-1.5.md`` sections 7-9):

* candidates of all modules are pooled in a lattice indexed by reference start;
* a candidate is *definite* when it is the only one starting at its reference
  position and every word it touches (both sides) is touched by no other
  candidate; definite matches are fixed before the search;
* a beam search (width 40 by default) walks reference positions left to right,
  ranking partial alignments by more weighted coverage, then fewer chunks, then
  smaller distance, stably (``Constants.PARTIAL_COMPARE_TOTAL``);
* **quirk 1**: coverage is an ``int`` updated by ``+= len * w`` with search
  weights exact 1.0 and every other module 0.5 (``MeteorScorer`` constructor),
  so Java truncates: a one-word non-exact match adds 0;
* **quirk 2**: each candidate's distance is added to the *parent* path
  (Aligner.java:382), so later siblings and the skip path inherit it.

The same search exists in C (:data:`NATIVE_SEARCH`); the Python one here is its
reference and runs for longer sides, without the C module, or with ``METEOR_PURE_PYTHON=1``.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Iterator, Sequence
from heapq import heappush, heapreplace
from itertools import accumulate, chain
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from meteor.aligners.base import (
    CANDIDATE_LIMIT_ENV,
    MAX_CANDIDATES,
    Aligner,
    PackedPair,
    PairFunction,
    ScorerParts,
)
from meteor.errors import CandidateLimitError
from meteor.module_registry import N_BUILTIN, Module, module_slot
from meteor.params import Params
from meteor.rules import is_definite, java_hash
from meteor.runtime import compiled
from meteor.stages.base import Candidate, MatchContext, Sentence
from meteor.stats import counted_stats
from meteor.types import Match, Token, candidate_of

if TYPE_CHECKING:
    from meteor.languages import Language

__all__ = [
    "DEFAULT_BEAM_SIZE",
    "MAX_BEAM_CANDIDATES",
    "MAX_BEAM_WORK",
    "BeamAligner",
    "align_beam",
    "beam_choice",
    "packed_native_pair",
    "pack_occ",
    "pack_sentence",
    "search_weight",
]

DEFAULT_BEAM_SIZE = 40
#: Most candidate matches per pair at the default beam (40) or narrower: a few µs and
#: about 0.4 kB per candidate, so the worst accepted pair takes about 2 s
#: (docs/performance.md).
MAX_BEAM_CANDIDATES = 250_000
#: Beams wider than the default: beam size × candidates may not exceed this (a beam of
#: 10,000 allows 200).
MAX_BEAM_WORK = 40 * MAX_CANDIDATES


class BeamAligner(Aligner):
    """Meteor 1.5's aligner (``Aligner.align``): definite matches, then the beam search."""

    def signature(self, params: Params) -> str:
        """``beam40``: the width is part of the settings."""
        return f"{params.aligner}{params.beam_size}"

    def candidate_limit(self, params: Params) -> int:
        """:data:`MAX_BEAM_CANDIDATES`; ``MAX_BEAM_WORK // beam_size`` for wider beams."""
        if params.beam_size <= DEFAULT_BEAM_SIZE:
            return MAX_BEAM_CANDIDATES
        return min(MAX_BEAM_CANDIDATES, MAX_BEAM_WORK // params.beam_size)

    limit_name = "meteor.aligners.beam.MAX_BEAM_CANDIDATES"

    def limit_hint(self, params: Params, exc: CandidateLimitError) -> str:
        """Names the limit passed; with a wide beam, says to lower it."""
        if params.beam_size > DEFAULT_BEAM_SIZE:
            return (
                f"with beam size {params.beam_size:,} at most {exc.limit:,} are accepted "
                f"(beam size × candidates ≤ {MAX_BEAM_WORK:,}): lower the beam size, "
                "shorten the texts, or raise the limit with the environment variable "
                f"{CANDIDATE_LIMIT_ENV}"
            )
        return super().limit_hint(params, exc)

    def stage_modules(self, ctx: MatchContext, modules: Sequence[Module]) -> Sequence[Module]:
        """Identical sentences run the first stage only (Aligner.java:155-161)."""
        if len(ctx.hs.words) == len(ctx.rs.words) and ctx.hs.keys == ctx.rs.keys:
            return modules[:1]
        return modules

    def corpus_pair(
        self, params: Params, language: Language, scorer: ScorerParts
    ) -> PairFunction | None:
        """:func:`packed_native_pair` (every stage's candidates, the search, the packed
        matches and the statistics in one C call) when it is installed, the word keys are
        Java's hash codes and every stage is one it makes; ``None`` for a subclass (it
        may choose otherwise)."""
        if (
            NATIVE_PAIR_STATS is None
            or type(self) is not BeamAligner
            or not params.java_keys
            or not all(m in PAIR_STAGES for m in params.modules)
        ):
            return None
        return packed_native_pair(params, language, scorer.sentence, scorer.limit)

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> list[int]:
        """:func:`beam_choice` on every stage's candidates: reference order."""
        flat = [c for stage in stages for c in stage]
        return beam_choice(len(ctx.hyp), len(ctx.ref), flat, ctx.params.beam_size)


#: ``meteor_native._beam``, or ``None`` (not installed, or ``METEOR_PURE_PYTHON`` set).
_BEAM = compiled("_beam")
#: The C search, ``meteor_native._beam.beam_choice``, or ``None``: a transcription of
#: :func:`_python_search` (and :func:`_heap_step`) for sides of at most
#: :data:`NATIVE_MAX_WORDS` words; it returns ``None`` for anything else (a key over
#: 62 bits, word sets over 256 MB) and the Python search runs.  Both give the same
#: choices (``tests/unit/test_native.py``, ``tests/parity/test_long_text.py``).
NATIVE_SEARCH: Callable[..., list[int] | None] | None = None if _BEAM is None else _BEAM.beam_choice
#: Longest side the C search takes (the built module's ``MAX_WORDS``; 0 without it).
NATIVE_MAX_WORDS: int = 0 if _BEAM is None else _BEAM.MAX_WORDS


def search_weight(module: Module) -> float:
    """Hard-coded search weights (MeteorScorer.loadConfiguration): exact 1.0, others 0.5."""
    return 1.0 if module is Module.EXACT else 0.5


# A partial alignment is a list, for speed (the search creates millions of them):
# [key, used_h, used_r, idx, last_end, chosen]
# ``key`` packs Java's ranking into one integer (see ``beam_choice``) so that sorting
# runs in C; ``used_*`` are bit masks of used words; ``idx`` is Java's ``idx`` (next
# reference position to fill), ``last_end`` the hypothesis position after the last
# match of the open chunk (-1: no open chunk); ``chosen`` is a linked list
# (candidate id, rest) of the choices.  Java's ``matches1``/``matches2`` and
# ``chunks`` live only inside the key: nothing else reads them.
_KEY, _UH, _UR, _IX, _LE, _CO = range(6)
#: Above this many (paths × candidates) in one step, successors go through a bounded heap.
_HEAP_THRESHOLD = 400


def _ascending(entry: tuple[int, int, list[Any]]) -> tuple[int, int]:
    return (-entry[0], -entry[1])


def align_beam(
    n_hyp: int,
    n_ref: int,
    candidates: Sequence[Match],
    beam_size: int = DEFAULT_BEAM_SIZE,
) -> tuple[Match, ...]:
    """Choose Meteor 1.5's alignment among ``candidates`` of a pair of ``n_hyp`` and
    ``n_ref`` tokens with a beam of ``beam_size`` (``-x``): the chosen matches in
    reference order.  ``candidates``: every module's, in the order Meteor adds them to
    its lattice (module, reference position, hypothesis position: :mod:`meteor.stages.base`).
    """
    cands = [candidate_of(m) for m in candidates]
    return tuple(candidates[c] for c in beam_choice(n_hyp, n_ref, cands, beam_size))


def beam_choice(
    n_hyp: int,
    n_ref: int,
    candidates: Sequence[Candidate],
    beam_size: int = DEFAULT_BEAM_SIZE,
) -> list[int]:
    """:func:`align_beam` on :data:`~meteor.stages.base.Candidate` tuples: chosen indices, reference order.

    Pairs of at most :data:`NATIVE_MAX_WORDS` words a side run the same search in C when
    it is installed (:data:`NATIVE_SEARCH`), the others :func:`_python_search`.
    """
    if NATIVE_SEARCH is not None and n_hyp <= NATIVE_MAX_WORDS and n_ref <= NATIVE_MAX_WORDS:
        chosen = NATIVE_SEARCH(n_hyp, n_ref, candidates, beam_size, Module.EXACT)
        if chosen is not None:
            return chosen
    return _python_search(n_hyp, n_ref, candidates, beam_size)


def _python_search(
    n_hyp: int,
    n_ref: int,
    candidates: Sequence[Candidate],
    beam_size: int,
) -> list[int]:
    """:func:`beam_choice` in Python (any length; the reference for the C search).

    Kept whole: Meteor 1.5's ``Aligner.align``/``resolve`` read line by line, quirks included.
    """
    # key = (max_cov - cov) · COV + chunks · CHUNK + distance: ascending key order is
    # PARTIAL_COMPARE_TOTAL (more coverage, then fewer chunks, then less distance).
    # Each field gets just the bits its largest possible value needs, so that keys of
    # ordinary pairs stay below 2^30, where CPython adds and sorts them fastest.  A
    # path's distance never exceeds the sum over all candidates (each is looked at
    # once per line of descent), its chunks never exceed n_ref + 1.
    total_dist = sum([abs(c[3] - c[1]) for c in candidates])
    chunk_unit = 1 << (total_dist + 1).bit_length()
    cov_unit = chunk_unit << (n_ref + 2).bit_length()
    max_cov = 2 * (n_hyp + n_ref) + 2

    # Stage lattice: candidate ids per reference start, in insertion order.
    lattice: list[list[int]] = [[] for _ in range(n_ref)]
    cov_h = [0] * n_hyp
    cov_r = [0] * n_ref
    # Per candidate: (hyp start, hyp mask, ref mask, coverage gain in key units,
    # distance, next idx, next last_end).  Coverage is Java's int field updated with
    # ``+= len * w`` (quirk 1): int(m + len * w) = m + int(len * w) for int m ≥ 0;
    # a one-word match gains 2 (exact) or 0 (every other module).
    spans: list[tuple[int, int, int, int, int, int, int]] = []
    add = spans.append
    exact = Module.EXACT
    one_word_exact = 2 * cov_unit
    # one shared mask object per word: a long pair's masks are big integers
    bit_h = [1 << i for i in range(n_hyp)]
    bit_r = [1 << j for j in range(n_ref)]
    for cid, c in enumerate(candidates):
        module, hs, he, rs, re_ = c[:5]
        lattice[rs].append(cid)
        if he - hs == 1 and re_ - rs == 1:  # the common case, made cheap
            cov_h[hs] += 1
            cov_r[rs] += 1
            gain = one_word_exact if module is exact else 0
            add((hs, bit_h[hs], bit_r[rs], gain, abs(rs - hs), re_, he))
            continue
        for i in range(hs, he):
            cov_h[i] += 1
        for j in range(rs, re_):
            cov_r[j] += 1
        w = search_weight(module)
        gain = int((he - hs) * w) + int((re_ - rs) * w)
        mask_h = ((1 << (he - hs)) - 1) << hs
        mask_r = ((1 << (re_ - rs)) - 1) << rs
        add((hs, mask_h, mask_r, gain * cov_unit, abs(rs - hs), re_, he))

    # Definite matches (Aligner.java:199-218).
    definite: list[int | None] = [None] * n_ref
    start_h = start_r = 0
    for j in range(n_ref):
        if len(lattice[j]) != 1:  # cheap pre-check; is_definite repeats it
            continue
        cid = lattice[j][0]
        _, hs, he, rs, re_, *_ = candidates[cid]
        if is_definite(1, range(hs, he), range(rs, re_), cov_h, cov_r):
            definite[j] = cid
            start_h |= spans[cid][1]
            start_r |= spans[cid][2]

    def fix(path: list[Any]) -> bool:
        """Java's step for a path whose next position is already used (Aligner.java:268-283).

        Returns False when Java drops the path (no definite match starts at ``idx``).
        """
        fixed = definite[path[_IX]]  # idx <= current < n_ref here
        if fixed is None:
            return False
        hs, _, _, gain, dist, nix, nle = spans[fixed]
        key = path[_KEY] - gain + dist
        if path[_LE] != -1 and hs != path[_LE]:
            key += chunk_unit
        path[_KEY] = key
        path[_IX] = nix
        path[_LE] = nle
        return True

    rank = itemgetter(_KEY)
    paths: list[list[Any]] = [[max_cov * cov_unit, start_h, start_r, 0, -1, None]]
    for current in range(n_ref):
        if len(paths) > 1:
            paths.sort(key=rank)  # stable, as Collections.sort
            del paths[beam_size:]
        bit = bit_r[current]
        row = lattice[current]
        if len(row) * len(paths) > _HEAP_THRESHOLD:
            paths = _heap_step(paths, row, spans, bit_h, bit, current, beam_size, chunk_unit, fix)
            continue
        nxt: list[list[Any]] = []
        push = nxt.append
        for path in paths:
            if path[_UR] & bit:
                ix = path[_IX]
                if current < ix:
                    push(path)
                    continue
                # ``fix`` inlined: every path meets every definite match (the hot case)
                fixed = definite[ix]
                if fixed is None:
                    continue  # Java drops the path
                hs, _, _, gain, dist, path[_IX], nle = spans[fixed]
                le = path[_LE]
                path[_KEY] += dist - gain + (chunk_unit if le != -1 and hs != le else 0)
                path[_LE] = nle
                push(path)
                continue
            key = path[_KEY]
            le = path[_LE]
            if row:
                uh = path[_UH]
                ur = path[_UR]
                co = path[_CO]
                for cid in row:
                    hs, mh, mr, gain, dist, nix, nle = spans[cid]
                    if uh & mh or ur & mr:
                        continue
                    if le != -1 and hs != le:
                        push([key - gain + chunk_unit, uh | mh, ur | mr, nix, nle, (cid, co)])
                    else:
                        push([key - gain, uh | mh, ur | mr, nix, nle, (cid, co)])
                    key += dist  # quirk 2: the distance goes to the parent, so later
                    # siblings and the skip path inherit it (Aligner.java:382)
            if le != -1:  # the skip path closes its chunk
                key += chunk_unit
                path[_LE] = -1
            path[_KEY] = key
            path[_IX] += 1
            push(path)
        if not nxt:  # "unexpected conditions": keep the best path
            nxt.append(paths[0])
        paths = nxt
    # last step (current == n_ref): close the open chunk of every path in the beam
    paths.sort(key=rank)
    del paths[beam_size:]
    for path in paths:
        if path[_LE] != -1:
            path[_KEY] += chunk_unit
    paths.sort(key=rank)
    best = paths[0]

    chosen: list[int] = [c for c in definite if c is not None]
    node = best[_CO]
    while node is not None:
        cid, rest = node
        chosen.append(cid)
        node = rest
    chosen.sort(key=lambda c: candidates[c][3])
    return chosen


def _heap_step(
    paths: list[list[Any]],
    row: list[int],
    spans: list[tuple[int, int, int, int, int, int, int]],
    bit_h: list[int],
    bit: int,
    current: int,
    beam_size: int,
    chunk_unit: int,
    fix: Any,
) -> list[list[Any]]:
    """One step of :func:`beam_choice` for long, repetitive pairs (many successors).

    Java appends every successor, sorts stably and keeps the first ``beam``; that
    equals keeping the ``beam`` smallest (key, insertion order) in a bounded heap.
    Once it is full, a successor gets in only with a key strictly below the worst
    kept, so the others are never built.

    Pruning, exact: a path's children further along the row have keys of at least
    ``key − (largest coverage gain among the remaining candidates)``, plus a chunk
    when a chunk is open and none of them continues it (``key`` only grows along
    the row, quirk 2); its skip path has a key of at least ``key`` (plus a chunk if
    one is open).  The worst key kept never rises, so once a bound reaches it, what
    it bounds can no longer enter the beam: the rest of the row is not walked, or
    when only the skip path still can enter, just its distances are added up.
    Kept whole: the hot loop (split, a Python call per path and candidate).
    """
    heap: list[tuple[int, int, list[Any]]] = []  # (-key, -seq, path)
    seq = 0
    n_row = len(row)
    # best[k]: the largest coverage gain of row[k:] (key units); last[hs]: the last
    # index in the row of a candidate starting at hypothesis position hs
    best = list(accumulate((spans[cid][3] for cid in reversed(row)), max))
    best.reverse()
    last = {spans[cid][0]: k for k, cid in enumerate(row)}
    runs = _runs(row, spans, bit_h, bit)
    worst = -1  # the worst key kept once the heap is full (-1: not full yet)
    for path in paths:
        if path[_UR] & bit:
            if current < path[_IX] or fix(path):
                seq += 1
                if worst < 0:
                    heappush(heap, (-path[_KEY], -seq, path))
                    if len(heap) == beam_size:
                        worst = -heap[0][0]
                elif path[_KEY] < worst:
                    heapreplace(heap, (-path[_KEY], -seq, path))
                    worst = -heap[0][0]
            continue
        key = path[_KEY]
        le = path[_LE]
        if le != -1:
            close = chunk_unit
            cont = last.get(le, -1)  # after this index every child opens a new chunk
        else:
            close = 0
            cont = n_row
        if worst >= 0 and key + close >= worst and (not n_row or key - best[0] >= worst):
            continue  # neither a child nor the skip path can enter
        uh = path[_UH]
        ur = path[_UR]
        co = path[_CO]
        free = _free(runs, row, spans, uh, ur)
        for k in free:
            if worst >= 0 and key - best[k] + (close if k > cont else 0) >= worst:
                # no later child can enter: only the skip path's distance is left
                if key + close < worst:
                    key += spans[row[k]][4]
                    if key + close < worst:
                        for k in free:
                            key += spans[row[k]][4]
                            if key + close >= worst:
                                break
                break
            cid = row[k]
            hs, mh, mr, gain, dist, nix, nle = spans[cid]
            child = key - gain + (close if hs != le else 0)
            key += dist  # quirk 2, as in beam_choice
            seq += 1
            if worst < 0:
                heappush(heap, (-child, -seq, [child, uh | mh, ur | mr, nix, nle, (cid, co)]))
                if len(heap) == beam_size:
                    worst = -heap[0][0]
            elif child < worst:  # else the beam would cut it: never built
                heapreplace(heap, (-child, -seq, [child, uh | mh, ur | mr, nix, nle, (cid, co)]))
                worst = -heap[0][0]
        key += close
        seq += 1
        if worst < 0:
            path[_LE] = -1
            path[_KEY] = key
            path[_IX] += 1
            heappush(heap, (-key, -seq, path))
            if len(heap) == beam_size:
                worst = -heap[0][0]
        elif key < worst:
            path[_LE] = -1
            path[_KEY] = key
            path[_IX] += 1
            heapreplace(heap, (-key, -seq, path))
            worst = -heap[0][0]
    if not heap:  # "unexpected conditions": keep the best path
        return paths[:1]
    heap.sort(key=_ascending)
    return [entry[2] for entry in heap]


#: Shortest run of one-word candidates that :func:`_free` walks by bit operations.
_MIN_RUN = 4


def _runs(
    row: list[int],
    spans: list[tuple[int, int, int, int, int, int, int]],
    bit_h: list[int],
    bit: int,
) -> list[tuple[int, int, int, dict[int, int]]]:
    """The row cut into pieces ``(start, end, hyp mask, index by hyp position)``.

    A piece with a mask is a run of candidates that each join one hypothesis word
    to the reference word ``bit`` at strictly increasing hypothesis positions (an
    exact or stem block of a repeated word); the others have mask 0.
    """
    out: list[tuple[int, int, int, dict[int, int]]] = []
    n = len(row)
    k = 0
    while k < n:
        j = k
        prev = -1
        while j < n:
            hs, mh, mr = spans[row[j]][:3]
            if mr != bit or mh != bit_h[hs] or hs <= prev:
                break
            prev = hs
            j += 1
        if j - k >= _MIN_RUN:
            mask = 0
            at: dict[int, int] = {}
            for i in range(k, j):
                hs, mh = spans[row[i]][:2]
                mask |= mh
                at[hs] = i
            out.append((k, j, mask, at))
            k = j
        else:
            end = max(j, k + 1)
            if out and not out[-1][2]:
                out[-1] = (out[-1][0], end, 0, out[-1][3])
            else:
                out.append((k, end, 0, {}))
            k = end
    return out


def _free(
    runs: list[tuple[int, int, int, dict[int, int]]],
    row: list[int],
    spans: list[tuple[int, int, int, int, int, int, int]],
    uh: int,
    ur: int,
) -> Iterator[int]:
    """Indices into ``row`` of the candidates that use no word of ``uh``/``ur``, in row order.

    Runs of one-word candidates (:func:`_runs`) are walked by their free bits, so the
    words a path already used cost nothing (in a long document most of a frequent
    word's occurrences are used by the time the search reaches its later ones).
    """
    free_h = ~uh
    for start, end, mask, at in runs:
        if mask:
            f = mask & free_h
            while f:
                low = f & -f
                yield at[low.bit_length() - 1]
                f ^= low
        else:
            for k in range(start, end):
                span = spans[row[k]]
                if not (uh & span[1] or ur & span[2]):
                    yield k


# ------------------------------------------------------------- one pair in one C call

#: The stages the C pair alignment makes (``meteor_native._beam.pair_stats``), by code.
PAIR_STAGES: dict[Module, int] = {
    Module.EXACT: 0,
    Module.STEM: 1,
    Module.SYNONYM: 2,
    Module.PARAPHRASE: 3,
}
_PAIR_MODULES = tuple(PAIR_STAGES)
_NO_BYTES = b""


#: The C pair alignment (:func:`packed_native_pair`), or ``None``.
NATIVE_PAIR_STATS = None if _BEAM is None else _BEAM.pair_stats
#: Each stage's statistics slot, in :data:`_PAIR_MODULES` order.
_PAIR_SLOTS = tuple(module_slot(m) for m in _PAIR_MODULES)


def pack_sentence(
    sent: Sentence, stages: bytes, params: Params, lang: Any
) -> tuple[Any, ...] | None:
    """What the C pair alignment reads of ``sent`` for the stage codes ``stages``
    (:data:`PAIR_STAGES`): each word's record (:class:`_WordRecords`), then the sentence's
    :class:`~meteor.languages.paraphrase.SentencePhrases` ``packed`` and ``wants`` (empty
    without the paraphrase stage).  ``None`` when a key or synset is not a 32- or 64-bit
    integer, or the paraphrase table is not the index (the Python stages then run).
    """
    from meteor.languages.paraphrase import ParaphraseTable

    try:
        words = tuple(map(_word_records(params, lang, stages).__getitem__, sent.prepped()))
    except (TypeError, OverflowError, struct.error):
        return None
    occ_pids = occ_off = occ_pos = wants = _NO_BYTES
    if 3 in stages:
        table = lang.paraphrases()
        if not isinstance(table, ParaphraseTable):
            return None
        phrases = sent.phrases(table)
        # made for the whole block by phrases_many, else here
        occ_pids, occ_off, occ_pos = phrases.packed or pack_occ(phrases.occ)
        wants = phrases.wants
    return (words, occ_pids, occ_off, occ_pos, wants)


def pack_occ(occ: dict[int, list[int]]) -> tuple[bytes, bytes, bytes]:
    """:attr:`SentencePhrases.packed <meteor.languages.paraphrase.SentencePhrases.packed>`
    made from ``occ`` (phrase id -> starts, ascending): the ids ascending, the offsets of
    their starts (from 0) and the starts, as int32 bytes."""
    items = sorted(occ.items())
    if not items:
        return (_NO_BYTES, _NO_BYTES, _NO_BYTES)
    return (
        array("i", [pid for pid, _ in items]).tobytes(),
        array("i", [0, *accumulate([len(s) for _, s in items])]).tobytes(),
        array("i", chain.from_iterable(s for _, s in items)).tobytes(),
    )


class _WordRecords(dict[str, bytes]):
    """Word (ё folded when the params fold it) -> its record for the C pair alignment:
    its key (``String.hashCode``, ``Stage.java:43-50``) and its stem's (0 without the
    stem stage) as int32, then its synsets ascending as int64 (none without the synonym
    stage), native byte order.  Made on first look-up; at most :data:`WORDS_KEPT`
    words are kept (then the table starts again)."""

    def __init__(self, stem: Callable[[str], str] | None, synsets: Any) -> None:
        super().__init__()
        self._stem = stem
        self._synsets = synsets

    def __missing__(self, word: str) -> bytes:
        if len(self) >= WORDS_KEPT:
            self.clear()
        stem_key = java_hash(self._stem(word)) if self._stem is not None else 0
        ids = sorted(self._synsets(word)) if self._synsets is not None else ()
        record = self[word] = struct.pack(f"=ii{len(ids)}q", java_hash(word), stem_key, *ids)
        return record


#: Most words one table of word records keeps (about 100 bytes each).
WORDS_KEPT = 1 << 16
_WORD_TABLES: dict[tuple[Any, ...], _WordRecords] = {}


def _word_records(params: Params, lang: Any, stages: bytes) -> _WordRecords:
    """The process's word records for the sentence settings of ``params``
    (:meth:`Sentence.settings`) and these stages."""
    key = (*Sentence.settings(params), stages)
    table = _WORD_TABLES.get(key)
    if table is None:
        table = _WORD_TABLES[key] = _WordRecords(
            lang.stem_function(params.stemmer) if 1 in stages else None,
            lang.synsets_function() if 2 in stages else None,
        )
    return table


def _stem_detail(rs: Sentence, j: int) -> str:
    """A stem match's detail: the reference word's stem (StemMatcher)."""
    return f"same stem “{rs.stems()[j]}”"


def _synonym_detail(lang: Any) -> Callable[[int], str]:
    """A synonym match's detail from its synset: the language's source and the synset."""
    return lambda off: f"{lang.synonym_source().split(' (')[0]} synset {off:08d}"


def packed_native_pair(
    params: Params,
    lang: Any,
    sentence: Callable[[Sequence[str]], Sentence],
    limit: Callable[[], int],
) -> PairFunction:
    """A corpus run's pair (:meth:`Aligner.corpus_pair
    <meteor.aligners.base.Aligner.corpus_pair>`) in one C call, ``pair_stats``: every
    stage's candidates from the sentences' packs (:func:`pack_sentence`), the beam search,
    and the choice packed and counted as the general path does
    (``tests/unit/test_native_pair.py`` compares the two).  The function gives ``None``
    when it cannot say: a side over 256 words, more than ``limit()`` candidates (the
    Python stages then raise the limit's error), a sentence it cannot pack.
    ``sentence`` and ``limit``: the scorer's memo of sentence work and candidate limit.
    """
    assert NATIVE_PAIR_STATS is not None
    run = NATIVE_PAIR_STATS
    every = bytes([PAIR_STAGES[m] for m in params.modules])
    first = every[:1]  # identical sentences: the first stage only (Aligner.java:155-161)

    def build(stages: bytes) -> Callable[[Sentence], Any]:
        return lambda s: pack_sentence(s, stages, params, lang)

    build_every, build_first = build(every), build(first)
    details = ("", _stem_detail, _synonym_detail(lang), "paraphrase table")
    beam_size = params.beam_size

    def pair(hyp: tuple[Token, ...], ref: tuple[Token, ...]) -> PackedPair | None:
        hs = sentence([t.text for t in hyp])
        rs = sentence([t.text for t in ref])
        if len(hs.words) == len(rs.words) and hs.keys == rs.keys:
            hp, rp, stages = hs.pack(first, build_first), rs.pack(first, build_first), first
        else:
            hp, rp, stages = hs.pack(every, build_every), rs.pack(every, build_every), every
        if hp is None or rp is None:
            return None
        got = run(
            hp, rp, stages, beam_size, limit(), _PAIR_MODULES, details, rs, hyp, ref,
            _PAIR_SLOTS, N_BUILTIN,
        )  # fmt: skip
        if got is None:
            return None
        packed, *lengths, vectors, chunks, hyp_matches, ref_matches = got
        return packed, counted_stats(tuple(lengths), vectors, chunks, hyp_matches, ref_matches)

    return pair
