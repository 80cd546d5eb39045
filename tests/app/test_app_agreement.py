"""The "Agreement with people" page under AppTest: the bundled demo, the table's numbers
against ``meteor.correlate``, the Russian interface, a bad upload, "Use this setting"."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from meteor.analysis.agreement import correlate, load_judged
from pages._agreement_view import DEMO_FILE, main_presets

PRESETS = ["meteor-1.5", "nltk"]
BASELINES = ["chrf"]
RESAMPLES = 100  # the smallest choice: quick under AppTest, the same code path


def _page(ui: str | None = None) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    if ui:
        at.query_params["ui"] = ui
    at.run()
    at.switch_page("pages/agreement.py").run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def demo_app() -> AppTest:
    at = _page()
    at.multiselect(key="agr_presets_en").set_value(PRESETS)
    at.multiselect(key="agr_baselines").set_value(BASELINES)
    at.select_slider(key="agr_resamples").set_value(RESAMPLES)
    at.run()
    at.button(key="agr_run").click().run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def test_demo_loads_with_the_main_presets() -> None:
    at = _page()
    assert at.radio(key="agr_source").value == "demo"
    assert at.multiselect(key="agr_presets_en").value == main_presets("en")
    assert main_presets("en") == ["meteor-1.5", "nltk", "hf"]
    assert at.selectbox(key="agr_human").value == "human_score"
    assert not at.error


def test_table_numbers_equal_correlate(demo_app: AppTest) -> None:
    judged = load_judged([(DEMO_FILE.name, DEMO_FILE.read_bytes())], "human_score")
    expected = correlate(
        judged,
        presets=PRESETS,
        baselines=BASELINES,
        n_bootstrap=RESAMPLES,
        n_permutations=RESAMPLES,
    )
    table = demo_app.dataframe[0].value
    assert list(table["metric"]) == [*PRESETS, *BASELINES]
    for _, row in table.iterrows():
        m = expected.metric(row["metric"])
        for col, e in (
            ("segments, flattened", m.seg("kendall_flat")),
            ("segments, grouped by item", m.seg("kendall_item")),
            ("systems, Pearson", m.sys("pearson")),
            ("systems, Kendall τ-b", m.sys("kendall")),
        ):
            want = f"{e.value:.4f} [{e.low:.4f}, {e.high:.4f}]".replace("-", "−")
            assert row[col] == want, (row["metric"], col)
    sig = demo_app.dataframe[1].value
    assert len(sig) == len(expected.comparisons) == 3
    for (_, row), c in zip(sig.iterrows(), expected.comparisons, strict=True):
        assert (row["A"], row["B"]) == (c.a, c.b)
        assert row["p"] == f"{c.p_value:.4f}"


def test_scatter_and_heatmap_are_drawn(demo_app: AppTest) -> None:
    charts = demo_app.get("plotly_chart")
    assert len(charts) == 2  # the scatter and the heatmap
    assert demo_app.selectbox(key="agr_heat_metric").options == PRESETS


def test_use_this_setting_sets_the_sidebar(demo_app: AppTest) -> None:
    at = demo_app
    at.selectbox(key="agr_heat_metric").set_value("nltk").run()
    at.selectbox(key="agr_use_x_alpha").set_value(0.3)
    at.selectbox(key="agr_use_y_beta").set_value(1.5)
    at.run()
    assert at.session_state["preset"] == "meteor-1.5"
    at.button(key="agr_use").click().run()
    assert not at.exception
    assert at.session_state["preset"] == "nltk"
    assert at.session_state["alpha"] == pytest.approx(0.3)
    assert at.session_state["beta"] == pytest.approx(1.5)
    assert at.session_state["gamma"] == pytest.approx(0.5)  # nltk's own
    assert at.slider(key="alpha").value == pytest.approx(0.3)
    assert at.slider(key="beta").value == pytest.approx(1.5)
    assert any("nltk" in s.value for s in at.success)


def test_russian_labels() -> None:
    at = _page("RU")
    assert at.title[0].value == "Какой METEOR согласуется с людьми?"
    assert at.radio(key="agr_source").label == "Данные"
    assert at.button(key="agr_run").label == "Измерить согласие"
    assert at.selectbox(key="agr_human").label == "Столбец оценок людей"


def test_a_bad_upload_is_one_clear_error() -> None:
    at = _page()
    at.radio(key="agr_source").set_value("upload").run()
    bad = (
        b"system\tseg_id\thyp\tref\thuman_score\n"
        b"A\t1\ta cat\tthe cat\t0.5\n"
        b"A\t2\ta dog\tthe dog\tgood\n"
    )
    at.file_uploader(key="agr_file").set_value([("bad.tsv", bad, "text/tab-separated-values")])
    at.run()
    assert not at.exception
    assert len(at.error) == 1
    msg = at.error[0].value
    assert "\n" not in msg
    assert "human_score" in msg and "line 3" in msg and "not numbers" in msg
    assert not at.get("plotly_chart")
