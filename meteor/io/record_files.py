"""Exports: segment records (CSV, JSONL), a JSON report, Meteor 1.5 alignment files.

Every export carries the signature, so a number never travels without the
settings that produced it.  :func:`write_alignments` writes Meteor 1.5's
``-writeAlignments`` file (``<prefix>-align.out``, read by Meteor X-Ray) byte for
byte as ``Alignment.toString`` and ``Meteor.java:201`` do (``meteor-1.5.md``
section 14), with numbers formatted by :func:`java_double`.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from typing import Any

from meteor.json_numbers import json_number
from meteor.module_registry import Module
from meteor.params import VERSION, Params
from meteor.signatures import check_same_settings
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "CSV_COLUMNS",
    "FORMULA_TRIGGERS",
    "alignment_block",
    "csv_cell",
    "java_double",
    "report",
    "segment_record",
    "segment_row",
    "segments_csv",
    "segments_jsonl",
    "write_alignments",
]


def java_double(x: float) -> str:
    """Format ``x`` as Java's ``Double.toString`` does (JDK 19 and later).

    * ``NaN``, ``Infinity``, ``-Infinity``, ``0.0``, ``-0.0``;
    * plain notation for 10⁻³ ≤ |x| < 10⁷, with at least one digit after the point
      (``1.0``, ``0.5``, ``0.001``, ``9999999.0``);
    * otherwise computerised scientific notation ``d.ddddE±n`` without a ``+``
      (``1.0E-4``, ``1.0E7``, ``1.23456789E8``);
    * the digits are the shortest decimal that reads back as the same double (what
      Python's ``repr`` gives); when that has one digit, the closest two-digit
      decimal that reads back is used instead (``4.9E-324``, not ``5.0E-324``).

    JDK 18 and earlier (Meteor 1.5's era) printed, for rare values, a longer digit
    string (JDK-4511638: ``1.0E23`` as ``9.999999999999999E22``); both read back the same.
    """
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    digits, exp10 = _shortest_digits(abs(x))
    if -3 <= exp10 < 7:
        if exp10 >= 0:
            whole = digits[: exp10 + 1].ljust(exp10 + 1, "0")
            frac = digits[exp10 + 1 :] or "0"
        else:
            whole = "0"
            frac = "0" * (-exp10 - 1) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exp10}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """(significant digits, decimal exponent of the first digit) for ``x > 0``."""
    ds, exp10 = _digits(Decimal(repr(x)))
    if len(ds) == 1:
        # Java requires two digits; pick the closest two-digit decimal that reads back.
        two = Context(prec=2, rounding=ROUND_HALF_EVEN).plus(Decimal(x))
        if float(two) == x:
            return _digits(two)
    return ds, exp10


def _digits(d: Decimal) -> tuple[str, int]:
    """(significant digits without trailing zeros, decimal exponent of the first digit)."""
    t = d.as_tuple()
    digits = "".join(map(str, t.digits))
    assert isinstance(t.exponent, int)
    return digits.rstrip("0") or "0", len(digits) - 1 + t.exponent


ALIGN_HEADER = "Line2Start:Length\tLine1Start:Length\tModule\t\tScore"


def alignment_block(result: MeteorResult, number: int, modules: Sequence[Module]) -> str:
    """One segment of Meteor 1.5's ``-writeAlignments`` file, blank line included.

    Layout (``Alignment.toString`` with the header of ``Meteor.java:201``)::

        Alignment\\t<number>\\t<P>\\t<R>\\t<fragPenalty>\\t<score>
        <hypothesis tokens>
        <reference tokens (the chosen reference)>
        Line2Start:Length\\tLine1Start:Length\\tModule\\t\\tScore
        <refStart>:<refLen>\\t\\t\\t<hypStart>:<hypLen>\\t\\t\\t<stage index>\\t\\t1.0
        (one row per match, in reference order)
        <blank line>

    Line 1 is the hypothesis, line 2 the reference; the stage index is the
    module's position in ``modules`` (Meteor's ``-m`` order); the score column is
    the match probability, always 1.0 in Meteor 1.5 output.

    Args:
        result: a scored segment.
        number: its 1-based segment number.
        modules: the active modules in stage order (``params.modules``).
    """
    stage = {m: k for k, m in enumerate(modules)}
    a = result.alignment
    numbers = (result.precision, result.recall, result.penalty, result.score)
    lines = [
        "\t".join(["Alignment", str(number), *map(java_double, numbers)]),
        _java_trim(" ".join(t.text for t in a.hyp)),
        _java_trim(" ".join(t.text for t in a.ref)),
        ALIGN_HEADER,
    ]
    for m in sorted(a.matches, key=lambda m: m.ref.start):
        if m.module not in stage:
            raise ValueError(
                f"match module {m.module.value!r} is not among the active modules "
                f"{[x.value for x in modules]}"
            )
        lines.append(
            f"{m.ref.start}:{len(m.ref)}\t\t\t{m.hyp.start}:{len(m.hyp)}\t\t\t"
            f"{stage[m.module]}\t\t1.0"
        )
    return "\n".join(lines) + "\n\n"


def _java_trim(s: str) -> str:
    """Java ``String.trim``: drop every character up to U+0020 at both ends."""
    return s.strip("".join(chr(c) for c in range(33)))


def write_alignments(results: Iterable[MeteorResult], modules: Sequence[Module]) -> str:
    """The whole ``-writeAlignments`` file for a corpus (``<prefix>-align.out``): the
    :func:`alignment_block` of each segment, numbered from 1."""
    return "".join(alignment_block(r, k, modules) for k, r in enumerate(results, start=1))


CSV_COLUMNS: tuple[str, ...] = (
    "system",
    "segment",
    "seg_id",
    "score",
    "precision",
    "recall",
    "fmean",
    "frag",
    "penalty",
    "chunks",
    "matches_hyp",
    "matches_ref",
    "hyp_len",
    "ref_len",
    "best_ref_index",
    "hyp",
    "ref",
    "signature",
)


def segment_row(
    result: MeteorResult, segment: int, *, system: str = "", seg_id: str | None = None
) -> dict[str, Any]:
    """A flat row for tables and CSV (NaN as ``None``); ``ref`` is the chosen reference."""
    return {
        "system": system,
        "segment": segment,
        "seg_id": seg_id if seg_id is not None else str(segment),
        "score": result.score,
        "precision": json_number(result.precision),
        "recall": json_number(result.recall),
        "fmean": json_number(result.fmean),
        "frag": json_number(result.frag),
        "penalty": json_number(result.penalty),
        "chunks": result.stats.chunks,
        "matches_hyp": result.stats.hyp_word_matches,
        "matches_ref": result.stats.ref_word_matches,
        "hyp_len": result.stats.hyp_len,
        "ref_len": result.stats.ref_len,
        "best_ref_index": result.best_ref_index,
        "hyp": result.hyp,
        "ref": result.refs[result.best_ref_index],
        "signature": result.signature,
    }


#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV
#: Injection"): ``=``, ``+``, ``-``, ``@``, tab and carriage return.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula: a text cell
    starting with one of :data:`FORMULA_TRIGGERS` gets a leading ``'`` (OWASP's advice on
    CSV injection); floats as ``repr`` (a negative number stays a number), None empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def segments_csv(
    results: Sequence[MeteorResult],
    *,
    system: str = "",
    ids: Sequence[str] | None = None,
    header: bool = True,
    numbers: Sequence[int] | None = None,
) -> str:
    """Segment rows as CSV (RFC 4180 quoting, ``\\n`` line ends, empty cell for NaN, text
    cells through :func:`csv_cell`); ``numbers``: the 1-based segment numbers when not
    1, 2, 3…"""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    if header:
        w.writeheader()
    for k, r in enumerate(results):
        n = numbers[k] if numbers else k + 1
        row = segment_row(r, n, system=system, seg_id=ids[k] if ids else None)
        w.writerow({c: csv_cell(v) for c, v in row.items()})
    return buf.getvalue()


def segment_record(
    result: MeteorResult, segment: int, *, system: str | None = None, seg_id: str | None = None
) -> dict[str, Any]:
    """The full JSON record of a segment (:meth:`MeteorResult.to_dict`) with its place."""
    head: dict[str, Any] = {} if system is None else {"system": system}
    seg = seg_id if seg_id is not None else str(segment)
    return {**head, "segment": segment, "seg_id": seg, **result.to_dict()}


def segments_jsonl(
    results: Iterable[MeteorResult],
    *,
    system: str | None = None,
    ids: Sequence[str] | None = None,
    numbers: Sequence[int] | None = None,
) -> Iterator[str]:
    """One JSON line per segment (each ending in ``\\n``), Cyrillic kept as is;
    ``numbers`` as for :func:`segments_csv`."""
    for k, r in enumerate(results):
        n = numbers[k] if numbers else k + 1
        rec = segment_record(r, n, system=system, seg_id=ids[k] if ids else None)
        yield json.dumps(rec, ensure_ascii=False, allow_nan=False) + "\n"


def report(
    results: Mapping[str, CorpusResult],
    params: Params,
    *,
    preset: str | None = None,
    intervals: Mapping[str, Any] | None = None,
    comparisons: Sequence[Any] = (),
    sources: Sequence[str] = (),
) -> dict[str, Any]:
    """A JSON-ready report of one or more systems scored on the same references.

    Args:
        results: corpus results by system name (in display order).
        intervals: bootstrap intervals by system name (``CorpusIntervals``).
        comparisons: paired bootstrap results (``PairedBootstrap``).
        sources: the input file names.

    Raises:
        meteor.signatures.SettingsMismatchError: systems scored with different
            settings (or with other settings than ``params``).

    Returns:
        A dict with ``signature``, ``params``, ``systems`` (corpus score from summed
        statistics, mean of segment scores, P, R, Fmean, frag, penalty, statistics
        and, with a bootstrap, their intervals) and ``comparisons``.
    """
    check_same_settings(
        [
            *((f"system {name!r}", res.signature) for name, res in results.items()),
            ("the parameters given", params.signature(preset=preset)),
        ],
        "a report",
    )
    first = next(iter(results.values()), None)
    systems = []
    for name, res in results.items():
        entry: dict[str, Any] = {"name": name}
        entry.update(res.to_dict())
        if intervals and name in intervals:
            entry["bootstrap"] = intervals[name].to_dict()
        systems.append(entry)
    out: dict[str, Any] = {
        "metric": "METEOR",
        "version": VERSION,
        "signature": first.signature if first else params.signature(preset=preset),
        "preset": preset,
        "params": params.to_dict(),
        "segments": len(first.segments) if first else 0,
        "sources": list(sources),
        "corpus_score_definition": (
            "score from the summed sufficient statistics of all segments (Meteor 1.5 "
            "MeteorStats.addStats; the chunks of a perfect segment are not added)"
            if params.perfect_rule
            else "score from the summed sufficient statistics of all segments (every "
            "segment's chunks added: these settings have no perfect-segment rule)"
        ),
        "mean_segment_score_definition": "arithmetic mean of the segment scores",
        "systems": systems,
        "comparisons": [c.to_dict() for c in comparisons],
    }
    if intervals:  # the bootstrap's own settings, as its records hold them
        ci = next(iter(intervals.values()))
        out["bootstrap"] = {"samples": ci.n_samples, "seed": ci.seed, "level": ci.corpus.level}
    return out
