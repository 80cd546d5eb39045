"""Official human system scores (``correlate --system-scores``): WMT's system level.

The fixture (tests/data/system_scores): 4 systems × 5 segments, human segment scores for 3
of the 5 segments per system, and official system scores for the 4 systems and one more.
Every system-level number is recomputed independently: METEOR's corpus score per system
over all 5 rows (``meteor.corpus_score``; the mean of segment scores for NLTK), sacreBLEU's
corpus chrF, scipy's Pearson and Kendall τ-b against the official column.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import scipy.stats
from sacrebleu.metrics import CHRF

import meteor
from meteor.analysis.agreement import correlate, load_judged
from meteor.analysis.system_level import MEAN, SUMMED
from meteor.errors import InputError
from meteor.io.read import load_corpus
from meteor.io.system_scores import read_system_scores

DATA = Path(__file__).resolve().parent.parent / "data" / "system_scores"
SYSTEMS = ["sysA", "sysB", "sysC", "sysD"]


def _file(name: str) -> tuple[str, bytes]:
    return name, (DATA / name).read_bytes()


def _official() -> dict[str, float]:
    return read_system_scores((DATA / "sys.tsv").read_bytes(), "sys.tsv").as_dict()


def _all_rows() -> dict[str, tuple[list[str], list[str]]]:
    corpus = load_corpus([_file("outputs.tsv")])
    return {n: (list(h), [r[0] for r in corpus.refs_of(n)]) for n, h in corpus.systems}


def test_reader_takes_the_first_numeric_column_or_the_named_one() -> None:
    data = (DATA / "sys.tsv").read_bytes()
    first = read_system_scores(data, "sys.tsv")
    assert first.column == "human_z" and first.as_dict()["sysC"] == 0.35
    assert read_system_scores(data, "sys.tsv", "human_raw").as_dict()["sysA"] == 81.5
    with pytest.raises(InputError, match="no column 'nope'"):
        read_system_scores(data, "sys.tsv", "nope")
    with pytest.raises(InputError, match="'sysA' is given twice"):
        read_system_scores(b"system\tz\nsysA\t1\nsysA\t2\n", "s.tsv")
    with pytest.raises(InputError, match="line 2: column 'z' is not a number"):
        read_system_scores(b"system\tz\nsysA\tx\n", "s.tsv", "z")


def test_official_scores_against_every_row_equal_scipy() -> None:
    judged = load_judged([_file("outputs.tsv")], "human_score", scores=[_file("seg_scores.tsv")])
    assert judged.all_corpus is not None and len(judged.corpus.refs) == 3
    official = read_system_scores(*reversed(_file("sys.tsv")))
    a = correlate(
        judged, presets=("meteor-1.5", "nltk"), baselines=("chrf",),
        system_scores=official, n_bootstrap=20, n_permutations=0,
    )  # fmt: skip
    level = a.system_level
    assert level.systems == tuple(SYSTEMS) and level.all_rows
    assert level.not_in_input == ("sysE",) and level.no_official == ()
    human = [_official()[s] for s in SYSTEMS]
    rows = _all_rows()
    expect = {
        "meteor-1.5": [meteor.corpus_score(*rows[s], "meteor-1.5").score for s in SYSTEMS],
        "nltk": [meteor.corpus_score(*rows[s], "nltk").mean_segment_score for s in SYSTEMS],
        "chrf": [CHRF().corpus_score(rows[s][0], [rows[s][1]]).score for s in SYSTEMS],
    }
    for name, scores in expect.items():
        m = a.metric(name)
        assert m.sys("pearson").value == pytest.approx(
            scipy.stats.pearsonr(human, scores).statistic, abs=1e-12
        ), name
        assert m.sys("kendall").value == pytest.approx(
            scipy.stats.kendalltau(human, scores).statistic, abs=1e-12
        ), name
        assert m.sys("pearson").n == 4
    assert a.metric("meteor-1.5").system_rule == SUMMED
    assert a.metric("nltk").system_rule == MEAN
    # the segment level is still the judged rows only: 4 systems × 3 segments
    assert a.metric("chrf").seg("pearson_flat").n == 12
    record = a.to_dict()
    assert record["system_level"]["human"] == "official"
    assert record["system_level"]["metric_rows"] == "all"
    assert record["metrics"][0]["system_score"] == SUMMED


def test_without_official_scores_the_earlier_convention_is_named() -> None:
    judged = load_judged([_file("outputs.tsv")], "human_score", scores=[_file("seg_scores.tsv")])
    a = correlate(judged, presets=(), baselines=("chrf",), n_bootstrap=20, n_permutations=0)
    record = a.to_dict()["system_level"]
    assert record["human"] == "mean_of_judged_segments" and record["metric_rows"] == "judged"
    assert "not WMT's convention" in a.system_level.describe()


def test_cli_system_level_only_without_a_human_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from meteor.cli.command_line import main

    argv = ["correlate", "--hyp", str(DATA / "outputs.tsv"), "--system-scores",
            str(DATA / "sys.tsv"), "--preset", "nltk", "--baseline", "chrf",
            "--bootstrap", "20", "--permutations", "20"]  # fmt: skip
    assert main([*argv, "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["system_level"]["official_column"] == "human_z"
    assert record["metrics"][0]["segment"] == {}
    rows = _all_rows()
    nltk = [meteor.corpus_score(*rows[s], "nltk").mean_segment_score for s in SYSTEMS]
    human = [_official()[s] for s in SYSTEMS]
    assert record["metrics"][0]["system"]["pearson"]["value"] == pytest.approx(
        scipy.stats.pearsonr(human, nltk).statistic, abs=1e-12
    )
    assert main([*argv, "--system-column", "human_raw"]) == 0
    text = capsys.readouterr().out
    assert "official system scores" in text and "column human_raw" in text
    assert text.startswith("human: official system scores only") and "DARR" not in text
    assert "Williams" in text and "system t =" in text
    assert main([*argv, "--system-column", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no column 'nope'" in err


def test_score_cells_are_read_by_the_librarys_number_rule() -> None:
    """``1_0`` and full-width ``０.5`` are not numbers here, as in every other score table."""
    from meteor.errors import InputError
    from meteor.io.system_scores import read_system_scores

    for bad in ("1_0", "０.5", "nan"):
        data = f"system\tz\nA\t0.5\nB\t{bad}\n".encode()
        with pytest.raises(InputError, match="not a number"):
            read_system_scores(data, "sys.tsv", "z")
