"""Human (and metric) score cells are read by the library's one number parser
(:func:`meteor.params.parse_number`): ``1_0``, full-width ``０.5``, ``nan``, ``inf`` and a
400-digit number are not numbers, and a long cell is quoted cut with an ellipsis."""

from __future__ import annotations

import pytest

from meteor.errors import InputError
from meteor.io.scores import read_scores
from meteor.params import parse_number

HEAD = "system\tseg_id\thyp\tref\thuman\n"


def _table(*cells: str) -> bytes:
    rows = [f"A\t{k}\ta b\ta b\t{c}\n" for k, c in enumerate(cells, start=1)]
    return (HEAD + "".join(rows)).encode("utf-8")


@pytest.mark.parametrize("cell", ["1_0", "０.5", "1٫5", "nan", "inf", "-Infinity", "0x10", "1e400",
                                  "1" + "0" * 400, "", "1,5", "½"])  # fmt: skip
def test_not_a_number(cell: str) -> None:
    assert parse_number(cell) is None
    with pytest.raises(InputError, match="human"):
        read_scores(_table("1", cell), "t.tsv", ["human"])


@pytest.mark.parametrize(
    ("cell", "value"),
    [("0.5", 0.5), (" -3 ", -3.0), ("1e-4", 1e-4), ("+.5", 0.5), ("7.", 7.0), ("1E3", 1000.0)],
)
def test_plain_decimals_are_numbers(cell: str, value: float) -> None:
    assert parse_number(cell) == value
    assert read_scores(_table(cell), "t.tsv", ["human"])["human"][("A", "1")] == value


def test_the_refused_cells_are_named_and_a_long_one_is_cut_with_an_ellipsis() -> None:
    with pytest.raises(InputError) as exc:
        read_scores(_table("1_0", "０.5", "1" + "0" * 400), "t.tsv", ["human"])
    message = str(exc.value)
    assert "line 2 ('1_0')" in message and "line 3 ('０.5')" in message
    assert "line 4 ('1" + "0" * 21 + "…[403 characters])" in message
    assert "0" * 40 not in message


def test_the_cli_number_options_use_the_same_parser(capsys: pytest.CaptureFixture[str]) -> None:
    from meteor.cli.command_line import main

    for value in ("1_0", "０.5"):
        assert main(["correlate", "--hyp", "x.tsv", "--human-column", "h",
                     "--darr-threshold", value]) == 2  # fmt: skip
        err = capsys.readouterr().err
        assert "--darr-threshold" in err and "internal error" not in err
