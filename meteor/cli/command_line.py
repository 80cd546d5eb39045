"""Command line: ``python -m meteor score`` and the other commands (docs/cli.md).

Modelled on sacreBLEU's CLI: text, JSON or TSV on stdout, a signature with every
number, optional bootstrap intervals and a paired test against the first system.
A user error is one line ``meteor: error: …`` on stderr and exit status 2, before any
scoring; a segment that cannot be scored gives status 1 (:mod:`meteor.cli.failures`);
Ctrl-C exits with 130, SIGTERM with 143, leaving no half-written file
(:mod:`meteor.cli.files`).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from meteor.analysis.resampling import MAX_BOOTSTRAP_DRAWS, common_segments
from meteor.analysis.significance import (
    CorpusIntervals,
    PairedBootstrap,
    bootstrap,
    paired_bootstrap,
)
from meteor.cli import correlate as cli_correlate
from meteor.cli import explain as cli_explain
from meteor.cli import files as cli_io
from meteor.cli import reconcile as cli_reconcile
from meteor.cli import report as cli_report
from meteor.cli import spans as cli_spans
from meteor.cli import tune as cli_tune
from meteor.cli.failures import ScoredSystem, report_failures, score_system
from meteor.cli.files import CliError
from meteor.cli.numbers import real_number
from meteor.cli.output import all_records, print_segments, print_text, print_tsv, write_files
from meteor.cli.score_args import add_score_parser, check_score_args
from meteor.cli.terminal import safe_terminal
from meteor.errors import ResourceError, shown
from meteor.io.lines import detect_format
from meteor.io.read import Corpus, InputError, load_corpus
from meteor.io.record_files import report
from meteor.json_numbers import json_text
from meteor.metric import Meteor, jar_text
from meteor.module_registry import Module
from meteor.params import VERSION, ParamError, Params, parse_modules, stage_weight
from meteor.presets import DEFAULT_PRESET, PRESETS
from meteor.text.notices import bom_notice, has_bom
from meteor.types import CorpusResult

__all__ = ["CliError", "main"]

PROG = "meteor"
#: The commands, in ``--help`` order; ``stream`` has its own parser (:mod:`meteor.cli.stream`).
COMMANDS = tuple("score presets explain reconcile correlate report tune spans stream".split())


def _build_parser() -> argparse.ArgumentParser:
    parser = cli_io.Parser(
        prog=PROG,
        description="METEOR scores that reproduce Meteor 1.5, the 2005 paper or NLTK, "
        "with the alignment behind every number.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    sub = parser.add_subparsers(
        dest="command",
        metavar="{" + ",".join(COMMANDS) + "}",
    )
    add_score_parser(sub)  # its options: meteor.cli.score_args
    pr = sub.add_parser("presets", help="list the presets and what each reproduces")
    pr.add_argument("--format", "-f", choices=("text", "json"), default="text")
    for command in (cli_explain, cli_reconcile, cli_correlate, cli_report, cli_tune, cli_spans):
        command.add_parser(sub)
    # its own parser (meteor.cli.stream): listed here, dispatched before parsing
    sub.add_parser(
        "stream",
        help="score files of any size on a Dask cluster, JSONL out in input order "
        "(meteor stream --help)",
        add_help=False,
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 user error).  Every message, and text
    output on stdout, shows control characters escaped (:mod:`meteor.cli.terminal`)."""
    with safe_terminal(stdout=_is_terminal(sys.stdout)):
        return _main(argv)


def _is_terminal(stream: Any) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] not in (*COMMANDS, "-h", "--help", "--version"):
        if not args_list[0].startswith("-"):  # a misspelt command, not score's file
            return _fail(
                f"unknown command {args_list[0]!r}; choose one of {', '.join(COMMANDS)} "
                "(or give score's options: meteor --hyp FILE …)"
            )
        args_list.insert(0, "score")  # `python -m meteor --hyp …` means score
    if args_list and args_list[0] == "stream":
        from meteor.cli import stream as cli_stream  # loads distributed: only for this command

        return cli_stream.main(args_list[1:])
    parser = _build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # usage error (one line already printed) or --help
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    # stdout escaped when it is text for people; a machine format (JSON, JSONL, CSV, TSV)
    # is kept byte for byte unless on a terminal
    text_stdout = getattr(args, "format", "text") not in ("json", "jsonl", "csv", "tsv")
    try:
        with cli_io.handle_signals(), cli_io.one_line_warnings(), safe_terminal(text_stdout):
            cli_io.check_stdout()
            cli_io.check_inputs(args)  # every file read, by every command: before any work
            run = {
                "presets": _cmd_presets,
                "explain": cli_explain.cmd_explain,
                "reconcile": cli_reconcile.cmd_reconcile,
                "correlate": cli_correlate.cmd_correlate,
                "report": cli_report.cmd_report,
                "tune": cli_tune.cmd_tune,
                "spans": cli_spans.cmd_spans,
            }.get(args.command, _cmd_score)
            return run(args)
    except (CliError, InputError, ParamError, ResourceError, ValueError, TypeError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        return _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
    except KeyboardInterrupt as exc:
        return cli_io.interrupted(exc)
    except MemoryError as exc:  # `ulimit -v`, a big input, many workers: not a bug
        what = str(exc) if str(exc).startswith("while ") else "while loading or scoring"
        _fail(
            f"out of memory {what}; raise the memory limit, or try fewer workers (--workers 1) "
            "or a smaller input (split the files)"
        )
        return cli_io.EXIT_SCORING
    except Exception as exc:  # a bug: still one line, never a traceback
        _fail(f"internal error ({type(exc).__name__}: {exc}); please report it")
        return cli_io.EXIT_SCORING


def _fail(message: str) -> int:
    first = cli_io.one_line(message)  # one line, whatever it held
    sys.stderr.write(f"{PROG}: error: {first}\n")
    return 2


def _cmd_presets(args: argparse.Namespace) -> int:
    if args.format == "json":
        data = [
            {
                "name": p.name,
                "lang": p.params.lang,
                "description": p.description,
                "reproduces": p.reproduces,
                "needs_paraphrase": p.needs_paraphrase,
                "params": p.params.to_dict(),
                "signature": p.params.signature(preset=p.name),
            }
            for p in PRESETS.values()
        ]
        print(json_text(data, indent=2))
        return 0
    from meteor.languages import available, available_languages

    width = max(len(n) for n in PRESETS)
    for info in available():  # grouped by language, in the registry's order
        group = [p for p in PRESETS.values() if p.params.lang == info.code]
        if not group:
            continue
        aliases = f"; Meteor 1.5: -l {', '.join(info.meteor_names)}" if info.meteor_names else ""
        print(f"\n{info.name} ({info.code}, {info.native_name}{aliases})")
        for p in group:
            default = " (default)" if DEFAULT_PRESET.get(p.params.lang) == p.name else ""
            print(f"  {p.name:<{width}}  [{p.params.lang}]{default}  {p.description}")
            print(f"  {'':<{width}}  reproduces: {p.reproduces}")
    known = set(available_languages())
    for p in PRESETS.values():  # presets registered for a language outside the registry
        if p.params.lang not in known:
            print(f"\n  {p.name:<{width}}  [{p.params.lang}]  {p.description}")
    return 0


def _overrides(args: argparse.Namespace, base: Params) -> dict[str, Any]:
    over: dict[str, Any] = {}
    for name in ("alpha", "beta", "gamma", "delta", "aligner"):
        value = getattr(args, name)
        if value is not None:
            over[name] = value
    modules: tuple[Module, ...] = base.modules
    if args.modules is not None:
        modules = parse_modules(args.modules)
        over["modules"] = modules
    if args.weights is not None:
        over["weights"] = _parse_weights(args.weights, modules, base)
    return over


def _parse_weights(
    spec: str, modules: tuple[Module, ...], base: Params
) -> tuple[tuple[Module, float], ...]:
    items = spec.replace(",", " ").split()
    if not items:
        raise CliError("--weights is empty; give e.g. 'exact=1.0,stem=0.6'")
    given: dict[Module, float] = {}
    if all("=" in x for x in items):
        for item in items:
            key, _, value = item.partition("=")
            (mod,) = parse_modules([key])
            if mod in given:
                raise CliError(
                    f"--weights gives {mod.value} twice ({spec!r}); give each module's weight once"
                )
            given[mod] = _weight(value, key)
    elif any("=" in x for x in items):
        raise CliError(
            "--weights: use either names ('exact=1.0,stem=0.6') or positions ('1.0 0.6')"
        )
    else:
        if len(items) != len(modules):
            raise CliError(
                f"--weights gives {len(items)} positional weight(s) for {len(modules)} module(s) "
                f"({' '.join(m.value for m in modules)}); name them as 'exact=1.0,stem=0.6'"
            )
        given = {m: _weight(v, m.value) for m, v in zip(modules, items, strict=True)}
    merged = {m: given[m] if m in given else stage_weight(m, base) for m in modules}
    extra = [m.value for m in given if m not in modules]
    if extra:
        raise CliError(
            f"--weights names module(s) {', '.join(extra)} that are not in use "
            f"({' '.join(m.value for m in modules)}); add them with --modules"
        )
    return tuple(merged.items())


def _weight(value: str, name: str) -> float:
    try:
        weight = real_number(value)  # the library's rule of a written number
    except argparse.ArgumentTypeError:
        weight = math.nan
    if not math.isfinite(weight):
        raise CliError(
            f"--weights: weight of {name} must be a number, got {shown(value)} (written with the "
            "digits 0-9, such as 0.6, and less than 1.8e308)"
        )
    return weight


def _build_meteor(args: argparse.Namespace) -> Meteor:
    if args.preset_file is not None and args.preset is not None:
        raise CliError("give --preset or --preset-file, not both")
    pf = {"preset_file": args.preset_file, "allow_edited": args.allow_edited_preset}
    base = Meteor(args.preset, lang=args.lang, **pf)
    over = _overrides(args, base.params)
    return Meteor(args.preset, lang=args.lang, **pf, **over) if over else base


def _cmd_score(args: argparse.Namespace) -> int:
    """``score``: check, read, score each system, bootstrap, write the files, print."""
    notes = check_score_args(args)
    meteor = _build_meteor(args)
    outputs = [(f, p) for f, p in (("--jsonl", args.jsonl), ("--csv", args.csv),
               ("--align-out", args.align_out)) if p is not None]  # fmt: skip
    if args.format in ("jsonl", "csv"):
        outputs.append((f"--format {args.format}", "-"))
    inputs = [*cli_io.input_paths(args), *([] if args.hyp else ["-"])]  # no --hyp: stdin
    cli_io.check_outputs(outputs, inputs)
    corpus = _read_corpus(args, keep_bom=jar_text(meteor.params) and not args.strip_bom)
    _check_align_out_paths(args, corpus, outputs, inputs)
    if args.bootstrap * corpus.n_segments > MAX_BOOTSTRAP_DRAWS:  # say so before scoring
        raise CliError(
            f"--bootstrap {args.bootstrap:,} with {corpus.n_segments:,} segments is too much "
            f"(resamples × segments ≤ {MAX_BOOTSTRAP_DRAWS:,}); use at most "
            f"{MAX_BOOTSTRAP_DRAWS // corpus.n_segments:,}"
        )
    cli_io.check_bootstrap_work(
        args.bootstrap, corpus.n_segments, len(corpus.systems), args.max_bootstrap_work
    )
    for note in notes:  # every input is checked: the notes, then the run
        print(f"meteor: note: {note}", file=sys.stderr)
    workers = cli_io.cap_workers(args.workers)
    _note_coverage(corpus)
    with cli_io.progress_bar(args, "loading") as loading:
        if loading is not None:  # loading, and the paraphrase index's first build (~15 s)
            meteor.prepare(loading)
    results, failed = _score_systems(args, meteor, corpus, workers)
    if failed:
        return report_failures(args, meteor.params.modules, corpus, results, failed)
    intervals, comparisons = _bootstraps(args, meteor, corpus, results)
    explain = meteor if args.explain else None
    write_files(args, meteor.params.modules, corpus, all_records(results), explain)
    _print_summary(args, meteor, corpus, results, intervals, comparisons)
    return 0


def _check_align_out_paths(
    args: argparse.Namespace,
    corpus: Corpus,
    outputs: list[tuple[str, str]],
    inputs: list[str],
) -> None:
    """With several systems ``--align-out x.out`` writes ``x.<system>.out``: those names
    are checked too (against the inputs and the other outputs) before scoring."""
    names = [name for name, _ in corpus.systems]
    if not args.align_out or len(names) <= 1:
        return
    derived = cli_io.align_out_paths(args.align_out, names)
    per_system = [(f"--align-out (system {name!r})", derived[name]) for name in names]
    cli_io.check_outputs([o for o in outputs if o[0] != "--align-out"] + per_system, inputs)


def _read_corpus(args: argparse.Namespace, *, keep_bom: bool = False) -> Corpus:
    """``--hyp`` (or stdin) and ``--ref`` files, read and paired (:func:`load_corpus`).

    ``keep_bom``: a plain-text file's byte-order mark stays in segment 1, as the Meteor 1.5
    jar reads it; a note on stderr says so for each such file.
    """
    stdin_used = [False]
    if not args.hyp and sys.stdin.isatty():
        raise CliError("no --hyp given and stdin is a terminal; give --hyp FILE or pipe text in")
    hyp_files = [cli_io.read_input(h, "hypothesis", stdin_used) for h in (args.hyp or ["-"])]
    ref_files = [cli_io.read_input(r, "reference", stdin_used) for r in (args.ref or [])]
    try:
        corpus = load_corpus(hyp_files, ref_files, fmt=args.input_format, keep_bom=keep_bom)
    except InputError as exc:
        if not ref_files and "no references" in str(exc):
            raise CliError(str(exc).replace("a reference file,", "--ref FILE,", 1)) from None
        raise
    for name, data in (*hyp_files, *ref_files):
        if keep_bom and has_bom(data) and detect_format(name, args.input_format) == "text":
            print(f"{PROG}: note: {bom_notice(name, kept=True)}", file=sys.stderr)
    return corpus


def _score_systems(
    args: argparse.Namespace,
    meteor: Meteor,
    corpus: Corpus,
    workers: int | None,
) -> tuple[dict[str, CorpusResult], dict[str, ScoredSystem]]:
    """Each system's corpus result, and the systems with a segment that could not be scored."""
    results: dict[str, CorpusResult] = {}
    failed: dict[str, ScoredSystem] = {}
    with _dask_client(args) as client:
        for name, hyps in corpus.systems:
            with cli_io.progress_bar(args, name) as bar:
                scored = score_system(
                    meteor, hyps, corpus.refs_of(name), workers=workers, progress=bar, client=client
                )
            if scored.result is None:
                failed[name] = scored
            else:
                results[name] = scored.result
    return results, failed


def _bootstraps(
    args: argparse.Namespace, meteor: Meteor, corpus: Corpus, results: dict[str, CorpusResult]
) -> tuple[dict[str, CorpusIntervals], list[PairedBootstrap]]:
    """``--bootstrap N``: each system's intervals, and each system's paired test against
    the first on the segment ids they share (none without ``--bootstrap``)."""
    comparisons: list[PairedBootstrap] = []
    if not args.bootstrap:
        return {}, comparisons
    names = list(results)
    intervals = {
        name: bootstrap(res, meteor.params, n_samples=args.bootstrap, seed=args.seed)
        for name, res in results.items()
    }
    for name in names[1:]:
        if not common_segments(corpus.ids_of(names[0]), corpus.ids_of(name))[0]:
            sys.stderr.write(
                f"{PROG}: note: system {name!r} has no segment id in common with the "
                f"baseline {names[0]!r}; no paired test\n"
            )
            continue
        comparisons.append(
            paired_bootstrap(
                results[names[0]],
                results[name],
                meteor.params,
                names=(names[0], name),
                n_samples=args.bootstrap,
                seed=args.seed,
                ids=(corpus.ids_of(names[0]), corpus.ids_of(name)),  # pair by segment id
            )
        )
    return intervals, comparisons


def _print_summary(
    args: argparse.Namespace,
    meteor: Meteor,
    corpus: Corpus,
    results: dict[str, CorpusResult],
    intervals: dict[str, CorpusIntervals],
    comparisons: list[PairedBootstrap],
) -> None:
    """``--format``: the summary (text, json, tsv) or the segment records (jsonl, csv);
    on stderr when a file option sends its records to stdout."""
    to_stdout = any(cli_io.writes_stdout(p) for p in (args.jsonl, args.csv, args.align_out) if p)
    out = sys.stderr if to_stdout else sys.stdout  # stdout carries the records
    if args.format in ("jsonl", "csv"):
        explain = meteor if args.explain else None
        print_segments(out, args.format, corpus, all_records(results), explain)
    elif args.format == "json":
        rep = report(
            results,
            meteor.params,
            preset=meteor.preset,
            intervals=intervals,
            comparisons=comparisons,
            sources=corpus.sources,
        )
        out.write(json_text(rep, indent=2) + "\n")
    elif args.format == "tsv":
        print_tsv(out, results, intervals, comparisons)
    else:
        print_text(out, results, intervals, comparisons, args)
    out.flush()


@contextlib.contextmanager
def _dask_client(args: argparse.Namespace) -> Iterator[Any]:
    """``--dask``: a client of that cluster (:mod:`meteor.runners.cluster`), else ``None``."""
    if not args.dask:
        yield None
        return
    if args.workers is not None:
        raise CliError("--workers sets local processes; with --dask the cluster's workers score")
    from meteor.runners.cluster import ClusterError, connect

    try:
        with connect(args.dask, timeout=args.dask_timeout, quiet=True) as client:
            yield client
    except ClusterError as exc:
        raise CliError(str(exc)) from None


def _note_coverage(corpus: Corpus) -> None:
    """One stderr line per system that has hypotheses for only some segments."""
    for name, hyps in corpus.systems:
        if len(hyps) < corpus.n_segments:
            sys.stderr.write(
                f"{PROG}: note: system {name!r} has hypotheses for {len(hyps):,} of the "
                f"{corpus.n_segments:,} segments; it is scored on those (paired by seg_id)\n"
            )
