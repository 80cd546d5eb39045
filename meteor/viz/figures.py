"""The figure API of the app: every public view function and style constant, in one place.

Pages and tests call ``figures.link_view(...)``, ``figures.MODULE_COLORS`` and so on;
this module only re-exports them from the module of each view, so that a page
needs one import and a view can move between modules without touching the pages.
Plotly figures of METEOR records are pure functions, record in → ``go.Figure`` out,
and nothing here imports Streamlit:

* :mod:`meteor.viz.links`: :func:`link_view`, hypothesis and reference tokens, one
  link per match coloured (and dashed) by stage, chunks as numbered bands, unmatched
  tokens and function words marked, n:m matches as filled quadrilaterals; optional
  candidate links (the walkthrough); the traces are in :mod:`meteor.viz.link_traces`;
* :mod:`meteor.viz.matrix`: :func:`matrix_view`, the X-Ray matrix (reference along
  the top), stages told apart, chunks outlined, or coloured by reference position;
  compact above :data:`MATRIX_CELL_LIMIT` cells;
* :mod:`meteor.viz.waterfall`: :func:`waterfall_figure`, 1.0 → losses → score
  (:func:`meteor.analysis.explain.parts.waterfall`);
* :mod:`meteor.viz.sensitivity`: :func:`sensitivity_figure`, the score as α, β, γ, δ
  move, current values marked;
* :mod:`meteor.viz.reconcile`: :func:`reconcile_figure`, why A and B differ, A → each
  step of the path → B (:func:`meteor.analysis.reconcile.reconcile`), and
  :func:`shares_figure`, each group's fair share of the gap;
* :mod:`meteor.viz.style`: the stage colours, dashes and markers, the English
  labels (:data:`LABELS_EN`, the keys a page may translate) and :func:`escape`.

The corpus figures are in :mod:`meteor.viz.corpus_charts`.
"""

from __future__ import annotations

from meteor.viz.link_traces import MAX_CHUNK_TRACES
from meteor.viz.links import (
    COLUMN_LABEL_CHARS,
    COLUMN_PITCH_PX,
    ROW_LAYOUT_WIDTH_PX,
    link_view,
    link_view_layout,
    text_width_px,
    token_positions,
)
from meteor.viz.matrix import MATRIX_CELL_LIMIT, matrix_is_compact, matrix_view
from meteor.viz.reconcile import reconcile_figure, shares_figure
from meteor.viz.sensitivity import COINCIDE_TOL, coinciding_curves, sensitivity_figure
from meteor.viz.style import (
    FUNCTION_WORD,
    LABELS_EN,
    MODULE_COLORS,
    MODULE_DASH,
    MODULE_SYMBOL,
    OTHER_STAGE_COLOR,
    OTHER_STAGE_DASH,
    OTHER_STAGE_SYMBOL,
    UNMATCHED,
    escape,
)
from meteor.viz.waterfall import waterfall_figure

__all__ = [
    "COINCIDE_TOL",
    "COLUMN_LABEL_CHARS",
    "COLUMN_PITCH_PX",
    "FUNCTION_WORD",
    "LABELS_EN",
    "MATRIX_CELL_LIMIT",
    "MAX_CHUNK_TRACES",
    "MODULE_COLORS",
    "MODULE_DASH",
    "MODULE_SYMBOL",
    "OTHER_STAGE_COLOR",
    "OTHER_STAGE_DASH",
    "OTHER_STAGE_SYMBOL",
    "ROW_LAYOUT_WIDTH_PX",
    "UNMATCHED",
    "coinciding_curves",
    "escape",
    "link_view",
    "link_view_layout",
    "matrix_is_compact",
    "matrix_view",
    "reconcile_figure",
    "sensitivity_figure",
    "shares_figure",
    "text_width_px",
    "token_positions",
    "waterfall_figure",
]
