"""Every number option of every command takes plain ASCII numbers only: Python's ``int``
and ``float`` also accept other scripts' digits (``٣``, full-width ``１``), ``1_0`` and
surrounding spaces, so ``--beta 1_0`` scored with β = 10 and ``--seed ٣`` ran silently.
A number of hundreds of digits is refused short, not echoed in full or taken as ``inf``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.cli.numbers import MAX_DIGITS, real_number, whole_number


@pytest.fixture
def pair(tmp_path: Path) -> list[str]:
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\n", encoding="utf-8")
    return ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt")]


@pytest.fixture
def judged(tmp_path: Path) -> list[str]:
    rows = ["system\tseg_id\thyp\tref\thuman"]
    for i, (a, b) in enumerate([("the cat", "a cat"), ("a b", "a c"), ("x y", "x z")], 1):
        rows += [f"A\t{i}\t{a}\t{b}\t0.{i}", f"B\t{i}\t{b}\t{b}\t0.{i + 3}"]
    (tmp_path / "j.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return ["--hyp", str(tmp_path / "j.tsv"), "--human-column", "human"]


def one_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("meteor: error: "), err
    return err


NOT_PLAIN = ["٣", "１", "1_0", " 2", "2 ", "+ 1", "0x10", "²"]


@pytest.mark.parametrize("value", NOT_PLAIN)
@pytest.mark.parametrize(
    "option", ["--width", "--bootstrap", "--seed", "--workers", "--max-bootstrap-work"]
)
def test_score_whole_number_options_refuse_other_digits(
    capsys: pytest.CaptureFixture[str], pair: list[str], option: str, value: str
) -> None:
    err = one_error(capsys, ["score", *pair, option, value])
    assert option in err and "digits 0-9" in err


@pytest.mark.parametrize("value", ["٠.٥", "０.5", "1_0", " 0.5", "0.5 ", "½"])
@pytest.mark.parametrize("option", ["--alpha", "--beta", "--gamma", "--delta", "--dask-timeout"])
def test_score_real_number_options_refuse_other_digits(
    capsys: pytest.CaptureFixture[str], pair: list[str], option: str, value: str
) -> None:
    err = one_error(capsys, ["score", *pair, option, value])
    assert option in err and "digits 0-9" in err


@pytest.mark.parametrize(
    ("command", "option"),
    [
        ("correlate", "--workers"),
        ("correlate", "--darr-threshold"),
        ("tune", "--folds"),
        ("tune", "--workers"),
        ("reconcile", "--orders"),
        ("report", "--workers"),
        ("report", "--seed"),
    ],
)
def test_other_commands_refuse_other_digits(
    capsys: pytest.CaptureFixture[str], judged: list[str], command: str, option: str
) -> None:
    if command == "reconcile":
        argv = ["reconcile", "--from", "hf", "--to", "meteor-1.5", "--hyp", "a", "--ref", "a"]
    elif command == "report":
        argv = ["report", "--hyp", judged[1], "--format", "json"]
    else:
        argv = [command, *judged]
    err = one_error(capsys, [*argv, option, "٣"])
    assert option in err and "digits 0-9" in err


@pytest.mark.parametrize("option", ["--partition-size", "--width", "--dask-timeout"])
def test_stream_refuses_other_digits(
    capsys: pytest.CaptureFixture[str], pair: list[str], option: str
) -> None:
    err = one_error(capsys, ["stream", "--dask", "local:1", *pair, option, "１"])
    assert option in err and "digits 0-9" in err


@pytest.mark.parametrize("option", ["--seed", "--width", "--bootstrap", "--workers"])
def test_hundreds_of_digits_are_refused_short(
    capsys: pytest.CaptureFixture[str], pair: list[str], option: str
) -> None:
    err = one_error(capsys, ["score", *pair, option, "9" * 400])
    assert option in err and "400 digits" in err and len(err) < 200, err


def test_tune_folds_of_400_digits_names_the_option(
    capsys: pytest.CaptureFixture[str], judged: list[str]
) -> None:
    err = one_error(capsys, ["tune", *judged, "--folds", "9" * 400, "--group-by", "system"])
    assert "--folds" in err and len(err) < 200, err


@pytest.mark.parametrize("value", ["1e400", "9" * 400, "-1e999"])
def test_a_real_number_too_large_is_not_infinity(
    capsys: pytest.CaptureFixture[str], pair: list[str], value: str
) -> None:
    err = one_error(capsys, ["score", *pair, f"--alpha={value}"])
    assert "--alpha" in err and "too large" in err and "got inf" not in err, err


def test_weights_refuse_other_digits(capsys: pytest.CaptureFixture[str], pair: list[str]) -> None:
    err = one_error(capsys, ["score", *pair, "-m", "exact stem", "-w", "exact=１,stem=0.5"])
    assert "--weights" in err and "digits 0-9" in err


def test_plain_numbers_still_parse() -> None:
    assert [whole_number(t) for t in ["0", "7", "-3", "+4", "0012"]] == [0, 7, -3, 4, 12]
    assert whole_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    assert [real_number(t) for t in ["0.5", ".5", "5.", "1e-3", "-2E+2", "+1"]] == [
        0.5,
        0.5,
        5.0,
        0.001,
        -200.0,
        1.0,
    ]
    nan, inf, minus = real_number("nan"), real_number("Infinity"), real_number("-inf")
    assert nan != nan and inf == float("inf") and minus == float("-inf")  # range checks say why
    with pytest.raises(argparse.ArgumentTypeError):
        whole_number("")
    with pytest.raises(argparse.ArgumentTypeError):
        real_number("")


def test_plain_values_still_score(capsys: pytest.CaptureFixture[str], pair: list[str]) -> None:
    argv = [
        "score",
        *pair,
        "--alpha",
        "0.5",
        "--beta",
        "1e0",
        "--width",
        "3",
        "-b",
        "100",
        "--seed",
        "7",
    ]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert "a:0.5|b:1|" in out and err == ""
