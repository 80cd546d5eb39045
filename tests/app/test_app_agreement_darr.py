"""The Agreement page's DARR statistic: the user chooses the column the pairs are built
from and the threshold (passed to ``meteor.correlate``'s ``darr_column`` / ``darr_threshold``),
a caption names the column and the number of pairs, and an empty DARR ("— [—, —]") says
why (no pair differs by the threshold or more; the column's range)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from meteor.analysis.agreement import Agreement, correlate, load_judged
from pages._agreement_view import DEMO_FILE

PRESETS = ["meteor-1.5"]
RESAMPLES = 100


def _expected(darr_column: str | None, threshold: float) -> Agreement:
    judged = load_judged(
        [(DEMO_FILE.name, DEMO_FILE.read_bytes())], "human_score", darr_column=darr_column
    )
    return correlate(judged, presets=PRESETS, n_bootstrap=RESAMPLES, n_permutations=RESAMPLES,
                     darr_threshold=threshold)  # fmt: skip


def _run(column: str | None = None, threshold: float | None = None) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.multiselect(key="agr_presets_en").set_value(PRESETS)
    at.multiselect(key="agr_baselines").set_value([])
    at.select_slider(key="agr_resamples").set_value(RESAMPLES)
    if column is not None:
        at.selectbox(key="agr_darr_col").set_value(column)
    if threshold is not None:
        at.number_input(key="agr_darr_threshold").set_value(threshold)
    at.run()
    at.button(key="agr_run").click().run()
    at.segmented_control(key="agr_statistic").set_value("darr").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def _darr_cells(at: AppTest) -> list[str]:
    table = at.dataframe[0].value
    return list(table["segments, flattened"])


def _captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption)


def test_demo_builds_darr_pairs_from_the_raw_column_and_says_so() -> None:
    at = _run()
    assert at.selectbox(key="agr_darr_col").value == "human_raw"
    assert at.number_input(key="agr_darr_threshold").value == 25.0
    want = _expected("human_raw", 25.0)
    assert want.n_darr_pairs > 0
    e = want.metric("meteor-1.5").seg("darr_flat")
    assert _darr_cells(at) == [f"{e.value:.4f} [{e.low:.4f}, {e.high:.4f}]".replace("-", "−")]
    caption = _captions(at)
    assert f"DARR: {want.n_darr_pairs:,} pairs" in caption and "column human_raw" in caption
    assert "25.00 or more" in caption


def test_z_scores_at_25_give_no_pair_and_the_page_says_why() -> None:
    at = _run("human_score", 25.0)
    assert _expected("human_score", 25.0).n_darr_pairs == 0
    assert _darr_cells(at) == ["— [—, —]"]
    caption = _captions(at)
    assert "no two translations of one source" in caption and "human_score" in caption
    assert "range from −" in caption  # the column's range, against the threshold
    assert "smaller threshold" in caption


def test_the_chosen_threshold_reaches_the_library() -> None:
    at = _run("human_score", 0.5)
    want = _expected("human_score", 0.5)
    assert want.n_darr_pairs > 0
    e = want.metric("meteor-1.5").seg("darr_flat")
    assert _darr_cells(at) == [f"{e.value:.4f} [{e.low:.4f}, {e.high:.4f}]".replace("-", "−")]
    assert f"DARR: {want.n_darr_pairs:,} pairs" in _captions(at)
    assert "0.50 or more" in _captions(at)
