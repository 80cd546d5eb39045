"""The corpus report on the Corpus page (issue 35) under AppTest.

A long-form TSV of four WMT21 ru-en systems (40 segments each) is uploaded; the
report is built with its button; the ranking table's numbers are meteor.report's on
the same corpus, the Buckets and "Where the points go" tabs render, the labels follow
the interface language, and each download is the library writer's output for the
same record.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from _media import Storages
from conftest import SHARED_DATA, require_shared
from streamlit.testing.v1 import AppTest

import meteor
from meteor.analysis.corpus_report import CorpusReport
from meteor.analysis.points_lost import head_to_head
from meteor.analysis.pvalue_text import bootstrap_resolution, p_value_text, plus_one_resolution
from meteor.analysis.report_text import to_json, to_latex, to_markdown
from meteor.io.labels import read_labels
from meteor.io.read import load_corpus

PRESET = "meteor-1.5-paper2005"
WMT21 = SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv"
SYSTEMS = ("AFRL", "Online-B", "NiuTrans", "Manifold")
N_SEGMENTS = 40
#: one system shown under a name with markup and LaTeX specials (user text)
RENAMED = {"Manifold": "<b>Mani_fold</b> & #1"}


def _upload() -> bytes:
    with WMT21.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    buf = io.StringIO()
    buf.write("system\tseg_id\thyp\tref\tdoc_id\n")
    for system in SYSTEMS:
        for r in [r for r in rows if r["system"] == system][:N_SEGMENTS]:
            name = RENAMED.get(system, system)
            buf.write(f"{name}\t{r['seg_id']}\t{r['hyp']}\t{r['ref']}\t{r['doc_id']}\n")
    return buf.getvalue().encode("utf-8")


@pytest.fixture(scope="module")
def upload() -> bytes:
    require_shared(WMT21)
    return _upload()


@pytest.fixture(scope="module")
def expected(upload: bytes) -> CorpusReport:
    return meteor.report(load_corpus([("wmt21.tsv", upload)], []), preset=PRESET)


def _app(
    app_test: Callable[..., AppTest],
    upload: bytes,
    monkeypatch: pytest.MonkeyPatch,
    ui: str = "en",
) -> AppTest:
    """The Corpus page with the upload, its report built (``app_test`` keeps the page
    in app.py's frame, so the button's click is not lost to a rerun)."""
    Storages.install(monkeypatch)
    at = app_test(preset=PRESET, **({"ui": ui.upper()} if ui != "en" else {}))
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("wmt21.tsv", upload, "text/tab-separated-values")]
    ).run()
    assert not at.exception
    if any(b.key == "rp_build" for b in at.button):  # else built already (the shared cache)
        at.button(key="rp_build").click().run()
    assert not at.exception, at.exception
    return at


def _download(at: AppTest, key: str) -> str:
    found = [
        b
        for b in at.get("download_button")
        if b.proto.id.endswith(key)  # type: ignore[attr-defined]
    ]
    assert len(found) == 1, key
    return Storages.content(found[0].proto.url).decode("utf-8")  # type: ignore[attr-defined]


def _frames(at: AppTest, *columns: str) -> list[Any]:
    """The values of the dataframes shown with all of ``columns``, in page order
    (a dataframe that is not a widget carries no key under AppTest)."""
    return [d.value for d in at.dataframe if set(columns) <= set(d.value.columns)]


def _frame(at: AppTest, *columns: str) -> Any:
    found = _frames(at, *columns)
    assert len(found) == 1, (columns, len(found))
    return found[0]


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, abs=1e-12)


def test_ranking_table_is_meteor_report_and_downloads_are_its_writers(
    app_test: Callable[..., AppTest],
    upload: bytes,
    expected: CorpusReport,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = _app(app_test, upload, monkeypatch)
    table = _frame(at, "rank", "cluster", "mean")
    assert list(table["system"]) == [r.name for r in expected.ranking.systems]
    assert len(table) == len(SYSTEMS)
    for k, row in enumerate(expected.ranking.systems):
        got = table.iloc[k]
        assert got["rank"] == row.rank and got["cluster"] == row.cluster
        assert got["segments"] == row.segments == N_SEGMENTS
        for col, want in (
            ("meteor", row.corpus.value),
            ("low", row.corpus.low),
            ("high", row.corpus.high),
            ("mean", row.mean_segment.value),
            ("precision", row.precision),
            ("recall", row.recall),
            ("frag", row.frag),
        ):
            assert _same(float(got[col]), want), (row.name, col)
    pairs = _frame(at, "p_bs", "p_ar")
    assert len(pairs) == expected.ranking.comparisons == 6
    rk = expected.ranking
    assert list(pairs["p_ar"]) == [
        p_value_text(p.p_randomisation, plus_one_resolution(rk.trials)) for p in rk.pairs
    ]
    assert list(pairs["p_bs"]) == [
        p_value_text(p.p_bootstrap, bootstrap_resolution(rk.samples)) for p in rk.pairs
    ]
    captions = [c.value for c in at.caption]
    assert any("6 pairwise comparisons" in c for c in captions)
    assert any("mean of segment scores is a different number" in c for c in captions)
    # the downloads: the library's writers on the same record, byte for byte
    assert _download(at, "rp_dl_latex") == to_latex(expected)
    assert _download(at, "rp_dl_md") == to_markdown(expected)
    assert _download(at, "rp_dl_json") == to_json(expected)
    html = [b for b in at.get("download_button") if b.proto.id.endswith("rp_dl_html")]  # type: ignore[attr-defined]
    assert len(html) == 1  # built when clicked (megabytes of plotly.js)


def test_buckets_and_where_the_points_go_render(
    app_test: Callable[..., AppTest],
    upload: bytes,
    expected: CorpusReport,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = _app(app_test, upload, monkeypatch)
    buckets = _frame(at, "system", "bucket")
    first = expected.buckets[0]
    assert first.name == "ref_length"
    assert len(buckets) == len(first.rows)
    assert [float(x) for x in buckets["count"]] == [b.count for b in first.rows]
    for name in [b.name for b in expected.buckets]:
        at.selectbox(key="rp_bucketing").set_value(name).run()
        assert not at.exception, name
        table = next(b for b in expected.buckets if b.name == name)
        assert len(_frame(at, "system", "bucket")) == len(table.rows)
    # where the points go: the chosen system's lists, then two systems head to head
    top = expected.losses[0]
    missed = _frame(at, "word", "missed")
    assert list(missed["word"]) == [w for w, _m, _n in top.missed_ref_words]
    at.selectbox(key="rp_where_system").set_value(RENAMED["Manifold"]).run()
    loss = next(x for x in expected.losses if x.system == RENAMED["Manifold"])
    assert list(_frame(at, "word", "unmatched")["word"]) == [
        w for w, _m, _n in loss.unmatched_hyp_words
    ]
    assert expected.versus is not None
    wins_b = _frames(at, "seg_id", "open_a", "open_b")[1]
    assert list(wins_b["seg_id"]) == [w.seg_id for w in expected.versus.b_wins]
    link = parse_qs(urlparse(str(wins_b["open_b"].iloc[0])).query)
    assert link["hyp"] == [expected.versus.b_wins[0].hyp_b]
    assert link["preset"] == [PRESET]
    # two other systems: the library's head_to_head on them
    at.selectbox(key="rp_sys_a").set_value("NiuTrans").run()
    at.selectbox(key="rp_sys_b").set_value("AFRL").run()
    assert not at.exception
    corpus = load_corpus([("wmt21.tsv", upload)], [])
    m = meteor.Meteor(PRESET)
    results = {n: m.corpus_score(list(h), list(corpus.refs_of(n))) for n, h in corpus.systems}
    ids = {n: corpus.ids_of(n) for n in results}
    vs = head_to_head("NiuTrans", "AFRL", results, ids)
    assert vs.a_wins
    assert list(_frames(at, "seg_id", "open_a", "open_b")[0]["seg_id"]) == [
        w.seg_id for w in vs.a_wins
    ]


def test_russian_labels(
    app_test: Callable[..., AppTest], upload: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _app(app_test, upload, monkeypatch, ui="ru")
    tabs = [tab.label for tab in at.tabs]
    assert {"Рейтинг", "Группы", "Куда уходят баллы"} <= set(tabs)
    ranking = [d for d in at.dataframe if {"rank", "mean"} <= set(d.value.columns)]
    assert len(ranking) == 1
    config = json.loads(ranking[0].proto.columns)  # type: ignore[attr-defined]
    shown = {c.get("label") for c in config.values()}
    assert {"METEOR корпуса", "среднее оценок сегментов", "кластер"} <= shown
    labels = [b.proto.label for b in at.get("download_button")]  # type: ignore[attr-defined]
    assert {"Таблицы LaTeX", "Весь анализ (JSON)", "Отчёт HTML"} <= set(labels)
    assert any("Попарных сравнений: 6" in c.value for c in at.caption)


def test_buckets_by_a_label_column_of_the_upload(
    app_test: Callable[..., AppTest], upload: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload's doc_id column is offered as a bucketing: one bucket per document,
    every system, with meteor.report's numbers for labels={"doc_id": …}."""
    corpus = load_corpus([("wmt21.tsv", upload)], [])
    by_id = read_labels([("wmt21.tsv", upload)], "doc_id")
    want = meteor.report(corpus, preset=PRESET, labels={"doc_id": by_id})
    table = next(b for b in want.buckets if b.name == "label:doc_id")
    docs = set(by_id.values())
    assert 1 < len(docs) == len(table.labels)
    at = _app(app_test, upload, monkeypatch)
    assert "Label: doc_id" in at.selectbox(key="rp_bucketing").options
    at.selectbox(key="rp_bucketing").set_value("label:doc_id").run()
    assert not at.exception, at.exception
    shown = _frame(at, "system", "bucket")
    assert len(shown) == len(docs) * len(SYSTEMS) == len(table.rows)
    assert set(shown["bucket"]) == docs
    for k, b in enumerate(table.rows):
        got = shown.iloc[k]
        assert (got["system"], got["bucket"], int(got["count"])) == (b.system, b.label, b.count)
        for col, value in (("meteor", b.meteor), ("low", b.low), ("high", b.high),
                           ("precision", b.precision), ("recall", b.recall), ("frag", b.frag)):  # fmt: skip
            assert _same(float(got[col]), float("nan") if value is None else value), (b, col)
