"""The working line of the Meteor 1.5 normaliser: Java string edits with provenance.

:class:`Line` is the line being normalised and, optionally, the span of the original
text each of its characters came from.  :class:`Rule` and :class:`ContextRule` edit it
exactly as Java's ``replaceAll`` and ``String.replace`` would (with provenance a
replacement takes the hull of the spans it replaces).  :func:`java_lower` is Java 17's
``String.toLowerCase``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "TRIM",
    "ContextRule",
    "Line",
    "Rule",
    "Span2",
    "Step",
    "context",
    "java_lower",
    "literal",
    "rule",
    "splice",
]

#: ``String.trim()`` removes every character <= U+0020 at both ends.
TRIM = "".join(map(chr, range(0x21)))
#: Capitals whose lowercase mapping arrived in Unicode 14 (Python 3.11's table);
#: Java 17 (Unicode 13) leaves them as they are.
_UNICODE14_CAPITALS = re.compile("[\u2c2f\ua7c0\ua7d0\ua7d6\ua7d8\U00010570-\U00010595]")

Span2 = tuple[int, int]


# -- the substitutions ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rule:
    """A regex ``replaceAll`` or a literal ``String.replace`` of the normaliser.

    ``rx`` has a group ``c``, the core, replaced by ``repl`` (with ``keep``, the core
    stays and is wrapped in spaces); anything else it matches is context, consumed as in
    Java but copied unchanged.  ``literal`` marks a ``String.replace``.
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
class ContextRule:
    """``([pre])core([post])`` -> ``$1 repl $2`` with one-character context, scanned by hand.

    Same result as Java's ``replaceAll`` (the context characters are consumed, so
    ``a,b,c`` splits only the first comma), an order of magnitude faster than a regex.
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


Step = Rule | ContextRule


def rule(core: str, repl: str, *, post: str = "", keep: bool = False) -> Rule:
    """A ``replaceAll`` of ``core`` (followed by the context ``post``) by ``repl``;
    ``keep`` wraps the core in spaces instead."""
    pattern = f"(?P<c>{core})" + (f"(?P<q>{post})" if post else "")
    template = r" \g<c> " if keep else repl.replace("\\", "\\\\")
    return Rule(re.compile(pattern), repl, template + (r"\g<q>" if post else ""), keep)


def literal(old: str, new: str) -> Rule:
    """A literal ``String.replace(old, new)``."""
    return Rule(re.compile(f"(?P<c>{re.escape(old)})"), new, "", literal=old)


def context(
    core: str, repl: str, pre: frozenset[str], post: frozenset[str], *, negate: str = ""
) -> ContextRule:
    """``negate`` names the sides whose class is negated: "", "pre", "post" or "both"."""
    return ContextRule(
        core, repl, pre, negate not in ("pre", "both"), post, negate not in ("post", "both")
    )


# -- the working line, with or without provenance -----------------------------


class Line:
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

    def apply(self, rule: Step) -> None:
        if self.st is None or self.en is None:
            self.s = rule.fast(self.s)
            return
        st, en = self.st, self.en
        edits: list[tuple[int, int, str, list[Span2] | None]] = []
        for a, b in rule.cores(self.s):
            if rule.keep:  # the core stays, wrapped in spaces spanning its first character
                wrap = (st[a], st[a])
                core = zip(st[a:b], en[a:b], strict=True)
                edits.append((a, b, f" {self.s[a:b]} ", [wrap, *core, wrap]))
            else:
                hull = (min(st[a:b]), max(en[a:b]))
                edits.append((a, b, rule.repl, [hull] * len(rule.repl)))
        if edits:
            splice(self, edits)

    def trim(self) -> None:
        """Java ``String.trim()``."""
        s = self.s
        t = s.strip(TRIM)
        if len(t) == len(s):
            return
        if self.st is not None and self.en is not None:
            left = len(s) - len(s.lstrip(TRIM))
            self.st = self.st[left : left + len(t)]
            self.en = self.en[left : left + len(t)]
        self.s = t

    def lower(self) -> None:
        """``String.toLowerCase()``; one character may become two (U+0130)."""
        s = self.s
        low = java_lower(s)
        if len(low) != len(s) and self.st is not None and self.en is not None:
            nst: list[int] = []
            nen: list[int] = []
            for ch, a, b in zip(s, self.st, self.en, strict=True):
                k = len(java_lower(ch))
                nst += [a] * k
                nen += [b] * k
            if len(nst) != len(low):  # pragma: no cover - only final sigma is contextual, 1:1
                nst = (nst + [nst[-1] if nst else 0] * len(low))[: len(low)]
                nen = (nen + [nen[-1] if nen else 0] * len(low))[: len(low)]
            self.st, self.en = nst, nen
        self.s = low


def java_lower(s: str) -> str:
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


def splice(line: Line, edits: list[tuple[int, int, str, list[Span2] | None]]) -> None:
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
