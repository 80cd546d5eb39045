"""METEOR explorer: the navigation frame and the shared sidebar.

Run with ``streamlit run app.py``. Pages live in ``pages/`` and are registered
here (``st.navigation``); the Corpus page is registered when its file exists.
The sidebar (interface language, language of the texts, preset and every
parameter) is drawn on every page and bound to the URL, so a link restores it.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from pages._common import UI_LANGS, settings_sidebar, t

HERE = Path(__file__).resolve().parent

st.set_page_config(page_title="METEOR explorer", layout="wide")

st.sidebar.segmented_control(
    "UI / Интерфейс",
    list(UI_LANGS),
    default="en",
    format_func=str.upper,  # bound: the URL holds the label, keep it language-independent
    key="ui",
    bind="query-params",
    required=True,
)

analyse = [st.Page("pages/inspect.py", title=t("page_inspect"), default=True)]
if (HERE / "pages" / "corpus.py").is_file():
    analyse.append(st.Page("pages/corpus.py", title=t("page_corpus"), url_path="corpus"))
analyse.append(st.Page("pages/compare.py", title=t("page_compare"), url_path="compare"))
learn = [st.Page("pages/learn.py", title=t("page_learn"), url_path="learn")]

page = st.navigation({t("nav_analyse"): analyse, t("nav_learn"): learn})
settings_sidebar()
page.run()
