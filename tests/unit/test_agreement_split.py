"""Issue 32's split of ``measure``, ``load_judged`` and ``tune`` into named steps, and the
pieces ``correlate`` and ``tune`` now share (the estimates, the measuring options, the
CLI's judged-table options): each step keeps its checks and messages."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
import scipy.stats

from meteor.analysis import agreement_stats as st
from meteor.analysis import tune as tn
from meteor.analysis.agreement import correlate, measure, score_metrics
from meteor.analysis.judged import Judged, load_judged
from meteor.analysis.resampling import ci_bounds, resample_indices
from meteor.cli import correlate as cli_correlate
from meteor.cli import tune as cli_tune
from meteor.errors import InputError
from meteor.io.labels import read_groups
from meteor.io.read import Corpus

REFS = ("the cat sat on the mat", "the dog barked loudly", "it is raining today")
# Per system: (hypothesis, human, comet) of segments 1, 2, 3.
ROWS = {
    "A": (("the cat sat on the mat", 90, 0.9), ("a dog", 40, 0.4), ("it rains today", 70, 0.6)),
    "B": (("a cat on a mat", 60, 0.5), ("the dog barked", 80, 0.8), ("rain", 20, 0.1)),
    "C": (("cat", 10, 0.2), ("dog barked loudly", 95, 0.7), ("it is raining", 85, 0.9)),
}
TABLE = "system\tseg_id\thyp\tref\thuman\tcomet\n" + "".join(
    f"{system}\t{seg}\t{hyp}\t{REFS[seg - 1]}\t{human}\t{comet}\n"
    for system, rows in ROWS.items()
    for seg, (hyp, human, comet) in enumerate(rows, start=1)
)


def _judged() -> Judged:
    return load_judged([("t.tsv", TABLE)], "human", metric_columns=["comet"])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"n_bootstrap": 0}, r"n_bootstrap \(--bootstrap\) must be between 1 and"),
        ({"n_permutations": -1}, r"n_permutations \(--permutations\) must be between 0 and"),
        ({"level": 1.0}, "level must be between 0 and 1, got 1.0"),
    ],
)
def test_correlate_refuses_measuring_options_before_scoring(
    options: dict[str, float], message: str
) -> None:
    calls: list[str] = []
    with pytest.raises(InputError, match=message):
        correlate(_judged(), presets=("meteor-1.5",), progress=lambda f, m: calls.append(m),
                  **options)  # type: ignore[arg-type]  # fmt: skip
    assert calls == []  # refused before any metric was scored


def test_correlate_passes_its_measuring_options_to_measure() -> None:
    judged = _judged()
    options = {"darr_threshold": 30.0, "n_bootstrap": 40, "n_permutations": 30, "seed": 7,
               "level": 0.9, "test_measure": "pearson_item"}  # fmt: skip
    got = correlate(judged, presets=(), **options)  # type: ignore[arg-type]
    want = measure(judged, score_metrics(judged, presets=()), **options)  # type: ignore[arg-type]
    assert got == want
    assert (got.darr_threshold, got.n_bootstrap, got.seed, got.level) == (30.0, 40, 7, 0.9)
    assert got.test_measure == "pearson_item" and got.n_permutations == 30


def test_the_estimates_are_a_measure_and_its_percentile_interval() -> None:
    judged = _judged()
    a = correlate(judged, presets=(), n_bootstrap=60, n_permutations=0, seed=3, level=0.8)
    comet = np.asarray(judged.columns["comet"]["A"] + judged.columns["comet"]["B"]
                       + judged.columns["comet"]["C"])  # fmt: skip
    human = np.asarray([90, 40, 70, 60, 80, 20, 10, 95, 85], dtype=float)
    items = np.asarray([0, 1, 2] * 3)
    data = st.SegmentData.build(human, items, human, 25.0)
    draws = resample_indices(data.n_items, 60, 3)
    e = st.segment_estimate("kendall_item", data, comet, draws, 0.8)
    assert a.metric("comet").seg("kendall_item") == e
    samples = st.bootstrap_segment("kendall_item", data, comet, draws)
    assert (e.low, e.high) == ci_bounds(samples, 0.8)
    assert st.segment_estimate("kendall_item", data, comet, draws, 0.8, value=0.25).value == 0.25
    sys_h = np.asarray([200 / 3, 160 / 3, 190 / 3])
    sys_m = np.asarray([1.9 / 3, 1.4 / 3, 1.8 / 3])
    s = st.system_estimate(st.pearson, sys_h, sys_m, 60, 3, 0.8, 3)
    assert s.value == pytest.approx(st.pearson(sys_h, sys_m)) and s.n == 3


def test_load_judged_pairs_only_reads_metric_columns_and_refuses_a_darr_column() -> None:
    pairs = ("p.tsv", "seg_id\tbetter\tworse\n1\tA\tC\n2\tC\tA\n9\tA\tB\n")
    judged = load_judged([("t.tsv", TABLE)], None, pairs=[pairs], metric_columns=["comet"])
    assert judged.human is None and judged.pairs == (("1", "A", "C"), ("2", "C", "A"))
    assert judged.columns["comet"]["B"] == [0.5, 0.8, 0.1]
    assert judged.joins[0].unused == 1 and judged.pairs_source == "p.tsv"
    with pytest.raises(InputError, match="a DARR column and a scores file need a human column"):
        load_judged([("t.tsv", TABLE)], None, pairs=[pairs], darr_column="comet")
    with pytest.raises(InputError, match="give a human score column, or pairwise judgements"):
        load_judged([("t.tsv", TABLE)], None)


def test_load_judged_scores_file_leaves_out_unscored_outputs() -> None:
    scores = ("s.tsv", "system\tseg_id\thuman\nA\t1\t90\nA\t2\t40\nB\t1\t60\nD\t1\t5\n")
    judged = load_judged([("t.tsv", TABLE)], "human", scores=[scores])
    (join,) = judged.joins
    assert (join.joined, join.unscored, join.unused) == (3, 6, 1)
    assert judged.human == {"A": [90.0, 40.0], "B": [60.0]}
    assert [name for name, _ in judged.corpus.systems] == ["A", "B"]


def _corpus_judged() -> Judged:
    corpus = Corpus((("A", ("a b", "c d")), ("B", ("a", "c"))), (("a b",), ("c d",)), ("1", "2"))
    return Judged(corpus, {"A": [1.0, 2.0], "B": [0.5, 1.5]}, "human")


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        (None, "cross-validation needs groups: a document column or 'system'"),
        ("doc", "groups must be per-row labels or 'system', got 'doc'"),
        (["x", "y"], "2 group labels for 4 rows"),
    ],
)
def test_tune_refuses_bad_fold_groups(groups: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        tn.tune(_corpus_judged(), preset="nltk", folds=2, groups=groups, rounds=1)  # type: ignore[arg-type]


def test_tune_progress_runs_from_aligning_through_every_fold() -> None:
    seen: list[tuple[float, str]] = []
    res = tn.tune(_judged(), preset="nltk", folds=3, groups="system", rounds=1, n_bootstrap=20,
                  progress=lambda f, m: seen.append((f, m)))  # fmt: skip
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and 0 <= fractions[0] and fractions[-1] <= 1.0
    assert any(m.startswith("aligning ") for _, m in seen)
    assert sum(m.startswith("grid: ") for _, m in seen) == 1 + len(res.folds) == 4


def _options(add: object) -> dict[str, tuple[tuple[str, ...], str | None, object]]:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    p = add(sub)  # type: ignore[operator]
    return {a.dest: (tuple(a.option_strings), a.help, a.default) for a in p._actions}


def test_correlate_and_tune_share_their_input_and_run_options() -> None:
    c = _options(cli_correlate.add_parser)
    t = _options(cli_tune.add_parser)
    for dest in ("hyp", "ref", "workers", "input_format", "progress", "format"):
        assert c[dest] == t[dest], dest


def test_group_labels_and_scores_key_the_rows_alike() -> None:
    from meteor.io.rows import table_rows
    from meteor.io.scores import keyed_rows, read_scores

    data = b"system,hyp,doc,human\nA,x,d1,1\nA,y,d2,2\nB,z,d3,3\n"  # no seg_id: numbered
    labels = read_groups([("t.csv", data)], "doc", None)
    scores = read_scores(data, "t.csv", ["human"])
    assert [tuple(k.split("\t")) for k in labels] == list(scores["human"])
    header, rows = table_rows(data, "t.csv", "csv", 100)
    keyed = [(s, g, line) for s, g, line, _ in keyed_rows("t.csv", header, rows, 100)]
    assert keyed == [("A", "1", 2), ("A", "2", 3), ("B", "1", 4)]
    jsonl = b'{"system": "A", "seg_id": "7", "doc": "d"}\n{"system": "A", "doc": "e"}\n'
    header, rows = table_rows(jsonl, "t.jsonl", "jsonl", 100)
    with pytest.raises(InputError, match="line 2 has no segment id"):
        list(keyed_rows("t.jsonl", header, rows, 100))
    assert [g for _, g, _, _ in keyed_rows("t.jsonl", header, rows, 100, need_id=False)] == [
        "7",
        "2",
    ]


@pytest.mark.parametrize("largest", [11, 70])
def test_ranks_within_rows_are_scipy_average_ranks_bit_for_bit(largest: int) -> None:
    """All points' ranks at once (the padded table; scipy per item beyond 64 rows) equal
    ``scipy.stats.rankdata`` item by item, ties included."""
    rng = np.random.default_rng(7)
    sizes = rng.integers(1, largest + 1, size=40)
    sizes[0] = largest
    items = rng.permutation(np.repeat(np.arange(len(sizes)), sizes))
    values = np.round(rng.random((5, len(items))), 1)  # many ties
    got = st.ranks_within_rows(values, items)
    for b in range(len(values)):
        for item in range(len(sizes)):
            rows = np.flatnonzero(items == item)
            want = scipy.stats.rankdata(values[b, rows])
            assert np.array_equal(got[b, rows], want), (b, item)
    assert st.ranks_within_rows(np.empty((2, 0)), np.empty(0, dtype=int)).shape == (2, 0)
