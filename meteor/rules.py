"""Small text rules used in several places, each defined once.

* :func:`fold_yo`: Russian ``ё``→``е`` folding (this library's Russian option; Meteor 1.5
  does not fold).
* :func:`is_definite`: Meteor 1.5's definite match (Aligner.java:199-218); the beam
  aligner's C twin in ``native/`` restates the rule and is tested equal.
* :func:`is_perfect_segment`: Meteor 1.5's perfect segment (every word of both sides
  matched, one chunk): frag = 0 in MeteorScorer.computeMetrics, chunks not added in
  MeteorStats.addStats.
* :func:`java_hash`: Java's ``String.hashCode``, the key Meteor 1.5 compares words by
  (in C, ``meteor_native._lexicon``, when installed).

Imports only :mod:`meteor.runtime`: safe to use from any layer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from meteor.runtime import compiled

__all__ = ["fold_yo", "is_definite", "is_perfect_segment", "java_hash", "python_java_hash"]


def fold_yo(text: str) -> str:
    """``text`` with ``ё``→``е`` and ``Ё``→``Е`` (two ``str.replace``: faster than
    ``str.translate`` on short words)."""
    return text.replace("ё", "е").replace("Ё", "Е")


def is_definite(
    starting_here: int,
    hyp: range,
    ref: range,
    hyp_cover: Sequence[int],
    ref_cover: Sequence[int],
) -> bool:
    """Whether a candidate is *definite* (Meteor 1.5, Aligner.java:199-218).

    It is the only candidate starting at its reference position
    (``starting_here == 1``) and no other candidate touches any of its words on
    either side: every position of ``ref`` and of ``hyp`` is covered once
    (``ref_cover`` / ``hyp_cover``: how many candidates cover each position,
    duplicates counted).  The beam aligner fixes definite matches before searching.
    """
    return (
        starting_here == 1
        and all(ref_cover[k] == 1 for k in ref)
        and all(hyp_cover[k] == 1 for k in hyp)
    )


def is_perfect_segment(
    hyp_matched: int, hyp_len: int, ref_matched: int, ref_len: int, chunks: int
) -> bool:
    """Every word of both sides matched, in one chunk (Meteor 1.5's perfect segment).

    :func:`meteor.scoring.compute` passes the per-stage match counts summed (as
    ``MeteorScorer.computeMetrics`` reads ``testTotalMatches``);
    :attr:`meteor.types.Stats.is_perfect` passes the word-match counts (as
    ``MeteorStats.addStats``).  Both are equal on statistics counted from an alignment.
    """
    return hyp_matched == hyp_len and ref_matched == ref_len and chunks == 1


@functools.lru_cache(maxsize=500_000)
def python_java_hash(s: str) -> int:
    """Java ``String.hashCode``: 31-polynomial over UTF-16 code units, signed 32-bit."""
    h = 0
    b = s.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(b), 2):
        h = (31 * h + (b[i] | (b[i + 1] << 8))) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


_LEXICON = compiled("_lexicon")
#: Java ``String.hashCode`` of a str: :func:`python_java_hash` (memoised), in C when
#: installed, ``meteor_native._lexicon.java_hash`` (no memo needed: a few dozen
#: nanoseconds a word; ``tests/unit/test_native_lexicon.py``: equal on every word).
java_hash: Callable[[str], int] = python_java_hash if _LEXICON is None else _LEXICON.java_hash
