"""The Ranking tab's p-value figure shows the p that decides significance: the chosen
test's p after the chosen correction, both named in the title (issue 42), under AppTest.
The expected numbers are the library's on the same upload.  (English only: the Russian
title is ``pages/_strings_report.py``'s ``rf_*`` strings, and AppTest cannot click the
build button of a three-system Russian page, whose sort select keeps an English value.)"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from _report_corpus import BAD as SHARED_BAD
from _report_corpus import REFS as SHARED_REFS
from streamlit.testing.v1 import AppTest

import meteor
from meteor.io.read import load_corpus

REFS = SHARED_REFS[:6]
MID = ["the cat sat on mat", "a dog ran in a park", "we like tea", "the weather is nice today",
       "he reads a book about the city", "birds sing"]  # fmt: skip
BAD = SHARED_BAD[:6]


def _upload(systems: tuple[str, ...]) -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    hyps_of = {"good": REFS, "mid": MID, "bad": BAD}
    for name, hyps in ((s, hyps_of[s]) for s in systems):
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


@pytest.mark.parametrize(
    ("test", "correction", "title"),
    [("bootstrap", "bonferroni", "Deciding p-values: paired bootstrap, Bonferroni correction"),
     ("ar", "holm", "Deciding p-values: approximate randomisation, Holm correction")],
    ids=["bootstrap-bonferroni", "ar-holm"],
)  # fmt: skip
def test_the_ranking_tab_figure_shows_the_deciding_adjusted_p(
    app_test: Callable[..., AppTest], test: str, correction: str, title: str
) -> None:
    systems = ("good", "mid", "bad")
    at = app_test(preset="meteor-1.5")
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("three.tsv", _upload(systems), "text/tab-separated-values")]
    ).run()
    if test != "ar":
        at.selectbox(key="rp_test").set_value(test).run()
        at.selectbox(key="rp_correction").set_value(correction).run()
    if any(b.key == "rp_build" for b in at.button):
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    charts = [c for c in at.get("plotly_chart") if "rp_fig_pvalues" in c.proto.id]  # type: ignore[attr-defined]
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)  # type: ignore[attr-defined]
    assert spec["layout"]["title"]["text"] == title
    (heatmap,) = spec["data"]
    rep = meteor.report(load_corpus([("three.tsv", _upload(systems))], []), preset="meteor-1.5",
                        test=test, correction=correction)  # fmt: skip
    names = list(rep.systems)
    assert heatmap["y"] == names
    for p in rep.ranking.pairs:
        i, j = names.index(p.a), names.index(p.b)
        assert heatmap["z"][i][j] == heatmap["z"][j][i] == p.p_adjusted
    raw = [p.p_bootstrap if test == "bootstrap" else p.p_randomisation for p in rep.ranking.pairs]
    if correction == "bonferroni":
        assert [p.p_adjusted for p in rep.ranking.pairs] == [min(1.0, len(raw) * x) for x in raw]
