"""meteor.tune (issue 34, Tune): the search on statistics, folds, preset files, the CLI."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from meteor import Meteor, ParamError, Params
from meteor.analysis import agreement_stats as st
from meteor.analysis import tune as tn
from meteor.analysis.agreement import Judged, judged_rows
from meteor.cli.command_line import main
from meteor.io.read import Corpus
from meteor.presets import load_preset_file
from meteor.types import Module, Stats

EX, ST = Module.EXACT, Module.STEM
BASE = Params(lang="en", modules=(EX, ST), weights={"exact": 1.0, "stem": 0.6})

HYPS = {
    "A": ["the cat sat on the mat", "a quick brown fox jumped", "he was running home fast",
          "they play in gardens", "it rains today again", "birds are singing loudly"],
    "B": ["a cat is on a mat", "the fast fox jumps", "running home he was",
          "they played in the garden", "today it is raining", "the bird sings loud"],
    "C": ["cat mat", "brown fox quick jumps over", "he ran to his home quickly",
          "children play garden", "rain again today it", "birds singing"],
}  # fmt: skip
REFS = [
    ("the cat sat on the mat", "a cat was sitting on the mat"),
    ("the quick brown fox jumps", "a fast brown fox jumped"),
    ("he was running home quickly", "he ran home fast"),
    ("they play in the gardens", "children play in a garden"),
    ("it is raining again today", "today it rains again"),
    ("the birds are singing loudly", "birds sing loudly"),
]
HUMAN = {
    "A": [90, 70, 60, 55, 50, 80],
    "B": [60, 50, 40, 65, 45, 35],
    "C": [20, 45, 50, 30, 40, 25],
}


def _judged(n_refs: int = 1) -> Judged:
    refs = tuple(r[:n_refs] for r in REFS)
    corpus = Corpus(
        tuple((k, tuple(v)) for k, v in HYPS.items()), refs, tuple(map(str, range(1, 7)))
    )
    return Judged(corpus, {k: [float(x) for x in v] for k, v in HUMAN.items()}, "human")


def _stats(h: int, r: int, m: int) -> Stats:
    z = (0,) * 5
    return Stats(h, r, 0, 0, (m, *z), (m, *z), (0,) * 6, (0,) * 6, 1, m, m)


def test_which_parameters_change_the_alignment() -> None:
    """α β γ δ and the weights never change an alignment (the beam search uses fixed
    weights); every other field may, and is listed as such."""
    init = {f.name for f in dataclasses.fields(Params) if f.init}
    assert set(tn.STATS_ONLY) | set(tn.ALIGNMENT_FIELDS) == init
    assert not set(tn.STATS_ONLY) & set(tn.ALIGNMENT_FIELDS)
    hyp, ref = "the cats were running quickly home", "a cat runs home quick"
    a = Meteor(params=BASE).score(hyp, ref).alignment.matches
    assert any(m.module is ST for m in a)  # a weighted, non-exact match is in play
    other = BASE.replace(alpha=0.3, beta=3.0, gamma=0.1, delta=0.95,
                         weights={"exact": 0.2, "stem": 1.0})  # fmt: skip
    assert Meteor(params=other).score(hyp, ref).alignment.matches == a


def test_hand_case_best_alpha_is_known() -> None:
    """Human = recall exactly: Fmean → R as α → 1 and γ = 0 removes the penalty, so the
    search must end at α = 1, γ = 0 with Pearson r = 1 (the only point where score = R)."""
    rows = [(10, 5, 4), (4, 10, 3), (6, 6, 5), (12, 8, 2), (3, 9, 3), (8, 4, 1), (9, 5, 4)]
    stats = tn.StatArrays.build([[_stats(*x) for x in rows]], 6)
    human = np.array([m / r for _, r, m in rows])
    precision = np.array([m / h for h, _, m in rows])
    assert st.kendall_b(human, precision) < 0.9  # precision alone would not do
    items = np.arange(len(rows))
    sysn = np.zeros(len(rows), dtype=np.int64)
    r = tn.Rows.build(human, human, items, sysn, 1, 25.0)
    p0 = Params(lang="en", modules=(EX,), weights={"exact": 1.0}, alpha=0.5, gamma=0.5)
    space = tn._Space(p0, stats, 6, True, False)
    best, value, tried = tn.search(space, r, "pearson_flat")
    assert best.alpha == 1.0 and best.gamma == 0.0
    assert value == pytest.approx(1.0, abs=1e-12)
    assert tried > 600


@pytest.mark.parametrize("n_refs", [1, 2])
def test_tuned_scores_equal_scoring_from_scratch(n_refs: int) -> None:
    judged = _judged(n_refs)
    result = tn.tune(judged, params=BASE, objective="pearson_flat", rounds=2)
    tuned = result.params
    assert tuned != BASE  # the search moved
    stats = tn.align_statistics(judged, BASE)
    human, darr, items, systems = judged_rows(judged)
    pts = tn.Point.of([tuned], stats.hc.shape[2])
    seg = tn.segment_scores(stats, pts)[0]
    sysv = tn.system_scores(stats, pts, systems, 3)[0]
    m = Meteor(params=tuned)
    fresh: list[float] = []
    fresh_sys: list[float] = []
    for name, hyps in judged.corpus.systems:
        res = m.corpus_score(list(hyps), [list(r) for r in judged.corpus.refs_of(name)])
        fresh.extend(s.score for s in res.segments)
        fresh_sys.append(res.score)
    np.testing.assert_allclose(seg, fresh, rtol=0, atol=1e-12)
    np.testing.assert_allclose(sysv, fresh_sys, rtol=0, atol=1e-12)
    data = st.SegmentData.build(human, items, darr)
    assert result.value == pytest.approx(
        st.segment_measure("pearson_flat", data, np.array(fresh)), abs=1e-12
    )


def test_fast_objectives_equal_correlate_measures() -> None:
    rng = np.random.default_rng(1)
    n_sys, n_items = 4, 30
    human = rng.normal(size=n_sys * n_items) * 30
    items = np.tile(np.arange(n_items), n_sys)
    systems = np.repeat(np.arange(n_sys), n_items)
    seg = np.round(rng.random((3, len(human))), 2)  # ties included
    r = tn.Rows.build(human, human, items, systems, n_sys, 25.0)
    data = st.SegmentData.build(human, items, human, 25.0)
    for key in st.MEASURES:
        got = tn.objective_values(key, r, seg)
        want = [st.segment_measure(key, data, s) for s in seg]
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=key)
    sys_s = rng.random((3, n_sys))
    sys_h = np.array([human[systems == k].mean() for k in range(n_sys)])
    got = tn.objective_values("system_kendall", r, seg, sys_s)
    np.testing.assert_allclose(got, [st.kendall_b(sys_h, s) for s in sys_s], atol=1e-12)
    got = tn.objective_values("system_pearson", r, seg, sys_s)
    np.testing.assert_allclose(got, [st.pearson(sys_h, s) for s in sys_s], atol=1e-12)


def test_group_folds_never_split_a_group() -> None:
    rng = np.random.default_rng(0)
    labels = [f"doc{int(x)}" for x in rng.integers(0, 13, size=500)]
    folds = tn.group_folds(labels, 5)
    assert sorted(np.concatenate(folds).tolist()) == list(range(500))
    owner: dict[str, int] = {}
    for f, rows in enumerate(folds):
        for i in rows:
            assert owner.setdefault(labels[i], f) == f
    with pytest.raises(tn.InputError, match="at least 5 groups"):
        tn.group_folds(labels[:3], 5)


def test_cross_validation_holds_out_whole_groups() -> None:
    judged = _judged()
    res = tn.tune(judged, params=BASE, folds=3, groups="system", rounds=1, n_bootstrap=50)
    assert len(res.folds) == 3
    assert sorted(g for f in res.folds for g in f.groups) == ["A", "B", "C"]
    for f in res.folds:
        assert f.n_rows == 6 and f.chrf is not None
        assert math.isfinite(f.base.value) or math.isnan(f.base.value)
    json.dumps(res.to_dict(), allow_nan=False)


def test_preset_file_round_trip_and_signature(tmp_path: Path) -> None:
    res = tn.tune(_judged(), params=BASE, rounds=1, data_name="toy.tsv", data_sha256="ab" * 32)
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps(res.preset_document("mine")), encoding="utf-8")
    preset = load_preset_file(path)
    assert preset.params == res.params
    m = Meteor(preset_file=path)
    sig = m.score("the cat", "a cat").signature
    assert "preset:mine@" in sig and "tuned-on:toy.tsv" in sig
    assert m.params == res.params
    with pytest.raises(ParamError, match="not both"):
        Meteor("meteor-1.5", preset_file=path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["params"].update(alpha=2.0), r"field 'params': alpha must be in \[0.0, 1.0\]"),
        (lambda d: d.pop("name"), "field 'name'"),
        (lambda d: d.update(format="x"), "field 'format'"),
        (lambda d: d.update(extra=1), "unknown field"),
        (lambda d: d["tuned_on"].pop("data"), "field 'tuned_on.data'"),
    ],
)
def test_preset_file_bad_field_is_named(tmp_path: Path, change, message) -> None:  # type: ignore[no-untyped-def]
    doc = tn.TuneResult(
        "kendall_flat", "custom", BASE, BASE, 0.1, 0.1, 1, 0.0, 0.0, 3, "toy", "", "h", True, None
    ).preset_document()
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ParamError, match=message):
        load_preset_file(path)


def _tsv(tmp_path: Path) -> Path:
    lines = ["system\tseg_id\thyp\tref\thuman_score\tdoc"]
    for name, hyps in HYPS.items():
        for k, h in enumerate(hyps):
            lines.append(f"{name}\t{k + 1}\t{h}\t{REFS[k][0]}\t{HUMAN[name][k]}\td{k // 2}")
    p = tmp_path / "data.tsv"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def test_cli_tune_writes_a_preset_file_score_reads(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = _tsv(tmp_path)
    out = tmp_path / "tuned.json"
    rc = main(["tune", "--hyp", str(data), "--human-column", "human_score", "--preset",
               "meteor-1.5-de", "--lang", "de", "--objective", "pearson", "--folds", "3",
               "--group-by", "doc", "--bootstrap", "20", "--out", str(out), "--workers", "1"])  # fmt: skip
    text = capsys.readouterr()
    assert rc == 0, text.err
    assert "cross-validation: 3 folds" in text.out
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["tuned_on"]["data"] == "data.tsv"
    rc = main(["score", "--hyp", str(data), "--preset-file", str(out), "--lang", "de"])
    text = capsys.readouterr()
    assert rc == 0, text.err
    rc = main(["tune", "--hyp", str(data), "--human-column", "human_score", "--folds", "2",
               "--group-by", "nope", "--preset", "meteor-1.5-de"])  # fmt: skip
    err = capsys.readouterr().err
    assert rc == 2 and "no column 'nope'" in err and len(err.strip().splitlines()) == 1
    rc = main(["tune", "--hyp", str(data), "--human-column", "human_score", "--out", str(data)])
    err = capsys.readouterr().err
    assert rc == 2 and data.read_text(encoding="utf-8").startswith("system\tseg_id")


def _random_case(n_refs: int, n: int = 40) -> tuple[tn.StatArrays, tn.Point, np.ndarray]:
    rng = np.random.default_rng(7)
    per_ref = []
    for _ in range(n_refs):
        col = []
        for _ in range(n):
            h, r = int(rng.integers(3, 12)), int(rng.integers(3, 12))
            m = int(rng.integers(0, min(h, r) + 1))
            col.append(_stats(h, r, m))
        per_ref.append(col)
    stats = tn.StatArrays.build(per_ref, 6)
    k = 2 * tn.CHUNK + 5  # more points than one chunk
    w = np.zeros((k, 6))
    w[:, 0] = rng.random(k)
    pts = tn.Point(rng.random(k), rng.random(k) * 3, rng.random(k), rng.random(k), w)
    return stats, pts, np.repeat(np.arange(4), n // 4)


@pytest.mark.parametrize("n_refs", [1, 2])
def test_many_points_at_once_equal_one_point_at_a_time(n_refs: int) -> None:
    """Scoring a block of points (several chunks) gives each point's own scores."""
    stats, pts, systems = _random_case(n_refs)
    seg = tn.segment_scores(stats, pts)
    sysv = tn.system_scores(stats, pts, systems, 4)
    for k in range(len(pts)):
        one = pts.take(slice(k, k + 1))
        np.testing.assert_array_equal(seg[k], tn.segment_scores(stats, one)[0])
        np.testing.assert_allclose(sysv[k], tn.system_scores(stats, one, systems, 4)[0],
                                   rtol=0, atol=1e-12)  # fmt: skip


def test_kendall_search_measures_only_the_screened_points_exactly(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Flattened Kendall (scipy, per point) is measured on the best 1 in 16 by Pearson
    only; those values are exact, the others are left out."""
    stats, pts, systems = _random_case(1)
    rng = np.random.default_rng(3)
    human = rng.normal(size=stats.n_rows)
    rows = tn.Rows.build(human, human, np.arange(stats.n_rows) % 10, systems, 4, 25.0)
    calls = []
    real = st.kendall_b

    def counted(x, y):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(x, y)

    monkeypatch.setattr(st, "kendall_b", counted)
    monkeypatch.setitem(st._FLAT, "kendall_flat", counted)
    big = tn.Point(*(np.tile(getattr(pts, f), (5,) + (1,) * (getattr(pts, f).ndim - 1))
                     for f in ("alpha", "beta", "gamma", "delta", "weights")))  # fmt: skip
    vals = tn.evaluate_points(stats, rows, "kendall_flat", big)
    assert len(calls) == tn.screen_size(len(big)) < len(big) // 10
    exact = np.isfinite(vals)
    assert exact.sum() == len(calls)
    seg = tn.segment_scores(stats, big)
    pearson = tn.objective_values("pearson_flat", rows, seg)
    assert pearson[exact].min() >= pearson[~exact].max()  # the screen kept the best
    for k in np.flatnonzero(exact):
        assert vals[k] == pytest.approx(real(human, seg[k]), abs=1e-12)
