"""Lazy reading of segment files of any size for streaming (:func:`iter_segments`).

The formats of :mod:`meteor.io.read` (text: one segment per line; TSV with a
header; JSONL objects), one system per file, read line by line so that memory
stays bounded; every bad line is named in an :class:`~meteor.errors.InputError`.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from meteor.io.read import InputError, detect_format
from meteor.metric import MAX_CHARS

__all__ = ["check_files", "count_segments", "iter_segments"]

_HYP_NAMES = ("hyp", "hypothesis", "mt", "translation")
_REF_COLUMN = re.compile(r"^ref(erence)?s?([_-]?\d+)?$", re.IGNORECASE)


def _text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) of a UTF-8 file, read lazily (``meteor.io.read`` line rules)."""
    with path.open("rb") as fh:
        for k, raw in enumerate(fh, start=1):
            line = raw[:-1] if raw.endswith(b"\n") else raw
            if line.endswith(b"\r"):
                line = line[:-1]
            if k == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if b"\x00" in line:
                raise InputError(
                    f"{path.name}: line {k} contains a NUL byte; this looks like a binary "
                    "file, not text with one segment per line"
                )
            try:
                yield k, line.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(
                    f"{path.name}: line {k} is not valid UTF-8; save the file as UTF-8"
                ) from None


def _file_column(path: Path, role: str, fmt: str | None) -> Iterator[tuple[str, ...]]:
    """Per segment: the hypothesis (``role='hyp'``, a 1-tuple) or the references."""
    kind = detect_format(path.name, fmt)
    if kind == "csv":
        raise InputError(f"{path.name}: streaming reads text, TSV or JSONL; save the CSV as TSV")
    lines = _text_lines(path)
    if kind == "text":
        for k, text in lines:
            _check_length(path, k, text)
            yield (text,)
        return
    header: list[str] | None = None
    system: str | None = None
    for k, text in lines:
        if kind == "tsv":
            if header is None:
                header = text.split("\t")
                _check_columns(path, header, role)
                continue
            cells = text.split("\t")
            if len(cells) != len(header):
                raise InputError(
                    f"{path.name}: line {k} has {len(cells)} columns but the header has "
                    f"{len(header)} (tab-separated, no quoting)"
                )
            row: dict[str, Any] = dict(zip(header, cells, strict=True))
        else:
            if not text.strip():
                raise InputError(
                    f"{path.name}: line {k} is empty; each line of a JSONL file must be one "
                    "JSON object"
                )
            try:
                row = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path.name}: line {k} is not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise InputError(f"{path.name}: line {k} is not a JSON object")
            if row.get("type", "segment") != "segment":
                continue
        sys_name = row.get("system", row.get("sys"))
        if sys_name is not None:
            if system is not None and sys_name != system:
                raise InputError(
                    f"{path.name}: line {k} starts system {sys_name!r} after {system!r}; "
                    "streaming reads one system per file (split the file by system)"
                )
            system = sys_name
        picked = _pick(row, path, k, role)
        for text in picked:
            _check_length(path, k, text)
        yield picked


def _check_columns(path: Path, header: Sequence[str], role: str) -> None:
    names = [h.lower() for h in header]
    if role == "hyp" and not any(h in names for h in _HYP_NAMES):
        raise InputError(f"{path.name}: no hypothesis column (one of {', '.join(_HYP_NAMES)})")
    if role == "ref" and not any(_REF_COLUMN.match(h) for h in header):
        raise InputError(f"{path.name}: no reference column (ref, ref2, …)")


def _pick(row: dict[str, Any], path: Path, line: int, role: str) -> tuple[str, ...]:
    lower = {str(k).lower(): v for k, v in row.items()}
    if role == "hyp":
        for name in _HYP_NAMES:
            if name in lower:
                return (_text(lower[name], path, line, name),)
        raise InputError(f"{path.name}: line {line} has no hypothesis field ('hyp')")
    refs: list[str] = []
    for key, value in row.items():
        if not _REF_COLUMN.match(str(key)) or value is None:
            continue
        if isinstance(value, list):
            refs.extend(_text(v, path, line, str(key)) for v in value)
        else:
            refs.append(_text(value, path, line, str(key)))
    if not refs:
        raise InputError(f"{path.name}: line {line} has no reference field ('ref')")
    return tuple(refs)


def _text(value: Any, path: Path, line: int, column: str) -> str:
    if not isinstance(value, str):
        raise InputError(
            f"{path.name}: line {line}, field {column!r} must be text, got {type(value).__name__}"
        )
    return value


def iter_segments(
    hyp: str | os.PathLike[str],
    refs: Sequence[str | os.PathLike[str]] = (),
    *,
    fmt: str | None = None,
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(hypothesis, references)`` per segment, read lazily from files of any size.

    Formats as :mod:`meteor.io.read` (text: one segment per line; TSV with a header;
    JSONL objects), one system per file.  With no ``refs``, the hypothesis file
    must hold the references too (a ``ref`` column).  Several reference files
    give several references per segment, in the order given.

    Raises:
        InputError: a bad line (named), or files whose segment counts differ.
    """
    hyp_path = Path(hyp)
    ref_paths = [Path(r) for r in refs] or [hyp_path]
    columns = [_file_column(hyp_path, "hyp", fmt)] + [
        _file_column(p, "ref", fmt) for p in ref_paths
    ]
    names = [hyp_path.name] + [p.name for p in ref_paths]
    missing = object()
    for k, row in enumerate(itertools.zip_longest(*columns, fillvalue=missing), start=1):
        if any(x is missing for x in row):
            short = [names[i] for i, x in enumerate(row) if x is missing]
            raise InputError(
                f"{', '.join(short)} ended after {k - 1:,} segments but "
                f"{', '.join(n for i, n in enumerate(names) if row[i] is not missing)} "
                "go on; every file needs one segment per line"
            )
        groups: list[tuple[str, ...]] = list(row)  # type: ignore[arg-type]
        yield groups[0][0], tuple(r for group in groups[1:] for r in group)


def _check_length(path: Path, line: int, text: str) -> None:
    """The limit of ``meteor score`` (:data:`meteor.metric.MAX_CHARS` per segment side)."""
    if len(text) > MAX_CHARS:
        raise InputError(
            f"{path.name}: line {line:,} has a segment of {len(text):,} characters; at most "
            f"{MAX_CHARS:,} per segment are accepted (as in meteor score) — split the segment"
        )


def check_files(
    hyp: str | os.PathLike[str],
    refs: Sequence[str | os.PathLike[str]] = (),
    *,
    fmt: str | None = None,
) -> int | None:
    """Check text and TSV inputs before any scoring; their number of segments.

    One pass over each file's lines: every file must have as many segments as the
    hypothesis file, and no segment may have more than :data:`~meteor.metric.MAX_CHARS`
    characters (the limit of ``meteor score``), so that a run never stops half-way
    on them.  JSONL files (segments known only when parsed) are checked while they are
    read (:func:`iter_segments`); for them the result is None.

    Raises:
        InputError: naming the file (and the line) and what is wrong.
    """
    hyp_path = Path(hyp)
    paths = [hyp_path] + [Path(r) for r in refs]
    counts: list[int] = []
    for path in paths:
        kind = detect_format(path.name, fmt)
        if kind == "jsonl":
            return None
        n = 0
        with path.open("rb") as fh:
            for n, raw in enumerate(fh, start=1):  # noqa: B007 - n is the count after
                if len(raw) > MAX_CHARS:  # bytes >= characters: only long lines decoded
                    _check_long_line(path, n, raw, kind)
        counts.append(max(0, n - (1 if kind == "tsv" else 0)))
    for path, n in zip(paths[1:], counts[1:], strict=True):
        if n != counts[0]:
            raise InputError(
                f"{path.name} has {n:,} segments but {hyp_path.name} has {counts[0]:,}; every "
                "file needs one segment per line (nothing was scored)"
            )
    return counts[0]


def _check_long_line(path: Path, k: int, raw: bytes, kind: str) -> None:
    line = raw.rstrip(b"\n").rstrip(b"\r")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return  # named when read (iter_segments)
    for cell in text.split("\t") if kind == "tsv" else [text]:
        _check_length(path, k, cell)


def count_segments(path: Path, fmt: str | None) -> int | None:
    """Segments in a text or TSV file (a fast pass over its bytes); None for JSONL."""
    kind = detect_format(path.name, fmt)
    if kind == "jsonl":
        return None
    lines = 0
    last = b"\n"
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            lines += block.count(b"\n")
            last = block[-1:]
    lines += last != b"\n"
    return max(0, lines - (1 if kind == "tsv" else 0))
