"""pages/_frame.py writes one private Streamlit attribute: fail loudly if Streamlit moves it.

``PagesManager.uses_pages_directory`` chooses Streamlit's legacy ``pages/`` discovery
(the script runner reads it; ``st.navigation`` sets it to False).  The app reads it
with a default, so a Streamlit that renamed it would silently bring back the bug of a
fresh server's first deep link (the page run without app.py's sidebar): this test is
where that shows.  The behaviour itself is tested end to end by
``test_app.py::test_deep_link_first_request_runs_inside_the_frame`` (AppTest) and
``tests/browser/test_browser.py::test_deep_link_as_a_fresh_servers_first_request``.
"""

from __future__ import annotations

import pytest
from streamlit.runtime import pages_manager

from pages import _frame


def test_streamlit_still_has_the_private_flag_the_frame_writes() -> None:
    cls = pages_manager.PagesManager
    assert _frame.PagesManager is cls
    assert _frame.LEGACY_FLAG in vars(cls), "Streamlit moved PagesManager.uses_pages_directory"


def test_leaving_legacy_mode_clears_the_flag_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_manager.PagesManager, _frame.LEGACY_FLAG, True)
    assert _frame._leave_legacy_pages_mode() is True
    assert getattr(pages_manager.PagesManager, _frame.LEGACY_FLAG) is False
    assert _frame._leave_legacy_pages_mode() is False  # already off: no rerun
