"""METEOR explorer: the navigation frame and the shared sidebar (``streamlit run app.py``).

Pages live in ``pages/`` and are registered here (``st.navigation``).  The sidebar
(interface language, language of the texts, preset and every parameter) is drawn on every
page and bound to the URL, so a link restores it.
"""

from __future__ import annotations

import streamlit as st

from pages._i18n import UI_LANGS, t
from pages._settings import settings_sidebar
from pages._url_params import check_query_params
from pages._widgets import md_escape


def main() -> None:
    """The frame: page config, URL check, the UI language, navigation, the sidebar, the page."""
    st.set_page_config(page_title="METEOR explorer", layout="wide")

    # before any widget reads the URL: bad parameters dropped (noticed below), preset → language
    ignored = check_query_params()

    st.sidebar.segmented_control(
        "UI / Интерфейс",
        list(UI_LANGS),
        default="en",
        format_func=str.upper,  # bound: the URL holds the label, keep it language-independent
        key="ui",
        bind="query-params",
        required=True,
    )

    analyse = [
        st.Page("pages/inspect.py", title=t("page_inspect"), default=True),
        st.Page("pages/corpus.py", title=t("page_corpus"), url_path="corpus"),
        st.Page("pages/compare.py", title=t("page_compare"), url_path="compare"),
        st.Page("pages/agreement.py", title=t("page_agreement"), url_path="agreement"),
    ]
    learn = [st.Page("pages/learn.py", title=t("page_learn"), url_path="learn")]

    page = st.navigation({t("nav_analyse"): analyse, t("nav_learn"): learn})
    settings_sidebar()
    if ignored:
        st.warning(
            t("url_ignored", params=", ".join(f"{k}={md_escape(v)}" for k, v in ignored)),
            icon="⚠️",
        )
    page.run()


# The long-pair worker (pages/_offload.py) is "spawn"-ed, which imports this script as
# ``__mp_main__``: there it must draw nothing and start nothing.
if __name__ != "__mp_main__":
    main()
