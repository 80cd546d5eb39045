"""The "why this score" waterfall and the score card fit at 1,366 px (Chromium measures):
every x label of the waterfall is drawn whole, horizontal (lines broken with ``<br>``, not
rotated) and inside the figure, no two overlapping; and no score-card label is cut with an
ellipsis ("Matches hyp / …").  Screenshots go to ``$METEOR_SHOTS`` (default ``tests/artifacts/``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, settle

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

SHOTS = Path(os.environ.get("METEOR_SHOTS") or Path(__file__).resolve().parents[1] / "artifacts")
FOX = (
    "The fast brown fox leaps over the lazy dogs",
    "The quick brown fox jumped over the lazy dog",
)
STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)

#: Per x tick label of the n-th plot: [text, left, right, top, bottom, rotated] and the svg box.
TICKS_JS = """(n) => { const gd = document.querySelectorAll('.js-plotly-plot')[n];
  const svg = gd.querySelector('.main-svg').getBoundingClientRect();
  const ticks = [...gd.querySelectorAll('.xtick text')].map(t => { const b = t.getBoundingClientRect();
    return [t.textContent, b.left, b.right, b.top, b.bottom,
            /rotate\\((?!0[,)])/.test(t.getAttribute('transform') || '')]; });
  return [ticks, [svg.left, svg.right, svg.top, svg.bottom]]; }"""
#: Score-card labels whose text is wider than the box that clips it with an ellipsis: a
#: Range measures the text's own width, the box's rectangle its (fractional) width --
#: "Matches hyp / ref" was 99.34 px in a 99.25-px box, drawn "Matches hyp / …".
CUT_METRIC_LABELS_JS = """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
  .map(l => { const box = l.querySelector('.stMarkdownEllipsis') || l;
    const r = document.createRange(); r.selectNodeContents(box);
    return [l.innerText, r.getBoundingClientRect().width, box.getBoundingClientRect().width]; })
  .filter(([, text, box]) => text > box + 0.01)"""


def waterfall_index(pg: Any) -> int:
    return int(
        pg.evaluate(
            """() => [...document.querySelectorAll('.js-plotly-plot')]
                 .findIndex(gd => (gd.data || []).some(t => t.type === 'waterfall'))"""
        )
    )


def assert_ticks_fit(ticks: list[Any], svg: list[float], labels: list[str]) -> None:
    left, right, top, bottom = svg
    # every label whole (its lines are tspans: compared without the spaces at the breaks)
    assert [t[0].replace(" ", "") for t in ticks] == [x.replace(" ", "") for x in labels], ticks
    for text, x0, x1, y0, y1, rotated in ticks:
        assert not rotated, text
        assert left <= x0 and x1 <= right and top <= y0 and y1 <= bottom, (text, svg, x0, x1, y1)
    boxes = sorted((t[1], t[2]) for t in ticks)
    for (_, r0), (l1, _) in zip(boxes, boxes[1:], strict=False):
        assert r0 <= l1, boxes  # no two labels overlap


@pytest.mark.parametrize(("ui", "preset", "pair"), [("en", "meteor-1.5", FOX),
                                                     ("ru", "meteor-1.5", STARRY)])  # fmt: skip
def test_waterfall_labels_and_card_labels_fit_at_1366(
    server: dict[str, Any], browser: Any, ui: str, preset: str, pair: tuple[str, str]
) -> None:
    pg = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        query = urlencode({"ui": ui, "preset": preset, "hyp": pair[0], "ref": pair[1]})
        pg.goto(f"{server['url']}/?{query}")
        pg.wait_for_selector('[data-testid="stDownloadButton"]', timeout=90_000)
        settle(pg)
        pg.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')].some(gd => "
            "(gd.data || []).some(t => t.type === 'waterfall') && gd.querySelector('.xtick text'))",
            timeout=60_000,
        )
        assert pg.evaluate(CUT_METRIC_LABELS_JS) == []
        n = waterfall_index(pg)
        ticks, svg = pg.evaluate(TICKS_JS, n)
        keys = ("ideal", "unmatched_hyp", "unmatched_ref", "partial_credit", "fragmentation")
        labels = [str(pg.evaluate("(n) => document.querySelectorAll('.js-plotly-plot')[n].data[0].x", n)[k])
                  for k in range(len(keys) + 1)]  # fmt: skip
        assert_ticks_fit(ticks, svg, labels)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.locator(".js-plotly-plot").nth(n).scroll_into_view_if_needed()
        pg.wait_for_timeout(500)
        pg.screenshot(path=str(SHOTS / f"waterfall_{ui}_1366.png"))
        pg.locator('[data-testid="stMetric"]').first.scroll_into_view_if_needed()
        pg.screenshot(path=str(SHOTS / f"score_card_{ui}_1366.png"))
    finally:
        pg.close()
