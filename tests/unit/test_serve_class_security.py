"""tools/serve_class.py facing a hostile client or a hostile local program (the real proxy on
loopback, in front of a real ``streamlit run`` of a one-line app; every request bounded).

* Request targets: only origin-form (``/path?query``) reaches a server process; ``@host:port/x``
  (which made the proxy fetch ``http://127.0.0.1:P@host:port/x``), an absolute URI (a 500 after a
  DNS look-up) and ``//host/x`` get 400 and nothing is fetched — a loopback "secret" server
  counts the requests it gets.
* The ``meteor_process`` cookie: ``²``, ``¹`` and 5,000 digits passed ``str.isdigit()`` and then
  broke ``int()`` or the list index (500 and a traceback); now they are ignored.
* Bodies: over ``MAX_BODY`` → 413, by Content-Length before the body is read.
* ``/_class/status`` answers loopback clients only.
* A dead server process's port taken by another local program: that program gets no request
  (before, the restarted process was "alive" while it failed to bind, and the browser's requests
  went to whoever listened there); restarts back off 2 s, 4 s, …
"""

from __future__ import annotations

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

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "tools" / "serve_class.py"
sys.path.insert(0, str(ROOT / "tools"))
import serve_class  # noqa: E402


class Recorder(http.server.ThreadingHTTPServer):
    """A loopback HTTP server that answers everything and keeps each request's path."""

    def __init__(self, port: int = 0) -> None:
        self.allow_reuse_address = True
        self.paths: list[str] = []
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _answer(self) -> None:
                recorder.paths.append(self.path)
                body = b"ok" if self.path.endswith("/_stcore/health") else b"TOP SECRET"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = _answer  # noqa: N815

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(("127.0.0.1", port), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def close(self) -> None:
        self.shutdown()
        self.server_close()


def raw(port: int, data: bytes, timeout: float = 20) -> tuple[int, bytes]:
    """Send ``data`` as it is; the status code and the body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
    answer = b"".join(chunks)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def get(port: int, target: str, cookie: str | None = None) -> tuple[int, bytes]:
    extra = f"Cookie: meteor_process={cookie}\r\n" if cookie is not None else ""
    req = f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}Connection: close\r\n\r\n"
    return raw(port, req.encode("latin-1"))  # a header byte is a latin-1 character (RFC 9110)


def wait_until(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.2)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``serve_class.py --processes 1`` on a free loopback port, serving a one-line app."""
    app_dir = tmp_path_factory.mktemp("app")
    (app_dir / "app.py").write_text('import streamlit as st\nst.write("hello")\n', "utf-8")
    port = serve_class.free_port()
    err = open(app_dir / "stderr.txt", "w+", encoding="utf-8")  # noqa: SIM115
    p = subprocess.Popen(
        [sys.executable, str(LAUNCHER), "--processes", "1", "--port", str(port),
         "--app-dir", str(app_dir), "--start-timeout", "120"],
        cwd=ROOT, env=dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false"),
        stdout=subprocess.PIPE, stderr=err, text=True,
    )  # fmt: skip
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        assert line.startswith("serve_class: 1 server processes"), line
        p.err_path = app_dir / "stderr.txt"  # type: ignore[attr-defined]
        yield port, p
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(timeout=10)
        err.close()


def status(port: int) -> dict[str, Any]:
    code, body = get(port, serve_class.STATUS_PATH)
    assert code == 200, body
    return dict(json.loads(body))


@pytest.mark.parametrize(
    "target",
    ["@127.0.0.1:{port}/secret", "http://127.0.0.1:{port}/secret", "//127.0.0.1:{port}/secret",
     "http://meteor-no-such-host.invalid/", "*"],
)  # fmt: skip
def test_only_paths_reach_a_server_process(proxy: Any, target: str) -> None:
    port, _ = proxy
    secret = Recorder()
    try:
        t0 = time.monotonic()
        for method, body in (("GET", b""), ("POST", b"x=1")):
            req = (
                f"{method} {target.format(port=secret.port)} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode() + body
            code, answer = raw(port, req)
            assert code == 400, (target, code, answer)
            assert b"TOP SECRET" not in answer
        assert time.monotonic() - t0 < 10  # no DNS look-up to wait for
        assert secret.paths == []
    finally:
        secret.close()


def test_an_ordinary_path_still_reaches_the_app(proxy: Any) -> None:
    port, _ = proxy
    assert get(port, "/_stcore/health") == (200, b"ok")


@pytest.mark.parametrize("cookie", ["²", "¹", "9" * 5000, "-1", "1e3", "07", "99"])
def test_a_cookie_that_names_no_process_is_ignored(proxy: Any, cookie: str) -> None:
    port, _ = proxy
    code, body = get(port, "/_stcore/health", cookie=cookie)
    assert (code, body) == (200, b"ok")


def test_a_body_over_the_cap_is_refused_unread(proxy: Any) -> None:
    port, _ = proxy
    req = (
        f"POST /_stcore/upload_file/x HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Length: {serve_class.MAX_BODY + 1}\r\n\r\n"
    ).encode()
    code, _ = raw(port, req)  # no body sent: refused on the header alone
    assert code == 413
    assert serve_class.MAX_BODY <= 64 * 2**20


def test_status_is_for_this_machine_only(proxy: Any) -> None:
    port, p = proxy
    procs = status(port)["processes"]
    assert procs[0]["pid"] > 0 and procs[0]["alive"]
    assert serve_class.is_loopback("127.0.0.1") and serve_class.is_loopback("::1")
    assert not serve_class.is_loopback("192.168.1.20") and not serve_class.is_loopback("")


def test_a_port_taken_after_a_death_gets_nothing_and_restarts_back_off(proxy: Any) -> None:
    port, p = proxy
    wait_until(lambda: status(port)["processes"][0]["alive"], 120, "the process")
    first = status(port)["processes"][0]
    os.kill(first["pid"], signal.SIGKILL)
    wait_until(lambda: not status(port)["processes"][0]["alive"], 30, "the death")
    impostor = Recorder(first["port"])  # another local program takes the port at once
    try:
        deadline = time.monotonic() + 4  # over the restart (2 s after the death)
        while time.monotonic() < deadline:
            code, body = get(port, "/secret-upload", cookie="0")
            assert b"TOP SECRET" not in body and code in (200, 404, 502), (code, body)
            time.sleep(0.1)
        wait_until(lambda: get(port, "/_stcore/health")[0] == 200, 120, "the restart")
        reborn = status(port)["processes"][0]
        assert reborn["restarts"] == 1 and reborn["port"] != first["port"]
        assert impostor.paths == [], impostor.paths
        # a second death soon after: the restart waits twice as long
        os.kill(reborn["pid"], signal.SIGKILL)
        wait_until(lambda: "again in 4 s" in p.err_path.read_text("utf-8"), 30, "the backoff")
        assert "again in 2 s" in p.err_path.read_text("utf-8")
    finally:
        impostor.close()


def test_listening_beyond_this_machine_warns() -> None:
    with socket.socket() as taken:  # a taken port: the launcher stops right after the warning
        taken.bind(("0.0.0.0", 0))  # noqa: S104 -- the point of the test
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, str(LAUNCHER), "--address", "0.0.0.0", "--port", str(port)],
            capture_output=True, text=True, timeout=60, cwd=ROOT,
        )  # fmt: skip
    assert done.returncode == 2
    first = done.stderr.splitlines()[0]
    assert first.startswith("serve_class: warning: listening on 0.0.0.0: every machine"), first
    quiet = subprocess.run(
        [sys.executable, str(LAUNCHER), "--processes", "0"], capture_output=True, text=True,
        timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert "warning" not in quiet.stderr
