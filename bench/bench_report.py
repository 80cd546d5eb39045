"""Bench (by hand, not a test): the corpus report of 10 systems × 2,000 segments.

    python bench/bench_report.py [--data DIR] [--systems 2,5,10] [--samples 1000] [--trials N]

Data: WMT21 newstest ru→en (``wmt21_ru-en_da/all_outputs.tsv``: 10 MT systems × 1,000
segments, reference A; ``ref_B.txt``: reference B).  Each system's outputs are used twice:
segments 1–1,000 against reference A, 1,001–2,000 against reference B (``--segments`` takes
fewer).  Each number of systems runs in a fresh process.  ``meteor.report`` runs with
``--samples`` bootstrap resamples and ``--trials`` randomisation trials (0: its default); its
progress lines split the time: scoring, the statistics (bootstraps and pairwise tests), the
buckets and "where the points go".  "RSS after scoring" is the process's peak when the
statistics start, "peak RSS" at the end.  Prints the load average: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from common import SHARED, last_json, loadavg, peak_mb, read_tsv

DATA = str(SHARED / "wmt21_ru-en_da")
HUMAN = "HUMAN-refB"  # reference B scored as a system: not an MT system
#: The report's progress lines by their first word: the phase they belong to (other lines
#: name their phase themselves: "buckets", "where the points go").
PHASES = {"score": "scoring", "bootstrap": "statistics", "compare": "statistics"}


def load(data: str, n_systems: int, n_segments: int) -> tuple[dict[str, list[str]], list[str]]:
    """The first ``n_systems`` MT systems' outputs and the references (module docstring)."""
    folder = Path(data)
    outputs: dict[str, dict[int, str]] = {}
    ref_a: dict[int, str] = {}
    for row in read_tsv(folder / "all_outputs.tsv"):
        if row["system"] == HUMAN:
            continue
        k = int(row["seg_id"])
        outputs.setdefault(row["system"], {})[k] = row["hyp"]
        ref_a[k] = row["ref"]
    ref_b = (folder / "ref_B.txt").read_text(encoding="utf-8").split("\n")
    order = sorted(ref_a)
    refs = [ref_a[k] for k in order] + [ref_b[k - 1] for k in order]
    names = sorted(outputs)[:n_systems]
    if len(names) < n_systems:
        raise SystemExit(f"only {len(names)} MT systems in {folder}")
    hyps = {n: [outputs[n][k] for k in order] * 2 for n in names}
    return {n: h[:n_segments] for n, h in hyps.items()}, refs[:n_segments]


def child(args: argparse.Namespace) -> None:
    import meteor

    hyps, refs = load(args.data, args.child, args.segments)
    marks: list[tuple[str, float, float]] = []

    def progress(line: str) -> None:
        phase = PHASES.get(line.split()[0], line)
        if not marks or marks[-1][0] != phase:
            marks.append((phase, time.perf_counter(), peak_mb()))

    t0 = time.perf_counter()
    trials = {"n_trials": args.trials} if args.trials else {}
    rep = meteor.report(
        hyps, refs, "meteor-1.5", n_samples=args.samples, progress=progress, **trials
    )
    end = time.perf_counter()
    spans: dict[str, float] = {}
    for (phase, t, _), nxt in zip(marks, [m[1] for m in marks[1:]] + [end], strict=True):
        spans[phase] = spans.get(phase, 0.0) + nxt - t
    after_scoring = next((mb for phase, _, mb in marks if phase == "statistics"), peak_mb())
    out = {
        "systems": len(hyps),
        "segments": len(refs),
        "samples": args.samples,
        "trials": rep.ranking.trials,
        "comparisons": rep.ranking.comparisons,
        "total_s": end - t0,
        **{f"{k}_s": v for k, v in spans.items()},
        "peak_rss_after_scoring_mb": after_scoring,
        "peak_rss_mb": peak_mb(),
    }
    print(json.dumps(out))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--systems", default="2,5,10", help="comma-separated numbers of systems")
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=0, help="randomisation trials (0: the default)")
    ap.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return
    print(f"load average before: {loadavg()}")
    print(
        f"{args.segments:,} segments per system (1,000 real outputs against reference A, "
        "then the same outputs against reference B); "
        f"{args.samples:,} bootstrap resamples, "
        f"{f'{args.trials:,}' if args.trials else 'the default number of'} randomisation trials"
    )
    print(
        f"{'systems':>7} {'pairs':>5} {'total s':>8} {'scoring':>8} {'statistics':>10} "
        f"{'buckets':>8} {'losses':>7} {'RSS after scoring MB':>21} {'peak RSS MB':>12}"
    )
    for n in (int(x) for x in args.systems.split(",")):
        cmd = [sys.executable, __file__, "--child", str(n), "--data", args.data,
               "--segments", str(args.segments), "--samples", str(args.samples),
               "--trials", str(args.trials)]  # fmt: skip
        r = last_json(cmd)
        print(
            f"{r['systems']:>7} {r['comparisons']:>5} {r['total_s']:>8.1f} "
            f"{r.get('scoring_s', 0):>8.1f} {r.get('statistics_s', 0):>10.1f} "
            f"{r.get('buckets_s', 0):>8.1f} {r.get('where the points go_s', 0):>7.1f} "
            f"{r['peak_rss_after_scoring_mb']:>21.0f} {r['peak_rss_mb']:>12.0f}"
        )
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    main()
