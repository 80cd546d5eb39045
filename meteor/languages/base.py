"""The :class:`Language` interface: what a stage may ask of a language, and how it says "not here".

Capabilities are declared as data before anything loads (the attributes of
:class:`Language`); an absent one raises :class:`~meteor.errors.ResourceError` when used
anyway, except ``synsets`` and ``lemmas``, which answer with an empty set (Meteor 1.5's
matchers then find nothing).  docs/languages.md has the table and how to add a language;
:func:`check_language` checks a declaration.  This module imports nothing heavy.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from meteor.errors import ParamError, ResourceError
from meteor.module_registry import Module
from meteor.text import TOKENIZERS

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DEFAULT_TOKENIZERS",
    "Language",
    "ParaphraseSource",
    "WordVectors",
    "check_language",
]

#: The tokenisers of :data:`meteor.text.TOKENIZERS` that suit any language (``razdel``
#: is Russian's own: :attr:`meteor.languages.russian.Russian.tokenizers`).
DEFAULT_TOKENIZERS: tuple[str, ...] = ("meteor", "whitespace", "nltk")


@runtime_checkable
class ParaphraseSource(Protocol):
    """A phrase table that proposes n:m paraphrase candidates (Meteor 1.5 ``ParaphraseMatcher``)."""

    def candidates(
        self, hyp: Sequence[str], ref: Sequence[str], *, limit: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """``(hyp_start, hyp_len, ref_start, ref_len)`` in Meteor 1.5's insertion order.

        More than ``limit`` candidates raise a ``ValueError`` with a ``found`` attribute
        (:class:`meteor.languages.paraphrase.CandidateOverflowError`) before any is built.
        """
        ...


@runtime_checkable
class WordVectors(Protocol):
    """Word vectors as the embedding stage reads them (:mod:`meteor.stages.embedding`).

    :class:`meteor.languages.navec.NavecEmbeddings` is the one implementation.
    """

    @property
    def source(self) -> str:
        """Name of the model, for records."""
        ...

    def load(self) -> Any:
        """Load the vectors now (``Meteor.prepare``; otherwise on first use)."""
        ...

    def lookup(
        self, word: str, lemmas: Callable[[str], Iterable[str]] | None = None
    ) -> tuple[int, str, bool] | None:
        """``(vocabulary id, key found, via lemma)`` for ``word``, or ``None`` when unknown."""
        ...

    def cosine_matrix(
        self, hyp_ids: Sequence[int], ref_ids: Sequence[int]
    ) -> npt.NDArray[np.float64]:
        """Cosines between two lists of vocabulary ids, as the stage compares them."""
        ...


class Language(abc.ABC):
    """What a stage may ask of a language (English, Russian, a Snowball language, a plug-in).

    Subclass it, set the attributes, implement :meth:`is_function_word` and override the
    methods of the capabilities the language has.  Building the object must be cheap:
    resources load on first use.

    Attributes:
        code: the registry code, used in ``Params.lang``, presets, signatures and the CLI
            (``en``, ``ru``, ``de``).
        name: English name.
        modules: the stages this language can run here (the capability set of stages);
            always holds ``exact``.
        stemmers: names accepted by :meth:`stem`, the first is the default; empty when
            the language has no stemmer.
        function_word_lists: the ``Params.function_words`` values it accepts.  ``meteor``
            is always one: the list Meteor 1.5 weighs the language with (for a language
            outside Meteor 1.5, its default list).
        tokenizers: the ``Params.tokenizer`` values that suit it.
        normaliser: the name of Meteor 1.5's ``-norm`` rules for it (the jar's
            ``nonbreaking/<name>.prefixes``), ``None`` when the jar has none
            (``norm='meteor'`` is then refused).
    """

    code: str
    name: str
    modules: frozenset[Module]
    stemmers: tuple[str, ...] = ()
    function_word_lists: tuple[str, ...] = ("meteor",)
    tokenizers: tuple[str, ...] = DEFAULT_TOKENIZERS
    normaliser: str | None = None

    __slots__ = ()

    # -- function words (every language) --------------------------------------------
    @abc.abstractmethod
    def is_function_word(self, word: str) -> bool:
        """Whether ``word`` is a function word (Meteor 1.5 compares it lowercased).

        Raises:
            ResourceError: when the list is not installed.
        """

    def with_function_words(self, kind: str) -> Language:
        """The language weighing with the function-word list ``kind`` (``Params.function_words``).

        The default knows one list, ``meteor``, and returns the language itself.

        Raises:
            ParamError: ``kind`` is not in :attr:`function_word_lists`.
        """
        if kind == "meteor" and kind in self.function_word_lists:
            return self
        raise ParamError(
            f"function_words={kind!r} is not available for {self.code!r} "
            f"(available: {', '.join(self.function_word_lists)})"
        )

    # -- stems ------------------------------------------------------------------------
    def stem(self, word: str, stemmer: str | None = None) -> str:
        """The stem of ``word`` under the named stemmer (the first of :attr:`stemmers` by default).

        Raises:
            ResourceError: the language has no stemmer (``stem`` not in :attr:`modules`).
            ValueError: a stemmer name not in :attr:`stemmers`.
        """
        raise ResourceError(f"{self.name} ({self.code}) has no stemmer")

    def stem_function(self, stemmer: str | None = None) -> Callable[[str], str]:
        """:meth:`stem` with the stemmer fixed, as one callable for a sentence's words (a
        language may return a faster one that gives the same stems)."""
        return functools.partial(self.stem, stemmer=stemmer)

    # -- synonyms ---------------------------------------------------------------------
    def synsets(self, word: str) -> frozenset[int]:
        """Identifiers of the synonym sets ``word`` belongs to; empty when unknown or when
        the language has no thesaurus."""
        return frozenset()

    def synsets_function(self) -> Callable[[str], frozenset[int]]:
        """:meth:`synsets` as one callable for a sentence's words (a language may return a
        faster one that gives the same sets)."""
        return self.synsets

    def synonym_source(self) -> str:
        """Name of the thesaurus behind :meth:`synsets`, for records and signatures."""
        return f"none ({self.name} has no synonyms here)"

    # -- lemmas -----------------------------------------------------------------------
    def lemmas(self, word: str) -> frozenset[str]:
        """All normal forms of ``word``; empty when the language has no lemmatiser."""
        return frozenset()

    # -- paraphrases ------------------------------------------------------------------
    def paraphrases(self) -> ParaphraseSource:
        """The paraphrase table.

        Raises:
            ResourceError: the language has none (``paraphrase`` not in :attr:`modules`).
        """
        raise ResourceError(f"there is no paraphrase table for {self.name} ({self.code})")

    # -- word embeddings --------------------------------------------------------------
    def embeddings(self) -> WordVectors:
        """The word vectors of the embedding stage.

        Raises:
            ResourceError: the language has none (``embedding`` not in :attr:`modules`).
        """
        raise ResourceError(f"language {self.code!r} has no word embeddings")

    def vector(self, word: str) -> npt.NDArray[np.float32] | None:
        """The vector of ``word``; ``None`` when it is out of the vocabulary.

        Raises:
            ResourceError: the language has no word vectors.
        """
        raise ResourceError(f"language {self.code!r} has no word embeddings")

    def embedding_eligible(self, word: str) -> bool:
        """Whether the embedding stage may match ``word`` (every word by default)."""
        return True


def check_language(lang: Any) -> None:
    """Check that ``lang`` declares the :class:`Language` interface coherently.

    Raises:
        TypeError: not a :class:`Language`, or an attribute of the wrong type.
        ValueError: an incoherent declaration (no ``exact`` stage, a ``stem`` stage
            without a stemmer, no ``meteor`` function-word list, an unknown tokenizer).
    """
    if not isinstance(lang, Language):
        raise TypeError(f"a language must subclass meteor.languages.Language, got {lang!r}")
    try:
        code, name, mods, normaliser = lang.code, lang.name, lang.modules, lang.normaliser
        lists = {
            "stemmers": lang.stemmers,
            "function_word_lists": lang.function_word_lists,
            "tokenizers": lang.tokenizers,
        }
    except AttributeError as exc:
        raise TypeError(f"{type(lang).__name__} does not declare {exc.name}") from None
    where = f"language {code!r}"
    for attr, value in (("code", code), ("name", name)):
        if not isinstance(value, str) or not value.strip():
            raise TypeError(f"{where}: {attr} must be a non-empty string, got {value!r}")
    if not isinstance(mods, frozenset) or not all(isinstance(m, Module) for m in mods):
        raise TypeError(f"{where}: modules must be a frozenset of Module, got {mods!r}")
    if Module.EXACT not in mods:
        raise ValueError(f"{where}: modules must include exact")
    for attr, names in lists.items():
        if not isinstance(names, tuple) or not all(isinstance(x, str) for x in names):
            raise TypeError(f"{where}: {attr} must be a tuple of strings, got {names!r}")
    if Module.STEM in mods and not lang.stemmers:
        raise ValueError(f"{where}: the stem stage needs at least one stemmer name")
    if "meteor" not in lang.function_word_lists:
        raise ValueError(f"{where}: function_word_lists must include 'meteor' (the default)")
    unknown = [t for t in lang.tokenizers if t not in TOKENIZERS]
    if unknown or "meteor" not in lang.tokenizers:
        raise ValueError(
            f"{where}: tokenizers must include 'meteor' and be among {', '.join(TOKENIZERS)}, "
            f"got {lang.tokenizers!r}"
        )
    if normaliser is not None and not isinstance(normaliser, str):
        raise TypeError(f"{where}: normaliser must be a name or None, got {normaliser!r}")
