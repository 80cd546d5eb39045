"""The HTML corpus report opened in Debian's Chromium: every figure drawn, no network request.

The report (:func:`meteor.viz.report_html.to_html`) embeds plotly.js inline, so it must
open offline; a system name holding markup must show as text, never as HTML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM

import meteor
from meteor.viz.report_figures import report_figures
from meteor.viz.report_html import to_html

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "<b>bold</b>_sys": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "plain": ["cat mat", "dog park", "green tea"],
    "third": ["the cat is on the mat", "the dog ran in a park", "we like green tea today"],
}


def test_html_report_draws_every_figure_offline(browser: Any, tmp_path: Path) -> None:
    rep = meteor.report(HYPS, REFS, "meteor-1.5", n_samples=50)
    path = tmp_path / "report.html"
    path.write_text(to_html(rep), encoding="utf-8")
    fig_ids = [f"fig-{i}" for i, _ in report_figures(rep)]
    assert len(fig_ids) >= 6
    requests: list[str] = []
    page = browser.new_page()
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(path.as_uri())
        for fid in fig_ids:
            page.wait_for_selector(f"#{fid} svg.main-svg", timeout=30_000)
        drawn = page.evaluate(
            "(ids) => ids.filter(id => document.querySelector('#' + id + ' .plot-container'))",
            fig_ids,
        )
        bold = page.evaluate("() => document.querySelectorAll('table b').length")
        text = page.inner_text("#ranking-table")
    finally:
        page.close()
    assert drawn == fig_ids
    assert [u for u in requests if not u.startswith(("file:", "data:", "blob:"))] == []
    assert bold == 0 and "<b>bold</b>_sys" in text
