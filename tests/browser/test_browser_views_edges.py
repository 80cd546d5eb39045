"""Trust at the edges, round 3 (issue 31, item 17) in a real browser at 1366 px:
no metric or toggle label is cut ("1,61…", "По убыван…"), the X-Ray matrix and the
sensitivity curves show their axis titles.

Chromium measures each element: ``scrollWidth > clientWidth`` is what an ellipsis hides.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, settle

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

WIDTH = 1366
STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
#: [text, tag, scrollWidth, clientWidth] of every visible element under ``sel`` wider than its box.
CUT_JS = """(sel) => [...document.querySelectorAll(sel)]
  .flatMap(b => [b, ...b.querySelectorAll('*')])
  .filter(e => e.clientWidth > 2 && e.innerText && e.innerText.trim()
               && e.scrollWidth > e.clientWidth + 1)
  .map(e => [e.innerText.trim().slice(0, 40), e.tagName, e.scrollWidth, e.clientWidth])"""
METRICS_JS = """() => [...document.querySelectorAll('[data-testid="stMetric"]')].map(m =>
  [m.querySelector('[data-testid="stMetricLabel"]').innerText.trim(),
   m.querySelector('[data-testid="stMetricValue"]').innerText.trim()])"""
#: Axis titles drawn by plotly in every chart of the page.
AXIS_TITLES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(g =>
  [...g.querySelectorAll('.xtitle, .ytitle, [class^="xtitle"], [class^="ytitle"]')]
    .map(t => t.textContent.trim()).filter(Boolean))"""


def _long_pair() -> tuple[str, str]:
    """About 9,000 characters a side: more than 1,000 matches ("1,707/1,707")."""
    rng = random.Random(1)
    words = "the a cat dog sat ran on under mat rug house tree big small red blue".split()
    return tuple(" ".join(rng.choice(words) for _ in range(1800))[:9000] for _ in range(2))  # type: ignore[return-value]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    yield pg
    pg.close()


@pytest.mark.parametrize("ui", ["en", "ru"])
@pytest.mark.parametrize("pair", ["long", "starry"])
def test_every_metric_of_the_score_card_is_whole(
    server: dict[str, Any], page: Any, ui: str, pair: str
) -> None:
    hyp, ref = _long_pair() if pair == "long" else STARRY
    page.goto(f"{server['url']}/?{urlencode({'ui': ui, 'hyp': hyp, 'ref': ref})}")
    page.wait_for_selector('[data-testid="stMetricValue"]', timeout=120_000)
    settle(page, 120_000)
    metrics = page.evaluate(METRICS_JS)
    assert len(metrics) == 8
    if pair == "long":
        assert "/" in metrics[-1][1] and len(metrics[-1][1]) == 11, metrics  # "1,707/1,707"
    assert page.evaluate(CUT_JS, '[data-testid="stMetric"]') == []


@pytest.mark.parametrize(("ui", "demo", "desc"), [("ru", "Демо-корпус", "По убыванию"),
                                                  ("en", "Demo corpus", "Descending")])  # fmt: skip
def test_the_corpus_sort_order_toggle_is_whole(
    server: dict[str, Any], page: Any, ui: str, demo: str, desc: str
) -> None:
    page.goto(f"{server['url']}/corpus?ui={ui}")
    settle(page, 120_000)
    page.locator('[data-testid="stRadio"] label', has_text=demo).first.click()
    page.wait_for_selector('[data-testid="stDataFrame"]', timeout=120_000)
    settle(page, 120_000)
    toggle = page.locator('[data-testid="stCheckbox"]', has_text=desc)
    assert toggle.count() == 1
    assert page.evaluate(CUT_JS, '[data-testid="stCheckbox"], [data-testid="stWidgetLabel"]') == []


@pytest.mark.parametrize(("ui", "x", "y"), [("en", "reference", "hypothesis"),
                                            ("ru", "эталон", "гипотеза")])  # fmt: skip
def test_the_matrix_shows_its_axis_titles(
    server: dict[str, Any], page: Any, ui: str, x: str, y: str
) -> None:
    query = urlencode({"ui": ui, "view": "matrix", "hyp": STARRY[0], "ref": STARRY[1]})
    page.goto(f"{server['url']}/?{query}")
    page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120_000)
    settle(page, 120_000)
    titles = page.evaluate(AXIS_TITLES_JS)
    assert [x, y] in [sorted(t, key=[x, y].index) for t in titles if set(t) == {x, y}], titles


@pytest.mark.parametrize(("ui", "title"), [("en", "METEOR score"), ("ru", "оценка METEOR")])
def test_the_sensitivity_curves_show_their_y_axis_title(
    server: dict[str, Any], page: Any, ui: str, title: str
) -> None:
    page.goto(f"{server['url']}/compare?ui={ui}")
    settle(page, 120_000)
    page.wait_for_function(
        """(title) => [...document.querySelectorAll('.js-plotly-plot .ytitle')]
             .some(t => t.textContent.trim() === title)""",
        arg=title,
        timeout=60_000,
    )
