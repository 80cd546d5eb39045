"""Command line: ``python -m meteor score`` and ``python -m meteor presets``.

Modelled on sacreBLEU's CLI: text, JSON or TSV on stdout, a signature with every
number, optional bootstrap intervals and a paired test against the first system::

    python -m meteor score --preset meteor-1.5-paper2005 --hyp sys1.txt --hyp sys2.txt \\
        --ref ref.txt --bootstrap 1000 --jsonl segments.jsonl --align-out run-align.out
    python -m meteor presets

Errors (unknown preset, a parameter out of range, a missing or unreadable file,
line counts that differ, invalid UTF-8, binary input) print one line
``meteor: error: …`` on stderr and exit with status 2, before any scoring; a
segment that cannot be scored is named on stderr, the other segments are still
written, and the status is 1.  Ctrl-C exits with 130, SIGTERM with 143, leaving no
half-written file (:mod:`meteor.cli.files`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, NoReturn, TextIO

from meteor.aligners import aligner_names
from meteor.analysis.corpus import (
    DEFAULT_SEED,
    MAX_BOOTSTRAP_DRAWS,
    MAX_BOOTSTRAP_SAMPLES,
    CorpusIntervals,
    PairedBootstrap,
    bootstrap,
    common_segments,
    paired_bootstrap,
)
from meteor.cli import explain as cli_explain
from meteor.cli import files as cli_io
from meteor.cli.files import CliError, atomic_output
from meteor.errors import ResourceError
from meteor.io.export import report, segments_csv, segments_jsonl, write_alignments
from meteor.io.read import FORMATS, Corpus, InputError, load_corpus
from meteor.metric import Meteor
from meteor.params import VERSION, ParamError, Params, parse_modules, stage_weight
from meteor.presets import DEFAULT_PRESET, PRESETS
from meteor.types import CorpusResult, Module

__all__ = ["CliError", "main"]

PROG = "meteor"

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


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line and exit 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{PROG}: error: {message} (see --help)\n")
        sys.exit(2)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="METEOR scores that reproduce Meteor 1.5, the 2005 paper or NLTK, "
        "with the alignment behind every number.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="{score,presets,explain}")

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
        help="read every input in this format (default: by extension; .tsv, .jsonl, "
        "else plain text)",
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
    st.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"bootstrap seed (default {DEFAULT_SEED})"
    )
    st.add_argument(
        "--max-bootstrap-work",
        type=int,
        default=cli_io.DEFAULT_MAX_BOOTSTRAP_WORK,
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
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for the scheduler and its workers (default: 60)",
    )
    st.add_argument(
        "--progress",
        action="store_true",
        help="show progress (loading, the first-run paraphrase index build, scoring) on "
        "stderr even when it is not a terminal",
    )
    cli_io.refuse_repeated_options(sc)

    pr = sub.add_parser("presets", help="list the presets and what each reproduces")
    pr.add_argument("--format", "-f", choices=("text", "json"), default="text")
    cli_io.refuse_repeated_options(pr)
    cli_io.refuse_repeated_options(cli_explain.add_parser(sub))
    return parser


# ---------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 user error)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] not in (
        "score",
        "presets",
        "explain",
        "-h",
        "--help",
        "--version",
    ):
        args_list.insert(0, "score")  # `python -m meteor --hyp …` means score
    parser = _build_parser()
    try:
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # usage error (one line already printed) or --help
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        with cli_io.handle_signals(), cli_io.one_line_warnings():
            if args.command == "presets":
                return _cmd_presets(args)
            if args.command == "explain":
                return cli_explain.cmd_explain(args)
            return _cmd_score(args)
    except (CliError, InputError, ParamError, ResourceError, ValueError, TypeError) as exc:
        return _fail(str(exc))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        return _fail(f"{exc.strerror or exc}" + (f": {exc.filename}" if exc.filename else ""))
    except KeyboardInterrupt as exc:
        terminated = isinstance(exc, cli_io.Terminated)
        sys.stderr.write(f"\n{PROG}: {'terminated' if terminated else 'interrupted'}\n")
        return cli_io.Terminated.exit_code if terminated else 130
    except Exception as exc:  # a bug: still one line, never a traceback
        _fail(f"internal error ({type(exc).__name__}: {exc}); please report it")
        return cli_io.EXIT_SCORING


def _fail(message: str) -> int:
    first = " ".join(message.split())  # one line, whatever the message held
    sys.stderr.write(f"{PROG}: error: {first}\n")
    return 2


# ---------------------------------------------------------------------------
# presets
# ---------------------------------------------------------------------------
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
        print(json.dumps(data, ensure_ascii=False, indent=2))
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


# ---------------------------------------------------------------------------
# score
# ---------------------------------------------------------------------------
def _read(path: str, what: str, stdin_used: list[bool]) -> tuple[str, bytes]:
    return cli_io.read_input(path, what, stdin_used)


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
        return float(value)
    except ValueError:
        raise CliError(f"--weights: weight of {name} must be a number, got {value!r}") from None


def _build_meteor(args: argparse.Namespace) -> Meteor:
    base = Meteor(args.preset, lang=args.lang)
    over = _overrides(args, base.params)
    if not over:
        return base
    return Meteor(args.preset, lang=args.lang, **over)


class _ProgressBar:
    """A one-line progress bar on stderr (``\\r`` updates)."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.last = -1

    def __call__(self, fraction: float, message: str) -> None:
        pct = int(fraction * 100)
        if pct == self.last and fraction < 1.0:
            return
        self.last = pct
        filled = int(fraction * 30)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {pct:3d}% {message}\x1b[K"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.last >= 0:
            self.stream.write("\n")
            self.stream.flush()


def _cmd_score(args: argparse.Namespace) -> int:
    if args.bootstrap < 0:
        raise CliError(f"--bootstrap must be 0 (off) or a positive number, got {args.bootstrap}")
    if args.bootstrap > MAX_BOOTSTRAP_SAMPLES:
        raise CliError(
            f"--bootstrap must be at most {MAX_BOOTSTRAP_SAMPLES:,}, got {args.bootstrap:,} "
            "(1000 is usual)"
        )
    if args.workers is not None and args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    if args.width < 0 or args.width > 17:
        raise CliError(f"--width must be between 0 and 17, got {args.width}")
    if args.max_bootstrap_work < 1:
        raise CliError(f"--max-bootstrap-work must be at least 1, got {args.max_bootstrap_work}")
    cli_io.check_seed(args.seed)
    if args.explain and not (args.jsonl or args.format == "jsonl"):
        raise CliError("--explain adds a field to JSONL segment records: add --jsonl OUT")
    meteor = _build_meteor(args)
    outputs = [(f, p) for f, p in (("--jsonl", args.jsonl), ("--csv", args.csv),
               ("--align-out", args.align_out)) if p is not None]  # fmt: skip
    if args.format in ("jsonl", "csv"):
        outputs.append((f"--format {args.format}", "-"))
    cli_io.check_outputs(outputs, [*(args.hyp or ["-"]), *(args.ref or [])])
    workers = cli_io.cap_workers(args.workers, sys.stderr)
    stdin_used = [False]
    if not args.hyp and sys.stdin.isatty():
        raise CliError("no --hyp given and stdin is a terminal; give --hyp FILE or pipe text in")
    hyp_files = [_read(h, "hypothesis", stdin_used) for h in (args.hyp or ["-"])]
    ref_files = [_read(r, "reference", stdin_used) for r in (args.ref or [])]
    try:
        corpus = load_corpus(hyp_files, ref_files, fmt=args.input_format)
    except InputError as exc:
        if not ref_files and "no references" in str(exc):
            raise CliError(
                "no references: give --ref FILE (or a TSV/JSONL with a 'ref' column)"
            ) from None
        raise
    if args.bootstrap * corpus.n_segments > MAX_BOOTSTRAP_DRAWS:  # say so before scoring
        raise CliError(
            f"--bootstrap {args.bootstrap:,} with {corpus.n_segments:,} segments is too much "
            f"(resamples × segments ≤ {MAX_BOOTSTRAP_DRAWS:,}); use at most "
            f"{MAX_BOOTSTRAP_DRAWS // corpus.n_segments:,}"
        )
    cli_io.check_bootstrap_work(
        args.bootstrap, corpus.n_segments, len(corpus.systems), args.max_bootstrap_work
    )
    _note_coverage(corpus)
    show_progress = args.progress or sys.stderr.isatty()
    if show_progress:  # loading, and the paraphrase index's first build (~15 s), shown
        loading = _ProgressBar(sys.stderr, "loading")
        try:
            meteor.prepare(loading)
        finally:
            loading.close()
    results: dict[str, CorpusResult] = {}
    failed: dict[str, cli_io.ScoredSystem] = {}
    with _dask_client(args) as client:
        for name, hyps in corpus.systems:
            bar = _ProgressBar(sys.stderr, name) if show_progress else None
            try:
                scored = cli_io.score_system(
                    meteor, hyps, corpus.refs_of(name), workers=workers, progress=bar, client=client
                )
            finally:
                if bar:
                    bar.close()
            if scored.result is None:
                failed[name] = scored
            else:
                results[name] = scored.result
    if failed:
        return cli_io.report_failures(args, meteor.params.modules, corpus, results, failed)
    intervals: dict[str, CorpusIntervals] = {}
    comparisons: list[PairedBootstrap] = []
    if args.bootstrap:
        names = list(results)
        for name in names:
            intervals[name] = bootstrap(
                results[name], meteor.params, n_samples=args.bootstrap, seed=args.seed
            )
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
    _write_files(args, meteor, corpus, results)
    to_stdout = "-" in (args.jsonl, args.csv, args.align_out)
    out = sys.stderr if to_stdout else sys.stdout  # stdout carries the records
    if args.format in ("jsonl", "csv"):
        _print_segments(out, args.format, corpus, results, meteor if args.explain else None)
    elif args.format == "json":
        rep = report(
            results,
            meteor.params,
            preset=meteor.preset,
            intervals=intervals,
            comparisons=comparisons,
            sources=corpus.sources,
        )
        out.write(json.dumps(rep, ensure_ascii=False, indent=2, allow_nan=False) + "\n")
    elif args.format == "tsv":
        _print_tsv(out, results, intervals, comparisons)
    else:
        _print_text(out, results, intervals, comparisons, args)
    out.flush()
    return 0


def _print_segments(
    out: TextIO,
    fmt: str,
    corpus: Corpus,
    results: dict[str, CorpusResult],
    explain: Meteor | None = None,
) -> None:
    """``--format jsonl|csv``: the segment records on stdout."""
    many = len(results) > 1
    for k, (name, res) in enumerate(results.items()):
        if fmt == "jsonl":
            lines = segments_jsonl(
                res.segments, system=name if many else None, ids=corpus.ids_of(name)
            )
            if explain is not None:
                lines = cli_explain.with_explanations(
                    lines, explain, dict(corpus.systems)[name], corpus.refs_of(name)
                )
            for line in lines:
                out.write(line)
        else:
            out.write(
                segments_csv(res.segments, system=name, ids=corpus.ids_of(name), header=k == 0)
            )


@contextlib.contextmanager
def _dask_client(args: argparse.Namespace) -> Iterator[Any]:
    """``--dask``: a client of that cluster (:mod:`meteor.analysis.cluster`), else ``None``."""
    if not args.dask:
        yield None
        return
    if args.workers is not None:
        raise CliError("--workers sets local processes; with --dask the cluster's workers score")
    if not args.dask_timeout > 0:
        raise CliError(f"--dask-timeout must be a positive number, got {args.dask_timeout}")
    from meteor.analysis.cluster import ClusterError, connect

    try:
        with connect(args.dask, timeout=args.dask_timeout, quiet=True) as client:
            yield client
    except ClusterError as exc:
        raise CliError(str(exc)) from None


def _write_files(
    args: argparse.Namespace, meteor: Meteor, corpus: Corpus, results: dict[str, CorpusResult]
) -> None:
    many = len(results) > 1
    if args.jsonl:
        with _open_out(args.jsonl) as fh:
            for name, res in results.items():
                lines = segments_jsonl(
                    res.segments, system=name if many else None, ids=corpus.ids_of(name)
                )
                if args.explain:
                    lines = cli_explain.with_explanations(
                        lines, meteor, dict(corpus.systems)[name], corpus.refs_of(name)
                    )
                for line in lines:
                    fh.write(line)
    if args.csv:
        with _open_out(args.csv) as fh:
            for k, (name, res) in enumerate(results.items()):
                fh.write(
                    segments_csv(res.segments, system=name, ids=corpus.ids_of(name), header=k == 0)
                )
    if args.align_out:
        paths = cli_io.align_out_paths(args.align_out, list(results))
        for name, res in results.items():
            with _open_out(paths[name]) as fh:
                fh.write(write_alignments(res.segments, meteor.params.modules))


def _note_coverage(corpus: Corpus) -> None:
    """One stderr line per system that has hypotheses for only some segments."""
    if corpus.complete:
        return
    for name, hyps in corpus.systems:
        if len(hyps) < corpus.n_segments:
            sys.stderr.write(
                f"{PROG}: note: system {name!r} has hypotheses for {len(hyps):,} of the "
                f"{corpus.n_segments:,} segments; it is scored on those (paired by seg_id)\n"
            )


def _p_text(p: float, samples: int) -> str:
    """``p = 0.0712``, or ``p < 0.002`` when no resample crossed 0."""
    return f"p < {2 / samples:.2g}" if p == 0.0 else f"p = {p:.4f}"


def _open_out(path: str) -> AbstractContextManager[TextIO]:
    """A temporary file renamed into place when complete; ``-`` is stdout."""
    return atomic_output(path)


def _fmt(x: float, width: int) -> str:
    return "nan" if math.isnan(x) else f"{x:.{width}f}"


def _print_text(
    out: TextIO,
    results: dict[str, CorpusResult],
    intervals: dict[str, CorpusIntervals],
    comparisons: list[PairedBootstrap],
    args: argparse.Namespace,
) -> None:
    w = args.width
    many = len(results) > 1
    pad = max(len(n) for n in results) if many else 0
    signature = ""
    for name, res in results.items():
        prefix = f"{name:<{pad}}  " if many else ""
        ci = intervals.get(name)
        corpus_ci = f" [95% CI {_fmt(ci.corpus.low, w)}, {_fmt(ci.corpus.high, w)}]" if ci else ""
        mean_ci = (
            f" [95% CI {_fmt(ci.mean_segment.low, w)}, {_fmt(ci.mean_segment.high, w)}]"
            if ci
            else ""
        )
        out.write(
            f"{prefix}METEOR corpus score (summed statistics) = {_fmt(res.score, w)}{corpus_ci}"
            f"  P {_fmt(res.precision, w)} R {_fmt(res.recall, w)} Fmean {_fmt(res.fmean, w)}"
            f" frag {_fmt(res.frag, w)} penalty {_fmt(res.penalty, w)}"
            f" segments {len(res.segments):,}\n"
        )
        out.write(
            f"{prefix}mean of segment scores                 = "
            f"{_fmt(res.mean_segment_score, w)}{mean_ci}\n"
        )
        signature = res.signature
    for c in comparisons:
        d, m = c.corpus, c.mean_segment
        level = f"{d.difference_interval.level:.0%}"
        paired = (
            f"paired on {c.n_segments:,} common segments ({c.name_a} has {c.segments_a:,}, "
            f"{c.name_b} {c.segments_b:,}; both scored on those {c.n_segments:,})"
            if not c.all_segments
            else f"paired on {c.n_segments:,} segments"
        )
        out.write(
            f"{c.name_b} vs {c.name_a} (baseline), {paired}: corpus score difference "
            f"{d.difference:+.{w}f} [{level} CI {d.difference_interval.low:+.{w}f}, "
            f"{d.difference_interval.high:+.{w}f}], two-sided {_p_text(d.p_value, c.n_samples)}"
            f" (sacreBLEU's p = {d.p_value_sacrebleu:.4f}, one tail); "
            f"mean segment score difference {m.difference:+.{w}f} "
            f"[{level} CI {m.difference_interval.low:+.{w}f}, {m.difference_interval.high:+.{w}f}]"
            f", two-sided {_p_text(m.p_value, c.n_samples)}\n"
        )
    if comparisons:
        c = comparisons[0]
        out.write(
            f"(paired bootstrap test, Koehn 2004: {c.n_samples} resamples of the common "
            f"segments, seed {c.seed}; percentile interval of B - A; two-sided p = twice the "
            "share of resamples on the other side of 0, so p < 0.05 exactly when the 95% CI "
            "excludes 0)\n"
        )
    if intervals and not comparisons:
        ci = next(iter(intervals.values()))
        out.write(f"(bootstrap: {ci.n_samples} samples, seed {ci.seed})\n")
    out.write(f"signature: {signature}\n")


def _print_tsv(
    out: TextIO,
    results: dict[str, CorpusResult],
    intervals: dict[str, CorpusIntervals],
    comparisons: list[PairedBootstrap],
) -> None:
    cols = [
        "system",
        "corpus_score",
        "mean_segment_score",
        "precision",
        "recall",
        "fmean",
        "frag",
        "penalty",
        "segments",
    ]
    if intervals:
        cols += ["corpus_ci_low", "corpus_ci_high", "mean_ci_low", "mean_ci_high"]
    if comparisons:
        cols += [
            "paired_segments",
            "difference",
            "difference_ci_low",
            "difference_ci_high",
            "p_value_two_sided",
            "p_value_sacrebleu",
        ]
    cols.append("signature")
    out.write("\t".join(cols) + "\n")
    by_name = {c.name_b: c for c in comparisons}
    for name, res in results.items():
        row: list[Any] = [
            name,
            res.score,
            res.mean_segment_score,
            res.precision,
            res.recall,
            res.fmean,
            res.frag,
            res.penalty,
            len(res.segments),
        ]
        if intervals:
            ci = intervals[name]
            row += [ci.corpus.low, ci.corpus.high, ci.mean_segment.low, ci.mean_segment.high]
        if comparisons:
            c = by_name.get(name)
            row += (
                [
                    c.n_segments,
                    c.corpus.difference,
                    c.corpus.difference_interval.low,
                    c.corpus.difference_interval.high,
                    c.corpus.p_value,
                    c.corpus.p_value_sacrebleu,
                ]
                if c
                else [""] * 6
            )
        row.append(res.signature)
        out.write("\t".join(repr(v) if isinstance(v, float) else str(v) for v in row) + "\n")
