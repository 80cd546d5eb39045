"""Issue #7 in Chromium: pasted markup is shown as text and never runs.

A student pastes ``<script>window.__pwned=1</script>`` and
``<img src=x onerror="window.__pwned=1">`` (and Markdown links, images and maths) into
every page -- the text boxes, a deep link, uploaded file names and contents.  Afterwards
``window.__pwned`` is still undefined, no ``<img src=x>``, ``javascript:`` link or
injected script exists in the page, no request leaves 127.0.0.1, and the markup is
visible as text.  Starts its own ``streamlit run app.py`` on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlparse

import pytest
from _browser import CHROMIUM, streamlit_server, type_into

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=1">'
MARKDOWN = "[click](javascript:window.__pwned=1) ![t](http://example.com/t.png) $\\href{x}{y}$"

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    with streamlit_server(env) as srv:
        yield srv["url"]


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 2000})
    pg = ctx.new_page()
    pg.dialogs = []
    pg.hosts = set()
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    pg.on("request", lambda r: pg.hosts.add(urlparse(r.url).hostname))
    yield pg
    ctx.close()


def settle(pg: Any, timeout: float = 60_000) -> None:
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    pg.wait_for_selector('[data-testid="stMetric"], [data-testid="stAlert"]', timeout=timeout)
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )
    pg.wait_for_timeout(700)


def assert_nothing_ran(pg: Any) -> None:
    assert pg.evaluate("() => typeof window.__pwned") == "undefined"
    assert not pg.dialogs
    bad = pg.evaluate(
        """() => ({
            img: document.querySelectorAll('img[src="x"], img[onerror]').length,
            js: document.querySelectorAll('a[href^="javascript:"]').length,
            script: [...document.scripts].filter(s => s.textContent.includes('__pwned')).length,
            attrs: [...document.querySelectorAll('*')].filter(
                e => [...e.attributes].some(a => a.name.startsWith('on') && a.value.includes('__pwned'))
            ).length,
        })"""
    )
    assert bad == {"img": 0, "js": 0, "script": 0, "attrs": 0}, bad
    assert pg.hosts <= {"127.0.0.1"}, pg.hosts  # no Markdown image fetched from outside
    assert not pg.locator('[data-testid="stException"]').count()


def paste(pg: Any, hyp: str, ref: str) -> None:
    for label, text in (("Hypothesis", hyp), ("Reference(s), one per line", ref)):
        type_into(pg, label, text)
    settle(pg)


#: Every text of the page's figures (the link view's token labels among them).
FIGURE_TEXTS = """() => [...document.querySelectorAll('.js-plotly-plot')]
    .flatMap(gd => (gd.data || []).flatMap(t => Array.isArray(t.text) ? t.text.map(String) : []))"""


def token_labels(pg: Any, words: Sequence[str]) -> list[str]:
    """The figures' texts once they show ``words``: the figures arrive last, and until the
    run of a new pair ends a page may still show the last pair's figure (a busy machine)."""
    with contextlib.suppress(Exception):  # on a timeout the assertion below says what showed
        pg.wait_for_function(
            f"(words) => {{ const texts = ({FIGURE_TEXTS})(); "
            "return words.every(w => texts.some(x => x.includes(w))); }",
            arg=list(words),
            timeout=90_000,
        )
    return list(pg.evaluate(FIGURE_TEXTS))


def test_pasted_markup_is_text_on_every_pair_page(server: str, page: Any) -> None:
    page.goto(server + "/")
    settle(page)
    paste(page, f"{SCRIPT} {IMG} fox", f"{IMG} {MARKDOWN} fox")
    for nav in (None, "Compare settings", "How METEOR works"):  # the pair follows the user
        if nav is not None:
            page.get_by_role("link", name=nav).click()
            settle(page)
        assert_nothing_ran(page)
        box = page.get_by_role("textbox", name="Hypothesis")
        assert box.input_value() == f"{SCRIPT} {IMG} fox", nav
        words = ("script", "onerror", "window", "fox")  # shown, one token at a time
        labels = token_labels(page, words)
        for word in words:
            assert any(word in x for x in labels), (nav, word, labels[:40])


def test_markup_in_a_shared_link(server: str, page: Any) -> None:
    query = urlencode({"hyp": f"{SCRIPT} {IMG}", "ref": f"{MARKDOWN} <b>bold</b>"})
    page.goto(f"{server}/?{query}")
    settle(page)
    assert_nothing_ran(page)
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == f"{SCRIPT} {IMG}"
    assert not page.locator("b", has_text="bold").count()


def test_markup_in_uploaded_names_and_contents(server: str, page: Any, tmp_path: Path) -> None:
    page.goto(server + "/corpus")
    page.wait_for_selector('[data-testid="stFileUploaderDropzoneInput"]', state="attached")
    hyp = tmp_path / "<img src=x onerror=window.__pwned=1>.txt"
    hyp.write_text(f"{SCRIPT}\n{IMG}\n", encoding="utf-8")
    ref = tmp_path / "[evil](javascript:window.__pwned=1).txt"
    ref.write_text(f"{MARKDOWN}\nfox\n", encoding="utf-8")
    # the corpus's two drop zones (the sidebar has a preset file's too)
    drop = '[data-testid="stFileUploaderDropzoneInput"]'
    page.locator(f".st-key-corpus_hyp_files {drop}").set_input_files(str(hyp))
    page.locator(f".st-key-corpus_ref_files {drop}").set_input_files(str(ref))
    page.wait_for_selector('[data-testid="stMetric"]', timeout=60_000)
    settle(page)
    assert_nothing_ran(page)
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    assert any("<img src=x onerror=window.__pwned=1>" in x for x in labels), labels
