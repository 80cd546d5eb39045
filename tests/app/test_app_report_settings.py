"""The Corpus page's report settings (issue 42): a select for the test that decides
significance and one for the multiple-comparison correction, both named in the pairwise
table and its caption, in English and Russian (under AppTest)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _report_corpus import BAD, REFS
from streamlit.testing.v1 import AppTest

MID = ["the cat sat on mat", "a dog ran in a park", "we like tea", "the weather is nice today",
       "he reads a book about the city", "birds sing", "she bought bread at the shop",
       "it rained at night"]  # fmt: skip


def _upload() -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    for name, hyps in (("good", REFS), ("mid", MID), ("bad", BAD)):
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


def _built(at: AppTest) -> AppTest:
    if any(b.key == "rp_build" for b in at.button):
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    return at


def _pairs(at: AppTest):  # type: ignore[no-untyped-def]
    tables = [d.value for d in at.dataframe if {"p_bs", "p_ar", "p_adj"} <= set(d.value.columns)]
    assert len(tables) == 1
    return tables[0]


def _page(app_test: Callable[..., AppTest], **kw: str) -> AppTest:
    at = app_test(preset="meteor-1.5", **kw)
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("three.tsv", _upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, at.exception
    return at


def test_the_report_settings_choose_the_test_and_the_correction(
    app_test: Callable[..., AppTest],
) -> None:
    at = _page(app_test)
    test, correction = at.selectbox(key="rp_test"), at.selectbox(key="rp_correction")
    assert test.label == "Test that decides significance" and test.value == "ar"
    assert correction.label == "Multiple-comparison correction" and correction.value == "holm"
    assert list(correction.options) == ["Holm", "Bonferroni", "none"]
    pairs = _pairs(_built(at))
    assert len(pairs) == 3
    captions = " ".join(c.value for c in at.caption)
    assert "approximate randomisation" in captions and "Holm" in captions
    # another choice: another report (the button is back), decided by the bootstrap
    at.selectbox(key="rp_test").set_value("bootstrap").run()
    at.selectbox(key="rp_correction").set_value("bonferroni").run()
    assert not at.exception, at.exception
    pairs = _pairs(_built(at))
    captions = " ".join(c.value for c in at.caption)
    assert "paired bootstrap" in captions and "Bonferroni" in captions
    for p_bs, p_adj in zip(pairs["p_bs"], pairs["p_adj"], strict=True):
        assert float(p_adj) == pytest.approx(min(1.0, 3 * float(p_bs)), abs=6e-5)


def test_the_report_settings_in_russian(app_test: Callable[..., AppTest]) -> None:
    """The labels only: under AppTest a Russian page's next run fails on the sort select
    (its value against its translated options; the same before this change)."""
    at = _page(app_test, ui="RU")
    test, correction = at.selectbox(key="rp_test"), at.selectbox(key="rp_correction")
    assert test.label == "Тест, решающий о значимости"
    assert list(test.options) == ["приближённая рандомизация", "парный бутстреп"]
    assert correction.label == "Поправка на множественные сравнения"
    assert list(correction.options) == ["Холм", "Бонферрони", "нет"]
