"""A browser that hangs never holds an export, nor outlives it (:mod:`meteor.viz.figure_files`).

The "browser" is a script that writes its pid and sleeps (``BROWSER_PATH`` points at
it; kaleido runs it through its wrapper as it would Chromium).  The export gives up
after :data:`~meteor.viz.figure_files.START_TIMEOUT` with one clear error and the browser's
process is gone; when the exporting process is ended by SIGTERM (or SIGKILL) while
waiting, the browser is gone too (:class:`meteor.viz.browser_guard.BrowserGuard`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import plotly.graph_objects as go
import pytest

from meteor.errors import ResourceError
from meteor.viz import figure_files

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")


def _fake_browser(tmp_path: Path) -> tuple[Path, Path]:
    pid_file = tmp_path / "browser.pid"
    fake = tmp_path / "hung-chromium"
    fake.write_text(f"#!/bin/sh\necho $$ > '{pid_file}'\nexec sleep 600\n", encoding="utf-8")
    fake.chmod(0o755)
    return fake, pid_file


def _gone(pid: int) -> bool:
    """No such process, or only its zombie left (killed, not yet reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def _wait_for(test, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(0.05)
    return test()


def test_a_hung_browser_is_given_up_and_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, pid_file = _fake_browser(tmp_path)
    monkeypatch.setenv("BROWSER_PATH", str(fake))
    monkeypatch.setattr(figure_files, "START_TIMEOUT", 3.0)
    fig = go.Figure(go.Bar(x=["a"], y=[1]))
    t0 = time.monotonic()
    with pytest.raises(ResourceError, match="did not start in time") as err:
        figure_files.figure_images([("f", fig), ("g", fig)], ["svg"])
    took = time.monotonic() - t0
    assert took < 3.0 + 5.0, took
    assert "limits: 3 s to start" in str(err.value) and "\n" not in str(err.value)
    pid = int(pid_file.read_text())
    assert _wait_for(lambda: _gone(pid), 5.0), f"browser {pid} still runs"


def test_the_total_wait_is_bounded_whatever_the_number_of_figures() -> None:
    assert figure_files.TOTAL_TIMEOUT <= 300
    assert figure_files.START_TIMEOUT <= figure_files.TOTAL_TIMEOUT


_CHILD = """
import sys
import plotly.graph_objects as go
from meteor.viz.figure_files import figure_images
figure_images([("f", go.Figure(go.Bar(x=["a"], y=[1])))], ["svg"])
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_browser_dies_with_the_exporting_process(tmp_path: Path, sig: int) -> None:
    fake, pid_file = _fake_browser(tmp_path)
    env = {**os.environ, "BROWSER_PATH": str(fake)}
    child = subprocess.Popen([sys.executable, "-c", _CHILD], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        assert _wait_for(lambda: pid_file.exists() and pid_file.read_text().strip(), 60.0)
        pid = int(pid_file.read_text())
        time.sleep(1.0)  # the exporter hands the browser's group to its watchdog
        assert not _gone(pid)
        child.send_signal(sig)
        child.wait(timeout=30)
        assert _wait_for(lambda: _gone(pid), 10.0), f"browser {pid} outlived its exporter"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
