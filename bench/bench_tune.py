"""Bench (by hand, not a test): tuning on statistics vs re-scoring the corpus (issue 34).

    python bench/bench_tune.py [--data ../shared/data/wmt21_ru-en_da/seg_da.tsv]

Aligns the 9,832 segments of WMT21 ru-en DA once under meteor-1.5 (that time is what
re-scoring the corpus costs per parameter point), then scores random parameter points
(α, β, γ, δ and the four weights) from the statistics in blocks (``evaluate_points``, as the
search does) and measures each objective on them: points per second, and the speed-up per point over re-scoring.
Prints the load average: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from meteor.analysis import tune as tn  # noqa: E402
from meteor.analysis.agreement import _rows, load_judged  # noqa: E402
from meteor.metric import Meteor  # noqa: E402
from meteor.types import module_slot  # noqa: E402

#: ``$METEOR_SHARED_DATA`` or ``../shared/data`` beside the repository (as tests/conftest.py).
DATA = str(
    Path(
        os.environ.get("METEOR_SHARED_DATA")
        or Path(__file__).resolve().parents[2] / "shared" / "data"
    )
    / "wmt21_ru-en_da"
    / "seg_da.tsv"
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated objectives (default: all)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    path = Path(args.data)
    judged = load_judged([(path.name, path.read_bytes())], "human_score")
    base = Meteor("meteor-1.5").params
    t0 = time.perf_counter()
    stats = tn.align_statistics(judged, base, "meteor-1.5", workers=args.workers)
    rescore = time.perf_counter() - t0
    print(f"{stats.n_rows:,} rows; aligning (= re-scoring the corpus once): {rescore:.1f} s")
    human, darr, items, systems = _rows(judged)
    rows = tn.Rows.build(human, darr, items, systems, len(judged.corpus.systems), 25.0)
    width = stats.hc.shape[2]
    rng = np.random.default_rng(0)

    def points(n: int) -> tn.Point:
        w = np.zeros((n, width))
        for m, _ in base.weights:
            w[:, module_slot(m)] = rng.random(n)
        return tn.Point(rng.random(n), rng.random(n) * 3, rng.random(n), rng.random(n), w)

    for key, n in (
        ("scores only", args.points),
        ("pearson_flat", args.points),
        ("spearman_flat", args.points),
        ("darr_flat", args.points),
        ("darr_item", args.points),
        ("pearson_item", args.points),
        ("kendall_item", args.points),
        ("kendall_flat", args.points),
        ("spearman_item", args.points // 20),
        ("system_pearson", args.points),
        ("system_kendall", args.points),
    ):
        if args.only and key not in args.only.split(","):
            continue
        t = time.perf_counter()
        batch = 1024  # as the search hands them over: blocks of points, CHUNK at a time
        for start in range(0, n, batch):
            pt = points(min(batch, n - start))
            if key == "scores only":
                tn.segment_scores(stats, pt)
            else:
                tn.evaluate_points(stats, rows, key, pt)
        dt = time.perf_counter() - t
        note = " (screened: exact on 1 in 16)" if key in tn.SCREENED else ""
        print(
            f"{key:15} {n:>8,} points in {dt:7.1f} s: {n / dt:>9,.0f} points/s; "
            f"{rescore / (dt / n):>12,.0f}x faster per point than re-scoring{note}"
        )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
