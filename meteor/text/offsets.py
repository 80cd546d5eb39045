"""Where each token of the normaliser came from: offsets without running it again.

:func:`verbatim_spans` finds the offsets when the tokens are the text's characters,
lowercased, minus spaces (four segments in five), :func:`_edited_spans` when the
normaliser only replaced characters one for one or turned a hyphen into a space;
otherwise :func:`meteor.text.normalize.tokenize` runs the normaliser again with
provenance.  :func:`valid_spans` is the last safety net of every tokenizer's offsets.
"""

from __future__ import annotations

import re

from meteor.text.java_chars import CHUNK, SEPARATORS, WIDE_SPACES
from meteor.text.tracked_line import java_lower


def verbatim_spans(text: str, words: list[str]) -> tuple[list[int], list[int]] | None:
    """Offsets (starts, ends) when the tokens are the text's characters, lowercased,
    minus spaces (the normaliser never moves characters, so they are exact); ``None``
    otherwise."""
    low = java_lower(text)
    if len(low) != len(text):
        return None
    kept = SEPARATORS.sub("", low)
    joined = "".join(words)
    if kept != joined:
        return _edited_spans(low, kept, joined, words)
    starts: list[int] = []
    ends: list[int] = []
    chunks = CHUNK.finditer(low)
    pos = end = 0
    for w in words:
        if pos == end:
            pos, end = next(chunks).span()
        starts.append(pos)
        pos += len(w)
        if pos > end:  # a token across a space: never made by Meteor; track instead
            return None
        ends.append(pos)
    return starts, ends


#: One-for-one substitutions of the normaliser (steps 4 and 5: quotes, the en dash).
_ONE_FOR_ONE = {"`": "'", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-"}
_KEPT_CHAR = re.compile(f"[^ \\t\\n\\r\\f{WIDE_SPACES}]")


def _edited_spans(
    low: str, kept: str, joined: str, words: list[str]
) -> tuple[list[int], list[int]] | None:
    """:func:`verbatim_spans` when the normaliser replaced characters one for one
    (:data:`_ONE_FOR_ONE`) or turned a hyphen into a space (step 6).

    ``kept`` (the text's characters minus spaces) is walked against ``joined`` (the
    tokens' characters): equal or substituted characters pair up in order, a ``-`` with
    no partner was dropped.  ``None`` for any other edit, or a dropped ``-`` next to a
    kept one.
    """
    n = len(joined)
    where = [0] * n  # position in the text of each token character
    at = [m.start() for m in _KEPT_CHAR.finditer(low)]
    sub = _ONE_FOR_ONE
    j = 0
    for i, a in enumerate(kept):
        if j < n and (a == joined[j] or sub.get(a) == joined[j]):
            where[j] = at[i]
            j += 1
        elif a == "-" and (j == 0 or joined[j - 1] != "-"):
            continue  # dropped (a space now)
        else:
            return None
    if j != n:
        return None
    starts: list[int] = []
    ends: list[int] = []
    o = 0
    for w in words:
        first, last = where[o], where[o + len(w) - 1]
        if last - first + 1 != len(w):  # never so far: a dropped hyphen leaves a space
            return None  # a token whose characters are not one run of the text
        starts.append(first)
        ends.append(last + 1)
        o += len(w)
    return starts, ends


def valid_spans(toks: list[tuple[str, int, int]], n: int) -> list[tuple[str, int, int]]:
    """Make spans non-empty, ordered and disjoint within ``[0, n]`` (a safety net: a bad
    span is clamped between its neighbours, leaving one character for every later token).
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
