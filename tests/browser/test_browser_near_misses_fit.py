"""Inspect's near-miss table fits at 1,366 px (Chromium measures): no column off-screen
(eight columns needed 1,143 px of 904, "score if matched", "gain" and "presets" past the
edge) and the reason ("why not matched") whole, wrapped in its cell, in English and
Russian.  The stage's detail and the presets are listed under the table.  Screenshots go
to ``$METEOR_SHOTS`` (default ``tests/artifacts/``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, settle

from meteor import Meteor
from meteor.analysis.explain.record import explain
from pages._near_misses import NEAR_WIDTHS
from pages._near_misses import t as near_t

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

SHOTS = Path(os.environ.get("METEOR_SHOTS") or Path(__file__).resolve().parents[1] / "artifacts")
#: Two near misses the beam left out (the longest reason), and NLTK's own matcher's.
CASES = [("meteor-1.5", ("the cats are sleeping", "the cat sleeps")),
         ("nltk", ("he runs fast", "he ran quickly"))]  # fmt: skip
HEADERS = {
    "en": ["stage", "hypothesis", "reference", "why not matched", "score if matched", "gain"],
    "ru": ["этап", "гипотеза", "эталон", "почему нет", "оценка", "прирост"],
}
#: The near-miss dataframe: its box, its scroller's widths and heights, its header cells.
TABLE_JS = """(why) => { const d = [...document.querySelectorAll('[data-testid="stDataFrame"]')]
    .find(d => [...d.querySelectorAll('[role="columnheader"]')].some(h => h.innerText.trim() === why));
  const s = d.querySelector('.dvn-scroller'), b = d.getBoundingClientRect();
  const main = document.querySelector('[data-testid="stMain"]').getBoundingClientRect();
  return {left: b.left, right: b.right, mainRight: main.right, sw: s.scrollWidth, cw: s.clientWidth,
          height: b.height, headers: [...d.querySelectorAll('[role="columnheader"]')]
            .map(h => h.innerText.trim())}; }"""
#: Lines a text wraps to in ``width`` px with the page's 14-px font (words kept whole).
LINES_JS = """([text, width]) => { const c = document.createElement('canvas').getContext('2d');
  c.font = '14px ' + getComputedStyle(document.body).fontFamily;
  let lines = 1, line = '';
  for (const w of text.split(/\\s+/)) { const next = line ? line + ' ' + w : w;
    if (line && c.measureText(next).width > width) { lines += 1; line = w; } else { line = next; } }
  return lines; }"""
HEADER_PX, CELL_PAD_PX, TEXT_LINE_PX = 35, 17, 18


@pytest.mark.parametrize("ui", ["en", "ru"])
@pytest.mark.parametrize(("preset", "pair"), CASES)
def test_near_miss_table_fits_at_1366(
    server: dict[str, Any], browser: Any, ui: str, preset: str, pair: tuple[str, str]
) -> None:
    m = Meteor(preset)
    near = explain(m.score(*pair), m).near_misses
    assert near
    pg = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        query = urlencode({"ui": ui, "preset": preset, "hyp": pair[0], "ref": pair[1]})
        pg.goto(f"{server['url']}/?{query}")
        pg.wait_for_selector('[data-testid="stDownloadButton"]', timeout=90_000)
        settle(pg)
        why = HEADERS[ui][3]
        pg.wait_for_function(
            "(why) => [...document.querySelectorAll('[role=\"columnheader\"]')]"
            ".some(h => h.innerText.trim() === why)",
            arg=why,
            timeout=60_000,
        )
        table = pg.evaluate(TABLE_JS, why)
        assert table["headers"] == HEADERS[ui], table
        assert table["sw"] <= table["cw"] + 1, table  # no column past the table's edge
        assert table["right"] <= table["mainRight"], table  # nor the table past the page's
        # every reason whole: the lines it wraps to fit the row's height
        row_px = (table["height"] - HEADER_PX - 2) / len(near)
        for n in near:
            text = near_t.table[f"reason_{n.reason}"][ui].format(stemmer=n.stemmer)
            lines = pg.evaluate(LINES_JS, [text, NEAR_WIDTHS["why"] - CELL_PAD_PX])
            assert lines * TEXT_LINE_PX + 8 <= row_px, (text, lines, row_px)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.get_by_text("Each near miss" if ui == "en" else "Каждое почти совпадение").first.click()
        pg.wait_for_timeout(600)
        details = pg.locator('[data-testid="stExpander"]').last.inner_text()
        assert all(" ".join(n.match.hyp_words) in details for n in near), details
        assert all(p in details for n in near for p in n.presets), details
        pg.locator('[data-testid="stDataFrame"]').last.scroll_into_view_if_needed()
        pg.wait_for_timeout(500)
        pg.screenshot(path=str(SHOTS / f"near_misses_{ui}_{preset}_1366.png"))
    finally:
        pg.close()
