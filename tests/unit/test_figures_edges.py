"""Trust at the edges, round 3 (issue 31, items 16–17): figures and explanations say
what they show (layout, legends, axis titles, one x-range per panel) and near misses
consider every stage the language offers."""

from __future__ import annotations

import pytest

from meteor import Meteor
from meteor.analysis.explain.parts import near_misses
from meteor.module_registry import Module
from meteor.presets import PRESETS
from meteor.stages import embedding as emb

# -- near misses ------------------------------------------------------------------


@pytest.mark.skipif(not emb.navec_available(), reason="navec/natasha not installed")
def test_near_misses_under_meteor_15_ru_include_the_embedding_stage() -> None:
    """кошка/кот: no stem, lemma or synonym match, but the ``ru`` preset's embedding stage
    matches them (cosine 0.57); ``meteor-1.5-ru`` used to report no near miss at all."""
    m = Meteor(params=PRESETS["meteor-1.5-ru"].params)
    r = m.score("кошка сидит", "кот сидит")
    misses = near_misses(r, m)
    emb_misses = [n for n in misses if n.match.module is Module.EMBEDDING]
    assert [(n.match.hyp_words, n.match.ref_words) for n in emb_misses] == [(("кошка",), ("кот",))]
    (n,) = emb_misses
    assert n.reason == "stage_off"
    assert "ru" in n.presets
    assert n.gain > 0


# -- corpus figures ---------------------------------------------------------------


def _corpus(n: int = 6) -> dict[str, object]:
    m = Meteor("meteor-1.5")
    hyps = [f"the cat sat on mat {k}" for k in range(n)]
    return {
        "A": m.corpus_score(hyps, [f"a cat sat on the mat {k}" for k in range(n)]),
        "B": m.corpus_score(hyps, [f"the cat is on the mat {k + 1}" for k in range(n)]),
    }


def test_corpus_scatters_keep_the_legend_off_the_x_axis_title() -> None:
    from meteor.viz import corpus_charts as cf

    res = _corpus()
    for fig in (cf.ab_scatter(res["A"], res["B"], names=("A", "B")), cf.score_vs_length(res)):
        assert fig.layout.xaxis.title.text
        legend = fig.layout.legend
        assert legend.orientation == "h" and legend.yanchor == "bottom" and legend.y >= 1.0


def test_corpus_hovers_number_segments_from_1_like_the_tables() -> None:
    from meteor.viz import corpus_charts as cf

    res = _corpus()
    for fig in (cf.ab_scatter(res["A"], res["B"], names=("A", "B")), cf.score_vs_length(res)):
        for tr in fig.data:
            if tr.customdata is None or "segment" not in (tr.hovertemplate or "").lower():
                continue
            shown = tr.hovertemplate.split("customdata[")[1][0]
            for row in tr.customdata:
                assert row[int(shown)] == row[1] + 1  # the table's number, not the index


def test_ab_scatter_keeps_each_sides_wins_apart_when_two_systems_share_a_name() -> None:
    """Two systems named alike (two files' "system1") still get a trace each: A's wins in A's
    colour, B's in B's, and every segment drawn once."""
    from meteor.viz import corpus_charts as cf
    from meteor.viz.style import system_color

    m = Meteor("meteor-1.5")
    hyps = ["the cat sat on the mat", "a dog ran", "the cat sat on the mat"]
    a = m.corpus_score(hyps, ["the cat sat on the mat", "a dog ran home", "the cat sat"])
    b = m.corpus_score(hyps, ["the cat sat", "a dog ran", "the cat sat on the mat"])
    fig = cf.ab_scatter(a, b, names=("same", "same"))
    markers = [tr for tr in fig.data if tr.mode == "markers"]
    assert sum(len(tr.x) for tr in markers) == 3  # every segment drawn once
    by_colour = {tr.marker.color: len(tr.x) for tr in markers}
    assert by_colour[system_color(0)] == 1 and by_colour[system_color(1)] == 2
