"""Helpers shared by the browser tests (test_browser, test_browser_security, test_concurrency).

``streamlit_server`` starts ``streamlit run app.py`` on a free port of 127.0.0.1 and waits
for ``/_stcore/health``; ``type_into`` types into a text box as a user does and
``wait_metric`` waits until a Streamlit metric shows a value.
Playwright is not imported here: each test module skips on its own when it is missing.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def healthy(url: str) -> bool:
    """Whether the server at ``url`` answers ``ok`` on ``/_stcore/health``."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
            return bool(resp.read().decode().strip() == "ok")
    except OSError:
        return False


@contextmanager
def streamlit_server(env: dict[str, str]) -> Iterator[dict[str, Any]]:
    """``streamlit run app.py`` on a free port of 127.0.0.1, up once ``/_stcore/health`` answers.

    Yields ``{"url": ..., "started": perf_counter() at launch, "proc": the Popen}``.
    """
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
         "--server.address=127.0.0.1", f"--server.port={port}", "--server.fileWatcherType=none"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while not healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"streamlit did not start:\n{err[-2000:]}")
            time.sleep(0.3)
        yield {"url": url, "started": started, "proc": proc}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def wait_metric(pg: Any, label: str, value: str, timeout: float = 60_000) -> None:
    """Wait until the metric labelled ``label`` shows ``value``."""
    pg.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')]
            .some(m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label
                  && m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)""",
        arg=[label, value],
        timeout=timeout,
    )


def type_into(pg: Any, box: str, text: str) -> None:
    """Type into a box and commit it with Ctrl+Enter, as a user does."""
    loc = pg.get_by_role("textbox", name=box)
    loc.fill(text)
    loc.press("Control+Enter")


def wait_link_view(pg: Any, n: int = 0, side: str = "hyp") -> None:
    """Wait until the ``n``-th link view is drawn with its ``side`` tokens.

    ``wait_ready`` cannot know whether a chart is still to come: the figures are the
    last part of a run to arrive, and a page with no chart yet passes its check.
    """
    pg.wait_for_function(
        """([n, role]) => {
              const gd = document.querySelectorAll('.js-plotly-plot')[n];
              return !!gd && !!gd.querySelector('.main-svg')
                && (gd.data || []).some(t => t.meta && t.meta.role === role);
        }""",
        arg=[n, f"tokens_{side}"],
        timeout=60_000,
    )


def settle(pg: Any, timeout: float = 90_000, title: bool = True) -> None:
    """Wait until the page's script has run: its title is drawn (``title``) and no run is
    going on, twice 0.8 s apart (Streamlit's transient "Running… Stop" indicator is not read)."""
    if title:
        pg.wait_for_selector('[data-testid="stMain"] h1', timeout=timeout)
    for _ in range(2):
        pg.wait_for_timeout(800)
        pg.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
        )
