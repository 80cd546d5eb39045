"""A hostile pass over the commands' options (issue 39's last check): control characters
from a path or an option never reach the terminal raw, ``report --length-edges`` of
hundreds of digits is a usage error (was ``internal error (OverflowError)``), and an
output that is a named pipe with no reader is refused instead of waiting for ever.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path

import pytest

from meteor.cli.command_line import COMMANDS, main
from meteor.cli.files import visible

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@pytest.fixture
def judged(tmp_path: Path) -> str:
    rows = ["system\tseg_id\thyp\tref\thuman"]
    for i, (a, b) in enumerate([("the cat", "a cat"), ("a b", "a c"), ("x y", "x z")], 1):
        rows += [f"A\t{i}\t{a}\t{b}\t0.{i}", f"B\t{i}\t{b}\t{b}\t0.{i + 3}"]
    (tmp_path / "j.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return str(tmp_path / "j.tsv")


@pytest.fixture
def pair(tmp_path: Path) -> list[str]:
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\n", encoding="utf-8")
    return ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt")]


def test_visible_escapes_controls_but_keeps_text() -> None:
    assert visible("a\x1b[31mb\x07c\x00\x9b") == "a\\x1b[31mb\\x07c\\x00\\x9b"
    assert visible("café – дом\tx\ny") == "café – дом\tx\ny"  # white space: split later


def test_report_says_what_it_wrote_without_raw_escapes(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path
) -> None:
    out = tmp_path / "\x1b[31mred\x07"
    argv = ["report", "--hyp", judged, "--format", "json", "--bootstrap", "40", "--out", str(out)]
    assert main(argv) == 0
    got, err = capsys.readouterr()
    assert (out / "report.json").is_file()
    assert not RAW_CONTROL.search(got + err) and "\\x1b[31mred\\x07" in err, err


def test_tune_names_its_file_without_raw_escapes(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path
) -> None:
    out = tmp_path / "\x1b]0;title\x07.json"
    argv = ["tune", "--hyp", judged, "--human-column", "human", "--bootstrap", "40"]
    assert main([*argv, "--out", str(out)]) == 0
    got, err = capsys.readouterr()
    assert json.loads(out.read_text(encoding="utf-8"))["format"] == "meteor-preset"
    assert not RAW_CONTROL.search(got + err) and "\\x1b]0;title\\x07" in got, got


def test_report_format_with_an_escape_is_one_visible_line(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path
) -> None:
    argv = ["report", "--hyp", judged, "--format", "\x1b[2J", "--out", str(tmp_path / "r")]
    assert main(argv) == 2
    got, err = capsys.readouterr()
    assert got == "" and err.count("\n") == 1 and not RAW_CONTROL.search(err), err
    assert "--format" in err and "\\x1b[2j" in err


def test_every_error_line_escapes_controls(
    capsys: pytest.CaptureFixture[str], pair: list[str]
) -> None:
    assert main(["score", *pair, "--jsonl", "/nonexistent\x1b[5m/x\x07.jsonl"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and not RAW_CONTROL.search(err) and "\\x1b[5m" in err, err


@pytest.mark.parametrize("spec", ["5,10," + "9" * 400, "٥,١٠", "1_0", "10, 2_0"])
def test_report_length_edges_plain_whole_numbers_only(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path, spec: str
) -> None:
    argv = ["report", "--hyp", judged, "--format", "json", "--out", str(tmp_path / "r")]
    assert main([*argv, "--length-edges", spec]) == 2
    got, err = capsys.readouterr()
    assert got == "" and err.count("\n") == 1 and "--length-edges" in err, err
    assert "internal error" not in err and len(err) < 300, err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("flag", ["--jsonl", "--csv", "--align-out"])
def test_an_output_fifo_with_no_reader_is_refused(
    capsys: pytest.CaptureFixture[str], pair: list[str], tmp_path: Path, flag: str
) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    code: list[int] = []
    run = threading.Thread(target=lambda: code.append(main(["score", *pair, flag, str(fifo)])))
    run.daemon = True  # before the fix it waits for a reader for ever
    run.start()
    run.join(60)
    if run.is_alive():  # let the blocked writer finish, then fail
        with open(fifo, encoding="utf-8") as fh:
            fh.read()
        run.join(10)
        pytest.fail(f"{flag} on a FIFO with no reader waited for one")
    _, err = capsys.readouterr()
    assert code == [2] and err.count("\n") == 1, err
    assert f"{flag} '{fifo}'" in err and "named pipe (FIFO) that no process reads" in err


def test_an_output_fifo_with_a_reader_gets_the_records(pair: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[str] = []

    def read() -> None:
        with open(fifo, encoding="utf-8") as fh:  # waits in open() for the writer
            got.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.5)  # the reader is inside open(): the pipe has a reader
    assert main(["score", *pair, "--jsonl", str(fifo)]) == 0
    reader.join(30)
    assert got and json.loads(got[0].splitlines()[0])["score"] > 0


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("local:٢", "is neither tcp://HOST:PORT"),
        ("local:２", "is neither tcp://HOST:PORT"),
        ("local:" + "9" * 400, "got a number of 400 digits"),
    ],
)
def test_dask_local_workers_are_plain_digits(
    capsys: pytest.CaptureFixture[str], pair: list[str], address: str, said: str
) -> None:
    assert main(["stream", "--dask", address, *pair]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "--dask" in err and said in err and len(err) < 300, err


@pytest.mark.parametrize("spec", ["exact=1,exact=0.5", "stem=0.5 exact=1 stem=0.2"])
def test_weights_name_each_module_once(
    capsys: pytest.CaptureFixture[str], pair: list[str], spec: str
) -> None:
    assert main(["score", *pair, "-m", "exact stem", "-w", spec]) == 2  # the last one won
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "--weights gives" in err and "twice" in err


LONG = "x" * 100_000


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-p", LONG],
        ["score", "--lang", LONG],
        ["score", "-m", LONG],
        ["score", "-w", "exact=" + LONG],
        ["reconcile", "--from", LONG, "--to", "hf", "--hyp", "a", "--ref", "a"],
        ["stream", "--dask", LONG],
    ],
)
def test_a_huge_value_is_echoed_short(
    capsys: pytest.CaptureFixture[str], pair: list[str], argv: list[str]
) -> None:
    full = [*argv, *pair] if argv[0] in ("score", "stream") else argv
    assert main(full) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and len(err) < 2_000, len(err)
    assert re.search(r"x…\[100,0\d\d characters\]", err), err[:300]  # quotes count too


@pytest.mark.parametrize("command", ["score", "correlate", "report"])
def test_a_table_on_stdin_gets_a_hint_to_name_its_format(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    judged: str,
    tmp_path: Path,
    command: str,
) -> None:
    import io
    import sys

    table = Path(judged).read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(table)))
    argv = {
        "score": ["score", "-i", "-"],
        "correlate": ["correlate", "--hyp", "-", "--human-column", "human"],
        "report": ["report", "--hyp", "-", "--format", "json", "--out", str(tmp_path / "r")],
    }[command]
    assert main(argv) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "no references" in err, err
    assert "<stdin> was read as plain text" in err and "--input-format" in err, err


def test_report_out_dash_is_not_a_folder_named_dash(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--hyp", judged, "--format", "json", "--out", "-"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "'-' (stdout) cannot hold" in err, err
    assert not (tmp_path / "-").exists()


def test_a_file_name_that_is_not_utf8_labels_outputs_as_text(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path
) -> None:
    """A file name with a byte that is not UTF-8 (``$'\\xff.tsv'``, read by Python as a
    lone surrogate) made ``tune --out`` and ``report`` fail after all the work with
    "'utf-8' codec can't encode character '\\udcff' …"; the label shows U+FFFD."""
    odd = os.path.join(os.fsencode(tmp_path), b"\xff.tsv")
    with open(odd, "wb") as fh:
        fh.write(Path(judged).read_bytes())
    name = os.fsdecode(odd)
    out = tmp_path / "t.json"
    argv = ["tune", "--hyp", name, "--human-column", "human", "--bootstrap", "40"]
    assert main([*argv, "--out", str(out)]) == 0, capsys.readouterr().err
    assert json.loads(out.read_text(encoding="utf-8"))["tuned_on"]["data"] == "\ufffd.tsv"
    rep = tmp_path / "rep"
    argv = ["report", "--hyp", name, "--format", "json,md", "--bootstrap", "40", "--out", str(rep)]
    assert main(argv) == 0, capsys.readouterr().err
    json.loads((rep / "report.json").read_text(encoding="utf-8"))


def test_tune_name_not_utf8_is_refused_before_tuning(
    capsys: pytest.CaptureFixture[str], judged: str, tmp_path: Path
) -> None:
    out = tmp_path / "t.json"
    argv = ["tune", "--hyp", judged, "--human-column", "human", "--out", str(out)]
    assert main([*argv, "--name", os.fsdecode(b"tuned-\xff")]) == 2
    got, err = capsys.readouterr()
    assert got == "" and err.count("\n") == 1 and "--name" in err and "not UTF-8" in err, err
    assert "codec" not in err and not out.exists()


@pytest.mark.parametrize("word", ["scroe", "h.txt", "\x1b[31m"])
def test_an_unknown_command_is_named(capsys: pytest.CaptureFixture[str], word: str) -> None:
    assert main([word, "--hyp", "x"]) == 2  # was "unrecognized arguments: scroe" (as score)
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "unknown command" in err, err
    assert not RAW_CONTROL.search(err)
    assert all(f" {c}," in err or f" {c} " in err for c in COMMANDS), err  # spans too


def test_options_alone_still_mean_score(
    capsys: pytest.CaptureFixture[str], pair: list[str]
) -> None:
    assert main(pair) == 0
    assert "METEOR corpus score" in capsys.readouterr().out
