"""Shared test fixtures.  Expected values are read from ../shared/data by path, never copied."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def read_jsonl_gz(path: Path) -> Iterator[dict[str, Any]]:
    """Segment lines of a Meteor 1.5 harness file (the final corpus line is skipped)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "segment":
                yield d


def corpus_line(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        last: dict[str, Any] = {}
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "corpus":
                last = d
        return last


def java_alignment(d: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The jar's alignment in a harness record as sorted (hyp span, ref span, stage)."""
    return sorted((tuple(a["hyp_span"]), tuple(a["ref_span"]), a["module"]) for a in d["alignment"])


def our_alignment(r: Any) -> list[tuple[Any, ...]]:
    """A ``MeteorResult``'s alignment in the form of ``java_alignment``."""
    return sorted(
        ((m.hyp.start, m.hyp.end), (m.ref.start, m.ref.end), m.module.value)
        for m in r.alignment.matches
    )


def require_shared(path: Path) -> Path:
    """``path`` under ../shared/data, or a failure: CI has the data, so a skip would hide one."""
    if not path.is_file():
        pytest.fail(f"shared data not found: {path} (expected from {SHARED_DATA})")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    assert SHARED_DATA.is_dir(), f"shared data not found at {SHARED_DATA}"
    return SHARED_DATA


# -- app tests (tests/test_app.py, tests/test_browser.py) -------------------------------

PROJECT_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def app_test(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Factory: ``app_test(**query_params)`` → an ``AppTest`` of ``app.py`` (not yet run).

    AppTest resets ``PagesManager.uses_pages_directory`` before every run; with a
    ``pages/`` folder beside ``app.py`` a rerun then goes through Streamlit's v1
    page discovery and executes the page file alone, without ``app.py``'s frame
    and sidebar.  The real server clears the flag for good once ``st.navigation``
    is called, so the fixture does the same.  (The pages call
    ``pages._common.require_frame``, which catches such a run and reruns it through
    ``app.py``; the fixture spares every run that extra pass.  A plain ``AppTest``
    models a fresh server's first request: see
    ``test_app.py::test_deep_link_first_request_runs_inside_the_frame``.)
    """
    from streamlit.runtime import pages_manager
    from streamlit.testing.v1 import AppTest

    original = pages_manager.PagesManager.__init__

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        pages_manager.PagesManager.uses_pages_directory = False

    monkeypatch.setattr(pages_manager.PagesManager, "__init__", init)

    def make(**query: str | list[str]) -> AppTest:
        at = AppTest.from_file(str(PROJECT_ROOT / "app.py"), default_timeout=120)
        for key, value in query.items():
            at.query_params[key] = value
        return at

    return make


# -- browser tests (tests/test_browser.py, tests/test_browser_security.py) ---------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test module (see ``_browser.py``)."""
    from _browser import CHROMIUM, CHROMIUM_ARGS

    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
