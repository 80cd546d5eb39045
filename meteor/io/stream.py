"""Segments read lazily from files of any size, for ``meteor stream``.

:func:`iter_segments` yields ``(hypothesis, references)`` per segment; :func:`check_files`
reads the files once beforehand (counts, bad lines, lengths), so that a long run never
stops half-way on its input.  Both use the row-level readers of :mod:`meteor.io.lines`,
:mod:`meteor.io.rows` and :mod:`meteor.io.tables`, so every rule and message is that of
:func:`~meteor.io.read.load_corpus`, except: one system per file, segments paired by
position (``seg_id`` is not used), no limit on size or segments.  A TSV file is read up
to three times (the quoting rule looks at every row first), the others once.
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Literal

from meteor.errors import InputError
from meteor.io.lines import MAX_BYTES, detect_format, iter_lines
from meteor.io.rows import csv_rows, header_row, jsonl_rows, tsv_quoted, tsv_row
from meteor.io.tables import (
    check_system_name,
    columns,
    hyp_of,
    no_text_column,
    ref_reader,
    stem,
    system_of,
)

__all__ = ["Role", "Source", "check_files", "iter_file", "iter_segments"]

#: A file: a path, or an open binary file (a TSV or CSV one must be seekable).
Source = str | os.PathLike[str] | BinaryIO
#: What a file gives: ``hyp`` its hypotheses, ``ref`` its references, ``both`` the two.
Role = Literal["hyp", "ref", "both"]
_CHUNK = 1 << 16
_NO_REFERENCES = "no references: give a reference file, or a TSV/JSONL with a 'ref' column"


def _name(source: Source) -> str:
    if isinstance(source, str | os.PathLike):
        return Path(source).name
    return Path(str(getattr(source, "name", "input"))).name


class _File:
    """A source opened again for each pass: a path, or an open file sought back to where
    it stood (a TSV file is read more than once; a stream that cannot seek, only once)."""

    def __init__(self, source: Source, name: str) -> None:
        self.source = source
        self.name = name
        self.start = -1
        if not isinstance(source, str | os.PathLike) and source.seekable():
            self.start = source.tell()
        self.passes = 0

    @contextmanager
    def _binary(self) -> Iterator[BinaryIO]:
        self.passes += 1
        if isinstance(self.source, str | os.PathLike):
            with open(self.source, "rb") as fh:
                yield fh
            return
        if self.passes > 1:
            if self.start < 0:
                raise InputError(f"{self.name}: a TSV file is read more than once; give a file")
            self.source.seek(self.start)
        yield self.source

    @contextmanager
    def chunks(self) -> Iterator[Iterator[bytes]]:
        """Its bytes, a chunk at a time."""
        with self._binary() as fh:
            yield iter(lambda: fh.read(_CHUNK), b"")

    @contextmanager
    def text(self) -> Iterator[Iterable[str]]:
        """Its text for :func:`~meteor.io.rows.csv_rows` (a table's BOM dropped)."""
        with self._binary() as fh:
            wrapper = io.TextIOWrapper(fh, encoding="utf-8-sig", newline="")
            try:
                yield wrapper
            finally:
                wrapper.detach()


def iter_file(
    source: Source,
    *,
    role: Role = "hyp",
    fmt: str | None = None,
    keep_bom: bool = False,
    max_chars: int | None = None,
    name: str | None = None,
) -> Iterator[tuple[int, str | None, tuple[str, ...]]]:
    """``(line, hypothesis, references)`` per segment of one file, read lazily.

    ``role``: what the file must give (``hyp``: the hypothesis; ``ref`` or ``both``: at
    least one reference per segment; a table given as references without a reference
    column gives its hypothesis column, as :func:`~meteor.io.read.load_corpus`).
    ``keep_bom``: as the Meteor 1.5 jar reads it.  ``max_chars``: most characters per text.

    Raises:
        InputError: naming the file, the line and what is wrong.
    """
    name = name or _name(source)
    kind = detect_format(name, fmt)
    file = _File(source, name)
    if kind == "text":
        if role == "both":  # a text file holds no references
            raise InputError(_NO_REFERENCES)
        if role == "hyp":
            check_system_name(stem(name), name, None)
        with file.chunks() as chunks:
            lines = iter_lines(chunks, name, keep_bom=keep_bom, **_line_limit(max_chars, kind))
            for k, text in lines:
                _check_length(name, k, text, max_chars)
                yield (k, None, (text,)) if role == "ref" else (k, text, ())
        return
    if kind == "jsonl":
        with file.chunks() as chunks:
            rows = jsonl_rows(iter_lines(chunks, name, **_line_limit(max_chars, kind)), name)
            yield from _segments(name, rows, [], role, max_chars, fixed=False)
        return
    yield from _table_segments(file, kind, role, max_chars)


def _table_segments(
    file: _File, kind: str, role: Role, max_chars: int | None
) -> Iterator[tuple[int, str | None, tuple[str, ...]]]:
    """The segments of a TSV or CSV file (csv quoting decided as the corpus reader does)."""
    name = file.name
    delimiter, what = ("\t", "TSV") if kind == "tsv" else (",", "CSV")

    def plain() -> Iterator[tuple[int, list[str]]]:  # a pass split at every tab
        with file.chunks() as chunks:
            for k, line in iter_lines(chunks, name, **_line_limit(max_chars, kind)):
                yield k, line.split("\t")

    def quoted() -> Iterator[tuple[int, list[str]]]:  # a pass read with csv's quoting
        with file.text() as text:
            yield from csv_rows(text, name, delimiter, what)

    # the first pass: the UTF-8 and NUL checks, and (TSV) the quoting rule
    if kind == "csv":
        for _ in plain():
            pass
    rows_in = quoted() if kind == "csv" or tsv_quoted(name, plain(), quoted) else plain()
    first = next(rows_in, None)
    header = header_row(name, first[1] if first else None, kind)
    rows = ((k, tsv_row(name, k, c, header, kind)) for k, c in rows_in)
    yield from _segments(name, rows, header, role, max_chars, fixed=True)


def _segments(
    name: str,
    rows: Iterable[tuple[int, dict[str, Any]]],
    header: list[str],
    role: Role,
    max_chars: int | None,
    *,
    fixed: bool,
) -> Iterator[tuple[int, str | None, tuple[str, ...]]]:
    """Rows → segments, one system per file.  ``fixed``: the header is known (TSV);
    otherwise (JSONL) it grows with the keys as rows bring them, in first-seen order."""
    hyp_col: str | None = None
    ref_cols: list[str] = []
    sys_col: str | None = None
    refs_of: Callable[[int, dict[str, Any]], list[str]] | None = None
    if fixed:
        hyp_col, ref_cols, sys_col, _ = columns(header)
        _check_table(name, header, hyp_col, ref_cols, role)
        refs_of = ref_reader(name, ref_cols)
    known = set(header)
    system: str | None = None
    for k, row in rows:
        if not fixed and not known.issuperset(row):
            header.extend(key for key in row if key not in known)
            known.update(row)
            picked, ref_cols, sys_col, _ = columns(header)
            hyp_col = hyp_col or picked  # once chosen, the hypothesis field stays
            refs_of = ref_reader(name, ref_cols)
        sys_name = system_of(name, k, row, sys_col)
        if system is None:
            check_system_name(sys_name, name, k if sys_col is not None else None)
            system = sys_name
        elif sys_name != system:
            raise InputError(
                f"{name}: line {k} starts system {sys_name!r} after {system!r}; "
                "streaming reads one system per file (split the file by system)"
            )
        hyp = hyp_of(name, k, row, hyp_col or "hyp") if role != "ref" else None
        refs: tuple[str, ...] = ()
        if role != "hyp":
            if ref_cols and refs_of is not None:
                refs = tuple(refs_of(k, row))
            elif role == "ref" and hyp_col is not None:
                refs = (hyp_of(name, k, row, hyp_col),)  # a hyp-like column given as reference
            if not refs:
                raise InputError(
                    f"{name}: line {k} has no reference (no 'ref' field, or an empty 'refs' list)"
                )
        for text in ((hyp,) if hyp is not None else ()) + refs:
            _check_length(name, k, text, max_chars)
        yield k, hyp, refs


def _check_table(
    name: str, header: list[str], hyp_col: str | None, ref_cols: list[str], role: Role
) -> None:
    """A table's header must give what the file is read for."""
    if hyp_col is None and not ref_cols:
        raise no_text_column(name, header)
    if role != "ref" and hyp_col is None:
        raise InputError(
            f"{name}: no hypothesis column (hyp, hypothesis, mt or translation); columns: "
            f"{', '.join(header)}"
        )
    if role == "both" and not ref_cols:
        raise InputError(_NO_REFERENCES)


def _line_limit(max_chars: int | None, kind: str) -> dict[str, Any]:
    """:func:`~meteor.io.lines.iter_lines`' bound on a line's bytes (with ``max_chars``), so a
    huge line is refused unread: a text line over 4 bytes (UTF-8's most) per character
    allowed, a table row over :data:`~meteor.io.lines.MAX_BYTES`."""
    if max_chars is None:
        return {}
    if kind == "text":
        why = (
            f"at most {max_chars:,} characters per segment are accepted (as in meteor score) "
            "— split the segment"
        )
        return {"max_line_bytes": 4 * max_chars, "too_long": why}
    why = (
        f"at most {MAX_BYTES:,} bytes per row (the most meteor score reads of a whole file) "
        f"and {max_chars:,} characters per segment are accepted — split the segment"
    )
    return {"max_line_bytes": MAX_BYTES, "too_long": why}


def _check_length(name: str, line: int, text: str, max_chars: int | None) -> None:
    if max_chars is not None and len(text) > max_chars:
        raise InputError(
            f"{name}: line {line:,} has a segment of {len(text):,} characters; at most "
            f"{max_chars:,} per segment are accepted (as in meteor score) — split the segment"
        )


def _readers(
    hyp: Source,
    refs: Sequence[Source],
    fmt: str | None,
    keep_bom: bool,
    max_chars: int | None,
) -> list[tuple[str, Iterator[tuple[int, str | None, tuple[str, ...]]]]]:
    """``(file name, segments)`` of the hypothesis file, then of each reference file."""
    roles: list[tuple[Source, Role]] = [
        (hyp, "hyp" if refs else "both"),
        *((r, "ref") for r in refs),
    ]
    return [
        (_name(s), iter_file(s, role=role, fmt=fmt, keep_bom=keep_bom, max_chars=max_chars))
        for s, role in roles
    ]


def iter_segments(
    hyp: Source,
    refs: Sequence[Source] = (),
    *,
    fmt: str | None = None,
    keep_bom: bool = False,
    max_chars: int | None = None,
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(hypothesis, references)`` per segment, read lazily from files of any size.  With
    no ``refs``, the hypothesis file must hold the references too (a ``ref`` column).

    Raises:
        InputError: a bad line (named), or files whose segment counts differ.
    """
    readers = _readers(hyp, refs, fmt, keep_bom, max_chars)
    names = [n for n, _ in readers]
    missing: Any = object()
    rows = itertools.zip_longest(*(r for _, r in readers), fillvalue=missing)
    for k, row in enumerate(rows, start=1):
        if any(x is missing for x in row):
            short = [names[i] for i, x in enumerate(row) if x is missing]
            raise InputError(
                f"{', '.join(short)} ended after {k - 1:,} segments but "
                f"{', '.join(n for i, n in enumerate(names) if row[i] is not missing)} "
                "go on; every file needs one segment per line"
            )
        hyp_text = row[0][1]
        assert hyp_text is not None
        if not refs:
            yield hyp_text, row[0][2]
        else:
            yield hyp_text, tuple(r for _, _, group in row[1:] for r in group)


def check_files(
    hyp: Source,
    refs: Sequence[Source] = (),
    *,
    fmt: str | None = None,
    keep_bom: bool = False,
    max_chars: int | None = None,
) -> int:
    """Read every file once, in constant memory, as :func:`iter_segments` will; the number
    of segments (the same in every file; a message names an empty last segment).

    Raises:
        InputError: naming the file (and the line) and what is wrong, or no segments
            (an empty hypothesis file, as :func:`~meteor.io.read.load_corpus` refuses it).
    """
    counts: list[tuple[str, int, str]] = []
    for name, segments in _readers(hyp, refs, fmt, keep_bom, max_chars):
        n, last = 0, None
        for n, (_, h, rs) in enumerate(segments, start=1):  # noqa: B007 - n: the count after
            last = (h,) if h is not None else rs
        blank = last is not None and not any(x.strip() for x in last)
        counts.append((name, n, " (the last one is empty)" if blank else ""))
    hyp_name, n0, note0 = counts[0]
    if n0 == 0:  # nothing to score: refused as the corpus reader refuses it
        raise InputError(
            f"no segments: hypothesis file {hyp_name} is empty (an empty line is an empty "
            "segment, but an empty file holds none)",
            "no_segments",
            role="hyp_file",
            file=hyp_name,
            system="",
        )
    for name, n, note in counts[1:]:
        if n != n0:
            raise InputError(
                f"{name} has {n:,} segments{note} but {hyp_name} has {n0:,}{note0}; every "
                "file needs one segment per line (nothing was scored)"
            )
    return n0
