"""Languages as pluggable resource bundles, behind one small interface.

A language supplies what the matchers need — function words, stemmers, lemmas,
synonym sets, a paraphrase table — and nothing else: no aligner or scorer knows
which language it runs on.  Languages load lazily, once per process, from
installed pip packages (no download at run time).  Adding one takes a module (or,
for a Snowball language of Meteor 1.5, one instance in :mod:`meteor.languages.snowball`),
a line in :data:`_LANGUAGES` and its tests.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from meteor.errors import ResourceError as ResourceError
from meteor.types import Module

__all__ = [
    "Language",
    "LanguageInfo",
    "ParaphraseSource",
    "ResourceError",
    "available",
    "available_languages",
    "canonical_code",
    "get_language",
]


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
class Language(Protocol):
    """What a matcher may ask of a language.

    Attributes:
        code: ISO 639-1 code used in presets, signatures and the CLI (``en``, ``ru``, ``de``).
        name: human-readable name.
        modules: the stages this language can run.
        stemmers: names accepted by :meth:`stem` (the first is the default).
    """

    code: str
    name: str
    modules: frozenset[Module]
    stemmers: tuple[str, ...]

    def is_function_word(self, word: str) -> bool:
        """Whether ``word`` (compared lowercased, as Meteor 1.5 does) is a function word."""
        ...

    def stem(self, word: str, stemmer: str | None = None) -> str:
        """The stem of ``word`` under the named stemmer (case-sensitive where the reference is)."""
        ...

    def synsets(self, word: str) -> frozenset[int]:
        """Identifiers of the synonym sets ``word`` belongs to (empty when unknown)."""
        ...

    def synonym_source(self) -> str:
        """Name of the thesaurus behind :meth:`synsets`, for records and signatures."""
        ...

    def lemmas(self, word: str) -> frozenset[str]:
        """All normal forms of ``word`` (empty when the language has no lemmatiser)."""
        ...

    def paraphrases(self) -> ParaphraseSource:
        """The paraphrase table; raises :class:`ResourceError` when it is not installed."""
        ...


@dataclass(frozen=True, slots=True)
class LanguageInfo:
    """One registered text language, known without loading it.

    Attributes:
        code: ISO 639-1 code, used in presets, signatures, the CLI and ``Params.lang``.
        name: English name.
        native_name: the language's name for itself (for language selectors).
        meteor_names: the names Meteor 1.5's ``-l`` accepts for it (``Constants.normLanguageName``);
            each is also accepted here as an alias of ``code``.
        target: ``module:attribute`` of the :class:`Language` object.
    """

    code: str
    name: str
    native_name: str
    meteor_names: tuple[str, ...]
    target: str


_SB = "meteor.languages.snowball:"

#: One line per language.
_LANGUAGES: tuple[LanguageInfo, ...] = (
    LanguageInfo("en", "English", "English", ("english",), "meteor.languages.english:ENGLISH"),
    LanguageInfo("ru", "Russian", "Русский", ("russian",), "meteor.languages.russian:RUSSIAN"),
    LanguageInfo("cs", "Czech", "Čeština", ("cz", "czech"), _SB + "CZECH"),
    LanguageInfo("de", "German", "Deutsch", ("german",), _SB + "GERMAN"),
    LanguageInfo("es", "Spanish", "Español", ("spanish",), _SB + "SPANISH"),
    LanguageInfo("fr", "French", "Français", ("french",), _SB + "FRENCH"),
    LanguageInfo("da", "Danish", "Dansk", ("danish",), _SB + "DANISH"),
    LanguageInfo("fi", "Finnish", "Suomi", ("finnish",), _SB + "FINNISH"),
    LanguageInfo("hu", "Hungarian", "Magyar", ("hungarian",), _SB + "HUNGARIAN"),
    LanguageInfo("it", "Italian", "Italiano", ("italian",), _SB + "ITALIAN"),
    LanguageInfo("nl", "Dutch", "Nederlands", ("dutch",), _SB + "DUTCH"),
    LanguageInfo("no", "Norwegian", "Norsk", ("norwegian",), _SB + "NORWEGIAN"),
    LanguageInfo("pt", "Portuguese", "Português", ("portuguese",), _SB + "PORTUGUESE"),
    LanguageInfo("ro", "Romanian", "Română", ("romanian",), _SB + "ROMANIAN"),
    LanguageInfo("sv", "Swedish", "Svenska", ("se", "swedish"), _SB + "SWEDISH"),
    LanguageInfo("tr", "Turkish", "Türkçe", ("turkish",), _SB + "TURKISH"),
    LanguageInfo(
        "ar-bw-red",
        "Arabic (Buckwalter, reduced)",
        "العربية (Buckwalter)",
        ("arabic-buckwalter-reduced",),
        _SB + "ARABIC_BW",
    ),
    LanguageInfo("other", "Other language", "Other", ("xx",), _SB + "OTHER"),
)

_INFO: dict[str, LanguageInfo] = {info.code: info for info in _LANGUAGES}
_REGISTRY: dict[str, str] = {info.code: info.target for info in _LANGUAGES}
_ALIASES: dict[str, str] = {
    alias: info.code for info in _LANGUAGES for alias in (info.code, *info.meteor_names)
}


def available() -> tuple[LanguageInfo, ...]:
    """Every text language: code, English and native name, Meteor 1.5's names (no loading)."""
    return _LANGUAGES


def available_languages() -> tuple[str, ...]:
    """The codes of :func:`available`."""
    return tuple(_REGISTRY)


def canonical_code(code: str) -> str:
    """The registry code for ``code`` or one of Meteor 1.5's names for it (``cz`` → ``cs``).

    Case and surrounding spaces are ignored; an unknown code is returned unchanged
    (:func:`get_language` rejects it).
    """
    if not isinstance(code, str):
        return code
    return _ALIASES.get(code.strip().lower(), code)


def get_language(code: str) -> Language:
    """Return the (process-wide, lazily loaded) resources of a language.

    ``code`` may be one of Meteor 1.5's names (``cz``, ``german``).

    Raises:
        ValueError: for an unknown language code.
    """
    return _get_language(canonical_code(code))


@functools.cache
def _get_language(code: str) -> Language:
    if code not in _REGISTRY:
        raise ValueError(f"unknown language {code!r}; available: {', '.join(sorted(_REGISTRY))}")
    module_name, attr = _REGISTRY[code].split(":")
    module = importlib.import_module(module_name)
    lang: Language = getattr(module, attr)
    return lang
