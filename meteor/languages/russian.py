"""Russian: Meteor 1.5's ``-l ru`` resources, plus lemmas and synonyms beyond it.

What reproduces Meteor 1.5 (``meteor-1.5.md`` sections 5, 6 and 15):

* **Function words**: ``token.lower()`` in a list of the Meteor jar inside
  ``pycocoevalcap`` (:data:`FunctionWordList`; :func:`meteor.resources.jar_lines`).
* **Stems**: the jar's old (≈2010) Snowball ``russianStemmer``: PyStemmer's ``russian``
  (2.2.0.3, pinned) with ``ё``/``Ё`` swapped for private-use placeholders around it
  (the current algorithm folds ``ё``→``е``, the jar's does not; ``dependencies.md``
  section 5: 0 disagreements on 18,225 same-stem pairs).  Case-sensitive, like the jar.

What goes beyond Meteor 1.5 (keep it out of a "Meteor 1.5" preset):

* **Lemmas**: the *set* of pymorphy3 normal forms over all parses, because the first
  parse can be wrong (``спали`` → ``спасть``; ``dependencies.md`` section 3).
* **Synonyms**: a :class:`Thesaurus` (:mod:`meteor.languages.russian_thesaurus`;
  ``wiki-ru-wordnet`` by default) looked up by the word's pymorphy3 lemmas, ``ё``→``е``
  folded on both sides.
* **Word embeddings**: the navec news model of the natasha wheel
  (:mod:`meteor.languages.navec`); ``embedding`` is in :attr:`Russian.modules` only
  when both are installed.
* No paraphrases: ``paraphrase-ru.gz`` is not distributed.

Importing this module is cheap: resources load on first use, once per process, behind
locks (:func:`preload` loads them all).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast, get_args

from meteor.errors import ResourceError
from meteor.languages import navec as _embeddings  # navec loader (imports nothing heavy)
from meteor.languages.base import DEFAULT_TOKENIZERS, Language, ParaphraseSource
from meteor.languages.russian_thesaurus import (
    RuWordNetDb,
    SqliteThesaurus,
    Thesaurus,
    WikiRuWordnet,
    thesaurus_key,
)
from meteor.languages.snowball import METEOR_FUNCTION_WORDS_MEMBER, jar_function_words
from meteor.module_registry import Module
from meteor.rules import fold_yo as fold_yo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    import pymorphy3

__all__ = [
    "RUSSIAN",
    "FunctionWordList",
    "RuWordNetDb",
    "Russian",
    "SqliteThesaurus",
    "Thesaurus",
    "WikiRuWordnet",
    "fold_yo",
    "preload",
]

#: Which function-word list :meth:`Russian.is_function_word` uses: ``meteor`` is the list
#: the jar really weighs ``-l ru`` with (``function/english.words``: the jar sets the list
#: once from its default language and never updates it, ``meteor-1.5.md`` s. 5);
#: ``meteor-lang`` is the jar's Russian file (what ``-s function/russian.words`` gives);
#: ``project`` is the project's grammatical list.
FunctionWordList = Literal["meteor", "meteor-lang", "project"]

#: Private-use stand-ins for ``ё``/``Ё`` while stemming (``dependencies.md`` section 5).
YO_PLACEHOLDER = "\ue000"
YO_UPPER_PLACEHOLDER = "\ue001"

#: The jar member holding Meteor 1.5's Russian function words (62 entries), read only with ``-s``.
METEOR_RUSSIAN_FUNCTION_WORDS_MEMBER = "function/russian.words"
#: The project's own list (see the header of that file).
PROJECT_FUNCTION_WORDS_PATH = (
    Path(__file__).resolve().parent / "data" / "russian_function_words.txt"
)

STEM_CACHE_SIZE = 1 << 18
LEMMA_CACHE_SIZE = 1 << 17
SYNSET_CACHE_SIZE = 1 << 17

PYMORPHY_HINT = "pip install pymorphy3==2.0.6 pymorphy3-dicts-ru==2.4.417150.4580142 DAWG2==0.13.3"
PYSTEMMER_HINT = "pip install PyStemmer==2.2.0.3"

_STEM_IN = str.maketrans({"ё": YO_PLACEHOLDER, "Ё": YO_UPPER_PLACEHOLDER})
_STEM_OUT = str.maketrans({YO_PLACEHOLDER: "ё", YO_UPPER_PLACEHOLDER: "Ё"})


# --------------------------------------------------------------------- shared state


class _Morphology:
    """Process-wide stemmer, analyser and word lists, each loaded on first use."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stem_lock = threading.Lock()
        self._morph_lock = threading.Lock()
        self._stemmer: Any = None
        self._morph: pymorphy3.MorphAnalyzer | None = None
        self._word_lists: dict[str, frozenset[str]] = {}
        self.stem = functools.lru_cache(maxsize=STEM_CACHE_SIZE)(self._stem)
        self.normal_forms = functools.lru_cache(maxsize=LEMMA_CACHE_SIZE)(self._normal_forms)

    # -- stemmer ----------------------------------------------------------------
    def stemmer(self) -> Any:
        """The PyStemmer ``russian`` instance (its own cache off; we cache above it)."""
        if self._stemmer is None:
            with self._lock:
                if self._stemmer is None:
                    try:
                        import Stemmer
                    except ImportError as exc:
                        raise ResourceError(
                            f"the Russian stemmer comes from PyStemmer: {PYSTEMMER_HINT}"
                        ) from exc
                    self._stemmer = Stemmer.Stemmer("russian", 0)
        return self._stemmer

    def _stem(self, word: str) -> str:
        stemmer = self.stemmer()
        with self._stem_lock:  # PyStemmer instances must not be called concurrently
            stem: str = stemmer.stemWord(word.translate(_STEM_IN))
        return stem.translate(_STEM_OUT)

    # -- pymorphy3 --------------------------------------------------------------
    def morph(self) -> pymorphy3.MorphAnalyzer:
        """The one ``pymorphy3.MorphAnalyzer`` of the process."""
        if self._morph is None:
            with self._lock:
                if self._morph is None:
                    try:
                        import pymorphy3
                    except ImportError as exc:
                        raise ResourceError(
                            f"Russian lemmas come from pymorphy3: {PYMORPHY_HINT}"
                        ) from exc
                    try:
                        self._morph = pymorphy3.MorphAnalyzer(lang="ru")
                    except Exception as exc:  # missing dictionaries, broken install
                        raise ResourceError(
                            f"pymorphy3 could not load its Russian dictionaries ({exc}): "
                            f"{PYMORPHY_HINT}"
                        ) from exc
        return self._morph

    def _normal_forms(self, word: str) -> frozenset[str]:
        if not word or word.isspace():
            return frozenset()
        morph = self.morph()
        with self._morph_lock:
            try:
                forms = morph.normal_forms(word)
            except ValueError:
                # pymorphy3's shape check calls unicodedata.name() on every letter and
                # fails on letters with no name in Python's tables (Tangut U+17000 …):
                # such a word is its own normal form, as pymorphy3 treats unknown words.
                forms = [word.lower()]
        return frozenset(f for f in forms if f)

    # -- word lists -------------------------------------------------------------
    def word_list(self, kind: FunctionWordList) -> frozenset[str]:
        """The Meteor 1.5 jar list or the project list, lowercased."""
        words = self._word_lists.get(kind)
        if words is None:
            with self._lock:
                words = self._word_lists.get(kind)
                if words is None:
                    words = _read_word_list(kind)
                    self._word_lists[kind] = words
        return words


def _read_word_list(kind: FunctionWordList) -> frozenset[str]:
    if kind == "project":
        text = PROJECT_FUNCTION_WORDS_PATH.read_text(encoding="utf-8")
        return frozenset(
            line.strip().lower()
            for line in text.splitlines()
            if line.strip() and not line.startswith("# ")
        )
    try:
        return jar_function_words(
            METEOR_FUNCTION_WORDS_MEMBER
            if kind == "meteor"
            else METEOR_RUSSIAN_FUNCTION_WORDS_MEMBER
        )
    except ResourceError as exc:
        raise ResourceError(
            f"{exc}; or choose the project list with with_function_words('project')"
        ) from exc


_MORPHOLOGY = _Morphology()


class _SynonymLookup:
    """Word → synsets through lemmas, cached per thesaurus (shared by variants)."""

    def __init__(self, thesaurus: Thesaurus) -> None:
        self.thesaurus = thesaurus
        self.synsets = functools.lru_cache(maxsize=SYNSET_CACHE_SIZE)(self._synsets)

    def keys(self, word: str) -> frozenset[str]:
        return frozenset(thesaurus_key(lemma) for lemma in _MORPHOLOGY.normal_forms(word))

    def _synsets(self, word: str) -> frozenset[int]:
        found: set[int] = set()
        for key in self.keys(word):
            found |= self.thesaurus.synsets(key)
        return frozenset(found)


# ----------------------------------------------------------------------- language


class Russian(Language):
    """Russian resources behind the :class:`~meteor.languages.Language` interface.

    Capabilities: exact, stem, lemma, synonym (and embedding: module docstring); three
    function-word lists; Meteor 1.5's ``-norm`` and the ``razdel`` tokenizer.

    Args:
        function_words: the list of :data:`FunctionWordList` (``"meteor"``, the default,
            for Meteor 1.5 parity).
        thesaurus: the synonym source; :class:`WikiRuWordnet` by default.
        fold_yo_lemmas: return lemmas with ``ё`` folded to ``е`` (pymorphy3 writes
            ``ёж`` for both ``еж`` and ``ёж``; folding helps only when lemmas are
            compared with ``ё``-less text).

    Variants (:meth:`with_function_words`, :meth:`with_thesaurus`) share every loaded
    resource (the thesaurus and its caches where unchanged).  A method whose resource
    (the jar's lists, PyStemmer, pymorphy3, the thesaurus, navec) is not installed raises
    :class:`~meteor.languages.ResourceError` saying what to install.
    """

    code: str = "ru"
    name: str = "Russian"
    #: The stages every installation has; ``embedding`` is added per instance
    #: when navec and the natasha model are installed (:attr:`modules`).
    BASE_MODULES: frozenset[Module] = frozenset(
        {Module.EXACT, Module.STEM, Module.LEMMA, Module.SYNONYM}
    )
    stemmers: tuple[str, ...] = ("snowball",)
    function_word_lists: tuple[str, ...] = get_args(FunctionWordList)
    tokenizers: tuple[str, ...] = (*DEFAULT_TOKENIZERS, "razdel")
    normaliser: str | None = "russian"

    def __init__(
        self,
        function_words: FunctionWordList = "meteor",
        thesaurus: Thesaurus | None = None,
        *,
        fold_yo_lemmas: bool = False,
        _synonyms: _SynonymLookup | None = None,
    ) -> None:
        if function_words not in get_args(FunctionWordList):
            raise ValueError(
                "function_words must be one of "
                f"{', '.join(get_args(FunctionWordList))}, not {function_words!r}"
            )
        self.function_word_list: FunctionWordList = function_words
        self.fold_yo_lemmas = fold_yo_lemmas
        self.modules: frozenset[Module] = (
            self.BASE_MODULES | {Module.EMBEDDING}
            if _embeddings.navec_available()
            else self.BASE_MODULES
        )
        if _synonyms is None:
            _synonyms = _SynonymLookup(thesaurus if thesaurus is not None else _DEFAULT_THESAURUS)
        self._synonyms = _synonyms

    # -- variants ---------------------------------------------------------------
    def with_function_words(self, kind: str) -> Russian:
        """A variant using the other function-word list, sharing every loaded resource
        (the language itself for its own list).

        Raises:
            ValueError: ``kind`` is not one of :data:`FunctionWordList`.
        """
        if kind == self.function_word_list:
            return self
        return Russian(
            cast(FunctionWordList, kind),
            fold_yo_lemmas=self.fold_yo_lemmas,
            _synonyms=self._synonyms,
        )

    def with_thesaurus(self, thesaurus: Thesaurus) -> Russian:
        """A variant with another synonym source (stemmer, analyser, lists shared)."""
        return Russian(self.function_word_list, thesaurus, fold_yo_lemmas=self.fold_yo_lemmas)

    @property
    def thesaurus(self) -> Thesaurus:
        """The synonym source behind :meth:`synsets`."""
        return self._synonyms.thesaurus

    # -- function words ---------------------------------------------------------
    def is_function_word(self, word: str) -> bool:
        """``word.lower()`` in the selected list (Meteor 1.5 lowercases even without ``-norm``)."""
        return word.lower() in _MORPHOLOGY.word_list(self.function_word_list)

    def is_meteor_function_word(self, word: str) -> bool:
        """``word.lower()`` in the list the jar weighs ``-l ru`` with: ``function/english.words``.

        The jar reads ``function/russian.words`` only when ``-s`` names it
        (``meteor-1.5.md`` s. 5, 15); that list is :meth:`is_meteor_russian_function_word`.
        """
        return word.lower() in _MORPHOLOGY.word_list("meteor")

    def is_meteor_russian_function_word(self, word: str) -> bool:
        """``word.lower()`` in the jar's ``function/russian.words`` (used only with ``-s``)."""
        return word.lower() in _MORPHOLOGY.word_list("meteor-lang")

    def is_project_function_word(self, word: str) -> bool:
        """``word.lower()`` in the project's own list (``data/russian_function_words.txt``)."""
        return word.lower() in _MORPHOLOGY.word_list("project")

    def function_words(self) -> frozenset[str]:
        """The selected list itself (lowercase)."""
        return _MORPHOLOGY.word_list(self.function_word_list)

    # -- stems ------------------------------------------------------------------
    def stem(self, word: str, stemmer: str | None = None) -> str:
        """The jar's Snowball Russian stem (module docstring): case-sensitive, like the jar
        (``Лиса`` → ``Лис``, ``ЛИСА`` unchanged).

        Raises:
            ValueError: for a stemmer name other than ``"snowball"``.
        """
        if stemmer is not None and stemmer not in self.stemmers:
            raise ValueError(
                f"unknown Russian stemmer {stemmer!r}; available: {', '.join(self.stemmers)}"
            )
        if not word:
            return word
        return _MORPHOLOGY.stem(word)

    # -- lemmas -----------------------------------------------------------------
    def lemmas(self, word: str) -> frozenset[str]:
        """All pymorphy3 normal forms of ``word`` over every parse (lowercase; none for a
        blank string)."""
        forms = _MORPHOLOGY.normal_forms(word)
        if self.fold_yo_lemmas:
            return frozenset(fold_yo(f) for f in forms)
        return forms

    # -- synonyms ---------------------------------------------------------------
    def synsets(self, word: str) -> frozenset[int]:
        """Union of the thesaurus synsets of ``word``'s lemmas (``ё`` folded both sides;
        beyond Meteor 1.5, ``dependencies.md`` section 4)."""
        if not word:
            return frozenset()
        return self._synonyms.synsets(word)

    def synonyms(self, word: str) -> frozenset[str]:
        """Lemmas sharing a synset with ``word``, minus ``word``'s own lemmas (for teaching UIs)."""
        own = self._synonyms.keys(word)
        found: set[str] = set()
        for sid in self.synsets(word):
            found |= self.thesaurus.members(sid)
        return frozenset(lemma for lemma in found if thesaurus_key(lemma) not in own)

    def synonym_source(self) -> str:
        """E.g. ``"wiki-ru-wordnet 1.0.3 (Russian Wiktionary, CC BY-SA)"``."""
        return self.thesaurus.source

    # -- word embeddings --------------------------------------------------------
    def embeddings(self) -> _embeddings.NavecEmbeddings:
        """The navec news model (process-wide, loaded on first use)."""
        return _embeddings.news_embeddings()

    def embedding_eligible(self, word: str) -> bool:
        """Whether the embedding stage may match ``word``: not one of the project's
        function words (pronouns, prepositions, conjunctions, particles, punctuation).

        Their news-model vectors relate words a reader would never align: он/она 0.50,
        и/а 0.73, не/нет 0.67, в/на 0.40.
        """
        return not self.is_project_function_word(word)

    def _lookup(self, word: str) -> tuple[int, str, bool] | None:
        return self.embeddings().lookup(word, self.lemmas)

    def vector(self, word: str) -> npt.NDArray[np.float32] | None:
        """The navec vector of ``word`` (surface form, then lemma); ``None`` when OOV."""
        hit = self._lookup(word)
        return None if hit is None else self.embeddings().vector(hit[0])

    def nearest(self, word: str, candidates: Iterable[str]) -> list[tuple[str, float]]:
        """``candidates`` ranked by cosine with ``word``, highest first (ties: input order).

        Out-of-vocabulary candidates are left out; an out-of-vocabulary ``word`` gives
        ``[]``.  Cosines are those the embedding stage compares with its threshold.
        """
        hit = self._lookup(word)
        if hit is None:
            return []
        found = [(c, h[0]) for c in candidates if (h := self._lookup(c)) is not None]
        if not found:
            return []
        sims = self.embeddings().cosines([hit[0]], [vid for _, vid in found])[0]
        ranked = sorted(range(len(found)), key=lambda k: -sims[k])
        return [(found[k][0], sims[k]) for k in ranked]

    # -- paraphrases ------------------------------------------------------------
    def paraphrases(self) -> ParaphraseSource:
        """Always raises ResourceError: ``paraphrase-ru.gz`` is in no pip package (plain
        ``-l ru`` in the jar crashes for the same reason, ``meteor-1.5.md`` section 15)."""
        raise ResourceError(
            "Meteor 1.5's Russian paraphrase table (paraphrase-ru.gz) is not distributed "
            "(pycocoevalcap ships only paraphrase-en.gz), so there is no Russian "
            "paraphrase module; use exact, stem, lemma and synonym"
        )

    def __repr__(self) -> str:
        return (
            f"Russian(function_words={self.function_word_list!r}, "
            f"thesaurus={self.thesaurus!r}, fold_yo_lemmas={self.fold_yo_lemmas})"
        )


_DEFAULT_THESAURUS = WikiRuWordnet()

#: The process-wide Russian language (Meteor 1.5 function words, wiki-ru-wordnet).
RUSSIAN = Russian()


def preload(
    language: Russian = RUSSIAN, *, synonyms: bool = True, embeddings: bool = False
) -> None:
    """Load the stemmer, pymorphy3, both word lists and (optionally) the thesaurus
    and the navec model now.

    For apps that prefer to pay the loading cost at start-up rather than on the first
    sentence.  The project list always loads; the Meteor list only if the jar is there.
    """
    language.stem("проверка")
    language.lemmas("проверка")
    language.is_project_function_word("и")
    try:
        language.is_meteor_function_word("и")
    except ResourceError:
        if language.function_word_list != "project":
            raise
    if synonyms:
        language.synsets("проверка")
    if embeddings:
        language.vector("проверка")
