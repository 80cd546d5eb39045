"""Speed paths give the same records: one vectorised paraphrase look-up per scored pair."""

from __future__ import annotations

from typing import Any

import pytest

import meteor
from meteor import metric
from meteor.languages.paraphrase import ParaphraseTable

HYP = "The acting head of the region spoke about his trip in an exclusive interview"
REF = "In an exclusive interview, the acting governor told the newspaper about his journey"


def test_score_looks_both_sides_up_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = meteor.Meteor("meteor-1.5").score(HYP, REF).to_dict()
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})  # no sentence work kept from above
    calls: list[int] = []
    many = ParaphraseTable.phrases_many

    def counted(self: ParaphraseTable, sentences: Any) -> Any:
        calls.append(len(sentences))
        return many(self, sentences)

    def one_by_one(self: ParaphraseTable, words: Any) -> Any:
        raise AssertionError("a sentence was looked up on its own")

    monkeypatch.setattr(ParaphraseTable, "phrases_many", counted)
    monkeypatch.setattr(ParaphraseTable, "phrases", one_by_one)
    got = meteor.Meteor("meteor-1.5").score(HYP, REF).to_dict()
    assert calls == [2]  # the hypothesis and the reference: one call
    assert got == expected
