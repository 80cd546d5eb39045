"""Reading segment files: plain text, TSV, CSV and JSONL, one or several systems and references.

Bytes (an upload, a file, stdin) in, a :class:`Corpus` out; bad input raises
:class:`InputError` naming the file, the line and what to do.  Formats, columns and the
line-break rule (Java's ``BufferedReader.readLine``, as Meteor 1.5 reads its files) are
those of docs/corpus-ids.md.  :mod:`meteor.io.lines` turns bytes into lines,
:mod:`meteor.io.tables` one file into a :class:`SegmentTable`, this module several
tables into one :class:`Corpus` (and re-exports what callers need from the other two);
:mod:`meteor.io.stream` reads the same formats lazily.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from meteor.errors import InputError as InputError
from meteor.io.lines import (
    FORMATS,
    MAX_BYTES,
    MAX_SEGMENTS,
    InputWarning,
    check_size,
    decode,
    detect_format,
    notice,
    split_lines,
)
from meteor.io.tables import SegmentTable, id_order, read_table

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "MAX_SEGMENTS",
    "Corpus",
    "InputError",
    "InputWarning",
    "SegmentTable",
    "check_size",
    "decode",
    "demo_corpus",
    "describe_source",
    "detect_format",
    "load_corpus",
    "id_order",
    "read_table",
    "some_ids",
    "split_lines",
]


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
                    f"system {name!r} has {len(hyps)} segments but the references have {n}",
                    "system_refs_mismatch",
                    system=name,
                    count=len(hyps),
                    refs=n,
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
        return self._covered(self.refs, system)

    def ids_of(self, system: str | int = 0) -> tuple[str, ...]:
        """The ids of a system's segments, one per hypothesis."""
        return self._covered(self.ids, system)

    def _covered(self, per_segment: tuple[Any, ...], system: str | int) -> tuple[Any, ...]:
        k = self._index(system)
        return tuple(per_segment[i] for i in self.coverage[k]) if self.coverage else per_segment


# --------------------------------------------------------------------------- several files → Corpus


def load_corpus(
    hyp_files: Iterable[tuple[str, bytes | str]],
    ref_files: Iterable[tuple[str, bytes | str]] = (),
    *,
    fmt: str | None = None,
    limit: int = MAX_SEGMENTS,
    keep_bom: bool = False,
) -> Corpus:
    """Put hypothesis and reference files together into one checked :class:`Corpus`.

    When any table carries segment ids (a ``seg_id``/``id`` column), every input is
    paired by id (a plain-text file's ids are its line numbers; docs/corpus-ids.md),
    and a long-form table carrying its references gives each system only the segments
    it has rows for (``Corpus.coverage``).  Without ids, segments pair by position and
    every count must agree.

    Args:
        hyp_files: ``(name, content)`` per hypothesis file.  Plain text gives one
            system named after the file; a table may give several systems (a
            ``system`` column) and may carry the references too.
        ref_files: ``(name, content)`` per reference file.  Each adds one reference
            per segment (a table with several reference columns adds several).
        fmt: force a format for every file (default: by extension).
        limit: most segments accepted.
        keep_bom: a plain-text file's UTF-8 byte-order mark stays in its first segment,
            as the Meteor 1.5 jar reads it (default: dropped).

    Raises:
        InputError: any file that can't be read, no hypotheses, no references or no
            segments, counts that differ (naming both), or ids that don't pair up.
    """
    hyp_tables = [
        read_table(data, name, fmt=fmt, role="hyp", limit=limit, keep_bom=keep_bom)
        for name, data in hyp_files
    ]
    ref_tables = [
        read_table(data, name, fmt=fmt, role="ref", limit=limit, keep_bom=keep_bom)
        for name, data in ref_files
    ]
    if not any(t.systems for t in hyp_tables):
        raise InputError(
            "no hypotheses: give a hypothesis file (text, or a TSV/JSONL with a 'hyp' column)"
        )
    if not any(t.refs is not None for t in hyp_tables) and not ref_tables:
        unnamed = [n for n, _ in hyp_files if fmt is None and not PurePath(n).suffix]
        hint = (
            f"; {unnamed[0]} was read as plain text (one segment per line): its name says no "
            "table format, so name it (fmt='tsv', 'csv' or 'jsonl'; --input-format)"
            if unnamed
            else ""
        )
        raise InputError(
            f"no references: give a reference file, or a TSV/JSONL with a 'ref' column{hint}"
        )
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
    """Display names per table and system, made unique: a name an earlier input has is
    shown as ``name-2`` (``-3``…, never a name any input gives), with a notice."""
    given = {name for table in hyp_tables for name, _ in table.systems}
    taken: dict[str, str] = {}
    out: list[list[str]] = []
    for table in hyp_tables:
        names = []
        for name, _ in table.systems:
            shown = name
            if name in taken:
                shown = _unique(name, given.union(taken))
                notice(
                    f"{table.name}: system {name!r} is shown as {shown!r} ({taken[name]} has "
                    f"a system {name!r} too)",
                    "system_renamed",
                    name=table.name,
                    system=name,
                    shown_system=shown,
                    other_file=taken[name],
                )
            taken[shown] = table.name
            names.append(shown)
        out.append(names)
    return out


def _ref_sources(
    hyp_tables: Sequence[SegmentTable], ref_tables: Sequence[SegmentTable]
) -> list[tuple[str, tuple[str, ...], tuple[tuple[str, ...], ...]]]:
    """``(description, ids, references per id)`` per source of references."""
    out = []
    for table in hyp_tables:
        if table.refs is not None:
            out.append((f"the references in {table.name}", table.ids, table.refs))
    for table in ref_tables:
        if table.refs is not None:
            out.append((f"reference file {table.name}", table.ids, table.refs))
        else:
            # A table with only a hyp-like column given as reference: use its texts.
            for k, (_, texts) in enumerate(table.systems):
                ids = table.ids_of(k)
                out.append((f"reference file {table.name}", ids, tuple((x,) for x in texts)))
    return out


def _load_positional(
    hyp_tables: Sequence[SegmentTable], ref_tables: Sequence[SegmentTable]
) -> Corpus:
    """No ids anywhere: pair by position; every count must agree."""
    systems: list[tuple[str, tuple[str, ...]]] = []
    counts: list[tuple[int, tuple[str, str, str], bool]] = []  # and whether the last is blank

    def check(count: int, where: tuple[str, str, str], last: Sequence[str]) -> None:
        counts.append((count, where, bool(last) and not any(x.strip() for x in last)))

    names = _system_names(hyp_tables)
    for table, table_names in zip(hyp_tables, names, strict=True):
        for name, (_, hyps) in zip(table_names, table.systems, strict=True):
            role = "system" if len(table.systems) > 1 else "hyp_file"
            check(len(hyps), (role, table.name, name), hyps[-1:])
            systems.append((name, hyps))
        if table.refs is not None:
            check(len(table.refs), ("refs_in", table.name, ""), _last(table.refs))
    for table in ref_tables:
        if table.refs is not None:
            check(len(table.refs), ("ref_file", table.name, ""), _last(table.refs))
        else:
            for _, texts in table.systems:
                check(len(texts), ("ref_file", table.name, ""), texts[-1:])
    n, origin, origin_empty = counts[0]
    for count, where, empty in counts[1:]:
        if count != n:  # a blank last line (one line break too many) is the usual cause: say so
            note = " (the last one is empty)" if empty else ""
            origin_note = " (the last one is empty)" if origin_empty else ""
            raise InputError(
                f"{describe_source(*where)} has {count:,} segments{note} but "
                f"{describe_source(*origin)} has {n:,}{origin_note}",
                "count_mismatch",
                **_source_params("", where, count, empty),
                **_source_params("other_", origin, n, origin_empty),
            )
    if n == 0:  # nothing to score, nothing to bootstrap: say so instead of printing NaN
        raise InputError(
            f"no segments: {describe_source(*origin)} is empty (an empty line is an empty "
            "segment, but an empty file holds none)",
            "no_segments",
            role=origin[0],
            file=origin[1],
            system=origin[2],
        )
    sources = _ref_sources(hyp_tables, ref_tables)
    merged = tuple(tuple(r for _, _, rs in sources for r in rs[k]) for k in range(n))
    ids = hyp_tables[0].ids if hyp_tables and hyp_tables[0].systems else None
    return Corpus(
        tuple(systems),
        merged,
        ids or tuple(str(k) for k in range(1, n + 1)),
        tuple(t.name for t in [*hyp_tables, *ref_tables]),
    )


def _last(refs: Sequence[Sequence[str]]) -> Sequence[str]:
    """The references of the last segment (none when there are no segments)."""
    return refs[-1] if refs else ()


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
    first_what = sources[0][0]
    order = id_order(x for _, ids, _ in sources for x in ids)
    for what, ids, _ in sources:
        if len(ids) != len(set(ids)):
            dup = [x for x, c in Counter(ids).items() if c > 1]
            raise InputError(f"{what} repeats segment id(s) {some_ids(dup)}; each may appear once")
        missing = set(order).difference(ids)
        if missing:
            other = next(w for w, i, _ in sources if not missing.isdisjoint(i))
            raise InputError(
                f"{what} has no reference for segment id(s) "
                f"{some_ids(x for x in order if x in missing)} that {other} has{hint}"
            )
    position = {x: k for k, x in enumerate(order)}
    per_id: list[list[str]] = [[] for _ in order]
    for _, ids, refs in sources:
        for x, rs in zip(ids, refs, strict=True):
            per_id[position[x]].extend(rs)
    if not order:
        prefix = "the references in "
        empty = (
            f"{first_what.removeprefix(prefix)} has no rows (only a header)"
            if first_what.startswith(prefix)
            else f"{first_what} is empty"
        )
        raise InputError(f"no segments: {empty}")
    # The systems: each on its own ids, in corpus order.
    names = _system_names(hyp_tables)
    systems: list[tuple[str, tuple[str, ...]]] = []
    coverage: list[tuple[int, ...]] = []
    for table, table_names in zip(hyp_tables, names, strict=True):
        partial_ok = table.keyed and table.refs is not None
        for k, (name, (_, hyps)) in enumerate(zip(table_names, table.systems, strict=True)):
            ids = table.ids_of(k)
            what = describe_source(
                "system" if len(table.systems) > 1 else "hyp_file", table.name, name
            )
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


def describe_source(role: str, file: str, system: str = "") -> str:
    """An input named for a message, from the ``role`` (``hyp_file``, ``system``, ``refs_in``
    or ``ref_file``), ``file`` and ``system`` params of the ``count_mismatch`` and
    ``no_segments`` codes (:data:`meteor.errors.INPUT_CODES`)."""
    if role == "system":
        return f"system {system!r} in {file}"
    what = {"refs_in": "the references in", "ref_file": "reference file"}
    return f"{what.get(role, 'hypothesis file')} {file}"


def _source_params(
    prefix: str, where: tuple[str, str, str], count: int, last_empty: bool
) -> dict[str, Any]:
    """The ``count_mismatch`` params of one side (``prefix`` ``""`` or ``other_``)."""
    role, file, system = where
    return {
        f"{prefix}role": role,
        f"{prefix}file": file,
        f"{prefix}system": system,
        f"{prefix}count": count,
        f"{prefix}last_empty": last_empty,
    }


def _unique(name: str, taken: Container[str]) -> str:
    k = 2
    while f"{name}-{k}" in taken:
        k += 1
    return f"{name}-{k}"


def some_ids(ids: Iterable[str], limit: int = 5) -> str:
    """``'3', '17', '42' and 12 more``: ids quoted for a message."""
    items = list(ids)
    shown = ", ".join(repr(x) for x in items[:limit])
    return shown + (f" and {len(items) - limit:,} more" if len(items) > limit else "")


# --------------------------------------------------------------------------- the demo corpus

DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "demo"
DEMO_SYSTEMS = ("system_a", "system_b")


def demo_corpus() -> Corpus:
    """Twenty English segments written for this project, two systems, one reference."""
    return load_corpus(
        [(f"{name}.txt", (DEMO_DIR / f"{name}.txt").read_bytes()) for name in DEMO_SYSTEMS],
        [("reference.txt", (DEMO_DIR / "reference.txt").read_bytes())],
    )
