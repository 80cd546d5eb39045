"""The Corpus page with human error annotations uploaded (issue 41): every Inspect link of
the segment table carries its segment's spans, and the rater rule (union or majority) is the
library's, named in the caption (AppTest)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from _spans_app import SEGMENTS, corpus_page, upload_spans

from meteor.analysis.spans import count_spans
from meteor.analysis.spans_table import setting_table
from meteor.io.read import load_corpus
from meteor.io.spans import read_spans, span_strings
from meteor.metric import Meteor
from pages._widgets import md_escape

# two raters disagreeing: on 1 both mark "a", only r1 "today" (and "cat", Major); on 2 r1
# marks "barks", r2 sees no error; segment 3 is not annotated
HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
MQM = "\n".join(
    [
        HEAD,
        "A\td\t1\t1\tr1\tsrc\tthe cat sat on <v>a</v> mat <v>today</v>\tFluency/Grammar\tMinor",
        "A\td\t1\t1\tr1\tsrc\tthe <v>cat</v> sat on a mat today\tAccuracy/Mistranslation\tMajor",
        "A\td\t1\t1\tr2\tsrc\tthe cat sat on <v>a</v> mat today\tFluency/Grammar\tmajor",
        "A\td\t1\t2\tr1\tsrc\ta dog <v>barks</v> at the moon loudly\tFluency/Grammar\tMinor",
        "A\td\t1\t2\tr2\tsrc\ta dog barks at the moon loudly\tNo-error\tNo-error",
    ]
).encode()


def corpus_with_annotations(app_test: Any, ui: str = "EN") -> Any:
    return upload_spans(corpus_page(app_test, ui), [("mqm.tsv", MQM)])


def main_table(at: Any) -> Any:
    (df,) = [d.value for d in at.dataframe if "inspect" in d.value.columns]
    return df


def test_the_segment_tables_inspect_links_carry_the_spans(app_test: Any) -> None:
    at = corpus_with_annotations(app_test)
    df = main_table(at)
    spans = read_spans([("mqm.tsv", MQM)], load_corpus([("segments.tsv", SEGMENTS)]))
    links = dict(zip(df["seg_id"], df["inspect"], strict=True))
    for seg_id in ("1", "2"):
        query = parse_qs(links[seg_id][2:])
        ann = spans.get("A", seg_id)
        assert ann is not None
        assert query["spans"] == span_strings(ann)
        assert query["hyp"] == [ann.hyp]
    assert "spans=" not in links["3"]  # not annotated: the plain link
    # the link opens Inspect with that segment's spans drawn
    query = parse_qs(links["1"][2:])
    inspect = app_test(**{k: v if len(v) > 1 else v[0] for k, v in query.items()})
    inspect.run()
    assert not inspect.exception
    assert any(
        (tr.get("meta") or {}).get("role", "").startswith("spans_")
        for c in inspect.get("plotly_chart")
        for tr in json.loads(c.proto.spec)["data"]
    )


def test_without_annotations_the_links_carry_no_spans(app_test: Any) -> None:
    at = corpus_page(app_test)
    assert not any("spans=" in x for x in main_table(at)["inspect"])


@pytest.mark.parametrize("raters", ["union", "majority"])
def test_the_rater_rule_gives_the_librarys_numbers(app_test: Any, raters: str) -> None:
    at = corpus_with_annotations(app_test)
    at.radio(key="corpus_spans_raters").set_value(raters).run()
    assert not at.exception, [e.value for e in at.exception]
    corpus = load_corpus([("segments.tsv", SEGMENTS)])
    spans = read_spans([("mqm.tsv", MQM)], corpus)
    m = Meteor("meteor-1.5")
    refs = {i: r for i, r in zip(corpus.ids_of("A"), corpus.refs_of("A"), strict=True)}
    recs = [m.score(a.hyp, refs[a.seg_id][0]) for a in spans.annotations]
    o = setting_table("", "", count_spans(recs, spans.annotations, raters), n_samples=0).overall
    (caption,) = [c.value for c in at.caption if "precision" in c.value and "F1" in c.value]
    assert f"precision {o.precision.value:.4f}" in caption
    assert f"recall {o.recall.value:.4f}" in caption
    assert f"F1 {o.f1.value:.4f}" in caption
    assert f"{raters} of raters" in caption
    # the library's line, in English (as Markdown source: the parentheses escaped)
    assert md_escape(spans.summary()) in [c.value for c in at.caption]
    # the rule matters on this file: the library's numbers differ between the two
    other = "majority" if raters == "union" else "union"
    o2 = setting_table("", "", count_spans(recs, spans.annotations, other), n_samples=0).overall
    assert (o.error_tokens, o.recall.value) != (o2.error_tokens, o2.recall.value)
    df = next(d.value for d in at.dataframe if "disagreement" in d.value.columns)
    assert sorted(df["segment id"]) == ["1", "2"]  # the annotated segments only


DATA = Path(__file__).parent.parent / "data" / "spans"


@pytest.mark.parametrize("raters", ["union", "majority"])
def test_agreement_span_table_follows_the_rater_rule(app_test: Any, raters: str) -> None:
    # the committed slice with a second rater who saw no error in the first ten segments
    # annotated: under majority those segments' spans (one rater of two) mark nothing
    lines = (DATA / "en-de.segments.tsv").read_text(encoding="utf-8").splitlines()
    judged = [x for x in lines[1:] if x.split("\t")[5]]  # those with a human score
    segs = "\n".join([lines[0], *judged]).encode()
    mqm_lines = (DATA / "en-de.mqm.tsv").read_text(encoding="utf-8").splitlines()
    second = []
    for row in mqm_lines[1:11]:
        f = row.split("\t")
        plain = f[6].replace("<v>", "").replace("</v>", "")
        f[4], f[6], f[7], f[8] = "second", plain, "No-error", "No-error"
        second.append("\t".join(f))
    mqm = "\n".join([*mqm_lines, *second]).encode()
    at = app_test(lang="de", preset="meteor-1.5-de")
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.radio(key="agr_source").set_value("upload").run()
    at.file_uploader(key="agr_file").set_value(
        [("segments.tsv", segs, "text/tab-separated-values")]
    )
    at.run()
    at.multiselect(key="agr_presets_de").set_value(["meteor-1.5-de"])
    at.multiselect(key="agr_baselines").set_value([])
    at.select_slider(key="agr_resamples").set_value(100).run()
    at.button(key="agr_run").click().run()
    at.file_uploader(key="agr_spans").set_value(
        [("mqm.tsv", mqm, "text/tab-separated-values")]
    ).run()
    at.radio(key="agr_spans_raters").set_value(raters).run()
    assert not at.exception, [e.value for e in at.exception]
    df = next(d.value for d in at.dataframe if "F1" in d.value.columns)
    corpus = load_corpus([("segments.tsv", segs)])
    spans = read_spans([("mqm.tsv", mqm)], corpus)
    assert any(len(a.raters) == 2 for a in spans.annotations)
    m = Meteor("meteor-1.5-de")
    refs = {(n, i): r for n, _ in corpus.systems for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)}  # fmt: skip
    recs = [m.score(a.hyp, refs[a.system, a.seg_id][0]) for a in spans.annotations]
    o = setting_table("", "", count_spans(recs, spans.annotations, raters), n_samples=0).overall
    other = "majority" if raters == "union" else "union"
    o2 = setting_table("", "", count_spans(recs, spans.annotations, other), n_samples=0).overall
    assert o.error_tokens != o2.error_tokens  # the rule matters on this file
    assert list(df.iloc[0, :4]) == [
        "meteor-1.5-de",
        str(o.error_tokens),
        str(o.flagged),
        str(o.flagged_errors),
    ]
    assert df["F1"].iloc[0].startswith(f"{o.f1.value:.3f}")
    assert any(f"{raters} of raters" in c.value for c in at.caption)
