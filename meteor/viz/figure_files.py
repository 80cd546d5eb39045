"""Figures as SVG and PDF files, drawn offline by the system's Chromium through kaleido.

:func:`figure_images` draws many figures in one browser session (its start, 3–5 s, is most of
the cost); :func:`figure_bytes` draws one.  The browser is ``BROWSER_PATH`` when set, else the
first of :data:`_NAMES` on ``PATH``; nothing is downloaded, ever (kaleido's ``get_chrome`` is
never called, MathJax is off, plotly.js is the plotly package's copy).  Past
:data:`START_TIMEOUT`, :data:`FIGURE_TIMEOUT` a figure or :data:`TOTAL_TIMEOUT` in all, the
browser's process group is killed, as it is when our process ends first
(:class:`~meteor.viz.browser_guard.BrowserGuard`).  Figures are drawn in plotly's own template
(:func:`meteor.viz.style.standalone`); without a browser :func:`check_engine` raises
:class:`~meteor.errors.ResourceError` (:data:`NO_ENGINE`).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import plotly.graph_objects as go

from meteor.errors import ResourceError
from meteor.viz.browser_guard import BrowserGuard

__all__ = [
    "IMAGE_FORMATS",
    "NO_ENGINE",
    "check_engine",
    "figure_bytes",
    "figure_images",
    "find_browser",
]

#: The image formats drawn here.
IMAGE_FORMATS = ("svg", "pdf")

#: The one line said when no browser can draw the figures.
NO_ENGINE = (
    "SVG and PDF figures need Chromium (apt-get install chromium, or BROWSER_PATH set to a "
    "Chrome/Chromium program){found}; the HTML report (its figures save as SVG from the "
    "browser), LaTeX, Markdown and JSON work without it"
)
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Seconds the browser may take to start (its page loaded, ready to draw).
START_TIMEOUT = 60.0
#: Seconds one figure may take once the browser runs (kaleido's own limit per image).
FIGURE_TIMEOUT = 60.0
#: Seconds a whole batch may take, the start included, however many figures.
TOTAL_TIMEOUT = 300.0
#: Seconds between two looks at the drawing thread while waiting.
_POLL = 0.05
#: The size a figure is drawn at when its layout gives none (plotly's defaults).
DEFAULT_WIDTH, DEFAULT_HEIGHT = 700, 500


def _runnable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_browser() -> str | None:
    """The Chrome/Chromium program to draw with: ``BROWSER_PATH`` if set (and only it),
    else the first of :data:`_NAMES` on ``PATH``; ``None`` when there is none."""
    chosen = os.environ.get("BROWSER_PATH")
    if chosen is not None:
        return chosen if _runnable(chosen) else None
    for name in _NAMES:
        path = shutil.which(name)
        if path and _runnable(path):
            return path
    return None


def check_engine() -> str:
    """The browser's path; :class:`ResourceError` (:data:`NO_ENGINE`) when there is no
    browser or kaleido is not installed."""
    try:
        import kaleido  # noqa: F401 - only whether it is there
    except ImportError:
        raise ResourceError(
            NO_ENGINE.format(found="").replace(
                "Chromium (", "kaleido (pip install -r requirements.txt) and Chromium (", 1
            )
        ) from None
    path = find_browser()
    if path is None:
        chosen = os.environ.get("BROWSER_PATH")
        found = f"; BROWSER_PATH={chosen!r} is not a program" if chosen is not None else ""
        raise ResourceError(NO_ENGINE.format(found=found))
    return path


def _options(fig: go.Figure, fmt: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The figure as plotly JSON (:func:`~meteor.viz.style.standalone`: the caller's
    theme stays out of the file) and kaleido's options (its own size, else plotly's)."""
    from meteor.viz.style import standalone  # plotly only once a figure is drawn

    spec = standalone(fig)
    layout = spec.get("layout", {})
    size = {"width": layout.get("width") or DEFAULT_WIDTH,
            "height": layout.get("height") or DEFAULT_HEIGHT}  # fmt: skip
    return spec, {"format": fmt, "scale": 1, **size}


class _Session:
    """What the drawing thread shares with the caller: kaleido's browser (its
    ``subprocess`` is the wrapper whose pid is the browser's process group), whether it
    has started, and the outcome (images or the exception)."""

    def __init__(self) -> None:
        self.browser: Any = None
        self.started = threading.Event()
        self.outcome: list[Any] = []

    def group(self) -> int | None:
        proc = getattr(self.browser, "subprocess", None)
        return getattr(proc, "pid", None)


async def _draw(
    browser: str, jobs: list[tuple[dict[str, Any], dict[str, Any]]], session: _Session
) -> list[bytes]:
    import kaleido

    out: list[bytes] = []
    k = kaleido.Kaleido(n=1, timeout=FIGURE_TIMEOUT, mathjax=False, path=browser, headless=True)
    session.browser = k
    async with k:
        session.started.set()
        for spec, opts in jobs:
            out.append(bytes(await k.calc_fig(spec, opts=opts)))
    return out


def _wait(session: _Session, worker: threading.Thread, guard: BrowserGuard, n: int) -> bool:
    """Wait for the drawing thread within the limits (:data:`START_TIMEOUT`, then
    :data:`FIGURE_TIMEOUT` a figure, :data:`TOTAL_TIMEOUT` in all), handing the
    browser's process group to ``guard`` as soon as it exists; whether it finished."""
    t0 = time.monotonic()
    deadline = t0 + min(START_TIMEOUT, TOTAL_TIMEOUT)
    drawing = False
    while worker.is_alive():
        group = session.group()
        if group is not None:
            guard.watch(group)
        if not drawing and session.started.is_set():
            drawing = True
            deadline = min(t0 + TOTAL_TIMEOUT, time.monotonic() + FIGURE_TIMEOUT * n)
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        worker.join(min(_POLL, left))
    return True


def figure_images(
    figures: Sequence[tuple[str, go.Figure]], formats: Sequence[str] = IMAGE_FORMATS
) -> dict[tuple[str, str], bytes]:
    """Every ``(name, figure)`` in every format, in one browser session:
    ``{(name, format): bytes}``.  All or nothing: an error (no browser, a browser that
    fails or times out) is one :class:`ResourceError` and no image is returned."""
    bad = [f for f in formats if f not in IMAGE_FORMATS]
    if bad:
        raise ValueError(f"unknown image format {bad[0]!r}; choose from {', '.join(IMAGE_FORMATS)}")
    browser = check_engine()
    keys = [(name, fmt) for fmt in formats for name, _fig in figures]
    by_name = dict(figures)
    jobs = [_options(by_name[name], fmt) for name, fmt in keys]
    if not jobs:
        return {}
    session = _Session()

    def run() -> None:  # its own thread and event loop: callers may be inside one
        try:
            session.outcome.append(asyncio.run(_draw(browser, jobs, session)))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            session.outcome.append(exc)

    guard = BrowserGuard()  # the browser dies with us, whatever ends us
    try:
        worker = threading.Thread(target=run, name="meteor-figure-export", daemon=True)
        worker.start()
        finished = _wait(session, worker, guard, len(jobs))
        if not finished:
            guard.kill()
            limit = "start" if not session.started.is_set() else "draw the figures"
            raise ResourceError(
                f"Chromium at {browser} did not {limit} in time (limits: {START_TIMEOUT:g} s "
                f"to start, {FIGURE_TIMEOUT:g} s a figure, {TOTAL_TIMEOUT:g} s in all); "
                "it was stopped"
            )
    finally:
        guard.release()
    result = session.outcome[0]
    if isinstance(result, BaseException):
        what = " ".join(str(result).split()) or type(result).__name__
        raise ResourceError(f"Chromium at {browser} could not draw the figures: {what}")
    return dict(zip(keys, result, strict=True))


def figure_bytes(fig: go.Figure, fmt: str) -> bytes:
    """One figure as ``svg`` or ``pdf`` bytes (a browser session of its own)."""
    return figure_images([("figure", fig)], [fmt])[("figure", fmt)]
