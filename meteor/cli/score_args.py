"""The ``score`` command's options (:func:`add_score_parser`, in four groups) and their
checks (:func:`check_score_args`: values out of range refused before anything is read).
"""

from __future__ import annotations

import argparse
from typing import Any

from meteor.aligners import aligner_names
from meteor.analysis.resampling import MAX_BOOTSTRAP_SAMPLES, MIN_BOOTSTRAP_SAMPLES
from meteor.analysis.significance import DEFAULT_SEED
from meteor.cli import files as cli_io
from meteor.cli.files import CliError
from meteor.io.read import FORMATS
from meteor.presets import DEFAULT_PRESET
from meteor.runners import DASK_TIMEOUT  # not .cluster: that imports Dask

__all__ = ["SCORE_EPILOG", "add_score_parser", "check_score_args"]

SCORE_EPILOG = """\
examples:
  meteor score -i hyp.txt -r ref.txt                       corpus score + signature
  cat hyp.txt | meteor score -r ref.txt                    hypotheses from stdin
  meteor score -p nltk -i sysA.txt -i sysB.txt -r ref.txt -b 1000
                                                           2 systems, paired bootstrap
  meteor score -i hyp.txt -r ref.txt --format jsonl > seg.jsonl
                                                           one JSON record per segment
  meteor score -i run.tsv --jsonl - --align-out run-align.out
                                                           TSV input; records on stdout
  meteor score -i hyp.txt -r ref.txt -m 'exact stem' -w 'exact=1,stem=0.6' --alpha 0.9

'-' is stdin for --hyp/--ref and stdout for --jsonl/--csv/--align-out (the summary
then goes to stderr). Output files are written only when scoring is complete.

exit status:
  0  scored
  1  a segment could not be scored (each is named on stderr; the other segments are
     still written, no corpus score is printed), or an internal error
  2  usage error: a bad option, parameter, input or output path (found before scoring)
  130 / 143  interrupted by Ctrl-C / SIGTERM (workers stopped, no partial output file)
"""


def add_score_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``score`` subcommand and its options to ``sub`` (argparse subparsers)."""
    sc = sub.add_parser(
        "score",
        help="score one or more systems against references",
        description="Score hypothesis files against reference files. Prints the corpus "
        "score (from summed sufficient statistics, as Meteor 1.5 does) and the mean of "
        "segment scores, with the signature.",
        epilog=SCORE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    io_g = sc.add_argument_group("input")
    io_g.add_argument(
        "--hyp",
        "-i",
        action="append",
        metavar="FILE",
        help="hypotheses, one segment per line (or TSV/JSONL with a 'hyp' column; "
        "a 'system' column gives several systems). Repeat for several systems. "
        "'-' or no --hyp reads stdin.",
    )
    io_g.add_argument(
        "--ref",
        "-r",
        action="append",
        metavar="FILE",
        help="references, one per line (or TSV/JSONL with 'ref' columns). Repeat for "
        "several references; the best-scoring reference wins, the first wins ties.",
    )
    io_g.add_argument(
        "--input-format",
        choices=FORMATS,
        help="read every input in this format (default: by extension; .tsv, .csv, .jsonl, "
        "else plain text)",
    )
    io_g.add_argument(
        "--strip-bom",
        action="store_true",
        help="drop a UTF-8 byte-order mark at the start of a plain-text file (the Meteor 1.5 "
        "presets keep it in segment 1's first word, as the jar does; the others drop it)",
    )

    cfg = sc.add_argument_group("METEOR configuration")
    cfg.add_argument(
        "--preset",
        "-p",
        metavar="NAME",
        help=f"preset (default: {DEFAULT_PRESET['en']} for English, "
        f"{DEFAULT_PRESET['ru']} for Russian, meteor-1.5-<code> for the other "
        "languages); see `python -m meteor presets`",
    )
    cfg.add_argument(
        "--preset-file",
        metavar="FILE",
        help="a preset file written by `meteor tune --out` (instead of --preset)",
    )
    cfg.add_argument(
        "--allow-edited-preset",
        action="store_true",
        help="load a --preset-file edited by hand (its settings do not match its digest), "
        "with a warning and without its tuned objective value",
    )
    from meteor.languages import available_languages

    cfg.add_argument(
        "--lang",
        "-l",
        metavar="CODE",
        help=f"text language, ISO 639-1 ({', '.join(available_languages())}); Meteor 1.5's "
        "names are accepted too (cz, se, german ...)",
    )
    cfg.add_argument("--alpha", type=float, help="α: recall weight in Fmean, in [0, 1]")
    cfg.add_argument("--beta", type=float, help="β: fragmentation penalty exponent")
    cfg.add_argument("--gamma", type=float, help="γ: maximum fragmentation penalty, in [0, 1]")
    cfg.add_argument("--delta", type=float, help="δ: content vs function word weight, in [0, 1]")
    cfg.add_argument(
        "--modules",
        "-m",
        metavar="'M1 M2'",
        help="matching stages in order, e.g. 'exact stem synonym'",
    )
    cfg.add_argument(
        "--weights",
        "-w",
        metavar="W",
        help="module weights by name, 'exact=1.0,stem=0.6' (or positional '1.0 0.6', "
        "following the module order)",
    )
    cfg.add_argument(
        "--aligner",
        choices=aligner_names(),
        help="beam (Meteor 1.5), greedy (nltk), stagewise (2005 paper), or a registered one",
    )

    out = sc.add_argument_group("output")
    out.add_argument(
        "--format",
        "-f",
        choices=("text", "json", "jsonl", "csv", "tsv"),
        default="text",
        help="what to print on stdout: the summary as text, json or tsv, or one record "
        "per segment as jsonl or csv (default: text)",
    )
    out.add_argument(
        "--width", type=int, default=4, metavar="N", help="decimals in text output (default: 4)"
    )
    out.add_argument(
        "--jsonl", metavar="OUT", help="write one JSON record per segment ('-': stdout)"
    )
    out.add_argument(
        "--explain",
        action="store_true",
        help="add an 'explain' field to each JSONL segment record (--jsonl, --format jsonl): "
        "what each unmatched word and chunk break cost, near misses, the waterfall",
    )
    out.add_argument("--csv", metavar="OUT", help="write one CSV row per segment ('-': stdout)")
    out.add_argument(
        "--align-out",
        metavar="FILE",
        help="write alignments in Meteor 1.5's -writeAlignments format (with several "
        "systems, FILE gets the system name before its extension)",
    )

    st = sc.add_argument_group("statistics and speed")
    st.add_argument(
        "--bootstrap",
        "-b",
        type=int,
        default=0,
        metavar="N",
        help="bootstrap resamples for 95%% intervals (and, with several systems, a paired "
        "test of each against the first); 0 = off. 1000 is usual.",
    )
    st.add_argument("--seed", type=int, help=f"bootstrap seed (default {DEFAULT_SEED})")
    st.add_argument(
        "--max-bootstrap-work",
        type=int,
        metavar="N",
        help="most segment draws of all bootstraps together: resamples × segments × "
        f"(systems + 2 × paired tests) (default {cli_io.DEFAULT_MAX_BOOTSTRAP_WORK:,})",
    )
    st.add_argument(
        "--workers",
        "-j",
        type=int,
        metavar="N",
        help="processes (default: every CPU; more than the CPUs are capped)",
    )
    st.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="score on a Dask cluster: tcp://HOST:PORT (a running `dask scheduler`) or "
        "local:N (N local worker processes); same output as a local run",
    )
    st.add_argument(
        "--dask-timeout",
        type=float,
        metavar="SECONDS",
        help=f"how long to wait for the scheduler and its workers (default: {DASK_TIMEOUT:g})",
    )
    st.add_argument(
        "--progress",
        action="store_true",
        help="show progress (loading, the first-run paraphrase index build, scoring) on "
        "stderr even when it is not a terminal",
    )
    cli_io.mark_inputs(sc, hyp="hypothesis", ref="reference", preset_file="preset")
    return sc


def check_score_args(args: argparse.Namespace) -> list[str]:
    """Refuse out-of-range option values (before any input is read); the notes to print
    once every input is checked (an option given without its partner).

    Raises:
        CliError: naming the option, its range and the value given.
    """
    if args.bootstrap < 0:
        raise CliError(f"--bootstrap must be 0 (off) or a positive number, got {args.bootstrap}")
    if 0 < args.bootstrap < MIN_BOOTSTRAP_SAMPLES:
        raise CliError(
            f"--bootstrap must be 0 (off) or at least {MIN_BOOTSTRAP_SAMPLES}, got "
            f"{args.bootstrap}: with fewer resamples a 95% interval is only their lowest "
            "and highest value (1000 is usual)"
        )
    if args.bootstrap > MAX_BOOTSTRAP_SAMPLES:
        raise CliError(
            f"--bootstrap must be at most {MAX_BOOTSTRAP_SAMPLES:,}, got {args.bootstrap:,} "
            "(1000 is usual)"
        )
    notes = [
        f"{name} has no effect without {partner}"
        for name, value, partner, on in (
            ("--seed", args.seed, "--bootstrap N", args.bootstrap),
            ("--max-bootstrap-work", args.max_bootstrap_work, "--bootstrap N", args.bootstrap),
            ("--dask-timeout", args.dask_timeout, "--dask ADDRESS", args.dask),
        )
        if value is not None and not on
    ]
    args.seed = DEFAULT_SEED if args.seed is None else args.seed
    if args.max_bootstrap_work is None:
        args.max_bootstrap_work = cli_io.DEFAULT_MAX_BOOTSTRAP_WORK
    args.dask_timeout = DASK_TIMEOUT if args.dask_timeout is None else args.dask_timeout
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    cli_io.check_width(args.width)
    if args.max_bootstrap_work < 1:
        raise CliError(f"--max-bootstrap-work must be at least 1, got {args.max_bootstrap_work}")
    cli_io.check_seed(args.seed)
    args.dask = cli_io.check_dask(args.dask, args.dask_timeout)
    if args.explain and not (args.jsonl or args.format == "jsonl"):
        raise CliError("--explain adds a field to JSONL segment records: add --jsonl OUT")
    return notes
