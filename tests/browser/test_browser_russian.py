"""Issue #16: the Russian interface is Russian in the browser too (Chromium).

tests/app/test_app_russian.py reads what the app *sends* (AppTest); this module reads what a
Russian user *sees*: ``document.body.innerText`` of every page opened with ``?ui=ru`` in
Chromium, with every tab clicked and every expander opened, including Streamlit's own
texts (the file uploader's "Upload" and "200MB per file" were English).  Latin-script
words must be in ``tests/_latin.py``'s allow-list.

Left out of the text, as in the AppTest check: code (the signature, inline code such as
column names), formulas (KaTeX), Material icon ligatures (drawn as a glyph: "upload"),
and Streamlit's visually hidden "Skip to main content" link (a 1-px box until focused).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, settle
from _latin import latin_words_in

from meteor.io.read import demo_corpus
from meteor.presets import PRESETS

pytestmark = pytest.mark.browser

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

PAIR_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)
#: Elements whose text is not interface text (see the module docstring).
NOT_UI = (
    "code, .katex, .katex-display, [data-testid=stCode], [data-testid=stIconMaterial],"
    " [data-testid=stSkipToContent]"
    " {display: none !important}"
)
VISIBLE_TEXT = """(css) => {
  const s = document.createElement('style'); s.textContent = css; document.head.appendChild(s);
  const text = document.body.innerText; s.remove(); return text; }"""


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1400, "height": 2400})
    yield pg
    pg.close()


def seen_words(pg: Any, where: str, data: set[str]) -> dict[str, str]:
    """Latin words seen on the page now, then in each tab with every expander open."""
    found: dict[str, str] = {}

    def read(label: str) -> None:
        for summary in pg.locator('[data-testid="stExpander"] details:not([open]) > summary').all():
            summary.click()
        pg.wait_for_timeout(300)
        text = str(pg.evaluate(VISIBLE_TEXT, NOT_UI))
        assert len(text) > 200, (label, text)
        for w, line in latin_words_in(text.split("\n"), data=data).items():
            found.setdefault(f"{label}: {w}", line[:120])

    read(where)
    views = pg.locator(".st-key-inspect_view button")  # Inspect: one view at a time
    for i in range(1, views.count()):
        views.nth(i).click()
        settle(pg)
        read(f"{where} view {views.nth(i).inner_text().strip()}")
    if views.count():
        views.nth(0).click()
        settle(pg)
    tabs = pg.locator('[role="tab"]')
    for i in range(tabs.count()):
        tabs.nth(i).click()
        pg.wait_for_timeout(400)
        read(f"{where} tab {tabs.nth(i).inner_text().strip()}")
    return found


def test_every_page_in_russian_shows_no_english_words(server: dict[str, Any], page: Any) -> None:
    url = server["url"]
    ru = "ui=ru&preset=ru&" + urlencode({"hyp": PAIR_RU[0], "ref": PAIR_RU[1]})
    found: dict[str, str] = {}
    for path in [
        f"/?{ru}",
        "/?ui=ru",  # English texts under the Russian interface: the data may be English
        f"/compare?{ru}&vs=seed-ru&vs=seed-ru-emb&vs=meteor-1.5-ru",
        f"/corpus?{ru}",
    ]:
        page.goto(url + path)
        settle(page)
        found |= seen_words(page, path.split("?")[0], set())
    # every drop zone (the two corpus files, the sidebar's preset file) draws the Russian
    # texts in place of Streamlit's (CSS, not innerText)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stFileUploaderDropzone"]')].map(z =>
             [getComputedStyle(z.querySelector('button [data-testid="stMarkdownContainer"]'),
                               '::after').content,
              getComputedStyle(z.querySelector(
                  '[data-testid="stFileUploaderDropzoneInstructions"] > div'), '::after').content])"""
    )
    corpus_zone = ['"Загрузить"', '"до 50 МБ на файл"']
    preset_zone = ['"Загрузить"', '"JSON, до 1 МБ"']  # the sidebar's preset file
    assert sorted(drawn) == sorted([corpus_zone, corpus_zone, preset_zone]), drawn

    systems = {name for name, _ in demo_corpus().systems}
    page.get_by_text("Демо-корпус", exact=False).first.click()
    page.wait_for_selector(".js-plotly-plot", timeout=90_000)
    settle(page)
    found |= seen_words(page, "/corpus demo", systems)

    steps = [f"stage:{m.value}" for m in PRESETS["ru"].params.modules]
    for step in ["tokens", *steps, "align", "chunks", "formula"]:
        page.goto(f"{url}/learn?{ru}&step={step}")
        settle(page)
        found |= seen_words(page, f"/learn {step}", set())
    assert not found, "\n".join(f"{k!r} in {v!r}" for k, v in sorted(found.items()))


def test_english_interface_is_the_control(server: dict[str, Any], page: Any) -> None:
    """The same reading finds English where there is English (the check can fail)."""
    page.goto(f"{server['url']}/corpus?ui=en")
    settle(page)
    found = {k.split(": ")[1] for k in seen_words(page, "corpus", set())}
    assert {"Corpus", "Hypotheses", "Upload"} <= found, sorted(found)


def test_russian_preset_with_no_pair_shows_the_russian_example(
    server: dict[str, Any], page: Any
) -> None:
    """A Russian preset opened with no pair showed the English example (and scored it as
    Russian); the boxes now show the Russian example, scored as the library does, and a
    reload (the address now holds the pair) keeps it."""
    from _browser import wait_metric
    from playwright.sync_api import expect

    from meteor import Meteor
    from pages._pair import EXAMPLES

    ex = next(e for e in EXAMPLES if e.lang == "ru")
    want = f"{Meteor('ru').score(ex.hyp, [ex.ref]).score:.4f}"
    page.goto(f"{server['url']}/?lang=ru&preset=ru")
    settle(page)
    for _ in range(2):
        wait_metric(page, "METEOR", want)
        # the boxes may fill a moment after the metric (a reload under load): wait for them
        expect(page.get_by_role("textbox", name="Hypothesis")).to_have_value(ex.hyp)
        expect(page.get_by_role("textbox", name="Reference(s), one per line")).to_have_value(ex.ref)
        page.reload()
        settle(page)


def test_switching_to_russian_texts_shows_the_russian_example(
    server: dict[str, Any], page: Any
) -> None:
    """The untouched English example becomes the Russian one when the language of the texts
    switches to Russian in the sidebar, and is scored as the library scores it.

    (Back/Forward step through one history entry per bound widget Streamlit updated, as
    after loading an example: ``?lang=ru``, then ``&hyp=``, then ``&ref=``.)"""
    from _browser import wait_metric

    from meteor import Meteor
    from pages._pair import EXAMPLES

    en = EXAMPLES[0]
    ru = next(e for e in EXAMPLES if e.lang == "ru")
    page.goto(f"{server['url']}/")
    wait_metric(page, "METEOR", f"{Meteor('meteor-1.5').score(en.hyp, [en.ref]).score:.4f}")
    settle(page)
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == en.hyp
    page.get_by_role("combobox", name="Language of the texts").click()
    page.get_by_role("option", name="ru", exact=True).click()
    wait_metric(page, "METEOR", f"{Meteor('meteor-1.5-ru').score(ru.hyp, [ru.ref]).score:.4f}")
    settle(page)
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == ru.hyp
    assert page.get_by_role("textbox", name="Reference(s), one per line").input_value() == ru.ref
