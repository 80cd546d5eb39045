"""Reading segment files: plain text, TSV and JSONL, one or several systems and references.

Everything arrives as ``bytes`` (an upload, a file, stdin) and leaves as a
:class:`Corpus`: the systems' hypotheses and, per segment, its references.  Bad
input raises :class:`InputError` with one sentence that names the file, the line
and what to do about it; nothing here prints or exits.

Formats (chosen by extension, or by ``fmt``):

* **text** (``.txt`` and anything else): one segment per line, UTF-8.  Lines end at
  ``\\n``; a ``\\r`` before it (Windows files) is dropped, a lone ``\\r`` or a Unicode
  line separator inside a line stays in the segment (the normaliser sanitises it).
  An empty line is an empty segment; a final newline does not start another one.
* **tsv** (``.tsv``): a header row, then one row per segment, tab-separated and
  unquoted (``csv.QUOTE_NONE``, as the WMT and compare-mt files are).  Columns:
  ``hyp``; references ``ref``, ``ref2``, ``ref_3``… (``ref_tok`` and the like are
  not references); optionally ``system`` (several systems in long form, one block
  of rows per system, in order) and ``seg_id``.
* **jsonl** (``.jsonl``, ``.ndjson``): one JSON object per line with the same field
  names; ``refs`` may hold a list of references.  Objects with a ``type`` other than
  ``segment`` (such as the Meteor 1.5 harness's final ``{"type": "corpus"}`` line)
  are skipped.

A file may carry hypotheses, references or both; :func:`load_corpus` puts
several files together and checks that every count agrees.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Literal

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "MAX_SEGMENTS",
    "Corpus",
    "Format",
    "InputError",
    "SegmentTable",
    "check_size",
    "decode",
    "demo_corpus",
    "detect_format",
    "load_corpus",
    "read_table",
    "split_lines",
]

#: Most segments accepted in one file or corpus (bigger input is an error, not a hang).
MAX_SEGMENTS = 100_000
#: Largest file accepted, in bytes (50 MB: a WMT test set is well under 1 MB per system).
#: Decoding takes up to 4 bytes per character, so one file never needs much more than
#: a few hundred MB; the CLI checks the size before reading, the app's uploader refuses
#: bigger uploads (``max_upload_size``).
MAX_BYTES = 50_000_000

Format = Literal["text", "tsv", "jsonl"]
FORMATS: tuple[Format, ...] = ("text", "tsv", "jsonl")

_EXTENSIONS: dict[str, Format] = {
    ".txt": "text",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
#: Reference columns: ``ref``, ``ref2``, ``ref_2``, ``ref-2``, ``reference``, ``refs``.
_REF_COLUMN = re.compile(r"^ref(erence)?s?([_-]?\d+)?$", re.IGNORECASE)
#: Most systems in one long-form table.
_MAX_SYSTEMS = 50
_HYP_NAMES = ("hyp", "hypothesis", "mt", "translation")
_ID_NAMES = ("seg_id", "id", "segment", "line_no")
_SYSTEM_NAMES = ("system", "sys")
#: A lone UTF-16 surrogate (only reachable through a JSON ``\ud800`` escape or a str).
_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(ValueError):
    """Input that cannot be read as segments; the message says where and why."""


@dataclass(frozen=True, slots=True)
class SegmentTable:
    """What one file says.

    Attributes:
        name: the file name (for messages and default system names).
        systems: ``(system name, hypotheses)`` in file order; empty for a reference file.
        refs: per segment, the references this file gives (``None`` when it gives none).
        ids: segment ids from the file (``seg_id``), or 1-based line numbers.
    """

    name: str
    systems: tuple[tuple[str, tuple[str, ...]], ...]
    refs: tuple[tuple[str, ...], ...] | None
    ids: tuple[str, ...]

    @property
    def n_segments(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class Corpus:
    """Hypotheses of one or more systems and the references of every segment.

    Attributes:
        systems: ``(name, hypotheses)`` per system, all of the same length.
        refs: per segment, its references (one or more, in the order given).
        ids: per segment, an id for display (the file's ``seg_id`` or the line number).
        sources: the file names that went in, for reports.
    """

    systems: tuple[tuple[str, tuple[str, ...]], ...]
    refs: tuple[tuple[str, ...], ...]
    ids: tuple[str, ...]
    sources: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        n = len(self.refs)
        if len(self.ids) != n:
            raise InputError(f"{len(self.ids)} segment ids for {n} segments")
        for name, hyps in self.systems:
            if len(hyps) != n:
                raise InputError(
                    f"system {name!r} has {len(hyps)} segments but the references have {n}"
                )

    @property
    def n_segments(self) -> int:
        return len(self.refs)

    @property
    def n_refs(self) -> int:
        return max((len(r) for r in self.refs), default=1)

    @property
    def system_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.systems)

    def hyps(self, system: str | int = 0) -> tuple[str, ...]:
        """The hypotheses of a system, by name or position."""
        if isinstance(system, int):
            return self.systems[system][1]
        for name, hyps in self.systems:
            if name == system:
                return hyps
        raise KeyError(f"no system {system!r}; systems: {', '.join(self.system_names)}")


# ---------------------------------------------------------------------------
# bytes → text → lines
# ---------------------------------------------------------------------------
def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def check_size(size: int, name: str = "input", limit: int = MAX_BYTES) -> None:
    """Refuse a file of more than ``limit`` bytes (before reading it, where possible).

    Raises:
        InputError: naming the file, its size and the limit.
    """
    if size > limit:
        # Bytes as well as MB: "50.0 MB; at most 50 MB" hid which one was larger.
        raise InputError(
            f"{name} is {size:,} bytes ({size / 1e6:,.1f} MB); at most {limit:,} bytes "
            f"({limit / 1e6:,.0f} MB) per file are accepted — split the file and score the "
            "parts (statistics add up)"
        )


def decode(data: bytes | str, name: str = "input") -> str:
    """UTF-8 bytes → text, rejecting binary files and naming the line of a bad byte.

    A UTF-8 byte-order mark is dropped.  ``str`` input is returned unchanged
    (after the same NUL and lone-surrogate checks).

    Raises:
        InputError: more than :data:`MAX_BYTES`, NUL bytes (a binary or UTF-16 file),
            bytes that are not UTF-8, or a lone surrogate in ``str`` input.
    """
    if isinstance(data, str):
        check_size(len(data), name)
        if "\x00" in data:
            line = data.count("\n", 0, data.index("\x00")) + 1
            raise InputError(
                f"{name}: line {line} contains a NUL character; this looks like a binary file, "
                "not text with one segment per line"
            )
        bad = _SURROGATE.search(data)
        if bad is not None:
            line = data.count("\n", 0, bad.start()) + 1
            raise InputError(
                f"{name}: line {line} contains a lone surrogate (U+{ord(bad.group()):04X}), "
                "which is not text; save the file as UTF-8"
            )
        return data[1:] if data.startswith("\ufeff") else data
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"{name}: expected bytes or str, got {type(data).__name__}")
    check_size(len(data), name)
    data = bytes(data)
    nul = data.find(b"\x00")
    if nul >= 0:
        hint = (
            " (it may be UTF-16; save it as UTF-8)"
            if data[:2] in (b"\xff\xfe", b"\xfe\xff")
            else ""
        )
        raise InputError(
            f"{name}: line {_line_of(data, nul)} contains a NUL byte; this looks like a binary "
            f"file, not UTF-8 text with one segment per line{hint}"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{name}: line {line} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at "
            f"column {col}); save the file as UTF-8"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def split_lines(text: str, name: str = "input", *, limit: int = MAX_SEGMENTS) -> list[str]:
    """Text → segments: one per ``\\n``-terminated line, empty lines kept.

    ``"a\\nb\\n"`` and ``"a\\nb"`` both give ``["a", "b"]``; ``"a\\n\\nb"`` gives
    ``["a", "", "b"]``; ``""`` gives ``[]`` and ``"\\n"`` gives ``[""]``.

    Raises:
        InputError: more than ``limit`` segments.
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) > limit:
        raise InputError(
            f"{name} has {len(lines):,} segments; at most {limit:,} are accepted — "
            "split the file and score the parts (statistics add up)"
        )
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def detect_format(name: str, fmt: str | None = None) -> Format:
    """The format to read ``name`` with: ``fmt`` if given, else by extension (default text)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        return fmt  # type: ignore[return-value]
    return _EXTENSIONS.get(PurePath(name).suffix.lower(), "text")


# ---------------------------------------------------------------------------
# one file → SegmentTable
# ---------------------------------------------------------------------------
def read_table(
    data: bytes | str,
    name: str = "input",
    *,
    fmt: str | None = None,
    role: Literal["hyp", "ref", "auto"] = "auto",
    hyp_field: str | None = None,
    ref_fields: Sequence[str] | None = None,
    system_field: str | None = None,
    id_field: str | None = None,
    limit: int = MAX_SEGMENTS,
) -> SegmentTable:
    """Read one file into hypotheses and/or references.

    Args:
        data: the file content (bytes are decoded as UTF-8).
        name: the file name, used for the format, messages and the default system name.
        fmt: ``text``, ``tsv`` or ``jsonl``; by default from the extension.
        role: for plain text, whether the lines are hypotheses or references
            (``auto`` means hypotheses).  Tables say it with their column names.
        hyp_field: the hypothesis column/field (default: ``hyp``, ``hypothesis``, ``mt``
            or ``translation``, whichever exists).
        ref_fields: the reference columns/fields (default: ``ref``, ``ref2``, ``ref_3``…,
            and a ``refs`` list in JSONL).
        system_field: the system column (default ``system`` or ``sys`` if present).
        id_field: the segment-id column (default ``seg_id``, ``id``… if present).
        limit: most segments accepted.

    Raises:
        InputError: undecodable or binary content, a malformed row, a missing column,
            or more than ``limit`` segments.
    """
    kind = detect_format(name, fmt)
    text = decode(data, name)
    if kind == "text":
        lines = split_lines(text, name, limit=limit)
        ids = tuple(str(k) for k in range(1, len(lines) + 1))
        if role == "ref":
            return SegmentTable(name, (), tuple((ln,) for ln in lines), ids)
        return SegmentTable(name, ((_stem(name), tuple(lines)),), None, ids)
    # A long-form table holds several systems: cap the raw rows generously here and
    # the segments per system below.
    raw_limit = limit * _MAX_SYSTEMS + 1
    if kind == "tsv":
        header, rows = _tsv_rows(text, name, raw_limit)
    else:
        header, rows = _jsonl_rows(text, name, raw_limit)
    return _table_from_rows(
        name, header, rows, hyp_field, ref_fields, system_field, id_field, kind, limit
    )


def _stem(name: str) -> str:
    stem = PurePath(name).name
    for suffix in (".txt", ".tsv", ".jsonl", ".ndjson", ".tab"):
        if stem.lower().endswith(suffix):
            return stem[: -len(suffix)] or stem
    return stem or "system"


_Row = tuple[int, dict[str, Any]]  # (line number, fields)


def _tsv_rows(text: str, name: str, limit: int) -> tuple[list[str], list[_Row]]:
    lines = split_lines(text, name, limit=limit)
    if not lines:
        raise InputError(f"{name}: the TSV file is empty; it needs a header row (e.g. hyp<TAB>ref)")
    header = lines[0].split("\t")
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        raise InputError(f"{name}: the header repeats column(s) {', '.join(dup)}")
    rows: list[_Row] = []
    for k, line in enumerate(lines[1:], start=2):
        cells = line.split("\t")
        if len(cells) != len(header):
            raise InputError(
                f"{name}: line {k} has {len(cells)} tab-separated fields but the header has "
                f"{len(header)} ({', '.join(header)})"
            )
        rows.append((k, dict(zip(header, cells, strict=True))))
    return header, rows


def _jsonl_rows(text: str, name: str, limit: int) -> tuple[list[str], list[_Row]]:
    rows: list[_Row] = []
    header: list[str] = []
    seen: set[str] = set()
    for k, line in enumerate(split_lines(text, name, limit=limit), start=1):
        if not line.strip():
            raise InputError(
                f"{name}: line {k} is empty; each line of a JSONL file must be one JSON object"
            )
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{name}: line {k} is not valid JSON ({exc.msg})") from None
        except RecursionError:
            raise InputError(f"{name}: line {k} nests JSON too deeply to read") from None
        except ValueError as exc:  # e.g. an integer of more than 4,300 digits
            raise InputError(f"{name}: line {k} cannot be read as JSON ({exc})") from None
        if not isinstance(obj, dict):
            raise InputError(
                f"{name}: line {k} is a JSON {type(obj).__name__}, not an object with "
                "hyp/ref fields"
            )
        if "type" in obj and obj["type"] != "segment":
            continue  # e.g. the harness's final {"type": "corpus"} line
        for key in obj:
            if key not in seen:
                seen.add(key)
                header.append(key)
        rows.append((k, obj))
    return header, rows


def _pick(
    header: Sequence[str], explicit: str | None, names: Sequence[str], what: str, name: str
) -> str | None:
    if explicit is not None:
        if explicit not in header:
            raise InputError(f"{name}: no {what} column {explicit!r}; columns: {', '.join(header)}")
        return explicit
    lower = {h.lower(): h for h in header}
    for candidate in names:
        if candidate in lower:
            return lower[candidate]
    return None


def _as_text(value: Any, name: str, line: int, column: str) -> str:
    if isinstance(value, str):
        bad = _SURROGATE.search(value)
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


def _table_from_rows(
    name: str,
    header: list[str],
    rows: list[_Row],
    hyp_field: str | None,
    ref_fields: Sequence[str] | None,
    system_field: str | None,
    id_field: str | None,
    kind: str,
    limit: int,
) -> SegmentTable:
    hyp_col = _pick(header, hyp_field, _HYP_NAMES, "hypothesis", name)
    sys_col = _pick(header, system_field, _SYSTEM_NAMES, "system", name)
    id_col = _pick(header, id_field, _ID_NAMES, "segment id", name)
    if ref_fields is not None:
        for r in ref_fields:
            if r not in header:
                raise InputError(f"{name}: no reference column {r!r}; columns: {', '.join(header)}")
        ref_cols = list(ref_fields)
    else:
        ref_cols = [h for h in header if _REF_COLUMN.match(h)]
    if hyp_col is None and not ref_cols:
        raise InputError(
            f"{name}: found neither a hypothesis column (hyp) nor a reference column (ref); "
            f"columns: {', '.join(header) or 'none'}"
        )
    # Group rows by system (long form), keeping first-seen order.
    groups: dict[str, list[_Row]] = {}
    default_system = _stem(name)
    for line, row in rows:
        system = default_system
        if sys_col is not None:
            system = _as_text(row.get(sys_col, ""), name, line, sys_col) or default_system
        groups.setdefault(system, []).append((line, row))
    if not groups:
        groups[default_system] = []
    group_list = list(groups.items())
    first_name, first_rows = group_list[0]
    n = len(first_rows)
    if n > limit:
        raise InputError(
            f"{name} has {n:,} segments; at most {limit:,} are accepted — "
            "split the file and score the parts (statistics add up)"
        )
    for sys_name, sys_rows in group_list[1:]:
        if len(sys_rows) != n:
            raise InputError(
                f"{name}: system {sys_name!r} has {len(sys_rows)} segments but system "
                f"{first_name!r} has {n}"
            )

    def refs_of(line: int, row: dict[str, Any]) -> list[str]:
        out: list[str] = []
        for col in ref_cols:
            if col not in row:
                continue  # JSONL objects may leave a reference field out
            value = row[col]
            if isinstance(value, list) and kind == "jsonl":
                out.extend(_as_text(v, name, line, col) for v in value)
            else:
                out.append(_as_text(value, name, line, col))
        return out

    ids = tuple(
        str(row.get(id_col, k + 1)) if id_col is not None else str(k + 1)
        for k, (_, row) in enumerate(first_rows)
    )
    systems: list[tuple[str, tuple[str, ...]]] = []
    if hyp_col is not None:
        for sys_name, sys_rows in group_list:
            hyps = []
            for line, row in sys_rows:
                if hyp_col not in row:
                    raise InputError(f"{name}: line {line} has no field {hyp_col!r}")
                hyps.append(_as_text(row[hyp_col], name, line, hyp_col))
            systems.append((sys_name, tuple(hyps)))
    refs: tuple[tuple[str, ...], ...] | None = None
    if ref_cols:
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


# ---------------------------------------------------------------------------
# several files → Corpus
# ---------------------------------------------------------------------------
def load_corpus(
    hyp_files: Iterable[tuple[str, bytes | str]],
    ref_files: Iterable[tuple[str, bytes | str]] = (),
    *,
    fmt: str | None = None,
    limit: int = MAX_SEGMENTS,
) -> Corpus:
    """Put hypothesis and reference files together into one checked :class:`Corpus`.

    Args:
        hyp_files: ``(name, content)`` per hypothesis file.  Plain text gives one
            system named after the file; a table may give several systems (a
            ``system`` column) and may carry the references too.
        ref_files: ``(name, content)`` per reference file.  Each adds one reference
            per segment (a table with several reference columns adds several).
        fmt: force a format for every file (default: by extension).
        limit: most segments accepted.

    Raises:
        InputError: any file that can't be read, no hypotheses, no references or no
            segments, or counts that differ (naming both).
    """
    hyp_tables = [
        read_table(data, name, fmt=fmt, role="hyp", limit=limit) for name, data in hyp_files
    ]
    ref_tables = [
        read_table(data, name, fmt=fmt, role="ref", limit=limit) for name, data in ref_files
    ]
    systems: list[tuple[str, tuple[str, ...]]] = []
    sys_origin: dict[str, str] = {}
    ref_sets: list[tuple[tuple[str, ...], ...]] = []
    ids: tuple[str, ...] | None = None
    count_origin = ""
    n: int | None = None

    def check(count: int, what: str) -> None:
        nonlocal n, count_origin
        if n is None:
            n, count_origin = count, what
        elif count != n:
            raise InputError(f"{what} has {count:,} segments but {count_origin} has {n:,}")

    for table in hyp_tables:
        for name, hyps in table.systems:
            if name in sys_origin:
                name = _unique(name, sys_origin)
            sys_origin[name] = table.name
            check(len(hyps), _describe(table, name))
            systems.append((name, hyps))
        if table.refs is not None:
            check(len(table.refs), f"the references in {table.name}")
            ref_sets.append(table.refs)
        if ids is None:
            ids = table.ids
    for table in ref_tables:
        if table.refs is not None:
            check(len(table.refs), f"reference file {table.name}")
            ref_sets.append(table.refs)
        else:
            # A table with only a hyp-like column given as reference: use its texts.
            for _, texts in table.systems:
                check(len(texts), f"reference file {table.name}")
                ref_sets.append(tuple((t,) for t in texts))
    if not systems:
        raise InputError(
            "no hypotheses: give a hypothesis file (text, or a TSV/JSONL with a 'hyp' column)"
        )
    if not ref_sets:
        raise InputError("no references: give a reference file, or a TSV/JSONL with a 'ref' column")
    assert n is not None
    if n == 0:  # nothing to score, nothing to bootstrap: say so instead of printing NaN
        raise InputError(
            f"no segments: {count_origin} is empty (an empty line is an empty segment, "
            "but an empty file holds none)"
        )
    refs = tuple(tuple(r for rs in ref_sets for r in rs[k]) for k in range(n))
    for k, r in enumerate(refs):
        if not r:
            raise InputError(f"segment {k + 1} has no reference (an empty 'refs' list)")
    sources = tuple(t.name for t in hyp_tables + ref_tables)
    return Corpus(tuple(systems), refs, ids or tuple(str(k) for k in range(1, n + 1)), sources)


def _describe(table: SegmentTable, system: str) -> str:
    if len(table.systems) > 1:
        return f"system {system!r} in {table.name}"
    return f"hypothesis file {table.name}"


def _unique(name: str, taken: dict[str, str]) -> str:
    k = 2
    while f"{name}-{k}" in taken:
        k += 1
    return f"{name}-{k}"


# ---------------------------------------------------------------------------
# the demo corpus
# ---------------------------------------------------------------------------
DEMO_DIR = Path(__file__).resolve().parent / "data" / "demo"
DEMO_SYSTEMS = ("system_a", "system_b")


def demo_corpus() -> Corpus:
    """Twenty English segments written for this project, two systems, one reference."""
    return load_corpus(
        [(f"{name}.txt", (DEMO_DIR / f"{name}.txt").read_bytes()) for name in DEMO_SYSTEMS],
        [("reference.txt", (DEMO_DIR / "reference.txt").read_bytes())],
    )
