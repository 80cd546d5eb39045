"""Benchmark of :mod:`meteor.languages.paraphrase`: build, load, memory and candidate speed.

    python bench/bench_paraphrase.py            # load + RSS + candidates() on the shared data
    python bench/bench_paraphrase.py --build    # also time a fresh build into a temporary cache

Each measurement runs in a fresh process (load time and peak RSS are those of a process that
loads the index and scores, as the app's).  Written to ``bench/out/paraphrase.json`` too.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap

from common import ROOT, SHARED, child_env, last_json, timed

FILES = [
    "newstest2009_cs-en/meteor15.en_default_norm.jsonl.gz",
    "ted_sk-en/meteor15.en_default_norm.jsonl.gz",
    "wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz",
]

CHILD = textwrap.dedent(
    """
    import gzip, json, resource, statistics, sys, time
    t0 = time.perf_counter()
    from meteor.languages.paraphrase import ParaphraseTable
    t1 = time.perf_counter()
    table = ParaphraseTable.load("en", progress=lambda f, m: None)
    t2 = time.perf_counter()
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    def pairs():  # streamed, so the RSS below is the index's and the process's
        for name in sys.argv[1:]:
            with gzip.open(name, "rt", encoding="utf-8") as fh:
                for line in fh:
                    d = json.loads(line)
                    if d.get("type") == "segment":
                        yield d["hyp_tokens"], d["ref_tokens"]
    times, around30 = [], []
    n_cands = 0
    for hyp, ref in pairs():
        s = time.perf_counter()
        n_cands += len(table.candidates(hyp, ref))
        dt = (time.perf_counter() - s) * 1000
        times.append(dt)
        if 25 <= (len(hyp) + len(ref)) / 2 <= 35:
            around30.append(dt)
    times.sort()
    around30.sort()
    q = lambda xs, p: xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")
    print(json.dumps({
        "import_s": t1 - t0,
        "load_s": t2 - t1,
        "rss_after_load_mb": rss_loaded,
        "peak_rss_after_scoring_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "segments": len(times),
        "candidates": n_cands,
        "ms_mean": statistics.fmean(times),
        "ms_median": q(times, 0.5),
        "ms_p95": q(times, 0.95),
        "ms_max": times[-1],
        "pairs_about_30_tokens": len(around30),
        "ms_median_30": q(around30, 0.5),
        "ms_p95_30": q(around30, 0.95),
        "index_mb": table.path.stat().st_size / 2**20,
        "build_child_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }))
    """
)


def run_child(env: dict[str, str]) -> dict[str, float]:
    files = [str(SHARED / f) for f in FILES if (SHARED / f).is_file()]
    return last_json([sys.executable, "-c", CHILD, *files], env=env, cwd=ROOT)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", action="store_true", help="time a fresh build too")
    args = parser.parse_args()
    env = child_env()
    results: dict[str, object] = {}
    if args.build:
        with tempfile.TemporaryDirectory() as tmp:
            # builds (in a grandchild), then loads and scores
            wall, first = timed(run_child, child_env(METEOR_CACHE_DIR=tmp))
            results["build_then_load_s"] = first["load_s"]
            results["build_wall_s"] = wall
            results["build_child_peak_rss_mb"] = first["build_child_peak_rss_mb"]
            results["scoring_process_peak_rss_during_build_mb"] = first["peak_rss_after_scoring_mb"]
    run_child(env)  # make sure the regular cache exists (and warm the page cache)
    results["warm"] = run_child(env)
    print(json.dumps(results, indent=2))
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "paraphrase.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
