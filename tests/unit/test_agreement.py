"""Agreement with human scores (issue 34, "Measure"): statistics checked against scipy and
sacreBLEU, DARR pairs and the two grouping conventions on hand cases, the bootstrap and
the PERM-BOTH test, the human-column reader."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import scipy.stats
from sacrebleu.metrics import BLEU, CHRF

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Judged, correlate, load_judged
from meteor.analysis.resampling import ci_bounds, resample_indices
from meteor.errors import InputError
from meteor.io.read import load_corpus
from meteor.io.scores import read_scores

X = [0.1, 0.4, 0.4, 0.9, 0.3, 0.7, 0.2, 0.2]
Y = [1.0, 2.0, 3.0, 3.0, 0.5, 2.5, 1.0, 4.0]


def test_flat_statistics_equal_scipy_with_ties() -> None:
    assert st.kendall_b(X, Y) == pytest.approx(scipy.stats.kendalltau(X, Y).statistic, abs=1e-12)
    assert st.pearson(X, Y) == pytest.approx(scipy.stats.pearsonr(X, Y).statistic, abs=1e-12)
    assert st.spearman(X, Y) == pytest.approx(scipy.stats.spearmanr(X, Y).statistic, abs=1e-12)
    assert math.isnan(st.pearson([1.0, 1.0, 1.0], [1.0, 2.0, 3.0]))


def test_grouped_statistics_equal_scipy_per_item() -> None:
    rng = np.random.default_rng(3)
    items = np.repeat(np.arange(6), 5)
    human = rng.integers(0, 4, size=30).astype(float)  # many ties
    metric = np.round(human + rng.normal(0, 1, size=30), 1)
    data = st.SegmentData.build(human, items)
    for key, fn in (
        ("kendall_item", scipy.stats.kendalltau),
        ("pearson_item", scipy.stats.pearsonr),
        ("spearman_item", scipy.stats.spearmanr),
    ):
        value, _ = st.per_item(key, data, metric)
        for c in range(6):
            rows = items == c
            expected = fn(human[rows], metric[rows]).statistic
            if math.isnan(expected):
                assert math.isnan(value[c])
            else:
                assert value[c] == pytest.approx(expected, abs=1e-12)


def test_darr_pairs_on_a_hand_case() -> None:
    # item 0: raw 90, 60, 50 -> pairs (90>60), (90>50) differ by > 25; 60 vs 50 does not.
    # item 1: raw 10, 30 -> no pair (20 apart).
    raw = np.array([90.0, 60.0, 50.0, 10.0, 30.0])
    items = np.array([0, 0, 0, 1, 1])
    better, worse, item = st.darr_pairs(raw, items, 25.0)
    assert sorted(zip(better.tolist(), worse.tolist(), strict=True)) == [(0, 1), (0, 2)]
    assert item.tolist() == [0, 0]
    data = st.SegmentData.build(raw, items, raw, 25.0)
    metric = np.array([0.5, 0.2, 0.5, 0.0, 0.0])  # concordant (0,1); tie (0,2) is discordant
    assert st.segment_measure("darr_flat", data, metric) == pytest.approx(0.0)
    metric2 = np.array([0.9, 0.2, 0.5, 0.0, 0.0])
    assert st.segment_measure("darr_flat", data, metric2) == pytest.approx(1.0)


def test_grouped_and_flattened_differ_on_a_hand_case() -> None:
    # Within each item the metric orders the systems as people do, but item 1's scores
    # are all higher for the metric and lower for people: flattened < grouped.
    human = np.array([1.0, 2.0, 3.0, -3.0, -2.0, -1.0])
    metric = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    items = np.array([0, 0, 0, 1, 1, 1])
    data = st.SegmentData.build(human, items)
    assert st.segment_measure("kendall_item", data, metric) == pytest.approx(1.0)
    flat = st.segment_measure("kendall_flat", data, metric)
    assert flat == pytest.approx(scipy.stats.kendalltau(human, metric).statistic)
    assert flat < 0.0


def test_bootstrap_contains_the_estimate_and_is_seeded() -> None:
    rng = np.random.default_rng(0)
    items = np.repeat(np.arange(40), 4)
    human = rng.normal(size=160)
    metric = human + rng.normal(size=160)
    data = st.SegmentData.build(human, items)
    for key in st.MEASURES:
        if key.startswith("darr"):
            continue
        value = st.segment_measure(key, data, metric)
        a = st.bootstrap_segment(key, data, metric, resample_indices(40, 200, 7))
        b = st.bootstrap_segment(key, data, metric, resample_indices(40, 200, 7))
        assert np.array_equal(a, b)
        low, high = ci_bounds(a, 0.95)
        assert low <= value <= high
    c = st.bootstrap_segment("kendall_flat", data, metric, resample_indices(40, 200, 8))
    assert not np.array_equal(a, c)


def test_flat_bootstrap_takes_whole_items() -> None:
    items = np.array([0, 0, 1, 1, 1])
    human = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    data = st.SegmentData.build(human, items)
    draws = np.array([[1, 1]])  # item 1 twice: its three rows twice
    (value,) = st.bootstrap_segment("pearson_flat", data, human * 2, draws)
    assert value == pytest.approx(1.0)
    (tau,) = st.bootstrap_segment("kendall_flat", data, -human, np.array([[0, 0]]))
    assert tau == pytest.approx(scipy.stats.kendalltau([1, 2, 1, 2], [-1, -2, -1, -2]).statistic)


@pytest.mark.parametrize("n", [2, 3, 8, 9, 12, 130, 2_000, 10_001])
def test_pearson_rows_is_pearson_bit_for_bit(n: int) -> None:
    """scipy's arithmetic without scipy's call: the same float on every row (ties, a
    constant row, scales far from 1, the sizes where numpy's pairwise sums and BLAS's dot
    change their blocks), and the bootstraps built on it equal pearson per sample."""
    rng = np.random.default_rng(n)
    for scale in (1e-7, 1.0, 3e5):
        x = (rng.normal(size=n) * scale).round(2)
        y = rng.random((4, n)).round(2) * rng.choice([-1.0, 1.0, 1e9])
        y[2] = 0.5  # constant: NaN
        got = st.pearson_rows(x, y)
        assert got is not None
        expected = [st.pearson(x, row) for row in y]
        assert np.array_equal(got, expected, equal_nan=True)
        assert np.array_equal(st.pearson_rows(np.tile(x, (4, 1)), y), got, equal_nan=True)
    y[0, 0] = math.inf
    assert st.pearson_rows(x, y) is None  # not finite: the caller calls scipy


def test_pearson_bootstraps_equal_pearson_per_sample() -> None:
    rng = np.random.default_rng(5)
    items = np.repeat(np.arange(60), rng.integers(2, 9, size=60))
    human = rng.normal(size=len(items)).round(1)
    metric = (human + rng.normal(size=len(items))).round(2)
    data = st.SegmentData.build(human, items)
    draws = resample_indices(60, 50, 3)
    got = st.bootstrap_segment("pearson_flat", data, metric, draws)
    rows = [np.flatnonzero(items == i) for i in range(60)]
    expected = [
        st.pearson(human[r], metric[r])
        for r in (np.concatenate([rows[i] for i in d]) for d in draws)
    ]
    assert np.array_equal(got, expected, equal_nan=True)
    sys_h, sys_m = rng.random(6).round(1), rng.random(6).round(1)
    got = st.bootstrap_system(st.pearson, sys_h, sys_m, 200, 9)
    expected = [st.pearson(sys_h[d], sys_m[d]) for d in resample_indices(6, 200, 9)]
    assert np.isnan(got).any() and np.array_equal(got, expected, equal_nan=True)


def test_perm_both_noise_small_p_identical_p_one() -> None:
    rng = np.random.default_rng(1)
    items = np.repeat(np.arange(50), 4)
    human = rng.normal(size=200)
    data = st.SegmentData.build(human, items)
    good = human + rng.normal(0, 0.3, size=200)
    bad = rng.normal(size=200)
    delta, p = st.perm_both("kendall_flat", data, good, bad, 200, 5)
    assert delta > 0.3 and p < 0.01
    same_delta, same_p = st.perm_both("kendall_item", data, good, good.copy(), 200, 5)
    assert same_delta == 0.0 and same_p == 1.0


TABLE = (
    "system\tseg_id\thyp\tref\thuman\tcomet\n"
    "A\t1\tthe cat sat on the mat\tthe cat sat on the mat\t90\t0.9\n"
    "A\t2\ta dog\tthe dog barked loudly\t40\t0.4\n"
    "A\t3\tit rains today\tit is raining today\t70\t0.6\n"
    "B\t1\ta cat on a mat\tthe cat sat on the mat\t60\t0.5\n"
    "B\t2\tthe dog barked\tthe dog barked loudly\t80\t0.8\n"
    "B\t3\train\tit is raining today\t20\t0.1\n"
)


def test_human_column_reader_reports_each_bad_value_with_its_line() -> None:
    bad = TABLE.replace("\t40\t", "\tabc\t").replace("\t20\t", "\t\t")
    with pytest.raises(InputError) as exc:
        read_scores(bad.encode(), "judged.tsv", ["human"])
    message = str(exc.value)
    assert "line 3 ('abc')" in message and "line 7 (empty)" in message
    assert "2 value(s)" in message and "\n" not in message
    jsonl = '{"hyp": "a", "ref": "a", "human": null}\n{"hyp": "b", "ref": "b"}\n'
    with pytest.raises(InputError, match=r"line 1 \(null\), line 2 \(missing\)"):
        read_scores(jsonl.encode(), "j.jsonl", ["human"])
    with pytest.raises(InputError, match="not numbers"):
        read_scores(TABLE.replace("\t90\t", "\tnan\t").encode(), "t.tsv", ["human"])
    scores = read_scores(TABLE.encode(), "t.tsv", ["human", "comet"])
    assert scores["human"][("B", "2")] == 80.0 and scores["comet"][("A", "3")] == 0.6


def test_baselines_equal_sacrebleu_and_the_record_is_json() -> None:
    judged = load_judged([("t.tsv", TABLE.encode())], "human", metric_columns=["comet"])
    a = correlate(judged, presets=(), baselines=("chrf", "chrf++", "bleu"), n_bootstrap=20,
                  n_permutations=20)  # fmt: skip
    from meteor.analysis.agreement import score_metrics

    scores = {m.name: m for m in score_metrics(judged, baselines=("chrf", "chrf++", "bleu"))}
    corpus = judged.corpus
    for name, sent, whole in (
        ("chrf", CHRF(), CHRF()),
        ("chrf++", CHRF(word_order=2), CHRF(word_order=2)),
        ("bleu", BLEU(effective_order=True), BLEU()),
    ):
        expected = [
            sent.sentence_score(h, list(r)).score
            for s, hyps in corpus.systems
            for h, r in zip(hyps, corpus.refs_of(s), strict=True)
        ]
        assert scores[name].segment == pytest.approx(expected, abs=0)
        sys_expected = [whole.corpus_score(list(h), [[r[0] for r in corpus.refs_of(s)]]).score
                        for s, h in corpus.systems]  # fmt: skip
        assert scores[name].system == pytest.approx(sys_expected, abs=0)
    record = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    assert [m["name"] for m in record["metrics"]] == ["chrf", "chrf++", "bleu", "comet"]
    assert len(record["comparisons"]) == 6


def test_lower_is_better_flips_the_human_score() -> None:
    corpus = load_corpus([("t.tsv", TABLE.encode())])
    errors = {"A": [1.0, 5.0, 2.0], "B": [3.0, 0.0, 9.0]}
    comet = {"A": [0.9, 0.4, 0.6], "B": [0.5, 0.8, 0.1]}
    up = Judged(corpus, errors, "errors", True, columns={"comet": comet})
    down = Judged(corpus, errors, "errors", False, columns={"comet": comet})
    kw = {"presets": (), "n_bootstrap": 10, "n_permutations": 0}
    t_up = correlate(up, **kw).metric("comet").seg("kendall_flat").value  # type: ignore[arg-type]
    t_down = correlate(down, **kw).metric("comet").seg("kendall_flat").value  # type: ignore[arg-type]
    assert t_down == pytest.approx(-t_up) and t_down > 0


def test_meteor_keeps_statistics_that_rescore_exactly() -> None:
    from meteor.analysis.agreement import rescore, score_metrics

    judged = load_judged([("t.tsv", TABLE.encode())], "human")
    (m,) = score_metrics(judged, presets=("meteor-1.5",))
    assert m.params is not None and m.stats is not None
    assert rescore(m, m.params) == pytest.approx(m.segment, abs=1e-12)


def test_cli_correlate_json_and_a_bad_value_is_one_line(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    from pathlib import Path

    from meteor.cli.command_line import main

    good = Path(str(tmp_path)) / "judged.tsv"
    good.write_text(TABLE, encoding="utf-8")
    argv = ["correlate", "--hyp", str(good), "--human-column", "human", "--preset", "nltk",
            "--baseline", "chrf", "--metric-column", "comet", "--bootstrap", "20",
            "--permutations", "20", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in record["metrics"]] == ["nltk", "chrf", "comet"]
    bad = Path(str(tmp_path)) / "bad.tsv"
    bad.write_text(TABLE.replace("\t60\t", "\tn/a\t"), encoding="utf-8")
    assert main(["correlate", "--hyp", str(bad), "--human-column", "human"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 5 ('n/a')" in err and "Traceback" not in err
