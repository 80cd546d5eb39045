"""Numeric columns of a corpus table: human scores and metric scores (:func:`read_scores`).

Named columns (``human_score``, ``comet``) of a table the corpus readers take are read as
floats, per system and segment id, with the corpus reader's rows, names and ids.  Every
cell that is not a finite number is reported (:class:`~meteor.errors.InputError`: the
file, the column, how many and the first lines), none dropped silently.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from meteor.errors import InputError, shown
from meteor.io.lines import MAX_SEGMENTS, decode, detect_format
from meteor.io.rows import HYP_NAMES, REF_COLUMN, jsonl_table, table_rows, tsv_table
from meteor.io.tables import ID_NAMES, SYSTEM_NAMES, by_system, id_text, pick_column
from meteor.params import parse_number

__all__ = [
    "Pair",
    "ScoreColumns",
    "cell_number",
    "keyed_rows",
    "numeric_columns",
    "read_pairs",
    "read_scores",
]

#: ``{column: {(system, segment id): value}}``
ScoreColumns = dict[str, dict[tuple[str, str], float]]


def cell_number(value: Any) -> float | None:
    """The cell as a finite float, or None; text is read by
    :func:`meteor.params.parse_number` (``1_0``, ``０.5``, ``nan`` are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        try:
            x = float(value)
        except OverflowError:  # a JSON integer of 400 digits
            return None
        return x if math.isfinite(x) else None
    if isinstance(value, str):
        return parse_number(value)
    return None


#: Longest cell a message quotes (then cut with ``…``).
SHOWN_CELL = 24


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str) and not value.strip():
        return "empty"
    return shown(value, SHOWN_CELL)


def keyed_rows(
    name: str,
    header: Sequence[str],
    rows: list[tuple[int, dict[str, Any]]],
    limit: int,
    *,
    need_id: bool = True,
) -> Iterator[tuple[str, str, int, dict[str, Any]]]:
    """``(system, segment id, line, row)`` of every row, keyed as the corpus reader keys
    them (no id column: the row's number within its system).

    Raises:
        InputError: (``need_id``) a row without the id column's field, as the corpus reader.
    """
    sys_col = pick_column(header, SYSTEM_NAMES)
    id_col = pick_column(header, ID_NAMES)
    for system, sys_rows in by_system(name, rows, sys_col, limit):
        for k, (line, row) in enumerate(sys_rows, start=1):
            seg = id_text(row[id_col], name, line, id_col) if id_col in row else str(k)
            if need_id and id_col is not None and id_col not in row:
                raise InputError(f"{name}: line {line} has no segment id (field {id_col!r})")
            yield system, seg, line, row


def read_scores(
    data: bytes | str, name: str, columns: Sequence[str], *, fmt: str | None = None
) -> ScoreColumns:
    """Read ``columns`` of a table as numbers, keyed by ``(system, segment id)``.

    Raises:
        InputError: plain text (no columns), a column the file does not have, or any
            cell of the columns that is not a finite number (every such cell counted,
            the first lines named).
    """
    kind = detect_format(name, fmt)
    if kind == "text":
        raise InputError(
            f"{name}: a plain-text file has no columns; give a TSV, CSV or JSONL file with "
            f"the column(s) {', '.join(map(repr, columns))}"
        )
    header, rows = table_rows(data, name, kind, MAX_SEGMENTS * 50 + 1)
    for col in columns:
        if col not in header:
            raise InputError(f"{name}: no column {col!r}; columns: {', '.join(header)}")
    out: ScoreColumns = {col: {} for col in columns}
    bad: dict[str, list[str]] = {col: [] for col in columns}
    first_line: dict[tuple[str, str], int] = {}
    for system, seg, line, row in keyed_rows(name, header, rows, MAX_SEGMENTS):
        if first_line.setdefault((system, seg), line) != line:
            raise InputError(
                f"{name}: system {system!r} segment id {seg!r} is on lines "
                f"{first_line[(system, seg)]} and {line}; give each row once"
            )
        for col in columns:
            value = cell_number(row.get(col))
            if value is None:
                shown = "missing" if col not in row else _shown(row[col])
                bad[col].append(f"line {line} ({shown})")
            else:
                out[col][(system, seg)] = value
    for col, where in bad.items():
        if where:
            more = f" and {len(where) - 5:,} more" if len(where) > 5 else ""
            raise InputError(
                f"{name}: column {col!r} has {len(where):,} value(s) that are not numbers: "
                f"{', '.join(where[:5])}{more}; fix them or remove those rows"
            )
    return out


def numeric_columns(data: bytes | str, name: str, *, fmt: str | None = None) -> list[str]:
    """The columns of a table that may be scores: every column but the system, segment-id,
    hypothesis and reference fields whose first non-empty cell is a number (the
    choices for a human or metric column; :func:`read_scores` then checks every cell).

    Raises:
        InputError: plain text (no columns), or a table the readers refuse.
    """
    kind = detect_format(name, fmt)
    if kind == "text":
        raise InputError(f"{name}: a plain-text file has no columns; give a TSV, CSV or JSONL file")
    header, rows = table_rows(data, name, kind, MAX_SEGMENTS * 50 + 1)
    skip = {c.lower() for c in (*SYSTEM_NAMES, *ID_NAMES, *HYP_NAMES)}
    out: list[str] = []
    for col in header:
        if col.lower() in skip or REF_COLUMN.match(col):
            continue
        first = next((r[col] for _, r in rows if col in r and str(r[col]).strip()), None)
        if first is not None and cell_number(first) is not None:
            out.append(col)
    return out


# --------------------------------------------------------------------------- pairwise judgements

#: ``(segment id, better system, worse system)``: people preferred the better system's output.
Pair = tuple[str, str, str]

_PAIR_ID = ("seg_id", "sid", "id", "segment")
_PAIR_BETTER = ("better_system", "better")
_PAIR_WORSE = ("worse_system", "worse")


def read_pairs(data: bytes | str, name: str, *, fmt: str | None = None) -> list[Pair]:
    """Pairwise judgements: one row per pair of outputs of the same source segment.

    Columns (any case) ``seg_id``/``sid``/``id``/``segment``, ``better_system``/``better``
    and ``worse_system``/``worse``; TSV, CSV or JSONL, or (WMT's DARR files, ``LP DATA
    SID BETTER WORSE``) split on whitespace when the header has no tab or comma.  An
    ``lp`` column must hold one language pair.

    Raises:
        InputError: plain text without such a header, a missing column, an empty cell,
            a pair of a system with itself, a repeated pair, or several language pairs.
    """
    kind = detect_format(name, fmt)
    text = decode(data, name)
    first = text.split("\n", 1)[0]
    if kind == "jsonl":
        header, rows = jsonl_table(text, name, MAX_SEGMENTS * 50 + 1)
    elif "\t" in first or "," in first:
        sep = "tsv" if "\t" in first else "csv"
        header, rows = tsv_table(text, name, MAX_SEGMENTS * 50 + 1, sep)
    else:  # WMT's DARR files: whitespace-separated
        lines = [ln.split() for ln in text.splitlines()]
        header = lines[0] if lines else []
        rows = []
        for k, fields in enumerate(lines[1:], start=2):
            if not fields:
                continue
            if len(fields) != len(header):
                raise InputError(
                    f"{name}: line {k} has {len(fields)} fields but the header has "
                    f"{len(header)} ({' '.join(header)})"
                )
            rows.append((k, dict(zip(header, fields, strict=True))))
    cols = [pick_column(header, names) for names in (_PAIR_ID, _PAIR_BETTER, _PAIR_WORSE)]
    if any(c is None for c in cols):
        raise InputError(
            f"{name}: a pairwise judgement file needs the columns seg_id, better_system and "
            f"worse_system (or WMT's SID, BETTER, WORSE); columns: {', '.join(header) or 'none'}"
        )
    id_col, better_col, worse_col = (str(c) for c in cols)
    lp_col = pick_column(header, ("lp",))
    lps = {str(row.get(lp_col, "")) for _, row in rows} if lp_col else set()
    if len(lps) > 1:
        raise InputError(
            f"{name}: holds {len(lps)} language pairs ({', '.join(sorted(lps)[:5])}); keep the "
            "rows of one"
        )
    out: list[Pair] = []
    seen: dict[Pair, int] = {}
    for line, row in rows:
        cells = [row.get(c) for c in (id_col, better_col, worse_col)]
        texts: list[str] = [
            str(c).strip() if isinstance(c, str | int) and not isinstance(c, bool) else ""
            for c in cells
        ]
        if not all(texts):
            raise InputError(f"{name}: line {line}: an empty or missing seg_id/better/worse cell")
        pair: Pair = (texts[0], texts[1], texts[2])
        if pair[1] == pair[2]:
            raise InputError(f"{name}: line {line}: system {pair[1]!r} is both better and worse")
        if pair in seen:
            raise InputError(
                f"{name}: the pair on line {line} repeats line {seen[pair]} (segment "
                f"{pair[0]!r}: {pair[1]!r} > {pair[2]!r})"
            )
        seen[pair] = line
        out.append(pair)
    if not out:
        raise InputError(f"{name}: no pairwise judgements (only a header)")
    return out
