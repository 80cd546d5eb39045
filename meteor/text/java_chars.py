"""The character classes of Meteor 1.5's normaliser and of Java's tokenizer.

``alpha``/``alnum`` of ``Normalizer.java`` (checked in the jar), ``java.util.regex``'s
``\\s``, the other spaces ``r_white`` collapses, ``StringTokenizer``'s tokens and
delimiters, and where ``BufferedReader.readLine`` ends a line.  Used by
:mod:`meteor.text.normalize` (the rules) and :mod:`meteor.text.offsets` (the tokens'
offsets).
"""

from __future__ import annotations

import re
from typing import Final

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
ALPHA = "".join(chr(lo) if lo == hi else f"{chr(lo)}-{chr(hi)}" for lo, hi in _ALPHA_RANGES)
ALNUM = "0-9" + ALPHA
ALPHA_SET: Final = frozenset(chr(c) for lo, hi in _ALPHA_RANGES for c in range(lo, hi + 1))
DIGIT_SET: Final = frozenset("0123456789")
ALNUM_SET: Final = ALPHA_SET | DIGIT_SET

#: ``java.util.regex`` ``\s`` (no UNICODE_CHARACTER_CLASS flag).
JAVA_SPACE = " \t\n\x0b\f\r"
#: ``r_white`` (Normalizer.java) without U+0020: the other spaces it collapses.
WIDE_SPACES = "\u00a0\u2000-\u200a\u202f\u205f\u3000"

#: One ``StringTokenizer`` token (default delimiters " \t\n\r\f").
WORD = re.compile(r"[^ \t\n\r\f]+")
#: Token delimiters and ``r_white`` spaces; a run of anything else.
SEPARATORS = re.compile(f"[ \\t\\n\\r\\f{WIDE_SPACES}]+")
CHUNK = re.compile(f"[^ \\t\\n\\r\\f{WIDE_SPACES}]+")
#: C0 controls other than TAB (what the reference harness replaces; see sanitize).
C0 = re.compile(r"[\x00-\x08\x0a-\x1f]")
#: Where Java's ``BufferedReader.readLine`` ends a line: ``\r`` and ``\n`` (see jar_line).
READLINE_BREAK = re.compile(r"[\r\n]")
