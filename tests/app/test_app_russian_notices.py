"""How the readers read an upload, said in the interface language (AppTest): the notice of
a file that starts with a byte-order mark (meteor.text.notices.BOM_TEXT) and the readers'
InputWarnings (a code and its params, as the input errors') are Russian under ``?ui=RU``;
English shows the library's line, as the command line prints it."""

from __future__ import annotations

from typing import Any

import pytest
from _latin import latin_words

from meteor.text.notices import bom_notice
from pages._input_messages import safe_name

BOM = b"\xef\xbb\xbf"
LINES = b"the cat sat on the mat\na dog\n"


def _corpus(app_test: Any, ui: str, hyp: list[tuple[str, bytes]], ref: Any = ()) -> Any:
    """The Corpus page with the uploads, then switched to ``ui`` by the sidebar (AppTest
    cannot set the Russian page's formatted sort order: the choices are made in English)."""
    at = app_test(ui="EN", preset="meteor-1.5", lang="en")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value([(n, b, "text/plain") for n, b in hyp]).run()
    if ref:
        at.file_uploader(key="corpus_ref_files").set_value(
            [(n, b, "text/plain") for n, b in ref]
        ).run()
    if ui != "EN":
        at.button_group(key="ui").set_value(ui.lower()).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("ui", ["EN", "RU"])
def test_the_bom_notice_in_the_interface_language(app_test: Any, ui: str) -> None:
    at = _corpus(app_test, ui, [("h.txt", BOM + LINES)], [("r.txt", LINES)])
    (warning,) = [w.value for w in at.warning]
    plain = warning.replace("\\", "")
    if ui == "EN":  # the library's line, naming the page's checkbox
        option = "'Drop the byte-order mark (BOM) at the start of a file'"
        assert warning == safe_name(bom_notice("h.txt", kept=True, option=option))
    else:
        assert plain.startswith("«h.txt» начинается с метки порядка байтов UTF-8 (BOM); как и "
                                  "в Meteor 1.5, она остаётся в первом слове сегмента 1"), warning  # fmt: skip
        assert plain.endswith(
            "её убирает флажок «Убрать метку порядка байтов (BOM) в начале файла»"
        )
        found = latin_words(at, data={"h", "r", "txt"})
        assert not found, found
