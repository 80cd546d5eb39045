"""The streaming command's inputs: :mod:`meteor.io.stream` with ``meteor score``'s limit.

The formats, rules and messages are those of :mod:`meteor.io` (one reader for the CLI,
the app and the cluster); this module only adds the limit of ``meteor score`` on the
characters of a segment (:data:`meteor.metric.MAX_CHARS`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from meteor.io import stream
from meteor.io.stream import Source
from meteor.metric import MAX_CHARS

__all__ = ["check_files", "iter_segments"]


def iter_segments(
    hyp: Source, refs: Sequence[Source] = (), *, fmt: str | None = None, keep_bom: bool = False
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(hypothesis, references)`` per segment, lazily (:func:`meteor.io.stream.iter_segments`);
    a segment side of more than :data:`~meteor.metric.MAX_CHARS` characters is refused."""
    return stream.iter_segments(hyp, refs, fmt=fmt, keep_bom=keep_bom, max_chars=MAX_CHARS)


def check_files(
    hyp: Source, refs: Sequence[Source] = (), *, fmt: str | None = None, keep_bom: bool = False
) -> int:
    """Every input read once before any scoring (:func:`meteor.io.stream.check_files`):
    segment counts, bad lines, at most :data:`~meteor.metric.MAX_CHARS` characters."""
    return stream.check_files(hyp, refs, fmt=fmt, keep_bom=keep_bom, max_chars=MAX_CHARS)
