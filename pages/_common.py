"""Shared Streamlit code for the pages (not a page itself: app.py never registers it).

* UI strings in English and Russian (:func:`t`) and numbers formatted for the UI
  language (:func:`num`, :func:`integer`);
* the settings sidebar (engine language, preset, every parameter) bound to the
  URL, and :func:`current_setting` to read it;
* the pair inputs (hypothesis, references, examples) bound to the URL, shared by
  Inspect, Compare and Learn (:func:`require_pair`);
* cached scoring: :func:`scorer` (``st.cache_resource``, one ``Meteor`` per
  setting), :func:`analyse` (``st.cache_data``, keyed on hyp, refs and setting),
  :func:`ensure_ready` (one-time resource loading with a progress bar);
* :func:`shown_errors`: bad input and bad parameters become ``st.error`` with
  the library's message, never a traceback.

Pages hold no arithmetic: every number comes from ``meteor`` (the record,
``Meteor.breakdown`` or ``meteor.analysis.explain``) and is only formatted here.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager
from streamlit.runtime.scriptrunner import get_script_run_ctx

from meteor import ParamError, ResourceError
from meteor.analysis import explain
from meteor.io.read import split_lines
from meteor.languages import available, available_languages, get_language
from meteor.metric import Meteor
from meteor.params import ALIGNERS, Params, stage_weight
from meteor.presets import DEFAULT_PRESET, PRESETS, preset_names
from meteor.resources import import_nltk
from meteor.scoring import Breakdown
from meteor.types import MODULE_ORDER, MeteorResult, Module
from meteor.viz import figures
from pages._cache import APP_CACHE, load_once
from pages._preset_texts import LANGUAGE_NAMES_RU, PRESET_TEXTS_RU

T = TypeVar("T")

# ---------------------------------------------------------------------------
# UI strings
# ---------------------------------------------------------------------------

UI_LANGS = ("en", "ru")

STRINGS: dict[str, dict[str, str]] = {
    # frame
    "app_title": {"en": "METEOR explorer", "ru": "METEOR: разбор оценки"},
    "nav_analyse": {"en": "Analyse", "ru": "Анализ"},
    "nav_learn": {"en": "Learn", "ru": "Обучение"},
    "page_inspect": {"en": "Inspect a pair", "ru": "Разбор пары"},
    "page_corpus": {"en": "Corpus", "ru": "Корпус"},
    "page_compare": {"en": "Compare settings", "ru": "Сравнение настроек"},
    "page_learn": {"en": "How METEOR works", "ru": "Как устроен METEOR"},
    "ui_lang": {"en": "Interface language", "ru": "Язык интерфейса"},
    "engine_lang": {"en": "Language of the texts", "ru": "Язык текстов"},
    "preset": {"en": "Preset", "ru": "Пресет"},
    "reproduces": {"en": "Reproduces", "ru": "Воспроизводит"},
    "params": {
        "en": "Parameters: α β γ δ, stages, weights, aligner",
        "ru": "Параметры: α β γ δ, этапы, веса, выравниватель",
    },
    "alpha_help": {
        "en": "α: weight of recall against precision, Fmean = PR / (αP + (1−α)R)",
        "ru": "α: вес полноты относительно точности, Fmean = PR / (αP + (1−α)R)",
    },
    "beta_help": {
        "en": "β: exponent of the fragmentation penalty γ·frag^β",
        "ru": "β: показатель степени штрафа γ·frag^β",
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
        "default is used instead. The URL parameters are listed in the README.",
        "ru": "Параметры ссылки {params} недопустимы и пропущены: вместо них взяты значения "
        "по умолчанию. Параметры адреса перечислены в README.",
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
    "custom_note": {
        "en": "Parameters differ from the preset: the signature says “+custom”.",
        "ru": "Параметры отличаются от пресета: в подписи стоит «+custom».",
    },
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
    "fmean": {"en": "Fmean", "ru": "Fmean"},
    "frag": {"en": "Fragmentation", "ru": "Фрагментация"},
    "penalty": {"en": "Penalty", "ru": "Штраф"},
    "chunks": {"en": "Chunks", "ru": "Фрагменты"},
    "matches": {"en": "Matches hyp / ref", "ru": "Совпад. гип. / эт."},
    "signature": {"en": "Signature", "ru": "Подпись"},
    "nan_note": {
        "en": "“—” marks a quantity Meteor 1.5 leaves undefined (NaN), e.g. with no match.",
        "ru": "«—» — величина, которую Meteor 1.5 оставляет неопределённой (NaN), "
        "например, когда совпадений нет.",
    },
    # table columns several pages share
    "col_side": {"en": "side", "ru": "сторона"},
    "col_stage": {"en": "stage", "ru": "этап"},
    "col_hyp": {"en": "hypothesis", "ru": "гипотеза"},
    "col_ref": {"en": "reference", "ru": "эталон"},
    "col_detail": {"en": "detail", "ru": "подробности"},
    # generic
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
}


def ui() -> str:
    """The interface language (``en``/``ru``) chosen in the sidebar."""
    v = st.session_state.get("ui", "en")
    return v if v in UI_LANGS else "en"


def t(key: str, **kw: Any) -> str:
    """The UI string ``key`` in the current interface language, formatted with ``kw``."""
    entry = STRINGS.get(key)
    if entry is None:
        return key
    s = entry.get(ui()) or entry["en"]
    return s.format(**kw) if kw else s


def add_strings(table: dict[str, dict[str, str]]) -> None:
    """Pages register their own strings (``{"key": {"en": ..., "ru": ...}}``).

    :data:`STRINGS` is one table for every session and page, so a key means the same
    on every page: a key two pages define differently would show whichever page ran last.
    """
    STRINGS.update(table)


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


def integer(n: int) -> str:
    """An integer with the UI language's thousands separator."""
    s = f"{n:,}"
    return s.replace(",", "\u202f") if ui() == "ru" else s


def signed(x: float, digits: int = 4) -> str:
    """A change with its sign (+0.0123 / −0.0123)."""
    if x == 0 or math.isnan(x):
        return num(x, digits)
    return ("+" if x > 0 else "−") + num(abs(x), digits)


def module_label(m: Module | str) -> str:
    return t(m.value if isinstance(m, Module) else m)


def side_label(side: str) -> str:
    """``"hyp"``/``"ref"`` (a token table's side) as the UI says it."""
    return t("hypothesis") if side == "hyp" else t("reference")


add_strings(
    {
        "hypothesis": {"en": "hypothesis", "ru": "гипотеза"},
        "reference": {"en": "reference", "ru": "эталон"},
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
    }
)


def fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.figures` in the UI language.

    Every key of ``figures.LABELS_EN``, translated where :data:`STRINGS` has it
    (the parameter symbols α β γ δ stay as the library writes them).
    """
    labels = {k: t(k) if k in STRINGS else en for k, en in figures.LABELS_EN.items()}
    labels["chunks"] = t("chunks").lower()
    labels["score"] = "METEOR"
    return labels


add_strings(
    {
        "cf_field_score": {"en": "segment score", "ru": "оценка сегмента"},
        "cf_field_precision": {"en": "precision", "ru": "точность"},
        "cf_field_recall": {"en": "recall", "ru": "полнота"},
        "cf_field_frag": {
            "en": "fragmentation (chunks / mean matches)",
            "ru": "фрагментация (фрагменты / среднее число совпадений)",
        },
        "cf_field_penalty": {"en": "fragmentation penalty", "ru": "штраф за фрагментацию"},
        "cf_field_fmean": {"en": "Fmean", "ru": "Fmean"},
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
    }
)


def corpus_fig_labels() -> dict[str, str]:
    """Display strings for :mod:`meteor.viz.corpus` in the UI language (its label keys)."""
    from meteor.viz import corpus as corpus_figures

    return {
        k: t(f"cf_{k}") if f"cf_{k}" in STRINGS else v for k, v in corpus_figures.LABELS_EN.items()
    }


# ---------------------------------------------------------------------------
# The frame
# ---------------------------------------------------------------------------


def require_frame() -> None:
    """Make sure the page runs inside app.py's frame; call it first on every page.

    Until some session has run ``st.navigation``, a Streamlit process whose app has
    a ``pages/`` folder beside it uses the legacy page discovery
    (``PagesManager.uses_pages_directory``): every file in ``pages/`` becomes a page
    (``_common.py`` too) and a deep link such as ``/compare?preset=nltk`` runs the
    page file alone, without app.py, so without the sidebar, the settings and their
    URL state.  That is what the first request of a fresh server gets when it is a
    deep link.  Turn the legacy mode off, as ``st.navigation`` does, and rerun: the
    rerun goes through app.py, whose ``st.navigation`` picks the same page (the
    legacy page and the registered one share the URL path, hence the page hash).
    """
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

SHOWN_ERRORS = (ParamError, ResourceError, ValueError, TypeError, ImportError)


@contextmanager
def shown_errors() -> Iterator[None]:
    """Turn the library's errors into ``st.error`` with its message, then stop the page."""
    try:
        yield
    except SHOWN_ERRORS as exc:
        st.error(t("error", msg=md_escape(str(exc))))  # messages may quote input
        st.stop()


# ---------------------------------------------------------------------------
# Settings (sidebar)
# ---------------------------------------------------------------------------
# Option widgets bound to the URL store their *displayed label* there, so every
# bound option widget shows language-independent labels (codes, stage and preset
# names): a link means the same thing in both interface languages.

PARAM_KEYS = ("alpha", "beta", "gamma", "delta", "modules", "aligner", "beam", "stemmer")


def language_modules(lang: str) -> list[Module]:
    """Stages the language offers (``Language.modules``, from the library), in Meteor's order."""
    mods = get_language(lang).modules
    return [m for m in MODULE_ORDER if m in mods]


def stage_options(preset: str) -> list[Module]:
    """The stage widget's options: the preset's stages in the preset's order, then the
    language's other stages.  A preset stage the installation lacks stays an option (the
    library then says what to install) so the preset's default is always among them."""
    p = PRESETS[preset].params
    return list(p.modules) + [m for m in language_modules(p.lang) if m not in p.modules]


def stage_order(mods: Iterable[Module | str]) -> str:
    """Stages as the UI shows an order: ``exact → lemma → synonym`` (translated)."""
    return " → ".join(module_label(m) for m in mods)


def stage_codes(lang: str) -> list[str]:
    """Codes of the stages a language offers (what ``?modules=`` accepts)."""
    return [m.value for m in language_modules(lang)]


def stemmer_names(lang: str) -> tuple[str, ...]:
    """The stemmers a language offers (what ``?stemmer=`` accepts)."""
    return tuple(get_language(lang).stemmers)


#: The library's languages by code (names only; nothing is loaded).
_LANGUAGE_INFO = {info.code: info for info in available()}


def ui_languages() -> list[str]:
    """Languages of the texts offered in the sidebar: the library's languages with a preset."""
    return [c for c in available_languages() if preset_names(c)]


def default_preset(lang: str) -> str:
    """The language's default preset (its first preset when the library names none)."""
    names = preset_names(lang)
    default = DEFAULT_PRESET.get(lang)
    return default if default in names else names[0]


def _weight_key(m: Module) -> str:
    return f"w_{m.value}"


def preset_values(preset: str) -> dict[str, Any]:
    """Widget values (by key) that reproduce a preset exactly."""
    p = PRESETS[preset].params
    default = PRESETS[default_preset(p.lang)].params
    vals: dict[str, Any] = {
        "alpha": p.alpha,
        "beta": p.beta,
        "gamma": p.gamma,
        "delta": p.delta,
        "modules": [m.value for m in p.modules],
        "aligner": p.aligner,
        "beam": p.beam_size,
        "stemmer": p.stemmer,
    }
    for m in stage_options(preset):
        vals[_weight_key(m)] = stage_weight(m, p, default)
    return vals


def _reset_params() -> None:
    preset = st.session_state.get("preset")
    if preset not in PRESETS:
        return
    for k, v in preset_values(preset).items():
        st.session_state[k] = v


def _on_lang() -> None:
    lang = st.session_state.get("lang", "en")
    st.session_state["preset"] = default_preset(lang)
    _reset_params()


# Stages and aligner are shown translated, so they are not bound to the URL by
# Streamlit (a bound widget stores its displayed label there): the URL holds their
# codes (``?modules=exact&modules=lemma``), read once per session and written back
# here; pages._url_params has already dropped invalid values, with a notice.


def _init_from_url(key: str, valid: Sequence[str], *, multi: bool) -> None:
    """Session state for an unbound widget: the URL's codes the first time, else kept."""
    ss = st.session_state
    if key in ss:
        return
    if key in st.query_params:
        got = [v for v in dict.fromkeys(st.query_params.get_all(key)) if v in valid]
        if multi:
            ss[key] = got
        elif got:
            ss[key] = got[0]


def _sync_url(key: str, value: Any, default: Any) -> None:
    """Write an unbound widget's codes to the URL; drop them when they equal the default."""
    qp = st.query_params
    if value == default or value is None:
        if key in qp:
            del qp[key]
        return
    if isinstance(value, list):
        if qp.get_all(key) != value:
            qp[key] = value
    elif qp.get(key) != str(value):
        qp[key] = str(value)


#: Largest beam width the sidebar offers (and a URL may ask for).
MAX_BEAM = 10_000


def language_name(code: str) -> str:
    """A language of the texts by name in the UI language (its code when unknown).

    Read from the library's registry (:func:`meteor.languages.available`), which loads
    no language resources.
    """
    if ui() == "ru":
        return LANGUAGE_NAMES_RU.get(code, code)
    info = _LANGUAGE_INFO.get(code)
    return info.name if info else code


def language_label(code: str) -> str:
    """``de · Deutsch``: the code and the language's own name, for the selector.

    In the Russian interface the name is the Russian one (``de · немецкий``), so the
    interface stays Russian; the native name is kept for Cyrillic languages.
    """
    if ui() == "ru":
        return f"{code} · {language_name(code)}"
    info = _LANGUAGE_INFO.get(code)
    return f"{code} · {info.native_name}" if info else code


def preset_description(name: str) -> str:
    """The preset's description in the UI language.

    English is the library's own text (``Preset.description``).  Russian comes from
    :data:`pages._preset_texts.PRESET_TEXTS_RU`; a preset without a translation gets a
    generic Russian sentence built from its parameters, never the English text.
    """
    p = PRESETS[name]
    if ui() != "ru":
        return p.description
    known = PRESET_TEXTS_RU.get(name)
    if known is not None:
        return known[0]
    q = p.params
    return t(
        "preset_generic",
        name=name,
        lang=language_name(q.lang),
        stages=stage_order(q.modules),
        a=num(q.alpha, 2),
        b=num(q.beta, 2),
        g=num(q.gamma, 2),
        d=num(q.delta, 2),
        aligner=t(f"aligner_{q.aligner}"),
    )


def preset_caption(name: str) -> str:
    """Description, what it reproduces and its stages in order (Markdown, library text)."""
    p = PRESETS[name]
    lines = [preset_description(name)]
    if ui() != "ru":
        lines.append(f"{t('reproduces')}: `{p.reproduces}`")
    elif name in PRESET_TEXTS_RU and PRESET_TEXTS_RU[name][1]:
        lines.append(f"{t('reproduces')}: {PRESET_TEXTS_RU[name][1]}")
    lines.append(f"{t('preset_stages')}: {stage_order(p.params.modules)}")
    return "  \n".join(lines)


def _language_hint(lang: str) -> None:
    """On a switch of the interface language, say when the texts are in another language."""
    ss = st.session_state
    prev, ss["_ui_prev"] = ss.get("_ui_prev"), ui()
    if prev != ui() and lang != ui() and (prev is not None or ui() != "en"):
        st.sidebar.info(t("lang_hint", lang=language_name(lang)))


def settings_sidebar() -> None:
    """Engine language, preset and every parameter, in the sidebar, bound to the URL.

    Languages, presets and stages are the library's (``available_languages``,
    ``PRESETS``, ``Language.modules``): a language or preset registered there appears
    here with no change to the app.  The stage widget's selected order is the order
    the stages run in; its default is the preset's own order, so a preset left alone
    is exactly the library's preset (same record, same signature).
    """
    warm_up()
    sb = st.sidebar
    langs = ui_languages()
    lang = sb.selectbox(
        t("engine_lang"),
        langs,
        # Options stay codes: the URL binding writes the shown text, and ?lang=de must work.
        help=", ".join(language_label(c) for c in langs),
        key="lang",
        bind="query-params",
        on_change=_on_lang,
    )
    sb.caption(language_label(lang))
    names = list(preset_names(lang))
    default = default_preset(lang)
    preset = sb.selectbox(
        t("preset"),
        names,
        index=names.index(default),
        key="preset",
        bind="query-params",
        on_change=_reset_params,
        help=None,
    )
    if preset not in PRESETS or PRESETS[preset].params.lang != lang:
        preset = default
    sb.caption(preset_caption(preset))
    _language_hint(lang)
    vals = preset_values(preset)
    options = stage_options(preset)
    codes = [m.value for m in options]
    ss = st.session_state
    _init_from_url("modules", codes, multi=True)
    _init_from_url("aligner", list(ALIGNERS), multi=False)
    if [c for c in ss.get("modules", vals["modules"]) if c in codes] != ss.get("modules"):
        ss["modules"] = [c for c in ss.get("modules", vals["modules"]) if c in codes]
    if ss.get("aligner") not in ALIGNERS:
        ss["aligner"] = vals["aligner"]
    with sb.expander(t("params"), expanded=False):
        for key, hi, step in (("alpha", 1.0, 0.01), ("beta", 10.0, 0.05), ("gamma", 1.0, 0.01),
                              ("delta", 1.0, 0.01)):  # fmt: skip
            st.slider(
                {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ"}[key],
                0.0,
                hi,
                float(vals[key]),
                step,
                key=key,
                bind="query-params",
                help=t(f"{key}_help"),
            )
        chosen = st.multiselect(
            t("stages"),
            codes,
            format_func={c: module_label(c) for c in codes}.__getitem__,  # fixed now (AppTest)
            key="modules",
            help=t("stages_help"),
            persist_state="session",
        )
        st.caption(t("stage_order", order=stage_order(chosen)) if chosen else t("no_stages"))
        _sync_url("modules", chosen, vals["modules"])
        st.caption(t("weights"))
        for m in options:
            st.slider(
                module_label(m),
                0.0,
                1.0,
                float(vals[_weight_key(m)]),
                0.05,
                key=_weight_key(m),
                bind="query-params",
            )
        aligner = st.selectbox(
            t("aligner"),
            list(ALIGNERS),
            format_func={a: t(f"aligner_{a}") for a in ALIGNERS}.__getitem__,
            key="aligner",
            persist_state="session",
        )
        _sync_url("aligner", aligner, vals["aligner"])
        st.number_input(
            t("beam_size"), 1, MAX_BEAM, int(vals["beam"]), 1, key="beam", bind="query-params"
        )
        stemmers = list(get_language(lang).stemmers)
        st.selectbox(
            t("stemmer"),
            stemmers,
            index=stemmers.index(vals["stemmer"]) if vals["stemmer"] in stemmers else 0,
            key="stemmer",
            bind="query-params",
        )
        st.button(t("reset"), on_click=_reset_params, key="reset_params")


@dataclass(frozen=True)
class Setting:
    """A preset plus parameter overrides (JSON, so it hashes and caches)."""

    preset: str
    overrides: str  # JSON object of Params fields

    def meteor(self) -> Meteor:
        return scorer(self.preset, self.overrides)

    @property
    def label(self) -> str:
        return self.meteor().preset or "custom"

    def modules(self) -> list[str]:
        """The stages in order (the overrides', else the preset's), without building a scorer."""
        over = json.loads(self.overrides)
        return list(over.get("modules", [m.value for m in PRESETS[self.preset].params.modules]))


def current_setting() -> Setting:
    """The setting chosen in the sidebar (preset + every parameter widget).

    The stages keep the order the user gave them (the order they run in).
    """
    ss = st.session_state
    lang = ss.get("lang", "en")
    if lang not in ui_languages():
        lang = "en"
    preset = ss.get("preset") or default_preset(lang)
    if preset not in PRESETS or PRESETS[preset].params.lang != lang:
        preset = default_preset(lang)
    vals = preset_values(preset)
    got = {k: ss.get(k, vals.get(k)) for k in vals}
    known = {m.value: m for m in Module}
    mods = [known[c] for c in dict.fromkeys(got["modules"] or []) if c in known]
    over: dict[str, Any] = {
        "alpha": float(got["alpha"]),
        "beta": float(got["beta"]),
        "gamma": float(got["gamma"]),
        "delta": float(got["delta"]),
        "modules": [m.value for m in mods],
        "weights": {m.value: float(got[_weight_key(m)]) for m in mods if _weight_key(m) in got},
        "aligner": got["aligner"],
        "beam_size": int(got["beam"]),
        "stemmer": got["stemmer"],
    }
    return Setting(preset, json.dumps(over, sort_keys=True, ensure_ascii=False))


def preset_setting(preset: str) -> Setting:
    """A preset exactly as defined (no overrides)."""
    return Setting(preset, "{}")


# ---------------------------------------------------------------------------
# Scoring (cached)
# ---------------------------------------------------------------------------
# Scorers are per process (st.cache_resource); analyses, near misses and stage
# steps are kept once for all sessions in pages/_cache.py's byte-bounded cache.


def shared_cache(fn: Callable[..., T]) -> Callable[..., T]:
    """Cache ``fn``'s (immutable) value in :data:`APP_CACHE`, keyed on its name and args."""
    name = fn.__qualname__

    @functools.wraps(fn)
    def cached(*args: Any) -> T:
        return APP_CACHE.get((name, *args), lambda: fn(*args))

    return cached


@st.cache_resource(max_entries=64, show_spinner=False)
def scorer(preset: str, overrides: str) -> Meteor:
    """One ``Meteor`` per (preset, overrides); ParamError names a bad field."""
    over = json.loads(overrides)
    if "modules" in over and not over["modules"]:
        raise ParamError("modules must name at least one stage (e.g. exact)")
    return Meteor(preset, **over)


def _ready_key(m: Meteor) -> tuple[Any, ...]:
    p = m.params
    return (p.lang, p.modules, p.stemmer, p.aligner, p.function_words)


#: Loaded in the background when the server's first session starts (see :func:`warm_up`).
WARM_PRESETS = ("meteor-1.5",)


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Once per process: load the default preset's resources (and nltk) in a background thread.

    The first sessions do not each start a load: they wait for this one and show its
    progress (:func:`ensure_ready`).  nltk (imported by near misses for the Porter
    stemmer) takes seconds to import; it is imported here too, off every session.
    """

    def run() -> None:
        for name in WARM_PRESETS:
            try:
                m = scorer(name, "{}")
                load_once(_ready_key(m), m.prepare)
            except Exception:  # noqa: BLE001 -- a session that needs it reports the error
                return
        try:
            import_nltk()
        except Exception:  # noqa: BLE001
            return

    th = threading.Thread(target=run, name="meteor-warm-up", daemon=True)
    th.start()
    return th


def ensure_ready(m: Meteor) -> None:
    """Load a setting's resources once per process, with a progress bar the first time.

    Sessions that ask while another is loading the same resources wait for that
    load (pages/_cache.py ``load_once``) and show its progress: one build, not one
    per session.
    """
    key = _ready_key(m)
    bar: Any = None

    def show(frac: float, msg: str) -> None:
        nonlocal bar
        if bar is None:
            bar = st.progress(0.0, text=t("loading"))
        bar.progress(min(max(frac, 0.0), 1.0), text=f"{t('loading')} {msg}")

    try:
        load_once(key, m.prepare, show)
    finally:
        if bar is not None:
            bar.empty()


@dataclass(frozen=True)
class Analysis:
    """Everything a page shows for one pair under one setting (all from ``meteor``)."""

    result: MeteorResult
    params: Params
    breakdown: Breakdown
    waterfall: tuple[explain.WaterfallStep, ...]
    word_costs: tuple[explain.WordCost, ...]
    breaks: tuple[explain.ChunkBreak, ...]
    curves: tuple[explain.Curve, ...]


@shared_cache
def analyse(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Analysis:
    """Score the pair and explain it (cached on hyp, refs and the setting, shared by sessions)."""
    m = scorer(preset, overrides)
    r = m.score(hyp, list(refs))
    return Analysis(
        result=r,
        params=m.params,
        breakdown=m.breakdown(r),
        waterfall=explain.waterfall(r.stats, m.params),
        word_costs=explain.unmatched_costs(r, m.params),
        breaks=explain.chunk_break_costs(r, m.params),
        curves=explain.sensitivity(r.stats, m.params),
    )


@shared_cache
def _near(
    hyp: str, refs: tuple[str, ...], preset: str, overrides: str
) -> tuple[explain.NearMiss, ...]:
    m = scorer(preset, overrides)
    return explain.near_misses(analyse(hyp, refs, preset, overrides).result, m)


def near_misses_for(
    hyp: str, refs: tuple[str, ...], setting: Setting
) -> tuple[explain.NearMiss, ...]:
    """Near misses (cached apart: other stages may load resources, the score need not wait)."""
    with shown_errors():
        return _near(hyp, refs, setting.preset, setting.overrides)


@shared_cache
def _stage_steps(
    hyp: str, refs: tuple[str, ...], preset: str, overrides: str
) -> tuple[explain.StageStep, ...]:
    m = scorer(preset, overrides)
    return explain.stage_steps(analyse(hyp, refs, preset, overrides).result, m)


def stage_steps_for(
    hyp: str, refs: tuple[str, ...], setting: Setting
) -> tuple[explain.StageStep, ...]:
    """Each enabled stage's candidates on the pair (cached like :func:`analyse`; errors shown)."""
    with shown_errors():
        return _stage_steps(hyp, refs, setting.preset, setting.overrides)


def analysis_for(hyp: str, refs: tuple[str, ...], setting: Setting) -> Analysis:
    """Resources loaded (with progress), then the cached analysis; errors shown, page stopped."""
    with shown_errors():
        m = setting.meteor()
        ensure_ready(m)
        return analyse(hyp, refs, setting.preset, setting.overrides)


# ---------------------------------------------------------------------------
# The pair (hypothesis + references)
# ---------------------------------------------------------------------------

#: Inputs longer than this are refused by the interactive pages (the CLI and Corpus take more).
MAX_UI_CHARS = 10_000
MAX_UI_REFS = 10


@dataclass(frozen=True)
class Example:
    key: str
    hyp: str
    ref: str
    lang: str = "en"
    note_en: str = ""
    note_ru: str = ""

    def title(self) -> str:
        return (self.note_ru if ui() == "ru" and self.note_ru else self.note_en) or self.key


EXAMPLES: tuple[Example, ...] = (
    Example(
        "starry",
        "Under the starry night, we danced with glee.",
        "We danced with joy under the starry night.",
        note_en="Doc page, example 1: two chunks swapped",
        note_ru="Документация, пример 1: два фрагмента поменялись местами",
    ),
    Example(
        "scrambled",
        "Danced we with under joy the night starry.",
        "We danced with joy under the starry night.",
        note_en="Doc page, example 2: every word in its own chunk",
        note_ru="Документация, пример 2: каждое слово — отдельный фрагмент",
    ),
    Example(
        "fox",
        "A fast brown fox leapt over a lazy dog",
        "The quick brown fox jumps over the lazy dog",
        note_en="Synonyms: fast/quick, leapt/jumps",
        note_ru="Синонимы: fast/quick, leapt/jumps",
    ),
    Example(
        "fox_ru",
        "Быстрая коричневая лиса прыгнула на грустную собаку",
        "Стремительная рыжая лисичка скакнула на унылую собачку",
        lang="ru",
        note_en="Russian: few exact matches, stems and synonyms",
        note_ru="Русский: мало точных совпадений, основы и синонимы",
    ),
    Example(
        "president",
        "the president spoke to the audience",
        "the president then spoke to the audience",
        note_en="Doc page: one missing word, two chunks",
        note_ru="Документация: пропущено одно слово, два фрагмента",
    ),
    Example(
        "cat_mat",
        "the cat was sat on the mat",
        "the cat sat on the mat",
        note_en="One extra word (house-style example)",
        note_ru="Одно лишнее слово",
    ),
    Example(
        "stems",
        "The committee members were discussing the proposals quickly",
        "The committee member discussed the proposal in a quick way",
        note_en="Stems: members/member, discussing/discussed, proposals/proposal",
        note_ru="Основы: members/member, discussing/discussed, proposals/proposal",
    ),
    Example(
        "multi",
        "The cat is on the mat",
        "There is a cat on the mat\nThe cat sits on the mat\nA cat was lying on the rug",
        note_en="Three references: which one wins?",
        note_ru="Три эталона: какой победит?",
    ),
    Example(
        "ru_stems",
        "Кошка сидела на ковре у окна",
        "Кошка сидит на коврике у окошка",
        lang="ru",
        note_en="Russian stems: сидела/сидит",
        note_ru="Русские основы: сидела/сидит",
    ),
)
EXAMPLE_BY_KEY = {e.key: e for e in EXAMPLES}


def _load_example() -> None:
    key = st.session_state.get("example")
    ex = EXAMPLE_BY_KEY.get(key or "")
    if ex is None:
        return
    st.session_state["hyp"] = ex.hyp
    st.session_state["ref"] = ex.ref
    if st.session_state.get("lang", "en") != ex.lang:
        st.session_state["lang"] = ex.lang
        _on_lang()
    st.session_state["example"] = None


def load_pair(hyp: str, ref: str, lang: str | None = None, preset: str | None = None) -> None:
    """Callback helper: put a pair (and optionally a preset) into the shared widgets."""
    st.session_state["hyp"] = hyp
    st.session_state["ref"] = ref
    if lang is not None and st.session_state.get("lang", "en") != lang:
        st.session_state["lang"] = lang
        _on_lang()
    if preset is not None:
        st.session_state["preset"] = preset
        _reset_params()


def _page_id() -> str:
    """The running page (its script hash); ``""`` outside a script run."""
    ctx = get_script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def pair_inputs(*, examples: bool = True) -> tuple[str, tuple[str, ...]] | None:
    """Hypothesis and references (bound to the URL); ``None`` after showing why not."""
    if examples:
        titles = {e.key: e.title() for e in EXAMPLES}  # fixed now: AppTest formats later
        st.selectbox(
            t("examples"),
            list(titles),
            index=None,
            placeholder=t("examples_ph"),
            format_func=titles.__getitem__,
            key="example",
            on_change=_load_example,
        )
    # The boxes' default is the first example: a URL without hyp/ref means that
    # pair, and Streamlit keeps a pair equal to it out of the URL.  It must be the
    # widgets' own default, not a value written into session state: on browser
    # Back/Forward Streamlit lets the restored entry's URL decide every bound widget
    # and resets those whose parameter it lacks to their default (entries recorded
    # before the pair was typed have none), which used to empty both boxes.  A URL
    # value wins on the first load (bind="query-params") and persist_state="session"
    # carries the pair to the other pages.  Write the widget keys only when a box is
    # about to mount on another page: there, re-assert the value Streamlit holds, for
    # the paths where a remount would otherwise start from the default, e.g. a page
    # switch that still sends the old page's widgets.  Never write on an ordinary
    # rerun: every write makes Streamlit push the value to the browser again
    # ("set_value"), and a push from a rerun still in flight overwrites what the
    # user typed meanwhile, so the box would show one text while another is scored.
    # (Streamlit logs a warning when a widget with a default has its key written;
    # .streamlit/config.toml turns it off: here it is by design.)
    page = _page_id()
    moved = st.session_state.get("_pair_page") != page
    if moved:
        for key in ("hyp", "ref"):
            if st.session_state.get(key) is not None:
                st.session_state[key] = st.session_state[key]
    st.session_state["_pair_page"] = page
    c1, c2 = st.columns(2)
    hyp = c1.text_area(
        t("hyp"),
        EXAMPLES[0].hyp,
        height=90,
        key="hyp",
        bind="query-params",
        persist_state="session",
        help=t("hyp_help"),
    )
    ref = c2.text_area(
        t("ref"),
        EXAMPLES[0].ref,
        height=90,
        key="ref",
        bind="query-params",
        persist_state="session",
        help=t("ref_help"),
    )
    return check_pair(hyp, ref)


def require_pair(*, examples: bool = True) -> tuple[str, tuple[str, ...]]:
    """:func:`pair_inputs`, and the page stops there (its message shown) without a usable pair."""
    pair = pair_inputs(examples=examples)
    if pair is None:
        st.stop()
    return pair


def check_pair(hyp: str | None, ref: str | None) -> tuple[str, tuple[str, ...]] | None:
    """Validate the raw inputs, showing a message (never an exception) when they can't be scored."""
    hyp = hyp or ""
    ref = ref or ""
    if len(hyp) > MAX_UI_CHARS:
        st.warning(
            t("too_long", what=t("what_hyp"), n=integer(len(hyp)), limit=integer(MAX_UI_CHARS))
        )
        return None
    if len(ref) > MAX_UI_CHARS * MAX_UI_REFS:
        st.warning(
            t("too_long", what=t("what_ref"), n=integer(len(ref)), limit=integer(MAX_UI_CHARS))
        )
        return None
    # one reference per line, by the library's line-break rule (the CLI's); blank lines skipped
    refs = tuple(line for line in split_lines(ref, limit=len(ref) + 1) if line.strip())
    if not hyp.strip():
        st.info(t("need_hyp"))
        return None
    if not refs:
        st.info(t("need_ref"))
        return None
    if len(refs) > MAX_UI_REFS:
        st.warning(t("too_many_refs", n=integer(len(refs)), limit=integer(MAX_UI_REFS)))
        return None
    for r in refs:
        if len(r) > MAX_UI_CHARS:
            st.warning(
                t("too_long", what=t("what_ref"), n=integer(len(r)), limit=integer(MAX_UI_CHARS))
            )
            return None
    return hyp, refs


# ---------------------------------------------------------------------------
# Display helpers
# ---------------------------------------------------------------------------


def headline(result: MeteorResult) -> dict[str, str]:
    """The record's score, P, R, Fmean, frag, penalty, chunks and matches, formatted,
    by their label key (:func:`t` gives the label)."""
    s = result.stats
    return {
        "score": num(result.score),
        "precision": num(result.precision),
        "recall": num(result.recall),
        "fmean": num(result.fmean),
        "frag": num(result.frag),
        "penalty": num(result.penalty),
        "chunks": integer(s.chunks),
        # no spaces: "1,234 / 1,234" would be cut off in a score card column of eight
        "matches": f"{integer(s.hyp_word_matches)}/{integer(s.ref_word_matches)}",
    }


def score_card(result: MeteorResult, *, compact: bool = False) -> None:
    """:func:`headline`'s numbers as metrics, then the signature (all from the record)."""
    items = [(t(k), v) for k, v in headline(result).items()]
    per_row = 4 if compact else 8
    for start in range(0, len(items), per_row):
        cols = st.columns(per_row)
        for col, (label, value) in zip(cols, items[start : start + per_row], strict=False):
            col.metric(label, value)
    st.code(result.signature, language=None, wrap_lines=True)
    if any(math.isnan(x) for x in (result.precision, result.recall, result.fmean, result.frag)):
        st.caption(t("nan_note"))


def md_escape(text: str) -> str:
    """User text for ``st.markdown``: every Markdown/HTML special character escaped."""
    out = []
    for ch in text:
        if ch in "\\`*_{}[]()#+-.!|<>~$&":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def shared_figure(key: tuple[Hashable, ...], build: Callable[[], Any]) -> Any:
    """``build()``'s figure, kept once for every session per ``key`` and UI language.

    Stored in :data:`APP_CACHE` ready to show (Russian separators set), and never
    changed afterwards: ``st.plotly_chart`` sends a copy (``Figure.to_dict``).
    """

    def make() -> Any:
        fig = build()
        if ui() == "ru":
            fig.update_layout(separators=", ")
        return fig

    return APP_CACHE.get(("figure", ui(), *key), make)


def plotly(fig: Any, key: str) -> None:
    """Show a figure; in Russian plotly's own number formats use a decimal comma too."""
    if ui() == "ru" and fig.layout.separators != ", ":  # a shared figure has them already
        fig.update_layout(separators=", ")
    st.plotly_chart(fig, key=key, width="stretch", config={"displaylogo": False})


def download_html(label: str, fig_factory: Callable[[], Any], name: str, key: str) -> None:
    """A download button that builds the figure's self-contained HTML only when clicked."""
    st.download_button(
        label,
        data=lambda: fig_factory().to_html(include_plotlyjs=True, full_html=True),
        file_name=name,
        mime="text/html",
        key=key,
        on_click="ignore",
    )
