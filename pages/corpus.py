"""Corpus: upload systems and references (or open the demo), score them, read the
corpus score beside the mean of segment scores with bootstrap intervals, sort and
filter the segments, open any segment's alignment, compare two systems with a
paired bootstrap, and export everything."""

from __future__ import annotations

from functools import partial

import streamlit as st

from meteor.analysis.pvalue_text import bootstrap_resolution, plus_one_resolution
from meteor.analysis.significance import segment_differences
from meteor.io.read import MAX_BYTES, demo_corpus
from meteor.io.record_files import report, segments_csv, segments_jsonl, write_alignments
from meteor.json_numbers import json_text
from meteor.metric import jar_text
from meteor.viz import corpus_charts as corpus_figures
from pages import _spans_view as spans_view
from pages._corpus_common import (
    CORPUS_STRINGS,
    SORT_KEYS,
    cached_rows,
    common_results,
    filter_sort,
    get_intervals,
    get_paired,
    inspect_link,
    load_uploads,
    percent,
    safe_name,
    scored,
    show_segment,
)
from pages._frame import require_frame
from pages._i18n import Translator, corpus_fig_labels, freeze, integer, num, p_value, signed
from pages._report_view import REPORT_TABS, report_tabs
from pages._scoring import ensure_ready, shown_errors
from pages._settings import current_setting
from pages._widgets import chart_points, download, plotly, selected, table, uploader_css

require_frame()  # before any output: a deep link to a fresh server skips app.py

#: Streamlit refuses bigger uploads before buffering them (its default is 200 MB).
MAX_UPLOAD_MB = MAX_BYTES // 1_000_000

#: The segment table's columns in their order: the open link and the texts first, as the
#: 13 columns are wider than the page (four fit 1100 px: tests/browser/test_browser_truncation.py)
TABLE_COLUMNS = tuple(
    "segment inspect hyp ref score precision recall frag chunks hyp_len ref_len best_ref "
    "seg_id".split()
)

#: Beyond this many systems the summary is one table row per system, not two cards each.
MAX_SCORE_CARDS = 3

PAGE_STRINGS = freeze(
    {
        "corpus_title": {"en": "Score a corpus", "ru": "Оценка корпуса"},
        "corpus_intro": {
            "en": "Upload one hypothesis file per system and one reference file per reference "
            "(plain text, one segment per line; or TSV/JSONL with hyp, ref and system "
            "columns, and seg_id to pair segments by id), or open the demo corpus. METEOR's "
            "corpus score sums the segments' statistics and applies the formula once (as "
            "Meteor 1.5 does); the mean of the segment scores is a different number and is "
            "shown beside it.",
            "ru": "Загрузите по файлу гипотез на систему и по файлу эталонов на эталон (текст, "
            "один сегмент в строке; или TSV/JSONL со столбцами `hyp`, `ref` и `system`, а "
            "`seg_id` сопоставляет сегменты по идентификатору) либо "
            "откройте демонстрационный корпус. Оценка корпуса METEOR суммирует статистику "
            "сегментов и применяет формулу один раз (как Meteor 1.5); среднее оценок "
            "сегментов — другое число, оно показано рядом.",
        },
        "corpus_source": {"en": "Data", "ru": "Данные"},
        "corpus_src_upload": {"en": "Upload files", "ru": "Загрузить файлы"},
        "corpus_src_demo": {
            "en": "Demo corpus (20 segments, 2 systems)",
            "ru": "Демо-корпус (20 сегментов, 2 системы)",
        },  # fmt: skip
        "corpus_hyp_files": {
            "en": "Hypotheses: one file per system (.txt, .tsv, .jsonl)",
            "ru": "Гипотезы: по файлу на систему (.txt, .tsv, .jsonl)",
        },
        "corpus_ref_files": {
            "en": "References: one file per reference (not needed if the table has a ref column)",
            "ru": "Эталоны: по файлу на эталон (не нужны, если в таблице есть столбец `ref`)",
        },
        "corpus_need_files": {
            "en": "Upload at least one hypothesis file, or open the demo corpus.",
            "ru": "Загрузите хотя бы один файл гипотез или откройте демо-корпус.",
        },
        "corpus_loaded": {
            "en": "{n} segments · {systems} system(s) · {refs} reference(s) per segment",
            "ru": "Сегментов: {n} · систем: {systems} · эталонов на сегмент: {refs}",
        },
        "corpus_coverage": {
            "en": "Segments are paired by their ids (seg_id). Not every system has every "
            "segment; each is scored on its own: {systems}.",
            "ru": "Сегменты сопоставлены по идентификаторам (seg_id). Не у каждой системы есть "
            "все сегменты; каждая оценена по своим: {systems}.",
        },
        "corpus_coverage_item": {
            "en": "{system} {n} of {total}",
            "ru": "{system} — {n} из {total}",
        },
        "corpus_score_label": {
            "en": "{system}: corpus METEOR (summed statistics)",
            "ru": "{system}: METEOR корпуса (сумма статистик)",
        },
        "corpus_mean_label": {
            "en": "{system}: mean of segment scores",
            "ru": "{system}: среднее оценок сегментов",
        },
        "corpus_score_help": {
            "en": "Meteor 1.5's system score: the segments' matches, lengths and chunks are "
            "summed, then the formula is applied once.",
            "ru": "Оценка системы в Meteor 1.5: совпадения, длины и фрагменты сегментов "
            "суммируются, затем формула применяется один раз.",
        },
        "corpus_mean_help": {
            "en": "The average of the segment scores — what many scripts report instead.",
            "ru": "Среднее оценок сегментов — то, что вместо неё сообщают многие скрипты.",
        },
        "corpus_col_score": {
            "en": "corpus METEOR (summed statistics)",
            "ru": "METEOR корпуса (сумма статистик)",
        },
        "corpus_col_ci": {"en": "95% CI", "ru": "95% ДИ"},
        "corpus_ci_range": {"en": "[{low}, {high}]", "ru": "[{low}; {high}]"},
        "corpus_summary_caption": {
            "en": "One row per system. 95% CI: bootstrap, {n} samples. The corpus score sums "
            "the segments' statistics, then applies the formula once (Meteor 1.5); the mean "
            "of segment scores is what many scripts report instead.",
            "ru": "По строке на систему. 95% ДИ: бутстреп, выборок: {n}. Оценка корпуса "
            "суммирует статистики сегментов и применяет формулу один раз (Meteor 1.5); среднее "
            "оценок сегментов — то, что вместо неё сообщают многие скрипты.",
        },
        "corpus_ci": {
            "en": "95% CI [{low}, {high}] (bootstrap, {n} samples)",
            "ru": "95% ДИ [{low}; {high}] (бутстреп, выборок: {n})",
        },
        "corpus_tab_segments": {"en": "Segments", "ru": "Сегменты"},
        "corpus_tab_dist": {"en": "Distributions", "ru": "Распределения"},
        "corpus_tab_compare": {"en": "Compare two systems", "ru": "Сравнение двух систем"},
        "corpus_tab_export": {"en": "Export", "ru": "Экспорт"},
        "corpus_sort": {"en": "Sort by", "ru": "Сортировать по"},
        "corpus_desc": {"en": "Descending", "ru": "По убыванию"},
        "corpus_range": {"en": "Segment score between", "ru": "Оценка сегмента в пределах"},
        "corpus_search": {"en": "Text contains", "ru": "Текст содержит"},
        "corpus_shown": {"en": "{shown} of {n} segments shown", "ru": "Показано {shown} из {n}"},
        "corpus_pick": {
            "en": "Select a row to open its alignment (or type a segment number).",
            "ru": "Выберите строку, чтобы открыть выравнивание (или введите номер сегмента).",
        },
        "corpus_goto": {"en": "Open segment number", "ru": "Открыть сегмент номер"},
        "corpus_goto_help": {
            "en": "1 to {n}, as the table's # column; empty: none",
            "ru": "от 1 до {n}, как в столбце № таблицы; пусто — ни одного",
        },
        "corpus_upload_help": {
            "en": "Drag files onto the box or use its Upload button; at most {mb} MB per file. "
            "Text files of any name are read (.txt, .tsv and .jsonl by their format); a file "
            "that is not text is refused with the reason below.",
            "ru": "Перетащите файлы в поле или нажмите его кнопку «Загрузить»; не более {mb} МБ "
            "на файл. Читаются текстовые файлы с любым именем (.txt, .tsv и .jsonl — по их "
            "формату); нетекстовый файл отклоняется, и причина показана ниже.",
        },
        # Streamlit's drop zone has its own English texts: replaced by CSS (uploader_css)
        "corpus_upload_button": {"en": "Upload", "ru": "Загрузить"},
        "corpus_upload_limit": {"en": "{mb} MB per file", "ru": "до {mb} МБ на файл"},
        "corpus_sort_segment": {"en": "segment number", "ru": "номер сегмента"},
        "corpus_sort_score": {"en": "score", "ru": "оценка"},
        "corpus_sort_precision": {"en": "precision", "ru": "точность"},
        "corpus_sort_recall": {"en": "recall", "ru": "полнота"},
        "corpus_sort_frag": {"en": "fragmentation", "ru": "фрагментация"},
        "corpus_sort_ref_len": {"en": "reference length", "ru": "длина эталона"},
        "corpus_sort_hyp_len": {"en": "hypothesis length", "ru": "длина гипотезы"},
        "corpus_col_id": {"en": "id", "ru": "id"},
        "corpus_col_len": {"en": "ref len", "ru": "дл. эт."},
        "corpus_col_hyp_len": {"en": "hyp len", "ru": "дл. гип."},
        "corpus_col_best": {"en": "best ref", "ru": "лучший эт."},
        "corpus_col_ref": {"en": "best reference", "ru": "лучший эталон"},
        "corpus_col_link": {"en": "Inspect", "ru": "Разбор"},
        "corpus_dist_caption": {
            "en": "Segment scores, precision, recall and fragmentation (chunks per matched "
            "word); undefined values (no match, empty side) are left out.",
            "ru": "Оценки сегментов, точность, полнота и фрагментация (фрагментов на "
            "сопоставленное слово); неопределённые значения (нет совпадений, пустая сторона) "
            "не показаны.",
        },
        "corpus_len_caption": {
            "en": "Score against reference length. Select a point to open its segment.",
            "ru": "Оценка в зависимости от длины эталона. Выберите точку, чтобы открыть сегмент.",
        },
        "corpus_need_two": {
            "en": "Upload two or more systems (on the same references) to compare them.",
            "ru": "Загрузите две или больше систем (с одними эталонами), чтобы сравнить их.",
        },
        "corpus_sys_a": {"en": "System A (baseline)", "ru": "Система A (базовая)"},
        "corpus_diff_label": {
            "en": "Corpus METEOR difference B − A",
            "ru": "Разность METEOR корпуса B − A",
        },
        "corpus_mean_diff_label": {
            "en": "Mean segment score difference B − A",
            "ru": "Разность средних оценок B − A",
        },
        "corpus_p": {
            "en": "95% CI [{low}, {high}] · two-sided p {p} (paired bootstrap, {n} samples; B "
            "wins {wins} of the resamples; sacreBLEU's one-tailed p = {p_sb})",
            "ru": "95% ДИ [{low}; {high}] · двусторонний p {p} (парный бутстреп, выборок: {n}; "
            "B лучше в {wins} выборок; односторонний p sacreBLEU = {p_sb})",
        },
        "corpus_paired_on": {
            "en": "Paired on {n} common segments ({a}: {n_a}, {b}: {n_b}); both systems are "
            "scored on those {n} here.",
            "ru": "Сравнение по {n} общим сегментам ({a}: {n_a}, {b}: {n_b}); здесь обе "
            "системы оценены по этим {n}.",
        },
        "corpus_no_common": {
            "en": "{a} and {b} have no segment id in common: there is nothing to pair.",
            "ru": "У {a} и {b} нет общих сегментов: сравнивать нечего.",
        },
        "corpus_paired_all": {
            "en": "Paired on all {n} segments.",
            "ru": "Сравнение по всем {n} сегментам.",
        },
        "corpus_p_help": {
            "en": "Paired bootstrap test (Koehn 2004), two-sided: both systems are resampled "
            "with the same segments; the interval is the 2.5th–97.5th percentile of the "
            "resampled B − A, and p = min(1, 2(k+1)/(B+1)), k the resamples on the other "
            "side of 0 and B the resamples: never 0, and p < 0.05 only when the 95% interval "
            "excludes 0. sacreBLEU's p (centred "
            "|B − A|, +1 smoothing) counts one tail and is about half of it.",
            "ru": "Парный бутстреп-тест (Koehn 2004), двусторонний: обе системы берутся по "
            "одним и тем же сегментам; интервал — 2,5–97,5-й процентили B − A по выборкам, "
            "p — меньшее из 1 и 2(k+1)/(B+1), где k — число выборок по другую сторону от 0, B — "
            "число выборок: p никогда не равно 0, и p < 0,05 только когда 95% интервал не "
            "содержит 0. p sacreBLEU (центрированная |B − A|, +1) "
            "считает один хвост и примерно вдвое меньше.",
        },
        "corpus_scatter_caption": {
            "en": "Each point is a segment: A's score across, B's up. Above the diagonal B "
            "wins. Select a point to open both alignments.",
            "ru": "Точка — сегмент: по горизонтали оценка A, по вертикали B. Выше диагонали "
            "лучше B. Выберите точку, чтобы открыть оба выравнивания.",
        },
        "corpus_wins": {"en": "B's largest wins", "ru": "Наибольшие выигрыши B"},
        "corpus_losses": {"en": "B's largest losses", "ru": "Наибольшие проигрыши B"},
        "corpus_col_a": {"en": "A", "ru": "A"},
        "corpus_pair_pick": {
            "en": "Select a row or a point to see both alignments side by side.",
            "ru": "Выберите строку или точку, чтобы увидеть оба выравнивания рядом.",
        },
        "corpus_dl_csv": {"en": "Segments (CSV)", "ru": "Сегменты (CSV)"},
        "corpus_dl_jsonl": {"en": "Segment records (JSONL)", "ru": "Записи сегментов (JSONL)"},
        "corpus_dl_report": {"en": "Report (JSON)", "ru": "Отчёт (JSON)"},
        "corpus_dl_align": {
            "en": "Alignments of {system} (align.out)",
            "ru": "Выравнивания {system} (align.out)",
        },
        "corpus_dl_align_help": {
            "en": "Meteor 1.5's -writeAlignments format, readable by Meteor X-Ray.",
            "ru": "Формат -writeAlignments из Meteor 1.5, читается Meteor X-Ray.",
        },
        "corpus_export_caption": {
            "en": "Every file carries the signature. The alignment file is the format Meteor "
            "1.5 writes with -writeAlignments (read by Meteor X-Ray).",
            "ru": "Каждый файл содержит подпись. Файл выравниваний — в формате Meteor 1.5 "
            "-writeAlignments (его читает Meteor X-Ray).",
        },
    }
)
t = Translator(CORPUS_STRINGS, PAGE_STRINGS)


st.title(t("corpus_title"))
st.caption(t("corpus_intro"))

setting = current_setting()
with shown_errors():
    meteor = setting.meteor()
ensure_ready(meteor)

# -- input --------------------------------------------------------------------------
source = st.radio(
    t("corpus_source"),
    ["upload", "demo"],
    format_func={s: t(f"corpus_src_{s}") for s in ("upload", "demo")}.__getitem__,  # AppTest
    horizontal=True,
    key="corpus_source",
)
label_files: tuple[tuple[str, bytes], ...] = ()  # the uploads: their label columns
st.html(
    uploader_css(t("corpus_upload_button"), t("corpus_upload_limit", mb=MAX_UPLOAD_MB))
)  # every drop zone of the page (the demo has the annotations' one)
if source == "demo":
    corpus = demo_corpus()
else:
    hyp_files, ref_files = (
        col.file_uploader(
            t(key),
            help=t("corpus_upload_help", mb=MAX_UPLOAD_MB),
            accept_multiple_files=True,
            key=key,
            max_upload_size=MAX_UPLOAD_MB,
        )
        for col, key in zip(st.columns(2), ("corpus_hyp_files", "corpus_ref_files"), strict=True)
    )
    if not hyp_files:
        st.info(t("corpus_need_files"))
        st.stop()
    loaded = load_uploads(hyp_files, ref_files or [], jar_bytes=jar_text(meteor.params))
    if loaded is None:
        st.stop()
    corpus = loaded
    label_files = tuple((f.name, f.getvalue()) for f in (*hyp_files, *(ref_files or [])))

st.caption(
    t(
        "corpus_loaded",
        n=integer(corpus.n_segments),
        systems=integer(len(corpus.systems)),
        refs=integer(corpus.n_refs),
    )
)
if not corpus.complete:
    st.caption(
        t(
            "corpus_coverage",
            systems=", ".join(
                t(
                    "corpus_coverage_item",
                    system=safe_name(n),
                    n=integer(len(h)),
                    total=integer(corpus.n_segments),
                )
                for n, h in corpus.systems
            ),
        )
    )
results = scored(corpus, setting, meteor)
intervals = get_intervals(corpus, setting, meteor, results)
names = list(results)

# -- summary ------------------------------------------------------------------------
if len(names) > MAX_SCORE_CARDS:  # one row per system
    table(
        [
            {
                "system": name,
                "score": num(res.score),
                "score_ci": t("corpus_ci_range", low=num(ci.low), high=num(ci.high)),
                "mean": num(res.mean_segment_score),
                "mean_ci": t("corpus_ci_range", low=num(cm.low), high=num(cm.high)),
            }
            for name, res in results.items()
            for ci, cm in [(intervals[name].corpus, intervals[name].mean_segment)]
        ],
        "corpus_summary",
        column_config={
            "system": st.column_config.TextColumn(t("rp_col_system")),
            "score": st.column_config.TextColumn(
                t("corpus_col_score"), help=t("corpus_score_help")
            ),
            "score_ci": st.column_config.TextColumn(t("corpus_col_ci")),
            "mean": st.column_config.TextColumn(t("rp_col_mean"), help=t("corpus_mean_help")),
            "mean_ci": st.column_config.TextColumn(t("corpus_col_ci")),
        },
        height=(len(names) + 1) * 35 + 3,  # every system, no scrolling
    )
    st.caption(t("corpus_summary_caption", n=integer(intervals[names[0]].n_samples)))
else:
    for name, res in results.items():
        ci = intervals[name]
        label = safe_name(name)  # a file or system name: labels render Markdown
        for col, what, value, iv in zip(
            st.columns(2),
            ("score", "mean"),
            (res.score, res.mean_segment_score),
            (ci.corpus, ci.mean_segment),
            strict=True,
        ):
            col.metric(
                t(f"corpus_{what}_label", system=label), num(value), help=t(f"corpus_{what}_help")
            )
            col.caption(t("corpus_ci", low=num(iv.low), high=num(iv.high), n=integer(ci.n_samples)))
if len(names) > 1:
    plotly(corpus_figures.interval_bars(intervals, labels=corpus_fig_labels()), key="corpus_bars")
st.code(results[names[0]].signature, language=None, wrap_lines=True)


tab_names = ["segments", "dist", "compare", *REPORT_TABS, "export"]
tabs = dict(
    zip(
        tab_names,
        st.tabs([t(f"corpus_tab_{n}") for n in tab_names], key="corpus_tabs"),
        strict=True,
    )
)

# -- segments -------------------------------------------------------------------------
with tabs["segments"]:
    system = (
        st.selectbox(t("rp_system"), names, key="corpus_system") if len(names) > 1 else None
    ) or names[0]
    res = results[system]
    # human error spans, when uploaded (the box is under the table): Inspect links carry them
    annotations = spans_view.corpus_annotations(corpus)
    f1, f2, f3, f4 = st.columns([2, 1.5, 2, 2])  # "По убыванию" whole at 1366 px
    sort_by = f1.selectbox(
        t("corpus_sort"),
        list(SORT_KEYS),
        format_func=lambda k: t(f"corpus_sort_{k}"),
        key="corpus_sort",
    )
    descending = f2.toggle(t("corpus_desc"), key="corpus_desc")
    score_range = f3.slider(t("corpus_range"), 0.0, 1.0, (0.0, 1.0), 0.01, key="corpus_range")
    query = f4.text_input(t("corpus_search"), key="corpus_search")
    rows = filter_sort(
        cached_rows(corpus, setting, system, res),
        sort_by=sort_by or "segment",
        descending=descending,
        score_range=score_range,
        query=query,
    )
    st.caption(t("corpus_shown", shown=integer(len(rows)), n=integer(len(res.segments))))
    table(
        [
            {k: r.get(k) for k in TABLE_COLUMNS}
            | {
                "best_ref": r["best_ref_index"] + 1,
                "inspect": spans_view.with_spans(
                    r["inspect"], annotations.annotation(system, r["seg_id"])
                ),
            }
            for r in rows
        ],
        "corpus_table",
        column_config={
            "segment": st.column_config.NumberColumn(t("col_index"), width="small"),
            "seg_id": st.column_config.TextColumn(t("corpus_col_id")),
            "score": st.column_config.NumberColumn(t("score"), format="%.4f"),
            "precision": st.column_config.NumberColumn("P", format="%.4f"),
            "recall": st.column_config.NumberColumn("R", format="%.4f"),
            "frag": st.column_config.NumberColumn(t("frag"), format="%.4f"),
            "chunks": st.column_config.NumberColumn(t("chunks")),
            "ref_len": st.column_config.NumberColumn(t("corpus_col_len")),
            "hyp_len": st.column_config.NumberColumn(t("corpus_col_hyp_len")),
            "best_ref": st.column_config.NumberColumn(t("corpus_col_best")),
            "hyp": st.column_config.TextColumn(t("hypothesis"), width=220),
            "ref": st.column_config.TextColumn(t("corpus_col_ref"), width=220),
            "inspect": st.column_config.LinkColumn(
                t("corpus_col_link"), display_text=t("rp_open"), width="small"
            ),
        },
        on_select="rerun",
        selection_mode="single-row",
    )
    st.caption(t("corpus_pick"))
    goto = st.number_input(  # numbered from 1 as the table's rows; empty: none
        t("corpus_goto"),
        1,
        len(res.segments),
        None,
        1,
        key="corpus_goto",
        help=t("corpus_goto_help", n=integer(len(res.segments))),
    )
    picked = selected("corpus_table", "rows")
    number: int | None = None
    if picked and picked[0] < len(rows):
        number = int(rows[picked[0]]["segment"])
    elif goto is not None:
        number = int(goto)
    if number is not None:
        show_segment(corpus, results, system, number - 1, key="corpus_detail")
    spans_view.corpus_section(results, corpus.ids_of, meteor.params, inspect_link, annotations)

# -- distributions -----------------------------------------------------------------------
with tabs["dist"]:
    plotly(corpus_figures.distributions(results, labels=corpus_fig_labels()), key="corpus_dists")
    st.caption(t("corpus_dist_caption"))
    points = chart_points(
        corpus_figures.score_vs_length(results, labels=corpus_fig_labels()), "corpus_len"
    )
    st.caption(t("corpus_len_caption"))
    if points:
        sys_k, seg_k = (int(x) for x in points[0]["customdata"][:2])
        if 0 <= sys_k < len(names) and 0 <= seg_k < len(results[names[sys_k]].segments):
            show_segment(corpus, results, names[sys_k], seg_k, key="corpus_len_detail")

# -- compare two systems --------------------------------------------------------------------
with tabs["compare"]:
    if len(names) < 2:
        st.info(t("corpus_need_two"))
    else:
        s1, s2 = st.columns(2)
        name_a = s1.selectbox(t("corpus_sys_a"), names, index=0, key="corpus_sys_a")
        name_b = s2.selectbox(t("rp_sys_b"), names, index=1, key="corpus_sys_b")
        if name_a == name_b:
            st.warning(t("rp_same"))
        elif (pb := get_paired(corpus, setting, meteor, results, name_a, name_b)) is None:
            st.warning(t("corpus_no_common", a=safe_name(name_a), b=safe_name(name_b)))
        else:
            st.caption(
                t("corpus_paired_all", n=integer(pb.n_segments))
                if pb.all_segments
                else t(
                    "corpus_paired_on",
                    n=integer(pb.n_segments),
                    a=safe_name(name_a),
                    b=safe_name(name_b),
                    n_a=integer(pb.segments_a),
                    n_b=integer(pb.segments_b),
                )
            )
            m1, m2 = st.columns(2)
            for col, label, stat in (
                (m1, "corpus_diff_label", pb.corpus),
                (m2, "corpus_mean_diff_label", pb.mean_segment),
            ):
                col.metric(t(label), signed(stat.difference), help=t("corpus_p_help"))
                col.caption(
                    t(
                        "corpus_p",
                        low=signed(stat.difference_interval.low),
                        high=signed(stat.difference_interval.high),
                        # "= 0.0712", or "< 0.002" when no resample crossed 0 (p below 2/B)
                        p=p_value(stat.p_value, bootstrap_resolution(pb.n_samples), relation=True),
                        p_sb=p_value(stat.p_value_sacrebleu, plus_one_resolution(pb.n_samples)),
                        n=integer(pb.n_samples),
                        wins=percent(stat.b_wins),
                    )
                )
            # both systems on the segments both have (the whole results when they match)
            ra, rb, pos_a, pos_b = common_results(corpus, meteor, results, name_a, name_b)
            fig = corpus_figures.ab_scatter(
                ra, rb, names=(name_a, name_b), labels=corpus_fig_labels()
            )
            pts = chart_points(fig, "corpus_ab")
            st.caption(t("corpus_scatter_caption"))
            diffs = segment_differences(ra, rb)
            top = 10
            wins = [d for d in diffs[:top] if d.difference > 0]
            losses = [d for d in reversed(diffs[-top:]) if d.difference < 0]
            w1, w2 = st.columns(2)
            chosen: int | None = None
            for col, title, items, key in (
                (w1, "corpus_wins", wins, "corpus_wins_table"),
                (w2, "corpus_losses", losses, "corpus_losses_table"),
            ):
                col.markdown(f"**{t(title)}**")
                table(
                    [
                        {
                            t("col_index"): pos_a[d.index] + 1,
                            t("corpus_col_id"): corpus.ids_of(name_a)[pos_a[d.index]],
                            t("corpus_col_a"): num(d.score_a),
                            t("rp_col_b"): num(d.score_b),
                            t("rp_col_diff"): signed(d.difference),
                            t("hypothesis"): ra.segments[d.index].hyp,
                        }
                        for d in items
                    ],
                    key,
                    on_select="rerun",
                    selection_mode="single-row",
                    where=col,
                )
                sel = selected(key, "rows")
                if sel and sel[0] < len(items):
                    chosen = items[sel[0]].index
            if pts:
                chosen = int(pts[0]["customdata"][1])
            st.caption(t("corpus_pair_pick"))
            if chosen is not None and 0 <= chosen < len(pos_a):
                left, right = st.columns(2)
                for col, name, pos, key in (
                    (left, name_a, pos_a[chosen], "corpus_pair_a"),
                    (right, name_b, pos_b[chosen], "corpus_pair_b"),
                ):
                    with col:
                        show_segment(corpus, results, name, pos, key=key)

report_tabs(
    tabs, corpus, setting, meteor, results, label_files
)  # ranking, buckets, where the points go

# -- export ----------------------------------------------------------------------------
with tabs["export"]:
    st.caption(t("corpus_export_caption"))
    # a wrapping row: each button as wide as its label (4 equal columns cut the labels)
    row = st.container(horizontal=True, key="corpus_downloads")

    def _csv() -> str:
        return "".join(
            segments_csv(r.segments, system=n, ids=corpus.ids_of(n), header=k == 0)
            for k, (n, r) in enumerate(results.items())
        )

    def _jsonl() -> str:
        return "".join(
            line
            for n, r in results.items()
            for line in segments_jsonl(r.segments, system=n, ids=corpus.ids_of(n))
        )

    def _report() -> str:
        found = [get_paired(corpus, setting, meteor, results, names[0], n) for n in names[1:]]
        comparisons = [c for c in found if c is not None]  # systems with a segment in common
        rep = report(
            results,
            meteor.params,
            preset=meteor.preset,
            intervals=intervals,
            comparisons=comparisons,
            sources=corpus.sources,
        )
        return json_text(rep, indent=2)

    for what, make, file_name, mime in (
        ("csv", _csv, "meteor-segments.csv", "text/csv"),
        ("jsonl", _jsonl, "meteor-segments.jsonl", "application/jsonl"),
        ("report", _report, "meteor-report.json", "application/json"),
    ):
        download(row, t(f"corpus_dl_{what}"), make, file_name, mime, f"corpus_dl_{what}")

    for k, (n, r) in enumerate(results.items()):
        download(
            row,
            t("corpus_dl_align", system=safe_name(n if len(n) <= 40 else n[:39] + "…")),
            partial(write_alignments, r.segments, meteor.params.modules),
            f"{n}-align.out",
            "text/plain",
            f"corpus_dl_align_{k}",
            help=f"{safe_name(n)}: {t('corpus_dl_align_help')}",
        )
