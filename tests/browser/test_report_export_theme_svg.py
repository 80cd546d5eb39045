"""The report's SVG figures drawn inside the app look like the CLI's (Chromium).

With Streamlit's plotly theme as the default template (what importing Streamlit does),
:func:`meteor.viz.figure_files.figure_images` draws every figure with its colours (the
bucket and fragmentation figures: one palette colour a system, legend included, no
placeholder ``rgb(0, 0, 1…)``), every system name and tick label whole inside the
drawing, and the axis titles clear of the ticks (:mod:`tests._svg`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import plotly.io as pio
import pytest
from _browser import CHROMIUM
from _svg import cut_labels, labels, legend_fills, placeholder_fills, titles_over_ticks

import meteor
from meteor.viz.figure_files import figure_images
from meteor.viz.report_figures import report_figures
from meteor.viz.style import SYSTEM_COLORS

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip("Chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "Online-G": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "AI": ["cat mat", "dog park", "green tea"],
    "Online-Y": ["the cat sat", "a dog ran in a park", "we like green tea"],
}


@pytest.fixture(scope="module")
def drawn() -> Iterator[tuple[meteor.CorpusReport, dict[str, bytes]]]:
    from streamlit.elements.lib.streamlit_plotly_theme import configure_streamlit_plotly_theme

    before = pio.templates.default
    configure_streamlit_plotly_theme()
    try:
        rep = meteor.report(HYPS, REFS, "meteor-1.5", n_samples=20)
        figs = report_figures(rep)  # built under the app's theme, as the page builds them
        assert figs[0][1].layout.template.layout.colorway[0] == "#000001"
        images = figure_images(figs, ["svg"])
    finally:
        pio.templates.default = before
    yield rep, {name: data for (name, _fmt), data in images.items()}


def test_no_placeholder_colour_and_one_palette_colour_a_system(drawn) -> None:
    rep, svgs = drawn
    order = list(rep.systems)
    for name, svg in svgs.items():
        assert not placeholder_fills(svg), name
        if name.startswith("bucket-") or name == "frag":
            assert legend_fills(svg) == [SYSTEM_COLORS[k] for k in range(len(order))], name


def test_every_label_whole_and_titles_clear_of_the_ticks(drawn) -> None:
    rep, svgs = drawn
    for name, svg in svgs.items():
        assert cut_labels(svg) == [], name
        assert titles_over_ticks(svg) == [], name
        texts = {lab.text for lab in labels(svg)[0]}
        assert set(rep.systems) <= texts, (name, texts)  # each name whole, as one text
