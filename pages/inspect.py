"""Inspect one pair: score card, link view, matrix, why this score, downloads."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import streamlit as st

from meteor.analysis.explain import parts as explain
from meteor.analysis.explain.record import Explanation
from meteor.analysis.spans import segment_spans
from meteor.io import record_files
from meteor.json_numbers import json_text
from meteor.types import MeteorResult, Module
from meteor.viz import figures
from pages import _spans_view as spans_view
from pages._frame import require_frame
from pages._i18n import (
    Translator,
    fig_labels,
    freeze,
    module_label,
    num,
    side_label,
    signed,
    stage_order,
)
from pages._near_misses import NEAR_STRINGS, show_near_misses
from pages._pair import require_pair
from pages._scoring import analysis_for, explanation_for
from pages._settings import current_setting, sync_url
from pages._token_notices import show_token_notices
from pages._widgets import (
    BORDER_PX,
    ROW_PX,
    download,
    download_html,
    plotly,
    score_card,
    shared_figure,
    table,
)

require_frame()  # before any output: a deep link to a fresh server skips app.py

#: The pair's views, one shown at a time (URL ``view``; the first is the default).
VIEWS = ("links", "matrix", "tokens")


PAGE_STRINGS = freeze(
    {
        "inspect_title": {
            "en": "Why did this translation get its score?",
            "ru": "Почему перевод получил такую оценку?",
        },
        "inspect_intro": {  # {stages}: the setting's own stages, from the library
            "en": "Type a hypothesis and one or more references. METEOR aligns the words "
            "stage by stage (here: {stages}), groups matches into chunks, "
            "and turns precision, recall and fragmentation into one number.",
            "ru": "Введите гипотезу и один или несколько эталонов. METEOR сопоставляет слова "
            "по этапам (здесь: {stages}), объединяет "
            "совпадения во фрагменты и сводит точность, полноту и фрагментацию в одно число.",
        },
        "refs_title": {"en": "References", "ru": "Эталоны"},
        "ref_shown": {"en": "Alignment shown for", "ru": "Показано выравнивание с"},
        "ref_item": {"en": "reference {k}: {score}", "ru": "эталон {k}: {score}"},
        "ref_winner": {"en": " (wins)", "ru": " (лучший)"},
        "ref_note": {
            "en": "The official score is the best reference's ({score}, reference {k}); "
            "below is the record of reference {shown} scored alone.",
            "ru": "Итоговая оценка — по лучшему эталону ({score}, эталон {k}); ниже — запись "
            "для эталона {shown}, оценённого отдельно.",
        },
        "tab_links": {"en": "Link view", "ru": "Связи"},
        "tab_matrix": {"en": "Matrix (X-Ray)", "ru": "Матрица"},
        "tab_tokens": {"en": "Tokens", "ru": "Токены"},
        "view": {"en": "View", "ru": "Вид"},
        "links_caption": {
            "en": "Top row: hypothesis; bottom row: reference. One link per match, coloured "
            "and dashed by stage; shaded numbered bands are chunks; ✕ marks an unmatched word, "
            "a hollow mark a function word. Click a legend entry to hide a stage.",
            "ru": "Верхний ряд — гипотеза, нижний — эталон. Каждая связь — совпадение; цвет и "
            "штрих показывают этап; затенённые пронумерованные полосы — фрагменты; ✕ — слово "
            "без пары, полый значок — служебное слово. Щелчок по легенде скрывает этап.",
        },
        "links_caption_columns": {
            "en": "Left column: hypothesis; right column: reference. One link per match, "
            "coloured and dashed by stage; shaded numbered bands are chunks; ✕ marks an "
            "unmatched word, a hollow mark a function word. Click a legend entry to hide a stage.",
            "ru": "Левый столбец — гипотеза, правый — эталон. Каждая связь — совпадение; цвет и "
            "штрих показывают этап; затенённые пронумерованные полосы — фрагменты; ✕ — слово "
            "без пары, полый значок — служебное слово. Щелчок по легенде скрывает этап.",
        },
        "color_by": {"en": "Colour cells by", "ru": "Цвет клеток"},
        "color_module": {"en": "stage", "ru": "этап"},
        "color_order": {"en": "reference position (X-Ray)", "ru": "позиция в эталоне"},
        "tok_source": {"en": "from the text", "ru": "в исходном тексте"},
        "tok_offsets": {"en": "characters", "ru": "символы"},
        "tok_function": {"en": "function word", "ru": "служебное"},
        "tok_match": {"en": "matched by", "ru": "этап"},
        "tokens_numbered": {
            "en": "Tokens are numbered from 1 on each side, and characters from 1 in the text "
            "(first–last, inclusive), as on every page of the app.",
            "ru": "Токены нумеруются с 1 в каждом тексте, символы — с 1 в исходном тексте "
            "(первый–последний включительно), как на всех страницах приложения.",
        },
        "why_title": {"en": "Why this score", "ru": "Откуда эта оценка"},
        "why_caption": {
            "en": "From 1.0 (a perfect match) down to the score. The unmatched-word loss is "
            "split between the two sides fairly (Shapley value); partial credit is what stage "
            "weights below 1 cost; fragmentation is Fmean × penalty.",
            "ru": "От 1,0 (идеальное совпадение) до итоговой оценки. Потери от слов без пары "
            "честно делятся между сторонами (значение Шепли); «неполный вес» — цена весов "
            "этапов меньше 1; фрагментация — F-мера × штраф.",
        },
        "costs_title": {
            "en": "Unmatched words: the score if matched",
            "ru": "Слова без пары: оценка, будь они сопоставлены",
        },
        "costs_caption": {
            "en": "Each word counted as matched on its own side by the {module} stage, "
            "joining an existing chunk. Positions and chunks are numbered from 1.",
            "ru": "Слово считается сопоставленным на своей стороне этапом «{module}» "
            "и продолжающим существующий фрагмент. Позиции и фрагменты нумеруются с 1.",
        },
        "breaks_title": {
            "en": "Chunk breaks: the score if joined",
            "ru": "Разрывы фрагментов: оценка, будь они объединены",
        },
        "breaks_caption": {
            "en": "The penalty counts chunks only, so joining any one break gives the same score.",
            "ru": "Штраф зависит только от числа фрагментов, поэтому любое объединение даёт "
            "одну и ту же оценку.",
        },
        "no_unmatched": {"en": "Every word is matched.", "ru": "Все слова сопоставлены."},
        "no_breaks": {
            "en": "One chunk or none: nothing to join.",
            "ru": "Один фрагмент или ни одного — объединять нечего.",
        },
        "col_word": {"en": "word", "ru": "слово"},
        "col_pos": {"en": "position", "ru": "позиция"},
        "col_between": {"en": "between chunks", "ru": "между фрагментами"},
        "col_if_joined": {"en": "score if joined", "ru": "оценка"},
        "downloads": {"en": "Downloads", "ru": "Скачать"},
        "dl_json": {"en": "Alignment record (JSON)", "ru": "Запись выравнивания (JSON)"},
        "dl_links": {"en": "Link view (HTML)", "ru": "Связи (HTML)"},
        "dl_matrix": {"en": "Matrix (HTML)", "ru": "Матрица (HTML)"},
        "dl_waterfall": {"en": "Waterfall (HTML)", "ru": "Каскад (HTML)"},
        "dl_alignout": {"en": "align.out (X-Ray)", "ru": "align.out (выравнивания)"},
        "dl_alignout_help": {
            "en": "Meteor 1.5's -writeAlignments format, readable by Meteor X-Ray.",
            "ru": "Формат -writeAlignments из Meteor 1.5; его читает программа просмотра Meteor X-Ray.",
        },
        "share": {
            "en": "The address bar holds the whole state (pair, language, preset, parameters): "
            "copy it to share this view.",
            "ru": "Адресная строка хранит всё состояние (пару, язык, пресет, параметры): "
            "скопируйте её, чтобы поделиться видом.",
        },
    }
)
t = Translator(PAGE_STRINGS, NEAR_STRINGS)

st.title(t("inspect_title"))
setting = current_setting()
st.caption(t("inspect_intro", stages=stage_order(setting.modules())))


def shown_reference(hyp: str, refs: tuple[str, ...], official: MeteorResult) -> tuple[str, ...]:
    """With several references: which won, and a choice of the one whose alignment is shown."""
    if len(refs) < 2:
        return refs
    st.subheader(t("refs_title"))
    best = official.best_ref_index
    items = {  # labels fixed now: AppTest formats options outside the run
        k: t("ref_item", k=k + 1, score=num(official.ref_scores[k]))
        + (t("ref_winner") if k == best else "")
        for k in range(len(refs))
    }
    shown = st.radio(
        t("ref_shown"),
        list(items),
        index=best,
        format_func=items.__getitem__,
        horizontal=True,
        key="shown_ref",
    )
    if shown == best:
        return refs
    st.info(t("ref_note", score=num(official.score), k=best + 1, shown=shown + 1))
    return (refs[shown],)


def chosen_view() -> str:
    """One view at a time (st.tabs would build and send, and the browser draw, all three on
    every edit): the chosen one lives in the URL as its id (?view=matrix), like Learn's step."""
    if st.session_state.get("inspect_view") not in VIEWS:
        wanted = st.query_params.get("view")
        st.session_state["inspect_view"] = wanted if wanted in VIEWS else VIEWS[0]
    view_labels = {v: t(f"tab_{v}") for v in VIEWS}  # fixed now: AppTest formats options later
    view = st.segmented_control(
        t("view"),
        VIEWS,
        format_func=view_labels.__getitem__,
        required=True,
        key="inspect_view",
        label_visibility="collapsed",
        persist_state="session",
    )
    view = view or VIEWS[0]  # required: never None once set; typed as optional
    sync_url("view", view, VIEWS[0])
    return view


def show_tokens(r: MeteorResult) -> None:
    """Both sides' tokens with offsets and the matching stage (library: explain.token_table)."""
    token_rows = [
        {
            t("col_side"): side_label(row.side),
            t("col_index"): row.index + 1,  # numbered from 1, as chunks and segments
            t("col_token"): row.text,
            t("tok_source"): row.source,
            t("tok_offsets"): f"{row.start + 1}–{row.end}" if row.end > row.start else "—",
            t("tok_function"): t("yes") if row.function_word else "",
            t("tok_match"): module_label(row.module) if row.module else "—",
        }
        for row in explain.token_table(r)
    ]
    # every row without scrolling, up to 40 (the default showed 10 of 13)
    table(token_rows, "tokens", height=(min(len(token_rows), 40) + 1) * ROW_PX + BORDER_PX)
    st.caption(t("tokens_numbered"))


def _why_table(title: str, empty: str, caption: str, rows: list[dict[str, Any]], key: str) -> None:
    """One part of "why this score": a bold title, then its table, or a line saying it is empty."""
    st.markdown(f"**{title}**")
    if not rows:
        st.caption(empty)
        return
    st.caption(caption)
    table(rows, key)


def show_word_costs(why: Explanation) -> None:
    """What each unmatched word costs: the record's ``word_costs``."""
    rows = [
        {
            t("col_side"): side_label(c.side),
            t("col_pos"): c.index + 1,
            t("col_word"): c.word,
            t("col_if"): num(c.score_if_matched),
            t("col_gain"): signed(c.gain),
        }
        for c in why.word_costs
    ]
    caption = t("costs_caption", module=module_label(why.word_costs[0].module)) if rows else ""
    _why_table(t("costs_title"), t("no_unmatched"), caption, rows, "costs")


def show_chunk_breaks(why: Explanation) -> None:
    """What each break between chunks costs: the record's ``chunk_breaks``."""
    rows = [
        {
            t("col_between"): f"{b.before + 1} | {b.before + 2}",  # chunks numbered from 1
            t("hypothesis"): f"{b.hyp_left} | {b.hyp_right}",
            t("reference"): f"{b.ref_left} | {b.ref_right}",
            t("col_if_joined"): num(b.score_if_joined),
            t("col_gain"): signed(b.gain),
        }
        for b in why.chunk_breaks
    ]
    _why_table(t("breaks_title"), t("no_breaks"), t("breaks_caption"), rows, "breaks")


def show_downloads(official: MeteorResult, modules: Sequence[Module], figs: dict[str, Any]) -> None:
    """The record (JSON), the figures (HTML, built on a click) and Meteor's align.out."""
    st.subheader(t("downloads"))
    # a wrapping row: each button as wide as its label (5 equal columns cut the labels)
    with st.container(horizontal=True, key="downloads"):
        download(
            st,
            t("dl_json"),
            lambda: json_text(official.to_dict(candidates=True), indent=2),
            "meteor-alignment.json",
            "application/json",
            "dl_json",
        )
        for name in ("links", "matrix", "waterfall"):
            download_html(t(f"dl_{name}"), figs[name], f"meteor-{name}.html", f"dl_{name}")
        download(
            st,
            t("dl_alignout"),
            lambda: record_files.write_alignments([official], modules),
            "meteor-align.out",
            "text/plain",
            "dl_alignout",
            help=t("dl_alignout_help"),
        )
    st.caption(t("share"))


def show_view(
    view: str, figs: dict[str, Any], fig_key: tuple[Any, ...], color_by: str, r: MeteorResult
) -> None:
    """The chosen view of the pair (its figure shared by every session per ``fig_key``)."""
    if view == "links":
        fig = shared_figure(("links", *fig_key), figs["links"])
        plotly(fig, key="links")
        # the caption follows the figure's own layout (rows, or columns for long pairs)
        columns = (fig.layout.meta or {}).get("layout") == "columns"
        st.caption(t("links_caption_columns" if columns else "links_caption"))
    elif view == "matrix":
        modes = {c: t(f"color_{c}") for c in ("module", "order")}
        st.radio(
            t("color_by"),
            list(modes),
            format_func=modes.__getitem__,
            horizontal=True,
            key="xray",
            persist_state="session",
        )  # read in pair_section (session state) for the figure and its download
        plotly(shared_figure(("matrix", color_by, *fig_key), figs["matrix"]), key="matrix")
    elif view == "tokens":
        show_tokens(r)


@st.fragment
def pair_section() -> None:
    """Everything that depends on the pair: a typed pair reruns only this, not the sidebar
    and frame; a widget outside (preset, parameters, language) reruns the whole page."""
    if current_setting() != setting:  # an example switched the language or preset
        st.rerun()  # the whole page: the sidebar shows the new setting
    hyp, refs = require_pair()
    a = analysis_for(hyp, refs, setting)
    official = a.result
    shown = shown_reference(hyp, refs, official)
    if shown != refs:  # another reference than the winner: scored alone
        refs = shown
        a = analysis_for(hyp, refs, setting)
    r = a.result
    score_card(r)
    human = spans_view.inspect_annotation(hyp)  # the human error spans the URL carries
    cells = segment_spans(r, human, a.params) if human is not None else None
    if cells is not None:
        spans_view.show_cells(cells)
    show_token_notices(r, a.params)
    #: why this score: the library's Explanation record (one call, cached; errors shown)
    why = explanation_for(hyp, refs, setting)

    labels = fig_labels()
    color_by = st.session_state.get("xray") or "module"  # the matrix download's colouring too
    # each figure built by one call, shown now and rebuilt for its download only on a click
    figs = {
        "links": partial(
            figures.link_view, r.alignment, weights=dict(a.params.weights), labels=labels, fmt=num
        ),
        "matrix": partial(figures.matrix_view, r.alignment, color_by=color_by, labels=labels),
        "waterfall": partial(figures.waterfall_figure, why.waterfall, labels=labels, fmt=num),
    }
    if cells is not None:  # the link view with the human spans on its hypothesis row
        figs["links"] = partial(
            spans_view.link_figure, r.alignment, cells, weights=dict(a.params.weights),
            labels=labels, fmt=num,
        )  # fmt: skip
    #: what the figures shown depend on besides the UI language: the pair and the setting
    fig_key = (hyp, refs, setting.preset, setting.overrides, human)
    view = chosen_view()
    # The figures are drawn last, in their places: the score card, the tables and the near
    # misses reach the browser first, before it spends its time drawing the charts.
    view_slot = st.container()

    st.subheader(t("why_title"))
    waterfall_slot = st.container()
    st.caption(t("why_caption"))
    c1, c2 = st.columns(2)
    with c1:
        show_word_costs(why)
    with c2:
        show_chunk_breaks(why)
    show_near_misses(why)
    show_downloads(official, a.params.modules, figs)

    with view_slot:
        show_view(view, figs, fig_key, color_by, r)
    with waterfall_slot:
        plotly(shared_figure(("waterfall", *fig_key), figs["waterfall"]), key="waterfall")


pair_section()
