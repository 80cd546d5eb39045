"""A hostile preset file in Chromium: its ``name`` and ``tuned_on.data`` (Markdown images,
links and bare URLs) are shown as text -- the page has no ``<img>`` nor ``<a>`` pointing
at them, on the sidebar, Inspect or Compare."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM, settle

from meteor.presets import PRESETS

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

NAME = "![x](http://example.invalid/a.png) [link](http://x)"
DATA = "[d](http://example.invalid/d) www.example.invalid a@example.invalid"
#: Images and links whose target comes from the file's text.
HOSTILE_JS = """() => [...document.querySelectorAll('img, a')].map(e => e.src || e.href || '')
  .filter(u => /example\\.invalid|^https?:\\/\\/x\\/?$|mailto:/.test(u))"""


def test_hostile_preset_file_renders_no_image_nor_link(
    server: dict[str, Any], browser: Any, tmp_path: Path
) -> None:
    doc = {"format": "meteor-preset", "version": 1, "name": NAME, "description": "",
           "params": PRESETS["nltk"].params.to_dict(), "tuned_on": {"data": DATA}}  # fmt: skip
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    pg = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        pg.goto(f"{server['url']}/")
        settle(pg)
        pg.locator('.st-key-preset_file_upload input[type="file"]').set_input_files(str(path))
        pg.wait_for_function(
            "() => document.querySelector('[data-testid=\"stSidebar\"]').innerText"
            ".includes('example.invalid')",
            timeout=60_000,
        )
        settle(pg)
        sidebar = pg.locator('[data-testid="stSidebar"]').inner_text()
        assert "![x](http://example.invalid/a.png)" in sidebar  # shown verbatim, as text
        assert pg.evaluate(HOSTILE_JS) == []
        pg.get_by_role("link", name="Compare settings").click()
        settle(pg)
        pg.wait_for_selector('[data-testid="stMetric"]', timeout=90_000)
        settle(pg)
        assert pg.evaluate(HOSTILE_JS) == []
        main = pg.locator('[data-testid="stMain"]').inner_text()
        assert "example.invalid" in main  # the setting is named on the page
    finally:
        pg.close()
