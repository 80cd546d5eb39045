"""``meteor.reconcile`` between every ordered pair of English presets on 200 WMT pairs (issue 33).

The first 200 segments of WMT21 ru-en (system AFRL against reference A, shared data
``wmt21_ru-en_da/all_outputs.tsv``): each ordered pair of the English presets reconciles
the corpus without an error, its ends are each side's own corpus score (summed
statistics, or the mean of segment scores for NLTK/HF), the path lands on B and the
(sampled) shares add up to the gap; a few pairs also reconcile segment by segment.
"""

from __future__ import annotations

import csv
import itertools
import math
from functools import cache

import pytest
from conftest import shared_path

import meteor
from meteor.analysis.reconcile import reconcile_corpus
from meteor.analysis.reconcile_groups import aggregation_of
from meteor.presets import get_preset, preset_names

N = 200
EN = preset_names("en")
PAIRS = list(itertools.permutations(EN, 2))


@cache
def _wmt() -> tuple[list[str], list[str]]:
    path = shared_path("wmt21_ru-en_da/all_outputs.tsv")
    with path.open(encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["system"] == "AFRL"][:N]
    assert len(rows) == N
    return [r["hyp"] for r in rows], [r["ref"] for r in rows]


@cache
def _corpus_score(name: str) -> float:
    hyps, refs = _wmt()
    result = meteor.corpus_score(hyps, refs, name)
    if aggregation_of(get_preset(name).params) == "mean":
        return result.mean_segment_score
    return result.score


def test_english_presets_are_the_expected_twelve() -> None:
    assert len(EN) == 12 and len(PAIRS) == 132


@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a}->{b}" for a, b in PAIRS])
def test_every_ordered_pair_reconciles_200_wmt_segments(a: str, b: str) -> None:
    hyps, refs = _wmt()
    rc = reconcile_corpus(hyps, refs, a, b, orders=3, seed=0)
    assert rc.score_a == _corpus_score(a)
    assert rc.score_b == _corpus_score(b)
    assert abs(rc.steps[-1].score - rc.score_b) <= 1e-12
    assert abs(math.fsum(v for _, v in rc.shares) - rc.gap) <= 1e-12
    assert [g for s in rc.steps for g in s.groups] != []
    assert sorted(g for s in rc.steps for g in s.groups) == sorted(rc.groups)


def test_exact_corpus_shares_nltk_to_meteor15() -> None:
    hyps, refs = _wmt()
    rc = reconcile_corpus(hyps, refs, "nltk", "meteor-1.5")
    assert rc.share_method.startswith("exact: every one of the 256 subsets")
    assert abs(math.fsum(v for _, v in rc.shares) - rc.gap) <= 1e-12
    assert rc.score_b == _corpus_score("meteor-1.5")


@pytest.mark.parametrize("a, b", [("nltk", "meteor-1.5"), ("paper-2005", "meteor-1.5-universal")])
def test_segment_by_segment(a: str, b: str) -> None:
    hyps, refs = _wmt()
    ma, mb = meteor.Meteor(a), meteor.Meteor(b)
    for hyp, ref in list(zip(hyps, refs, strict=True))[:40]:
        rc = meteor.reconcile(hyp, ref, a, b)
        assert rc.score_a == ma.score(hyp, ref).score
        assert rc.score_b == mb.score(hyp, ref).score
        assert abs(math.fsum(v for _, v in rc.shares) - rc.gap) <= 1e-12
        assert abs(rc.steps[-1].score - rc.score_b) <= 1e-12
