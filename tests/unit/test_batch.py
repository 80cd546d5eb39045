"""One corpus runner (issue 32, items 5 and 6): every way of running a corpus drives
:mod:`meteor.batch`; its input checks exist once and say the same everywhere."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from meteor import Meteor, batch
from meteor.errors import InputError
from meteor.runners import parallel
from meteor.runners.cluster import score_corpus_dask, score_stream

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scorer() -> Meteor:
    return Meteor("nltk")


def _runners(scorer: Meteor) -> dict[str, Any]:
    """Each corpus runner, called with (hyps, refs, size); no cluster is reached when the
    inputs are refused (the checks come before any worker is asked)."""
    return {
        "Meteor.corpus_score": lambda h, r, size: scorer.corpus_score(h, r),
        "parallel.score_corpus": lambda h, r, size: parallel.score_corpus(
            scorer, h, r, workers=2, chunk_size=size
        ),
        "score_corpus_dask": lambda h, r, size: score_corpus_dask(
            scorer, h, r, client=None, partition_size=size
        ),
    }


@pytest.mark.parametrize(
    ("hyps", "refs", "error", "message"),
    [
        ([], [], InputError, "no segments: hyps and refs are empty"),
        (["a", "b"], ["a"], ValueError, "hypotheses have 2 segments but references have 1"),
        ("a b", ["a b"], TypeError, "hyps must be a list of strings"),
        (["a"], "a", TypeError, "refs must be a list with one entry per segment"),
    ],
)
@pytest.mark.parametrize(
    "runner", ["Meteor.corpus_score", "parallel.score_corpus", "score_corpus_dask"]
)
def test_every_runner_refuses_bad_corpus_inputs_alike(
    scorer: Meteor, runner: str, hyps: Any, refs: Any, error: type[Exception], message: str
) -> None:
    """Before: an empty corpus gave worker processes and Dask a score of 0.0 (one process
    refused it), and each runner had its own copy of the other checks."""
    with pytest.raises(error, match=message):
        _runners(scorer)[runner](hyps, refs, None)


@pytest.mark.parametrize("size", [0, -1, 2.5, True, "8"])
@pytest.mark.parametrize("runner", ["parallel.score_corpus", "score_corpus_dask"])
def test_every_runner_refuses_a_bad_chunk_size_alike(
    scorer: Meteor, runner: str, size: Any
) -> None:
    """Before: Dask took ``partition_size=2.5`` and failed later, and ``"8"`` gave a bare
    ``TypeError`` from a comparison."""
    with pytest.raises(ValueError, match=r"_size must be a whole number of segments, at least 1"):
        _runners(scorer)[runner](["a"], ["a"], size)


@pytest.mark.parametrize("size", [0, 2.5, "8"])
def test_streaming_refuses_a_bad_partition_size(scorer: Meteor, size: Any) -> None:
    with pytest.raises(ValueError, match=r"partition_size must be a whole number of segments"):
        next(score_stream(scorer, iter([("a", "a")]), client=None, partition_size=size))


def test_every_runner_scores_with_the_one_loop(
    scorer: Meteor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process and the worker processes' serial path run :func:`meteor.batch.score_segments`."""
    calls: list[int] = []
    loop = batch.score_segments

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append(len(args[1]))
        return loop(*args, **kw)

    monkeypatch.setattr(batch, "score_segments", counted)
    hyps, refs = ["a b c", "a b d", "a b c"], ["a b c", "a c d", "a b c"]
    one = scorer.corpus_score(hyps, refs)
    many = parallel.score_corpus(scorer, hyps, refs, workers=2)  # small: stays here
    assert calls == [3, 3]
    assert [s.score for s in one.segments] == [s.score for s in many.segments]
    assert one.score == many.score


def _string_constants(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "segments but references have",
        "must be a list with one entry per segment",
        "no segments: hyps",
    ],
)
def test_the_corpus_checks_are_written_once(text: str) -> None:
    """Each check's message is written in one module of the package: meteor/batch.py."""
    found = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "meteor").rglob("*.py")
        if any(text in s for s in _string_constants(path))
    )
    assert found == ["meteor/batch.py"]


def test_combine_and_stream_totals_sum_alike(scorer: Meteor) -> None:
    """Corpus combining lives in one place: a streamed total equals :meth:`Meteor.combine`."""
    from meteor.runners.cluster import StreamTotals

    segs = scorer.score_segments(["a b c", "x y", "a b"], [["a b c"], ["x z", "x y w"], ["b a"]])
    whole = scorer.combine(segs)
    totals = StreamTotals(scorer)
    for s in segs:
        totals.add(s)
    summary = totals.summary()
    assert (summary.stats, summary.score, summary.mean_segment_score, summary.signature) == (
        whole.stats,
        whole.score,
        whole.mean_segment_score,
        whole.signature,
    )
