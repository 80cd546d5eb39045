"""Meteor 1.5's paraphrase table as a compact, memory-mapped phrase index.

What is replicated
------------------
Meteor 1.5 (cmu-mtlab/meteor) reads ``data/paraphrase-<lang>.gz`` into a
``ParaphraseTransducer`` and proposes n:m candidates with ``ParaphraseMatcher``
(``meteor-1.5.md`` section 6).  :meth:`ParaphraseTable.candidates` returns the
same candidates, in the same order and with the same duplicates.  Each decision
below names the Java lines it follows (``src/edu/cmu/meteor/aligner/``):

* **Records** (``ParaphraseTransducer.java:108-127``).  The file is read as
  3-line records ``probability / phrase A / phrase B``, by line count alone, and
  the probability is ignored (:109-111).  Lines end at ``\\n``, ``\\r`` or
  ``\\r\\n`` (``BufferedReader.readLine``); the text is UTF-8.  Phrases are
  split on ``" \\t\\n\\r\\f"`` only (``StringTokenizer``, :114 and :121), so
  ``"a  b"`` and ``"a b"`` are the same phrase.
* **Trie over side A only** (:126).  Every record adds a path for its A phrase
  and appends the record's index to the ``emit`` list of the end node
  (``State.addPath``, :45-59), so the records of one A phrase are returned in
  file order.  B is only ever the paraphrase, never walked; the table is *not*
  symmetric (only 268,106 of the 5,274,084 English records have their mirror
  record), and the matcher gets symmetry by walking the trie from both
  sentences (below).
* **Words** are compared by string through the table's own vocabulary
  (``ParaphraseTransducer.translate``, :137-142; ``ParaphraseMatcher.java:17-29``):
  a word absent from the table becomes ``-1`` and never matches.  This stage,
  unlike exact/stem/synonym (``Stage.java``), does *not* use
  ``String.hashCode``, so hash collisions such as ``Aa``/``BB`` play no part.
* **Lookup** (``State.getPaths``, :64-83).  From a start position the trie is
  walked word by word until a word has no transition; at each depth ``L`` every
  record emitted there yields ``(L, record)``.  Any phrase of the table is
  reachable this way (its prefixes are all trie nodes), so the walk equals
  "every n-gram starting there that is an A phrase, shortest first".  There is
  no length limit in Java; the English table's phrases have 1-7 words.
* **Direction 1, A in the reference** (``ParaphraseMatcher.java:31-66``).  For
  each reference position ``j`` (ascending), for each ``(L, record)`` from the
  walk at ``j``, for each hypothesis position ``i`` (ascending) where the
  record's B phrase occurs, add ``Match(start=j, length=L, matchStart=i,
  matchLength=len(B))`` to ``s.matches.get(j)`` (:57).
* **Direction 2, A in the hypothesis** (:68-101).  The same with the sides
  swapped: for each hypothesis position ``i``, each ``(L, record)`` from the
  walk at ``i``, each reference position ``j`` where B occurs, add
  ``Match(start=j, length=len(B), matchStart=i, matchLength=L)`` to
  ``s.matches.get(j)`` (:94).
* **No filtering and no de-duplication.**  There is no "different words" test
  (a pair of identical phrases would be proposed, though the English table has
  no such record), and a pair found by both directions (the table holds both
  ``a -> b`` and ``b -> a``) is added **twice**.  Both copies raise the coverage
  counts (:59-62, :96-99) that decide definite matches (``Aligner.java:199-218``),
  so the duplicates matter and are kept.

The order returned by :meth:`ParaphraseTable.candidates` is the global order of
the ``add`` calls: all of direction 1, then all of direction 2.  Meteor's lattice
is ``s.matches.get(ref_start)``; a **stable** grouping of the list by
``ref_start`` gives each position's list exactly.  For a pair of identical
sentences ``Aligner.align`` (:155-161) runs the first module only, so Meteor
never asks for paraphrases there; that shortcut belongs to the aligner, and
:meth:`~ParaphraseTable.candidates` still answers if asked.

Two things of the Java reader are not reproduced because the shipped English
table has neither: a record with an empty A phrase (Java never emits it; it is
skipped here too) and one with an empty B phrase (Java would propose
zero-length matches at every position; it is skipped and counted in the index
header).  A truncated table (line count not a multiple of 3) is refused, where
Java would crash.

The index
---------
The 272 MB table text becomes one 106 MB file in :func:`meteor.resources.cache_dir`
(``paraphrase-<lang>.v<N>.idx``), built once (in a child process, see
:func:`_build`) and memory-mapped afterwards::

    magic b"MTPPIDX\\0" | u32 header length | header JSON | zero pad to 64
    | arrays (each 64-byte aligned) | sha256 of everything before it (32 bytes)

The header names the format version, the source table's size and mtime and each
array's dtype, shape and offset.  Arrays (``P`` distinct phrases over both
sides, ``PA`` of them occurring as an A phrase and numbered first, ``R``
records, ``W`` the longest phrase):

* ``vocab``: UTF-8 words joined by ``\\n`` (word id = line number).
* ``tokens`` ``(P, W)`` uint16/uint32: word id + 1 of each phrase, 0-padded.
* ``lengths`` ``(P,)`` uint8: words per phrase.
* ``rec_off`` ``(PA + 1,)`` uint32 and ``rec_b`` ``(R,)`` uint32: the records of
  A phrase ``a`` are ``rec_b[rec_off[a]:rec_off[a + 1]]`` (their B phrases), in
  file order, which is the trie's ``emit`` order.
* ``hash_keys`` ``(P,)`` uint64, sorted, and ``hash_ids`` ``(P,)`` uint32: a
  64-bit rolling hash of each phrase's word ids and the phrase it belongs to.
  The build re-seeds the hash until the table's phrases have distinct keys, and
  a lookup compares the stored words too, so a lookup is exact.
* ``bucket_off`` ``(2**bits + 1,)`` uint32: where the keys with each value of
  their top ``bits`` bits start (``2**bits >= P``), so a lookup reads one short
  run of ``hash_keys`` instead of binary-searching 21 MB.

A query maps both sentences' words to ids, hashes every n-gram of up to ``W``
words with numpy, and does all the work of the Java loops as array operations;
about 0.3 ms for a pair of 30-token sentences.

A missing, truncated, corrupted, stale (other source size/mtime) or older-format
file fails the checks in :func:`_read_index` and is rebuilt, written to a
temporary file and moved into place with :func:`os.replace`.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import mmap
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

__all__ = [
    "FORMAT_VERSION",
    "CandidateOverflowError",
    "InvalidIndexError",
    "ParaphraseTable",
    "build_index",
    "get_table",
    "index_path",
    "main",
]

#: Bump when the layout or the hashing changes; older files are rebuilt.
FORMAT_VERSION = 1
_MAGIC = b"MTPPIDX\0"
_ALIGN = 64
_DIGEST = 32  # sha256
_MASK64 = (1 << 64) - 1
#: Multiplier of the rolling phrase hash (odd, from the golden ratio).
_HASH_MULT = 0x9E3779B97F4A7C15
_FIRST_SEED = 0x6D657465_6F723135  # "meteor15"
_READ_CHUNK = 1 << 21
#: ``java.util.StringTokenizer``'s default delimiters, minus the two line ends.
_JAVA_SPACE = str.maketrans({"\t": " ", "\f": " "})

#: The arrays of an index file, in file order.
_ARRAYS = ("vocab", "tokens", "lengths", "rec_off", "rec_b", "hash_keys", "hash_ids", "bucket_off")

Progress = Callable[[float, str], None]
_U64 = npt.NDArray[np.uint64]


class InvalidIndexError(ValueError):
    """A cached index file is unusable (truncated, corrupted, stale or another version)."""


class CandidateOverflowError(ValueError):
    """More paraphrase candidates than the ``limit`` given to :meth:`ParaphraseTable.candidates`.

    Raised after counting, before any candidate is built (a phrase repeated many
    times on both sides gives a number of candidates quadratic in its count).
    """

    def __init__(self, found: int, limit: int) -> None:
        super().__init__(f"{found:,} paraphrase candidates; at most {limit:,} allowed")
        self.found = found
        self.limit = limit


@dataclass(frozen=True, slots=True)
class SentencePhrases:
    """One sentence as the paraphrase matcher sees it (:meth:`ParaphraseTable.phrases`).

    Kept per distinct sentence by the scorer, so it is stored compactly (about 2 kB
    for a 25-word sentence; as Python tuples it took eight times that).

    Attributes:
        occ: phrase id -> start positions (ascending) where that phrase of the table
            occurs in the sentence.
        keys: the phrase ids of ``occ``, sorted, as int32 bytes.
        wants: ``(start, length, b_phrase, b_length)`` for every record whose A
            phrase occurs at ``start``, in trie-walk order (``State.getPaths``), as
            int32 bytes (4 numbers per record).
    """

    occ: dict[int, list[int]]
    keys: bytes
    wants: bytes

    @classmethod
    def of(cls, occ: dict[int, list[int]], wants: npt.NDArray[np.int64]) -> SentencePhrases:
        keys = np.array(sorted(occ), dtype=np.int32).tobytes()
        return cls(occ, keys, wants.astype(np.int32).tobytes())

    def records(self) -> npt.NDArray[np.int32]:
        """``wants`` as a ``(k, 4)`` array (a view, no copy)."""
        return np.frombuffer(self.wants, dtype=np.int32).reshape(-1, 4)

    def wanted_in(self, other: SentencePhrases) -> list[list[int]]:
        """The ``wants`` rows (walk order) whose B phrase occurs in ``other``."""
        if not self.wants or not other.keys:
            return []
        w = self.records()
        keys = np.frombuffer(other.keys, dtype=np.int32)
        b = w[:, 2]
        pos = np.minimum(np.searchsorted(keys, b), keys.size - 1)
        rows: list[list[int]] = w[keys[pos] == b].tolist()
        return rows


_NO_PHRASES = np.zeros((0, 4), dtype=np.int64)


def index_path(lang: str = "en", cache: Path | None = None) -> Path:
    """Where the index for ``lang`` lives.

    Args:
        lang: language code of the table (``data/paraphrase-<lang>.gz``).
        cache: a directory to hold the index, or the index file itself;
            default :func:`meteor.resources.cache_dir`.

    Returns:
        The index file path (it may not exist yet).
    """
    name = f"paraphrase-{lang}.v{FORMAT_VERSION}.idx"
    if cache is None:
        from meteor import resources

        return resources.cache_dir() / name
    cache = Path(cache)
    if cache.is_dir() or not cache.suffix:
        return cache / name
    return cache


# --------------------------------------------------------------------------- hashing


def _hash_columns(ids: npt.NDArray[np.int64], seed: int) -> tuple[_U64, npt.NDArray[np.bool_]]:
    """Rolling hashes of every window of ``ids``: ``(n, W)`` keys and validity.

    ``ids`` is ``(n, W)`` word ids (``-1`` = unknown or beyond the end): row ``r``
    column ``c`` hashes the words ``r .. r + c`` and is valid when all are known.
    The same function hashes the table's phrases at build time, so a key found in
    ``hash_keys`` names the phrase with those words (after the word check).
    """
    n, width = ids.shape
    keys = np.empty((n, width), dtype=np.uint64)
    valid = np.empty((n, width), dtype=np.bool_)
    h = np.full(n, seed, dtype=np.uint64)
    ok = np.ones(n, dtype=np.bool_)
    mult = np.uint64(_HASH_MULT)
    shift = np.uint64(31)
    for c in range(width):
        col = ids[:, c]
        ok = ok & (col >= 0)
        h = (h ^ (col + 1).astype(np.uint64)) * mult
        h ^= h >> shift
        keys[:, c] = h
        valid[:, c] = ok
    return keys, valid


def _hash_phrases(tokens: npt.NDArray[Any], lengths: npt.NDArray[np.int64], seed: int) -> _U64:
    """The key :func:`_hash_columns` gives each whole phrase (``tokens`` = word id + 1)."""
    n, width = tokens.shape
    h = np.full(n, seed, dtype=np.uint64)
    mult = np.uint64(_HASH_MULT)
    shift = np.uint64(31)
    for c in range(width):
        live = lengths > c
        step = (h ^ tokens[:, c].astype(np.uint64)) * mult
        step ^= step >> shift
        h = np.where(live, step, h)
    return h


# --------------------------------------------------------------------------- the table


class ParaphraseTable:
    """A read-only, memory-mapped Meteor 1.5 paraphrase table.

    Build or open it with :meth:`load` (or :func:`get_table` for a process-wide
    instance).  All methods are thread-safe: they only read the arrays.
    """

    def __init__(self, path: Path, header: dict[str, Any], buf: Any) -> None:
        self.path = path
        self.header = header
        self._buf = buf  # keeps the mapping alive
        arrays: dict[str, Any] = {}
        missing = set(_ARRAYS) - set(header["arrays"])
        if missing:
            raise InvalidIndexError(f"{path} lacks {sorted(missing)}")
        for name, spec in header["arrays"].items():
            count = int(np.prod(spec["shape"])) if spec["shape"] else 1
            arr = np.frombuffer(
                buf, dtype=np.dtype(spec["dtype"]), count=count, offset=spec["offset"]
            )
            arrays[name] = arr.reshape(spec["shape"])
        self._tokens: npt.NDArray[np.unsignedinteger[Any]] = arrays["tokens"]
        self._lengths: npt.NDArray[np.uint8] = arrays["lengths"]
        self._rec_off: npt.NDArray[np.uint32] = arrays["rec_off"]
        self._rec_b: npt.NDArray[np.uint32] = arrays["rec_b"]
        self._hash_keys: _U64 = arrays["hash_keys"]
        self._hash_ids: npt.NDArray[np.uint32] = arrays["hash_ids"]
        self._bucket_off: npt.NDArray[np.uint32] = arrays["bucket_off"]
        self._bucket_shift = np.uint64(64 - int(header["bucket_bits"]))
        self._bucket_steps = np.arange(max(int(header["bucket_max"]), 1), dtype=np.int64)
        words = bytes(arrays["vocab"]).decode("utf-8").split("\n") if header["n_vocab"] else []
        self._words: list[str] = words
        self._vocab: dict[str, int] = {w: k for k, w in enumerate(words)}
        self._width = int(header["width"])
        self._n_a = int(header["n_a"])
        self._seed = int(header["seed"])

    # ---------------------------------------------------------------- construction

    @classmethod
    def load(
        cls,
        lang: str = "en",
        *,
        progress: Progress | None = None,
        cache: Path | None = None,
    ) -> ParaphraseTable:
        """Open the index for ``lang``, building it first if absent or invalid.

        Args:
            lang: language code; the table is ``data/paraphrase-<lang>.gz`` beside
                Meteor's jar (:func:`meteor.resources.paraphrase_table_path`).
            progress: called as ``progress(fraction, message)`` with fractions
                from 0 to 1 while an index is being built (not when it is read).
            cache: a directory for the index or the index file itself (default:
                :func:`meteor.resources.cache_dir`).

        Returns:
            The table.

        Raises:
            meteor.languages.ResourceError: the table is not installed.
        """
        from meteor import resources

        source = resources.paraphrase_table_path(lang)
        path = index_path(lang, cache)
        st = source.stat()
        want = {"size": st.st_size, "mtime_ns": st.st_mtime_ns}
        try:
            return cls.open(path, expect_source=want)
        except (OSError, InvalidIndexError):
            pass
        _build(source, path, lang, progress)
        return cls.open(path, expect_source=want)

    @classmethod
    def open(cls, path: Path, *, expect_source: dict[str, int] | None = None) -> ParaphraseTable:
        """Open an existing index file after verifying it completely.

        Args:
            path: the index file.
            expect_source: ``{"size": ..., "mtime_ns": ...}`` the source table must
                have had when the index was built (skipped when ``None``).

        Raises:
            OSError: the file cannot be read.
            InvalidIndexError: the file is truncated, corrupted, stale or of another version.
        """
        header, buf = _read_index(Path(path))
        if expect_source is not None:
            src = header.get("source", {})
            if (
                src.get("size") != expect_source["size"]
                or src.get("mtime_ns") != expect_source["mtime_ns"]
            ):
                raise InvalidIndexError(f"{path} was built from another version of the table")
        try:
            return cls(Path(path), header, buf)
        except (KeyError, TypeError, ValueError) as exc:  # a header this code cannot use
            if isinstance(exc, InvalidIndexError):
                raise
            raise InvalidIndexError(f"{path} has an unusable header: {exc!r}") from exc

    # ---------------------------------------------------------------- queries

    def __repr__(self) -> str:
        h = self.header
        return (
            f"ParaphraseTable({self.path.name}: {h['n_records']:,} records, "
            f"{h['n_phrases']:,} phrases, {h['n_vocab']:,} words)"
        )

    @property
    def n_records(self) -> int:
        """Number of records (``A -> B`` pairs) of the table."""
        return int(self.header["n_records"])

    def _word_ids(self, words: Sequence[str]) -> list[int]:
        """``ParaphraseTransducer.translate`` (:137-142): table word id, ``-1`` if unknown."""
        get = self._vocab.get
        return [get(w, -1) for w in words]

    def _phrase_ids(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """``(n, W)`` matrix: the phrase id of ``ids[r : r + c + 1]``, or ``-1``.

        Equivalent to walking the trie of ``State.getPaths`` (:64-83) from every
        start position: a phrase of the table is found exactly when all its
        words are known and in order.  ``ids`` may hold ``-1`` separators.
        """
        n = ids.size
        width = self._width
        out = np.full((n, width), -1, dtype=np.int64)
        if n == 0 or width == 0:
            return out
        padded = np.concatenate([ids, np.full(width, -1, dtype=np.int64)])
        win = padded[np.arange(n)[:, None] + np.arange(width)[None, :]]
        keys, valid = _hash_columns(win, self._seed)
        rows, cols = np.nonzero(valid)
        if rows.size == 0:
            return out
        k = keys[rows, cols]
        # Hash buckets: the top bits of a key give the range of hash_keys to scan.
        bucket = (k >> self._bucket_shift).astype(np.int64)
        lo = self._bucket_off[bucket].astype(np.int64)
        hi = self._bucket_off[bucket + 1].astype(np.int64)
        idx = lo[:, None] + self._bucket_steps[None, :]
        eq = (self._hash_keys[np.minimum(idx, self._hash_keys.size - 1)] == k[:, None]) & (
            idx < hi[:, None]
        )
        hit = eq.any(axis=1)
        pos = lo + eq.argmax(axis=1)
        rows, cols, pos = rows[hit], cols[hit], pos[hit]
        pids = self._hash_ids[pos].astype(np.int64)
        # Exact check of the words: the hash only points at a candidate phrase.
        stored = self._tokens[pids].astype(np.int64)
        mine = win[rows] + 1
        mine[np.arange(width)[None, :] > cols[:, None]] = 0
        same = (stored == mine).all(axis=1)
        out[rows[same], cols[same]] = pids[same]
        return out

    def phrases(self, words: Sequence[str]) -> SentencePhrases:
        """The table's view of one sentence, for either side of :meth:`pair_candidates`.

        One trie walk per sentence (``State.getPaths`` from every start, vectorised
        by :meth:`_phrase_ids`): where each phrase of the table occurs, and every
        ``(start, length, record)`` the walk emits over A phrases, in walk order
        (start ascending, then depth, then the record's place in the file).  It
        depends on the sentence alone, so a scorer computes it once per distinct
        sentence (references repeat across systems).
        """
        return self.phrases_many([words])[0]

    def phrases_many(self, sentences: Sequence[Sequence[str]]) -> list[SentencePhrases]:
        """:meth:`phrases` of many sentences with one vectorised lookup (same results)."""
        width = self._width
        if not width or not sentences:
            return [SentencePhrases.of({}, _NO_PHRASES) for _ in sentences]
        gap = [-1] * width  # no phrase spans a gap
        flat: list[int] = []
        starts: list[int] = []
        for words in sentences:
            starts.append(len(flat))
            flat += self._word_ids(words)
            flat += gap
        both = self._phrase_ids(np.array(flat, dtype=np.int64))
        rows, cols = np.nonzero(both >= 0)  # row-major: start, then length
        pids = both[rows, cols]
        is_a = pids < self._n_a
        a_rows, lens, apids = rows[is_a], cols[is_a] + 1, pids[is_a]
        # Every record of every A phrase found, in walk order then file order.
        lo = self._rec_off[apids].astype(np.int64)
        counts = self._rec_off[apids + 1].astype(np.int64) - lo
        entry = np.repeat(np.arange(apids.size), counts)
        recs = np.arange(entry.size) + np.repeat(lo - (np.cumsum(counts) - counts), counts)
        bs = self._rec_b[recs].astype(np.int64)
        want_rows = a_rows[entry]
        wants_all = np.stack([want_rows, lens[entry], bs, self._lengths[bs].astype(np.int64)], 1)
        # Split both by sentence (rows ascend, so each sentence is one slice).
        bounds = np.array(starts[1:] + [len(flat)], dtype=np.int64)
        occ_cut = np.searchsorted(rows, bounds, side="left").tolist()
        want_cut = np.searchsorted(want_rows, bounds, side="left").tolist()
        occ_rows, occ_pids = rows.tolist(), pids.tolist()
        out: list[SentencePhrases] = []
        o = w = 0
        for base, o_end, w_end in zip(starts, occ_cut, want_cut, strict=True):
            occ: dict[int, list[int]] = {}
            for r, pid in zip(occ_rows[o:o_end], occ_pids[o:o_end], strict=True):
                occ.setdefault(pid, []).append(r - base)  # starts ascending
            wants = wants_all[w:w_end].copy()
            wants[:, 0] -= base
            out.append(SentencePhrases.of(occ, wants))
            o, w = o_end, w_end
        return out

    def pair_candidates(
        self, hyp: SentencePhrases, ref: SentencePhrases, *, limit: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """:meth:`candidates` from the two sentences' :meth:`phrases` (same order, same limit).

        Direction 1 (``ParaphraseMatcher.java:31-66``): each record walked from the
        reference, each hypothesis start of its B phrase ascending; direction 2
        (:68-101) the same with the sides swapped.
        """
        h_occ, r_occ = hyp.occ, ref.occ
        dir1 = ref.wanted_in(hyp)  # records walked from the reference, B in the hypothesis
        dir2 = hyp.wanted_in(ref)
        if limit is not None:  # count first: never build more than the limit
            n1 = sum(len(h_occ[b]) for _, _, b, _ in dir1)
            if n1 > limit:
                raise CandidateOverflowError(n1, limit)
            n2 = sum(len(r_occ[b]) for _, _, b, _ in dir2)
            if n1 + n2 > limit:
                raise CandidateOverflowError(n1 + n2, limit)
        out: list[tuple[int, int, int, int]] = []
        push = out.append
        for rs, rl, b, bl in dir1:
            for hs in h_occ[b]:
                push((hs, bl, rs, rl))
        for hs, hl, b, bl in dir2:
            for rs in r_occ[b]:
                push((hs, hl, rs, bl))
        return out

    def candidates(
        self, hyp: Sequence[str], ref: Sequence[str], *, limit: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """Every paraphrase candidate, as Meteor 1.5's ``ParaphraseMatcher`` adds them.

        Args:
            hyp: hypothesis tokens (Meteor's "line 1"), already normalised.
            ref: reference tokens ("line 2").
            limit: most candidates to return; more raise :class:`CandidateOverflowError`
                once counted, before they are built (``None``: no limit).

        Returns:
            ``(hyp_start, hyp_len, ref_start, ref_len)`` tuples in the order of
            the ``s.matches.get(j).add(m)`` calls (``ParaphraseMatcher.java:57``
            then :94), duplicates included: first every reference position with
            the table's A phrases starting there, then every hypothesis position.
            Group stably by ``ref_start`` to get Meteor's per-position lattice.

        Raises:
            CandidateOverflowError: more than ``limit`` candidates.
        """
        if not hyp or not ref:
            return []
        return self.pair_candidates(self.phrases(hyp), self.phrases(ref), limit=limit)

    def _phrase_text(self, pid: int) -> tuple[str, ...]:
        n = int(self._lengths[pid])
        return tuple(self._words[int(t) - 1] for t in self._tokens[pid, :n])

    def lookup(self, phrase: Sequence[str]) -> list[tuple[str, ...]]:
        """Phrases that Meteor 1.5 would align with ``phrase`` (for teaching UIs).

        Args:
            phrase: the words of a phrase (lowercased, normalised tokens).

        Returns:
            First the B phrases of the records whose A phrase is ``phrase`` (file
            order, as the trie emits them), then the A phrases of records whose B
            phrase is ``phrase`` (the matcher's other direction), without repeats.
            Empty when the table does not know the phrase.
        """
        words = list(phrase)
        if not words or len(words) > self._width:
            return []
        ids = np.array(self._word_ids(words), dtype=np.int64)
        pid = int(self._phrase_ids(ids)[0, len(words) - 1])
        if pid < 0:
            return []
        out: list[tuple[str, ...]] = []
        seen: set[int] = set()
        if pid < self._n_a:
            for b in self._rec_b[self._rec_off[pid] : self._rec_off[pid + 1]].tolist():
                if b not in seen:
                    seen.add(b)
                    out.append(self._phrase_text(b))
        recs = np.flatnonzero(self._rec_b == pid)
        for a in (np.searchsorted(self._rec_off, recs, side="right") - 1).tolist():
            if a not in seen:
                seen.add(a)
                out.append(self._phrase_text(a))
        return out


# --------------------------------------------------------------------------- reading


def _read_index(path: Path) -> tuple[dict[str, Any], Any]:
    """Verify an index file end to end and map it.

    The sha256 trailer is checked with plain reads (so the page cache, not the
    process, holds the pages) before the file is mapped; any mismatch in magic,
    lengths, version, digest or array bounds raises :class:`InvalidIndexError`.
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < len(_MAGIC) + 4 + _DIGEST:
            raise InvalidIndexError(f"{path} is truncated")
        head = f.read(len(_MAGIC) + 4)
        if head[: len(_MAGIC)] != _MAGIC:
            raise InvalidIndexError(f"{path} is not a paraphrase index")
        (hlen,) = struct.unpack("<I", head[len(_MAGIC) :])
        if len(head) + hlen + _DIGEST > size:
            raise InvalidIndexError(f"{path} is truncated")
        f.seek(0)
        digest = hashlib.sha256()
        remaining = size - _DIGEST
        while remaining:
            chunk = f.read(min(_READ_CHUNK, remaining))
            if not chunk:
                raise InvalidIndexError(f"{path} is truncated")
            digest.update(chunk)
            remaining -= len(chunk)
        if f.read(_DIGEST) != digest.digest():
            raise InvalidIndexError(f"{path} is corrupted (checksum mismatch)")
        f.seek(len(head))
        try:
            header = json.loads(f.read(hlen).decode("utf-8"))
        except ValueError as exc:  # pragma: no cover - the digest guards it
            raise InvalidIndexError(f"{path} has an unreadable header") from exc
        if header.get("version") != FORMAT_VERSION:
            raise InvalidIndexError(
                f"{path} has format {header.get('version')}, expected {FORMAT_VERSION}"
            )
        for name, spec in header["arrays"].items():
            end = spec["offset"] + int(np.prod(spec["shape"])) * np.dtype(spec["dtype"]).itemsize
            if end > size - _DIGEST:
                raise InvalidIndexError(f"{path}: array {name} lies outside the file")
        buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    return header, buf


# --------------------------------------------------------------------------- building


def _java_lines(
    raw: BinaryIO, total: int, progress: Progress | None
) -> Iterator[tuple[list[str], bool]]:
    """Batches of decoded lines split like ``BufferedReader.readLine``.

    Lines end at ``\\n``, ``\\r`` or ``\\r\\n``; a last line without an end still
    counts.  Invalid UTF-8 becomes U+FFFD (``InputStreamReader``'s default).
    Each batch comes with a flag: ``True`` when every line in it is non-empty
    and its words are separated by single spaces, so that ``StringTokenizer``
    would split it exactly like ``str.split(" ")``.
    """
    with gzip.GzipFile(fileobj=raw) as gz:
        rest = b""  # an unfinished line, possibly followed by a held-back "\r"
        while True:
            chunk = gz.read(_READ_CHUNK)
            if progress is not None and total:
                progress(0.6 * min(raw.tell() / total, 1.0), "reading the paraphrase table")
            if not chunk:
                break
            data = rest + chunk
            held = b""
            if data.endswith(b"\r"):  # may be the first half of a "\r\n" split across reads
                data, held = data[:-1], b"\r"
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            cut = data.rfind(b"\n")
            rest = data[cut + 1 :] + held
            if cut >= 0:
                body = data[:cut]
                yield body.decode("utf-8", errors="replace").split("\n"), _clean(body)
        if rest:
            yield [rest.removesuffix(b"\r").decode("utf-8", errors="replace")], False


def _clean(body: bytes) -> bool:
    """Whether the lines of ``body`` are all non-empty words joined by single spaces."""
    return not (
        not body
        or b"\n\n" in body
        or b"  " in body
        or b" \n" in body
        or b"\n " in body
        or b"\t" in body
        or b"\f" in body
        or body[:1] in (b" ", b"\n")
        or body[-1:] in (b" ", b"\n")
    )


def _canonical(phrase: str) -> str:
    """The phrase's tokens joined by one space (``StringTokenizer`` splitting)."""
    return " ".join(t for t in phrase.translate(_JAVA_SPACE).split(" ") if t)


def build_index(
    source: Path,
    dest: Path,
    *,
    progress: Progress | None = None,
    lang: str = "",
) -> dict[str, Any]:
    """Build the index of the gzip table ``source`` into ``dest``.

    Follows ``ParaphraseTransducer``'s reader (``ParaphraseTransducer.java:95-128``):
    3-line records, probability ignored, records of one A phrase kept in file
    order.  The file is written to a temporary name beside ``dest`` and moved
    into place with :func:`os.replace`, so readers never see a partial file.

    Args:
        source: the ``paraphrase-<lang>.gz`` table.
        dest: the index file to write.
        progress: ``progress(fraction, message)`` callback (0 to 1).
        lang: recorded in the header.

    Returns:
        The header written.

    Raises:
        ValueError: the table's line count is not a multiple of 3.
    """
    source = Path(source)
    dest = Path(dest)
    st = source.stat()

    phrase_ids: dict[str, int] = {}
    a_ids = array("i")
    b_ids = array("i")
    skipped_empty_b = 0
    pending: list[str] = []
    pending_clean = True
    setdef = phrase_ids.setdefault
    with open(source, "rb") as raw:
        for lines, clean in _java_lines(raw, st.st_size, progress):
            if pending:
                lines = pending + lines
                clean = clean and pending_clean
            whole = len(lines) - len(lines) % 3
            pending, pending_clean = lines[whole:], clean
            a_side = lines[1:whole:3]
            b_side = lines[2:whole:3]
            if not clean:
                a_side = [_canonical(x) for x in a_side]
                b_side = [_canonical(x) for x in b_side]
                # Empty A: Java adds an emit to the trie root, which getPaths never
                # reads.  Empty B: Java would propose zero-length matches; skipped.
                skipped_empty_b += sum(
                    1 for x, y in zip(a_side, b_side, strict=True) if x and not y
                )
                keep = [k for k, (x, y) in enumerate(zip(a_side, b_side, strict=True)) if x and y]
                a_side = [a_side[k] for k in keep]
                b_side = [b_side[k] for k in keep]
            a_ids.extend([setdef(s, len(phrase_ids)) for s in a_side])
            b_ids.extend([setdef(s, len(phrase_ids)) for s in b_side])
    if pending:
        raise ValueError(
            f"{source} has {len(pending)} line(s) after its last complete 3-line record; "
            "the table is truncated or malformed"
        )

    if progress is not None:
        progress(0.6, "indexing words")
    phrases = list(phrase_ids)
    del phrase_ids
    n_p = len(phrases)
    vocab_set: set[str] = set()
    step = 200_000
    for k in range(0, n_p, step):
        vocab_set.update(" ".join(phrases[k : k + step]).split(" "))
    vocab_set.discard("")
    words = sorted(vocab_set)
    del vocab_set
    vocab = {w: k for k, w in enumerate(words)}
    lengths64 = np.fromiter((p.count(" ") + 1 for p in phrases), dtype=np.int64, count=n_p)
    width = int(lengths64.max()) if n_p else 0
    if width > 255:
        raise ValueError(f"{source}: a phrase has {width} words; at most 255 are supported")
    lengths = lengths64.astype(np.uint8)
    del lengths64
    tok_dtype = np.uint16 if len(words) < 0xFFFF else np.uint32
    tokens = np.zeros((n_p, width), dtype=tok_dtype)
    for k in range(0, n_p, step):
        part = phrases[k : k + step]
        flat = np.fromiter(map(vocab.__getitem__, " ".join(part).split(" ")), dtype=np.int64)
        lens = lengths[k : k + len(part)].astype(np.int64)
        row = np.repeat(np.arange(k, k + len(part)), lens)
        col = np.arange(flat.size) - np.repeat(np.cumsum(lens) - lens, lens)
        tokens[row, col] = flat + 1
        if progress is not None:
            progress(0.6 + 0.2 * min((k + step) / max(n_p, 1), 1.0), "indexing words")
    del phrases

    if progress is not None:
        progress(0.8, "indexing phrases")
    rec_a = np.frombuffer(a_ids, dtype=np.int32).copy()
    del a_ids
    rec_b = np.frombuffer(b_ids, dtype=np.int32).copy()
    del b_ids
    # Renumber: A phrases first, in the order they first appear as A (so a table
    # sorted by A, like the English one, needs no reordering of its records),
    # then the phrases that only occur as B.
    a_pids, a_first = np.unique(rec_a, return_index=True)
    a_order = a_pids[np.argsort(a_first, kind="stable")]
    del a_pids, a_first
    n_a = int(a_order.size)
    is_a = np.zeros(n_p, dtype=np.bool_)
    is_a[a_order] = True
    order = np.concatenate([a_order, np.flatnonzero(~is_a)]).astype(np.int32)
    del is_a, a_order
    tokens = tokens[order]
    lengths = lengths[order]
    new_id = np.empty(n_p, dtype=np.int32)
    new_id[order] = np.arange(n_p, dtype=np.int32)
    del order
    rec_a = new_id[rec_a]
    rec_b = new_id[rec_b]
    del new_id
    if rec_a.size and not (rec_a[1:] >= rec_a[:-1]).all():
        # Stable: the records of one A phrase keep their file order, the order
        # in which State.addPath appends them to the trie node's emit list.
        perm = np.argsort(rec_a, kind="stable")
        rec_a = rec_a[perm]
        rec_b = rec_b[perm]
        del perm
    counts = np.bincount(rec_a, minlength=n_a)
    del rec_a
    rec_off = np.concatenate([[0], np.cumsum(counts)])

    seed = _FIRST_SEED
    for _attempt in range(64):
        full = _hash_phrases(tokens, lengths.astype(np.int64), seed)
        hash_order = np.argsort(full, kind="stable")
        hash_keys = full[hash_order]
        if n_p < 2 or not (hash_keys[1:] == hash_keys[:-1]).any():
            break
        seed = (seed * _HASH_MULT + 1) & _MASK64
    else:  # pragma: no cover - two phrases with the same words cannot be built
        raise RuntimeError(f"{source}: no hash seed separates the phrases")
    # 2**bits >= P buckets over the top bits of the keys (at most ~1 key each).
    bits = max(1, (n_p - 1).bit_length())
    bucket = (hash_keys >> np.uint64(64 - bits)).astype(np.int64)
    bucket_counts = np.bincount(bucket, minlength=1 << bits)
    bucket_off = np.concatenate([[0], np.cumsum(bucket_counts)])

    arrays: dict[str, np.ndarray[Any, Any]] = {
        "vocab": np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8),
        "tokens": tokens,
        "lengths": lengths,
        "rec_off": rec_off.astype(np.uint32 if rec_b.size < 2**32 else np.uint64),
        "rec_b": rec_b.astype(np.uint32),
        "hash_keys": hash_keys,
        "hash_ids": hash_order.astype(np.uint32),
        "bucket_off": bucket_off.astype(np.uint32),
    }
    header: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "lang": lang,
        "source": {"name": source.name, "size": st.st_size, "mtime_ns": st.st_mtime_ns},
        "n_records": int(rec_b.size),
        "n_phrases": n_p,
        "n_a": n_a,
        "n_vocab": len(words),
        "width": width,
        "seed": seed,
        "bucket_bits": bits,
        "bucket_max": int(bucket_counts.max()) if n_p else 0,
        "skipped_empty_b": skipped_empty_b,
        "arrays": {},
    }
    if progress is not None:
        progress(0.95, "writing the index")
    _write_index(dest, header, arrays)
    if progress is not None:
        progress(1.0, "paraphrase index ready")
    return header


def _write_index(
    dest: Path, header: dict[str, Any], arrays: dict[str, np.ndarray[Any, Any]]
) -> None:
    """Write header + arrays + sha256 to a temporary file, then ``os.replace`` it."""

    def layout(hlen: int) -> tuple[int, dict[str, Any]]:
        off = _pad(len(_MAGIC) + 4 + hlen)
        specs: dict[str, Any] = {}
        for name, arr in arrays.items():
            specs[name] = {"dtype": arr.dtype.str, "shape": list(arr.shape), "offset": off}
            off = _pad(off + arr.nbytes)
        return off, specs

    # Reserve room for the header: the offsets it lists depend on its length.
    _, header["arrays"] = layout(0)
    hlen = _pad(len(json.dumps(header, sort_keys=True)) + 256)
    _, header["arrays"] = layout(hlen)
    blob = json.dumps(header, sort_keys=True).encode("utf-8")
    if len(blob) > hlen:  # pragma: no cover - 256 spare bytes cover any offset growth
        raise RuntimeError("paraphrase index header outgrew its reserved space")
    blob = blob.ljust(hlen)

    dest.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(dest)
    # The builder's pid in the name: a build killed with SIGKILL (which no handler
    # sees) leaves a file the next build, or the parent, knows to be dead.
    fd, tmp = tempfile.mkstemp(prefix=f"{dest.name}.{os.getpid()}.", suffix=".tmp", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            digest = hashlib.sha256()

            def put(data: bytes | memoryview) -> None:
                f.write(data)
                digest.update(data)

            put(_MAGIC + struct.pack("<I", len(blob)) + blob)
            pos = len(_MAGIC) + 4 + len(blob)
            for name, arr in arrays.items():
                start = header["arrays"][name]["offset"]
                put(b"\0" * (start - pos))
                data = np.ascontiguousarray(arr).data.cast("B")
                put(data)
                pos = start + len(data)
            put(b"\0" * (_pad(pos) - pos))
            f.write(digest.digest())
            f.flush()
            os.fsync(f.fileno())
        if dest.is_dir() and not dest.is_symlink():  # a folder where the index belongs
            shutil.rmtree(dest)
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _remove_stale_temps(dest: Path, age: float = 3600.0) -> None:
    """Delete temporary files of builds that died: their builder process (pid in
    the name) is gone, or they are more than ``age`` seconds old."""
    now = time.time()
    for old in dest.parent.glob(dest.name + ".*.tmp"):
        with contextlib.suppress(OSError):
            if not _builder_alive(old, dest) or now - old.stat().st_mtime > age:
                old.unlink()


def _builder_alive(temp: Path, dest: Path) -> bool:
    """Whether the process that named ``temp`` (``<dest>.<pid>.<random>.tmp``) runs."""
    pid_part = temp.name[len(dest.name) + 1 :].split(".", 1)[0]
    if not pid_part.isdigit():
        return True  # an older name without a pid: judged by its age
    pid = int(pid_part)
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's process)
    return True


def _remove_temps_of(dest: Path, pid: int) -> None:
    """Delete the temporary files of the build process ``pid`` (killed by us)."""
    for old in dest.parent.glob(f"{dest.name}.{pid}.*.tmp"):
        with contextlib.suppress(OSError):
            old.unlink()


def _pad(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def _build(source: Path, dest: Path, lang: str, progress: Progress | None) -> None:
    """Build the index in a child Python process, relaying its progress.

    The build holds every distinct phrase as a Python string for a moment
    (about 0.7 GB for English), and CPython keeps much of such memory after
    it is freed.  A child process returns it all, so a process that only scores
    stays small.  When no child can be started, the build runs here.
    """
    exe = sys.executable
    if not exe:
        build_index(source, dest, progress=progress, lang=lang)
        return
    # Run this file, not the package: the child needs numpy and nothing else.
    code = "import runpy, sys; runpy.run_path(sys.argv.pop(1), run_name='__main__')"
    safe = ["-P"] if sys.version_info >= (3, 11) else []  # no cwd on sys.path
    cmd = [exe, *safe, "-c", code, str(Path(__file__).resolve()), "build", "--lang", lang]
    cmd += ["--source", str(source), "--dest", str(dest)]
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as err:
        try:
            proc = subprocess.Popen(
                cmd, stdout=subprocess.PIPE, stderr=err, text=True, encoding="utf-8"
            )
        except OSError:
            build_index(source, dest, progress=progress, lang=lang)
            return
        out = proc.stdout
        if out is None:  # pragma: no cover - stdout=PIPE always sets it
            raise RuntimeError("no pipe to the index builder")
        try:
            with out:
                for line in out:
                    kind, _, rest = line.rstrip("\n").partition(" ")
                    if kind == _PROGRESS_TAG and progress is not None:
                        frac, _, msg = rest.partition(" ")
                        with contextlib.suppress(ValueError):
                            progress(float(frac), msg)
        except BaseException:  # e.g. the progress callback stopped a Streamlit run
            proc.kill()
            proc.wait()
            _remove_temps_of(dest, proc.pid)  # SIGKILL left its ~100 MB file behind
            raise
        if proc.wait() != 0:
            err.seek(0)
            tail = err.read()[-4000:]
            raise RuntimeError(f"building the paraphrase index from {source} failed:\n{tail}")


_PROGRESS_TAG = "progress"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m meteor.languages.paraphrase [build|info|lookup]``: manage the index.

    ``build`` (used by :meth:`ParaphraseTable.load` in a child process) writes
    progress lines ``progress <fraction> <message>`` to stdout.
    """
    parser = argparse.ArgumentParser(
        prog="python -m meteor.languages.paraphrase", description=main.__doc__
    )
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the index (default: the cache for --lang)")
    b.add_argument("--lang", default="en")
    b.add_argument("--source", type=Path, help="gzip table (default: the one beside Meteor's jar)")
    b.add_argument("--dest", type=Path, help="index file (default: in the per-user cache)")
    i = sub.add_parser("info", help="load (building if needed) and describe the index")
    i.add_argument("--lang", default="en")
    q = sub.add_parser("lookup", help="paraphrases of a phrase")
    q.add_argument("phrase", nargs="+")
    q.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    if args.cmd == "build":
        if args.source is None:
            from meteor import resources

            args.source = resources.paraphrase_table_path(args.lang)
        source = args.source
        dest = args.dest or index_path(args.lang)

        def report(frac: float, msg: str) -> None:
            print(f"{_PROGRESS_TAG} {frac:.4f} {msg}", flush=True)

        build_index(source, dest, progress=report, lang=args.lang)
        return 0
    table = ParaphraseTable.load(
        args.lang, progress=lambda f, m: print(f"{f:6.1%} {m}", file=sys.stderr)
    )
    if args.cmd == "info":
        print(table)
        print(json.dumps({k: v for k, v in table.header.items() if k != "arrays"}, indent=2))
    else:
        for p in table.lookup([w.lower() for w in args.phrase]):
            print(" ".join(p))
    return 0


# --------------------------------------------------------------------------- process-wide cache

_TABLES: dict[str, ParaphraseTable] = {}
_LOCK = threading.Lock()


def get_table(lang: str = "en", progress: Progress | None = None) -> ParaphraseTable:
    """The process-wide table for ``lang``, loaded (and built if needed) once.

    Like :func:`functools.cache` keyed on ``lang`` only: ``progress`` is used
    by the call that loads the table and ignored afterwards.  Concurrent first
    calls (e.g. Streamlit sessions) wait for one load instead of building twice.

    Raises:
        meteor.languages.ResourceError: the table is not installed.
    """
    table = _TABLES.get(lang)
    if table is not None:
        return table
    with _LOCK:
        table = _TABLES.get(lang)
        if table is None:
            table = ParaphraseTable.load(lang, progress=progress)
            _TABLES[lang] = table
    return table


if __name__ == "__main__":
    raise SystemExit(main())
