"""The Corpus page pairs segments by id (issue 13, HIGH 2): the real WMT21 DA file, whose
systems were judged on different segments (AFRL 858, Facebook-AI 900 of 1,000), is
accepted; each system is scored on its own ids and the paired test runs on the ids both
have, saying how many."""

from __future__ import annotations

import pytest
from conftest import SHARED_DATA, require_shared
from streamlit.testing.v1 import AppTest

from meteor import Meteor
from meteor.analysis.significance import paired_bootstrap
from meteor.io.read import load_corpus
from meteor.runners.parallel import score_corpus

PRESET = "meteor-1.5-paper2005"
SEG_DA = SHARED_DATA / "wmt21_ru-en_da" / "seg_da.tsv"


@pytest.fixture(scope="module")
def da_app() -> AppTest:
    data = require_shared(SEG_DA).read_bytes()
    at = AppTest.from_file("../../app.py", default_timeout=600)
    at.query_params["preset"] = PRESET
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("seg_da.tsv", data, "text/tab-separated-values")]
    ).run()
    assert not at.exception
    return at


@pytest.fixture(scope="module")
def expected() -> dict[str, object]:
    corpus = load_corpus([("seg_da.tsv", require_shared(SEG_DA).read_bytes())])
    m = Meteor(PRESET)
    out: dict[str, object] = {"corpus": corpus}
    for name in ("AFRL", "Facebook-AI"):
        out[name] = score_corpus(m, corpus.hyps(name), corpus.refs_of(name), workers=1)
    return out


def test_seg_da_is_accepted_and_each_system_scored_on_its_ids(da_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    at = da_app
    assert not at.error, [e.value for e in at.error]
    captions = [c.value for c in at.caption]
    assert any("1,000 segments · 11 system(s)" in c for c in captions)
    coverage = next(c for c in captions if "paired by their ids" in c)
    assert "AFRL 858 of 1,000" in coverage and "Facebook-AI 900 of 1,000" in coverage
    # 11 systems: the summary is one table row per system (not 22 score cards)
    (summary,) = [df.value.set_index("system") for df in at.dataframe if "score_ci" in df.value]
    assert len(summary) == 11
    for name in ("AFRL", "Facebook-AI"):
        res = expected[name]
        assert summary.loc[name, "score"] == f"{res.score:.4f}"  # type: ignore[attr-defined]
        assert summary.loc[name, "mean"] == f"{res.mean_segment_score:.4f}"  # type: ignore[attr-defined]
    # the segment table of AFRL lists its own 858 ids
    table = at.dataframe(key="corpus_table").value
    assert len(table) == 858
    assert list(table["seg_id"]) == list(expected["corpus"].ids_of("AFRL"))  # type: ignore[attr-defined]


def test_paired_test_on_common_ids(da_app: AppTest, expected) -> None:  # type: ignore[no-untyped-def]
    at = da_app
    corpus = expected["corpus"]
    a, b = expected["AFRL"], expected["Facebook-AI"]
    common = set(corpus.ids_of("AFRL")) & set(corpus.ids_of("Facebook-AI"))  # type: ignore[attr-defined]
    pb = paired_bootstrap(
        a,  # type: ignore[arg-type]
        b,  # type: ignore[arg-type]
        Meteor(PRESET).params,
        names=("AFRL", "Facebook-AI"),
        ids=(corpus.ids_of("AFRL"), corpus.ids_of("Facebook-AI")),  # type: ignore[attr-defined]
    )
    assert pb.n_segments == len(common) < 858
    captions = [c.value for c in at.caption]
    n = f"{len(common):,}"
    assert f"Paired on {n} common segments (AFRL: 858, Facebook-AI: 900)" in " ".join(captions)
    metrics = {m.label: m.value for m in at.metric}
    shown = metrics["Corpus METEOR difference B − A"].replace("−", "-")
    assert shown == f"{pb.corpus.difference:+.4f}"
    p_caps = [c for c in captions if "two-sided p" in c]
    assert len(p_caps) == 2
    d = pb.corpus.difference_interval
    low, high = (f"{x:+.4f}".replace("-", "−") for x in (d.low, d.high))
    assert any(f"95% CI [{low}, {high}]" in c for c in p_caps)
    # a row of B's largest wins opens both systems' alignments of that id
    at.session_state["corpus_wins_table"] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert not at.exception
    heads = [m.value for m in at.markdown if "(id " in m.value]
    top_ids = {h.rsplit("(id ", 1)[1].rstrip(")*") for h in heads}
    assert len(top_ids) >= 1 and top_ids <= common


def test_systems_without_common_ids_are_not_compared() -> None:
    rows = [
        ("A", "1", "the cat sat", "the cat sat on the mat"),
        ("A", "2", "a dog ran", "the dog ran away"),
        ("B", "3", "birds fly", "the birds fly south"),
        ("B", "4", "fish swim", "fish swim in the sea"),
    ]
    data = ("system\tseg_id\thyp\tref\n" + "".join("\t".join(r) + "\n" for r in rows)).encode()
    at = AppTest.from_file("../../app.py", default_timeout=240)
    at.query_params["preset"] = PRESET
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("disjoint.tsv", data, "text/tab-separated-values")]
    ).run()
    assert not at.exception and not at.error
    assert any("A and B have no segment id in common" in w.value for w in at.warning)
    metrics = {m.label: m.value for m in at.metric}
    m = Meteor(PRESET)
    assert metrics["B: corpus METEOR (summed statistics)"] == (
        f"{m.corpus_score(['birds fly', 'fish swim'], [r[3] for r in rows[2:]]).score:.4f}"
    )
    assert len(at.get("download_button")) >= 5  # the exports are still offered
