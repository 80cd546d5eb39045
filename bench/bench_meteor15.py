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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import JAR, ROOT, SHARED, beam_search, jar_pairs

DATA = SHARED / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"


def tree_mem_kb(pid: int) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) over a process and all its descendants, in kB.

    PSS divides pages shared by forked workers (the memory-mapped paraphrase index,
    the WordNet tables inherited from the parent) among them: it is the honest total
    for a process tree.  RSS counts shared pages once per process.
    """
    rss = pss = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack += [int(x) for x in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return rss, pss


def run(cmd: list[str], **kw: object) -> tuple[float, float, float, str]:
    """(wall s, peak tree PSS MB, peak tree RSS MB, stdout); output goes to files, not pipes."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, **kw)  # type: ignore[call-overload]
        peak_rss = peak_pss = 0
        while proc.poll() is None:
            rss, pss = tree_mem_kb(proc.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            time.sleep(0.02)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed ({proc.returncode}):\n{stderr[-2000:]}")
    return wall, peak_pss / 1024, peak_rss / 1024, stdout


NLTK_SCRIPT = r"""
import sys
sys.path.insert(0, {root!r})
from nltk.translate.meteor_score import meteor_score
from meteor.languages.nltk_wordnet import wordnet_reader
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

    segs = jar_pairs(DATA)
    if args.segments:
        segs = segs[: args.segments]
    tmp = Path(tempfile.mkdtemp(prefix="meteor-bench-"))
    hyp_f, ref_f = tmp / "hyp.txt", tmp / "ref.txt"
    hyp_f.write_text("".join(h + "\n" for h, _ in segs), encoding="utf-8")
    ref_f.write_text("".join(r + "\n" for _, r in segs), encoding="utf-8")
    print(f"{len(segs)} segments of WMT21 ru-en; {os.cpu_count()} cores; "
          f"ours: beam search in {beam_search()}\n")  # fmt: skip

    rows: list[tuple[str, float, float, float, str]] = []
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
        wall, mem, rss, out = run(cmd, env=env, cwd=ROOT)
        sysrep = json.loads(out)["systems"][0]
        rows.append(
            (
                f"ours {preset}",
                wall,
                mem,
                rss,
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
                wall, mem, rss, out = run(cmd, cwd=JAR.parent)
                rows.append((label, wall, mem, rss, out.strip().splitlines()[-1] if out else ""))
        else:
            print(
                f"(Java skipped: {JAR} not found; run ../shared/tools/meteor15/setup_meteor15.sh)"
            )
    if not args.skip_nltk:
        script = NLTK_SCRIPT.format(root=str(ROOT), hyp=str(hyp_f), ref=str(ref_f))
        wall, mem, rss, out = run([sys.executable, "-c", script])
        rows.append(("nltk meteor_score (mean)", wall, mem, rss, out.strip()))

    print(f"{'tool':30s} {'wall s':>7s} {'PSS MB':>7s} {'RSS MB':>7s}  score", flush=True)
    for name, wall, mem, rss, score in rows:
        print(f"{name:30s} {wall:7.2f} {mem:7.0f} {rss:7.0f}  {score}")
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
        t0 = time.process_time()
        m.score(rep, rep2)
        long = time.process_time() - t0
        print(
            f"{preset:22s} one pair warm {one:6.2f} ms (≤ 50)   200 repeated tokens {long:6.3f} s CPU (≤ 1)"
        )


if __name__ == "__main__":
    main()
