"""The link view: hypothesis and reference tokens, one link per match (:func:`link_view`),
in rows or, where the words would not fit, in columns; the traces are built in rows by
:mod:`meteor.viz.link_traces` and transposed for the columns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from meteor.module_registry import Module
from meteor.types import Alignment, Chunk, Match
from meteor.viz.link_traces import (
    CHUNK_TEXT,
    MAX_CHUNK_TRACES,
    chunk_traces,
    cover,
    link_traces,
    token_trace,
)
from meteor.viz.style import (
    FUNCTION_WORD,
    UNMATCHED,
    Fmt,
    cut,
    default_fmt,
    escape,
    frame,
    label,
    legend_key,
)

__all__ = [
    "COLUMN_LABEL_CHARS",
    "COLUMN_PITCH_PX",
    "ROW_LAYOUT_WIDTH_PX",
    "link_view",
    "link_view_layout",
    "text_width_px",
    "token_positions",
]


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


#: Plot width (px) the link view assumes it gets at least (:func:`link_view_layout`).
ROW_LAYOUT_WIDTH_PX = 600
#: Columns layout: vertical pitch per token (px), well above a label's height, and label sizes.
COLUMN_PITCH_PX = 24
_LABEL_SIZE = 12
_ROW_LABEL_SIZE = 14
#: Labels in the columns layout are cut to this many characters (the hover keeps the word).
COLUMN_LABEL_CHARS = 18
#: Gap (px) from a token's centre to its chunk number, and to its word label.
_NUMBER_GAP_PX = 10
_LABEL_GAP_PX = 36


def text_width_px(text: str, size: float, *, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in px in plotly's default sans-serif font (Latin
    and Cyrillic lower case measure 0.5–0.6 em in Chromium's Open Sans / Arial)."""
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


def link_view_layout(alignment: Alignment) -> str:
    """``"rows"`` (hypothesis above the reference) or ``"columns"`` (side by side, one token
    per line) for :func:`link_view`: rows when every two neighbouring word labels, centred on
    their tokens, fit in the space between them at :data:`ROW_LAYOUT_WIDTH_PX`."""
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


def _lane(
    side: str,
    ys: Sequence[float],
    text: Sequence[str],
    colors: Sequence[str],
    size: int,
    gap_px: int,
    meta: Mapping[str, object],
    **options: Any,
) -> go.Scatter:
    """Text beside a column (words, chunk numbers): outside an invisible marker as wide as
    the gap, so it starts ``gap_px`` from the token's centre."""
    return go.Scatter(
        x=[0.0 if side == "hyp" else 1.0] * len(ys),
        y=list(ys),
        mode="markers+text",
        text=list(text),
        textposition="middle left" if side == "hyp" else "middle right",
        textfont={"color": list(colors), "size": size},
        marker={"size": 2 * gap_px, "opacity": 0},
        hoverinfo="skip",
        showlegend=False,
        cliponaxis=False,
        meta={**meta, "gap_px": gap_px, "size": size},
        **options,
    )


def _column_chunk_numbers(
    chunks: Sequence[Chunk],
    hy: Sequence[float],
    ry: Sequence[float],
    labels: Mapping[str, str] | None,
) -> list[go.Scatter]:
    """Chunk numbers in the lane between a token's marker and its label, on the row of the
    chunk's first token (one chunk starts per token at most, so numbers never stack)."""
    return [
        _lane(
            side,
            [ys[ch.hyp.start if side == "hyp" else ch.ref.start] for ch in chunks],
            [f"<b>{k + 1}</b>" for k in range(len(chunks))],
            [CHUNK_TEXT[k % 2] for k in range(len(chunks))],
            11,
            _NUMBER_GAP_PX,
            {"role": "chunk_numbers", "side": side},
            legendgroup="chunks",
            name=label(labels, "chunks"),
        )
        for side, ys in (("hyp", hy), ("ref", ry))
    ]


def link_view(
    alignment: Alignment,
    *,
    matches: Sequence[Match] | None = None,
    chunks: Sequence[Chunk] | None = None,
    candidates: Sequence[Match] = (),
    weights: Mapping[Module, float] | None = None,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
    title: str | None = None,
    mark_unmatched: bool = True,
) -> go.Figure:
    """Link view of an alignment: hypothesis and reference, one link per match, in rows or
    columns (:func:`link_view_layout`; ``layout.meta["layout"]`` says which).

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
    columns = link_view_layout(alignment) == "columns"
    # under the tokens, in the rows layout, bottom to top: chunk bands, candidates, links
    hx, rx = token_positions(len(alignment.hyp), len(alignment.ref))
    traces = chunk_traces(chunks, hx, rx, alignment.hyp, alignment.ref, labels)
    traces += link_traces(candidates, hx, rx, labels, weights, fmt, faint=True)
    traces += link_traces(matches, hx, rx, labels, weights, fmt, faint=False)
    shown = matches or candidates  # the tokens' colours: the matches that cover them
    for side, toks, xs, y in (("hyp", alignment.hyp, hx, 1.0), ("ref", alignment.ref, rx, 0.0)):
        # words written beside the tokens in rows only (columns get labels)
        covered = cover(shown, side)
        traces.append(token_trace(toks, xs, y, side, covered, labels, not columns, mark_unmatched))
    if columns:
        traces = _to_columns(traces, alignment, chunks, labels)
    fig = go.Figure(traces)
    has_function_word = any(t.function_word for t in (*alignment.hyp, *alignment.ref))
    for key, drawn, color, symbol in (  # legend keys of the token marks
        ("unmatched", mark_unmatched, UNMATCHED, "x"),
        ("function_word", has_function_word, FUNCTION_WORD, "circle-open"),
    ):
        if drawn:
            meta = {"role": f"legend_{key}"}
            fig.add_trace(legend_key(label(labels, key), color, symbol, group=key, meta=meta))
    if columns:
        _columns_layout(fig, alignment, labels, title)
    else:
        _rows_layout(fig, alignment, labels, title)
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


def _to_columns(
    traces: list[go.Scatter],
    alignment: Alignment,
    chunks: Sequence[Chunk],
    labels: Mapping[str, str] | None,
) -> list[go.Scatter]:
    """Rows → columns: transpose every trace, write the words beside the tokens, and put
    the chunk numbers in their own lane (instead of the bands' corners)."""
    traces = [t for t in traces if t.meta.get("role") != "chunk_numbers"]
    for t in traces:  # (position, row) → (1 − row, −position): the first token on top
        xs, ys = t.x, t.y
        if xs is not None and ys is not None:
            t.x = [None if y is None else 1 - y for y in ys]
            t.y = [None if x is None else -x for x in xs]
    token_traces = traces[-2:]
    for t in token_traces:
        t.textposition = "middle left" if t.meta["role"] == "tokens_hyp" else "middle right"
    sides = (("hyp", alignment.hyp), ("ref", alignment.ref))
    for (side, toks), tt in zip(sides, token_traces, strict=True):
        words = [escape(cut(t.text, COLUMN_LABEL_CHARS)) for t in toks]
        meta = {"role": f"labels_{side}"}
        traces.append(
            _lane(side, tt.y, words, tt.textfont.color, _LABEL_SIZE, _LABEL_GAP_PX, meta, name=side)
        )
    if chunks and len(chunks) <= MAX_CHUNK_TRACES:
        traces += _column_chunk_numbers(chunks, token_traces[0].y, token_traces[1].y, labels)
    return traces


def _side_axis(labels: Mapping[str, str] | None, *keys: str) -> dict[str, object]:
    """The axis across the two sides: a tick at 0 and 1 named by ``keys``, fixed."""
    return {
        "tickvals": [0, 1],
        "ticktext": [escape(label(labels, k)) for k in keys],
        "showgrid": False,
        "zeroline": False,
        "fixedrange": True,
    }


def _rows_layout(
    fig: go.Figure, alignment: Alignment, labels: Mapping[str, str] | None, title: str | None
) -> None:
    """Axes of the rows layout: tokens along x, the reference row at y = 0, hypothesis at 1."""
    w = max(len(alignment.hyp), len(alignment.ref), 1)
    pad = 0.7
    fig.update_layout(
        height=340,
        **frame(title),
        xaxis={"visible": False, "range": [-1.0, w], "fixedrange": False},
        yaxis={"range": [-pad, 1 + pad], **_side_axis(labels, "reference", "hypothesis")},
    )


def _columns_layout(
    fig: go.Figure, alignment: Alignment, labels: Mapping[str, str] | None, title: str | None
) -> None:
    """Axes of the columns layout: one token per :data:`COLUMN_PITCH_PX` down the page,
    margins as wide as the longest (cut) word label."""
    hyp, ref = alignment.hyp, alignment.ref
    w = max(len(hyp), len(ref), 1)
    label_px = max(
        (text_width_px(cut(t.text, COLUMN_LABEL_CHARS), _LABEL_SIZE) for t in (*hyp, *ref)),
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
            **_side_axis(labels, "hypothesis", "reference"),
        },
        yaxis={
            "visible": False,
            "range": [-(w - 1) - 0.5, 0.5],
            "fixedrange": False,
        },
    )
