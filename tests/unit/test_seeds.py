"""The seed documents' worked examples, through the whole pipeline (issue #2)."""

from __future__ import annotations

import pytest

import meteor

STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
SCRAMBLED = (
    "Danced we with under joy the night starry.",
    "We danced with joy under the starry night.",
)
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")


def test_doc_page_first_example() -> None:
    # P = R = 7/8, Fmean 0.875, 2 chunks over 7 matches, penalty 0.5·2/7 = 0.143, score 0.750
    r = meteor.score(*STARRY, preset="seed-doc")
    assert r.precision == pytest.approx(7 / 8)
    assert r.recall == pytest.approx(7 / 8)
    assert r.fmean == pytest.approx(0.875)
    assert r.stats.chunks == 2
    assert r.stats.hyp_word_matches == 7
    assert round(r.penalty, 3) == 0.143
    assert round(r.score, 3) == 0.750
    chunks = [
        (" ".join(r.alignment.hyp_words[c.hyp.start : c.hyp.end]),
         " ".join(r.alignment.ref_words[c.ref.start : c.ref.end]))
        for c in r.alignment.chunks
    ]  # fmt: skip
    assert chunks == [("we danced with", "we danced with"),
                      ("under the starry night", "under the starry night")]  # fmt: skip
    unmatched = [t.text for t, ok in zip(r.alignment.hyp, r.alignment.hyp_matched(), strict=True)
                 if not ok]  # fmt: skip
    assert unmatched == ["glee"]


def test_doc_page_second_example() -> None:
    # all 8 words matched, 8 chunks: penalty 0.5, score 0.5
    r = meteor.score(*SCRAMBLED, preset="seed-doc")
    assert r.precision == 1.0 and r.recall == 1.0
    assert r.stats.chunks == 8
    assert r.penalty == pytest.approx(0.5)
    assert r.score == pytest.approx(0.5)


def test_nltk_fox() -> None:
    # the Russian notebook's nltk cell and dependencies.md: 0.7687 (exact brown fox over lazy dog;
    # synonyms fast→quick, leapt→jump(s) found on the Porter stem; 7 matches, 2 chunks)
    r = meteor.score(*FOX, preset="nltk")
    assert f"{r.score:.4f}" == "0.7687"
    assert r.score == pytest.approx(0.7687074829931974, abs=1e-12)
    assert r.stats.hyp_word_matches == 7 and r.stats.chunks == 2
    syn = sorted((m.hyp_words[0], m.ref_words[0]) for m in r.matches if m.module.value == "synonym")
    assert syn == [("fast", "quick"), ("leapt", "jumps")]


@pytest.mark.parametrize(
    ("pair", "preset", "expected"),
    [  # meteor-1.5.md section 16 (values printed by the jar)
        (STARRY, "meteor-1.5", 0.48181306111753197),
        (SCRAMBLED, "meteor-1.5", 0.4),
        (FOX, "meteor-1.5", 0.45176202934445225),
        (STARRY, "meteor-1.5-paper2005-naive", 0.77890625),
        (FOX, "meteor-1.5-paper2005-naive", 0.8565597667638484),
        (STARRY, "meteor-1.5-paper2005", 0.855940934065934),
        (FOX, "meteor-1.5-paper2005", 0.7687074829931972),
    ],
)
def test_meteor15_golden_values(pair: tuple[str, str], preset: str, expected: float) -> None:
    assert meteor.score(*pair, preset=preset).score == pytest.approx(expected, abs=1e-12)


def test_meteor15_golden_without_norm() -> None:
    m = meteor.Meteor("meteor-1.5", norm="none")
    assert m.score(*STARRY).score == pytest.approx(0.212297627565478, abs=1e-12)
    assert m.score(*SCRAMBLED).score == pytest.approx(0.17777777777777778, abs=1e-12)
    c = m.corpus_score([STARRY[0], SCRAMBLED[0], FOX[0]], [STARRY[1], SCRAMBLED[1], FOX[1]])
    assert c.score == pytest.approx(0.27922587750567557, abs=1e-12)
    assert c.score != pytest.approx(c.mean_segment_score)


def test_default_corpus_golden() -> None:
    c = meteor.corpus_score([STARRY[0], SCRAMBLED[0], FOX[0]], [STARRY[1], SCRAMBLED[1], FOX[1]])
    assert c.score == pytest.approx(0.4298727421032579, abs=1e-12)
    assert "preset:meteor-1.5|" in c.signature
