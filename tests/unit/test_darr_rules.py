"""DARR by mt-metrics-eval's rules: pairs within an item whose raw DA differs by 25 *or more*,
from the raw column when the file has one (``human_raw``, ``raw``), else a notice naming the
column; the by-item value weighted by pairs (= all pairs pooled, WMT's DARR)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import correlate, load_judged

KW = {"presets": (), "n_bootstrap": 10, "n_permutations": 0}


def test_a_difference_of_exactly_the_threshold_is_a_pair() -> None:
    raw = np.array([90.0, 65.0, 64.0, 10.0, 10.0])
    items = np.array([0, 0, 0, 1, 1])
    better, worse, _ = st.darr_pairs(raw, items, 25.0)
    assert sorted(zip(better.tolist(), worse.tolist(), strict=True)) == [(0, 1), (0, 2)]
    assert len(st.darr_pairs(raw, items, 0.0)[0]) == 3  # a tie is never a pair


def test_by_item_is_weighted_by_pairs() -> None:
    # item 0: 3 pairs, the metric gets all right (τ 1); item 1: 1 pair, wrong (τ −1)
    raw = np.array([90.0, 60.0, 30.0, 80.0, 20.0])
    items = np.array([0, 0, 0, 1, 1])
    data = st.SegmentData.build(raw, items, raw, 25.0)
    metric = np.array([0.9, 0.5, 0.1, 0.1, 0.9])
    assert st.segment_measure("darr_item", data, metric) == pytest.approx((3 - 1) / 4)
    assert st.segment_measure("darr_flat", data, metric) == pytest.approx((3 - 1) / 4)


TABLE = (
    "system\tseg_id\thyp\tref\thuman_score\thuman_raw\tcomet\n"
    "A\t1\tthe cat sat\tthe cat sat\t0.1\t90\t0.9\n"
    "B\t1\ta cat sat\tthe cat sat\t0.2\t65\t0.5\n"
    "C\t1\tcat\tthe cat sat\t0.3\t40\t0.1\n"
    "A\t2\ta dog ran\ta dog ran\t0.5\t70\t0.2\n"
    "B\t2\tthe dog ran\ta dog ran\t0.4\t45\t0.8\n"
    "C\t2\tdog\ta dog ran\t0.3\t80\t0.4\n"
)


def test_the_raw_column_is_used_when_the_file_has_one() -> None:
    judged = load_judged([("t.tsv", TABLE)], "human_score", metric_columns=["comet"])
    assert judged.darr_column == "human_raw"
    a = correlate(judged, **KW)  # type: ignore[arg-type]
    # raw pairs (≥ 25): item 1: A>B (25), A>C, B>C (25); item 2: A>B (25), C>B (35)
    assert a.n_darr_pairs == 5 and a.darr_notice == ""
    # comet: item 1 all concordant (3), item 2: A>B discordant, C>B discordant → (3 − 2) / 5
    assert a.metric("comet").seg("darr_flat").value == pytest.approx(1 / 5)
    assert a.to_dict()["darr"]["column"] == "human_raw"


def test_without_a_raw_column_a_notice_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor.cli.command_line import main

    no_raw = "\n".join(
        "\t".join(c for k, c in enumerate(line.split("\t")) if k != 5)
        for line in TABLE.splitlines()
    )
    path = tmp_path / "t.tsv"
    path.write_text(no_raw + "\n", encoding="utf-8")
    argv = ["correlate", "--hyp", str(path), "--human-column", "human_score", "--preset",
            "nltk", "--bootstrap", "10", "--permutations", "0", "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    notice = json.loads(captured.out)["darr"]["notice"]
    assert "'human_score', not raw DA" in notice and "human_raw" in notice
    assert captured.err.count("not raw DA") == 1
