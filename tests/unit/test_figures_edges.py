"""Trust at the edges, round 3 (issue 31, items 16–17): figures and explanations say
what they show (layout, legends, axis titles, one x-range per panel) and near misses
consider every stage the language offers."""

from __future__ import annotations

import pytest

from meteor import Meteor
from meteor.analysis.explain import near_misses
from meteor.presets import PRESETS
from meteor.stages import embedding as emb
from meteor.types import Module

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
