"""DARR pairs on WMT21 ru-en DA (shared data): built by default from ``human_raw`` with
mt-metrics-eval's rule (same source segment, raw DA differing by 25 or more), their count and
τ-like equal an independent count over ``seg_da.tsv``."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from itertools import combinations

import pytest
from conftest import shared_path

from meteor.analysis.agreement import correlate, load_judged


def test_darr_pairs_equal_an_independent_count() -> None:
    data = shared_path("wmt21_ru-en_da/seg_da.tsv").read_bytes()
    rows = list(
        csv.DictReader(io.StringIO(data.decode("utf-8")), delimiter="\t", quoting=csv.QUOTE_NONE)
    )
    by_seg: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for r in rows:
        by_seg[r["seg_id"]].append((float(r["human_raw"]), float(r["n_ratings"])))
    pairs = concordant = strict = 0
    for outputs in by_seg.values():
        for (h1, m1), (h2, m2) in combinations(outputs, 2):
            if abs(h1 - h2) >= 25:
                pairs += 1
                strict += abs(h1 - h2) > 25
                better, worse = (m1, m2) if h1 > h2 else (m2, m1)
                concordant += better > worse  # a metric tie is discordant
    judged = load_judged([("seg_da.tsv", data)], "human_score", metric_columns=["n_ratings"])
    assert judged.darr_column == "human_raw"
    a = correlate(judged, presets=(), n_bootstrap=1, n_permutations=0)
    assert a.n_darr_pairs == pairs and pairs > strict > 0
    tau = (2 * concordant - pairs) / pairs
    m = a.metric("n_ratings")
    assert m.seg("darr_flat").value == pytest.approx(tau, abs=1e-12)
    assert m.seg("darr_item").value == pytest.approx(tau, abs=1e-12)
    assert m.seg("darr_flat").n == pairs
    print(f"DARR pairs (>= 25 on human_raw): {pairs}; strictly > 25: {strict}")
