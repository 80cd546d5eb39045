"""The formula, checked by hand arithmetic (rouge-score style) and against Meteor 1.5's golden values."""

from __future__ import annotations

import math

import pytest

from meteor.module_registry import MODULE_ORDER, Module
from meteor.params import Params
from meteor.presets import get_preset
from meteor.scoring import compute
from meteor.stats import Stats


def stats(
    hyp_len: int,
    ref_len: int,
    matches: dict[Module, int],
    chunks: int,
    hyp_fw: int = 0,
    ref_fw: int = 0,
    fmatches: dict[Module, int] | None = None,
) -> Stats:
    """1:1 matches: the same counts on both sides."""
    c = tuple(matches.get(m, 0) for m in MODULE_ORDER)
    f = tuple((fmatches or {}).get(m, 0) for m in MODULE_ORDER)
    total = sum(c) + sum(f)
    return Stats(hyp_len, ref_len, hyp_fw, ref_fw, c, c, f, f, chunks, total, total)


NLTK = get_preset("nltk").params
M15 = get_preset("meteor-1.5").params


def test_classic_cat_on_the_mat() -> None:
    # house-style.md: hyp "the cat was sat on the mat", ref "the cat sat on the mat":
    # P = 6/7, R = 1, 2 chunks over 6 matches, penalty 0.5·(1/3)³.
    b = compute(stats(7, 6, {Module.EXACT: 6}, 2), NLTK)
    p, r = 6 / 7, 1.0
    assert b.precision == pytest.approx(p)
    assert b.recall == pytest.approx(r)
    assert b.fmean == pytest.approx(p * r / (0.9 * p + 0.1 * r))
    assert b.penalty == pytest.approx(0.5 * (2 / 6) ** 3)
    assert b.score == pytest.approx((6 / 7) / (0.9 * 6 / 7 + 0.1) * (1 - 0.5 * (1 / 3) ** 3))
    assert b.score == pytest.approx(0.96539, abs=1e-5)


def test_seed_doc_examples_by_hand() -> None:
    # Doc page: 7 of 8 words matched on both sides, 2 chunks → 0.875 · (1 − 0.5·2/7) = 0.750
    seed = get_preset("seed-doc").params
    b = compute(stats(8, 8, {Module.EXACT: 7}, 2), seed)
    assert b.precision == pytest.approx(0.875)
    assert b.recall == pytest.approx(0.875)
    assert b.fmean == pytest.approx(0.875)
    assert b.penalty == pytest.approx(0.5 * 2 / 7)
    assert round(b.score, 3) == 0.750
    # 8 of 8 in 8 chunks: Fmean 1, penalty 0.5 → 0.5
    b2 = compute(stats(8, 8, {Module.EXACT: 8}, 8), seed)
    assert b2.score == pytest.approx(0.5)


def test_delta_weights_function_words() -> None:
    # Meteor 1.5 default, δ = 0.75: L = 0.75·content + 0.25·function.
    s = stats(4, 4, {Module.EXACT: 2}, 1, hyp_fw=2, ref_fw=2, fmatches={Module.EXACT: 1})
    b = compute(s, M15)
    assert b.hyp_weighted_len == pytest.approx(0.75 * 2 + 0.25 * 2)
    assert b.hyp_weighted_matches == pytest.approx(0.75 * 2 + 0.25 * 1)
    assert b.precision == pytest.approx(1.75 / 2.0)


def test_module_weights_by_name() -> None:
    s = stats(2, 2, {Module.EXACT: 1, Module.SYNONYM: 1}, 1)
    b = compute(s, M15)  # synonym weight 0.8, δ = 0.75, no function words
    assert b.precision == pytest.approx((0.75 * 1.0 + 0.75 * 0.8) / (0.75 * 2))


def test_perfect_rule() -> None:
    s = stats(3, 3, {Module.EXACT: 3}, 1)
    assert compute(s, M15).frag == 0.0
    assert compute(s, M15).score == 1.0
    # without the rule (NLTK) an identical 3-token pair loses 0.5·(1/3)³
    assert compute(s, NLTK).score == pytest.approx(1 - 0.5 * (1 / 3) ** 3)


@pytest.mark.parametrize(
    "s",
    [
        stats(0, 5, {}, 0),  # empty hypothesis
        stats(5, 0, {}, 0),  # empty reference
        stats(0, 0, {}, 0),  # both empty
        stats(3, 3, {}, 0),  # no match: frag = 0/0
    ],
)
def test_nan_becomes_zero(s: Stats) -> None:
    b = compute(s, M15)
    assert b.score == 0.0


def test_function_words_only_with_delta_one() -> None:
    # δ = 1 ignores function words: a function-word-only hypothesis has length 0 → NaN → 0.
    p = Params(delta=1.0)
    s = stats(2, 2, {}, 1, hyp_fw=2, ref_fw=2, fmatches={Module.EXACT: 2})
    b = compute(s, p)
    assert math.isnan(b.precision)
    assert b.score == 0.0


def test_score_never_negative() -> None:
    p = Params(gamma=1.0, beta=0.0)  # penalty = 1 always
    b = compute(stats(3, 3, {Module.EXACT: 2}, 2), p)
    assert b.score == 0.0
