"""Issue #16: no text is cut off (Chromium measures it).

* Download buttons: no element of a button's label is wider than its box
  (``scrollWidth > clientWidth`` is what the ellipsis hides: "Запись выравнивани…",
  "Alignments of AFRL (Meteor 1.5 …").
* The corpus table: its open link and both texts are reachable without sideways
  scrolling: Glide's accessibility table lists the header cells of the visible
  columns only, and the column after the reference must be among them.
* The Tokens tab shows every row: the grid's scroller needs no vertical scrolling.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, settle

from meteor import Meteor
from meteor.analysis.explain import parts as explain

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

PAIR_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)
STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
#: [label, element, scrollWidth, clientWidth] of every label part wider than its box.
CUT_BUTTONS_JS = """() => [...document.querySelectorAll('[data-testid="stDownloadButton"]')]
  .map(d => d.querySelector('button')).flatMap(b => [b, ...b.querySelectorAll('*')]
     .filter(e => e.scrollWidth > e.clientWidth + 1)
     .map(e => [b.innerText, e.tagName + '.' + String(e.className).split(' ')[0],
                e.scrollWidth, e.clientWidth]))"""
BUTTON_LABELS_JS = """() => [...document.querySelectorAll('[data-testid="stDownloadButton"]')]
  .map(d => d.querySelector('button').innerText.trim())"""
#: Header cells of the columns Glide draws (visible columns only) of the n-th dataframe.
VISIBLE_COLUMNS_JS = """(n) => [...document.querySelectorAll('[data-testid="stDataFrame"]')[n]
  .querySelectorAll('[role="columnheader"]')].map(h => h.innerText.trim())"""
#: [scrollHeight, clientHeight] of the n-th dataframe's scroller.
SCROLLER_JS = """(n) => { const s = document.querySelectorAll('[data-testid="stDataFrame"]')[n]
  .querySelector('.dvn-scroller'); return [s.scrollHeight, s.clientHeight]; }"""


def visible_dataframe(pg: Any) -> int:
    """Index of the first dataframe that is displayed (not in a hidden tab)."""
    return int(
        pg.evaluate(
            """() => [...document.querySelectorAll('[data-testid="stDataFrame"]')]
                 .findIndex(d => d.getBoundingClientRect().height > 0)"""
        )
    )


@pytest.mark.parametrize("width", [1400, 1100])
@pytest.mark.parametrize(
    ("ui", "preset", "pair"), [("ru", "ru", PAIR_RU), ("en", "meteor-1.5", STARRY)]
)
def test_inspect_downloads_and_tokens_are_whole(
    server: dict[str, Any], browser: Any, ui: str, preset: str, pair: tuple[str, str], width: int
) -> None:
    pg = browser.new_page(viewport={"width": width, "height": 1000})
    try:
        query = urlencode({"ui": ui, "preset": preset, "hyp": pair[0], "ref": pair[1]})
        pg.goto(f"{server['url']}/?{query}")
        pg.wait_for_selector('[data-testid="stDownloadButton"]', timeout=90_000)
        settle(pg)
        assert len(pg.evaluate(BUTTON_LABELS_JS)) == 5
        assert pg.evaluate(CUT_BUTTONS_JS) == []
        pg.locator(
            ".st-key-inspect_view button", has_text="Токены" if ui == "ru" else "Tokens"
        ).click()
        settle(pg)
        pg.wait_for_timeout(1000)
        n = visible_dataframe(pg)
        rows = len(explain.token_table(Meteor(preset).score(*pair)))
        assert rows > 10  # more than the default height showed
        height, shown = pg.evaluate(SCROLLER_JS, n)
        assert height <= shown + 1, (rows, height, shown)
    finally:
        pg.close()


@pytest.mark.parametrize("width", [1400, 1100])
def test_corpus_table_and_downloads_are_whole(
    server: dict[str, Any], browser: Any, width: int
) -> None:
    pg = browser.new_page(viewport={"width": width, "height": 1200})
    try:
        pg.goto(f"{server['url']}/corpus?ui=ru&preset=ru")
        settle(pg)
        pg.get_by_text("Демо-корпус").first.click()
        pg.wait_for_selector('[data-testid="stDataFrame"]', timeout=90_000)
        settle(pg)
        pg.wait_for_timeout(1000)
        shown = pg.evaluate(VISIBLE_COLUMNS_JS, visible_dataframe(pg))
        # the open link and both texts; the column after the reference is drawn too, so
        # the reference column is whole (it was the 12th of 13, off the page)
        assert shown[:5] == ["№", "Разбор", "гипотеза", "лучший эталон", "METEOR"], shown
        print(width, "corpus table, columns drawn without scrolling:", shown)
        pg.get_by_role("tab", name="Экспорт").click()
        pg.wait_for_timeout(800)
        labels = pg.evaluate(BUTTON_LABELS_JS)
        assert len(labels) == 5 and "Выравнивания system_a (align.out)" in labels, labels
        assert pg.evaluate(CUT_BUTTONS_JS) == []
    finally:
        pg.close()
