"""``python -m meteor tune``: tune α, β, γ, δ and the weights for agreement with people.

Reads the tables ``meteor correlate`` reads, aligns once, searches on the statistics
(:func:`meteor.analysis.tune.tune`), writes the preset file (``--out``) and prints a text
summary or one JSON object (:meth:`TuneResult.to_dict`).
"""

from __future__ import annotations

import argparse
import hashlib
import sys

from meteor.analysis.agreement import load_judged
from meteor.analysis.agreement_limits import check_resamples
from meteor.analysis.resampling import MAX_BOOTSTRAP_SAMPLES
from meteor.analysis.tune import ALIASES, OBJECTIVES, TuneResult, canonical_objective, tune
from meteor.cli import files as cli_io
from meteor.cli import judged_args
from meteor.cli.files import CliError, atomic_output
from meteor.cli.output import na_number as _f
from meteor.io.labels import read_groups
from meteor.presets import check_preset_name

__all__ = ["add_parser", "cmd_tune", "format_text"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``tune`` subcommand's options."""
    p: argparse.ArgumentParser = sub.add_parser(
        "tune",
        help="tune alpha, beta, gamma, delta and the weights for agreement with human scores",
        description="Align once, search the formula's parameters on the sufficient statistics "
        "for the best agreement with a human column, optionally cross-validate across groups, "
        "and write a preset file for --preset-file.",
    )
    judged_args.add_input_options(p)
    p.add_argument("--human-column", required=True, metavar="COL")
    p.add_argument("--lower-is-better", action="store_true",
                   help="the human score is an error score (MQM error counts, HTER): flipped")  # fmt: skip
    p.add_argument("--preset", "-p", metavar="NAME",
                   help="the base setting (default: the language's default preset)")  # fmt: skip
    p.add_argument("--lang", "-l")
    p.add_argument("--objective", default="kendall_flat", metavar="MEASURE",
                   help="what to maximise: " + ", ".join([*ALIASES, *OBJECTIVES])
                   + " (default kendall_flat)")  # fmt: skip
    p.add_argument("--no-weights", action="store_true", help="tune alpha beta gamma delta only")
    p.add_argument("--folds", type=int, default=0, metavar="K",
                   help="k-fold cross-validation (needs --group-by)")  # fmt: skip
    p.add_argument("--group-by", metavar="COL",
                   help="folds of whole groups: a column such as doc_id, or 'system'")  # fmt: skip
    judged_args.add_darr_options(p)
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help=f"bootstrap resamples of the held-out intervals, 1 to "
                   f"{MAX_BOOTSTRAP_SAMPLES:,} (default 1000)")  # fmt: skip
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--name", help="the preset's name (default: tuned-<base>)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="write the preset file ('-': stdout, which then holds only the "
                   "preset file; the summary goes to stderr)")  # fmt: skip
    judged_args.add_run_options(p)
    cli_io.mark_inputs(p, hyp="hypothesis", ref="reference")
    return p


def format_text(r: TuneResult) -> str:
    """The result as plain text."""
    p = r.params
    weights = " ".join(f"{m.value} {w:.4g}" for m, w in p.weights)
    lines = [
        f"tuned {r.base_name} for {r.objective} against {r.human_column} on {r.data} "
        f"({r.n_rows:,} rows): {_f(r.value)} (base {_f(r.base_value)}; tuned on all rows)",
        f"alpha {p.alpha:.4g}  beta {p.beta:.4g}  gamma {p.gamma:.4g}  delta {p.delta:.4g}  "
        f"weights {weights}",
        f"{r.n_points:,} parameter points in {r.seconds:.1f} s on the statistics "
        f"(aligned once in {r.align_seconds:.1f} s)",
    ]
    if r.folds:
        lines += ["", f"cross-validation: {len(r.folds)} folds by {r.group_by}; held-out "
                  f"{r.objective} [95% bootstrap interval]"]  # fmt: skip
        for f in r.folds:
            cells = [
                f"{label} {_f(e.value)} [{_f(e.low)}, {_f(e.high)}]"
                + (f" (n/a: {e.reason})" if e.reason else "")
                for label, e in (("tuned", f.tuned), ("base", f.base), ("chrF", f.chrf))
                if e is not None
            ]
            lines.append(f"  fold {f.fold} ({f.n_rows:,} rows): " + "  ".join(cells))
        lines.append(
            f"  mean: tuned {_f(r.cv_mean('tuned'))}  base {_f(r.cv_mean('base'))}  "
            f"chrF {_f(r.cv_mean('chrf'))}"
        )
    return "\n".join(lines)


def cmd_tune(args: argparse.Namespace) -> int:
    """Run ``tune``."""
    canonical_objective(args.objective)
    try:  # a byte that is not UTF-8 (read as a lone surrogate) would fail at the end
        (args.name or "").encode("utf-8")
    except UnicodeEncodeError:
        raise CliError(
            f"--name {args.name!r} is not UTF-8 text; the preset file is UTF-8"
        ) from None
    if args.folds and not args.group_by:
        raise CliError("--folds needs --group-by (a document column such as doc_id, or system)")
    if args.group_by and not args.folds:
        raise CliError("--group-by needs --folds K (K ≥ 2)")
    check_resamples(args.bootstrap)  # the cap, before any file is read
    cli_io.check_seed(args.seed)
    if args.name is not None:  # the rule --preset-file reads the name with, before tuning
        check_preset_name(args.name, "--name")
    if args.out == "-" and args.format == "json":
        raise CliError(
            "--out - writes the preset file to stdout, and --format json would add the "
            "result as a second JSON document: write the preset file to a file, or use "
            "--format text (the summary then goes to stderr)"
        )
    if args.out is not None:
        cli_io.check_outputs([("--out", args.out)], cli_io.input_paths(args))
    stdin_used = [False]
    hyp_files, ref_files = judged_args.read_tables(args, stdin_used)
    judged = load_judged(
        hyp_files,
        args.human_column,
        ref_files=ref_files,
        darr_column=args.darr_column,
        higher_is_better=not args.lower_is_better,
        fmt=args.input_format,
    )
    groups: list[str] | str | None = None
    if args.group_by == "system":
        groups = "system"
    elif args.group_by:
        labels = read_groups(hyp_files, args.group_by, args.input_format)
        groups = [
            labels[f"{name}\t{seg}"]
            for name, _ in judged.corpus.systems
            for seg in judged.corpus.ids_of(name)
        ]
    files = [(name, hashlib.sha256(data).hexdigest()) for name, data in hyp_files + ref_files]
    workers = judged_args.workers(args)
    with cli_io.progress_bar(args, "tuning") as bar:
        result = tune(
            judged,
            preset=args.preset,
            lang=args.lang,
            objective=args.objective,
            weights=not args.no_weights,
            folds=args.folds,
            groups=groups,
            group_name=args.group_by,
            darr_threshold=args.darr_threshold,
            n_bootstrap=args.bootstrap,
            seed=args.seed,
            data_name="+".join(name for name, _ in hyp_files),
            data_sha256=files[0][1] if len(files) == 1 else "",  # several: each in files
            data_files=files,
            workers=workers,
            progress=bar,
        )
    if args.out is not None:
        with atomic_output(args.out, flag="--out") as fh:
            fh.write(result.preset_text(args.name))
    if args.out == "-":  # stdout holds the preset file alone: the summary goes to stderr
        sys.stderr.write(format_text(result) + "\npreset file: stdout\n")
        return 0
    preset_line = f"\npreset file: {cli_io.visible(args.out)}" if args.out else ""
    cli_io.write_record(args, result.to_dict, lambda: format_text(result) + preset_line)
    return 0
