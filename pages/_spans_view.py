"""Human error spans beside the alignment: Inspect, Corpus and Agreement.

Inspect: the URL's spans (``?spans=…``, :func:`meteor.io.spans.span_strings`' form, added
by a Corpus row's Inspect link) are drawn on the link view's hypothesis row
(:func:`meteor.viz.spans.span_link_view`) and the four cells listed under the score
(:func:`meteor.analysis.spans.segment_spans`); bad values give one warning.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from meteor.analysis.spans import (
    CELLS,
    RATER_RULES,
    RaterRule,
    SegmentSpans,
    count_spans,
    segment_spans,
)
from meteor.analysis.spans_table import setting_table, span_report
from meteor.errors import InputError
from meteor.io.read import MAX_BYTES
from meteor.io.spans import (
    MORE_SKIPPED_TEXT,
    QE_CATEGORIES,
    SKIP_TEXT,
    Annotation,
    SkipReason,
    SpanSet,
    annotation_from_strings,
    read_spans,
    span_strings,
)
from meteor.metric import Meteor
from meteor.params import Params
from meteor.types import Alignment, CorpusResult
from meteor.viz.spans import SPAN_LABELS_EN, span_link_view
from pages._cache import APP_CACHE
from pages._i18n import Translator, freeze, integer, interval, module_label, num, signed
from pages._input_messages import input_message
from pages._scoring import SHOWN_ERRORS
from pages._widgets import md_escape, md_fill, table

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
        "spans_raters": {"en": "Raters", "ru": "Оценщики"},
        "spans_raters_help": {
            "en": "union: a word is an error when any rater marked it; majority: when more "
            "than half of the segment's raters marked it",
            "ru": "объединение: слово — ошибка, если его отметил хотя бы один оценщик; "
            "большинство: если его отметили больше половины оценщиков сегмента",
        },
        "spans_rule_union": {
            "en": "union of raters",
            "ru": "объединение оценщиков",
        },
        "spans_rule_majority": {
            "en": "majority of raters",
            "ru": "большинство оценщиков",
        },
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
        # the QE reader's categories (meteor.io.spans.QE_CATEGORIES), in the hovers
        "category_BAD word": {"en": "BAD word", "ru": "слово с меткой BAD"},
        "category_BAD gap": {"en": "BAD gap", "ru": "пропуск с меткой BAD"},
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

# the Corpus page's strings
_PAIRS_RU = "; метки должны идти парами <v>…</v>"
_SEGMENT_RU = "гипотеза системы «{system}», сегмент «{seg_id}»"
#: The skipped rows' notices in Russian (the fields of meteor.io.spans.SkippedRow.fields).
_SKIP_RU: dict[SkipReason, str] = {
    "mark_nested": "{file}: строка {line} пропущена: метка <v> открывается внутри другой"
    + _PAIRS_RU,
    "mark_unopened": "{file}: строка {line} пропущена: метка </v> ничего не закрывает" + _PAIRS_RU,
    "mark_unclosed": "{file}: строка {line} пропущена: метка <v> не закрыта (нет </v>)" + _PAIRS_RU,
    "mark_empty": "{file}: строка {line} пропущена: пустая метка <v></v> (пропуск — это строка "
    "без меток)" + _PAIRS_RU,
    "not_hypothesis": "{file}: строка {line} пропущена: текст без меток <v> — не "
    + _SEGMENT_RU
    + " (расходятся с символа {at})",
    "mt_not_hypothesis": "{file}: строка {line} пропущена: это не " + _SEGMENT_RU,
}

CORPUS_STRINGS = freeze(
    {
        "spans_corpus_title": {
            "en": "Human error spans: where METEOR and people disagree",
            "ru": "Ошибки, отмеченные людьми: где METEOR и люди расходятся",
        },
        "spans_upload": {
            "en": "Human error annotations of these hypotheses (MQM TSV, QE .tags and .mt, "
            "or JSONL spans)",
            "ru": "Ошибки в этих гипотезах, отмеченные людьми (MQM в TSV, пословные метки "
            "или JSONL)",
        },
        "spans_error": {
            "en": "The annotations could not be read: {detail}",
            "ru": "Разметку не удалось прочитать: {detail}",
        },
        "spans_table_caption": {
            "en": "This setting, {n} annotated segments: precision {p}, recall {r}, F1 {f} "
            "(unmatched words against words people marked as errors, Minor or worse, "
            "{raters}).",
            "ru": "Эта настройка, размеченных сегментов: {n}; точность {p}, полнота {r}, "
            "F1 {f} (слова без пары против слов, отмеченных людьми как ошибки; {raters}).",
        },
        "spans_sorted": {
            "en": "Segments sorted by disagreement: blind spots (unmatched, no error) plus "
            "unseen errors (matched, error). Open one in Inspect to see its spans.",
            "ru": "Сегменты по степени расхождения: слепые пятна (без пары, не ошибка) плюс "
            "невидимые ошибки (сопоставлено, но ошибка). Откройте сегмент в разборе.",
        },
        "spans_read": {
            "en": "{n} annotated segments from {rows} rows ({fmt})",
            "ru": "Размеченных сегментов: {n}, из строк: {rows} ({fmt})",
        },
        "spans_unjoined": {
            "en": "{n} rows name a segment the table does not have",
            "ru": "строк с сегментом, которого нет в таблице: {n}",
        },
        "spans_skipped": {
            "en": "{n} rows skipped (their text is not the hypothesis)",
            "ru": "пропущено строк (их текст — не гипотеза): {n}",
        },
        # the reader's skipped rows (meteor.io.spans.SkippedRow): English is the library's
        **{
            f"spans_skip_{reason}": {"en": text, "ru": _SKIP_RU[reason]}
            for reason, text in SKIP_TEXT.items()
        },
        "spans_skip_more": {"en": MORE_SKIPPED_TEXT, "ru": "… и ещё пропущено строк: {n}"},
        "spans_col_seg": {"en": "segment id", "ru": "сегмент"},
        "spans_col_disagree": {"en": "disagreement", "ru": "расхождение"},
        "spans_col_blind": {"en": "blind spots", "ru": "слепые пятна"},
        "spans_col_unseen": {"en": "unseen errors", "ru": "невидимые ошибки"},
        "spans_col_seen": {"en": "seen errors", "ru": "замеченные ошибки"},
        "spans_col_open": {"en": "Inspect", "ru": "Разбор"},
    }
)
# the Agreement page's strings
AGREEMENT_STRINGS = freeze(
    {
        "spans_agr_title": {
            "en": "Human error spans: which setting leaves the errors unmatched",
            "ru": "Ошибки, отмеченные людьми: какая настройка оставляет их без пары",
        },
        "spans_agr_caption": {
            "en": "Per setting, token-level precision, recall and F1 of 'METEOR left it "
            "unmatched' against 'people marked it an error' (Minor or worse, {raters}), "
            "with 95% bootstrap intervals over segments; Δ F1 and p: paired bootstrap against "
            "the first setting.",
            "ru": "Для каждой настройки: точность, полнота и F1 на уровне слов — «METEOR "
            "оставил слово без пары» против «люди отметили ошибку» (незначительная и выше, "
            "{raters}), с 95% бутстреп-интервалами по сегментам; Δ F1 и p — "
            "парный бутстреп против первой настройки.",
        },
        "spans_col_setting": {"en": "setting", "ru": "настройка"},
        "spans_col_errors": {"en": "error words", "ru": "слов с ошибкой"},
        "spans_col_flagged": {"en": "unmatched", "ru": "без пары"},
        "spans_col_both": {"en": "both", "ru": "оба"},
        "spans_col_p": {"en": "precision", "ru": "точность"},
        "spans_col_r": {"en": "recall", "ru": "полнота"},
        "spans_col_dF1": {"en": "Δ F1 (p)", "ru": "Δ F1 (p)"},
    }
)
t = Translator(STRINGS, CORPUS_STRINGS, AGREEMENT_STRINGS)


def span_labels(labels: dict[str, str]) -> dict[str, str]:
    """The link view's labels plus the human error marks', in the UI language."""
    out = dict(labels)
    for key in SPAN_LABELS_EN:
        out[key] = t(f"fig_{key}" if key.startswith("cell_") else key, stage="{stage}")
    for category in QE_CATEGORIES:
        out[f"category_{category}"] = t(f"category_{category}")
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
        st.warning(with_detail("spans_bad", exc))
        return None


def with_detail(key: str, exc: BaseException) -> str:
    """The string ``key`` as Markdown, its ``{detail}`` the reader's error in the UI language
    (:func:`pages._input_messages.input_message`)."""
    return md_fill(t(key, detail="\0detail\0"), detail=input_message(exc))


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
    table(rows, "span_cells")
    if seg.omissions:
        st.caption(t("spans_omissions", n=integer(seg.omissions)))


def link_figure(alignment: Alignment, seg: SegmentSpans, **options: Any) -> Any:
    """The link view with the human spans on its hypothesis row (``options``: link_view's)."""
    labels = span_labels(options.pop("labels", {}) or {})
    return span_link_view(alignment, seg.tokens, labels=labels, **options)


# --------------------------------------------------------------------------- Corpus


def rater_choice(key: str) -> RaterRule:
    """The rater rule (union or majority), a choice beside the annotations' upload."""
    rule = st.radio(
        t("spans_raters"),
        RATER_RULES,
        format_func=lambda r: t(f"spans_rule_{r}"),
        horizontal=True,
        key=key,
        help=t("spans_raters_help"),
    )
    return rule if rule in RATER_RULES else "union"


def with_spans(url: str, ann: Annotation | None) -> str:
    """An Inspect link (``url``) carrying the pair's human error spans, when it has any."""
    values = span_strings(ann) if ann is not None else []
    return url + "&" + urlencode([(PARAM, v) for v in values]) if values else url


#: The Corpus page's annotations upload (widget key).
CORPUS_FILES = "corpus_spans_files"


@dataclass(frozen=True)
class CorpusSpans:
    """The Corpus page's uploaded annotations, read once a run: ``spans`` (None when there
    is no upload) or ``error`` (the reader's)."""

    spans: SpanSet | None = None
    error: InputError | None = None

    def annotation(self, system: str, seg_id: str) -> Annotation | None:
        """The annotation of one segment (None: not annotated, or no upload)."""
        return self.spans.get(system, seg_id) if self.spans is not None else None


def show_read(spans: SpanSet) -> None:
    """What was read and what was left out, and a warning per skipped row, then how many more
    were skipped (in the UI language; names and the user's text escaped)."""
    parts = [t("spans_read", n=integer(len(spans.annotations)), rows=integer(spans.rows),
                fmt=spans.format)]  # fmt: skip
    if spans.unjoined:
        parts.append(t("spans_unjoined", n=integer(spans.unjoined)))
    if spans.skipped:
        parts.append(t("spans_skipped", n=integer(spans.skipped)))
    st.caption(md_escape("; ".join(parts)))
    for row in spans.notices:
        st.warning(md_escape(t(f"spans_skip_{row.reason}", **row.fields())))
    if spans.unlisted:
        st.warning(md_escape(t("spans_skip_more", n=integer(spans.unlisted))))


def corpus_annotations(corpus: Any) -> CorpusSpans:
    """The annotations uploaded on the Corpus page (read before the segment table is drawn,
    so that its Inspect links carry the spans; the upload box is :func:`corpus_section`'s)."""
    files = st.session_state.get(CORPUS_FILES) or []
    if not files:
        return CorpusSpans()
    try:
        return CorpusSpans(read_spans([(f.name, f.getvalue()) for f in files], corpus))
    except InputError as exc:
        return CorpusSpans(error=exc)


def corpus_section(
    results: dict[str, CorpusResult], ids_of: Any, params: Params, link: Any, uploaded: CorpusSpans
) -> None:
    """Corpus: an upload of annotations (read by :func:`corpus_annotations`) and the rater
    rule; then this setting's span numbers and the segments sorted by disagreement, each
    one click from Inspect (``link(result)``: its URL; ``ids_of(system)``: the seg ids)."""
    st.subheader(t("spans_corpus_title"))
    st.file_uploader(
        t("spans_upload"),
        accept_multiple_files=True,
        key=CORPUS_FILES,
        max_upload_size=MAX_BYTES // 1_000_000,  # the readers' own limit, as the corpus files'
    )
    if uploaded.error is not None:
        st.error(with_detail("spans_error", uploaded.error))
        return
    spans = uploaded.spans
    if spans is None:
        return
    raters = rater_choice("corpus_spans_raters")
    show_read(spans)
    by_key = spans.by_key()
    records, anns, rows = [], [], []
    for name, res in results.items():
        for seg_id, r in zip(ids_of(name), res.segments, strict=True):
            ann = by_key.get((name, seg_id))
            if ann is None:
                continue
            seg = segment_spans(r, ann, params, raters)
            records.append(r)
            anns.append(ann)
            rows.append(
                {
                    t("rp_col_system"): name,
                    t("spans_col_seg"): seg_id,
                    t("spans_col_disagree"): seg.disagreement,
                    t("spans_col_blind"): seg.counts["unmatched_ok"],
                    t("spans_col_unseen"): seg.counts["matched_error"],
                    t("spans_col_seen"): seg.counts["unmatched_error"],
                    t("hypothesis"): r.hyp,
                    "open": with_spans(link(r), ann),
                }
            )
    if not rows:
        return
    o = setting_table("", "", count_spans(records, anns, raters), n_samples=0).overall
    st.caption(
        t(
            "spans_table_caption",
            raters=t(f"spans_rule_{raters}"),
            n=integer(len(rows)),
            p=num(o.precision.value),
            r=num(o.recall.value),
            f=num(o.f1.value),
        )
    )
    st.caption(t("spans_sorted"))
    rows.sort(key=lambda row: -row[t("spans_col_disagree")])
    table(
        rows,
        "corpus_span_rows",
        column_config={
            "open": st.column_config.LinkColumn(
                t("spans_col_open"), display_text=t("rp_open"), width="small"
            )
        },
        # the open link before the long hypothesis: drawn without scrolling at 1366 px
        column_order=[
            t("rp_col_system"),
            t("spans_col_seg"),
            "open",
            *(t(c) for c in ("spans_col_disagree", "spans_col_blind", "spans_col_unseen")),
            *(t(c) for c in ("spans_col_seen", "hypothesis")),
        ],
    )


# --------------------------------------------------------------------------- Agreement


def agreement_section(corpus: Any, presets: Any, lang: str, key: tuple[Any, ...]) -> None:
    """Agreement with people: an upload of annotations of the judged corpus's hypotheses,
    then the per-setting span table (:func:`meteor.analysis.spans_table.span_report`)."""
    st.subheader(t("spans_agr_title"))
    files = st.file_uploader(
        t("spans_upload"),
        accept_multiple_files=True,
        key="agr_spans",
        max_upload_size=MAX_BYTES // 1_000_000,
    )
    if not files or not presets:
        return
    raters = rater_choice("agr_spans_raters")
    data = [(f.name, f.getvalue()) for f in files]
    try:
        spans = read_spans(data, corpus)
    except InputError as exc:
        st.error(with_detail("spans_error", exc))
        return
    show_read(spans)
    refs = {
        (n, i): r
        for n, _ in corpus.systems
        for i, r in zip(corpus.ids_of(n), corpus.refs_of(n), strict=True)
    }
    digest = tuple(hashlib.sha256(b).hexdigest()[:24] for _, b in data)
    try:
        report = APP_CACHE.get(
            ("spans_report", key, digest, raters),
            lambda: span_report(
                spans,
                [refs[a.system, a.seg_id] for a in spans.annotations],
                [(p, Meteor(p, lang=lang)) for p in presets],
                raters=raters,
            ),
        )
    except SHOWN_ERRORS as exc:  # a setting that cannot run here: one line, no traceback
        st.error(with_detail("spans_error", exc))
        return
    st.caption(t("spans_agr_caption", raters=t(f"spans_rule_{report.raters}")))
    diffs = {b: f"{signed(c.difference)} ({num(c.p_value, 3)})" for _, b, c in report.comparisons}
    rows = [
        {
            t("spans_col_setting"): s.preset,
            t("spans_col_errors"): integer(s.overall.error_tokens),
            t("spans_col_flagged"): integer(s.overall.flagged),
            t("spans_col_both"): integer(s.overall.flagged_errors),
            t("spans_col_p"): interval(s.overall.precision, 3),
            t("spans_col_r"): interval(s.overall.recall, 3),
            "F1": interval(s.overall.f1, 3),
            t("spans_col_dF1"): diffs.get(s.preset, ""),
        }
        for s in report.settings
    ]
    table(rows, "agr_span_table")
