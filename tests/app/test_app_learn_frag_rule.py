"""The Learn page's fragmentation formula says which rule gives frag: Meteor 1.5's
single-chunk rule (every word matched, by any stage, in one chunk → frag = 0) is not
called a "perfect match" when stems and synonyms matched; a setting without the rule
says so.  In English and in Russian."""

from __future__ import annotations

from typing import Any

from meteor import Meteor
from meteor.analysis.explain import walkthrough as walk

#: Issue 39's fox pair: 0.8857 under meteor-1.5, one chunk of exact, stem and synonym matches.
FOX = (
    "The fast brown fox leaps over the lazy dogs",
    "The quick brown fox jumped over the lazy dog",
)


def _formula(at: Any) -> tuple[str, str]:
    at.run()
    assert not at.exception
    at.switch_page("pages/learn.py").run()
    at.select_slider(key="learn_step").set_value("formula").run()
    assert not at.exception
    latex = "\n".join(x.value for x in at.latex)
    captions = "\n".join(c.value for c in at.caption)
    return latex, captions


def test_frag_rule_names_the_rule() -> None:
    m15, nltk = Meteor("meteor-1.5"), Meteor("nltk")
    r = m15.score(*FOX)
    assert round(r.score, 4) == 0.8857 and r.frag == 0.0
    assert walk.frag_rule(r.stats, m15.params) == "single_chunk"
    assert walk.frag_rule(nltk.score(*FOX).stats, nltk.params) == "single_chunk_off"
    two = m15.score("the cat sat on the mat", "on the mat the cat sat")
    assert walk.frag_rule(two.stats, m15.params) == "ratio"
    lines = {x.key: x for x in walk.formula_lines(r.stats, m15.breakdown(r), m15.params)}
    assert "single-chunk rule" in lines["frag"].numeric
    assert "perfect" not in lines["frag"].numeric


def test_learn_says_single_chunk_rule_not_perfect_match(app_test: Any) -> None:
    latex, captions = _formula(app_test(preset="meteor-1.5", hyp=FOX[0], ref=FOX[1]))
    assert "single-chunk rule" in latex and "perfect match" not in latex
    assert "single-chunk rule" in captions and "1/((9 + 9)/2)" in captions
    assert "not a perfect match" in captions


def test_learn_says_when_the_setting_has_no_single_chunk_rule(app_test: Any) -> None:
    latex, captions = _formula(app_test(preset="nltk", hyp=FOX[0], ref=FOX[1]))
    assert "no single-chunk rule here" in latex
    assert "no single-chunk rule" in captions


def test_learn_names_the_rule_in_russian(app_test: Any) -> None:
    latex, captions = _formula(app_test(ui="RU", preset="meteor-1.5", hyp=FOX[0], ref=FOX[1]))
    assert "правило одного фрагмента" in latex and "perfect" not in latex
    assert "правилу одного фрагмента" in captions and "single-chunk" not in captions
