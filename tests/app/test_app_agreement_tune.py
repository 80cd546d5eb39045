"""The "Agreement with people" page's "Tune" section under AppTest (issue 34): it tunes the
bundled demo with ``meteor.tune`` (the numbers equal a direct call with the same arguments),
its download is a preset file ``Meteor(preset_file=...)`` reads, "Use this setting" makes
Inspect score with it (the signature names it), too few groups is one error line, and the
Russian interface says it in Russian."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlparse

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from meteor.analysis.agreement import load_judged
from meteor.analysis.tune import TuneResult, tune
from meteor.metric import Meteor
from pages._agreement_view import DEMO_FILE

RESAMPLES = 100
FOLDS = 3
ROUNDS = 0  # the 5⁴ grid only: seconds on the demo, the same code path


class _Storages:
    """Every media store AppTest makes: a download's bytes are in the last one."""

    made: list[MemoryMediaFileStorage] = []

    @classmethod
    def content(cls, url: str) -> bytes:
        name = PurePosixPath(urlparse(url).path).name
        return bytes(cls.made[-1].get_file(name).content)


def _make(endpoint: str) -> MemoryMediaFileStorage:
    store = MemoryMediaFileStorage(endpoint)
    _Storages.made.append(store)
    return store


def _page(ui: str | None = None) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    if ui:
        at.query_params["ui"] = ui
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.multiselect(key=f"agr_presets_{'en'}").set_value(["meteor-1.5"])
    at.multiselect(key="agr_baselines").set_value(["chrf"])
    at.select_slider(key="agr_resamples").set_value(RESAMPLES)
    at.run()
    at.button(key="agr_run").click().run()
    assert not at.exception
    return at


def _tuned(at: AppTest, group: str = "doc_id", folds: int = FOLDS) -> AppTest:
    at.selectbox(key="agr_tune_objective").set_value("kendall_flat")
    at.checkbox(key="agr_tune_weights").uncheck()
    at.selectbox(key="agr_tune_group").set_value(group)
    at.number_input(key="agr_tune_folds").set_value(folds)
    at.number_input(key="agr_tune_rounds").set_value(ROUNDS)
    at.run()
    at.button(key="agr_tune_run").click().run()
    assert not at.exception, at.exception
    return at


@pytest.fixture(scope="module")
def tuned_app() -> Iterator[AppTest]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("streamlit.testing.v1.app_test.MemoryMediaFileStorage", _make)
        at = _tuned(_page())
        assert not at.error, [e.value for e in at.error]
        yield at


def _direct() -> TuneResult:
    data = DEMO_FILE.read_bytes()
    judged = load_judged([(DEMO_FILE.name, data)], "human_score")
    rows = list(
        csv.DictReader(io.StringIO(data.decode("utf-8")), delimiter="\t", quoting=csv.QUOTE_NONE)
    )
    doc = {(r["system"], r["seg_id"]): r["doc_id"] for r in rows}
    groups = [doc[(s, i)] for s, _ in judged.corpus.systems for i in judged.corpus.ids_of(s)]
    return tune(
        judged, preset="meteor-1.5", objective="kendall_flat", weights=False, folds=FOLDS,
        groups=groups, group_name="doc_id", n_bootstrap=RESAMPLES, rounds=ROUNDS,
        data_name=DEMO_FILE.name, data_sha256=hashlib.sha256(data).hexdigest(),  # sha256sum's
    )  # fmt: skip


def _cell(e: object) -> str:
    v, lo, hi = (getattr(e, k) for k in ("value", "low", "high"))
    return f"{v:.4f} [{lo:.4f}, {hi:.4f}]".replace("-", "−")


def _frame(at: AppTest, column: str) -> object:
    """The one dataframe with ``column`` (a dataframe that is not a widget has no key)."""
    (found,) = [d.value for d in at.dataframe if column in d.value.columns]
    return found


def _download(at: AppTest) -> bytes:
    (btn,) = [b for b in at.get("download_button") if b.proto.id.endswith("agr_tune_download")]  # type: ignore[attr-defined]
    return _Storages.content(btn.proto.url)  # type: ignore[attr-defined]


def test_cross_validated_numbers_equal_tune(tuned_app: AppTest) -> None:
    want = _direct()
    assert len(want.folds) == FOLDS
    table: Any = _frame(tuned_app, "fold")
    assert list(table.columns) == ["fold", "rows", "groups", "tuned", "meteor-1.5", "chrF"]
    for (_, row), f in zip(table.iloc[:FOLDS].iterrows(), want.folds, strict=True):
        assert row["fold"] == str(f.fold) and row["rows"] == f"{f.n_rows:,}"
        assert row["tuned"] == _cell(f.tuned)
        assert row["meteor-1.5"] == _cell(f.base)
        assert f.chrf is not None and row["chrF"] == _cell(f.chrf)
    mean = table.iloc[FOLDS]
    assert mean["tuned"] == f"{want.cv_mean('tuned'):.4f}".replace("-", "−")
    assert mean["meteor-1.5"] == f"{want.cv_mean('base'):.4f}".replace("-", "−")
    assert mean["chrF"] == f"{want.cv_mean('chrf'):.4f}".replace("-", "−")
    params: Any = _frame(tuned_app, "parameter")
    assert list(params["tuned"][:4]) == [
        f"{getattr(want.params, k):.4f}" for k in ("alpha", "beta", "gamma", "delta")
    ]
    summary = " ".join(c.value for c in tuned_app.caption)
    assert f"{want.value:.4f}" in summary and f"{want.n_points:,}" in summary


def test_download_is_the_preset_file_meteor_reads(tuned_app: AppTest) -> None:
    data = _download(tuned_app)
    want = _direct()
    expected = json.dumps(want.preset_document(), ensure_ascii=False, indent=2, allow_nan=False)
    assert data == (expected + "\n").encode("utf-8")  # as `meteor tune --out` writes it
    m = Meteor(preset_file=data)
    assert m.params == want.params
    assert m.preset is not None and m.preset.startswith("tuned-meteor-1.5@")
    assert "tuned-on:wmt21_ru-en_da_demo.tsv" in m.preset
    (sig,) = [c.value for c in tuned_app.code if c.value.startswith("meteor|")]
    assert sig == m.signature()


def test_use_this_setting_makes_inspect_score_with_it(tuned_app: AppTest) -> None:
    at = tuned_app
    want = _direct().params
    at.button(key="agr_tune_use").click().run()
    assert not at.exception and not at.error
    assert at.session_state["alpha"] == want.alpha and at.session_state["beta"] == want.beta
    assert any("tuned-meteor-1.5@" in s.value for s in at.success)
    at.switch_page("pages/inspect.py").run()
    assert not at.exception
    (sig,) = [c.value for c in at.code if c.value.startswith("meteor|")]
    assert "preset:tuned-meteor-1.5@" in sig and "tuned-on:wmt21_ru-en_da_demo.tsv" in sig
    assert "+custom" not in sig
    assert any("tuned-meteor-1.5@" in c.value for c in at.sidebar.caption)
    # a later run keeps it (no upload in the sidebar is not "the file removed")
    at.run()
    (sig,) = [c.value for c in at.code if c.value.startswith("meteor|")]
    assert "preset:tuned-meteor-1.5@" in sig


def test_too_few_groups_is_one_error_line() -> None:
    at = _tuned(_page(), group="system", folds=12)  # the demo has 11 systems
    assert not at.exception
    (err,) = at.error
    assert "\n" not in err.value
    assert "12 folds need at least 12 groups; the data has 11" in err.value
    assert not [d for d in at.dataframe if "fold" in d.value.columns]


def test_russian_labels() -> None:
    at = _page("RU")
    assert not at.exception
    assert at.button(key="agr_tune_run").label == "Подобрать"
    assert at.selectbox(key="agr_tune_objective").label == "Цель"
    assert at.selectbox(key="agr_tune_base").label == "Пресет для подбора"
    assert at.number_input(key="agr_tune_folds").label == "Блоков (k)"
    assert any(s.value == "Подбор параметров" for s in at.subheader)


def test_a_rerun_does_not_tune_again(monkeypatch: pytest.MonkeyPatch) -> None:
    import pages._agreement_view as view

    calls: list[object] = []
    real = view.tune_run

    def counted(*args: Any, **kw: Any) -> TuneResult:
        calls.append(args[3])
        return real(*args, **kw)

    monkeypatch.setattr(view, "tune_run", counted)
    at = _tuned(_page(), folds=4)  # choices no other test uses: not in the shared cache
    assert not at.error and len(calls) == 1
    at.run()
    at.button(key="agr_tune_run").click().run()
    assert not at.exception and not at.error
    assert len(calls) == 1  # the same run and choices: the kept result
    at.number_input(key="agr_tune_folds").set_value(2).run()
    at.button(key="agr_tune_run").click().run()
    assert len(calls) == 2  # other choices: tuned again
    assert sum("fold" in d.value.columns for d in at.dataframe) == 1
