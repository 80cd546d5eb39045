"""``meteor.viz.waterfall.reconcile_figure``: the path as a waterfall (issue 33)."""

from __future__ import annotations

import math

import pytest

import meteor
from meteor.viz import figures

DOC_HYP = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
)
DOC_REF = "It is a guide to action that ensures that the military will forever heed Party commands"


@pytest.fixture(scope="module")
def rec() -> meteor.analysis.reconcile.Reconciliation:
    return meteor.reconcile(DOC_HYP, DOC_REF, "hf", "meteor-1.5")


def test_path_bars_sum_to_the_gap_and_end_on_b(
    rec: meteor.analysis.reconcile.Reconciliation,
) -> None:
    assert len(rec.steps) >= 3  # a real path, not a one-bar figure
    (wf,) = figures.reconcile_figure(rec).data
    assert wf.type == "waterfall"
    n = len(rec.steps)
    assert list(wf.measure) == ["absolute"] + ["relative"] * n + ["total"]
    assert wf.y[0] == rec.score_a
    assert math.fsum(wf.y[1:-1]) == pytest.approx(rec.gap, abs=1e-12)
    # the total bar plotly draws is A plus every step: exactly B
    assert math.fsum(wf.y[:-1]) == pytest.approx(rec.score_b, abs=1e-12)
    assert wf.meta["keys"] == ["A", *(s.group for s in rec.steps), "B"]
    assert wf.x[-1] == rec.name_b and wf.x[0] == rec.name_a
    # each relative bar is that step's own change
    assert list(wf.y[1:-1]) == [s.score - s.score_before for s in rec.steps]


def test_labels_translate_and_user_text_is_escaped(
    rec: meteor.analysis.reconcile.Reconciliation,
) -> None:
    labels = {s.group: f"<b>{s.group}</b>" for s in rec.steps}
    (wf,) = figures.reconcile_figure(rec, labels=labels).data
    assert all("<b>" not in x for x in wf.x)
    assert any("&lt;b&gt;aligner&lt;/b&gt;" in x for x in wf.x)
