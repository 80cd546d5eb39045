"""Inspect with human error spans (issue 41): the spans the URL carries are drawn on the
link view's hypothesis row and the four cells are listed under the score (AppTest)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from meteor.analysis.spans import count_spans, segment_spans
from meteor.analysis.spans_table import setting_table
from meteor.io.read import load_corpus
from meteor.io.spans import annotation_from_strings, read_spans
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


DATA = Path(__file__).parent.parent / "data" / "spans"


def test_corpus_sorts_segments_by_disagreement_one_click_from_inspect(app_test: Any) -> None:
    # English only: under AppTest a second upload on the Russian Corpus page trips over the
    # sort box's translated options (formatted outside the run); the strings are checked below
    ui = "EN"
    at = app_test(ui=ui, preset="meteor-1.5-de", lang="de")
    at.run()
    at.switch_page("pages/corpus.py").run()
    segs = (DATA / "en-de.segments.tsv").read_bytes()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("segments.tsv", segs, "text/tab-separated-values")]
    ).run()
    at.file_uploader(key="corpus_spans_files").set_value(
        [("mqm.tsv", (DATA / "en-de.mqm.tsv").read_bytes(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    df = next(d.value for d in at.dataframe if "open" in d.value.columns)
    m = Meteor("meteor-1.5-de")
    corpus = load_corpus([("segments.tsv", segs)])
    spans = read_spans([("mqm.tsv", (DATA / "en-de.mqm.tsv").read_bytes())], corpus)
    refs = {(n, i): r for n, _ in corpus.systems for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)}  # fmt: skip
    expected = sorted(
        (segment_spans(m.score(a.hyp, refs[a.system, a.seg_id][0]), a, m.params).disagreement
         for a in spans.annotations),
        reverse=True,
    )  # fmt: skip
    assert list(df.iloc[:, 2]) == expected and len(df) == 40
    link = df["open"].iloc[0]
    assert link.startswith("/?") and "spans=" in link and ("ui=RU" in link) == (ui == "RU")
    # the link opens Inspect with that segment's spans
    query = parse_qs(link[2:])
    inspect = app_test(**{k: v if len(v) > 1 else v[0] for k, v in query.items()})
    inspect.run()
    assert not inspect.exception
    assert any(
        (tr.get("meta") or {}).get("role", "").startswith("spans_")
        for c in charts(inspect)
        for tr in c["data"]
    ) == any(a.spans and any(s.rank for s in a.spans) for a in spans.annotations
             if a.seg_id == df.iloc[0, 1] and a.system == df.iloc[0, 0])  # fmt: skip


def test_every_span_string_has_russian() -> None:
    from pages import _spans_view

    for table in (_spans_view.STRINGS, _spans_view.CORPUS_STRINGS, _spans_view.AGREEMENT_STRINGS):
        for key, entry in table.items():
            assert entry.get("ru") and (entry["ru"] != entry["en"] or key == "spans_col_dF1"), key


def test_agreement_shows_the_per_setting_span_table(app_test: Any) -> None:
    at = app_test(lang="de", preset="meteor-1.5-de")
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.radio(key="agr_source").set_value("upload").run()
    lines = (DATA / "en-de.segments.tsv").read_text(encoding="utf-8").splitlines()
    judged = [x for x in lines[1:] if x.split("\t")[5]]  # those with a human score
    segs = "\n".join([lines[0], *judged]).encode()
    at.file_uploader(key="agr_file").set_value(
        [("segments.tsv", segs, "text/tab-separated-values")]
    )
    at.run()
    at.multiselect(key="agr_presets_de").set_value(["meteor-1.5-de"])
    at.multiselect(key="agr_baselines").set_value([])
    at.select_slider(key="agr_resamples").set_value(100).run()
    at.button(key="agr_run").click().run()
    at.file_uploader(key="agr_spans").set_value(
        [("mqm.tsv", (DATA / "en-de.mqm.tsv").read_bytes(), "text/tab-separated-values")]
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    df = next(d.value for d in at.dataframe if "F1" in d.value.columns)
    corpus = load_corpus([("segments.tsv", segs)])
    spans = read_spans([("mqm.tsv", (DATA / "en-de.mqm.tsv").read_bytes())], corpus)
    m = Meteor("meteor-1.5-de")
    refs = {(n, i): r for n, _ in corpus.systems for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)}  # fmt: skip
    recs = [m.score(a.hyp, refs[a.system, a.seg_id][0]) for a in spans.annotations]
    counts = count_spans(recs, spans.annotations)
    o = setting_table("", "", counts, n_samples=0).overall
    assert list(df.iloc[0, :4]) == [
        "meteor-1.5-de",
        str(o.error_tokens),
        str(o.flagged),
        str(o.flagged_errors),
    ]
    assert df["F1"].iloc[0].startswith(f"{o.f1.value:.3f}")
