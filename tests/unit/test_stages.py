"""The stages (issue 14): each built-in stage on small real pairs, the registry, and a toy
stage plugged in with one line that flows through params, record, statistics, score,
signature and figures.

Candidate tuples are ``(module, hyp_start, hyp_end, ref_start, ref_end, detail, similarity)``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import meteor
from meteor import Meteor, Module, Params
from meteor.analysis.explain.walkthrough import formula_lines
from meteor.analysis.resampling import row_stats, stats_matrix
from meteor.errors import CandidateLimitError, ParamError, ResourceError
from meteor.languages import get_language
from meteor.module_registry import MODULE_ORDER, stage_modules
from meteor.scoring import compute
from meteor.stages import embedding as emb
from meteor.stages.base import Candidate, MatchContext, Stage, StageBase
from meteor.stages.registry import (
    get_stage,
    propose_all_raw,
    register_stage,
    stage_code,
    stage_names,
    unregister_stage,
)
from meteor.stats import Stats
from meteor.viz import figures

PROJECT_ROOT = Path(__file__).resolve().parents[2]
EN = Params()  # the Meteor 1.5 English defaults: exact, stem, synonym, paraphrase
RU = Params(
    lang="ru",
    modules=("exact", "lemma", "stem", "synonym"),
    weights={"exact": 1.0, "lemma": 1.0, "stem": 1.0, "synonym": 1.0},
)


def context(hyp: str, ref: str, params: Params = EN, limit: int | None = None) -> MatchContext:
    return MatchContext(hyp.split(), ref.split(), params, get_language(params.lang), limit=limit)


def spans(cands: list[Candidate]) -> list[tuple[int, int, int, int]]:
    return [(hs, he, rs, re_) for _, hs, he, rs, re_, _, _ in cands]


def in_lattice_order(cands: list[Candidate]) -> bool:
    """Meteor 1.5 adds a stage's matches by reference position, then hypothesis position."""
    keys = [(rs, hs) for _, hs, _, rs, _, _, _ in cands]
    return keys == sorted(keys)


# ------------------------------------------------------------------ built-in stages


def test_exact() -> None:
    ctx = context("cats cat the", "the cat cats")
    cands = get_stage("exact").candidates(ctx)
    assert spans(cands) == [(2, 3, 0, 1), (1, 2, 1, 2), (0, 1, 2, 3)]
    assert all(c[0] is Module.EXACT and c[5] == "" and c[6] is None for c in cands)


def test_stem() -> None:
    ctx = context("the cats are running quickly", "the cat runs fast")
    cands = get_stage("stem").candidates(ctx)
    assert [(c[1], c[3], c[5]) for c in cands] == [
        (1, 1, "same stem “cat”"),
        (3, 2, "same stem “run”"),
    ]
    # equal words are exact's, never stem's
    assert get_stage("stem").candidates(context("cat", "cat")) == []


def test_synonym() -> None:
    ctx = context("he bought a car", "he purchased an automobile")
    cands = get_stage("synonym").candidates(ctx)
    assert [(c[1], c[3], c[5]) for c in cands] == [
        (1, 1, "WordNet 3.0 synset 02207206"),
        (3, 3, "WordNet 3.0 synset 02958343"),
    ]


def test_synonym_index_gives_the_same_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    from meteor.stages import synonym

    hyp = "the cats are running quickly and cats run " * 4
    ref = "a cat runs fast and the cat is running " * 4
    direct = get_stage("synonym").candidates(context(hyp, ref))
    monkeypatch.setattr(synonym, "INDEX_PAIRS", 0)
    indexed = get_stage("synonym").candidates(context(hyp, ref))
    assert indexed == direct and len(direct) > 20 and in_lattice_order(direct)


def test_paraphrase_n_to_m() -> None:
    ctx = context("he bought a car", "he purchased an automobile")
    cands = get_stage("paraphrase").candidates(ctx)
    # Meteor 1.5's ParaphraseMatcher order (not sorted): "bought a" ~ "purchased an" is
    # n:m, and a pair the table holds twice is proposed twice, as the jar does
    assert spans(cands) == [(1, 2, 1, 2), (3, 4, 3, 4), (1, 2, 1, 2), (1, 3, 1, 3), (3, 4, 3, 4)]
    assert {c[5] for c in cands} == {"paraphrase table"}


def test_paraphrase_prefetch_changes_nothing() -> None:
    stage = get_stage("paraphrase")
    assert stage.prefetches
    lang = get_language("en")
    walked = context("he bought a car", "he purchased an automobile")
    stage.prefetch([walked.hs, walked.rs], lang)
    assert walked.hs.has_phrases() and walked.rs.has_phrases()
    fresh = context("he bought a car", "he purchased an automobile")
    assert stage.candidates(walked) == stage.candidates(fresh)


def test_lemma() -> None:
    ctx = context("быстрая собака бежала", "стремительный пёс бежит", RU)
    cands = get_stage("lemma").candidates(ctx)
    assert [(c[0], c[1], c[3], c[5]) for c in cands] == [
        (Module.LEMMA, 2, 2, "same lemma “бежать”")
    ]
    synonyms = get_stage("synonym").candidates(ctx)
    assert [(c[1], c[3]) for c in synonyms] == [(0, 0), (1, 1), (2, 2)]
    assert synonyms[0][5].startswith("wiki-ru-wordnet")


@pytest.mark.skipif(not emb.navec_available(), reason="navec/natasha not installed")
def test_embedding() -> None:
    params = Params(
        lang="ru",
        modules=("exact", "embedding"),
        weights={"exact": 1.0, "embedding": 1.0},
        embedding_threshold=0.4,
    )
    cands = get_stage("embedding").candidates(context("унылую собачку", "грустную собаку", params))
    assert [(c[1], c[3], c[5]) for c in cands] == [
        (0, 0, "navec cosine 0.44"),
        (1, 1, "navec cosine 0.45"),
    ]
    assert all(c[0] is Module.EMBEDDING and isinstance(c[6], float) for c in cands)


def test_stages_run_in_the_params_order_each_in_lattice_order() -> None:
    ctx = context("the cats are running quickly", "the cat runs fast")
    stages = propose_all_raw(ctx, EN.modules)
    assert [{c[0] for c in s} for s in stages] == [{m} for m in EN.modules]
    assert all(in_lattice_order(s) for s in stages[:3])  # paraphrase: the jar's own order
    # every stage proposes all it finds, also words an earlier stage matched
    assert (1, 2, 1, 2) in spans(stages[1]) and (1, 2, 1, 2) in spans(stages[2])


def test_candidate_limits() -> None:
    with pytest.raises(CandidateLimitError) as one:
        get_stage("exact").candidates(context("a a a", "a a a", limit=8))
    assert (one.value.found, one.value.limit, one.value.module) == (9, 8, "exact")
    # each stage under the limit, all of them together over it
    ctx = context("the cats are running quickly", "the cat runs fast", limit=2)
    with pytest.raises(CandidateLimitError) as total:
        propose_all_raw(ctx, EN.modules)
    assert (total.value.module, total.value.found) == ("stem", 3)  # exact 1 + stem 2


# ------------------------------------------------------------------------ registry


def test_registry_lists_the_builtin_stages() -> None:
    assert stage_names()[: len(MODULE_ORDER)] == tuple(m.value for m in MODULE_ORDER)
    for m in MODULE_ORDER:
        stage = get_stage(m)
        assert isinstance(stage, Stage)
        assert stage.name is m and get_stage(m.value) is stage
    # the signature codes did not move
    assert [stage_code(m) for m in MODULE_ORDER] == ["ex", "st", "sy", "pa", "le", "em"]
    with pytest.raises(ValueError, match="no stage named 'nope'"):
        get_stage("nope")


def test_registry_has_no_import_side_effects() -> None:
    code = (
        "import sys\n"
        "import meteor.stages.registry as r\n"
        "print(sorted(m for m in sys.modules if m.startswith('meteor.stages.')))\n"
        "r.get_stage('stem')\n"
        "print(sorted(m for m in sys.modules if m.startswith('meteor.stages.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == [
        "['meteor.stages.base', 'meteor.stages.registry']",
        "['meteor.stages.base', 'meteor.stages.registry', 'meteor.stages.stem']",
    ]


def test_stage_resources_load_with_their_labels() -> None:
    seen: list[str] = []
    Meteor("meteor-1.5").prepare(lambda frac, msg: seen.append(msg))
    for label in ("stemmer", "synonyms", "paraphrase table", "function words"):
        assert f"loading {label}" in seen
    assert seen[-1] == "ready"


def test_unavailable_stage_messages() -> None:
    with pytest.raises(ParamError, match=r"modules: lemma not available for language 'en'"):
        Meteor(params=Params(modules=("exact", "lemma"), weights={"exact": 1, "lemma": 1}))
    with pytest.raises(ParamError, match="stemmer must be one of"):
        Meteor("meteor-1.5", stemmer="nope")
    hint = get_stage("embedding").resource_hint(get_language("ru"))
    assert hint is not None and "pip install natasha" in hint
    assert get_stage("embedding").resource_hint(get_language("en")) is None


# ---------------------------------------------------------------------- a toy stage


class ToyStage(StageBase):
    """Words with the same first three letters (and different keys) match."""

    name = "toy"
    code = "to"

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        out: list[Candidate] = []
        for j, r in enumerate(ctx.ref):
            for i, h in enumerate(ctx.hyp):
                if h[:3] == r[:3] and ctx.hyp_keys[i] != ctx.ref_keys[j]:
                    out.append(
                        (self.module, i, i + 1, j, j + 1, f"same first letters “{r[:3]}”", None)
                    )
            ctx.check(len(out), self.module)
        return out


class NeedsDataStage(StageBase):
    """A stage whose data is not installed anywhere."""

    name = "needs_data"
    code = "nd"

    def available(self, language: object) -> bool:
        return False

    def resource_hint(self, language: object) -> str | None:
        return "the toy data is missing: pip install toy-data"


@pytest.fixture
def toy() -> Iterator[Module]:
    module = register_stage(ToyStage())  # the one line that plugs a stage in
    yield module
    unregister_stage("toy")


TOY_PARAMS = {"modules": ("exact", "toy"), "weights": {"exact": 1.0, "toy": 0.5}}


def test_toy_name_is_refused_until_registered() -> None:
    with pytest.raises(ParamError, match="unknown module 'toy'"):
        Params(**TOY_PARAMS)  # type: ignore[arg-type]


def test_toy_stage_end_to_end(toy: Module) -> None:
    assert toy == "toy" and isinstance(toy, Module) and Module("toy") is toy
    assert list(Module) == list(MODULE_ORDER)  # the enumeration itself is unchanged
    assert stage_names()[-1] == "toy" and toy in stage_modules()
    scorer = Meteor(params=Params(**TOY_PARAMS))  # type: ignore[arg-type]
    r = scorer.score("fast cats running", "cats runner fast")
    assert not any(t.function_word for t in (*r.alignment.hyp, *r.alignment.ref))
    # the record
    assert [(m.module.value, m.hyp.start, m.ref.start) for m in r.matches] == [
        ("exact", 1, 0),
        ("toy", 2, 1),
        ("exact", 0, 2),
    ]
    toy_match = r.matches[1]
    assert toy_match.module is toy and toy_match.detail == "same first letters “run”"
    assert toy_match.to_dict()["module"] == "toy"
    # the statistics: the six built-in stages as before, then the toy stage
    content = r.stats.to_dict()["hyp_content_matches"]
    assert content == {
        "exact": 2,
        "stem": 0,
        "synonym": 0,
        "paraphrase": 0,
        "lemma": 0,
        "embedding": 0,
        "toy": 1,
    }
    assert Stats.from_dict(r.stats.to_dict()) == r.stats
    assert r.stats.to_meteor_vector(scorer.params.modules)[4:12] == [2, 2, 0, 0, 1, 1, 0, 0]
    # the signature
    assert "|mods:ex+to|w:1/0.5|" in r.signature
    # the score by hand: 2 exact (weight 1) + 1 toy (weight 0.5) of 3 words a side,
    # δ = 0.75 cancels; chunks "cats runner" and "fast": frag = 2/3
    p = rr = 2.5 / 3
    fmean = p * rr / (0.85 * p + 0.15 * rr)
    penalty = 0.6 * (2 / 3) ** 0.2
    assert r.precision == pytest.approx(p, abs=1e-12)
    assert r.recall == pytest.approx(rr, abs=1e-12)
    assert r.chunks == 2
    assert r.score == pytest.approx(fmean * (1 - penalty), abs=1e-12)
    # "why this score" and the formula take the toy stage like any other
    why = meteor.explain_score(r, scorer)
    assert why.score == r.score
    lines = {f.key: f for f in formula_lines(r.stats, scorer.breakdown(r), scorer.params)}
    assert "+ 0.5000\\cdot(0.7500\\cdot 1 + " in lines["m_hyp"].numeric  # the toy term
    # its weight is applied: at weight 1 the toy match counts fully
    full = Meteor(params=Params(modules=("exact", "toy"), weights={"exact": 1.0, "toy": 1.0}))
    assert full.score("fast cats running", "cats runner fast").precision == 1.0


def test_toy_stage_in_a_corpus_and_figures(toy: Module) -> None:
    scorer = Meteor(params=Params(**TOY_PARAMS))  # type: ignore[arg-type]
    corpus = scorer.corpus_score(
        ["fast cats running", "the dog barked", "cats run"], ["cats runner fast", "a dog", "cat"]
    )
    assert corpus.stats.to_dict()["ref_content_matches"]["toy"] == 2  # runner, cat
    assert corpus.stats == sum((s.stats for s in corpus.segments), Stats())
    # the bootstrap's statistics matrix has the toy stage's columns
    sums = stats_matrix(corpus.segments, scorer.params).sum(axis=0)
    assert compute(row_stats(sums), scorer.params).score == corpus.score
    r = corpus.segments[0]
    fig = figures.link_view(
        r.alignment, candidates=r.candidates, weights=dict(scorer.params.weights)
    )
    toy_traces = [t for t in fig.data if t.legendgroup == "toy"]
    assert toy_traces and toy_traces[0].line.dash == figures.OTHER_STAGE_DASH
    assert toy_traces[0].line.color == figures.OTHER_STAGE_COLOR
    matrix = figures.matrix_view(r.alignment)
    assert any((t.meta or {}).get("module") == "toy" for t in matrix.data)


def test_registering_checks_name_and_code(toy: Module) -> None:
    with pytest.raises(ValueError, match="built-in stage"):
        register_stage(type("Exact2", (ToyStage,), {"name": "exact"})())
    with pytest.raises(ValueError, match="registered already"):
        register_stage(ToyStage())
    with pytest.raises(ValueError, match="code 'ex' is taken by stage 'exact'"):
        register_stage(type("Other", (ToyStage,), {"name": "other", "code": "ex"})())
    with pytest.raises(ValueError, match="stage name"):
        register_stage(type("Bad", (ToyStage,), {"name": "Bad Name", "code": "bn"})())
    with pytest.raises(ValueError, match="cannot be unregistered"):
        unregister_stage("exact")


def test_a_stage_without_its_data_says_what_to_install() -> None:
    register_stage(NeedsDataStage())
    try:
        with pytest.raises(ResourceError, match="pip install toy-data"):
            Meteor(
                params=Params(
                    modules=("exact", "needs_data"), weights=(("exact", 1), ("needs_data", 1))
                )
            )
    finally:
        unregister_stage("needs_data")
    with pytest.raises(ValueError):
        Module("needs_data")
