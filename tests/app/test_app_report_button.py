"""The Corpus page's "Build the report" button is gone once the report is built (it
stayed on screen, under the built report, after the click), and comes back for another
setting, whose report is not built yet."""

from __future__ import annotations

from typing import Any

REFS = ("the cat sat on the mat", "we danced with joy under the starry night",
        "the president spoke to the audience")  # fmt: skip
HYPS = {
    "one": ("the cat sat on a mat", "we danced under the starry night", "the president spoke"),
    "two": ("a cat on the mat", "under the night we danced with joy", "president to audience"),
}


def _upload() -> bytes:
    lines = ["system\tseg_id\thyp\tref"]
    for s, hyps in HYPS.items():
        lines += [f"{s}\tb{k}\t{h}\t{r}" for k, (h, r) in enumerate(zip(hyps, REFS, strict=True))]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _buttons(at: Any) -> list[str]:
    return [b.key for b in at.button]


def test_build_button_hides_once_the_report_is_built(app_test: Any) -> None:
    at = app_test(preset="meteor-1.5")
    at.default_timeout = 300
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("report_button.tsv", _upload(), "text/tab-separated-values")]
    ).run()
    assert not at.exception and "rp_build" in _buttons(at)
    at.button(key="rp_build").click().run()
    assert not at.exception
    signatures = [c.value for c in at.code if c.value.startswith("meteor|")]
    assert len(signatures) == 2  # the corpus's and the built report's
    assert any(b.proto.id.endswith("rp_dl_json") for b in at.get("download_button"))  # type: ignore[attr-defined]
    assert "rp_build" not in _buttons(at)  # in the very run that built it
    at.run()
    assert "rp_build" not in _buttons(at)
    # another setting: no report yet for it, the button is back
    at.query_params["preset"] = "nltk"
    at.session_state["preset"] = "nltk"
    at.run()
    assert not at.exception
    assert "rp_build" in _buttons(at)
