"""Marginal cost per segment and start-up: this library vs Meteor 1.5 (Java) vs NLTK, one run.

    python bench/bench_marginal.py [--n 4000] [--repeats 3] [--skip-java] [--skip-nltk]
                                   [--presets meteor-1.5 nltk] [--no-table]

Every tool runs cold in its own process (ours with ``--workers 1``, a ``--baseline`` checkout
with its own in-place ``./native`` build if it has one), ``--repeats`` times on the first
``N`` and ``2N`` distinct real pairs of the Meteor 1.5 expected-value files, interleaved;
with the medians ``t(N)`` and ``t(2N)``:

    marginal ms/segment = (t(2N) − t(N)) / N        start-up s = t(N) − N · marginal

Wall and CPU time (``wait4``) and peak RSS per tool, then the measures in this process (one
warm pair, start-up, the long document, ``--workers-memory``); what each is and its target:
docs/performance.md, "How it is measured".  Java runs when ``setup_meteor15.sh`` has
unpacked the jar.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from common import (
    JAR,
    ROOT,
    SHARED,
    Cold,
    beam_search,
    child_env,
    jar_command,
    jar_pairs,
    java_runs,
    run_cold,
    write_pairs,
)

SOURCES = (
    SHARED / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz",
    SHARED / "newstest2009_cs-en" / "meteor15.en_default_norm.jsonl.gz",
    SHARED / "ted_sk-en" / "meteor15.en_default_norm.jsonl.gz",
)
PAPER2005_FLAGS = ["-p", "0.9 3.0 0.5 0.5", "-m", "exact stem synonym", "-w", "1.0 1.0 1.0"]

NLTK_SCRIPT = r"""
import sys
sys.path.insert(0, {root!r})
from nltk.translate.meteor_score import meteor_score
from meteor.languages.nltk_wordnet import wordnet_reader
wn = wordnet_reader()
hyps = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
refs = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
s = 0.0
for h, r in zip(hyps, refs):
    s += meteor_score([r.lower().split()], h.lower().split(), wordnet=wn)
print(s / len(hyps))
"""

STARTUP_SCRIPT = r"""
import sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
import meteor
m = meteor.Meteor({preset!r})
m.score("The quick brown fox jumps over the lazy dog", "A fast brown fox leapt over a lazy dog")
print(time.perf_counter() - t0)
"""


def load_pairs() -> list[tuple[str, str]]:
    """Distinct (hyp, first ref) pairs of the expected-value files, in file order."""
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for path in SOURCES:
        for pair in jar_pairs(path) if path.is_file() else []:
            if pair not in seen and "\n" not in pair[0] + pair[1]:
                seen.add(pair)
                out.append(pair)
    return out


#: A tool's command line, given its hypothesis and reference files.
Command = Callable[[str, str], list[str]]


def tools(args: argparse.Namespace) -> list[tuple[str, Command, Path]]:
    """(label, command, directory to run in) of each tool to time."""
    out: list[tuple[str, Command, Path]] = []
    with_java = java_runs(args.skip_java)
    nltk = NLTK_SCRIPT.format(root=str(ROOT))

    def ours(preset: str) -> Command:
        return lambda h, r: [
            *(sys.executable, "-m", "meteor", "score", "--preset", preset),
            *("--workers", "1", "--hyp", h, "--ref", r, "--format", "json"),
        ]

    for preset in args.presets:
        if preset == "meteor-1.5" and with_java:
            out.append(("Java Meteor 1.5 -l en -norm", jar_command, JAR.parent))
        if preset == "meteor-1.5-paper2005" and with_java:
            out.append(
                ("Java, 2005 modules", lambda h, r: jar_command(h, r, *PAPER2005_FLAGS), JAR.parent)
            )
        if preset == "nltk" and not args.skip_nltk:
            out.append(("NLTK meteor_score", lambda h, r: [sys.executable, "-c", nltk, h, r], ROOT))
        if args.baseline:
            out.append((f"before: {preset}, one process", ours(preset), Path(args.baseline)))
        out.append((f"ours {preset}, one process", ours(preset), ROOT))
    return out


def per_repeat_ratios(
    runs: dict[tuple[str, int], list[Cold]], ours: str, peer: str, n: int
) -> list[float]:
    """Wall-time marginal ratio ours / peer of each repeat on its own (the runs of one
    repeat are interleaved, so they share the machine's state); repeats in which a
    marginal came out ≤ 0 (noise larger than the work) are left out."""
    keys = ((ours, n), (ours, 2 * n), (peer, n), (peer, 2 * n))
    walls = zip(*([r.wall for r in runs[key]] for key in keys), strict=True)
    return [(o2 - o1) / (p2 - p1) for o1, o2, p1, p2 in walls if o2 > o1 and p2 > p1]


def table(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    n = args.n
    tmp = Path(tempfile.mkdtemp(prefix="meteor-marginal-"))
    files = {
        size: tuple(map(str, write_pairs(tmp / str(size), pairs[:size]))) for size in (n, 2 * n)
    }
    todo = tools(args)
    runs: dict[tuple[str, int], list[Cold]] = {}
    for rep in range(args.repeats):
        for label, make, cwd in todo:
            for size in (n, 2 * n):
                run = run_cold(make(*files[size]), sample=False, env=child_env(cwd), cwd=cwd)
                runs.setdefault((label, size), []).append(run)
                print(f"  [{rep + 1}/{args.repeats}] {label:34s} {size:6d}: {run.wall:6.2f} s "
                      f"wall {run.cpu:6.2f} s CPU {run.maxrss_mb:5.0f} MB",
                      file=sys.stderr, flush=True)  # fmt: skip
    print(f"\n{n:,} distinct real segments (N) and {2 * n:,} (2N); medians of {args.repeats} "
          f"runs; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; "
          f"ours: beam search in {beam_search()} "
          f"(METEOR_PURE_PYTHON={os.environ.get('METEOR_PURE_PYTHON', '')!r})\n")  # fmt: skip
    head = ("tool", "marginal ms/seg wall", "CPU", "start-up s wall", "CPU", "peak RSS MB N / 2N")
    print("| " + " | ".join(head) + " |")
    print("|---|---|---|---|---|---|")
    rows: dict[str, tuple[float, float]] = {}
    for label, _, _ in todo:
        med = {
            size: [statistics.median(r[k] for r in runs[(label, size)]) for k in (0, 1)]
            for size in (n, 2 * n)
        }
        marg = [(med[2 * n][k] - med[n][k]) / n for k in (0, 1)]
        start = [med[n][k] - n * marg[k] for k in (0, 1)]
        rows[label] = (marg[0], marg[1])
        rss = [max(r.maxrss_mb for r in runs[(label, size)]) for size in (n, 2 * n)]
        print(f"| {label} | {marg[0] * 1000:.3f} | {marg[1] * 1000:.3f} | {start[0]:.2f} | "
              f"{start[1]:.2f} | {rss[0]:.0f} / {rss[1]:.0f} |")  # fmt: skip
    print()
    for preset in args.presets:
        before, after = f"before: {preset}, one process", f"ours {preset}, one process"
        if before in rows and after in rows:
            print(f"{after} / before: ×{rows[after][0] / rows[before][0]:.2f} wall, "
                  f"×{rows[after][1] / rows[before][1]:.2f} CPU")  # fmt: skip
    for ours, peer, goal in (
        ("ours meteor-1.5, one process", "Java Meteor 1.5 -l en -norm", 1.0),
        ("ours meteor-1.5-paper2005, one process", "Java, 2005 modules", 1.0),
        ("ours nltk, one process", "NLTK meteor_score", 0.5),
    ):
        if ours in rows and peer in rows:
            w = rows[ours][0] / rows[peer][0]
            c = rows[ours][1] / rows[peer][1]
            print(f"{ours} / {peer}: ×{w:.2f} wall, ×{c:.2f} CPU (goal ≤ {goal})")
            paired = per_repeat_ratios(runs, ours, peer, n)
            if len(paired) > 1:  # how far one repeat's ratio strays: the machine's noise
                print(f"  each repeat's own wall ratio: {', '.join(f'×{x:.2f}' for x in paired)}"
                      f" (median ×{statistics.median(paired):.2f})")  # fmt: skip
    for label, _, _ in todo:
        if label.startswith("ours meteor-1.5,"):  # the preset with the paraphrase table
            top = max(r.maxrss_mb for r in runs[(label, 2 * n)])
            print(f"{label}: peak RSS {top:.0f} MB at 2N (goal ≤ 350 MB)")


def in_process(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    sys.path.insert(0, str(ROOT))
    import meteor

    sample = pairs[: args.latency_pairs]
    if sample:
        print("\none warm pair, full record (candidates kept), this process:")
    for preset in args.presets if sample else ():
        m = meteor.Meteor(preset)
        m.prepare()
        for h, r in sample[:50]:  # warm the caches the first pairs fill
            m.score(h, r)
        lat, cpu = [], []
        for h, r in sample:
            t0, c0 = time.perf_counter(), time.thread_time()
            m.score(h, r)
            lat.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
        lat.sort()
        cpu.sort()
        p50, p95 = lat[len(lat) // 2], lat[int(len(lat) * 0.95)]
        c50, c95 = cpu[len(cpu) // 2], cpu[int(len(cpu) * 0.95)]
        print(f"  {preset:24s} wall p50 {p50:6.2f} ms p95 {p95:6.2f} ms; CPU p50 {c50:6.2f} ms "
              f"p95 {c95:6.2f} ms (goal p50 ≤ 2 ms)")  # fmt: skip

    startup(args)

    print("\nlong natural text (first 120 WMT21 ru-en segments joined; the jar: 0.35484):")
    first = pairs[:120]
    hyp, ref = " ".join(p[0] for p in first), " ".join(p[1] for p in first)
    m = meteor.Meteor("meteor-1.5")
    m.prepare()
    m.tokenize(hyp)  # sentence work happens once per text; timed here, not below
    for keep in (False, True):
        m = meteor.Meteor("meteor-1.5")
        m.clear_memos()  # the shared memos: each run aligns from scratch
        t0, c0 = time.perf_counter(), time.process_time()
        r = m.score(hyp, ref, candidates=keep)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(f"  {len(hyp.split()):,} × {len(ref.split()):,} words, candidates kept: {keep!s:5s} "
              f"score {r.score:.5f}  {wall:5.2f} s wall  {cpu:5.2f} s CPU (goal ≤ 1 s)")  # fmt: skip


def startup(args: argparse.Namespace) -> None:
    """Start-up with a warm cache, in a fresh process of each interpreter asked for."""
    for exe in args.startup_python or [sys.executable]:
        has_scipy = subprocess.run(
            [exe, "-c", "import importlib.util as u; print(u.find_spec('scipy') is not None)"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        print(f"\nstart-up with a warm cache (fresh process: import, scorer, one pair), {exe} "
              f"(scipy installed: {has_scipy}; `import nltk` imports scipy.stats when it is):")  # fmt: skip
        for preset in args.presets:
            runs, cpus = [], []
            for _ in range(3):
                script = STARTUP_SCRIPT.format(root=str(ROOT), preset=preset)
                run = run_cold([exe, "-c", script], sample=False)
                runs.append(float(run.stdout.strip()))
                cpus.append(run.cpu)
            print(f"  {preset:24s} {statistics.median(runs):5.2f} s wall, "
                  f"{statistics.median(cpus):5.2f} s CPU (median of 3; goal ≤ 1 s)")  # fmt: skip


WORKERS_SCRIPT = r"""
import sys
sys.path.insert(0, {root!r})
import meteor
from meteor.runners.parallel import score_corpus
hyps = open(sys.argv[1], encoding="utf-8").read().split("\n")[:-1]
refs = open(sys.argv[2], encoding="utf-8").read().split("\n")[:-1]
print(score_corpus(meteor.Meteor("meteor-1.5"), hyps, refs, workers=int(sys.argv[3])).score)
"""


def workers_memory(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    """Peak PSS of the whole process tree of ``meteor score --workers K`` on 2N segments.

    ``meteor score`` caps ``--workers`` at the CPUs; with ``K`` above them the library's
    ``score_corpus(..., workers=K)`` runs instead (the same pool, not capped), so that what
    each worker adds can be measured on a 2-core machine (memory, not speed).
    """
    size = 2 * args.n
    tmp = Path(tempfile.mkdtemp(prefix="meteor-workers-"))
    h, r = write_pairs(tmp, pairs[:size])
    print(f"\nmeteor-1.5 on {size:,} segments, whole process tree (peak of summed PSS / RSS):")
    before = None
    cpus = len(os.sched_getaffinity(0))
    for k in args.workers_memory:
        if k <= cpus:
            cmd = [sys.executable, "-m", "meteor", "score", "--preset", "meteor-1.5"]
            cmd += ["--workers", str(k), "--hyp", str(h), "--ref", str(r), "--format", "json"]
            label = f"--workers {k}"
        else:
            script = WORKERS_SCRIPT.format(root=str(ROOT))
            cmd = [sys.executable, "-c", script, str(h), str(r), str(k)]
            label = f"score_corpus(workers={k}) (> {cpus} CPUs)"
        run = run_cold(cmd, env=child_env(), cwd=ROOT)
        more = f"; {run.pss_mb - before[1]:+.0f} MB PSS for {k - before[0]} more" if before else ""
        print(
            f"  {label}: {run.pss_mb:.0f} MB PSS, {run.rss_mb:.0f} MB RSS, {run.wall:.1f} s{more}"
        )
        before = (k, run.pss_mb)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4000, help="N segments (and 2N); default 4000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--presets", nargs="+", default=["meteor-1.5", "meteor-1.5-paper2005", "nltk"])
    ap.add_argument("--skip-java", action="store_true")
    ap.add_argument("--skip-nltk", action="store_true")
    ap.add_argument("--no-table", action="store_true", help="only the in-process measures")
    ap.add_argument("--latency-pairs", type=int, default=1000, help="0: no warm-pair latency")
    ap.add_argument(
        "--baseline",
        metavar="DIR",
        help="also time another checkout of this project (e.g. `git archive <commit>` unpacked "
        "in DIR) as 'before: <preset>' rows",
    )
    ap.add_argument(
        "--startup-python",
        nargs="+",
        metavar="EXE",
        help="interpreters whose start-up to time (default: this one), e.g. a venv made by the "
        "README's install command (python3 -m venv V && V/bin/pip install -r requirements.txt): "
        "it has no scipy, which `import nltk` pulls in when it is installed",
    )
    ap.add_argument("--only-startup", action="store_true", help="only the start-up times")
    ap.add_argument(
        "--workers-memory",
        nargs="+",
        type=int,
        metavar="K",
        help="also the peak memory of the process tree with K worker processes (e.g. 1 2 3)",
    )
    args = ap.parse_args()
    if args.only_startup:
        startup(args)
        return
    pairs = load_pairs()
    if len(pairs) < 2 * args.n:
        raise SystemExit(f"only {len(pairs):,} distinct pairs; choose --n ≤ {len(pairs) // 2:,}")
    if not args.no_table:
        table(args, pairs)
    if args.workers_memory:
        # Before this process maps the paraphrase index itself (in_process): a page it
        # maps too would count half in the measured tree's PSS.
        workers_memory(args, pairs)
    in_process(args, pairs)


if __name__ == "__main__":
    main()
