"""WMT's system level on WMT21 ru-en DA (shared data): ``correlate --system-scores sys_da.tsv``
equals scipy on the official system scores and each metric's score over *every* output of
``all_outputs.tsv`` (11 systems × 1,000 segments, of which 9,832 rows are judged)."""

from __future__ import annotations

import json

import pytest
import scipy.stats
from conftest import shared_path
from sacrebleu.metrics import CHRF

import meteor
from meteor.io.read import load_corpus


def test_cli_system_scores_equal_scipy_on_every_output(capsys: pytest.CaptureFixture[str]) -> None:
    from meteor.cli.command_line import main

    folder = shared_path("wmt21_ru-en_da")
    argv = ["correlate", "--hyp", str(folder / "all_outputs.tsv"),
            "--scores", str(folder / "seg_da.tsv"), "--human-column", "human_score",
            "--system-scores", str(folder / "sys_da.tsv"), "--preset", "meteor-1.5",
            "--baseline", "chrf", "--bootstrap", "20", "--permutations", "0",
            "--format", "json"]  # fmt: skip
    assert main(argv) == 0
    record = json.loads(capsys.readouterr().out)
    level = record["system_level"]
    assert level["human"] == "official" and level["metric_rows"] == "all"
    assert len(level["systems"]) == 11
    official: dict[str, float] = {}
    for line in (folder / "sys_da.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        cells = line.split("\t")
        official[cells[0]] = float(cells[1])  # human_z, the first numeric column
    corpus = load_corpus([("all_outputs.tsv", (folder / "all_outputs.tsv").read_bytes())])
    names = [n for n, _ in corpus.systems]
    human = [official[n] for n in names]
    meteor15: list[float] = []
    chrf: list[float] = []
    for name, hyps in corpus.systems:
        assert len(hyps) == 1000
        refs = [r[0] for r in corpus.refs_of(name)]
        meteor15.append(meteor.corpus_score(list(hyps), refs, "meteor-1.5").score)
        chrf.append(CHRF().corpus_score(list(hyps), [refs]).score)
    by_name = {m["name"]: m["system"] for m in record["metrics"]}
    for name, scores in (("meteor-1.5", meteor15), ("chrf", chrf)):
        assert by_name[name]["pearson"]["value"] == pytest.approx(
            scipy.stats.pearsonr(human, scores).statistic, abs=1e-12
        ), name
        assert by_name[name]["kendall_tau_b"]["value"] == pytest.approx(
            scipy.stats.kendalltau(human, scores).statistic, abs=1e-12
        ), name
