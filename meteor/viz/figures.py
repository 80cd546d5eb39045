"""Plotly figures of METEOR records: pure functions, record in → ``go.Figure`` out.

* :func:`link_view`: hypothesis tokens on one row, reference tokens on the other,
  one link per match coloured (and dashed) by stage, chunks as numbered bands,
  unmatched tokens and function words marked, n:m matches as filled
  quadrilaterals; optional candidate links (the walkthrough);
* :func:`matrix_view`: the X-Ray matrix (reference along the top), stages
  told apart, chunks outlined; or coloured by reference position (X-Ray mode);
  above :data:`MATRIX_CELL_LIMIT` cells drawn compact (matched cells only, so a
  long pair's chart stays small);
* :func:`waterfall_figure`: 1.0 → losses → score (:func:`meteor.analysis.explain.waterfall`);
* :func:`sensitivity_figure`: the score as α, β, γ, δ move, current values marked.

Tokens sit at numeric x positions (repeated words never merge). Every user
string passes through :func:`escape`, because plotly renders a subset of HTML
(``<b>``, ``<br>``, ``<a href>``) in text, hover labels and tick labels.
Labels are taken from a mapping so the app can pass its own language.
No Streamlit here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from meteor.types import Alignment, Chunk, Match, Module, Token, module_order

__all__ = [
    "FUNCTION_WORD",
    "LABELS_EN",
    "MATRIX_CELL_LIMIT",
    "MODULE_COLORS",
    "MODULE_DASH",
    "MODULE_SYMBOL",
    "OTHER_STAGE_COLOR",
    "OTHER_STAGE_DASH",
    "OTHER_STAGE_SYMBOL",
    "UNMATCHED",
    "escape",
    "link_view",
    "link_view_layout",
    "text_width_px",
    "matrix_is_compact",
    "matrix_view",
    "coinciding_curves",
    "sensitivity_figure",
    "token_positions",
    "waterfall_figure",
]

Fmt = Callable[[float], str]


class WaterfallStep(Protocol):
    """A waterfall bar (as :class:`meteor.analysis.explain.WaterfallStep`; no import upwards)."""

    @property
    def key(self) -> str: ...
    @property
    def value(self) -> float: ...


class Curve(Protocol):
    """A sensitivity curve (as :class:`meteor.analysis.explain.Curve`)."""

    @property
    def param(self) -> str: ...
    @property
    def xs(self) -> Sequence[float]: ...
    @property
    def ys(self) -> Sequence[float]: ...
    @property
    def current_x(self) -> float: ...
    @property
    def current_y(self) -> float: ...


#: Okabe-Ito colours: every pair stays apart (CIE76 ΔE ≥ 15) under simulated protanopia,
#: deuteranopia and tritanopia (tests/unit/test_figures.py).  Embedding is black, not the grey of
#: function words.  Colour is never the only carrier: each stage also has a dash
#: (:data:`MODULE_DASH`, links and their legend) and a marker (:data:`MODULE_SYMBOL`, link
#: markers, matrix cells and the matrix legend).
MODULE_COLORS: dict[str, str] = {
    "exact": "#009E73",
    "stem": "#0072B2",
    "synonym": "#E69F00",
    "paraphrase": "#CC79A7",
    "lemma": "#56B4E9",
    "embedding": "#000000",
}
MODULE_DASH: dict[str, str] = {
    "exact": "solid",
    "stem": "dot",
    "synonym": "dash",
    "paraphrase": "dashdot",
    "lemma": "longdash",
    "embedding": "longdashdot",
}
MODULE_SYMBOL: dict[str, str] = {
    "exact": "circle",
    "stem": "square",
    "synonym": "diamond",
    "paraphrase": "triangle-up",
    "lemma": "cross",
    "embedding": "star",
}
#: A stage registered at run time (:func:`meteor.stages.registry.register_stage`) has no
#: entry above: it is drawn dark grey, with this dash and marker.
OTHER_STAGE_COLOR = "#333333"
OTHER_STAGE_DASH = "6px,3px,1px,3px"
OTHER_STAGE_SYMBOL = "hexagon"
UNMATCHED = "#D55E00"
FUNCTION_WORD = "#7F7F7F"
_CHUNK_FILL = ("rgba(240,228,66,0.30)", "rgba(120,120,120,0.20)")
_CHUNK_TEXT = ("#8a7d00", "#505050")

LABELS_EN: dict[str, str] = {
    "exact": "exact",
    "stem": "stem",
    "synonym": "synonym",
    "paraphrase": "paraphrase",
    "lemma": "lemma",
    "embedding": "embedding",
    "hypothesis": "hypothesis",
    "reference": "reference",
    "chunk": "chunk",
    "chunks": "chunks",
    "unmatched": "unmatched",
    "function_word": "function word",
    "weight": "weight",
    "candidates": "candidates",
    "matched_by": "matched by",
    "not_matched": "not matched",
    "ref_position": "reference position",
    "ideal": "perfect match",
    "unmatched_hyp": "unmatched hypothesis words",
    "unmatched_ref": "unmatched reference words",
    "partial_credit": "partial credit (stage weights)",
    "fragmentation": "fragmentation",
    "score": "score",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "current": "current",
    "coincide": "Same curve, drawn one over another: {names} ({params})",
    "matrix_compact": "{n_hyp} × {n_ref} tokens: compact view, only matched cells are drawn. "
    "Drag to zoom in for every word; double-click to zoom out.",
}


def _default_fmt(x: float) -> str:
    return "NaN" if math.isnan(x) else f"{x:.4f}"


def escape(text: str) -> str:
    """Make user text inert in plotly text: ``&``, ``<`` and ``>`` become entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _label(labels: Mapping[str, str] | None, key: str) -> str:
    if labels and key in labels:
        return labels[key]
    return LABELS_EN.get(key, key)


def _frame(title: str | None, *, bottom: int = 10) -> dict[str, object]:
    """Margins and the (escaped) title, as every figure here lays them out."""
    return {
        "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": bottom},
        "title": {"text": escape(title)} if title else None,
    }


def _legend_key(
    name: str, color: str, symbol: str, *, group: str, meta: dict[str, str], size: int = 10
) -> go.Scatter:
    """A legend entry with nothing drawn: one invisible point (``None``) in that marker."""
    return go.Scatter(
        x=[None],
        y=[None],
        mode="markers",
        marker={"color": color, "symbol": symbol, "size": size},
        name=name,
        legendgroup=group,
        meta=meta,
    )


def token_positions(n_hyp: int, n_ref: int) -> tuple[list[float], list[float]]:
    """x of every token: both rows span the same width, so links show reordering."""
    w = max(n_hyp, n_ref, 1)
    hx = [i * (w - 1) / max(n_hyp - 1, 1) for i in range(n_hyp)]
    rx = [j * (w - 1) / max(n_ref - 1, 1) for j in range(n_ref)]
    if n_hyp == 1:
        hx = [(w - 1) / 2]
    if n_ref == 1:
        rx = [(w - 1) / 2]
    return hx, rx


def _words(ws: Sequence[str]) -> str:
    return escape(" ".join(ws))


def _module_order(matches: Sequence[Match]) -> list[Module]:
    used = {m.module for m in matches}
    return [m for m in module_order() if m in used]


def _link_traces(
    matches: Sequence[Match],
    hx: Sequence[float],
    rx: Sequence[float],
    labels: Mapping[str, str] | None,
    weights: Mapping[Module, float] | None,
    fmt: Fmt,
    *,
    faint: bool,
) -> list[go.Scatter]:
    """Per stage: a line trace (1:1), a fill trace (n:m) and a hover-marker trace."""
    traces: list[go.Scatter] = []
    for mod in _module_order(matches):
        name = _label(labels, mod.value)
        group = f"cand_{mod.value}" if faint else mod.value
        if faint:
            name = f"{name} ({_label(labels, 'candidates')})"
        color = MODULE_COLORS.get(mod.value, OTHER_STAGE_COLOR)
        dash = MODULE_DASH.get(mod.value, OTHER_STAGE_DASH)
        ms = [m for m in matches if m.module is mod]
        lx: list[float | None] = []
        ly: list[float | None] = []
        px: list[float | None] = []
        py: list[float | None] = []
        mx: list[float] = []
        my: list[float] = []
        hover: list[str] = []
        custom: list[list[int]] = []
        for m in ms:
            h0, h1 = hx[m.hyp.start], hx[m.hyp.end - 1]
            r0, r1 = rx[m.ref.start], rx[m.ref.end - 1]
            if len(m.hyp) == 1 and len(m.ref) == 1:
                lx += [h0, r0, None]
                ly += [1.0, 0.0, None]
            else:
                d = 0.18
                px += [h0 - d, h1 + d, r1 + d, r0 - d, h0 - d, None]
                py += [1.0, 1.0, 0.0, 0.0, 1.0, None]
            mx.append(((h0 + h1) / 2 + (r0 + r1) / 2) / 2)
            my.append(0.5)
            text = (
                f"<b>{escape(name)}</b><br>{_words(m.hyp_words)} → {_words(m.ref_words)}"
                f"<br>hyp {m.hyp.start}–{m.hyp.end - 1} / ref {m.ref.start}–{m.ref.end - 1}"
            )
            if m.detail:
                text += f"<br>{escape(m.detail)}"
            if weights is not None and mod in weights:
                text += f"<br>{escape(_label(labels, 'weight'))} {fmt(weights[mod])}"
            hover.append(text)
            custom.append([m.hyp.start, m.hyp.end, m.ref.start, m.ref.end])
        width = 1.5 if faint else 3.0
        opacity = 0.45 if faint else 1.0
        shown = False
        if lx:
            traces.append(
                go.Scatter(
                    x=lx,
                    y=ly,
                    mode="lines",
                    name=name,
                    legendgroup=group,
                    showlegend=True,
                    opacity=opacity,
                    line={"color": color, "width": width, "dash": dash},
                    hoverinfo="skip",
                    meta={"role": "links", "module": mod.value, "faint": faint},
                )
            )
            shown = True
        if px:
            traces.append(
                go.Scatter(
                    x=px,
                    y=py,
                    mode="lines",
                    fill="toself",
                    fillcolor=_rgba(color, 0.18 if faint else 0.35),
                    name=name,
                    legendgroup=group,
                    showlegend=not shown,
                    opacity=opacity,
                    line={"color": color, "width": 1.5, "dash": dash},
                    hoverinfo="skip",
                    meta={"role": "phrase_links", "module": mod.value, "faint": faint},
                )
            )
        traces.append(
            go.Scatter(
                x=mx,
                y=my,
                mode="markers",
                name=name,
                legendgroup=group,
                showlegend=False,
                opacity=opacity,
                marker={
                    "color": color,
                    "size": 9 if not faint else 6,
                    "symbol": MODULE_SYMBOL.get(mod.value, OTHER_STAGE_SYMBOL),
                    "line": {"color": "white", "width": 1},
                },
                hovertext=hover,
                hovertemplate="%{hovertext}<extra></extra>",
                customdata=custom,
                meta={"role": "link_hover", "module": mod.value, "faint": faint},
            )
        )
    return traces


def _rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[k : k + 2], 16) for k in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


#: Above this many chunks the link view draws the bands as two traces (alternating
#: colours) with one hover point per chunk (at the band's top edge) and no numbers,
#: instead of one trace per chunk: a long pair of scattered matches has a chunk per
#: match, a trace each made megabytes of JSON and a slow chart, and the numbers
#: overlapped into an unreadable strip.
MAX_CHUNK_TRACES = 100


def _chunk_traces(
    chunks: Sequence[Chunk],
    hx: Sequence[float],
    rx: Sequence[float],
    hyp: Sequence[Token],
    ref: Sequence[Token],
    labels: Mapping[str, str] | None,
) -> list[go.Scatter]:
    traces: list[go.Scatter] = []
    d, e = 0.38, 0.16
    nx: list[float] = []
    ny: list[float] = []
    nt: list[str] = []
    nc: list[str] = []
    cname = _label(labels, "chunk")
    merged = len(chunks) > MAX_CHUNK_TRACES
    band_x: tuple[list[float | None], list[float | None]] = ([], [])
    band_y: tuple[list[float | None], list[float | None]] = ([], [])
    hover_x: list[float] = []
    hover_text: list[str] = []
    for k, ch in enumerate(chunks):
        h0, h1 = hx[ch.hyp.start] - d, hx[ch.hyp.end - 1] + d
        r0, r1 = rx[ch.ref.start] - d, rx[ch.ref.end - 1] + d
        hw = _words([t.text for t in hyp[ch.hyp.start : ch.hyp.end]])
        rw = _words([t.text for t in ref[ch.ref.start : ch.ref.end]])
        xs = [h0, h1, h1, r1, r1, r0, r0, h0, h0]
        ys = [1 + e, 1 + e, 1.0, 0.0, -e, -e, 0.0, 1.0, 1 + e]
        text = f"<b>{escape(cname)} {k + 1}</b><br>{hw}<br>{rw}"
        if merged:
            band_x[k % 2].extend([*xs, None])
            band_y[k % 2].extend([*ys, None])
            hover_x.append((h0 + h1) / 2)
            hover_text.append(text)
        else:
            traces.append(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines",
                    fill="toself",
                    fillcolor=_CHUNK_FILL[k % 2],
                    line={"width": 0},
                    hoveron="fills",
                    hoverinfo="text",
                    text=text,
                    name=_label(labels, "chunks"),
                    legendgroup="chunks",
                    showlegend=k == 0,
                    meta={"role": "chunk", "index": k},
                )
            )
        # numbers in the band's inner corners, clear of the links
        nx += [hx[ch.hyp.start] - d + 0.12, rx[ch.ref.start] - d + 0.12]
        ny += [0.84, 0.16]
        nt += [f"<b>{k + 1}</b>", f"<b>{k + 1}</b>"]
        nc += [_CHUNK_TEXT[k % 2]] * 2
    if merged:
        for parity in (0, 1):
            traces.append(
                go.Scatter(
                    x=band_x[parity],
                    y=band_y[parity],
                    mode="lines",
                    fill="toself",
                    fillcolor=_CHUNK_FILL[parity],
                    line={"width": 0},
                    hoverinfo="skip",
                    name=_label(labels, "chunks"),
                    legendgroup="chunks",
                    showlegend=parity == 0,
                    meta={"role": "chunk_bands", "parity": parity},
                )
            )
        traces.append(
            go.Scatter(
                x=hover_x,
                y=[1 + e / 2] * len(hover_x),
                mode="markers",
                marker={"size": 10, "opacity": 0},
                hovertext=hover_text,
                hovertemplate="%{hovertext}<extra></extra>",
                legendgroup="chunks",
                showlegend=False,
                name=_label(labels, "chunks"),
                meta={"role": "chunk_hover"},
            )
        )
    if chunks and not merged:
        traces.append(
            go.Scatter(
                x=nx,
                y=ny,
                mode="text",
                text=nt,
                textfont={"color": nc, "size": 13},
                hoverinfo="skip",
                legendgroup="chunks",
                showlegend=False,
                name=_label(labels, "chunks"),
                meta={"role": "chunk_numbers"},
            )
        )
    return traces


def _token_trace(
    tokens: Sequence[Token],
    xs: Sequence[float],
    y: float,
    side: str,
    cover: Mapping[int, Match],
    labels: Mapping[str, str] | None,
    show_text: bool,
    mark_unmatched: bool = True,
) -> go.Scatter:
    colors, symbols, text_colors, hover = [], [], [], []
    for i, t in enumerate(tokens):
        m = cover.get(i)
        fw = t.function_word
        if m is None and not mark_unmatched:
            colors.append(FUNCTION_WORD)
            symbols.append("circle-open" if fw else "circle")
            text_colors.append(FUNCTION_WORD if fw else "#111111")
            status = ""
        elif m is None:
            colors.append(UNMATCHED)
            symbols.append("x-open" if fw else "x")
            text_colors.append(UNMATCHED)
            status = _label(labels, "not_matched")
        else:
            colors.append(MODULE_COLORS.get(m.module.value, OTHER_STAGE_COLOR))
            symbols.append("circle-open" if fw else "circle")
            text_colors.append(FUNCTION_WORD if fw else "#111111")
            status = f"{_label(labels, 'matched_by')} {_label(labels, m.module.value)}"
        h = f"{side}[{i}] <b>{escape(t.text)}</b>" + (f"<br>{escape(status)}" if status else "")
        if fw:
            h += f"<br>{escape(_label(labels, 'function_word'))}"
        hover.append(h)
    return go.Scatter(
        x=list(xs),
        y=[y] * len(tokens),
        mode="markers+text" if show_text else "markers",
        text=[escape(t.text) for t in tokens],
        textposition="top center" if side == "hyp" else "bottom center",
        textfont={"color": text_colors, "size": 14},
        marker={"size": 12, "color": colors, "symbol": symbols, "line": {"width": 2}},
        customdata=[[side, i] for i in range(len(tokens))],
        hovertext=hover,
        hovertemplate="%{hovertext}<extra></extra>",
        name=_label(labels, "hypothesis" if side == "hyp" else "reference"),
        showlegend=False,
        meta={"role": f"tokens_{side}"},
    )


def _cover(matches: Sequence[Match], side: str) -> dict[int, Match]:
    out: dict[int, Match] = {}
    for m in matches:
        for i in m.hyp if side == "hyp" else m.ref:
            out.setdefault(i, m)
    return out


#: Plot width (px) the link view assumes it gets at least.  Pairs whose word labels,
#: written horizontally at the tokens' even spacing, would need more than this are drawn
#: as columns instead (:func:`link_view_layout`).
ROW_LAYOUT_WIDTH_PX = 600
#: Columns layout: vertical pitch per token (px) and label font size; the pitch is well
#: above a label's height, so labels of one side never touch.
COLUMN_PITCH_PX = 24
_LABEL_SIZE = 12
_ROW_LABEL_SIZE = 14
#: Labels in the columns layout are cut to this many characters (the hover keeps the word).
COLUMN_LABEL_CHARS = 18
#: Gap (px) from a token's centre to its chunk number, and to its word label.
_NUMBER_GAP_PX = 10
_LABEL_GAP_PX = 36


def text_width_px(text: str, size: float, *, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in px in plotly's default sans-serif font.

    Per character: narrow punctuation and ``i l j`` ≈ 0.35 em, wide letters (``m w`` and
    capitals, Cyrillic ``ж ш щ ю м``) ≈ 0.95 em, East Asian wide ≈ 1.05 em, others ≈ 0.66 em
    (Latin and Cyrillic lower case measure 0.5–0.6 em in Chromium's Open Sans / Arial).
    """
    import unicodedata

    em = 0.0
    for ch in text:
        if ch in "iljIt.,:;'!|()[]{}`\u00b7 -":
            em += 0.35
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            em += 1.05
        elif ch in "mwMWжшщюмЖШЩЮМЫы" or ch.isupper():
            em += 0.95
        else:
            em += 0.66
    return em * size * (1.08 if bold else 1.0)


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def link_view_layout(alignment: Alignment) -> str:
    """``"rows"`` (hypothesis above the reference) or ``"columns"`` (side by side, one token
    per line) for :func:`link_view`.

    Rows when every two neighbouring word labels, written horizontally and centred on
    their tokens, fit in the space between them at :data:`ROW_LAYOUT_WIDTH_PX`; otherwise
    columns, whose labels sit beside the tokens at a fixed pitch and never overlap, however
    long the pair or its words.
    """
    hyp, ref = alignment.hyp, alignment.ref
    w = max(len(hyp), len(ref), 1)
    px_per_unit = ROW_LAYOUT_WIDTH_PX / (w + 1)  # x range [-1, w]
    hx, rx = token_positions(len(hyp), len(ref))
    for toks, xs in ((hyp, hx), (ref, rx)):
        widths = [text_width_px(t.text, _ROW_LABEL_SIZE) for t in toks]
        for k in range(1, len(toks)):
            need = (widths[k - 1] + widths[k]) / 2 + 6
            if need > (xs[k] - xs[k - 1]) * px_per_unit:
                return "columns"
    return "rows"


def _transpose(trace: go.Scatter) -> None:
    """Rows → columns: (position, row) becomes (1 − row, −position): hypothesis at x = 0,
    reference at x = 1, the first token on top."""
    xs, ys = trace.x, trace.y
    if xs is None or ys is None:
        return
    trace.x = [None if y is None else 1 - y for y in ys]
    trace.y = [None if x is None else -x for x in xs]


def _column_labels(
    tokens: Sequence[Token],
    ys: Sequence[float],
    side: str,
    colors: Sequence[str],
) -> go.Scatter:
    """Word labels beside a column: text outside an invisible marker as wide as the gap."""
    return go.Scatter(
        x=[0.0 if side == "hyp" else 1.0] * len(tokens),
        y=list(ys),
        mode="markers+text",
        text=[escape(_cut(t.text, COLUMN_LABEL_CHARS)) for t in tokens],
        textposition="middle left" if side == "hyp" else "middle right",
        textfont={"color": list(colors), "size": _LABEL_SIZE},
        marker={"size": 2 * _LABEL_GAP_PX, "opacity": 0},
        hoverinfo="skip",
        showlegend=False,
        cliponaxis=False,
        name=side,
        meta={"role": f"labels_{side}", "gap_px": _LABEL_GAP_PX, "size": _LABEL_SIZE},
    )


def _column_chunk_numbers(
    chunks: Sequence[Chunk],
    hy: Sequence[float],
    ry: Sequence[float],
    labels: Mapping[str, str] | None,
) -> list[go.Scatter]:
    """Chunk numbers in the lane between a token's marker and its label, on the row of the
    chunk's first token (one chunk starts per token at most, so numbers never stack)."""
    out = []
    for side, ys, x in (("hyp", hy, 0.0), ("ref", ry, 1.0)):
        starts = [ch.hyp.start if side == "hyp" else ch.ref.start for ch in chunks]
        out.append(
            go.Scatter(
                x=[x] * len(chunks),
                y=[ys[i] for i in starts],
                mode="markers+text",
                text=[f"<b>{k + 1}</b>" for k in range(len(chunks))],
                textposition="middle left" if side == "hyp" else "middle right",
                textfont={"color": [_CHUNK_TEXT[k % 2] for k in range(len(chunks))], "size": 11},
                marker={"size": 2 * _NUMBER_GAP_PX, "opacity": 0},
                hoverinfo="skip",
                legendgroup="chunks",
                showlegend=False,
                cliponaxis=False,
                name=_label(labels, "chunks"),
                meta={"role": "chunk_numbers", "side": side, "gap_px": _NUMBER_GAP_PX, "size": 11},
            )
        )
    return out


def link_view(
    alignment: Alignment,
    *,
    matches: Sequence[Match] | None = None,
    chunks: Sequence[Chunk] | None = None,
    candidates: Sequence[Match] = (),
    weights: Mapping[Module, float] | None = None,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = _default_fmt,
    title: str | None = None,
    mark_unmatched: bool = True,
) -> go.Figure:
    """Link view of an alignment: hypothesis and reference, one link per match.

    Short pairs are drawn in rows (hypothesis above the reference, words written
    horizontally); a pair whose labels would not fit side by side
    (:func:`link_view_layout`) is drawn in columns: hypothesis on the left, reference on
    the right, one token per :data:`COLUMN_PITCH_PX`, each word beside its token and each
    chunk number in a lane between the token and its word, so that no two labels overlap
    at any length (the figure grows in height; ``layout.meta["layout"]`` says which).

    Args:
        alignment: tokens of both sides (and, by default, the matches and chunks).
        matches: matches to draw instead of ``alignment.matches`` (walkthrough steps).
        chunks: chunks to band; default ``alignment.chunks`` when ``matches`` is
            not given, none otherwise.
        candidates: extra candidate links drawn faint and thin, one legend entry per stage.
        weights: stage weights for the hover text.
        labels: display strings (see :data:`LABELS_EN` for the keys).
        fmt: number formatter for hover text.
        title: figure title (escaped).
        mark_unmatched: mark tokens without a link as unmatched (off for the tokens step).
    """
    if matches is None:
        matches = alignment.matches
        if chunks is None:
            chunks = alignment.chunks
    chunks = chunks or ()
    hyp, ref = alignment.hyp, alignment.ref
    hx, rx = token_positions(len(hyp), len(ref))
    w = max(len(hyp), len(ref), 1)
    columns = link_view_layout(alignment) == "columns"
    fig = go.Figure()
    traces: list[go.Scatter] = []
    chunk_traces = _chunk_traces(chunks, hx, rx, hyp, ref, labels)
    if columns:  # numbers go in their own lane (below)
        chunk_traces = [t for t in chunk_traces if t.meta.get("role") != "chunk_numbers"]
    traces += chunk_traces
    traces += _link_traces(candidates, hx, rx, labels, weights, fmt, faint=True)
    traces += _link_traces(matches, hx, rx, labels, weights, fmt, faint=False)
    cover = list(matches) if matches else list(candidates)
    token_traces = [
        _token_trace(toks, xs, y, side, _cover(cover, side), labels, not columns, mark_unmatched)
        for side, toks, xs, y in (("hyp", hyp, hx, 1.0), ("ref", ref, rx, 0.0))
    ]
    traces += token_traces
    if columns:
        for t in traces:
            _transpose(t)
        for t in token_traces:
            t.textposition = "middle left" if t.meta["role"] == "tokens_hyp" else "middle right"
        for side, toks, tt in (("hyp", hyp, token_traces[0]), ("ref", ref, token_traces[1])):
            traces.append(_column_labels(toks, tt.y, side, tt.textfont.color))
        if chunks and len(chunks) <= MAX_CHUNK_TRACES:
            traces += _column_chunk_numbers(chunks, token_traces[0].y, token_traces[1].y, labels)
    for t in traces:
        fig.add_trace(t)
    # legend keys for the token marks
    if mark_unmatched:
        fig.add_trace(
            _legend_key(
                _label(labels, "unmatched"),
                UNMATCHED,
                "x",
                group="unmatched",
                meta={"role": "legend_unmatched"},
            )
        )
    if any(t.function_word for t in (*hyp, *ref)):
        fig.add_trace(
            _legend_key(
                _label(labels, "function_word"),
                FUNCTION_WORD,
                "circle-open",
                group="function_word",
                meta={"role": "legend_function_word"},
            )
        )
    if not columns:
        pad = 0.7
        fig.update_layout(
            height=340,
            **_frame(title),
            xaxis={"visible": False, "range": [-1.0, w], "fixedrange": False},
            yaxis={
                "range": [-pad, 1 + pad],
                "tickvals": [0, 1],
                "ticktext": [
                    escape(_label(labels, "reference")),
                    escape(_label(labels, "hypothesis")),
                ],
                "showgrid": False,
                "zeroline": False,
                "fixedrange": True,
            },
        )
    else:
        label_px = max(
            (text_width_px(_cut(t.text, COLUMN_LABEL_CHARS), _LABEL_SIZE) for t in (*hyp, *ref)),
            default=0.0,
        )
        side_px = int(label_px + _LABEL_GAP_PX + 12)
        top = 96 if title else 76  # legend, then the two column headings
        fig.update_layout(
            height=top + 20 + COLUMN_PITCH_PX * w,
            margin={"l": side_px, "r": side_px, "t": top, "b": 20},
            title={"text": escape(title)} if title else None,
            xaxis={
                "range": [-0.03, 1.03],
                "side": "top",
                "tickvals": [0, 1],
                "ticktext": [
                    escape(_label(labels, "hypothesis")),
                    escape(_label(labels, "reference")),
                ],
                "showgrid": False,
                "zeroline": False,
                "fixedrange": True,
            },
            yaxis={
                "visible": False,
                "range": [-(w - 1) - 0.5, 0.5],
                "fixedrange": False,
            },
        )
    fig.update_layout(
        clickmode="event+select",
        hovermode="closest",
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.0, "x": 0.0},
        plot_bgcolor="white",
        meta={"layout": "columns" if columns else "rows"},
    )
    if columns:  # the legend at the top, above the column headings
        fig.update_layout(legend={"y": 1.0, "yanchor": "top", "yref": "container"})
    return fig


#: :func:`matrix_view` sends every cell (and a hover label for each) up to this many
#: cells (hypothesis × reference tokens, e.g. 64 × 64); above it the matrix is compact:
#: only matched cells are sent, so its size grows with the matches, not the square.
MATRIX_CELL_LIMIT = 4_096
#: Height cap of a compact matrix (px): the whole pattern in view; zoom in for the words.
_COMPACT_HEIGHT = 900
#: Tick labels longer than this are cut (the hover label keeps the whole token).
_TICK_CHARS = 40


def matrix_is_compact(alignment: Alignment) -> bool:
    """Whether :func:`matrix_view` draws this alignment compact (above :data:`MATRIX_CELL_LIMIT`)."""
    return len(alignment.hyp) * len(alignment.ref) > MATRIX_CELL_LIMIT


def matrix_view(
    alignment: Alignment,
    *,
    color_by: str = "module",
    labels: Mapping[str, str] | None = None,
    title: str | None = None,
) -> go.Figure:
    """X-Ray-style matrix: reference along the top, hypothesis down the side.

    ``color_by="module"`` colours a matched cell by its stage; ``"order"``
    colours it by the reference position it matched (X-Ray's spectrum), so a
    reordering shows as colours out of sequence. Chunks are outlined and numbered.

    Up to :data:`MATRIX_CELL_LIMIT` cells every cell is drawn with a hover label
    and every token is a tick label.  Above it (:func:`matrix_is_compact`) the same
    matrix is drawn compact, its size growing with the matches instead of the
    square of the length: only matched cells are sent (empty cells are the
    background) and only they have hover labels, which also name the chunk; chunks
    wider than one cell are outlined by a single path, unnumbered; the axes list
    the tokens as ``index word`` categories, labelled at a step that plotly picks
    and refines on zoom; the height is capped; a note under the matrix says so
    (label ``matrix_compact``).
    """
    if color_by not in ("module", "order"):
        raise ValueError(f"color_by must be 'module' or 'order', got {color_by!r}")
    hyp, ref = alignment.hyp, alignment.ref
    nh, nr = len(hyp), len(ref)
    compact = matrix_is_compact(alignment)
    codes = {m: k + 1 for k, m in enumerate(module_order())}

    def cell(i: int, j: int) -> str:
        return f"hyp[{i}] {escape(hyp[i].text)} / ref[{j}] {escape(ref[j].text)}"

    def matched(i: int, j: int, m: Match) -> tuple[float, str]:
        value = float(codes[m.module]) if color_by == "module" else float(j)
        text = f"{cell(i, j)}<br><b>{escape(_label(labels, m.module.value))}</b>"
        if m.detail:
            text += f"<br>{escape(m.detail)}"
        return value, text

    h_matched = alignment.hyp_matched()
    r_matched = alignment.ref_matched()
    x_ticks = [_tick(t, r_matched[j]) for j, t in enumerate(ref)]
    y_ticks = [_tick(t, h_matched[i]) for i, t in enumerate(hyp)]
    fig = go.Figure()
    shapes: list[dict[str, object]] = []
    annotations: list[dict[str, object]] = []
    if compact:
        x_cats = [f"{j} {s}" for j, s in enumerate(x_ticks)]
        y_cats = [f"{i} {s}" for i, s in enumerate(y_ticks)]
        fig.add_trace(_sparse_heat(alignment, matched, x_cats, y_cats, labels, color_by))
        outline = _chunk_outline(alignment.chunks)
        if outline:
            shapes.append(outline)
        annotations.append(
            {
                "text": escape(
                    _label(labels, "matrix_compact")
                    .replace("{n_hyp}", str(nh))
                    .replace("{n_ref}", str(nr))
                ),
                "xref": "paper",
                "yref": "paper",
                "x": 1.0,
                "y": -0.02,
                "xanchor": "right",
                "yanchor": "top",
                "showarrow": False,
                "font": {"size": 11, "color": "#505050"},
            }
        )
        x_axis: dict[str, object] = _category_axis(x_cats)
        y_axis: dict[str, object] = {**_category_axis(y_cats), "range": [nh - 0.5, -0.5]}
    else:
        z: list[list[float | None]] = [[None] * nr for _ in range(nh)]
        hover = [[cell(i, j) for j in range(nr)] for i in range(nh)]
        for m in alignment.matches:
            for i in m.hyp:
                for j in m.ref:
                    z[i][j], hover[i][j] = matched(i, j, m)
        fig.add_trace(
            go.Heatmap(
                z=z,
                **_heat_colors(color_by, nr, labels),
                xgap=1,
                ygap=1,
                text=hover,
                hovertemplate="%{text}<extra></extra>",
                name="matrix",
                meta={"role": "matrix"},
            )
        )
        for k, ch in enumerate(alignment.chunks):
            shapes.append(
                {
                    "type": "rect",
                    "x0": ch.ref.start - 0.5,
                    "x1": ch.ref.end - 0.5,
                    "y0": ch.hyp.start - 0.5,
                    "y1": ch.hyp.end - 0.5,
                    "line": {"color": "black", "width": 2},
                }
            )
            # the number inside the chunk's own first cell (top-left corner; the row is
            # reversed, so "top" hangs the label down into the cell): that cell is always
            # one of this chunk's matched cells, and the row holds no other chunk's cell,
            # so a number never sits on another chunk (it once sat past the chunk's top
            # right corner, on whatever cell was there).
            annotations.append(
                {
                    "x": ch.ref.start - 0.5,
                    "y": ch.hyp.start - 0.5,
                    "text": f"<b>{k + 1}</b>",
                    "showarrow": False,
                    "xanchor": "left",
                    "yanchor": "top",
                    "xshift": 1,
                    "yshift": -1,
                    "bgcolor": "rgba(255,255,255,0.85)",
                    "borderpad": 0,
                    "font": {"size": 10, "color": "#111111"},
                    "name": f"chunk_{k}",
                }
            )
        x_axis = _word_axis(x_ticks)
        y_axis = {"autorange": "reversed", **_word_axis(y_ticks)}
    if color_by == "module":
        for mod in _module_order(alignment.matches):
            fig.add_trace(
                _legend_key(
                    _label(labels, mod.value),
                    MODULE_COLORS.get(mod.value, OTHER_STAGE_COLOR),
                    MODULE_SYMBOL.get(mod.value, OTHER_STAGE_SYMBOL),
                    size=12,
                    group=mod.value,
                    meta={"role": "legend", "module": mod.value},
                )
            )
        if not compact:
            fig.add_traces(_stage_glyphs(alignment))
    fig.update_xaxes(
        side="top", tickangle=-60, range=[-0.5, nr - 0.5], showgrid=False, zeroline=False, **x_axis
    )
    fig.update_yaxes(showgrid=False, zeroline=False, **y_axis)
    height = max(260, 150 + 26 * nh)
    fig.update_layout(
        height=min(height, _COMPACT_HEIGHT) if compact else height,
        **_frame(title, bottom=40 if compact else 10),  # compact: room for the note
        shapes=shapes,
        annotations=annotations,
        plot_bgcolor="#f4f4f4",
        legend={"orientation": "h", "yanchor": "top", "y": -0.02, "x": 0.0},
    )
    return fig


def _stage_glyphs(alignment: Alignment) -> list[go.Scatter]:
    """The stage's marker (:data:`MODULE_SYMBOL`), white with a dark rim, on every matched
    cell (one trace per stage): the matrix legend's second channel besides colour.  No
    hover (the heatmap has it)."""
    out = []
    for mod in _module_order(alignment.matches):
        xs: list[int] = []
        ys: list[int] = []
        for m in alignment.matches:
            if m.module is mod:
                for i in m.hyp:
                    for j in m.ref:
                        xs.append(j)
                        ys.append(i)
        out.append(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                marker={
                    "symbol": MODULE_SYMBOL.get(mod.value, OTHER_STAGE_SYMBOL),
                    "size": 8,
                    "color": "white",
                    "line": {"width": 1, "color": "rgba(0,0,0,0.55)"},
                },
                hoverinfo="skip",
                showlegend=False,
                legendgroup=mod.value,
                name=mod.value,
                meta={"role": "stage_glyphs", "module": mod.value},
            )
        )
    return out


def _tick(t: Token, matched: bool) -> str:
    """A token as a matrix tick label: escaped, cut, italic if a function word, red if unmatched."""
    text = t.text if len(t.text) <= _TICK_CHARS else t.text[: _TICK_CHARS - 1] + "…"
    s = escape(text)
    if t.function_word:
        s = f"<i>{s}</i>"
    if not matched:
        s = f"<span style='color:{UNMATCHED}'>{s}</span>"
    return s


def _word_axis(ticks: Sequence[str]) -> dict[str, object]:
    """Every token a tick, its word the label (numeric axis: cell ``k`` at ``k``)."""
    return {"tickmode": "array", "tickvals": list(range(len(ticks))), "ticktext": list(ticks)}


def _category_axis(cats: Sequence[str]) -> dict[str, object]:
    """One category per token, in order (cell ``k`` still at ``k``).

    On a category axis plotly labels every n-th category, n a whole number picked
    for the visible range (so every token once zoomed in), never a position between
    two tokens.  The index in each name keeps repeated words apart.
    """
    return {
        "type": "category",
        "categoryorder": "array",
        "categoryarray": list(cats),
        "tickmode": "auto",
        "nticks": 40,  # at most about one label per 20 px of a capped-height matrix
    }


def _heat_colors(color_by: str, n_ref: int, labels: Mapping[str, str] | None) -> dict[str, object]:
    """Colour settings of the matrix heatmap: stage codes 1..n, or reference positions."""
    if color_by == "module":
        cols = [MODULE_COLORS.get(m.value, OTHER_STAGE_COLOR) for m in module_order()]
        n = len(cols)
        scale: list[list[object]] = []
        for k, c in enumerate(cols):
            scale += [[k / n, c], [(k + 1) / n, c]]
        return {"zmin": 0.5, "zmax": n + 0.5, "colorscale": scale, "showscale": False}
    return {
        "zmin": 0,
        "zmax": max(n_ref - 1, 1),
        "colorscale": "Viridis",
        "showscale": True,
        "colorbar": {"title": {"text": escape(_label(labels, "ref_position"))}},
    }


def _sparse_heat(
    alignment: Alignment,
    matched: Callable[[int, int, Match], tuple[float, str]],
    x_cats: Sequence[str],
    y_cats: Sequence[str],
    labels: Mapping[str, str] | None,
    color_by: str,
) -> go.Heatmap:
    """The compact matrix: matched cells only, as heatmap columns (x, y, z, text).

    Plotly builds the grid from the distinct x and y values present, so every row
    and column without a match gets one empty (``None``) cell placed in a row or
    column that exists anyway: one grid cell per token, the rest background.
    """
    nh, nr = len(alignment.hyp), len(alignment.ref)
    chunk_of = {mi: ch.index for ch in alignment.chunks for mi in ch.matches}
    chunk = escape(_label(labels, "chunk"))
    xs: list[str] = []
    ys: list[str] = []
    zs: list[float | None] = []
    texts: list[str] = []
    rows: set[int] = set()
    cols: set[int] = set()
    for mi, m in enumerate(alignment.matches):
        which = f"<br>{chunk} {chunk_of[mi] + 1}" if mi in chunk_of else ""
        for i in m.hyp:
            for j in m.ref:
                value, text = matched(i, j, m)
                xs.append(x_cats[j])
                ys.append(y_cats[i])
                zs.append(value)
                texts.append(text + which)
                rows.add(i)
                cols.add(j)
    if nh and nr:
        for j in sorted(set(range(nr)) - cols):
            xs.append(x_cats[j])
            ys.append(y_cats[0])
            zs.append(None)
            texts.append("")
        for i in sorted(set(range(nh)) - rows):
            xs.append(x_cats[0])
            ys.append(y_cats[i])
            zs.append(None)
            texts.append("")
    return go.Heatmap(
        x=xs,
        y=ys,
        z=zs,
        **_heat_colors(color_by, nr, labels),
        text=texts,
        hovertemplate="%{text}<extra></extra>",
        hoverongaps=False,
        name="matrix",
        meta={"role": "matrix", "compact": True},
    )


def _chunk_outline(chunks: Sequence[Chunk]) -> dict[str, object] | None:
    """The outlines of every chunk wider than one cell, as one path shape (``None``: no such chunk).

    A one-cell chunk gets no outline: at a cell or two per pixel it would hide the
    cell's colour (the hover label names the chunk).  Path coordinates on a category
    axis are category numbers, so cell ``k`` spans ``k ± 0.5`` as in the full matrix.
    """
    parts = []
    for ch in chunks:
        if len(ch.hyp) == 1 and len(ch.ref) == 1:
            continue
        x0, x1 = ch.ref.start - 0.5, ch.ref.end - 0.5
        y0, y1 = ch.hyp.start - 0.5, ch.hyp.end - 0.5
        parts.append(f"M{x0},{y0}H{x1}V{y1}H{x0}Z")
    if not parts:
        return None
    return {
        "type": "path",
        "path": "".join(parts),
        "line": {"color": "rgba(0,0,0,0.6)", "width": 1},
        "layer": "above",
    }


def waterfall_figure(
    steps: Sequence[WaterfallStep],
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = _default_fmt,
    title: str | None = None,
) -> go.Figure:
    """1.0 → each loss → the score, as a waterfall (from :func:`meteor.analysis.explain.waterfall`)."""
    xs = [_label(labels, s.key) for s in steps]
    measure = ["absolute"] + ["relative"] * (len(steps) - 2) + ["total"]
    ys = [s.value for s in steps[:-1]] + [0.0]
    text = [fmt(steps[0].value)]
    text += [_signed(s.value, fmt) for s in steps[1:-1]]
    text.append(fmt(steps[-1].value))
    fig = go.Figure(
        go.Waterfall(
            x=[escape(x) for x in xs],
            y=ys,
            measure=measure,
            text=text,
            textposition="outside",
            hovertext=[f"{escape(x)}: {t}" for x, t in zip(xs, text, strict=True)],
            hoverinfo="text",
            decreasing={"marker": {"color": UNMATCHED}},
            increasing={"marker": {"color": MODULE_COLORS["exact"]}},
            totals={"marker": {"color": MODULE_COLORS["stem"]}},
            connector={"line": {"color": "#999999", "width": 1}},
            meta={"role": "waterfall", "keys": [s.key for s in steps]},
        )
    )
    fig.update_layout(
        height=360,
        **_frame(title),
        yaxis={"range": [0, 1.12]},
        showlegend=False,
        plot_bgcolor="white",
    )
    return fig


def _signed(x: float, fmt: Fmt) -> str:
    if x == 0:
        return fmt(0.0)
    return ("−" if x < 0 else "+") + fmt(abs(x))


#: One colour, dash and marker per setting (Okabe-Ito colours): a setting stays
#: identifiable in grey print or for any colour vision, and curves that coincide stay
#: visible (earlier settings are drawn wider, later ones inside them; markers staggered).
_SERIES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
_SERIES_DASH = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_SERIES_SYMBOL = ("circle", "square", "diamond", "triangle-up", "x", "star")
#: Two curves closer than this everywhere are "the same curve" for the note.
COINCIDE_TOL = 1e-9


def coinciding_curves(curves: Mapping[str, Sequence[Curve]]) -> list[tuple[list[str], list[str]]]:
    """Settings whose curves coincide: ``[(setting names, parameters), ...]``.

    For every parameter, settings whose curve has the same x values and y values within
    :data:`COINCIDE_TOL` at every point are grouped; groups with the same settings are
    merged across parameters (in parameter order).  Settings order is kept.
    """
    names = list(curves)
    found: dict[tuple[str, ...], list[str]] = {}
    if not names:
        return []
    for col, c0 in enumerate(curves[names[0]]):
        groups: list[list[str]] = []
        for name in names:
            c = curves[name][col]
            for g in groups:
                ref = curves[g[0]][col]
                if list(ref.xs) == list(c.xs) and all(
                    abs(a - b) <= COINCIDE_TOL for a, b in zip(ref.ys, c.ys, strict=True)
                ):
                    g.append(name)
                    break
            else:
                groups.append([name])
        for g in groups:
            if len(g) > 1:
                found.setdefault(tuple(g), []).append(c0.param)
    return [(list(g), ps) for g, ps in found.items()]


def sensitivity_figure(
    curves: Mapping[str, Sequence[Curve]],
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = _default_fmt,
) -> go.Figure:
    """One panel per parameter; one line per setting, its current value marked.

    Each setting has its own colour, dash and marker symbol; when curves of several
    settings coincide (:func:`coinciding_curves`) a note above the panels says which
    (label ``coincide``, with ``{names}`` and ``{params}``), and each curve's ``meta``
    lists the settings it coincides with (``same_as``).

    Args:
        curves: setting name → its curves (from :func:`meteor.analysis.explain.sensitivity`).
    """
    names = list(curves)
    params = [c.param for c in curves[names[0]]] if names else []
    fig = make_subplots(
        rows=1,
        cols=max(len(params), 1),
        shared_yaxes=True,
        subplot_titles=[escape(_label(labels, p)) for p in params],
        horizontal_spacing=0.04,
    )
    same = coinciding_curves(curves)
    same_as: dict[tuple[str, str], list[str]] = {}
    for group, ps in same:
        for p in ps:
            for name in group:
                same_as[(name, p)] = [g for g in group if g != name]
    n = len(names)
    step = 2 * max(n, 1)  # markers every `step` points, each setting shifted by one
    for s, setting in enumerate(names):
        color = _SERIES[s % len(_SERIES)]
        dash = _SERIES_DASH[s % len(_SERIES_DASH)]
        symbol = _SERIES_SYMBOL[s % len(_SERIES_SYMBOL)]
        width = 2.0 + 1.5 * (n - 1 - s)
        for col, c in enumerate(curves[setting], start=1):
            sizes = [9 if k % step == s % step else 0 for k in range(len(c.xs))]
            fig.add_trace(
                go.Scatter(
                    x=list(c.xs),
                    y=list(c.ys),
                    mode="lines+markers",
                    line={"color": color, "width": width, "dash": dash},
                    marker={"symbol": symbol, "size": sizes, "color": color},
                    name=escape(setting),
                    legendgroup=f"s{s}",
                    showlegend=col == 1,
                    hovertemplate=f"{escape(_label(labels, c.param))} = %{{x:.3f}}"
                    f"<br>{escape(_label(labels, 'score'))} %{{y:.4f}}<extra>"
                    + escape(setting)
                    + "</extra>",
                    meta={
                        "role": "curve",
                        "param": c.param,
                        "setting": setting,
                        "same_as": same_as.get((setting, c.param), []),
                    },
                ),
                row=1,
                col=col,
            )
            fig.add_trace(
                go.Scatter(
                    x=[c.current_x],
                    y=[c.current_y],
                    mode="markers",
                    marker={
                        "color": color,
                        "size": 12,
                        "symbol": symbol,
                        "line": {"color": "white", "width": 1},
                    },
                    name=f"{escape(setting)} ({escape(_label(labels, 'current'))})",
                    legendgroup=f"s{s}",
                    showlegend=False,
                    hovertext=[
                        f"{escape(setting)}: {escape(_label(labels, c.param))} = "
                        f"{fmt(c.current_x)}, {escape(_label(labels, 'score'))} "
                        f"{fmt(c.current_y)}"
                    ],
                    hovertemplate="%{hovertext}<extra></extra>",
                    meta={"role": "current", "param": c.param, "setting": setting},
                ),
                row=1,
                col=col,
            )
    notes = []
    for k, (group, ps) in enumerate(same):
        text = (
            _label(labels, "coincide")
            .replace("{names}", " = ".join(group))
            .replace("{params}", ", ".join(_label(labels, p) for p in ps))
        )
        notes.append(
            {
                "text": escape(text),
                "xref": "paper",
                "yref": "paper",
                "x": 0.0,
                "y": 1.0,
                "xanchor": "left",
                "yanchor": "bottom",
                "yshift": 24 + 18 * (len(same) - 1 - k),
                "showarrow": False,
                "align": "left",
                "font": {"size": 12, "color": "#333333"},
                "name": "coincide",
            }
        )
    for a in notes:
        fig.add_annotation(a)
    fig.update_yaxes(range=[0, 1.02])
    fig.update_layout(
        height=300 + 18 * len(notes),
        margin={"l": 10, "r": 10, "t": 40 + 18 * len(notes), "b": 10},
        legend={
            "orientation": "h",
            "yanchor": "bottom",
            "y": -0.35,
            "x": 0.0,
            "itemsizing": "constant",  # each setting's marker shown in the legend too
        },
        plot_bgcolor="white",
    )
    return fig
