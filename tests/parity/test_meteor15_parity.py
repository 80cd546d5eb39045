"""Parity with the original Meteor 1.5 jar on real MT data (expected values in ../shared/data).

Raw text goes through the whole pipeline (normaliser, matchers, beam search,
statistics, formula) and is compared with Java's score, tokens and alignment.
Issue #2 (paper2005 configuration) and issue #3 (the English default).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_line, java_alignment, our_alignment, read_jsonl_gz, shared_path

from meteor import Meteor

PAPER2005 = [
    "meteor15_cases/cases.paper2005_norm.jsonl.gz",
    "newstest2009_cs-en/meteor15.en_paper2005_norm.jsonl.gz",
    "ted_sk-en/meteor15.en_paper2005_norm.jsonl.gz",
    "wmt21_ru-en_da/meteor15.en_paper2005_norm.jsonl.gz",
]
DEFAULT = [
    "meteor15_cases/cases.default_norm.jsonl.gz",
    "newstest2009_cs-en/meteor15.en_default_norm.jsonl.gz",
    "ted_sk-en/meteor15.en_default_norm.jsonl.gz",
    "wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz",
]


def check_file(rel: str, preset: str) -> None:
    path: Path = shared_path(rel)
    scorer = Meteor(preset)
    n = same_score = same_align = same_tokens = 0
    score_diff: list[int] = []
    align_diff: list[int] = []
    results = []
    for d in read_jsonl_gz(path):
        n += 1
        r = scorer.score(d["hyp"], d["refs"])
        results.append(r)
        if abs(r.score - d["score"]) <= 1e-6:
            same_score += 1
        else:
            score_diff.append(d["id"])
        if [t.text for t in r.alignment.hyp] == d["hyp_tokens"] and [
            t.text for t in r.alignment.ref
        ] == d["ref_tokens"]:
            same_tokens += 1
        if our_alignment(r) == java_alignment(d) and r.best_ref_index == d["best_ref_index"]:
            same_align += 1
        else:
            align_diff.append(d["id"])
    corpus = scorer.combine(results)
    expected = corpus_line(path)["score"]
    print(
        f"\n{rel} [{preset}]: {n} segments; score within 1e-6: {same_score / n:.4%}; "
        f"same tokens: {same_tokens / n:.4%}; same alignment: {same_align / n:.4%}; "
        f"corpus {corpus.score!r} vs Java {expected!r}"
    )
    if score_diff:
        print(f"  score differs for ids {score_diff[:20]}")
    if align_diff:
        print(f"  alignment differs for ids {align_diff[:20]}")
    assert same_score / n >= 0.999
    assert same_align / n >= 0.995
    assert same_tokens / n >= 0.995
    assert corpus.score == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("rel", PAPER2005)
def test_paper2005_parity(rel: str) -> None:
    check_file(rel, "meteor-1.5-paper2005")


@pytest.mark.parametrize("rel", DEFAULT)
def test_default_parity(rel: str) -> None:
    check_file(rel, "meteor-1.5")


@pytest.mark.parametrize(
    ("rel", "preset", "overrides"),
    [
        ("meteor15_cases/cases.default.jsonl.gz", "meteor-1.5", {"norm": "none"}),
        ("meteor15_cases/cases.paper2005.jsonl.gz", "meteor-1.5-paper2005", {"norm": "none"}),
        ("meteor15_cases/cases.paper2005naive_norm.jsonl.gz", "meteor-1.5-paper2005-naive", {}),
    ],
)
def test_cases_other_configurations(rel: str, preset: str, overrides: dict[str, Any]) -> None:
    """The 18 hand-made edge cases under the configurations without -norm and the naive 2005 one."""
    scorer = Meteor(preset, **overrides)
    for d in read_jsonl_gz(shared_path(rel)):
        r = scorer.score(d["hyp"], d["refs"])
        assert r.score == pytest.approx(d["score"], abs=1e-9), (d["id"], d["hyp"])
        assert our_alignment(r) == java_alignment(d), d["id"]
        assert [t.text for t in r.alignment.hyp] == d["hyp_tokens"]
