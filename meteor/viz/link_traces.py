"""The traces of the link view (:func:`meteor.viz.links.link_view`), in its rows layout:
hypothesis tokens at y = 1, reference tokens at y = 0, at the x of
:func:`meteor.viz.links.token_positions` (the columns layout transposes them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from meteor.analysis.explain.parts import span_label
from meteor.module_registry import Module
from meteor.types import Chunk, Match, Token
from meteor.viz.style import (
    FUNCTION_WORD,
    MODULE_COLORS,
    MODULE_DASH,
    MODULE_SYMBOL,
    OTHER_STAGE_COLOR,
    OTHER_STAGE_DASH,
    OTHER_STAGE_SYMBOL,
    UNMATCHED,
    Fmt,
    escape,
    label,
    module_order,
    rgba,
)

__all__ = [
    "CHUNK_FILL",
    "CHUNK_TEXT",
    "MAX_CHUNK_TRACES",
    "chunk_traces",
    "cover",
    "link_traces",
    "token_trace",
]

#: Band fill and number colour of chunks, alternating.
CHUNK_FILL = ("rgba(240,228,66,0.30)", "rgba(120,120,120,0.20)")
CHUNK_TEXT = ("#8a7d00", "#505050")
#: Above this many chunks the link view draws the bands as two traces (alternating colours)
#: with one hover point per chunk and no numbers, instead of one trace per chunk (megabytes
#: of JSON for a long pair of scattered matches, the numbers an unreadable strip).
MAX_CHUNK_TRACES = 100
#: Half the extra width of a band around its tokens, and its height above/below the rows.
_BAND_PAD, _BAND_RISE = 0.38, 0.16

_Line = list[float | None]


def _words(ws: Sequence[str]) -> str:
    return escape(" ".join(ws))


# --------------------------------------------------------------------------- links


def link_traces(
    matches: Sequence[Match],
    hx: Sequence[float],
    rx: Sequence[float],
    labels: Mapping[str, str] | None,
    weights: Mapping[Module, float] | None,
    fmt: Fmt,
    *,
    faint: bool,
) -> list[go.Scatter]:
    """Per stage: a line trace (1:1), a fill trace (n:m) and a hover-marker trace (``faint``:
    candidate links, thinner and half transparent, with their own legend entries)."""
    traces: list[go.Scatter] = []
    for mod in module_order(matches):
        ms = [m for m in matches if m.module is mod]
        name = label(labels, mod.value)
        if faint:
            name = f"{name} ({label(labels, 'candidates')})"
        common = {
            "name": name,
            "legendgroup": f"cand_{mod.value}" if faint else mod.value,
            "opacity": 0.45 if faint else 1.0,
        }
        meta = {"module": mod.value, "faint": faint}
        color = MODULE_COLORS.get(mod.value, OTHER_STAGE_COLOR)
        dash = MODULE_DASH.get(mod.value, OTHER_STAGE_DASH)
        lines, quads, (mx, my) = _link_paths(ms, hx, rx)
        if lines[0]:
            line = {"color": color, "width": 1.5 if faint else 3.0, "dash": dash}
            traces.append(
                go.Scatter(
                    x=lines[0],
                    y=lines[1],
                    mode="lines",
                    showlegend=True,
                    line=line,
                    hoverinfo="skip",
                    meta={"role": "links", **meta},
                    **common,
                )
            )
        if quads[0]:
            traces.append(
                go.Scatter(
                    x=quads[0],
                    y=quads[1],
                    mode="lines",
                    fill="toself",
                    fillcolor=rgba(color, 0.18 if faint else 0.35),
                    showlegend=not lines[0],
                    line={"color": color, "width": 1.5, "dash": dash},
                    hoverinfo="skip",
                    meta={"role": "phrase_links", **meta},
                    **common,
                )
            )
        marker = {
            "color": color,
            "size": 9 if not faint else 6,
            "symbol": MODULE_SYMBOL.get(mod.value, OTHER_STAGE_SYMBOL),
            "line": {"color": "white", "width": 1},
        }
        traces.append(
            go.Scatter(
                x=mx,
                y=my,
                mode="markers",
                showlegend=False,
                marker=marker,
                hovertext=[_link_hover(m, name, labels, weights, fmt) for m in ms],
                hovertemplate="%{hovertext}<extra></extra>",
                customdata=[[m.hyp.start, m.hyp.end, m.ref.start, m.ref.end] for m in ms],
                meta={"role": "link_hover", **meta},
                **common,
            )
        )
    return traces


def _link_paths(
    ms: Sequence[Match], hx: Sequence[float], rx: Sequence[float]
) -> tuple[tuple[_Line, _Line], tuple[_Line, _Line], tuple[list[float], list[float]]]:
    """``(x, y)`` of the 1:1 lines, of the n:m quadrilaterals (``None`` between two)
    and of the hover marker halfway along each link."""
    lx: _Line = []
    ly: _Line = []
    px: _Line = []
    py: _Line = []
    mx: list[float] = []
    my: list[float] = []
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
    return (lx, ly), (px, py), (mx, my)


def _link_hover(
    m: Match,
    name: str,
    labels: Mapping[str, str] | None,
    weights: Mapping[Module, float] | None,
    fmt: Fmt,
) -> str:
    """Hover text of a link: stage, words, spans, the stage's reason and weight."""
    text = (
        f"<b>{escape(name)}</b><br>{_words(m.hyp_words)} → {_words(m.ref_words)}"
        f"<br>{escape(label(labels, 'hypothesis'))} {span_label(m.hyp)}"
        f" / {escape(label(labels, 'reference'))} {span_label(m.ref)}"
    )
    if m.detail:
        text += f"<br>{escape(m.detail)}"
    if weights is not None and m.module in weights:
        text += f"<br>{escape(label(labels, 'weight'))} {fmt(weights[m.module])}"
    return text


# --------------------------------------------------------------------------- chunks


def chunk_traces(
    chunks: Sequence[Chunk],
    hx: Sequence[float],
    rx: Sequence[float],
    hyp: Sequence[Token],
    ref: Sequence[Token],
    labels: Mapping[str, str] | None,
) -> list[go.Scatter]:
    """A band around each chunk (hover: its words), numbered in its inner corners; above
    :data:`MAX_CHUNK_TRACES` chunks :func:`_merged_bands`."""
    name = label(labels, "chunks")
    cname = escape(label(labels, "chunk"))
    bands = []
    for k, ch in enumerate(chunks):
        xs, ys = _band(ch, hx, rx)
        hw = _words([t.text for t in hyp[ch.hyp.start : ch.hyp.end]])
        rw = _words([t.text for t in ref[ch.ref.start : ch.ref.end]])
        bands.append((xs, ys, f"<b>{cname} {k + 1}</b><br>{hw}<br>{rw}"))
    if len(chunks) > MAX_CHUNK_TRACES:
        return _merged_bands(bands, [_band_name(labels, p, len(chunks)) for p in (0, 1)])
    traces = [
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines",
            fill="toself",
            fillcolor=CHUNK_FILL[k % 2],
            line={"width": 0},
            hoveron="fills",
            hoverinfo="text",
            text=text,
            name=_band_name(labels, k % 2, len(chunks)),
            legendgroup="chunks",
            showlegend=k < 2,  # both colours the bands alternate in
            meta={"role": "chunk", "index": k},
        )
        for k, (xs, ys, text) in enumerate(bands)
    ]
    if chunks:
        traces.append(_chunk_numbers(chunks, hx, rx, name))
    return traces


def _band(ch: Chunk, hx: Sequence[float], rx: Sequence[float]) -> tuple[list[float], list[float]]:
    """The outline of a chunk's band: over its hypothesis tokens, down, under its reference tokens."""
    d, e = _BAND_PAD, _BAND_RISE
    h0, h1 = hx[ch.hyp.start] - d, hx[ch.hyp.end - 1] + d
    r0, r1 = rx[ch.ref.start] - d, rx[ch.ref.end - 1] + d
    xs = [h0, h1, h1, r1, r1, r0, r0, h0, h0]
    ys = [1 + e, 1 + e, 1.0, 0.0, -e, -e, 0.0, 1.0, 1 + e]
    return xs, ys


def _band_name(labels: Mapping[str, str] | None, parity: int, n: int) -> str:
    """The legend name of the bands of one colour: ``chunks 1, 3, …`` and ``chunks 2, 4, …``
    (plain ``chunks`` when there is only one chunk)."""
    name = label(labels, "chunks")
    numbers = [str(k) for k in range(parity + 1, n + 1, 2)]
    if n < 2 or not numbers:
        return name
    return f"{name} {', '.join(numbers[:2])}{', …' if len(numbers) > 2 else ''}"


def _merged_bands(
    bands: Sequence[tuple[list[float], list[float], str]], names: Sequence[str]
) -> list[go.Scatter]:
    """Many chunks: the bands as two traces (alternating colours, each with its legend
    entry) and one hover trace."""
    name = names[0]
    band_x: tuple[_Line, _Line] = ([], [])
    band_y: tuple[_Line, _Line] = ([], [])
    for k, (xs, ys, _) in enumerate(bands):
        band_x[k % 2].extend([*xs, None])
        band_y[k % 2].extend([*ys, None])
    traces = [
        go.Scatter(
            x=band_x[parity],
            y=band_y[parity],
            mode="lines",
            fill="toself",
            fillcolor=CHUNK_FILL[parity],
            line={"width": 0},
            hoverinfo="skip",
            name=names[parity],
            legendgroup="chunks",
            showlegend=True,
            meta={"role": "chunk_bands", "parity": parity},
        )
        for parity in (0, 1)
    ]
    hover_x = [(xs[0] + xs[1]) / 2 for xs, _, _ in bands]  # the middle of the band's top
    traces.append(
        go.Scatter(
            x=hover_x,
            y=[1 + _BAND_RISE / 2] * len(hover_x),
            mode="markers",
            marker={"size": 10, "opacity": 0},
            hovertext=[text for _, _, text in bands],
            hovertemplate="%{hovertext}<extra></extra>",
            legendgroup="chunks",
            showlegend=False,
            name=name,
            meta={"role": "chunk_hover"},
        )
    )
    return traces


def _chunk_numbers(
    chunks: Sequence[Chunk], hx: Sequence[float], rx: Sequence[float], name: str
) -> go.Scatter:
    """Each chunk's number in its band's two inner corners, clear of the links."""
    d = _BAND_PAD
    nx: list[float] = []
    ny: list[float] = []
    nt: list[str] = []
    nc: list[str] = []
    for k, ch in enumerate(chunks):
        nx += [hx[ch.hyp.start] - d + 0.12, rx[ch.ref.start] - d + 0.12]
        ny += [0.84, 0.16]
        nt += [f"<b>{k + 1}</b>", f"<b>{k + 1}</b>"]
        nc += [CHUNK_TEXT[k % 2]] * 2
    return go.Scatter(
        x=nx,
        y=ny,
        mode="text",
        text=nt,
        textfont={"color": nc, "size": 13},
        hoverinfo="skip",
        legendgroup="chunks",
        showlegend=False,
        name=name,
        meta={"role": "chunk_numbers"},
    )


# --------------------------------------------------------------------------- tokens


def token_trace(
    tokens: Sequence[Token],
    xs: Sequence[float],
    y: float,
    side: str,
    cover: Mapping[int, Match],
    labels: Mapping[str, str] | None,
    show_text: bool,
    mark_unmatched: bool = True,
) -> go.Scatter:
    """One side's tokens: stage colour if matched, a red cross if not, hollow if a function word."""
    colors, symbols, text_colors, hover = [], [], [], []
    side_name = escape(label(labels, "hypothesis" if side == "hyp" else "reference"))
    for i, t in enumerate(tokens):
        m = cover.get(i)
        fw = t.function_word
        if m is None and mark_unmatched:
            colors.append(UNMATCHED)
            symbols.append("x-open" if fw else "x")
            text_colors.append(UNMATCHED)
            status = label(labels, "not_matched")
        else:  # matched, or unmatched and not marked (grey)
            stage = None if m is None else m.module.value
            colors.append(MODULE_COLORS.get(stage, OTHER_STAGE_COLOR) if stage else FUNCTION_WORD)
            symbols.append("circle-open" if fw else "circle")
            text_colors.append(FUNCTION_WORD if fw else "#111111")
            status = f"{label(labels, 'matched_by')} {label(labels, stage)}" if stage else ""
        h = f"{side_name} {i + 1} <b>{escape(t.text)}</b>" + (
            f"<br>{escape(status)}" if status else ""
        )
        if fw:
            h += f"<br>{escape(label(labels, 'function_word'))}"
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
        name=label(labels, "hypothesis" if side == "hyp" else "reference"),
        showlegend=False,
        meta={"role": f"tokens_{side}"},
    )


def cover(matches: Sequence[Match], side: str) -> dict[int, Match]:
    """Token index → the first match covering it, on ``side`` (``"hyp"`` or ``"ref"``)."""
    out: dict[int, Match] = {}
    for m in matches:
        for i in m.hyp if side == "hyp" else m.ref:
            out.setdefault(i, m)
    return out
