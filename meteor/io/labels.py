"""A label column of a TSV/CSV/JSONL input (domain, document, annotator…), by segment id.

The segment readers (:mod:`meteor.io.tables`) keep the hypothesis, reference,
system and id columns only; a report that buckets segments by another column reads
it here, from the same bytes, with the same parsing.  Ids follow the readers' rule:
the ``seg_id``/``id`` column when the file has one, else the 1-based row number
within each system.  A segment id given two different labels is an error.
"""

from __future__ import annotations

from collections.abc import Iterable

from meteor.errors import InputError
from meteor.io.lines import decode, detect_format
from meteor.io.tables import _ID_NAMES, _SYSTEM_NAMES, _jsonl_rows, _pick, _tsv_rows

__all__ = ["read_labels", "read_word_counts"]


def read_labels(files: Iterable[tuple[str, bytes | str]], column: str) -> dict[str, str]:
    """Segment id → the value of ``column``, from every table that has the column.

    Raises:
        InputError: no file has the column, or a segment id has two different labels.
    """
    out: dict[str, str] = {}
    found = False
    for name, data in files:
        kind = detect_format(name, None)
        if kind == "text":
            continue
        text = decode(data, name)
        header, rows = (
            _tsv_rows(text, name, 10_000_000, kind) if kind in ("tsv", "csv") else
            _jsonl_rows(text, name, 10_000_000)
        )  # fmt: skip
        if column not in header:
            continue
        found = True
        id_col = _pick(header, None, _ID_NAMES, "segment id", name)
        sys_col = _pick(header, None, _SYSTEM_NAMES, "system", name)
        per_system: dict[str, int] = {}
        for line, row in rows:
            if id_col is not None:
                seg = str(row.get(id_col, ""))
            else:
                system = str(row.get(sys_col, "")) if sys_col else ""
                per_system[system] = per_system.get(system, 0) + 1
                seg = str(per_system[system])
            value = row.get(column)
            label = "" if value is None else str(value)
            if seg in out and out[seg] != label:
                raise InputError(
                    f"{name}: line {line}: segment {seg!r} has {column} {label!r} here but "
                    f"{out[seg]!r} elsewhere; a label must be the same for every system"
                )
            out[seg] = label
    if not found:
        raise InputError(
            f"no input table has a column {column!r} to bucket by (label columns are read "
            "from TSV, CSV or JSONL inputs)"
        )
    return out


def read_word_counts(data: bytes | str, name: str) -> dict[str, int]:
    """A word-frequency table: one ``word<TAB>count`` (or ``word count``) per line.

    Raises:
        InputError: a line without a whole-number count (naming the line).
    """
    text = decode(data, name)
    out: dict[str, int] = {}
    for k, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.rsplit("\t", 1) if "\t" in line else line.rsplit(None, 1)
        if len(parts) != 2 or not parts[1].strip().isdigit():
            raise InputError(f"{name}: line {k} is not 'word<TAB>count' with a whole-number count")
        word = parts[0].strip().lower()
        out[word] = out.get(word, 0) + int(parts[1])
    return out
