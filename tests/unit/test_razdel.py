"""razdel as a selectable Russian tokenizer (issue #8): offsets line up with the text."""

from __future__ import annotations

import pytest

from meteor import Meteor, Module, ParamError, Params
from meteor.text.tokenize_ru import razdel_tokens

pytest.importorskip("razdel")

TEXTS = [
    "Быстрая коричневая лиса прыгнула на грустную собаку.",
    "Он сказал: «Привет!» — и ушёл... 3,5 млн. т.е. Нью-Йорк",
    "  Пробелы\tи\u00a0табуляция , «кавычки»  ",
    "ЁЖ и Ёлка: 2010-х годов (см. выше)?!",
    "",
    "   ",
    "Mixed English и русский text, e-mail: a@b.ru",
]


@pytest.mark.parametrize("text", TEXTS)
def test_offsets_line_up(text: str) -> None:
    toks = razdel_tokens(text, lower=False)
    prev = 0
    for t in toks:
        assert text[t.start : t.end] == t.text
        assert prev <= t.start < t.end <= len(text)
        assert not any(c.isspace() for c in t.text)
        prev = t.end
    # nothing but whitespace is left out
    covered = {k for t in toks for k in range(t.start, t.end)}
    assert all(text[k].isspace() for k in range(len(text)) if k not in covered)


def test_seed_sentence() -> None:
    toks = razdel_tokens("Быстрая коричневая лиса прыгнула на грустную собаку.")
    assert [t.text for t in toks] == [
        "быстрая",
        "коричневая",
        "лиса",
        "прыгнула",
        "на",
        "грустную",
        "собаку",
        ".",
    ]
    assert (toks[0].start, toks[0].end, toks[-1].start, toks[-1].end) == (0, 7, 51, 52)


def test_lower_and_no_punct() -> None:
    text = "Он сказал: «Привет!»"
    assert [t.text for t in razdel_tokens(text)] == ["он", "сказал", ":", "«", "привет", "!", "»"]
    kept = razdel_tokens(text, no_punct=True, lower=False)
    assert [t.text for t in kept] == ["Он", "сказал", "Привет"]
    assert all(text[t.start : t.end] == t.text for t in kept)


def test_differs_from_meteor_norm() -> None:
    """razdel keeps «» and Нью-Йорк; Meteor's -norm rewrites quotes and splits hyphens."""
    text = "«Нью-Йорк» 3,5"
    razdel = Meteor("meteor-1.5-ru", tokenizer="razdel").tokenize(text)
    meteor = Meteor("meteor-1.5-ru").tokenize(text)
    assert [t.text for t in razdel] == ["«", "нью-йорк", "»", "3,5"]
    assert [t.text for t in razdel] != [t.text for t in meteor]
    for toks in (razdel, meteor):
        assert all(t.start < t.end for t in toks)


def test_facade_offsets_and_case() -> None:
    text = "Он сказал: «Привет!»"
    kept = Meteor("meteor-1.5-ru", tokenizer="razdel", norm="none").tokenize(text)
    assert [t.text for t in kept] == ["Он", "сказал", ":", "«", "Привет", "!", "»"]
    assert all(text[t.start : t.end] == t.text for t in kept)
    r = Meteor("meteor-1.5-ru", tokenizer="razdel").score(text, "Он сказал «привет»")
    assert r.alignment.hyp[4].text == "привет"
    assert text[r.alignment.hyp[4].start : r.alignment.hyp[4].end] == "Привет"


def test_param_validation_and_signature() -> None:
    p = Params(
        lang="ru", modules=(Module.EXACT,), weights=((Module.EXACT, 1.0),), tokenizer="razdel"
    )
    assert "tok:razdel" in p.signature()
    assert "tok:" not in p.replace(tokenizer="meteor").signature()
    assert Params.from_dict(p.to_dict()) == p
    with pytest.raises(ParamError, match="tokenizer must be one of"):
        Params(lang="ru", tokenizer="spacy")  # type: ignore[arg-type]
    with pytest.raises(ParamError, match="Russian tokenizer"):
        Params(lang="en", tokenizer="razdel")
