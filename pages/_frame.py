"""The app's frame: every page runs inside ``app.py`` (its navigation and sidebar).

Until some session has called ``st.navigation``, Streamlit uses the legacy discovery of
``pages/``: a deep link such as ``/compare?preset=nltk`` on a fresh server runs the page
file alone, without app.py's sidebar and URL state.  :func:`require_frame` switches the
legacy discovery off and reruns through app.py, whose ``st.navigation`` picks the same
page.  No public API does this (calling ``st.navigation`` from the page left the browser
on "Page not found"), so one private Streamlit attribute is written, in one function;
``tests/app/test_app_frame.py`` fails loudly if Streamlit moves or renames it.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

#: The private class attribute Streamlit (1.67) reads to choose the legacy discovery.
LEGACY_FLAG = "uses_pages_directory"


def _leave_legacy_pages_mode() -> bool:
    """Turn Streamlit's legacy ``pages/`` discovery off, as ``st.navigation`` does; True when
    it was on.  PRIVATE API: ``PagesManager.uses_pages_directory``, read with a default so
    that, should Streamlit drop it, the app degrades to the legacy page, not a traceback."""
    if getattr(PagesManager, LEGACY_FLAG, False):
        setattr(PagesManager, LEGACY_FLAG, False)
        return True
    return False


def require_frame() -> None:
    """Make sure the page runs inside app.py's frame; call it first on every page."""
    if _leave_legacy_pages_mode():
        st.rerun()
