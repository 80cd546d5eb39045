"""The CLI's parameter options read numbers by the library's rule (:func:`meteor.params.parse_number`):
``--alpha ０.5`` (full-width), ``--beta 1_0`` and ``--weights exact=nan`` are refused with
the option named, never read as 0.5, 10 or NaN."""

from __future__ import annotations

from pathlib import Path

import pytest

from meteor.cli.command_line import main


@pytest.mark.parametrize(
    ("option", "value"),
    [("--alpha", "０.5"), ("--beta", "1_0"), ("--gamma", "nan"), ("--delta", "inf")],
)
def test_parameter_options_refuse_what_float_would_take(
    tmp_path: Path, option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    assert main(["score", "-i", str(hyp), "-r", str(hyp), f"{option}={value}"]) == 2
    err = capsys.readouterr().err
    # not a written number: refused by the option's reader; nan/inf: by the setting's range
    assert f"argument {option}: invalid float value" in err or f"{option[2:]} must be in" in err


@pytest.mark.parametrize("weight", ["1_0", "０.5", "nan"])
def test_weights_refuse_what_float_would_take(
    tmp_path: Path, weight: str, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    argv = ["score", "-i", str(hyp), "-r", str(hyp), "-m", "exact", "-w", f"exact={weight}"]
    assert main(argv) == 2
    assert "--weights: weight of exact must be a number" in capsys.readouterr().err


def test_plain_numbers_still_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = tmp_path / "h.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    assert main(["score", "-i", str(hyp), "-r", str(hyp), "--alpha", "0.5", "-m", "exact",
                 "-w", "exact=1"]) == 0  # fmt: skip
    assert "|a:0.5|" in capsys.readouterr().out
