"""What ``python -m meteor score`` writes: the summary (text, TSV), the segment records, the
files (each only once complete, :func:`meteor.cli.files.atomic_output`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from meteor.analysis.pvalue_text import bootstrap_resolution, p_value_text, plus_one_resolution
from meteor.analysis.significance import CorpusIntervals, PairedBootstrap
from meteor.cli import explain as cli_explain
from meteor.cli import files as cli_io
from meteor.cli.files import atomic_output
from meteor.io.progress import ProgressBar
from meteor.io.read import Corpus
from meteor.io.record_files import alignment_block, segments_csv, segments_jsonl
from meteor.metric import Meteor
from meteor.module_registry import Module
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "ProgressBar",
    "Records",
    "all_records",
    "na_number",
    "print_segments",
    "print_text",
    "print_tsv",
    "score_lines",
    "write_files",
]


#: Per system, ``(0-based segment index, record)`` of the segments written: every segment
#: (:func:`all_records`), or only those scored when some could not be
#: (:func:`meteor.cli.failures.report_failures`: the gaps stay visible).
Records = dict[str, list[tuple[int, MeteorResult]]]


def all_records(results: dict[str, CorpusResult]) -> Records:
    """Every segment record of every system."""
    return {name: list(enumerate(res.segments)) for name, res in results.items()}


def print_segments(
    out: TextIO,
    fmt: str,
    corpus: Corpus,
    records: Records,
    explain: Meteor | None = None,
) -> None:
    """``--format jsonl|csv`` (and ``--jsonl``, ``--csv``): the segment records, each with
    its segment number and id."""
    many = len(records) > 1
    for i, (name, kept) in enumerate(records.items()):
        recs = [rec for _, rec in kept]
        all_ids = corpus.ids_of(name)
        ids = [all_ids[k] for k, _ in kept]
        numbers = [k + 1 for k, _ in kept]
        if fmt == "jsonl":
            system = name if many else None
            lines = segments_jsonl(recs, system=system, ids=ids, numbers=numbers)
            if explain is not None:
                lines = cli_explain.with_explanations(
                    lines, explain, dict(corpus.systems)[name], corpus.refs_of(name)
                )
            out.writelines(lines)
        else:
            out.write(segments_csv(recs, system=name, ids=ids, header=i == 0, numbers=numbers))


def write_files(
    args: argparse.Namespace,
    modules: Sequence[Module],
    corpus: Corpus,
    records: Records,
    explain: Meteor | None = None,
) -> list[str]:
    """``--jsonl``, ``--csv`` and ``--align-out`` (one file per system with several); the
    paths written."""
    written: list[str] = []
    if args.jsonl:
        with atomic_output(args.jsonl, flag="--jsonl") as fh:
            print_segments(fh, "jsonl", corpus, records, explain)
        written.append(args.jsonl)
    if args.csv:
        with atomic_output(args.csv, flag="--csv") as fh:
            print_segments(fh, "csv", corpus, records)
        written.append(args.csv)
    if args.align_out:
        paths = cli_io.align_out_paths(args.align_out, list(records))
        for name, kept in records.items():
            with atomic_output(paths[name], flag="--align-out") as fh:
                fh.writelines(alignment_block(rec, k + 1, modules) for k, rec in kept)
            written.append(paths[name])
    return written


def _p_text(p: float, samples: int) -> str:
    """``p = 0.0712`` (:func:`meteor.analysis.pvalue_text.p_value_text`; the bootstrap p
    is never 0, its smallest ``2/(B+1)``)."""
    return "p " + p_value_text(p, bootstrap_resolution(samples), relation=True)


def na_number(x: float | None, digits: int = 4) -> str:
    """``x`` to ``digits`` places; ``n/a`` where it is undefined (None or NaN)."""
    return "n/a" if x is None or x != x else f"{x:.{digits}f}"


def score_lines(
    r: Any, n_segments: int, w: int, prefix: str = "", cis: Sequence[str] = ("", "")
) -> str:
    """The two summary lines of a system (a :class:`CorpusResult`, or ``meteor stream``'s
    summary): the corpus score and its breakdown, the mean of segment scores, to ``w``
    decimals, each followed by its interval in ``cis``."""
    return (
        f"{prefix}METEOR corpus score (summed statistics) = {r.score:.{w}f}{cis[0]}"
        f"  P {r.precision:.{w}f} R {r.recall:.{w}f} Fmean {r.fmean:.{w}f}"
        f" frag {r.frag:.{w}f} penalty {r.penalty:.{w}f} segments {n_segments:,}\n"
        f"{prefix}mean of segment scores                 = {r.mean_segment_score:.{w}f}{cis[1]}\n"
    )


def print_text(
    out: TextIO,
    results: dict[str, CorpusResult],
    intervals: dict[str, CorpusIntervals],
    comparisons: list[PairedBootstrap],
    args: argparse.Namespace,
) -> None:
    """The text summary: per system the corpus score and the mean of segment scores
    (with intervals), each paired test against the first system, the signature."""
    w = args.width
    many = len(results) > 1
    pad = max(len(n) for n in results) if many else 0
    signature = ""
    for name, res in results.items():
        ci = intervals.get(name)
        cis = ["", ""]
        if ci:
            cis = [f" [95% CI {i.low:.{w}f}, {i.high:.{w}f}]" for i in (ci.corpus, ci.mean_segment)]
        prefix = f"{name:<{pad}}  " if many else ""
        out.write(score_lines(res, len(res.segments), w, prefix, cis))
        signature = res.signature
    for c in comparisons:
        d, m = c.corpus, c.mean_segment
        level = f"{d.difference_interval.level:.0%}"
        sb = plus_one_resolution(c.n_samples)
        paired = (
            f"paired on {c.n_segments:,} common segments ({c.name_a} has {c.segments_a:,}, "
            f"{c.name_b} {c.segments_b:,}; both scored on those {c.n_segments:,})"
            if not c.all_segments
            else f"paired on {c.n_segments:,} segments"
        )
        out.write(
            f"{c.name_b} vs {c.name_a} (baseline), {paired}: corpus score difference "
            f"{d.difference:+.{w}f} [{level} CI {d.difference_interval.low:+.{w}f}, "
            f"{d.difference_interval.high:+.{w}f}], two-sided {_p_text(d.p_value, c.n_samples)}"
            f" (sacreBLEU's p {p_value_text(d.p_value_sacrebleu, sb, relation=True)}, one tail); "
            f"mean segment score difference {m.difference:+.{w}f} "
            f"[{level} CI {m.difference_interval.low:+.{w}f}, {m.difference_interval.high:+.{w}f}]"
            f", two-sided {_p_text(m.p_value, c.n_samples)}\n"
        )
    if comparisons:
        c = comparisons[0]
        out.write(
            f"(paired bootstrap test, Koehn 2004: {c.n_samples} resamples of the common "
            f"segments, seed {c.seed}; percentile interval of B - A; two-sided "
            "p = min(1, 2(k+1)/(B+1)), k the resamples on the far side of 0, B the resamples: "
            "never 0, so p < 0.05 only when the 95% CI excludes 0; sacreBLEU's p = "
            "(k'+1)/(B+1), k' the resamples whose centred difference exceeds the observed one: "
            "in effect one tail)\n"
        )
    if intervals and not comparisons:
        ci = next(iter(intervals.values()))
        out.write(f"(bootstrap: {ci.n_samples} samples, seed {ci.seed})\n")
    out.write(f"signature: {signature}\n")


def print_tsv(
    out: TextIO,
    results: dict[str, CorpusResult],
    intervals: dict[str, CorpusIntervals],
    comparisons: list[PairedBootstrap],
) -> None:
    """``--format tsv``: one row per system (intervals and paired test when computed)."""
    cols = (
        "system corpus_score mean_segment_score precision recall fmean frag penalty segments"
    ).split()
    if intervals:
        cols += ["corpus_ci_low", "corpus_ci_high", "mean_ci_low", "mean_ci_high"]
    if comparisons:
        cols += (
            "paired_segments difference difference_ci_low difference_ci_high p_value_two_sided "
            "p_value_sacrebleu"
        ).split()
    cols.append("signature")
    out.write("\t".join(cols) + "\n")
    by_name = {c.name_b: c for c in comparisons}
    for name, res in results.items():
        numbers = ("score", "mean_segment_score", "precision", "recall", "fmean", "frag", "penalty")
        row: list[Any] = [name, *(getattr(res, n) for n in numbers), len(res.segments)]
        if intervals:
            ci = intervals[name]
            row += [ci.corpus.low, ci.corpus.high, ci.mean_segment.low, ci.mean_segment.high]
        if comparisons:
            c = by_name.get(name)
            if c is None:
                row += [""] * 6
            else:
                d, di = c.corpus, c.corpus.difference_interval
                row += [c.n_segments, d.difference, di.low, di.high, d.p_value, d.p_value_sacrebleu]
        row.append(res.signature)
        out.write("\t".join(repr(v) if isinstance(v, float) else str(v) for v in row) + "\n")
