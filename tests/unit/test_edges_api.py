"""Issue 13 item 19 and item 15: every public parameter is validated with a message
that names the field and what it accepts; nothing is parsed loosely or iterated by
accident, and no combination ends in an internal error."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meteor
from meteor import Meteor
from meteor.module_registry import Module
from meteor.params import ParamError, Params, parse_modules
from meteor.runners.parallel import score_corpus


@pytest.fixture(scope="module")
def nltk_scorer() -> Meteor:
    return Meteor("nltk")


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        # a string would be iterated letter by letter ("unknown module 'e'")
        ({"modules": "exact stem"}, r"modules must be a sequence of module names.*'exact stem'"),
        ({"modules": 3}, r"modules must be a sequence of module names"),
        ({"modules": ("exact", 3)}, r"modules: a module is named by a string"),
        # strings are not numbers: float("1_0") == 10.0, float("0.5") hides a typing bug
        ({"alpha": "0.5"}, r"alpha must be a number in \[0\.0, 1\.0\], got '0\.5' \(a string"),
        ({"beta": "1_0"}, r"beta must be a number in \[0\.0, 20\.0\], got '1_0'"),
        ({"gamma": b"0.5"}, r"gamma must be a number"),
        ({"delta": [0.5]}, r"delta must be a number"),
        ({"beam_size": "40"}, r"beam_size must be a number in \[1, 10000\]"),
        ({"embedding_threshold": "0.4"}, r"embedding_threshold must be a number"),
        ({"weights": "exact=1"}, r"weights must be a mapping such as"),
        ({"weights": 1.0}, r"weights must be a mapping such as"),
        ({"weights": {"exact": "1", "stem": 1, "synonym": 1, "paraphrase": 1}}, r"weights\[exact\]"),
        ({"stemmer": "  "}, r"stemmer must be a stemmer name"),
    ],
)  # fmt: skip
def test_bad_values_name_the_field_and_what_it_accepts(
    overrides: dict[str, Any], match: str
) -> None:
    with pytest.raises(ParamError, match=match):
        Meteor("meteor-1.5", **overrides)


def test_numpy_numbers_are_numbers() -> None:
    p = Meteor("meteor-1.5", alpha=np.float64(0.5), beam_size=np.int64(12)).params
    assert (p.alpha, p.beam_size) == (0.5, 12)
    assert isinstance(p.alpha, float) and isinstance(p.beam_size, int)


def test_modules_string_is_refused_in_params_and_from_dict() -> None:
    with pytest.raises(ParamError, match="parse_modules"):
        Params(modules="exact")  # type: ignore[arg-type]
    with pytest.raises(ParamError, match="'exact stem'"):
        Params.from_dict({"modules": "exact stem"})
    with pytest.raises(ParamError, match="params must be a mapping"):
        Params.from_dict(["alpha"])  # type: ignore[arg-type]
    assert parse_modules("exact stem") == (Module.EXACT, Module.STEM)


def test_stagewise_aligner_refuses_the_paraphrase_stage_at_settings_time() -> None:
    # before: accepted, then "align_stagewise takes one-word candidates only" while scoring
    with pytest.raises(ParamError, match=r"aligner 'stagewise'.*cannot use the paraphrase"):
        Meteor("paper-2005", modules=("exact", "paraphrase"))
    with pytest.raises(ParamError, match="aligner='beam'"):
        Meteor("meteor-1.5", aligner="stagewise")
    assert Meteor("paper-2005").score("a b", "a b").score > 0.9  # no paraphrase: fine


@pytest.mark.parametrize("chunk_size", [-1, 0, 2.5, True, "8"])
def test_chunk_size_is_validated(nltk_scorer: Meteor, chunk_size: Any) -> None:
    hyps = [f"w{k} x" for k in range(400)]  # distinct pairs, enough to go parallel
    with pytest.raises(ValueError, match=r"chunk_size must be a whole number of segments"):
        score_corpus(nltk_scorer, hyps, hyps, workers=2, chunk_size=chunk_size)


@pytest.mark.parametrize("workers", [0, -3, 1.5, True, "2"])
def test_workers_is_validated(nltk_scorer: Meteor, workers: Any) -> None:
    with pytest.raises(ValueError, match=r"workers must be a whole number of at least 1"):
        score_corpus(nltk_scorer, ["a"], ["a"], workers=workers)


@pytest.mark.parametrize("preset", ["meteor-1.5", "nltk"])
@pytest.mark.parametrize(
    ("texts", "match"),
    [
        ([None], r"texts\[0\] must be a string, got NoneType"),
        (["ok", 3], r"texts\[1\] must be a string, got int"),
        (None, r"texts must be a list of strings, got NoneType"),
        ("abc", r"texts must be a list of strings, got str"),
    ],
)
def test_prefetch_validates_its_texts(preset: str, texts: Any, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        Meteor(preset).prefetch(texts)


def test_prefetch_accepts_any_iterable_of_strings() -> None:
    m = Meteor("meteor-1.5")
    m.prefetch(t for t in ["the cat", "a dog"])
    assert m.score("the cat", "a dog").score == meteor.score("the cat", "a dog").score
