"""Trust at the edges, round 3 (issue 31, item 17), figures: the link view's chunk
legend shows both band colours, the X-Ray matrix names its axes, the sensitivity
curves share one x-range per panel and title their y-axis."""

from __future__ import annotations

from typing import Any

import pytest

from meteor import Meteor
from meteor.analysis import compare_settings
from meteor.params import Params
from meteor.viz import figures
from meteor.viz.link_traces import CHUNK_FILL, MAX_CHUNK_TRACES

SCRAMBLED = ("Danced we with under joy the night starry.", "We danced with joy under the starry night.")  # fmt: skip


def _legend_fills(fig: Any) -> list[str]:
    """Fill colours of the chunk bands that have a legend entry."""
    return [
        t.fillcolor
        for t in fig.data
        if t.legendgroup == "chunks" and t.showlegend is not False and t.fill == "toself"
    ]


@pytest.mark.parametrize("ui_labels", [None, {"chunks": "фрагменты"}])
def test_the_chunk_legend_shows_both_colours_the_bands_alternate_in(ui_labels: Any) -> None:
    r = Meteor("meteor-1.5").score(*SCRAMBLED)
    assert len(r.alignment.chunks) > 2
    fig = figures.link_view(r.alignment, labels=ui_labels)
    assert sorted(_legend_fills(fig)) == sorted(CHUNK_FILL)
    names = [t.name for t in fig.data if t.legendgroup == "chunks" and t.showlegend]
    assert len(set(names)) == 2  # two distinct entries, not "chunks" twice
    assert all(n.startswith((ui_labels or {}).get("chunks", "chunks")) for n in names)


def test_the_chunk_legend_shows_both_colours_with_many_chunks_too() -> None:
    n = MAX_CHUNK_TRACES + 4
    words = [f"w{k}" for k in range(n)]
    r = Meteor("meteor-1.5").score(" ".join(reversed(words)), " ".join(words))
    assert len(r.alignment.chunks) > MAX_CHUNK_TRACES
    fig = figures.link_view(r.alignment)
    assert sorted(_legend_fills(fig)) == sorted(CHUNK_FILL)


def test_one_chunk_has_one_legend_entry() -> None:
    r = Meteor("meteor-1.5").score("the cat sat", "the cat sat")
    assert len(r.alignment.chunks) == 1
    assert _legend_fills(figures.link_view(r.alignment)) == [CHUNK_FILL[0]]


@pytest.mark.parametrize(
    ("labels", "x", "y"),
    [(None, "reference", "hypothesis"), ({"reference": "эталон", "hypothesis": "гипотеза"}, "эталон", "гипотеза")],
)  # fmt: skip
@pytest.mark.parametrize("compact", [False, True])
def test_the_xray_matrix_names_its_axes(labels: Any, x: str, y: str, compact: bool) -> None:
    hyp, ref = SCRAMBLED
    if compact:
        hyp, ref = " ".join([hyp] * 10), " ".join([ref] * 10)
    r = Meteor("meteor-1.5").score(hyp, ref)
    assert figures.matrix_is_compact(r.alignment) is compact
    for color_by in ("module", "order"):
        fig = figures.matrix_view(r.alignment, color_by=color_by, labels=labels)
        assert fig.layout.xaxis.title.text == x
        assert fig.layout.yaxis.title.text == y


def _curves(beta: float) -> Any:
    m = Meteor("meteor-1.5")
    r = m.score(*SCRAMBLED)
    return compare_settings.sensitivity(r.stats, Params(beta=beta))


def test_sensitivity_panels_share_one_x_range_across_settings() -> None:
    """β's curve runs up to max(3, 2β): a setting with β = 3 reaches 6, one with β = 1
    stops at 3; each used to bring its own x-range into the same panel."""
    curves = {"A": _curves(3.0), "B": _curves(1.0)}
    beta_col = [c.param for c in curves["A"]].index("beta")
    assert max(curves["A"][beta_col].xs) > max(curves["B"][beta_col].xs)
    fig = figures.sensitivity_figure(curves)
    for col, param in enumerate(c.param for c in curves["A"]):
        axis = fig.layout[f"xaxis{col + 1 if col else ''}"]
        every_x = [x for cs in curves.values() for x in cs[col].xs]
        assert axis.range is not None, param
        lo, hi = axis.range
        assert lo <= min(every_x) and hi >= max(every_x), param
        assert hi - lo <= 1.1 * (max(every_x) - min(every_x)), param


@pytest.mark.parametrize(("labels", "want"), [(None, "METEOR score"), ({"score_axis": "оценка METEOR"}, "оценка METEOR")])  # fmt: skip
def test_sensitivity_y_axis_is_titled(labels: Any, want: str) -> None:
    fig = figures.sensitivity_figure({"A": _curves(3.0)}, labels=labels)
    assert fig.layout.yaxis.title.text == want


def test_the_app_translates_the_new_axis_title() -> None:
    from pages._i18n import STRINGS

    assert STRINGS["score_axis"]["ru"] == "оценка METEOR"
    assert "score_axis" in figures.LABELS_EN


# -- item 5: positions shown to people are numbered from 1 (as table rows and chunks) --


def test_link_view_hovers_number_tokens_from_1() -> None:
    r = Meteor("meteor-1.5").score(*SCRAMBLED)
    fig = figures.link_view(r.alignment)
    for side, name in (("hyp", "hypothesis"), ("ref", "reference")):
        (tokens,) = [t for t in fig.data if (t.meta or {}).get("role") == f"tokens_{side}"]
        assert [" ".join(h.split(" ", 2)[:2]) for h in tokens.hovertext or tokens.text] == [
            f"{name} {k}" for k in range(1, len(tokens.x) + 1)
        ]


@pytest.mark.parametrize("compact", [False, True])
def test_matrix_hovers_and_positions_number_tokens_from_1(compact: bool) -> None:
    hyp, ref = SCRAMBLED
    if compact:
        hyp, ref = " ".join([hyp] * 10), " ".join([ref] * 10)
    al = Meteor("meteor-1.5").score(hyp, ref).alignment
    fig = figures.matrix_view(al, color_by="order")
    heat = fig.data[0]
    texts = [x for row in heat.text for x in row] if not compact else list(heat.text)
    shown = [x for x in texts if x]
    assert shown and all(not x.startswith("hyp[0]") for x in shown)
    first = al.matches[0]
    want = f"hyp[{first.hyp.start + 1}] {al.hyp[first.hyp.start].text} / ref[{first.ref.start + 1}]"
    assert any(x.startswith(want) for x in shown), want
    assert heat.zmin == 1 and heat.zmax == len(al.ref)  # reference positions 1 … n
    zs = [z for z in (heat.z if compact else [z for row in heat.z for z in row]) if z is not None]
    assert min(zs) >= 1 and max(zs) <= len(al.ref)
    if compact:
        assert fig.layout.xaxis.categoryarray[0].startswith("1 ")
        assert fig.layout.yaxis.categoryarray[-1].startswith(f"{len(al.hyp)} ")


def test_sensitivity_takes_a_shared_upper_end() -> None:
    """``highs``: one x-range for several settings (Compare); the current point stays the
    setting's own and every y is the formula re-applied (defaults unchanged)."""
    from meteor.scoring import compute

    r = Meteor("meteor-1.5").score(*SCRAMBLED)
    r_params = Params()
    own = compare_settings.sensitivity(r.stats, r_params)
    shared = compare_settings.sensitivity(r.stats, r_params, highs={"beta": 6.0})
    by = {c.param: c for c in shared}
    assert max(by["beta"].xs) == 6.0
    assert max(next(c for c in own if c.param == "beta").xs) == 3.0
    assert by["beta"].current_x == r_params.beta
    assert by["beta"].ys[-1] == compute(r.stats, r_params.replace(beta=6.0)).score
    assert [c for c in shared if c.param != "beta"] == [c for c in own if c.param != "beta"]
