"""Benchmark, run by hand: this library vs the Meteor 1.5 jar vs NLTK, measured in one run.

    python bench/bench_meteor15.py [--segments N] [--workers N] [--skip-java] [--skip-nltk]

Inputs: the 9,832 WMT21 ru→en segments of ``../shared/data/wmt21_ru-en_da`` (hypotheses
and references of the Meteor 1.5 expected-value file).  Every tool runs cold in its
own process; wall time and the peak memory of the whole process tree (sum of RSS,
sampled every 20 ms) are reported, with ratios against Java and NLTK.

Java runs only when ``../shared/tools/meteor15/setup_meteor15.sh`` has unpacked the
jar into ``~/.cache/meteor15/meteor-1.5/`` (a dev tool; never part of the product).
Also printed: one pair warm (target ≤ 50 ms) and a 200-token pair of repeated words
(target ≤ 1 s), per preset.
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
from common import JAR, ROOT, SHARED, beam_search, child_env, jar_pairs, run_cold, write_pairs

DATA = SHARED / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--segments", type=int, default=0, help="only the first N segments")
    ap.add_argument("--workers", type=int, default=0, help="processes for ours (0: all cores)")
    ap.add_argument("--skip-java", action="store_true")
    ap.add_argument("--skip-nltk", action="store_true")
    args = ap.parse_args()

    segs = jar_pairs(DATA)
    if args.segments:
        segs = segs[: args.segments]
    tmp = Path(tempfile.mkdtemp(prefix="meteor-bench-"))
    hyp_f, ref_f = write_pairs(tmp, [h for h, _ in segs], [r for _, r in segs])
    print(f"{len(segs)} segments of WMT21 ru-en; {os.cpu_count()} cores; "
          f"ours: beam search in {beam_search()}\n")  # fmt: skip

    rows: list[tuple[str, float, float, float, str]] = []
    for preset in ("meteor-1.5", "meteor-1.5-paper2005", "nltk"):
        cmd = [sys.executable, "-m", "meteor", "score", "--preset", preset, "--format", "json"]
        cmd += ["--hyp", str(hyp_f), "--ref", str(ref_f)]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        wall, _, mem, rss, out = run_cold(cmd, env=child_env(), cwd=ROOT)
        sysrep = json.loads(out)["systems"][0]
        score = f"{sysrep['score']} (mean of segments {sysrep['mean_segment_score']})"
        rows.append((f"ours {preset}", wall, mem, rss, score))
    if args.skip_java:
        pass
    elif JAR.is_file():
        java = ["java", "-Xmx2G", "-jar", str(JAR), str(hyp_f), str(ref_f)]
        for label, extra in (("java -l en -norm", []), ("java paper2005", PAPER2005_FLAGS)):
            cmd = [*java, "-l", "en", "-norm", "-q", *extra]
            wall, _, mem, rss, out = run_cold(cmd, cwd=JAR.parent)
            rows.append((label, wall, mem, rss, out.strip().splitlines()[-1] if out else ""))
    else:
        print(f"(Java skipped: {JAR} not found; run ../shared/tools/meteor15/setup_meteor15.sh)")
    if not args.skip_nltk:
        script = NLTK_SCRIPT.format(root=str(ROOT))  # the same as bench_marginal.py's
        wall, _, mem, rss, out = run_cold([sys.executable, "-c", script, str(hyp_f), str(ref_f)])
        rows.append(("nltk meteor_score (mean)", wall, mem, rss, out.strip()))

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
