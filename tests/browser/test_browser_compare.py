"""Issue #16: Compare with four settings stays readable in Chromium.

The page is opened by deep link with setting A and three others (the most the page
takes), for a long real segment (WMT21 ru→en segment 3, 39/44 tokens) in English and a
long Russian pair in the Russian interface.  For every link view the test reads the
boxes plotly.js drew (the approach of tests/browser/test_browser_figures.py) and checks that
each view keeps a readable width, that its word labels stay inside it and that no two
drawn labels intersect; then that the Russian legends need no scrollbar.  Screenshots
go to ``tests/artifacts/compare4_*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM
from _texts import RU_NAKED_EYE, WMT21_SEG3
from test_browser import shot
from test_browser_figures import BOXES_JS, overlaps

from meteor import Meteor

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

VIEWPORT = 1400
#: The narrowest a link view may get on a 1400-px window (four settings used to share it).
MIN_VIEW_WIDTH = 800
#: BOXES_JS of one figure (the plot element is the argument) instead of the whole page.
VIEW_BOXES_JS = BOXES_JS.replace("() => {", "(gd) => {", 1).replace(
    "document.querySelectorAll('.scatterlayer", "gd.querySelectorAll('.scatterlayer", 1
)


def link_views(pg: Any) -> list[Any]:
    """The settings' link views (plots with a ``tokens_hyp`` trace), top to bottom; the
    link view of "Why do A and B differ?" (its stepper, key ``rc_links``) is not one."""
    plots = pg.locator(".js-plotly-plot").all()
    return [
        p
        for p in plots
        if p.evaluate(
            "gd => (gd.data || []).some(t => t.meta && t.meta.role === 'tokens_hyp')"
            " && !gd.closest('.st-key-rc_links')"
        )
    ]


@pytest.mark.parametrize(
    ("name", "query", "pair"),
    [
        (
            "wmt21_seg3",
            {"preset": "meteor-1.5", "vs": ["nltk", "paper-2005", "meteor-1.5-paper2005"]},
            WMT21_SEG3,
        ),
        (
            "ru",
            {"ui": "ru", "preset": "ru", "vs": ["seed-ru", "seed-ru-emb", "meteor-1.5-ru"]},
            RU_NAKED_EYE,
        ),
    ],
)
def test_four_settings_keep_readable_link_views(
    server: dict[str, Any], browser: Any, name: str, query: dict[str, Any], pair: tuple[str, str]
) -> None:
    pg = browser.new_page(viewport={"width": VIEWPORT, "height": 1200})
    try:
        url = f"{server['url']}/compare?" + urlencode(
            {**query, "hyp": pair[0], "ref": pair[1]}, doseq=True
        )
        pg.goto(url)
        pg.wait_for_function(
            "() => document.querySelectorAll('.js-plotly-plot .scatterlayer .trace').length > 0",
            timeout=90_000,
        )
        pg.wait_for_function(
            "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=90_000
        )
        pg.wait_for_timeout(1500)
        views = link_views(pg)
        assert len(views) == 4, len(views)
        n_hyp = len(Meteor(query["preset"]).score(*pair).alignment.hyp_words)
        report = []
        for i, view in enumerate(views):
            view.scroll_into_view_if_needed()
            pg.wait_for_timeout(200)
            box = view.bounding_box()
            assert box["width"] >= MIN_VIEW_WIDTH, (i, box)
            boxes = view.evaluate(VIEW_BOXES_JS)
            words = [b for b in boxes if str(b[4]).startswith("labels_")]
            assert len(words) >= n_hyp, (i, len(words))
            outside = [
                b[4] for b in words if b[0] < box["x"] - 1 or b[2] > box["x"] + box["width"] + 1
            ]
            assert not outside, (i, outside[:5])
            bad = overlaps(boxes)
            assert bad == [], (i, bad[:5])
            report.append((round(box["width"]), len(words)))
        if query.get("ui") == "ru":  # "the Russian legends get a scrollbar"
            bars = pg.evaluate(
                """() => [...document.querySelectorAll('.js-plotly-plot .legend .scrollbar')]
                     .map(s => s.getBoundingClientRect().height)"""
            )
            assert all(h == 0 for h in bars), bars
        shot(pg, f"compare4_{name}")  # the whole page, as tall as its content
        print(name, "link views (width px, drawn words):", report)
    finally:
        pg.close()
