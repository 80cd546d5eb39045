"""Languages as pluggable resource bundles, behind one small interface.

A language supplies what the matchers need — function words, stemmers, lemmas,
synonym sets, a paraphrase table — and nothing else: no aligner or scorer knows
which language it runs on.  Languages load lazily, once per process, from
installed pip packages (no download at run time).  Adding one takes a module, a
line in :data:`_REGISTRY` and its tests.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from meteor.types import Module

__all__ = [
    "Language",
    "ParaphraseSource",
    "ResourceError",
    "available_languages",
    "get_language",
]


class ResourceError(RuntimeError):
    """A language resource is missing; the message says what to install."""


@runtime_checkable
class ParaphraseSource(Protocol):
    """A phrase table that proposes n:m paraphrase candidates (Meteor 1.5 ``ParaphraseMatcher``)."""

    def candidates(
        self, hyp: Sequence[str], ref: Sequence[str], *, limit: int | None = None
    ) -> list[tuple[int, int, int, int]]:
        """``(hyp_start, hyp_len, ref_start, ref_len)`` in Meteor 1.5's insertion order.

        More than ``limit`` candidates raise a ``ValueError`` with a ``found`` attribute
        (:class:`meteor.paraphrase.CandidateOverflowError`) before any is built.
        """
        ...


@runtime_checkable
class Language(Protocol):
    """What a matcher may ask of a language.

    Attributes:
        code: ISO-like code used in presets, signatures and the CLI (``en``, ``ru``).
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


_REGISTRY: dict[str, str] = {
    "en": "meteor.languages.english:ENGLISH",
    "ru": "meteor.languages.russian:RUSSIAN",
}


def available_languages() -> tuple[str, ...]:
    return tuple(_REGISTRY)


@functools.cache
def get_language(code: str) -> Language:
    """Return the (process-wide, lazily loaded) resources of a language.

    Raises:
        ValueError: for an unknown language code.
    """
    if code not in _REGISTRY:
        raise ValueError(f"unknown language {code!r}; available: {', '.join(sorted(_REGISTRY))}")
    module_name, attr = _REGISTRY[code].split(":")
    module = importlib.import_module(module_name)
    lang: Language = getattr(module, attr)
    return lang
