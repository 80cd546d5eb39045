"""Issue #31, item 15: the Learn page's formula step in a real browser (Debian's Chromium).

At the laptop widths of the report (1366 and 1400 px), a pair matched by all four stages
of meteor-1.5 writes M_hyp / M_ref with four weighted terms.  Every formula must fit its
box: no formula wider than its box (the result "= 4.4500" was pushed past the right
edge, with no visible scrollbar), no glyph outside the box (st.latex's box hides what
overflows it: the Fmean numerator lost its top), every glyph inside the window, and each
term of M labelled with its stage (in Russian too, where KaTeX draws the Cyrillic labels
without an error).  Screenshots go to ``tests/artifacts/``.

Run with ``python -m pytest -m browser tests/browser/test_browser_learn.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, ROOT

from meteor import Meteor

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

ARTIFACTS = ROOT / "tests" / "artifacts"
#: matched by exact, stem, synonym and paraphrase under meteor-1.5 (checked below)
PAIR = (
    "He has been working on this issue for a long time and wanted to fix it",
    "He worked on the problem for a lengthy period and he wants to repair it",
)

#: Per formula box: its rectangle, scroll sizes, and the union of its glyphs' boxes
#: (the leaf spans that draw text, struts excluded).
MEASURE = """() => [...document.querySelectorAll('[data-testid="stMain"] .katex-display')]
  .map(box => {
    const r = box.getBoundingClientRect();
    const g = {top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity};
    for (const el of box.querySelectorAll('.katex-html span')) {
      if (el.children.length || !el.textContent.trim()) continue;
      const b = el.getBoundingClientRect();
      if (!b.width || !b.height) continue;
      g.top = Math.min(g.top, b.top); g.bottom = Math.max(g.bottom, b.bottom);
      g.left = Math.min(g.left, b.left); g.right = Math.max(g.right, b.right);
    }
    return {text: box.innerText.replace(/\\s+/g, ''),
            top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            sw: box.scrollWidth, cw: box.clientWidth, sh: box.scrollHeight, ch: box.clientHeight,
            glyphs: g, window: window.innerWidth};
  })"""


def test_the_pair_uses_every_stage() -> None:
    r = Meteor("meteor-1.5").score(*PAIR)
    assert {m.module.value for m in r.matches} == {"exact", "stem", "synonym", "paraphrase"}


#: the stage labels of the M lines in each interface language
LABELS = {
    "EN": ("exact", "stem", "synonym", "paraphrase"),
    "RU": ("точное", "основа", "синоним", "перефразирование"),
}


@pytest.mark.parametrize(("width", "ui"), [(1366, "EN"), (1400, "EN"), (1366, "RU")])
def test_formula_step_fits_the_window(
    server: dict[str, Any], browser: Any, width: int, ui: str
) -> None:
    m = Meteor("meteor-1.5")
    r = m.score(*PAIR)
    bd = m.breakdown(r)
    results = [f"{bd.hyp_weighted_matches:.4f}", f"{bd.ref_weighted_matches:.4f}"]
    if ui == "RU":
        results = [x.replace(".", ",") for x in results]
    query = urlencode(
        {"ui": ui, "hyp": PAIR[0], "ref": PAIR[1], "preset": "meteor-1.5", "step": "formula"}
    )
    pg = browser.new_page(viewport={"width": width, "height": 900})
    try:
        pg.goto(f"{server['url']}/learn?{query}")
        pg.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"stMain\"] .katex-display').length"
            " >= 20",
            timeout=90_000,
        )
        pg.wait_for_function("() => document.fonts.status === 'loaded'", timeout=30_000)
        pg.wait_for_timeout(500)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"learn_formula_{width}_{ui}.png"), full_page=True)
        boxes = pg.evaluate(MEASURE)
        errors = pg.locator('[data-testid="stMain"] .katex-error').count()
    finally:
        pg.close()
    assert not errors  # KaTeX renders every formula (Cyrillic words included)
    assert len(boxes) == 20  # ten formulas, each in symbols and with numbers
    problems = []
    # the order of meteor.analysis.explain.walkthrough.formula_lines: L_hyp, L_ref, M_hyp, M_ref, ...
    # (innerText holds KaTeX's hidden MathML too: the glyph checks below say what is seen)
    for box, value in zip((boxes[5], boxes[7]), results, strict=True):
        assert f"={value}" in box["text"], (value, box["text"])  # the result is written
        for stage in LABELS[ui]:  # each term is named
            if stage not in box["text"]:
                problems.append(f"{box['text'][:30]}: no term labelled {stage!r}")
    for b in boxes:
        g, what = b["glyphs"], b["text"][:30]
        if b["sw"] > b["cw"] + 1:
            problems.append(f"{what}: {b['sw']} px wide in a {b['cw']} px box")
        if b["sh"] > b["ch"] + 1:
            problems.append(f"{what}: {b['sh']} px tall in a {b['ch']} px box (clipped)")
        # a glyph span's box is its line box, a little taller than the ink: 1 px of slack
        if g["top"] < b["top"] - 1 or g["bottom"] > b["bottom"] + 1:
            problems.append(f"{what}: glyphs {g['top']:.1f}–{g['bottom']:.1f} outside "
                            f"the box {b['top']:.1f}–{b['bottom']:.1f}")  # fmt: skip
        if g["right"] > min(b["right"], b["window"]) + 1 or g["left"] < b["left"] - 1:
            problems.append(f"{what}: glyphs {g['left']:.0f}–{g['right']:.0f} px outside "
                            f"the box {b['left']:.0f}–{b['right']:.0f} or the window")  # fmt: skip
    assert not problems, "\n".join(problems)
