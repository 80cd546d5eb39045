"""``meteor stream``'s options are checked before any work, with ``meteor score``'s checks
(one validator each: :mod:`meteor.cli.files`), and every error is one line.

Only the last test starts a cluster (a real ``LocalCluster`` of one worker process).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.presets import PRESET_FILE_FORMAT, PRESETS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pair(tmp_path: Path) -> list[str]:
    (tmp_path / "h.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("the cat sat on a mat\n", encoding="utf-8")
    return ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt")]


def one_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    start = time.monotonic()
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("meteor: error: "), err
    assert time.monotonic() - start < 30  # refused before any cluster or scoring
    return err[len("meteor: error: ") :].strip()


@pytest.mark.parametrize("command", ["stream", "score"])
@pytest.mark.parametrize("timeout", ["0", "-5", "nan", "inf", "1e9"])
def test_dask_timeout_out_of_range_is_refused_up_front(
    pair: list[str], command: str, timeout: str
) -> None:
    """Before: ``stream --dask-timeout 0`` never ended (a core spinning); ``nan``, ``inf``
    and ``-5`` gave internal errors; ``score`` took ``inf``.  A subprocess: a hang fails."""
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", command, "--dask", "local:1", *pair]
        + [f"--dask-timeout={timeout}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("meteor: error: --dask-timeout must be a positive number")
    assert proc.stderr.count("\n") == 1 and proc.stdout == ""


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--width", "-1"], "--width must be between 0 and 17, got -1"),
        (["--width", "18"], "--width must be between 0 and 17, got 18"),
        (["--partition-size", "0"], "--partition-size must be from 1 to 100,000, got 0"),
        (["--partition-size", "10000000"], "--partition-size must be from 1 to 100,000"),
    ],
)
def test_stream_checks_every_option_before_any_work(
    capsys: pytest.CaptureFixture[str], pair: list[str], option: list[str], message: str
) -> None:
    """Before: ``--width -1`` printed a traceback after the whole cluster run."""
    assert message in one_error(capsys, ["stream", "--dask", "local:1", *pair, *option])


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("tcp://127.0.0.1:99999", "has port '99999'; a port is a number from 1 to 65535"),
        ("inproc://x", "inproc://, which is not supported (it reaches a scheduler inside the"),
        ("tcp://", "has no host"),
        ("local:0", "local:N needs 1 to 256 worker processes, got 0"),
    ],
)
@pytest.mark.parametrize("command", ["stream", "score"])
def test_dask_addresses_that_cannot_work_are_named(
    capsys: pytest.CaptureFixture[str], pair: list[str], command: str, address: str, message: str
) -> None:
    """Before: port 99999 was "connection refused: nothing listens there", ``inproc://x``
    "not enough values to unpack"."""
    err = one_error(capsys, [command, "--dask", address, *pair, "--dask-timeout", "2"])
    assert err.startswith("--dask: the Dask address") or err.startswith("--dask: local:N")
    assert message in err


def test_stream_usage_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], pair: list[str]
) -> None:
    """Before: argparse's usage block, several lines."""
    err = one_error(capsys, ["stream", "--dask", "local:1", *pair, "--bogus"])
    assert err == "unrecognized arguments: --bogus (see --help)"
    err = one_error(capsys, ["stream", "--dask", "local:1", *pair, "--width", "3", "--width", "4"])
    assert err.startswith("--width given more than once")


def test_stream_says_stdin_is_not_read(capsys: pytest.CaptureFixture[str], pair: list[str]) -> None:
    """Before: ``cannot read -: no such file``."""
    err = one_error(capsys, ["stream", "--dask", "local:1", "-i", "-", *pair[2:]])
    assert err.startswith("meteor stream cannot read stdin ('-')")


def test_stream_output_never_overwrites_an_input(
    capsys: pytest.CaptureFixture[str], pair: list[str], tmp_path: Path
) -> None:
    preset = tmp_path / "p.json"
    preset.write_text(_preset_document(), encoding="utf-8")
    before = preset.read_bytes()
    argv = ["stream", "--dask", "local:1", *pair, "--preset-file", str(preset)]
    err = one_error(capsys, [*argv, "--jsonl", str(preset)])
    assert "is one of the input files" in err
    assert preset.read_bytes() == before


def _preset_document() -> str:
    params = PRESETS["meteor-1.5"].params.to_dict()
    params["alpha"] = 0.5
    doc = {"format": PRESET_FILE_FORMAT, "version": 1, "name": "half", "params": params}
    return json.dumps({**doc, "tuned_on": {"data": "toy"}})


def test_stream_preset_file_and_local_workers_capped(pair: list[str], tmp_path: Path) -> None:
    """``--preset-file`` as ``meteor score`` has it (the same numbers and signature), and
    ``local:256`` on this machine's CPUs capped with a note.  A real local cluster."""
    preset = tmp_path / "p.json"
    preset.write_text(_preset_document(), encoding="utf-8")
    common = [*pair, "--preset-file", str(preset)]
    run = {"cwd": ROOT, "capture_output": True, "text": True, "timeout": 300}
    score = subprocess.run([sys.executable, "-m", "meteor", "score", *common], **run)  # type: ignore[call-overload]
    assert score.returncode == 0, score.stderr
    stream = subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "meteor", "stream", "--dask", "local:256", *common], **run
    )
    assert stream.returncode == 0, stream.stderr
    assert stream.stdout == score.stdout and "preset:half@" in stream.stdout
    assert "--dask local:256 asks for 256 worker processes, more than the" in stream.stderr


@pytest.mark.parametrize("command", ["stream", "score"])
def test_an_error_mid_run_starts_its_own_line_after_the_progress_bar(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    pair: list[str],
    command: str,
) -> None:
    """``--progress`` and a failure part-way: the bar is closed (its line ended) before the
    one error line, for stream as for score."""
    import meteor.cli.failures as score_cli
    import meteor.cli.stream as stream_cli

    def failing(*args: object, progress: object = None, **kwargs: object) -> object:
        assert callable(progress)
        progress(0.5, "scored 1 of 2 segments")
        raise OSError("disk gone")

    extra = []
    if command == "stream":
        monkeypatch.setattr(stream_cli, "score_stream_lines", failing)
        monkeypatch.setattr(stream_cli, "connect", lambda *a, **k: contextlib.nullcontext())
        extra = ["--dask", "local:1"]  # no cluster starts: connect is replaced
    else:
        monkeypatch.setattr(score_cli, "score_corpus", failing)
    assert main([command, *pair, *extra, "--progress"]) == 2
    err = capsys.readouterr().err
    bar, error = err.rsplit("\n", 2)[-3:-1]
    assert "50%" in bar and error.startswith("meteor: error: ") and "disk gone" in error, err
