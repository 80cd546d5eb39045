"""Index builder of Meteor 1.5's paraphrase table (the reader is :mod:`meteor.languages.paraphrase`).

Also run as a script in a child process
(:func:`meteor.languages.paraphrase_index.build_in_child`), so it imports numpy and the
standard library only, never :mod:`meteor`: the child starts quickly and the ~0.7 GB
of strings a build holds go back to the system when it exits.

Reading the table
-----------------
``ParaphraseTransducer``'s reader (``ParaphraseTransducer.java:95-128``): the
gzip file is read as 3-line records ``probability / phrase A / phrase B`` by line
count alone, the probability ignored; lines end at ``\\n``, ``\\r`` or ``\\r\\n``
(``BufferedReader.readLine``, :func:`_java_lines`); phrases are split on
``" \\t\\n\\r\\f"`` only (``StringTokenizer``, :func:`_canonical`).  A record with
an empty A phrase is skipped (Java never emits it), one with an empty B phrase is
skipped and counted in the header, and a line count that is not a multiple of 3
is refused (Java would crash).

The index file
--------------
The 272 MB English table text becomes one 106 MB file, built once and
memory-mapped afterwards::

    magic b"MTPPIDX\\0" | u32 header length | header JSON | zero pad to 64
    | arrays (each 64-byte aligned) | sha256 of everything before it (32 bytes)

The header names the format version, the source table (size, mtime, SHA-256) and each
array's dtype, shape and offset.  Arrays (``P`` distinct phrases over both
sides, ``PA`` of them occurring as an A phrase and numbered first, ``R``
records, ``W`` the longest phrase):

* ``vocab``: UTF-8 words joined by ``\\n`` (word id = line number).
* ``tokens`` ``(P, W)`` uint16/uint32: word id + 1 of each phrase, 0-padded.
* ``lengths`` ``(P,)`` uint8: words per phrase.
* ``rec_off`` ``(PA + 1,)`` uint32 and ``rec_b`` ``(R,)`` uint32: the records of
  A phrase ``a`` are ``rec_b[rec_off[a]:rec_off[a + 1]]`` (their B phrases), in
  file order, which is the trie's ``emit`` order (``State.addPath``, :45-59).
* ``hash_keys`` ``(P,)`` uint64, sorted, and ``hash_ids`` ``(P,)`` uint32: a
  64-bit rolling hash of each phrase's word ids (:func:`hash_columns`) and the
  phrase it belongs to.  The build re-seeds the hash until the table's phrases
  have distinct keys, and a lookup compares the stored words too, so a lookup
  is exact.
* ``bucket_off`` ``(2**bits + 1,)`` uint32: where the keys with each value of
  their top ``bits`` bits start (``2**bits >= P``), so a lookup reads one short
  run of ``hash_keys`` instead of binary-searching 21 MB.

The file is written to a temporary name (with the builder's pid) beside its
destination, then moved into place with :func:`os.replace`.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gzip
import hashlib
import json
import os
import shutil
import struct
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

__all__ = [
    "ARRAYS",
    "DIGEST",
    "FORMAT_VERSION",
    "MAGIC",
    "READ_CHUNK",
    "Progress",
    "build_index",
    "hash_columns",
    "main",
]

#: Bump when the layout or the hashing changes; older files are rebuilt.
FORMAT_VERSION = 1
MAGIC = b"MTPPIDX\0"
DIGEST = 32  # sha256 trailer
#: The arrays of an index file, in file order.
ARRAYS = ("vocab", "tokens", "lengths", "rec_off", "rec_b", "hash_keys", "hash_ids", "bucket_off")
#: Bytes per read when scanning a gzip table or checksumming an index.
READ_CHUNK = 1 << 21
_ALIGN = 64
_MASK64 = (1 << 64) - 1
#: Multiplier of the rolling phrase hash (odd, from the golden ratio).
HASH_MULT = 0x9E3779B97F4A7C15
_FIRST_SEED = 0x6D657465_6F723135  # "meteor15"
#: ``java.util.StringTokenizer``'s default delimiters, minus the two line ends.
_JAVA_SPACE = str.maketrans({"\t": " ", "\f": " "})
#: Phrases handled per numpy batch while tokenising.
_BATCH = 200_000
#: First line word of the child's progress reports on stdout.
PROGRESS_TAG = "progress"
#: The child's last line when the index's device is full / its memory ran out.
NO_SPACE_TAG = "no-space"
NO_MEMORY_TAG = "no-memory"
_NO_SPACE_ERRNOS = (errno.ENOSPC, errno.EDQUOT)

Progress = Callable[[float, str], None]
_U64 = npt.NDArray[np.uint64]
_I32 = npt.NDArray[np.int32]


# --------------------------------------------------------------------------- hashing


def hash_columns(ids: npt.NDArray[np.int64], seed: int) -> tuple[_U64, npt.NDArray[np.bool_]]:
    """Rolling hashes of every window of ``ids``: ``(n, W)`` keys and validity.

    ``ids`` is ``(n, W)`` word ids (``-1`` = unknown or beyond the end): row ``r``
    column ``c`` hashes the words ``r .. r + c`` and is valid when all are known
    (:func:`_hash_phrases` gives the table's phrases the same keys).
    """
    n, width = ids.shape
    keys = np.empty((n, width), dtype=np.uint64)
    valid = np.empty((n, width), dtype=np.bool_)
    h = np.full(n, seed, dtype=np.uint64)
    ok = np.ones(n, dtype=np.bool_)
    mult = np.uint64(HASH_MULT)
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
    """The key :func:`hash_columns` gives each whole phrase (``tokens`` = word id + 1)."""
    n, width = tokens.shape
    h = np.full(n, seed, dtype=np.uint64)
    mult = np.uint64(HASH_MULT)
    shift = np.uint64(31)
    for c in range(width):
        live = lengths > c
        step = (h ^ tokens[:, c].astype(np.uint64)) * mult
        step ^= step >> shift
        h = np.where(live, step, h)
    return h


# --------------------------------------------------------------------------- building


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (0.14 s for the English table); this file's own, not
    :func:`meteor.resources.file_sha256`: it runs alone in the builder child (numpy only)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def build_index(
    source: Path,
    dest: Path,
    *,
    progress: Progress | None = None,
    lang: str = "",
) -> dict[str, Any]:
    """Build the index of the gzip table ``source`` into ``dest`` (module docstring).

    Four steps: read the records (:func:`_read_records`), spell every phrase in
    word ids (:func:`_tokenise`), group the records by A phrase
    (:func:`_group_records`), hash the phrases (:func:`_hash_index`).

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
    phrases, rec_a, rec_b, skipped_empty_b = _read_records(source, st.st_size, progress)
    words, tokens, lengths = _tokenise(phrases, source, progress)
    del phrases  # the biggest object of the build: free it before the next steps
    if progress is not None:
        progress(0.8, "indexing phrases")
    tokens, lengths, rec_off, rec_b, n_a = _group_records(tokens, lengths, rec_a, rec_b)
    del rec_a
    seed, hash_order, hash_keys, bits, bucket_counts = _hash_index(tokens, lengths, source)
    n_p, width = tokens.shape
    arrays: dict[str, np.ndarray[Any, Any]] = {
        "vocab": np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8),
        "tokens": tokens,
        "lengths": lengths,
        "rec_off": rec_off.astype(np.uint32 if rec_b.size < 2**32 else np.uint64),
        "rec_b": rec_b.astype(np.uint32),
        "hash_keys": hash_keys,
        "hash_ids": hash_order.astype(np.uint32),
        "bucket_off": np.concatenate([[0], np.cumsum(bucket_counts)]).astype(np.uint32),
    }
    header: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "lang": lang,
        "source": {
            "name": source.name,
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
            "sha256": file_sha256(source),
        },
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


def _read_records(
    source: Path, size: int, progress: Progress | None
) -> tuple[list[str], _I32, _I32, int]:
    """Step 1: the table's records as phrase ids (``ParaphraseTransducer.java:108-127``).

    Returns:
        Every distinct phrase (canonical spelling) in order of first appearance, the A
        and B phrase ids of each kept record in file order, the records skipped for an
        empty B.

    Raises:
        ValueError: lines are left after the last complete 3-line record.
    """
    phrase_ids: dict[str, int] = {}
    a_ids = array("i")
    b_ids = array("i")
    skipped_empty_b = 0
    pending: list[str] = []
    pending_clean = True
    setdef = phrase_ids.setdefault
    with open(source, "rb") as raw:
        for lines, clean in _java_lines(raw, size, progress):
            if pending:
                lines = pending + lines
                clean = clean and pending_clean
            whole = len(lines) - len(lines) % 3
            pending, pending_clean = lines[whole:], clean
            a_side, b_side = lines[1:whole:3], lines[2:whole:3]
            if not clean:
                a_side, b_side, skipped = _canonical_records(a_side, b_side)
                skipped_empty_b += skipped
            a_ids.extend([setdef(s, len(phrase_ids)) for s in a_side])
            b_ids.extend([setdef(s, len(phrase_ids)) for s in b_side])
    if pending:
        raise ValueError(
            f"{source} has {len(pending)} line(s) after its last complete 3-line record; "
            "the table is truncated or malformed"
        )
    phrases = list(phrase_ids)
    del phrase_ids
    rec_a = np.frombuffer(a_ids, dtype=np.int32).copy()
    del a_ids
    rec_b = np.frombuffer(b_ids, dtype=np.int32).copy()
    return phrases, rec_a, rec_b, skipped_empty_b


def _canonical_records(a_side: list[str], b_side: list[str]) -> tuple[list[str], list[str], int]:
    """Records of a batch that is not plain single-spaced text, tokenised as Java does.

    Records with an empty A (Java's trie root emit, never read by ``getPaths``) or an
    empty B (zero-length matches in Java) are dropped; the third value counts the
    latter (with a non-empty A).
    """
    a_side = [_canonical(x) for x in a_side]
    b_side = [_canonical(x) for x in b_side]
    skipped = sum(1 for x, y in zip(a_side, b_side, strict=True) if x and not y)
    keep = [k for k, (x, y) in enumerate(zip(a_side, b_side, strict=True)) if x and y]
    return [a_side[k] for k in keep], [b_side[k] for k in keep], skipped


def _tokenise(
    phrases: list[str], source: Path, progress: Progress | None
) -> tuple[list[str], npt.NDArray[np.unsignedinteger[Any]], npt.NDArray[np.uint8]]:
    """Step 2: the sorted vocabulary, and each phrase as word id + 1 (0-padded) with its length.

    Raises:
        ValueError: a phrase has more than 255 words (lengths are stored as uint8).
    """
    if progress is not None:
        progress(0.6, "indexing words")
    n_p = len(phrases)
    vocab_set: set[str] = set()
    for k in range(0, n_p, _BATCH):
        vocab_set.update(" ".join(phrases[k : k + _BATCH]).split(" "))
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
    for k in range(0, n_p, _BATCH):
        part = phrases[k : k + _BATCH]
        flat = np.fromiter(map(vocab.__getitem__, " ".join(part).split(" ")), dtype=np.int64)
        lens = lengths[k : k + len(part)].astype(np.int64)
        row = np.repeat(np.arange(k, k + len(part)), lens)
        col = np.arange(flat.size) - np.repeat(np.cumsum(lens) - lens, lens)
        tokens[row, col] = flat + 1
        if progress is not None:
            progress(0.6 + 0.2 * min((k + _BATCH) / max(n_p, 1), 1.0), "indexing words")
    return words, tokens, lengths


def _group_records(
    tokens: npt.NDArray[np.unsignedinteger[Any]],
    lengths: npt.NDArray[np.uint8],
    rec_a: _I32,
    rec_b: _I32,
) -> tuple[
    npt.NDArray[np.unsignedinteger[Any]], npt.NDArray[np.uint8], npt.NDArray[np.int64], _I32, int
]:
    """Step 3: renumber the phrases, A phrases first, and group the records by A phrase.

    A phrases are numbered in order of first appearance (a table sorted by A, like the
    English one, needs no reordering), then the B-only phrases.  An A phrase's records
    keep their file order, ``State.addPath``'s emit order.

    Returns:
        ``tokens`` and ``lengths`` in the new order, ``rec_off``, ``rec_b`` (see
        the module docstring) and the number of A phrases.
    """
    n_p = tokens.shape[0]
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
        perm = np.argsort(rec_a, kind="stable")  # stable: file order within a phrase
        rec_a = rec_a[perm]
        rec_b = rec_b[perm]
        del perm
    counts = np.bincount(rec_a, minlength=n_a)
    rec_off = np.concatenate([[0], np.cumsum(counts)])
    return tokens, lengths, rec_off, rec_b, n_a


def _hash_index(
    tokens: npt.NDArray[np.unsignedinteger[Any]], lengths: npt.NDArray[np.uint8], source: Path
) -> tuple[int, npt.NDArray[np.intp], _U64, int, npt.NDArray[np.int64]]:
    """Step 4: a seed that gives every phrase a distinct key, the sorted keys and their buckets.

    Returns:
        ``(seed, hash_order, hash_keys, bits, bucket_counts)``: the sorted keys, the
        phrase of each, and the number of keys under each value of their top ``bits``
        bits (``2**bits >= P``).
    """
    n_p = tokens.shape[0]
    seed = _FIRST_SEED
    for _attempt in range(64):
        full = _hash_phrases(tokens, lengths.astype(np.int64), seed)
        hash_order = np.argsort(full, kind="stable")
        hash_keys = full[hash_order]
        if n_p < 2 or not (hash_keys[1:] == hash_keys[:-1]).any():
            break
        seed = (seed * HASH_MULT + 1) & _MASK64
    else:  # pragma: no cover - two phrases with the same words cannot be built
        raise RuntimeError(f"{source}: no hash seed separates the phrases")
    bits = max(1, (n_p - 1).bit_length())
    bucket = (hash_keys >> np.uint64(64 - bits)).astype(np.int64)
    bucket_counts = np.bincount(bucket, minlength=1 << bits)
    return seed, hash_order, hash_keys, bits, bucket_counts


def _java_lines(
    raw: BinaryIO, total: int, progress: Progress | None
) -> Iterator[tuple[list[str], bool]]:
    """Batches of decoded lines split like ``BufferedReader.readLine``.

    Lines end at ``\\n``, ``\\r`` or ``\\r\\n``; a last line without an end still
    counts; invalid UTF-8 becomes U+FFFD (``InputStreamReader``'s default).  Each batch
    comes with :func:`_clean`'s flag (``StringTokenizer`` splits it as ``str.split(" ")``).
    """
    with gzip.GzipFile(fileobj=raw) as gz:
        rest = b""  # an unfinished line, possibly followed by a held-back "\r"
        while True:
            chunk = gz.read(READ_CHUNK)
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
    if not body or body[:1] in b" \n" or body[-1:] in b" \n":
        return False
    return not any(bad in body for bad in (b"\n\n", b"  ", b" \n", b"\n ", b"\t", b"\f"))


def _canonical(phrase: str) -> str:
    """The phrase's tokens joined by one space (``StringTokenizer`` splitting)."""
    return " ".join(t for t in phrase.translate(_JAVA_SPACE).split(" ") if t)


# --------------------------------------------------------------------------- writing


def _write_index(
    dest: Path, header: dict[str, Any], arrays: dict[str, np.ndarray[Any, Any]]
) -> None:
    """Write header + arrays + sha256 to a temporary file, then ``os.replace`` it."""

    def layout(hlen: int) -> tuple[int, dict[str, Any]]:
        off = _pad(len(MAGIC) + 4 + hlen)
        specs: dict[str, Any] = {}
        for name, arr in arrays.items():
            specs[name] = {"dtype": arr.dtype.str, "shape": list(arr.shape), "offset": off}
            off = _pad(off + arr.nbytes)
        return off, specs

    # Reserve room for the header: the offsets it lists depend on its length.
    _, header["arrays"] = layout(0)
    hlen = _pad(len(json.dumps(header, sort_keys=True, allow_nan=False)) + 256)
    _, header["arrays"] = layout(hlen)
    blob = json.dumps(header, sort_keys=True, allow_nan=False).encode("utf-8")
    if len(blob) > hlen:  # pragma: no cover - 256 spare bytes cover any offset growth
        raise RuntimeError("paraphrase index header outgrew its reserved space")
    blob = blob.ljust(hlen)

    dest.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temps(dest)
    # The builder's pid in the name: a file left by a SIGKILL is known to be dead.
    fd, tmp = tempfile.mkstemp(prefix=f"{dest.name}.{os.getpid()}.", suffix=".tmp", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            digest = hashlib.sha256()

            def put(data: bytes | memoryview) -> None:
                f.write(data)
                digest.update(data)

            put(MAGIC + struct.pack("<I", len(blob)) + blob)
            pos = len(MAGIC) + 4 + len(blob)
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


def _pad(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def main(argv: Sequence[str] | None = None) -> int:
    """``build --source S --dest D [--lang L]``: the child process of :func:`meteor.languages.paraphrase_index.build_in_child`.

    Writes progress lines ``progress <fraction> <message>`` to stdout.  The
    command for people is ``python -m meteor.languages.paraphrase build``.
    """
    parser = argparse.ArgumentParser(prog="paraphrase_build.py", description=main.__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the index of a gzip table")
    b.add_argument("--lang", default="")
    b.add_argument("--source", type=Path, required=True, help="the gzip table")
    b.add_argument("--dest", type=Path, required=True, help="the index file to write")
    args = parser.parse_args(argv)

    def report(frac: float, msg: str) -> None:
        print(f"{PROGRESS_TAG} {frac:.4f} {msg}", flush=True)

    try:
        build_index(args.source, args.dest, progress=report, lang=args.lang)
    except MemoryError:
        print(NO_MEMORY_TAG, flush=True)
        return 3
    except OSError as exc:
        if exc.errno not in _NO_SPACE_ERRNOS:
            raise
        print(NO_SPACE_TAG, flush=True)
        return 3
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
