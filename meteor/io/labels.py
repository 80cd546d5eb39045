"""A label column of a TSV/CSV/JSONL input (domain, document, annotator…), by segment id.

Read from the same bytes, with the same parsing and ids as the segment readers
(:mod:`meteor.io.tables`), which keep only the text, system and id columns.  A segment id
given two different labels is an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from meteor.errors import InputError
from meteor.io.lines import decode, detect_format, notice, split_lines
from meteor.io.rows import table_rows
from meteor.io.scores import keyed_rows
from meteor.io.tables import columns

__all__ = ["label_columns", "read_groups", "read_labels", "read_word_counts"]

#: Rows a label table is read up to (the readers' own limits apply to the segments).
_MAX_ROWS = 10_000_000


def _tables(
    files: Iterable[tuple[str, bytes | str]],
) -> Iterator[tuple[str, list[str], list[tuple[int, dict[str, Any]]]]]:
    """``(name, header, rows)`` of each TSV/CSV/JSONL input (plain text has no columns),
    parsed as the segment readers parse them."""
    for name, data in files:
        kind = detect_format(name, None)
        if kind != "text":
            yield name, *table_rows(data, name, kind, _MAX_ROWS)


def label_columns(files: Iterable[tuple[str, bytes | str]]) -> list[str]:
    """The columns a segment can be bucketed by (:func:`read_labels`,
    :func:`meteor.analysis.buckets.label_buckets`): every TSV/CSV/JSONL column that is not
    the hypothesis, a reference, the system or the segment id, in first-seen order."""
    out: dict[str, None] = {}
    for _name, header, _rows in _tables(files):
        hyp, refs, system, seg_id = columns(header)
        known = {hyp, system, seg_id, *refs}
        for col in header:
            if col not in known:
                out.setdefault(col, None)
    return list(out)


def read_labels(files: Iterable[tuple[str, bytes | str]], column: str) -> dict[str, str]:
    """Segment id → the value of ``column``, from every table that has the column.

    Raises:
        InputError: no file has the column, or a segment id has two different labels.
    """
    out: dict[str, str] = {}
    found = False
    for name, header, rows in _tables(files):
        if column not in header:
            continue
        found = True
        _, _, sys_col, id_col = columns(header)
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


def read_groups(files: list[tuple[str, bytes]], column: str, fmt: str | None) -> dict[str, str]:
    """``{(system, seg_id) key: label}`` of a text column, as ``system\\tseg_id`` keys: the
    groups of ``meteor tune --group-by`` and of the agreement page's cross-validation.

    Raises:
        InputError: a file without the column, or a row without a value.
    """
    out: dict[str, str] = {}
    for name, data in files:
        kind = detect_format(name, fmt)
        if kind == "text":
            raise InputError(f"{name}: a plain-text file has no column {column!r} to group by")
        header, rows = table_rows(data, name, kind, 10**9)
        if column not in header:
            raise InputError(
                f"{name}: no column {column!r} to group by; columns: {', '.join(header)}"
            )
        for system, seg, line, row in keyed_rows(name, header, rows, 10**9, need_id=False):
            value = row.get(column)
            if value is None or not str(value).strip():
                raise InputError(f"{name}: line {line} has no {column!r} to group by")
            out[f"{system}\t{seg}"] = str(value)
    return out


def read_word_counts(data: bytes | str, name: str) -> dict[str, int]:
    """A word-frequency table: one ``word<TAB>count`` (or ``word count``) per line.  Words
    are lower-cased; the counts of a word's case forms are added, with one warning.

    Raises:
        InputError: a line without a whole-number count (naming the line), the same word
            on two lines (naming both: which count is meant?), or no word at all.
    """
    text = decode(data, name)
    out: dict[str, int] = {}
    first_line: dict[str, int] = {}
    forms: dict[str, set[str]] = {}
    for k, line in enumerate(split_lines(text, name), start=1):
        if not line.strip():
            continue
        parts = line.rsplit("\t", 1) if "\t" in line else line.rsplit(None, 1)
        if len(parts) != 2 or not parts[1].strip().isascii() or not parts[1].strip().isdigit():
            raise InputError(f"{name}: line {k} is not 'word<TAB>count' with a whole-number count")
        written = parts[0].strip()
        if written in first_line:
            raise InputError(
                f"{name}: the word {written!r} is on lines {first_line[written]} and {k}; give "
                "each word once"
            )
        first_line[written] = k
        word = written.lower()
        forms.setdefault(word, set()).add(written)
        out[word] = out.get(word, 0) + int(parts[1])
    if not out:
        raise InputError(f"{name}: no word counts (the file is empty); give word<TAB>count lines")
    merged = [w for w, f in forms.items() if len(f) > 1]
    if merged:
        notice(
            f"{name}: {len(merged):,} word(s) are written in several cases (such as "
            f"{', '.join(map(repr, sorted(forms[merged[0]])))}); their counts are added, as "
            "words are compared lower-cased"
        )
    return out
