"""Meteor 1.5 text normalisation and tokenisation, with character offsets.

Reproduces what CMU Meteor 1.5 does to a line before aligning it
(``meteor-1.5.md`` sections 4-5):

* ``-norm``: ``Normalizer.normalizeLine`` (Normalizer.java:174-308), then
  ``String.toLowerCase()`` (``MeteorScorer.getMeteorStats``);
* ``-lower``: ``String.toLowerCase()`` only;
* neither: the line as it is.

Meteor then splits the line with ``java.util.StringTokenizer``, whose
delimiters are ``" \\t\\n\\r\\f"`` and nothing else (no NBSP, no U+2028).

Offsets: when the tokens are not simply the text's characters lowercased minus
spaces, :func:`tokenize` runs the same steps (:func:`_run`) tracking for every
character the span of the original text it came from; a token's offsets are the
hull of its characters' spans (``us`` spans ``U.S.``).

The nonbreaking prefixes are read from the Meteor 1.5 jar inside ``pycocoevalcap``
(``nonbreaking/<language>.prefixes``, parsed as ``Normalizer.nbpList``).  **Without
pycocoevalcap the prefix list is empty** (as Java when it cannot load the file):
``Mr. Smith`` then gives ``mr . smith``.

Java details reproduced: regex ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]``, ``\\p{Digit}``
is ``[0-9]`` and ``\\p{Lower}`` is ``[a-z]`` (ASCII only); ``replaceAll`` matches
never overlap, context characters included (``a,b,c`` -> ``a , b,c``);
``String.trim()`` strips every character up to U+0020; ``toLowerCase`` uses
Java 17's Unicode 13 case table (the JVM of the reference runs).  Known
difference: under ``-lower`` only, Java decides the final sigma (``Σ`` -> ``ς``)
with a word ``BreakIterator``, Python with the Unicode context rule; they can
disagree inside Greek words.  Under ``-norm`` every Greek letter is a token of
its own, and the two agree.

With ``meteor_native`` installed and ``METEOR_PURE_PYTHON`` unset, the normaliser
(:data:`NATIVE_NORMALIZE`) and the tokens (:mod:`meteor.text.records`) are built in C,
with the same results.  The working line with provenance is
:mod:`meteor.text.tracked_line`, the runs of dots :mod:`meteor.text.dot_runs`.
"""

from __future__ import annotations

import functools
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from sys import intern
from typing import Final, Literal

from meteor import resources
from meteor.errors import ResourceError
from meteor.runtime import compiled
from meteor.text import records
from meteor.text.dot_runs import MULTI_DOT, escape_dot_runs, unescape_dot_runs
from meteor.text.java_chars import (
    ALNUM,
    ALNUM_SET,
    ALPHA,
    ALPHA_SET,
    C0,
    DIGIT_SET,
    JAVA_SPACE,
    READLINE_BREAK,
    WIDE_SPACES,
    WORD,
)
from meteor.text.offsets import valid_spans, verbatim_spans
from meteor.text.tracked_line import (
    Line,
    Span2,
    Step,
    context,
    java_lower,
    literal,
    rule,
    splice,
)
from meteor.types import Token

__all__ = ["NORM_LANGUAGES", "NormMode", "jar_line", "normalize_text", "sanitize", "tokenize"]

NormMode = Literal["meteor", "lower", "none"]

#: Languages Meteor 1.5 accepts ``-norm`` for (``Constants.isSupported``), with
#: the name of their nonbreaking-prefix file in the jar (Czech: ``cs`` or the jar's ``cz``).
NORM_LANGUAGES: Final[dict[str, str]] = {
    "en": "english",
    "cs": "czech",
    "cz": "czech",
    "fr": "french",
    "es": "spanish",
    "de": "german",
    "ru": "russian",
}

_NBP_ANY: Final = 1
_NBP_NUMERIC_ONLY: Final = 2


def _native_normalize() -> Callable[[str, int, dict[str, int], bool], str] | None:
    """``meteor_native._normalize.normalize_line`` (:func:`_run` without provenance in C,
    the line before lowercasing), or ``None``."""
    part = compiled("_normalize")
    return None if part is None else part.normalize_line  # type: ignore[no-any-return]


NATIVE_NORMALIZE = _native_normalize()


# -- the substitutions ----------------------------------------------------------


_DOT_ALNUM: Final = ALNUM_SET | {"."}
_ALPHA_DIGIT: Final = ALPHA_SET | DIGIT_SET

# Step 1 (r_sep_other): space around everything but alnum, \s and . ' ` , - ‘ ’
_SEP_OTHER = rule(f"[^{ALNUM}{JAVA_SPACE}.'`,\\-\u2018\u2019]", "", keep=True)
# Step 2 (r_multi_dot, r_multi_dot2, the literal replacements around them): meteor.text.dot_runs
# Step 3 (r_comma, r_comma2, r_comma3): split commas unless digits on both sides
_COMMAS = (
    context(",", " , ", DIGIT_SET, DIGIT_SET, negate="both"),
    context(",", " , ", DIGIT_SET, DIGIT_SET, negate="post"),
    context(",", " , ", DIGIT_SET, DIGIT_SET, negate="pre"),
)
# Step 4 (r_quote_norm, r_quote_norm2)
_QUOTE = rule("[`\u2018\u2019]", "'")
_QUOTE2 = rule("[\u201c\u201d]|''", ' " ')
# Step 5 (s_dash_norm*): en dash, then double hyphen
_DASH = literal("\u2013", "-")
_DASH2 = literal("--", "-")
# Step 6 (r_rm_dash): a dash between [alnum .] and [alnum] becomes a space
_RM_DASH = context("-", " ", _DOT_ALNUM, ALNUM_SET)
# Step 7 (r_cont_en*, r_cont_fr*, s_cont_other*)
_APOS_EN = (
    context("'", " ' ", ALPHA_SET, ALPHA_SET, negate="both"),
    context("'", " ' ", _ALPHA_DIGIT, ALPHA_SET, negate="pre"),
    context("'", " ' ", ALPHA_SET, ALPHA_SET, negate="post"),
    context("'", " '", ALPHA_SET, ALPHA_SET),
    context("'", " '", DIGIT_SET, frozenset("s")),  # 1990's
)
_APOS_FR = (
    context("'", " ' ", ALPHA_SET, ALPHA_SET, negate="both"),
    context("'", " ' ", ALPHA_SET, ALPHA_SET, negate="pre"),
    context("'", " ' ", ALPHA_SET, ALPHA_SET, negate="post"),
    context("'", "' ", ALPHA_SET, ALPHA_SET),
)
_APOS_OTHER = (literal("'", " ' "),)
# Step 8 (r_nbp1): a letter anywhere in the prefix
_HAS_ALPHA = re.compile(f"[{ALPHA}]")
# Step 9 (r_punct_strip), step 10 (r_white; a lone U+0020 is left alone: same result)
_PUNCT_STRIP = re.compile(f"[^{ALNUM}]")
_WHITE = rule(f"[ {WIDE_SPACES}]{{2,}}|[{WIDE_SPACES}]", " ")
_WIDE_SPACE = re.compile(f"[{WIDE_SPACES}]")


# -- language tables ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _LangSpec:
    apostrophes: tuple[Step, ...]
    prefixes: dict[str, int]
    #: The apostrophe rules for the C normaliser: 0 English, 1 French, 2 the others.
    native_lang: int = 2


def _parse_prefixes(lines: tuple[str, ...]) -> dict[str, int]:
    """Parse a nonbreaking-prefix file as ``Normalizer.nbpList`` does: the first field is
    the prefix (``#…``: a comment), a second field ``#NUMERIC_ONLY#`` makes it nonbreaking
    only before a number; later duplicates win (Hashtable.put)."""
    table: dict[str, int] = {}
    for line in lines:
        fields = WORD.findall(line)
        if not fields or fields[0].startswith("#"):
            continue
        numeric = len(fields) > 1 and fields[1] == "#NUMERIC_ONLY#"
        table[fields[0]] = _NBP_NUMERIC_ONLY if numeric else _NBP_ANY
    return table


@functools.cache
def _lang_spec(lang: str) -> _LangSpec:
    name = NORM_LANGUAGES.get(lang)
    if name is None:
        raise ValueError(
            f"Meteor 1.5 has no normaliser for language {lang!r} (-norm supports "
            f"{', '.join(NORM_LANGUAGES)}); use norm='lower' or 'none'"
        )
    try:
        prefixes = _parse_prefixes(resources.jar_lines(f"nonbreaking/{name}.prefixes"))
    except (ResourceError, OSError, zipfile.BadZipFile, UnicodeDecodeError):
        prefixes = {}  # as Java when the list cannot be loaded
    if lang == "en":
        return _LangSpec(_APOS_EN, prefixes, 0)
    if lang == "fr":
        return _LangSpec(_APOS_FR, prefixes, 1)
    return _LangSpec(_APOS_OTHER, prefixes, 2)


# -- the normaliser -----------------------------------------------------------

_KEEP, _DROP_DOTS, _SPLIT_DOT = 0, 1, 2


def _dot_action(w: str, nxt: str, prefixes: dict[str, int]) -> int:
    """What step 8 does with a word ending in a dot; ``nxt`` is the next word ("" at the end).

    The ``r_nbp*`` branch of ``normalizeLine``: a dotted word with a letter loses all its dots
    (``U.S.`` -> ``US``); a nonbreaking prefix, or any word followed by one
    starting with ``[a-z]``, keeps its dot; a ``#NUMERIC_ONLY#`` prefix keeps it
    before ``[0-9]``; any other word has its dot split off.
    """
    pre = w[:-1]
    if "." in pre and _HAS_ALPHA.search(pre):
        return _DROP_DOTS
    kind = prefixes.get(pre)
    first = nxt[:1]
    if kind == _NBP_ANY or "a" <= first <= "z":
        return _KEEP
    if kind == _NBP_NUMERIC_ONLY and "0" <= first <= "9":
        return _KEEP
    return _SPLIT_DOT


def _rebuild(line: Line, prefixes: dict[str, int]) -> None:
    """Step 8: split into words and settle every word-final dot (the ``nbp`` loop of normalizeLine).

    Java rebuilds the line as ``word + " "``; with provenance the words are edited in
    place instead (only the separators differ, which nothing later can tell).
    """
    s = line.s
    ost, oen = line.st, line.en
    if ost is None or oen is None:
        words = WORD.findall(s)
        n = len(words)
        # in order, so words[i + 1] is still the word as it came
        for i in [k for k, w in enumerate(words) if len(w) > 1 and w[-1] == "."]:
            w = words[i]
            action = _dot_action(w, words[i + 1] if i + 1 < n else "", prefixes)
            if action == _DROP_DOTS:
                words[i] = w.replace(".", "")
            elif action == _SPLIT_DOT:
                words[i] = w[:-1] + " ."
        line.s = " ".join(words) + " "
        return
    spans = [m.span() for m in WORD.finditer(s)]
    edits: list[tuple[int, int, str, list[Span2] | None]] = []
    for i, (a, b) in enumerate(spans):
        if b - a < 2 or s[b - 1] != ".":
            continue
        nxt = s[spans[i + 1][0] : spans[i + 1][1]] if i + 1 < len(spans) else ""
        action = _dot_action(s[a:b], nxt, prefixes)
        if action == _DROP_DOTS:
            edits.append((a, b, s[a:b].replace(".", ""), _kept_spans(s[a:b], ost[a:b], oen[a:b])))
        elif action == _SPLIT_DOT:  # pre + " ." : the dot keeps its own span
            dot = (ost[b - 1], oen[b - 1])
            kept = zip(ost[a : b - 1], oen[a : b - 1], strict=True)
            split = [*kept, (dot[0], dot[0]), dot]
            edits.append((a, b, s[a : b - 1] + " .", split))
    if edits:
        splice(line, edits)


def _kept_spans(w: str, wst: list[int], wen: list[int]) -> list[Span2]:
    """The spans of ``w``'s characters but its dots; a dropped dot's span joins the
    character before it."""
    kept: list[Span2] = []
    lead: int | None = None  # span start of dots before the first kept character
    for ch, a, b in zip(w, wst, wen, strict=True):
        if ch == ".":
            if kept:
                kept[-1] = (kept[-1][0], max(kept[-1][1], b))
            elif lead is None:
                lead = a
            continue
        if lead is not None:
            a, lead = min(a, lead), None
        kept.append((a, b))
    return kept


def _run(line: Line, lang: str, no_punct: bool) -> None:
    """``Normalizer.normalizeLine`` (Normalizer.java:174-308) and ``toLowerCase``, in place.

    ``line`` must already be wrapped in one space on each side.  The ``in``
    tests only skip steps that could not change anything.
    """
    spec = _lang_spec(lang)
    # 1. separate every character that is not alnum, \s or . ' ` , - ‘ ’
    line.apply(_SEP_OTHER)
    # 2. protect runs of dots
    if ".." in line.s:
        line.apply(MULTI_DOT)
    if "DOTMULTI." in line.s:
        escape_dot_runs(line)  # Java's while loop over _MULTI_DOT2/_MULTI_DOT3, in one pass
    # 3. commas, unless between two digits
    if "," in line.s:
        for comma in _COMMAS:
            line.apply(comma)
    # 4. quotes
    s = line.s
    if "`" in s or "\u2018" in s or "\u2019" in s:
        line.apply(_QUOTE)
    s = line.s
    if "\u201c" in s or "\u201d" in s or "''" in s:
        line.apply(_QUOTE2)
    # 5. dashes
    if "\u2013" in line.s:
        line.apply(_DASH)
    if "--" in line.s:
        line.apply(_DASH2)
    # 6. a dash between words becomes a space
    if "-" in line.s:
        line.apply(_RM_DASH)
    # 7. apostrophes
    if "'" in line.s:
        for apostrophe in spec.apostrophes:
            line.apply(apostrophe)
    # 8. word-final dots and nonbreaking prefixes
    _rebuild(line, spec.prefixes)
    # 9. restore the dot runs; drop punctuation on request
    if "DOTMULTI" in line.s:
        unescape_dot_runs(line)  # the while loop over _UNESCAPE_DOTS, then _UNESCAPE_DOTS2
    if no_punct:  # r_punct_strip: every non-alnum character becomes a space (one for one)
        line.s = _PUNCT_STRIP.sub(" ", line.s)
    # 10. collapse the spaces (r_white; with provenance each wide space just becomes one
    # space: same tokens) and trim
    line.s = _WHITE.fast(line.s) if line.st is None else _WIDE_SPACE.sub(" ", line.s)
    line.trim()
    # then MeteorScorer lowercases the normalised line
    line.lower()


# -- public API ---------------------------------------------------------------


def jar_line(text: str) -> str:
    """``text`` as the jar reads it from a file: one line, every other character kept.

    What the Meteor 1.5 presets score.  Java's ``BufferedReader.readLine`` ends a
    line at ``\\r`` and ``\\n`` only, so those two become spaces, one for one; every
    other control character reaches the normaliser as it does in ``java -jar
    meteor-1.5.jar hyp ref -norm`` run on files (``tests/unit/test_edges_bytes.py``).
    The length never changes, so offsets into the result are offsets into ``text``.
    """
    return READLINE_BREAK.sub(" ", text) if "\r" in text or "\n" in text else text


def sanitize(text: str) -> tuple[str, bool]:
    """Replace C0 control characters other than TAB by spaces, one for one.

    What the presets that are not Meteor 1.5's score (those score :func:`jar_line`), as
    the reference harness (``tools/meteor15/meteor15.py``, ``sanitize``) does before
    running Java.  DEL and the C1 controls are kept, as Java and the harness keep them.
    The length never changes, so offsets into the result are offsets into ``text``.

    Returns:
        ``(clean, changed)``.
    """
    clean = C0.sub(" ", text)
    return clean, clean != text


def normalize_text(text: str, lang: str = "en", *, no_punct: bool = False) -> str:
    """The line Meteor 1.5 aligns under ``-norm``: ``normalizeLine``, then ``toLowerCase``.

    Reproduces ``Normalizer.normalizeLine(line, lang, !noPunct)`` (Normalizer.java:174-308)
    and ``String.toLowerCase()`` (``MeteorScorer.getMeteorStats``).

    Args:
        text: one segment (not sanitised here; see :func:`sanitize`).
        lang: ``en``, ``cs`` (or the jar's ``cz``), ``fr``, ``es``, ``de`` or ``ru``.  Apostrophes split
            to the right in English (``don 't``), to the left in French
            (``l' homme``) and on both sides elsewhere.
        no_punct: Meteor's ``-noPunct``: every non-alphanumeric character is dropped.

    Raises:
        ValueError: for a language Meteor 1.5 has no normaliser for.
    """
    if NATIVE_NORMALIZE is not None:
        spec = _lang_spec(lang)
        return java_lower(NATIVE_NORMALIZE(text, spec.native_lang, spec.prefixes, no_punct))
    line = Line(" " + text + " ")
    _run(line, lang, no_punct)
    return line.s


def tokenize(
    text: str,
    lang: str = "en",
    mode: NormMode = "meteor",
    *,
    no_punct: bool = False,
    function_word: Callable[[str], bool] | None = None,
) -> tuple[Token, ...]:
    """Meteor 1.5's tokens of ``text``, with character offsets into ``text``.

    ``mode`` selects the Java flags: ``"meteor"`` is ``-norm`` (normalise, then
    lowercase; :func:`normalize_text`), ``"lower"`` is ``-lower`` (lowercase
    only) and ``"none"`` leaves the text as it is.  Tokens are then split on
    ``" \\t\\n\\r\\f"`` only, as ``java.util.StringTokenizer`` does.

    ``text[t.start:t.end]`` is where token ``t`` came from (``us`` from ``U.S.``).
    Offsets are non-decreasing, never overlap and never empty.

    Args:
        text: one segment; :func:`sanitize` it first to match the reference harness.
        lang: language of the normaliser (used by ``"meteor"`` only).
        mode: ``"meteor"``, ``"lower"`` or ``"none"``.
        no_punct: Meteor's ``-noPunct`` (with ``"meteor"`` only, as in Java).
        function_word: sets each token's ``function_word`` from its text (default: all
            ``False``), so that a scorer builds each token once.

    Raises:
        ValueError: for an unknown ``mode``, or ``"meteor"`` with an unsupported ``lang``.
    """
    fw = _never if function_word is None else function_word
    if mode in ("none", "lower"):
        case = java_lower if mode == "lower" else str
        return tuple(
            Token(w, m.start(), m.end(), fw(w))
            for m in WORD.finditer(text)
            for w in (case(m.group()),)
        )
    if mode != "meteor":
        raise ValueError(f"mode must be 'meteor', 'lower' or 'none', got {mode!r}")
    line = normalize_text(text, lang, no_punct=no_punct)
    if records.NATIVE_TOKENS is not None:  # the words, verbatim_spans and the records, in C
        low = java_lower(text)
        toks = (
            records.line_tokens(low, line, function_word, None if no_punct else text)
            if len(low) == len(text)
            else None
        )
        if toks is not None:
            return toks
    else:
        # one string per distinct word: a corpus run keeps every segment's tokens
        words = list(map(intern, WORD.findall(line)))
        spans = verbatim_spans(text, words)
        if spans is not None:
            return records.build(words, spans[0], spans[1], function_word)
    tracked = _tracked_tokens(text, lang, no_punct)
    return records.build(
        [t for t, _, _ in tracked],
        [a for _, a, _ in tracked],
        [b for _, _, b in tracked],
        function_word,
    )


def _never(word: str) -> bool:
    return False


def _tracked_tokens(text: str, lang: str, no_punct: bool) -> list[tuple[str, int, int]]:
    """``(token, start, end)`` from the normaliser run with per-character provenance."""
    n = len(text)
    st = list(range(-1, n + 1))  # the wrapping spaces get empty spans at 0 and n
    en = list(range(n + 2))
    st[0], en[-1] = 0, n
    line = Line(" " + text + " ", st, en)
    _run(line, lang, no_punct)
    s, st, en = line.s, line.st or [], line.en or []
    # spans grow left to right along a line, so a token's hull is first start, last end
    out = [(m.group(), st[m.start()], en[m.end() - 1]) for m in WORD.finditer(s)]
    return valid_spans(out, n)
