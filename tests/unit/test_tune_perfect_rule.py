"""Tune's system scores follow the setting's perfect-segment rule, as the corpus score does.

:func:`meteor.analysis.tune.system_scores` sums each system's statistics on arrays; a
perfect segment's chunks leave the sum only under Meteor 1.5's perfect-segment rule
(:meth:`meteor.stats.Stats.corpus_contribution`), so without it the tuned system scores
are :func:`meteor.corpus_score`'s of the same settings.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from meteor import Meteor, Params
from meteor.analysis import tune as tn
from meteor.analysis.agreement import Judged, judged_rows
from meteor.io.read import Corpus
from meteor.scoring import compute
from meteor.types import Module, Stats

HYPS = {
    "A": ["the cat sat on the mat", "a quick brown fox jumped", "he was running home fast"],
    "B": ["a cat is on a mat", "the quick brown fox jumps", "running home he was"],
}
REFS = [
    ("the cat sat on the mat",),
    ("the quick brown fox jumps",),
    ("he was running home quickly",),
]


@pytest.mark.parametrize("perfect_rule", [False, True])
def test_tuned_system_scores_are_the_corpus_scores(perfect_rule: bool) -> None:
    base = Params(
        lang="en",
        modules=(Module.EXACT, Module.STEM),
        weights={"exact": 1.0, "stem": 0.6},
        perfect_rule=perfect_rule,
    )
    corpus = Corpus(tuple((k, tuple(v)) for k, v in HYPS.items()), tuple(REFS), ("1", "2", "3"))
    judged = Judged(corpus, {"A": [90.0, 70.0, 60.0], "B": [60.0, 50.0, 40.0]}, "human")
    stats = tn.align_statistics(judged, base)
    _, _, _, systems = judged_rows(judged)
    other = dataclasses.replace(base, alpha=0.5, beta=1.5, gamma=0.4)
    pts = tn.Point.of([base, other], stats.hc.shape[2])
    got = tn.system_scores(stats, pts, systems, 2, perfect_rule)
    for k, params in enumerate((base, other)):
        m = Meteor(params=params)
        want = []
        for _, hyps in corpus.systems:
            c = m.corpus_score(list(hyps), [list(r) for r in REFS])
            if not perfect_rule:  # every segment's statistics summed, chunks and all
                assert c.score == compute(sum((x.stats for x in c.segments), Stats()), params).score
            want.append(c.score)
        np.testing.assert_allclose(got[k], want, rtol=0, atol=1e-12)
    a = Meteor(params=base).corpus_score(HYPS["A"], [r[0] for r in REFS])
    assert a.segments[0].stats.is_perfect
