"""The facade ``meteor.metric.Meteor``: its contracts, checked on small pairs by hand.

Most tests use the exact stage alone with δ = 0.5 (plain ratios), α 0.9, β 3, γ 0.5
(the 2005 formula), so every number can be worked out on paper:
``P = m/len(hyp)``, ``R = m/len(ref)``, ``Fmean = PR/(αP + (1−α)R)``,
``frag = chunks/m``, ``penalty = γ·frag^β``, ``score = Fmean·(1 − penalty)``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import pytest

from meteor.aligners import base as aligners_base
from meteor.aligners import register_aligner
from meteor.aligners.base import CANDIDATE_LIMIT_ENV, MAX_CANDIDATES, Aligner
from meteor.errors import CandidateLimitError, SettingsMismatchError
from meteor.metric import MAX_CHARS, Meteor
from meteor.module_registry import Module
from meteor.params import Params
from meteor.stages.base import Candidate, MatchContext

EXACT_2005 = Params(
    lang="en",
    alpha=0.9,
    beta=3.0,
    gamma=0.5,
    delta=0.5,
    modules=(Module.EXACT,),
    weights=((Module.EXACT, 1.0),),
)


@pytest.fixture
def scorer() -> Meteor:
    return Meteor(params=EXACT_2005)


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A private copy of the aligner registry for the test."""
    monkeypatch.setattr(aligners_base, "_REGISTRY", dict(aligners_base._REGISTRY))


# -- score --------------------------------------------------------------------------


def test_score_gives_the_whole_record(scorer: Meteor) -> None:
    r = scorer.score("The cat  sat", "the cat sat down")
    assert [(t.text, t.start, t.end) for t in r.alignment.hyp] == [
        ("the", 0, 3),
        ("cat", 4, 7),
        ("sat", 9, 12),
    ]
    assert [(m.hyp.start, m.ref.start, m.module) for m in r.alignment.matches] == [
        (0, 0, Module.EXACT),
        (1, 1, Module.EXACT),
        (2, 2, Module.EXACT),
    ]
    assert r.chunks == 1 and r.hyp == "The cat  sat" and r.refs == ("the cat sat down",)
    # P = 3/3, R = 3/4, Fmean = 0.75 / (0.9 + 0.075); frag = 1/3, penalty = 0.5/27.
    fmean = 0.75 / (0.9 * 1.0 + 0.1 * 0.75)
    assert r.precision == 1.0 and r.recall == 0.75
    assert r.fmean == pytest.approx(fmean, rel=1e-15)
    assert r.penalty == pytest.approx(0.5 / 27, rel=1e-15)
    assert r.score == pytest.approx(fmean * (1 - 0.5 / 27), rel=1e-15)
    assert scorer.breakdown(r).score == r.score
    assert len(r.candidates) == 3
    json.dumps(r.to_dict(candidates=True))  # a record is plain data


def test_candidates_false_keeps_the_numbers_and_drops_the_list(scorer: Meteor) -> None:
    full = scorer.score("the cat the dog", "the dog the cat")
    bare = scorer.score("the cat the dog", "the dog the cat", candidates=False)
    assert len(full.candidates) == 6 and bare.candidates == ()
    assert bare == full  # candidates take no part in equality
    assert bare.alignment.matches == full.alignment.matches


def test_several_references_the_best_wins_and_the_first_wins_ties(scorer: Meteor) -> None:
    r = scorer.score("the cat sat", ["a dog", "the cat sat", "the cat sat"])
    assert r.best_ref_index == 1  # 2 ties with 1: the first of them wins
    assert r.ref_scores[1] == r.ref_scores[2] == r.score == 1.0
    assert r.ref_scores[0] == 0.0
    assert r.signature == scorer.signature(3) and r.signature.endswith("|nrefs:3")
    assert r.refs == ("a dog", "the cat sat", "the cat sat")
    assert r.alignment.ref_words == ("the", "cat", "sat")


def test_score_errors(scorer: Meteor) -> None:
    with pytest.raises(ValueError, match="at least one reference"):
        scorer.score("a", [])
    with pytest.raises(TypeError, match="the hypothesis must be a string"):
        scorer.score(3, "a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="reference 2 must be a string"):
        scorer.score("a", ["a", None])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="refs must be a string or a list"):
        scorer.score("a", 5)  # type: ignore[arg-type]


# -- corpus ---------------------------------------------------------------------------


def test_corpus_sums_the_statistics(scorer: Meteor) -> None:
    hyps = ["the cat the dog", "a b"]
    refs = ["the dog the cat", "a c"]
    c = scorer.corpus_score(hyps, refs)
    # Segment 1: 4 matches in 2 chunks ("the dog", "the cat"): 1 · (1 − 0.5 · 0.5³).
    # Segment 2: 1 match, 1 chunk, P = R = 1/2: 0.5 · (1 − 0.5 · 1³).
    assert [s.score for s in c.segments] == [0.9375, 0.25]
    assert c.mean_segment_score == (0.9375 + 0.25) / 2
    # Summed: 5 matches of 6 words a side, 3 chunks: Fmean 5/6, frag 3/5.
    assert c.stats.chunks == 3 and c.stats.hyp_len == c.stats.ref_len == 6
    assert c.fmean == pytest.approx(5 / 6, rel=1e-15)
    assert c.score == pytest.approx(5 / 6 * (1 - 0.5 * 0.6**3), rel=1e-15)
    assert c == scorer.combine(scorer.score_segments(hyps, refs))
    assert c.signature == scorer.signature(1)


def test_corpus_errors_name_the_segment(scorer: Meteor) -> None:
    with pytest.raises(ValueError, match="hypotheses have 2 segments but references have 1"):
        scorer.corpus_score(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="hyps must be a list"):
        scorer.corpus_score("a b", ["a"])
    with pytest.raises(TypeError, match="refs must be a list"):
        scorer.corpus_score(["a"], "a")
    with pytest.raises(ValueError, match="^segment 2: at least one reference"):
        scorer.corpus_score(["a", "b"], [["a"], []])
    with pytest.raises(TypeError, match="^segment 1: the hypothesis must be a string"):
        scorer.corpus_score([None], ["a"])  # type: ignore[list-item]


def test_combine_refuses_segments_of_other_settings(scorer: Meteor) -> None:
    other = Meteor(params=EXACT_2005.replace(gamma=0.4))
    seg = other.score("a b", "a c")
    with pytest.raises(SettingsMismatchError) as err:
        scorer.combine([scorer.score("a b", "a c"), seg])
    assert "g:0.4" in str(err.value) and "g:0.5" in str(err.value)


def test_identical_pairs_share_one_record(scorer: Meteor) -> None:
    segs = scorer.score_segments(["a b", "x", "a b"], ["a c", "x", "a c"])
    assert segs[0] is segs[2] and segs[1].score == 1.0


# -- pieces ---------------------------------------------------------------------------


def test_tokenize_keeps_offsets_and_refuses_bad_text(scorer: Meteor) -> None:
    text = "Hello,  world!"
    toks = scorer.tokenize(text)
    assert [(t.text, text[t.start : t.end]) for t in toks] == [
        ("hello", "Hello"),
        (",", ","),
        ("world", "world"),
        ("!", "!"),
    ]
    assert scorer.tokenize(text) is toks  # memoised
    with pytest.raises(TypeError, match="the text must be a string"):
        scorer.tokenize(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"the draft has {MAX_CHARS + 1:,} characters"):
        scorer.tokenize("a" * (MAX_CHARS + 1), what="the draft")
    with pytest.raises(ValueError, match="lone surrogate"):
        scorer.tokenize("a \ud800 b")


def test_candidates_are_per_stage_and_limited() -> None:
    two = Meteor(params=EXACT_2005.replace(modules=(Module.EXACT, Module.STEM)))
    exact, stem = two.candidates(["cats", "sat"], ["cat", "sat"])
    assert [(m.hyp.start, m.ref.start) for m in exact] == [(1, 1)]
    # StemMatcher: equal stems and different words ("sat" = "sat" is exact's alone).
    assert [(m.hyp.start, m.ref.start, m.module) for m in stem] == [(0, 0, Module.STEM)]
    n = int(MAX_CANDIDATES**0.5) + 1  # n² exact candidates: one over the limit
    with pytest.raises(CandidateLimitError):
        two.candidates(["a"] * n, ["a"] * n)


def test_align_gives_the_choice_among_the_candidates(scorer: Meteor) -> None:
    chosen, cands = scorer.align("the cat the dog".split(), "the dog the cat".split())
    assert len(cands) == 6 and set(chosen) <= set(cands)
    assert [(m.hyp.start, m.ref.start) for m in chosen] == [(2, 0), (3, 1), (0, 2), (1, 3)]


def test_signature_is_computed_once_per_number_of_references(scorer: Meteor) -> None:
    one = scorer.signature()
    assert scorer.signature(1) is one
    assert scorer.signature(2) is scorer.signature(2)
    assert scorer.signature(2) == one.replace("|nrefs:1", "|nrefs:2")
    assert "|align:beam40|" in one
    assert "|align:beam12|" in Meteor(params=EXACT_2005.replace(beam_size=12)).signature()


# -- a registered aligner through the facade --------------------------------------------


class NothingAligner(Aligner):
    """Chooses no candidate; its limit is 3 candidates."""

    def candidate_limit(self, params: Params) -> int:
        return 3

    def limit_hint(self, params: Params, exc: CandidateLimitError) -> str:
        return f"the toy {params.aligner!r} takes {exc.limit} at most"

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> list[int]:
        return []


class FirstWordsAligner(Aligner):
    """Proposes its own single candidate (first word to first word) and takes it."""

    uses_stages = False

    def propose(self, ctx: MatchContext) -> list[list[Candidate]]:
        return [[(Module.EXACT, 0, 1, 0, 1, "first words", None)]]

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> list[int]:
        return [0]


def test_a_registered_aligner_is_what_the_facade_uses(
    registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_aligner("nothing", NothingAligner)
    m = Meteor(params=EXACT_2005.replace(aligner="nothing"))
    r = m.score("a cat", "a cat")
    assert r.alignment.matches == () and r.chunks == 0 and r.score == 0.0
    assert len(r.candidates) == 2  # the stages still proposed
    assert m.candidate_limit() == 3
    with pytest.raises(CandidateLimitError, match="the toy 'nothing' takes 3 at most$"):
        m.score("a a", "a a")  # 4 candidates
    monkeypatch.setenv(CANDIDATE_LIMIT_ENV, "10")
    assert m.candidate_limit() == 10
    assert m.score("a a", "a a").score == 0.0
    monkeypatch.setenv(CANDIDATE_LIMIT_ENV, "2")
    with pytest.raises(CandidateLimitError, match=f"environment variable {CANDIDATE_LIMIT_ENV}$"):
        m.score("a a", "a a")


def test_an_aligner_may_propose_its_own_candidates(registry: None) -> None:
    register_aligner("first-words", FirstWordsAligner)
    m = Meteor(params=EXACT_2005.replace(aligner="first-words"))
    r = m.score("dog cat", "cat dog")  # the exact stage would propose two others
    assert [(x.hyp_words, x.ref_words, x.detail) for x in r.alignment.matches] == [
        (("dog",), ("cat",), "first words")
    ]
    assert r.candidates == r.alignment.matches
    # P = R = 1/2, one chunk of one match: frag 1, penalty 0.5.
    assert r.score == 0.5 * (1 - 0.5)
    chosen, cands = m.align(["x", "y"], ["z"])
    assert chosen == cands and [(c.hyp_words, c.ref_words) for c in chosen] == [(("x",), ("z",))]


def test_long_pairs_score_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """From GC_PAUSE_WORD_PAIRS (hyp × ref words) on, score() pauses the cyclic collector."""
    import contextlib

    from meteor import metric

    paused: list[int] = []

    @contextlib.contextmanager
    def recording() -> Iterator[None]:
        paused.append(1)
        yield

    monkeypatch.setattr(metric, "gc_paused", recording)
    m = Meteor("meteor-1.5")
    side = int(metric.GC_PAUSE_WORD_PAIRS**0.5)
    short = " ".join(f"w{k}" for k in range(side - 1))
    long = " ".join(f"w{k}" for k in range(side))
    assert m.score(short, short).score > 0.99
    assert paused == []
    assert m.score(long, long).score > 0.99
    assert paused == [1]
    # GC_PAUSE_CHAR_PAIRS: long texts of few long words pause it before they are tokenised
    words = " ".join(f"{k:011d}" for k in range(100))  # 1,199 characters
    wide = words + " x"
    assert len(words) ** 2 < metric.GC_PAUSE_CHAR_PAIRS <= len(wide) ** 2
    paused.clear()
    assert m.score(words, words).score > 0.99
    assert paused == []
    assert m.score(wide, wide).score > 0.99
    assert paused == [1]  # 101 × 101 words: under GC_PAUSE_WORD_PAIRS, paused for its length
