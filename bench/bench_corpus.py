"""Benchmark the corpus path and the CLI on 10,000 real segments (run by hand).

    python bench/bench_corpus.py                      # paper2005 preset, every CPU
    python bench/bench_corpus.py --preset meteor-1.5  # the default (paraphrase table)
    python bench/bench_corpus.py --n 2000 --workers 1 2 --skip-cli

Data: the first ``--n`` rows of ``../shared/data/wmt21_ru-en_da/all_outputs.tsv`` (10 WMT21
ru→en systems and a human reference, 1,000 segments each) as one corpus.  Reports wall time,
segments per second and peak RSS (this process's, the largest worker's), then the bootstrap
and the CLI end to end (``python -m meteor score … --jsonl … --align-out …``).  Temporary
files go to ``bench/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

from common import ROOT, SHARED, peak_mb, read_tsv, timed, write_pairs

from meteor import Meteor
from meteor.analysis.significance import bootstrap, paired_bootstrap
from meteor.runners.parallel import default_workers, score_corpus

DATA = SHARED / "wmt21_ru-en_da" / "all_outputs.tsv"
OUT = ROOT / "bench" / "out"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="meteor-1.5-paper2005")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="*", default=None, help="default: all CPUs")
    ap.add_argument("--skip-cli", action="store_true")
    ap.add_argument("--bootstrap", type=int, default=1000)
    args = ap.parse_args()

    rows = read_tsv(DATA)[: args.n]
    hyps, refs = [r["hyp"] for r in rows], [r["ref"] for r in rows]
    n = len(hyps)
    print(f"data: {DATA.name}, {n:,} segments; preset {args.preset}; {os.cpu_count()} CPUs")
    print(f"peak RSS after reading: {peak_mb():.0f} MB")

    t0 = time.perf_counter()
    meteor = Meteor(args.preset)
    meteor.prepare()
    print(f"resources loaded in {time.perf_counter() - t0:.1f} s; peak RSS {peak_mb():.0f} MB")

    result = None
    for w in args.workers or [default_workers()]:
        dt, result = timed(score_corpus, meteor, hyps, refs, workers=w)
        print(
            f"score_corpus workers={w}: {dt:.1f} s, {n / dt:,.0f} seg/s; "
            f"corpus {result.score:.6f}, mean of segments {result.mean_segment_score:.6f}; "
            f"peak RSS parent {peak_mb():.0f} MB, largest worker {peak_mb(resource.RUSAGE_CHILDREN):.0f} MB"
        )
    assert result is not None

    if args.bootstrap:
        dt, ci = timed(bootstrap, result, meteor.params, n_samples=args.bootstrap)
        print(
            f"bootstrap {args.bootstrap} samples: {dt:.2f} s "
            f"(corpus 95% CI [{ci.corpus.low:.4f}, {ci.corpus.high:.4f}])"
        )
        half = n // 2
        a = meteor.combine(result.segments[:half])
        b = meteor.combine(result.segments[half : 2 * half])
        if all(x.refs == y.refs for x, y in zip(a.segments, b.segments, strict=True)):
            dt, _ = timed(paired_bootstrap, a, b, meteor.params, n_samples=args.bootstrap)
            print(f"paired bootstrap (2 x {half:,}): {dt:.2f} s")
        print(f"peak RSS parent {peak_mb():.0f} MB")

    if not args.skip_cli:
        hyp_file, ref_file = write_pairs(OUT, zip(hyps, refs, strict=True))
        cmd = [
            sys.executable, "-m", "meteor", "score", "--preset", args.preset,
            "--hyp", str(hyp_file), "--ref", str(ref_file),
            "--jsonl", str(OUT / "segments.jsonl"), "--align-out", str(OUT / "run-align.out"),
            "--bootstrap", str(args.bootstrap), "--format", "text",
        ]  # fmt: skip
        before = peak_mb(resource.RUSAGE_CHILDREN)
        dt, proc = timed(subprocess.run, cmd, cwd=ROOT, capture_output=True, text=True)
        print(f"CLI: exit {proc.returncode}, {dt:.1f} s wall, {n / dt:,.0f} seg/s end to end")
        print("    " + proc.stdout.strip().replace("\n", "\n    "))
        if proc.returncode:
            print(proc.stderr)
        peak = peak_mb(resource.RUSAGE_CHILDREN)
        note = "" if peak > before else " (not above the earlier workers' peak)"
        print(f"CLI peak RSS (largest process): {peak:.0f} MB{note}")
        sizes = {p.name: p.stat().st_size / 1e6 for p in OUT.iterdir()}
        print("outputs: " + ", ".join(f"{k} {v:.1f} MB" for k, v in sorted(sizes.items())))


if __name__ == "__main__":
    main()
