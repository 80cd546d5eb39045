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


# -- a worker process's part: one place for the three drivers ---------------------------

#: The worker processes' code: the pool's, Dask's and the app's (issue 32, item 6).
WORKER_SIDES = (
    "meteor/runners/parallel.py",
    "meteor/runners/cluster/worker.py",
    "pages/_offload.py",
)


def _calls(path: Path) -> set[str]:
    """Dotted names called in a module (``gc.disable``, ``batch.score_segments`` …)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f, parts = node.func, []
            while isinstance(f, ast.Attribute):
                parts.append(f.attr)
                f = f.value
            if isinstance(f, ast.Name):
                out.add(".".join([f.id, *reversed(parts)]))
    return out


@pytest.mark.parametrize("path", WORKER_SIDES)
def test_every_worker_process_keeps_its_scorer_and_pauses_the_collector_in_one_place(
    path: str,
) -> None:
    """Before: a scorer cache, a GC pause and a resource preload written in each of the three."""
    calls = _calls(Path(path))
    assert "batch.process_scorer" in calls
    assert {"batch.collection_paused", "collection_paused"} & calls
    assert not {"gc.disable", "gc.enable"} & calls


def test_the_apps_worker_scores_through_the_batch_core() -> None:
    """Before: pages/_offload.py scored with ``Meteor.score``, beside the batch core."""
    calls = _calls(Path("pages/_offload.py"))
    assert "batch.score_segments" in calls
    assert not {c for c in calls if c.endswith(".score")}


class _Fake:
    def __init__(self, name: str) -> None:
        self.name = name
        self.prepared = 0

    def prepare(self) -> None:
        self.prepared += 1


def test_a_process_keeps_one_loaded_scorer_per_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    monkeypatch.setattr(batch, "SCORERS", {})
    monkeypatch.setattr(batch, "PROCESS_SCORERS_KEPT", 2)
    built: list[str] = []

    def build(name: str) -> Any:
        def make() -> _Fake:
            built.append(name)
            return _Fake(name)

        return make

    a = batch.process_scorer("a", build("a"))
    assert batch.process_scorer("a", build("a")) is a and built == ["a"]
    assert a.prepared == 1 and frozen == [1]  # loaded and frozen once
    batch.process_scorer("b", build("b"))
    batch.process_scorer("c", build("c"))  # beyond the limit: "a", built first, goes
    assert list(batch.SCORERS) == ["b", "c"]

    def broken() -> _Fake:
        raise ValueError("bad setting")

    with pytest.raises(ValueError, match="bad setting"):
        batch.process_scorer("d", broken)
    assert "d" not in batch.SCORERS


def test_the_apps_server_never_freezes_its_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's server scores a pair itself while its worker is replaced: its scorer is kept
    but not frozen (its sessions' objects come and go); the worker's is frozen."""
    import gc

    from pages import _offload

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    monkeypatch.setattr(batch, "SCORERS", {})
    monkeypatch.setattr(_offload, "make_scorer", lambda preset, overrides: _Fake(preset))
    monkeypatch.setattr(_offload, "_IN_WORKER", False)
    _offload._worker_scorer("server", "{}")
    assert frozen == [] and batch.process_scorer("x", lambda: _Fake("x"), freeze=False)
    assert frozen == []
    monkeypatch.setattr(_offload, "_IN_WORKER", True)
    _offload._worker_scorer("worker", "{}")
    assert frozen == [1]


def test_a_process_builds_a_setting_once_whatever_its_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading
    import time

    monkeypatch.setattr(batch, "SCORERS", {})
    built: list[int] = []

    def slow() -> _Fake:
        built.append(1)
        time.sleep(0.05)
        return _Fake("x")

    got: list[Any] = []
    threads = [
        threading.Thread(target=lambda: got.append(batch.process_scorer("x", slow)))
        for _ in range(4)
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(built) == 1 and len({id(m) for m in got}) == 1


def test_the_collector_is_on_again_when_the_last_job_ends() -> None:
    import gc

    assert gc.isenabled()
    with batch.collection_paused():
        assert not gc.isenabled()
        with batch.collection_paused():  # another thread's job, at the same time
            assert not gc.isenabled()
        assert not gc.isenabled()  # the first job still runs
    assert gc.isenabled()
    with pytest.raises(ValueError), batch.collection_paused():
        raise ValueError("a failed job")
    assert gc.isenabled()


@pytest.mark.parametrize(
    ("hyp", "refs", "error"),
    [("a \ud800", ["a"], ValueError), ("a", [], ValueError), (3, ["a"], TypeError)],
)
def test_one_pair_keeps_the_scorers_own_error(
    scorer: Meteor, hyp: Any, refs: Any, error: type[Exception]
) -> None:
    """``name_errors=False`` (the app's pair): the message of ``Meteor.score``, no segment."""
    with pytest.raises(error) as direct:
        scorer.score(hyp, refs)
    with pytest.raises(error) as core:
        batch.score_segments(scorer, [hyp], [refs], name_errors=False)
    assert str(core.value) == str(direct.value)
    with pytest.raises(error, match=r"^segment 1: "):
        batch.score_segments(scorer, [hyp], [refs])


def test_one_pair_keeps_its_texts_for_its_explanation(scorer: Meteor) -> None:
    """A corpus run forgets a hypothesis seen once; the app's pair (``forget=False``) is
    explained next, so its texts stay in the memos, as with ``Meteor.score``."""
    hyp = "a hypothesis seen only once here"
    scorer._forget(hyp)
    batch.score_segments(scorer, [hyp], [["a reference"]])
    assert hyp not in scorer._tok_cache
    batch.score_segments(scorer, [hyp], [["a reference"]], name_errors=False, forget=False)
    assert hyp in scorer._tok_cache
