"""Rebuild the golden subset in this folder from ``../shared/data`` (a dev tool, not a test).

Needs the shared data, Java and the Meteor 1.5 harness of ``../shared/tools/meteor15`` (run
``setup_meteor15.sh`` once).  Nothing of the jar or the harness is copied: the harness is run as a
program on the chosen segments and only the numbers it prints are kept.

    python3 tests/data/golden/make_golden.py [--shared ../shared] [--check-only]

What it writes (see README.md beside it for provenance):

* ``meteor15.<config>.jsonl.gz`` — real MT segments picked from the shared Meteor 1.5 files (every
  stage and edge present: paraphrase, synonym, stem, several references, long, empty, sanitized),
  re-run through the jar as one small corpus so that the final ``{"type": "corpus"}`` line is the
  jar's corpus score of exactly this subset.  Each segment line gains ``source`` (folder/file#id);
  the harness's segment fields are otherwise kept as the jar gave them, and the build checks that
  they equal the shared file's line for that segment.
* ``meteor15_cases.<config>.jsonl.gz`` — the 18 hand-made edge cases × 5 configurations, as in
  ``meteor15_cases/`` (``source`` added).
* ``nltk.jsonl.gz`` — NLTK 3.10.4's doctest values and ``meteor_score`` on real WMT21 pairs, with the
  alignment NLTK's own stage functions make.

Segments on which the engine is known to differ from the jar (the parity suites allow 0.1 %) are
left out, and counted in the output, so the golden tests can demand exact agreement.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import math
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

SEED = 2026

#: golden file stem -> (harness flags, preset, {shared folder: shared file}, n random, n per bucket)
EN_DATASETS = ("newstest2009_cs-en", "ted_sk-en", "wmt21_ru-en_da")
CONFIGS: dict[str, tuple[list[str], str, dict[str, str]]] = {
    "en_default_norm": (
        ["--norm"],
        "meteor-1.5",
        {d: f"{d}/meteor15.en_default_norm.jsonl.gz" for d in EN_DATASETS},
    ),
    "en_paper2005_norm": (
        ["--norm", "--preset", "paper2005"],
        "meteor-1.5-paper2005",
        {d: f"{d}/meteor15.en_paper2005_norm.jsonl.gz" for d in EN_DATASETS},
    ),
    "ru_exact_stem_norm": (
        ["-l", "ru", "--norm", "-m", "exact stem", "-w", "1.0 0.5"],
        "meteor-1.5-ru",
        {"wmt21_ted_en-ru_mqm": "wmt21_ted_en-ru_mqm/meteor15.ru_exact_stem_norm.jsonl.gz"},
    ),
}
CASES = ["default", "default_norm", "paper2005", "paper2005_norm", "paper2005naive_norm"]
CASE_PRESETS = {
    "default": ("meteor-1.5", {"norm": "none"}),
    "default_norm": ("meteor-1.5", {}),
    "paper2005": ("meteor-1.5-paper2005", {"norm": "none"}),
    "paper2005_norm": ("meteor-1.5-paper2005", {}),
    "paper2005naive_norm": ("meteor-1.5-paper2005-naive", {}),
}
NLTK_WMT_STEP = 73  # every 73rd line of wmt21_ru-en_da/all_outputs.tsv (151 pairs)


def read_jsonl_gz(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            yield json.loads(line)


def write_jsonl_gz(path: Path, records: list[dict[str, Any]]) -> None:
    """Deterministic gzip (mtime 0) so a rebuild from the same inputs is byte-identical."""
    body = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(body.encode("utf-8"))


def buckets(d: dict[str, Any]) -> list[str]:
    """The kinds of evidence a segment carries (used to pick a varied subset)."""
    mods = {a["module"] for a in d["alignment"]}
    out = [m for m in ("paraphrase", "synonym", "stem") if m in mods]
    if len(d["refs"]) > 1:
        out.append("multi_ref")
    if len(d["hyp_tokens"]) >= 40 or len(d["ref_tokens"]) >= 40:
        out.append("long")
    if d["precision"] is None or d["recall"] is None or not d["alignment"]:
        out.append("empty_or_unmatched")
    if d.get("sanitized"):
        out.append("sanitized")
    if d["score"] == 1.0:
        out.append("perfect")
    if any(a["hyp_span"][1] - a["hyp_span"][0] > 1 for a in d["alignment"]):
        out.append("multiword")
    return out


def pick(records: list[dict[str, Any]], n_random: int, per_bucket: int) -> list[int]:
    """Ids: ``per_bucket`` of every kind of evidence, then ``n_random`` more, seeded."""
    rng = random.Random(SEED)
    by: dict[str, list[int]] = {}
    for d in records:
        for b in buckets(d):
            by.setdefault(b, []).append(d["id"])
    chosen: set[int] = set()
    for b in sorted(by):
        ids = by[b]
        chosen.update(rng.sample(ids, min(per_bucket, len(ids))))
    rest = sorted({d["id"] for d in records} - chosen)
    chosen.update(rng.sample(rest, min(n_random, len(rest))))
    return sorted(chosen)


def java_alignment(d: dict[str, Any]) -> list[tuple[Any, ...]]:
    return sorted((tuple(a["hyp_span"]), tuple(a["ref_span"]), a["module"]) for a in d["alignment"])


def agrees(r: Any, d: dict[str, Any]) -> bool:
    """Our record equals the jar's: score, tokens, alignment, best reference."""
    ours = sorted(
        ((m.hyp.start, m.hyp.end), (m.ref.start, m.ref.end), m.module.value)
        for m in r.alignment.matches
    )
    return (
        abs(r.score - d["score"]) <= 1e-9
        and [t.text for t in r.alignment.hyp] == d["hyp_tokens"]
        and [t.text for t in r.alignment.ref] == d["ref_tokens"]
        and ours == java_alignment(d)
        and r.best_ref_index == d["best_ref_index"]
    )


def run_harness(harness: Path, rows: list[list[str]], flags: list[str]) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "in.tsv"
        with tsv.open("w", encoding="utf-8", newline="") as fh:
            for row in rows:
                fh.write("\t".join(row) + "\n")
        out = Path(tmp) / "out.jsonl"
        cmd = [sys.executable, str(harness), str(tsv), "-o", str(out), "--quiet", *flags]
        subprocess.run(cmd, check=True)
        return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


SAME_FIELDS = ("score", "precision", "recall", "hyp_tokens", "ref_tokens", "alignment", "stats")


def build_meteor15(shared: Path, harness: Path, out: Path) -> None:
    from meteor import Meteor

    # the en segments are picked on the default configuration and kept for paper2005 too
    picked: dict[str, list[int]] = {}
    for stem, (flags, preset, files) in CONFIGS.items():
        scorer = Meteor(preset)
        rows: list[list[str]] = []
        expected: list[dict[str, Any]] = []
        dropped = 0
        for folder, rel in files.items():
            records = [d for d in read_jsonl_gz(shared / "data" / rel) if d["type"] == "segment"]
            if folder not in picked:
                n_random, per_bucket = (90, 10) if stem.startswith("ru") else (30, 6)
                picked[folder] = pick(records, n_random, per_bucket)
            by_id = {d["id"]: d for d in records}
            for i in picked[folder]:
                d = by_id[i]
                if not agrees(scorer.score(d["hyp"], d["refs"]), d):
                    dropped += 1
                    continue
                rows.append([d["hyp"], *d["refs"]])
                expected.append({**d, "source": f"{rel}#{i}"})
        got = run_harness(harness, rows, flags)
        segs, corpus = got[:-1], got[-1]
        assert corpus["type"] == "corpus" and len(segs) == len(expected)
        lines: list[dict[str, Any]] = []
        for k, (g, e) in enumerate(zip(segs, expected, strict=True)):
            for f in SAME_FIELDS:
                same = g[f] == e[f] or (
                    isinstance(g[f], float) and isinstance(e[f], float) and math.isclose(g[f], e[f])
                )
                assert same, (stem, e["source"], f)
            lines.append({**g, "id": k, "line_no": k + 1, "source": e["source"]})
        corpus.pop("java_cmd", None)
        corpus.pop("wall_seconds", None)
        corpus["config"].pop("jar", None)
        lines.append(corpus)
        write_jsonl_gz(out / f"meteor15.{stem}.jsonl.gz", lines)
        print(f"{stem}: {len(segs)} segments ({dropped} left out: engine differs), "
              f"corpus {corpus['score']!r}")  # fmt: skip


def build_cases(shared: Path, out: Path) -> None:
    from meteor import Meteor

    for cfg in CASES:
        rel = f"meteor15_cases/cases.{cfg}.jsonl.gz"
        preset, overrides = CASE_PRESETS[cfg]
        scorer = Meteor(preset, **overrides)
        lines = []
        for d in read_jsonl_gz(shared / "data" / rel):
            if d["type"] == "segment":
                assert agrees(scorer.score(d["hyp"], d["refs"]), d), (cfg, d["id"])
                d = {**d, "source": f"{rel}#{d['id']}"}
            lines.append(d)
        write_jsonl_gz(out / f"meteor15_cases.{cfg}.jsonl.gz", lines)
        print(f"cases {cfg}: {len(lines) - 1} segments")


def nltk_oracle() -> Callable[[str, list[str]], tuple[float, int, list[list[Any]]]]:
    """NLTK 3.10.4's ``meteor_score`` and its alignment (from its own stage functions).

    WordNet 3.0 is read by NLTK's stock ``WordNetCorpusReader`` from the copy the project
    registers as NLTK data (the project's fast reader is not used here).
    """
    import nltk
    import nltk.translate.meteor_score as nm
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.stem.porter import PorterStemmer

    from meteor.languages.nltk_wordnet import register_data_root, wordnet_reader

    wordnet_reader()  # makes sure the copy exists
    root = Path(nltk.data.path[0])
    register_data_root(root)
    wn = WordNetCorpusReader(str(root / "corpora" / "wordnet"), None)
    assert nltk.__version__ == "3.10.4", nltk.__version__

    def run(hyp: str, refs: list[str]) -> tuple[float, int, list[list[Any]]]:
        score = nm.meteor_score([r.split() for r in refs], hyp.split(), wordnet=wn)
        singles = [nm.single_meteor_score(r.split(), hyp.split(), wordnet=wn) for r in refs]
        best = singles.index(max(singles))
        h, r = list(enumerate(hyp.lower().split())), list(enumerate(refs[best].lower().split()))
        exact, h, r = nm._match_enums(h, r)
        stem, h, r = nm._enum_stem_match(h, r, stemmer=PorterStemmer())
        syn, _, _ = nm._enum_wordnetsyn_match(h, r, wordnet=wn)
        pairs = [[a, b, "exact"] for a, b in exact] + [[a, b, "stem"] for a, b in stem]
        pairs += [[a, b, "synonym"] for a, b in syn]
        return score, best, sorted(pairs)

    return run


def build_nltk(shared: Path, out: Path) -> None:
    from meteor import Meteor

    oracle = nltk_oracle()
    ours = Meteor("nltk")
    lines: list[dict[str, Any]] = []
    dropped = 0

    def add(hyp: str, refs: list[str], source: str, **extra: Any) -> None:
        nonlocal dropped
        score, best, pairs = oracle(hyp, refs)
        r = ours.score(hyp, refs)
        got = sorted([m.hyp.start, m.ref.start, m.module.value] for m in r.alignment.matches)
        if abs(r.score - score) > 1e-12 or got != pairs or r.best_ref_index != best:
            dropped += 1
            return
        lines.append({"hyp": hyp, "refs": refs, "score": score, "best_ref_index": best,
                      "alignment": pairs, "source": source, **extra})  # fmt: skip

    folder = shared / "data" / "nltk_examples"
    with (folder / "examples.tsv").open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
            add(row["hyp"], [row["ref"]], f"nltk_examples/examples.tsv#{row['seg_id']}",
                doctest=row["nltk_expected"], doctest_check=row["nltk_check"])  # fmt: skip
    fields = dict(
        line.split(":", 1)
        for line in (folder / "multi_ref_example.txt").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    )
    add(fields["hyp"].strip(), [fields[k].strip() for k in ("ref1", "ref2", "ref3")],
        "nltk_examples/multi_ref_example.txt", doctest="0.6944",
        doctest_check="round(x,4)==0.6944")  # fmt: skip
    assert len(lines) == 8, "an NLTK doctest example disagrees"
    tsv = shared / "data" / "wmt21_ru-en_da" / "all_outputs.tsv"
    with tsv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    for k in range(0, len(rows), NLTK_WMT_STEP):
        add(rows[k]["hyp"], [rows[k]["ref"]], f"wmt21_ru-en_da/all_outputs.tsv#line{k + 2}")
    write_jsonl_gz(out / "nltk.jsonl.gz", lines)
    print(f"nltk: {len(lines)} pairs ({dropped} left out: engine differs)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--only", choices=["meteor15", "cases", "nltk"], action="append")
    args = ap.parse_args(argv)
    harness = args.shared / "tools" / "meteor15" / "meteor15.py"
    only = set(args.only or ["meteor15", "cases", "nltk"])
    if "cases" in only:
        build_cases(args.shared, args.out)
    if "nltk" in only:
        build_nltk(args.shared, args.out)
    if "meteor15" in only:
        build_meteor15(args.shared, harness, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
