"""The corpus report (issue 35): buckets, significance, clusters, exports, CLI, shared data."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from _report_corpus import BAD, REFS
from conftest import shared_path

import meteor
from meteor.analysis.buckets import frequency_buckets, length_buckets, word_class_buckets
from meteor.analysis.corpus_report import build_report
from meteor.analysis.ranking import approximate_randomisation, rank_systems
from meteor.analysis.report_text import latex_escape, to_json, to_latex, to_markdown
from meteor.cli.command_line import main
from meteor.io.labels import read_labels
from meteor.io.read import load_corpus

PRESET = "meteor-1.5"
GOOD = [
    "the cat sat on the mat",
    "a dog ran in the park this morning",
    "we like green tea",
    "the weather is nice today and the sun shines over the old town and river",
    "he reads a long book about the city history in the evening",
    "birds sing",
    "she bought fresh bread and milk in the small shop by the station",
    "it rained all night",
]


@pytest.fixture(scope="module")
def scored() -> dict[str, meteor.CorpusResult]:
    m = meteor.Meteor(PRESET)
    return {"good": m.corpus_score(GOOD, REFS), "bad": m.corpus_score(BAD, REFS)}


def _ids(results: dict[str, meteor.CorpusResult]) -> dict[str, tuple[str, ...]]:
    return {n: tuple(str(k + 1) for k in range(len(r.segments))) for n, r in results.items()}


def test_length_bucket_meteor_is_corpus_score_of_exactly_its_segments(scored) -> None:
    params = meteor.Meteor(PRESET).params
    table = length_buckets(scored, params, edges=(5, 10), n_samples=50)
    assert table.labels == ("1–5", "6–10", "11+")
    for name, result in scored.items():
        lens = [s.stats.ref_len for s in result.segments]
        for label, keep in (
            ("1–5", [n <= 5 for n in lens]),
            ("6–10", [5 < n <= 10 for n in lens]),
            ("11+", [n > 10 for n in lens]),
        ):
            b = table.get(name, label)
            assert b is not None
            idx = [k for k, ok in enumerate(keep) if ok]
            assert b.count == len(idx) > 0
            hyps = [(GOOD if name == "good" else BAD)[k] for k in idx]
            expected = meteor.corpus_score(hyps, [REFS[k] for k in idx], PRESET)
            assert b.meteor == expected.score
            assert b.precision == expected.precision and b.recall == expected.recall
            assert b.frag == expected.frag
            assert b.low is not None and b.high is not None and b.low <= b.high
    assert sum(b.count for b in table.rows if b.system == "good") == len(REFS)


def test_word_buckets_count_every_reference_word(scored) -> None:
    params = meteor.Meteor(PRESET).params
    freq = frequency_buckets(scored, params)
    n_ref_words = sum(s.stats.ref_len for s in scored["bad"].segments)
    assert sum(b.count for b in freq.rows if b.system == "bad") == n_ref_words
    wc = word_class_buckets(scored, params)
    fn = wc.get("good", "function")
    ct = wc.get("good", "content")
    assert fn is not None and ct is not None
    st = scored["good"].stats
    assert fn.count == st.ref_function_words
    assert ct.count == st.ref_len - st.ref_function_words
    assert fn.recall == sum(st.ref_function_matches) / st.ref_function_words


def test_a_system_against_itself_is_never_significant(scored) -> None:
    params = meteor.Meteor(PRESET).params
    same = {"A": scored["good"], "A_copy": scored["good"]}
    rk = rank_systems(same, params, n_samples=100)
    (pair,) = rk.pairs
    assert pair.p_bootstrap == 1.0 and pair.p_randomisation == 1.0
    assert not pair.significant
    assert rk.clusters() == (("A", "A_copy"),)
    assert approximate_randomisation(scored["bad"].segments, scored["bad"].segments, params) == 1.0


def test_a_clear_difference_is_significant_and_splits_the_clusters(scored) -> None:
    params = meteor.Meteor(PRESET).params
    rk = rank_systems(scored, params, n_samples=200)
    (pair,) = rk.pairs
    assert (pair.a, pair.b) == ("good", "bad")
    assert pair.p_randomisation < 0.05 and pair.p_bootstrap < 0.05 and pair.significant
    assert rk.clusters() == (("good",), ("bad",))
    assert rk.comparisons == 1
    assert rk.systems[0].corpus.value == scored["good"].score
    assert rk.systems[0].mean_segment.value == pytest.approx(scored["good"].mean_segment_score)


def test_systems_on_different_segments_are_paired_on_common_ids(scored) -> None:
    m = meteor.Meteor(PRESET)
    part = m.corpus_score(BAD[2:], REFS[2:])
    results = {"good": scored["good"], "part": part}
    ids = {
        "good": tuple(str(k + 1) for k in range(8)),
        "part": tuple(str(k + 1) for k in range(2, 8)),
    }
    rep = build_report(results, m.params, ids=ids, n_samples=50)
    (pair,) = rep.ranking.pairs
    assert pair.common == 6
    assert rep.ranking.paired_on_common_ids
    assert any("different segments" in n for n in rep.notes)
    assert rep.versus is not None and rep.versus.common == 6


SPECIAL = "sys_1 & 50% #2 $x {y} ~z ^w \\v"


def _report(scored, names=("good", SPECIAL)) -> meteor.analysis.corpus_report.CorpusReport:  # type: ignore[name-defined]
    results = {names[0]: scored["good"], names[1]: scored["bad"]}
    return build_report(results, meteor.Meteor(PRESET).params, ids=_ids(results), n_samples=50)


def test_latex_balanced_environments_and_escaped_system_names(scored) -> None:
    tex = to_latex(_report(scored))
    begins = re.findall(r"\\begin\{(\w+)\}", tex)
    ends = re.findall(r"\\end\{(\w+)\}", tex)
    assert sorted(begins) == sorted(ends) and "tabular" in begins
    stack: list[str] = []
    for m in re.finditer(r"\\(begin|end)\{(\w+)\}", tex):
        if m.group(1) == "begin":
            stack.append(m.group(2))
        else:
            assert stack.pop() == m.group(2)
    assert not stack
    assert latex_escape(SPECIAL) in tex
    assert SPECIAL not in tex
    assert latex_escape(SPECIAL) == (
        r"sys\_1 \& 50\% \#2 \$x \{y\} \textasciitilde{}z \textasciicircum{}w \textbackslash{}v"
    )
    body = re.sub(r"\\[a-zA-Z]+|\\[&%#$_{}]", "", tex)
    assert body.count("{") == body.count("}")  # braces balance once escapes are removed
    assert r"\toprule" in tex and r"\footnotetext{meteor\textbar{}" in tex
    assert "–" not in tex and "≥" not in tex  # ASCII ranges only


def test_markdown_and_json_exports(scored) -> None:
    rep = _report(scored, ("good", "a|b"))
    md = to_markdown(rep)
    assert "a\\|b" in md and "| a|b |" not in md
    assert rep.signature in md
    data = json.loads(to_json(rep))
    assert data["ranking"]["comparisons"] == 1
    assert data["ranking"]["systems"][0]["system"] == "good"
    assert "NaN" not in to_json(rep)
    assert data["data"]["systems"] == [
        {"system": "good", "segments": 8},
        {"system": "a|b", "segments": 8},
    ]


def test_read_labels_by_segment_id() -> None:
    tsv = b"system\tseg_id\thyp\tref\tdoc\nA\t1\tx\ty\td1\nA\t2\tx\ty\td2\nB\t1\tx\ty\td1\n"
    assert read_labels([("in.tsv", tsv)], "doc") == {"1": "d1", "2": "d2"}
    bad = tsv + b"B\t2\tx\ty\tOTHER\n"
    with pytest.raises(meteor.InputError, match="segment '2' has doc 'OTHER'"):
        read_labels([("in.tsv", bad)], "doc")
    with pytest.raises(meteor.InputError, match="no input table has a column 'genre'"):
        read_labels([("in.tsv", tsv)], "genre")


def _tsv(tmp_path: Path) -> Path:
    rows = ["system\tseg_id\thyp\tref\tdomain"]
    for name, hyps in (("good_sys", GOOD), ("bad&sys", BAD)):
        for k, (h, r) in enumerate(zip(hyps, REFS, strict=True), start=1):
            rows.append(f"{name}\t{k}\t{h}\t{r}\t{'news' if k % 2 else 'chat'}")
    path = tmp_path / "all.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_cli_report_end_to_end(tmp_path: Path, capsys) -> None:
    src = _tsv(tmp_path)
    out = tmp_path / "rep"
    code = main(["report", "--hyp", str(src), "--out", str(out), "--bootstrap", "50",
                 "--label", "domain", "--length-edges", "5,10"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    assert "meteor report: score good_sys" in err and "wrote" in err
    names = sorted(p.name for p in out.iterdir())
    assert names == ["report.html", "report.json", "report.md", "report.tex"]
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [s["system"] for s in data["ranking"]["systems"]] == ["good_sys", "bad&sys"]
    assert data["data"]["sources"] == ["all.tsv"]
    tables = {b["name"]: b for b in data["buckets"]}
    assert tables["label:domain"]["buckets"] == ["news", "chat"]
    assert tables["ref_length"]["buckets"] == ["1–5", "6–10", "11+"]
    ref = meteor.corpus_score(GOOD, REFS, PRESET).score
    assert data["ranking"]["systems"][0]["corpus_meteor"]["value"] == ref
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "bad&amp;sys" in html and "bad&sys<" not in html


def test_cli_report_bad_input_one_line_and_nothing_written(tmp_path: Path, capsys) -> None:
    src = _tsv(tmp_path)
    out = tmp_path / "rep"
    assert main(["report", "--hyp", str(src), "--out", str(out), "--format", "docx"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--format: unknown format docx" in err
    assert main(["report", "--hyp", str(src), "--out", str(out), "--label", "genre",
                 "--bootstrap", "50"]) == 2  # fmt: skip
    assert "no input table has a column 'genre'" in capsys.readouterr().err
    assert not out.exists()
    assert main(["report", "--hyp", str(src), "--out", str(src)]) == 2
    assert "is a file" in capsys.readouterr().err
    assert src.read_text(encoding="utf-8").startswith("system\tseg_id")


def test_a_segment_with_no_match_is_reported_not_an_error() -> None:
    rep = meteor.report({"g": GOOD, "none": ["zzz"] * len(REFS)}, REFS, PRESET, n_samples=50)
    loss = next(x for x in rep.losses if x.system == "none")
    assert sum(loss.frag_histogram) == 0  # fragmentation undefined: in no bin
    assert sum(next(x for x in rep.losses if x.system == "g").frag_histogram) == len(REFS)


def test_public_api_report_takes_a_mapping() -> None:
    rep = meteor.report({"g": GOOD, "b": BAD}, REFS, PRESET, n_samples=50)
    assert rep.systems == ("g", "b")
    assert rep.to_dict()["data"]["segments"] == len(REFS)


def test_report_on_wmt21_ru_en_eleven_systems() -> None:
    """Parity-level: the shared WMT21 ru-en outputs (11 systems), 120 segments each."""
    path = shared_path("wmt21_ru-en_da/all_outputs.tsv")
    lines = path.read_text(encoding="utf-8").split("\n")
    head, rows = lines[0], [ln for ln in lines[1:] if ln and int(ln.split("\t")[1]) <= 120]
    data = ("\n".join([head, *rows]) + "\n").encode()
    corpus = load_corpus([("all_outputs.tsv", data)])
    labels = {"doc_id": read_labels([("all_outputs.tsv", data)], "doc_id")}
    rep = meteor.report(corpus, preset=PRESET, n_samples=100, labels=labels)
    assert len(rep.systems) == 11
    assert rep.ranking.comparisons == 55
    m = meteor.Meteor(PRESET)
    for row in rep.ranking.systems[:3]:
        k = corpus.system_names.index(row.name)
        assert row.corpus.value == m.corpus_score(list(corpus.hyps(k)), list(corpus.refs)).score
    scores = [r.corpus.value for r in rep.ranking.systems]
    assert scores == sorted(scores, reverse=True)
    for pair in rep.ranking.pairs:  # ranking order: the higher system first
        assert scores[rep.systems.index(pair.a)] >= scores[rep.systems.index(pair.b)]
    doc = next(t for t in rep.buckets if t.name == "label:doc_id")
    assert sum(b.count for b in doc.rows if b.system == rep.systems[0]) == 120
    assert not math.isnan(rep.losses[0].stage_matches[0][2])


def test_twenty_four_systems_are_ranked_tested_pairwise_and_clustered() -> None:
    """The issue's "N systems (at least 20)": 24 systems, each the references with a growing
    share of their words replaced, so the true order is known; every pair is tested
    (276 comparisons), the clusters cover every system once in ranking order, and the
    LaTeX table has one row per system."""
    import random

    rng = random.Random(5)
    vocab = [f"w{k}" for k in range(300)]
    refs = [" ".join(rng.choice(vocab) for _ in range(rng.randint(8, 20))) for _ in range(40)]

    def damaged(share: float, seed: int) -> list[str]:
        r = random.Random(seed)
        return [" ".join(w if r.random() >= share else "zz" for w in ref.split()) for ref in refs]

    systems = {f"sys_{k:02d}": damaged(k / 30, k) for k in range(24)}
    rep = meteor.report(systems, refs, "nltk", n_samples=100)
    rows = rep.ranking.systems
    assert len(rows) == 24 and rep.ranking.comparisons == 24 * 23 // 2
    assert len(rep.ranking.pairs) == 276
    scores = [r.corpus.value for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert rows[0].name == "sys_00" and rows[-1].name == "sys_23"
    clusters = rep.ranking.clusters()
    flat = [name for c in clusters for name in c]
    assert flat == [r.name for r in rows]  # every system once, in ranking order
    assert 1 < len(clusters) < 24  # neighbours a few words apart are not told apart
    latex = to_latex(rep)
    assert all(f"sys\\_{k:02d}" in latex for k in range(24))


#: 2 systems × 6 segments of WMT22 en→de (tests/data/README.md): ids 1 2 3 25 30 43, with
#: the #PRS_ORG# placeholders and NBSPs of the test set.
WMT22_SLICE = Path(__file__).resolve().parents[1] / "data" / "wmt22_en-de_slice.tsv"


def test_cli_report_takes_the_language_wmt22_en_de(tmp_path: Path, capsys) -> None:
    """``meteor report --lang de`` scores German with meteor-1.5-de (as ``meteor score -l de``);
    without it there was no way to name the language but the preset."""
    out = tmp_path / "rep"
    code = main(["report", "--hyp", str(WMT22_SLICE), "--lang", "de", "--out", str(out),
                 "--bootstrap", "40", "--format", "json,latex,md"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert "lang:de" in data["signature"] and data["preset"] == "meteor-1.5-de"
    corpus = load_corpus([(WMT22_SLICE.name, WMT22_SLICE.read_bytes())], [])
    m = meteor.Meteor("meteor-1.5-de")
    scores = {s["system"]: s["corpus_meteor"]["value"] for s in data["ranking"]["systems"]}
    assert set(scores) == {"JDExploreAcademy", "Lan-Bridge"}
    for name, hyps in corpus.systems:
        assert scores[name] == m.corpus_score(list(hyps), list(corpus.refs_of(name))).score
    tex = (out / "report.tex").read_text(encoding="utf-8")
    assert tex.count("\\begin{") == tex.count("\\end{")
    assert re.search(r"(?<!\\)#", tex) is None  # '#PRS_ORG#' escaped wherever it shows
