"""Serve the app to a class: several Streamlit server processes behind one address.

    python tools/serve_class.py --processes 2 --port 8501                 # this machine only
    python tools/serve_class.py --processes 2 --port 8501 --address 0.0.0.0   # the classroom (warns)

One ``streamlit run app.py`` process uses about one core (docs/app-load.md, "A class at
once").  This starts ``--processes`` servers on free ports of 127.0.0.1 and one small reverse
proxy on ``--address:--port`` with session affinity (cookie ``meteor_process``; a new browser
goes to the least busy process), restarts a dying process with back-off, and refuses what a
browser should not send (non-origin-form targets, bodies over :data:`MAX_BODY`, odd cookies).
Behaviour, limits and messages: docs/serving.md.  Plain Python (tornado, installed with
Streamlit); Ctrl+C or SIGTERM stops the proxy and every server process it started.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ipaddress
import json
import os
import re
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
from tornado.ioloop import IOLoop
from tornado.netutil import bind_sockets

ROOT = Path(__file__).resolve().parents[1]
COOKIE = "meteor_process"
STATUS_PATH = "/_class/status"
MAX_PROCESSES = 16
#: What a browser's request body or websocket message may carry: the app reads uploads of at
#: most 50 MB (``meteor.io.read.MAX_BYTES``), plus the multipart form around them.
MAX_BODY = 64 * 2**20
#: What a server process's answer (a download, a websocket message) may carry (Streamlit's own
#: message limit is 200 MB).
MAX_RESPONSE = 256 * 2**20
#: The cookie naming a browser's process: ASCII digits, at most two (``MAX_PROCESSES`` is 16).
COOKIE_VALUE = re.compile(r"[0-9]{1,2}")
#: An origin-form request target: one ``/``, then no ``/`` (``//host`` is a network path).
ORIGIN_FORM = re.compile(r"/(?!/)[^\s#]*")
#: Seconds before a dead process is started again: doubled after each short life, at most this.
FIRST_BACKOFF = 2.0
MAX_BACKOFF = 60.0
#: A process that lived this long before dying is started again after FIRST_BACKOFF.
STABLE_LIFE = 60.0
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


def health_latency(url: str, timeout: float = 30.0) -> float | None:
    """Seconds ``/_stcore/health`` took to answer ``ok``; ``None`` if it did not."""
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout) as resp:
            ok = resp.read().decode().strip() == "ok"
    except OSError:
        return None
    return time.perf_counter() - t0 if ok else None


def streamlit_command(port: int, *extra: str) -> list[str]:
    """``streamlit run app.py`` headless on 127.0.0.1:``port``, no file watcher."""
    return [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
            "--server.address=127.0.0.1", f"--server.port={port}",
            "--server.fileWatcherType=none", *extra]  # fmt: skip


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """The server process gets SIGTERM if the launcher dies (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def origin_form(uri: str) -> bool:
    """Whether ``uri`` may be sent upstream: origin-form, not ``@host:port/x``,
    ``http://host/x``, ``//host/x`` or ``*`` (else the proxy answers 400 and fetches nothing;
    RFC 9112 3.2: a server's target is origin-form; the absolute form is for proxies)."""
    return ORIGIN_FORM.fullmatch(uri) is not None and "\\" not in uri


def owns_port(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on 127.0.0.1:``port``.

    Linux only (``/proc``); elsewhere True: the check falls back to the process being alive."""
    if not os.path.exists("/proc/net/tcp"):
        return True
    want = f"0100007F:{port:04X}"
    with open("/proc/net/tcp", encoding="ascii") as fh:
        next(fh)
        rows = [line.split() for line in fh]
    inodes = {f[9] for f in rows if f[1] == want and f[3] == "0A"}  # 0A: LISTEN
    if not inodes:
        return False
    fd_dir = f"/proc/{pid}/fd"
    try:
        links = {os.readlink(os.path.join(fd_dir, fd)) for fd in os.listdir(fd_dir)}
    except OSError:
        return False
    return any(f"socket:[{inode}]" in links for inode in inodes)


def port_is_free(port: int) -> bool:
    """Whether a server could listen on 127.0.0.1:``port`` now (as tornado binds: SO_REUSEADDR,
    so closed connections in TIME_WAIT do not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


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
        #: answers its health check from a socket it owns: requests may go there
        self.ready = False
        self.started_at = 0.0
        self.backoff = FIRST_BACKOFF
        self.restart_at: float | None = None  # when a dead process is started again

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def verify(self) -> bool:
        """Healthy, and the listener on its port is this process's own (not a newcomer's)."""
        return (
            self.proc is not None
            and self.alive()
            and health_latency(self.url, timeout=2) is not None
            and owns_port(self.proc.pid, self.port)
        )

    def start(self) -> None:
        self.ready = False
        if self.proc is not None and not port_is_free(self.port):
            self.port = free_port()  # another program took the dead process's port
        self.started_at = time.monotonic()
        self.proc = subprocess.Popen(
            streamlit_command(self.port, *self.extra),
            cwd=self.app_dir,
            stdout=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 -- the launcher is single-threaded
        )  # fmt: skip

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            stop_process(self.proc)


class Pool:
    """The server processes, and which one a browser goes to."""

    def __init__(self, backends: list[Backend]) -> None:
        self.backends = backends
        self._next = 0

    def pick(self, cookie: str | None) -> tuple[Backend | None, bool]:
        """The browser's process (by its cookie), else the least busy; and whether it is new.

        Only a process that is alive and verified (:meth:`Backend.verify`) gets requests; with
        none, None (the proxy answers 502 "restarting")."""
        live = [b for b in self.backends if b.ready and b.alive()]
        if cookie is not None and COOKIE_VALUE.fullmatch(cookie):
            for b in live:
                if b.index == int(cookie):
                    return b, False
        if not live:
            return None, True
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


def is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


RESTARTING = "The app's server process is restarting; reload in a few seconds.\n"


class StatusHandler(web.RequestHandler):
    def initialize(self, pool: Pool) -> None:
        self.pool = pool

    def get(self) -> None:
        if not is_loopback(self.request.remote_ip or ""):
            self.set_status(403)
            self.write("The class status is shown on the serving machine only.\n")
            return
        self.set_header("Content-Type", "application/json")
        self.write(json.dumps(self.pool.status()))


@web.stream_request_body
class HttpProxy(web.RequestHandler):
    """Any HTTP request: to the browser's process, the answer back as it came.

    The body is read as it arrives and refused with 413 past :data:`MAX_BODY` (by its
    Content-Length before any byte is read, else as the bytes come)."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")

    def initialize(self, pool: Pool, client: httpclient.AsyncHTTPClient) -> None:
        self.pool = pool
        self.client = client
        self.chunks: list[bytes] = []
        self.size = 0
        self.refused = False

    def prepare(self) -> None:
        if not origin_form(self.request.uri or ""):
            self._refuse(400, "Bad request target: this server takes paths only (/page?query).\n")
            return
        length = self.request.headers.get("Content-Length", "0")
        if not length.isascii() or not length.isdigit() or int(length) > MAX_BODY:
            self._refuse(413, f"Request body over {MAX_BODY // 2**20} MB.\n")

    def _refuse(self, code: int, text: str) -> None:
        self.refused = True
        self.set_status(code)
        self.set_header("Connection", "close")
        self.finish(text)

    def data_received(self, chunk: bytes) -> None:
        if self.refused:
            return
        self.size += len(chunk)
        if self.size > MAX_BODY:
            self.chunks.clear()
            self._refuse(413, f"Request body over {MAX_BODY // 2**20} MB.\n")
            return
        self.chunks.append(chunk)

    async def _proxy(self) -> None:
        if self.refused:  # prepare() answered (a target not origin-form, a body too large)
            return
        b, new = self.pool.pick(self.get_cookie(COOKIE))
        if b is None:
            self.set_status(502)
            self.write(RESTARTING)
            return
        has_body = self.request.method in ("POST", "PUT", "PATCH")
        req = httpclient.HTTPRequest(
            b.url + (self.request.uri or ""),
            method=self.request.method,
            headers=_forwarded(self.request.headers, HOP),
            body=b"".join(self.chunks) if has_body else None,
            follow_redirects=False,
            decompress_response=False,
            allow_nonstandard_methods=True,
            request_timeout=600,
        )
        resp = await self.client.fetch(req, raise_error=False)
        if resp.code == 599:  # the process did not answer (restarting)
            self.set_status(502)
            self.write(RESTARTING)
            return
        self.set_status(resp.code, resp.reason)
        headers = _forwarded(resp.headers, HOP)
        for name in ("Content-Type", *headers):
            self.clear_header(name)  # the proxy's own Content-Type, Server, Date
        for name, value in headers.get_all():
            self.add_header(name, value)  # all of them: e.g. several Set-Cookie
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
        target = self.request.uri or ""
        ok = origin_form(target)
        if b is None or not ok:
            self.set_status(502 if ok else 400)
            self.finish()
            return
        offered = self.request.headers.get("Sec-WebSocket-Protocol", "").split(",")
        protos = [p.strip() for p in offered if p.strip()]
        own = {k.lower() for k in self.request.headers if k.lower().startswith("sec-websocket")}
        headers = _forwarded(self.request.headers, HOP | own)  # the handshake is the proxy's
        req = httpclient.HTTPRequest(
            f"ws://127.0.0.1:{b.port}{target}", headers=headers, request_timeout=60
        )
        try:
            self.upstream = await websocket.websocket_connect(
                req, subprotocols=protos or None, max_message_size=MAX_RESPONSE
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
        force_instance=True,
        max_clients=200,
        max_body_size=MAX_RESPONSE,
        max_buffer_size=MAX_RESPONSE,
    )
    return web.Application(
        [
            (STATUS_PATH, StatusHandler, {"pool": pool}),
            (r"/_stcore/stream", WsProxy, {"pool": pool}),
            (r".*", HttpProxy, {"pool": pool, "client": client}),
        ],
        websocket_max_message_size=MAX_BODY,
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="serve_class.py",
        description="Several Streamlit server processes of the app behind one address.",
    )
    ap.add_argument("--processes", type=int, default=2, help="server processes (default 2)")
    ap.add_argument("--port", type=int, default=8501, help="the address's port (default 8501)")
    ap.add_argument(
        "--address",
        default="127.0.0.1",
        help="where to listen (default 127.0.0.1: this machine only; 0.0.0.0: every interface, "
        "with a warning)",
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


async def revive(backends: list[Backend], stopped: asyncio.Event) -> None:
    """Start a process that died again on its port (a new port if another program took it),
    after :data:`FIRST_BACKOFF` s, doubled after each life shorter than :data:`STABLE_LIFE` up
    to :data:`MAX_BACKOFF`; it gets requests again once :meth:`Backend.verify` passes."""
    while not stopped.is_set():
        now = time.monotonic()
        for b in backends:
            if b.proc is not None and not b.alive() and b.restart_at is None:
                b.ready = False
                if now - b.started_at >= STABLE_LIFE:
                    b.backoff = FIRST_BACKOFF
                delay, b.backoff = b.backoff, min(MAX_BACKOFF, 2 * b.backoff)
                b.restart_at = now + delay
                print(f"serve_class: server process {b.index} ended; starting it again in "
                      f"{delay:.0f} s", file=sys.stderr)  # fmt: skip
            elif b.restart_at is not None and now >= b.restart_at:
                b.restart_at = None
                b.restarts += 1
                b.start()
            elif b.alive() and not b.ready:
                b.ready = await asyncio.to_thread(b.verify)
        try:
            await asyncio.wait_for(stopped.wait(), 0.5)
        except TimeoutError:
            pass


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
            ok = await asyncio.gather(*(asyncio.to_thread(b.verify) for b in waiting))
            for b, up in zip(waiting, ok, strict=True):
                b.ready = up
            waiting = [b for b in waiting if not b.ready]
            try:
                await asyncio.wait_for(stopped.wait(), 0.3)
                return 0
            except TimeoutError:
                pass
        pool = Pool(backends)
        server = HTTPServer(make_app(pool), max_body_size=MAX_RESPONSE)  # MAX_BODY: HttpProxy
        server.add_sockets(sockets)
        watch = asyncio.create_task(revive(backends, stopped))
        ports = ", ".join(str(b.port) for b in backends)
        print(
            f"serve_class: {len(backends)} server processes (127.0.0.1:{ports}) "
            f"at http://{args.address}:{args.port}",
            flush=True,
        )
        await stopped.wait()
        await watch
        server.stop()
        return 0
    finally:
        for b in backends:
            b.stop()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.address != "localhost" and not is_loopback(args.address):
        print(
            f"serve_class: warning: listening on {args.address}: every machine that reaches this "
            "one can open the app and send it files; use it on a network you trust (a classroom), "
            "or put a reverse proxy with TLS in front (docs/serving.md)",
            file=sys.stderr,
        )
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
