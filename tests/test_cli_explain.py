"""``python -m meteor explain`` (issue 14): the library's Explanation on the command line."""

from __future__ import annotations

import json

import pytest

import meteor
from meteor.cli import main

HYP = "A fast brown fox leapt over a lazy dog"
REF = "The quick brown fox jumps over the lazy dog"


def test_explain_json_is_the_library_record(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["explain", "--preset", "meteor-1.5", "--hyp", HYP, "--ref", REF, "--format", "json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    m = meteor.Meteor("meteor-1.5")
    r = m.score(HYP, REF)
    expected = meteor.explain_score(r, m).to_dict()
    assert data["preset"] == "meteor-1.5"
    assert data["signature"] == r.signature
    assert {k: data[k] for k in expected} == expected


def test_explain_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--hyp", HYP, "--ref", REF, "--ref", "a fast dog"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("score 0.451762")
    assert "fragmentation" in out and "'the' (function)" in out
    assert "after chunk 0: 'over'|'lazy'" in out


def test_explain_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--preset", "nope", "--hyp", "a", "--ref", "b"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meteor: error: unknown preset 'nope'") and err.count("\n") == 1
    assert main(["explain", "--hyp", "a"]) == 2  # --ref is required
