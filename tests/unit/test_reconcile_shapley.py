"""``meteor.reconcile``'s shares are the Shapley values of the real scores.

Each share is recomputed here by brute force, with nothing of the valuation behind
:func:`meteor.reconcile` (:mod:`meteor.analysis.reconcile_shapley`): every combination of
switched groups is scored by :func:`meteor.score` / :func:`meteor.corpus_score` under
its own settings (A's settings with those groups' fields taken from B,
:func:`~meteor.analysis.reconcile_groups.build_params`), and each group's share is its
mean marginal contribution over every order of the groups (the definition, not the
subset formula the game uses).  Pairs and settings are drawn with a fixed seed; the
pairs include ones that match every word in one chunk, where the perfect-segment rule
(Meteor 1.5's settings only) decides the penalty.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import meteor
from meteor.analysis.reconcile_groups import (
    AGGREGATION,
    aggregation_of,
    build_params,
    differing_groups,
)
from meteor.cli.command_line import main
from meteor.errors import ParamError
from meteor.params import Params
from meteor.presets import get_preset
from meteor.scoring import compute

#: English settings with and without the perfect-segment rule, several aligners.
SETTINGS = ("hf", "nltk", "paper-2005", "meteor-1.5", "meteor-1.5-paper2005", "meteor-1.5-hter")
SENTENCES = (
    "the cat sat on the mat",
    "The fast brown fox leaps over the lazy dogs",
    "The quick brown fox jumped over the lazy dog",
    "a dog barked at the postman",
    "the dogs barked at a postman",
    "we walked home in the rain",
    "walking home in rain we were",
)


@cache
def _scorer(params: Params) -> meteor.Meteor:
    return meteor.Meteor(params=params)


def _shapley(
    players: tuple[str, ...], value: Callable[[frozenset[str]], float]
) -> dict[str, float]:
    """Each player's mean marginal contribution over every order of the players."""
    memo: dict[frozenset[str], float] = {}

    def v(s: frozenset[str]) -> float:
        if s not in memo:
            memo[s] = value(s)
        return memo[s]

    total = {g: 0.0 for g in players}
    orders = list(itertools.permutations(players))
    for order in orders:
        s: frozenset[str] = frozenset()
        for g in order:
            total[g] += v(s | {g}) - v(s)
            s = s | {g}
    return {g: total[g] / len(orders) for g in players}


def _params_of(a: Params, b: Params, s: frozenset[str]) -> Params:
    return build_params(a, b, s - {AGGREGATION.key})


def _all_run(a: Params, b: Params, groups: tuple[str, ...]) -> bool:
    try:
        for r in range(len(groups) + 1):
            for t in itertools.combinations(groups, r):
                _scorer(_params_of(a, b, frozenset(t)))
    except ParamError:
        return False
    return True


def _cases(n: int, seed: int) -> list[tuple[str, str, str, str]]:
    rng = random.Random(seed)
    out = [
        ("The fast brown fox leaps over the lazy dogs", SENTENCES[2], "hf", "meteor-1.5"),
        ("the cat sat on the mat", "the cat sat on the mat", "nltk", "meteor-1.5"),
    ]
    while len(out) < n:
        a, b = rng.sample(SETTINGS, 2)
        pa, pb = get_preset(a).params, get_preset(b).params
        if not _all_run(pa, pb, differing_groups(pa, pb)):
            continue  # a combination that cannot run is valued by its nearest: not brute force
        ref = rng.choice(SENTENCES)
        hyp = ref if rng.random() < 0.4 else rng.choice(SENTENCES)
        out.append((hyp, ref, a, b))
    return out


@pytest.mark.parametrize(("hyp", "ref", "a", "b"), _cases(16, 20261206))
def test_pair_shares_are_the_brute_force_shapley_values(hyp: str, ref: str, a: str, b: str) -> None:
    rc = meteor.reconcile(hyp, ref, a, b)
    pa, pb = get_preset(a).params, get_preset(b).params
    assert not rc.invalid

    def value(s: frozenset[str]) -> float:
        return meteor.score(hyp, ref, params=_params_of(pa, pb, s)).score

    want = _shapley(rc.groups, value)
    got = dict(rc.shares)
    assert got.keys() == want.keys()
    for g in rc.groups:
        assert got[g] == pytest.approx(want[g], abs=1e-12), g
    assert math.fsum(want.values()) == pytest.approx(rc.gap, abs=1e-12)


def test_the_issues_examples() -> None:
    """The fox pair hf → meteor-1.5 and the cat pair against itself nltk → meteor-1.5."""
    fox = dict(meteor.reconcile(SENTENCES[1], SENTENCES[2], "hf", "meteor-1.5").shares)
    assert round(fox["weights"], 4) == -0.0942
    assert round(fox["parameters"], 4) == -0.1983
    assert round(fox["rules"], 4) == 0.1789
    cat = dict(meteor.reconcile(SENTENCES[0], SENTENCES[0], "nltk", "meteor-1.5").shares)
    assert round(cat["parameters"], 4) == -0.2085
    assert round(cat["rules"], 4) == 0.2108
    assert all(abs(v) < 1e-12 for g, v in cat.items() if g not in ("parameters", "rules"))


@pytest.mark.parametrize(
    ("a", "b"),
    [("hf", "meteor-1.5"), ("meteor-1.5-paper2005", "paper-2005"), ("nltk", "meteor-1.5-hter")],
)
def test_corpus_shares_are_the_brute_force_shapley_values(a: str, b: str) -> None:
    rng = random.Random(f"{a}{b}")
    refs = [rng.choice(SENTENCES) for _ in range(4)]
    hyps = [r if k % 2 == 0 else rng.choice(SENTENCES) for k, r in enumerate(refs)]
    rc = meteor.reconcile(hyps, refs, a, b, corpus=True)
    pa, pb = get_preset(a).params, get_preset(b).params
    assert not rc.invalid

    def value(s: frozenset[str]) -> float:
        agg = aggregation_of(pb if AGGREGATION.key in s else pa)
        c = meteor.corpus_score(hyps, refs, params=_params_of(pa, pb, s))
        return c.score if agg == "sum" else c.mean_segment_score

    want = _shapley(rc.groups, value)
    got = dict(rc.shares)
    for g in rc.groups:
        assert got[g] == pytest.approx(want[g], abs=1e-12), g


@pytest.mark.parametrize("preset", ["hf", "nltk", "paper-2005", "meteor-1.5"])
def test_summed_corpus_score_keeps_chunks_without_the_perfect_rule(preset: str) -> None:
    """A perfect segment's chunks leave the corpus sum only under Meteor 1.5's rule."""
    hyps = ["the cat sat on the mat", "a dog barked at the postman"]
    refs = ["the cat sat on the mat", "the dogs barked at a postman"]
    c = meteor.corpus_score(hyps, refs, preset)
    plain = c.segments[0].stats + c.segments[1].stats
    perfect_rule = get_preset(preset).params.perfect_rule
    assert c.segments[0].stats.is_perfect
    assert c.stats.chunks == plain.chunks - (1 if perfect_rule else 0)
    if not perfect_rule:
        assert c.stats == plain
        assert c.score == compute(plain, get_preset(preset).params).score


@pytest.mark.parametrize("preset", ["hf", "meteor-1.5"])
def test_score_json_defines_the_corpus_sum_of_its_setting(preset: str, tmp_path: Path) -> None:
    """The JSON report's definition of the corpus score names the perfect-segment rule only
    for settings that have it."""
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    out = io.StringIO()
    argv = ["score", "-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt"), "-p", preset]
    with contextlib.redirect_stdout(out):
        assert main([*argv, "-f", "json"]) == 0
    definition = json.loads(out.getvalue())["corpus_score_definition"]
    has_rule = get_preset(preset).params.perfect_rule
    assert ("the chunks of a perfect segment are not added" in definition) == has_rule
    assert ("no perfect-segment rule" in definition) == (not has_rule)
