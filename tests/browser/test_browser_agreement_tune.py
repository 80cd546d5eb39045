"""Issue 34: the "Tune" section of "Agreement with people" in a real browser at 1366 px.

The demo is measured (100 resamples), then "Tune" runs a tiny search (the grid only, 3 folds
of whole documents, α β γ δ only): the held-out table, the best setting and the signature
render with no error or exception, the buttons sit inside the 1366 px window, the signature
wraps (no hidden part), and "Use this setting" says the sidebar scores with the tuned preset
file.

Run with ``python -m pytest -m browser tests/browser/test_browser_agreement_tune.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM, ROOT

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

ARTIFACTS = ROOT / "tests" / "artifacts"
WIDTH = 1366


def _set_number(pg: Any, label: str, value: int) -> None:
    box = pg.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    pg.wait_for_timeout(800)


def test_tune_renders_and_its_buttons_work_at_1366(server: dict[str, Any], browser: Any) -> None:
    pg = browser.new_page(viewport={"width": WIDTH, "height": 900})
    try:
        pg.goto(f"{server['url']}/agreement?agr_resamples=100")
        pg.get_by_role("button", name="Measure agreement").click(timeout=90_000)
        tune = pg.get_by_role("button", name="Tune", exact=True)
        tune.wait_for(timeout=400_000)
        pg.get_by_text("Stage weights too").click()
        _set_number(pg, "Folds (k)", 3)
        _set_number(pg, "Refinement rounds", 0)
        tune.click()
        use = pg.locator(".st-key-agr_tune_use button").first  # not the heatmap's one
        use.wait_for(timeout=300_000)
        pg.get_by_role("button", name="Download the preset file").wait_for(timeout=60_000)
        pg.get_by_text("preset:tuned-meteor-1.5@").first.wait_for(timeout=60_000)
        main = pg.locator('[data-testid="stMain"]')
        text = main.inner_text()
        boxes = [
            b.bounding_box()
            for b in (tune, use, pg.get_by_role("button", name="Download the preset file"))
        ]
        overflow = pg.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"stCode\"] pre')]"
            ".filter(e => e.innerText.includes('tuned-meteor-1.5@'))"
            ".map(e => e.scrollWidth - e.clientWidth)"
        )
        use.click()
        pg.get_by_text("The sidebar now scores with tuned-meteor-1.5@").wait_for(timeout=60_000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "agreement_tune.png"), full_page=True)
        errors = main.locator('[data-testid="stAlertContentError"]').count()
        exceptions = main.locator('[data-testid="stException"]').count()
        sidebar = pg.locator('[data-testid="stSidebar"]').inner_text()
    finally:
        pg.close()
    assert not errors and not exceptions
    assert "Held out: Kendall τ-b, flattened on each fold" in text
    assert "The best setting" in text
    assert "preset:tuned-meteor-1.5@" in text  # the signature, wrapped: nothing cut
    assert overflow and all(x <= 1 for x in overflow), overflow
    for box in boxes:
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH
    assert "tuned-meteor-1.5@" in sidebar
