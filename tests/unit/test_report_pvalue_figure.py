"""The report's p-value figure shows the p that decides significance: the named test's
p adjusted for multiple comparisons (issue 42), with the test and the correction in its
title and both tests' raw and adjusted p in the hover; ``--test bootstrap`` switches it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meteor
from meteor.analysis.corpus_report import build_report
from meteor.analysis.multiple_comparisons import adjust_p_values
from meteor.analysis.report_text import to_json
from meteor.io.read import load_corpus
from meteor.viz.report_figures import pvalue_figure, report_figures
from meteor.viz.report_html import to_html

DEMO = Path(meteor.__file__).parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
SAMPLES, TRIALS = 200, 2000


@pytest.fixture(scope="module")
def demo() -> tuple[dict[str, meteor.CorpusResult], meteor.Meteor]:
    corpus = load_corpus([(DEMO.name, DEMO.read_bytes())])
    m = meteor.Meteor("meteor-1.5")
    names = [n for n, _h in corpus.systems][:5]
    hyps = dict(corpus.systems)
    return {n: m.corpus_score(list(hyps[n]), list(corpus.refs_of(n))) for n in names}, m


def _report(demo, test: str, correction: str):  # type: ignore[no-untyped-def]
    results, m = demo
    ids = {n: tuple(str(k) for k in range(len(r.segments))) for n, r in results.items()}
    return build_report(results, m.params, ids=ids, n_samples=SAMPLES, n_trials=TRIALS,
                        test=test, correction=correction)  # fmt: skip


def _cells(rep, fig) -> dict[tuple[str, str], tuple[float, str]]:  # type: ignore[no-untyped-def]
    (hm,) = fig.data
    names = list(rep.systems)
    return {
        (names[i], names[j]): (hm.z[i][j], hm.text[i][j])
        for i in range(len(names))
        for j in range(len(names))
        if i != j
    }


@pytest.mark.parametrize(
    ("test", "correction", "title"),
    [
        ("ar", "holm", "approximate randomisation, Holm correction"),
        ("bootstrap", "bonferroni", "paired bootstrap, Bonferroni correction"),
        ("ar", "none", "approximate randomisation, no correction"),
    ],
)
def test_the_figure_shows_the_deciding_adjusted_p(
    demo, test: str, correction: str, title: str
) -> None:
    """Before: every cell was the paired bootstrap's raw p, titled "(paired bootstrap)"."""
    rep = _report(demo, test, correction)
    fig = dict(report_figures(rep))["pvalues"]
    assert title in fig.layout.title.text
    cells = _cells(rep, fig)
    pairs = json.loads(to_json(rep))["ranking"]["pairs"]
    assert len(pairs) == 10
    raw_key = "p_approximate_randomisation" if test == "ar" else "p_paired_bootstrap"
    other_key = "p_paired_bootstrap" if test == "ar" else "p_approximate_randomisation"
    other_adjusted = adjust_p_values([p[other_key] for p in pairs], correction)
    for pair, other_adj in zip(pairs, other_adjusted, strict=True):
        for cell in ((pair["a"], pair["b"]), (pair["b"], pair["a"])):
            z, hover = cells[cell]
            assert z == pair["p_adjusted"]  # the p that decides, from the record
            assert pair["significant"] == (z < rep.ranking.alpha)
            lines = hover.split("<br>")
            assert len(lines) == 2 and lines[0].endswith("(decides)")
            assert lines[0].startswith("approximate randomisation" if test == "ar" else "paired")
            assert f"adjusted {pair['p_adjusted']:.4f}" in lines[0]
            assert f"p = {pair[raw_key]:.4f}" in lines[0]
            assert f"p = {pair[other_key]:.4f}" in lines[1]
            assert f"adjusted {other_adj:.4f}" in lines[1]
    if correction == "none":
        assert all(p["p_adjusted"] == p[raw_key] for p in pairs)
    assert f"Deciding p-values: {title}" in to_html(rep)  # the HTML report draws the same


def test_the_bootstrap_and_randomisation_figures_differ(demo) -> None:
    """``--test bootstrap`` switches the cells to the bootstrap's adjusted p."""
    ar, bs = _report(demo, "ar", "holm"), _report(demo, "bootstrap", "holm")
    z_ar = [c[0] for c in _cells(ar, pvalue_figure(ar)).values()]
    z_bs = [c[0] for c in _cells(bs, pvalue_figure(bs)).values()]
    assert z_ar != z_bs
    assert sorted({round(z, 12) for z in z_bs}) == sorted(
        {round(z, 12) for z in adjust_p_values([p.p_bootstrap for p in bs.ranking.pairs], "holm")}
    )


def test_the_title_is_in_the_given_language(demo) -> None:
    rep = _report(demo, "bootstrap", "none")
    labels = {"pvalues": "P ({test}; {correction})", "test_bootstrap": "бутстреп",
              "correction_none": "без поправки"}  # fmt: skip
    assert pvalue_figure(rep, labels).layout.title.text.startswith("P (бутстреп; без поправки)")
