"""The report's figures as SVG and PDF downloads on the Corpus page (issue 35), under AppTest.

A small two-system upload; the report is built, then one button draws every figure
with the machine's Chromium and each figure gets an SVG and a PDF button whose bytes
are an SVG document / a PDF.  Without Chromium the page shows one notice in their
place and no traceback.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from _browser import CHROMIUM
from _media import Storages
from streamlit.testing.v1 import AppTest

import meteor
from meteor.io.read import load_corpus
from meteor.viz.report_figures import report_figures

PRESET = "meteor-1.5"
REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "<b>Sys_A</b> & #1": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "plain": ["cat mat", "dog park", "green tea"],
}


def _upload() -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    for name, hyps in HYPS.items():
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


def _app(app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch) -> AppTest:
    Storages.install(monkeypatch)
    at = app_test(preset=PRESET)
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("two.tsv", _upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, at.exception
    if any(b.key == "rp_build" for b in at.button):  # else built already (the shared cache)
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    return at


def _figure_buttons(at: AppTest) -> dict[str, bytes]:
    return {
        b.proto.id.rsplit("rp_img_", 1)[1]: Storages.content(b.proto.url)  # type: ignore[attr-defined]
        for b in at.get("download_button")
        if "rp_img_" in b.proto.id  # type: ignore[attr-defined]
    }


def _figure_ids() -> list[str]:
    rep = meteor.report(load_corpus([("two.tsv", _upload())], []), preset=PRESET)
    return [name for name, _fig in report_figures(rep)]


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is not installed")
def test_each_figure_has_svg_and_pdf_buttons_with_those_bytes(
    app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(app_test, monkeypatch)
    if any(b.key == "rp_img_make" for b in at.button):  # else drawn already (shared cache)
        at.button(key="rp_img_make").click().run()
    assert not at.exception, at.exception
    got = _figure_buttons(at)
    ids = _figure_ids()
    assert sorted(got) == sorted(f"{i}_{f}" for i in ids for f in ("svg", "pdf"))
    for name in ids:
        svg, pdf = got[f"{name}_svg"], got[f"{name}_pdf"]
        assert svg.lstrip().startswith(b"<svg"), name
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF"), name
    texts = set(ET.fromstring(got["ranking_svg"]).itertext())
    assert set(HYPS) <= texts  # each system's name as text, markup and all
    assert not any("need Chromium" in x.value for x in at.info)


def test_without_chromium_a_notice_stands_in_for_the_buttons(
    app_test: Callable[..., AppTest], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("BROWSER_PATH", str(tmp_path / "no-chromium"))
    at = _app(app_test, monkeypatch)
    assert not at.exception
    assert not any(b.key == "rp_img_make" for b in at.button)
    assert not _figure_buttons(at)
    notices = [x.value for x in at.info if "SVG and PDF figures need Chromium" in x.value]
    assert len(notices) == 1 and "apt-get install chromium" in notices[0]
    assert any(b.proto.id.endswith("rp_dl_json") for b in at.get("download_button"))  # type: ignore[attr-defined]
