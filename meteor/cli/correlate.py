"""``python -m meteor correlate``: how well each metric agrees with human scores (docs/agreement.md).

Reads the tables ``meteor score`` reads, with a human score per row
(:func:`meteor.analysis.agreement.load_judged`), scores each metric and prints a text
table or one JSON object (:meth:`Agreement.to_dict`).
"""

from __future__ import annotations

import argparse
import sys

from meteor.analysis.agreement import BASELINES, Agreement, correlate, load_judged
from meteor.analysis.agreement_limits import (
    MAX_PERMUTATIONS,
    WILLIAMS_NA,
    check_resamples,
    williams_reason,
)
from meteor.analysis.agreement_records import MEASURE_NAMES, SYSTEM_MEASURE_NAMES
from meteor.analysis.agreement_stats import MEASURES, Estimate
from meteor.analysis.resampling import MAX_BOOTSTRAP_SAMPLES
from meteor.cli import files as cli_io
from meteor.cli import judged_args
from meteor.cli.files import CliError
from meteor.cli.output import na_number as _f
from meteor.io.system_scores import read_system_scores

__all__ = ["add_parser", "cmd_correlate", "format_text"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``correlate`` subcommand's options."""
    p: argparse.ArgumentParser = sub.add_parser(
        "correlate",
        help="agreement of presets and baselines with human scores (Kendall, Pearson, ...)",
        description="Segment- and system-level correlation of each metric with a human score "
        "column, with bootstrap intervals and PERM-BOTH significance of each difference.",
    )
    judged_args.add_input_options(p)
    p.add_argument("--human-column", metavar="COL",
                   help="the human score column (of --hyp, or of --scores); optional with --pairs")  # fmt: skip
    p.add_argument("--scores", action="append", metavar="FILE",
                   help="a separate scores file (system, seg_id, the human and metric columns) "
                   "joined on (system, seg_id); unjoined rows are reported (repeat)")  # fmt: skip
    p.add_argument("--pairs", action="append", metavar="FILE",
                   help="pairwise judgements: seg_id, better_system, worse_system (or a WMT DARR "
                   "file: SID BETTER WORSE); they replace the DARR pairs (repeat)")  # fmt: skip
    p.add_argument("--system-scores", metavar="FILE",
                   help="official human system scores (a 'system' column and score columns, "
                   "e.g. WMT's sys file): the system level correlates them with each metric's "
                   "score over every output of --hyp; --human-column becomes optional")  # fmt: skip
    p.add_argument("--system-column", metavar="COL",
                   help="the --system-scores column (default: its first numeric column)")  # fmt: skip
    p.add_argument("--lower-is-better", action="store_true",
                   help="the human score is an error score (MQM errors, HTER): flipped")  # fmt: skip
    p.add_argument("--preset", "-p", action="append", metavar="NAME",
                   help="a METEOR preset (repeat; default: meteor-1.5)")  # fmt: skip
    p.add_argument("--preset-file", action="append", metavar="FILE",
                   help="a preset file written by `meteor tune --out` (repeat)")  # fmt: skip
    p.add_argument("--allow-edited-preset", action="store_true",
                   help="load --preset-file files edited by hand, with a warning and without "
                   "their tuned objective value")  # fmt: skip
    p.add_argument("--baseline", action="append", choices=tuple(BASELINES),
                   help="a sacreBLEU baseline (repeat)")  # fmt: skip
    p.add_argument("--metric-column", action="append", metavar="COL",
                   help="a metric score column of the file, e.g. comet (repeat)")  # fmt: skip
    judged_args.add_darr_options(
        p,
        "the column DARR pairs are built from (default: a raw DA column human_raw or raw when "
        "the file has one, else the human column)",
    )
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help=f"bootstrap resamples, 1 to {MAX_BOOTSTRAP_SAMPLES:,} (default 1000)")  # fmt: skip
    p.add_argument("--permutations", type=int, default=1000, metavar="N",
                   help=f"permutations of each test, 0 to {MAX_PERMUTATIONS:,} (default 1000)")  # fmt: skip
    p.add_argument("--test-measure", choices=tuple(MEASURES),
                   help="the measure PERM-BOTH tests (default kendall_flat; darr_flat with "
                   "--pairs alone)")  # fmt: skip
    p.add_argument("--sided", choices=("one", "two"), default="two",
                   help="PERM-BOTH and Williams' p-values: two-sided (default) or one-sided in "
                   "the direction observed (mt-metrics-eval's reading)")  # fmt: skip
    p.add_argument("--seed", type=int, default=12345)
    judged_args.add_run_options(p)
    cli_io.mark_inputs(
        p, hyp="hypothesis", ref="reference", scores="scores", pairs="pairs", preset_file="preset"
    )
    return p


def _signed(x: float) -> str:
    return "n/a" if x != x else f"{x:+.4f}"


def _why(cells: tuple[tuple[str | None, Estimate], ...]) -> str:
    """`` (n/a: why)`` after a row with an undefined value or interval; else nothing."""
    why = [f"{label}: {e.reason}" if label else e.reason for label, e in cells if e.reason]
    return f"  (n/a: {'; '.join(why)})" if why else ""


def format_text(a: Agreement) -> str:
    """The record as a plain-text table."""
    pct = f"{a.level:.0%}"
    if a.pairs_source:
        pairs = f"judged pairs from {a.pairs_source} ({a.n_darr_pairs:,} pairs)"
    else:
        pairs = (f"DARR pairs (mt-metrics-eval's rule): {a.darr_column} differs by ≥ "
                 f"{a.darr_threshold:g} ({a.n_darr_pairs:,} pairs)")  # fmt: skip
    human = (
        "human: pairwise judgements only"
        if a.human_column == "pairs" and not any(m.system for m in a.metrics)
        else f"human: {a.human_column} ({'higher' if a.higher_is_better else 'lower'} is better)"
    )
    lines = [
        *(j.message() for j in a.joins),
        *([a.darr_notice] if a.darr_notice else []),
        f"{human}; {a.n_rows:,} rows, {a.n_items:,} items, {a.n_systems} systems; {pairs}"
        if any(m.segment for m in a.metrics)
        else f"human: official system scores only (no segment judgements); {a.n_rows:,} rows, "
        f"{a.n_systems} systems",
        f"value [{pct} bootstrap interval: {a.n_bootstrap:,} resamples of items (segment level) "
        f"or systems (system level), seed {a.seed}]",
        "",
    ]
    if any(m.segment for m in a.metrics):
        lines.append(f"{'metric':<14} {'measure':<22} {'flattened':<26} {'by item':<26}")
    for m in a.metrics:
        keys = dict(m.segment)
        for stat in ("kendall", "pearson", "spearman", "darr"):
            if f"{stat}_flat" not in keys:
                continue
            flat, item = m.seg(f"{stat}_flat"), m.seg(f"{stat}_item")
            cells = [f"{_f(e.value)} [{_f(e.low)}, {_f(e.high)}]" for e in (flat, item)]
            label = MEASURE_NAMES[f"{stat}_flat"].removesuffix("_flattened")
            if stat == "darr":
                label = f"{label} ({'pairs' if a.pairs_source else 'DARR'})"
                cells[1] += " pair-weighted"
            lines.append(
                f"{m.name:<14} {label:<22} {cells[0]:<26} {cells[1]:<26}"
                + _why((("flattened", flat), ("grouped", item)))
            )
    if any(m.system for m in a.metrics):
        lines += ["", a.system_level.describe()]
        lines += [f"{'metric':<14} {'system-level':<14} {'value [interval]':<24}"]
        for m in a.metrics:
            for key, e in m.system:
                name = SYSTEM_MEASURE_NAMES[key]
                lines.append(
                    f"{m.name:<14} {name:<14} {_f(e.value)} [{_f(e.low)}, {_f(e.high)}]"
                    + _why(((None, e),))
                )
        lines += [f"  {m.name}: system score = {m.system_rule}" for m in a.metrics]
    if a.comparisons and a.test_measure:
        lines += [
            "",
            f"differences in {MEASURE_NAMES[a.test_measure]}, PERM-BOTH, "
            f"{a.n_permutations:,} permutations, {a.sides()}, p = (k + 1)/(N + 1):",
        ]
        for c in a.comparisons:
            lines.append(
                f"  {c.a} − {c.b}: {_signed(c.delta)}  p = {_f(c.p_value, 4)}"
                + ("  (significant at 0.05)" if c.p_value == c.p_value and c.p_value < 0.05 else "")
                + (f"  (n/a: {c.reason})" if c.reason else "")
            )
    if any(c.williams_segment is not None or c.williams_system is not None for c in a.comparisons):
        lines += ["", f"differences in pearson, Williams' test (t on n − 3 df, {a.sides()}):"]
        for c in a.comparisons:
            cells = []
            for level, w in (("segment", c.williams_segment), ("system", c.williams_system)):
                if w is not None:
                    sig = "  (significant at 0.05)" if w[1] == w[1] and w[1] < 0.05 else ""
                    cells.append(f"{level} t = {_f(w[0], 2)} p = {_f(w[1], 4)}{sig}")
            na = any(
                w is not None and williams_reason(w)
                for w in (c.williams_segment, c.williams_system)
            )
            lines.append(
                f"  {c.a} − {c.b}: " + "; ".join(cells) + (f"  (n/a: {WILLIAMS_NA})" if na else "")
            )
    for m in a.metrics:
        lines.append(f"{m.name}: {m.signature}")
    return "\n".join(lines)


def cmd_correlate(args: argparse.Namespace) -> int:
    """Run ``correlate``."""
    check_resamples(args.bootstrap, args.permutations)  # the caps, before any file is read
    cli_io.check_seed(args.seed)
    stdin_used = [False]
    if args.human_column is None and not args.pairs and not args.system_scores:
        raise CliError(
            "give --human-column, or pairwise judgements with --pairs (or official system "
            "scores with --system-scores)"
        )
    if args.system_column and not args.system_scores:
        raise CliError("--system-column needs --system-scores")
    official = None
    if args.system_scores:
        name, data = cli_io.read_input(args.system_scores, "system scores", stdin_used)
        official = read_system_scores(data, name, args.system_column)
    hyp_files, ref_files = judged_args.read_tables(args, stdin_used)
    score_files = [cli_io.read_input(f, "scores", stdin_used) for f in (args.scores or [])]
    pair_files = [cli_io.read_input(f, "pairs", stdin_used) for f in (args.pairs or [])]
    judged = load_judged(
        hyp_files,
        args.human_column,
        ref_files=ref_files,
        metric_columns=args.metric_column or (),
        darr_column=args.darr_column,
        higher_is_better=not args.lower_is_better,
        fmt=args.input_format,
        scores=score_files,
        pairs=pair_files,
        system_only=args.human_column is None and not args.pairs,
    )
    for join in judged.joins:  # every unjoined row is reported, never dropped silently
        print(f"meteor: {join.message()}", file=sys.stderr)
    workers = judged_args.workers(args)
    with cli_io.progress_bar(args, "scoring") as bar:
        agreement = correlate(
            judged,
            presets=args.preset or (() if args.preset_file else ("meteor-1.5",)),
            preset_files=args.preset_file or (),
            allow_edited_presets=args.allow_edited_preset,
            baselines=args.baseline or (),
            darr_threshold=args.darr_threshold,
            n_bootstrap=args.bootstrap,
            n_permutations=args.permutations,
            seed=args.seed,
            test_measure=args.test_measure,
            sided=args.sided,
            workers=workers,
            progress=bar,
            system_scores=official,
        )
    if agreement.darr_notice:
        print(f"meteor: {agreement.darr_notice}", file=sys.stderr)
    cli_io.write_record(args, agreement.to_dict, lambda: format_text(agreement))
    return 0
