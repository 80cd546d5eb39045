"""The app's URL parameters (docs/app.md, "URL parameters"), checked on a session's first
run before any widget reads them: a bad value is removed (the widget keeps its default)
and a notice names it; a preset without ``lang`` implies its own language.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.state import get_session_state

from meteor.module_registry import Module
from meteor.params import ALIGNERS
from meteor.presets import PRESETS, preset_names
from pages._i18n import UI_LANGS
from pages._settings import MAX_BEAM, stage_codes, stemmer_names, ui_languages

_CHECKED_KEY = "_url_checked"
#: The ``ui`` values a link may carry: the interface switch's labels (``EN``, ``RU``).
UI_LABELS = [c.upper() for c in UI_LANGS]


#: A number as a person writes it in a link: ASCII digits, one point, an optional exponent
#: (``float()`` alone also takes ``1_0``, full-width ``０.5`` and surrounding spaces).
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def _number(lo: float, hi: float, *, whole: bool = False) -> Callable[[str], bool]:
    def ok(raw: str) -> bool:
        if not _PLAIN_NUMBER.fullmatch(raw):
            return False
        x = float(raw)  # a plain number always parses (1e999: inf)
        return math.isfinite(x) and lo <= x <= hi and (not whole or x == int(x))

    return ok


def _lang_of(qp: dict[str, list[str]], languages: list[str]) -> str:
    """The language the URL asks for: ``lang``, else its preset's, else English."""
    lang = (qp.get("lang") or [""])[0]
    if lang in languages:
        return lang
    preset = (qp.get("preset") or [""])[0]
    if preset in PRESETS and PRESETS[preset].params.lang in languages:
        return PRESETS[preset].params.lang
    return "en"


def bad_parameters(qp: dict[str, list[str]]) -> dict[str, list[str]]:
    """The parameters of ``qp`` (name → values) whose values the app cannot use: what the
    sidebar's widgets accept (:mod:`pages._settings`: languages, stemmers, stages, beam)."""
    languages = ui_languages()
    lang = _lang_of(qp, languages)
    presets = set(preset_names(lang))
    weight_keys = {f"w_{m.value}" for m in Module}
    single: dict[str, Callable[[str], bool]] = {
        "ui": lambda v: v in UI_LABELS,
        "lang": lambda v: v in languages,
        "preset": lambda v: v in presets,
        "alpha": _number(0.0, 1.0),
        "beta": _number(0.0, 10.0),
        "gamma": _number(0.0, 1.0),
        "delta": _number(0.0, 1.0),
        "beam": _number(1, MAX_BEAM, whole=True),
        "aligner": lambda v: v in ALIGNERS,
        "stemmer": lambda v: v in stemmer_names(lang),
        **{k: _number(0.0, 1.0) for k in weight_keys},
    }
    bad: dict[str, list[str]] = {}
    for key, values in qp.items():
        if key in single:
            wrong = [v for v in values if not single[key](v)]
            if wrong or len(values) > 1:
                bad[key] = wrong or values[1:]
        elif key == "modules":
            ok = stage_codes(lang)
            wrong = [v for v in values if v and v not in ok]
            if wrong:
                bad[key] = wrong
        elif key == "vs":
            wrong = [v for v in values if v not in presets]
            if wrong or len(values) > 3:
                bad[key] = wrong or values[3:]
    return bad


def _set_initial(key: str, values: list[str]) -> None:
    """Make the widgets seed from the cleaned values: a bound widget seeds itself from
    Streamlit's private snapshot of the URL (``QueryParams._initial_query_params``, 1.67),
    where ``?beam=1e309`` would raise; tests/app/test_app_presets.py fails if it moves."""
    with get_session_state().query_params() as qp:
        initial = qp._initial_query_params
        if values:
            initial[key] = list(values)
        else:
            initial.pop(key, None)


def check_query_params() -> list[tuple[str, str]]:
    """On a session's first run: drop the URL's bad parameters, before any widget reads
    them, and give a preset its language when the URL names no language.

    Returns ``(parameter, value)`` pairs that were ignored (empty after the first run).
    """
    ss = st.session_state
    if ss.get(_CHECKED_KEY):
        return []
    ss[_CHECKED_KEY] = True
    qp = {k: st.query_params.get_all(k) for k in st.query_params}
    ui = qp.get("ui", [""])[0]
    if ui not in UI_LABELS and ui.upper() in UI_LABELS:  # ?ui=ru means RU
        qp["ui"] = [ui.upper()]
        st.query_params["ui"] = ui.upper()
        _set_initial("ui", [ui.upper()])
    bad = bad_parameters(qp)
    ignored: list[tuple[str, str]] = []
    for key, wrong in bad.items():
        keep = [v for v in qp[key] if v not in wrong]
        if key not in ("modules", "vs"):
            keep = keep[:1]
        if keep:
            st.query_params[key] = keep if len(keep) > 1 else keep[0]
        else:
            del st.query_params[key]
        _set_initial(key, keep)
        ignored.extend((key, v) for v in wrong)
    if "lang" not in st.query_params and "preset" in st.query_params:
        lang = PRESETS[st.query_params["preset"]].params.lang
        if lang != "en":
            ss["lang"] = lang  # the widget then writes it to the URL
    return ignored
