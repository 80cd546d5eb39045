"""Every system its own colour: 11 WMT systems (Online-G, Online-Y, …) never share one.

:data:`meteor.viz.style.SYSTEM_COLORS` holds 26 colours, every two apart (CIE76
ΔE ≥ 25); the report's bucket and fragmentation figures and the corpus charts give
the ``k``-th system the ``k``-th colour, and past 26 systems another marker or bar
pattern, so no two systems look the same.
"""

from __future__ import annotations

import itertools
import math

import pytest

import meteor
from meteor.viz.corpus_charts import distributions, score_vs_length
from meteor.viz.report_figures import bucket_figure, frag_figure
from meteor.viz.style import SYSTEM_COLORS, system_color, system_pattern, system_symbol

REFS = ["the cat sat on the mat", "a dog ran in the park", "we like green tea today"]
WORDS = ["cat", "dog", "tea", "mat", "park", "green", "sat", "ran", "like", "the", "we", "a"]


def _lab(hex_color: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB ``#rrggbb``."""
    h = hex_color.lstrip("#")
    lin = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        for c in (int(h[k : k + 2], 16) / 255 for k in (0, 2, 4))
    ]
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _systems(n: int) -> dict[str, list[str]]:
    """``n`` systems named like WMT's, each with its own (real) hypotheses."""
    names = [f"Online-{chr(ord('A') + k)}" if k < 26 else f"sys-{k}" for k in range(n)]
    return {
        name: [" ".join(WORDS[(k + j) % len(WORDS)] for j in range(3 + i)) for i in range(3)]
        for k, name in enumerate(names)
    }


def test_the_palette_has_26_colours_every_two_apart() -> None:
    assert len(SYSTEM_COLORS) >= 24
    assert len({c.lower() for c in SYSTEM_COLORS}) == len(SYSTEM_COLORS)
    labs = [_lab(c) for c in SYSTEM_COLORS]
    worst = min(math.dist(a, b) for a, b in itertools.combinations(labs, 2))
    assert worst >= 25, worst
    assert all(lab[0] <= 82 for lab in labs)  # each shows on white


@pytest.mark.parametrize("n", [11, 26, 60])
def test_n_systems_get_n_distinct_looks(n: int) -> None:
    looks = {(system_color(k), system_symbol(k), system_pattern(k)) for k in range(n)}
    assert len(looks) == n
    assert len({system_color(k) for k in range(n)}) == min(n, len(SYSTEM_COLORS))


@pytest.fixture(scope="module")
def eleven() -> meteor.CorpusReport:
    return meteor.report(_systems(11), REFS, "meteor-1.5", n_samples=20)


def test_report_figures_give_eleven_systems_eleven_colours(eleven: meteor.CorpusReport) -> None:
    for fig in (bucket_figure(eleven, eleven.buckets[0]), frag_figure(eleven)):
        colours = [tr.marker.color for tr in fig.data]
        assert len(colours) == 11 and None not in colours
        assert len(set(colours)) == 11, colours
    frag = frag_figure(eleven)
    assert [tr.line.color for tr in frag.data] == [tr.marker.color for tr in frag.data]


def test_bucket_and_frag_figures_agree_on_each_systems_colour(
    eleven: meteor.CorpusReport,
) -> None:
    bars = {tr.name: tr.marker.color for tr in bucket_figure(eleven, eleven.buckets[0]).data}
    lines = {tr.name: tr.marker.color for tr in frag_figure(eleven).data}
    assert bars == lines


def test_corpus_charts_give_eleven_systems_eleven_colours() -> None:
    m = meteor.Meteor("meteor-1.5")
    results = {name: m.corpus_score(hyps, REFS) for name, hyps in _systems(11).items()}
    for fig in (score_vs_length(results), distributions(results)):
        colours = [tr.marker.color for tr in fig.data][:11]  # the first panel's
        assert len(set(colours)) == 11, colours


def test_past_26_systems_bars_and_points_differ_by_pattern_and_marker() -> None:
    rep = meteor.report(_systems(28), REFS, "meteor-1.5", n_samples=5)
    bars = bucket_figure(rep, rep.buckets[0]).data
    looks = {(tr.marker.color, tr.marker.pattern.shape or "") for tr in bars}
    assert len(looks) == 28
    points = frag_figure(rep).data
    assert len({(tr.marker.color, tr.marker.symbol) for tr in points}) == 28
