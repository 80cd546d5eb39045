"""Reading segment files: plain text, TSV and JSONL, one or several systems and references.

Everything arrives as ``bytes`` (an upload, a file, stdin) and leaves as a
:class:`Corpus`: the systems' hypotheses and, per segment, its references.  Bad
input raises :class:`InputError` with one sentence that names the file, the line
and what to do about it; nothing here prints or exits.

Formats (chosen by extension, or by ``fmt``):

* **text** (``.txt`` and anything else): one segment per line, UTF-8.  Lines end at
  ``\\r\\n``, ``\\n`` or a lone ``\\r`` (:func:`split_lines`; the rule of Java's
  ``BufferedReader.readLine``, with which Meteor 1.5 reads its files, and of Python's
  universal newlines), nowhere else: form feed, vertical tab, NEL, U+2028 and U+2029
  stay inside the segment (the normaliser treats them as spaces).  An empty line is an
  empty segment; a final line break does not start another one.
* **tsv** (``.tsv``): a header row, then one row per segment, tab-separated and
  unquoted (``csv.QUOTE_NONE``, as the WMT and compare-mt files are).  Columns:
  ``hyp``; references ``ref``, ``ref2``, ``ref_3``… (``ref_tok`` and the like are
  not references); optionally ``system`` (several systems in long form) and
  ``seg_id`` (segments then pair by id, not by row: :func:`load_corpus`; without it,
  each system's rows are its segments in order).
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
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Literal

from meteor.errors import InputError as InputError

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "MAX_SEGMENTS",
    "Corpus",
    "Format",
    "LINE_BREAK",
    "InputError",
    "SegmentTable",
    "check_size",
    "decode",
    "demo_corpus",
    "detect_format",
    "load_corpus",
    "id_order",
    "read_table",
    "some_ids",
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


@dataclass(frozen=True, slots=True)
class Corpus:
    """Hypotheses of one or more systems and the references of every segment.

    Attributes:
        systems: ``(name, hypotheses)`` per system.  Without ``coverage``, one
            hypothesis per segment; with it, one per index in ``coverage[k]``.
        refs: per segment, its references (one or more, in the order given).
        ids: per segment, its id (the files' ``seg_id``, or the line number).
        sources: the file names that went in, for reports.
        coverage: per system, the (ascending) indices of the segments it has a
            hypothesis for; empty when every system covers every segment.
        keyed: the segments were paired by the ids the files carry.
    """

    systems: tuple[tuple[str, tuple[str, ...]], ...]
    refs: tuple[tuple[str, ...], ...]
    ids: tuple[str, ...]
    sources: tuple[str, ...] = field(default=())
    coverage: tuple[tuple[int, ...], ...] = field(default=())
    keyed: bool = False

    def __post_init__(self) -> None:
        n = len(self.refs)
        if len(self.ids) != n:
            raise InputError(f"{len(self.ids)} segment ids for {n} segments")
        if self.coverage and len(self.coverage) != len(self.systems):
            raise InputError(
                f"coverage is given for {len(self.coverage)} systems but there are "
                f"{len(self.systems)}"
            )
        for k, (name, hyps) in enumerate(self.systems):
            if self.coverage:
                cov = self.coverage[k]
                if len(hyps) != len(cov):
                    raise InputError(
                        f"system {name!r} has {len(hyps)} hypotheses for {len(cov)} segments"
                    )
                if any(not 0 <= i < n for i in cov) or any(
                    x >= y for x, y in zip(cov, cov[1:], strict=False)
                ):
                    raise InputError(f"system {name!r}: coverage must be ascending segment indices")
            elif len(hyps) != n:
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

    @property
    def complete(self) -> bool:
        """Every system has a hypothesis for every segment."""
        return not self.coverage or all(len(c) == len(self.refs) for c in self.coverage)

    def _index(self, system: str | int) -> int:
        if isinstance(system, int):
            if not -len(self.systems) <= system < len(self.systems):
                raise KeyError(f"no system number {system}; there are {len(self.systems)}")
            return system % len(self.systems)
        for k, (name, _) in enumerate(self.systems):
            if name == system:
                return k
        raise KeyError(f"no system {system!r}; systems: {', '.join(self.system_names)}")

    def hyps(self, system: str | int = 0) -> tuple[str, ...]:
        """The hypotheses of a system, by name or position (in segment order)."""
        return self.systems[self._index(system)][1]

    def indices(self, system: str | int = 0) -> tuple[int, ...]:
        """The indices (into ``refs`` and ``ids``) of the segments a system covers."""
        k = self._index(system)
        return self.coverage[k] if self.coverage else tuple(range(len(self.refs)))

    def refs_of(self, system: str | int = 0) -> tuple[tuple[str, ...], ...]:
        """The references of a system's segments, one entry per hypothesis."""
        k = self._index(system)
        if not self.coverage:
            return self.refs
        return tuple(self.refs[i] for i in self.coverage[k])

    def ids_of(self, system: str | int = 0) -> tuple[str, ...]:
        """The ids of a system's segments, one per hypothesis."""
        k = self._index(system)
        if not self.coverage:
            return self.ids
        return tuple(self.ids[i] for i in self.coverage[k])


# ---------------------------------------------------------------------------
# bytes → text → lines
# ---------------------------------------------------------------------------
#: A line break (:func:`split_lines`): CR LF, LF or a lone CR.
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def _line_of(data: bytes, offset: int) -> int:
    return len(_LINE_BREAK_BYTES.findall(data, 0, offset)) + 1


def _line_of_text(text: str, offset: int) -> int:
    return len(LINE_BREAK.findall(text, 0, offset)) + 1


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
            line = _line_of_text(data, data.index("\x00"))
            raise InputError(
                f"{name}: line {line} contains a NUL character; this looks like a binary file, "
                "not text with one segment per line"
            )
        bad = _SURROGATE.search(data)
        if bad is not None:
            line = _line_of_text(data, bad.start())
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
    """Text → segments: the one line-break rule of the CLI, the API and the app.

    A line ends at ``\\r\\n``, ``\\n`` or a lone ``\\r`` — what Java's
    ``BufferedReader.readLine`` (Meteor 1.5 reads its files with it) and Python's
    universal newlines accept — and nowhere else: unlike ``str.splitlines``, form
    feed, vertical tab, the file/group/record separators, NEL (U+0085), U+2028 and
    U+2029 stay inside the segment.  Empty lines are kept; a final line break does
    not start another segment.

    ``"a\\nb\\n"`` and ``"a\\nb"`` both give ``["a", "b"]``; ``"a\\n\\nb"`` gives
    ``["a", "", "b"]``; ``"a\\rb\\r"`` gives ``["a", "b"]``; ``""`` gives ``[]`` and
    ``"\\n"`` gives ``[""]``.

    Raises:
        InputError: more than ``limit`` segments.
    """
    if not text:
        return []
    lines = LINE_BREAK.split(text) if "\r" in text else text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) > limit:
        raise InputError(
            f"{name} has {len(lines):,} segments; at most {limit:,} are accepted — "
            "split the file and score the parts (statistics add up)"
        )
    return lines


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
    for sys_name, sys_rows in group_list:
        if len(sys_rows) > limit:
            raise InputError(
                f"{name}"
                + (f": system {sys_name!r}" if len(group_list) > 1 else "")
                + f" has {len(sys_rows):,} segments; at most {limit:,} are accepted — "
                "split the file and score the parts (statistics add up)"
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

    systems: list[tuple[str, tuple[str, ...]]] = []
    if hyp_col is not None:
        for sys_name, sys_rows in group_list:
            hyps = []
            for line, row in sys_rows:
                if hyp_col not in row:
                    raise InputError(f"{name}: line {line} has no field {hyp_col!r}")
                hyps.append(_as_text(row[hyp_col], name, line, hyp_col))
            systems.append((sys_name, tuple(hyps)))
    if id_col is not None:
        return _keyed_table(name, group_list, systems, id_col, refs_of if ref_cols else None, limit)
    first_name, first_rows = group_list[0]
    n = len(first_rows)
    for sys_name, sys_rows in group_list[1:]:
        if len(sys_rows) != n:
            raise InputError(
                f"{name}: system {sys_name!r} has {len(sys_rows)} segments but system "
                f"{first_name!r} has {n}; give a seg_id column to pair the segments by id"
            )
    ids = tuple(str(k) for k in range(1, n + 1))
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


def _id_text(value: Any, name: str, line: int, column: str) -> str:
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


def some_ids(ids: Iterable[str], limit: int = 5) -> str:
    """``'3', '17', '42' and 12 more``: ids quoted for a message."""
    items = list(ids)
    shown = ", ".join(repr(x) for x in items[:limit])
    return shown + (f" and {len(items) - limit:,} more" if len(items) > limit else "")


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
    group_list: list[tuple[str, list[_Row]]],
    systems: list[tuple[str, tuple[str, ...]]],
    id_col: str,
    refs_of: Any,
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
            seg = _id_text(row[id_col], name, line, id_col)
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
                        + "; all rows of a segment must share its references"
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

    **Pairing.**  When any table carries segment ids (a ``seg_id``/``id`` column),
    every input is paired **by id**, never by row position: a shuffled, filtered or
    re-sorted file gives the same per-segment scores.  A plain-text file's ids are
    its line numbers.  The segments are the ids the references give (in
    :func:`id_order`); a repeated id within a system or a reference file, a
    hypothesis id that has no reference ("extra"), and a reference id missing from
    a separate hypothesis file or from another reference file are errors that name
    the ids.  A long-form table that carries the references in its rows (such as
    WMT's DA files) gives each system exactly the segments it has rows for: the
    systems need not cover the same segments (``Corpus.coverage``).  Without ids
    anywhere, segments pair by position and every count must agree.

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
            segments, counts that differ (naming both), or ids that don't pair up.
    """
    hyp_tables = [
        read_table(data, name, fmt=fmt, role="hyp", limit=limit) for name, data in hyp_files
    ]
    ref_tables = [
        read_table(data, name, fmt=fmt, role="ref", limit=limit) for name, data in ref_files
    ]
    if not any(t.systems for t in hyp_tables):
        raise InputError(
            "no hypotheses: give a hypothesis file (text, or a TSV/JSONL with a 'hyp' column)"
        )
    if not any(t.refs is not None for t in hyp_tables) and not ref_tables:
        raise InputError("no references: give a reference file, or a TSV/JSONL with a 'ref' column")
    if any(t.keyed for t in hyp_tables + ref_tables):
        corpus = _load_keyed(hyp_tables, ref_tables)
    else:
        corpus = _load_positional(hyp_tables, ref_tables)
    for k, r in enumerate(corpus.refs):
        if not r:
            raise InputError(
                f"segment {k + 1} has no reference (an empty 'refs' list; segment id "
                f"{corpus.ids[k]!r})"
            )
    return corpus


def _system_names(hyp_tables: Sequence[SegmentTable]) -> list[list[str]]:
    """Display names per table and system, made unique (``hyp``, ``hyp-2``…)."""
    taken: dict[str, str] = {}
    out: list[list[str]] = []
    for table in hyp_tables:
        names = []
        for name, _ in table.systems:
            if name in taken:
                name = _unique(name, taken)
            taken[name] = table.name
            names.append(name)
        out.append(names)
    return out


def _ref_sources(
    hyp_tables: Sequence[SegmentTable], ref_tables: Sequence[SegmentTable]
) -> list[tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...], bool]]:
    """``(description, ids, references per id, from a hypothesis table)`` per source."""
    out = []
    for table in hyp_tables:
        if table.refs is not None:
            out.append((f"the references in {table.name}", table.ids, table.refs, True))
    for table in ref_tables:
        if table.refs is not None:
            out.append((f"reference file {table.name}", table.ids, table.refs, False))
        else:
            # A table with only a hyp-like column given as reference: use its texts.
            for k, (_, texts) in enumerate(table.systems):
                ids = table.ids_of(k)
                out.append((f"reference file {table.name}", ids, tuple((x,) for x in texts), False))
    return out


def _load_positional(
    hyp_tables: Sequence[SegmentTable], ref_tables: Sequence[SegmentTable]
) -> Corpus:
    """No ids anywhere: pair by position; every count must agree."""
    systems: list[tuple[str, tuple[str, ...]]] = []
    count_origin = ""
    n: int | None = None

    def check(count: int, what: str) -> None:
        nonlocal n, count_origin
        if n is None:
            n, count_origin = count, what
        elif count != n:
            raise InputError(f"{what} has {count:,} segments but {count_origin} has {n:,}")

    names = _system_names(hyp_tables)
    sources = _ref_sources(hyp_tables, ref_tables)
    for table, table_names in zip(hyp_tables, names, strict=True):
        for name, (_, hyps) in zip(table_names, table.systems, strict=True):
            check(len(hyps), _describe(table, name))
            systems.append((name, hyps))
        if table.refs is not None:
            check(len(table.refs), f"the references in {table.name}")
    for what, _, refs, from_hyp in sources:
        if not from_hyp:
            check(len(refs), what)
    assert n is not None
    if n == 0:  # nothing to score, nothing to bootstrap: say so instead of printing NaN
        raise InputError(
            f"no segments: {count_origin} is empty (an empty line is an empty segment, "
            "but an empty file holds none)"
        )
    merged = tuple(tuple(r for _, _, rs, _ in sources for r in rs[k]) for k in range(n))
    ids = hyp_tables[0].ids if hyp_tables and hyp_tables[0].systems else None
    return Corpus(
        tuple(systems),
        merged,
        ids or tuple(str(k) for k in range(1, n + 1)),
        tuple(t.name for t in [*hyp_tables, *ref_tables]),
    )


def _load_keyed(hyp_tables: Sequence[SegmentTable], ref_tables: Sequence[SegmentTable]) -> Corpus:
    """Some input carries ids: pair every input by id (a text file's ids are line numbers)."""
    sources = _ref_sources(hyp_tables, ref_tables)
    plain = {t.name for t in [*hyp_tables, *ref_tables] if not t.keyed}
    hint = (
        f" ({', '.join(sorted(plain))} {'is' if len(plain) == 1 else 'are'} plain text or has "
        "no id column, so its segment ids are its line numbers)"
        if plain
        else ""
    )
    # The segments: every id the references give; each reference source covers them all.
    first_what, first_ids, _, _ = sources[0]
    order = id_order(x for _, ids, _, _ in sources for x in ids)
    for what, ids, _, _ in sources:
        if len(ids) != len(set(ids)):
            dup = [x for x, c in Counter(ids).items() if c > 1]
            raise InputError(f"{what} repeats segment id(s) {some_ids(dup)}; each may appear once")
        missing = set(order).difference(ids)
        if missing:
            other = next(w for w, i, _, _ in sources if not missing.isdisjoint(i))
            raise InputError(
                f"{what} has no reference for segment id(s) "
                f"{some_ids(x for x in order if x in missing)} that {other} has{hint}"
            )
    position = {x: k for k, x in enumerate(order)}
    per_id: list[list[str]] = [[] for _ in order]
    for _, ids, refs, _ in sources:
        for x, rs in zip(ids, refs, strict=True):
            per_id[position[x]].extend(rs)
    if not order:
        raise InputError(f"no segments: {first_what} is empty")
    # The systems: each on its own ids, in corpus order.
    names = _system_names(hyp_tables)
    systems: list[tuple[str, tuple[str, ...]]] = []
    coverage: list[tuple[int, ...]] = []
    for table, table_names in zip(hyp_tables, names, strict=True):
        partial_ok = table.keyed and table.refs is not None
        for k, (name, (_, hyps)) in enumerate(zip(table_names, table.systems, strict=True)):
            ids = table.ids_of(k)
            what = _describe(table, name)
            if len(ids) != len(set(ids)):  # a plain table's ids are unique; keyed ones checked
                dup = [x for x, c in Counter(ids).items() if c > 1]
                raise InputError(f"{what} repeats segment id(s) {some_ids(dup)}")
            extra = [x for x in ids if x not in position]
            if extra:
                raise InputError(
                    f"{what} has segment id(s) {some_ids(extra)} that no reference has "
                    f"({len(extra):,} of its {len(ids):,} ids){hint}"
                )
            if not partial_ok and len(ids) != len(order):
                have = set(ids)
                absent = [x for x in order if x not in have]
                raise InputError(
                    f"{what} has no hypothesis for segment id(s) {some_ids(absent)} "
                    f"({len(absent):,} of the {len(order):,} ids of {first_what}){hint}; "
                    "a system may skip segments only when its rows carry their references"
                )
            pos = sorted((position[x], h) for x, h in zip(ids, hyps, strict=True))
            systems.append((name, tuple(h for _, h in pos)))
            coverage.append(tuple(p for p, _ in pos))
    full = all(len(c) == len(order) for c in coverage)
    return Corpus(
        tuple(systems),
        tuple(tuple(r) for r in per_id),
        order,
        tuple(t.name for t in [*hyp_tables, *ref_tables]),
        () if full else tuple(coverage),
        True,
    )


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
DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "demo"
DEMO_SYSTEMS = ("system_a", "system_b")


def demo_corpus() -> Corpus:
    """Twenty English segments written for this project, two systems, one reference."""
    return load_corpus(
        [(f"{name}.txt", (DEMO_DIR / f"{name}.txt").read_bytes()) for name in DEMO_SYSTEMS],
        [("reference.txt", (DEMO_DIR / "reference.txt").read_bytes())],
    )
