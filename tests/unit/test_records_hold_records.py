"""Records hold the records they summarise: a ranking row holds its system's bootstrap
intervals and corpus breakdown, a pairwise test the paired bootstrap it reports, and
``correlate``'s result the scores it measured (the agreement page reads them instead of
scoring again)."""

from __future__ import annotations

import meteor
from meteor.analysis.agreement import correlate, load_judged
from meteor.analysis.ranking import rank_systems
from meteor.analysis.significance import paired_bootstrap

HYPS = {
    "A": ["the cat sat on the mat", "a dog barked", "it is raining today", "we went home late"],
    "B": ["cat on mat", "the dog barked loudly", "it rains today", "we came home late"],
    "C": ["mat cat", "dog", "raining", "home"],
}
REFS = ["the cat sat on the mat", "the dog barked loudly", "it is raining today", "we went home"]


def _scored() -> dict[str, meteor.CorpusResult]:
    m = meteor.Meteor("meteor-1.5-paper2005")
    return {name: m.corpus_score(h, REFS) for name, h in HYPS.items()}


def test_ranking_rows_and_tests_hold_what_they_summarise() -> None:
    scored = _scored()
    params = meteor.Meteor("meteor-1.5-paper2005").params
    rk = rank_systems(scored, params, n_samples=100, seed=3)
    for row in rk.systems:
        assert row.breakdown == scored[row.name].breakdown
        assert (row.precision, row.recall, row.frag) == (
            scored[row.name].precision,
            scored[row.name].recall,
            scored[row.name].frag,
        )
        assert row.corpus is row.intervals.corpus
    for test in rk.pairs:
        alone = paired_bootstrap(
            scored[test.a], scored[test.b], params, names=(test.a, test.b), n_samples=100, seed=3
        )
        assert test.paired.corpus == alone.corpus
        assert test.to_dict()["difference_b_minus_a"] == alone.corpus.difference
        assert test.to_dict()["p_paired_bootstrap"] == alone.corpus.p_value


TABLE = "system\tseg_id\thyp\tref\thuman\n" + "".join(
    f"{s}\t{k + 1}\t{h}\t{REFS[k]}\t{(len(h) * 7 + k * 13) % 100}\n"
    for s, hs in HYPS.items()
    for k, h in enumerate(hs)
)


def test_correlate_returns_the_scores_it_measured() -> None:
    judged = load_judged([("t.tsv", TABLE.encode())], "human")
    agreement = correlate(
        judged, presets=["meteor-1.5-paper2005"], n_bootstrap=50, n_permutations=0
    )
    scores = agreement.scores_of("meteor-1.5-paper2005")
    m = meteor.Meteor("meteor-1.5-paper2005")
    want = [m.score(h, r).score for hs in HYPS.values() for h, r in zip(hs, REFS, strict=True)]
    assert list(scores.segment) == want
    assert "scores" not in agreement.to_dict()  # the JSON form is unchanged
