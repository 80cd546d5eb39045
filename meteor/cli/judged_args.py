"""What ``meteor correlate`` and ``meteor tune`` share: the judged tables they read
(``--hyp``, ``--ref``) and how they run (``--workers``, ``--input-format``, ``--progress``,
``--format``).
"""

from __future__ import annotations

import argparse
import math

from meteor.cli import files as cli_io
from meteor.cli.numbers import real_number
from meteor.errors import shown

__all__ = ["add_darr_options", "add_input_options", "add_run_options", "read_tables", "workers"]

Files = list[tuple[str, bytes]]


def add_input_options(p: argparse.ArgumentParser) -> None:
    """``--hyp`` (the judged tables) and ``--ref`` (reference files)."""
    p.add_argument("--hyp", action="append", required=True, metavar="FILE",
                   help="TSV/CSV/JSONL with system, seg_id, hyp, ref and the human column")  # fmt: skip
    p.add_argument("--ref", action="append", metavar="FILE", help="reference file(s)")


def darr_threshold(text: str) -> float:
    """``--darr-threshold``: a finite number ≥ 0 (:func:`meteor.cli.numbers.real_number`)."""
    try:
        value = real_number(text)
    except argparse.ArgumentTypeError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"must be a number ≥ 0 such as 25 (written with the digits 0-9), got {shown(text)}"
        )
    return value


def add_darr_options(p: argparse.ArgumentParser, column_help: str | None = None) -> None:
    """``--darr-column`` and ``--darr-threshold`` (a finite number ≥ 0)."""
    p.add_argument("--darr-column", metavar="COL", help=column_help)
    p.add_argument("--darr-threshold", type=darr_threshold, default=25.0, metavar="T",
                   help="DARR pairs differ by T or more (ties never), a number ≥ 0 (default 25, WMT's "
                   "on raw DA)")  # fmt: skip


def add_run_options(p: argparse.ArgumentParser) -> None:
    """``--workers``, ``--input-format``, ``--progress`` and ``--format``."""
    p.add_argument("--workers", type=int, metavar="N")
    p.add_argument("--input-format", choices=("tsv", "csv", "jsonl"))
    p.add_argument("--progress", action="store_true", help="progress on stderr (default: on a tty)")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")


def read_tables(args: argparse.Namespace, stdin_used: list[bool]) -> tuple[Files, Files]:
    """The ``--hyp`` and ``--ref`` files' names and bytes (at most one of them stdin)."""
    hyp_files = [cli_io.read_input(h, "hypothesis", stdin_used) for h in args.hyp]
    ref_files = [cli_io.read_input(r, "reference", stdin_used) for r in (args.ref or [])]
    return hyp_files, ref_files


def workers(args: argparse.Namespace) -> int:
    """``--workers`` capped at the CPUs this process may use (saying so on stderr); 1 when
    not given."""
    n = cli_io.cap_workers(args.workers)
    return n if n is not None else 1
