"""The Corpus page's pairwise table never shows a p-value of 0 (under AppTest).

Two clearly different systems: no bootstrap resample crosses 0, so the computed p is
its smallest, ``2/(B+1)``; the table shows it as computed, ``0.0020`` for the page's 1,000
resamples (``0,0020`` in Russian), and approximate randomisation's ``(k+1)/(B+1)`` as it
is (:mod:`meteor.analysis.pvalue_text`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _report_corpus import BAD, REFS
from streamlit.testing.v1 import AppTest

PRESET = "meteor-1.5"


def _upload() -> bytes:
    rows = ["system\tseg_id\thyp\tref"]
    for name, hyps in (("good", REFS), ("bad", BAD)):
        rows += [
            f"{name}\t{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), 1)
        ]
    return ("\n".join(rows) + "\n").encode("utf-8")


@pytest.mark.parametrize(("ui", "below"), [("en", "0.0020"), ("ru", "0,0020")])
def test_pairs_table_writes_the_computed_p_never_zero(
    app_test: Callable[..., AppTest], ui: str, below: str
) -> None:
    at = app_test(preset=PRESET, **({"ui": "RU"} if ui == "ru" else {}))
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("two.tsv", _upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, at.exception
    if any(b.key == "rp_build" for b in at.button):
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    pairs = [d.value for d in at.dataframe if {"p_bs", "p_ar"} <= set(d.value.columns)]
    assert len(pairs) == 1
    assert list(pairs[0]["p_bs"]) == [below]
    p_ar = pairs[0]["p_ar"].iloc[0]
    assert float(p_ar.replace(",", ".")) > 0 and p_ar not in ("0.0000", "0,0000")
