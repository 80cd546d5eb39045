"""Why a sentence has blank tokens or letters one per token (Inspect, under the score).

The records of :func:`meteor.text.notices.token_notices`: English shows the library's own
line, Russian words the same fields (code points and Unicode names as code, the scripts by
their Russian names; an unknown script: its Unicode word, as code).
"""

from __future__ import annotations

import streamlit as st

from meteor.params import Params
from meteor.text.notices import TOKEN_TEXT, TokenNotice, token_notices
from meteor.types import MeteorResult
from pages._i18n import Translator, freeze, integer, side_label, ui
from pages._widgets import code_span, md_escape, md_fill

_INVISIBLE_RU = (
    "слов из невидимых символов (они показаны пустыми): {n} — {chars}; они считаются словами: "
)
_NORM_RU = "нормализатор, как и в Meteor 1.5, "
_RU = {
    "invisible_norm": _INVISIBLE_RU + _NORM_RU + "делает каждый такой символ отдельным словом",
    "invisible_words": _INVISIBLE_RU + "токенизатор оставляет их словами",
    "split_letters": "буквы ({scripts}) — каждая отдельным словом (таких слов: {n}): "
    + _NORM_RU
    + "считает буквами только латиницу и кириллицу и отделяет любой другой символ",
}
STRINGS = freeze(
    {f"token_{reason}": {"en": text, "ru": _RU[reason]} for reason, text in TOKEN_TEXT.items()}
)
t = Translator(STRINGS)

#: Scripts (the first word of a letter's Unicode name) in Russian.
SCRIPTS_RU = {
    "ARABIC": "арабское письмо",
    "ARMENIAN": "армянское письмо",
    "BENGALI": "бенгальское письмо",
    "CJK": "китайские иероглифы",
    "DEVANAGARI": "деванагари",
    "ETHIOPIC": "эфиопское письмо",
    "GEORGIAN": "грузинское письмо",
    "GREEK": "греческое письмо",
    "HANGUL": "хангыль",
    "HEBREW": "еврейское письмо",
    "HIRAGANA": "хирагана",
    "KATAKANA": "катакана",
    "TAMIL": "тамильское письмо",
    "THAI": "тайское письмо",
}


def notice_markdown(notice: TokenNotice) -> str:
    """One notice in the UI language, as Markdown (English: the library's line, escaped)."""
    ru = ui() == "ru"
    plain = notice.fields()
    shown = {
        "n": integer(notice.count) if ru else str(notice.count),
        "chars": code_span(str(plain["chars"])) if ru else md_escape(str(plain["chars"])),
        "scripts": ", ".join(SCRIPTS_RU.get(s) or code_span(s.title()) for s in notice.scripts)
        if ru
        else md_escape(str(plain["scripts"])),
    }
    return md_fill(t(f"token_{notice.reason}", **{k: f"\0{k}\0" for k in shown}), **shown)


def show_token_notices(r: MeteorResult, params: Params) -> None:
    """Why a side has blank tokens or letters one per token (library: token_notices),
    one notice per side and reason, as text (user text never rendered as HTML)."""
    meteor_norm = params.norm == "meteor" and params.tokenizer == "meteor"
    for side, toks in (("hyp", r.alignment.hyp), ("ref", r.alignment.ref)):
        for notice in token_notices((tok.text for tok in toks), meteor_norm=meteor_norm):
            label = side_label(side).capitalize()
            st.info(
                md_fill(t("token_notice", side=label, msg="\0msg\0"), msg=notice_markdown(notice))
            )
