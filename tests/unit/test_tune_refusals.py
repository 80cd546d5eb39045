"""``meteor tune`` refuses what it cannot do, before writing anything: data with nothing to
tune on (no DARR pairs, equal human scores, one row), a name ``--preset-file`` would
refuse, and ``--out - --format json`` (two JSON documents on stdout); ``--out -`` alone
makes stdout the preset file and nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.presets import parse_preset_file

ROWS = [
    ("A", "1", "the cat sat on the mat", "the cat sat on the mat", 90, 1.2),
    ("A", "2", "a dog", "the dog barked loudly", 40, -0.3),
    ("A", "3", "it rains today", "it is raining today", 70, 0.8),
    ("B", "1", "a cat on a mat", "the cat sat on the mat", 60, 0.1),
    ("B", "2", "the dog barked", "the dog barked loudly", 80, 0.9),
    ("B", "3", "rain", "it is raining today", 20, -1.5),
    ("C", "1", "cat", "the cat sat on the mat", 10, -1.9),
    ("C", "2", "dog barked loudly", "the dog barked loudly", 95, 1.4),
    ("C", "3", "it is raining", "it is raining today", 85, 1.0),
]


def _tsv(tmp_path: Path, rows: list[tuple[object, ...]] = ROWS, name: str = "t.tsv") -> Path:
    lines = ["system\tseg_id\thyp\tref\traw\tz"] + ["\t".join(map(str, r)) for r in rows]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _tune(tmp_path: Path, data: Path, *extra: str) -> tuple[int, str, str, Path]:
    out = tmp_path / "tuned.json"
    code = main(["tune", "--hyp", str(data), "--preset", "nltk", "--bootstrap", "10",
                 "--out", str(out), *extra])  # fmt: skip
    return code, "", "", out


@pytest.mark.parametrize(
    ("extra", "rows", "why"),
    [
        (
            ("--human-column", "z", "--darr-column", "z", "--objective", "darr"),
            ROWS,
            "no DARR pairs",
        ),
        (
            ("--human-column", "raw"),
            [(*r[:4], 50, r[5]) for r in ROWS],
            "the human scores ('raw') are all equal",
        ),  # fmt: skip
        (("--human-column", "raw"), ROWS[:1], "1 row: a correlation needs 2 or more"),
        (
            ("--human-column", "raw", "--objective", "system_pearson"),
            ROWS[:3],
            "1 system: a system-level correlation needs 2 or more",
        ),  # fmt: skip
    ],
)
def test_nothing_to_tune_on_is_refused_and_no_file_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: tuple[str, ...],
    rows: list[tuple[object, ...]], why: str,
) -> None:  # fmt: skip
    code, _, _, out = _tune(tmp_path, _tsv(tmp_path, rows), *extra)
    err = capsys.readouterr().err
    assert code == 2 and "nothing to tune on" in err and why in err, err
    assert not out.exists()


def test_a_name_preset_file_would_refuse_is_refused_before_tuning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("   ", "a\x1bb"):
        code, _, _, out = _tune(tmp_path, _tsv(tmp_path), "--human-column", "raw", "--name", name)
        err = capsys.readouterr().err
        assert code == 2 and "--name: field 'name'" in err and not out.exists()
    code, _, _, out = _tune(tmp_path, _tsv(tmp_path), "--human-column", "raw", "--name", "ok")
    assert code == 0 and parse_preset_file(out.read_bytes()).name.startswith("ok@")


def test_out_dash_with_json_is_refused_and_out_dash_alone_is_one_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _tsv(tmp_path)
    argv = ["tune", "--hyp", str(data), "--preset", "nltk", "--human-column", "raw",
            "--bootstrap", "10", "--out", "-"]  # fmt: skip
    assert main([*argv, "-f", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--out - writes the preset file to stdout" in captured.err
    assert main(argv) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)  # one JSON document, the preset file
    assert doc["format"] == "meteor-preset"
    assert parse_preset_file(captured.out.encode()).params.lang == "en"
    assert "tuned nltk for kendall_flat" in captured.err
