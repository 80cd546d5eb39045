"""The settings sidebar: language of the texts, preset and every parameter, bound to the URL.

Option widgets bound to the URL store their *displayed label* there, so every bound
option widget shows language-independent labels (codes, stage and preset names): a
link means the same thing in both interface languages.  :func:`current_setting`
reads the widgets back as a :class:`Setting` (a preset plus overrides).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import streamlit as st

from meteor.errors import ParamError
from meteor.languages import available, available_languages, get_language
from meteor.module_registry import MODULE_ORDER, Module
from meteor.params import ALIGNERS, PARAM_SYMBOLS, Params, stage_weight
from meteor.presets import DEFAULT_PRESET, PRESETS, parse_preset_file, preset_names
from pages._i18n import module_label, num, stage_order, t, ui
from pages._input_messages import input_message
from pages._preset_texts import LANGUAGE_NAMES_RU, PRESET_TEXTS_RU
from pages._scoring import Setting as Setting
from pages._scoring import warm_up
from pages._widgets import code_span, uploader_css

#: Largest preset file accepted in the sidebar (MB): a preset file is a few hundred bytes.
PRESET_FILE_MB = 1


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


#: The formula's parameters (widget keys and Params fields).
FORMULA_KEYS = tuple(PARAM_SYMBOLS)


def _weight_key(m: Module) -> str:
    return f"w_{m.value}"


def preset_values(preset: str, params: Params | None = None) -> dict[str, Any]:
    """Widget values (by key) that reproduce a preset exactly (or ``params``, e.g. a preset
    file's, on the preset's stage options)."""
    p = PRESETS[preset].params if params is None else params
    default = PRESETS[default_preset(p.lang)].params
    vals: dict[str, Any] = {k: getattr(p, k) for k in FORMULA_KEYS} | {
        "modules": [m.value for m in p.modules],
        "aligner": p.aligner,
        "beam": p.beam_size,
        "stemmer": p.stemmer,
    }
    for m in stage_options(preset):
        vals[_weight_key(m)] = stage_weight(m, p, default)
    return vals


def reset_params() -> None:
    """Callback: every parameter widget back to the chosen preset's value."""
    preset = st.session_state.get("preset")
    if preset in PRESETS:
        st.session_state.update(preset_values(preset))


def on_lang_change() -> None:
    """Callback: a new language of the texts gets its default preset."""
    lang = st.session_state.get("lang", "en")
    st.session_state["preset"] = default_preset(lang)
    reset_params()


# Stages and aligner are shown translated, so Streamlit does not bind them to the URL (it
# would store the label): the URL holds their codes, read once and written back here.


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


def sync_url(key: str, value: Any, default: Any) -> None:
    """Write an unbound widget's codes to the URL (a stage list, an aligner, a page's view or
    step: ids, never the translated labels); drop them when they equal the default."""
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
    """A language of the texts by name in the UI language (its code when unknown)."""
    if ui() == "ru":
        return LANGUAGE_NAMES_RU.get(code, code)
    info = _LANGUAGE_INFO.get(code)
    return info.name if info else code


def language_label(code: str) -> str:
    """``de · Deutsch``: the code and the language's own name, for the selector (in the
    Russian interface the Russian name: ``de · немецкий``)."""
    if ui() == "ru":
        return f"{code} · {language_name(code)}"
    info = _LANGUAGE_INFO.get(code)
    return f"{code} · {info.native_name}" if info else code


def preset_description(name: str) -> str:
    """The preset's description in the UI language: the library's ``Preset.description``, in
    Russian :data:`pages._preset_texts.PRESET_TEXTS_RU` or, for a preset without a
    translation, a generic sentence built from its parameters (never the English text)."""
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

    Languages, presets and stages are the library's (a language or preset registered
    there appears here unchanged).  The stage widget's order is the order the stages run
    in, by default the preset's, so a preset left alone is exactly the library's.
    """
    warm_up()
    _preset_file_upload()
    lang, preset = _language_and_preset()
    _language_hint(lang)
    vals = preset_values(preset)
    options = stage_options(preset)
    _init_unbound([m.value for m in options], vals)
    with st.sidebar.expander(t("params"), expanded=False):
        _formula_sliders(vals)
        _stage_widgets(options, vals)
        _aligner_widgets(lang, vals)
        st.button(t("reset"), on_click=reset_params, key="reset_params")


#: Session keys of the active preset file: its JSON text and its label (the signature's name).
PRESET_FILE_DOC = "_preset_file_doc"
PRESET_FILE_NAME = "_preset_file_name"
PRESET_FILE_LANG = "_preset_file_lang"


def _preset_file_upload() -> None:
    """The sidebar's "Preset file" upload (``meteor tune --out``): a new file's settings go
    into the language, preset and parameter widgets once (before they are drawn), and
    :func:`current_setting` scores with the file, so the signature names it.  A bad file is
    one error line; removing the file leaves the parameters as they are, on the base preset."""
    ss = st.session_state
    button, limit = t("preset_file_upload"), t("preset_file_limit", mb=PRESET_FILE_MB)
    st.sidebar.html(uploader_css(button, limit, ".st-key-preset_file_upload"))
    up = st.sidebar.file_uploader(
        t("preset_file"),
        type=["json"],
        key="preset_file_upload",
        help=t("preset_file_help"),
        max_upload_size=PRESET_FILE_MB,
    )
    if up is None:
        if ss.pop("_preset_file_seen", None) is not None or PRESET_FILE_DOC not in ss:
            for key in (PRESET_FILE_DOC, PRESET_FILE_NAME, PRESET_FILE_LANG):
                ss.pop(key, None)  # the uploaded file removed
            return
        # else a preset document applied by a page (Tune), if any, is shown below
    elif ss.get("_preset_file_seen") != (seen := (up.name, up.size, hash(up.getvalue()))):
        ss["_preset_file_seen"] = seen  # a new file
        ss.pop(PRESET_FILE_DOC, None)
        ss.pop(PRESET_FILE_NAME, None)
        try:
            apply_preset_file(up.getvalue(), f"preset file {up.name}")
        except ParamError as exc:
            st.sidebar.error(t("preset_file_bad", msg=input_message(exc)))
            return
    if PRESET_FILE_NAME in ss:
        st.sidebar.caption(t("preset_file_on", name=code_span(ss[PRESET_FILE_NAME])))


def apply_preset_file(data: bytes, where: str) -> str:
    """Make a preset file's bytes the active setting (the sidebar's upload, or a page's "Use
    this setting"): its language, the language's default preset and every parameter go into
    the widgets' state (call it before the sidebar is drawn), and :func:`current_setting`
    scores with the file, so the signature names it.  Returns the preset's label.

    Raises:
        ParamError: not a preset file, or a language or stage the sidebar does not offer
            (nothing is changed).
    """
    ss = st.session_state
    loaded = parse_preset_file(data, where)
    p = loaded.params
    if p.lang not in ui_languages():
        raise ParamError(f"{where}: language {p.lang!r} has no preset here")
    base = default_preset(p.lang)
    values = preset_values(base, p)
    unknown = [m for m in p.modules if m not in stage_options(base)]
    if unknown:
        raise ParamError(f"{where}: stage {unknown[0].value!r} is not offered for {p.lang}")
    ss["lang"] = p.lang
    ss["preset"] = base
    ss.update(values)
    ss[PRESET_FILE_DOC] = data.decode("utf-8-sig")
    ss[PRESET_FILE_NAME] = loaded.name
    ss[PRESET_FILE_LANG] = p.lang
    return loaded.name


def _language_and_preset() -> tuple[str, str]:
    """The language of the texts and its preset (the language's default when they differ)."""
    sb = st.sidebar
    langs = ui_languages()
    lang = sb.selectbox(
        t("engine_lang"),
        langs,
        # Options stay codes: the URL binding writes the shown text, and ?lang=de must work.
        help=", ".join(language_label(c) for c in langs),
        key="lang",
        bind="query-params",
        on_change=on_lang_change,
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
        on_change=reset_params,
    )
    if preset not in PRESETS or PRESETS[preset].params.lang != lang:
        preset = default
    sb.caption(preset_caption(preset))
    return lang, preset


def _init_unbound(codes: list[str], vals: dict[str, Any]) -> None:
    """Stages and aligner (not bound by Streamlit): from the URL once, kept valid after."""
    ss = st.session_state
    _init_from_url("modules", codes, multi=True)
    _init_from_url("aligner", list(ALIGNERS), multi=False)
    kept = [c for c in ss.get("modules", vals["modules"]) if c in codes]
    if kept != ss.get("modules"):
        ss["modules"] = kept
    if ss.get("aligner") not in ALIGNERS:
        ss["aligner"] = vals["aligner"]


def _formula_sliders(vals: dict[str, Any]) -> None:
    """α β γ δ, each with its help text."""
    for key, hi, step in (("alpha", 1.0, 0.01), ("beta", 10.0, 0.05), ("gamma", 1.0, 0.01),
                          ("delta", 1.0, 0.01)):  # fmt: skip
        st.slider(
            PARAM_SYMBOLS[key],
            0.0,
            hi,
            float(vals[key]),
            step,
            key=key,
            bind="query-params",
            help=t(f"{key}_help"),
        )


def _stage_widgets(options: list[Module], vals: dict[str, Any]) -> None:
    """The stages in the order they run (codes in the URL), then a weight per stage."""
    codes = [m.value for m in options]
    chosen = st.multiselect(
        t("stages"),
        codes,
        format_func={c: module_label(c) for c in codes}.__getitem__,  # fixed now (AppTest)
        key="modules",
        help=t("stages_help"),
        persist_state="session",
    )
    st.caption(t("stage_order", order=stage_order(chosen)) if chosen else t("no_stages"))
    sync_url("modules", chosen, vals["modules"])
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


def _aligner_widgets(lang: str, vals: dict[str, Any]) -> None:
    """Aligner (its code in the URL), beam width and the language's stemmers."""
    aligner = st.selectbox(
        t("aligner"),
        list(ALIGNERS),
        format_func={a: t(f"aligner_{a}") for a in ALIGNERS}.__getitem__,
        key="aligner",
        persist_state="session",
    )
    sync_url("aligner", aligner, vals["aligner"])
    st.number_input(
        t("beam_size"), 1, MAX_BEAM, int(vals["beam"]), 1, key="beam", bind="query-params"
    )
    stemmers = list(stemmer_names(lang))
    st.selectbox(
        t("stemmer"),
        stemmers,
        index=stemmers.index(vals["stemmer"]) if vals["stemmer"] in stemmers else 0,
        key="stemmer",
        bind="query-params",
    )


def current_setting() -> Setting:
    """The setting chosen in the sidebar (preset + every parameter widget; the stages in the
    order the user gave them)."""
    ss = st.session_state
    lang = ss.get("lang", "en")
    if lang not in ui_languages():
        lang = "en"
    preset = ss.get("preset")
    if preset not in PRESETS or PRESETS[preset].params.lang != lang:
        preset = default_preset(lang)
    vals = preset_values(preset)
    got = {k: ss.get(k, v) for k, v in vals.items()}
    known = {m.value: m for m in Module}
    mods = [known[c] for c in dict.fromkeys(got["modules"] or []) if c in known]
    over: dict[str, Any] = {k: float(got[k]) for k in FORMULA_KEYS} | {
        "modules": [m.value for m in mods],
        "weights": {m.value: float(got[_weight_key(m)]) for m in mods if _weight_key(m) in got},
        "aligner": got["aligner"],
        "beam_size": int(got["beam"]),
        "stemmer": got["stemmer"],
    }
    doc = ss.get(PRESET_FILE_DOC)
    if doc is not None and lang == ss.get(PRESET_FILE_LANG) and preset == default_preset(lang):
        over["preset_file"] = doc  # scored from the file: the signature names it
    return Setting(preset, json.dumps(over, sort_keys=True, ensure_ascii=False))


def preset_setting(preset: str) -> Setting:
    """A preset exactly as defined (no overrides)."""
    return Setting(preset, "{}")
