"""Human error spans beside the alignment (meteor.analysis.spans): every count recomputed
from the definitions by a few lines of independent code, on the golden subset."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from meteor.analysis.spans import count_spans, label_tokens, segment_spans
from meteor.analysis.spans_table import compare_settings, setting_table, span_report
from meteor.io.read import load_corpus
from meteor.io.spans import Annotation, ErrorSpan, hypotheses_of, read_spans
from meteor.metric import Meteor

DATA = Path(__file__).parent.parent / "data" / "spans"
CASES = [("en-de", "meteor-1.5-de"), ("zh-en", "meteor-1.5"), ("zh-en", "nltk")]


def independent_counts(lp: str, preset: str) -> tuple[Counter[str], list[float]]:
    """The definitions, straight from the files and the records' JSON form."""
    rows = (DATA / f"{lp}.segments.tsv").read_text(encoding="utf-8").splitlines()
    head = rows[0].split("\t")
    segs = [dict(zip(head, r.split("\t"), strict=True)) for r in rows[1:]]
    errors: dict[tuple[str, str], list[tuple[int, int, str, str]]] = {}
    mqm = (DATA / f"{lp}.mqm.tsv").read_text(encoding="utf-8").splitlines()
    mh = mqm[0].split("\t")
    for line in mqm[1:]:
        r = dict(zip(mh, line.split("\t"), strict=True))
        t = r["target"]
        if r["severity"].lower() in ("minor", "major", "critical") and "<v>" in t:
            a, b = t.index("<v>"), t.index("</v>") - 3
            errors.setdefault((r["system"], r["seg_id"]), []).append(
                (a, b, r["severity"].capitalize(), r["category"])
            )
    m = Meteor(preset)
    c: Counter[str] = Counter()
    scores = []
    for s in segs:
        d = m.score(s["hyp"], s["ref"]).to_dict()
        scores.append(d["score"])
        covered = {i for al in d["alignment"] for i in range(*al["hyp_span"])}
        chunk_of = {i: k for k, ch in enumerate(d["chunk_spans"]) for i in range(*ch["hyp_span"])}
        es = errors.get((s["system"], s["seg_id"]), [])
        is_err = [any(ts < e[1] and e[0] < te for e in es) for ts, te in d["hyp_offsets"]]
        for i in range(len(is_err) - 1):
            if i in chunk_of and i + 1 in chunk_of:
                brk, bnd = chunk_of[i] != chunk_of[i + 1], is_err[i] != is_err[i + 1]
                c["positions"] += 1
                c["breaks"] += brk
                c["bounds"] += bnd
                c["both"] += brk and bnd
        for i, (ts, te) in enumerate(d["hyp_offsets"]):
            over = [
                e for e in errors.get((s["system"], s["seg_id"]), []) if ts < e[1] and e[0] < te
            ]
            flagged = i not in covered
            c["flagged"] += flagged
            if not over:
                c["flagged_ok"] += flagged
                continue
            keys = ["all", max((e[2] for e in over), key=["Minor", "Major", "Critical"].index)]
            keys += sorted({e[3] for e in over})
            for k in keys:
                c[f"err:{k}"] += 1
                c[f"tp:{k}"] += flagged
    return c, scores


@pytest.mark.parametrize(("lp", "preset"), CASES)
def test_every_count_matches_the_definitions(lp: str, preset: str) -> None:
    expected, scores = independent_counts(lp, preset)
    corpus = load_corpus([("s.tsv", (DATA / f"{lp}.segments.tsv").read_bytes())])
    spans = read_spans([("m.tsv", (DATA / f"{lp}.mqm.tsv").read_bytes())], corpus)
    refs = {(n, i): r for n, _ in corpus.systems for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)}  # fmt: skip
    report = span_report(
        spans, [refs[a.system, a.seg_id] for a in spans.annotations], [(preset, Meteor(preset))],
        n_samples=200,
    )  # fmt: skip
    (table,) = report.settings
    o = table.overall
    assert (o.error_tokens, o.flagged, o.flagged_errors) == (
        expected["err:all"], expected["flagged"], expected["tp:all"]
    )  # fmt: skip
    assert o.precision.value == pytest.approx(expected["tp:all"] / expected["flagged"])
    assert o.recall.value == pytest.approx(expected["tp:all"] / expected["err:all"])
    for row in table.rows[1:]:
        key = row.name.split(":", 1)[1]
        assert (row.error_tokens, row.flagged_errors) == (
            expected[f"err:{key}"],
            expected[f"tp:{key}"],
        )
        assert row.flagged == expected[f"tp:{key}"] + expected["flagged_ok"]
        if row.error_tokens:
            assert row.recall.value == pytest.approx(expected[f"tp:{key}"] / row.error_tokens)
    assert table.breaks == tuple(expected[k] for k in ("positions", "breaks", "bounds", "both"))
    assert expected["breaks"] > 0 and expected["bounds"] > 0
    assert expected["err:all"] > 10 and 0 < o.flagged_errors < o.flagged
    assert o.f1.low <= o.f1.value <= o.f1.high
    d = table.to_dict()
    assert d["error_tokens"] == o.error_tokens and d["preset"] == preset
    assert sum(r["error_tokens"] for r in d["by_severity"]) == o.error_tokens


HYP = "Das ist ein kleiner Test ."


def ann(*spans: ErrorSpan, raters: tuple[str, ...] = ("a", "b", "c")) -> Annotation:
    return Annotation("s", "1", HYP, raters, spans, ())


def test_rater_rules_union_and_majority() -> None:
    r = Meteor("meteor-1.5-de").score(HYP, "Das ist ein großer Test .")
    a = ann(
        ErrorSpan(8, 11, "Minor", "X", "a"),  # "ein": one rater of three
        ErrorSpan(12, 19, "Major", "Y", "a"),  # "kleiner": two raters
        ErrorSpan(13, 15, "Critical", "Z", "b"),
        ErrorSpan(0, 3, "Neutral", "N", "a"),  # no error
    )
    union = label_tokens(r, a, "union")
    major = label_tokens(r, a, "majority")
    assert [t.error for t in union] == [False, False, True, True, False, False]
    assert [t.error for t in major] == [False, False, False, True, False, False]
    assert union[3].severity == "Critical" and union[3].categories == ("Y", "Z")
    assert union[3].raters == 2 and union[3].stage is None and union[3].cell == "unmatched_error"
    assert union[2].stage == "exact" and union[2].cell == "matched_error"


def test_cell_cost_is_the_score_without_those_tokens() -> None:
    m = Meteor("meteor-1.5-de")
    r = m.score(HYP, "Das ist ein Test .")
    seg = segment_spans(r, ann(ErrorSpan(12, 19, "Major", "Y", "a")), m.params)
    assert seg.counts == {
        "unmatched_error": 1,
        "unmatched_ok": 0,
        "matched_error": 0,
        "matched_ok": 5,
    }
    # the hypothesis one content word shorter, nothing else changed: P' = P·L/(L − δ)
    d, alpha = m.params.delta, m.params.alpha
    f = sum(t.function_word for t in r.alignment.hyp)
    length = d * (len(r.alignment.hyp) - f) + (1 - d) * f
    p2 = r.precision * length / (length - d)
    fmean = p2 * r.recall / (alpha * p2 + (1 - alpha) * r.recall)
    assert seg.cost["unmatched_error"] == pytest.approx(fmean * (1 - r.penalty) - r.score)
    assert seg.cost["unmatched_error"] > 0
    assert seg.cost["matched_ok"] == 0.0 and seg.disagreement == 0


def test_paired_comparison_of_a_setting_with_itself_and_with_another() -> None:
    corpus = load_corpus([("s.tsv", (DATA / "zh-en.segments.tsv").read_bytes())])
    spans = read_spans([("m.tsv", (DATA / "zh-en.mqm.tsv").read_bytes())], corpus)
    hyps = hypotheses_of(corpus)
    assert all(hyps[a.system, a.seg_id] == a.hyp for a in spans.annotations)
    refs = {(n, i): r for n, _ in corpus.systems for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)}  # fmt: skip
    recs = {
        p: Meteor(p)
        .corpus_score(
            [a.hyp for a in spans.annotations],
            [refs[a.system, a.seg_id] for a in spans.annotations],
        )
        .segments
        for p in ("meteor-1.5", "nltk")
    }
    a = count_spans(recs["meteor-1.5"], spans.annotations)
    b = count_spans(recs["nltk"], spans.annotations)
    same = compare_settings(a, a, n_samples=200)
    assert same.difference == 0 and same.p_value == 1.0
    diff = compare_settings(a, b, n_samples=200)
    ta = setting_table("a", "", a, n_samples=200)
    tb = setting_table("b", "", b, n_samples=200)
    assert diff.difference == pytest.approx(tb.overall.f1.value - ta.overall.f1.value)
    assert diff.a.value == ta.overall.f1.value and 0 <= diff.p_value <= 1
    assert not math.isnan(diff.difference_interval.low)


def test_resamples_are_meteors_bootstrap_draws() -> None:
    import numpy as np

    from meteor.analysis.significance import ci_bounds, resample_indices
    from meteor.analysis.spans import SpanCounts

    rng = np.random.default_rng(1)
    mat = rng.integers(0, 6, size=(9, 3)).astype(np.float64)  # flagged_ok, errors, flagged errors
    mat[:, 2] = np.minimum(mat[:, 1], mat[:, 2])
    table = setting_table("x", "", SpanCounts(("all",), mat, 99, 0), n_samples=130, seed=99)
    sums = np.stack([mat[row].sum(axis=0) for row in resample_indices(9, 130, 99)])
    f1 = 2 * sums[:, 2] / (sums[:, 1] + sums[:, 2] + sums[:, 0])
    assert (table.overall.f1.low, table.overall.f1.high) == pytest.approx(ci_bounds(f1))
    assert table.overall.f1.mean == pytest.approx(f1.mean())


@pytest.mark.parametrize("preset", ["meteor-1.5-ru", "seed-ru"])
def test_russian_spans_by_character_offsets(preset: str) -> None:
    hyp = "Быстрая «коричневая» лиса прыгнула на грустную собаку."
    ref = "Стремительная рыжая лисичка скакнула на унылую собачку."
    start = hyp.index("грустную")
    ann = Annotation("s", "1", hyp, ("a",), (ErrorSpan(start, start + 8, "Major", "X", "a"),), ())
    r = Meteor(preset).score(hyp, ref)
    labels = label_tokens(r, ann)
    (err,) = [t for t in labels if t.error]
    assert hyp[err.start : err.end] == "грустную" and err.severity == "Major"
    assert sum(t.flagged for t in labels) == len(r.alignment.hyp) - sum(
        len(m.hyp) for m in r.alignment.matches
    )
