"""The sidebar's "Preset file" upload (issue 34): a tuned preset file's settings fill the
sidebar and the scores' signature names the file; a bad file is one error line."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from meteor.presets import PRESETS


def _doc(alpha: float = 0.5) -> bytes:
    params = PRESETS["nltk"].params.to_dict()
    params["alpha"] = alpha
    doc = {"format": "meteor-preset", "version": 1, "name": "mine", "description": "",
           "params": params, "tuned_on": {"data": "toy.tsv"}}  # fmt: skip
    return json.dumps(doc).encode("utf-8")


def _app() -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=300)
    at.run()
    assert not at.exception
    return at


def _signatures(at: AppTest) -> list[str]:
    return [c.value for c in at.code if c.value.startswith("meteor|")]


def test_preset_file_fills_the_sidebar_and_the_signature_names_it() -> None:
    at = _app()
    assert _signatures(at) and all("preset:mine@" not in s for s in _signatures(at))
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("tuned.json", _doc(0.5), "application/json")]
    )
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["alpha"] == 0.5 and at.session_state["lang"] == "en"
    assert at.slider(key="alpha").value == 0.5
    assert any("mine@" in c.value for c in at.sidebar.caption)
    (sig,) = _signatures(at)
    assert "preset:mine@" in sig and "tuned-on:toy.tsv" in sig and "|a:0.5|" in sig
    # a moved slider is the file's setting changed: still named, marked +custom
    at.slider(key="alpha").set_value(0.7).run()
    (sig,) = _signatures(at)
    assert "preset:mine@" in sig and "+custom" in sig and "|a:0.7|" in sig
    # the file removed: the base preset again
    at.sidebar.file_uploader(key="preset_file_upload").set_value([]).run()
    assert not at.exception
    assert all("mine@" not in s for s in _signatures(at))


def test_a_bad_preset_file_is_one_error_line_and_changes_nothing() -> None:
    at = _app()
    alpha = at.session_state["alpha"]
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("bad.json", _doc(2.0), "application/json")]
    )
    at.run()
    assert not at.exception
    (err,) = at.error
    assert "\n" not in err.value and "preset file bad.json" in err.value
    assert "alpha" in err.value
    assert at.session_state["alpha"] == alpha
