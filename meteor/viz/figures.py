"""The figure API of the app: every public view function and style constant, re-exported
from the module of each view, so a page needs one import and a view can move between modules
without touching the pages.  The corpus figures are in :mod:`meteor.viz.corpus_charts`.
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
from meteor.viz.sensitivity import coinciding_curves, sensitivity_figure
from meteor.viz.style import (
    FUNCTION_WORD,
    LABELS_EN,
    MODULE_COLORS,
    MODULE_DASH,
    MODULE_SYMBOL,
    OTHER_STAGE_COLOR,
    OTHER_STAGE_DASH,
    UNMATCHED,
    escape,
)
from meteor.viz.waterfall import reconcile_figure, waterfall_figure

__all__ = [
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
    "text_width_px",
    "token_positions",
    "waterfall_figure",
]
