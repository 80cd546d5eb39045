"""Issue 34: the "Agreement with people" page in a real browser (Debian's Chromium).

The page is opened on the bundled demo with 100 resamples (``?agr_resamples=100``, the
bound control), "Measure agreement" is pressed, and the table and the two figures (the
scatter and the heatmap) must render with no error or exception on the page.

Run with ``python -m pytest -m browser tests/browser/test_browser_agreement.py``.
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


def test_demo_table_and_scatter_render(server: dict[str, Any], browser: Any) -> None:
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        pg.goto(f"{server['url']}/agreement?agr_resamples=100")
        button = pg.get_by_role("button", name="Measure agreement")
        button.wait_for(timeout=90_000)
        button.click()
        pg.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"stMain\"] .js-plotly-plot').length"
            " >= 2",
            timeout=400_000,
        )
        pg.wait_for_timeout(1000)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / "agreement_demo.png"), full_page=True)
        main = pg.locator('[data-testid="stMain"]')
        text = main.inner_text()
        tables = main.locator('[data-testid="stDataFrame"]').count()
        errors = main.locator('[data-testid="stAlertContentError"]').count()
        exceptions = main.locator('[data-testid="stException"]').count()
        traces = pg.evaluate(
            "() => [...document.querySelectorAll('[data-testid=\"stMain\"] .js-plotly-plot')]"
            ".map(gd => (gd.data || []).map(t => t.type))"
        )
    finally:
        pg.close()
    assert not errors and not exceptions
    assert tables == 2  # correlations, significant differences
    assert "Correlation with the human scores" in text
    assert "Which differences are significant" in text
    scatter, heat = traces
    assert len(scatter) == 11 and set(scatter) == {"scattergl"}  # one trace per system
    assert heat[0] == "heatmap"
