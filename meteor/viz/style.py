"""What every figure of :mod:`meteor.viz` shares: stage colours, dashes and markers, the
English labels (looked up through :func:`label`, so the app can pass its own language),
escaping of user text (:func:`escape`: plotly renders ``<b>``, ``<br>``, ``<a href>`` in
text, hovers and ticks) and small layout helpers.
"""

from __future__ import annotations

import copy
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from meteor.module_registry import Module
from meteor.module_registry import module_order as stage_slots
from meteor.types import Match

__all__ = [
    "FUNCTION_WORD",
    "LABELS_EN",
    "MODULE_COLORS",
    "MODULE_DASH",
    "MODULE_SYMBOL",
    "OTHER_STAGE_COLOR",
    "OTHER_STAGE_DASH",
    "OTHER_STAGE_SYMBOL",
    "SYSTEM_COLORS",
    "SYSTEM_PATTERNS",
    "SYSTEM_SYMBOLS",
    "TEMPLATE",
    "UNMATCHED",
    "Fmt",
    "cut",
    "default_fmt",
    "escape",
    "frame",
    "label",
    "legend_key",
    "module_order",
    "rgba",
    "signed",
    "standalone",
    "system_color",
    "system_pattern",
    "system_symbol",
]

Fmt = Callable[[float], str]


#: Okabe-Ito colours: every pair stays apart (CIE76 ΔE ≥ 15) under simulated protanopia,
#: deuteranopia and tritanopia (tests/unit/test_figures.py).  Colour is never the only
#: carrier: each stage also has a dash (:data:`MODULE_DASH`) and a marker (:data:`MODULE_SYMBOL`).
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

#: One colour per system: D3's category10, then sixteen taken farthest-first from plotly's
#: qualitative palettes (none lighter than CIE L* 82); every two differ by CIE76 ΔE ≥ 25
#: (tests/unit/test_report_palette.py).  Past 26 systems they come round again with another
#: marker (:func:`system_symbol`) and bar pattern (:func:`system_pattern`).
SYSTEM_COLORS: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf", "#511cfb", "#fe00fa", "#620042", "#fc0080",
    "#6c7c32", "#222a2a", "#1616a7", "#ff9da6", "#b10da1", "#0d2a63", "#3283fe",
    "#b68100", "#1c8356", "#86ce00", "#862a16", "#b00068",
)  # fmt: skip
#: Marker of a system's points by round of :data:`SYSTEM_COLORS` (the first: circles).
SYSTEM_SYMBOLS: tuple[str, ...] = (
    "circle", "square", "diamond", "triangle-up", "cross", "x", "star", "hexagon",
)  # fmt: skip
#: Bar pattern of a system by round of :data:`SYSTEM_COLORS` (the first: none).
SYSTEM_PATTERNS: tuple[str, ...] = ("", "/", "\\", "x", ".", "+", "-", "|")


def system_color(k: int) -> str:
    """The colour of the ``k``-th system (0-based)."""
    return SYSTEM_COLORS[k % len(SYSTEM_COLORS)]


def system_symbol(k: int) -> str:
    """The marker of the ``k``-th system: circles for the first 26, then one shape per round."""
    return SYSTEM_SYMBOLS[(k // len(SYSTEM_COLORS)) % len(SYSTEM_SYMBOLS)]


def system_pattern(k: int) -> str:
    """The bar pattern of the ``k``-th system: none for the first 26, then one per round."""
    return SYSTEM_PATTERNS[(k // len(SYSTEM_COLORS)) % len(SYSTEM_PATTERNS)]


LABELS_EN: dict[str, str] = {
    "exact": "exact",
    "stem": "stem",
    "synonym": "synonym",
    "paraphrase": "paraphrase",
    "lemma": "lemma",
    "embedding": "embedding",
    "hypothesis": "hypothesis",
    "reference": "reference",
    "hyp_short": "hyp",
    "ref_short": "ref",
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
    "score_axis": "METEOR score",
    "matrix_compact": "{n_hyp} × {n_ref} tokens: compact view, only matched cells are drawn. "
    "Drag to zoom in for every word; double-click to zoom out.",
}


#: The look of every exported figure: plotly's own default template.  A figure here names
#: none, so it carries its caller's default (in the app Streamlit's, whose colours are
#: placeholders its web page swaps for the theme's); :func:`standalone` puts this one back.
TEMPLATE: go.layout.Template = pio.templates["plotly"]


@functools.cache
def _template_json() -> dict[str, Any]:
    return TEMPLATE.to_plotly_json()  # type: ignore[no-any-return]


def standalone(fig: go.Figure) -> dict[str, Any]:
    """``fig`` as plotly JSON drawn with :data:`TEMPLATE` whatever the caller's default
    template (``fig`` itself unchanged): what every file export draws, so the app's files
    look like the CLI's."""
    spec: dict[str, Any] = fig.to_plotly_json()
    # replaced, not merged: nothing of the old template stays (a copy: callers may edit)
    spec["layout"] = {**spec.get("layout", {}), "template": copy.deepcopy(_template_json())}
    return spec


def default_fmt(x: float) -> str:
    """Four decimals, ``NaN`` for a missing number (the default ``fmt`` of every figure)."""
    return "NaN" if math.isnan(x) else f"{x:.4f}"


def escape(text: str) -> str:
    """Make user text inert in plotly text: ``&``, ``<`` and ``>`` become entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def cut(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters, the last one ``…``, when it is longer."""
    return text if len(text) <= n else text[: n - 1] + "…"


def signed(x: float, fmt: Fmt) -> str:
    """A gain or loss with its sign (``+0.0123``, ``−0.0123`` with a true minus; zero unsigned)."""
    if x == 0:
        return fmt(0.0)
    return ("−" if x < 0 else "+") + fmt(abs(x))


def label(labels: Mapping[str, str] | None, key: str) -> str:
    """The display string for ``key``: from ``labels`` if given there, else English."""
    if labels and key in labels:
        return labels[key]
    return LABELS_EN.get(key, key)


def frame(title: str | None, *, bottom: int = 10) -> dict[str, object]:
    """Margins and the (escaped) title, as every figure here lays them out."""
    return {
        "margin": {"l": 10, "r": 10, "t": 40 if title else 10, "b": bottom},
        "title": {"text": escape(title)} if title else None,
    }


def legend_key(
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


def module_order(matches: Sequence[Match]) -> list[Module]:
    """The stages that made ``matches``, in Meteor's stage order."""
    used = {m.module for m in matches}
    return [m for m in stage_slots() if m in used]


def rgba(hex_color: str, alpha: float) -> str:
    """``#rrggbb`` and an opacity as a CSS ``rgba(...)`` colour."""
    h = hex_color.lstrip("#")
    r, g, b = (int(h[k : k + 2], 16) for k in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"
