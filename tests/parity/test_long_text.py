"""Long natural text: a 2,300-word document pair is aligned by the 1.5 beam as the jar does.

The first 120 segments of WMT21 ru-en (hypotheses and first references of the Meteor 1.5
expected-value file), each side joined with single spaces into one document.  The expected
values were computed with the original jar (``../shared/tools/meteor15/meteor15.py --norm``
on that one pair): score 0.3548396877618163, 2,335 matches in 1,710 chunks.  It has about
140,000 candidate matches, which the beam once refused (``CandidateLimitError``).
"""

from __future__ import annotations

import os

import pytest
from conftest import SHARED_DATA, native_part, read_jsonl_gz, require_shared

import meteor
from meteor.aligners import beam
from meteor.aligners.base import CANDIDATE_LIMIT_ENV, MAX_CANDIDATES
from meteor.aligners.beam import MAX_BEAM_CANDIDATES
from meteor.stages.base import CandidateLimitError

JAR_SCORE = 0.3548396877618163
JAR_MATCHES = 2_335
JAR_CHUNKS = 1_710


@pytest.fixture(scope="module")
def document() -> tuple[str, str]:
    path = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz")
    segs = []
    for d in read_jsonl_gz(path):
        segs.append(d)
        if len(segs) == 120:
            break
    return " ".join(d["hyp"] for d in segs), " ".join(d["refs"][0] for d in segs)


def test_document_pair_scores_as_the_jar(document: tuple[str, str]) -> None:
    hyp, ref = document
    assert os.environ.get(CANDIDATE_LIMIT_ENV) is None
    r = meteor.Meteor("meteor-1.5").score(hyp, ref, candidates=False)
    assert abs(r.score - JAR_SCORE) < 1e-9
    assert round(r.score, 5) == 0.35484
    assert len(r.alignment.matches) == JAR_MATCHES
    assert r.chunks == JAR_CHUNKS
    assert len(r.alignment.hyp) == 2_665 and len(r.alignment.ref) == 2_747


def test_c_and_python_searches_choose_the_same_document_alignment(
    document: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wide C search (sides over 256 words) and the Python one: the same matches."""
    hyp, ref = document
    native = native_part("_beam", "the beam search")
    records = []
    for search in (native.beam_choice, None):
        monkeypatch.setattr(beam, "NATIVE_SEARCH", search)
        monkeypatch.setattr(beam, "NATIVE_MAX_WORDS", native.MAX_WORDS)
        meteor.metric._SHARED_CACHES.clear()
        records.append(meteor.Meteor("meteor-1.5").score(hyp, ref, candidates=False))
    with_c, in_python = records
    assert with_c.alignment.matches == in_python.alignment.matches
    assert len(with_c.alignment.matches) == JAR_MATCHES
    assert with_c.score == in_python.score


def test_limit_names_itself_and_how_to_raise_it(
    document: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hyp, ref = document
    assert MAX_BEAM_CANDIDATES > 140_000 > MAX_CANDIDATES
    monkeypatch.setenv(CANDIDATE_LIMIT_ENV, "100000")
    with pytest.raises(CandidateLimitError) as err:
        meteor.Meteor("meteor-1.5").score(hyp, ref, candidates=False)
    msg = str(err.value)
    assert "more than the 100,000 accepted" in msg
    assert CANDIDATE_LIMIT_ENV in msg
    assert "repeated" not in msg  # natural text: no word is repeated "many times"


def test_default_beam_limit_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CANDIDATE_LIMIT_ENV, raising=False)
    with pytest.raises(CandidateLimitError) as err:
        meteor.Meteor("meteor-1.5").score("dog " * 1000, "dog " * 1000)
    msg = str(err.value)
    assert "more than the 250,000 accepted" in msg
    assert "meteor.aligners.beam.MAX_BEAM_CANDIDATES" in msg and CANDIDATE_LIMIT_ENV in msg


def test_environment_limit_is_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CANDIDATE_LIMIT_ENV, "lots")
    with pytest.raises(ValueError, match=CANDIDATE_LIMIT_ENV):
        meteor.Meteor("meteor-1.5").score("a cat", "the cat")
    monkeypatch.setenv(CANDIDATE_LIMIT_ENV, "1_000")
    assert meteor.Meteor("meteor-1.5").candidate_limit() == 1_000
