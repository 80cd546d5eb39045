"""Chunks: maximal runs of matches contiguous and in order on both sides.

Reproduces Meteor 1.5 ``Aligner.getCountAndChunks`` (Aligner.java:407-443): walk
the matches in reference order; a chunk closes at every unmatched reference
position and whenever a match does not start in the hypothesis exactly where the
previous one ended.  For one-to-one matches this equals NLTK's ``_count_chunks``
(hypothesis order, both indices advancing by one) and the 2005 paper's chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

from meteor.types import Chunk, Match, shared_span

__all__ = ["chunk_matches", "count_chunks"]


def chunk_matches(matches: Sequence[Match]) -> tuple[Chunk, ...]:
    """Group ``matches`` (any order) into chunks; indices refer to ``matches``."""
    order = sorted(range(len(matches)), key=lambda k: matches[k].ref.start)
    chunks: list[Chunk] = []
    run: list[int] = []

    def close() -> None:
        if run:
            first, last = matches[run[0]], matches[run[-1]]
            chunks.append(
                Chunk(
                    len(chunks),
                    shared_span(first.hyp.start, last.hyp.end),
                    shared_span(first.ref.start, last.ref.end),
                    tuple(run),
                )
            )
            run.clear()

    prev: Match | None = None
    for k in order:
        m = matches[k]
        if prev is not None and (m.ref.start != prev.ref.end or m.hyp.start != prev.hyp.end):
            close()
        run.append(k)
        prev = m
    close()
    return tuple(chunks)


def count_chunks(matches: Sequence[Match]) -> int:
    return len(chunk_matches(matches))
