"""``python -m meteor reconcile``: why two settings score the same text differently.

One pair from the command line (``--hyp TEXT --ref TEXT``) or a corpus from files
(``-i hyp.txt -r ref.txt``, read as ``meteor score`` reads them):
:func:`meteor.analysis.reconcile.reconcile` as text or one JSON object.
"""

from __future__ import annotations

import argparse
import math

from meteor.analysis.reconcile import MAX_ORDERS, Reconciliation, group_label, reconcile
from meteor.cli import files as cli_io
from meteor.cli.files import CliError, write_record
from meteor.io.read import load_corpus
from meteor.metric import Meteor

__all__ = ["add_parser", "cmd_reconcile", "format_text"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``reconcile`` subcommand's options."""
    rc: argparse.ArgumentParser = sub.add_parser(
        "reconcile",
        help="why two METEOR settings disagree: the path from A to B and each group's share",
        description="Score a pair (--hyp/--ref texts) or a corpus (-i/-r files) under two "
        "settings and split the gap over the groups of settings in which they differ: "
        "the path (one group at a time, in pipeline order) and each group's fair "
        "(Shapley) share.",
    )
    rc.add_argument("--from", dest="setting_a", metavar="A", help="preset A")
    rc.add_argument("--to", dest="setting_b", metavar="B", help="preset B")
    rc.add_argument("--from-file", dest="file_a", metavar="A.json",
                    help="setting A from a preset file (`meteor tune --out`), instead of --from")  # fmt: skip
    rc.add_argument("--to-file", dest="file_b", metavar="B.json",
                    help="setting B from a preset file, instead of --to")  # fmt: skip
    rc.add_argument("--allow-edited-preset", action="store_true",
                    help="load preset files edited by hand, with a warning and without their "
                    "tuned objective value")  # fmt: skip
    rc.add_argument("--hyp", dest="hyp_text", metavar="TEXT", help="the hypothesis text")
    rc.add_argument(
        "--ref",
        dest="ref_text",
        action="append",
        metavar="TEXT",
        help="a reference text (repeat for several; the best wins)",
    )
    rc.add_argument("-i", dest="hyp_file", metavar="FILE", help="hypotheses file (a corpus)")
    rc.add_argument(
        "-r",
        dest="ref_file",
        action="append",
        metavar="FILE",
        help="references file (repeat for several references per segment)",
    )
    rc.add_argument(
        "--orders",
        type=int,
        metavar="N",
        help=f"sample N random orders for the shares instead of every subset (2 to {MAX_ORDERS:,})",
    )
    rc.add_argument("--seed", type=int, default=0, help="seed of the sampled orders")
    rc.add_argument("--format", "-f", choices=("text", "json"), default="text")
    cli_io.mark_inputs(
        rc, file_a="preset", file_b="preset", hyp_file="hypothesis", ref_file="reference"
    )
    return rc


def _n(x: float) -> str:
    """A step's P, R or penalty to four places; ``undefined`` where the formula leaves it
    undefined (NaN: an empty side, or no match under NLTK's arithmetic)."""
    return f"{x:.4f}" if math.isfinite(x) else "undefined"


def format_text(r: Reconciliation) -> str:
    """The reconciliation as plain text lines."""
    what = f"corpus of {r.segments} segments" if r.corpus else "pair"
    lines = [
        f"A: {r.name_a:<24} {r.score_a:.6f}" + (f"  ({r.aggregation[0]})" if r.corpus else ""),
        f"B: {r.name_b:<24} {r.score_b:.6f}" + (f"  ({r.aggregation[1]})" if r.corpus else ""),
        f"gap (B - A) on this {what}: {r.gap:+.6f}",
        "",
        "path (one group at a time, in pipeline order):",
    ]
    if not r.steps:
        lines.append("  none: the two settings agree")
    for s in r.steps:
        lines.append(
            f"  {group_label(s.group):<40} {s.score_before:.6f} -> {s.score:.6f} ({s.delta:+.6f})"
        )
        if s.note:
            lines.append(f"      note: {s.note}")
        if s.precision and s.recall and s.penalty and s.chunks:
            p, rc, pen = s.precision, s.recall, s.penalty
            lines.append(
                f"      P {_n(p[0])} -> {_n(p[1])}, R {_n(rc[0])} -> {_n(rc[1])}, "
                f"chunks {s.chunks[0]} -> {s.chunks[1]}, penalty {_n(pen[0])} -> {_n(pen[1])}"
            )
        lines += [f"      {w}" for w in s.words]
        if s.score_sum is not None and s.score_mean is not None:
            lines.append(f"      summed statistics {s.score_sum:.6f}, mean {s.score_mean:.6f}")
            lines += [
                f"      segment {k + 1}: {x:.4f} -> {y:.4f} ({y - x:+.4f})" for k, x, y in s.moved
            ]
    lines += ["", f"shares (Shapley, {r.share_method}):"]
    errors = dict(r.share_errors)
    for g, v in r.shares:
        err = f" ± {errors[g]:.4f}" if g in errors else ""
        lines.append(f"  {group_label(g):<40} {v:+.6f}{err}")
    if r.invalid:
        lines.append(f"  ({len(r.invalid)} combination(s) cannot run, valued by the nearest:")
        for inv in r.invalid[:3]:
            lines.append(f"   {'+'.join(inv.groups)} as {'+'.join(inv.valued_as)}: {inv.reason})")
    lines += ["", *r.words]
    return "\n".join(lines)


def cmd_reconcile(args: argparse.Namespace) -> int:
    """Run ``reconcile``; prints text or one JSON object (:meth:`Reconciliation.to_dict`)."""
    if args.orders is not None and not 2 <= args.orders <= MAX_ORDERS:  # before any work
        raise CliError(
            f"--orders must be at least 2 and at most {MAX_ORDERS:,} (every subset, the "
            f"default without --orders, is exact), got {args.orders}"
        )
    cli_io.check_seed(args.seed)
    texts = args.hyp_text is not None or args.ref_text
    files = args.hyp_file is not None or args.ref_file
    if texts and files:
        raise CliError("give either --hyp/--ref texts (a pair) or -i/-r files (a corpus), not both")
    sides: list[str | Meteor] = []
    for name, file, flag in ((args.setting_a, args.file_a, "--from"),
                             (args.setting_b, args.file_b, "--to")):  # fmt: skip
        if (name is None) == (file is None):
            raise CliError(f"give {flag} PRESET or {flag}-file PRESET.json (one of them)")
        sides.append(
            name
            if file is None
            else Meteor(preset_file=file, allow_edited=args.allow_edited_preset)
        )
    setting_a, setting_b = sides
    if files:
        if args.hyp_file is None or not args.ref_file:
            raise CliError("a corpus needs both -i HYP_FILE and -r REF_FILE")
        stdin_used = [False]
        hyp = cli_io.read_input(args.hyp_file, "hypothesis", stdin_used)
        refs = [cli_io.read_input(r, "reference", stdin_used) for r in args.ref_file]
        corpus = load_corpus([hyp], refs)
        if len(corpus.systems) != 1 or corpus.coverage:
            raise CliError("reconcile reads one system: give a file with one hypothesis per line")
        hyp_text, ref_text = corpus.systems[0][1], corpus.refs
    else:
        if args.hyp_text is None or not args.ref_text:
            raise CliError("give --hyp TEXT and --ref TEXT (a pair), or -i/-r files (a corpus)")
        hyp_text, ref_text = args.hyp_text, args.ref_text
    result = reconcile(
        hyp_text,
        ref_text,
        setting_a,
        setting_b,
        corpus=bool(files),
        orders=args.orders,
        seed=args.seed,
    )
    write_record(args, result.to_dict, lambda: format_text(result))
    return 0
