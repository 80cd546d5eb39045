"""The Corpus page warns when a cluster boundary rests on an adjusted p within 0.01 of
alpha (issue 42; the record's ``borderline_cluster_decisions``), under AppTest.

A real corpus, no patching: two systems of the agreement demo the package ships
(60 segments each).  With the page's settings (10,000 randomisation trials, 1,000
resamples, the default seed, alpha 0.05) Online-A against HUMAN-refB gives a
randomisation p of about 0.049 (one comparison: Holm leaves it as it is), so HUMAN-refB
opens a new cluster on a borderline p; the paired bootstrap's p of the same pair, about
0.062, is not within 0.01 of alpha, so with the bootstrap deciding there is no warning.
NVIDIA-NeMo against Online-W, decided by the bootstrap (p about 0.052), stays in one
cluster on a borderline p.  The expected numbers are the library's on the same rows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import meteor
from meteor.analysis.corpus_report import build_report
from meteor.analysis.ranking import BORDERLINE
from meteor.analysis.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from meteor.io.read import load_corpus

DEMO = Path(meteor.__file__).parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"


def _upload(systems: tuple[str, str]) -> bytes:
    lines = DEMO.read_text(encoding="utf-8").splitlines(keepends=True)
    rows = [ln for ln in lines[1:] if next(csv.reader(io.StringIO(ln), delimiter="\t"))[0]
            in systems]  # fmt: skip
    assert len(rows) == 120
    return (lines[0] + "".join(rows)).encode("utf-8")


def _library(data: bytes, test: str):  # type: ignore[no-untyped-def]
    """The record the page builds from the same upload (the library's call)."""
    corpus = load_corpus([("two.tsv", data)])
    m = meteor.Meteor("meteor-1.5")
    results = {n: m.corpus_score(list(h), list(corpus.refs_of(n))) for n, h in corpus.systems}
    ids = {n: tuple(corpus.ids_of(n)) for n in corpus.system_names}
    return build_report(results, m.params, ids=ids, n_samples=DEFAULT_SAMPLES,
                        seed=DEFAULT_SEED, test=test).ranking  # fmt: skip


def _page(app_test: Callable[..., AppTest], data: bytes, test: str, ui: str = "en") -> AppTest:
    at = app_test(preset="meteor-1.5", **({"ui": "RU"} if ui == "ru" else {}))
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("two.tsv", data, "text/tab-separated-values")]
    ).run()
    assert not at.exception, at.exception
    if test != "ar":
        at.selectbox(key="rp_test").set_value(test).run()
    if any(b.key == "rp_build" for b in at.button):
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    return at


def _borderline_warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if "0.01" in w.value or "0,01" in w.value]


@pytest.mark.parametrize(
    ("ui", "expected"),
    [
        ("en", "HUMAN-refB opens a new cluster after Online-A on an adjusted p of {p}, "
               "within 0.01 of alpha 0.05"),
        ("ru", "HUMAN-refB открывает новый кластер после Online-A при скорректированном p {p}, "
               "в пределах 0,01 от alpha 0,05"),
    ],
    ids=["en", "ru"],
)  # fmt: skip
def test_a_borderline_new_cluster_is_warned(
    app_test: Callable[..., AppTest], ui: str, expected: str
) -> None:
    data = _upload(("Online-A", "HUMAN-refB"))
    rk = _library(data, "ar")
    (d,) = rk.borderline  # the precondition: the library finds it borderline
    assert (d.top, d.system, d.new_cluster) == ("Online-A", "HUMAN-refB", True)
    assert abs(d.p_adjusted - rk.alpha) <= BORDERLINE and d.p_adjusted < rk.alpha
    p = f"{d.p_adjusted:.4f}"
    at = _page(app_test, data, "ar", ui)
    warnings = _borderline_warnings(at)
    assert len(warnings) == 1
    want = expected.format(p=p if ui == "en" else p.replace(".", ","))
    assert warnings[0].startswith(want), warnings[0]


def test_no_warning_when_the_deciding_p_is_not_borderline(
    app_test: Callable[..., AppTest],
) -> None:
    data = _upload(("Online-A", "HUMAN-refB"))
    rk = _library(data, "bootstrap")
    assert rk.borderline == () and abs(rk.pairs[0].p_adjusted - rk.alpha) > BORDERLINE
    at = _page(app_test, data, "bootstrap")
    assert _borderline_warnings(at) == []
    assert any("paired bootstrap" in c.value for c in at.caption)


def test_a_borderline_stay_is_warned(app_test: Callable[..., AppTest]) -> None:
    data = _upload(("NVIDIA-NeMo", "Online-W"))
    rk = _library(data, "bootstrap")
    (d,) = rk.borderline
    assert not d.new_cluster and abs(d.p_adjusted - rk.alpha) <= BORDERLINE
    at = _page(app_test, data, "bootstrap")
    warnings = _borderline_warnings(at)
    assert len(warnings) == 1
    assert warnings[0].startswith(
        f"{d.system} stays in the cluster of {d.top} on an adjusted p of {d.p_adjusted:.4f}"
    ), warnings[0]
