"""The paired test's numbers agree with each other and with sacreBLEU (issue 13, item 21),
and results made with different settings are never combined (item 18)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sacrebleu.significance import _compute_p_value, estimate_ci

from meteor import Meteor
from meteor.analysis import resampling
from meteor.analysis import significance as corpus_mod
from meteor.analysis.resampling import ci_bounds
from meteor.analysis.significance import bootstrap, paired_bootstrap
from meteor.io.record_files import report
from meteor.signatures import SettingsMismatchError, check_same_settings, settings_key
from meteor.types import CorpusResult

PRESET = "meteor-1.5-paper2005"

HYPS_A = [
    "the cat sat on the mat",
    "a quick brown fox jumps over the lazy dog",
    "he went to the market yesterday",
    "the weather is nice today",
    "she reads a book every evening",
    "we will meet at the station",
    "the children played in the garden",
    "prices rose sharply last year",
    "the meeting was postponed until monday",
    "they built a new bridge across the river",
    "i have never seen such a thing",
    "the museum opens at nine",
]
HYPS_B = [
    "cat the sat mat on",
    "a fast brown fox jumped over a lazy dog",
    "he goes to market",
    "weather nice today is",
    "she is reading a book in the evening",
    "we meet station",
    "children were playing in garden",
    "prices have risen sharply in the last year",
    "meeting postponed monday",
    "they have built new bridge over river",
    "never i have seen thing such",
    "the museum is open from nine",
]
REFS = [
    "the cat sat on the mat",
    "the quick brown fox jumps over the lazy dog",
    "yesterday he went to the market",
    "today the weather is nice",
    "every evening she reads a book",
    "we shall meet at the station",
    "the children were playing in the garden",
    "last year prices rose sharply",
    "the meeting has been postponed until monday",
    "a new bridge was built across the river",
    "i have never seen anything like it",
    "the museum opens at nine o'clock",
]


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor(PRESET)


@pytest.fixture(scope="module")
def systems(meteor: Meteor) -> tuple[CorpusResult, CorpusResult]:
    return meteor.corpus_score(HYPS_A, REFS), meteor.corpus_score(HYPS_B, REFS)


@pytest.mark.parametrize(("n_samples", "seed"), [(1000, 12345), (999, 1), (200, 7), (41, 3)])
def test_paired_bootstrap_agrees_with_sacrebleu_on_the_same_resamples(
    meteor: Meteor, systems: tuple[CorpusResult, CorpusResult], n_samples: int, seed: int
) -> None:
    a, b = systems
    pb = paired_bootstrap(a, b, meteor.params, n_samples=n_samples, seed=seed)
    mats = [resampling.stats_matrix(x.segments, meteor.params) for x in (a, b)]
    scores = [np.array([s.score for s in x.segments]) for x in (a, b)]
    (ca, _), (cb, _) = resampling.resampled_matrices(mats, scores, meteor.params, n_samples, seed)
    # sacreBLEU's _paired_bs_test: centred |B - A| of the resamples against the real |B - A|
    sample_diffs = np.abs(cb - ca)
    p_sacrebleu = _compute_p_value(sample_diffs - sample_diffs.mean(), abs(b.score - a.score))
    assert pb.corpus.p_value_sacrebleu == pytest.approx(p_sacrebleu, abs=1e-15)
    # sacreBLEU's estimate_ci (mean and half width, bounds at n // 40) for each system
    for ours, scores in ((pb.corpus.a, ca), (pb.corpus.b, cb)):
        mean, half = estimate_ci(scores)
        assert ours.mean == pytest.approx(mean, abs=1e-12)
        if n_samples % 40 == 0 or n_samples == 999:  # k = floor(B/40) = B // 40 here
            assert ours.half_width == pytest.approx(half, abs=1e-15)
    # the two-sided p is read off the same resampled differences as the interval
    delta = cb - ca
    tail = min(int(np.sum(delta <= 0)), int(np.sum(delta >= 0)))
    assert pb.corpus.p_value == min(1.0, 2 * (tail + 1) / (n_samples + 1))
    assert (pb.corpus.difference_interval.low, pb.corpus.difference_interval.high) == ci_bounds(
        delta
    )


def test_p_value_and_interval_never_disagree(meteor: Meteor) -> None:
    """p < 0.05 only when the 95 % interval of B - A excludes 0, over many resample
    sets, for the corpus score and the mean segment score (the issue's case was a 95 %
    interval containing 0 beside p = 0.036); p = 2(k+1)/(B+1) is never 0."""
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(400):
        n = int(rng.integers(20, 400))
        shift = float(rng.normal(0, 0.05))
        a = rng.normal(0.4, 0.02, size=n)
        b = a + shift + rng.normal(0, 0.02, size=n)
        stat = corpus_mod._paired_stat(0.4, 0.4 + shift, a, b, 0.95)
        outside = not (stat.difference_interval.low <= 0.0 <= stat.difference_interval.high)
        assert stat.p_value > 0
        if stat.p_value < 0.05:
            assert outside, (n, shift, stat)
        checked += outside
    assert 50 < checked < 350  # both outcomes were exercised
    # at the edge: B = 1000 resamples, k = 25: the interval excludes 0 up to 25 differences
    # at or below 0, p < 0.05 up to 24 (2·25/1001 = 0.04995; 2·26/1001 = 0.0519)
    for below in (0, 24, 25, 26, 27):
        delta = np.concatenate([np.full(below, -0.01), np.full(1000 - below, 0.01)])
        stat = corpus_mod._paired_stat(0.4, 0.41, np.zeros(1000), delta, 0.95)
        outside = stat.difference_interval.low > 0.0
        assert stat.p_value == 2 * (below + 1) / 1001
        assert outside == (below <= 25)
        assert (stat.p_value < 0.05) == (below <= 24)


def test_sacrebleu_p_is_about_one_tailed(meteor: Meteor) -> None:
    """Where the systems differ, sacreBLEU's p is about half the two-sided p."""
    rng = np.random.default_rng(1)
    a = rng.normal(0.4, 0.02, size=5000)
    b = a + 0.003 + rng.normal(0, 0.05, size=5000)
    stat = corpus_mod._paired_stat(0.4, 0.403, a, b, 0.95)
    assert stat.p_value_sacrebleu == pytest.approx(stat.p_value / 2, rel=0.25)


def test_identical_systems(meteor: Meteor, systems: tuple[CorpusResult, CorpusResult]) -> None:
    a, _ = systems
    pb = paired_bootstrap(a, a, meteor.params, n_samples=100)
    assert pb.corpus.p_value == pb.corpus.p_value_sacrebleu == 1.0
    assert pb.all_segments and pb.n_segments == len(HYPS_A)
    d = pb.to_dict()
    assert d["test"] == "paired bootstrap (Koehn 2004), two-sided"
    assert "p_value_sacrebleu_definition" in d and d["paired_segments"] == len(HYPS_A)


# --- settings ----------------------------------------------------------------------------


def test_settings_key_ignores_preset_name_and_reference_count(meteor: Meteor) -> None:
    sig = meteor.signature(1)
    assert settings_key(sig) == settings_key(meteor.params.signature(nrefs=3))
    assert settings_key(sig) != settings_key(Meteor(PRESET, alpha=0.5).signature(1))
    check_same_settings([("a", sig), ("b", meteor.params.signature(nrefs=2))], "x")


def test_combining_other_settings_is_refused_showing_both_signatures(
    meteor: Meteor, systems: tuple[CorpusResult, CorpusResult]
) -> None:
    a, _ = systems
    other = Meteor(PRESET, alpha=0.5)
    b_other = other.corpus_score(HYPS_B, REFS)
    with pytest.raises(SettingsMismatchError) as exc:
        meteor.combine([*a.segments, *b_other.segments])
    msg = str(exc.value)
    assert a.signature in msg and b_other.signature in msg and "segment 13" in msg
    with pytest.raises(SettingsMismatchError, match=r"a paired test .*\|a:0\.5\|"):
        paired_bootstrap(a, b_other, meteor.params, n_samples=50)
    with pytest.raises(SettingsMismatchError, match="a bootstrap"):
        bootstrap(a, other.params, n_samples=50)
    with pytest.raises(SettingsMismatchError, match="a report"):
        report({"A": a, "B": b_other}, meteor.params, preset=PRESET)
    # the same values under another preset label, or more references, are fine
    same = Meteor(params=meteor.params)
    assert same.combine(a.segments).score == a.score
    two_refs = meteor.score(HYPS_A[0], [REFS[0], REFS[1]])
    assert not math.isnan(meteor.combine([*a.segments, two_refs]).score)
