"""Bench (by hand, not a test): tuning on statistics vs re-scoring the corpus.

    python bench/bench_tune.py [--data ../shared/data/wmt21_ru-en_da/seg_da.tsv]
    python bench/bench_tune.py --jar [--jar-path ~/.cache/meteor15/meteor-1.5/meteor-1.5.jar]

Aligns the 9,832 segments of WMT21 ru-en DA once under meteor-1.5 (what re-scoring the
corpus costs per parameter point), then scores random points (α, β, γ, δ, four weights) from
the statistics in blocks, as the search does, with each objective: points per second and the
speed-up per point over re-scoring.  Prints the load average: the machine is shared.

``--jar``: Meteor 1.5's own ``Trainer`` (its ``spearman`` task: our ``spearman_flat``, on its
exhaustive :data:`JAR_GRID`) against ``meteor.tune`` on the same subset (``--systems`` systems ×
the first ``--segments`` rows of each, without rows holding ``<``, ``>`` or ``&``): each one's
best point, its value, the points tried and the wall time (docs/agreement.md).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np
from common import JAR, SHARED, loadavg, read_tsv, timed

from meteor.analysis import tune as tn
from meteor.analysis.agreement import Judged, judged_rows, load_judged
from meteor.metric import Meteor
from meteor.params import Params
from meteor.types import module_slot

DATA = str(SHARED / "wmt21_ru-en_da" / "seg_da.tsv")

#: The Trainer's grid (``-i`` start, ``-f`` end, ``-s`` step): α β γ δ, then the weights of
#: exact, stem, synonym, paraphrase (exact fixed at 1, as Meteor 1.5's tasks have it).
JAR_GRID = (
    "0.1 0.0 0.0 0.5 1.0 0.2 0.2 0.2",
    "1.0 3.0 1.0 1.0 1.0 1.0 1.0 1.0",
    "0.1 0.5 0.2 0.1 1.0 0.4 0.4 0.4",
)


def jar_subset(path: Path, n_systems: int, n_segments: int) -> list[dict[str, str]]:
    """The first ``n_segments`` rows of the first ``n_systems`` systems (the file's order),
    without rows whose texts hold SGML's special characters."""
    rows = read_tsv(path)
    systems = list(dict.fromkeys(r["system"] for r in rows if r["system"] != "HUMAN-refB"))
    out = []
    for name in systems[:n_systems]:
        mine = [r for r in rows if r["system"] == name][:n_segments]
        out += [r for r in mine if not any(c in r["hyp"] + r["ref"] for c in "<>&")]
    return out


def write_trainer_dir(rows: Sequence[dict[str, str]], where: Path) -> None:
    """``SYS.tst``, ``SYS.ref`` (SGML by document) and ``SYS.ter`` (doc seg human)."""
    for name in dict.fromkeys(r["system"] for r in rows):
        mine = [r for r in rows if r["system"] == name]
        docs = {r["doc_id"]: [x for x in mine if x["doc_id"] == r["doc_id"]] for r in mine}
        for ext, field, tag, sysid in (
            ("tst", "hyp", "tstset", name),
            ("ref", "ref", "refset", "ref"),
        ):
            lines = [f'<{tag} setid="bench" srclang="ru" trglang="en">']
            for doc, segs in docs.items():
                lines.append(f'<doc sysid="{sysid}" docid="{doc}">')
                lines += [f'<seg id="{r["seg_id"]}">{escape(r[field])}</seg>' for r in segs]
                lines.append("</doc>")
            lines.append(f"</{tag}>")
            (where / f"{name}.{ext}").write_text("\n".join(lines) + "\n", encoding="utf-8")
        ter = [f"{r['doc_id']} {r['seg_id']} {r['human_score']}" for r in mine]
        (where / f"{name}.ter").write_text("\n".join(ter) + "\n", encoding="utf-8")


def run_trainer(
    jar: Path, where: Path, grid: Sequence[str]
) -> tuple[list[float], int, float, float]:
    """The Trainer's best line ``[ρ, α, β, γ, δ, w1..w4]``, its points, the seconds until its
    first point (JVM, paraphrase table, aligning) and the seconds in all."""
    para = jar.parent / "data" / "paraphrase-en.gz"
    cmd = ["java", "-Xmx2G", "-cp", str(jar), "Trainer", "spearman", str(where / "data"),
           "-a", str(para), "-i", grid[0], "-f", grid[1], "-s", grid[2]]  # fmt: skip
    t0 = time.perf_counter()
    first = None
    best: list[float] = []
    n = 0
    with subprocess.Popen(cmd, cwd=where, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True) as proc:  # fmt: skip
        assert proc.stdout is not None
        for line in proc.stdout:
            parts = line.split()
            if len(parts) != 9:
                continue
            first = first if first is not None else time.perf_counter() - t0
            vals = [float(x) for x in parts]
            n += 1
            if not best or vals[0] > best[0]:
                best = vals
    total = time.perf_counter() - t0
    if proc.returncode != 0 or not best:
        raise SystemExit(f"the Trainer failed (exit {proc.returncode}, {n} points)")
    return best, n, first or total, total


def statistics(judged: Judged, base: Params, workers: int) -> tuple[tn.StatArrays, tn.Rows, float]:
    """The corpus aligned once under ``base`` (as tune does), its judged rows, and the
    seconds aligning took (= re-scoring the corpus once)."""
    seconds, stats = timed(tn.align_statistics, judged, base, "meteor-1.5", workers=workers)
    human, darr, items, systems = judged_rows(judged)
    rows = tn.Rows.build(human, darr, items, systems, len(judged.corpus.systems), 25.0)
    return stats, rows, seconds


def jar_main(args: argparse.Namespace) -> None:
    """``--jar``: the Trainer and ``meteor.tune`` on the same subset, objective Spearman."""
    from meteor.analysis.tune import tune

    print(f"load average before: {loadavg()}")
    rows = jar_subset(Path(args.data), args.systems, args.segments)
    print(f"{len(rows):,} segments: {args.systems} systems x first {args.segments} rows "
          f"of {Path(args.data).name}")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="bench_trainer_") as tmp:
        where = Path(tmp)
        (where / "data").mkdir()
        write_trainer_dir(rows, where / "data")
        jar_best, jar_n, jar_first, jar_total = run_trainer(Path(args.jar_path), where, JAR_GRID)
    cols = ("system", "seg_id", "hyp", "ref", "human_score")
    lines = ["\t".join(cols), *("\t".join(r[c] for c in cols) for r in rows)]
    judged = load_judged([("subset.tsv", ("\n".join(lines) + "\n").encode())], "human_score")
    ours_total, res = timed(tune, judged, preset="meteor-1.5", objective="spearman_flat", workers=1)
    # the jar's best point on our statistics (aligned again: the timing above is tune's own)
    base = Meteor("meteor-1.5").params
    stats, rws, _ = statistics(judged, base, workers=1)
    a, b, g, d, *w = jar_best[1:]
    mods = [m for m, _ in base.weights]  # exact stem synonym paraphrase, the Trainer's order
    jar_params = base.replace(
        alpha=a, beta=b, gamma=g, delta=d, weights=tuple(zip(mods, w, strict=True))
    )
    pt = tn.Point.of([jar_params], stats.hc.shape[2])
    jar_ours = float(tn.evaluate_points(stats, rws, "spearman_flat", pt, screen=False)[0])
    p = res.params
    ours_w = " ".join(f"{x:.3g}" for _, x in p.weights)
    print("| | best α β γ δ | weights (exact stem syn para) | Spearman ρ | points | wall time |")
    print("|---|---|---|---|---|---|")
    print(f"| jar Trainer (exhaustive grid) | {a:.2f} {b:.2f} {g:.2f} {d:.2f} | "
          f"{' '.join(f'{x:.2f}' for x in w)} | {jar_best[0]:.4f} (ours at that point: "
          f"{jar_ours:.4f}) | {jar_n:,} | {jar_total:.1f} s ({jar_first:.1f} s to align, "
          f"{jar_total - jar_first:.1f} s to search) |")  # fmt: skip
    print(f"| meteor.tune (grid + descent) | {p.alpha:.4g} {p.beta:.4g} {p.gamma:.4g} "
          f"{p.delta:.4g} | {ours_w} | {res.value:.4f} (base {res.base_value:.4f}) | "
          f"{res.n_points:,} | {ours_total:.1f} s ({res.align_seconds:.1f} s to align, "
          f"{res.seconds:.1f} s to search) |")  # fmt: skip
    print(f"load average after: {loadavg()}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--jar", action="store_true", help="compare with Meteor 1.5's Trainer")
    ap.add_argument("--jar-path", default=str(JAR))
    ap.add_argument("--systems", type=int, default=3)
    ap.add_argument("--segments", type=int, default=500, help="rows per system (--jar)")
    args = ap.parse_args()
    if args.jar:
        jar_main(args)
        return
    print(f"load average before: {loadavg()}")
    path = Path(args.data)
    judged = load_judged([(path.name, path.read_bytes())], "human_score")
    base = Meteor("meteor-1.5").params
    stats, rows, rescore = statistics(judged, base, args.workers)
    print(f"{stats.n_rows:,} rows; aligning (= re-scoring the corpus once): {rescore:.1f} s")
    width = stats.hc.shape[2]
    rng = np.random.default_rng(0)

    def points(n: int) -> tn.Point:
        w = np.zeros((n, width))
        for m, _ in base.weights:
            w[:, module_slot(m)] = rng.random(n)
        return tn.Point(rng.random(n), rng.random(n) * 3, rng.random(n), rng.random(n), w)

    for key in ("scores only", *tn.OBJECTIVES):
        n = args.points // 20 if key == "spearman_item" else args.points
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
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    main()
