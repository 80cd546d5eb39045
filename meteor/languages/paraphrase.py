"""Meteor 1.5's paraphrase table as a compact, memory-mapped phrase index.

Meteor 1.5 (cmu-mtlab/meteor, ``src/edu/cmu/meteor/aligner/``) reads
``data/paraphrase-<lang>.gz`` into a ``ParaphraseTransducer`` and proposes n:m
candidates with ``ParaphraseMatcher`` (``meteor-1.5.md`` section 6);
:meth:`ParaphraseTable.candidates` returns the same candidates, in the same order and
with the same duplicates:

* **Records** are read as Java reads them (:mod:`meteor.languages.paraphrase_build`,
  ``ParaphraseTransducer.java:108-127``); a trie is built over side A only (:126,
  ``State.addPath`` :45-59: an A phrase's records in file order).  The table is not
  symmetric; the matcher gets symmetry by walking the trie from both sentences.
* **Words** are compared by string through the table's own vocabulary
  (``translate``, :137-142; ``ParaphraseMatcher.java:17-29``): an unknown word is
  ``-1`` and never matches; ``String.hashCode`` collisions play no part.
* **Lookup** (``State.getPaths``, :64-83): from a start, every n-gram that is an A
  phrase, shortest first, each emitting its records (no length limit in Java).
* **Direction 1** (``ParaphraseMatcher.java:31-66``): per reference start ``j``
  ascending, per ``(L, record)`` walked there, per hypothesis start of the record's
  B phrase ascending, ``Match(start=j, length=L, matchStart=i, matchLength=len(B))``
  (:57).  **Direction 2** (:68-101): the same with the sides swapped (:94).
* **No filtering, no de-duplication** (no "different words" test): a pair found by both directions is added
  twice, and both copies raise the coverage counts (:59-62, :96-99) that decide
  definite matches (``Aligner.java:199-218``).

The order is that of the ``add`` calls (all of direction 1, then direction 2); a
stable grouping by ``ref_start`` gives Meteor's lattice.  Identical sentences never ask
for paraphrases (``Aligner.align`` :155-161, the aligner's shortcut).  The index file
(:mod:`meteor.languages.paraphrase_index`) is queried with numpy: every n-gram of up to
``W`` words hashed at once, about 0.3 ms for a pair of 30-token sentences.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from meteor.languages import paraphrase_build
from meteor.languages.paraphrase_build import (
    ARRAYS,
    FORMAT_VERSION,
    HASH_MULT,
    Progress,
    hash_columns,
)
from meteor.languages.paraphrase_index import (
    InvalidIndexError,
    StaleIndexError,
    check_source,
    index_path,
    open_or_build,
    read_index,
)
from meteor.runtime import compiled

__all__ = [
    "FORMAT_VERSION",
    "CandidateOverflowError",
    "InvalidIndexError",
    "ParaphraseTable",
    "StaleIndexError",
    "get_table",
    "index_path",
    "main",
]

_U64 = npt.NDArray[np.uint64]


#: ``meteor_native._phrases``, or ``None`` (not installed, built for older code, or
#: ``METEOR_PURE_PYTHON`` set).
_NATIVE_PHRASES = compiled("_phrases")
#: :meth:`ParaphraseTable._phrase_ids` in C, the same ids
#: (``tests/unit/test_native_phrases.py``), or ``None`` (then numpy's).
NATIVE_PHRASE_IDS = None if _NATIVE_PHRASES is None else _NATIVE_PHRASES.phrase_ids
#: :meth:`ParaphraseTable.phrases_many` in one C call, the same phrases, records and
#: packed occurrences, or ``None`` (then numpy's).
NATIVE_PHRASES_BLOCK = None if _NATIVE_PHRASES is None else _NATIVE_PHRASES.phrases_block


class CandidateOverflowError(ValueError):
    """More paraphrase candidates than the ``limit`` given to :meth:`ParaphraseTable.candidates`.

    Raised after counting, before any candidate is built (a phrase repeated many
    times on both sides gives a number of candidates quadratic in its count).
    """

    def __init__(self, found: int, limit: int) -> None:
        super().__init__(f"{found:,} paraphrase candidates; at most {limit:,} allowed")
        self.found = found
        self.limit = limit


class SentencePhrases:
    """One sentence as the paraphrase matcher sees it (:meth:`ParaphraseTable.phrases`).

    Kept per distinct sentence by the scorer, so stored compactly (about 2 kB for a
    25-word sentence).  Two are equal when their ``occ`` and ``wants`` are.

    Attributes:
        occ: phrase id -> start positions (ascending) where that phrase of the table
            occurs in the sentence (made from ``packed`` when first read if not given).
        wants: ``(start, length, b_phrase, b_length)`` for every record whose A
            phrase occurs at ``start``, in trie-walk order (``State.getPaths``), int32 bytes.
        packed: ``occ`` as three int32 byte strings for the C pair alignment: the phrase
            ids ascending, the offsets of each one's starts (one more than ids; the
            first need not be 0) and the starts; ``None`` when not made.
    """

    __slots__ = ("_occ", "packed", "wants")

    def __init__(
        self,
        occ: dict[int, list[int]] | None,
        wants: bytes,
        packed: tuple[bytes, bytes, bytes] | None = None,
    ) -> None:
        if occ is None and packed is None:
            raise ValueError("SentencePhrases needs occ or packed")
        self._occ = occ
        self.wants = wants
        self.packed = packed

    @property
    def occ(self) -> dict[int, list[int]]:
        occ = self._occ
        if occ is None:
            assert self.packed is not None
            ids, offsets, starts = (memoryview(b).cast("i") for b in self.packed)
            base = offsets[0] if len(offsets) else 0
            occ = self._occ = {
                pid: starts[offsets[k] - base : offsets[k + 1] - base].tolist()
                for k, pid in enumerate(ids)
            }
        return occ

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SentencePhrases):
            return NotImplemented
        return self.occ == other.occ and self.wants == other.wants

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SentencePhrases(occ={self.occ!r}, wants={self.wants!r})"

    def records(self) -> npt.NDArray[np.int32]:
        """``wants`` as a ``(k, 4)`` array (a view, no copy)."""
        return np.frombuffer(self.wants, dtype=np.int32).reshape(-1, 4)

    def wanted_in(self, other: SentencePhrases) -> list[list[int]]:
        """The ``wants`` rows (walk order) whose B phrase occurs in ``other``."""
        occ = other.occ
        if not self.wants or not occ:
            return []
        # Plain Python: about 125 rows a sentence, too few for numpy's per-call overhead
        w = memoryview(self.wants).cast("i")
        return [w[4 * k : 4 * k + 4].tolist() for k, b in enumerate(w[2::4]) if b in occ]


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
        missing = set(ARRAYS) - set(header["arrays"])
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

        How a process builds it, and where when the cache folder is full:
        :func:`meteor.languages.paraphrase_index.open_or_build`.

        Raises:
            meteor.languages.ResourceError: the table is not installed.
            meteor.errors.CacheSpaceError: no room for the index (about 1.8 times the
                table's ``.gz`` size: 111 MB for English) in the cache folder nor in the
                temporary folder (or in ``cache``, when given).
            MemoryError: the build ran out of memory.
        """
        return open_or_build(
            lang,
            cache,
            progress,
            lambda at, want, same: cls.open(at, expect_source=want, same_table=same),
        )

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        expect_source: dict[str, int] | None = None,
        same_table: Callable[[dict[str, Any]], bool] | None = None,
    ) -> ParaphraseTable:
        """Open an existing index file after verifying it completely.

        Args:
            path: the index file.
            expect_source: ``{"size": ..., "mtime_ns": ...}`` the source table must
                have had when the index was built (skipped when ``None``).
            same_table: asked, with the header's ``source``, when the size or time
                differ: whether the table has the same bytes all the same.

        Raises:
            OSError: the file cannot be read.
            MemoryError: no room in the address space to map it.
            InvalidIndexError: the file is truncated, corrupted, stale
                (:class:`StaleIndexError`) or of another version.
        """
        header, buf = read_index(Path(path))
        check_source(path, header, expect_source, same_table)
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

    def _word_ids(self, words: Sequence[str]) -> list[int]:
        """``ParaphraseTransducer.translate`` (:137-142): table word id, ``-1`` if unknown."""
        return list(map(self._vocab.get, words, repeat(-1)))

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
        if NATIVE_PHRASE_IDS is not None:
            NATIVE_PHRASE_IDS(
                np.ascontiguousarray(ids, dtype=np.int64),
                width,
                self._seed,
                HASH_MULT,
                int(self._bucket_shift),
                self._bucket_off,
                self._hash_keys,
                self._hash_ids,
                self._tokens,
                out,
            )
            return out
        return self._numpy_phrase_ids(ids, out)

    def _numpy_phrase_ids(
        self, ids: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        """:meth:`_phrase_ids` in numpy (the reference of the C look-up); ``out`` is the
        ``(n, W)`` result, all ``-1``, filled in place."""
        n = ids.size
        width = self._width
        padded = np.concatenate([ids, np.full(width, -1, dtype=np.int64)])
        win = padded[np.arange(n)[:, None] + np.arange(width)[None, :]]
        keys, valid = hash_columns(win, self._seed)
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
        """:meth:`phrases` of many sentences with one vectorised lookup (same results);
        in one C call when installed (:data:`NATIVE_PHRASES_BLOCK`), the numpy code here
        otherwise (its reference: ``tests/unit/test_native_phrases.py``)."""
        width = self._width
        if not width or not sentences:
            return [SentencePhrases({}, b"") for _ in sentences]
        if NATIVE_PHRASES_BLOCK is not None:
            index = (self._bucket_off, self._hash_keys, self._hash_ids, self._tokens)
            records = (self._rec_off, self._rec_b, self._lengths)
            hashing = (self._seed, HASH_MULT, int(self._bucket_shift), self._n_a)
            block = NATIVE_PHRASES_BLOCK(sentences, self._vocab, width, *hashing, *index, *records)
            return [
                SentencePhrases(None, wants, (ids, offsets, starts))
                for wants, ids, offsets, starts in block
            ]
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
        # Split both by sentence (rows ascend, so each sentence is one slice); positions
        # become the sentence's own, for the whole block at once.
        first = np.array(starts, dtype=np.int64)
        bounds = np.array(starts[1:] + [len(flat)], dtype=np.int64)
        occ_cut = np.searchsorted(rows, bounds, side="left").tolist()
        want_cut = np.searchsorted(want_rows, bounds, side="left").tolist()
        of_row = np.searchsorted(bounds, rows, side="right")  # each row's sentence
        local_rows = rows - first[of_row]
        occ_rows = local_rows.tolist()
        occ_pids = pids.tolist()
        # occ packed for the C pair alignment: by sentence, then phrase id (stable: each
        # id's starts stay ascending); an id's entries start where the id or the sentence
        # changes, and every sentence's first entry is such a start
        order = np.lexsort((pids, of_row))
        sorted_pids, sorted_sent = pids[order], of_row[order]
        new_id = np.ones(order.size, dtype=bool)
        new_id[1:] = (sorted_pids[1:] != sorted_pids[:-1]) | (sorted_sent[1:] != sorted_sent[:-1])
        id_at = np.flatnonzero(new_id)
        ids_bytes = sorted_pids[id_at].astype(np.int32).tobytes()
        offs_bytes = np.append(id_at, order.size).astype(np.int32).tobytes()
        starts_bytes = local_rows[order].astype(np.int32).tobytes()
        id_cut = np.searchsorted(id_at, occ_cut, side="left").tolist()
        wants_all[:, 0] -= first[np.searchsorted(bounds, want_rows, side="right")]
        wants_bytes = wants_all.astype(np.int32).tobytes()  # 16 bytes a row
        out: list[SentencePhrases] = []
        o = w = u = 0
        for o_end, w_end, u_end in zip(occ_cut, want_cut, id_cut, strict=True):
            ps = occ_pids[o:o_end]
            occ = dict(zip(ps, [[r] for r in occ_rows[o:o_end]], strict=True))
            if len(occ) < len(ps):  # a phrase occurring twice: its starts, ascending
                occ = {}
                for r, pid in zip(occ_rows[o:o_end], ps, strict=True):
                    occ.setdefault(pid, []).append(r)
            packed = (
                (
                    ids_bytes[4 * u : 4 * u_end],
                    offs_bytes[4 * u : 4 * u_end + 4],
                    starts_bytes[4 * o : 4 * o_end],
                )
                if u_end > u
                else (b"", b"", b"")
            )
            out.append(SentencePhrases(occ, wants_bytes[16 * w : 16 * w_end], packed))
            o, w, u = o_end, w_end, u_end
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
            ``(hyp_start, hyp_len, ref_start, ref_len)`` tuples in the order of the
            ``s.matches.get(j).add(m)`` calls, duplicates included (module docstring).

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


# --------------------------------------------------------------------------- command line


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m meteor.languages.paraphrase [build|info|lookup]``: manage the index.

    ``build`` builds here, in this process (:meth:`ParaphraseTable.load` builds in a
    child), and writes progress lines ``progress <fraction> <message>`` to stdout.
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
        dest = args.dest or index_path(args.lang)
        where = ["--source", str(args.source), "--dest", str(dest), "--lang", args.lang]
        return paraphrase_build.main(["build", *where])
    table = ParaphraseTable.load(
        args.lang, progress=lambda f, m: print(f"{f:6.1%} {m}", file=sys.stderr)
    )
    if args.cmd == "info":
        print(table)
        header = {k: v for k, v in table.header.items() if k != "arrays"}
        print(json.dumps(header, indent=2, allow_nan=False))
    else:
        for p in table.lookup([w.lower() for w in args.phrase]):
            print(" ".join(p))
    return 0


# --------------------------------------------------------------------------- process-wide cache

_TABLES: dict[str, ParaphraseTable] = {}
_LOCK = threading.Lock()


def get_table(lang: str = "en", progress: Progress | None = None) -> ParaphraseTable:
    """The process-wide table for ``lang``, loaded (and built if needed) once.

    ``progress`` serves the call that loads it; concurrent first calls wait for that load.

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
