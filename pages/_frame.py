"""The app's frame: every page runs inside ``app.py`` (its navigation and sidebar).

Until some session has called ``st.navigation``, a Streamlit process whose app has a
``pages/`` folder beside it uses the legacy page discovery: every file in ``pages/``
becomes a page and a deep link such as ``/compare?preset=nltk`` runs the page file
alone, without app.py, so without the sidebar, the settings and their URL state.
That is what the first request of a fresh server gets when it is a deep link.

``app.py`` marks each of its runs (:func:`enter_frame`) before it runs the page; a
page run without the mark (:func:`require_frame`) calls the public ``st.navigation``,
which switches the legacy discovery off for the whole process (as documented: once
``st.navigation`` is called, ``pages/`` is ignored), and reruns: the rerun goes
through app.py, whose ``st.navigation`` picks the same page (both register it under
the same URL path, hence the same page hash).  No private Streamlit attribute is used.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

#: Session-state key app.py sets before it runs a page.
FRAME_KEY = "_in_frame"


def enter_frame() -> None:
    """Called by app.py before ``page.run()``: the page runs inside the frame."""
    st.session_state[FRAME_KEY] = True


def require_frame(page_file: str) -> None:
    """Call first on every page (``require_frame(__file__)``): outside app.py, rerun through it.

    A session's first run in legacy mode has no mark (app.py has not run in it, and
    app.py's ``st.navigation`` would have ended legacy mode for the process).
    """
    if st.session_state.get(FRAME_KEY):
        return
    # The page alone, under its own URL path (app.py registers it under the same one).
    st.navigation([st.Page(Path(page_file))], position="hidden")
    st.rerun()
