"""One file → :class:`SegmentTable`: plain text, TSV, CSV and JSONL (:func:`read_table`).

The formats and columns are those of :mod:`meteor.io.read`; TSV is read unquoted (as the
WMT and compare-mt files are) unless the file carries csv quoting
(``meteor.io.rows._tsv_cells`` states the rule).  A table with a ``seg_id`` column is
*keyed*: its segments pair by id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal

from meteor.errors import InputError
from meteor.io.lines import MAX_SEGMENTS, SURROGATE, decode, detect_format, split_lines
from meteor.io.rows import HYP_NAMES, REF_COLUMN, Row, table_rows

__all__ = ["SegmentTable", "id_order", "read_table"]

#: Most systems in one long-form table.
_MAX_SYSTEMS = 50
ID_NAMES = ("seg_id", "id", "segment", "line_no")
SYSTEM_NAMES = ("system", "sys")


@dataclass(frozen=True, slots=True)
class SegmentTable:
    """What one file says.

    Attributes:
        name: the file name (for messages and default system names).
        systems: ``(system name, hypotheses)`` in file order; empty for a reference file.
        refs: per segment, the references this file gives (``None`` when it gives none).
        ids: segment ids from the file (``seg_id``), or 1-based line numbers; with
            ``keyed``, every id any system has (:func:`id_order`), and ``refs`` follows it.
        system_ids: with ``keyed``, per system the ids of its hypotheses (in its row
            order); empty when every system has one hypothesis per entry of ``ids``.
        keyed: the file has a segment-id column, so segments pair by id.
    """

    name: str
    systems: tuple[tuple[str, tuple[str, ...]], ...]
    refs: tuple[tuple[str, ...], ...] | None
    ids: tuple[str, ...]
    system_ids: tuple[tuple[str, ...], ...] = ()
    keyed: bool = False

    def ids_of(self, k: int) -> tuple[str, ...]:
        """The ids of system ``k``'s hypotheses."""
        return self.system_ids[k] if self.system_ids else self.ids

    @property
    def n_segments(self) -> int:
        return len(self.ids)


def read_table(
    data: bytes | str,
    name: str = "input",
    *,
    fmt: str | None = None,
    role: Literal["hyp", "ref", "auto"] = "auto",
    limit: int = MAX_SEGMENTS,
    keep_bom: bool = False,
) -> SegmentTable:
    """Read one file into hypotheses and/or references.

    Args:
        data: the file content (bytes are decoded as UTF-8).
        name: the file name, used for the format, messages and the default system name.
        fmt: ``text``, ``tsv`` or ``jsonl``; by default from the extension.
        role: for plain text, whether the lines are hypotheses or references
            (``auto`` means hypotheses).  Tables say it with their column names
            (:func:`columns`).
        limit: most segments accepted.
        keep_bom: a plain-text file's byte-order mark stays in its first line (as the
            Meteor 1.5 jar reads it); a table's header never keeps it.

    Raises:
        InputError: undecodable or binary content, a malformed row, a missing column,
            or more than ``limit`` segments.
    """
    kind = detect_format(name, fmt)
    if kind == "text":
        lines = split_lines(decode(data, name, keep_bom=keep_bom), name, limit=limit)
        ids = tuple(str(k) for k in range(1, len(lines) + 1))
        if role == "ref":
            return SegmentTable(name, (), tuple((ln,) for ln in lines), ids)
        check_system_name(stem(name), name, None)
        return SegmentTable(name, ((stem(name), tuple(lines)),), None, ids)
    # a long-form table holds several systems: the segments per system are capped below
    header, rows = table_rows(data, name, kind, limit * _MAX_SYSTEMS + 1)
    hyp_col, ref_cols, sys_col, id_col = columns(header)
    if hyp_col is None and not ref_cols:
        raise no_text_column(name, header)
    group_list = by_system(name, rows, sys_col, limit)
    refs_of = ref_reader(name, ref_cols) if ref_cols else None
    systems: list[tuple[str, tuple[str, ...]]] = []
    if hyp_col is not None:
        systems = [
            (s, tuple(hyp_of(name, line, row, hyp_col) for line, row in sys_rows))
            for s, sys_rows in group_list
        ]
    if id_col is not None:
        return _keyed_table(name, group_list, systems, id_col, refs_of, limit)
    return _positional_table(name, group_list, systems, refs_of)


def stem(name: str) -> str:
    stem = PurePath(name).name
    for suffix in (".txt", ".tsv", ".csv", ".jsonl", ".ndjson", ".tab"):
        if stem.lower().endswith(suffix):
            return stem[: -len(suffix)] or stem
    return stem or "system"


def pick_column(header: Sequence[str], names: Sequence[str]) -> str | None:
    """The first of ``names`` the header has (in any case), as the header spells it."""
    lower = {h.lower(): h for h in header}
    return next((lower[c] for c in names if c in lower), None)


def _as_text(value: Any, name: str, line: int, column: str) -> str:
    if isinstance(value, str):
        bad = SURROGATE.search(value)
        if bad is not None:  # a JSON "\ud800" escape: not text, and no file could hold it
            raise InputError(
                f"{name}: line {line}: field {column!r} contains a lone surrogate "
                f"(U+{ord(bad.group()):04X}), which is not text"
            )
        return value
    raise InputError(
        f"{name}: line {line}: field {column!r} must be a string, got "
        f"{'null' if value is None else type(value).__name__}"
    )


def columns(header: Sequence[str]) -> tuple[str | None, list[str], str | None, str | None]:
    """The columns of a header: hypothesis (:data:`HYP_NAMES`), references (every
    ``ref``-like column), system and segment id (each None when absent)."""
    return (
        pick_column(header, HYP_NAMES),
        [h for h in header if REF_COLUMN.match(h)],
        pick_column(header, SYSTEM_NAMES),
        pick_column(header, ID_NAMES),
    )


def no_text_column(name: str, header: Sequence[str]) -> InputError:
    """A table with neither a hypothesis nor a reference column."""
    return InputError(
        f"{name}: found neither a hypothesis column (hyp) nor a reference column (ref); "
        f"columns: {', '.join(header) or 'none'}",
        "no_text_column",
        name=name,
        columns=", ".join(header),
    )


def by_system(
    name: str, rows: list[Row], sys_col: str | None, limit: int
) -> list[tuple[str, list[Row]]]:
    """Rows grouped by system (long form), in first-seen order; at most ``limit`` each."""
    groups: dict[str, list[Row]] = {}
    for line, row in rows:
        system = system_of(name, line, row, sys_col)
        if system not in groups:
            check_system_name(system, name, line if sys_col is not None else None)
        groups.setdefault(system, []).append((line, row))
    if not groups:
        groups[stem(name)] = []
    group_list = list(groups.items())
    for sys_name, sys_rows in group_list:
        if len(sys_rows) > limit:
            one = len(group_list) == 1  # the plain-text message: coded as such
            raise InputError(
                f"{name}"
                + ("" if one else f": system {sys_name!r}")
                + f" has {len(sys_rows):,} segments; at most {limit:,} are accepted — "
                "split the file and score the parts (statistics add up)",
                "too_many_segments" if one else None,
                **(dict(name=name, count=len(sys_rows), limit=limit) if one else {}),
            )
    return group_list


def system_of(name: str, line: int, row: dict[str, Any], sys_col: str | None) -> str:
    """The system of a row: its ``sys_col`` cell, else (or empty) the file's stem."""
    if sys_col is None:
        return stem(name)
    return _as_text(row.get(sys_col, ""), name, line, sys_col) or stem(name)


#: What a system name may not hold: it is a cell of the TSV summary and starts each line
#: of the text summary (C0 and C1 controls, tab and line breaks included; U+2028/U+2029).
_UNPRINTABLE_NAME = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def check_system_name(system: str, name: str, line: int | None) -> None:
    """Refuse a system name with a tab, a line break or another control character."""
    bad = _UNPRINTABLE_NAME.search(system)
    if bad is not None:
        where = f"line {line}: the system name" if line is not None else "the system name"
        raise InputError(
            f"{name}: {where} {system!r} contains {_char_name(bad.group())}; a system "
            "name is printed in tables and summaries and must be one line of text"
        )


def _char_name(c: str) -> str:
    return {"\t": "a tab", "\n": "a line break", "\r": "a line break"}.get(
        c, f"the control character U+{ord(c):04X}"
    )


_RefReader = Callable[[int, dict[str, Any]], list[str]]


def ref_reader(name: str, ref_cols: Sequence[str]) -> _RefReader:
    """``refs_of(line, row)``: the references of a row, column by column (a JSONL list
    field gives each of its texts)."""

    def refs_of(line: int, row: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for col in ref_cols:
            if col not in row:
                continue  # JSONL objects may leave a reference field out
            value = row[col]
            if isinstance(value, list):  # only a JSONL field is a list
                out.extend(_as_text(v, name, line, col) for v in value)
            else:
                out.append(_as_text(value, name, line, col))
        return out

    return refs_of


def hyp_of(name: str, line: int, row: dict[str, Any], hyp_col: str) -> str:
    """The hypothesis of one row."""
    if hyp_col not in row:
        raise InputError(f"{name}: line {line} has no field {hyp_col!r}")
    return _as_text(row[hyp_col], name, line, hyp_col)


def _positional_table(
    name: str,
    group_list: list[tuple[str, list[Row]]],
    systems: list[tuple[str, tuple[str, ...]]],
    refs_of: _RefReader | None,
) -> SegmentTable:
    """A table without ids: the systems' rows pair by position and share the references."""
    first_name, first_rows = group_list[0]
    n = len(first_rows)
    for sys_name, sys_rows in group_list[1:]:
        if len(sys_rows) != n:
            raise InputError(
                f"{name}: system {sys_name!r} has {len(sys_rows)} segments but system "
                f"{first_name!r} has {n}; give a seg_id column to pair the segments by id",
                "system_count_mismatch",
                name=name,
                system=sys_name,
                count=len(sys_rows),
                other_system=first_name,
                other_count=n,
            )
    ids = tuple(str(k) for k in range(1, n + 1))
    refs: tuple[tuple[str, ...], ...] | None = None
    if refs_of is not None:
        per_segment = [tuple(refs_of(line, row)) for line, row in first_rows]
        # The other systems' rows must carry the same references.
        for sys_name, sys_rows in group_list[1:]:
            for k, (line, row) in enumerate(sys_rows):
                if tuple(refs_of(line, row)) != per_segment[k]:
                    raise InputError(
                        f"{name}: line {line}: system {sys_name!r} has a different reference for "
                        f"segment {k + 1} than system {first_name!r}; all systems must share "
                        "the references"
                    )
        refs = tuple(per_segment)
    return SegmentTable(name, tuple(systems), refs, ids)


def id_text(value: Any, name: str, line: int, column: str) -> str:
    """A segment id cell as text: a non-empty string or a whole number."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InputError(
            f"{name}: line {line}: segment id {column!r} must be a string or a whole number, "
            f"got {'null' if value is None else type(value).__name__}"
        )
    text = _as_text(value, name, line, column).strip() if isinstance(value, str) else str(value)
    if not text:
        raise InputError(f"{name}: line {line} has an empty segment id ({column!r})")
    return text


_INTEGER_ID = re.compile(r"[0-9]+")


def id_order(ids: Iterable[str]) -> tuple[str, ...]:
    """Distinct ids in the corpus order: by number when every id is a whole number
    (WMT's line-number ids; a shuffled file gets the order back), else first seen."""
    seen = tuple(dict.fromkeys(ids))
    if seen and all(_INTEGER_ID.fullmatch(x) for x in seen):
        return tuple(sorted(seen, key=lambda x: (int(x), x)))
    return seen


def _keyed_table(
    name: str,
    group_list: list[tuple[str, list[Row]]],
    systems: list[tuple[str, tuple[str, ...]]],
    id_col: str,
    refs_of: _RefReader | None,
    limit: int,
) -> SegmentTable:
    """A table with a segment-id column: ids per system, references per id."""
    many = len(group_list) > 1
    system_ids: list[tuple[str, ...]] = []
    ref_by_id: dict[str, tuple[str, ...]] = {}
    ref_origin: dict[str, tuple[str, int]] = {}
    for sys_name, sys_rows in group_list:
        lines_of: dict[str, list[int]] = {}
        ids: list[str] = []
        for line, row in sys_rows:
            if id_col not in row:
                raise InputError(f"{name}: line {line} has no segment id (field {id_col!r})")
            seg = id_text(row[id_col], name, line, id_col)
            lines_of.setdefault(seg, []).append(line)
            ids.append(seg)
            if refs_of is not None:
                refs = tuple(refs_of(line, row))
                if seg not in ref_by_id:
                    ref_by_id[seg] = refs
                    ref_origin[seg] = (sys_name, line)
                elif ref_by_id[seg] != refs:
                    other, other_line = ref_origin[seg]
                    raise InputError(
                        f"{name}: line {line}: segment id {seg!r} has a different reference "
                        f"than on line {other_line}"
                        + (f" (system {other!r})" if many else "")
                        + "; all rows of a segment must share its references",
                        "segment_refs_differ",
                        name=name,
                        line=line,
                        seg_id=seg,
                        other_line=other_line,
                    )
        repeated = {seg: ls for seg, ls in lines_of.items() if len(ls) > 1}
        if repeated:
            where = "; ".join(
                f"{seg!r} on lines {', '.join(map(str, ls[:4]))}"
                for seg, ls in list(repeated.items())[:3]
            )
            more = f" ({len(repeated):,} repeated ids in all)" if len(repeated) > 3 else ""
            raise InputError(
                f"{name}: "
                + (f"system {sys_name!r}: " if many else "")
                + f"segment id(s) repeated: {where}{more}; each id may appear once"
                + (" per system" if many else "")
            )
        system_ids.append(tuple(ids))
    order = id_order(seg for ids in system_ids for seg in ids)
    if len(order) > limit:
        raise InputError(
            f"{name} has {len(order):,} distinct segment ids; at most {limit:,} are accepted — "
            "split the file and score the parts (statistics add up)"
        )
    refs_out = tuple(ref_by_id[seg] for seg in order) if refs_of is not None else None
    return SegmentTable(
        name, tuple(systems), refs_out, order, tuple(system_ids) if systems else (), True
    )
