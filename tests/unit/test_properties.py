"""Invariants of every record, for random sentences over a small vocabulary (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor import Meteor, Stats

VOCAB = [
    "the", "a", "cat", "cats", "dog", "dogs", "sat", "sits", "sitting", "on", "mat", "mats",
    "quick", "fast", "brown", "fox", "jumps", "jumped", "leapt", "over", "lazy", "and", "of",
    ".", ",", "run", "running", "ran", "big", "large",
]  # fmt: skip
sentence = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=14).map(" ".join)

PRESETS = ["meteor-1.5-paper2005", "paper-2005", "nltk", "seed-doc"]
SCORERS = {name: Meteor(name) for name in PRESETS}
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_record(m: Meteor, hyp: str, ref: str) -> None:
    r = m.score(hyp, ref)
    assert 0.0 <= r.score <= 1.0
    assert not math.isnan(r.score)
    # one-to-one alignment
    hyp_used = [i for mt in r.alignment.matches for i in mt.hyp]
    ref_used = [j for mt in r.alignment.matches for j in mt.ref]
    assert len(hyp_used) == len(set(hyp_used))
    assert len(ref_used) == len(set(ref_used))
    # chunks partition the matches, each chunk contiguous on both sides
    in_chunks = sorted(k for c in r.alignment.chunks for k in c.matches)
    assert in_chunks == list(range(len(r.alignment.matches)))
    for c in r.alignment.chunks:
        ms = [r.alignment.matches[k] for k in c.matches]
        assert sum(len(x.hyp) for x in ms) == len(c.hyp)
        assert sum(len(x.ref) for x in ms) == len(c.ref)
    assert r.stats.chunks == len(r.alignment.chunks)
    if r.alignment.matches:
        assert 1 <= r.stats.chunks <= len(r.alignment.matches)
    assert r.stats.hyp_word_matches == len(hyp_used)
    assert r.stats.hyp_len == len(r.alignment.hyp)


@pytest.mark.parametrize("preset", PRESETS)
@FAST
@given(hyp=sentence, ref=sentence)
def test_record_invariants(preset: str, hyp: str, ref: str) -> None:
    check_record(SCORERS[preset], hyp, ref)


@FAST
@given(text=sentence.filter(lambda s: s.strip() != ""))
def test_identical_sentences(text: str) -> None:
    # Meteor 1.5 presets: perfect match scores exactly 1.0 (frag 0 rule).
    r = SCORERS["meteor-1.5-paper2005"].score(text, text)
    assert r.score == 1.0
    assert r.precision == 1.0 and r.recall == 1.0 and r.stats.chunks == 1
    # NLTK and the 2005 paper have no perfect rule: 1 − 0.5·(1/n)³.
    n = len(r.alignment.hyp)
    for name in ("nltk", "paper-2005"):
        r2 = SCORERS[name].score(text, text)
        assert r2.precision == 1.0 and r2.recall == 1.0 and r2.stats.chunks == 1
        assert r2.score == pytest.approx(1 - 0.5 * (1 / n) ** 3)


@FAST
@given(pairs=st.lists(st.tuples(sentence, sentence), min_size=1, max_size=6))
def test_corpus_stats_are_the_sum(pairs: list[tuple[str, str]]) -> None:
    m = SCORERS["meteor-1.5-paper2005"]
    c = m.corpus_score([h for h, _ in pairs], [r for _, r in pairs])
    total = Stats()
    for s in c.segments:
        total = total + s.stats.corpus_contribution(perfect_rule=True)
    assert c.stats == total
    plain = Stats()
    for s in c.segments:
        plain = plain + s.stats
    # the only difference Meteor 1.5 makes: chunks of perfect segments are not summed
    assert plain.chunks - c.stats.chunks == sum(1 for s in c.segments if s.stats.is_perfect)
    assert c.mean_segment_score == pytest.approx(sum(s.score for s in c.segments) / len(pairs))
