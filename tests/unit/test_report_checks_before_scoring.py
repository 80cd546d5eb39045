"""``meteor report`` checks its options and its ``--out`` folder before any scoring, with
one clear line each, and never replaces files in ``--out`` silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from meteor.cli.command_line import main

ROWS = ["system\tseg_id\thyp\tref\tdoc"]
for _k in range(1, 61):
    ROWS.append(f"A\t{_k}\tthe cat sat {_k}\tthe cat sat {_k}\tdoc{_k}")
    ROWS.append(f"B\t{_k}\ta cat sat {_k}\tthe cat sat {_k}\tdoc{_k}")


@pytest.fixture
def table(tmp_path: Path) -> str:
    path = tmp_path / "all.tsv"
    path.write_text("\n".join(ROWS) + "\n", encoding="utf-8")
    return str(path)


def refused_before_scoring(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    code = main(["report", *argv, "--bootstrap", "50"])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert "meteor report: score" not in err  # nothing was scored
    assert err.count("\n") == 1 and err.startswith("meteor: error: "), err
    return err[len("meteor: error: ") :].strip()


def test_compare_with_an_unknown_system_is_refused_before_scoring(
    capsys: pytest.CaptureFixture[str], table: str, tmp_path: Path
) -> None:
    """Before: the whole corpus was scored first, then a ValueError's text."""
    err = refused_before_scoring(
        capsys, ["--hyp", table, "--out", str(tmp_path / "o"), "--compare", "A,Z"]
    )
    assert err == "--compare: no system 'Z'; the systems are 'A', 'B'"


def test_an_out_folder_that_cannot_be_made_is_refused_before_scoring(
    capsys: pytest.CaptureFixture[str], table: str
) -> None:
    """Before: scored, then ``Permission denied`` / ``No such file`` when making it."""
    err = refused_before_scoring(capsys, ["--hyp", table, "--out", "/proc/meteor-report"])
    assert (
        err
        == "cannot create --out '/proc/meteor-report': its parent folder '/proc' is not writable"
    )


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            ["--length-edges", ",".join(map(str, range(1, 5001)))],
            "--length-edges gives 5,000 edges; at most 20",
        ),
        (
            [x for k in range(11) for x in ("--label", f"c{k}")],
            "--label is given 11 times; at most 10",
        ),
        (["--label", "doc", "--label", "doc"], "--label 'doc' is given twice"),
        (["--label", "doc"], "--label 'doc': the column has 60 distinct values; at most 50"),
    ],
)
def test_bucket_options_are_capped(
    capsys: pytest.CaptureFixture[str], table: str, tmp_path: Path, option: list[str], message: str
) -> None:
    """Before: any number of edges or label values, each a bucket per system (a report of
    megabytes)."""
    err = refused_before_scoring(capsys, ["--hyp", table, "--out", str(tmp_path / "o"), *option])
    assert err.startswith(message)


def test_report_files_in_out_are_replaced_only_with_force(
    capsys: pytest.CaptureFixture[str], table: str, tmp_path: Path
) -> None:
    """Before: a folder's report.md (and the others) were replaced silently."""
    out = tmp_path / "o"
    out.mkdir()
    (out / "report.md").write_text("my notes\n", encoding="utf-8")
    (out / "ranking.svg").write_text("<svg/>", encoding="utf-8")
    err = refused_before_scoring(capsys, ["--hyp", table, "--out", str(out), "--format", "md,json"])
    assert (
        err
        == f"--out {str(out)!r} already holds report.md; give --force to replace them, or another folder"
    )
    assert (out / "report.md").read_text(encoding="utf-8") == "my notes\n"
    argv = ["report", "--hyp", table, "--out", str(out), "--bootstrap", "50"]
    assert main([*argv, "--format", "json"]) == 0  # report.json is not there: nothing replaced
    capsys.readouterr()
    assert main([*argv, "--format", "md", "--force"]) == 0
    assert (out / "report.md").read_text(encoding="utf-8").startswith("#")


def test_an_empty_out_name_asks_for_a_folder(
    capsys: pytest.CaptureFixture[str], table: str
) -> None:
    assert (
        refused_before_scoring(capsys, ["--hyp", table, "--out", ""]) == "--out needs a folder name"
    )
