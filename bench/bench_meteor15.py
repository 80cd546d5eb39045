"""Benchmark, run by hand: this library vs the Meteor 1.5 jar vs NLTK, measured in one run.

    python bench/bench_meteor15.py [--segments N] [--workers N] [--skip-java] [--skip-nltk]

Inputs: the 9,832 WMT21 ru→en segments of the Meteor 1.5 expected-value file in
``../shared/data/wmt21_ru-en_da``.  Every tool runs cold in its own process; wall time and
the peak memory of the process tree (summed PSS and RSS, sampled every 20 ms) are reported,
with ratios against Java (when ``setup_meteor15.sh`` has unpacked the jar) and NLTK.  Also
printed per preset: one pair warm (target ≤ 50 ms) and a 200-token pair of repeated words
(target ≤ 1 s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from bench_marginal import NLTK_SCRIPT, PAPER2005_FLAGS
from common import (
    JAR,
    ROOT,
    SHARED,
    beam_search,
    child_env,
    jar_command,
    jar_pairs,
    java_runs,
    run_cold,
    write_pairs,
)

DATA = SHARED / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--segments", type=int, default=0, help="only the first N segments")
    ap.add_argument("--workers", type=int, default=0, help="processes for ours (0: all cores)")
    ap.add_argument("--skip-java", action="store_true")
    ap.add_argument("--skip-nltk", action="store_true")
    args = ap.parse_args()

    segs = jar_pairs(DATA)[: args.segments or None]
    hyp_f, ref_f = map(str, write_pairs(Path(tempfile.mkdtemp(prefix="meteor-bench-")), segs))
    print(f"{len(segs)} segments of WMT21 ru-en; {os.cpu_count()} cores; "
          f"ours: beam search in {beam_search()}\n")  # fmt: skip

    rows: list[tuple[str, float, float, float, str]] = []
    for preset in ("meteor-1.5", "meteor-1.5-paper2005", "nltk"):
        cmd = [sys.executable, "-m", "meteor", "score", "--preset", preset, "--format", "json"]
        cmd += ["--hyp", hyp_f, "--ref", ref_f]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        run = run_cold(cmd, env=child_env(), cwd=ROOT)
        sysrep = json.loads(run.stdout)["systems"][0]
        score = f"{sysrep['score']} (mean of segments {sysrep['mean_segment_score']})"
        rows.append((f"ours {preset}", run.wall, run.pss_mb, run.rss_mb, score))
    if java_runs(args.skip_java):
        for label, extra in (("java -l en -norm", []), ("java paper2005", PAPER2005_FLAGS)):
            run = run_cold(jar_command(hyp_f, ref_f, *extra), cwd=JAR.parent)
            last = run.stdout.strip().splitlines()[-1] if run.stdout else ""
            rows.append((label, run.wall, run.pss_mb, run.rss_mb, last))
    if not args.skip_nltk:
        script = NLTK_SCRIPT.format(root=str(ROOT))
        run = run_cold([sys.executable, "-c", script, hyp_f, ref_f])
        rows.append(
            ("nltk meteor_score (mean)", run.wall, run.pss_mb, run.rss_mb, run.stdout.strip())
        )

    print(f"{'tool':30s} {'wall s':>7s} {'PSS MB':>7s} {'RSS MB':>7s}  score", flush=True)
    for name, wall, mem, rss, score in rows:
        print(f"{name:30s} {wall:7.2f} {mem:7.0f} {rss:7.0f}  {score}")
    by = {r[0]: r for r in rows}
    print()
    for ours, other, name in (
        ("ours meteor-1.5", "java -l en -norm", "java -l en -norm"),
        ("ours meteor-1.5-paper2005", "java paper2005", "java paper2005"),
        ("ours nltk", "nltk meteor_score (mean)", "nltk"),
    ):
        if ours in by and other in by:
            print(
                f"{ours} / {name}: wall ×{by[ours][1] / by[other][1]:.2f}, "
                f"memory ×{by[ours][2] / by[other][2]:.2f}"
            )

    # Latency of single pairs, warm.
    sys.path.insert(0, str(ROOT))
    import meteor

    print()
    rep = " ".join(["the cat and the dog"] * 40)
    rep2 = " ".join(["the dog and the cat"] * 40)
    for preset in ("meteor-1.5", "meteor-1.5-paper2005", "paper-2005", "nltk"):
        m = meteor.Meteor(preset)
        m.prepare()
        m.score(segs[0][0], segs[0][1])
        t0 = time.perf_counter()
        for h, r in segs[1:101]:
            m.score(h, r)
        one = (time.perf_counter() - t0) / 100 * 1000
        t0 = time.process_time()
        m.score(rep, rep2)
        long = time.process_time() - t0
        print(
            f"{preset:22s} one pair warm {one:6.2f} ms (≤ 50)   200 repeated tokens {long:6.3f} s CPU (≤ 1)"
        )


if __name__ == "__main__":
    main()
