"""``python -m meteor explain``: why one hypothesis gets its score (:class:`meteor.Explanation`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Iterator, Sequence

from meteor.analysis.explain.record import Explanation, explain
from meteor.cli.files import mark_inputs, write_record
from meteor.json_numbers import json_text
from meteor.metric import Meteor
from meteor.params import ParamError

__all__ = ["add_parser", "cmd_explain", "format_text", "with_explanations"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``explain`` subcommand's options."""
    ex: argparse.ArgumentParser = sub.add_parser(
        "explain",
        help="explain one segment's score: what each unmatched word and chunk break cost",
        description="Score one hypothesis against one or more references and show the "
        "waterfall (1.0 -> losses -> score), what each unmatched word and each chunk "
        "break cost (the score if it were matched / joined) and near misses.",
    )
    ex.add_argument("--preset", "-p", help="preset name (default: meteor-1.5)")
    ex.add_argument("--preset-file", metavar="FILE",
                    help="a preset file written by `meteor tune --out`")  # fmt: skip
    ex.add_argument("--allow-edited-preset", action="store_true",
                    help="load a --preset-file edited by hand, with a warning and without its "
                    "tuned objective value")  # fmt: skip
    ex.add_argument("--hyp", required=True, metavar="TEXT", help="the hypothesis text")
    ex.add_argument(
        "--ref",
        required=True,
        action="append",
        metavar="TEXT",
        help="a reference text (repeat for several; the best wins)",
    )
    ex.add_argument("--format", "-f", choices=("text", "json"), default="text")
    mark_inputs(ex, preset_file="preset")
    return ex


def format_text(e: Explanation) -> str:
    """The explanation as plain text lines."""
    lines = [f"score {e.score:.6f}", "", "waterfall:"]
    lines += [f"  {s.key:<16} {s.value:+.6f}  -> {s.level:.6f}" for s in e.waterfall]
    sections = {
        "unmatched words (score if matched)": [
            f"  {c.side} #{c.index} {c.word!r}{' (function)' if c.function_word else ''}: "
            f"{c.score_if_matched:.6f} ({c.gain:+.6f})"
            for c in e.word_costs
        ],
        "chunk breaks (score if joined)": [
            f"  after chunk {b.before}: {b.hyp_left!r}|{b.hyp_right!r} / {b.ref_left!r}|"
            f"{b.ref_right!r}: {b.score_if_joined:.6f} ({b.gain:+.6f})"
            for b in e.chunk_breaks
        ],
        "near misses (score if added)": [
            f"  {n.match.module.value} {n.reason}: {n.score_if_added:.6f} ({n.gain:+.6f})"
            for n in e.near_misses
        ],
    }
    for title, rows in sections.items():
        lines += ["", f"{title}:", *(rows or ["  none"])]
    return "\n".join(lines)


def cmd_explain(args: argparse.Namespace) -> int:
    """Run ``explain``; prints text or one JSON object (:meth:`Explanation.to_dict`)."""
    if args.preset_file is not None and args.preset is not None:
        raise ParamError("give --preset or --preset-file, not both")
    m = Meteor(args.preset, preset_file=args.preset_file, allow_edited=args.allow_edited_preset)
    result = m.score(args.hyp, args.ref)
    e = explain(result, m)
    record = {"preset": m.preset, "signature": result.signature, **e.to_dict()}
    write_record(args, lambda: record, lambda: format_text(e))
    return 0


def with_explanations(
    lines: Iterable[str], meteor: Meteor, hyps: Sequence[str], refs: Sequence[Sequence[str]]
) -> Iterator[str]:
    """``score --explain``: each JSONL segment record with an ``explain`` field added; each
    segment is scored again here (:meth:`Meteor.score`: corpus records keep no candidate
    lists, and near misses need them)."""
    for k, line in enumerate(lines):
        rec = json.loads(line)
        result = meteor.score(hyps[k], refs[k])
        rec["explain"] = explain(result, meteor).to_dict()
        yield json_text(rec) + "\n"
