"""``python -m meteor spans``: is METEOR right about where a translation is wrong?

Reads the segments table ``meteor score`` reads and human error annotations of its
hypotheses (:func:`meteor.io.spans.read_spans`), and prints, per setting, token-level
precision, recall and F1 of "METEOR left it unmatched" against "people marked it an
error" (:func:`meteor.analysis.spans_table.span_report`; :data:`DEFINITIONS`).
"""

from __future__ import annotations

import argparse
import sys

from meteor.analysis.spans import RATER_RULES
from meteor.analysis.spans_table import SpanReport, span_report
from meteor.cli import files as cli_io
from meteor.cli import judged_args
from meteor.cli.files import CliError
from meteor.cli.output import na_number
from meteor.io.read import load_corpus
from meteor.io.spans import SPAN_FORMATS, read_spans
from meteor.metric import Meteor

__all__ = ["DEFINITIONS", "add_parser", "cmd_spans", "format_text"]

#: What every number means (the ``--help`` epilog; docs/spans.md says the same).
DEFINITIONS = """\
definitions:
  error token   a hypothesis token (METEOR's own tokens, by the character offsets the
                alignment carries; the raters' text is never re-tokenised) whose
                character interval overlaps a human error span of severity Minor or
                worse (Minor, Major, Critical; QE: BAD). --raters union: any rater's
                span; majority: spans of more than half the segment's raters.
                No-error and Neutral mark nothing; errors with no span (omissions)
                are counted apart.
  flagged       METEOR's alignment covers the token in no match (an unmatched word).
  precision     flagged error tokens / flagged tokens
  recall        flagged error tokens / error tokens
  F1            2 * precision * recall / (precision + recall)
  by severity / by category
                the same on the tokens that are errors of that class (a token's worst
                severity; each category marking it) or no error at all.
  chunk breaks  over the positions between two consecutive matched tokens: a chunk
                break (the two in different chunks) against a span boundary (one an
                error token, the other not); precision and recall of breaks.
  intervals     percentile bootstrap over segments (--bootstrap resamples, --seed);
                each setting's F1 against the first setting's: paired bootstrap,
                two-sided p = min(1, 2 min(#d<=0, #d>=0) / resamples).

annotation formats (--spans, detected from the extension, or --spans-format):
  mqm    .tsv  system doc doc_id seg_id rater source target category severity [comment],
               the error marked in target with <v>...</v> (WMT MQM files as published)
  qe     .tags OK/BAD per whitespace token of each hypothesis (optional gap tags), one
               line per hypothesis in the table's order; give the .mt file too to check it
  jsonl  .jsonl {"system", "seg_id", "start", "end", "severity", "category"[, "rater"]}
               with character offsets [start, end) of the hypothesis
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    """The ``spans`` subcommand's options."""
    p: argparse.ArgumentParser = sub.add_parser(
        "spans",
        help="METEOR's unmatched words against human error spans (MQM, QE tags, JSONL)",
        description="Token-level precision, recall and F1 of 'METEOR left it unmatched' "
        "against 'people marked it an error', per setting, by severity and by category.",
        epilog=DEFINITIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--hyp", action="append", required=True, metavar="SEGMENTS",
                   help="the segments table: system, seg_id, hyp, ref (TSV/CSV/JSONL; repeat)")  # fmt: skip
    p.add_argument("--ref", action="append", metavar="FILE", help="reference file(s)")
    p.add_argument("--spans", action="append", required=True, metavar="ANNOTATIONS",
                   help="human error annotations of the hypotheses (repeat; QE: the .tags and its .mt)")  # fmt: skip
    p.add_argument("--spans-format", choices=SPAN_FORMATS,
                   help="the annotations' format (default: from the extension)")  # fmt: skip
    p.add_argument("--preset", "-p", action="append", metavar="NAME",
                   help="a METEOR preset (repeat; default: meteor-1.5)")  # fmt: skip
    p.add_argument("--preset-file", action="append", metavar="FILE",
                   help="a preset file (`meteor tune --out`; repeat)")  # fmt: skip
    p.add_argument("--raters", choices=RATER_RULES, default="union",
                   help="union (default): any rater's span; majority: more than half the raters")  # fmt: skip
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                   help="bootstrap resamples of the segments (default 1000; 0: no intervals)")  # fmt: skip
    p.add_argument("--seed", type=int, default=12345)
    judged_args.add_run_options(p)
    return p


def _f(x: float | None) -> str:
    return na_number(x, 3)


def format_text(r: SpanReport) -> str:
    """The report as a short plain-text table."""
    lines = [
        f"{r.annotations}; raters: {r.raters}; {r.segments:,} segments",
        f"error token: overlaps a human error span of severity Minor or worse ({r.raters}); "
        "flagged: unmatched by METEOR",
        f"[{r.n_samples:,} bootstrap resamples of segments, seed {r.seed}]" if r.n_samples else "",
        "",
        f"{'setting':<28} {'errors':>7} {'flagged':>8} {'both':>7}  "
        f"{'precision':<22} {'recall':<22} {'F1':<22}",
    ]
    for s in r.settings:
        o = s.overall
        cells = [
            f"{_f(i.value)} [{_f(i.low)}, {_f(i.high)}]" for i in (o.precision, o.recall, o.f1)
        ]
        lines.append(
            f"{s.preset:<28} {o.error_tokens:>7,} {o.flagged:>8,} {o.flagged_errors:>7,}  "
            + " ".join(f"{c:<22}" for c in cells)
        )
    for s in r.settings:
        lines += ["", f"{s.preset}: recall and precision by class (errors of the class or none)"]
        for row in s.rows[1:]:
            lines.append(
                f"  {row.name:<44} {row.error_tokens:>6,} errors  recall "
                f"{_f(row.recall.value)}  precision {_f(row.precision.value)}"
            )
        if s.omissions:
            lines.append(f"  ({s.omissions:,} errors with no span, omissions: in no token count)")
        br = s.breaks_dict()
        lines.append(
            f"  chunk breaks vs span boundaries, over {br['positions']:,} positions between two "
            f"matched tokens: {br['chunk_breaks']:,} breaks, {br['span_boundaries']:,} "
            f"boundaries, {br['both']:,} both (precision {_f(br['precision'])}, recall "
            f"{_f(br['recall'])})"
        )
    if r.comparisons:
        lines += ["", "F1 differences (paired bootstrap, two-sided):"]
        for a, b, c in r.comparisons:
            lines.append(
                f"  {b} - {a}: {c.difference:+.4f} [{_f(c.difference_interval.low)}, "
                f"{_f(c.difference_interval.high)}]  p = {_f(c.p_value)}"
            )
    lines.append("")
    lines += [f"{s.preset}: {s.signature}" for s in r.settings]
    return "\n".join(lines)


def cmd_spans(args: argparse.Namespace) -> int:
    """Run ``spans``."""
    if args.bootstrap < 0:
        raise CliError(f"--bootstrap must be 0 or more, got {args.bootstrap}")
    cli_io.check_seed(args.seed)
    stdin_used = [False]
    hyp_files, ref_files = judged_args.read_tables(args, stdin_used)
    span_files = [cli_io.read_input(f, "annotations", stdin_used) for f in args.spans]
    corpus = load_corpus(hyp_files, ref_files, fmt=args.input_format)
    spans = read_spans(span_files, corpus, args.spans_format)
    for line in spans.notice_lines():  # every skipped row is said, never dropped silently
        print(f"meteor: warning: {line}", file=sys.stderr)
    refs = {
        (name, seg): r
        for name, _ in corpus.systems
        for seg, r in zip(corpus.ids_of(name), corpus.refs_of(name), strict=True)
    }
    presets = args.preset or (() if args.preset_file else ("meteor-1.5",))
    settings: list[tuple[str, Meteor]] = [(p, Meteor(p)) for p in dict.fromkeys(presets)]
    for path in dict.fromkeys(args.preset_file or ()):
        m = Meteor(preset_file=path)
        settings.append((str(m.preset).split("@")[0], m))
    names = [n for n, _ in settings]
    if len(set(names)) != len(names):
        raise CliError(f"two settings share a name: {', '.join(names)}; give each its own")
    with cli_io.progress_bar(args, "scoring") as bar:
        report = span_report(
            spans,
            [refs[a.system, a.seg_id] for a in spans.annotations],
            settings,
            raters=args.raters,
            n_samples=args.bootstrap,
            seed=args.seed,
            workers=judged_args.workers(args),
            progress=bar,
        )
    cli_io.write_record(args, report.to_dict, lambda: format_text(report))
    return 0
