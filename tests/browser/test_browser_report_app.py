"""The corpus report on the Corpus page in Chromium at 1366 px (issue 35).

A long-form TSV of four systems (one named with markup) is uploaded; the report is
built with its button; the ranking table and both figures (ranking, p-values) are
drawn, no exception is shown, the Buckets and "Where the points go" tabs draw their
figures, and the system name with markup is shown as text, never as HTML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM, settle

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

REFS = [
    "the cat sat on the mat",
    "a dog ran in the park today",
    "we like green tea in the morning",
    "the weather is cold and wet this week",
    "she reads a long book every night",
    "the train to the city leaves at noon",
    "children played football after school",
    "he forgot his keys at the office again",
]
HYPS = {
    "<b>bold</b>_sys": [
        "the cat sat on a mat",
        "a dog runs in the park today",
        "we like tea in the morning",
        "weather is cold and wet this week",
        "she reads long book every night",
        "the train to city leaves at noon",
        "the children played football after school",
        "he forgot keys at the office",
    ],
    "plain": [
        "cat mat",
        "dog park",
        "green tea",
        "cold wet",
        "book",
        "train noon",
        "football",
        "keys office",
    ],  # fmt: skip
    "third": list(REFS),
    "fourth": [r.replace("the ", "a ") for r in REFS],
}
#: The dataframes (Glide canvases), plotly figures and exceptions shown in the main area.
STATE_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = el => el.getBoundingClientRect().height > 0;
  return {
    frames: [...main.querySelectorAll('[data-testid="stDataFrame"]')].filter(shown).length,
    figures: [...main.querySelectorAll('.js-plotly-plot')].filter(shown)
      .filter(g => g.querySelector('.main-svg')).map(g => (g.layout.title || {}).text || ''),
    errors: main.querySelectorAll('[data-testid="stException"]').length,
    bold: main.querySelectorAll('b').length,
    width: document.documentElement.scrollWidth,
  };
}"""


def _tsv(path: Path) -> Path:
    lines = ["system\tseg_id\thyp\tref"]
    for name, hyps in HYPS.items():
        lines += [f"{name}\t{k + 1}\t{h}\t{REFS[k]}" for k, h in enumerate(hyps)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _tab(pg: Any, label: str) -> None:
    pg.get_by_role("tab", name=label).click()
    settle(pg, 180_000, title=False)


def test_report_tabs_draw_at_1366(server: dict[str, Any], browser: Any, tmp_path: Path) -> None:
    pg = browser.new_page(viewport={"width": 1366, "height": 1000})
    try:
        pg.goto(f"{server['url']}/corpus?preset=meteor-1.5-paper2005")
        pg.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached",
                             timeout=120_000)  # fmt: skip
        files = pg.locator('.st-key-corpus_hyp_files [data-testid="stFileUploaderDropzoneInput"]')
        files.set_input_files(str(_tsv(tmp_path / "four_systems.tsv")))
        # four systems: the corpus scores are one table (cards only up to three), then the tabs
        pg.get_by_role("tab", name="Ranking").wait_for(timeout=180_000)
        settle(pg, 180_000, title=False)
        _tab(pg, "Ranking")
        pg.get_by_role("button", name="Build the report (4 systems, 6 comparisons)").click()
        try:
            pg.wait_for_function(
                """() => [...document.querySelectorAll('.js-plotly-plot')]
                     .filter(g => g.getBoundingClientRect().height > 0 && g.querySelector('.main-svg'))
                     .length >= 2""",
                timeout=180_000,
            )
        except Exception as exc:  # say what the page showed instead of the two figures
            shown = pg.evaluate(STATE_JS)
            text = pg.locator('[data-testid="stMain"]').inner_text()[-3000:]
            raise AssertionError(f"no report figures after 180 s: {shown}\n{text}") from exc
        settle(pg, 180_000, title=False)
        ranking = pg.evaluate(STATE_JS)
        _tab(pg, "Buckets")
        pg.wait_for_timeout(1000)
        buckets = pg.evaluate(STATE_JS)
        _tab(pg, "Where the points go")
        pg.wait_for_timeout(1000)
        where = pg.evaluate(STATE_JS)
        names = pg.get_by_text("<b>bold</b>_sys").count()
    finally:
        pg.close()
    assert ranking["errors"] == 0 and ranking["bold"] == 0
    assert ranking["frames"] >= 2  # the ranking table and the pairwise tests
    assert any("Corpus METEOR" in x for x in ranking["figures"]), ranking
    assert any("p-values" in x for x in ranking["figures"]), ranking
    assert buckets["errors"] == 0 and buckets["frames"] >= 1
    assert any("Reference length" in x for x in buckets["figures"]), buckets
    assert where["errors"] == 0 and where["frames"] >= 3
    assert len(where["figures"]) >= 2, where
    assert names >= 1  # the name with markup is text on the page
    assert max(ranking["width"], buckets["width"], where["width"]) <= 1366  # no sideways scroll
