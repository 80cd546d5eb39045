"""``meteor stream``: stream files of any size through a Dask cluster.

Reads the inputs lazily (:mod:`meteor.io.stream`), has the workers score and write the
JSONL lines, writes them to ``--jsonl`` in input order, and prints the numbers
``python -m meteor score`` prints, after the same checks (:mod:`meteor.cli.files`).
stdin is not read (each file is read twice).  Tasks refer to the functions of
:mod:`meteor.runners.cluster` (workers import them by name), never to this module.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path

from meteor.cli.files import (
    EXIT_SCORING,
    EXIT_USAGE,
    STDIO,
    CliError,
    Parser,
    atomic_output,
    check_dask,
    check_input_file,
    check_inputs,
    check_outputs,
    check_stdout,
    check_width,
    handle_signals,
    input_paths,
    interrupted,
    mark_inputs,
    one_line,
    one_line_warnings,
    progress_bar,
    writes_stdout,
)
from meteor.cli.output import score_lines
from meteor.errors import ClusterError, InputError, ParamError, ResourceError
from meteor.io.lines import InputWarning, detect_format
from meteor.metric import Meteor, jar_text
from meteor.runners.cluster.client import DEFAULT_TIMEOUT, connect
from meteor.runners.cluster.inputs import check_files, iter_segments
from meteor.runners.cluster.stream import StreamSummary, StreamTotals, score_stream_lines
from meteor.text.notices import bom_notice, has_bom


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (see the module docstring); returns the exit status."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # a usage error (one line already printed) or --help
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        check_stdout()
        with handle_signals(), one_line_warnings():
            meteor = _check(args)  # every option and input: before any work
            summary = _run(args, meteor)
    except (
        CliError, ClusterError, InputError, ParamError, ResourceError, ValueError, OSError
    ) as exc:  # fmt: skip
        sys.stderr.write(f"meteor: error: {one_line(str(exc))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM: no partial output
        return interrupted(exc)
    except Exception as exc:  # a bug: still one line, never a traceback
        sys.stderr.write(
            f"meteor: error: internal error ({type(exc).__name__}: "
            f"{one_line(str(exc))}); please report it\n"
        )
        return EXIT_SCORING
    out = sys.stderr if args.jsonl and writes_stdout(args.jsonl) else sys.stdout
    out.write(score_lines(summary, summary.n_segments, args.width))
    out.write(f"signature: {summary.signature}\n")
    return 0


#: Most segments in one partition (a partition is held in memory on its worker).
MAX_PARTITION_SIZE = 100_000


def _parser() -> argparse.ArgumentParser:
    ap = Parser(
        prog="meteor stream",
        description="Score files of any size on a Dask cluster, streaming the per-segment "
        "JSONL out in input order as partitions complete.",
    )
    ap.add_argument("--dask", required=True, metavar="ADDRESS", help="tcp://HOST:PORT or local:N")
    ap.add_argument("--hyp", "-i", required=True, metavar="FILE")
    ap.add_argument("--ref", "-r", action="append", default=[], metavar="FILE")
    ap.add_argument("--input-format", choices=("text", "tsv", "csv", "jsonl"))
    ap.add_argument(
        "--strip-bom",
        action="store_true",
        help="drop a UTF-8 byte-order mark at the start of a plain-text file (the Meteor 1.5 "
        "presets keep it in segment 1's first word, as the jar does; the others drop it)",
    )
    ap.add_argument("--preset", "-p", metavar="NAME")
    ap.add_argument(
        "--preset-file",
        metavar="FILE",
        help="a preset file written by `meteor tune --out` (instead of --preset)",
    )
    ap.add_argument("--jsonl", metavar="OUT", help="write one JSON record per segment")
    ap.add_argument(
        "--partition-size",
        type=int,
        default=500,
        metavar="N",
        help=f"segments per task (default 500, at most {MAX_PARTITION_SIZE:,})",
    )
    ap.add_argument("--dask-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS")
    ap.add_argument("--progress", action="store_true", help="progress on stderr")
    ap.add_argument("--width", type=int, default=4, metavar="N")
    mark_inputs(ap, hyp="hypothesis", ref="reference", preset_file="preset")
    return ap


def _check(args: argparse.Namespace) -> Meteor:
    """Every option and input checked before any reading, as ``meteor score`` does; the scorer."""
    check_inputs(args)
    if STDIO in (args.hyp, *args.ref):
        raise CliError(
            "meteor stream cannot read stdin ('-'): it reads each file twice (every line "
            "checked first, then scored); save the input to a file (meteor score reads stdin)"
        )
    check_width(args.width)
    if not 1 <= args.partition_size <= MAX_PARTITION_SIZE:
        raise CliError(
            f"--partition-size must be from 1 to {MAX_PARTITION_SIZE:,}, got "
            f"{args.partition_size:,}"
        )
    args.dask = check_dask(args.dask, args.dask_timeout)
    for path, what in [(args.hyp, "hypothesis"), *((r, "reference") for r in args.ref)]:
        check_input_file(path, what)
    if args.jsonl is not None:  # never an input, its folder writable
        check_outputs([("--jsonl", args.jsonl)], input_paths(args))
    if args.preset_file is not None and args.preset is not None:
        raise CliError("give --preset or --preset-file, not both")
    return Meteor(args.preset, preset_file=args.preset_file)


def _run(args: argparse.Namespace, meteor: Meteor) -> StreamSummary:
    """Score the files on the cluster, writing ``--jsonl`` on the way; the corpus numbers."""
    hyp = Path(args.hyp)
    keep_bom = jar_text(meteor.params) and not args.strip_bom  # as meteor score
    # every line read once up front: counts, bad lines, lengths (and the readers' warnings)
    total = check_files(hyp, args.ref, fmt=args.input_format, keep_bom=keep_bom)
    for p in [hyp, *map(Path, args.ref)]:
        if keep_bom and detect_format(p.name, args.input_format) == "text":
            with p.open("rb") as fh:
                if has_bom(fh.read(3)):
                    print(f"meteor: note: {bom_notice(p.name, kept=True)}", file=sys.stderr)
    totals = StreamTotals(meteor)
    jsonl = atomic_output(args.jsonl, flag="--jsonl") if args.jsonl else nullcontext(None)
    with progress_bar(args, hyp.name) as bar, jsonl as out_file, warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)  # said once, by check_files
        with connect(args.dask, timeout=args.dask_timeout, quiet=True) as client:
            segments = iter_segments(hyp, args.ref, fmt=args.input_format, keep_bom=keep_bom)
            for s in score_stream_lines(
                meteor,
                segments,
                client=client,
                partition_size=args.partition_size,
                progress=bar,
                total=total,
                timeout=args.dask_timeout,
            ):
                line = totals.add_line(s)
                if out_file is not None:
                    out_file.write(line)
    return totals.summary()


if __name__ == "__main__":
    raise SystemExit(main())
