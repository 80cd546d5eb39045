"""Serve the app to a class: several Streamlit server processes behind one address.

    python tools/serve_class.py --processes 2 --port 8501                 # this machine only
    python tools/serve_class.py --processes 2 --port 8501 --address 0.0.0.0   # the classroom

One ``streamlit run app.py`` process runs every session's script in threads that share
one interpreter lock, so it uses about one core however many the machine has: on the
2-core machine one process answered 10 sessions typing at once within 2 s (p95) but not
20 (docs/app-load.md, "A class at once").  This starts ``--processes`` server processes
on free ports of 127.0.0.1 (each with its own long-pair worker and caches) and one small
reverse proxy on ``--address:--port`` that spreads the browsers over them.

Streamlit needs session affinity: a session lives in the process its websocket reached,
and the page's other requests (file uploads, downloads, media) must reach the same one.
So the proxy gives each browser a cookie (``meteor_process``) with the first response and
sends every later request and websocket of that browser to that process; a browser (or
websocket) without the cookie goes to the process with the fewest open sessions.  If a
server process dies the launcher starts it again on the same port (its sessions
reconnect and start afresh: the pair is in the URL).

Plain Python: tornado (installed with Streamlit) and the standard library; nothing to
install.  ``/_class/status`` answers the processes, their ports and open sessions (JSON).
Ctrl+C or SIGTERM stops the proxy and every server process it started.
Tested end to end in tests/browser/test_class_serving.py.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from tornado import httpclient, httputil, web, websocket
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop, PeriodicCallback
from tornado.netutil import bind_sockets

ROOT = Path(__file__).resolve().parents[1]
COOKIE = "meteor_process"
STATUS_PATH = "/_class/status"
MAX_PROCESSES = 16
#: What a request or websocket message may carry (Streamlit's own defaults are 200 MB).
MAX_BYTES = 256 * 2**20
#: Headers that belong to one connection, never forwarded.
HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "content-length",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """The server process gets SIGTERM if the launcher dies (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Backend:
    """One ``streamlit run app.py`` on a port of 127.0.0.1."""

    def __init__(self, index: int, app_dir: Path, extra: list[str]) -> None:
        self.index = index
        self.port = free_port()
        self.app_dir = app_dir
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.sessions = 0  # open websockets through the proxy
        self.restarts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
             "--server.address=127.0.0.1", f"--server.port={self.port}",
             "--server.fileWatcherType=none", *self.extra],
            cwd=self.app_dir,
            stdout=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 -- the launcher is single-threaded
        )  # fmt: skip

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as resp:
                return bool(resp.read().decode().strip() == "ok")
        except OSError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


class Pool:
    """The server processes, and which one a browser goes to."""

    def __init__(self, backends: list[Backend]) -> None:
        self.backends = backends
        self._next = 0

    def pick(self, cookie: str | None) -> tuple[Backend, bool]:
        """The browser's process (by its cookie), else the least busy; and whether it is new."""
        if cookie is not None and cookie.isdigit() and int(cookie) < len(self.backends):
            b = self.backends[int(cookie)]
            if b.alive():
                return b, False
        live = [b for b in self.backends if b.alive()] or self.backends
        fewest = min(b.sessions for b in live)
        ties = [b for b in live if b.sessions == fewest]
        self._next += 1
        return ties[self._next % len(ties)], True

    def status(self) -> dict[str, Any]:
        return {
            "processes": [
                {
                    "index": b.index,
                    "port": b.port,
                    "pid": b.proc.pid if b.proc else None,
                    "alive": b.alive(),
                    "sessions": b.sessions,
                    "restarts": b.restarts,
                }
                for b in self.backends
            ]
        }


def _forwarded(headers: httputil.HTTPHeaders, drop: set[str]) -> httputil.HTTPHeaders:
    out = httputil.HTTPHeaders()
    for name, value in headers.get_all():
        if name.lower() not in drop:
            out.add(name, value)
    return out


class StatusHandler(web.RequestHandler):
    def initialize(self, pool: Pool) -> None:
        self.pool = pool

    def get(self) -> None:
        self.set_header("Content-Type", "application/json")
        self.write(json.dumps(self.pool.status()))


class HttpProxy(web.RequestHandler):
    """Any HTTP request: to the browser's process, the answer back as it came."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")

    def initialize(self, pool: Pool, client: httpclient.AsyncHTTPClient) -> None:
        self.pool = pool
        self.client = client

    async def _proxy(self) -> None:
        b, new = self.pool.pick(self.get_cookie(COOKIE))
        has_body = self.request.method in ("POST", "PUT", "PATCH")
        req = httpclient.HTTPRequest(
            b.url + self.request.uri,
            method=self.request.method,
            headers=_forwarded(self.request.headers, HOP),
            body=self.request.body if has_body else None,
            follow_redirects=False,
            decompress_response=False,
            allow_nonstandard_methods=True,
            request_timeout=600,
        )
        resp = await self.client.fetch(req, raise_error=False)
        if resp.code == 599:  # the process did not answer (restarting)
            self.set_status(502)
            self.write("The app's server process is restarting; reload in a few seconds.\n")
            return
        self.set_status(resp.code, resp.reason)
        self.clear_header("Content-Type")
        seen: set[str] = set()
        for name, value in resp.headers.get_all():
            if name.lower() in HOP:
                continue
            if name.lower() in seen:
                self.add_header(name, value)  # e.g. several Set-Cookie
            else:
                self.set_header(name, value)  # replaces the proxy's own Server, Date
                seen.add(name.lower())
        self.set_header("X-Meteor-Process", str(b.index))
        if new:
            self.set_cookie(COOKIE, str(b.index), httponly=True, samesite="Lax")
        if resp.body and resp.code not in (204, 304) and self.request.method != "HEAD":
            self.write(resp.body)

    get = post = put = delete = patch = options = head = _proxy


class WsProxy(websocket.WebSocketHandler):
    """Streamlit's websocket (``/_stcore/stream``): one to the browser's process, both ways."""

    def initialize(self, pool: Pool) -> None:
        self.pool = pool
        self.upstream: websocket.WebSocketClientConnection | None = None
        self.backend: Backend | None = None

    async def get(self, *args: Any, **kwargs: Any) -> None:
        b, _ = self.pool.pick(self.get_cookie(COOKIE))
        protos = [
            p.strip()
            for p in self.request.headers.get("Sec-WebSocket-Protocol", "").split(",")
            if p.strip()
        ]
        req = httpclient.HTTPRequest(
            f"ws://127.0.0.1:{b.port}{self.request.uri}",
            headers=_forwarded(
                self.request.headers,
                HOP
                | {
                    h
                    for h in (k.lower() for k in self.request.headers)
                    if h.startswith("sec-websocket")
                },
            ),
            request_timeout=60,
        )
        try:
            self.upstream = await websocket.websocket_connect(
                req, subprotocols=protos or None, max_message_size=MAX_BYTES
            )
        except Exception:  # noqa: BLE001 -- the process is down: the browser reconnects
            self.set_status(502)
            self.finish()
            return
        self.backend = b
        b.sessions += 1
        await super().get(*args, **kwargs)  # type: ignore[no-untyped-call]
        if self.ws_connection is None:  # the handshake failed
            self._release()

    def check_origin(self, origin: str) -> bool:
        return True  # the server process checks Origin against Host itself (both forwarded)

    def select_subprotocol(self, subprotocols: list[str]) -> str | None:
        return self.upstream.selected_subprotocol if self.upstream is not None else None

    def open(self, *args: str, **kwargs: str) -> None:
        IOLoop.current().spawn_callback(self._pump)

    async def _pump(self) -> None:
        up = self.upstream
        assert up is not None
        while True:
            msg = await up.read_message()
            if msg is None:
                self.close()
                return
            try:
                await self.write_message(msg, binary=isinstance(msg, bytes))
            except websocket.WebSocketClosedError:
                return

    async def on_message(self, message: str | bytes) -> None:
        if self.upstream is not None:
            try:
                await self.upstream.write_message(message, binary=isinstance(message, bytes))
            except websocket.WebSocketClosedError:
                self.close()

    def on_close(self) -> None:
        self._release()

    def _release(self) -> None:
        if self.upstream is not None:
            self.upstream.close()
            self.upstream = None
        if self.backend is not None:
            self.backend.sessions -= 1
            self.backend = None


def make_app(pool: Pool) -> web.Application:
    client = httpclient.AsyncHTTPClient(
        force_instance=True, max_clients=200, max_body_size=MAX_BYTES, max_buffer_size=MAX_BYTES
    )
    return web.Application(
        [
            (STATUS_PATH, StatusHandler, {"pool": pool}),
            (r"/_stcore/stream", WsProxy, {"pool": pool}),
            (r".*", HttpProxy, {"pool": pool, "client": client}),
        ],
        websocket_max_message_size=MAX_BYTES,
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="serve_class.py",
        description="Several Streamlit server processes of the app behind one address.",
    )
    ap.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    ap.add_argument("--port", type=int, default=8501, help="the address's port (default 8501)")
    ap.add_argument(
        "--address", default="127.0.0.1", help="where to listen (0.0.0.0: every interface)"
    )
    ap.add_argument(
        "--start-timeout",
        type=float,
        default=300,
        help="seconds a server process may take to start",
    )
    ap.add_argument("--app-dir", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args, extra = ap.parse_known_args(argv)
    if not 1 <= args.processes <= MAX_PROCESSES:
        ap.error(f"--processes: a number from 1 to {MAX_PROCESSES}, not {args.processes}")
    if not 1 <= args.port <= 65535:
        ap.error(f"--port: a port from 1 to 65535, not {args.port}")
    bad = [x for x in extra if not x.startswith("--server.") and not x.startswith("--runner.")]
    if bad:
        ap.error(f"unknown option {bad[0]} (Streamlit's --server.* options are passed on)")
    args.extra = extra
    return args


async def serve(args: argparse.Namespace, sockets: list[socket.socket]) -> int:
    """Start the server processes, then proxy until SIGTERM or Ctrl+C; the exit status."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopped.set)
    backends = [Backend(k, args.app_dir, args.extra) for k in range(args.processes)]
    try:
        for b in backends:
            b.start()
        deadline = time.monotonic() + args.start_timeout
        waiting = list(backends)
        while waiting:
            dead = [b for b in waiting if not b.alive()]
            if dead or time.monotonic() > deadline:
                print(
                    f"serve_class: server process {(dead or waiting)[0].index} did not start "
                    f"within {args.start_timeout:.0f} s (its errors are above)",
                    file=sys.stderr,
                )
                return 1
            ok = await asyncio.gather(*(asyncio.to_thread(b.healthy) for b in waiting))
            waiting = [b for b, up in zip(waiting, ok, strict=True) if not up]
            try:
                await asyncio.wait_for(stopped.wait(), 0.3)
                return 0
            except TimeoutError:
                pass
        pool = Pool(backends)
        server = HTTPServer(make_app(pool), max_body_size=MAX_BYTES)
        server.add_sockets(sockets)

        def revive() -> None:  # a process that died is started again on its port
            for b in backends:
                if not b.alive() and not stopped.is_set():
                    print(f"serve_class: server process {b.index} ended; starting it again",
                          file=sys.stderr)  # fmt: skip
                    b.restarts += 1
                    b.start()

        watch = PeriodicCallback(revive, 2000)
        watch.start()
        ports = ", ".join(str(b.port) for b in backends)
        print(
            f"serve_class: {len(backends)} server processes (127.0.0.1:{ports}) "
            f"at http://{args.address}:{args.port}",
            flush=True,
        )
        await stopped.wait()
        watch.stop()
        server.stop()
        return 0
    finally:
        for b in backends:
            b.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        sockets = bind_sockets(args.port, args.address)
    except OSError as exc:
        print(
            f"serve_class: cannot listen on {args.address}:{args.port} ({exc.strerror}); "
            "pick another --port",
            file=sys.stderr,
        )
        return 2
    try:
        return asyncio.run(serve(args, sockets))
    finally:
        for s in sockets:
            s.close()


if __name__ == "__main__":
    sys.exit(main())
