"""Figures drawn by plotly.js in Chromium: the boxes of the drawn labels never intersect.

No Streamlit server: each figure of :mod:`meteor.viz.figures` is written as a self-contained
HTML page (plotly.js inline, no network) and opened by Debian's Chromium; the test reads
the bounding boxes of every drawn word, chunk number and token marker from the SVG.
Issue 16: long segments (39/44 tokens, WMT21 ru→en segment 3) had chunk numbers on the
markers and long Russian words running into each other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM
from _texts import RU_NAKED_EYE, WMT21_SEG3

from meteor import Meteor
from meteor.viz import figures

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

#: Boxes of drawn text (words, chunk numbers) and of visible token markers, per trace role.
BOXES_JS = """() => {
  const out = [];
  for (const g of document.querySelectorAll('.scatterlayer .trace')) {
    const tr = g.__data__ && g.__data__[0] && g.__data__[0].trace;
    const role = (tr && tr.meta && tr.meta.role) || '';
    for (const t of g.querySelectorAll('.textpoint text')) {
      if (!t.textContent) continue;
      const r = t.getBoundingClientRect();
      out.push([r.left, r.top, r.right, r.bottom, role + ' ' + t.textContent]);
    }
    if (role.startsWith('tokens_')) {
      for (const p of g.querySelectorAll('.points path.point')) {
        const r = p.getBoundingClientRect();
        out.push([r.left, r.top, r.right, r.bottom, 'marker ' + role]);
      }
    }
  }
  return out;
}"""


def overlaps(boxes: list[list[Any]]) -> list[tuple[str, str]]:
    """Intersecting pairs (1 px of anti-aliasing allowed; two markers may touch)."""
    bad = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if str(a[4]).startswith("marker") and str(b[4]).startswith("marker"):
                continue
            if a[0] + 1 < b[2] and b[0] + 1 < a[2] and a[1] + 1 < b[3] and b[1] + 1 < a[3]:
                bad.append((a[4], b[4]))
    return bad


@pytest.mark.parametrize("width", [640, 1000])
@pytest.mark.parametrize(
    ("name", "preset", "pair"),
    [
        ("wmt21-ru-en-seg3", "meteor-1.5", WMT21_SEG3),
        ("ru-naked-eye", "meteor-1.5-ru", RU_NAKED_EYE),
        ("cat", "meteor-1.5", ("the cat sat on a mat", "a cat was sitting on the mat")),
    ],
)
def test_drawn_link_view_labels_do_not_intersect(
    browser: Any, tmp_path: Path, name: str, preset: str, pair: tuple[str, str], width: int
) -> None:
    fig = figures.link_view(Meteor(preset).score(*pair).alignment)
    html = tmp_path / f"{name}.html"
    html.write_text(
        fig.to_html(include_plotlyjs=True, full_html=True, default_width=f"{width}px"),
        encoding="utf-8",
    )
    page = browser.new_page(viewport={"width": width + 40, "height": 900})
    try:
        page.goto(html.as_uri())
        page.wait_for_selector(".scatterlayer .trace", timeout=30_000)
        boxes = page.evaluate(BOXES_JS)
    finally:
        page.close()
    words = [b for b in boxes if not str(b[4]).startswith("marker")]
    assert len(words) >= 10, boxes[:5]
    if name == "wmt21-ru-en-seg3":
        assert fig.layout.meta["layout"] == "columns"
        assert sum(str(b[4]).startswith("labels_") for b in words) == 39 + 44
        assert any(str(b[4]).startswith("chunk_numbers") for b in words)
    assert overlaps(boxes) == [], overlaps(boxes)[:5]
