"""``python -m meteor report``: a corpus report of N systems, written to a folder.

Scores each system of the inputs ``meteor score`` reads once and writes ``report.html``,
``report.tex``, ``report.md`` and ``report.json`` into ``--out DIR``
(:mod:`meteor.analysis.corpus_report`); ``--format svg,pdf`` adds each figure, drawn by
the system's Chromium (:mod:`meteor.viz.figure_files`) before any file is written.  Each
file goes through :func:`meteor.cli.files.atomic_output`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from meteor.analysis.corpus_report import CorpusReport, corpus_report
from meteor.analysis.ranking import CORRECTIONS, DEFAULT_TRIALS, MAX_TRIALS, TESTS
from meteor.analysis.report_text import to_json, to_latex, to_markdown
from meteor.analysis.significance import (
    DEFAULT_SEED,
    MAX_BOOTSTRAP_DRAWS,
    MAX_BOOTSTRAP_SAMPLES,
    MIN_BOOTSTRAP_SAMPLES,
)
from meteor.cli import files as cli_io
from meteor.cli.files import CliError, atomic_output
from meteor.cli.judged_args import read_tables
from meteor.cli.numbers import whole_number
from meteor.io.labels import read_labels, read_word_counts
from meteor.io.read import load_corpus
from meteor.metric import Meteor
from meteor.viz.figure_files import IMAGE_FORMATS, check_engine, figure_images

__all__ = ["FORMATS", "add_parser", "cmd_report"]

#: Most ``--length-edges`` (each adds a bucket per system, with its bootstrap).
MAX_LENGTH_EDGES = 20
#: Most ``--label`` columns, and most distinct values of one (each value is a bucket per
#: system: a column of segment ids would make a report of megabytes).
MAX_LABELS = 10
MAX_LABEL_VALUES = 50
#: What ``report`` may write in ``--out`` besides ``FORMATS``' files: each figure.
_FIGURE_FILE = re.compile(r"(?:ranking|pvalues|bucket-\d+|stages|frag)\.(svg|pdf)")

#: ``--format`` name → the file written in ``--out``.
FORMATS = {"html": "report.html", "latex": "report.tex", "md": "report.md", "json": "report.json",
           "svg": "<figure>.svg", "pdf": "<figure>.pdf"}  # fmt: skip


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``report`` subcommand's options."""
    rp: argparse.ArgumentParser = sub.add_parser(
        "report",
        help="a corpus report of N systems: ranking, clusters, buckets, where the points go",
        description="Score every system once and write the report (HTML, LaTeX, Markdown, "
        "JSON; each figure as SVG or PDF) into a folder.",
    )
    rp.add_argument(
        "--hyp",
        action="append",
        required=True,
        metavar="FILE",
        help="hypotheses (repeat per system; a TSV/JSONL may hold a system column)",
    )
    rp.add_argument(
        "--ref",
        action="append",
        metavar="FILE",
        help="references (repeat for several per segment; or a ref column)",
    )
    rp.add_argument("--out", required=True, metavar="DIR", help="folder to write the report in")
    rp.add_argument(
        "--format",
        default="html,latex,md,json",
        help="comma-separated: html, latex, md, json, svg, pdf (default: html,latex,md,json; "
        "svg and pdf write each figure, drawn by the system's Chromium)",
    )
    rp.add_argument("--preset", help="preset (default: the language's Meteor 1.5)")
    rp.add_argument(
        "--lang",
        "-l",
        metavar="CODE",
        help="text language, ISO 639-1 (en, ru, cs, de, fr, …): picks meteor-1.5-<code> "
        "(default: English)",
    )
    rp.add_argument("--preset-file", metavar="FILE",
                    help="a preset file written by `meteor tune --out` (instead of --preset)")  # fmt: skip
    rp.add_argument("--allow-edited-preset", action="store_true",
                    help="load a --preset-file edited by hand, with a warning and without its "
                    "tuned objective value")  # fmt: skip
    rp.add_argument(
        "--bootstrap",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples: intervals and the paired bootstrap (default 1000)",
    )
    rp.add_argument(
        "--trials",
        type=int,
        default=DEFAULT_TRIALS,
        metavar="N",
        help=f"approximate-randomisation trials (default {DEFAULT_TRIALS:,}, sacreBLEU's; "
        f"at most {MAX_TRIALS:,})",
    )
    rp.add_argument(
        "--test",
        choices=TESTS,
        default="ar",
        help="the paired test that decides significance: ar (approximate randomisation, "
        "default) or bootstrap (paired bootstrap); the other's p is shown beside it",
    )
    rp.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="holm",
        help="multiple-comparison correction over the pairwise tests (default holm)",
    )
    rp.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    rp.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="COLUMN",
        help=f"bucket segments by this column of the input table (repeatable, at most "
        f"{MAX_LABELS}; a column of at most {MAX_LABEL_VALUES} distinct values)",
    )
    rp.add_argument(
        "--length-edges",
        metavar="A,B,...",
        help=f"reference-length bucket edges (default 10,25,50; at most {MAX_LENGTH_EDGES})",
    )
    rp.add_argument(
        "--word-counts",
        metavar="FILE",
        help="word<TAB>count file for the frequency buckets (default: the references)",
    )
    rp.add_argument(
        "--compare",
        metavar="A,B",
        help="the two systems head to head (default: the top two)",
    )
    rp.add_argument("--workers", type=int, help="score on N processes")
    rp.add_argument(
        "--force",
        action="store_true",
        help="replace report files already in --out (without it, a folder that holds any "
        "is refused)",
    )
    cli_io.mark_inputs(
        rp, hyp="hypothesis", ref="reference", preset_file="preset", word_counts="word counts"
    )
    return rp


def _formats(spec: str) -> list[str]:
    items = [x.strip().lower() for x in spec.split(",") if x.strip()]
    bad = [x for x in items if x not in FORMATS]
    if bad or not items:
        raise CliError(
            f"--format: unknown format {', '.join(bad) or '(none)'}; choose from "
            f"{', '.join(FORMATS)}"
        )
    return list(dict.fromkeys(items))


def _edges(spec: str | None) -> tuple[int, ...] | None:
    if spec is None:
        return None
    try:
        edges = tuple(whole_number(x) for x in spec.replace(",", " ").split())
    except argparse.ArgumentTypeError as exc:
        raise CliError(f"--length-edges must be whole numbers like 10,25,50: {exc}") from None
    if not edges or any(e < 1 for e in edges) or list(edges) != sorted(set(edges)):
        raise CliError(f"--length-edges must be increasing positive numbers, got {spec!r}")
    if len(edges) > MAX_LENGTH_EDGES:
        raise CliError(
            f"--length-edges gives {len(edges):,} edges; at most {MAX_LENGTH_EDGES} are "
            "accepted (each adds a bucket per system to every output)"
        )
    return edges


def _check_labels(columns: list[str]) -> None:
    if len(columns) > MAX_LABELS:
        raise CliError(
            f"--label is given {len(columns)} times; at most {MAX_LABELS} columns are accepted"
        )
    twice = sorted({c for c in columns if columns.count(c) > 1})
    if twice:
        raise CliError(f"--label {twice[0]!r} is given twice; give each column once")


def _check_label_values(labels: Mapping[str, Mapping[str, str]]) -> None:
    for column, by_id in labels.items():
        n = len(set(by_id.values()))
        if n > MAX_LABEL_VALUES:
            raise CliError(
                f"--label {column!r}: the column has {n:,} distinct values; at most "
                f"{MAX_LABEL_VALUES} are accepted (each value is a bucket per system): "
                "bucket by a column such as domain or document, not one with an id per row"
            )


def _check_out(args: argparse.Namespace, formats: list[str]) -> None:
    """``--out``: a folder that exists or can be created, and (without ``--force``) holds
    none of the files the report writes."""
    cli_io.check_output_folder("--out", args.out)
    out = Path(args.out)
    if args.force or not out.is_dir():
        return
    names = {FORMATS[f] for f in formats if f not in IMAGE_FORMATS}
    images = {f for f in formats if f in IMAGE_FORMATS}
    present = sorted(
        entry
        for entry in os.listdir(out)
        if entry in names or ((m := _FIGURE_FILE.fullmatch(entry)) and m.group(1) in images)
    )
    if present:
        more = f" and {len(present) - 3} more" if len(present) > 3 else ""
        raise CliError(
            f"--out {args.out!r} already holds {', '.join(present[:3])}{more}; give --force "
            "to replace them, or another folder"
        )


def _check(args: argparse.Namespace) -> None:
    if not MIN_BOOTSTRAP_SAMPLES <= args.bootstrap <= MAX_BOOTSTRAP_SAMPLES:
        raise CliError(
            f"--bootstrap must be between {MIN_BOOTSTRAP_SAMPLES} and "
            f"{MAX_BOOTSTRAP_SAMPLES:,}, got {args.bootstrap}"
        )
    if not 1 <= args.trials <= MAX_TRIALS:
        raise CliError(f"--trials must be between 1 and {MAX_TRIALS:,}, got {args.trials}")
    cli_io.check_seed(args.seed)
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")


def write_report(
    rep: CorpusReport, out: str, formats: list[str], drawn: Mapping[tuple[str, str], bytes]
) -> list[str]:
    """Write each format's file into ``out`` (``svg``/``pdf``: a file per figure, all
    drawn before anything is written: ``drawn``); returns the paths."""
    from meteor.viz.report_html import to_html

    makers = {"html": to_html, "latex": to_latex, "md": to_markdown, "json": to_json}
    written = []
    for fmt in formats:
        if fmt in IMAGE_FORMATS:
            continue
        path = os.path.join(out, FORMATS[fmt])
        text = makers[fmt](rep)
        with atomic_output(path, flag="--out") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
        written.append(path)
    for (name, fmt), data in drawn.items():
        path = os.path.join(out, f"{name}.{fmt}")
        with atomic_output(path, flag="--out") as fh:
            fh.flush()
            fh.buffer.write(data)  # the one writer's stream, in bytes: an image
        written.append(path)
    return written


def cmd_report(args: argparse.Namespace) -> int:
    """Run ``report``: check, read, score, analyse, write; progress on stderr."""
    _check(args)
    formats = _formats(args.format)
    images = [f for f in formats if f in IMAGE_FORMATS]
    if images:
        check_engine()  # no browser: one line, before any reading or scoring
    edges = _edges(args.length_edges)
    _check_labels(args.label)
    compare = None
    if args.compare is not None:
        parts = [x.strip() for x in args.compare.split(",")]
        if len(parts) != 2 or not all(parts) or parts[0] == parts[1]:
            raise CliError(f"--compare takes two different system names, A,B; got {args.compare!r}")
        compare = (parts[0], parts[1])
    if args.preset_file is not None and args.preset is not None:
        raise CliError("give --preset or --preset-file, not both")
    out = Path(args.out)
    _check_out(args, formats)  # the options first, then the folder
    inputs = cli_io.input_paths(args)
    targets = [(f"--out ({f})", str(out / FORMATS[f])) for f in formats if f not in IMAGE_FORMATS]
    if out.exists():
        cli_io.check_outputs(targets, inputs)
    stdin_used = [False]
    hyp_files, ref_files = read_tables(args, stdin_used)
    corpus = load_corpus(hyp_files, ref_files)
    for name in compare or ():
        if name not in corpus.system_names:
            raise CliError(
                f"--compare: no system {name!r}; the systems are "
                f"{', '.join(map(repr, corpus.system_names))}"
            )
    labels = {col: read_labels([*hyp_files, *ref_files], col) for col in args.label}
    _check_label_values(labels)
    counts = None
    if args.word_counts:
        name, data = cli_io.read_input(args.word_counts, "word counts", stdin_used)
        counts = read_word_counts(data, name)
    draws = args.bootstrap * corpus.n_segments
    if draws > MAX_BOOTSTRAP_DRAWS:
        raise CliError(
            f"--bootstrap {args.bootstrap:,} with {corpus.n_segments:,} segments is too much "
            f"(resamples × segments ≤ {MAX_BOOTSTRAP_DRAWS:,})"
        )
    if not corpus.complete:
        sys.stderr.write(
            "meteor: note: the systems cover different segments; each pair is compared on "
            "the segment ids both have\n"
        )
    meteor = Meteor(args.preset, lang=args.lang, preset_file=args.preset_file,
                    allow_edited=args.allow_edited_preset)  # fmt: skip

    def say(msg: str) -> None:
        sys.stderr.write(f"meteor report: {cli_io.visible(msg)}\n")
        sys.stderr.flush()

    options: dict[str, object] = {"n_samples": args.bootstrap, "n_trials": args.trials,
                                  "test": args.test, "correction": args.correction,
                                  "seed": args.seed, "labels": labels, "word_counts": counts,
                                  "compare": compare}  # fmt: skip
    if edges is not None:
        options["length_edges"] = edges
    rep = corpus_report(corpus, meteor, workers=args.workers, progress=say, **options)
    from meteor.viz.report_figures import report_figures  # plotly: loaded only to write a report

    figures = report_figures(rep)
    targets += [(f"--out ({fmt})", os.path.join(out, f"{name}.{fmt}"))
                for fmt in images for name, _fig in figures]  # fmt: skip
    if out.exists():
        cli_io.check_outputs(targets, inputs)
    if images:
        say("drawing the figures with Chromium")
    # every image before any file: an error leaves no file
    drawn = figure_images(figures, images) if images else {}
    out.mkdir(exist_ok=True)
    cli_io.check_outputs(targets, inputs)
    for path in write_report(rep, str(out), formats, drawn):
        say(f"wrote {path}")
    return 0
