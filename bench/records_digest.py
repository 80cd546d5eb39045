"""Guard (by hand, not a test): md5 of every full record on the shared data, before and after
a refactoring.

    python bench/records_digest.py [--data DIR] [--segments 200] > digest.txt

Prints one line per preset (on the first ``--segments`` rows of :data:`SETS` for its
language): the md5 of every segment's full record (``to_dict()`` with the candidates, or the
error it raised) and the corpus score with its signature (and ``CORPUS PATH DIFFERS`` when
``corpus_score``'s records are not the segments' own); then the md5 of ``meteor report
--format json`` on a 3-system slice, and of ``correlate``, ``tune`` and ``reconcile``'s JSON on
small slices.  Two trees that compute the same numbers print identical lines.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from common import ROOT, SHARED, read_tsv, write_pairs

DATA = str(SHARED)

SETS = {
    "en": "wmt21_ru-en_da/all_outputs.tsv",
    "ru": "wmt21_ted_en-ru_mqm/seg_mqm.tsv",
    "de": "wmt22_multi/fr-de.tsv",
    "fr": "wmt22_multi/de-fr.tsv",
}


def write_tsv(f: Any, cols: list[str], rows: list[dict[str, str]]) -> None:
    """The rows' columns as the shared data's TSV (no quoting: the texts hold no tabs)."""
    f.write("\t".join(cols) + "\n")
    f.writelines("\t".join(r[c] for c in cols) + "\n" for r in rows)


def md5(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, ensure_ascii=False, default=_plain)
    return hashlib.md5(text.encode("utf-8")).hexdigest()


def _plain(obj: Any) -> Any:
    """JSON form of what ``json`` cannot write (records, numpy values, NaN-safe floats)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    return repr(obj)


def preset_lines(data: str, n: int) -> list[str]:
    from meteor import Meteor, preset_names

    out = []
    for lang, rel in SETS.items():
        rows = read_tsv(Path(data, rel))[:n]
        for name in preset_names(lang):
            m = Meteor(name)
            records = []
            good = []
            pairs = []
            for row in rows:
                try:
                    r = m.score(row["hyp"], row["ref"])
                except Exception as exc:
                    records.append({"error": f"{type(exc).__name__}: {exc}"})
                    continue
                good.append(r)
                pairs.append((row["hyp"], [row["ref"]]))
                records.append(r.to_dict(candidates=True))
            corpus = m.combine(good)
            score = corpus.score
            # the corpus path keeps no candidates (and may align in one C call): its records
            # must be the segments' own without their candidates
            batch = m.corpus_score([h for h, _ in pairs], [r for _, r in pairs])
            same = [s.to_dict() for s in batch.segments] == [r.to_dict() for r in good]
            out.append(
                f"{lang} {name}: records {md5(records)} corpus "
                f"{score!r}{'' if not math.isnan(score) else ' NaN'} {corpus.signature}"
                f"{'' if same else ' CORPUS PATH DIFFERS'}"
            )
    return out


def report_line(data: str, n: int) -> str:
    rows = read_tsv(Path(data, SETS["en"]))
    systems = sorted({r["system"] for r in rows})[:3]
    keep = [r for r in rows if r["system"] in systems and int(r["seg_id"]) <= n]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "slice.tsv")
        with open(src, "w", encoding="utf-8", newline="") as f:
            write_tsv(f, ["system", "seg_id", "hyp", "ref", "doc_id"], keep)
        outdir = os.path.join(tmp, "report")
        cmd = [sys.executable, "-m", "meteor", "report", "--hyp", src, "--out", outdir]
        cmd += ["--format", "json", "--bootstrap", "200", "--label", "doc_id"]
        subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True)
        digests = []
        for name in sorted(os.listdir(outdir)):
            with open(os.path.join(outdir, name), "rb") as f:
                digests.append(f"{name}={hashlib.md5(f.read()).hexdigest()}")
    return f"report json ({', '.join(systems)} × {n}): " + " ".join(digests)


def _cli_md5(args: list[str]) -> str:
    """md5 of a ``python -m meteor`` command's standard output (or its error); JSON is
    compared without its timings."""
    cmd = [sys.executable, "-m", "meteor", *args]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True)
    if done.returncode:
        return f"exit {done.returncode}: {done.stderr.decode('utf-8', 'replace').strip()[-200:]}"
    if "--format" in args and args[args.index("--format") + 1] == "json":
        return md5(_untimed(json.loads(done.stdout)))  # wall-clock seconds vary run to run
    return hashlib.md5(done.stdout).hexdigest()


def _untimed(obj: Any) -> Any:
    """``obj`` without its ``…seconds`` fields (timings)."""
    if isinstance(obj, dict):
        return {k: _untimed(v) for k, v in obj.items() if not k.endswith("seconds")}
    if isinstance(obj, list):
        return [_untimed(v) for v in obj]
    return obj


def analysis_lines(data: str, n: int) -> list[str]:
    """correlate, tune and reconcile (JSON) on small slices: the statistics and formula."""
    rows = read_tsv(Path(data, "wmt21_ru-en_da/seg_da.tsv"))
    systems = sorted({r["system"] for r in rows})[:3]
    keep = [r for r in rows if r["system"] in systems][: 3 * n]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "judged.tsv")
        cols = ["system", "seg_id", "hyp", "ref", "human_score", "human_raw", "doc_id"]
        with open(src, "w", encoding="utf-8", newline="") as f:
            write_tsv(f, cols, keep)
        hyps, refs = map(str, write_pairs(Path(tmp), ((r["hyp"], r["ref"]) for r in keep[:40])))
        common = ["--hyp", src, "--human-column", "human_score", "--darr-column", "human_raw",
                  "--bootstrap", "200", "--format", "json"]  # fmt: skip
        commands = {
            "correlate": ["correlate", *common, "-p", "meteor-1.5", "-p", "nltk",
                          "--baseline", "chrf", "--permutations", "200"],
            "tune": ["tune", *common, "-p", "meteor-1.5-paper2005", "--folds", "2",
                     "--group-by", "doc_id"],
            "reconcile": ["reconcile", "--from", "meteor-1.5", "--to", "nltk", "-i", hyps,
                          "-r", refs, "--format", "json"],
        }  # fmt: skip
        return [f"{name} json: {_cli_md5(cmd)}" for name, cmd in commands.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--segments", type=int, default=200)
    ap.add_argument("--skip-presets", action="store_true")
    args = ap.parse_args()
    lines = [] if args.skip_presets else preset_lines(args.data, args.segments)
    lines.append(report_line(args.data, 60))
    lines.extend(analysis_lines(args.data, args.segments))
    for line in lines:
        print(line, flush=True)


if __name__ == "__main__":
    main()
