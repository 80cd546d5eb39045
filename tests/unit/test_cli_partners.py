"""``meteor score``: options are written whole, and an option that only works with another (``--seed`` and
``--max-bootstrap-work`` with ``--bootstrap``, ``--dask-timeout`` with ``--dask``) given
without it says on stderr that it has no effect (it was silently ignored), and the run goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.cli.score_args import check_score_args
from meteor.runners import DASK_TIMEOUT


@pytest.fixture
def pair(tmp_path: Path) -> list[str]:
    (tmp_path / "h.txt").write_text("the cat sat on the mat\na dog\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\nthe dog\n", encoding="utf-8")
    return ["--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt")]


@pytest.mark.parametrize(
    ("extra", "note"),
    [
        (["--seed", "7"], "--seed has no effect without --bootstrap N"),
        (
            ["--max-bootstrap-work", "10"],
            "--max-bootstrap-work has no effect without --bootstrap N",
        ),
        (["--dask-timeout", "5"], "--dask-timeout has no effect without --dask ADDRESS"),
    ],
)
def test_an_option_without_its_partner_is_named(
    pair: list[str], extra: list[str], note: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", *pair, "--workers", "1", "-f", "json", *extra]) == 0
    out, err = capsys.readouterr()
    assert f"meteor: note: {note}" in err.splitlines()
    alone = main(["score", *pair, "--workers", "1", "-f", "json"])
    out_alone, err_alone = capsys.readouterr()
    assert alone == 0 and "no effect" not in err_alone
    assert json.loads(out)["systems"] == json.loads(out_alone)["systems"]


def test_with_its_partner_no_note(pair: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *pair, "--workers", "1", "-b", "100", "--seed", "7", "-f", "json"]) == 0
    assert "no effect" not in capsys.readouterr().err


def test_the_dask_timeout_default_has_one_home() -> None:
    """``--dask-timeout``'s default and the cluster API's are meteor.runners.DASK_TIMEOUT
    (a module that imports no Dask, so ``meteor score`` starts without it:
    tests/unit/test_startup_imports.py); each used to write 60.0 itself."""
    import argparse

    import meteor.cli.score_args as score_args
    from meteor.runners import cluster
    from meteor.runners.cluster import client

    assert cluster.DEFAULT_TIMEOUT is DASK_TIMEOUT and client.DEFAULT_TIMEOUT is DASK_TIMEOUT
    ap = argparse.ArgumentParser()
    score_args.add_score_parser(ap.add_subparsers(dest="command"))
    args = ap.parse_args(["score", "-i", "h.txt", "-r", "r.txt", "--dask", "local:1"])
    check_score_args(args)
    assert args.dask_timeout is DASK_TIMEOUT


@pytest.mark.parametrize("abbreviated", ["--pres", "--boot", "--work"])
def test_options_are_written_whole(
    pair: list[str], abbreviated: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse took ``--pres`` for ``--preset``: a new option starting alike would have
    changed what a script meant."""
    assert main(["score", *pair, abbreviated, "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meteor: error: unrecognized arguments: ") and abbreviated in err
