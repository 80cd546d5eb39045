"""Meteor 1.5's other languages: Czech, German, French, Spanish, the Snowball languages, Arabic.

One class, :class:`SnowballLanguage`, parametrised by the jar's language name, its
Snowball stemmer and its Meteor 1.5 parameters; one instance per language below.
Adding a language the jar knows takes one instance here and one line in
:data:`meteor.languages._LANGUAGES`; its preset ``meteor-1.5-<code>`` is built from
:attr:`SnowballLanguage.meteor15`.  What reproduces Meteor 1.5 (``meteor-1.5.md``
sections 1, 3-6), and how the stems were checked against the jar: docs/languages.md.
Importing this module is cheap: stemmers and word lists load on first use.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Literal

from meteor.errors import ParamError, ResourceError
from meteor.languages.base import Language, ParaphraseSource
from meteor.languages.jar_stemmers import TABLE_PREFIX
from meteor.languages.jar_stemmers import jar_stemmer as jar_stemmer
from meteor.module_registry import Module
from meteor.resources import PYCOCO_HINT, jar_lines

__all__ = [
    "ARABIC_BW",
    "CZECH",
    "DANISH",
    "DUTCH",
    "FINNISH",
    "FRENCH",
    "GERMAN",
    "HUNGARIAN",
    "ITALIAN",
    "Meteor15Defaults",
    "NORWEGIAN",
    "OTHER",
    "PORTUGUESE",
    "ROMANIAN",
    "SNOWBALL_LANGUAGES",
    "SPANISH",
    "SWEDISH",
    "SnowballLanguage",
    "TURKISH",
    "jar_function_words",
    "jar_stemmer",
]

FunctionWordList = Literal["meteor", "meteor-lang"]

#: The jar member every language is weighted with unless ``-s`` is given.
METEOR_FUNCTION_WORDS_MEMBER = "function/english.words"


# --------------------------------------------------------------------------- languages


@dataclass(frozen=True, slots=True)
class Meteor15Defaults:
    """How the jar runs a language with the data ``pycocoevalcap`` ships.

    Attributes:
        alpha, beta, gamma, delta: the language's default task (``rank`` or ``li``,
            ``Constants.java``; ``meteor-1.5.md`` section 3).
        weights: the task's weights for the stages that run (exact, and stem if any).
        norm: ``meteor`` (``-norm``) where the jar has a normaliser, else ``lower``
            (``none`` for case-sensitive Buckwalter Arabic).
        flags: the jar's command line for this configuration.
        note: what differs from the jar's full default, for the preset description.
    """

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]
    norm: Literal["meteor", "lower", "none"]
    flags: str
    note: str


@dataclass(frozen=True, slots=True)
class SnowballLanguage(Language):
    """A Meteor 1.5 language: Snowball stems (or none), the jar's normaliser, no thesaurus.

    Capabilities: exact, and stem when the jar has a stemmer (its old Snowball,
    :mod:`meteor.languages.jar_stemmers`); two function-word lists; Meteor 1.5's
    ``-norm`` where the jar has one (cs, de, es, fr); nothing else, as in the jar.

    Attributes:
        code: ISO 639-1 code (``cs``, ``de`` ...).
        name: English name.
        meteor_code: the jar's ``-l`` code (``cz``, ``se``), when it differs from ``code``.
        meteor_name: the jar's ``-l`` long name (``czech``), also its data file names.
        algorithm: the Snowball stemmer (``german``), ``None`` when the jar has none.
        meteor15: how the jar runs it; the preset ``meteor-1.5-<code>`` is built from it.
        function_word_list: ``meteor`` (the jar's English list, what it really weighs
            with) or ``meteor-lang`` (``function/<meteor_name>.words``).
    """

    code: str
    name: str
    meteor_code: str
    meteor_name: str
    algorithm: str | None
    meteor15: Meteor15Defaults
    function_word_list: FunctionWordList = "meteor"

    function_word_lists = ("meteor", "meteor-lang")

    @property
    def modules(self) -> frozenset[Module]:  # type: ignore[override]
        return frozenset({Module.EXACT, Module.STEM} if self.algorithm else {Module.EXACT})

    @property
    def normaliser(self) -> str | None:  # type: ignore[override]
        """The jar's ``-norm`` rules (``nonbreaking/<meteor_name>.prefixes``) where its preset
        uses them (cs, de, es, fr), else ``None``."""
        return self.meteor_name if self.meteor15.norm == "meteor" else None

    @property
    def stemmers(self) -> tuple[str, ...]:  # type: ignore[override]
        """``("table",)`` for a lookup-table stemmer (Buckwalter Arabic), else ``("snowball",)``
        (for Czech too: the value forms offer; it has no ``stem`` module)."""
        if self.algorithm and self.algorithm.startswith(TABLE_PREFIX):
            return ("table",)
        return ("snowball",)

    def with_function_words(self, kind: str) -> SnowballLanguage:
        """A variant weighing with another list: ``meteor`` or ``meteor-lang``.

        Raises:
            ParamError: for ``project`` (the project has a list of its own for Russian only).
        """
        if kind not in self.function_word_lists:
            raise ParamError(
                f"function_words={kind!r} is not available for {self.code!r}: "
                "choose 'meteor' (the jar's English list) or 'meteor-lang' "
                f"(function/{self.meteor_name}.words)"
            )
        return _variant(self, kind)  # type: ignore[arg-type]

    # -- function words -------------------------------------------------------------
    def is_function_word(self, word: str) -> bool:
        """``word.toLowerCase()`` in the selected list (lowercased even without ``-norm``)."""
        member = (
            METEOR_FUNCTION_WORDS_MEMBER
            if self.function_word_list == "meteor"
            else f"function/{self.meteor_name}.words"
        )
        return word.lower() in jar_function_words(member)

    # -- stems --------------------------------------------------------------------
    def stem(self, word: str, stemmer: str | None = None) -> str:
        """The jar's stem of ``word`` (case-sensitive, as the jar's): Snowball or its table.

        Raises:
            ResourceError: for a language without a stemmer (``stem`` not in :attr:`modules`).
            ValueError: for another stemmer name.
        """
        if self.algorithm is None:
            raise ResourceError(f"Meteor 1.5 has no stemmer for {self.name} ({self.code})")
        if stemmer is not None and stemmer not in self.stemmers:
            raise ValueError(
                f"unknown {self.name} stemmer {stemmer!r}; choose {self.stemmers[0]!r}"
            )
        return jar_stemmer(self.algorithm)(word)

    # -- what the jar has only for English ---------------------------------------------
    def synonym_source(self) -> str:
        """No thesaurus: :meth:`synsets` is always empty (the base class's)."""
        return f"none (Meteor 1.5 has WordNet synonyms for English only, not {self.name})"

    def paraphrases(self) -> ParaphraseSource:
        """Always raises ResourceError, as the jar's default for this language fails:
        pycocoevalcap ships ``paraphrase-en.gz`` only."""
        raise ResourceError(
            f"Meteor 1.5's {self.name} paraphrase table (paraphrase-{self.meteor_code}.gz) "
            "is not distributed: pycocoevalcap ships the English table only"
        )


@functools.cache
def _variant(lang: SnowballLanguage, kind: FunctionWordList) -> SnowballLanguage:
    return lang if kind == lang.function_word_list else replace(lang, function_word_list=kind)


@functools.cache
def jar_function_words(member: str) -> frozenset[str]:
    """The jar's function-word file ``member`` (``function/<language>.words``), lowercased
    (Meteor 1.5 looks words up as ``word.toLowerCase()``), read once per process."""
    try:
        lines = jar_lines(member)
    except ResourceError as exc:
        raise ResourceError(
            f"Meteor 1.5's function words ({member}) are read from the Meteor jar "
            f"in pycocoevalcap: {PYCOCO_HINT}"
        ) from exc
    return frozenset(line.lower() for line in lines)


def _rank(
    a: float, b: float, g: float, d: float, w: tuple[float, ...], flags: str, note: str
) -> Meteor15Defaults:
    return Meteor15Defaults(a, b, g, d, w, "meteor", flags, note)


_NO_PARAPHRASE = (
    "the jar's default adds a paraphrase stage, but pycocoevalcap ships the English "
    "paraphrase table only (paraphrase-{code}.gz not found), so this runs the stages that exist"
)


def _li(code: str) -> Meteor15Defaults:
    # Task li (Constants.java): the same for every language without a rank table.
    return Meteor15Defaults(
        0.75,
        1.40,
        0.70,
        0.50,
        (1.0, 0.5),
        "lower",
        f"meteor-1.5.jar -l {code} -lower",
        "the jar's full default (exact, stem; task li); -norm throws 'No normalizer' for "
        "this language, so the text is lowercased only (-lower)",
    )


CZECH = SnowballLanguage(
    "cs", "Czech", "cz", "czech", None,
    _rank(0.95, 0.20, 0.60, 0.80, (1.0,), "meteor-1.5.jar -l cz -norm -m exact",
          _NO_PARAPHRASE.format(code="cz") + "; the jar has no Czech stemmer: exact only"),
)  # fmt: skip
GERMAN = SnowballLanguage(
    "de", "German", "de", "german", "german",
    _rank(0.95, 1.00, 0.55, 0.55, (1.0, 0.8), "meteor-1.5.jar -l de -norm -m 'exact stem'",
          _NO_PARAPHRASE.format(code="de")),
)  # fmt: skip
FRENCH = SnowballLanguage(
    "fr", "French", "fr", "french", "french",
    _rank(0.90, 1.40, 0.60, 0.65, (1.0, 0.2), "meteor-1.5.jar -l fr -norm -m 'exact stem'",
          _NO_PARAPHRASE.format(code="fr")),
)  # fmt: skip
SPANISH = SnowballLanguage(
    "es", "Spanish", "es", "spanish", "spanish",
    _rank(0.65, 1.30, 0.50, 0.80, (1.0, 0.8), "meteor-1.5.jar -l es -norm -m 'exact stem'",
          _NO_PARAPHRASE.format(code="es")),
)  # fmt: skip
DANISH = SnowballLanguage("da", "Danish", "da", "danish", "danish", _li("da"))
DUTCH = SnowballLanguage("nl", "Dutch", "nl", "dutch", "dutch", _li("nl"))
FINNISH = SnowballLanguage("fi", "Finnish", "fi", "finnish", "finnish", _li("fi"))
HUNGARIAN = SnowballLanguage("hu", "Hungarian", "hu", "hungarian", "hungarian", _li("hu"))
ITALIAN = SnowballLanguage("it", "Italian", "it", "italian", "italian", _li("it"))
NORWEGIAN = SnowballLanguage("no", "Norwegian", "no", "norwegian", "norwegian", _li("no"))
PORTUGUESE = SnowballLanguage("pt", "Portuguese", "pt", "portuguese", "portuguese", _li("pt"))
ROMANIAN = SnowballLanguage("ro", "Romanian", "ro", "romanian", "romanian", _li("ro"))
SWEDISH = SnowballLanguage("sv", "Swedish", "se", "swedish", "swedish", _li("se"))
TURKISH = SnowballLanguage("tr", "Turkish", "tr", "turkish", "turkish", _li("tr"))
#: Arabic in the reduced Buckwalter transliteration (ASCII, case-sensitive), stemmed by the
#: jar's lookup table; not ISO 639-1: Arabic script is not what the jar's table holds.
ARABIC_BW = SnowballLanguage(
    "ar-bw-red", "Arabic (Buckwalter, reduced)", "ar-bw-red", "arabic-buckwalter-reduced",
    TABLE_PREFIX + "stem/arabic-buckwalter-reduced.gz",
    Meteor15Defaults(
        0.75, 1.40, 0.70, 0.50, (1.0, 0.5), "none", "meteor-1.5.jar -l ar-bw-red",
        "the jar's full default (exact, lookup-table stem; task li), without -lower since "
        "Buckwalter letters are case-sensitive; text must be in the reduced Buckwalter "
        "transliteration, not Arabic script",
    ),
)  # fmt: skip

#: Meteor's ``-l other``: any language, exact matching only (task li, weight 1.0).
OTHER = SnowballLanguage(
    "other", "Other language", "other", "other", None,
    Meteor15Defaults(
        0.75, 1.40, 0.70, 0.50, (1.0,), "lower", "meteor-1.5.jar -l other -lower",
        "the jar's full default for a language it does not know: exact matching only "
        "(task li); -norm throws 'No normalizer', so the text is lowercased only (-lower)",
    ),
)  # fmt: skip

#: Every language of this module, in the order presets list them.
SNOWBALL_LANGUAGES: tuple[SnowballLanguage, ...] = (
    CZECH, GERMAN, FRENCH, SPANISH, DANISH, DUTCH, FINNISH, HUNGARIAN, ITALIAN,
    NORWEGIAN, PORTUGUESE, ROMANIAN, SWEDISH, TURKISH, ARABIC_BW, OTHER,
)  # fmt: skip
