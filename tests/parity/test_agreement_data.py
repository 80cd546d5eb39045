"""Agreement with people on WMT21 ru-en DA (shared data): meteor-1.5 agrees positively, and
every number of :func:`meteor.correlate` equals a recomputation with ``meteor.corpus_score``
and scipy.  A sample of the first 100 source segments (all systems: about 980 rows)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from conftest import shared_path

import meteor
from meteor.analysis.agreement import load_judged

N_ITEMS = 100


def _sample() -> bytes:
    lines = shared_path("wmt21_ru-en_da/seg_da.tsv").read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    seg = header.index("seg_id")
    keep = [ln for ln in lines[1:] if ln and int(ln.split("\t")[seg]) <= N_ITEMS]
    return ("\n".join([lines[0], *keep]) + "\n").encode()


def test_meteor15_agreement_equals_a_recomputation() -> None:
    data = _sample()
    judged = load_judged([("seg_da.tsv", data)], "human_score", darr_column="human_raw")
    a = meteor.correlate(judged, presets=("meteor-1.5",), n_bootstrap=50, n_permutations=0)
    m = a.metric("meteor-1.5")
    corpus = judged.corpus
    assert a.n_items == N_ITEMS and a.n_systems == 11 and a.n_rows > 900
    seg: list[float] = []
    human: list[float] = []
    sys_scores: list[float] = []
    sys_human: list[float] = []
    for name, hyps in corpus.systems:
        result = meteor.corpus_score(list(hyps), list(corpus.refs_of(name)), "meteor-1.5")
        seg.extend(s.score for s in result.segments)
        human.extend(judged.human[name])
        sys_scores.append(result.score)
        sys_human.append(float(np.mean(judged.human[name])))
    assert m.seg("kendall_flat").value > 0.05
    assert m.seg("kendall_flat").value == pytest.approx(
        scipy.stats.kendalltau(human, seg).statistic, abs=1e-12
    )
    assert m.seg("pearson_flat").value == pytest.approx(
        scipy.stats.pearsonr(human, seg).statistic, abs=1e-12
    )
    assert m.seg("spearman_flat").value == pytest.approx(
        scipy.stats.spearmanr(human, seg).statistic, abs=1e-12
    )
    assert m.sys("pearson").value == pytest.approx(
        scipy.stats.pearsonr(sys_human, sys_scores).statistic, abs=1e-12
    )
    assert m.sys("kendall").value == pytest.approx(
        scipy.stats.kendalltau(sys_human, sys_scores).statistic, abs=1e-12
    )
    for key, e in m.segment:
        assert e.low <= e.value <= e.high, key
