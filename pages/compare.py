"""Compare settings on the same pair: score cards, link views, matches only one side has,
and the score as α, β, γ, δ move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

from meteor.analysis import compare_settings
from meteor.presets import PRESETS, preset_names
from meteor.viz import figures
from pages._frame import require_frame
from pages._i18n import Translator, fig_labels, freeze, module_label, num, stage_order
from pages._pair import require_pair
from pages._reconcile_view import show_reconcile
from pages._scoring import SHOWN_ERRORS, Analysis, analyse, ensure_ready
from pages._settings import (
    Setting,
    current_setting,
    language_name,
    preset_description,
    preset_setting,
)
from pages._widgets import headline, md_escape, plotly, setting_md, show_link_view, table

require_frame()  # before any output: a deep link to a fresh server skips app.py

PAGE_STRINGS = freeze(
    {
        "compare_title": {
            "en": "Compare settings on one pair",
            "ru": "Сравнение настроек на одной паре",
        },
        "compare_intro": {
            "en": "Setting A is the one in the sidebar (a preset, possibly with your own "
            "parameters). Add presets to compare with it: same pair, one row each.",
            "ru": "Настройка A — из боковой панели (пресет, возможно, с вашими параметрами). "
            "Добавьте пресеты для сравнения: та же пара, по строке на настройку.",
        },
        "compare_with": {"en": "Compare A with presets", "ru": "Сравнить A с пресетами"},
        "need_other": {
            "en": "Pick at least one preset to compare with.",
            "ru": "Выберите хотя бы один пресет для сравнения.",
        },
        "only_preset": {
            "en": "{lang} has one preset, so there is nothing to compare it with here; change "
            "α β γ δ, the stages or the weights in the sidebar to compare against the preset "
            "(the sidebar's setting is A), or read its sensitivity curves below.",
            "ru": "У языка «{lang}» один пресет, сравнивать его здесь не с чем; измените α β γ δ, "
            "этапы или веса на боковой панели, чтобы сравнить с пресетом (настройка панели — A), "
            "или посмотрите кривые чувствительности ниже.",
        },
        "setting_a": {"en": "A · {name}", "ru": "A · {name}"},
        "table_title": {"en": "Scores", "ru": "Оценки"},
        "diff_title": {
            "en": "Matches only one side has",
            "ru": "Совпадения только с одной стороны",
        },
        "diff_head": {"en": "A vs {name}", "ru": "A и {name}"},
        "only_a": {"en": "only in A", "ru": "только в A"},
        "only_b": {"en": "only in {name}", "ru": "только в {name}"},
        "stage_differs": {"en": "same words, other stage", "ru": "те же слова, другой этап"},
        "same_matches": {
            "en": "Both settings choose the same matches.",
            "ru": "Обе настройки выбирают одни и те же совпадения.",
        },
        "tokens_differ": {
            "en": "The two settings tokenise the pair differently (normalisation or "
            "punctuation), so matches are paired by their words, not positions.",
            "ru": "Настройки по-разному делят пару на токены (нормализация или пунктуация), "
            "поэтому совпадения сопоставляются по словам, а не по позициям.",
        },
        "sens_title": {
            "en": "Sensitivity: the score as one parameter moves",
            "ru": "Чувствительность: оценка при изменении одного параметра",
        },
        "sens_caption": {
            "en": "Each curve re-scores the setting's own statistics (same alignment) with one "
            "parameter changed; dots mark the current values.",
            "ru": "Каждая кривая пересчитывает оценку по статистике этой настройки (то же "
            "выравнивание) при изменении одного параметра; точки — текущие значения.",
        },
        "col_metric": {"en": "quantity", "ru": "величина"},
        "setting_failed": {
            "en": "{name} cannot score this pair: {msg}",
            "ru": "{name}: оценка этой пары невозможна: {msg}",
        },
        "diff_needs_a": {
            "en": "Setting A cannot score this pair, so there is nothing to compare with it.",
            "ru": "Настройка A не может оценить эту пару, сравнивать с ней нечего.",
        },
        "diff_scores": {
            "en": "METEOR: A {a}, {name} {b}.",
            "ru": "METEOR: A {a}, {name} {b}.",
        },
        "stages_of": {"en": "Stages: {order}", "ru": "Этапы: {order}"},
        "col_where": {"en": "where", "ru": "где"},
    }
)
t = Translator(PAGE_STRINGS)

st.title(t("compare_title"))
st.caption(t("compare_intro"))


def attempt(hyp: str, refs: tuple[str, ...], setting: Setting) -> Analysis | str:
    """The setting's analysis, or the library's message when it cannot score the pair:
    one failing setting must not hide the others."""
    try:
        ensure_ready(setting.meteor())
        return analyse(hyp, refs, setting.preset, setting.overrides)
    except SHOWN_ERRORS as exc:
        return str(exc)


def setting_label(setting: Setting) -> str:
    """``preset`` or ``preset+custom`` (the signature's name), also for an invalid setting."""
    try:
        return setting.meteor().preset or "custom"
    except SHOWN_ERRORS:
        return f"{setting.preset}+custom"


def show_diff(where: Any, name: str, a: Analysis, an: Analysis) -> None:
    """Setting A against one other setting: matches only one side has, stage changes."""
    diff = compare_settings.match_diff(a.result, an.result)
    if not diff.same_tokens:
        where.caption(t("tokens_differ"))
    changed = [(x, y) for x, y in diff.both if x.module is not y.module]
    if not diff.only_a and not diff.only_b and not changed:
        where.caption(t("same_matches"))
        return
    # (where, stage, match): A's own matches, the other's, then those whose stage changed
    found = [(t("only_a"), module_label(m.module), m) for m in diff.only_a]
    found += [(t("only_b", name=name), module_label(m.module), m) for m in diff.only_b]
    found += [
        (t("stage_differs"), f"{module_label(x.module)} / {module_label(y.module)}", x)
        for x, y in changed
    ]
    rows = [
        {
            t("col_where"): side,
            t("col_stage"): stage,
            t("hypothesis"): " ".join(m.hyp_words),
            t("reference"): " ".join(m.ref_words),
        }
        for side, stage, m in found
    ]
    table(rows, f"cmp_diff_{name}", where=where)


hyp, refs = require_pair()
a_setting = current_setting()
lang = PRESETS[a_setting.preset].params.lang
names = list(preset_names(lang))
preferred = [n for n in ("nltk", "meteor-1.5") if n in names and n != a_setting.preset]
suggest = (preferred or [n for n in names if n != a_setting.preset])[:1]
others = st.multiselect(
    t("compare_with"),
    names,
    default=suggest,
    key="vs",
    bind="query-params",
    max_selections=3,
    help="  \n".join(f"{n}: {preset_description(n)}" for n in names),
)
if not others and len(names) > 1:
    st.info(t("need_other"))
    st.stop()
if not others:  # the language's only preset: A alone, with its sensitivity curves
    st.info(t("only_preset", lang=language_name(lang)))

label_a = t("setting_a", name=setting_label(a_setting))
#: each setting's name as Markdown (labels render it; a preset file's label is user text)
label_a_md = t("setting_a", name=setting_md(setting_label(a_setting)))
attempts = [(label_a, attempt(hyp, refs, a_setting))] + [
    (n, attempt(hyp, refs, preset_setting(n))) for n in others
]
for name, got in attempts:
    if isinstance(got, str):
        st.error(t("setting_failed", name=md_escape(name), msg=md_escape(got)))
runs = [(name, got) for name, got in attempts if not isinstance(got, str)]
if not runs:
    st.stop()

# -- score table, then one row per setting: each link view keeps the page's width -----
st.subheader(t("table_title"))
heads = {name: headline(an.result) for name, an in runs}
rows = [
    {t("col_metric"): t("matches_hyp_ref" if key == "matches" else key)}
    | {name: head[key] for name, head in heads.items()}
    for key in next(iter(heads.values()))
]
table(rows, "cmp_table")

for name, an in runs:
    with st.container(border=True):
        # score and signature in a header row; the link view below takes the row's width
        c1, c2 = st.columns([1, 3])
        c1.metric(f"METEOR · {label_a_md if name == label_a else setting_md(name)}",
                  num(an.result.score))  # fmt: skip
        c2.caption(t("stages_of", order=stage_order(an.params.modules)))
        c2.code(an.result.signature, language=None, wrap_lines=True)
        show_link_view(an.result.alignment, f"cmp_links_{name}", weights=dict(an.params.weights))

# -- A vs each other setting: the matches only one side has ------------------------------
a = attempts[0][1]
pairs = runs[1:]  # runs[0] is A when A scored
if others:
    st.subheader(t("diff_title"))
    if isinstance(a, str):
        st.caption(t("diff_needs_a"))
    elif pairs:
        tabs = st.tabs([t("diff_head", name=name) for name, _ in pairs])
        for tab, (name, an) in zip(tabs, pairs, strict=True):
            tab.caption(t("diff_scores", a=num(a.result.score), b=num(an.result.score), name=name))
            show_diff(tab, name, a, an)
        show_reconcile(hyp, refs, a_setting, setting_label(a_setting), [n for n, _ in pairs])


# -- sensitivity ------------------------------------------------------------------------------
def shared_curves(runs: Sequence[tuple[str, Any]]) -> dict[str, tuple[compare_settings.Curve, ...]]:
    """Every setting's curves over one x-range per parameter (β's runs up to max(3, 2β) of
    the setting's own β): the highest end for all (the statistics are re-scored, exact)."""
    highs = {
        c.param: max(max(d.xs) for _, an in runs for d in an.curves if d.param == c.param)
        for c in runs[0][1].curves
    }
    return {
        name: an.curves
        if all(max(c.xs) == highs[c.param] for c in an.curves)
        else compare_settings.sensitivity(an.result.stats, an.params, highs=highs)
        for name, an in runs
    }


st.subheader(t("sens_title"))
plotly(
    figures.sensitivity_figure(shared_curves(runs), labels=fig_labels(), fmt=num), key="cmp_sens"
)
st.caption(t("sens_caption"))
