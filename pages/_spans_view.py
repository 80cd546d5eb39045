"""Human error spans beside the alignment, in the app (issue 41).

Inspect: when the page's URL carries the pair's human error spans (``?spans=…``, one value
per span in :func:`meteor.io.spans.span_strings`' form; a Corpus row's Inspect link adds
them when the corpus has annotations), the spans are drawn on the link view's hypothesis
row (:func:`meteor.viz.spans.span_link_view`) and the four cells are listed under the
score (:func:`meteor.analysis.spans.segment_spans`).  Bad span values give one warning
and the page goes on without them.  Every string here is English and Russian.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from meteor.analysis.spans import CELLS, SegmentSpans, segment_spans
from meteor.errors import InputError
from meteor.io.spans import Annotation, annotation_from_strings
from meteor.params import Params
from meteor.types import Alignment, MeteorResult
from meteor.viz.spans import SPAN_LABELS_EN, span_link_view
from pages._i18n import Translator, freeze, integer, module_label, num, signed
from pages._widgets import md_escape

__all__ = ["PARAM", "cells_of", "inspect_annotation", "link_figure", "show_cells", "span_labels"]

#: The URL parameter that carries a pair's human error spans (one value per span).
PARAM = "spans"

STRINGS = freeze(
    {
        "spans_title": {"en": "Human error spans", "ru": "Ошибки, отмеченные людьми"},
        "spans_caption": {
            "en": "Each hypothesis token beside the human error spans over it (severity Minor "
            "or worse, {raters} of the raters). Cost: how much higher the score would be "
            "without that cell's unmatched words.",
            "ru": "Каждое слово гипотезы рядом с ошибками, отмеченными людьми (серьёзность "
            "«незначительная» и выше, {raters}). Цена — на сколько выросла бы оценка без слов "
            "этой клетки, оставшихся без пары.",
        },
        "spans_union": {"en": "union", "ru": "объединение оценщиков"},
        "spans_bad": {
            "en": "The link's human error spans were not used: {detail}",
            "ru": "Ошибки из ссылки не показаны: {detail}",
        },
        "spans_col_cell": {"en": "cell", "ru": "клетка"},
        "spans_col_tokens": {"en": "tokens", "ru": "слов"},
        "spans_col_words": {"en": "words", "ru": "слова"},
        "spans_col_cost": {"en": "cost", "ru": "цена"},
        "cell_unmatched_error": {
            "en": "unmatched & error: METEOR saw it",
            "ru": "без пары и ошибка: METEOR её заметил",
        },
        "cell_unmatched_ok": {
            "en": "unmatched & no error: METEOR's blind spot",
            "ru": "без пары, но не ошибка: слепое пятно METEOR",
        },
        "cell_matched_error": {
            "en": "matched & error: an error METEOR cannot see",
            "ru": "сопоставлено, но ошибка: METEOR её не видит",
        },
        "cell_matched_ok": {"en": "matched & no error", "ru": "сопоставлено и не ошибка"},
        "spans_omissions": {
            "en": "{n} errors with no span (omissions): in no cell.",
            "ru": "Ошибок без фрагмента (пропусков): {n}; ни в одной клетке.",
        },
        # the figure's marks (meteor.viz.spans.SPAN_LABELS_EN keys)
        "span_error": {"en": "human error", "ru": "ошибка (люди)"},
        "span_Minor": {"en": "human error: Minor", "ru": "ошибка: незначительная"},
        "span_Major": {"en": "human error: Major", "ru": "ошибка: серьёзная"},
        "span_Critical": {"en": "human error: Critical", "ru": "ошибка: критическая"},
        "span_BAD": {"en": "human error: BAD (QE tag)", "ru": "ошибка: BAD (метка QE)"},
        "span_raters": {"en": "raters", "ru": "оценщиков"},
        "fig_cell_unmatched_error": {
            "en": "METEOR saw it (unmatched)",
            "ru": "METEOR её заметил (без пары)",
        },
        "fig_cell_matched_error": {
            "en": "an error METEOR cannot see (matched by {stage})",
            "ru": "ошибка, которую METEOR не видит (этап «{stage}»)",
        },
    }
)
t = Translator(STRINGS)


def span_labels(labels: dict[str, str]) -> dict[str, str]:
    """The link view's labels plus the human error marks', in the UI language."""
    out = dict(labels)
    for key in SPAN_LABELS_EN:
        out[key] = t(f"fig_{key}" if key.startswith("cell_") else key, stage="{stage}")
    return out


def inspect_annotation(hyp: str) -> Annotation | None:
    """The pair's human error spans from the URL (``None`` when it carries none, or bad
    ones: then one warning says why)."""
    values = st.query_params.get_all(PARAM)
    if not values:
        return None
    try:
        return annotation_from_strings(hyp, values)
    except InputError as exc:
        st.warning(md_escape(t("spans_bad", detail=str(exc))))
        return None


def cells_of(r: MeteorResult, params: Params, ann: Annotation) -> SegmentSpans:
    """The library's record of the pair's tokens, cells and costs."""
    return segment_spans(r, ann, params)


def show_cells(seg: SegmentSpans) -> None:
    """The four cells under the score: tokens, their words (stage of matched errors), cost."""
    st.subheader(t("spans_title"))
    st.caption(t("spans_caption", raters=t("spans_union")))
    rows: list[dict[str, Any]] = []
    for cell in CELLS:
        toks = [x for x in seg.tokens if x.cell == cell]
        words = [
            x.text + (f" ({module_label(x.stage)})" if cell == "matched_error" and x.stage else "")
            for x in toks
        ]
        rows.append(
            {
                t("spans_col_cell"): t(f"cell_{cell}"),
                t("spans_col_tokens"): integer(len(toks)),
                t("spans_col_words"): " · ".join(words),
                t("spans_col_cost"): signed(seg.cost[cell]) if seg.cost[cell] else num(0.0),
            }
        )
    st.dataframe(rows, hide_index=True, width="stretch", key="span_cells")
    if seg.omissions:
        st.caption(t("spans_omissions", n=integer(seg.omissions)))


def link_figure(alignment: Alignment, seg: SegmentSpans, **options: Any) -> Any:
    """The link view with the human spans on its hypothesis row (``options``: link_view's)."""
    labels = span_labels(options.pop("labels", {}) or {})
    return span_link_view(alignment, seg.tokens, labels=labels, **options)
