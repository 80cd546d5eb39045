"""Inspect with human error spans (issue 41): the spans the URL carries are drawn on the
link view's hypothesis row and the four cells are listed under the score (AppTest)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from meteor.analysis.spans import segment_spans
from meteor.io.spans import annotation_from_strings
from meteor.metric import Meteor

HYP = "A fast brown fox leapt over a lazy dog"
REF = "The quick brown fox jumps over the lazy dog"
# "fast" (unmatched? no: a synonym), "leapt" (Major), "a lazy" (Minor), an omission
SPANS = ["2,6,Major,r1,Accuracy/Mistranslation", "7,12,minor,r1,Style/Awkward <b>x</b>",
         "-,-,Major,r1,Accuracy/Omission"]  # fmt: skip


def charts(at: Any) -> list[dict[str, Any]]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def cells_table(at: Any, column: str) -> Any:
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError([list(df.value.columns) for df in at.dataframe])


@pytest.mark.parametrize(
    ("ui", "cell_col", "title"),
    [("EN", "cell", "Human error spans"), ("RU", "клетка", "Ошибки, отмеченные людьми")],
)
def test_inspect_draws_the_spans_and_lists_the_cells(
    app_test: Any, ui: str, cell_col: str, title: str
) -> None:
    at = app_test(ui=ui, preset="meteor-1.5", hyp=HYP, ref=REF, spans=SPANS)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert title in [s.value for s in at.subheader]
    m = Meteor("meteor-1.5")
    r = m.score(HYP, REF)
    seg = segment_spans(r, annotation_from_strings(HYP, SPANS), m.params)
    df = cells_table(at, cell_col)
    assert [int(x) for x in df.iloc[:, 1]] == [seg.counts[c] for c in seg.counts]
    assert sum(int(x) for x in df.iloc[:, 1]) == len(r.alignment.hyp)
    (links,) = [c for c in charts(at) if any(
        (tr.get("meta") or {}).get("role") == "tokens_hyp" for tr in c["data"])]  # fmt: skip
    marks = [
        tr for tr in links["data"] if (tr.get("meta") or {}).get("role", "").startswith("spans_")
    ]
    assert {tr["meta"]["severity"] for tr in marks} == {"Major", "Minor"}
    errors = [t for t in seg.tokens if t.error]
    assert sorted(i for tr in marks for _, i in tr["customdata"]) == [t.index for t in errors]
    hover = " ".join(h for tr in marks for h in tr["hovertext"])
    assert "&lt;b&gt;x&lt;/b&gt;" in hover and "<b>x</b>" not in hover  # user text escaped
    assert links["data"][0]["meta"]["role"].startswith("spans_")  # drawn behind the tokens


def test_bad_spans_in_the_url_give_one_warning(app_test: Any) -> None:
    at = app_test(preset="meteor-1.5", hyp=HYP, ref=REF, spans=["3,99,Major,r1,X"])
    at.run()
    assert not at.exception
    (w,) = [w.value for w in at.warning if "spans" in w.value]
    assert "past the end of the hypothesis" in w
    assert not any(
        (tr.get("meta") or {}).get("role", "").startswith("spans_")
        for c in charts(at)
        for tr in c["data"]
    )
