"""Each figure of the corpus report as SVG and PDF, drawn by Debian's Chromium (issue 35).

:mod:`meteor.viz.figure_files` drives the system's Chromium through kaleido: each SVG parses
as XML and shows every system's name as text, each PDF is one complete page, the page
kaleido draws on loads nothing from the network, and ``meteor report --format svg,pdf``
writes a complete file per figure.  Every run has a time limit (no test can hang).
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from _browser import CHROMIUM

import meteor
from meteor.viz.figure_files import figure_bytes, figure_images
from meteor.viz.report_figures import report_figures

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "<b>bold</b>_sys & #1": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "plain": ["cat mat", "dog park", "green tea"],
}
#: figures that name the systems (axes or legend); the rest name stages or nothing
NAMING = ("ranking", "pvalues", "bucket-0", "stages", "frag")


def _texts(svg: bytes) -> set[str]:
    root = ET.fromstring(svg)  # raises on anything that is not well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return {" ".join(t.split()) for t in root.itertext() if t.strip()}


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def _check_pdf(pdf: bytes) -> None:
    assert pdf.startswith(b"%PDF-")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert _pages(pdf) == 1


@pytest.fixture(scope="module")
def drawn() -> tuple[Any, dict[tuple[str, str], bytes], list[str]]:
    import kaleido._page_generator as pages

    rep = meteor.report(HYPS, REFS, "meteor-1.5", n_samples=50)
    seen: list[str] = []
    real = pages.PageGenerator.generate_index

    def spy(self: Any) -> str:
        page = real(self)
        seen.append(page)
        return page

    pages.PageGenerator.generate_index = spy  # type: ignore[method-assign]
    try:
        images = figure_images(report_figures(rep))
    finally:
        pages.PageGenerator.generate_index = real  # type: ignore[method-assign]
    return rep, images, seen


def test_every_svg_parses_and_names_every_system(drawn: Any) -> None:
    rep, images, _seen = drawn
    ids = [name for name, _fig in report_figures(rep)]
    assert sorted(images) == sorted((i, f) for i in ids for f in ("svg", "pdf"))
    for name in ids:
        texts = _texts(images[(name, "svg")])
        if name in NAMING:
            for system in HYPS:
                assert system in texts, (name, system)  # as text, markup and all


def test_every_pdf_is_one_complete_page(drawn: Any) -> None:
    _rep, images, _seen = drawn
    pdfs = [data for (_name, fmt), data in images.items() if fmt == "pdf"]
    assert len(pdfs) >= 6
    for pdf in pdfs:
        _check_pdf(pdf)


def test_the_drawing_page_loads_nothing_from_the_network(drawn: Any) -> None:
    _rep, _images, seen = drawn
    assert seen, "kaleido built no page"
    for page in seen:
        sources = re.findall(r'src="([^"]+)"', page)
        assert sources and all(s.startswith("file://") for s in sources), sources
        assert "mathjax" not in page.lower()  # kaleido's default loads it from a CDN


def test_figure_bytes_one_figure() -> None:
    rep = meteor.report(HYPS, REFS, "meteor-1.5", n_samples=50)
    fig = report_figures(rep)[0][1]
    assert "plain" in _texts(figure_bytes(fig, "svg"))
    with pytest.raises(ValueError, match="unknown image format 'png'"):
        figure_bytes(fig, "png")


def test_cli_format_svg_pdf_writes_every_figure_complete(tmp_path: Path) -> None:
    src = tmp_path / "all.tsv"
    rows = ["system\tseg_id\thyp\tref"]
    for name, hyps in HYPS.items():
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    src.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "rep"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "meteor",
            "report",
            "--hyp",
            str(src),
            "--out",
            str(out),
            "--format",
            "svg,pdf,json",
            "--bootstrap",
            "50",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    rep = meteor.report(HYPS, REFS, "meteor-1.5", n_samples=50)
    ids = [name for name, _fig in report_figures(rep)]
    expected = {f"{i}.{f}" for i in ids for f in ("svg", "pdf")} | {"report.json"}
    assert {p.name for p in out.iterdir()} == expected  # no .part left behind
    for name in ids:
        texts = _texts((out / f"{name}.svg").read_bytes())
        if name in NAMING:
            assert set(HYPS) <= texts, name
        _check_pdf((out / f"{name}.pdf").read_bytes())
        assert f"wrote {out / (name + '.pdf')}" in run.stderr
