"""The public entry points say what they take when given the wrong kind of thing (the
hostile pass of issue 39): ``Meteor(params="hf")`` and ``explain("a b", "c d")`` raised
``AttributeError: 'str' object has no attribute 'aligner'``."""

from __future__ import annotations

from typing import Any

import pytest

import meteor
from meteor import Meteor, ParamError, Params


@pytest.mark.parametrize("params", ["hf", {"alpha": 0.5}, 0.5])
def test_meteor_params_must_be_params(params: Any) -> None:
    with pytest.raises(ParamError, match=r"params must be a meteor\.Params .*got "):
        Meteor(params=params)


def test_a_params_given_as_the_preset_says_where_it_goes() -> None:
    with pytest.raises(ParamError, match="pass a Params as params="):
        Meteor(Params())  # type: ignore[arg-type]


def test_params_still_work() -> None:
    p = meteor.get_preset("hf").params.replace(alpha=0.5)
    assert Meteor(params=p).score("the cat", "the cat").score > 0


@pytest.mark.parametrize(("result", "scorer"), [("a b", "c d"), (None, None), (["a"], None)])
def test_explain_takes_a_result(result: Any, scorer: Any) -> None:
    with pytest.raises(TypeError, match="explain takes a MeteorResult"):
        meteor.explain(result, scorer)


def test_explain_scorer_is_a_meteor_or_params() -> None:
    result = meteor.score("a b", "c d", preset="hf")
    with pytest.raises(
        TypeError, match=r"the scorer must be the Meteor or the Params.*Meteor\('hf'\)"
    ):
        meteor.explain(result, "hf")  # type: ignore[arg-type]
    assert meteor.explain(result, Meteor("hf")).score == result.score
    assert meteor.explain(result, Meteor("hf").params).score == result.score
