"""Tune on shared data (WMT21 TED en→ru MQM, a subsample of segments: < 60 s): the tuned
scores equal scoring from scratch, folds keep talks whole, the search never ends below the base."""

from __future__ import annotations

import numpy as np
from conftest import shared_path

from meteor import Meteor
from meteor.analysis import tune as tn
from meteor.analysis.agreement import load_judged
from meteor.io.labels import read_groups


def test_tune_on_ted_mqm_subsample() -> None:
    path = shared_path("wmt21_ted_en-ru_mqm/seg_mqm.tsv")
    lines = path.read_text(encoding="utf-8").split("\n")
    head, rows = lines[0], [x for x in lines[1:] if x]
    # every 10th segment id: all 14 systems of 55 segments from all 6 talks
    keep = [r for r in rows if int(r.split("\t")[1]) % 10 == 0]
    data = ("\n".join([head, *keep]) + "\n").encode()
    judged = load_judged([("seg_mqm.tsv", data)], "human_score")
    labels = read_groups([("seg_mqm.tsv", data)], "doc", None)
    groups = [
        labels[f"{n}\t{s}"] for n, _ in judged.corpus.systems for s in judged.corpus.ids_of(n)
    ]
    assert len(set(groups)) == 6
    res = tn.tune(judged, preset="meteor-1.5-ru", objective="kendall_flat", folds=3,
                  groups=groups, n_bootstrap=50, rounds=2)  # fmt: skip
    assert res.value >= res.base_value
    talks = [set(f.groups) for f in res.folds]
    assert sum(len(t) for t in talks) == 6 and set.union(*talks) == set(groups)
    m = Meteor(params=res.params)
    fresh = [
        s.score
        for name, hyps in judged.corpus.systems
        for s in m.corpus_score(list(hyps), [list(r) for r in judged.corpus.refs_of(name)]).segments
    ]
    stats = tn.align_statistics(judged, res.params)
    seg = tn.segment_scores(stats, tn.Point.of([res.params], stats.hc.shape[2]))[0]
    np.testing.assert_allclose(seg, fresh, rtol=0, atol=1e-12)
