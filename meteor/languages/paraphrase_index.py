"""The paraphrase index file in the cache folder: where it lives, its check, its build.

:func:`index_path` names the file (``paraphrase-<lang>.v<N>.idx`` in
:func:`meteor.resources.cache_dir`); :func:`read_index` verifies it end to end and maps
it (a missing, truncated, corrupted, stale or older-format file is rebuilt);
:func:`same_table` says whether a table of another time has the bytes the index was
built from; :func:`open_or_build` opens or builds it (in a child process running
:mod:`meteor.languages.paraphrase_build`, which describes the layout).  The reader is
:class:`meteor.languages.paraphrase.ParaphraseTable`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import mmap
import os
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from meteor import resources
from meteor.languages import paraphrase_build
from meteor.languages.paraphrase_build import (
    DIGEST,
    FORMAT_VERSION,
    MAGIC,
    NO_MEMORY_TAG,
    NO_SPACE_TAG,
    PROGRESS_TAG,
    READ_CHUNK,
    Progress,
)

__all__ = [
    "INDEX_PER_GZ_BYTE",
    "InvalidIndexError",
    "StaleIndexError",
    "build_in_child",
    "check_source",
    "index_path",
    "open_or_build",
    "read_index",
    "same_table",
]

T = TypeVar("T")


class InvalidIndexError(ValueError):
    """A cached index file is unusable (truncated, corrupted, stale or another version)."""


class StaleIndexError(InvalidIndexError):
    """A cached index file was built from a table of another size or modification time."""


def index_path(lang: str = "en", cache: Path | None = None) -> Path:
    """Where the index for ``lang`` lives (maybe not yet); ``cache``: a directory for it
    or the index file itself (default :func:`meteor.resources.cache_dir`)."""
    name = f"paraphrase-{lang}.v{FORMAT_VERSION}.idx"
    if cache is None:
        return resources.cache_dir() / name
    cache = Path(cache)
    if cache.is_dir() or not cache.suffix:
        return cache / name
    return cache


#: Index bytes per byte of the gzip table (English: 110.6 MB from 61.8 MB).
INDEX_PER_GZ_BYTE = 1.8


def same_table(index: Path, source: Path) -> Callable[[dict[str, Any]], bool]:
    """For :meth:`ParaphraseTable.open`: whether ``source`` has the bytes the index was
    built from (the SHA-256 in its header), though its time differs.

    Each Python environment has its own copy of pycocoevalcap's table with its own
    modification time; by time alone, environments sharing the cache folder would
    rebuild the index in turn.  Each ``(size, time)`` found to hold the same bytes is
    remembered beside the index (``<index>.sources.json``): the 0.14 s digest is paid once.
    """

    def same(src: dict[str, Any]) -> bool:
        st = source.stat()
        digest = src.get("sha256")
        if not isinstance(digest, str) or src.get("size") != st.st_size:
            return False
        seen_path = index.with_name(index.name + ".sources.json")
        this = [digest, st.st_size, st.st_mtime_ns]
        try:
            seen = json.loads(seen_path.read_text(encoding="utf-8"))
            if not isinstance(seen, list):
                seen = []
        except (OSError, ValueError):
            seen = []
        if this in seen:
            return True
        if paraphrase_build.file_sha256(source) != digest:
            return False
        resources.write_cache_file(
            seen_path, json.dumps([this, *seen][:16], allow_nan=False).encode("utf-8")
        )
        return True

    return same


def check_source(
    path: Path,
    header: dict[str, Any],
    expect_source: dict[str, int] | None,
    same_table: Callable[[dict[str, Any]], bool] | None,
) -> None:
    """Raise :class:`StaleIndexError` when the index was built from a table of another size
    or time (``expect_source``) that ``same_table`` does not vouch for."""
    if expect_source is not None:
        src = header.get("source", {})
        if (
            src.get("size") != expect_source["size"]
            or src.get("mtime_ns") != expect_source["mtime_ns"]
        ) and not (same_table is not None and same_table(src)):
            raise StaleIndexError(f"{path} was built from another version of the table")


def open_or_build(
    lang: str,
    cache: Path | None,
    progress: Progress | None,
    open_index: Callable[[Path, dict[str, int], Callable[[dict[str, Any]], bool]], T],
) -> T:
    """The index of ``lang`` opened with ``open_index(path, expect_source, same_table)``,
    built first if absent or invalid (:meth:`ParaphraseTable.load
    <meteor.languages.paraphrase.ParaphraseTable.load>` documents the arguments and errors).

    The build holds a lock file beside the index (``<index>.lock``), so a second process
    waits for it and opens its index.  When the cache folder's device is full, the index
    is built in a temporary folder (:func:`meteor.resources.cache_full`).
    """
    source = resources.paraphrase_table_path(lang)
    path = index_path(lang, cache)
    st = source.stat()
    want = {"size": st.st_size, "mtime_ns": st.st_mtime_ns}
    while True:
        same = same_table(path, source)

        def opened(at: Path = path, same: Any = same) -> T | None:
            try:
                return open_index(at, want, same)
            except (OSError, InvalidIndexError):
                return None

        table = opened()
        if table is not None:
            return table
        try:
            with resources.file_lock(path.with_name(path.name + ".lock")):
                table = opened()  # built by another process while this one waited
                if table is None:
                    build_in_child(source, path, lang, progress)
            return table or open_index(path, want, same)
        except OSError as exc:
            if not resources.is_no_space(exc):
                raise
            needed = int(st.st_size * INDEX_PER_GZ_BYTE)
            folder = resources.cache_full(path.parent, "the paraphrase index", needed)
            path = folder / path.name


def read_index(path: Path) -> tuple[dict[str, Any], Any]:
    """Verify an index file end to end and map it.

    The sha256 trailer is checked with plain reads before the file is mapped; any
    mismatch in magic, lengths, version, digest or array bounds is an :class:`InvalidIndexError`.
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size < len(MAGIC) + 4 + DIGEST:
            raise InvalidIndexError(f"{path} is truncated")
        head = f.read(len(MAGIC) + 4)
        if head[: len(MAGIC)] != MAGIC:
            raise InvalidIndexError(f"{path} is not a paraphrase index")
        (hlen,) = struct.unpack("<I", head[len(MAGIC) :])
        if len(head) + hlen + DIGEST > size:
            raise InvalidIndexError(f"{path} is truncated")
        f.seek(0)
        digest = hashlib.sha256()
        remaining = size - DIGEST
        while remaining:
            chunk = f.read(min(READ_CHUNK, remaining))
            if not chunk:
                raise InvalidIndexError(f"{path} is truncated")
            digest.update(chunk)
            remaining -= len(chunk)
        if f.read(DIGEST) != digest.digest():
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
            if end > size - DIGEST:
                raise InvalidIndexError(f"{path}: array {name} lies outside the file")
        try:
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as exc:
            if exc.errno == errno.ENOMEM:  # `ulimit -v`: rebuilding the index would not help
                raise MemoryError("while mapping the paraphrase index") from exc
            raise
    return header, buf


def build_in_child(source: Path, dest: Path, lang: str, progress: Progress | None) -> None:
    """Build the index in a child Python process, relaying its progress.

    The build holds every distinct phrase as a string for a moment (about 0.7 GB for
    English), memory CPython keeps after freeing it; a child returns it all.  When no
    child can be started, the build runs here.

    Raises:
        OSError: ``ENOSPC`` when ``dest``'s device is full (the child's error, raised here).
        MemoryError: the build ran out of memory.
        RuntimeError: the build failed otherwise (the message has the child's stderr).
    """
    exe = sys.executable
    if not exe:
        paraphrase_build.build_index(source, dest, progress=progress, lang=lang)
        return
    # Run this file, not the package: the child needs numpy and nothing else.
    code = "import runpy, sys; runpy.run_path(sys.argv.pop(1), run_name='__main__')"
    safe = ["-P"] if sys.version_info >= (3, 11) else []  # no cwd on sys.path
    script = str(Path(paraphrase_build.__file__).resolve())
    cmd = [exe, *safe, "-c", code, script, "build", "--lang", lang]
    cmd += ["--source", str(source), "--dest", str(dest)]
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as err:
        try:
            proc = subprocess.Popen(
                cmd, stdout=subprocess.PIPE, stderr=err, text=True, encoding="utf-8"
            )
        except OSError:
            paraphrase_build.build_index(source, dest, progress=progress, lang=lang)
            return
        out = proc.stdout
        if out is None:  # pragma: no cover - stdout=PIPE always sets it
            raise RuntimeError("no pipe to the index builder")
        ended = ""
        try:
            with out:
                for line in out:
                    kind, _, rest = line.rstrip("\n").partition(" ")
                    if kind in (NO_SPACE_TAG, NO_MEMORY_TAG):
                        ended = kind
                    elif kind == PROGRESS_TAG and progress is not None:
                        frac, _, msg = rest.partition(" ")
                        with contextlib.suppress(ValueError):
                            progress(float(frac), msg)
        except BaseException:  # e.g. the progress callback stopped a Streamlit run
            proc.kill()
            proc.wait()
            _remove_temps_of(dest, proc.pid)  # SIGKILL left its ~100 MB file behind
            raise
        if proc.wait() != 0:
            if ended == NO_SPACE_TAG:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(dest.parent))
            if ended == NO_MEMORY_TAG:
                raise MemoryError("while building the paraphrase index")
            err.seek(0)
            tail = err.read()[-4000:]
            raise RuntimeError(f"building the paraphrase index from {source} failed:\n{tail}")


def _remove_temps_of(dest: Path, pid: int) -> None:
    """Delete the temporary files of the build process ``pid`` (killed by us)."""
    for old in dest.parent.glob(f"{dest.name}.{pid}.*.tmp"):
        with contextlib.suppress(OSError):
            old.unlink()
