"""End to end in a real browser: Debian's Chromium driven by Playwright.

The module starts ``streamlit run app.py`` itself on 127.0.0.1 (a free port), waits
for ``/_stcore/health`` and checks that every page loads without console errors, that
a typed pair draws the link view with one legend entry per stage used, that a deep
link reopens the same pair and preset, that user text stays text, and that the JSON
download is the library's record. Screenshots go to ``tests/artifacts/``.

Run with ``python -m pytest -m browser``; skipped when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from meteor import Meteor

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
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
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")
FOX_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)
#: Streamlit's front end probes these under a page's path before the root; the 404s are its own.
STREAMLIT_PROBE = re.compile(r"/[a-z_]+/_stcore/(health|host-config)$")

sync_api = pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


def fmt(x: float, digits: int = 4, ru: bool = False) -> str:
    s = f"{x:.{digits}f}"
    return s.replace(".", ",") if ru else s


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[dict[str, Any]]:
    port = _free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
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
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                    if resp.read().decode().strip() == "ok":
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                pytest.fail(f"streamlit did not start:\n{err[-2000:]}")
            time.sleep(0.3)
        yield {"url": url, "started": started}
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1400, "height": 2400})
    pg.console_errors = []  # type: ignore[attr-defined]
    pg.bad_responses = []  # type: ignore[attr-defined]
    pg.dialogs = []  # type: ignore[attr-defined]
    pg.on("console", lambda m: m.type == "error" and pg.console_errors.append(m.text))
    pg.on("response", lambda r: r.status >= 400 and pg.bad_responses.append(r.url))
    pg.on("requestfailed", lambda r: pg.console_errors.append(f"request failed: {r.url}"))
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    yield pg
    pg.close()


def wait_ready(pg: Any, timeout: float = 60_000) -> None:
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    pg.wait_for_selector(
        '.js-plotly-plot, [data-testid="stAlert"], [data-testid="stMetric"]', timeout=timeout
    )
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )
    pg.wait_for_timeout(500)


def metric(pg: Any, label: str) -> str:
    loc = pg.locator('[data-testid="stMetric"]').filter(has_text=label).first
    return str(loc.locator('[data-testid="stMetricValue"]').inner_text()).strip()


def wait_metric(pg: Any, label: str, value: str, timeout: float = 60_000) -> None:
    pg.wait_for_function(
        """([label, value]) => [...document.querySelectorAll('[data-testid="stMetric"]')]
            .some(m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label
                  && m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() === value)""",
        arg=[label, value],
        timeout=timeout,
    )


def assert_no_errors(pg: Any) -> None:
    bad = [u for u in pg.bad_responses if not STREAMLIT_PROBE.search(u)]
    assert not bad, bad
    errors = [
        e
        for e in pg.console_errors
        if not (e.startswith("Failed to load resource") and "404" in e and not bad)
    ]
    assert not errors, errors
    assert not pg.locator('[data-testid="stException"]').count()


def shot(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def legend_stages(pg: Any) -> list[str]:
    """Legend entries of the first plotly figure that belong to a matching stage."""
    return list(
        pg.evaluate(
            """() => {
            const gd = document.querySelectorAll('.js-plotly-plot')[0];
            const stages = ['exact', 'stem', 'synonym', 'paraphrase', 'lemma'];
            return [...gd.querySelectorAll('.legend .traces')]
              .map(t => t.__data__ && t.__data__[0] && t.__data__[0].trace)
              .filter(tr => tr && stages.includes(tr.legendgroup))
              .map(tr => tr.legendgroup);
        }"""
        )
    )


# -- tests ------------------------------------------------------------------------------------


def test_first_score_after_start(server: dict[str, Any], page: Any) -> None:
    """The home page on a fresh server: resources load (progress bar), then the score."""
    t0 = time.perf_counter()
    page.goto(server["url"] + "/")
    r = Meteor("meteor-1.5").score(
        "Under the starry night, we danced with glee.", "We danced with joy under the starry night."
    )
    wait_metric(page, "METEOR", fmt(r.score))
    first = time.perf_counter() - t0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(
        json.dumps({"first_score_s": round(first, 2),
                    "since_server_start_s": round(time.perf_counter() - server["started"], 2)})
    )  # fmt: skip
    assert first < 20, f"first score took {first:.1f} s"
    wait_ready(page)
    assert_no_errors(page)
    shot(page, "inspect")


@pytest.mark.parametrize(
    ("path", "name"),
    [("/compare", "compare"), ("/learn?step=align", "learn"), ("/corpus", "corpus")],
)  # fmt: skip
def test_each_page_loads_without_console_errors(
    server: dict[str, Any], page: Any, path: str, name: str
) -> None:
    if name == "corpus" and not (ROOT / "pages" / "corpus.py").is_file():
        pytest.skip("no corpus page")
    page.goto(server["url"] + path)
    wait_ready(page)
    assert_no_errors(page)
    assert not page.get_by_text("Page not found").count()
    shot(page, name)


def test_typed_pair_draws_the_link_view(server: dict[str, Any], page: Any) -> None:
    page.goto(server["url"] + "/")
    wait_ready(page)
    hyp = page.get_by_role("textbox", name="Hypothesis")
    hyp.fill(FOX[0])
    hyp.press("Control+Enter")
    ref = page.get_by_role("textbox", name="Reference(s), one per line")
    ref.fill(FOX[1])
    ref.press("Control+Enter")
    r = Meteor("meteor-1.5").score(*FOX)
    wait_metric(page, "METEOR", fmt(r.score))
    page.wait_for_timeout(800)
    stages = sorted({m.module.value for m in r.matches})
    assert sorted(legend_stages(page)) == stages  # one legend entry per stage used
    tokens = page.evaluate(
        """() => document.querySelectorAll('.js-plotly-plot')[0].data
              .find(t => t.meta && t.meta.role === 'tokens_hyp').text"""
    )
    assert tokens == list(r.alignment.hyp_words)
    assert "hyp=A+fast+brown+fox" in page.url
    assert_no_errors(page)
    shot(page, "inspect_fox")


def test_deep_link_reopens_pair_and_preset(server: dict[str, Any], page: Any) -> None:
    query = urlencode({"hyp": FOX[0], "ref": FOX[1], "preset": "nltk"})
    page.goto(f"{server['url']}/?{query}")
    wait_ready(page)
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == FOX[0]
    assert page.get_by_role("textbox", name="Reference(s), one per line").input_value() == FOX[1]
    assert page.get_by_role("combobox", name="Preset").input_value() == "nltk"
    r = Meteor("nltk").score(*FOX)
    wait_metric(page, "METEOR", fmt(r.score))
    assert "preset:nltk|" in page.locator('[data-testid="stCode"]').first.inner_text()
    # the pair and preset follow to another page
    page.get_by_role("link", name="Compare settings").click()
    wait_metric(page, "METEOR · A · nltk", fmt(r.score))
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == FOX[0]
    assert_no_errors(page)


def test_user_text_stays_text_and_json_is_the_record(server: dict[str, Any], page: Any) -> None:
    hyp = "<b>bold</b> <img src=x onerror=alert(1)> fox"
    page.goto(f"{server['url']}/?{urlencode({'hyp': hyp, 'ref': '<b>bold</b> fox'})}")
    wait_ready(page)
    assert not page.dialogs
    assert not page.locator('img[src="x"]').count()
    texts = page.evaluate(  # token labels: marker text, or rotated annotations when long
        """() => [...document.querySelectorAll('.js-plotly-plot')[0]
              .querySelectorAll('.scatterlayer text, .annotation-text')].map(t => t.textContent)"""
    )
    assert "<" in texts and "bold" in texts  # shown literally, one token each
    bold = page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')[0]
              .querySelectorAll('.scatterlayer tspan')]
              .filter(t => (t.getAttribute('style') || '').includes('bold')
                           && t.textContent === 'bold').length"""
    )
    assert bold == 0  # "<b>" was not interpreted as markup
    # the JSON download is the library's record of this pair
    with page.expect_download() as dl:
        page.get_by_role("button", name="Alignment record (JSON)").click()
    record = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    r = Meteor("meteor-1.5").score(hyp, "<b>bold</b> fox")
    assert record == json.loads(json.dumps(r.to_dict(candidates=True)))
    assert record["hyp"] == hyp
    assert_no_errors(page)


def test_russian_interface(server: dict[str, Any], page: Any) -> None:
    query = urlencode({"ui": "RU", "lang": "ru", "hyp": FOX_RU[0], "ref": FOX_RU[1]})
    page.goto(f"{server['url']}/?{query}")
    wait_ready(page)
    r = Meteor("meteor-1.5-ru").score(*FOX_RU)
    wait_metric(page, "METEOR", fmt(r.score, ru=True))
    assert page.get_by_text("Почему перевод получил такую оценку?").count()
    assert_no_errors(page)
    shot(page, "inspect_ru")
