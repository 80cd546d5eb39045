"""The analysis entry points (``correlate``, ``tune``, ``report``) say what they take
when given the wrong kind of thing (issue 39's hostile pass): a file name or a list
raised ``AttributeError``/``dictionary update sequence element #0 …``, and a length
edge of ``10**400`` an ``OverflowError``."""

from __future__ import annotations

from typing import Any

import pytest

import meteor


@pytest.mark.parametrize("judged", ["judged.tsv", [1, 2], None])
def test_correlate_and_tune_take_a_judged_corpus(judged: Any) -> None:
    with pytest.raises(TypeError, match="correlate takes a Judged corpus"):
        meteor.correlate(judged)
    with pytest.raises(TypeError, match="tune takes a Judged corpus"):
        meteor.tune(judged)


@pytest.mark.parametrize("corpus", [["a b"], "a b", 3])
def test_report_takes_a_corpus_or_a_mapping(corpus: Any) -> None:
    with pytest.raises(TypeError, match=r"report takes a Corpus .* or a mapping"):
        meteor.report(corpus, ["a c"])


@pytest.mark.parametrize("edge", [10**400, float("nan"), -1])
def test_report_length_edges_are_finite(edge: Any) -> None:
    with pytest.raises(ValueError, match="bucket edges must be non-negative numbers") as exc:
        meteor.report({"A": ["a b"] * 5}, ["a c"] * 5, length_edges=(edge,), n_samples=40)
    assert len(str(exc.value)) < 400
