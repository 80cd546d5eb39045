"""One rule in one place (issue 14): stage weights and ё folding are defined once and used everywhere."""

from __future__ import annotations

import pytest

from meteor import rules
from meteor.analysis.explain import parts as explain
from meteor.analysis.explain import walkthrough as walk
from meteor.cli.command_line import _parse_weights
from meteor.languages import navec, russian
from meteor.module_registry import Module
from meteor.params import stage_weight
from meteor.presets import PRESETS
from meteor.stages import base as stage_base


def test_stage_weight_rule() -> None:
    en = PRESETS["meteor-1.5"].params
    exact_only = en.replace(modules=("exact",), weights={"exact": 1.0})
    # enabled: its own weight
    assert stage_weight(Module.STEM, en) == en.weight(Module.STEM) == 0.6
    # not enabled: the first fallback that enables it
    assert stage_weight(Module.STEM, exact_only, en) == 0.6
    assert stage_weight(Module.STEM, exact_only, exact_only, en) == 0.6
    # nowhere: 1.0 (Meteor 1.5's weight for a stage without -w)
    assert stage_weight(Module.STEM, exact_only) == 1.0
    assert stage_weight(Module.EMBEDDING, exact_only, en) == 1.0


def test_params_replace_uses_the_rule() -> None:
    en = PRESETS["meteor-1.5"].params
    p = en.replace(modules=("exact", "stem", "synonym", "paraphrase", "embedding"))
    assert p.weight(Module.STEM) == stage_weight(Module.STEM, en)
    assert p.weight(Module.EMBEDDING) == 1.0


def test_cli_weights_use_the_rule() -> None:
    base = PRESETS["meteor-1.5"].params
    mods = (Module.EXACT, Module.STEM, Module.EMBEDDING)
    got = dict(_parse_weights("exact=0.9", mods, base))
    assert got == {
        Module.EXACT: 0.9,
        Module.STEM: stage_weight(Module.STEM, base),
        Module.EMBEDDING: stage_weight(Module.EMBEDDING, base),
    }
    assert got[Module.STEM] == 0.6 and got[Module.EMBEDDING] == 1.0


def test_near_miss_weight_is_the_languages_first_preset() -> None:
    # Russian embedding: no Meteor 1.5 preset runs it; seed-ru-emb does.
    ru = PRESETS["meteor-1.5-ru"].params
    first = next(p.params for p in PRESETS.values() if Module.EMBEDDING in p.params.modules)
    assert Module.EMBEDDING not in ru.modules
    assert stage_weight(Module.EMBEDDING, ru, *explain._lang_presets("ru")) == first.weight(
        Module.EMBEDDING
    )


@pytest.mark.parametrize(
    ("text", "folded"),
    [("Ёлка и ёж", "Елка и еж"), ("ещё", "еще"), ("no yo", "no yo"), ("", "")],
)
def test_fold_yo_is_one_function(text: str, folded: str) -> None:
    assert rules.fold_yo(text) == folded
    assert russian.fold_yo is rules.fold_yo
    assert stage_base.fold_yo is rules.fold_yo
    assert navec.fold_yo is rules.fold_yo  # the embedding stage's look-ups


def test_matchers_fold_with_the_rule() -> None:
    import meteor

    folded = meteor.Meteor(
        "meteor-1.5-ru", modules=("exact",), weights={"exact": 1.0}, fold_yo=True
    )
    plain = meteor.Meteor("meteor-1.5-ru", modules=("exact",), weights={"exact": 1.0})
    assert folded.score("ёж", "еж").score > 0
    assert plain.score("ёж", "еж").score == 0


def test_is_definite_rule() -> None:
    cover = [1, 1, 2, 1]
    assert rules.is_definite(1, range(0, 2), range(0, 1), cover, [1, 1])
    assert not rules.is_definite(2, range(0, 2), range(0, 1), cover, [1, 1])  # another starts there
    assert not rules.is_definite(1, range(1, 3), range(0, 1), cover, [1, 1])  # hyp word shared
    assert not rules.is_definite(1, range(0, 1), range(0, 2), cover, [1, 2])  # ref word shared


def test_definite_rule_is_one_function() -> None:
    from meteor.aligners import beam

    assert beam.is_definite is rules.is_definite
    assert walk.is_definite is rules.is_definite
    # The C twin of the search (native/) restates the rule in C: tests/unit/test_native.py
    # holds its choices equal to the Python search's.


def test_definite_candidates_on_a_real_pair() -> None:
    import meteor

    m = meteor.Meteor("meteor-1.5")
    r = m.score("the cat sat on the mat", "a cat sat on a mat")
    cands = list(r.candidates)
    got = walk.definite_candidates(cands, len(r.alignment.hyp), len(r.alignment.ref))
    # cat, sat, on, mat are each the only candidate on both sides; "the"/"a" are not matched
    assert sorted(cands[k].hyp.start for k in got) == [1, 2, 3, 5]


def test_perfect_segment_rule_is_one_function() -> None:
    from meteor import scoring, stats

    assert rules.is_perfect_segment(3, 3, 4, 4, 1)
    assert not rules.is_perfect_segment(3, 3, 4, 4, 2)
    assert not rules.is_perfect_segment(2, 3, 4, 4, 1)
    assert not rules.is_perfect_segment(3, 3, 3, 4, 1)
    assert scoring.is_perfect_segment is rules.is_perfect_segment
    assert stats.is_perfect_segment is rules.is_perfect_segment


def test_perfect_segment_both_uses() -> None:
    import meteor

    m = meteor.Meteor("meteor-1.5")
    same = m.score("the cat sat on the mat", "the cat sat on the mat")
    assert same.stats.is_perfect and same.frag == 0.0 and same.score > 0.99
    assert same.stats.corpus_contribution(perfect_rule=True).chunks == 0  # MeteorStats.addStats
    other = m.score("the cat sat on the mat", "on the mat the cat sat")
    assert not other.stats.is_perfect and other.frag > 0
    assert other.stats.corpus_contribution(perfect_rule=True).chunks == other.stats.chunks
