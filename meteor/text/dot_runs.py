"""Runs of dots in the Meteor 1.5 normaliser, in linear time (step 2 and step 9).

Java protects a run of k dots by looping ``while (line has "DOTMULTI.")`` over
:data:`MULTI_DOT2` and :data:`MULTI_DOT3`, then unescapes with ``while (line has
"DOTDOTMULTI")`` over :data:`UNESCAPE_DOTS`: one pass per dot, quadratic.
:func:`escape_dot_runs` and :func:`unescape_dot_runs` give the same line and spans in
one pass (tests/unit/test_fuzz.py checks them against the loops).
"""

from __future__ import annotations

import re

from meteor.text.tracked_line import Line, Span2, literal, rule, splice

__all__ = [
    "MULTI_DOT",
    "MULTI_DOT2",
    "MULTI_DOT3",
    "UNESCAPE_DOTS",
    "UNESCAPE_DOTS2",
    "escape_dot_runs",
    "unescape_dot_runs",
]

# The rules of Normalizer.java (r_multi_dot, r_multi_dot2 and the literal replacements
# around them); the normaliser applies MULTI_DOT, the two functions do the loops.
MULTI_DOT = rule(r"\.", " DOTMULTI", post=r"\.+")
MULTI_DOT2 = rule(r"DOTMULTI\.", "DOTDOTMULTI ", post=r"[^.]")
MULTI_DOT3 = literal("DOTMULTI.", "DOTDOTMULTI")
UNESCAPE_DOTS = literal("DOTDOTMULTI", "DOTMULTI.")
UNESCAPE_DOTS2 = literal("DOTMULTI", ".")

_DOT_RUN = re.compile(r"DOTMULTI(\.+)")
_ESCAPED_RUN = re.compile(r"(?:DOT)+MULTI")


def _hull(st: list[int], en: list[int], a: int, b: int) -> Span2:
    return min(st[a:b]), max(en[a:b])


def escape_dot_runs(line: Line) -> None:
    """``while "DOTMULTI." in line: apply(MULTI_DOT2); apply(MULTI_DOT3)`` in one pass.

    Every ``DOTMULTI`` followed by m >= 1 dots loses one dot per pass (MULTI_DOT3, or
    MULTI_DOT2 when one dot and a non-dot remain, which also puts a space before that
    character): after m passes it is ``DOT``*m + ``DOTMULTI``, plus that space unless it
    is at the end of the line or its ``D`` was eaten in the first pass as the context
    character of a MULTI_DOT2 match of a run ending right before it.  Pass t replaces
    the last ``DOTMULTI`` and the next dot by 11 characters spanning their hull H_t, so
    the spans are 3 characters of H_1, ..., H_(m-1), then 11 (or 12) of H_m.
    """
    s, st, en = line.s, line.st, line.en
    track = st is not None and en is not None
    edits: list[tuple[int, int, str, list[Span2] | None]] = []
    prev_end = -1
    prev_first_pass_space = False
    for mt in _DOT_RUN.finditer(s):
        a, b = mt.span()
        m = b - a - 8
        blocked = m == 1 and a == prev_end and prev_first_pass_space
        space = b < len(s) and not blocked
        prev_end, prev_first_pass_space = b, m == 1 and space
        text = "DOT" * m + "DOTMULTI" + (" " if space else "")
        spans: list[Span2] | None = None
        if track:
            assert st is not None and en is not None
            lo, hi = _hull(st, en, a, a + 9)
            spans = []
            for k in range(1, m):
                spans += [(lo, hi)] * 3
                lo, hi = min(lo, st[a + 8 + k]), max(hi, en[a + 8 + k])
            spans += [(lo, hi)] * (12 if space else 11)
        edits.append((a, b, text, spans))
    splice(line, edits)


def unescape_dot_runs(line: Line) -> None:
    """``while "DOTDOTMULTI" in line: apply(UNESCAPE_DOTS)``, then ``apply(UNESCAPE_DOTS2)``.

    Each ``DOT``*p + ``MULTI`` becomes p dots.  Pass u replaces its last
    ``DOTDOTMULTI`` by ``DOTMULTI.`` spanning their hull K_u, so the dots span
    K_(p-1), K_(p-1), K_(p-2), ..., K_1 (one ``DOTMULTI``: the hull of its 8 characters).
    """
    s, st, en = line.s, line.st, line.en
    track = st is not None and en is not None
    edits: list[tuple[int, int, str, list[Span2] | None]] = []
    for mt in _ESCAPED_RUN.finditer(s):
        a, b = mt.span()
        p = (b - a - 5) // 3
        spans: list[Span2] | None = None
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
    splice(line, edits)
