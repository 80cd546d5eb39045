"""Bench (by hand, not a test): ``meteor correlate`` with the sacreBLEU baselines against
METEOR alone.

    python bench/bench_correlate.py [--data ../shared/data/wmt21_ru-en_da/seg_da.tsv]
        [--workers 2] [--bootstrap 1000] [--permutations 1000] [--before DIR] [--repeats 3]

Runs ``python -m meteor correlate``, each run a fresh process, in one go so the ratios share
the machine's load: (1) METEOR alone (``--preset meteor-1.5``); (2) METEOR + ``--baseline chrf
--baseline chrf++ --baseline bleu``, the baselines' cache (``baselines/`` of the cache folder)
emptied first; (3) the same again, the baselines read from the cache; (4) METEOR alone again
(the two METEOR-alone runs give the noise of a busy machine).  ``--before DIR``: a checkout
before the change (e.g. ``git archive main`` unpacked, ``./native`` built in place) runs 1 and
2 too.  The sequence runs ``--repeats`` times; prints each run's median wall time (and every
time) and CPU time (the process and its workers), each with its ratio to the median of the
METEOR-alone runs, and the load average.  ``--bootstrap 1 --permutations 0`` leaves the
scoring alone: the statistics of four metrics cost far more than one's.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

from common import ROOT, SHARED, child_env, loadavg, run_cold

from meteor.analysis.baselines import CACHE_FOLDER
from meteor.resources import cache_dir

DATA = str(SHARED / "wmt21_ru-en_da" / "seg_da.tsv")
BASELINES = ("chrf", "chrf++", "bleu")


def run(cwd: Path, args: argparse.Namespace, baselines: tuple[str, ...]) -> tuple[float, float]:
    """Wall and CPU seconds (the process and its workers) of ``meteor correlate`` run in ``cwd``."""
    cmd = [
        sys.executable, "-m", "meteor", "correlate", "--hyp", args.data,
        "--human-column", "human_score", "--darr-column", "human_raw",
        "--preset", "meteor-1.5", "--workers", str(args.workers),
        "--bootstrap", str(args.bootstrap), "--permutations", str(args.permutations),
        "--format", "json",
    ]  # fmt: skip
    for b in baselines:
        cmd += ["--baseline", b]
    cold = run_cold(cmd, sample=False, cwd=cwd, env=child_env(cwd))
    return cold.wall, cold.cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    ap.add_argument("--before", type=Path, default=None, help="a checkout before the change")
    ap.add_argument("--repeats", type=int, default=3, help="times the whole sequence runs")
    args = ap.parse_args()
    with open(args.data, encoding="utf-8") as fh:
        rows = sum(1 for _ in fh) - 1
    print(f"{rows:,} rows of {args.data}; --workers {args.workers}, --bootstrap "
          f"{args.bootstrap}, --permutations {args.permutations}; {os.cpu_count()} CPUs")  # fmt: skip
    print(f"load average (1, 5, 15 min) before: {loadavg(', ')}")
    run(ROOT, args, ())  # warm-up: start-up caches (WordNet, paraphrase index) built
    cached = cache_dir() / CACHE_FOLDER
    times: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.repeats):
        steps: list[tuple[str, Path, tuple[str, ...]]] = []
        if args.before is not None:
            steps += [("before: METEOR alone", args.before, ()),
                      ("before: METEOR + 3 baselines", args.before, BASELINES)]  # fmt: skip
        steps += [
            ("METEOR alone", ROOT, ()),
            ("METEOR + 3 baselines, first run", ROOT, BASELINES),
            ("METEOR + 3 baselines, cached", ROOT, BASELINES),
            ("METEOR alone, again", ROOT, ()),
        ]
        for name, cwd, baselines in steps:
            if "cached" not in name:  # every other run with baselines scores them anew
                shutil.rmtree(cached, ignore_errors=True)
            times.setdefault(name, []).append(run(cwd, args, baselines))
    print(f"load average after: {loadavg(', ')}")
    alone = times["METEOR alone"] + times["METEOR alone, again"]
    ref_wall = statistics.median(w for w, _ in alone)
    ref_cpu = statistics.median(c for _, c in alone)
    print(f"| run | wall s, median of {args.repeats} (each) | × alone | CPU s, median | × alone |")
    print("|---|---:|---:|---:|---:|")
    for name, ts in times.items():
        wall = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        each = ", ".join(f"{w:.1f}" for w, _ in ts)
        print(f"| {name} | {wall:.1f} ({each}) | {wall / ref_wall:.2f} | {cpu:.1f} | "
              f"{cpu / ref_cpu:.2f} |")  # fmt: skip


if __name__ == "__main__":
    main()
