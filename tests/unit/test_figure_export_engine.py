"""SVG/PDF figures without a browser: one line naming what to install, status 2, before
any scoring, nothing written, no download (issue 35; :mod:`meteor.viz.figure_files`).

Each run is a subprocess with a time limit, its environment stripped of the browser
(``BROWSER_PATH`` pointing nowhere, or a ``PATH`` without chromium).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import plotly.graph_objects as go
import pytest

from meteor.errors import ResourceError
from meteor.viz import figure_files

ROOT = Path(__file__).resolve().parents[2]
TSV = "system\tseg_id\thyp\tref\nA\t1\tthe cat sat\tthe cat sat\nB\t1\ta cat\tthe cat sat\n"


def _env(**change: str | None) -> dict[str, str]:
    env = dict(os.environ)
    for key, value in change.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _report(tmp_path: Path, env: dict[str, str], fmt: str) -> subprocess.CompletedProcess[str]:
    src = tmp_path / "in.tsv"
    src.write_text(TSV, encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "meteor",
            "report",
            "--hyp",
            str(src),
            "--out",
            str(tmp_path / "rep"),
            "--format",
            fmt,
            "--bootstrap",
            "50",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=env,
    )


def _no_browser_path(tmp_path: Path) -> str:
    """A PATH of one empty folder: no chromium, no chrome (Python is run by its path)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    return str(bin_dir)


@pytest.mark.parametrize("how", ["browser_path_nowhere", "path_without_chromium"])
def test_no_browser_one_line_status_2_nothing_written(tmp_path: Path, how: str) -> None:
    if how == "browser_path_nowhere":
        env = _env(BROWSER_PATH=str(tmp_path / "no-such-chromium"))
    else:
        env = _env(BROWSER_PATH=None, PATH=_no_browser_path(tmp_path))
    run = _report(tmp_path, env, "html,svg,pdf")
    assert run.returncode == 2, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr  # no progress: stopped before any scoring
    assert lines[0].startswith("meteor: error: SVG and PDF figures need Chromium")
    assert "apt-get install chromium" in lines[0]
    assert "LaTeX, Markdown and JSON work without it" in lines[0]
    if how == "browser_path_nowhere":
        assert "no-such-chromium" in lines[0]
    assert not (tmp_path / "rep").exists()
    assert not list(tmp_path.glob("**/*.part"))


def test_the_other_formats_still_work_without_a_browser(tmp_path: Path) -> None:
    env = _env(BROWSER_PATH=str(tmp_path / "no-such-chromium"))
    run = _report(tmp_path, env, "json,md")
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "rep").iterdir()) == ["report.json", "report.md"]


def test_check_engine_never_downloads(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import choreographer.cli
    import kaleido

    def no_download(*_a: object, **_k: object) -> None:
        raise AssertionError("a browser download was attempted")

    for mod, name in ((kaleido, "get_chrome"), (kaleido, "get_chrome_sync"),
                      (choreographer.cli, "get_chrome"), (choreographer.cli, "get_chrome_sync")):  # fmt: skip
        monkeypatch.setattr(mod, name, no_download)
    monkeypatch.setenv("BROWSER_PATH", str(tmp_path / "none"))
    with pytest.raises(ResourceError, match="apt-get install chromium"):
        figure_files.figure_images([("x", go.Figure())])
    monkeypatch.delenv("BROWSER_PATH")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert figure_files.find_browser() is None
