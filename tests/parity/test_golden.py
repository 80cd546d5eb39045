"""The golden subset (``tests/data/golden``): every algorithm checked on a clean clone.

Real segments with the Meteor 1.5 jar's and NLTK 3.10.4's numbers, committed with the
repository (provenance in ``tests/data/golden/README.md``), so these tests run everywhere, with
or without ``../shared/data``.  On every segment they demand the jar's score, P, R, fragmentation
penalty, tokens, alignment (spans and stage), best reference and the 23 sufficient statistics
(function words counted as the jar counts them), and the jar's corpus score of the subset.  The
full parity suites (``test_meteor15_parity.py``, ``test_russian*.py``, ...) run the same checks
on the whole shared files when they are present.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest
from conftest import GOLDEN, java_alignment, our_alignment, shared_path

from meteor import Meteor, MeteorResult, Stats
from meteor.module_registry import MODULE_ORDER, Module

#: golden file -> (preset, overrides); the jar's flags are in each file's corpus line
METEOR15: dict[str, tuple[str, dict[str, Any]]] = {
    "meteor15.en_default_norm.jsonl.gz": ("meteor-1.5", {}),
    "meteor15.en_paper2005_norm.jsonl.gz": ("meteor-1.5-paper2005", {}),
    "meteor15.ru_exact_stem_norm.jsonl.gz": ("meteor-1.5-ru", {}),
    "meteor15_cases.default.jsonl.gz": ("meteor-1.5", {"norm": "none"}),
    "meteor15_cases.default_norm.jsonl.gz": ("meteor-1.5", {}),
    "meteor15_cases.paper2005.jsonl.gz": ("meteor-1.5-paper2005", {"norm": "none"}),
    "meteor15_cases.paper2005_norm.jsonl.gz": ("meteor-1.5-paper2005", {}),
    "meteor15_cases.paper2005naive_norm.jsonl.gz": ("meteor-1.5-paper2005-naive", {}),
}
#: minimum evidence each file must carry (stage -> segments using it), so a rebuild that
#: loses a stage is noticed
MIN_STAGES = {
    "meteor15.en_default_norm.jsonl.gz": {"paraphrase": 50, "synonym": 30, "stem": 20},
    "meteor15.en_paper2005_norm.jsonl.gz": {"synonym": 30, "stem": 20},
    "meteor15.ru_exact_stem_norm.jsonl.gz": {"stem": 30},
}
MAX_BYTES = 1_000_000


def read_lines(name: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(segment lines, corpus line) of a golden harness file."""
    with gzip.open(GOLDEN / name, "rt", encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh]
    assert lines[-1]["type"] == "corpus"
    assert all(d["type"] == "segment" for d in lines[:-1])
    return lines[:-1], lines[-1]


def java_stats(d: dict[str, Any], modules: tuple[Module, ...]) -> Stats:
    """The jar's statistics as the harness records them (per-stage lists in ``-m`` order)."""
    s = d["stats"]

    def vec(key: str) -> tuple[int, ...]:
        out = [0] * len(MODULE_ORDER)
        for slot, mod in enumerate(modules):
            out[MODULE_ORDER.index(mod)] = int(s[key][slot])
        return tuple(out)

    return Stats(
        int(s["hyp_len"]),
        int(s["ref_len"]),
        int(s["hyp_function_words"]),
        int(s["ref_function_words"]),
        vec("hyp_content_matches"),
        vec("ref_content_matches"),
        vec("hyp_function_matches"),
        vec("ref_function_matches"),
        int(s["chunks"]),
        int(s["hyp_word_matches"]),
        int(s["ref_word_matches"]),
    )


def same_number(ours: float, java: float | None, tol: float = 1e-9) -> bool:
    """Java's NaN is ``null`` in the harness files."""
    if java is None:
        return math.isnan(ours)
    return abs(ours - java) <= tol


@pytest.mark.parametrize("name", sorted(METEOR15))
def test_meteor15_golden(name: str) -> None:
    """Each segment and the corpus score equal the jar's, statistics and alignment included."""
    preset, overrides = METEOR15[name]
    scorer = Meteor(preset, **overrides)
    segments, corpus = read_lines(name)
    assert segments, name
    results: list[MeteorResult] = []
    for d in segments:
        r = scorer.score(d["hyp"], d["refs"])
        results.append(r)
        where = (name, d["source"], d["hyp"])
        assert [t.text for t in r.alignment.hyp] == d["hyp_tokens"], where
        assert [t.text for t in r.alignment.ref] == d["ref_tokens"], where
        assert our_alignment(r) == java_alignment(d), where
        assert r.best_ref_index == d["best_ref_index"], where
        assert r.stats == java_stats(d, scorer.params.modules), where
        assert same_number(r.score, d["score"]), (where, r.score, d["score"])
        assert same_number(r.precision, d["precision"]), where
        assert same_number(r.recall, d["recall"]), where
        assert r.chunks == d["chunks"], where
    combined = scorer.combine(results)
    assert combined.score == pytest.approx(corpus["score"], abs=1e-12), name
    assert combined.stats.hyp_len == corpus["test_length"]
    assert combined.stats.ref_len == corpus["ref_length"]


def test_meteor15_golden_configurations() -> None:
    """Each file's corpus line names the jar configuration the preset stands for."""
    args = {name: read_lines(name)[1]["config"]["meteor_args"] for name in METEOR15}
    assert args["meteor15.en_default_norm.jsonl.gz"] == ["-l", "en", "-norm"]
    assert args["meteor15.ru_exact_stem_norm.jsonl.gz"] == [
        "-l", "ru", "-m", "exact stem", "-w", "1.0 0.5", "-norm",
    ]  # fmt: skip
    assert "-s" not in args["meteor15.ru_exact_stem_norm.jsonl.gz"]  # English function words
    assert args["meteor15_cases.paper2005naive_norm.jsonl.gz"][:6] == [
        "-l", "en", "-p", "0.9 3.0 0.5 1.0", "-m", "exact stem synonym",
    ]  # fmt: skip
    assert (
        args["meteor15.en_paper2005_norm.jsonl.gz"]
        == args["meteor15_cases.paper2005_norm.jsonl.gz"]
    )


@pytest.mark.parametrize("name", sorted(MIN_STAGES))
def test_golden_files_carry_every_stage(name: str) -> None:
    segments, _ = read_lines(name)
    used = {
        stage: sum(any(a["module"] == stage for a in d["alignment"]) for d in segments)
        for stage in MIN_STAGES[name]
    }
    assert all(used[s] >= n for s, n in MIN_STAGES[name].items()), used
    assert any(len(d["hyp_tokens"]) >= 40 for d in segments)  # long segments
    assert any(not d["alignment"] for d in segments)  # nothing matched


def test_cases_are_the_eighteen_edge_cases() -> None:
    for name in METEOR15:
        if name.startswith("meteor15_cases."):
            segments, _ = read_lines(name)
            assert [d["id"] for d in segments] == list(range(18)), name


# --------------------------------------------------------------------------- NLTK


def _doctest_check(check: str, expected: str, x: float) -> bool:
    """The ``nltk_check`` column of the shared NLTK examples (three shapes), not evaluated."""
    if check.startswith("abs(round(x,4)-"):
        return abs(round(x, 4) - float(expected)) < float(check.rsplit("<", 1)[1])
    if check.startswith("round(x,4)=="):
        return round(x, 4) == float(expected)
    assert check == f"x=={expected}", check
    return x == float(expected)


def test_nltk_golden() -> None:
    """The ``nltk`` preset gives NLTK 3.10.4's ``meteor_score`` and NLTK's own alignment."""
    with gzip.open(GOLDEN / "nltk.jsonl.gz", "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    assert len(rows) >= 150
    scorer = Meteor("nltk")
    doctests = 0
    for row in rows:
        r = scorer.score(row["hyp"], row["refs"])
        where = (row["source"], row["hyp"])
        assert abs(r.score - row["score"]) <= 1e-12, (where, r.score, row["score"])
        got = sorted([m.hyp.start, m.ref.start, m.module.value] for m in r.alignment.matches)
        assert got == row["alignment"], where
        assert r.best_ref_index == row["best_ref_index"], where
        if "doctest" in row:
            doctests += 1
            assert _doctest_check(row["doctest_check"], row["doctest"], r.score), where
    assert doctests == 8  # 7 doctest pairs + the 3-reference docstring
    stages = {a[2] for row in rows for a in row["alignment"]}
    assert stages == {"exact", "stem", "synonym"}


# ------------------------------------------------------------------ the data itself


def test_golden_data_is_small_and_documented() -> None:
    files = sorted(p for p in GOLDEN.iterdir() if p.suffix == ".gz")
    total = sum(p.stat().st_size for p in GOLDEN.parent.rglob("*") if p.is_file())
    assert total <= MAX_BYTES, total
    readme = (GOLDEN / "README.md").read_text(encoding="utf-8")
    names = {p.name for p in files}
    assert names == set(METEOR15) | {"nltk.jsonl.gz"}
    for name in names:
        assert f"`{name}`" in readme, f"{name} has no provenance in README.md"


def _golden_sources() -> list[str]:
    return sorted(METEOR15)


@pytest.mark.parametrize("name", _golden_sources())
def test_golden_lines_equal_the_shared_files(name: str) -> None:
    """With ../shared/data present: each golden segment is the shared file's line for it."""
    segments, _ = read_lines(name)
    wanted: dict[str, dict[int, dict[str, Any]]] = {}
    for d in segments:
        rel, seg_id = d["source"].rsplit("#", 1)
        wanted.setdefault(rel, {})[int(seg_id)] = d
    for rel, by_id in wanted.items():
        path: Path = shared_path(rel)
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                s = json.loads(line)
                g = by_id.pop(s.get("id", -1), None) if s["type"] == "segment" else None
                if g is None:
                    continue
                for key in ("hyp", "refs", "score", "hyp_tokens", "ref_tokens", "stats"):
                    assert g[key] == s[key], (name, g["source"], key)
                assert java_alignment(g) == java_alignment(s), (name, g["source"])
        assert by_id == {}, (name, rel, sorted(by_id)[:5])
