"""UI strings in English and Russian, and numbers written the UI language's way.

:data:`STRINGS` (every page's strings) is read-only and each page reads it through its own
:class:`Translator` over its own table, so a key cannot change meaning with the page that
ran last; :data:`t`, :func:`num`, :func:`integer`, :func:`signed` and the stage, side and
figure labels follow the interface language chosen in the sidebar (:func:`ui`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import streamlit as st

from meteor.analysis.pvalue_text import p_value_text
from meteor.module_registry import Module
from meteor.viz import corpus_charts as corpus_figures
from meteor.viz import figures
from pages import _strings_agreement, _strings_reconcile, _strings_report

#: The interface languages, in the order of the sidebar's switch.
UI_LANGS = ("en", "ru")

#: A table of UI strings: key → {"en": ..., "ru": ...} (read-only once frozen).
Table = Mapping[str, Mapping[str, str]]


def freeze(table: Mapping[str, Mapping[str, str]]) -> Table:
    """A read-only copy of ``table`` (each entry must have its English text)."""
    for key, entry in table.items():
        if "en" not in entry:
            raise ValueError(f"UI string {key!r} has no English text")
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in table.items()})


def merged(*tables: Table) -> Table:
    """One read-only table of ``tables``; a key two tables define differently is an error."""
    out: dict[str, Mapping[str, str]] = {}
    for table in tables:
        for key, entry in table.items():
            if key in out and dict(out[key]) != dict(entry):
                raise ValueError(f"UI string {key!r} is defined twice, differently")
            out[key] = entry
    return freeze(out)


_SHARED: Table = freeze(
    {
        # frame
        "nav_analyse": {"en": "Analyse", "ru": "Анализ"},
        "nav_learn": {"en": "Learn", "ru": "Обучение"},
        "page_inspect": {"en": "Inspect a pair", "ru": "Разбор пары"},
        "page_corpus": {"en": "Corpus", "ru": "Корпус"},
        "page_compare": {"en": "Compare settings", "ru": "Сравнение настроек"},
        "page_learn": {"en": "How METEOR works", "ru": "Как устроен METEOR"},
        "engine_lang": {"en": "Language of the texts", "ru": "Язык текстов"},
        "preset": {"en": "Preset", "ru": "Пресет"},
        "preset_file": {"en": "Preset file", "ru": "Файл пресета"},
        "preset_file_upload": {"en": "Upload", "ru": "Загрузить"},
        "preset_file_limit": {"en": "JSON, up to {mb} MB", "ru": "JSON, до {mb} МБ"},
        "preset_file_help": {
            "en": "A preset file written by `meteor tune --out` (JSON): its settings fill the "
            "parameters below and the signature names it.",
            "ru": "Файл пресета от `meteor tune --out` (JSON): его настройки заполняют параметры "
            "ниже, а подпись называет его.",
        },
        "preset_file_bad": {
            "en": "Cannot use the preset file: {msg}",
            "ru": "Не удалось прочитать файл пресета: {msg}",
        },  # fmt: skip
        "preset_file_on": {
            "en": "Preset file in use: {name}",
            "ru": "Используется файл пресета: {name}",
        },  # fmt: skip
        "reproduces": {"en": "Reproduces", "ru": "Воспроизводит"},
        "params": {
            "en": "Parameters: α β γ δ, stages, weights, aligner",
            "ru": "Параметры: α β γ δ, этапы, веса, выравниватель",
        },
        "alpha_help": {
            "en": "α: weight of recall against precision, Fmean = PR / (αP + (1−α)R)",
            "ru": "α: вес полноты относительно точности, F-мера = PR / (αP + (1−α)R)",
        },
        "beta_help": {
            "en": "β: exponent of the fragmentation penalty γ·frag^β",
            "ru": "β: показатель степени штрафа γ·фрагм^β (фрагм — фрагментация)",
        },
        "gamma_help": {
            "en": "γ: largest possible fragmentation penalty",
            "ru": "γ: наибольший возможный штраф за фрагментацию",
        },
        "delta_help": {
            "en": "δ: weight of content words against function words (0.5: all words equal)",
            "ru": "δ: вес значимых слов относительно служебных (0,5 — все слова равны)",
        },
        "stages": {"en": "Stages (in order)", "ru": "Этапы (по порядку)"},
        "stages_help": {
            "en": "The stages run in the order chosen here, and the order can change the "
            "alignment and the score. To move a stage to the end, remove it and add it again.",
            "ru": "Этапы выполняются в выбранном здесь порядке, и порядок может изменить "
            "выравнивание и оценку. Чтобы перенести этап в конец, уберите его и добавьте снова.",
        },
        "stage_order": {"en": "Order: {order}", "ru": "Порядок: {order}"},
        "no_stages": {"en": "No stage chosen.", "ru": "Ни один этап не выбран."},
        "preset_stages": {"en": "Stages", "ru": "Этапы"},
        "preset_generic": {
            "en": "Preset {name} ({lang}): {stages}; α {a}, β {b}, γ {g}, δ {d}; {aligner}.",
            "ru": "Пресет {name} (язык: {lang}): {stages}; α {a}, β {b}, γ {g}, δ {d}; "
            "выравниватель: {aligner}.",
        },
        "url_ignored": {
            "en": "The link's parameter(s) {params} cannot be used and were ignored: the "
            "default is used instead. The URL parameters are listed in docs/app.md.",
            "ru": "Параметры ссылки {params} недопустимы и пропущены: вместо них взяты значения "
            "по умолчанию. Параметры адреса перечислены в docs/app.md.",
        },
        "lang_hint": {
            "en": "The texts are scored as {lang}: the interface language does not change it. "
            "Choose the language of the texts below.",
            "ru": "Тексты оцениваются как {lang}: язык интерфейса на это не влияет. Язык "
            "текстов выбирается ниже.",
        },
        "weights": {"en": "Stage weights", "ru": "Веса этапов"},
        "aligner": {"en": "Aligner", "ru": "Выравниватель"},
        "aligner_beam": {"en": "beam (Meteor 1.5)", "ru": "лучевой (Meteor 1.5)"},
        "aligner_greedy": {"en": "greedy (NLTK)", "ru": "жадный (NLTK)"},
        "aligner_stagewise": {"en": "stage by stage (2005 paper)", "ru": "поэтапный (статья 2005)"},
        "beam_size": {"en": "Beam width", "ru": "Ширина луча"},
        "stemmer": {"en": "Stemmer", "ru": "Стеммер"},
        "reset": {"en": "Reset to preset", "ru": "Сбросить к пресету"},
        # modules
        "exact": {"en": "exact", "ru": "точное"},
        "stem": {"en": "stem", "ru": "основа"},
        "synonym": {"en": "synonym", "ru": "синоним"},
        "paraphrase": {"en": "paraphrase", "ru": "перефразирование"},
        "lemma": {"en": "lemma", "ru": "лемма"},
        "embedding": {"en": "embedding", "ru": "эмбеддинг"},
        # pair
        "examples": {"en": "Load an example", "ru": "Загрузить пример"},
        "examples_ph": {"en": "Choose an example…", "ru": "Выберите пример…"},
        "hyp": {"en": "Hypothesis", "ru": "Гипотеза"},
        "ref": {"en": "Reference(s), one per line", "ru": "Эталон(ы), по одному в строке"},
        "hyp_help": {
            "en": "The system output to score (one segment).",
            "ru": "Перевод, который оценивается (один сегмент).",
        },
        "ref_help": {
            "en": "Several lines = several references: the best one wins (first on ties).",
            "ru": "Несколько строк — несколько эталонов: побеждает лучший (при равенстве — первый).",
        },
        "need_hyp": {
            "en": "Enter a hypothesis to score (it is empty or only spaces).",
            "ru": "Введите гипотезу (поле пустое или содержит только пробелы).",
        },
        "need_ref": {
            "en": "Enter at least one reference (the field is empty or only spaces).",
            "ru": "Введите хотя бы один эталон (поле пустое или содержит только пробелы).",
        },
        "too_long": {
            "en": "The {what} has {n} characters; this page takes at most {limit} per text. "
            "Score long texts with the Corpus page or the command line (python -m meteor).",
            "ru": "{what}: {n} символов; на этой странице не более {limit} на текст. "
            "Длинные тексты оцениваются на странице «Корпус» или из командной строки "
            "(python -m meteor).",
        },
        "too_many_refs": {
            "en": "{n} references given; this page takes at most {limit}.",
            "ru": "Задано эталонов: {n}; на этой странице не более {limit}.",
        },
        "what_hyp": {"en": "hypothesis", "ru": "Гипотеза"},
        "what_ref": {"en": "reference", "ru": "Эталон"},
        "error": {"en": "Cannot score: {msg}", "ru": "Оценка невозможна: {msg}"},
        "loading": {"en": "Loading language resources…", "ru": "Загрузка языковых ресурсов…"},
        # score card
        "score": {"en": "METEOR", "ru": "METEOR"},
        "precision": {"en": "Precision P", "ru": "Точность P"},
        "recall": {"en": "Recall R", "ru": "Полнота R"},
        "fmean": {"en": "Fmean", "ru": "F-мера"},
        "frag": {"en": "Fragmentation", "ru": "Фрагментация"},
        "penalty": {"en": "Penalty", "ru": "Штраф"},
        "chunks": {"en": "Chunks", "ru": "Фрагменты"},
        "matches": {"en": "Matches", "ru": "Совпадения"},
        "matches_help": {
            "en": "Matched words: hypothesis / reference",
            "ru": "Сопоставленные слова: гипотеза / эталон",
        },
        "matches_hyp_ref": {"en": "Matches hyp / ref", "ru": "Совпадения гип. / эт."},
        "signature": {"en": "Signature", "ru": "Подпись"},
        "nan_note": {
            "en": "“—” marks a quantity this setting's formula leaves undefined (NaN), e.g. "
            "with no match.",
            "ru": "«—» — величина, которую формула этой настройки оставляет неопределённой "
            "(NaN), например, когда совпадений нет.",
        },
        # table columns several pages share
        "col_side": {"en": "side", "ru": "сторона"},
        "col_index": {"en": "#", "ru": "№"},
        "col_token": {"en": "token", "ru": "токен"},
        "col_stage": {"en": "stage", "ru": "этап"},
        "col_detail": {"en": "detail", "ru": "подробности"},
        # generic
        "yes": {"en": "yes", "ru": "да"},
        "no": {"en": "no", "ru": "нет"},
        # figure labels (keys of meteor.viz.figures.LABELS_EN)
        "hypothesis": {"en": "hypothesis", "ru": "гипотеза"},
        "reference": {"en": "reference", "ru": "эталон"},
        "hyp_short": {"en": "hyp", "ru": "гип"},
        "ref_short": {"en": "ref", "ru": "эт"},
        "chunk": {"en": "chunk", "ru": "фрагмент"},
        "unmatched": {"en": "unmatched", "ru": "без пары"},
        "function_word": {"en": "function word", "ru": "служебное слово"},
        "weight": {"en": "weight", "ru": "вес"},
        "candidates": {"en": "candidates", "ru": "кандидаты"},
        "matched_by": {"en": "matched by", "ru": "сопоставлено этапом"},
        "not_matched": {"en": "not matched", "ru": "не сопоставлено"},
        "ref_position": {"en": "reference position", "ru": "позиция в эталоне"},
        "ideal": {"en": "perfect match", "ru": "идеальное совпадение"},
        "unmatched_hyp": {"en": "unmatched hypothesis words", "ru": "слова гипотезы без пары"},
        "unmatched_ref": {"en": "unmatched reference words", "ru": "слова эталона без пары"},
        "partial_credit": {
            "en": "partial credit (stage weights)",
            "ru": "неполный вес (веса этапов)",
        },
        "fragmentation": {"en": "fragmentation", "ru": "фрагментация"},
        "current": {"en": "current", "ru": "текущее"},
        "coincide": {  # {names} and {params} are filled in by meteor.viz.figures
            "en": "Same curve, drawn one over another: {names} ({params})",
            "ru": "Одна и та же кривая, линии наложены: {names} ({params})",
        },
        "matrix_compact": {  # {n_hyp} and {n_ref} are filled in by meteor.viz.figures
            "en": "{n_hyp} × {n_ref} tokens: compact view, only matched cells are drawn. "
            "Drag to zoom in for every word; double-click to zoom out.",
            "ru": "{n_hyp} × {n_ref} токенов: сжатый вид, показаны только совпавшие клетки. "
            "Выделите область, чтобы увидеть все слова; двойной щелчок — обратно.",
        },
        # corpus figure labels: "cf_" + a key of meteor.viz.corpus_charts.LABELS_EN
        "cf_field_score": {"en": "segment score", "ru": "оценка сегмента"},
        "cf_field_precision": {"en": "precision", "ru": "точность"},
        "cf_field_recall": {"en": "recall", "ru": "полнота"},
        "cf_field_frag": {
            "en": "fragmentation (chunks / mean matches)",
            "ru": "фрагментация (фрагменты / среднее число совпадений)",
        },
        "cf_field_penalty": {"en": "fragmentation penalty", "ru": "штраф за фрагментацию"},
        "cf_field_fmean": {"en": "Fmean", "ru": "F-мера"},
        "cf_segments": {"en": "segments", "ru": "сегментов"},
        "cf_segment": {"en": "segment", "ru": "сегмент"},
        "cf_length": {"en": "length", "ru": "длина"},
        "cf_score": {"en": "score", "ru": "оценка"},
        "cf_ref_length": {"en": "reference length (tokens)", "ru": "длина эталона (токены)"},
        "cf_hyp_length": {"en": "hypothesis length (tokens)", "ru": "длина гипотезы (токены)"},
        "cf_better": {"en": "{name} better", "ru": "лучше {name}"},
        "cf_tie": {"en": "tie", "ru": "поровну"},
        "cf_equal": {"en": "equal", "ru": "равенство"},
        "cf_a_axis": {"en": "{name} segment score (A)", "ru": "оценка сегмента, {name} (A)"},
        "cf_b_axis": {"en": "{name} segment score (B)", "ru": "оценка сегмента, {name} (B)"},
        "cf_corpus_bar": {
            "en": "corpus score (summed statistics)",
            "ru": "оценка корпуса (сумма статистик)",
        },
        "cf_mean_bar": {"en": "mean of segment scores", "ru": "среднее оценок сегментов"},
        # near misses' "why not matched" (Inspect; meteor.analysis.explain.why_unmatched)
        "reason_beam_quirk": {
            "en": "Meteor 1.5's beam counts a lone one-word stem/synonym match as covering "
            "nothing, so it left this out",
            "ru": "лучевой поиск Meteor 1.5 считает одиночное однословное совпадение по основе "
            "или синониму ничего не покрывающим и пропустил его",
        },
        "reason_weight_zero": {
            "en": "stage weighted 0: its match counts nothing",
            "ru": "вес этапа 0: его совпадение ничего не даёт",
        },
        "reason_matcher": {
            "en": "this setting's own stage rule misses it (NLTK compares Porter stems); "
            "Meteor 1.5's matcher finds it",
            "ru": "собственное правило этапа этой настройки его не находит (NLTK сравнивает "
            "основы Porter); сопоставитель Meteor 1.5 находит",
        },
        # page "Agreement with people"
        "page_agreement": {"en": "Agreement with people", "ru": "Согласие с людьми"},
        # axis titles, notices
        "score_axis": {"en": "METEOR score", "ru": "оценка METEOR"},
        "token_notice": {"en": "{side}: {msg}", "ru": "{side}: {msg}"},
        # the corpus report on the Corpus page (pages/_report_view.py)
        "corpus_tab_ranking": {"en": "Ranking", "ru": "Рейтинг"},
        "corpus_tab_buckets": {"en": "Buckets", "ru": "Группы"},
        "corpus_tab_where": {"en": "Where the points go", "ru": "Куда уходят баллы"},
    }
)


#: Every UI string: the shared ones above and each feature's own table.
STRINGS: Table = merged(
    _SHARED,
    freeze(_strings_agreement.STRINGS),
    freeze(_strings_report.STRINGS),
    freeze(_strings_reconcile.STRINGS),
)


def ui() -> str:
    """The interface language (``en``/``ru``) chosen in the sidebar."""
    v = st.session_state.get("ui", "en")
    return v if v in UI_LANGS else "en"


class Translator:
    """A page's ``t``: its own tables and :data:`STRINGS`, merged once (no key clash);
    ``t(key, **kw)`` is the string in the UI language, ``key in t`` whether it is defined."""

    __slots__ = ("table",)

    def __init__(self, *tables: Table) -> None:
        self.table: Table = merged(STRINGS, *tables)

    def __call__(self, key: str, **kw: Any) -> str:
        """``key`` in the UI language (English when untranslated; the key when unknown),
        formatted with ``kw``."""
        entry = self.table.get(key)
        if entry is None:
            return key
        s = entry.get(ui()) or entry["en"]
        return s.format(**kw) if kw else s

    def __contains__(self, key: object) -> bool:
        return key in self.table


#: The shared UI strings (:data:`STRINGS`) in the UI language: ``t(key, **kw)``.
t = Translator()


def num(x: float | None, digits: int = 4) -> str:
    """A number for display: decimal comma in Russian, “—” for NaN/None."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    s = f"{x:.{digits}f}"
    if s.startswith("-"):
        s = "−" + s[1:]
    return s.replace(".", ",") if ui() == "ru" else s


def p_value(p: float | None, resolution: float, *, relation: bool = False) -> str:
    """A resampling p-value (:func:`meteor.analysis.pvalue_text.p_value_text`: never 0,
    ``< 0,002`` below the test's resolution) with the UI language's decimal mark."""
    return p_value_text(
        p, resolution, relation=relation, decimal="," if ui() == "ru" else ".", missing="—"
    )


def integer(n: int) -> str:
    """An integer with the UI language's thousands separator."""
    s = f"{n:,}"
    return s.replace(",", "\u202f") if ui() == "ru" else s


def signed(x: float, digits: int = 4) -> str:
    """A change with its sign (+0.0123 / −0.0123)."""
    if x == 0 or math.isnan(x):
        return num(x, digits)
    return ("+" if x > 0 else "−") + num(abs(x), digits)


def interval(e: Any, digits: int = 4) -> str:
    """An estimate with its interval (fields ``value``, ``low``, ``high``):
    ``0.0900 [0.0218, 0.1560]`` in the UI's number format."""
    return f"{num(e.value, digits)} [{num(e.low, digits)}, {num(e.high, digits)}]"


def module_label(m: Module | str) -> str:
    """A stage's name in the UI language."""
    return t(m.value if isinstance(m, Module) else m)


def side_label(side: str) -> str:
    """``"hyp"``/``"ref"`` (a token table's side) as the UI says it."""
    return t("hypothesis") if side == "hyp" else t("reference")


def stage_order(mods: Iterable[Module | str]) -> str:
    """Stages as the UI shows an order: ``exact → lemma → synonym`` (translated)."""
    return " → ".join(module_label(m) for m in mods)


def fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.figures` in the UI language: every key of
    ``figures.LABELS_EN``, translated where :data:`STRINGS` has it (α β γ δ stay)."""
    labels = {k: t(k) if k in STRINGS else en for k, en in figures.LABELS_EN.items()}
    labels["chunks"] = t("chunks").lower()
    labels["score"] = "METEOR"
    return labels


def corpus_fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.corpus_charts` in the UI language (its label keys)."""
    return {
        k: t(f"cf_{k}") if f"cf_{k}" in STRINGS else v for k, v in corpus_figures.LABELS_EN.items()
    }
