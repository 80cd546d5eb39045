"""The sidebar's preset-file upload of a deeply nested file (``[`` × 200,000): one error
line, as the command line says it, never a crashed page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def test_a_deeply_nested_preset_file_is_one_error_line() -> None:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    at.run()
    assert not at.exception
    alpha = at.session_state["alpha"]
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("deep.json", b"[" * 200_000, "application/json")]
    )
    at.run()
    assert not at.exception
    (err,) = at.error
    assert "\n" not in err.value and "deep.json" in err.value
    assert "nested too deeply" in err.value
    assert at.session_state["alpha"] == alpha
