"""End to end in a real browser: Debian's Chromium driven by Playwright.

The module starts ``streamlit run app.py`` itself on 127.0.0.1 (a free port), waits
for ``/_stcore/health`` and checks that every page loads without console errors or
requests beyond the local server, that a typed pair draws the link view with one
legend entry per stage used, that the text shown in the boxes is always the text
scored (after each edit, on a slow connection, across page switches), that a deep
link reopens the same pair and preset (also as the first request of a fresh server,
which must still show app.py's frame), that there is no Deploy button, that user text
stays text, and that the JSON download is the library's record. Screenshots go to
``tests/artifacts/`` (the README's are copied from there to ``docs/screenshots/``).

Run with ``python -m pytest -m browser``; skipped when Chromium or Playwright is missing.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlparse

import pytest
from _browser import CHROMIUM, ROOT, streamlit_server, type_into, wait_link_view, wait_metric

from meteor import Meteor

pytestmark = pytest.mark.browser

ARTIFACTS = ROOT / "tests" / "artifacts"
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")
STARRY = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)
#: The pages app.py registers, in order (no stray entries such as "corpus common").
NAV = ["Inspect a pair", "Corpus", "Compare settings", "Agreement with people", "How METEOR works"]
HYP_BOX = "Hypothesis"
REF_BOX = "Reference(s), one per line"
FOX_RU = (
    "Быстрая коричневая лиса прыгнула на грустную собаку",
    "Стремительная рыжая лисичка скакнула на унылую собачку",
)
#: Streamlit's front end probes these under a page's path before the root; the 404s are its own.
STREAMLIT_PROBE = re.compile(r"/[a-z_]+/_stcore/(health|host-config)$")

pytest.importorskip("playwright.sync_api")
if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)


def fmt(x: float, digits: int = 4, ru: bool = False) -> str:
    s = f"{x:.{digits}f}"
    return s.replace(".", ",") if ru else s


@pytest.fixture
def fresh_server() -> Iterator[dict[str, Any]]:
    """A server of its own whose first request is the test's, configured by the project's
    ``.streamlit/config.toml`` alone (no ``STREAMLIT_*`` variables)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    with streamlit_server(env) as srv:
        yield srv


def _watch(pg: Any) -> Any:
    """Record console errors, failed responses, dialogs and every request of a page."""
    pg.console_errors = []
    pg.bad_responses = []
    pg.dialogs = []
    pg.requests = []
    pg.on("console", lambda m: m.type == "error" and pg.console_errors.append(m.text))
    pg.on("response", lambda r: r.status >= 400 and pg.bad_responses.append(r.url))
    pg.on("requestfailed", lambda r: pg.console_errors.append(f"request failed: {r.url}"))
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.on("websocket", lambda ws: pg.requests.append(ws.url))
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    return pg


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    pg = _watch(browser.new_page(viewport={"width": 1400, "height": 2400}))
    yield pg
    pg.close()


def wait_ready(pg: Any, timeout: float = 60_000) -> None:
    pg.wait_for_selector('[data-testid="stApp"]', timeout=timeout)
    pg.wait_for_selector(
        '.js-plotly-plot, [data-testid="stAlert"], [data-testid="stMetric"]', timeout=timeout
    )
    pg.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )
    # every chart drawn: plotly's code loads on demand, and the figures are sent last
    pg.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
                 .every(c => c.querySelector('.main-svg'))""",
        timeout=timeout,
    )
    pg.wait_for_timeout(500)


def assert_no_errors(pg: Any) -> None:
    bad = [u for u in pg.bad_responses if not STREAMLIT_PROBE.search(u)]
    assert not bad, bad
    errors = [
        e
        for e in pg.console_errors
        if not (e.startswith("Failed to load resource") and "404" in e and not bad)
    ]
    assert not errors, errors
    assert not pg.locator('[data-testid="stException"]').count()
    outside = [
        u
        for u in pg.requests
        if not u.startswith(("data:", "blob:")) and urlparse(u).hostname != "127.0.0.1"
    ]
    assert not outside, outside  # no telemetry, fonts, CDNs or update checks
    assert not pg.locator('[data-testid="stAppDeployButton"]').count()
    assert not pg.get_by_role("button", name="Deploy").count()


def shot(pg: Any, name: str) -> None:
    """A full-page PNG, 1400 px wide, as tall as the content (no empty band below it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    size = pg.viewport_size
    height = pg.evaluate(
        """() => { const main = document.querySelector('[data-testid="stMain"]');
                   const box = document.querySelector('[data-testid="stMainBlockContainer"]');
                   if (!main || !box) return 0;
                   const r = box.getBoundingClientRect();
                   return Math.ceil(r.bottom + main.scrollTop); }"""
    )
    if height:
        pg.set_viewport_size({"width": size["width"], "height": max(int(height) + 24, 800)})
        pg.wait_for_timeout(500)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if height:
        pg.set_viewport_size(size)


def legend_stages(pg: Any) -> list[str]:
    """Legend entries of the first plotly figure that belong to a matching stage."""
    return list(
        pg.evaluate(
            """() => {
            const gd = document.querySelectorAll('.js-plotly-plot')[0];
            const stages = ['exact', 'stem', 'synonym', 'paraphrase', 'lemma'];
            return [...gd.querySelectorAll('.legend .traces')]
              .map(t => t.__data__ && t.__data__[0] && t.__data__[0].trace)
              .filter(tr => tr && stages.includes(tr.legendgroup))
              .map(tr => tr.legendgroup);
        }"""
        )
    )


def shown_pair(pg: Any, ru: bool = False) -> tuple[str, str]:
    """What the Hypothesis and Reference boxes display right now."""
    hyp, ref = ("Гипотеза", "Эталон(ы), по одному в строке") if ru else (HYP_BOX, REF_BOX)
    return (
        str(pg.get_by_role("textbox", name=hyp).input_value()),
        str(pg.get_by_role("textbox", name=ref).input_value()),
    )


def plot_tokens(pg: Any, side: str, n: int = 0) -> list[str]:
    """The token labels of the ``n``-th link view (``side`` is hyp or ref)."""
    wait_link_view(pg, n, side)
    return list(
        pg.evaluate(
            """([n, role]) => document.querySelectorAll('.js-plotly-plot')[n].data
                  .find(t => t.meta && t.meta.role === role).text""",
            [n, f"tokens_{side}"],
        )
    )


def assert_shows_what_is_scored(
    pg: Any, pair: tuple[str, str], *, label: str = "METEOR", preset: str = "meteor-1.5"
) -> None:
    """The boxes display ``pair`` and the page's score and link view are that pair's."""
    assert shown_pair(pg) == pair
    r = Meteor(preset).score(*pair)
    if label:
        wait_metric(pg, label, fmt(r.score))
    assert plot_tokens(pg, "hyp") == list(r.alignment.hyp_words)
    assert plot_tokens(pg, "ref") == list(r.alignment.ref_words)


def open_page(pg: Any, title: str) -> None:
    """Switch page with the sidebar navigation and wait for the new page to settle."""
    pg.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=title).click()
    pg.wait_for_function(
        """(title) => [...document.querySelectorAll('[data-testid="stSidebarNavLink"]')]
            .some(a => a.getAttribute('aria-current') === 'page' && a.innerText.trim() === title)""",
        arg=title,
    )
    wait_ready(pg)


def nav_entries(pg: Any) -> list[str]:
    return [
        str(x).strip() for x in pg.locator('[data-testid="stSidebarNavLink"]').all_inner_texts()
    ]


#: Delays every message from the server by a fixed time (order kept), as a slow link does.
SLOW_WEBSOCKET = """(() => {
  const Native = window.WebSocket;
  class SlowWebSocket extends Native {
    set onmessage(fn) {
      this.__onmessage = fn;
      super.onmessage = fn && ((ev) => setTimeout(() => fn.call(this, ev), DELAY));
    }
    get onmessage() { return this.__onmessage; }
    addEventListener(type, fn, opts) {
      if (type !== 'message' || !fn) return super.addEventListener(type, fn, opts);
      const call = (ev) => (typeof fn === 'function' ? fn.call(this, ev) : fn.handleEvent(ev));
      return super.addEventListener(type, (ev) => setTimeout(() => call(ev), DELAY), opts);
    }
  }
  window.WebSocket = SlowWebSocket;
})();"""


# -- tests ------------------------------------------------------------------------------------


def test_first_score_after_start(server: dict[str, Any], page: Any) -> None:
    """The home page on a fresh server: resources load (progress bar), then the score."""
    t0 = time.perf_counter()
    page.goto(server["url"] + "/")
    r = Meteor("meteor-1.5").score(
        "Under the starry night, we danced with glee.", "We danced with joy under the starry night."
    )
    wait_metric(page, "METEOR", fmt(r.score))
    first = time.perf_counter() - t0
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(
        json.dumps({"first_score_s": round(first, 2),
                    "since_server_start_s": round(time.perf_counter() - server["started"], 2)})
    )  # fmt: skip
    assert first < 20, f"first score took {first:.1f} s"
    wait_ready(page)
    assert_no_errors(page)
    shot(page, "inspect")


@pytest.mark.parametrize(
    ("path", "name"),
    [("/compare", "compare"), ("/learn?step=align", "learn"), ("/corpus", "corpus_upload")],
)  # fmt: skip
def test_each_page_loads_without_console_errors(
    server: dict[str, Any], page: Any, path: str, name: str
) -> None:
    if name.startswith("corpus") and not (ROOT / "pages" / "corpus.py").is_file():
        pytest.skip("no corpus page")
    page.goto(server["url"] + path)
    wait_ready(page)
    assert_no_errors(page)
    assert not page.get_by_text("Page not found").count()
    assert nav_entries(page) == NAV
    if name == "compare":
        assert_shows_what_is_scored(page, STARRY, label="METEOR · A · meteor-1.5")
    if name == "learn":
        assert_shows_what_is_scored(page, STARRY, label="")
    shot(page, name)


def test_typed_pair_draws_the_link_view(server: dict[str, Any], page: Any) -> None:
    page.goto(server["url"] + "/")
    wait_ready(page)
    assert_shows_what_is_scored(page, STARRY)
    # each edit: the boxes show exactly the pair that was scored
    type_into(page, HYP_BOX, FOX[0])
    wait_metric(page, "METEOR", fmt(Meteor("meteor-1.5").score(FOX[0], STARRY[1]).score))
    wait_ready(page)
    assert_shows_what_is_scored(page, (FOX[0], STARRY[1]))
    type_into(page, REF_BOX, FOX[1])
    r = Meteor("meteor-1.5").score(*FOX)
    wait_metric(page, "METEOR", fmt(r.score))
    wait_ready(page)
    assert_shows_what_is_scored(page, FOX)
    page.wait_for_timeout(1000)  # later reruns must not put an old text back
    assert shown_pair(page) == FOX
    stages = sorted({m.module.value for m in r.matches})
    assert sorted(legend_stages(page)) == stages  # one legend entry per stage used
    assert "hyp=A+fast+brown+fox" in page.url
    assert_no_errors(page)
    page.locator("textarea:focus").evaluate("el => el.blur()")  # no focus ring in the picture
    page.wait_for_timeout(300)
    shot(page, "inspect_fox")


def test_example_in_another_language_reruns_the_whole_page(
    server: dict[str, Any], page: Any
) -> None:
    """Issue 16: the pair's part of Inspect reruns alone (st.fragment); an example that
    switches the language and preset must still rerun the sidebar and score with them."""
    page.goto(server["url"] + "/")
    wait_ready(page)
    box = page.get_by_role("combobox", name="Load an example")
    box.click()
    page.get_by_role("option", name="Russian: few exact matches, stems and synonyms").click()
    r = Meteor("meteor-1.5-ru").score(*FOX_RU)
    wait_metric(page, "METEOR", fmt(r.score))
    wait_ready(page)
    assert shown_pair(page) == FOX_RU
    assert page.get_by_role("combobox", name="Preset").input_value() == "meteor-1.5-ru"
    assert "preset:meteor-1.5-ru|" in page.locator('[data-testid="stCode"]').first.inner_text()
    want = list(r.alignment.hyp_words)
    for _ in range(50):  # Plotly may redraw a moment after the metric (a loaded machine)
        if plot_tokens(page, "hyp") == want:
            break
        page.wait_for_timeout(200)
    assert plot_tokens(page, "hyp") == want
    assert_no_errors(page)


def test_quick_edits_on_a_slow_connection_show_what_is_scored(
    server: dict[str, Any], browser: Any
) -> None:
    """Regression: every rerun used to push the pair back to the browser, so a rerun
    started by the first edit overwrote the second box after the user had committed it:
    the scores were the fox pair's while the reference box showed the old default.
    The server's messages are delayed by 300 ms so that this ordering always happens."""
    context = browser.new_context(viewport={"width": 1400, "height": 2400})
    context.add_init_script(SLOW_WEBSOCKET.replace("DELAY", "300"))
    pg = _watch(context.new_page())
    try:
        pg.goto(server["url"] + "/")
        wait_ready(pg)
        type_into(pg, HYP_BOX, FOX[0])
        type_into(pg, REF_BOX, FOX[1])  # while the first edit's rerun is still on its way
        wait_metric(pg, "METEOR", fmt(Meteor("meteor-1.5").score(*FOX).score))
        wait_ready(pg)
        pg.wait_for_timeout(1500)  # every delayed message has arrived
        assert_shows_what_is_scored(pg, FOX)
        assert_no_errors(pg)
    finally:
        context.close()


def test_pair_follows_page_switches(server: dict[str, Any], page: Any) -> None:
    """Edits on any page travel with the navigation, and every page scores what it shows."""
    page.goto(server["url"] + "/")
    wait_ready(page)
    type_into(page, HYP_BOX, FOX[0])
    wait_metric(page, "METEOR", fmt(Meteor("meteor-1.5").score(FOX[0], STARRY[1]).score))
    wait_ready(page)
    open_page(page, "Compare settings")  # the reference was never typed: the default follows
    assert_shows_what_is_scored(page, (FOX[0], STARRY[1]), label="METEOR · A · meteor-1.5")
    type_into(page, REF_BOX, FOX[1])
    wait_metric(page, "METEOR · A · meteor-1.5", fmt(Meteor("meteor-1.5").score(*FOX).score))
    wait_ready(page)
    assert_shows_what_is_scored(page, FOX, label="METEOR · A · meteor-1.5")
    open_page(page, "How METEOR works")
    assert_shows_what_is_scored(page, FOX, label="")  # Learn: the link view of the pair
    bolder = ("A quick brown fox jumps over the dog", FOX[1])
    type_into(page, HYP_BOX, bolder[0])
    page.wait_for_function(
        """(w) => { const gd = document.querySelectorAll('.js-plotly-plot')[0];
                    const tr = gd && gd.data && gd.data.find(t => t.meta && t.meta.role === 'tokens_hyp');
                    return tr && JSON.stringify(tr.text) === JSON.stringify(w); }""",
        arg=list(Meteor("meteor-1.5").score(*bolder).alignment.hyp_words),
    )
    wait_ready(page)
    assert_shows_what_is_scored(page, bolder, label="")
    open_page(page, "Corpus")
    assert not page.get_by_role("textbox", name=HYP_BOX).count()
    open_page(page, "Inspect a pair")
    assert_shows_what_is_scored(page, bolder)
    assert "hyp=A+quick+brown+fox" in page.url
    open_page(page, "How METEOR works")  # a worked example loads its pair and preset
    page.get_by_role("button", name="Walk through").nth(1).click()
    page.wait_for_function(
        "(v) => [...document.querySelectorAll('textarea')].some(t => t.value === v)",
        arg="Danced we with under joy the night starry.",
    )
    wait_ready(page)
    scrambled = ("Danced we with under joy the night starry.", STARRY[1])
    assert_shows_what_is_scored(page, scrambled, label="", preset="seed-doc")
    assert page.get_by_role("combobox", name="Preset", exact=True).input_value() == "seed-doc"
    assert_no_errors(page)


def test_deep_link_reopens_pair_and_preset(server: dict[str, Any], page: Any) -> None:
    query = urlencode({"hyp": FOX[0], "ref": FOX[1], "preset": "nltk"})
    page.goto(f"{server['url']}/?{query}")
    wait_ready(page)
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == FOX[0]
    assert page.get_by_role("textbox", name="Reference(s), one per line").input_value() == FOX[1]
    assert page.get_by_role("combobox", name="Preset").input_value() == "nltk"
    r = Meteor("nltk").score(*FOX)
    wait_metric(page, "METEOR", fmt(r.score))
    assert "preset:nltk|" in page.locator('[data-testid="stCode"]').first.inner_text()
    # the pair and preset follow to another page
    page.get_by_role("link", name="Compare settings").click()
    wait_metric(page, "METEOR · A · nltk", fmt(r.score))
    assert page.get_by_role("textbox", name="Hypothesis").input_value() == FOX[0]
    assert_no_errors(page)


@pytest.mark.parametrize(
    "path",
    ["/compare?preset=nltk", "/learn?step=align&preset=nltk", "/corpus?preset=nltk"],
)
def test_deep_link_as_a_fresh_servers_first_request(
    fresh_server: dict[str, Any], browser: Any, path: str
) -> None:
    """Regression: until some session had run ``st.navigation``, Streamlit used its legacy
    discovery of ``pages/`` and ran the linked page file alone: every file of ``pages/`` in
    the menu ("common", "corpus common"), no sidebar settings, the URL's preset ignored."""
    context = browser.new_context(viewport={"width": 1400, "height": 2400})
    pg = _watch(context.new_page())
    try:
        pg.goto(fresh_server["url"] + path)
        wait_ready(pg)
        assert nav_entries(pg) == NAV
        sidebar = pg.locator('[data-testid="stSidebar"]')
        assert sidebar.get_by_role("combobox", name="Preset", exact=True).input_value() == "nltk"
        if path.startswith("/compare"):
            assert_shows_what_is_scored(pg, STARRY, label="METEOR · A · nltk", preset="nltk")
            assert "preset:nltk|" in pg.locator('[data-testid="stCode"]').first.inner_text()
        elif path.startswith("/learn"):
            thumb = pg.locator('[data-testid="stMain"] [data-testid="stSliderThumbValue"]')
            assert thumb.first.inner_text().strip().endswith("alignment")
            assert_shows_what_is_scored(pg, STARRY, label="", preset="nltk")
        else:
            assert pg.get_by_role("heading", name="Score a corpus").count()
        assert "preset=nltk" in pg.url
        assert not pg.get_by_text("Page not found").count()
        assert_no_errors(pg)  # includes: no Deploy button, no request beyond the server
    finally:
        context.close()


def test_corpus_demo_compares_two_systems(server: dict[str, Any], page: Any) -> None:
    if not (ROOT / "pages" / "corpus.py").is_file():
        pytest.skip("no corpus page")
    from meteor.io.read import demo_corpus

    page.goto(server["url"] + "/corpus")
    wait_ready(page)
    page.get_by_text("Demo corpus (20 segments, 2 systems)").click()
    corpus = demo_corpus()
    m = Meteor("meteor-1.5")
    for name, hyps in corpus.systems:
        want = m.corpus_score(list(hyps), list(corpus.refs))
        wait_metric(page, f"{name}: corpus METEOR (summed statistics)", fmt(want.score))
    wait_ready(page)
    page.get_by_role("tab", name="Compare two systems").click()
    page.wait_for_selector('[data-testid="stMetric"]:has-text("Corpus METEOR difference B − A")')
    wait_ready(page)
    assert_no_errors(page)
    shot(page, "corpus")


def test_user_text_stays_text_and_json_is_the_record(server: dict[str, Any], page: Any) -> None:
    hyp = "<b>bold</b> <img src=x onerror=alert(1)> fox"
    page.goto(f"{server['url']}/?{urlencode({'hyp': hyp, 'ref': '<b>bold</b> fox'})}")
    wait_ready(page)
    assert not page.dialogs
    assert not page.locator('img[src="x"]').count()
    wait_link_view(page)
    texts = page.evaluate(  # token labels: marker text, or rotated annotations when long
        """() => [...document.querySelectorAll('.js-plotly-plot')[0]
              .querySelectorAll('.scatterlayer text, .annotation-text')].map(t => t.textContent)"""
    )
    assert "<" in texts and "bold" in texts  # shown literally, one token each
    bold = page.evaluate(
        """() => [...document.querySelectorAll('.js-plotly-plot')[0]
              .querySelectorAll('.scatterlayer tspan')]
              .filter(t => (t.getAttribute('style') || '').includes('bold')
                           && t.textContent === 'bold').length"""
    )
    assert bold == 0  # "<b>" was not interpreted as markup
    # the JSON download is the library's record of this pair
    with page.expect_download() as dl:
        page.get_by_role("button", name="Alignment record (JSON)").click()
    record = json.loads(Path(dl.value.path()).read_text(encoding="utf-8"))
    r = Meteor("meteor-1.5").score(hyp, "<b>bold</b> fox")
    assert record == json.loads(json.dumps(r.to_dict(candidates=True)))
    assert record["hyp"] == hyp
    assert_no_errors(page)


def test_russian_interface(server: dict[str, Any], page: Any) -> None:
    query = urlencode({"ui": "RU", "lang": "ru", "hyp": FOX_RU[0], "ref": FOX_RU[1]})
    page.goto(f"{server['url']}/?{query}")
    wait_ready(page)
    r = Meteor("meteor-1.5-ru").score(*FOX_RU)
    wait_metric(page, "METEOR", fmt(r.score, ru=True))
    assert page.get_by_text("Почему перевод получил такую оценку?").count()
    assert shown_pair(page, ru=True) == FOX_RU
    assert plot_tokens(page, "hyp") == list(r.alignment.hyp_words)
    assert plot_tokens(page, "ref") == list(r.alignment.ref_words)
    assert_no_errors(page)
    shot(page, "inspect_ru")
