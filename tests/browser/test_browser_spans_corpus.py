"""The Corpus page's human error spans piece in Chromium at 1366 px (issue 41), in both
interface languages: the committed en-de slice and its MQM file uploaded, the precision /
recall / F1 caption naming the rater rule and the segments-by-disagreement table are shown,
and nothing is wider than the window."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM, settle

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

DATA = Path(__file__).resolve().parents[1] / "data" / "spans"
#: [what, scrollWidth, clientWidth] of the page and of every element of the spans piece
#: wider than its box (a horizontal scroll bar, or text cut off).
OVERFLOW_JS = """() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(['page', doc.scrollWidth, doc.clientWidth]);
  const main = document.querySelector('[data-testid="stMain"]');
  if (main.scrollWidth > main.clientWidth + 1)
    out.push(['main', main.scrollWidth, main.clientWidth]);
  for (const key of ['corpus_spans_files', 'corpus_spans_raters']) {
    const box = document.querySelector('.st-key-' + key);
    if (!box) { out.push(['missing', key]); continue; }
    const r = box.getBoundingClientRect();
    if (r.right > doc.clientWidth + 1) out.push([key, r.right, doc.clientWidth]);
  }
  for (const c of document.querySelectorAll('[data-testid="stCaptionContainer"]'))
    if (c.scrollWidth > c.clientWidth + 1) out.push([c.innerText.slice(0, 60), c.scrollWidth, c.clientWidth]);
  return out;
}"""


@pytest.mark.parametrize(
    ("ui", "read", "caption", "rule", "sorted_caption", "columns"),
    [
        ("EN", "40 annotated segments from 42 rows (mqm)",
         "annotated segments: precision", "union of raters",
         "Segments sorted by disagreement", ["Inspect", "disagreement", "hypothesis"]),
        ("RU", "Размеченных сегментов: 40, из строк: 42 (mqm)",
         "размеченных сегментов: 40; точность", "объединение оценщиков",
         "Сегменты по степени расхождения", ["Разбор", "расхождение", "гипотеза"]),
    ],
)  # fmt: skip
def test_corpus_spans_piece_at_1366(
    server: dict[str, Any],
    browser: Any,
    ui: str,
    read: str,
    caption: str,
    rule: str,
    sorted_caption: str,
    columns: list[str],
) -> None:
    pg = browser.new_page(viewport={"width": 1366, "height": 900})
    try:
        pg.goto(f"{server['url']}/corpus?ui={ui}&preset=meteor-1.5-de&lang=de")
        hyp = pg.locator('.st-key-corpus_hyp_files [data-testid="stFileUploaderDropzoneInput"]')
        hyp.wait_for(state="attached", timeout=120_000)
        hyp.set_input_files(str(DATA / "en-de.segments.tsv"))
        spans = pg.locator('.st-key-corpus_spans_files [data-testid="stFileUploaderDropzoneInput"]')
        spans.wait_for(state="attached", timeout=180_000)
        settle(pg, 120_000, title=False)
        spans.set_input_files(str(DATA / "en-de.mqm.tsv"))
        # the segments by disagreement: the last table of the Segments tab (a dataframe
        # without selection has no key class)
        pg.get_by_text(sorted_caption).wait_for(timeout=180_000)
        table = pg.locator('[data-testid="stDataFrame"]:visible').last
        table.wait_for(state="visible", timeout=60_000)
        settle(pg, 120_000, title=False)
        table.scroll_into_view_if_needed()
        pg.wait_for_timeout(800)
        text = pg.inner_text('[data-testid="stMain"]')
        line = next((x for x in text.splitlines() if caption in x), "")
        assert line and "F1" in line and rule in line, text[-1500:]
        assert read in text.splitlines()  # what was read, in the interface's language
        box = table.bounding_box()
        assert box and box["height"] > 100 and box["x"] + box["width"] <= 1366
        # the columns drawn without scrolling the table sideways: the Inspect link among them
        headers = [h.strip() for h in table.locator('[role="columnheader"]').all_inner_texts()]
        assert set(columns) <= set(headers), headers
        assert pg.evaluate(OVERFLOW_JS) == []
        shot = Path(os.environ.get("METEOR_SCREENSHOTS", "/tmp")) / f"spans_corpus_{ui}.png"
        pg.screenshot(path=str(shot), full_page=False)
    finally:
        pg.close()
