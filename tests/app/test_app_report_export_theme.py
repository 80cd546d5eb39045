"""The Corpus page's figure downloads (SVG) and HTML report look like the CLI's.

Under AppTest the page runs in this process with Streamlit's plotly theme as the
default template, as on the server.  The SVG buttons' bytes: one palette colour a
system in the bucket and fragmentation figures (legend included), no placeholder
colour, every name and tick label whole, axis titles clear of the ticks
(:mod:`tests._svg`).  The HTML report the page's download writes, built under the
same theme, holds no placeholder colour.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import plotly.io as pio
import pytest
from _browser import CHROMIUM
from _media import Storages
from _svg import cut_labels, labels, legend_fills, placeholder_fills, titles_over_ticks
from streamlit.testing.v1 import AppTest

import meteor
from meteor.io.read import load_corpus
from meteor.viz.style import SYSTEM_COLORS

PRESET = "meteor-1.5"
REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "Online-G": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "AI": ["cat mat", "dog park", "green tea"],
    "Online-Y": ["the cat sat", "a dog ran in a park", "we like green tea"],
}


def _upload() -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    for name, hyps in HYPS.items():
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


@pytest.fixture
def keep_template() -> object:
    before = pio.templates.default
    yield None
    pio.templates.default = before


def _app(app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    Storages.install(monkeypatch)
    at = app_test(preset=PRESET)
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("three.tsv", _upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, at.exception
    if any(b.key == "rp_build" for b in at.button):  # else built already (the shared cache)
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    return at


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is not installed")
def test_svg_downloads_keep_colours_and_whole_labels(
    app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, keep_template: None
) -> None:
    at = _app(app_test, monkeypatch)
    assert pio.templates.default == "streamlit"  # the app's theme is the default here
    if any(b.key == "rp_img_make" for b in at.button):  # else drawn already (shared cache)
        at.button(key="rp_img_make").click().run()
    assert not at.exception, at.exception
    svgs = {
        b.proto.id.rsplit("rp_img_", 1)[1].removesuffix("_svg"): Storages.content(b.proto.url)  # type: ignore[attr-defined]
        for b in at.get("download_button")
        if "rp_img_" in b.proto.id and b.proto.id.endswith("_svg")  # type: ignore[attr-defined]
    }
    rep = meteor.report(load_corpus([("three.tsv", _upload())], []), preset=PRESET)
    assert {"ranking", "bucket-0", "frag"} <= set(svgs)
    for name, svg in svgs.items():
        assert not placeholder_fills(svg), name
        assert cut_labels(svg) == [], name
        assert titles_over_ticks(svg) == [], name
        assert set(HYPS) <= {lab.text for lab in labels(svg)[0]}, name
        if name.startswith("bucket-") or name == "frag":
            assert legend_fills(svg) == list(SYSTEM_COLORS[: len(rep.systems)]), name


def test_the_pages_html_report_has_no_placeholder_colour(
    app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, keep_template: None
) -> None:
    from pages._report_view import EXPORTS

    _app(app_test, monkeypatch)
    assert pio.templates.default == "streamlit"
    writer = {fmt: w for fmt, _l, _n, _m, w in EXPORTS}["html"]
    rep = meteor.report(load_corpus([("three.tsv", _upload())], []), preset=PRESET)
    page = writer(rep)
    assert not re.search(r'"#0000(?!00)([0-3][0-9a-f]|40)"', page, re.IGNORECASE)
    assert '"automargin":true' in page
