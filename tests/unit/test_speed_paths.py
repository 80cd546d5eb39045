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


def test_a_corpus_run_looks_each_block_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """score_segments prefetches each block of pairs; scoring a pair does not again."""
    hyps = [HYP, "the governor spoke", "an interview"]
    refs = [REF, "the acting governor spoke", "in an interview"]
    expected = [r.to_dict() for r in meteor.Meteor("meteor-1.5").score_segments(hyps, refs)]
    monkeypatch.setattr(metric, "_SHARED_CACHES", {})
    calls: list[int] = []
    many = ParaphraseTable.phrases_many

    def counted(self: ParaphraseTable, sentences: Any) -> Any:
        calls.append(len(sentences))
        return many(self, sentences)

    monkeypatch.setattr(ParaphraseTable, "phrases_many", counted)
    got = [r.to_dict() for r in meteor.Meteor("meteor-1.5").score_segments(hyps, refs)]
    assert calls == [6]  # one block, every sentence once; no call per pair
    assert got == expected


@pytest.mark.parametrize("name", ["Span", "Token", "Match", "Chunk"])
def test_hand_written_record_constructors_match_their_fields(name: str) -> None:
    """Span, Token, Match and Chunk fill their slots by hand (made per word and per
    match); their ``__init__`` must take exactly the dataclass fields, in order, with the
    same defaults, and set every one."""
    import dataclasses
    import inspect

    from meteor import types

    cls = getattr(types, name)
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        default = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == default, f.name
    args = {"Span": (2, 5), "Token": ("cat", 0, 3, True)}.get(name)
    if args is None:
        span = types.Span(0, 1)
        args = (
            (types.Module.STEM, span, span, ("a",), ("b",), "why", 0.5)
            if name == "Match"
            else (3, span, span, (0, 1))
        )
    rec = cls(*args)
    assert dataclasses.astuple(rec) == tuple(
        dataclasses.astuple(a) if dataclasses.is_dataclass(a) else a for a in args
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rec, fields[0].name, args[0])
    assert dataclasses.replace(rec) == rec


def test_span_and_alignment_still_refuse_bad_records() -> None:
    from meteor.module_registry import Module
    from meteor.types import Alignment, Match, Span, Token

    for start, end in [(2, 2), (-1, 1), (3, 1)]:
        with pytest.raises(ValueError, match="bad span"):
            Span(start, end)
    toks = tuple(Token(w, 0, 1) for w in "abcd")
    m = Match(Module.EXACT, Span(0, 2), Span(1, 3), ("a", "b"), ("b", "c"))
    with pytest.raises(ValueError, match="hypothesis token 1 is aligned twice"):
        Alignment(toks, toks, (m, Match(Module.EXACT, Span(1, 2), Span(3, 4), ("b",), ("d",))), ())
    with pytest.raises(ValueError, match="reference token 2 is aligned twice"):
        Alignment(toks, toks, (m, Match(Module.EXACT, Span(3, 4), Span(2, 3), ("d",), ("c",))), ())
    with pytest.raises(ValueError, match="hypothesis token 4 is aligned twice or out of range"):
        Alignment(toks, toks, (Match(Module.EXACT, Span(3, 5), Span(0, 2), (), ()),), ())
    assert Alignment(toks, toks, (m,), ()).matches == (m,)
