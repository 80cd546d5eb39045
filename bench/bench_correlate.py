"""Bench (by hand, not a test): ``meteor correlate`` with the sacreBLEU baselines against
METEOR alone (issue 43, item 3).

    python bench/bench_correlate.py [--data ../shared/data/wmt21_ru-en_da/seg_da.tsv]
        [--workers 2] [--bootstrap 1000] [--permutations 1000] [--before DIR]

Runs the CLI, each run a fresh process (``python -m meteor correlate``, as a user does), in
one go so the ratios share the machine's load:

1. METEOR alone (``--preset meteor-1.5``);
2. METEOR + ``--baseline chrf --baseline chrf++ --baseline bleu``, the baselines' cache
   emptied first (the cache folder's ``baselines/``): the first run;
3. the same again: the baselines read from the cache;
4. METEOR alone again (the two METEOR-alone runs give the noise of a busy machine).

``--before DIR``: a checkout of the code before the change (e.g. ``git archive main``
unpacked in a temporary folder) runs 1 and 2 there too.  Prints each wall time, its ratio to
the mean of the METEOR-alone runs, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from meteor.analysis.baselines import CACHE_FOLDER  # noqa: E402
from meteor.resources import cache_dir  # noqa: E402

#: ``$METEOR_SHARED_DATA`` or ``../shared/data`` beside the repository (as tests/conftest.py).
DATA = str(
    Path(os.environ.get("METEOR_SHARED_DATA") or ROOT.parent / "shared" / "data")
    / "wmt21_ru-en_da"
    / "seg_da.tsv"
)
BASELINES = ("chrf", "chrf++", "bleu")


def run(cwd: Path, args: argparse.Namespace, baselines: tuple[str, ...]) -> float:
    """Wall seconds of one ``meteor correlate`` process run in ``cwd``."""
    cmd = [
        sys.executable, "-m", "meteor", "correlate", "--hyp", args.data,
        "--human-column", "human_score", "--darr-column", "human_raw",
        "--preset", "meteor-1.5", "--workers", str(args.workers),
        "--bootstrap", str(args.bootstrap), "--permutations", str(args.permutations),
        "--format", "json",
    ]  # fmt: skip
    for b in baselines:
        cmd += ["--baseline", b]
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    ap.add_argument("--before", type=Path, default=None, help="a checkout before the change")
    args = ap.parse_args()
    with open(args.data, encoding="utf-8") as fh:
        rows = sum(1 for _ in fh) - 1
    print(f"{rows:,} rows of {args.data}; --workers {args.workers}, --bootstrap "
          f"{args.bootstrap}, --permutations {args.permutations}; {os.cpu_count()} CPUs")  # fmt: skip
    print(f"load average (1, 5, 15 min) before: {load()}")
    run(ROOT, args, ())  # warm-up: start-up caches (WordNet, paraphrase index) built
    cached = cache_dir() / CACHE_FOLDER
    shutil.rmtree(cached, ignore_errors=True)
    times: list[tuple[str, float]] = []
    if args.before is not None:
        times.append(("before: METEOR alone", run(args.before, args, ())))
        times.append(("before: METEOR + 3 baselines", run(args.before, args, BASELINES)))
    times.append(("METEOR alone", run(ROOT, args, ())))
    times.append(("METEOR + 3 baselines, first run", run(ROOT, args, BASELINES)))
    times.append(("METEOR + 3 baselines, cached", run(ROOT, args, BASELINES)))
    times.append(("METEOR alone, again", run(ROOT, args, ())))
    alone = [t for name, t in times if name.startswith("METEOR alone")]
    ref = sum(alone) / len(alone)
    print(f"load average after: {load()}")
    print("| run | wall s | × METEOR alone |")
    print("|---|---:|---:|")
    for name, t in times:
        print(f"| {name} | {t:.1f} | {t / ref:.2f} |")


if __name__ == "__main__":
    main()
