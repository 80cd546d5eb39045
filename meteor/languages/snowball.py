"""Meteor 1.5's other languages: Czech, German, French, Spanish, the Snowball languages, Arabic.

One class, :class:`SnowballLanguage`, parametrised by the jar's language name, its
Snowball stemmer and its Meteor 1.5 parameters; one instance per language below
(``GERMAN``, ``FRENCH``, ...).  Adding a language the jar knows takes one instance here
and one line in :data:`meteor.languages._LANGUAGES`; its preset ``meteor-1.5-<code>``
is built from :attr:`SnowballLanguage.meteor15` (``meteor/presets.py``).

What reproduces Meteor 1.5 (``meteor-1.5.md`` sections 1, 3-6; ``docs/languages.md``):

* **Function words**: the jar weighs every language with ``function/english.words``
  unless ``-s`` is given (section 5), so that is the default list here too;
  ``with_function_words("meteor-lang")`` gives the jar's own file for the language
  (``function/german.words`` ...; empty for the ``li`` languages).
* **Stems**: the jar bundles an old (about 2010) Snowball in Java.  Its stems were
  compared word by word with ``snowballstemmer==2.2.0`` and ``PyStemmer==3.1.0`` on
  32,000-78,000 words per language (wordfreq lists and the WMT22 texts;
  ``docs/languages.md``).  The pure-Python ``snowballstemmer`` classes agree with the
  jar on every word for da, es, it, nl, no, ro, sv and tr; for de, fi, fr, hu and pt
  they agree once what Snowball changed since is undone around them (:func:`_german`,
  :func:`_finnish`, :func:`_old_french_class`, :func:`_hungarian`, :func:`_portuguese`).
  Every word tested then agrees.
  PyStemmer disagrees more (it hands off to Snowball 3, e.g. 2,069 German words).
  Czech has no stemmer in the jar (``-m 'exact stem'`` fails), so Czech has none here.
  Reduced-Buckwalter Arabic uses the jar's lookup table (:func:`_lookup_table`).
* **Normaliser**: ``-norm`` exists for cs (the jar's ``cz``), de, es and fr only
  (:mod:`meteor.text.normalize`); the jar refuses it for the ``li`` languages ("No
  normalizer"), whose presets use ``-lower``.
* **No synonyms, no paraphrases**: only the English paraphrase table ships with
  ``pycocoevalcap``, so :meth:`SnowballLanguage.paraphrases` raises
  :class:`~meteor.languages.ResourceError` (as the jar does: ``paraphrase-de.gz`` not found).

Importing this module is cheap: stemmers and word lists load on first use.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from meteor.errors import ParamError, ResourceError
from meteor.languages.base import Language, ParaphraseSource
from meteor.resources import PYCOCO_HINT, jar_lines
from meteor.types import Module

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
    "jar_stemmer",
]

FunctionWordList = Literal["meteor", "meteor-lang"]

#: The jar member every language is weighted with unless ``-s`` is given.
METEOR_FUNCTION_WORDS_MEMBER = "function/english.words"
SNOWBALL_HINT = "pip install snowballstemmer==2.2.0"
STEM_CACHE_SIZE = 1 << 18


# --------------------------------------------------------------------------- stemmers
#
# Each adapter runs a snowballstemmer 2.2.0 class and undoes, around it, the rules
# Snowball changed after the version bundled in the jar.  The checks behind each one
# (jar stems vs ours, word by word) are in docs/languages.md.


def _plain(cls: Any) -> Callable[[str], str]:
    stemmer = cls()
    return stemmer.stemWord  # type: ignore[no-any-return]


#: German: newer Snowball deletes the ``s`` of ``-niss`` after removing ``e``/``en``/``es``
#: (``ergebnisse`` → ``ergebnis``); the jar keeps it (``ergebniss``).  A private-use
#: stand-in for that ``s`` (a non-vowel, as ``s`` is) keeps the rule from firing.
_NISS = re.compile(r"niss(e|en|es)$")
_NISS_S = "\ue010"


def _german(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)

    def run(word: str) -> str:
        m = _NISS.search(word)
        if m is None:
            return stem(word)
        hidden = word[: m.start()] + "nis" + _NISS_S + m.group(1)
        return stem(hidden).replace(_NISS_S, "s")

    return run


#: Hungarian: the jar's generated Java has ``õ``/``û`` (U+00F5/U+00FB, the Latin-1 bytes of
#: Latin-2 ``ő``/``ű``) where Snowball now has ``ő``/``ű``: it treats ``õ``/``û`` as the
#: long vowels and ``ő``/``ű`` as consonants.  Swapping the pairs around the current
#: stemmer reproduces that (``őket`` stays ``őket``).
_HU_SWAP = str.maketrans("őűŐŰõûÕÛ", "õûÕÛőűŐŰ")


def _hungarian(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)
    return lambda word: stem(word.translate(_HU_SWAP)).translate(_HU_SWAP)


#: Portuguese: newer Snowball removes ``-ução``/``-uções`` (``revolução`` → ``revolu``);
#: the jar's table has the Spanish spelling ``-ución``/``-uciones`` there, so it keeps
#: ``revoluçã`` and reduces ``revolución`` to ``revolu``.  Hiding the ``ç`` of the one
#: and spelling the other the current way reproduces the jar.
_UCAO = re.compile(r"uç(ão|ões)$")
_UCAO_C = "\ue011"


_UCION = re.compile(r"uci(ón|ones)$")
_UCION_AS_UCAO = {"ón": "ção", "ones": "ções"}


def _portuguese(cls: Any) -> Callable[[str], str]:
    stem = _plain(cls)

    def run(word: str) -> str:
        m = _UCAO.search(word)
        if m is not None:
            return stem(word[: m.start()] + "u" + _UCAO_C + m.group(1)).replace(_UCAO_C, "ç")
        m = _UCION.search(word)
        if m is not None:
            # the jar's rule: -ución/-uciones in R2 becomes -u, as -ução does now
            base = word[: m.start()]
            out = stem(base + "u" + _UCION_AS_UCAO[m.group(1)])
            if out == base + "u":
                return out
        return stem(word)

    return run


_FR_VOWELS = frozenset("aeiouyâàëéêèïîôûù")


def _old_french_class(cls: Any) -> Any:
    """French as the jar has it: ``ë``/``ï`` are plain vowels, ``H`` is a plain letter.

    Newer Snowball rewrites ``ë``/``ï`` as ``He``/``Hi`` in its prelude and deletes every
    ``H`` in its postlude (so ``Homme`` → ``omm``); the jar does neither.  This subclass
    replaces the prelude and postlude with the older ones: mark ``u``/``i`` between
    vowels, ``y`` next to a vowel and ``u`` after ``q`` as capitals, and lowercase them
    after; plus the older residual rule "``ë`` after ``gu`` in RV is deleted"
    (``ambiguë`` → ``ambigu``, but ``aiguë`` whose ``g`` is before RV stays).
    """

    class OldFrench(cls):  # type: ignore[misc, valid-type]
        current: str
        cursor: int
        limit: int
        I_pV: int  # noqa: N815 (snowballstemmer's name)

        def _FrenchStemmer__r_prelude(self) -> bool:  # noqa: N802 (overrides the mangled name)
            s = list(self.current)
            n = len(s)
            for i, c in enumerate(s):
                prev = s[i - 1] if i > 0 else ""
                nxt = s[i + 1] if i + 1 < n else ""
                if prev and prev in _FR_VOWELS and c in "ui" and nxt and nxt in _FR_VOWELS:
                    s[i] = c.upper()
                elif prev and prev in _FR_VOWELS and c == "y":
                    s[i] = "Y"
                elif c == "y" and nxt and nxt in _FR_VOWELS:
                    s[i] = "Y"
                elif c == "u" and prev == "q":
                    s[i] = "U"
            self.current = "".join(s)
            self.cursor = 0
            self.limit = len(self.current)
            return True

        def _FrenchStemmer__r_postlude(self) -> bool:  # noqa: N802
            cur = self.current
            if cur.endswith("guë") and len(cur) - 3 >= self.I_pV:  # "gu" inside RV too
                cur = cur[:-1]
            self.current = cur.translate(_FR_POSTLUDE)
            self.cursor = 0
            self.limit = len(self.current)
            return True

    return OldFrench


_FR_POSTLUDE = str.maketrans("IUY", "iuy")


def _finnish(cls: Any) -> Callable[[str], str]:
    """Finnish as the jar runs it: the conditions inside the case-ending table never hold.

    In the old Snowball Java runtime an ``among`` entry with a condition routine
    (``'den' VI``, ``'tten' VI``, ``'siin' VI``, ``'seen' LONG``) calls that routine on
    a separate, empty stemmer object, so the condition always fails and the shorter
    entry (``'n'``) applies instead: ``asioiden`` → ``asioid`` in the jar, ``asio`` in
    current Snowball.  The subclass hands ``find_among_b`` a copy of that table whose
    conditions always fail.  And the jar's consonant class ``C`` is "not a vowel", where
    Snowball now lists ``b``-``z``: ``maría`` → ``marí`` in the jar.  Everything else is the
    current code.
    """
    from snowballstemmer.among import Among

    table = cls.a_6
    jar_table = [
        Among(a.s, a.substring_i, a.result, "_jar_condition" if a.method else None) for a in table
    ]

    consonants, vowels = cls.g_C, cls.g_V1

    class OldFinnish(cls):  # type: ignore[misc, valid-type]
        def _jar_condition(self) -> bool:
            return False

        def find_among_b(self, v: Any) -> int:
            return super().find_among_b(jar_table if v is table else v)  # type: ignore[no-any-return]

        def in_grouping_b(self, s: Any, lo: int, hi: int) -> bool:
            if s is consonants:  # the jar's C is "not a vowel": í, é, ž ... count
                return super().out_grouping_b(vowels, 97, 246)  # type: ignore[no-any-return]
            return super().in_grouping_b(s, lo, hi)  # type: ignore[no-any-return]

    return _plain(OldFinnish)


def _french(cls: Any) -> Callable[[str], str]:
    return _plain(_old_french_class(cls))


#: Snowball algorithm → (snowballstemmer module, class, adapter).
_ADAPTERS: dict[str, Callable[[Any], Callable[[str], str]]] = {
    "german": _german,
    "hungarian": _hungarian,
    "portuguese": _portuguese,
    "french": _french,
    "finnish": _finnish,
}

_STEM_LOCK = threading.Lock()
#: ``algorithm`` prefix of a lookup-table stemmer read from the jar (``LookupTableStemmer``).
TABLE_PREFIX = "table:"


def _lookup_table(member: str) -> Callable[[str], str]:
    """Meteor 1.5 ``LookupTableStemmer``: a gzip member of the jar, ``word count stem`` lines.

    Reproduces its quirks: the table is keyed by the word's Java ``String.hashCode``
    (a later line with the same hash wins, and a word whose hash collides with a
    listed one gets that word's stem); a word not in the table is its own stem.
    """
    import gzip
    import zipfile

    from meteor.resources import jar_path
    from meteor.stages.base import java_hash

    try:
        with zipfile.ZipFile(jar_path()) as zf:
            raw = gzip.decompress(zf.read(member))
    except KeyError as exc:
        raise ResourceError(f"{member} is not in {jar_path().name}") from exc
    # BufferedReader.readLine ends a line at \n, \r or \r\n (not at \x0b, \x85, U+2028 ...);
    # StringTokenizer splits on " \t\n\r\f"; the first three tokens are word, count, stem
    # (many lines list more "count stem" pairs, which the jar ignores).
    text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    rows = _FIRST_THREE.findall(text)
    # dict() keeps the last value of a repeated key, as Hashtable.put does
    table = dict(zip(_java_hashes([r[0] for r in rows]), [r[2] for r in rows], strict=True))
    return lambda word: table.get(java_hash(word), word)


_TOK = r"([^ \t\n\r\f]+)"
_FIRST_THREE = re.compile(rf"^[ \t\f]*{_TOK}[ \t\f]+{_TOK}[ \t\f]+{_TOK}", re.MULTILINE)


def _java_hashes(words: list[str]) -> list[int]:
    """``String.hashCode`` of many words at once (numpy; equal to :func:`java_hash` each)."""
    import numpy as np

    codes = np.frombuffer("".join(words).encode("utf-16-le"), dtype="<u2")
    if len(codes) == sum(map(len, words)):  # no surrogate pairs: a character is a code unit
        lengths = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    else:
        lengths = np.array([len(w.encode("utf-16-le")) // 2 for w in words], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    out = np.zeros(len(words), dtype=np.int32)
    for n in np.unique(lengths).tolist():
        idx = np.nonzero(lengths == n)[0]
        h = np.zeros(len(idx), dtype=np.uint32)
        for k in range(n):
            h = h * np.uint32(31) + codes[starts[idx] + k].astype(np.uint32)  # wraps mod 2**32
        out[idx] = h.view(np.int32)
    return out.tolist()  # type: ignore[no-any-return]


_LOAD_LOCK = threading.Lock()
_LOADED: dict[str, Callable[[str], str]] = {}


def _stemmer(algorithm: str) -> Callable[[str], str]:
    """The stemmer for ``algorithm``, built once per process (concurrent first calls wait)."""
    stem = _LOADED.get(algorithm)
    if stem is None:
        with _LOAD_LOCK:
            stem = _LOADED.get(algorithm)
            if stem is None:
                stem = _LOADED[algorithm] = _build_stemmer(algorithm)
    return stem


def _build_stemmer(algorithm: str) -> Callable[[str], str]:
    import importlib

    if algorithm.startswith(TABLE_PREFIX):
        return _lookup_table(algorithm[len(TABLE_PREFIX) :])

    try:
        module = importlib.import_module(f"snowballstemmer.{algorithm}_stemmer")
    except ImportError as exc:
        raise ResourceError(
            f"the {algorithm} Snowball stemmer comes from snowballstemmer: {SNOWBALL_HINT}"
        ) from exc
    # The class itself, never snowballstemmer.stemmer(): that hands off to PyStemmer 3.x.
    cls = getattr(module, algorithm.capitalize() + "Stemmer")
    return _ADAPTERS.get(algorithm, _plain)(cls)


def jar_stemmer(algorithm: str) -> Callable[[str], str]:
    """The stem function that reproduces the jar's ``org.tartarus.snowball.ext.<algorithm>Stemmer``.

    Case-sensitive, as the jar's (it stems what the tokeniser gives it).  Thread-safe
    and memoised.

    Raises:
        ResourceError: when snowballstemmer is not installed.
    """
    stem = _stemmer(algorithm)

    @functools.lru_cache(maxsize=STEM_CACHE_SIZE)
    def cached(word: str) -> str:
        # The pure-Python stemmers keep their working string on the instance.
        with _STEM_LOCK:
            return stem(word)

    return cached


_MEMOISED: dict[str, Callable[[str], str]] = {}


def _cached_stemmer(algorithm: str) -> Callable[[str], str]:
    stem = _MEMOISED.get(algorithm)
    if stem is None:
        stem = jar_stemmer(algorithm)  # loads under _LOAD_LOCK
        stem = _MEMOISED.setdefault(algorithm, stem)
    return stem


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

    Capabilities: exact, and stem when the jar has a stemmer; two function-word
    lists (``meteor``, ``meteor-lang``); Meteor 1.5's ``-norm`` where the jar has one
    (cs, de, es, fr); no synonyms, lemmas, paraphrases or word vectors.

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
    _words: dict[str, frozenset[str]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

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
        """``("snowball",)``, for Czech too: it is the ``Params.stemmer`` value forms offer,
        and Czech never reaches :meth:`stem` since it has no ``stem`` module.
        ``("table",)`` for a lookup-table stemmer (Buckwalter Arabic)."""
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
        return _variant(self, kind)

    # -- function words -------------------------------------------------------------
    def _word_list(self) -> frozenset[str]:
        member = (
            METEOR_FUNCTION_WORDS_MEMBER
            if self.function_word_list == "meteor"
            else f"function/{self.meteor_name}.words"
        )
        words = self._words.get(member)
        if words is None:
            try:
                lines = jar_lines(member)
            except ResourceError as exc:
                raise ResourceError(
                    f"Meteor 1.5's function words ({member}) are read from the Meteor jar "
                    f"in pycocoevalcap: {PYCOCO_HINT}"
                ) from exc
            words = frozenset(line.lower() for line in lines)
            self._words[member] = words
        return words

    def is_function_word(self, word: str) -> bool:
        """``word.toLowerCase()`` in the selected list (lowercased even without ``-norm``)."""
        return word.lower() in self._word_list()

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
        return _cached_stemmer(self.algorithm)(word)

    # -- what the jar has only for English ---------------------------------------------
    def synonym_source(self) -> str:
        """No thesaurus: :meth:`synsets` is always empty (the base class's)."""
        return f"none (Meteor 1.5 has WordNet synonyms for English only, not {self.name})"

    def paraphrases(self) -> ParaphraseSource:
        """Always raises: pycocoevalcap ships ``paraphrase-en.gz`` only.

        Raises:
            ResourceError: as the jar's default for this language fails
                (``paraphrase-<code>.gz`` not found, ``wmt22_multi/README.md``).
        """
        raise ResourceError(
            f"Meteor 1.5's {self.name} paraphrase table (paraphrase-{self.meteor_code}.gz) "
            "is not distributed: pycocoevalcap ships the English table only"
        )


@functools.cache
def _variant(lang: SnowballLanguage, kind: str) -> SnowballLanguage:
    if kind == lang.function_word_list:
        return lang
    return SnowballLanguage(
        lang.code,
        lang.name,
        lang.meteor_code,
        lang.meteor_name,
        lang.algorithm,
        lang.meteor15,
        kind,  # type: ignore[arg-type]
    )


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
