"""Every file any command reads is checked before any work: a named pipe (FIFO) with no
writer, given to any input option of any command, is refused at once instead of hanging
(:func:`meteor.cli.files.check_inputs`); so is the same file given twice to one option."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from meteor.cli.command_line import main

TABLE = "system\tseg_id\thyp\tref\thuman\nA\t1\tthe cat\ta cat\t1\nB\t1\tthe dog\ta cat\t2\n"


class HungError(Exception):
    pass


@pytest.fixture
def alarm() -> Iterator[None]:
    """Fail (instead of hanging for ever) when a command blocks for 20 s."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise HungError("the command blocked")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "h.txt").write_text("the cat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("a cat\n", encoding="utf-8")
    (tmp_path / "j.tsv").write_text(TABLE, encoding="utf-8")
    os.mkfifo(tmp_path / "fifo.json")
    return {
        "h": str(tmp_path / "h.txt"),
        "r": str(tmp_path / "r.txt"),
        "j": str(tmp_path / "j.tsv"),
        "fifo": str(tmp_path / "fifo.json"),
        "out": str(tmp_path / "out"),
    }


CASES = [
    ("score -i {h} -r {r} --preset-file {fifo}", "preset file"),
    ("explain --hyp a --ref b --preset-file {fifo}", "preset file"),
    ("reconcile --from-file {fifo} --to nltk --hyp a --ref b", "preset file"),
    ("reconcile --from nltk --to-file {fifo} --hyp a --ref b", "preset file"),
    ("reconcile --from nltk --to hf -i {fifo} -r {r}", "hypothesis file"),
    ("correlate --hyp {j} --human-column human --preset-file {fifo}", "preset file"),
    ("correlate --hyp {j} --human-column human --scores {fifo}", "scores file"),
    ("tune --hyp {j} --human-column human --ref {fifo}", "reference file"),
    ("report --hyp {h} --ref {r} --out {out} --preset-file {fifo}", "preset file"),
    ("report --hyp {h} --ref {r} --out {out} --word-counts {fifo}", "word counts file"),
]


@pytest.mark.parametrize(("command", "what"), CASES)
def test_a_fifo_input_is_refused_not_waited_on(
    capsys: pytest.CaptureFixture[str], alarm: None, paths: dict[str, str], command: str, what: str
) -> None:
    code = main(command.format(**paths).split())
    out, err = capsys.readouterr()
    assert code == 2, err
    assert err.startswith(
        f"meteor: error: cannot read {what} '{paths['fifo']}': it is a named pipe"
    )
    assert err.count("\n") == 1 and out == ""


@pytest.mark.parametrize(
    "command",
    [
        "correlate --hyp {j} --hyp {j} --human-column human",
        "tune --hyp {j} --hyp {j} --human-column human",
        "report --hyp {j} --hyp {j} --out {out}",
        "score -i {h} -i {h} -r {r}",
        "score -i {h} -r {r} -r {r}",
    ],
)
def test_the_same_file_twice_is_refused(
    capsys: pytest.CaptureFixture[str], paths: dict[str, str], command: str
) -> None:
    """Before: correlate/tune stopped with ``internal error (KeyError)``, report scored every
    system twice, silently (each compared with its copy)."""
    code = main(command.format(**paths).split())
    out, err = capsys.readouterr()
    assert code == 2, err
    assert "twice; give each file once" in err and err.count("\n") == 1
    assert not Path(paths["out"]).exists()


def test_the_same_file_under_another_name_is_refused(
    capsys: pytest.CaptureFixture[str], paths: dict[str, str], tmp_path: Path
) -> None:
    link = tmp_path / "link.tsv"
    os.symlink(paths["j"], link)
    code = main(["correlate", "--hyp", paths["j"], "--hyp", str(link), "--human-column", "human"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"--hyp names {str(link)!r} and {paths['j']!r}: the same file" in err
