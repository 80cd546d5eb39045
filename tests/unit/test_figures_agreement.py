"""The agreement grid (re-scored from kept statistics) and its figures (meteor.viz.agreement):
each heatmap cell equals ``meteor.correlate`` run with those settings from scratch."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

import meteor
from meteor.analysis.agreement import Judged, correlate, load_judged, score_metrics
from meteor.analysis.agreement_grid import GRID_VALUES, agreement_grid
from meteor.errors import InputError
from meteor.io.scores import numeric_columns
from meteor.presets import PRESETS
from meteor.viz import agreement as figures

DEMO = Path(meteor.__file__).resolve().parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
N_SEGMENTS = 12  # source segments of the demo kept here: 11 systems each


def _subset(lower_is_better: bool = False) -> Judged:
    lines = DEMO.read_text(encoding="utf-8").splitlines()
    keep = [lines[0]] + [x for x in lines[1:] if int(x.split("\t")[1]) <= N_SEGMENTS]
    data = ("\n".join(keep) + "\n").encode()
    col = "human_raw"
    return load_judged([("demo.tsv", data)], col, higher_is_better=not lower_is_better)


@pytest.fixture(scope="module")
def judged() -> Judged:
    return _subset()


def test_the_demo_is_small_and_documented() -> None:
    assert DEMO.stat().st_size <= 1_000_000
    readme = (DEMO.parent / "README.md").read_text(encoding="utf-8")
    assert "wmt21-news-systems" in readme and "research purposes only" in readme
    assert numeric_columns(DEMO.read_bytes(), DEMO.name) == ["human_score", "human_raw"]


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("key", ["kendall_flat", "pearson_item", "darr_flat"])
def test_heatmap_cells_equal_correlate_at_those_settings(key: str, lower: bool) -> None:
    judged = _subset(lower)
    scores = score_metrics(judged, presets=["nltk"])[0]
    xs, ys = (0.5, 0.9), (1.0, 3.0)
    grid = agreement_grid(judged, scores, "alpha", "beta", x_values=xs, y_values=ys, measure=key)
    fig = figures.heatmap(grid)
    z = fig.data[0].z
    base = PRESETS["nltk"].params
    for i, b in enumerate(ys):
        for j, a in enumerate(xs):
            p = dataclasses.replace(base, alpha=a, beta=b)
            want = correlate(
                judged, presets=(), params={"p": p}, n_bootstrap=1, n_permutations=0
            ).metric("p")
            assert grid.values[i][j] == pytest.approx(want.seg(key).value, abs=1e-12)
            assert z[i][j] == grid.values[i][j]
    assert grid.base == (base.alpha, base.beta)
    # the grid moves: a setting that changes the score changes the agreement
    assert len({round(v, 12) for row in grid.values for v in row}) > 1


def test_grid_best_and_default_values(judged: Judged) -> None:
    scores = score_metrics(judged, presets=["nltk"])[0]
    grid = agreement_grid(judged, scores, "gamma", "delta")
    assert grid.x_values == GRID_VALUES["gamma"] and grid.y_values == GRID_VALUES["delta"]
    best = grid.best()
    assert best is not None
    finite = [v for row in grid.values for v in row if math.isfinite(v)]
    assert best[2] == max(finite)
    i, j = grid.y_values.index(best[1]), grid.x_values.index(best[0])
    assert grid.values[i][j] == best[2]
    fig = figures.heatmap(grid)
    star = [tr for tr in fig.data[1:] if tr.marker.symbol == "star"]
    assert list(star[0].x) == [best[0]] and list(star[0].y) == [best[1]]
    assert grid.to_dict()["values"][i][j] == best[2]


def test_grid_refuses_what_it_cannot_do(judged: Judged) -> None:
    meteor_scores, chrf = score_metrics(judged, presets=["nltk"], baselines=["chrf"])
    with pytest.raises(InputError, match="two different parameters"):
        agreement_grid(judged, meteor_scores, "alpha", "alpha")
    with pytest.raises(InputError, match="unknown grid parameter"):
        agreement_grid(judged, meteor_scores, "alpha", "beam_size")
    with pytest.raises(InputError, match="not a METEOR metric"):
        agreement_grid(judged, chrf, "alpha", "beta")
    with pytest.raises(InputError, match="alpha"):
        agreement_grid(judged, meteor_scores, "alpha", "beta", x_values=(1.5,), y_values=(1.0,))


def test_scatter_points_are_the_rows(judged: Judged) -> None:
    scores = score_metrics(judged, baselines=["chrf"])[0]
    fig = figures.scatter(judged, scores, labels={"human_axis": "люди ({column})"})
    systems = [name for name, _ in judged.corpus.systems]
    assert [tr.name for tr in fig.data] == systems
    xs = [x for tr in fig.data for x in tr.x]
    ys = [y for tr in fig.data for y in tr.y]
    rows = [int(c[0]) for tr in fig.data for c in tr.customdata]
    assert xs == list(scores.segment)
    assert ys == [float(v) for s in systems for v in judged.human[s]]
    assert rows == list(range(len(scores.segment)))
    assert fig.layout.yaxis.title.text == "люди (human_raw)"
