"""Languages as pluggable resource bundles, behind one declared interface.

A language supplies what the stages need through :class:`Language`
(:mod:`meteor.languages.base`) and declares what it has; no stage, aligner or scorer
knows which language it runs on.  Languages load lazily, once per process, from
installed pip packages.  A built-in language is one :class:`LanguageInfo` line in
:data:`_LANGUAGES` (imported on first use); another is one call, ``register(MY_LANGUAGE)``
(``docs/architecture.md``, "How to add a language").
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from meteor.errors import ResourceError as ResourceError
from meteor.languages.base import Language, ParaphraseSource, WordVectors, check_language

__all__ = [
    "Language",
    "LanguageInfo",
    "ParaphraseSource",
    "ResourceError",
    "WordVectors",
    "available",
    "available_languages",
    "canonical_code",
    "get_language",
    "register",
    "unregister",
]


@dataclass(frozen=True, slots=True)
class LanguageInfo:
    """One registered text language, known without loading it.

    Attributes:
        code: ISO 639-1 code, used in presets, signatures, the CLI and ``Params.lang``.
        name: English name.
        native_name: the language's name for itself (for language selectors).
        meteor_names: the names Meteor 1.5's ``-l`` accepts for it (``Constants.normLanguageName``);
            each is also accepted here as an alias of ``code`` (for a language added with
            :func:`register`, its ``aliases``).
        target: ``module:attribute`` of the :class:`Language` object, imported on first
            use (``<registered code>`` for a language added with :func:`register`).
    """

    code: str
    name: str
    native_name: str
    meteor_names: tuple[str, ...]
    target: str


_SB = "meteor.languages.snowball:"

#: One line per built-in language (plug-ins use :func:`register`).
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

_LOCK = threading.Lock()
_INFO: dict[str, LanguageInfo] = {info.code: info for info in _LANGUAGES}
_ALIASES: dict[str, str] = {
    alias: info.code for info in _LANGUAGES for alias in (info.code, *info.meteor_names)
}
#: Languages registered as objects (:func:`register`), by code.
_OBJECTS: dict[str, Language] = {}
#: Every object a code was ever bound to in this process: scorers share memos per code
#: (:func:`meteor.metric._shared_cache`), so a code never changes its object.
_BOUND: dict[str, Language] = {}


def available() -> tuple[LanguageInfo, ...]:
    """Every text language: code, English and native name, Meteor 1.5's names (no loading)."""
    return tuple(_INFO.values())


def available_languages() -> tuple[str, ...]:
    """The codes of :func:`available`."""
    return tuple(_INFO)


def canonical_code(code: str) -> str:
    """The registry code for ``code`` or one of Meteor 1.5's names for it (``cz`` → ``cs``).

    Case and surrounding spaces are ignored; an unknown code is returned unchanged
    (:func:`get_language` rejects it).
    """
    if not isinstance(code, str):
        return code
    return _ALIASES.get(code.strip().lower(), code)


def get_language(code: str) -> Language:
    """The (process-wide, lazily loaded) language ``code`` (or a Meteor 1.5 name: ``cz``).

    Raises:
        ValueError: for an unknown language code.
    """
    return _get_language(canonical_code(code))


@functools.cache
def _get_language(code: str) -> Language:
    info = _INFO.get(code)
    if info is None:
        raise ValueError(f"unknown language {code!r}; available: {', '.join(sorted(_INFO))}")
    lang = _OBJECTS.get(code)
    if lang is None:
        module_name, attr = info.target.split(":")
        lang = getattr(importlib.import_module(module_name), attr)
        check_language(lang)
    return lang


def register(
    language: Language, *, native_name: str | None = None, aliases: Sequence[str] = ()
) -> LanguageInfo:
    """Add a language object to the registry: one call plugs a language in.

    After it, ``Params(lang=language.code)``, :func:`get_language` and the CLI's ``--lang``
    know the language (presets: :func:`meteor.presets.register`).  Registering the same
    object again is a no-op.

    Args:
        language: the :class:`Language` (checked with :func:`~meteor.languages.base.check_language`).
        native_name: the language's name for itself (default: ``language.name``).
        aliases: other names accepted for the code (lowercase).

    Raises:
        TypeError, ValueError: an incoherent language, or a code or alias already
            taken by another language (a code keeps its object for the whole process,
            since scorers share their memos per code).
    """
    check_language(language)
    code = language.code
    names = tuple(a.strip().lower() for a in aliases)
    with _LOCK:
        if _OBJECTS.get(code) is language:
            return _INFO[code]
        if code in _ALIASES or _BOUND.get(code, language) is not language:
            raise ValueError(f"language code {code!r} is already taken")
        for alias in names:
            if alias in _ALIASES:
                raise ValueError(f"alias {alias!r} already names {_ALIASES[alias]!r}")
        info = LanguageInfo(
            code, language.name, native_name or language.name, names, f"<registered {code}>"
        )
        _INFO[code] = info
        _OBJECTS[code] = _BOUND[code] = language
        for alias in (code, *names):
            _ALIASES[alias] = code
        _get_language.cache_clear()
    return info


def unregister(code: str) -> None:
    """Remove a language added with :func:`register` (tests; built-ins cannot be removed).

    Raises:
        ValueError: ``code`` is not a registered object.
    """
    with _LOCK:
        if code not in _OBJECTS:
            raise ValueError(f"{code!r} was not added with register()")
        del _OBJECTS[code]
        info = _INFO.pop(code)
        for alias in (code, *info.meteor_names):
            _ALIASES.pop(alias, None)
        _get_language.cache_clear()
