"""The report's clustering rule is named for what it does (greedy top-anchored clusters,
neither WMT's human-evaluation clustering nor a sacreBLEU feature), does what its name
says, and a cluster decision resting on a p within 0.01 of alpha is noted (issue 42)."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

import meteor
from meteor.analysis.corpus_report import build_report
from meteor.analysis.ranking import BORDERLINE, CLUSTER_RULE, rank_systems
from meteor.analysis.report_text import latex_escape, to_json, to_latex, to_markdown
from meteor.io.read import load_corpus
from meteor.viz.report_html import to_html

DEMO = Path(meteor.__file__).parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
SAMPLES, TRIALS = 200, 2000


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, meteor.CorpusResult], meteor.Meteor]:
    corpus = load_corpus([(DEMO.name, DEMO.read_bytes())])
    m = meteor.Meteor("meteor-1.5")
    return {n: m.corpus_score(list(h), list(corpus.refs_of(n))) for n, h in corpus.systems}, m


def _ids(results: dict[str, meteor.CorpusResult]) -> dict[str, tuple[str, ...]]:
    return {n: tuple(str(k) for k in range(len(r.segments))) for n, r in results.items()}


def test_the_rule_is_named_in_every_output(demo) -> None:
    """Before: "the WMT / sacreBLEU style"."""
    results, m = demo
    rep = build_report(results, m.params, ids=_ids(results), n_samples=SAMPLES, n_trials=TRIALS)
    assert CLUSTER_RULE.startswith("greedy top-anchored clusters")
    assert "neither WMT's human-evaluation clustering nor a sacreBLEU feature" in CLUSTER_RULE
    assert json.loads(to_json(rep))["ranking"]["cluster_rule"] == CLUSTER_RULE
    assert CLUSTER_RULE in html.unescape(to_markdown(rep).replace("\\", ""))
    assert CLUSTER_RULE in html.unescape(to_html(rep))
    assert latex_escape(CLUSTER_RULE) in to_latex(rep)
    for text in (to_markdown(rep), to_html(rep), to_latex(rep)):
        assert "WMT / sacreBLEU style" not in text


@pytest.mark.parametrize(("test", "correction"), [("ar", "holm"), ("bootstrap", "none")])
def test_the_clusters_follow_the_named_rule(demo, test: str, correction: str) -> None:
    """Each system is compared with its cluster's top system only: a member is not
    significantly worse than it; a cluster's first system is significantly worse than the
    previous cluster's top."""
    results, m = demo
    rk = rank_systems(results, m.params, n_samples=SAMPLES, trials=TRIALS, test=test,
                      correction=correction)  # fmt: skip
    clusters = rk.clusters()
    assert len(clusters) >= 2
    for k, members in enumerate(clusters):
        top = members[0]
        assert not any(rk.pair(top, x).significant for x in members[1:])
        if k:
            assert rk.pair(clusters[k - 1][0], top).significant


def test_a_borderline_cluster_decision_is_noted(demo) -> None:
    """The first decision (the second system against the first) rests on p; with alpha
    within 0.01 of that p the report says so in every output; far from it, nothing."""
    results, m = demo
    base = rank_systems(results, m.params, n_samples=SAMPLES, trials=TRIALS, correction="none")
    first, second = base.systems[0].name, base.systems[1].name
    p = base.pair(first, second).p_randomisation
    kw = {"ids": _ids(results), "n_samples": SAMPLES, "n_trials": TRIALS, "correction": "none"}
    near = build_report(results, m.params, alpha=p + 0.006, **kw)
    decisions = near.ranking.borderline
    assert any((d.top, d.system) == (first, second) for d in decisions)
    assert all(abs(d.p_adjusted - near.ranking.alpha) <= BORDERLINE for d in decisions)
    d = next(d for d in decisions if (d.top, d.system) == (first, second))
    assert d.new_cluster and d.p_adjusted == p  # p < alpha: significant, a new cluster
    note = d.note(near.ranking.alpha)
    assert f"within 0.01 of alpha {near.ranking.alpha:g}" in note and note in near.notes
    data = json.loads(to_json(near))
    assert {"top": first, "system": second, "p_adjusted": p, "new_cluster": True} in data[
        "ranking"
    ]["borderline_cluster_decisions"]
    assert note in data["notes"]
    assert "within 0\\.01 of alpha" in to_markdown(near)
    assert html.escape(note, quote=True) in to_html(near)
    assert latex_escape(note) in to_latex(near)
    far = build_report(results, m.params, alpha=min(0.99, p + 0.2), **kw)
    assert all(abs(d.p_adjusted - far.ranking.alpha) <= BORDERLINE for d in far.ranking.borderline)
    assert (first, second) not in {(d.top, d.system) for d in far.ranking.borderline}
