"""Issue 31's cluster edges: what answers at ``--dask``, workbench missing on the cluster,
the streaming command's inputs, interruptions and outputs.

Every server here is real and on 127.0.0.1 only: a silent socket, ``http.server``, a
server sending garbage, ``LocalCluster`` schedulers, ``dask scheduler`` / ``dask
worker`` processes.  Commands run as subprocesses with a time limit (a hang fails the
test instead of stopping the suite).
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _processes import stop_processes

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "meteor" / "data" / "demo"


def _env(with_package: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if with_package:
        env["PYTHONPATH"] = str(ROOT)
    return env


def _run(cmd: list[str], timeout: float = 120, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd, capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=timeout, **kw
    )


def _score(address: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return _run(
        [sys.executable, "-m", "meteor", "score", "--dask", address, *extra]
        + ["-i", str(DEMO / "system_a.txt"), "-r", str(DEMO / "reference.txt")]
    )


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("meteor: error: "), lines[0]
    return lines[0]


# ---------------------------------------------------------------------------
# item 3: --dask to something that is not a scheduler
# ---------------------------------------------------------------------------
@contextlib.contextmanager
def _server(on_connect: Any) -> Iterator[str]:
    """A TCP server on 127.0.0.1 calling ``on_connect(sock)`` per connection; its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):
                on_connect(conn)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


@contextlib.contextmanager
def _http_server() -> Iterator[str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def test_dask_address_of_a_silent_socket_fails_within_the_timeout() -> None:
    with _server(lambda conn: None) as address:  # accepts, then says nothing
        line = _one_error_line(_score(address, "--dask-timeout", "2"))
    assert f"cannot reach the Dask scheduler at {address} within 2 s (no answer" in line


def test_dask_address_of_an_http_server_is_named() -> None:
    with _http_server() as address:
        line = _one_error_line(_score(address, "--dask-timeout", "3"))
    assert line.startswith(f"meteor: error: {address} is not a Dask scheduler (an HTTP server")


def test_dask_address_sending_garbage_is_named() -> None:
    with _server(lambda conn: conn.sendall(b"\xff" * 64)) as address:
        line = _one_error_line(_score(address, "--dask-timeout", "3"))
    assert line.startswith(f"meteor: error: {address} is not a Dask scheduler (it answered")
    assert "MemoryError" not in line and "internal error" not in line


def test_dask_address_of_a_real_scheduler_still_connects() -> None:
    """The probe lets a real scheduler through (its handshake), workers or not."""
    from distributed import LocalCluster

    from meteor.runners.cluster import connect

    with LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=False,
        protocol="tcp://",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        with connect(cluster.scheduler_address, timeout=20) as client:
            assert len(client.nthreads()) == 1


# ---------------------------------------------------------------------------
# item 8: a scheduler or workers without the package
# ---------------------------------------------------------------------------
@contextlib.contextmanager
def _dask(tmp: Path, scheduler_has_it: bool, worker_has_it: bool) -> Iterator[dict[str, Any]]:
    """``dask scheduler`` + one ``dask worker`` on 127.0.0.1, started in ``tmp`` with or
    without this package on their path (it is not installed: only PYTHONPATH finds it)."""
    procs: list[subprocess.Popen[bytes]] = []
    logs = []

    def spawn(cmd: list[str], has_it: bool, name: str) -> subprocess.Popen[bytes]:
        log = (tmp / f"{name}.log").open("wb")
        logs.append(log)
        p = subprocess.Popen(cmd, env=_env(has_it), cwd=tmp, stdout=log, stderr=subprocess.STDOUT)
        procs.append(p)
        return p

    sched_file = tmp / "scheduler.json"
    try:
        spawn(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
            + ["--port", "0", "--no-dashboard", "--scheduler-file", str(sched_file)],
            scheduler_has_it,
            "scheduler",
        )
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.3)
        address = json.loads(sched_file.read_text())["address"]
        worker = spawn(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1"]
            + ["--nthreads", "1", "--no-nanny", "--no-dashboard", "--death-timeout", "60"],
            worker_has_it,
            "worker",
        )
        yield {"address": address, "worker": worker}
    finally:
        stop_processes(procs, logs)


def test_workers_without_the_package_are_named(tmp_path: Path) -> None:
    with _dask(tmp_path, scheduler_has_it=True, worker_has_it=False) as dask:
        line = _one_error_line(_score(dask["address"], "--dask-timeout", "30"))
    assert line.startswith("meteor: error: the Dask worker at tcp://127.0.0.1:"), line
    assert "cannot import meteor (ModuleNotFoundError: No module named 'meteor')" in line
    assert "install the workbench there" in line


def test_scheduler_without_the_package_is_named(tmp_path: Path) -> None:
    with _dask(tmp_path, scheduler_has_it=False, worker_has_it=True) as dask:
        line = _one_error_line(_score(dask["address"], "--dask-timeout", "30"))
        assert line.startswith(f"meteor: error: the Dask scheduler at {dask['address']} "), line
    assert "cannot import meteor (ModuleNotFoundError: No module named 'meteor')" in line
    assert "internal error" not in line and "deserialization" not in line


# ---------------------------------------------------------------------------
# item 9: the streaming command's inputs, interruptions and output
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with _dask(tmp_path_factory.mktemp("dask"), True, True) as dask:
        yield dask


def _texts(tmp: Path, n: int, long_at: int | None = None) -> tuple[Path, Path]:
    hyp, ref = tmp / "hyp.txt", tmp / "ref.txt"
    hyps = [f"the cat number {k} sat on the mat" for k in range(n)]
    if long_at is not None:
        hyps[long_at - 1] = "word " * 60_000  # 300,000 characters
    hyp.write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    ref.write_text("".join(f"a cat {k} was on a mat\n" for k in range(n)), encoding="utf-8")
    return hyp, ref


def _stream_cmd(address: str, hyp: Path, ref: Path, out: Path, *extra: str) -> list[str]:
    cmd = [sys.executable, "-m", "meteor", "stream", "--dask", address]
    return (
        cmd
        + ["-i", str(hyp), "-r", str(ref), "--jsonl", str(out)]
        + [
            "--dask-timeout",
            "60",
            *extra,
        ]
    )


def _no_output(folder: Path, out: Path) -> None:
    assert not out.exists(), f"{out.name} left with {len(out.read_bytes()):,} bytes"
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".part")]


def test_stream_segment_over_the_length_limit_is_refused_up_front(
    cluster: dict[str, Any], tmp_path: Path
) -> None:
    hyp, ref = _texts(tmp_path, 1_200, long_at=900)
    out = tmp_path / "out.jsonl"
    cmd = _stream_cmd(cluster["address"], hyp, ref, out, "--partition-size", "50")
    line = _one_error_line(_run(cmd, timeout=300))
    assert line == (
        "meteor: error: hyp.txt: line 900 has a segment of 300,000 characters; at most "
        "200,000 per segment are accepted (as in meteor score) — split the segment"
    )
    _no_output(tmp_path, out)


def test_stream_reference_file_one_line_short_is_refused_up_front(
    cluster: dict[str, Any], tmp_path: Path
) -> None:
    hyp, ref = _texts(tmp_path, 1_200)
    ref.write_text("".join(ref.read_text(encoding="utf-8").splitlines(True)[:-1]), "utf-8")
    out = tmp_path / "out.jsonl"
    line = _one_error_line(_run(_stream_cmd(cluster["address"], hyp, ref, out), timeout=300))
    assert line == (
        "meteor: error: ref.txt has 1,199 segments but hyp.txt has 1,200; every file needs "
        "one segment per line (nothing was scored)"
    )
    _no_output(tmp_path, out)


def _default_sigint() -> None:  # a child of a background job would ignore SIGINT
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("sig", "code", "word"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_stream_interrupted_mid_run_leaves_no_output(
    cluster: dict[str, Any], tmp_path: Path, sig: int, code: int, word: str
) -> None:
    hyp, ref = _texts(tmp_path, 20_000)
    out = tmp_path / "out.jsonl"
    cmd = _stream_cmd(cluster["address"], hyp, ref, out, "--partition-size", "20", "--progress")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=_env(), stderr=subprocess.PIPE, preexec_fn=_default_sigint
    )
    assert proc.stderr is not None
    err = bytearray()
    sent = False
    try:
        while chunk := proc.stderr.read1(4096):
            err.extend(chunk)
            if not sent and b"scored " in err:
                proc.send_signal(sig)  # mid-run: partitions scored, more in flight
                sent = True
        assert proc.wait(timeout=120) == code, err.decode()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert sent, err.decode()
    text = err.decode()
    assert b"scored 20,000 of 20,000" not in err, "the run ended before the signal"
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert text.rstrip("\n").rsplit("\n", 1)[-1] == f"meteor: {word}"
    _no_output(tmp_path, out)


def test_local_cluster_says_nothing_when_port_8787_is_taken() -> None:
    """``--dask local:N`` beside another Dask (its dashboard on 8787): the scheduler takes
    another port for its HTTP endpoint, and the user sees the scores, not distributed's
    "Port 8787 is already in use" warning."""
    held = socket.socket()
    with contextlib.suppress(OSError):  # already taken by something else: just as good
        held.bind(("127.0.0.1", 8787))
        held.listen()
    try:
        proc = _score("local:1")
    finally:
        held.close()
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("METEOR corpus score (summed statistics) = 0."), proc.stdout
    assert "already in use" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
