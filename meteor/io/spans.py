"""Human error annotations of the hypotheses, by character offsets (:func:`read_spans`).

The formats (``mqm``: WMT's MQM ``.tsv`` with ``<v>…</v>`` marks, as
google/wmt-mqm-human-evaluation publishes them; ``qe``: WMT QE word-level ``.tags``;
``jsonl``: one span per line) are those of docs/spans.md.  Offsets are those of the
hypothesis as the segments table gives it: the raters' text is never tokenised.  Rows
that do not fit their hypothesis are skipped with a notice (:class:`SkippedRow`); rows of
a (system, seg_id) the table lacks are counted (:attr:`SpanSet.unjoined`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import PurePath
from typing import Literal

from meteor.errors import InputError
from meteor.io.lines import decode, split_lines
from meteor.io.read import Corpus
from meteor.io.rows import header_row, jsonl_rows, tsv_row

__all__ = [
    "MORE_SKIPPED_TEXT",
    "MQM_COLUMNS",
    "QE_CATEGORIES",
    "SEVERITY_RANK",
    "SKIP_TEXT",
    "SPAN_FORMATS",
    "Annotation",
    "ErrorSpan",
    "Omission",
    "SkipReason",
    "SkippedRow",
    "SpanSet",
    "annotation_from_strings",
    "detect_span_format",
    "hypotheses_of",
    "read_spans",
    "severity_name",
    "span_strings",
]

SpanFormat = Literal["mqm", "qe", "jsonl"]
#: The annotation formats :func:`read_spans` reads.
SPAN_FORMATS: tuple[SpanFormat, ...] = ("mqm", "qe", "jsonl")
#: The columns an MQM file must have (others are not read).
MQM_COLUMNS = ("system", "seg_id", "rater", "target", "category", "severity")
#: Severities (lower-cased) → rank: 0 marks no error, 1 and more an error ("Minor or
#: worse").  ``BAD`` is a QE tag (no severity given): ranked as Minor.
SEVERITY_RANK: dict[str, int] = {
    "no-error": 0,
    "neutral": 0,
    "minor": 1,
    "bad": 1,
    "major": 2,
    "critical": 3,
}
_SEVERITY_NAME = {k: "BAD" if k == "bad" else k.capitalize() for k in SEVERITY_RANK}
_MARK = re.compile(r"</?v>")
_WORD = re.compile(r"\S+")
#: The categories of the QE reader's errors: a word tagged BAD, a gap tagged BAD (an omission).
QE_CATEGORIES = ("BAD word", "BAD gap")
#: Per-row notices kept in full; the rest are counted.
MAX_NOTICES = 20

#: Why a row was skipped: its ``<v>`` marks do not pair up, or its text is not the hypothesis.
SkipReason = Literal[
    "mark_nested",
    "mark_unopened",
    "mark_unclosed",
    "mark_empty",
    "not_hypothesis",
    "mt_not_hypothesis",
]
_PAIRS = "; the marks must be <v>…</v> pairs"
#: Why a row was skipped → its English notice (``str.format`` fields: those of
#: :meth:`SkippedRow.fields`); an interface in another language words the same fields.
SKIP_TEXT: dict[SkipReason, str] = {
    "mark_nested": "{file}: line {line}: skipped: a <v> mark opens inside another" + _PAIRS,
    "mark_unopened": "{file}: line {line}: skipped: a </v> mark closes nothing" + _PAIRS,
    "mark_unclosed": "{file}: line {line}: skipped: a <v> mark is never closed (no </v>)" + _PAIRS,
    "mark_empty": "{file}: line {line}: skipped: an empty <v></v> mark (an omission is a row "
    "with no mark)" + _PAIRS,
    "not_hypothesis": "{file}: line {line}: skipped: the target without its <v> marks is not "
    "the hypothesis of system {system!r} segment {seg_id!r} (they differ from character {at})",
    "mt_not_hypothesis": "{file}: line {line}: skipped: not the hypothesis of system "
    "{system!r} segment {seg_id!r}",
}
#: The notice after the first :data:`MAX_NOTICES` (field ``n``: the rows not listed).
MORE_SKIPPED_TEXT = "… and {n} more rows skipped"


@dataclass(frozen=True, slots=True)
class SkippedRow:
    """A row that was read but not used, and why (``str()``: its one-line English notice).

    Attributes:
        file: the file's name as given.
        line: the row's line in it (1-based).
        reason: a :data:`SKIP_TEXT` key.
        system, seg_id: the segment the row names (``not_hypothesis``, ``mt_not_hypothesis``).
        at: the first character (1-based) where the row's text and the hypothesis differ
            (``not_hypothesis``).
    """

    file: str
    line: int
    reason: SkipReason
    system: str = ""
    seg_id: str = ""
    at: int = 0

    def fields(self) -> dict[str, str | int]:
        """The notice's ``str.format`` fields (the data it names): all but the reason."""
        return {k: v for k, v in asdict(self).items() if k != "reason"}

    def __str__(self) -> str:
        return SKIP_TEXT[self.reason].format(**self.fields())


@dataclass(frozen=True, slots=True)
class ErrorSpan:
    """One rater's error on the characters ``hyp[start:end]`` of the hypothesis."""

    start: int
    end: int
    severity: str
    category: str
    rater: str

    @property
    def rank(self) -> int:
        """0 for no error (No-error, Neutral), 1 Minor (and QE ``BAD``), 2 Major, 3 Critical."""
        return SEVERITY_RANK[self.severity.lower()]


@dataclass(frozen=True, slots=True)
class Omission:
    """An error with no span in the hypothesis (something left out)."""

    severity: str
    category: str
    rater: str


@dataclass(frozen=True, slots=True)
class Annotation:
    """What the raters said about one hypothesis.

    Attributes:
        system: the system name.
        seg_id: the segment id (as the segments table gives it).
        hyp: the hypothesis the offsets refer to.
        raters: everyone who annotated it (a ``No-error`` row counts), sorted.
        spans: the marked errors (any severity; rank 0 ones mark no error).
        omissions: errors with no span.
    """

    system: str
    seg_id: str
    hyp: str
    raters: tuple[str, ...]
    spans: tuple[ErrorSpan, ...]
    omissions: tuple[Omission, ...]


@dataclass(frozen=True, slots=True)
class SpanSet:
    """Every annotation read, by (system, seg_id), and how the files were read.

    Attributes:
        format: ``mqm``, ``qe`` or ``jsonl``.
        annotations: one per annotated segment of the table, in the table's order.
        rows: annotation rows read.
        unjoined: rows of a (system, seg_id) the segments table does not have.
        skipped: rows skipped with a notice (a target that is not the hypothesis).
        notices: the first :data:`MAX_NOTICES` skipped rows (:attr:`unlisted`: the rest).
    """

    format: SpanFormat
    annotations: tuple[Annotation, ...]
    rows: int
    unjoined: int
    skipped: int
    notices: tuple[SkippedRow, ...]

    @property
    def unlisted(self) -> int:
        """Skipped rows beyond :attr:`notices` (counted, not listed)."""
        return self.skipped - len(self.notices)

    def notice_lines(self) -> tuple[str, ...]:
        """The notices in English, one line each, and "… and N more rows skipped" when
        some are not listed (what ``meteor spans`` warns)."""
        more = (MORE_SKIPPED_TEXT.format(n=f"{self.unlisted:,}"),) if self.unlisted else ()
        return (*map(str, self.notices), *more)

    def get(self, system: str, seg_id: str) -> Annotation | None:
        for a in self.annotations:
            if a.system == system and a.seg_id == seg_id:
                return a
        return None

    def by_key(self) -> dict[tuple[str, str], Annotation]:
        return {(a.system, a.seg_id): a for a in self.annotations}

    def summary(self) -> str:
        """One line: what was read and what was left out."""
        parts = [
            f"{len(self.annotations):,} annotated segments from {self.rows:,} rows ({self.format})"
        ]
        if self.unjoined:
            parts.append(f"{self.unjoined:,} rows name a segment the table does not have")
        if self.skipped:
            parts.append(f"{self.skipped:,} rows skipped (their text is not the hypothesis)")
        return "; ".join(parts)


def severity_name(value: str, name: str, line: int) -> str:
    """The canonical spelling of a severity given in any case (``major`` → ``Major``).

    Raises:
        InputError: a severity that is none of No-error, Neutral, Minor, Major, Critical.
    """
    key = value.strip().lower()
    if key not in _SEVERITY_NAME or key == "bad":
        raise InputError(
            f"{name}: line {line}: unknown severity {value!r}; expected one of No-error, "
            "Neutral, Minor, Major, Critical (any case)",
            "span_severity",
            file=name,
            line=line,
            value=value,
        )
    return _SEVERITY_NAME[key]


def hypotheses_of(corpus: Corpus) -> dict[tuple[str, str], str]:
    """(system, seg_id) → hypothesis, for every hypothesis of the corpus, in its order."""
    out: dict[tuple[str, str], str] = {}
    for name, hyps in corpus.systems:
        for seg_id, hyp in zip(corpus.ids_of(name), hyps, strict=True):
            out[name, seg_id] = hyp
    return out


def detect_span_format(names: Sequence[str], fmt: str | None = None) -> SpanFormat:
    """The annotation format: ``fmt`` if given, else from the files' extensions."""
    if fmt is not None:
        if fmt not in SPAN_FORMATS:
            raise InputError(f"unknown span format {fmt!r}; choose from {', '.join(SPAN_FORMATS)}")
        return fmt  # type: ignore[return-value]
    exts = {PurePath(n).suffix.lower() for n in names}
    if exts <= {".tags", ".mt"} and ".tags" in exts:
        return "qe"
    if exts <= {".jsonl", ".ndjson"}:
        return "jsonl"
    if exts <= {".tsv", ".tab"}:
        return "mqm"
    raise InputError(
        f"cannot tell the annotation format of {', '.join(names)}: MQM .tsv, QE .tags (with "
        "its .mt), or .jsonl spans; or give the format (--spans-format mqm|qe|jsonl)",
        "span_format",
        file=", ".join(names),
    )


class _Builder:
    """Rows → annotations, joined to the hypotheses."""

    def __init__(self, hyps: Mapping[tuple[str, str], str]) -> None:
        self.hyps = hyps
        self.raters: dict[tuple[str, str], set[str]] = {}
        self.spans: dict[tuple[str, str], list[ErrorSpan]] = {}
        self.omissions: dict[tuple[str, str], list[Omission]] = {}
        self.rows = self.unjoined = self.skipped = 0
        self.notices: list[SkippedRow] = []

    def notice(self, row: SkippedRow) -> None:
        self.skipped += 1
        if len(self.notices) < MAX_NOTICES:
            self.notices.append(row)

    def add(self, key: tuple[str, str], rater: str) -> None:
        self.raters.setdefault(key, set()).add(rater)
        self.spans.setdefault(key, [])
        self.omissions.setdefault(key, [])

    def build(self, fmt: SpanFormat, names: Sequence[str]) -> SpanSet:
        if not self.raters:
            raise InputError(
                f"{', '.join(names)}: none of the {self.rows:,} annotation rows names a "
                "(system, seg_id) of the segments table"
                + (" whose text is the hypothesis" if self.skipped else ""),
                "span_unjoined",
                file=", ".join(names),
                rows=self.rows,
                skipped=self.skipped,
            )
        anns = tuple(
            Annotation(
                key[0],
                key[1],
                hyp,
                tuple(sorted(self.raters[key])),
                tuple(sorted(self.spans[key], key=lambda s: (s.start, s.end, s.rater))),
                tuple(self.omissions[key]),
            )
            for key, hyp in self.hyps.items()
            if key in self.raters
        )
        return SpanSet(fmt, anns, self.rows, self.unjoined, self.skipped, tuple(self.notices))


class _MarkError(ValueError):
    """A row's ``<v>`` marks do not pair up (``reason`` says how)."""

    def __init__(self, reason: SkipReason) -> None:
        super().__init__(reason)
        self.reason: SkipReason = reason


def _marks(target: str) -> tuple[str, list[tuple[int, int]]]:
    """The target without its ``<v>…</v>`` marks, and each mark's offsets in it.

    Raises:
        _MarkError: nested, unopened, unclosed or empty marks.
    """
    plain: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = length = 0
    open_at: int | None = None
    for m in _MARK.finditer(target):
        plain.append(target[pos : m.start()])
        length += m.start() - pos
        pos = m.end()
        if m.group() == "<v>":
            if open_at is not None:
                raise _MarkError("mark_nested")
            open_at = length
        else:
            if open_at is None:
                raise _MarkError("mark_unopened")
            if length == open_at:
                raise _MarkError("mark_empty")
            spans.append((open_at, length))
            open_at = None
    if open_at is not None:
        raise _MarkError("mark_unclosed")
    plain.append(target[pos:])
    return "".join(plain), spans


def _read_mqm(b: _Builder, name: str, text: str) -> None:
    lines = split_lines(text, name)
    if not lines:
        raise InputError(
            f"{name}: the MQM file is empty; it needs a header row", "span_mqm_empty", file=name
        )
    header = header_row(name, lines[0].split("\t"), "tsv")
    missing = [c for c in MQM_COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"{name}: not an MQM file: no column {', '.join(missing)} (the header has "
            f"{', '.join(header)}; expected system, seg_id, rater, target, category, severity)",
            "span_mqm_columns",
            file=name,
            missing=", ".join(missing),
            header=", ".join(header),
        )
    for k, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        row = tsv_row(name, k, line.split("\t"), header, "tsv")
        b.rows += 1
        severity = severity_name(row["severity"], name, k)
        key = (row["system"], row["seg_id"])
        hyp = b.hyps.get(key)
        if hyp is None:
            b.unjoined += 1
            continue
        try:
            plain, spans = _marks(row["target"])
        except _MarkError as exc:
            b.notice(SkippedRow(name, k, exc.reason))
            continue
        if plain != hyp:
            at = len(os.path.commonprefix([plain, hyp])) + 1  # the first character that differs
            b.notice(SkippedRow(name, k, "not_hypothesis", key[0], key[1], at))
            continue
        rater = row["rater"]
        b.add(key, rater)
        category = row["category"].strip()
        if not spans and SEVERITY_RANK[severity.lower()] > 0:
            b.omissions[key].append(Omission(severity, category, rater))
        else:
            b.spans[key].extend(ErrorSpan(s, e, severity, category, rater) for s, e in spans)


def _read_jsonl(b: _Builder, name: str, text: str) -> None:
    lines = enumerate(split_lines(text, name), start=1)
    for k, obj in jsonl_rows(lines, name):
        b.rows += 1
        missing = [f for f in ("system", "seg_id", "start", "end", "severity") if f not in obj]
        if missing:
            raise InputError(
                f"{name}: line {k} has no field {', '.join(missing)}; each line is "
                '{"system", "seg_id", "start", "end", "severity", "category"}',
                "span_jsonl_fields",
                file=name,
                line=k,
                missing=", ".join(missing),
            )
        start, end = obj["start"], obj["end"]
        for field, v in (("start", start), ("end", end)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputError(
                    f"{name}: line {k}: {field} must be a character offset (a whole number "
                    f"0 or more), got {v!r}",
                    "span_offset",
                    file=name,
                    line=k,
                    field=field,
                    value=repr(v),
                )
        if end <= start:
            raise InputError(
                f"{name}: line {k}: an empty span (start {start}, end {end}); a span covers "
                "the characters [start, end) with end > start",
                "span_empty",
                file=name,
                line=k,
                start=start,
                end=end,
            )
        severity = severity_name(str(obj["severity"]), name, k)
        key = (str(obj["system"]), str(obj["seg_id"]))
        hyp = b.hyps.get(key)
        if hyp is None:
            b.unjoined += 1
            continue
        if end > len(hyp):
            raise InputError(
                f"{name}: line {k}: end {end} is past the end of the hypothesis of system "
                f"{key[0]!r} segment {key[1]!r} ({len(hyp)} characters)",
                "span_past_end",
                file=name,
                line=k,
                end=end,
                system=key[0],
                seg_id=key[1],
                length=len(hyp),
            )
        rater = str(obj.get("rater", ""))
        b.add(key, rater)
        b.spans[key].append(ErrorSpan(start, end, severity, str(obj.get("category", "")), rater))


def _read_qe(b: _Builder, files: Sequence[tuple[str, str]]) -> None:
    tags = [(n, t) for n, t in files if PurePath(n).suffix.lower() != ".mt"]
    mts = [(n, t) for n, t in files if PurePath(n).suffix.lower() == ".mt"]
    if len(tags) != 1 or len(mts) > 1:
        raise InputError(
            "QE word-level tags: give one .tags file (and at most one .mt file), got "
            + ", ".join(n for n, _ in files),
            "span_qe_files",
            file=", ".join(n for n, _ in files),
        )
    name, text = tags[0]
    tag_lines = split_lines(text, name)
    keys = list(b.hyps)
    mt_lines: list[str] | None = None
    if mts:
        mt_lines = split_lines(mts[0][1], mts[0][0])
        if len(mt_lines) != len(tag_lines):
            raise InputError(
                f"{mts[0][0]} has {len(mt_lines):,} lines but {name} has {len(tag_lines):,}; "
                "they must pair line by line",
                "span_mt_lines",
                file=mts[0][0],
                count=len(mt_lines),
                other_file=name,
                other_count=len(tag_lines),
            )
    if len(tag_lines) != len(keys):
        raise InputError(
            f"{name} has {len(tag_lines):,} lines but the segments table has {len(keys):,} "
            "hypotheses; QE tags pair with the hypotheses line by line",
            "span_tags_lines",
            file=name,
            count=len(tag_lines),
            hyps=len(keys),
        )
    for k, (line, key) in enumerate(zip(tag_lines, keys, strict=True), start=1):
        b.rows += 1
        hyp = b.hyps[key]
        if mt_lines is not None and mt_lines[k - 1] != hyp:
            b.notice(SkippedRow(mts[0][0], k, "mt_not_hypothesis", key[0], key[1]))
            continue
        words = [m.span() for m in _WORD.finditer(hyp)]
        labels = line.split()
        bad = [t for t in labels if t not in ("OK", "BAD")]
        if bad:
            raise InputError(
                f"{name}: line {k}: unknown tag {bad[0]!r}; the tags are OK and BAD",
                "span_qe_tag",
                file=name,
                line=k,
                tag=bad[0],
            )
        n = len(words)
        if len(labels) == 2 * n + 1:
            gaps, word_tags = labels[0::2], labels[1::2]
        elif len(labels) == n:
            gaps, word_tags = [], labels
        else:
            raise InputError(
                f"{name}: line {k}: {len(labels)} tags for {n} words (expected {n}, or "
                f"{2 * n + 1} with gap tags)",
                "span_tag_count",
                file=name,
                line=k,
                count=len(labels),
                words=n,
                with_gaps=2 * n + 1,
            )
        b.add(key, "qe")
        for (s, e), t in zip(words, word_tags, strict=True):
            if t == "BAD":
                b.spans[key].append(ErrorSpan(s, e, "BAD", QE_CATEGORIES[0], "qe"))
        b.omissions[key].extend(Omission("BAD", QE_CATEGORIES[1], "qe") for t in gaps if t == "BAD")


def read_spans(
    files: Sequence[tuple[str, bytes | str]],
    hyps: Mapping[tuple[str, str], str] | Corpus,
    fmt: str | None = None,
) -> SpanSet:
    """Read annotation files against the hypotheses they annotate.

    Args:
        files: ``(name, content)`` per file (an MQM or JSONL file may be given in parts;
            QE: the ``.tags`` file and optionally its ``.mt``).
        hyps: (system, seg_id) → hypothesis (:func:`hypotheses_of`), or the corpus.
        fmt: ``mqm``, ``qe`` or ``jsonl`` (default: from the names, :func:`detect_span_format`).

    Raises:
        InputError: one line naming the file and line (module docstring).
    """
    if not files:
        raise InputError("no annotation file given")
    table = hypotheses_of(hyps) if isinstance(hyps, Corpus) else dict(hyps)
    names = [n for n, _ in files]
    kind = detect_span_format(names, fmt)
    texts = [(n, decode(data, n)) for n, data in files]
    b = _Builder(table)
    if kind == "qe":
        _read_qe(b, texts)
    else:
        for n, t in texts:
            (_read_mqm if kind == "mqm" else _read_jsonl)(b, n, t)
    return b.build(kind, names)


def span_strings(annotation: Annotation) -> list[str]:
    """The annotation's spans and omissions as ``start,end,severity,rater,category`` strings
    (an omission: ``-,-,…``), the form the app's Inspect URL carries; read back by
    :func:`annotation_from_strings`."""
    out = [f"{s.start},{s.end},{s.severity},{s.rater},{s.category}" for s in annotation.spans]
    out += [f"-,-,{o.severity},{o.rater},{o.category}" for o in annotation.omissions]
    return out


def annotation_from_strings(
    hyp: str, values: Sequence[str], *, system: str = "", seg_id: str = ""
) -> Annotation:
    """An :class:`Annotation` of ``hyp`` from :func:`span_strings`' strings.

    Raises:
        InputError: a string that is not ``start,end,severity,rater,category``, offsets
            outside the hypothesis or empty, an unknown severity (one line, naming it).
    """
    spans: list[ErrorSpan] = []
    omissions: list[Omission] = []
    raters: set[str] = set()
    for k, v in enumerate(values, start=1):
        parts = v.split(",", 4)
        if len(parts) != 5:
            raise InputError(
                f"span {k} ({v[:40]!r}) is not start,end,severity,rater,category",
                "span_value",
                index=k,
                value=v[:40],
            )
        a, b, severity, rater, category = parts
        if severity.strip().lower() == "bad":
            severity = "BAD"
        else:
            try:
                severity = severity_name(severity, "spans", k)
            except InputError:
                raise InputError(
                    f"span {k}: unknown severity {severity!r}",
                    "span_value_severity",
                    index=k,
                    value=severity,
                ) from None
        raters.add(rater)
        if a == b == "-":
            omissions.append(Omission(severity, category, rater))
            continue
        if not (a.isdigit() and b.isdigit()):
            raise InputError(
                f"span {k}: start and end must be character offsets, got {a!r}, {b!r}",
                "span_value_offsets",
                index=k,
                start=a,
                end=b,
            )
        start, end = int(a), int(b)
        if not start < end <= len(hyp):
            raise InputError(
                f"span {k}: [{start}, {end}) is empty or past the end of the hypothesis "
                f"({len(hyp)} characters)",
                "span_value_range",
                index=k,
                start=start,
                end=end,
                length=len(hyp),
            )
        spans.append(ErrorSpan(start, end, severity, category, rater))
    spans.sort(key=lambda s: (s.start, s.end, s.rater))
    return Annotation(system, seg_id, hyp, tuple(sorted(raters)), tuple(spans), tuple(omissions))
