"""Exported figures do not take the caller's plotly theme (the app's: Streamlit's).

Streamlit sets ``plotly.io.templates.default = "streamlit"`` when it is imported: a
template whose colours are placeholders (``#000001``…) only its web page swaps for the
theme's, and without the axes' automatic margins.  A figure built in the app carries
it; every file export (:func:`meteor.viz.figure_files.figure_images`, the HTML report, a
figure's HTML download) draws :func:`meteor.viz.style.standalone`'s copy in plotly's
own template instead, the one the CLI draws with.  (The drawn SVGs:
tests/browser/test_report_export_theme_svg.py.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import plotly.io as pio
import pytest

import meteor
from meteor.viz.report_figures import report_figures
from meteor.viz.report_html import to_html
from meteor.viz.style import TEMPLATE, standalone

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
HYPS = {
    "Online-G": ["the cat sat on a mat", "a dog runs in the park", "we like tea"],
    "AI": ["cat mat", "dog park", "green tea"],
}
#: Streamlit's placeholder colours #000001…#000040 (not black, #000000)
PLACEHOLDER = re.compile(r'"#0000(?!00)([0-3][0-9a-f]|40)"', re.IGNORECASE)


@pytest.fixture
def streamlit_theme() -> Iterator[None]:
    """Plotly's default template as the app has it (restored afterwards)."""
    from streamlit.elements.lib.streamlit_plotly_theme import configure_streamlit_plotly_theme

    before = pio.templates.default
    configure_streamlit_plotly_theme()
    assert pio.templates.default == "streamlit"
    try:
        yield
    finally:
        pio.templates.default = before


@pytest.fixture(scope="module")
def rep() -> meteor.CorpusReport:
    return meteor.report(HYPS, REFS, "meteor-1.5", n_samples=20)


def test_a_figure_built_in_the_app_exports_in_plotlys_own_template(
    streamlit_theme: None, rep: meteor.CorpusReport
) -> None:
    for name, fig in report_figures(rep):
        assert PLACEHOLDER.search(fig.to_json()), name  # what the app's theme gives
        spec = standalone(fig)
        assert not PLACEHOLDER.search(json.dumps(spec)), name
        assert spec["layout"]["template"] == TEMPLATE.to_plotly_json()
        assert spec["layout"]["template"]["layout"]["yaxis"]["automargin"] is True
        assert spec["data"] == fig.to_plotly_json()["data"]  # the traces unchanged
        assert PLACEHOLDER.search(fig.to_json()), name  # the caller's figure as it was


def test_the_html_report_built_in_the_app_has_no_placeholder_colour(
    streamlit_theme: None, rep: meteor.CorpusReport
) -> None:
    page = to_html(rep)
    assert not PLACEHOLDER.search(page)
    assert '"colorway":["#636efa"' in page.replace(" ", "")  # plotly's own
    assert page.count('"automargin":true') >= len(report_figures(rep))


def test_the_html_report_is_the_same_inside_and_outside_the_app(
    rep: meteor.CorpusReport, streamlit_theme: None
) -> None:
    inside = to_html(rep)
    pio.templates.default = "plotly"
    outside = to_html(rep)
    strip = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
    assert strip.sub("", inside) == strip.sub("", outside)
