"""Exports: Java number formatting, Meteor 1.5 -writeAlignments, CSV, JSONL, JSON report."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.analysis.significance import bootstrap, paired_bootstrap
from meteor.io.record_files import (
    CSV_COLUMNS,
    alignment_block,
    java_double,
    report,
    segment_row,
    segments_csv,
    segments_jsonl,
    write_alignments,
)
from tests.conftest import read_jsonl_gz

PRESET = "meteor-1.5-paper2005"

# --- Java Double.toString -----------------------------------------------------

JAVA_DOUBLE_CASES = [
    (1.0, "1.0"),
    (0.5, "0.5"),
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    (1.0e-4, "1.0E-4"),
    (0.001, "0.001"),  # 10^-3 is still plain
    (0.00099, "9.9E-4"),
    (1.0e7, "1.0E7"),  # 10^7 switches to scientific
    (9999999.0, "9999999.0"),
    (123456789.0, "1.23456789E8"),
    (100.0, "100.0"),
    (12.5, "12.5"),
    (-2.5, "-2.5"),
    (1.0 / 3.0, "0.3333333333333333"),
    (2.0 / 3.0, "0.6666666666666666"),
    (0.1 + 0.2, "0.30000000000000004"),
    (0.018518518518518514, "0.018518518518518514"),
    (0.9653916211293262, "0.9653916211293262"),
    (1.0e23, "1.0E23"),
    (1.5e-10, "1.5E-10"),
    (5e-324, "4.9E-324"),  # Double.MIN_VALUE: two digits, the closer one
    (1.7976931348623157e308, "1.7976931348623157E308"),
    (float("nan"), "NaN"),
    (float("inf"), "Infinity"),
    (float("-inf"), "-Infinity"),
    (3, "3.0"),
]


@pytest.mark.parametrize(("x", "expected"), JAVA_DOUBLE_CASES)
def test_java_double(x: float, expected: str) -> None:
    assert java_double(x) == expected


@pytest.mark.parametrize("x", [0.1 * k for k in range(1, 50)] + [1 / k for k in range(1, 60)])
def test_java_double_round_trips(x: float) -> None:
    assert float(java_double(x)) == x


# --- -writeAlignments ---------------------------------------------------------


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor(PRESET)


def test_alignment_block_exact_text(meteor: Meteor) -> None:
    r = meteor.score("the cat was sat on the mat", "the cat sat on the mat")
    # P = 6/7, R = 1, 2 chunks / 6 matches -> penalty 0.5 * (1/3)^3
    expected = (
        "Alignment\t1\t0.8571428571428571\t1.0\t0.018518518518518514\t0.9653916211293262\n"
        "the cat was sat on the mat\n"
        "the cat sat on the mat\n"
        "Line2Start:Length\tLine1Start:Length\tModule\t\tScore\n"
        "0:1\t\t\t0:1\t\t\t0\t\t1.0\n"
        "1:1\t\t\t1:1\t\t\t0\t\t1.0\n"
        "2:1\t\t\t3:1\t\t\t0\t\t1.0\n"
        "3:1\t\t\t4:1\t\t\t0\t\t1.0\n"
        "4:1\t\t\t5:1\t\t\t0\t\t1.0\n"
        "5:1\t\t\t6:1\t\t\t0\t\t1.0\n"
        "\n"
    )
    assert alignment_block(r, 1, meteor.params.modules) == expected


def test_alignment_block_stage_index_and_empty(meteor: Meteor) -> None:
    r = meteor.score(
        "A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog"
    )
    rows = alignment_block(r, 3, meteor.params.modules).split("\n")[4:-2]
    # fast=quick and leapt=jumps by synonym: stage 2 of exact stem synonym
    assert rows[0] == "1:1\t\t\t1:1\t\t\t2\t\t1.0"
    assert rows[3] == "4:1\t\t\t4:1\t\t\t2\t\t1.0"
    empty = meteor.score("", "the cat")
    assert alignment_block(empty, 4, meteor.params.modules) == (
        "Alignment\t4\tNaN\t0.0\tNaN\t0.0\n\nthe cat\n"
        "Line2Start:Length\tLine1Start:Length\tModule\t\tScore\n\n"
    )


def test_alignment_block_unknown_module(meteor: Meteor) -> None:
    r = meteor.score("the cat", "the cat")
    with pytest.raises(ValueError, match="not among the active modules"):
        alignment_block(r, 1, ())


def _expected_block(d: dict, number: int) -> str:  # type: ignore[type-arg]
    """A block built from the Meteor 1.5 harness record (the jar's own numbers and matches)."""

    def num(x: float | None) -> str:
        return "NaN" if x is None else java_double(x)

    head = "\t".join(
        [
            "Alignment",
            str(number),
            num(d["precision"]),
            num(d["recall"]),
            num(d["frag_penalty"]),
            num(d["score"]),
        ]
    )
    rows = [
        f"{m['ref_span'][0]}:{m['ref_span'][1] - m['ref_span'][0]}\t\t\t"
        f"{m['hyp_span'][0]}:{m['hyp_span'][1] - m['hyp_span'][0]}\t\t\t"
        f"{m['module_index']}\t\t{java_double(m['prob'])}"
        for m in sorted(d["alignment"], key=lambda m: m["ref_span"][0])
    ]
    lines = [
        head,
        " ".join(d["hyp_tokens"]),
        " ".join(d["ref_tokens"]),
        "Line2Start:Length\tLine1Start:Length\tModule\t\tScore",
        *rows,
    ]
    return "\n".join(lines) + "\n\n"


def test_write_alignments_matches_meteor15_records(meteor: Meteor, shared_data: Path) -> None:
    """The file equals one rebuilt from the jar's own records on real TED segments."""
    path = shared_data / "ted_sk-en" / "meteor15.en_paper2005_norm.jsonl.gz"
    records = list(itertools.islice(read_jsonl_gz(path), 40))
    results = [meteor.score(d["hyp"], d["refs"]) for d in records]
    expected = "".join(_expected_block(d, k) for k, d in enumerate(records, start=1))
    assert write_alignments(results, meteor.params.modules) == expected


# --- CSV / JSONL ----------------------------------------------------------------


@pytest.fixture(scope="module")
def results(meteor: Meteor) -> list:  # type: ignore[type-arg]
    pairs = [
        ("the cat sat on the mat", ["the cat sat on the mat"]),
        ("", ["a reference"]),
        ('he said "hi", then left', ["he said hi and left", 'he said "hi", then left']),
        ("кошка сидела", ["кошка сидела на ковре"]),
    ]
    return [meteor.score(h, r) for h, r in pairs]


def test_segment_row(results: list) -> None:  # type: ignore[type-arg]
    row = segment_row(results[2], 3, system="sysA", seg_id="s3")
    assert row["segment"] == 3 and row["seg_id"] == "s3" and row["system"] == "sysA"
    assert row["best_ref_index"] == 1 and row["ref"] == 'he said "hi", then left'
    assert row["score"] == 1.0
    empty = segment_row(results[1], 2)
    assert empty["precision"] is None  # NaN in Meteor 1.5
    assert empty["score"] == 0.0 and empty["seg_id"] == "2"


def test_segments_csv_round_trip(results: list) -> None:  # type: ignore[type-arg]
    text = segments_csv(results, system="A", ids=["a", "b", "c", "d"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 4
    assert [r["seg_id"] for r in rows] == ["a", "b", "c", "d"]
    assert float(rows[0]["score"]) == results[0].score
    assert rows[1]["precision"] == ""  # NaN -> empty cell
    assert rows[2]["hyp"] == 'he said "hi", then left'
    assert rows[3]["hyp"] == "кошка сидела"
    assert rows[0]["signature"].startswith("meteor|")
    assert segments_csv(results, header=False).count("\n") == 4


def test_segments_jsonl(results: list) -> None:  # type: ignore[type-arg]
    lines = list(segments_jsonl(results, system="A"))
    assert len(lines) == 4 and all(line.endswith("\n") for line in lines)
    recs = [json.loads(line) for line in lines]
    for (
        key
    ) in "score precision recall fmean frag penalty chunks hyp_tokens ref_tokens alignment".split():
        assert key in recs[0]
    assert recs[0]["system"] == "A" and recs[0]["segment"] == 1
    assert recs[0]["alignment"][0]["hyp_span"] == [0, 1]
    assert recs[0]["alignment"][0]["module"] == "exact"
    assert recs[1]["precision"] is None
    assert "кошка" in lines[3]  # not \u-escaped
    assert "system" not in json.loads(next(segments_jsonl(results[:1])))


# --- report ------------------------------------------------------------------------


def test_report(meteor: Meteor) -> None:
    hyps_a = ["the cat sat on the mat", "a dog barked", "it is raining"]
    hyps_b = ["the cat sat", "dog barked loudly", "it rains"]
    refs = ["the cat sat on the mat", "the dog barked", "it is raining today"]
    a = meteor.corpus_score(hyps_a, refs)
    b = meteor.corpus_score(hyps_b, refs)
    ci = {
        "A": bootstrap(a, meteor.params, n_samples=50),
        "B": bootstrap(b, meteor.params, n_samples=50),
    }
    pb = paired_bootstrap(a, b, meteor.params, names=("A", "B"), n_samples=50)
    rep = report(
        {"A": a, "B": b},
        meteor.params,
        preset=meteor.preset,
        intervals=ci,
        comparisons=[pb],
        sources=["a.txt"],
    )
    text = json.dumps(rep, allow_nan=False)
    back = json.loads(text)
    assert back["signature"] == a.signature and back["signature"].startswith("meteor|")
    assert back["preset"] == PRESET and back["segments"] == 3
    assert [s["name"] for s in back["systems"]] == ["A", "B"]
    assert back["systems"][0]["score"] == a.score
    assert back["systems"][0]["mean_segment_score"] == a.mean_segment_score
    assert back["systems"][1]["bootstrap"]["corpus_score"]["low"] <= b.score
    assert back["comparisons"][0]["baseline"] == "A"
    assert 0 < back["comparisons"][0]["corpus_score"]["p_value"] <= 1
    assert not math.isnan(back["systems"][0]["precision"])
