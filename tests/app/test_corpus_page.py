"""The Corpus page under AppTest: TED uploads, scores with intervals, sorting, drill-down,
the two-system comparison; plus its helper functions and figures."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import parse_qs, urlparse

import pytest
from conftest import SHARED_DATA, require_shared
from streamlit.testing.v1 import AppTest

from meteor import Meteor
from meteor.analysis.significance import bootstrap, segment_differences
from meteor.io.read import demo_corpus
from meteor.viz import corpus_charts as corpus_figures

PRESET = "meteor-1.5-paper2005"
N_SEGMENTS = 120  # per system: enough for real statistics, quick under AppTest
TED = SHARED_DATA / "ted_sk-en" / "ted_sys1_sys2.tsv"


def _ted_rows() -> list[dict[str, str]]:
    with TED.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    out = []
    for system in ("sys1", "sys2"):
        out += [r for r in rows if r["system"] == system][:N_SEGMENTS]
    return out


def _ted_upload() -> bytes:
    """The two TED systems as one long-form TSV (system, seg_id, hyp, ref), built in memory."""
    buf = io.StringIO()
    buf.write("system\tseg_id\thyp\tref\n")
    for r in _ted_rows():
        buf.write(f"{r['system']}\t{r['seg_id']}\t{r['hyp']}\t{r['ref']}\n")
    return buf.getvalue().encode("utf-8")


def _app() -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=240)
    at.query_params["preset"] = PRESET
    at.run()
    at.switch_page("pages/corpus.py").run()
    assert not at.exception
    return at


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


@pytest.fixture(scope="module")
def ted_app() -> AppTest:
    require_shared(TED)
    at = _app()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("ted_sys1_sys2.tsv", _ted_upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def expected() -> dict[str, object]:
    m = Meteor(PRESET)
    rows = _ted_rows()
    out: dict[str, object] = {}
    for system in ("sys1", "sys2"):
        sel = [r for r in rows if r["system"] == system]
        out[system] = m.corpus_score([r["hyp"] for r in sel], [r["ref"] for r in sel])
    return out


def test_scores_both_systems_with_intervals(ted_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    metrics = _metrics(ted_app)
    for system in ("sys1", "sys2"):
        res = expected[system]
        assert metrics[f"{system}: corpus METEOR (summed statistics)"] == f"{res.score:.4f}"  # type: ignore[attr-defined]
        assert metrics[f"{system}: mean of segment scores"] == f"{res.mean_segment_score:.4f}"  # type: ignore[attr-defined]
    ci = bootstrap(expected["sys1"], Meteor(PRESET).params)  # type: ignore[arg-type]
    assert f"95% CI [{ci.corpus.low:.4f}, {ci.corpus.high:.4f}] (bootstrap, 1,000 samples)" in (
        _captions(ted_app)
    )
    assert any("120 segments · 2 system(s)" in c for c in _captions(ted_app))
    assert any("preset:meteor-1.5-paper2005" in c.value for c in ted_app.code)


def _table(at: AppTest):  # type: ignore[no-untyped-def]
    return at.dataframe(key="corpus_table").value


def test_table_sorts_and_filters(ted_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    at = ted_app
    assert list(_table(at)["segment"])[:3] == [1, 2, 3]
    at.selectbox(key="corpus_sort").set_value("score").run()
    scores = list(_table(at)["score"])
    assert scores == sorted(scores) and len(scores) == N_SEGMENTS
    at.toggle(key="corpus_desc").set_value(True).run()
    scores = list(_table(at)["score"])
    assert scores == sorted(scores, reverse=True)
    best = max(s.score for s in expected["sys1"].segments)  # type: ignore[attr-defined]
    assert scores[0] == pytest.approx(best)
    at.slider(key="corpus_range").set_value((0.5, 1.0)).run()
    assert all(s >= 0.5 for s in _table(at)["score"])
    at.slider(key="corpus_range").set_value((0.0, 1.0)).run()
    at.selectbox(key="corpus_system").set_value("sys2").run()
    assert list(_table(at)["score"])[0] == pytest.approx(
        max(s.score for s in expected["sys2"].segments)  # type: ignore[attr-defined]
    )
    at.selectbox(key="corpus_system").set_value("sys1").run()
    assert not at.exception


def test_row_opens_its_alignment(ted_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    at = ted_app
    first = _table(at).iloc[0]
    at.session_state["corpus_table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    heads = [m.value for m in at.markdown if "segment" in m.value]
    assert any(f"segment {first['segment']}" in h for h in heads)
    charts = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    link_views = [c for c in charts if any(tr.get("name") == "hypothesis" for tr in c["data"])]
    assert link_views, "the segment's link view is drawn"
    url = at.get("link_button")[0].proto.url
    q = parse_qs(urlparse(url).query)
    seg = expected["sys1"].segments[int(first["segment"]) - 1]  # type: ignore[attr-defined]
    assert url.startswith("/?")  # the Inspect page is the default page
    assert q["hyp"] == [seg.hyp] and q["ref"] == [seg.refs[0]]
    assert q["preset"] == [PRESET] and q["lang"] == ["en"]
    at.session_state["corpus_table"] = {"selection": {"rows": [], "columns": [], "cells": []}}
    at.run()


def test_comparison_shows_ci_and_p_value(ted_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    at = ted_app
    metrics = _metrics(at)
    a, b = expected["sys1"], expected["sys2"]
    diff = b.score - a.score  # type: ignore[attr-defined]
    shown = metrics["Corpus METEOR difference B − A"]
    assert shown.replace("−", "-") == f"{diff:+.4f}"
    assert "Mean segment score difference B − A" in metrics
    caps = [c for c in _captions(at) if "p = " in c]
    assert len(caps) == 2 and all("95% CI [" in c and "paired bootstrap" in c for c in caps)
    # a row of the largest wins opens both alignments side by side
    at.session_state["corpus_wins_table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    top = segment_differences(a, b)[0]  # type: ignore[arg-type]
    heads = [m.value for m in at.markdown if f"segment {top.index + 1} " in m.value]
    assert any(h.startswith("**sys1") for h in heads) and any(h.startswith("**sys2") for h in heads)


def test_text_uploads_and_count_mismatch() -> None:
    at = _app()
    demo = demo_corpus()
    hyps = [
        (f"{n}.txt", ("\n".join(demo.hyps(n)) + "\n").encode(), "text/plain")
        for n in demo.system_names
    ]
    ref = ("\n".join(r[0] for r in demo.refs) + "\n").encode()
    at.file_uploader(key="corpus_hyp_files").set_value(hyps)
    at.file_uploader(key="corpus_ref_files").set_value([("ref.txt", ref, "text/plain")]).run()
    assert not at.exception
    metrics = _metrics(at)
    assert "system_a: corpus METEOR (summed statistics)" in metrics
    assert "system_b: mean of segment scores" in metrics
    at.file_uploader(key="corpus_ref_files").set_value(
        [("short.txt", b"one\ntwo\n", "text/plain")]
    ).run()
    assert not at.exception
    assert any("short.txt has 2 segments" in e.value for e in at.error)


def test_demo_corpus_and_binary_upload() -> None:
    at = _app()
    assert any("Upload at least one hypothesis file" in i.value for i in at.info)
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("x.txt", b"\x89PNG\x00\x00", "text/plain")]
    ).run()
    assert not at.exception and any("binary" in e.value for e in at.error)
    at.radio(key="corpus_source").set_value("demo").run()
    assert not at.exception
    assert "system_a: corpus METEOR (summed statistics)" in _metrics(at)
    assert len(at.get("download_button")) >= 5  # CSV, JSONL, report, one alignment file per system


# --- helpers and figures (no Streamlit run needed) ---------------------------------------


def test_filter_sort() -> None:
    from pages._corpus_common import filter_sort

    rows = [
        {"segment": 1, "score": 0.5, "precision": None, "hyp": "Кошка", "ref": "cat"},
        {"segment": 2, "score": 0.9, "precision": 0.9, "hyp": "dog", "ref": "dog"},
        {"segment": 3, "score": 0.5, "precision": 0.2, "hyp": "bird", "ref": "bird"},
    ]
    assert [r["segment"] for r in filter_sort(rows, sort_by="score")] == [1, 3, 2]
    assert [r["segment"] for r in filter_sort(rows, sort_by="score", descending=True)] == [2, 1, 3]
    assert [r["segment"] for r in filter_sort(rows, sort_by="precision")] == [3, 2, 1]
    assert [r["segment"] for r in filter_sort(rows, score_range=(0.6, 1.0))] == [2]
    assert [r["segment"] for r in filter_sort(rows, query="кош")] == [1]


def test_figures() -> None:
    m = Meteor(PRESET)
    demo = demo_corpus()
    refs = [r[0] for r in demo.refs]
    results = {n: m.corpus_score(list(demo.hyps(n)), refs) for n in demo.system_names}
    grid = corpus_figures.distributions(results)
    assert len(grid.data) == 8 and grid.layout.barmode == "overlay"
    assert [t.name for t in grid.data[:2]] == ["system_a", "system_b"]  # the score panel
    assert grid.data[0].customdata[0][0] == 0 and len(grid.data[0].x) == 20
    scatter = corpus_figures.score_vs_length(results)
    assert list(scatter.data[1].customdata[3]) == [1, 3, 4]  # index 3, shown as segment 4
    assert scatter.layout.xaxis.title.text == "reference length (tokens)"
    a, b = results["system_a"], results["system_b"]
    ab = corpus_figures.ab_scatter(a, b, names=("A<x>", "B"))
    names = [t.name for t in ab.data]
    assert names == ["equal", "B better", "A&lt;x&gt; better", "tie"]  # user text escaped
    n_points = sum(len(t.x) for t in ab.data[1:])
    assert n_points == 20
    bars = corpus_figures.interval_bars(
        {n: bootstrap(r, m.params, n_samples=50) for n, r in results.items()}
    )
    assert len(bars.data) == 2 and list(bars.data[0].x) == ["system_a", "system_b"]


def test_inspect_link_keeps_changed_stage_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus row's Inspect link writes a changed stage list as repeated parameters."""
    import pages._corpus_common as cc

    meteor = Meteor("meteor-1.5")
    result = meteor.score("the cat sat", "the cat sat down")
    state = {"lang": "en", "preset": "meteor-1.5", "modules": ["exact", "stem"], "w_stem": 0.3}
    monkeypatch.setattr(cc.st, "session_state", state)
    query = parse_qs(urlparse(cc.inspect_link(result)).query)
    assert query["modules"] == ["exact", "stem"]  # not "['exact', 'stem']"
    assert query["w_stem"] == ["0.3"]
    assert query["hyp"] == ["the cat sat"] and query["preset"] == ["meteor-1.5"]
