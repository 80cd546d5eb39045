"""The span table's cost against scoring alone (target: within the time of scoring + 20 %).

    python bench/bench_spans.py [--n 10000] [--repeats 3] [--bootstrap 1000] [--workers 1]

Data: the WMT21 TED en→de MQM spans (``../shared/data/wmt21_ted_mqm_spans/en-de``: 6,766
annotated segments), repeated up to ``--n`` (each copy's systems renamed ``NAME#k``) in a
temporary folder; three settings: ``meteor-1.5-de`` and docs/spans/'s ``de-exact`` and
``de-nopunct``.  Cold processes, interleaved, ``--repeats`` times: **scoring** (the segments
table read and ``score_corpus`` once per setting) and **span table** (``python -m meteor
spans --format json`` on the same files: scoring, labelling, the tables, ``--bootstrap``
resamples and the paired tests).  Prints the medians of wall and CPU time with their ratio
(target ≤ 1.20), and, in this process, where the extra time goes on one setting.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from common import ROOT, SHARED, run_cold, timed

SRC = SHARED / "wmt21_ted_mqm_spans" / "en-de"
SETTINGS = ["-p", "meteor-1.5-de", "--preset-file", str(ROOT / "docs/spans/de-exact.json"),
            "--preset-file", str(ROOT / "docs/spans/de-nopunct.json")]  # fmt: skip

SCORE_ONLY = """
import sys, time
t = time.perf_counter()
from meteor.io.read import load_corpus
from meteor.metric import Meteor
from meteor.runners.parallel import score_corpus
corpus = load_corpus([("segments.tsv", open(sys.argv[1], "rb").read())])
workers = int(sys.argv[2])
hyps = [h for _, hs in corpus.systems for h in hs]
refs = [r for name, _ in corpus.systems for r in corpus.refs_of(name)]
for m in (Meteor("meteor-1.5-de"), Meteor(preset_file=sys.argv[3]), Meteor(preset_file=sys.argv[4])):
    score_corpus(m, hyps, refs, workers=workers)
print(time.perf_counter() - t)
"""


def make_data(n: int, folder: Path) -> tuple[Path, Path, int]:
    """The en-de segments and MQM rows repeated to ``n`` annotated segments."""
    seg_lines = (SRC / "segments.tsv").read_text(encoding="utf-8").splitlines()
    mqm_lines = (SRC / "mqm_ted_ende.tsv").read_text(encoding="utf-8").splitlines()
    head, rows = seg_lines[0], seg_lines[1:]
    out_segs, out_mqm, k = [head], [mqm_lines[0]], 0
    while len(out_segs) - 1 < n:
        take = rows[: n - (len(out_segs) - 1)]
        keys = {tuple(r.split("\t")[0:3:2]) for r in take}
        suffix = f"#{k}" if k else ""
        out_segs += [r.split("\t", 1)[0] + suffix + "\t" + r.split("\t", 1)[1] for r in take]
        for r in mqm_lines[1:]:
            cells = r.split("\t")
            if (cells[0], cells[3]) in keys:
                cells[0] += suffix
                out_mqm.append("\t".join(cells))
        k += 1
    segs, mqm = folder / "segments.tsv", folder / "mqm.tsv"
    segs.write_text("\n".join(out_segs) + "\n", encoding="utf-8")
    mqm.write_text("\n".join(out_mqm) + "\n", encoding="utf-8")
    return segs, mqm, len(out_segs) - 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        segs, mqm, n = make_data(a.n, Path(tmp))
        score_cmd = [py, "-c", SCORE_ONLY, str(segs), str(a.workers),
                     SETTINGS[3], SETTINGS[5]]  # fmt: skip
        spans_cmd = [py, "-m", "meteor", "spans", "--hyp", str(segs), "--spans", str(mqm),
                     *SETTINGS, "--bootstrap", str(a.bootstrap), "--workers", str(a.workers),
                     "--format", "json"]  # fmt: skip
        t_score, t_spans = [], []
        for _ in range(a.repeats):
            t_score.append(run_cold(score_cmd, cwd=ROOT))
            t_spans.append(run_cold(spans_cmd, cwd=ROOT))
        print(f"{n:,} annotated segments, 3 settings, {a.bootstrap} resamples, workers {a.workers}")
        for k, what in enumerate(("wall", "CPU")):
            s = statistics.median(t[k] for t in t_score)
            p = statistics.median(t[k] for t in t_spans)
            print(
                f"{what:>4}, median of {a.repeats}: scoring alone {s:6.2f} s, span table {p:6.2f} s, "
                f"ratio {p / s:.3f} (target <= 1.20)"
            )
        breakdown(segs, mqm, a.bootstrap)


def breakdown(segs: Path, mqm: Path, n_samples: int) -> None:
    """Where the span table's extra time goes, on one setting (in this process)."""
    sys.path.insert(0, str(ROOT))
    from meteor.analysis.spans import count_spans
    from meteor.analysis.spans_table import setting_table
    from meteor.io.read import load_corpus
    from meteor.io.spans import read_spans
    from meteor.metric import Meteor

    corpus = load_corpus([("segments.tsv", segs.read_bytes())])
    t_read, spans = timed(read_spans, [("mqm.tsv", mqm.read_bytes())], corpus)
    refs = {
        (name, i): r
        for name, _ in corpus.systems
        for i, r in zip(corpus.ids_of(name), corpus.refs_of(name), strict=True)
    }
    hyps = [x.hyp for x in spans.annotations]
    ann_refs = [refs[x.system, x.seg_id] for x in spans.annotations]
    t_score, res = timed(Meteor("meteor-1.5-de").corpus_score, hyps, ann_refs)
    t_count, counts = timed(count_spans, res.segments, spans.annotations)
    t_boot, _ = timed(setting_table, "meteor-1.5-de", "", counts, n_samples=n_samples)
    print(
        f"one setting in-process: scoring {t_score:.2f} s; reading the spans {t_read:.2f} s, "
        f"labelling and counting {t_count:.2f} s, table with {n_samples} resamples {t_boot:.2f} s"
    )


if __name__ == "__main__":
    main()
