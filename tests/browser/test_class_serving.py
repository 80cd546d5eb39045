"""A class served by several server processes behind one address (tools/serve_class.py, issue 36).

End to end with real processes on 127.0.0.1 only: the launcher starts two
``streamlit run app.py`` processes and its proxy; Chromium sessions (each its own
browser context, so its own cookies) open Inspect through the one address, are spread
over both processes, stay on theirs (the cookie), and get the library's score for the
pairs they type; a killed server process is started again; SIGTERM stops the launcher
and every process it started.  Every wait is bounded.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, CHROMIUM_ARGS, free_port, healthy, type_into, wait_metric

from meteor import Meteor

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = ROOT / "tools" / "serve_class.py"

PAIRS = [
    ("the cat sat on the mat", "the cat was sitting on the mat"),
    ("a fast brown fox leapt over a lazy dog", "the quick brown fox jumps over the lazy dog"),
    ("we will meet tomorrow at noon", "we meet at noon tomorrow"),
    ("the president spoke to the audience", "the president then spoke to the audience"),
]
RETYPED = [
    ("the committee discussed the proposal", "the committee members discussed the proposals"),
    ("under the starry night we danced", "we danced under the starry night"),
    ("it is raining heavily today", "today it rains heavily"),
    ("the children played in the garden", "children were playing in the garden"),
]


def launch(*args: str, log: IO[str] | None = None) -> subprocess.Popen[str]:
    """The launcher; its output piped, or into ``log`` (a long run: no pipe to fill)."""
    return subprocess.Popen(
        [sys.executable, str(LAUNCHER), *args],
        cwd=ROOT,
        env=dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false"),
        stdout=log or subprocess.PIPE,
        stderr=subprocess.STDOUT if log else subprocess.PIPE,
        text=True,
    )


def status(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/_class/status", timeout=10) as resp:
        return dict(json.loads(resp.read().decode()))


def wait_until(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.3)


def test_bad_options_and_a_taken_port_get_one_line() -> None:
    p = launch("--processes", "0")
    _, err = p.communicate(timeout=60)
    assert p.returncode == 2
    assert err.strip().splitlines()[-1].endswith("--processes: a number from 1 to 16, not 0")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        p = launch("--port", str(port))
        out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"cannot listen on 127.0.0.1:{port}" in lines[0], err
    assert "pick another --port" in lines[0]


@pytest.mark.browser
def test_two_processes_behind_one_address_serve_sessions_each_on_its_own() -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    psutil = pytest.importorskip("psutil")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tempfile.TemporaryFile("w+", encoding="utf-8")
    proc = launch("--processes", "2", "--port", str(port), "--start-timeout", "240", log=log)
    started: list[Any] = []

    def logged() -> str:
        log.flush()
        log.seek(0)
        return log.read()[-4000:]

    try:
        wait_until(lambda: healthy(url) or proc.poll() is not None, 260, "the launcher")
        assert proc.poll() is None, logged()
        procs = status(url)["processes"]
        assert [p["alive"] for p in procs] == [True, True]
        started = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
        assert {p["pid"] for p in procs} <= {q.pid for q in started}

        first = [f"{Meteor('meteor-1.5').score(h, [r]).score:.4f}" for h, r in PAIRS]
        second = [f"{Meteor('meteor-1.5').score(h, [r]).score:.4f}" for h, r in RETYPED]
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            contexts = [
                browser.new_context(viewport={"width": 1300, "height": 1400}) for _ in PAIRS
            ]
            pages = [c.new_page() for c in contexts]
            for pg, (hyp, ref) in zip(pages, PAIRS, strict=True):
                pg.goto(f"{url}/?{urlencode({'hyp': hyp, 'ref': ref})}", wait_until="commit")
            for pg, value in zip(pages, first, strict=True):
                wait_metric(pg, "METEOR", value, timeout=180_000)
            # spread: two sessions in each process, each browser with its process's cookie
            sessions = [p["sessions"] for p in status(url)["processes"]]
            assert sessions == [2, 2]
            cookies = [
                {c["name"]: c["value"] for c in ctx.cookies(url)}.get("meteor_process")
                for ctx in contexts
            ]
            assert sorted(cookies) == ["0", "0", "1", "1"], cookies  # type: ignore[type-var]
            # a browser's later requests reach its own process (the cookie, not a turn)
            for ctx, k in zip(contexts, cookies, strict=True):
                resp = ctx.request.get(f"{url}/_stcore/health")
                assert resp.ok and resp.headers["x-meteor-process"] == k
            for pg, (hyp, ref) in zip(pages, RETYPED, strict=True):
                type_into(pg, "Reference(s), one per line", ref)
                type_into(pg, "Hypothesis", hyp)
            for pg, value in zip(pages, second, strict=True):
                wait_metric(pg, "METEOR", value, timeout=120_000)
                shown = pg.locator('[data-testid="stException"]')
                if shown.count():  # the whole text and log, not a shortened repr
                    pytest.fail(f"{shown.first.inner_text()}\n--- servers ---\n{logged()}")
            browser.close()

        # a server process that dies is started again on its port
        victim = status(url)["processes"][0]
        os.kill(victim["pid"], signal.SIGKILL)
        wait_until(
            lambda: (
                status(url)["processes"][0]["restarts"] == 1
                and status(url)["processes"][0]["alive"]
            ),
            30,
            "the process to be started again",
        )
        reborn = status(url)["processes"][0]
        assert reborn["port"] == victim["port"] and reborn["pid"] != victim["pid"]
        started += [psutil.Process(reborn["pid"])]
        wait_until(lambda: healthy(f"http://127.0.0.1:{reborn['port']}"), 240, "its health")
    finally:
        if proc.poll() is None:  # the workers the servers started meanwhile are theirs too
            started += psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
    assert proc.returncode == 0
    # the launcher stopped every process it started (servers and their workers)
    gone, alive = psutil.wait_procs(started, timeout=30)
    assert not alive, [p.pid for p in alive]
