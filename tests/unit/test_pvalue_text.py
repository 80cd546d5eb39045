"""A resampling p-value is never written as 0 (:mod:`meteor.analysis.pvalue_text`).

The paired bootstrap's two-sided p is ``2(k+1)/(B+1)``: never 0 as computed, so the JSON
and every human-readable output show the same positive number (``2/(B+1)`` when no
resample crossed 0); a 0 from elsewhere is written ``< resolution``, and a tiny positive
p keeps two significant digits.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from _report_corpus import BAD, REFS

import meteor
from meteor.analysis.pvalue_text import bootstrap_resolution, p_value_text, plus_one_resolution
from meteor.analysis.report_text import to_json, to_markdown
from meteor.viz.report_figures import pvalue_figure
from meteor.viz.report_html import to_html

SAMPLES = 200


@pytest.mark.parametrize(
    ("p", "resolution", "kw", "want"),
    [
        (0.0, bootstrap_resolution(1000), {}, "< 0.002"),
        (0.0, bootstrap_resolution(1000), {"relation": True}, "< 0.002"),
        (0.0712, 0.002, {}, "0.0712"),
        (0.0712, 0.002, {"relation": True}, "= 0.0712"),
        (4e-5, 2e-5, {}, "4e-05"),
        (1 / 100_001, plus_one_resolution(100_000), {}, "1e-05"),
        (0.00012, 2e-5, {}, "0.0001"),
        (0.0, 0.002, {"decimal": ","}, "< 0,002"),
        (0.5, 0.002, {"decimal": ",", "relation": True}, "= 0,5000"),
        (math.nan, 0.002, {}, "n/a"),
        (None, 0.002, {"missing": "--"}, "--"),
    ],
)
def test_p_value_text(p: float | None, resolution: float, kw: dict, want: str) -> None:
    assert p_value_text(p, resolution, **kw) == want


def test_no_positive_p_is_written_as_zero() -> None:
    for k in range(1, 60):
        p = 10.0**-k
        text = p_value_text(p, p)
        assert float(text) > 0, (p, text)


@pytest.fixture(scope="module")
def rep() -> meteor.CorpusReport:
    rep = meteor.report({"good": REFS, "bad": BAD}, REFS, "meteor-1.5", n_samples=SAMPLES)
    return rep


def test_markdown_and_html_write_the_computed_p_never_zero(rep: meteor.CorpusReport) -> None:
    pair = rep.ranking.pairs[0]
    assert pair.p_bootstrap == 2 / (SAMPLES + 1)  # no resample crossed 0: 2(0+1)/(B+1)
    p_ar = f"{pair.p_randomisation:.4f}"
    md = to_markdown(rep)
    row = next(line for line in md.splitlines() if line.startswith("| good | bad |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[5] == "0.0100" and cells[6] == p_ar  # 2/201; (k+1)/(B+1)
    page = to_html(rep)
    table = page[page.index("<table id='pairs-table'>") :]
    table = table[: table.index("</table>")]
    assert "<td>0.0100</td>" in table and f"<td>{p_ar}</td>" in table
    assert not re.search(r">0\.0000<", table) and "&lt;" not in table


def test_no_p_value_in_the_json_is_zero(rep: meteor.CorpusReport) -> None:
    """Before: ``p_paired_bootstrap`` was 0.0 for two clearly different systems."""
    pair = json.loads(to_json(rep))["ranking"]["pairs"][0]
    assert pair["p_paired_bootstrap"] == 2 / (SAMPLES + 1)
    assert pair["p_approximate_randomisation"] == rep.ranking.pairs[0].p_randomisation
    assert pair["p_adjusted"] == rep.ranking.pairs[0].p_adjusted > 0
    assert all(v > 0 for k, v in pair.items() if k.startswith("p_"))


def test_the_p_value_figure_hover_says_the_computed_p(rep: meteor.CorpusReport) -> None:
    fig = pvalue_figure(rep)
    hovers = [t for row in fig.data[0].text for t in row]
    assert any("paired bootstrap: p = 0.0100" in t for t in hovers), hovers  # as computed, not 0
    assert "%{text}" in fig.data[0].hovertemplate
