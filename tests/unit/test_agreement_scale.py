"""The agreement measures do not depend on the human scores' scale: the human scores are
standardised (divided by their largest magnitude) before any measure, so scaled copies
(1e-200, 1e160, ±1e308) give scipy's value on the unscaled data; no numpy warning reaches
the user, and every undefined value (``n/a``) says why, in text and JSON."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Judged, MetricScores, measure
from meteor.cli.command_line import main
from meteor.io.read import Corpus

RNG = np.random.default_rng(7)
N_ITEMS, N_SYS = 12, 5
HUMAN = RNG.normal(50, 20, size=N_ITEMS * N_SYS)
METRIC = 0.3 * HUMAN / 100 + RNG.normal(0, 0.1, size=N_ITEMS * N_SYS)
ITEMS = np.tile(np.arange(N_ITEMS), N_SYS)


def _scipy_item_pearson(human: np.ndarray, metric: np.ndarray) -> float:
    values = [scipy.stats.pearsonr(human[ITEMS == i], metric[ITEMS == i]).statistic
              for i in range(N_ITEMS)]  # fmt: skip
    return float(np.mean(values))


@pytest.mark.parametrize("scale", [1.0, 1e-200, 1e-300, 1e160, 1e300])
def test_pearson_is_the_same_for_scaled_copies(scale: float) -> None:
    want_flat = scipy.stats.pearsonr(HUMAN, METRIC).statistic
    want_item = _scipy_item_pearson(HUMAN, METRIC)
    data = st.SegmentData.build(HUMAN * scale, ITEMS, HUMAN)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow / underflow warning either
        assert st.segment_measure("pearson_flat", data, METRIC) == pytest.approx(
            want_flat, abs=1e-12
        )
        assert st.segment_measure("pearson_item", data, METRIC) == pytest.approx(
            want_item, abs=1e-12
        )
        # the metric side too
        data1 = st.SegmentData.build(HUMAN, ITEMS, HUMAN)
        assert st.segment_measure("pearson_item", data1, METRIC * scale) == pytest.approx(
            want_item, abs=1e-12
        )
        assert st.pearson(HUMAN * scale, METRIC) == pytest.approx(want_flat, abs=1e-12)


def judged_with(human: list[float]) -> Judged:
    hyps = {s: [f"word{s} {k} the cat" for k in range(N_ITEMS)] for s in "ABCDE"}
    corpus = Corpus(
        tuple((k, tuple(v)) for k, v in hyps.items()),
        tuple((f"the cat {k}",) for k in range(N_ITEMS)),
        tuple(str(k) for k in range(N_ITEMS)),
    )
    per = {s: human[i * N_ITEMS : (i + 1) * N_ITEMS] for i, s in enumerate("ABCDE")}
    return Judged(corpus, per, "human")


def column_metric(values: np.ndarray) -> MetricScores:
    sys = [float(values[i * N_ITEMS : (i + 1) * N_ITEMS].mean()) for i in range(N_SYS)]
    return MetricScores("m", "column", "m", tuple(values), tuple(sys))


def test_the_whole_record_is_the_same_for_scaled_human_scores() -> None:
    base = measure(
        judged_with(list(HUMAN)), [column_metric(METRIC)], n_bootstrap=50, n_permutations=5
    )
    for scale in (1e-200, 1e160):
        got = measure(judged_with(list(HUMAN * scale)), [column_metric(METRIC)], darr_threshold=25 * scale,
                      n_bootstrap=50, n_permutations=5)  # fmt: skip
        for (k, a), (_, b) in zip(base.metrics[0].segment, got.metrics[0].segment, strict=True):
            assert a.value == pytest.approx(b.value, abs=1e-9), k
            assert a.low == pytest.approx(b.low, abs=1e-9), k
        for (k, a), (_, b) in zip(base.metrics[0].system, got.metrics[0].system, strict=True):
            assert a.value == pytest.approx(b.value, abs=1e-9), k


def test_plus_minus_1e308_gives_no_warning_and_every_na_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = ["system\tseg_id\thyp\tref\thuman"]
    for s in "ABCD":
        for k in range(6):
            rows.append(
                f"{s}\t{k}\tthe cat sat {s} {k}\tthe cat sat {k}\t{'1e308' if k % 2 else '-1e308'}"
            )
    path = tmp_path / "big.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    argv = ["correlate", "--hyp", str(path), "--human-column", "human", "--baseline", "chrf",
            "--bootstrap", "40", "--permutations", "5"]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "warning" not in err and "overflow" not in err
    for line in out.splitlines():
        if "n/a" in line:
            assert "(n/a: " in line or line.startswith("  (n/a"), line
    assert "the human scores are equal within every item" in out
    assert "the systems' mean human scores are all equal" in out
    assert main([*argv, "-f", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    for m in record["metrics"]:
        for level in ("segment", "system"):
            for key, e in m[level].items():
                undefined = None in (e["value"], e["low"], e["high"])
                assert (e["reason"] is not None) == undefined, (key, e)
    for c in record["comparisons"]:
        for w in c["williams_pearson"].values():
            assert (w["reason"] is not None) == (w["t"] is None)


def test_reasons_of_undefined_measures() -> None:
    data = st.SegmentData.build(np.ones(6), np.repeat(np.arange(3), 2))
    assert (
        st.segment_reason("pearson_flat", data, np.arange(6.0)) == "the human scores are all equal"
    )
    data = st.SegmentData.build(np.arange(6.0), np.repeat(np.arange(3), 2), threshold=100)
    assert st.segment_reason("kendall_flat", data, np.ones(6)) == (
        "the metric gives every row the same score"
    )
    assert st.segment_reason("darr_flat", data, np.arange(6.0)).startswith("no pairs")
    assert st.system_reason(np.ones(1), np.ones(1)) == "fewer than 2 systems"
    assert math.isnan(st.pearson([1.0, 1.0], [1.0, 2.0]))
