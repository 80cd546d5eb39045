"""The app's frame: every page runs inside ``app.py`` (its navigation and sidebar).

Until some session has called ``st.navigation``, a Streamlit process whose app has a
``pages/`` folder beside it uses the legacy page discovery: every file in ``pages/``
becomes a page (``_i18n.py`` too) and a deep link such as ``/compare?preset=nltk``
runs the page file alone, without app.py, so without the sidebar, the settings and
their URL state.  That is what the first request of a fresh server gets when it is a
deep link.  :func:`require_frame` switches the legacy discovery off and reruns: the
rerun goes through app.py, whose ``st.navigation`` picks the same page (the legacy
page and the registered one share the URL path, hence the page hash).

No public API does this: calling ``st.navigation`` from the page instead (it switches
the discovery off as documented) left the browser on "Page not found" (the legacy
run had already sent its own page list).  So one private Streamlit attribute is
written, in one function (:func:`_leave_legacy_pages_mode`), and
``tests/app/test_app_frame.py`` fails loudly if Streamlit moves or renames it.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

#: The private class attribute Streamlit (1.67) reads to choose the legacy discovery.
LEGACY_FLAG = "uses_pages_directory"


def _leave_legacy_pages_mode() -> bool:
    """Turn Streamlit's legacy ``pages/`` discovery off, as ``st.navigation`` does.

    PRIVATE API: ``PagesManager.uses_pages_directory`` (streamlit/runtime/pages_manager.py,
    read by the script runner, set to False by ``st.navigation``).  True when it was on.
    Read with a default so that, should Streamlit drop it, the app degrades to the
    legacy page instead of a traceback; the test catches that first.
    """
    if getattr(PagesManager, LEGACY_FLAG, False):
        setattr(PagesManager, LEGACY_FLAG, False)
        return True
    return False


def require_frame() -> None:
    """Make sure the page runs inside app.py's frame; call it first on every page."""
    if _leave_legacy_pages_mode():
        st.rerun()
