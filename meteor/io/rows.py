"""A table file's text → ``(line, {column: value})`` rows: TSV (plain or csv-quoted), CSV
and JSONL, every :class:`~meteor.errors.InputError` naming the file and the line.
:mod:`meteor.io.tables` makes a table of the rows; :mod:`meteor.io.stream` reads them lazily.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from meteor.errors import InputError
from meteor.io.lines import MAX_BYTES, decode, notice, split_lines
from meteor.json_numbers import RepeatedKeyError, unique_keys

__all__ = ["csv_rows", "header_row", "jsonl_rows", "table_rows", "tsv_quoted", "tsv_row"]

#: Reference columns: ``ref``, ``ref2``, ``ref_2``, ``ref-2``, ``reference``, ``refs``.
REF_COLUMN = re.compile(r"^ref(erence)?s?([_-]?\d+)?$", re.IGNORECASE)
#: Hypothesis columns (and JSONL fields).
HYP_NAMES = ("hyp", "hypothesis", "mt", "translation")

Row = tuple[int, dict[str, Any]]  # (line number, fields)


def table_rows(
    data: bytes | str, name: str, kind: str, raw_limit: int
) -> tuple[list[str], list[Row]]:
    """The header and the ``(line, row)`` rows of a TSV, CSV or JSONL table (``kind``, as
    :func:`~meteor.io.lines.detect_format` says; at most ``raw_limit`` rows)."""
    text = decode(data, name)
    if kind in ("tsv", "csv"):
        return tsv_table(text, name, raw_limit, kind)
    return jsonl_table(text, name, raw_limit)


def tsv_table(text: str, name: str, limit: int, kind: str) -> tuple[list[str], list[Row]]:
    """Header and rows of a TSV (or CSV) file: plain tab-separated, or csv-quoted."""
    cells = (
        _csv_cells(text, name, limit, ",", "CSV")
        if kind == "csv"
        else _tsv_cells(text, name, limit)
    )
    header = header_row(name, cells[0][1] if cells else None, kind)
    return header, [(k, tsv_row(name, k, row, header, kind)) for k, row in cells[1:]]


def header_row(name: str, cells: list[str] | None, kind: str) -> list[str]:
    """The header row of a TSV or CSV file (``None``: the file has no row)."""
    if cells is None:
        raise InputError(
            f"{name}: the {kind.upper()} file is empty; it needs a header row (e.g. hyp"
            f"{'<TAB>' if kind == 'tsv' else ','}ref)",
            "table_empty",
            name=name,
            kind=kind.upper(),
        )
    if len(set(cells)) != len(cells):
        dup = sorted({h for h in cells if cells.count(h) > 1})
        raise InputError(
            f"{name}: the header repeats column(s) {', '.join(dup)}",
            "header_repeats",
            name=name,
            columns=", ".join(dup),
        )
    return cells


def tsv_row(name: str, k: int, cells: list[str], header: list[str], kind: str) -> dict[str, Any]:
    """One row of a TSV or CSV file as ``{column: text}``; it must have the header's width."""
    if len(cells) != len(header):
        what = "comma" if kind == "csv" else "tab"
        raise InputError(
            f"{name}: line {k} has {len(cells)} {what}-separated fields but the header has "
            f"{len(header)} ({', '.join(header)})",
            "row_width",
            name=name,
            line=k,
            count=len(cells),
            width=len(header),
            header=", ".join(header),
        )
    return dict(zip(header, cells, strict=True))


#: A field as Python's csv module (and pandas' ``to_csv``) writes a text holding a double
#: quote: in double quotes, every inner quote doubled (``"He said ""hi"" to me"``).
_CSV_QUOTED = re.compile(r'"(?:[^"]|"")*""(?:[^"]|"")*"')


def _tsv_cells(text: str, name: str, limit: int) -> list[tuple[int, list[str]]]:
    """``(line, fields)`` per row of a TSV file.

    Unquoted unless the file carries csv quoting: a field in double quotes with its
    inner quotes doubled, or rows that are uneven unquoted but even with csv's
    ``excel-tab`` dialect (a quoted field holding the tab or line break).  A quoted
    field in a file that does not read as quoted TSV: read unquoted, with a warning.
    """
    lines = split_lines(text, name, limit=limit)
    plain = [(k, line.split("\t")) for k, line in enumerate(lines, start=1)]
    quoted = functools.cache(lambda: _csv_cells(text, name, limit, "\t", "TSV"))  # read once
    return quoted() if tsv_quoted(name, plain, quoted) else plain


def tsv_quoted(
    name: str,
    plain: Iterable[tuple[int, list[str]]],
    quoted: Callable[[], Iterable[tuple[int, list[str]]]],
) -> bool:
    """Whether a TSV file is read with csv quoting (the rule of :func:`_tsv_cells`).
    ``plain``: its rows split at every tab; ``quoted()``: its rows read with csv's
    ``excel-tab`` dialect; each read at most once, lazily, a row at a time."""
    width: int | None = None
    quoted_at: int | None = None
    uneven = False
    for k, row in plain:
        width = len(row) if width is None else width
        uneven = uneven or len(row) != width
        if quoted_at is None and any(_CSV_QUOTED.fullmatch(c) for c in row):
            quoted_at = k
    if quoted_at is None and not uneven:
        return False
    held = False  # a quoted field holds a tab or a line break
    try:
        for _, row in quoted():
            held = held or any(("\t" in c or "\n" in c or "\r" in c) for c in row)
    except InputError as exc:
        if quoted_at is not None and not uneven:
            notice(
                f'{name}: line {quoted_at} has a field in csv quotes ("…""…""…", as '
                "pandas' to_csv writes), but the file does not read as quoted TSV "
                f"({str(exc).removeprefix(name + ': ')}); read unquoted, every field as written",
                "csv_quotes_unquoted",
                name=name,
                line=quoted_at,
            )
        return False  # uneven: the unquoted reading's own message follows
    # a quoted field held the tab or line break that made rows uneven
    return quoted_at is not None or held


def _csv_cells(
    text: str, name: str, limit: int, delimiter: str, what: str
) -> list[tuple[int, list[str]]]:
    """``(first line, fields)`` per row, read with csv's quoting (:func:`csv_rows`)."""
    return list(csv_rows(io.StringIO(text, newline=""), name, delimiter, what, limit))


def csv_rows(
    lines: Iterable[str], name: str, delimiter: str, what: str, limit: int | None = None
) -> Iterator[tuple[int, list[str]]]:
    """``(first line, fields)`` per row of text read with ``newline=""``, lazily, with csv's
    quoting (RFC 4180; ``strict``); every row must have the first row's width."""
    csv.field_size_limit(max(csv.field_size_limit(), MAX_BYTES))
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    start = 1
    count = 0
    width: int | None = None
    try:
        for row in reader:
            row = row or [""]
            count += 1
            if limit is not None and count > limit:
                raise InputError(
                    f"{name} has more than {limit:,} rows; at most {limit:,} are accepted — "
                    "split the file and score the parts (statistics add up)",
                    "too_many_rows",
                    name=name,
                    limit=limit,
                )
            width = len(row) if width is None else width
            if len(row) != width:
                raise InputError(
                    f"{name}: line {start} has {len(row)} fields but the header has {width} "
                    f"(read as quoted {what})",
                    "quoted_row_width",
                    name=name,
                    line=start,
                    count=len(row),
                    width=width,
                    kind=what,
                )
            yield start, row
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(
            f"{name}: line {reader.line_num} is not valid quoted {what}: {exc}",
            "quoted_invalid",
            name=name,
            line=reader.line_num,
            kind=what,
        ) from None


def jsonl_table(text: str, name: str, limit: int) -> tuple[list[str], list[Row]]:
    lines = enumerate(split_lines(text, name, limit=limit), start=1)
    rows = list(jsonl_rows(lines, name))
    header = list(dict.fromkeys(key for _, obj in rows for key in obj))
    return header, rows


def jsonl_rows(lines: Iterable[tuple[int, str]], name: str) -> Iterator[Row]:
    """``(line, object)`` per segment of a JSONL file's ``(line, text)``, lazily; the Meteor
    1.5 harness's ``{"type": "corpus"}`` summary is skipped, with an :class:`InputWarning`."""
    skipped: list[int] = []
    for k, line in lines:
        obj = _jsonl_object(line, name, k)
        if obj.get("type") == "corpus" and not any(
            key.lower() in HYP_NAMES or REF_COLUMN.match(key) for key in obj
        ):
            skipped.append(k)  # the Meteor 1.5 harness's final summary line
            continue
        yield k, obj
    if skipped:
        notice(
            f"{name}: skipped line {', '.join(map(str, skipped[:5]))}"
            + (f" and {len(skipped) - 5:,} more" if len(skipped) > 5 else "")
            + ': a {"type": "corpus"} summary with no hyp or ref field (the Meteor 1.5 '
            "harness writes one last), not a segment",
            "summary_skipped",
            name=name,
            lines=", ".join(map(str, skipped[:5])),
            count=len(skipped),
        )


def _jsonl_object(line: str, name: str, k: int) -> dict[str, Any]:
    """Line ``k`` of a JSONL file as an object; every way it can fail is named."""
    if not line.strip():
        raise InputError(
            f"{name}: line {k} is empty; each line of a JSONL file must be one JSON object",
            "jsonl_empty_line",
            name=name,
            line=k,
        )
    try:
        obj = json.loads(line, object_pairs_hook=unique_keys)
    except RepeatedKeyError as exc:
        raise InputError(
            f"{name}: line {k} gives the key {exc.key!r} more than once; give each key "
            "once (JSON readers keep only the last value)",
            "jsonl_duplicate_key",
            name=name,
            line=k,
            key=exc.key,
        ) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name}: line {k} is not valid JSON ({exc.msg})", "jsonl_invalid", name=name, line=k
        ) from None
    except RecursionError:
        raise InputError(
            f"{name}: line {k} nests JSON too deeply to read", "jsonl_too_deep", name=name, line=k
        ) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise InputError(
            f"{name}: line {k} cannot be read as JSON ({exc})", "jsonl_invalid", name=name, line=k
        ) from None
    if not isinstance(obj, dict):
        raise InputError(
            f"{name}: line {k} is a JSON {type(obj).__name__}, not an object with hyp/ref fields",
            "jsonl_not_object",
            name=name,
            line=k,
        )
    return obj
