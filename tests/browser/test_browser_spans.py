"""Inspect with human error spans in Chromium (issue 41), in both interface languages: the
spans a link carries are drawn on the link view's hypothesis row, behind the tokens, with
their legend, and the four cells are listed under the score."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, wait_link_view

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

HYP = "A fast brown fox leapt over a lazy dog"
REF = "The quick brown fox jumps over the lazy dog"
SPANS = ["2,6,Major,r1,Accuracy/Mistranslation", "17,22,Minor,r1,Style/Awkward"]


@pytest.mark.parametrize(
    ("ui", "legend", "title", "cell"),
    [
        ("EN", "human error: Major", "Human error spans", "without that cell's unmatched words"),
        ("RU", "ошибка: серьёзная", "Ошибки, отмеченные людьми", "оставшихся без пары"),
    ],
)
def test_inspect_shows_the_spans(
    server: dict[str, Any], browser: Any, ui: str, legend: str, title: str, cell: str
) -> None:
    pg = browser.new_page(viewport={"width": 1400, "height": 2000})
    try:
        query = (
            urlencode({"ui": ui, "preset": "meteor-1.5", "hyp": HYP, "ref": REF})
            + "&"
            + (urlencode([("spans", s) for s in SPANS]))
        )
        pg.goto(f"{server['url']}/?{query}")
        wait_link_view(pg)
        drawn = pg.evaluate(
            """() => {
              const gd = document.querySelector('.js-plotly-plot');
              const roles = gd.data.map(t => (t.meta || {}).role || '');
              const legend = [...gd.querySelectorAll('.legendtext')].map(e => e.textContent);
              const first = gd.querySelector('.scatterlayer .trace');  // drawn first: behind
              return {roles, legend, firstPoints: first.querySelectorAll('.point').length};
            }"""
        )
        assert drawn["roles"][:2] == ["spans_Major", "spans_Minor"], drawn["roles"]
        assert legend in drawn["legend"], drawn["legend"]
        assert drawn["firstPoints"] == 1  # "fast": one Major mark, drawn before the tokens
        text = pg.inner_text('[data-testid="stMain"]')
        assert title in text, text[:300]
        assert cell in text  # the caption of the four cells (the table is a canvas)
    finally:
        pg.close()
