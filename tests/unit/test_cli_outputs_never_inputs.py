"""No output of any command may name a file the command reads, by any name.

Every option whose value is a file the command reads (hypotheses, references, preset
files, word counts, scores, pairs…) is declared an input (:func:`meteor.cli.files.mark_inputs`);
every output (``--jsonl``, ``--csv``, ``--align-out``, ``tune --out``, the files of
``report --out``, ``meteor stream --jsonl``, and stdout itself) is checked against all of
them by file (device and inode), so a symbolic or hard link to an input is one too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.presets import PRESET_FILE_FORMAT, PRESETS, settings_digest

ROOT = Path(__file__).resolve().parents[2]


def preset_file(path: Path) -> Path:
    """A valid preset file (as ``meteor tune --out`` writes one)."""
    doc = {
        "format": PRESET_FILE_FORMAT,
        "version": 1,
        "name": "mine",
        "tuned_on": {"data": "toy"},
        "params": PRESETS["meteor-1.5"].params.to_dict(),
    }
    doc["settings_sha256"] = settings_digest(doc["params"], doc["tuned_on"])
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\n", encoding="utf-8")
    p = preset_file(tmp_path / "p.json")
    os.symlink(p, tmp_path / "soft.json")
    os.link(p, tmp_path / "hard.json")
    return {"h": tmp_path / "h.txt", "r": tmp_path / "r.txt", "p": p}


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("meteor: error: "), err
    return err


@pytest.mark.parametrize("flag", ["--jsonl", "--csv", "--align-out"])
@pytest.mark.parametrize("name", ["p.json", "soft.json", "hard.json"])
def test_score_output_never_overwrites_the_preset_file(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], flag: str, name: str
) -> None:
    before = files["p"].read_bytes()
    target = files["p"].parent / name
    argv = ["score", "-i", str(files["h"]), "-r", str(files["r"]), "--preset-file", str(files["p"])]
    err = refused(capsys, [*argv, flag, str(target)])
    assert "is one of the input files; it would be overwritten" in err and flag in err
    assert files["p"].read_bytes() == before


def test_report_files_never_overwrite_the_word_counts_or_preset_file(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    counts = out / "report.md"
    counts.write_text("cat\t3\n", encoding="utf-8")
    argv = ["report", "--hyp", str(files["h"]), "--ref", str(files["r"]), "--out", str(out)]
    err = refused(capsys, [*argv, "--word-counts", str(counts), "--format", "md", "--force"])
    assert "is one of the input files" in err
    assert counts.read_text(encoding="utf-8") == "cat\t3\n"


def test_tune_out_never_overwrites_a_reference_file(
    capsys: pytest.CaptureFixture[str], files: dict[str, Path], tmp_path: Path
) -> None:
    table = tmp_path / "j.tsv"
    table.write_text("system\tseg_id\thyp\thuman\nA\t1\tthe cat\t1\n", encoding="utf-8")
    link = tmp_path / "ref-link.txt"
    os.symlink(files["r"], link)
    argv = ["tune", "--hyp", str(table), "--ref", str(files["r"]), "--human-column", "human"]
    err = refused(capsys, [*argv, "--out", str(link)])
    assert "is one of the input files" in err


def test_stdout_redirected_into_an_input_is_refused(files: dict[str, Path]) -> None:
    """``meteor score ... >> p.json``: stdout is an input; nothing is written to it."""
    before = files["p"].read_bytes()
    argv = ["score", "-i", str(files["h"]), "-r", str(files["r"]), "--preset-file", str(files["p"])]
    with files["p"].open("ab") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "meteor", *argv],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
    assert proc.returncode == 2, proc.stderr
    assert "stdout is redirected to the input file" in proc.stderr
    assert files["p"].read_bytes() == before
