"""``python -m meteor spans``: the span table on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor.cli.command_line import main

DATA = Path(__file__).parent.parent / "data" / "spans"
DOCS = Path(__file__).parent.parent.parent / "docs" / "spans"
ARGS = ["spans", "--hyp", str(DATA / "en-de.segments.tsv"), "--spans", str(DATA / "en-de.mqm.tsv")]


def test_json_has_every_field_per_setting(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([*ARGS, "-p", "meteor-1.5-de", "--preset-file", str(DOCS / "de-exact.json"),
                 "--bootstrap", "100", "--format", "json"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["raters"] == "union" and out["segments"] == 40
    a, b = out["settings"]
    for key in ("preset", "error_tokens", "flagged", "flagged_errors", "precision", "recall",
                "f1", "by_severity", "by_category", "intervals", "signature"):  # fmt: skip
        assert key in a
    assert a["preset"] == "meteor-1.5-de" and b["preset"] == "de-exact"
    assert "preset:de-exact@" in b["signature"]
    assert a["precision"] == pytest.approx(a["flagged_errors"] / a["flagged"])
    assert a["recall"] == pytest.approx(a["flagged_errors"] / a["error_tokens"])
    assert a["error_tokens"] == b["error_tokens"]  # the same tokenisation, the same errors
    assert b["flagged"] >= a["flagged"]  # exact only leaves at least as many unmatched
    (cmp,) = out["comparisons"]
    assert cmp["baseline"] == "meteor-1.5-de" and 0 <= cmp["p_value"] <= 1
    assert "Minor or worse" in out["definitions"]["error_token"]


def test_text_table_and_majority(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "-p", "meteor-1.5-de", "--raters", "majority", "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "raters: majority" in out and "meteor-1.5-de" in out and "precision" in out


def test_help_states_the_definitions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spans", "--help"]) == 0
    out = capsys.readouterr().out
    assert "severity Minor or" in out and "covers the token in no match" in out
    assert "--raters {union,majority}" in out and "--spans-format {mqm,qe,jsonl}" in out


def test_bad_annotation_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"system": "Nemo", "seg_id": "1", "start": 5, "end": 5, "severity": "Major"}\n')
    assert main(["spans", "--hyp", str(DATA / "en-de.segments.tsv"), "--spans", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.jsonl: line 1: an empty span" in err


def test_skipped_rows_are_warned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (DATA / "en-de.mqm.tsv").read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("</v>", "", 1)
    f = tmp_path / "m.tsv"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["spans", "--hyp", str(DATA / "en-de.segments.tsv"), "--spans", str(f)]
    assert main([*args, "-p", "meteor-1.5-de", "--bootstrap", "0"]) == 0
    err = capsys.readouterr().err
    assert "meteor: warning: m.tsv: line 2: skipped: a <v> mark is never closed" in err
