"""``python -m meteor explain`` (issue 14): the library's Explanation on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meteor
from meteor.cli.command_line import main

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


def _files(tmp_path: Path) -> tuple[str, str, list[str], list[str]]:
    base = tmp_path
    hyps = [HYP, "the cat sat", ""]
    refs = [REF, "a cat sat on the mat", "something"]
    (base / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (base / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    return str(base / "h.txt"), str(base / "r.txt"), hyps, refs


def test_score_explain_adds_the_record_to_each_jsonl_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h, r, hyps, refs = _files(tmp_path)
    out = f"{tmp_path}/seg.jsonl"
    assert main(["score", "-i", h, "-r", r, "--jsonl", out, "--explain"]) == 0
    capsys.readouterr()
    recs = [json.loads(x) for x in Path(out).read_text(encoding="utf-8").splitlines()]
    assert len(recs) == 3
    m = meteor.Meteor("meteor-1.5")
    for rec, hyp, ref in zip(recs, hyps, refs, strict=True):
        res = m.score(hyp, ref)
        assert rec["score"] == res.score
        assert rec["explain"] == meteor.explain_score(res, m).to_dict()
    # --format jsonl on stdout gives the same records
    assert main(["score", "-i", h, "-r", r, "--format", "jsonl", "--explain"]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == recs
    # without --explain: no field (the records are unchanged)
    assert main(["score", "-i", h, "-r", r, "--format", "jsonl"]) == 0
    plain = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [{k: v for k, v in x.items() if k != "explain"} for x in recs] == plain


def test_score_explain_needs_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h, r, _, _ = _files(tmp_path)
    assert main(["score", "-i", h, "-r", r, "--explain"]) == 2
    assert "--explain adds a field to JSONL" in capsys.readouterr().err
