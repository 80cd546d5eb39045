"""meteor.viz.figures without Streamlit: trace names, counts, positions, escaping.

Most alignments here are built by hand from the record types, so the figures are
tested independently of the aligner.
"""

from __future__ import annotations

import itertools
import json
import math
import re

import plotly.graph_objects as go
import pytest
from _texts import RU_NAKED_EYE, WMT21_SEG3

from meteor import Meteor
from meteor.analysis import compare_settings
from meteor.analysis.explain import parts as explain
from meteor.chunking import chunk_matches
from meteor.module_registry import Module
from meteor.types import Alignment, Match, Span, Token
from meteor.viz import figures


def _tokens(words: str, function: set[str] = frozenset()) -> tuple[Token, ...]:  # type: ignore[assignment]
    out, pos = [], 0
    for w in words.split():
        out.append(Token(w, pos, pos + len(w), w in function))
        pos += len(w) + 1
    return tuple(out)


def _m(module: Module, h: tuple[int, int], r: tuple[int, int], hyp, ref) -> Match:  # type: ignore[no-untyped-def]
    return Match(
        module,
        Span(*h),
        Span(*r),
        tuple(hyp[h[0] : h[1]]),
        tuple(ref[r[0] : r[1]]),
        "detail <b>x</b>" if module is Module.SYNONYM else "",
    )


@pytest.fixture
def alignment() -> Alignment:
    """hyp "the cat the cat sat down" / ref "the cat sat on the mat down":
    exact the/cat (0,1→0,1), exact the (2→4), stem cat→mat (3→5), paraphrase "sat down"→"sat on"."""
    fw = {"the", "on"}
    hyp = _tokens("the cat the cat sat down", fw)
    ref = _tokens("the cat sat on the mat", fw)
    hw = [t.text for t in hyp]
    rw = [t.text for t in ref]
    ms = (
        _m(Module.EXACT, (0, 1), (0, 1), hw, rw),
        _m(Module.EXACT, (1, 2), (1, 2), hw, rw),
        _m(Module.PARAPHRASE, (4, 6), (2, 4), hw, rw),
        _m(Module.EXACT, (2, 3), (4, 5), hw, rw),
        _m(Module.SYNONYM, (3, 4), (5, 6), hw, rw),
    )
    ms = tuple(sorted(ms, key=lambda m: m.ref.start))
    return Alignment(hyp, ref, ms, chunk_matches(ms))


def _by_role(fig: go.Figure, role: str) -> list[go.Scatter]:
    return [t for t in fig.data if (t.meta or {}).get("role") == role]


def test_token_positions_span_the_same_width() -> None:
    hx, rx = figures.token_positions(3, 5)
    assert hx == [0.0, 2.0, 4.0] and rx == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert figures.token_positions(1, 3)[0] == [1.0]
    assert figures.token_positions(0, 0) == ([], [])


def test_link_view_traces(alignment: Alignment) -> None:
    fig = figures.link_view(alignment, weights={Module.EXACT: 1.0, Module.SYNONYM: 0.8})
    links = _by_role(fig, "links")
    assert [t.meta["module"] for t in links] == ["exact", "synonym"]  # 1:1 links, stage order
    assert [t.name for t in links] == ["exact", "synonym"]
    assert all(t.showlegend for t in links)
    exact = links[0]
    assert list(exact.x).count(None) == 3  # three exact matches, None-separated segments
    assert exact.line.dash == "solid" and links[1].line.dash == "dash"
    assert exact.line.color == figures.MODULE_COLORS["exact"]
    # n:m paraphrase: one filled quadrilateral, its own legend entry
    (para,) = _by_role(fig, "phrase_links")
    assert para.fill == "toself" and para.showlegend and para.name == "paraphrase"
    assert list(para.y) == [1.0, 1.0, 0.0, 0.0, 1.0, None]
    # exactly one legend entry per stage used
    shown = [t.legendgroup for t in fig.data if t.showlegend is not False and t.legendgroup in
             {m.value for m in Module}]  # fmt: skip
    assert sorted(shown) == ["exact", "paraphrase", "synonym"]
    hover = _by_role(fig, "link_hover")
    assert sum(len(t.x) for t in hover) == len(alignment.matches)


def test_link_view_repeated_words_stay_separate(alignment: Alignment) -> None:
    fig = figures.link_view(alignment)
    (hyp,) = _by_role(fig, "tokens_hyp")
    (ref,) = _by_role(fig, "tokens_ref")
    assert list(hyp.text) == ["the", "cat", "the", "cat", "sat", "down"]
    assert list(hyp.x) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]  # numeric, never categorical
    assert [list(c) for c in hyp.customdata] == [["hyp", i] for i in range(6)]
    assert len(ref.x) == 6 and set(hyp.y) == {1.0} and set(ref.y) == {0.0}
    assert fig.layout.yaxis.ticktext == ("reference", "hypothesis")


def test_link_view_marks_unmatched_and_function_words() -> None:
    hyp = _tokens("a cat sat", {"a"})
    ref = _tokens("the cat", {"the"})
    ms = (Match(Module.EXACT, Span(1, 2), Span(1, 2), ("cat",), ("cat",)),)
    fig = figures.link_view(Alignment(hyp, ref, ms, chunk_matches(ms)))
    (h,) = _by_role(fig, "tokens_hyp")
    assert list(h.marker.symbol) == ["x-open", "circle", "x"]
    assert list(h.marker.color) == [figures.UNMATCHED, figures.MODULE_COLORS["exact"],
                                    figures.UNMATCHED]  # fmt: skip
    assert _by_role(fig, "legend_unmatched") and _by_role(fig, "legend_function_word")
    plain = figures.link_view(Alignment(hyp, ref, ms, ()), matches=(), mark_unmatched=False)
    (h,) = _by_role(plain, "tokens_hyp")
    assert figures.UNMATCHED not in list(h.marker.color)
    assert not _by_role(plain, "legend_unmatched")


def test_link_view_many_chunks_are_two_band_traces() -> None:
    """Above MAX_CHUNK_TRACES chunks the bands are merged, each chunk keeping its hover."""
    n = figures.MAX_CHUNK_TRACES + 20
    hyp = _tokens(" ".join(f"w{k}" for k in range(n)), set())
    ref = _tokens(" ".join(f"w{k}" for k in reversed(range(n))), set())
    ms = tuple(
        Match(Module.EXACT, Span(k, k + 1), Span(n - 1 - k, n - k), (f"w{k}",), (f"w{k}",))
        for k in reversed(range(n))
    )
    chunks = chunk_matches(ms)
    assert len(chunks) == n
    fig = figures.link_view(Alignment(hyp, ref, ms, chunks))
    assert not _by_role(fig, "chunk")
    bands = _by_role(fig, "chunk_bands")
    assert [t.showlegend for t in bands] == [True, True]  # both colours in the legend
    assert sum(list(t.x).count(None) for t in bands) == n  # one polygon per chunk
    (hover,) = _by_role(fig, "chunk_hover")
    assert len(hover.hovertext) == n and hover.hovertext[0].startswith("<b>chunk 1</b>")
    assert not _by_role(fig, "chunk_numbers")  # they would overlap: the hover says it
    assert len(fig.data) < 20


def test_link_view_chunks(alignment: Alignment) -> None:
    fig = figures.link_view(alignment)
    bands = _by_role(fig, "chunk")
    assert len(bands) == len(alignment.chunks) == 3
    assert [t.showlegend for t in bands] == [True, True, False]  # both colours
    assert all(t.fill == "toself" for t in bands)
    (numbers,) = _by_role(fig, "chunk_numbers")
    assert list(numbers.text) == ["<b>1</b>", "<b>1</b>", "<b>2</b>", "<b>2</b>", "<b>3</b>",
                                  "<b>3</b>"]  # fmt: skip
    # a band spans its chunk's tokens on both rows
    hx, rx = figures.token_positions(6, 6)
    ch = alignment.chunks[0]
    xs = list(bands[0].x)
    assert min(xs[:3]) < hx[ch.hyp.start] and max(xs[:3]) > hx[ch.hyp.end - 1]


def test_link_view_candidates_are_faint(alignment: Alignment) -> None:
    fig = figures.link_view(alignment, matches=(), candidates=alignment.matches)
    faint = [t for t in fig.data if (t.meta or {}).get("faint")]
    assert {t.legendgroup for t in faint} == {"cand_exact", "cand_synonym", "cand_paraphrase"}
    assert all(t.opacity < 1 for t in faint)
    assert not _by_role(fig, "chunk")  # explicit matches: no chunks unless given


def test_user_text_is_escaped() -> None:
    hyp = _tokens("<b>bold</b> &amp; <a")
    ref = _tokens("<b>bold</b> <i>x</i>")
    ms = (Match(Module.EXACT, Span(0, 1), Span(0, 1), ("<b>bold</b>",), ("<b>bold</b>",), "<br>"),)
    al = Alignment(hyp, ref, ms, chunk_matches(ms))
    for fig in (figures.link_view(al), figures.matrix_view(al)):
        blob = json.dumps(fig.to_plotly_json())
        assert "<b>bold" not in blob and "<i>x" not in blob and "<a" not in blob
        assert "&lt;b&gt;bold&lt;/b&gt;" in blob
        assert "&amp;amp;" in blob  # "&amp;" typed by the user stays literal
    fig = figures.link_view(al)
    (h,) = _by_role(fig, "tokens_hyp")
    assert list(h.text) == ["&lt;b&gt;bold&lt;/b&gt;", "&amp;amp;", "&lt;a"]
    assert figures.escape("a<b>&c") == "a&lt;b&gt;&amp;c"


def test_long_sentences_are_drawn_in_columns() -> None:
    words = " ".join(f"w{i}" for i in range(30))
    al = Alignment(_tokens(words), _tokens(words), (), ())
    assert figures.link_view_layout(al) == "columns"
    fig = figures.link_view(al)
    assert fig.layout.meta["layout"] == "columns"
    assert not fig.layout.annotations
    (h,) = _by_role(fig, "tokens_hyp")
    assert h.mode == "markers" and list(h.text) == [f"w{i}" for i in range(30)]
    assert set(h.x) == {0.0} and list(h.y) == [-float(i) for i in range(30)]
    (labels,) = _by_role(fig, "labels_hyp")
    assert list(labels.text) == [f"w{i}" for i in range(30)]
    assert fig.layout.height >= figures.COLUMN_PITCH_PX * 30
    short = Alignment(_tokens("a b c"), _tokens("a b c"), (), ())
    assert figures.link_view(short).layout.meta["layout"] == "rows"


def test_matrix_view(alignment: Alignment) -> None:
    fig = figures.matrix_view(alignment)
    heat = fig.data[0]
    assert isinstance(heat, go.Heatmap)
    z = [list(row) for row in heat.z]
    assert len(z) == 6 and len(z[0]) == 6
    assert z[0][0] == 1.0 and z[3][5] == 3.0  # exact = 1, synonym = 3
    assert z[4][2] == z[4][3] == z[5][2] == z[5][3] == 4.0  # the 2×2 paraphrase block
    assert z[0][1] is None
    assert len(fig.layout.shapes) == len(alignment.chunks)
    assert list(fig.layout.xaxis.tickvals) == list(range(6))  # numeric axes, words as ticktext
    assert list(fig.layout.yaxis.tickvals) == list(range(6))
    assert "<i>the</i>" in fig.layout.yaxis.ticktext[0]  # function word in italics
    assert "down" in fig.layout.yaxis.ticktext[5]
    legend = [t for t in fig.data[1:] if t.meta["role"] == "legend"]
    assert [t.name for t in legend] == ["exact", "synonym", "paraphrase"]
    assert [t.marker.symbol for t in legend] == ["circle", "diamond", "triangle-up"]
    glyphs = [t for t in fig.data if t.meta["role"] == "stage_glyphs"]
    cells = {(y, x): t.marker.symbol for t in glyphs for x, y in zip(t.x, t.y, strict=True)}
    assert (
        cells[(0, 0)] == "circle" and cells[(3, 5)] == "diamond" and cells[(5, 3)] == "triangle-up"
    )
    assert len(cells) == sum(z is not None for row in z for z in row)
    order = figures.matrix_view(alignment, color_by="order")
    zo = [list(row) for row in order.data[0].z]
    assert zo[2][4] == 5.0 and zo[0][0] == 1.0  # coloured by reference position (from 1)
    with pytest.raises(ValueError, match="color_by"):
        figures.matrix_view(alignment, color_by="rainbow")


def test_matrix_view_marks_unmatched_ticks() -> None:
    hyp = _tokens("a b")
    ref = _tokens("a c")
    ms = (Match(Module.EXACT, Span(0, 1), Span(0, 1), ("a",), ("a",)),)
    fig = figures.matrix_view(Alignment(hyp, ref, ms, chunk_matches(ms)))
    assert figures.UNMATCHED in fig.layout.yaxis.ticktext[1]
    assert figures.UNMATCHED not in fig.layout.yaxis.ticktext[0]


def _long_alignment(n: int) -> Alignment:
    """n words against themselves with the middle third reversed and a 2:2 paraphrase at
    the end; unmatched: the hypothesis's "<b>x</b>" and "extra", the reference's "other"."""
    words = [f"w{k}" for k in range(n - 3)] + ["<b>x</b>", "p", "q"]
    hyp = _tokens(" ".join([*words, "extra"]), {"w1"})
    third = (n - 3) // 3
    ref_order = (
        list(range(third)) + list(reversed(range(third, 2 * third))) + list(range(2 * third, n - 3))
    )
    ref = _tokens(" ".join([*(words[k] for k in ref_order), "p", "q", "other"]))
    hw, rw = [t.text for t in hyp], [t.text for t in ref]
    ms = []
    for j, k in enumerate(ref_order):
        ms.append(_m(Module.EXACT, (k, k + 1), (j, j + 1), hw, rw))
    ms.append(_m(Module.PARAPHRASE, (n - 2, n), (n - 3, n - 1), hw, rw))
    ms = sorted(ms, key=lambda m: m.ref.start)
    return Alignment(hyp, ref, tuple(ms), chunk_matches(ms))


def test_matrix_view_is_compact_above_the_cell_limit() -> None:
    al = _long_alignment(300)
    nh, nr = len(al.hyp), len(al.ref)
    assert figures.matrix_is_compact(al) and nh * nr > figures.MATRIX_CELL_LIMIT
    fig = figures.matrix_view(al)
    heat = fig.data[0]
    assert heat.meta == {"role": "matrix", "compact": True}
    assert heat.hoverongaps is False
    # one category per token, in order, named "index word"; cell k still at position k
    xa, ya = fig.layout.xaxis, fig.layout.yaxis
    assert xa.type == ya.type == "category"
    assert list(xa.categoryarray) == [f"{j} {t}" for j, t in enumerate(al.ref_words, 1)][:-1] + [
        f"{nr} <span style='color:{figures.UNMATCHED}'>other</span>"
    ]
    assert ya.categoryarray[1] == "2 <i>w1</i>"  # function word in italics; numbered from 1
    assert ya.categoryarray[nh - 4] == f"{nh - 3} <span style='color:{figures.UNMATCHED}'>" + (
        "&lt;b&gt;x&lt;/b&gt;</span>"
    )
    assert "<b>x" not in json.dumps(fig.to_plotly_json())  # user text escaped everywhere
    assert list(ya.range) == [nh - 0.5, -0.5] and list(xa.range) == [-0.5, nr - 0.5]
    # matched cells only (the 2×2 paraphrase is 4 cells), plus one empty cell per row
    # or column without a match, so the grid keeps every token
    matched = [z for z in heat.z if z is not None]
    assert len(matched) == 297 + 4
    assert len(heat.z) == len(matched) + 3  # rows "<b>x</b>" and "extra", column "other"
    assert set(zip(heat.x, heat.y, strict=True)) >= {(xa.categoryarray[-1], ya.categoryarray[0])}
    cells = {
        (xa.categoryarray.index(x), ya.categoryarray.index(y)): (z, text)
        for x, y, z, text in zip(heat.x, heat.y, heat.z, heat.text, strict=True)
        if z is not None
    }
    for ch in al.chunks:
        for mi in ch.matches:
            m = al.matches[mi]
            for i in m.hyp:
                for j in m.ref:
                    z, text = cells[(j, i)]
                    assert z == 1.0 if m.module is Module.EXACT else z == 4.0
                    assert text.startswith(f"hyp[{i + 1}] ")  # numbered from 1
                    assert text.endswith(f"<br>chunk {ch.index + 1}")
    # chunks wider than one cell outlined by one path; no numbered shapes
    (outline,) = fig.layout.shapes
    assert outline.type == "path"
    wide = [ch for ch in al.chunks if len(ch.hyp) > 1 or len(ch.ref) > 1]
    assert outline.path.count("M") == len(wide) >= 2
    (note,) = fig.layout.annotations
    assert note.text.startswith(f"{nh} × {nr} tokens: compact view")
    assert fig.layout.height == 900
    legend = [t.name for t in fig.data[1:]]
    assert legend == ["exact", "paraphrase"]
    order = figures.matrix_view(al, color_by="order", labels={"matrix_compact": "<{n_hyp}>"})
    assert order.layout.annotations[0].text == f"&lt;{nh}&gt;"  # labels escaped too
    zo = {
        (x, y): z for x, y, z in zip(order.data[0].x, order.data[0].y, order.data[0].z, strict=True)
    }
    assert zo[(xa.categoryarray[5], ya.categoryarray[5])] == 6.0  # reference position 6


def test_matrix_view_size_grows_with_the_matches_not_the_square() -> None:
    small = len(figures.matrix_view(_long_alignment(300)).to_json())
    big = len(figures.matrix_view(_long_alignment(1200)).to_json())
    assert big < 5 * small  # 4× the tokens, 16× the cells
    assert big < 400_000
    # at the limit the matrix is still drawn in full, as before
    n = int(figures.MATRIX_CELL_LIMIT**0.5)
    words = " ".join(f"w{k}" for k in range(n))
    full = Alignment(_tokens(words), _tokens(words), (), ())
    assert not figures.matrix_is_compact(full)
    fig = figures.matrix_view(full)
    assert len(fig.data[0].z) == n and fig.data[0].meta == {"role": "matrix"}


def test_waterfall_figure() -> None:
    m = Meteor("seed-doc")
    r = m.score("Under the starry night, we danced with glee.",
                "We danced with joy under the starry night.")  # fmt: skip
    steps = explain.waterfall(r.stats, m.params)
    fig = figures.waterfall_figure(steps, fmt=lambda x: f"{x:.3f}")
    (w,) = fig.data
    assert list(w.measure) == ["absolute", "relative", "relative", "relative", "relative", "total"]
    assert sum(w.y) == pytest.approx(r.score)
    assert w.text[0] == "1.000" and w.text[-1] == "0.750"
    assert w.text[4] == "−0.125"  # fragmentation: 0.875 · 0.5 · 2/7
    assert list(w.x) == ["perfect match", "unmatched hypothesis words",
                         "unmatched reference words", "partial credit (stage weights)",
                         "fragmentation", "score"]  # fmt: skip
    ru = figures.waterfall_figure(steps, labels={"score": "оценка"})
    assert ru.data[0].x[-1] == "оценка"


def test_sensitivity_figure() -> None:
    m = Meteor("meteor-1.5")
    r = m.score("A fast brown fox", "The quick brown fox")
    curves = compare_settings.sensitivity(r.stats, m.params, points=11)
    fig = figures.sensitivity_figure({"A": curves, "B <x>": curves})
    lines = [t for t in fig.data if t.meta["role"] == "curve"]
    dots = [t for t in fig.data if t.meta["role"] == "current"]
    assert len(lines) == len(dots) == 8
    assert [t.showlegend for t in lines] == [True, False, False, False] * 2
    assert dots[0].x == (0.85,) and dots[0].y[0] == pytest.approx(r.score)
    assert lines[4].name == "B &lt;x&gt;"
    assert [a.text for a in fig.layout.annotations if a.name != "coincide"] == ["α", "β", "γ", "δ"]
    (note,) = [a.text for a in fig.layout.annotations if a.name == "coincide"]
    assert note == "Same curve, drawn one over another: A = B &lt;x&gt; (α, β, γ, δ)"


def test_sensitivity_settings_differ_beyond_colour_and_say_when_they_coincide() -> None:
    """Issue 16: nltk, paper-2005 and meteor-1.5-paper2005 coincide (four lines in the
    legend, two visible): each setting gets its own dash and marker, and a note says which
    curves are the same, computed from the curves."""
    hyp, ref = "the cat sat on a mat", "a cat was sitting on the mat"
    names = ["meteor-1.5", "nltk", "paper-2005", "meteor-1.5-paper2005"]
    curves = {}
    for name in names:
        m = Meteor(name)
        curves[name] = compare_settings.sensitivity(m.score(hyp, ref).stats, m.params, points=21)
    same = figures.coinciding_curves(curves)
    assert same == [
        (["nltk", "paper-2005", "meteor-1.5-paper2005"], ["alpha", "beta", "gamma", "delta"])
    ]
    ru = {"coincide": "Совпадают: {names} ({params})"}
    fig = figures.sensitivity_figure(curves, labels=ru)
    lines = [t for t in fig.data if t.meta["role"] == "curve"]
    styles = {(t.line.dash, t.marker.symbol) for t in lines}
    assert len(styles) == 4  # one dash and marker per setting, not just a colour
    assert {t.marker.symbol for t in fig.data if t.meta["role"] == "current"} == {
        t.marker.symbol for t in lines
    }
    alpha = {t.meta["setting"]: t for t in lines if t.meta["param"] == "alpha"}
    assert alpha["meteor-1.5"].meta["same_as"] == []
    assert alpha["nltk"].meta["same_as"] == ["paper-2005", "meteor-1.5-paper2005"]
    # coinciding lines stay visible: narrower on top, markers at different points
    widths = [alpha[n].line.width for n in names[1:]]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == 3
    shown = [{k for k, size in enumerate(alpha[n].marker.size) if size} for n in names[1:]]
    assert all(shown) and not (shown[0] & shown[1] or shown[1] & shown[2] or shown[0] & shown[2])
    (note,) = [a.text for a in fig.layout.annotations if a.name == "coincide"]
    assert note == "Совпадают: nltk = paper-2005 = meteor-1.5-paper2005 (α, β, γ, δ)"
    apart = figures.sensitivity_figure({n: curves[n] for n in names[:2]})
    assert not [a for a in apart.layout.annotations if a.name == "coincide"]


def _label_cell(a: object, y_reversed: bool) -> tuple[int, int]:
    """(row, column) of the cell a corner-anchored annotation's text falls in."""
    x, y = a.x, a.y  # type: ignore[attr-defined]
    col = x + 0.5 if a.xanchor == "left" else x - 0.5  # type: ignore[attr-defined]
    down = (a.yanchor == "top") == y_reversed  # type: ignore[attr-defined]
    row = y + 0.5 if down else y - 0.5
    return round(row), round(col)


def test_matrix_chunk_numbers_sit_on_their_own_chunk() -> None:
    """Issue 16: "2" was drawn on chunk 3's cell (the number sat past the chunk's top-right
    corner, on the next row up and column right, here the "the"/"the" cell of chunk 3)."""
    r = Meteor("meteor-1.5").score("the cat sat on a mat", "a cat was sitting on the mat")
    al = r.alignment
    assert len(al.chunks) == 4
    fig = figures.matrix_view(al)
    reversed_rows = fig.layout.yaxis.autorange == "reversed"
    numbers = [a for a in fig.layout.annotations if re.fullmatch(r"<b>\d+</b>", a.text)]
    assert [a.text for a in numbers] == ["<b>1</b>", "<b>2</b>", "<b>3</b>", "<b>4</b>"]
    cells = {
        (i, j): k
        for k, ch in enumerate(al.chunks)
        for mi in ch.matches
        for i in al.matches[mi].hyp
        for j in al.matches[mi].ref
    }
    for k, a in enumerate(numbers):
        assert cells.get(_label_cell(a, reversed_rows)) == k, (k, _label_cell(a, reversed_rows))


# -- colour-blind safety (issue 16) ----------------------------------------------------------

#: Machado, Oliveira & Fernandes (2009) simulation matrices, severity 1.0, on linear RGB.
_CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}  # fmt: skip


def _lab(hex_color: str, kind: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a colour as seen with the given colour vision."""

    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    h = hex_color.lstrip("#")
    v = [linear(int(h[k : k + 2], 16)) for k in (0, 2, 4)]
    r, g, b = (min(1.0, max(0.0, sum(row[j] * v[j] for j in range(3)))) for row in _CVD[kind])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_stage_palette_is_colour_blind_safe() -> None:
    """Every two stages stay apart (CIE76 ΔE ≥ 15) for the three dichromacies; embedding is no
    longer the grey of function words; dash and marker codes are distinct per stage too."""
    stages = list(figures.MODULE_COLORS)
    assert stages == [m.value for m in Module if m.value in figures.MODULE_COLORS]
    for kind in _CVD:
        labs = {s: _lab(figures.MODULE_COLORS[s], kind) for s in stages}
        worst = min(
            (math.dist(labs[a], labs[b]), a, b) for a, b in itertools.combinations(stages, 2)
        )
        assert worst[0] >= 15, (kind, worst)
    assert figures.FUNCTION_WORD not in figures.MODULE_COLORS.values()
    assert figures.UNMATCHED not in figures.MODULE_COLORS.values()
    assert len(set(figures.MODULE_DASH.values())) == len(stages) == len(figures.MODULE_DASH)
    assert len(set(figures.MODULE_SYMBOL.values())) == len(stages) == len(figures.MODULE_SYMBOL)


def test_every_view_keeps_the_dash_and_marker_code(alignment: Alignment) -> None:
    """Link view: links and their legend entries dashed by stage, link markers by stage;
    candidates too; the matrix: legend keys and cells carry the stage's marker."""
    cands = (alignment.matches[0],)
    fig = figures.link_view(alignment, candidates=cands)
    for t in fig.data:
        role = (t.meta or {}).get("role")
        if role in ("links", "phrase_links"):
            assert t.line.dash == figures.MODULE_DASH[t.meta["module"]], t.name
        if role == "link_hover":
            assert t.marker.symbol == figures.MODULE_SYMBOL[t.meta["module"]], t.name
    legend_modules = {
        t.meta["module"] for t in fig.data if t.showlegend and (t.meta or {}).get("module")
    }
    assert legend_modules == {"exact", "synonym", "paraphrase"}
    matrix = figures.matrix_view(alignment)
    keys = [t for t in matrix.data if t.meta["role"] == "legend"]
    assert all(t.marker.symbol == figures.MODULE_SYMBOL[t.meta["module"]] for t in keys)


# -- link view labels never overlap (issue 16) ------------------------------------------------

#: Segment 3 of WMT21 ru→en (system and reference, 39/44 tokens after normalisation) and a
#: WMT21 TED en→ru pair with "невооруженным глазом", as in the issue.


def _boxes(fig: go.Figure, width: float) -> list[tuple[float, float, float, float, str]]:
    """Estimated px boxes (x0, y0, x1, y1, what) of every drawn word, chunk number and token
    marker, placed the way plotly places them (text outside a marker of the trace's size)."""
    lay = fig.layout
    m = lay.margin
    legend_px = 40 if lay.meta["layout"] == "rows" else 0  # rows: plotly grows the margin
    x0p, x1p = m.l, width - m.r
    y0p, y1p = m.t + legend_px, lay.height - m.b
    (xa, xb), (ya, yb) = lay.xaxis.range, lay.yaxis.range

    def px(x: float, y: float) -> tuple[float, float]:
        return (x0p + (x - xa) / (xb - xa) * (x1p - x0p), y1p - (y - ya) / (yb - ya) * (y1p - y0p))

    out = []
    for t in fig.data:
        role = (t.meta or {}).get("role", "")
        if role.startswith("tokens_"):
            for x, y in zip(t.x, t.y, strict=True):
                cx, cy = px(x, y)
                out.append((cx - 8, cy - 8, cx + 8, cy + 8, f"marker {role}"))
        if "text" not in (t.mode or "") or t.text is None:
            continue
        size = t.textfont.size
        sizes = t.marker.size if "markers" in t.mode else 0
        pos = t.textposition or "middle center"
        for k, (x, y, text) in enumerate(zip(t.x, t.y, t.text, strict=True)):
            bold = text.startswith("<b>")
            plain = re.sub("<[^>]+>", "", text)
            w = figures.text_width_px(plain, size, bold=bold)
            h = size * 1.3
            r = (sizes[k] if isinstance(sizes, tuple) else sizes or 0) / 2
            cx, cy = px(x, y)
            if pos == "middle left":
                box = (cx - r - w, cy - h / 2, cx - r, cy + h / 2)
            elif pos == "middle right":
                box = (cx + r, cy - h / 2, cx + r + w, cy + h / 2)
            elif pos.startswith("top"):
                box = (cx - w / 2, cy - r - h, cx + w / 2, cy - r)
            elif pos.startswith("bottom"):
                box = (cx - w / 2, cy + r, cx + w / 2, cy + r + h)
            else:
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            out.append((*box, f"{role}[{k}] {plain}"))
    return out


def _overlaps(boxes: list[tuple[float, float, float, float, str]]) -> list[tuple[str, str]]:
    """Pairs of boxes that intersect (sweep over y; touching edges do not count)."""
    boxes = sorted(boxes, key=lambda b: b[1])
    bad = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b[1] >= a[3]:
                break
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                if not (a[4].startswith("marker") and b[4].startswith("marker")):
                    bad.append((a[4], b[4]))
    return bad


def _long_pairs() -> dict[str, tuple[str, str, str]]:
    import gzip

    from conftest import GOLDEN

    pairs = {
        "wmt21 ru-en segment 3": ("meteor-1.5", *WMT21_SEG3),
        "невооруженным глазом": ("meteor-1.5-ru", *RU_NAKED_EYE),
    }
    for name, preset in (
        ("meteor15.en_default_norm.jsonl.gz", "meteor-1.5"),
        ("meteor15.ru_exact_stem_norm.jsonl.gz", "meteor-1.5-ru"),
    ):
        with gzip.open(GOLDEN / name, "rt", encoding="utf-8") as fh:
            segs = [json.loads(line) for line in fh][:-1]
        longest = max(segs, key=lambda d: len(d["hyp_tokens"]) + len(d["ref_tokens"]))
        pairs[longest["source"]] = (preset, longest["hyp"], longest["refs"][0])
    return pairs


@pytest.mark.parametrize("width", [700, 1100])
def test_link_view_labels_never_overlap_on_long_real_segments(width: int) -> None:
    for name, (preset, hyp, ref) in _long_pairs().items():
        r = Meteor(preset).score(hyp, ref)
        fig = figures.link_view(r.alignment)
        if name == "wmt21 ru-en segment 3":
            assert (len(r.alignment.hyp), len(r.alignment.ref)) == (39, 44)
            assert fig.layout.meta["layout"] == "columns"
            assert len(_by_role(fig, "chunk_numbers")) == 2  # numbers in their own lane
        boxes = _boxes(fig, width)
        assert boxes and _overlaps(boxes) == [], (name, _overlaps(boxes)[:5])


def test_link_view_labels_never_overlap_up_to_the_length_limit() -> None:
    """10,000 characters a side of long words (the app's limit): still no overlap."""
    vocab = ["невооруженным", "глазом", "и", "Khabarovsk", "a", "demonization", "ж" * 30]
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < 9_900:
        k = len(words)
        words.append(f"{vocab[k % len(vocab)]}{k}")  # distinct words: few candidates
    hyp = " ".join(words)
    ref = " ".join(w if k % 7 else "другое" for k, w in enumerate(words))  # some unmatched
    r = Meteor("meteor-1.5").score(hyp, ref)
    assert len(hyp) <= 10_000 and len(r.alignment.hyp) > 500
    fig = figures.link_view(r.alignment)
    assert fig.layout.meta["layout"] == "columns"
    assert _overlaps(_boxes(fig, 800)) == []
    (labels,) = _by_role(fig, "labels_hyp")
    assert max(len(t) for t in labels.text) == figures.COLUMN_LABEL_CHARS  # cut, with "…"


def test_rows_layout_only_when_labels_fit() -> None:
    """Short pairs stay in rows, and their word labels fit at the assumed width."""
    for hyp, ref in [
        ("the cat sat on a mat", "a cat was sitting on the mat"),
        ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog"),
    ]:
        fig = figures.link_view(Meteor("meteor-1.5").score(hyp, ref).alignment)
        assert fig.layout.meta["layout"] == "rows"
        words = [b for b in _boxes(fig, figures.ROW_LAYOUT_WIDTH_PX) if b[4].startswith("tokens")]
        assert words and _overlaps(words) == []
    crowded = Meteor("meteor-1.5-ru").score(*RU_NAKED_EYE).alignment
    assert figures.link_view_layout(crowded) == "columns"  # 16 Russian words do not fit
