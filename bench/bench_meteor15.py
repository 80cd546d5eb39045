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
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"
JAR = Path.home() / ".cache" / "meteor15" / "meteor-1.5" / "meteor-1.5.jar"


def tree_rss_kb(pid: int) -> int:
    """Sum of VmRSS over a process and all its descendants (kB)."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack += [int(x) for x in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def run(cmd: list[str], **kw: object) -> tuple[float, float, str]:
    """(wall seconds, peak tree RSS in MB, stdout)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)  # type: ignore[call-overload]
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_kb(proc.pid))
        time.sleep(0.02)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed ({proc.returncode}):\n{err[-2000:]}")
    return wall, peak / 1024, out


NLTK_SCRIPT = r"""
import sys
sys.path.insert(0, {root!r})
from nltk.translate.meteor_score import meteor_score
from meteor.nltk_wordnet import wordnet_reader
wn = wordnet_reader()
hyps = open({hyp!r}, encoding="utf-8").read().split("\n")[:-1]
refs = open({ref!r}, encoding="utf-8").read().split("\n")[:-1]
s = 0.0
for h, r in zip(hyps, refs):
    s += meteor_score([r.lower().split()], h.lower().split(), wordnet=wn)
print(s / len(hyps))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--segments", type=int, default=0, help="only the first N segments")
    ap.add_argument("--workers", type=int, default=0, help="processes for ours (0: all cores)")
    ap.add_argument("--skip-java", action="store_true")
    ap.add_argument("--skip-nltk", action="store_true")
    args = ap.parse_args()

    segs = []
    with gzip.open(DATA, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "segment":
                segs.append((d["hyp"], d["refs"][0]))
    if args.segments:
        segs = segs[: args.segments]
    tmp = Path(tempfile.mkdtemp(prefix="meteor-bench-"))
    hyp_f, ref_f = tmp / "hyp.txt", tmp / "ref.txt"
    hyp_f.write_text("".join(h + "\n" for h, _ in segs), encoding="utf-8")
    ref_f.write_text("".join(r + "\n" for _, r in segs), encoding="utf-8")
    print(f"{len(segs)} segments of WMT21 ru-en; {os.cpu_count()} cores\n")

    rows: list[tuple[str, float, float, str]] = []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for preset in ("meteor-1.5", "meteor-1.5-paper2005", "nltk"):
        cmd = [
            sys.executable,
            "-m",
            "meteor",
            "score",
            "--preset",
            preset,
            "--hyp",
            str(hyp_f),
            "--ref",
            str(ref_f),
            "--format",
            "json",
        ]
        if args.workers:
            cmd += ["--workers", str(args.workers)]
        wall, mem, out = run(cmd, env=env, cwd=ROOT)
        sysrep = json.loads(out)["systems"][0]
        rows.append(
            (
                f"ours {preset}",
                wall,
                mem,
                f"{sysrep['score']} (mean of segments {sysrep['mean_segment_score']})",
            )
        )
    if not args.skip_java:
        if JAR.is_file():
            for label, extra in (
                ("java -l en -norm", []),
                (
                    "java paper2005",
                    ["-p", "0.9 3.0 0.5 0.5", "-m", "exact stem synonym", "-w", "1.0 1.0 1.0"],
                ),
            ):
                cmd = [
                    "java",
                    "-Xmx2G",
                    "-jar",
                    str(JAR),
                    str(hyp_f),
                    str(ref_f),
                    "-l",
                    "en",
                    "-norm",
                    "-q",
                    *extra,
                ]
                wall, mem, out = run(cmd, cwd=JAR.parent)
                rows.append((label, wall, mem, out.strip().splitlines()[-1] if out else ""))
        else:
            print(
                f"(Java skipped: {JAR} not found; run ../shared/tools/meteor15/setup_meteor15.sh)"
            )
    if not args.skip_nltk:
        script = NLTK_SCRIPT.format(root=str(ROOT), hyp=str(hyp_f), ref=str(ref_f))
        wall, mem, out = run([sys.executable, "-c", script])
        rows.append(("nltk meteor_score (mean)", wall, mem, out.strip()))

    print(f"{'tool':34s} {'wall s':>8s} {'peak MB':>8s}  score")
    for name, wall, mem, score in rows:
        print(f"{name:34s} {wall:8.2f} {mem:8.0f}  {score}")
    by = {r[0]: r for r in rows}
    print()
    for ours, java in (
        ("ours meteor-1.5", "java -l en -norm"),
        ("ours meteor-1.5-paper2005", "java paper2005"),
    ):
        if ours in by and java in by:
            print(
                f"{ours} / {java}: wall ×{by[ours][1] / by[java][1]:.2f}, "
                f"memory ×{by[ours][2] / by[java][2]:.2f}"
            )
    if "nltk meteor_score (mean)" in by:
        n = by["nltk meteor_score (mean)"]
        print(
            f"ours nltk / nltk: wall ×{by['ours nltk'][1] / n[1]:.2f}, "
            f"memory ×{by['ours nltk'][2] / n[2]:.2f}"
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
        t0 = time.perf_counter()
        m.score(rep, rep2)
        long = time.perf_counter() - t0
        print(
            f"{preset:22s} one pair warm {one:6.2f} ms (≤ 50)   200 repeated tokens {long:6.3f} s (≤ 1)"
        )


if __name__ == "__main__":
    main()
