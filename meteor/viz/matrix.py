"""The X-Ray matrix of an alignment (:func:`matrix_view`): reference along the top,
hypothesis down the side, one cell per token pair, chunks outlined.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import plotly.graph_objects as go

from meteor.module_registry import module_order as stage_slots
from meteor.types import Alignment, Chunk, Match, Token
from meteor.viz.style import (
    MODULE_COLORS,
    MODULE_SYMBOL,
    OTHER_STAGE_COLOR,
    OTHER_STAGE_SYMBOL,
    UNMATCHED,
    cut,
    escape,
    frame,
    label,
    legend_key,
    module_order,
)

__all__ = ["MATRIX_CELL_LIMIT", "matrix_is_compact", "matrix_view"]

#: :func:`matrix_view` sends every cell (and its hover label) up to this many cells
#: (hypothesis × reference tokens, e.g. 64 × 64); above it, only matched cells (compact).
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
    """Meteor X-Ray's matrix: reference along the top, hypothesis down the side.

    ``color_by="module"`` colours a matched cell by its stage; ``"order"`` by the reference
    position it matched (X-Ray's spectrum), so a reordering shows as colours out of sequence.
    Chunks are outlined and numbered.  Above :data:`MATRIX_CELL_LIMIT` cells only matched
    cells are sent, wide chunks get one unnumbered outline path, the axes are ``index word``
    categories and the height is capped (note ``matrix_compact``).
    """
    if color_by not in ("module", "order"):
        raise ValueError(f"color_by must be 'module' or 'order', got {color_by!r}")
    nh, nr = len(alignment.hyp), len(alignment.ref)
    compact = matrix_is_compact(alignment)
    cells = _Cells(alignment, color_by, labels)
    fig = go.Figure()
    if compact:
        decor = _compact_cells(fig, cells)
    else:
        decor = _full_cells(fig, cells)
    if color_by == "module":
        fig.add_traces(_stage_keys(alignment, labels))
        if not compact:
            fig.add_traces(_stage_glyphs(alignment))
    fig.update_xaxes(
        side="top",
        tickangle=-60,
        range=[-0.5, nr - 0.5],
        showgrid=False,
        zeroline=False,
        title={"text": escape(label(labels, "reference")), "standoff": 4},
        **decor.x_axis,
    )
    fig.update_yaxes(
        showgrid=False,
        zeroline=False,
        title={"text": escape(label(labels, "hypothesis")), "standoff": 4},
        **decor.y_axis,
    )
    height = max(260, 150 + 26 * nh)
    fig.update_layout(
        height=min(height, _COMPACT_HEIGHT) if compact else height,
        **frame(title, bottom=40 if compact else 10),  # compact: room for the note
        shapes=decor.shapes,
        annotations=decor.annotations,
        plot_bgcolor="#f4f4f4",
        legend={"orientation": "h", "yanchor": "top", "y": -0.02, "x": 0.0},
    )
    return fig


@dataclass(frozen=True, slots=True)
class _Cells:
    """What a cell shows: its value (stage code or reference position) and hover text."""

    alignment: Alignment
    color_by: str
    labels: Mapping[str, str] | None

    def empty(self, i: int, j: int) -> str:
        """Hover text of cell ``(i, j)``: both tokens, numbered from 1 (as every table)."""
        hyp, ref = self.alignment.hyp, self.alignment.ref
        h, r = (escape(label(self.labels, k)) for k in ("hyp_short", "ref_short"))
        return f"{h}[{i + 1}] {escape(hyp[i].text)} / {r}[{j + 1}] {escape(ref[j].text)}"

    def matched(self, i: int, j: int, m: Match) -> tuple[float, str]:
        """Value and hover text of cell ``(i, j)`` matched by ``m``."""
        value = (
            float(stage_slots().index(m.module) + 1) if self.color_by == "module" else float(j + 1)
        )
        text = f"{self.empty(i, j)}<br><b>{escape(label(self.labels, m.module.value))}</b>"
        if m.detail:
            text += f"<br>{escape(m.detail)}"
        return value, text

    def ticks(self) -> tuple[list[str], list[str]]:
        """Tick labels of the reference (x) and the hypothesis (y) tokens."""
        al = self.alignment
        x_ticks = [_tick(t, ok) for t, ok in zip(al.ref, al.ref_matched(), strict=True)]
        y_ticks = [_tick(t, ok) for t, ok in zip(al.hyp, al.hyp_matched(), strict=True)]
        return x_ticks, y_ticks


@dataclass(frozen=True, slots=True)
class _Decor:
    """Axes, shapes and annotations of a drawn matrix."""

    x_axis: dict[str, object]
    y_axis: dict[str, object]
    shapes: list[dict[str, object]]
    annotations: list[dict[str, object]]


def _full_cells(fig: go.Figure, cells: _Cells) -> _Decor:
    """Every cell with its hover label, every token a tick; chunks boxed and numbered."""
    al = cells.alignment
    nh, nr = len(al.hyp), len(al.ref)
    z: list[list[float | None]] = [[None] * nr for _ in range(nh)]
    hover = [[cells.empty(i, j) for j in range(nr)] for i in range(nh)]
    for _, m, i, j in _matched_cells(al.matches):
        z[i][j], hover[i][j] = cells.matched(i, j, m)
    fig.add_trace(
        go.Heatmap(
            z=z,
            **_heat_colors(cells),
            xgap=1,
            ygap=1,
            text=hover,
            hovertemplate="%{text}<extra></extra>",
            name="matrix",
            meta={"role": "matrix"},
        )
    )
    x_ticks, y_ticks = cells.ticks()
    return _Decor(
        x_axis=_word_axis(x_ticks),
        y_axis={"autorange": "reversed", **_word_axis(y_ticks)},
        shapes=[_chunk_box(ch) for ch in al.chunks],
        annotations=[_chunk_number(k, ch) for k, ch in enumerate(al.chunks)],
    )


def _matched_cells(matches: Sequence[Match]) -> Iterator[tuple[int, Match, int, int]]:
    """``(match index, match, i, j)`` of every cell ``(i, j)`` a match covers."""
    for mi, m in enumerate(matches):
        for i in m.hyp:
            for j in m.ref:
                yield mi, m, i, j


def _bounds(ch: Chunk) -> tuple[float, float, float, float]:
    """``x0, x1, y0, y1`` of a chunk's cells: cell ``k`` spans ``k ± 0.5``."""
    return ch.ref.start - 0.5, ch.ref.end - 0.5, ch.hyp.start - 0.5, ch.hyp.end - 0.5


def _chunk_box(ch: Chunk) -> dict[str, object]:
    """The outline of a chunk in the full matrix."""
    corners = dict(zip(("x0", "x1", "y0", "y1"), _bounds(ch), strict=True))
    return {"type": "rect", **corners, "line": {"color": "black", "width": 2}}


def _chunk_number(k: int, ch: Chunk) -> dict[str, object]:
    """The number of chunk ``k``, inside its own first cell (top-left corner; the rows are
    reversed, so "top" hangs it down into the cell, which no other chunk shares)."""
    return {
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


def _compact_cells(fig: go.Figure, cells: _Cells) -> _Decor:
    """Matched cells only, tokens as ``index word`` categories; one outline path; a note."""
    al = cells.alignment
    nh, nr = len(al.hyp), len(al.ref)
    x_ticks, y_ticks = cells.ticks()
    x_cats = [f"{j} {s}" for j, s in enumerate(x_ticks, start=1)]  # numbered from 1
    y_cats = [f"{i} {s}" for i, s in enumerate(y_ticks, start=1)]
    fig.add_trace(_sparse_heat(cells, x_cats, y_cats))
    outline = _chunk_outline(al.chunks)
    note = (
        label(cells.labels, "matrix_compact")
        .replace("{n_hyp}", str(nh))
        .replace("{n_ref}", str(nr))
    )
    return _Decor(
        x_axis=_category_axis(x_cats),
        y_axis={**_category_axis(y_cats), "range": [nh - 0.5, -0.5]},
        shapes=[outline] if outline else [],
        annotations=[
            {
                "text": escape(note),
                "xref": "paper",
                "yref": "paper",
                "x": 1.0,
                "y": -0.02,
                "xanchor": "right",
                "yanchor": "top",
                "showarrow": False,
                "font": {"size": 11, "color": "#505050"},
            }
        ],
    )


def _stage_keys(alignment: Alignment, labels: Mapping[str, str] | None) -> list[go.Scatter]:
    """A legend key (colour and marker) for each stage that matched."""
    return [
        legend_key(
            label(labels, mod.value),
            MODULE_COLORS.get(mod.value, OTHER_STAGE_COLOR),
            MODULE_SYMBOL.get(mod.value, OTHER_STAGE_SYMBOL),
            size=12,
            group=mod.value,
            meta={"role": "legend", "module": mod.value},
        )
        for mod in module_order(alignment.matches)
    ]


def _stage_glyphs(alignment: Alignment) -> list[go.Scatter]:
    """The stage's marker (:data:`MODULE_SYMBOL`), white with a dark rim, on every matched
    cell (one trace per stage, no hover): the legend's second channel besides colour."""
    out = []
    for mod in module_order(alignment.matches):
        cells = [(j, i) for _, m, i, j in _matched_cells(alignment.matches) if m.module is mod]
        out.append(
            go.Scatter(
                x=[j for j, _ in cells],
                y=[i for _, i in cells],
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
    s = escape(cut(t.text, _TICK_CHARS))
    if t.function_word:
        s = f"<i>{s}</i>"
    if not matched:
        s = f"<span style='color:{UNMATCHED}'>{s}</span>"
    return s


def _word_axis(ticks: Sequence[str]) -> dict[str, object]:
    """Every token a tick, its word the label (numeric axis: cell ``k`` at ``k``)."""
    return {"tickmode": "array", "tickvals": list(range(len(ticks))), "ticktext": list(ticks)}


def _category_axis(cats: Sequence[str]) -> dict[str, object]:
    """One category per token, in order (cell ``k`` still at ``k``): plotly labels every
    n-th, never a position between two tokens; the index in each keeps repeated words apart."""
    return {
        "type": "category",
        "categoryorder": "array",
        "categoryarray": list(cats),
        "tickmode": "auto",
        "nticks": 40,  # at most about one label per 20 px of a capped-height matrix
    }


def _heat_colors(cells: _Cells) -> dict[str, object]:
    """Colour settings of the matrix heatmap: stage codes 1..n, or reference positions."""
    if cells.color_by == "module":
        cols = [MODULE_COLORS.get(m.value, OTHER_STAGE_COLOR) for m in stage_slots()]
        n = len(cols)
        scale: list[list[object]] = []
        for k, c in enumerate(cols):
            scale += [[k / n, c], [(k + 1) / n, c]]
        return {"zmin": 0.5, "zmax": n + 0.5, "colorscale": scale, "showscale": False}
    return {
        "zmin": 1,  # reference positions numbered from 1, as every table
        "zmax": max(len(cells.alignment.ref), 2),
        "colorscale": "Viridis",
        "showscale": True,
        "colorbar": {"title": {"text": escape(label(cells.labels, "ref_position"))}},
    }


def _sparse_heat(cells: _Cells, x_cats: Sequence[str], y_cats: Sequence[str]) -> go.Heatmap:
    """The compact matrix: matched cells only, as heatmap columns (x, y, z, text), and one
    empty (``None``) cell in every row and column without a match, so that plotly's grid
    (built from the x and y values present) has one cell per token."""
    alignment = cells.alignment
    nh, nr = len(alignment.hyp), len(alignment.ref)
    chunk_of = {mi: ch.index for ch in alignment.chunks for mi in ch.matches}
    chunk = escape(label(cells.labels, "chunk"))
    xs: list[str] = []
    ys: list[str] = []
    zs: list[float | None] = []
    texts: list[str] = []
    rows: set[int] = set()
    cols: set[int] = set()
    for mi, m, i, j in _matched_cells(alignment.matches):
        value, text = cells.matched(i, j, m)
        xs.append(x_cats[j])
        ys.append(y_cats[i])
        zs.append(value)
        texts.append(text + (f"<br>{chunk} {chunk_of[mi] + 1}" if mi in chunk_of else ""))
        rows.add(i)
        cols.add(j)
    if nh and nr:
        gaps = [(x_cats[j], y_cats[0]) for j in range(nr) if j not in cols]
        gaps += [(x_cats[0], y_cats[i]) for i in range(nh) if i not in rows]
        xs += [x for x, _ in gaps]
        ys += [y for _, y in gaps]
        zs += [None] * len(gaps)
        texts += [""] * len(gaps)
    return go.Heatmap(
        x=xs,
        y=ys,
        z=zs,
        **_heat_colors(cells),
        text=texts,
        hovertemplate="%{text}<extra></extra>",
        hoverongaps=False,
        name="matrix",
        meta={"role": "matrix", "compact": True},
    )


def _chunk_outline(chunks: Sequence[Chunk]) -> dict[str, object] | None:
    """The outlines of every chunk wider than one cell (a one-cell outline would hide its
    colour), as one path shape; ``None``: no such chunk.  Cell ``k`` spans ``k ± 0.5``."""
    parts = []
    for ch in chunks:
        if len(ch.hyp) == 1 and len(ch.ref) == 1:
            continue
        x0, x1, y0, y1 = _bounds(ch)
        parts.append(f"M{x0},{y0}H{x1}V{y1}H{x0}Z")
    if not parts:
        return None
    return {
        "type": "path",
        "path": "".join(parts),
        "line": {"color": "rgba(0,0,0,0.6)", "width": 1},
        "layer": "above",
    }
