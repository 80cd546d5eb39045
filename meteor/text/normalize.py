"""Meteor 1.5 text normalisation and tokenisation, with character offsets.

Reproduces what CMU Meteor 1.5 does to a line before aligning it
(``meteor-1.5.md`` sections 4-5):

* ``-norm``: ``Normalizer.normalizeLine`` (Normalizer.java:174-308), then
  ``String.toLowerCase()`` (``MeteorScorer.getMeteorStats``);
* ``-lower``: ``String.toLowerCase()`` only;
* neither: the line as it is.

Meteor then splits the line with ``java.util.StringTokenizer``, whose
delimiters are ``" \\t\\n\\r\\f"`` and nothing else (no NBSP, no U+2028).

Offsets: :func:`tokenize` first checks whether the tokens are simply the
characters of the text, lowercased, minus spaces (four segments in five).  If
not, it runs the same normaliser steps again (one code path, :func:`_run`)
while tracking, for every character of the working line, the span of the
original text it came from; a token's offsets are the hull of its characters'
spans.  So ``text[start:end]`` is the token's source: ``us`` spans ``U.S.``, a
``"`` made from ``''`` spans both quotes, ``-`` made from ``--`` both dashes.
A last validation pass keeps the offsets valid should that ever fail (it does
not on any input we know of).

The nonbreaking prefixes are read from the Meteor 1.5 jar inside
``pycocoevalcap`` (``nonbreaking/<language>.prefixes``) and parsed as
``Normalizer.nbpList`` does.  **Without
pycocoevalcap the prefix list is empty** (Java also continues with an empty
list when it cannot load the file): ``Mr. Smith`` then gives ``mr . smith``
instead of ``mr. smith``.  Install ``pycocoevalcap==1.2`` for exact parity.

Java details reproduced: regex ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]``, ``\\p{Digit}``
is ``[0-9]`` and ``\\p{Lower}`` is ``[a-z]`` (ASCII only); ``replaceAll`` matches
never overlap, context characters included (``a,b,c`` -> ``a , b,c``);
``String.trim()`` strips every character up to U+0020; ``toLowerCase`` uses
Java 17's Unicode 13 case table (the JVM of the reference runs).  Known
difference: under ``-lower`` only, Java decides the final sigma (``Σ`` -> ``ς``)
with a word ``BreakIterator``, Python with the Unicode context rule; they can
disagree inside Greek words.  Under ``-norm`` every Greek letter is a token of
its own, and the two agree.
"""

from __future__ import annotations

import functools
import re
import zipfile
from dataclasses import dataclass
from typing import Final, Literal

from meteor import resources
from meteor.errors import ResourceError
from meteor.types import Token

__all__ = ["NORM_LANGUAGES", "NormMode", "normalize_text", "sanitize", "tokenize"]

NormMode = Literal["meteor", "lower", "none"]

#: Languages Meteor 1.5 accepts ``-norm`` for (``Constants.isSupported``), with
#: the name of their nonbreaking-prefix file in the jar.  Czech is ``cs`` (ISO 639-1)
#: in the project and ``cz`` in the jar; both are accepted.
NORM_LANGUAGES: Final[dict[str, str]] = {
    "en": "english",
    "cs": "czech",
    "cz": "czech",
    "fr": "french",
    "es": "spanish",
    "de": "german",
    "ru": "russian",
}

# -- character classes (``alpha``/``alnum`` of Normalizer.java, checked in the jar) --

#: ``alpha``: ASCII letters, Š Ž š ž Ÿ, À-Ö Ø-ö ø-ž, and the Cyrillic blocks.
_ALPHA_RANGES: Final = (
    (0x41, 0x5A),
    (0x61, 0x7A),
    (0x160, 0x160),
    (0x17D, 0x17D),
    (0x161, 0x161),
    (0x17E, 0x17E),
    (0x178, 0x178),
    (0xC0, 0xD6),
    (0xD8, 0xF6),
    (0xF8, 0x17E),
    (0x400, 0x4FF),
    (0x500, 0x527),
    (0xA640, 0xA66E),
    (0xA67E, 0xA697),
    (0x1D00, 0x1D7F),
)
_ALPHA = "".join(chr(lo) if lo == hi else f"{chr(lo)}-{chr(hi)}" for lo, hi in _ALPHA_RANGES)
_ALNUM = "0-9" + _ALPHA
_ALPHA_SET: Final = frozenset(chr(c) for lo, hi in _ALPHA_RANGES for c in range(lo, hi + 1))
_DIGIT_SET: Final = frozenset("0123456789")
_ALNUM_SET: Final = _ALPHA_SET | _DIGIT_SET

#: ``java.util.regex`` ``\s`` (no UNICODE_CHARACTER_CLASS flag).
_JAVA_SPACE = " \t\n\x0b\f\r"
#: ``r_white`` (Normalizer.java) without U+0020: the other spaces it collapses.
_WIDE_SPACES = "\u00a0\u2000-\u200a\u202f\u205f\u3000"
#: ``String.trim()`` removes every character <= U+0020 at both ends.
_TRIM = "".join(map(chr, range(0x21)))

#: One ``StringTokenizer`` token (default delimiters " \t\n\r\f").
_WORD = re.compile(r"[^ \t\n\r\f]+")
#: Token delimiters and ``r_white`` spaces; a run of anything else.
_SEPARATORS = re.compile(f"[ \\t\\n\\r\\f{_WIDE_SPACES}]+")
_CHUNK = re.compile(f"[^ \\t\\n\\r\\f{_WIDE_SPACES}]+")
#: C0 controls other than TAB (what the reference harness replaces; see sanitize).
_C0 = re.compile(r"[\x00-\x08\x0a-\x1f]")
#: Capitals whose lowercase mapping arrived in Unicode 14 (Python 3.11's table);
#: Java 17 (Unicode 13) leaves them as they are.
_UNICODE14_CAPITALS = re.compile("[\u2c2f\ua7c0\ua7d0\ua7d6\ua7d8\U00010570-\U00010595]")

_NBP_ANY: Final = 1
_NBP_NUMERIC_ONLY: Final = 2


# -- the substitutions ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Rule:
    """A regex ``replaceAll`` or a literal ``String.replace`` of the normaliser.

    ``rx`` has a group ``c``, the core, replaced by ``repl`` (with ``keep``,
    the core stays and is wrapped in spaces); anything else it matches is
    context, consumed as in Java but copied unchanged.  ``literal`` marks a
    ``String.replace``, for which ``str.replace`` has the same left-to-right,
    non-overlapping semantics.
    """

    rx: re.Pattern[str]
    repl: str
    template: str
    keep: bool = False
    literal: str | None = None

    def fast(self, s: str) -> str:
        if self.literal is not None:
            return s.replace(self.literal, self.repl)
        return self.rx.sub(self.template, s)

    def cores(self, s: str) -> list[tuple[int, int]]:
        return [m.span("c") for m in self.rx.finditer(s)]


@dataclass(frozen=True, slots=True)
class _ContextRule:
    """``([pre])core([post])`` -> ``$1 repl $2`` with one-character context, scanned by hand.

    Same result as Java's ``replaceAll`` (the context characters are consumed,
    so ``a,b,c`` splits only the first comma), an order of magnitude faster
    than a regex whose first item is a character class.
    """

    core: str
    repl: str
    pre: frozenset[str]
    pre_in: bool
    post: frozenset[str]
    post_in: bool
    keep: bool = False

    def cores(self, s: str) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        pos = 0  # where Java's matcher resumes
        last = len(s) - 1
        c = s.find(self.core, 1)
        while c != -1 and c < last:
            if (
                c - 1 >= pos
                and (s[c - 1] in self.pre) is self.pre_in
                and (s[c + 1] in self.post) is self.post_in
            ):
                out.append((c, c + 1))
                pos = c + 2
            c = s.find(self.core, c + 1)
        return out

    def fast(self, s: str) -> str:
        cores = self.cores(s)
        if not cores:
            return s
        parts: list[str] = []
        last = 0
        for a, b in cores:
            parts.append(s[last:a])
            parts.append(self.repl)
            last = b
        parts.append(s[last:])
        return "".join(parts)


_Step = _Rule | _ContextRule


def _rule(core: str, repl: str, *, post: str = "", keep: bool = False) -> _Rule:
    pattern = f"(?P<c>{core})" + (f"(?P<q>{post})" if post else "")
    template = r" \g<c> " if keep else repl.replace("\\", "\\\\")
    return _Rule(re.compile(pattern), repl, template + (r"\g<q>" if post else ""), keep)


def _literal(old: str, new: str) -> _Rule:
    return _Rule(re.compile(f"(?P<c>{re.escape(old)})"), new, "", literal=old)


def _context(
    core: str, repl: str, pre: frozenset[str], post: frozenset[str], *, negate: str = ""
) -> _ContextRule:
    """``negate`` names the sides whose class is negated: "", "pre", "post" or "both"."""
    return _ContextRule(
        core, repl, pre, negate not in ("pre", "both"), post, negate not in ("post", "both")
    )


_DOT_ALNUM: Final = _ALNUM_SET | {"."}
_ALPHA_DIGIT: Final = _ALPHA_SET | _DIGIT_SET

# Step 1 (r_sep_other): space around everything but alnum, \s and . ' ` , - ‘ ’
_SEP_OTHER = _rule(f"[^{_ALNUM}{_JAVA_SPACE}.'`,\\-\u2018\u2019]", "", keep=True)
# Step 2 (r_multi_dot, r_multi_dot2, the literal replacements around them)
_MULTI_DOT = _rule(r"\.", " DOTMULTI", post=r"\.+")
_MULTI_DOT2 = _rule(r"DOTMULTI\.", "DOTDOTMULTI ", post=r"[^.]")
_MULTI_DOT3 = _literal("DOTMULTI.", "DOTDOTMULTI")
_UNESCAPE_DOTS = _literal("DOTDOTMULTI", "DOTMULTI.")
_UNESCAPE_DOTS2 = _literal("DOTMULTI", ".")
# Step 3 (r_comma, r_comma2, r_comma3): split commas unless digits on both sides
_COMMAS = (
    _context(",", " , ", _DIGIT_SET, _DIGIT_SET, negate="both"),
    _context(",", " , ", _DIGIT_SET, _DIGIT_SET, negate="post"),
    _context(",", " , ", _DIGIT_SET, _DIGIT_SET, negate="pre"),
)
# Step 4 (r_quote_norm, r_quote_norm2)
_QUOTE = _rule("[`\u2018\u2019]", "'")
_QUOTE2 = _rule("[\u201c\u201d]|''", ' " ')
# Step 5 (s_dash_norm*): en dash, then double hyphen
_DASH = _literal("\u2013", "-")
_DASH2 = _literal("--", "-")
# Step 6 (r_rm_dash): a dash between [alnum .] and [alnum] becomes a space
_RM_DASH = _context("-", " ", _DOT_ALNUM, _ALNUM_SET)
# Step 7 (r_cont_en*, r_cont_fr*, s_cont_other*)
_APOS_EN = (
    _context("'", " ' ", _ALPHA_SET, _ALPHA_SET, negate="both"),
    _context("'", " ' ", _ALPHA_DIGIT, _ALPHA_SET, negate="pre"),
    _context("'", " ' ", _ALPHA_SET, _ALPHA_SET, negate="post"),
    _context("'", " '", _ALPHA_SET, _ALPHA_SET),
    _context("'", " '", _DIGIT_SET, frozenset("s")),  # 1990's
)
_APOS_FR = (
    _context("'", " ' ", _ALPHA_SET, _ALPHA_SET, negate="both"),
    _context("'", " ' ", _ALPHA_SET, _ALPHA_SET, negate="pre"),
    _context("'", " ' ", _ALPHA_SET, _ALPHA_SET, negate="post"),
    _context("'", "' ", _ALPHA_SET, _ALPHA_SET),
)
_APOS_OTHER = (_literal("'", " ' "),)
# Step 8 (r_nbp1): a letter anywhere in the prefix
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
# Step 9 (r_punct_strip), step 10 (r_white; a lone U+0020 is left alone: same result)
_PUNCT_STRIP = re.compile(f"[^{_ALNUM}]")
_WHITE = _rule(f"[ {_WIDE_SPACES}]{{2,}}|[{_WIDE_SPACES}]", " ")
_WIDE_SPACE = re.compile(f"[{_WIDE_SPACES}]")


# -- the working line, with or without provenance -----------------------------


class _Line:
    """The working line, optionally with the source span of every character.

    ``st[i]``/``en[i]`` is the span of the original text that character ``i``
    came from.  A replacement takes the hull of the characters it replaces;
    inserted separators get a span too, but never end up inside a token.
    """

    __slots__ = ("en", "s", "st")

    def __init__(self, s: str, st: list[int] | None = None, en: list[int] | None = None) -> None:
        self.s = s
        self.st = st
        self.en = en

    def apply(self, rule: _Step) -> None:
        if self.st is None or self.en is None:
            self.s = rule.fast(self.s)
            return
        cores = rule.cores(self.s)
        if not cores:
            return
        s, st, en = self.s, self.st, self.en
        parts: list[str] = []
        nst: list[int] = []
        nen: list[int] = []
        last = 0
        for a, b in cores:
            parts.append(s[last:a])
            nst += st[last:a]
            nen += en[last:a]
            if rule.keep:
                parts.append(" " + s[a:b] + " ")
                nst += [st[a], *st[a:b], st[a]]
                nen += [st[a], *en[a:b], st[a]]
            else:
                lo, hi = min(st[a:b]), max(en[a:b])
                k = len(rule.repl)
                parts.append(rule.repl)
                nst += [lo] * k
                nen += [hi] * k
            last = b
        parts.append(s[last:])
        nst += st[last:]
        nen += en[last:]
        self.s = "".join(parts)
        self.st = nst
        self.en = nen

    def collapse_spaces(self) -> None:
        """``r_white``.  With provenance each wide space just becomes one space: same tokens."""
        if self.st is None:
            self.s = _WHITE.fast(self.s)
        else:
            self.s = _WIDE_SPACE.sub(" ", self.s)

    def strip_punct(self) -> None:
        """``r_punct_strip``: every non-alnum character becomes a space (one for one)."""
        self.s = _PUNCT_STRIP.sub(" ", self.s)

    def trim(self) -> None:
        """Java ``String.trim()``."""
        s = self.s
        t = s.strip(_TRIM)
        if len(t) == len(s):
            return
        if self.st is not None and self.en is not None:
            left = len(s) - len(s.lstrip(_TRIM))
            self.st = self.st[left : left + len(t)]
            self.en = self.en[left : left + len(t)]
        self.s = t

    def lower(self) -> None:
        """``String.toLowerCase()``; one character may become two (U+0130)."""
        s = self.s
        low = _java_lower(s)
        if len(low) != len(s) and self.st is not None and self.en is not None:
            nst: list[int] = []
            nen: list[int] = []
            for ch, a, b in zip(s, self.st, self.en, strict=True):
                k = len(_java_lower(ch))
                nst += [a] * k
                nen += [b] * k
            if len(nst) != len(low):  # pragma: no cover - only final sigma is contextual, 1:1
                nst = (nst + [nst[-1] if nst else 0] * len(low))[: len(low)]
                nen = (nen + [nen[-1] if nen else 0] * len(low))[: len(low)]
            self.st, self.en = nst, nen
        self.s = low


def _java_lower(s: str) -> str:
    """Java 17 ``String.toLowerCase()`` (Locale.US): ``str.lower`` minus the Unicode 14 pairs."""
    if _UNICODE14_CAPITALS.search(s) is None:
        return s.lower()
    caps = _UNICODE14_CAPITALS.findall(s)
    rest = _UNICODE14_CAPITALS.split(s)
    out = [rest[0].lower()]
    for cap, part in zip(caps, rest[1:], strict=True):
        out.append(cap)
        out.append(part.lower())
    return "".join(out)


# -- runs of dots in linear time --------------------------------------------------
#
# Java protects a run of k dots by looping ``while (line has "DOTMULTI.")`` over
# _MULTI_DOT2 and _MULTI_DOT3, then unescapes with ``while (line has "DOTDOTMULTI")``
# over _UNESCAPE_DOTS.  Each pass rescans the whole line and removes one dot (adds
# one DOT) per run, so a pasted run of 10,000 dots took minutes.  The two functions
# below give the same line -- and, with provenance, the same spans -- in one pass;
# tests/unit/test_fuzz.py checks them against the loops on random lines built from dots,
# the letters of DOTMULTI and spaces.

_DOT_RUN = re.compile(r"DOTMULTI(\.+)")
_ESCAPED_RUN = re.compile(r"(?:DOT)+MULTI")
_Span2 = tuple[int, int]


def _hull(st: list[int], en: list[int], a: int, b: int) -> _Span2:
    return min(st[a:b]), max(en[a:b])


def _splice(line: _Line, edits: list[tuple[int, int, str, list[_Span2] | None]]) -> None:
    """Replace ``line.s[a:b]`` by ``text`` (with the spans given) for sorted, disjoint edits."""
    s, st, en = line.s, line.st, line.en
    parts: list[str] = []
    nst: list[int] = []
    nen: list[int] = []
    last = 0
    for a, b, text, spans in edits:
        parts.append(s[last:a])
        parts.append(text)
        if st is not None and en is not None and spans is not None:
            nst += st[last:a]
            nen += en[last:a]
            nst += [x for x, _ in spans]
            nen += [y for _, y in spans]
        last = b
    parts.append(s[last:])
    line.s = "".join(parts)
    if st is not None and en is not None:
        line.st = nst + st[last:]
        line.en = nen + en[last:]


def _escape_dot_runs(line: _Line) -> None:
    """``while "DOTMULTI." in line: apply(_MULTI_DOT2); apply(_MULTI_DOT3)`` in one pass.

    Every ``DOTMULTI`` followed by m >= 1 dots loses one dot per pass (_MULTI_DOT3, or
    _MULTI_DOT2 when one dot and a non-dot remain, which also puts a space before that
    character): after m passes it is ``DOT``*m + ``DOTMULTI``, plus that space unless it
    is at the end of the line or its ``D`` was eaten in the first pass as the context
    character of a _MULTI_DOT2 match of a run ending right before it.  Pass t replaces
    the last ``DOTMULTI`` and the next dot by 11 characters spanning their hull H_t, so
    the spans are 3 characters of H_1, ..., H_(m-1), then 11 (or 12) of H_m.
    """
    s, st, en = line.s, line.st, line.en
    track = st is not None and en is not None
    edits: list[tuple[int, int, str, list[_Span2] | None]] = []
    prev_end = -1
    prev_first_pass_space = False
    for mt in _DOT_RUN.finditer(s):
        a, b = mt.span()
        m = b - a - 8
        blocked = m == 1 and a == prev_end and prev_first_pass_space
        space = b < len(s) and not blocked
        prev_end, prev_first_pass_space = b, m == 1 and space
        text = "DOT" * m + "DOTMULTI" + (" " if space else "")
        spans: list[_Span2] | None = None
        if track:
            assert st is not None and en is not None
            lo, hi = _hull(st, en, a, a + 9)
            spans = []
            for k in range(1, m):
                spans += [(lo, hi)] * 3
                lo, hi = min(lo, st[a + 8 + k]), max(hi, en[a + 8 + k])
            spans += [(lo, hi)] * (12 if space else 11)
        edits.append((a, b, text, spans))
    _splice(line, edits)


def _unescape_dot_runs(line: _Line) -> None:
    """``while "DOTDOTMULTI" in line: apply(_UNESCAPE_DOTS)``, then ``apply(_UNESCAPE_DOTS2)``.

    Each ``DOT``*p + ``MULTI`` becomes p dots.  Pass u replaces its last
    ``DOTDOTMULTI`` by ``DOTMULTI.`` spanning their hull K_u, so the dots span
    K_(p-1), K_(p-1), K_(p-2), ..., K_1 (one ``DOTMULTI``: the hull of its 8 characters).
    """
    s, st, en = line.s, line.st, line.en
    track = st is not None and en is not None
    edits: list[tuple[int, int, str, list[_Span2] | None]] = []
    for mt in _ESCAPED_RUN.finditer(s):
        a, b = mt.span()
        p = (b - a - 5) // 3
        spans: list[_Span2] | None = None
        if track:
            assert st is not None and en is not None
            if p == 1:
                spans = [_hull(st, en, a, b)]
            else:
                lo, hi = _hull(st, en, b - 11, b)
                ks = [(lo, hi)]
                for u in range(2, p):
                    x = b - 11 - 3 * (u - 1)
                    lo, hi = min(lo, *st[x : x + 3]), max(hi, *en[x : x + 3])
                    ks.append((lo, hi))
                spans = [ks[-1], *reversed(ks)]
        edits.append((a, b, "." * p, spans))
    _splice(line, edits)


# -- language tables ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _LangSpec:
    apostrophes: tuple[_Step, ...]
    prefixes: dict[str, int]


def _parse_prefixes(lines: tuple[str, ...]) -> dict[str, int]:
    """Parse a nonbreaking-prefix file as ``Normalizer.nbpList`` does.

    The first whitespace-separated field is the prefix; a first field starting
    with ``#`` makes a comment; a second field ``#NUMERIC_ONLY#`` makes the
    prefix nonbreaking only before a number.  Later duplicates win (Hashtable.put).
    """
    table: dict[str, int] = {}
    for line in lines:
        fields = _WORD.findall(line)
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
        apostrophes: tuple[_Step, ...] = _APOS_EN
    elif lang == "fr":
        apostrophes = _APOS_FR
    else:
        apostrophes = _APOS_OTHER
    return _LangSpec(apostrophes, prefixes)


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


def _rebuild(line: _Line, prefixes: dict[str, int]) -> None:
    """Step 8: split into words and settle every word-final dot (the ``nbp`` loop of normalizeLine).

    Java rebuilds the line as ``word + " "`` for every word.  With provenance the
    words are edited in place instead: only the separators differ (tabs, double
    spaces), and no later step or the final split can tell.
    """
    s = line.s
    ost, oen = line.st, line.en
    if ost is None or oen is None:
        words = _WORD.findall(s)
        n = len(words)
        for i, w in enumerate(words):
            if len(w) > 1 and w[-1] == ".":
                action = _dot_action(w, words[i + 1] if i + 1 < n else "", prefixes)
                if action == _DROP_DOTS:
                    words[i] = w.replace(".", "")
                elif action == _SPLIT_DOT:
                    words[i] = w[:-1] + " ."
        line.s = " ".join(words) + " "
        return
    spans = [m.span() for m in _WORD.finditer(s)]
    parts: list[str] = []
    nst: list[int] = []
    nen: list[int] = []
    last = 0
    for i, (a, b) in enumerate(spans):
        if b - a < 2 or s[b - 1] != ".":
            continue
        nxt = s[spans[i + 1][0] : spans[i + 1][1]] if i + 1 < len(spans) else ""
        action = _dot_action(s[a:b], nxt, prefixes)
        if action == _KEEP:
            continue
        parts.append(s[last:a])
        nst += ost[last:a]
        nen += oen[last:a]
        w, wst, wen = s[a:b], ost[a:b], oen[a:b]
        if action == _DROP_DOTS:
            w, wst, wen = _drop_dots(w, wst, wen)
        else:  # pre + " ." : the dot keeps its own span
            w = w[:-1] + " ."
            wst = [*wst[:-1], wst[-1], wst[-1]]
            wen = [*wen[:-1], wst[-1], wen[-1]]
        parts.append(w)
        nst += wst
        nen += wen
        last = b
    if parts:
        parts.append(s[last:])
        nst += ost[last:]
        nen += oen[last:]
        line.s = "".join(parts)
        line.st, line.en = nst, nen


def _drop_dots(w: str, wst: list[int], wen: list[int]) -> tuple[str, list[int], list[int]]:
    """``w`` without its dots; a dropped dot's span joins the character before it."""
    kst: list[int] = []
    ken: list[int] = []
    lead: int | None = None  # span start of dots before the first kept character
    for ch, a, b in zip(w, wst, wen, strict=True):
        if ch == ".":
            if ken:
                ken[-1] = max(ken[-1], b)
            elif lead is None:
                lead = a
            continue
        if lead is not None:
            a, lead = min(a, lead), None
        kst.append(a)
        ken.append(b)
    return w.replace(".", ""), kst, ken


def _run(line: _Line, lang: str, no_punct: bool) -> None:
    """``Normalizer.normalizeLine`` (Normalizer.java:174-308) and ``toLowerCase``, in place.

    ``line`` must already be wrapped in one space on each side.  The ``in``
    tests only skip steps that could not change anything.
    """
    spec = _lang_spec(lang)
    # 1. separate every character that is not alnum, \s or . ' ` , - ‘ ’
    line.apply(_SEP_OTHER)
    # 2. protect runs of dots
    if ".." in line.s:
        line.apply(_MULTI_DOT)
    if "DOTMULTI." in line.s:
        _escape_dot_runs(line)  # Java's while loop over _MULTI_DOT2/_MULTI_DOT3, in one pass
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
        _unescape_dot_runs(line)  # the while loop over _UNESCAPE_DOTS, then _UNESCAPE_DOTS2
    if no_punct:
        line.strip_punct()
    # 10. collapse the spaces and trim
    line.collapse_spaces()
    line.trim()
    # then MeteorScorer lowercases the normalised line
    line.lower()


# -- public API ---------------------------------------------------------------


def sanitize(text: str) -> tuple[str, bool]:
    """Replace C0 control characters other than TAB by spaces, one for one.

    Meteor 1.5 reads one segment per line (``BufferedReader.readLine``), so a
    ``\\n`` or ``\\r`` inside a segment would split it.  The reference harness
    (``tools/meteor15/meteor15.py``, ``sanitize``) therefore replaces every C0
    control by a space before running Java, and flags the segment
    ``sanitized``; this does the same.  TAB is kept: it separates tokens
    either way.  DEL and the C1 controls (U+007F-U+009F) are kept, as Java and
    the harness keep them: they become tokens of their own (the mojibake
    ``\\x80`` and ``\\x94`` in two TED sk-en references are tokens in Meteor's
    output).  The length never changes, so offsets into the result are offsets
    into ``text``.

    Returns:
        ``(clean, changed)``.
    """
    clean = _C0.sub(" ", text)
    return clean, clean != text


def normalize_text(text: str, lang: str = "en", *, no_punct: bool = False) -> str:
    """The line Meteor 1.5 aligns under ``-norm``: ``normalizeLine``, then ``toLowerCase``.

    Reproduces ``Normalizer.normalizeLine(line, lang, !noPunct)``
    (Normalizer.java:174-308; ``meteor-1.5.md`` section 4) followed by
    ``String.toLowerCase()`` (``MeteorScorer.getMeteorStats``).  Its tokens are
    this string split on spaces.

    Args:
        text: one segment (not sanitised here; see :func:`sanitize`).
        lang: ``en``, ``cs`` (or the jar's ``cz``), ``fr``, ``es``, ``de`` or ``ru``.  Apostrophes split
            to the right in English (``don 't``), to the left in French
            (``l' homme``) and on both sides elsewhere.
        no_punct: Meteor's ``-noPunct``: every non-alphanumeric character is dropped.

    Raises:
        ValueError: for a language Meteor 1.5 has no normaliser for.
    """
    line = _Line(" " + text + " ")
    _run(line, lang, no_punct)
    return line.s


def tokenize(
    text: str, lang: str = "en", mode: NormMode = "meteor", *, no_punct: bool = False
) -> tuple[Token, ...]:
    """Meteor 1.5's tokens of ``text``, with character offsets into ``text``.

    ``mode`` selects the Java flags: ``"meteor"`` is ``-norm`` (normalise, then
    lowercase; :func:`normalize_text`), ``"lower"`` is ``-lower`` (lowercase
    only) and ``"none"`` leaves the text as it is.  Tokens are then split on
    ``" \\t\\n\\r\\f"`` only, as ``java.util.StringTokenizer`` does.

    ``text[t.start:t.end]`` is where token ``t`` came from: ``us`` from
    ``U.S.``, ``don``/``'t`` from ``don't``, ``"`` from ``“``.  Offsets are
    non-decreasing, never overlap and never empty.  No input string makes it
    raise.

    Args:
        text: one segment; :func:`sanitize` it first to match the reference harness.
        lang: language of the normaliser (used by ``"meteor"`` only).
        mode: ``"meteor"``, ``"lower"`` or ``"none"``.
        no_punct: Meteor's ``-noPunct`` (with ``"meteor"`` only, as in Java).

    Raises:
        ValueError: for an unknown ``mode``, or ``"meteor"`` with an unsupported ``lang``.
    """
    if mode == "none":
        return tuple(Token(m.group(), m.start(), m.end()) for m in _WORD.finditer(text))
    if mode == "lower":
        return tuple(
            Token(_java_lower(m.group()), m.start(), m.end()) for m in _WORD.finditer(text)
        )
    if mode != "meteor":
        raise ValueError(f"mode must be 'meteor', 'lower' or 'none', got {mode!r}")
    words = _WORD.findall(normalize_text(text, lang, no_punct=no_punct))
    spans = _verbatim_spans(text, words)
    if spans is None:
        return _tracked_tokens(text, lang, no_punct)
    return tuple(Token(w, a, b) for w, (a, b) in zip(words, spans, strict=True))


def _verbatim_spans(text: str, words: list[str]) -> list[tuple[int, int]] | None:
    """Offsets when the tokens are the text's characters, lowercased, minus spaces.

    Then every token character is the text character at the same place (the
    normaliser never moves characters), so the offsets are exact.  ``None``
    otherwise (quotes, dashes, ``U.S.``, dropped characters).
    """
    low = _java_lower(text)
    if len(low) != len(text) or _SEPARATORS.sub("", low) != "".join(words):
        return None
    spans: list[tuple[int, int]] = []
    chunks = _CHUNK.finditer(low)
    pos = end = 0
    for w in words:
        if pos == end:
            pos, end = next(chunks).span()
        nxt = pos + len(w)
        if nxt > end:  # a token across a space: never made by Meteor; track instead
            return None
        spans.append((pos, nxt))
        pos = nxt
    return spans


def _tracked_tokens(text: str, lang: str, no_punct: bool) -> tuple[Token, ...]:
    """Tokens with offsets from the normaliser run with per-character provenance."""
    n = len(text)
    st = list(range(-1, n + 1))  # the wrapping spaces get empty spans at 0 and n
    en = list(range(n + 2))
    st[0], en[-1] = 0, n
    line = _Line(" " + text + " ", st, en)
    _run(line, lang, no_punct)
    s, st, en = line.s, line.st or [], line.en or []
    # spans grow left to right along a line, so a token's hull is first start, last end
    out = [(m.group(), st[m.start()], en[m.end() - 1]) for m in _WORD.finditer(s)]
    return tuple(Token(t, a, b) for t, a, b in _valid_spans(out, n))


def _valid_spans(toks: list[tuple[str, int, int]], n: int) -> list[tuple[str, int, int]]:
    """Make spans non-empty, ordered and disjoint within ``[0, n]``.

    Tracked spans already are (every token keeps source characters of its own);
    this safety net keeps the promise should they not be: a bad span is clamped
    between its neighbours, leaving one character for every later token.
    """
    prev = 0
    for _, a, b in toks:
        if not prev <= a < b <= n:
            break
        prev = b
    else:
        return toks
    out: list[tuple[str, int, int]] = []
    prev = 0
    k = len(toks)
    for i, (t, a, b) in enumerate(toks):
        room = max(n - (k - 1 - i), prev + 1)  # last end leaving a character per later token
        a = min(max(a, prev), room - 1)
        b = min(max(b, a + 1), room)
        out.append((t, a, b))
        prev = b
    return out
