"""Issue 31 (output-writing items 1, 2, 12, 13, 16): one writer for every output.

Every command (``score``, ``explain``, ``meteor stream``) writes
through :func:`meteor.cli.files.atomic_output` after :func:`meteor.cli.files.check_outputs`:
an output is never an input (stdin's file included, ``--align-out``'s per-system names
included), is written through a temporary file renamed at the end (a symbolic link's
target, keeping the file's permissions), and a failed write names its file.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meteor.cli import files as cli_io
from meteor.cli.command_line import main
from meteor.errors import ClusterError

PRESET = "meteor-1.5-paper2005"
ROOT = Path(__file__).resolve().parents[2]
HYPS = ["the cat sat on the mat", "a quick brown fox", "he jumped quickly"]
REFS = ["the cat sat on the mat", "the quick brown fox", "he jumps quickly"]
#: A segment the candidate limit refuses at once: shows whether scoring ran first.
EXPLOSIVE = "the " * 1_000

cluster_main = importlib.import_module("meteor.cli.stream")


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("meteor: error: "), err
    return err[len("meteor: error: ") :].strip()


def meteor_cli(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """``python -m meteor …`` in a real process (stdin and stdout are its own files)."""
    return subprocess.run(
        [sys.executable, "-m", "meteor", *argv], cwd=ROOT, timeout=120, check=False, **kwargs
    )


def parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return {"hyp": write(tmp_path / "hyp.txt", HYPS), "ref": write(tmp_path / "ref.txt", REFS)}


# -- item 1: an output is never an input; the cluster command writes through a temp file --


def test_cluster_refuses_an_output_that_is_an_input(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    before = Path(files["hyp"]).read_bytes()
    # before: open(--jsonl, "w") emptied the hypotheses, then the cluster scored nothing
    code = cluster_main.main(
        ["--dask", "local:1", "-i", files["hyp"], "-r", files["ref"], "--jsonl", files["hyp"]]
    )
    err = capsys.readouterr().err
    assert code == 2 and Path(files["hyp"]).read_bytes() == before
    assert err == (
        f"meteor: error: --jsonl {files['hyp']!r} is one of the input files; "
        "it would be overwritten\n"
    )


def test_cluster_failure_leaves_the_previous_output_whole(
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "seg.jsonl"
    out.write_text("previous run\n", encoding="utf-8")

    @contextlib.contextmanager
    def fake_connect(*args: Any, **kwargs: Any) -> Iterator[object]:
        yield object()

    def lost(*args: Any, **kwargs: Any) -> Iterator[Any]:
        raise ClusterError("the scheduler went away")
        yield  # a generator, as the real one

    monkeypatch.setattr(cluster_main, "connect", fake_connect)
    monkeypatch.setattr(cluster_main, "score_stream_lines", lost)
    code = cluster_main.main(
        ["--dask", "local:1", "-i", files["hyp"], "-r", files["ref"], "--jsonl", str(out)]
    )
    assert code == 2 and "the scheduler went away" in capsys.readouterr().err
    # before: the file was opened with "w" (emptied) before the first line was scored
    assert out.read_text(encoding="utf-8") == "previous run\n"
    assert parts(tmp_path) == []


def test_output_that_is_the_file_read_as_stdin_is_refused(files: dict[str, str]) -> None:
    before = Path(files["hyp"]).read_bytes()
    with open(files["hyp"], "rb") as stdin:
        proc = meteor_cli(
            "score", "-p", PRESET, "-r", files["ref"], "--jsonl", files["hyp"],
            stdin=stdin, capture_output=True,
        )  # fmt: skip
    # before: the records replaced the hypotheses (exit 0)
    assert proc.returncode == 2, proc.stderr
    assert Path(files["hyp"]).read_bytes() == before
    assert proc.stderr.decode() == (
        f"meteor: error: --jsonl {files['hyp']!r} is the file read as stdin (an input); "
        "it would be overwritten\n"
    )


# -- item 2: --align-out's per-system names are checked before scoring ------------------------


def test_align_out_per_system_name_that_is_an_input_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a = write(tmp_path / "a.txt", ["fine", EXPLOSIVE])
    b = write(tmp_path / "b.txt", ["fine", EXPLOSIVE])
    ref = write(tmp_path / "x.a.txt", ["fine", EXPLOSIVE])
    msg = usage_error(
        capsys, "score", "-p", PRESET, "-i", a, "-i", b, "-r", ref,
        "--align-out", str(tmp_path / "x.txt"),
    )  # fmt: skip
    # before: the explosive segment failed, and x.a.txt (the reference) was overwritten
    assert (
        msg
        == f"--align-out (system 'a') {ref!r} is one of the input files; it would be overwritten"
    )
    assert Path(ref).read_text(encoding="utf-8").startswith("fine\n")


def test_align_out_per_system_name_that_is_another_output_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a = write(tmp_path / "a.txt", ["fine", EXPLOSIVE])
    b = write(tmp_path / "b.txt", ["fine", EXPLOSIVE])
    jsonl = str(tmp_path / "x.a.out")
    msg = usage_error(
        capsys, "score", "-p", PRESET, "-i", a, "-i", b, "-r", a, "--jsonl", jsonl,
        "--align-out", str(tmp_path / "x.out"),
    )  # fmt: skip
    assert msg == f"--jsonl and --align-out (system 'a') both write {jsonl!r}; give different files"
    assert not Path(jsonl).exists()


# -- item 12: a name that cannot be a file name is refused before scoring -------------------


def test_output_name_that_cannot_be_encoded_is_refused_before_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hyp = write(tmp_path / "hyp.txt", ["fine", EXPLOSIVE])
    bad = str(tmp_path / "seg\ud800.jsonl")  # a lone surrogate: no file system name
    msg = usage_error(capsys, "score", "-p", PRESET, "-i", hyp, "-r", hyp, "--csv", bad)
    # before: "'utf-8' codec can't encode character …", naming no option and no file
    assert msg.startswith(f"cannot write --csv {bad!r}: the name cannot be a file name here")


# -- item 13: symbolic links and permissions ------------------------------------------------


def test_output_through_a_symlink_writes_its_target(files: dict[str, str], tmp_path: Path) -> None:
    target = tmp_path / "real" / "seg.jsonl"
    target.parent.mkdir()
    target.write_text("old\n", encoding="utf-8")
    link = tmp_path / "seg.jsonl"
    link.symlink_to(target)
    code = main(
        ["score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--jsonl", str(link)]
    )
    assert code == 0
    # before: the link was replaced by a file and the target kept "old"
    assert link.is_symlink() and link.resolve() == target
    assert [json.loads(x)["hyp"] for x in target.read_text(encoding="utf-8").splitlines()] == HYPS
    assert parts(tmp_path) == [] and parts(target.parent) == []


def test_existing_output_keeps_its_permissions(files: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "seg.csv"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o600)
    assert (
        main(["score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--csv", str(out)])
        == 0
    )
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # before: 0o644
    assert out.read_text(encoding="utf-8").count("\n") == 1 + len(HYPS)  # the header, the rows


# -- item 16: full disk, closed stdout, stale temporary files, stdout twice, --dask "" -------


def test_full_disk_names_the_output(
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    out = tmp_path / "seg.jsonl"
    real_fdopen = os.fdopen

    class Full(io.TextIOWrapper):
        def write(self, s: str) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def full_fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        return Full(real_fdopen(fd, "wb"), encoding="utf-8")

    monkeypatch.setattr(cli_io.os, "fdopen", full_fdopen)
    code = main(
        ["score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--jsonl", str(out)]
    )
    err = capsys.readouterr().err
    # before: "meteor: error: No space left on device", naming no file
    assert code == 2
    assert err == f"meteor: error: cannot write --jsonl {str(out)!r}: No space left on device\n"
    assert not out.exists() and parts(tmp_path) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "-p", PRESET, "-i", "{hyp}", "-r", "{ref}"],
        ["explain", "--hyp", "a cat", "--ref", "the cat"],
    ],
)
def test_closed_stdout_is_a_clear_error(files: dict[str, str], argv: list[str]) -> None:
    args = [a.format(**files) for a in argv]
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", *args],
        cwd=ROOT,
        timeout=120,
        capture_output=False,
        stdout=None,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(1),  # as the shell's '>&-'
        check=False,
    )
    # before: "internal error (AttributeError …)" for score, and explain printed nothing, exit 0
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        "meteor: error: stdout is closed (started with '>&-'); send it somewhere, "
        "e.g. '> /dev/null'\n"
    )


def test_temporary_file_of_a_killed_writer_is_removed_by_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "seg.jsonl"
    code = (
        "import sys, time\n"
        "from meteor.cli.files import atomic_output\n"
        "with atomic_output(sys.argv[1]) as fh:\n"
        "    fh.write('half'); fh.flush(); print('writing', flush=True); time.sleep(120)\n"
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", code, str(out)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    finally:
        writer.kill()  # kill -9: no clean-up runs
        writer.wait()
    (left,) = parts(tmp_path)
    assert left.startswith(f".seg.jsonl.{writer.pid}.")  # the writer's pid is in the name
    live = tmp_path / f".seg.jsonl.{os.getpid()}.abcdefgh.part"  # a writer still running
    other = tmp_path / f".other.jsonl.{writer.pid}.abcdefgh.part"  # another output's
    live.write_text("x")
    other.write_text("x")
    with cli_io.atomic_output(str(out)) as fh:
        fh.write("whole\n")
    # before: every killed run's temporary file stayed for good
    assert out.read_text() == "whole\n"
    assert parts(tmp_path) == sorted([live.name, other.name])


def test_output_that_is_stdout_is_written_once(files: dict[str, str]) -> None:
    proc = meteor_cli(
        "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"],
        "--jsonl", "/dev/stdout", "--format", "jsonl", capture_output=True,
    )  # fmt: skip
    # before: every record printed twice, exit 0
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode() == (
        "meteor: error: --jsonl '/dev/stdout' and --format jsonl both write to stdout "
        "('/dev/stdout' is where stdout goes: every record would be written twice); choose one\n"
    )
    proc = meteor_cli(
        "score", "-p", PRESET, "-i", files["hyp"], "-r", files["ref"], "--jsonl", "/dev/stdout",
        capture_output=True,
    )  # fmt: skip
    # before: the summary followed the records on stdout; now it goes to stderr, as with '-'
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(x)["hyp"] for x in proc.stdout.decode().splitlines()] == HYPS
    assert "METEOR corpus score" in proc.stderr.decode()


def test_empty_dask_address_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hyp = write(tmp_path / "hyp.txt", ["fine", EXPLOSIVE])
    # before: scored locally (here: the explosive segment's error)
    msg = usage_error(capsys, "score", "-p", PRESET, "-i", hyp, "-r", hyp, "--dask", "")
    assert msg == (
        "--dask needs an address: tcp://HOST:PORT or local:N (leave --dask out to score on "
        "this machine)"
    )
