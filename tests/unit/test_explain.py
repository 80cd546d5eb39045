"""meteor.analysis.explain.parts: what-if losses, near misses, sensitivity, walkthrough helpers.

Expected values are hand arithmetic on the seed documentation's worked example
(``seed-doc`` preset: Fmean = 10PR/(R+9P), penalty 0.5·chunks/matches, punctuation dropped):
hypothesis "Under the starry night, we danced with glee." and reference "We danced with
joy under the starry night." give 8 + 8 tokens, 7 matches in 2 chunks, P = R = 7/8,
Fmean = 0.875, penalty = 0.5·2/7 and score 0.875·(1 − 1/7) = 0.75.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from pytest import approx

from meteor import Meteor
from meteor.analysis import compare_settings
from meteor.analysis.explain import parts as explain
from meteor.analysis.explain import walkthrough as walk
from meteor.chunking import chunk_matches
from meteor.module_registry import Module
from meteor.scoring import compute, stats_from_alignment
from meteor.types import Alignment

STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
SCRAMBLED = ("Danced we with under joy the night starry.", STARRY[1])
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")
FOX_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)

CASES = [
    ("seed-doc", *STARRY),
    ("seed-doc", *SCRAMBLED),
    ("meteor-1.5", *FOX),
    ("meteor-1.5", *STARRY),
    ("nltk", *FOX),
    ("paper-2005", *FOX),
    ("meteor-1.5-universal", *FOX),
    ("meteor-1.5-ru", *FOX_RU),
    ("meteor-1.5", "", "the cat"),
    ("meteor-1.5", "a b c", "x y z"),
    ("meteor-1.5", "the cat sat", "the cat sat"),
]


@pytest.fixture(scope="module")
def scored() -> dict[tuple[str, str, str], tuple[Meteor, object]]:
    out = {}
    for preset, hyp, ref in CASES:
        m = Meteor(preset)
        out[(preset, hyp, ref)] = (m, m.score(hyp, ref))
    return out


def _get(scored, preset, hyp, ref):  # type: ignore[no-untyped-def]
    return scored[(preset, hyp, ref)]


# -- waterfall -----------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "hyp", "ref"), CASES)
def test_waterfall_losses_sum_to_one_minus_score(scored, preset, hyp, ref):  # type: ignore[no-untyped-def]
    m, r = _get(scored, preset, hyp, ref)
    steps = explain.waterfall(r.stats, m.params)
    assert [s.key for s in steps] == list(explain.WATERFALL_STEPS)
    assert steps[0].value == 1.0
    assert steps[-1].value == r.score
    losses = [-s.value for s in steps[1:-1]]
    assert all(x >= -1e-12 for x in losses)
    assert sum(losses) == approx(1.0 - r.score, abs=1e-12)
    assert steps[-2].level == approx(r.score, abs=1e-12)


def test_waterfall_seed_doc_by_hand(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *STARRY)
    assert r.score == approx(0.75)
    wf = {s.key: s.value for s in explain.waterfall(r.stats, m.params)}
    # every stage weight is 1: no partial credit; fragmentation = Fmean · penalty
    assert wf["partial_credit"] == approx(0.0, abs=1e-12)
    assert -wf["fragmentation"] == approx(0.875 * 0.5 * 2 / 7)
    # unmatched: F(P, R=1) with P = 7/8 is 10·7/8/(1 + 9·7/8); both sides then share 1 − 0.875
    f_p = 10 * (7 / 8) / (1 + 9 * 7 / 8)
    f_r = 10 * (7 / 8) / (7 / 8 + 9)
    assert -wf["unmatched_hyp"] == approx(((1 - f_p) + (f_r - 0.875)) / 2)
    assert -wf["unmatched_ref"] == approx(((1 - f_r) + (f_p - 0.875)) / 2)


def test_waterfall_partial_credit_when_stages_weigh_less(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", *FOX)  # two synonym matches at weight 0.8
    wf = {s.key: s.value for s in explain.waterfall(r.stats, m.params)}
    unit = m.params.replace(weights=tuple((x, 1.0) for x in m.params.modules))
    assert -wf["partial_credit"] == approx(compute(r.stats, unit).fmean - r.fmean)
    assert -wf["partial_credit"] > 0


def test_waterfall_no_match_splits_evenly(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", "a b c", "x y z")
    wf = {s.key: s.value for s in explain.waterfall(r.stats, m.params)}
    assert wf["unmatched_hyp"] == wf["unmatched_ref"] == approx(-0.5)
    assert wf["score"] == 0.0


# -- what single words and breaks cost --------------------------------------------------


def test_unmatched_costs_seed_doc_by_hand(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *STARRY)
    costs = {(c.side, c.word): c for c in explain.unmatched_costs(r, m.params)}
    assert set(costs) == {("hyp", "glee"), ("ref", "joy")}
    # "joy" matched: R = 1, 7 + 8 matched words, still 2 chunks
    f = 10 * (7 / 8) * 1 / (1 + 9 * 7 / 8)
    assert costs[("ref", "joy")].score_if_matched == approx(f * (1 - 0.5 * 2 / 7.5))
    # "glee" matched: P = 1 instead
    f = 10 * 1 * (7 / 8) / (7 / 8 + 9 * 1)
    assert costs[("hyp", "glee")].score_if_matched == approx(f * (1 - 0.5 * 2 / 7.5))
    assert all(c.gain == approx(c.score_if_matched - 0.75) for c in costs.values())
    assert all(c.module is Module.EXACT for c in costs.values())


def test_unmatched_costs_cover_every_unmatched_word(scored):  # type: ignore[no-untyped-def]
    for (preset, _, _), (m, r) in scored.items():
        costs = explain.unmatched_costs(r, m.params)
        n_unmatched = r.alignment.hyp_matched().count(False) + r.alignment.ref_matched().count(
            False
        )
        assert len(costs) == n_unmatched, preset
        assert [c.gain for c in costs] == sorted((c.gain for c in costs), reverse=True)


def test_chunk_break_costs_seed_doc(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *STARRY)
    (brk,) = explain.chunk_break_costs(r, m.params)
    # chunks in reference order: "we danced with" (hyp 4-6), "under the starry night" (hyp 0-3)
    assert (brk.hyp_left, brk.hyp_right, brk.ref_left, brk.ref_right) == (
        "with",
        "under",
        "with",
        "under",
    )
    assert brk.score_if_joined == approx(0.875 * (1 - 0.5 * 1 / 7))
    assert brk.gain == approx(brk.score_if_joined - 0.75)


def test_chunk_breaks_count_and_words(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *SCRAMBLED)  # 8 chunks: 7 breaks
    breaks = explain.chunk_break_costs(r, m.params)
    assert len(breaks) == r.stats.chunks - 1 == 7
    al = r.alignment
    for b, (c1, c2) in zip(breaks, zip(al.chunks, al.chunks[1:], strict=False), strict=True):
        assert b.before == c1.index
        assert b.hyp_left == al.hyp_words[c1.hyp.end - 1]
        assert b.ref_right == al.ref_words[c2.ref.start]
    # with the seed-doc formula: 7 chunks over 8 matches
    assert breaks[0].score_if_joined == approx(1.0 * (1 - 0.5 * 7 / 8))


# -- near misses ------------------------------------------------------------------------


def test_near_miss_from_a_stage_not_enabled(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *STARRY)
    near = explain.near_misses(r, m)
    para = [n for n in near if n.match.module is Module.PARAPHRASE]
    assert para, "the English paraphrase table pairs glee with joy"
    n = para[0]
    assert (n.match.hyp_words, n.match.ref_words) == (("glee",), ("joy",))
    assert n.reason == "stage_off"
    assert "meteor-1.5" in n.presets
    # re-scored by adding the match to the alignment (chunks recounted) with weight 0.6
    al = r.alignment
    stats = stats_from_alignment(
        (*al.matches, n.match), [t.function_word for t in al.hyp], [t.function_word for t in al.ref]
    )
    p = m.params.replace(
        modules=(*m.params.modules, Module.PARAPHRASE),
        weights=(*m.params.weights, (Module.PARAPHRASE, 0.6)),
        aligner="beam",  # scoring only; the stage-wise aligner cannot take paraphrases
    )
    assert n.weight == 0.6
    assert n.score_if_added == approx(compute(stats, p).score)
    assert n.gain == approx(n.score_if_added - r.score)


def test_near_miss_proposed_but_not_chosen() -> None:
    """A candidate of an enabled stage that the alignment leaves out is reported as not chosen."""
    m = Meteor("meteor-1.5")
    r = m.score(*FOX)
    keep = tuple(x for x in r.matches if x.hyp_words != ("fast",))
    al = r.alignment
    stats = stats_from_alignment(
        keep, [t.function_word for t in al.hyp], [t.function_word for t in al.ref]
    )
    bd = compute(stats, m.params)
    partial = replace(
        r,
        alignment=Alignment(al.hyp, al.ref, keep, chunk_matches(keep)),
        stats=stats,
        breakdown=bd,
    )
    near = explain.near_misses(partial, m)
    fast = [n for n in near if n.match.hyp_words == ("fast",)]
    assert {n.match.module for n in fast} >= {Module.SYNONYM}
    assert all(n.reason == "not_chosen" for n in fast)
    syn = next(n for n in fast if n.match.module is Module.SYNONYM)
    assert syn.score_if_added == approx(r.score)  # adding it back restores the record


def test_near_misses_only_touch_unmatched_words(scored):  # type: ignore[no-untyped-def]
    for (_, _, _), (m, r) in scored.items():
        used_h = {i for x in r.matches for i in x.hyp}
        used_r = {j for x in r.matches for j in x.ref}
        for n in explain.near_misses(r, m):
            assert not set(n.match.hyp) & used_h
            assert not set(n.match.ref) & used_r


def test_near_misses_russian_synonym_stage(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5-ru", *FOX_RU)
    near = explain.near_misses(r, m)
    assert all(n.reason in ("stage_off", "not_chosen", "stemmer") for n in near)
    mods = {n.match.module for n in near}
    # every stage the language offers (the embedding stage too, issue 31)
    assert mods <= {Module.SYNONYM, Module.LEMMA, Module.STEM, Module.EXACT, Module.EMBEDDING}


# -- sensitivity ----------------------------------------------------------------------------


def test_sensitivity_curves(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", *FOX)
    curves = {c.param: c for c in compare_settings.sensitivity(r.stats, m.params, points=21)}
    assert set(curves) == {"alpha", "beta", "gamma", "delta"}
    for c in curves.values():
        assert len(c.xs) == len(c.ys) == 21
        assert c.current_y == approx(r.score)
        assert all(0.0 <= y <= 1.0 for y in c.ys)
    a = curves["alpha"]
    # Fmean = PR/(αP + (1−α)R): α = 0 gives P, α = 1 gives R
    assert (a.xs[0], a.xs[-1]) == (0.0, 1.0)
    assert a.ys[0] == approx(r.precision * (1 - r.penalty))
    assert a.ys[-1] == approx(r.recall * (1 - r.penalty))
    g = curves["gamma"]
    assert g.ys[0] == approx(r.fmean)  # γ = 0: no penalty
    assert curves["beta"].xs[-1] == approx(3.0)  # β range: max(3, 2β)
    assert curves["alpha"].current_x == 0.85


# -- two settings ----------------------------------------------------------------------------


def test_match_diff() -> None:
    a = Meteor("meteor-1.5").score(*FOX)
    b = Meteor("meteor-1.5-universal").score(*FOX)  # exact + paraphrase only
    d = compare_settings.match_diff(a, b)
    assert d.same_tokens
    only_a = {(x.hyp_words, x.ref_words) for x in d.only_a}
    assert (("fast",), ("quick",)) in only_a or any(x.hyp_words == ("fast",) for x, _ in d.both)
    assert len(d.only_a) + len(d.both) == len(a.matches)
    assert len(d.only_b) + len(d.both) == len(b.matches)
    same = compare_settings.match_diff(a, a)
    assert not same.only_a and not same.only_b and len(same.both) == len(a.matches)


def test_match_diff_pairs_by_words_when_tokens_differ() -> None:
    a = Meteor("meteor-1.5").score(*STARRY)
    b = Meteor("nltk").score(*STARRY)  # nltk keeps "night," and "glee." as tokens
    d = compare_settings.match_diff(a, b)
    assert not d.same_tokens
    only_a = sorted((m.hyp_words, m.ref_words) for m in d.only_a)
    # "we", "danced", ... are matched by both (at other positions): not listed
    assert only_a == [((".",), (".",)), (("glee",), ("joy",)), (("night",), ("night",))]
    assert not d.only_b  # nltk's "night," / "night." do not match
    assert len(d.only_a) + len(d.both) == len(a.matches)
    assert len(d.only_b) + len(d.both) == len(b.matches)


# -- walkthrough ---------------------------------------------------------------------------


def test_stage_steps_fox(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", *FOX)
    steps = walk.stage_steps(r, m)
    assert [s.module for s in steps] == list(m.params.modules)
    by = {s.module: s for s in steps}
    exact = {(x.hyp_words, x.ref_words) for x in by[Module.EXACT].candidates}
    assert exact == {(("brown",), ("brown",)), (("fox",), ("fox",)), (("over",), ("over",)),
                     (("lazy",), ("lazy",)), (("dog",), ("dog",))}  # fmt: skip
    syn = {(x.hyp_words, x.ref_words) for x in by[Module.SYNONYM].candidates}
    assert syn == {(("fast",), ("quick",)), (("leapt",), ("jumps",))}
    assert all(x.detail.startswith("WordNet 3.0 synset") for x in by[Module.SYNONYM].candidates)
    assert by[Module.SYNONYM].new_words == 2
    assert len(by[Module.SYNONYM].chosen) == 2
    # paraphrase duplicates (both table directions) are merged
    spans = [(x.hyp, x.ref) for x in by[Module.PARAPHRASE].candidates]
    assert len(spans) == len(set(spans))


def test_stage_steps_show_stems() -> None:
    m = Meteor("meteor-1.5")
    r = m.score("the members were discussing", "the member discussed")
    stem = next(s for s in walk.stage_steps(r, m) if s.module is Module.STEM)
    details = {x.hyp_words[0]: x.detail for x in stem.candidates}
    assert details["members"] == "same stem “member”"
    assert details["discussing"] == "same stem “discuss”"


@pytest.mark.parametrize(("preset", "hyp", "ref"), [c for c in CASES if c[0].startswith("meteor")])
def test_definite_candidates_are_chosen(scored, preset, hyp, ref):  # type: ignore[no-untyped-def]
    m, r = _get(scored, preset, hyp, ref)
    definite = walk.definite_candidates(r.candidates, len(r.alignment.hyp), len(r.alignment.ref))
    chosen = {(x.module, x.hyp, x.ref) for x in r.matches}
    for k in definite:
        c = r.candidates[k]
        assert (c.module, c.hyp, c.ref) in chosen


def test_definite_candidates_rule() -> None:
    m = Meteor("meteor-1.5")
    r = m.score("the cat the dog", "the dog")  # "the" twice: not definite; "dog" once: definite
    d = walk.definite_candidates(r.candidates, 4, 2)
    assert [r.candidates[k].hyp_words for k in d] == [("dog",)]


def test_formula_lines_substitute_the_breakdown(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "seed-doc", *STARRY)
    bd = m.breakdown(r)
    lines = {x.key: x for x in walk.formula_lines(r.stats, bd, m.params)}
    assert list(lines) == ["len_hyp", "len_ref", "m_hyp", "m_ref", "precision", "recall",
                           "fmean", "frag", "penalty", "score"]  # fmt: skip
    assert lines["precision"].numeric == "P = 3.5000 / 4.0000 = 0.8750"
    assert lines["score"].numeric.endswith("= 0.7500")
    assert "\\frac{2}{(7 + 7)/2}" in lines["frag"].numeric
    ru = walk.formula_lines(r.stats, bd, m.params, fmt=lambda x: f"{x:.3f}".replace(".", ","))
    assert ru[-1].numeric.endswith("= 0{,}750")  # a decimal comma stays a comma in LaTeX


def test_formula_lines_nan(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", "", "the cat")
    lines = {x.key: x for x in walk.formula_lines(r.stats, m.breakdown(r), m.params)}
    assert "\\text{NaN}" in lines["precision"].numeric
    assert lines["score"].numeric.endswith("= 0.0000")
    assert math.isnan(r.precision)


def test_token_table(scored):  # type: ignore[no-untyped-def]
    m, r = _get(scored, "meteor-1.5", *FOX)
    rows = explain.token_table(r)
    hyp = [x for x in rows if x.side == "hyp"]
    ref = [x for x in rows if x.side == "ref"]
    assert [x.text for x in hyp] == list(r.alignment.hyp_words)
    assert [x.source for x in hyp][:2] == ["A", "fast"]
    assert ref[0].source == "The" and ref[0].text == "the"
    assert hyp[1].module is Module.SYNONYM and hyp[0].module is None
    assert hyp[0].function_word
