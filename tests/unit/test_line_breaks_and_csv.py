"""One line-break rule for the CLI, the API and the app (issue 13, item 13), and CSV
exports that a spreadsheet never runs as formulas (item 16)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.cli.command_line import main
from meteor.io.read import load_corpus, split_lines
from meteor.io.record_files import FORMULA_TRIGGERS, csv_cell, segments_csv

PRESET = "meteor-1.5-paper2005"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- line breaks -------------------------------------------------------------------------


def test_cr_only_file_is_one_segment_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A classic-Mac file (CR line ends) used to become a single segment."""
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_bytes(b"the cat sat\rthe dog ran\ra bird flew\r")
    ref.write_bytes(b"the cat sat\nthe dog ran away\r\na bird flew\n")  # LF and CR LF
    jsonl = tmp_path / "seg.jsonl"
    code, out, err = _run(
        capsys, "score", "-p", PRESET, "-i", str(hyp), "-r", str(ref), "--jsonl", str(jsonl)
    )
    assert code == 0, err
    assert "segments 3" in out
    records = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").splitlines()]
    assert [r["hyp"] for r in records] == ["the cat sat", "the dog ran", "a bird flew"]
    assert records[0]["score"] == records[2]["score"] and records[0]["score"] > 0.9


def test_other_separators_stay_inside_a_segment() -> None:
    text = "a\x0bb\x0cc\x1cd\x1de\x1ef\x85g\u2028h\u2029i\n"
    assert split_lines(text) == [text[:-1]]
    assert len(text.splitlines()) == 9  # what str.splitlines (the app's old rule) did
    c = load_corpus([("h.txt", text.encode())], [("r.txt", b"x\n")])
    assert c.n_segments == 1


@pytest.mark.parametrize(
    ("box", "expected"),
    [
        ("ref one\nref two", ("ref one", "ref two")),
        ("ref one\rref two\r\n\nref three", ("ref one", "ref two", "ref three")),
        ("one\u2028reference", ("one\u2028reference",)),  # str.splitlines made two
        ("one\x0creference\x85too", ("one\x0creference\x85too",)),
        ("  \n\rref\n", ("ref",)),  # blank lines are skipped in the box
    ],
)
def test_app_splits_references_by_the_library_rule(box: str, expected: tuple[str, ...]) -> None:
    from pages._pair import check_pair

    checked = check_pair("a hypothesis", box)
    assert checked == ("a hypothesis", expected)
    assert tuple(r for r in split_lines(box) if r.strip()) == expected


# --- CSV -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("a = b", "a = b"),
        ("", ""),
        (None, ""),
        (-0.5, "-0.5"),  # numbers stay numbers
        (3, 3),
    ],
)
def test_csv_cell(value: object, cell: object) -> None:
    assert csv_cell(value) == cell
    assert set(FORMULA_TRIGGERS) == {"=", "+", "-", "@", "\t", "\r"}


def test_segments_csv_escapes_formulas_in_every_text_cell() -> None:
    m = Meteor(PRESET)
    results = [m.score("=1+1 cat", "@cat"), m.score("-x", "+y")]
    text = segments_csv(results, system="=evil", ids=["-1", "@2"])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["hyp"] for r in rows] == ["'=1+1 cat", "'-x"]
    assert [r["ref"] for r in rows] == ["'@cat", "'+y"]
    assert [r["seg_id"] for r in rows] == ["'-1", "'@2"]
    assert {r["system"] for r in rows} == {"'=evil"}
    for r in rows:  # no text cell starts with a trigger; numbers are untouched
        assert not any(v.startswith(FORMULA_TRIGGERS) for k, v in r.items() if k != "score")
        assert float(r["score"]) >= 0.0


def test_cli_csv_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text('=HYPERLINK("http://evil","x")\n+cat\n', encoding="utf-8")
    ref.write_text("@ref\nthe cat\n", encoding="utf-8")
    out_csv = tmp_path / "seg.csv"
    code, _, err = _run(
        capsys, "score", "-p", PRESET, "-i", str(hyp), "-r", str(ref), "--csv", str(out_csv)
    )
    assert code == 0, err
    with out_csv.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["hyp"] == '\'=HYPERLINK("http://evil","x")' and rows[0]["ref"] == "'@ref"
    assert rows[1]["hyp"] == "'+cat"
