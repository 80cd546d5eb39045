"""Benchmark, run by hand: ``meteor.compat.pycocoevalcap`` vs the real pycocoevalcap 1.2.

    python bench/bench_pycocoevalcap.py [--items N]

Input: caption-like items with five references each, from WMT21 ru→en
(``tests/parity/test_compat_pycocoevalcap.py::caption_items``).  Each implementation runs
cold in its own process (``Meteor().compute_score(gts, res)`` from import to result); wall
and CPU time and the peak memory of the process tree (the JVM included) are printed, with
the corpus scores and how many image scores are identical.  The real one needs ``java``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from common import ROOT, run_cold

SCRIPT = r"""
import json, sys
sys.path.insert(0, {root!r})
from {module} import Meteor
data = json.load(open({path!r}, encoding="utf-8"))
score, scores = Meteor().compute_score(data["gts"], data["res"])
print(json.dumps({{"score": score, "scores": scores}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=2000, help="items (2 per WMT segment)")
    args = ap.parse_args()
    sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "parity")]  # conftest, the items
    from test_compat_pycocoevalcap import caption_items

    gts, res = caption_items(n_segments=(args.items + 1) // 2, per_segment=2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "items.json"
        path.write_text(json.dumps({"gts": gts, "res": res}), encoding="utf-8")
        results = {}
        for name, module in (
            ("ours (meteor.compat.pycocoevalcap)", "meteor.compat.pycocoevalcap"),
            ("pycocoevalcap 1.2 + jar", "pycocoevalcap.meteor.meteor"),
        ):
            code = SCRIPT.format(root=str(ROOT), module=module, path=str(path))
            run = run_cold([sys.executable, "-c", code])
            results[name] = json.loads(run.stdout)
            print(
                f"{name:36s} wall {run.wall:6.1f} s  CPU {run.cpu:6.1f} s  peak PSS {run.pss_mb:7.0f}"
                f" MB  peak RSS {run.rss_mb:7.0f} MB  corpus {results[name]['score']!r}"
            )
    ours, real = results.values()
    same = sum(a == b for a, b in zip(ours["scores"], real["scores"], strict=True))
    print(
        f"{len(gts)} items x 5 references: {same}/{len(gts)} image scores identical, "
        f"corpus {'identical' if ours['score'] == real['score'] else 'DIFFERENT'}"
    )


if __name__ == "__main__":
    main()
