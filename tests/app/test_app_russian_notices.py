"""How the readers read an upload, said in the interface language (AppTest): the notice of
a file that starts with a byte-order mark (meteor.text.notices.BOM_TEXT) and the readers'
InputWarnings (a code and its params, as the input errors') are Russian under ``?ui=RU``;
English shows the library's line, as the command line prints it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from _latin import latin_words, latin_words_in

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


JSONL = b'{"hyp": "the cat", "ref": "a cat"}\n{"type": "corpus", "score": 0.5}\n'
WARNINGS = [
    (
        [("run.jsonl", JSONL)],
        {"run", "jsonl"},
        'run.jsonl: пропущены строки (1): 2 — это сводка с полем `"type": "corpus"` без '
        "полей `hyp` и `ref`",
    ),
    (
        [("q.tsv", b'hyp\tref\n"a ""b"" c"\tx\n"Hi," he said\ty\n')],
        {"q", "tsv"},
        "q.tsv: в строке 2 есть поле в кавычках CSV",
    ),
    (
        [("a.tsv", b"system\thyp\tref\nA\tx\ty\n"), ("b.tsv", b"system\thyp\tref\nA\tx\ty\n")],
        {"a", "b", "tsv", "A-2"},
        "b.tsv: система «A» показана как «A-2» (в a.tsv тоже есть система «A»)",
    ),
]


@pytest.mark.parametrize(("files", "data", "start"), WARNINGS, ids=["summary", "quotes", "names"])
def test_the_readers_notices_in_russian(
    app_test: Any, files: list[tuple[str, bytes]], data: set[str], start: str
) -> None:
    # the Russian run reads the corpus from the cache (st.cache_data: pickled), which keeps
    # the notices with their codes
    at = _corpus(app_test, "RU", files)
    shown = [w.value.replace("\\", "") for w in at.warning]
    assert any(w.startswith(start) for w in shown), shown
    found = latin_words(at, data=data)
    assert not found, found


def test_an_input_warning_keeps_its_code_through_a_cache() -> None:
    import pickle

    from meteor.io.lines import InputWarning

    w = pickle.loads(pickle.dumps(InputWarning("q.tsv: line 2 …", "csv_quotes_unquoted",
                                               name="q.tsv", line=2)))  # fmt: skip
    assert (str(w), w.code, w.params) == ("q.tsv: line 2 …", "csv_quotes_unquoted",
                                          {"name": "q.tsv", "line": 2})  # fmt: skip


@pytest.mark.parametrize(
    ("ui", "shown"),
    [
        ("EN", "j.tsv: line 2 is not valid UTF-8"),
        ("RU", "j.tsv: строка 2 не в кодировке UTF-8 (байт 0xff в позиции 1); сохраните файл в "
         "UTF-8"),
    ],
)  # fmt: skip
def test_the_agreement_page_words_an_unreadable_file(app_test: Any, ui: str, shown: str) -> None:
    """The judged file's error was shown as the library's English line in Russian too."""
    at = app_test(ui=ui, lang="en", preset="meteor-1.5")
    at.run()
    at.switch_page("pages/agreement.py").run()
    at.radio(key="agr_source").set_value("upload").run()
    data = b"hyp\tref\thuman\n\xff\tb\t1\n"
    at.file_uploader(key="agr_file").set_value([("j.tsv", data, "text/tab-separated-values")])
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value.replace("\\", "") for e in at.error]
    assert len(errors) == 1 and shown in errors[0], errors


ROWS = [
    ("t.tsv", b"", "table_empty"),
    ("t.tsv", b"hyp\thyp\nx\ty\n", "header_repeats"),
    ("t.tsv", b"hyp\tref\nx\ty\tz\n", "row_width"),
    ("t.csv", b'hyp,ref\n"x",y\n"a,b\n', "quoted_invalid"),
    ("t.csv", b"hyp,ref\nx,y,z\n", "quoted_row_width"),
    ("t.jsonl", b'{"hyp": "a", "ref": "b"}\n\n', "jsonl_empty_line"),
    ("t.jsonl", b'{"hyp": "a", "hyp": "b", "ref": "c"}\n', "jsonl_duplicate_key"),
    ("t.jsonl", b"{oops\n", "jsonl_invalid"),
    ("t.jsonl", b"[" * 100_000 + b"\n", "jsonl_too_deep"),
    ("t.jsonl", b"[1, 2]\n", "jsonl_not_object"),
    ("t.tsv", b"foo\tbar\na\tb\n", "no_text_column"),
    ("t.tsv", b"seg_id\thyp\tref\n1\ta\tb\n1\tc\td\n", "segment_refs_differ"),
]


@pytest.mark.parametrize(("name", "data", "code"), ROWS, ids=[c for *_, c in ROWS])
def test_a_rows_error_carries_its_code_and_reads_in_russian(
    name: str, data: bytes, code: str, monkeypatch: Any
) -> None:
    import pages._i18n
    from meteor.errors import INPUT_CODES, InputError
    from meteor.io.read import load_corpus
    from pages import _input_messages

    with pytest.raises(InputError) as info:
        load_corpus([(name, data)])
    exc = info.value
    assert exc.code == code and set(exc.params) == set(INPUT_CODES[code]), (exc.code, exc)
    monkeypatch.setattr(pages._i18n, "ui", lambda: "ru")
    monkeypatch.setattr(_input_messages, "ui", lambda: "ru")
    ru = _input_messages.input_message(exc)
    assert "библиотеки" not in ru, ru  # not the fallback (English text, said to be so)
    found = latin_words_in(
        [re.sub(r"`[^`]*`", " ", ru.replace("\\", ""))], data={"t", "hyp", "ref", "foo", "bar"}
    )
    assert not found, (found, ru)


def test_the_corpus_page_words_a_bad_jsonl_line_in_russian(app_test: Any) -> None:
    at = app_test(ui="RU")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value(
        [("b.jsonl", b"{oops\n", "application/json")]
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Файлы не читаются: b.jsonl: строка 1 — не JSON"
    ]


@pytest.mark.parametrize(
    ("ui", "cluster", "stages", "axis"),
    [
        ("EN", "cluster 1", {"exact", "stem", "synonym", "paraphrase"}, "chunks / matched words"),
        ("RU", "кластер 1", {"точное", "основа", "синоним", "перефразирование"},
         "фрагменты / совпавшие слова"),
    ],
)  # fmt: skip
def test_the_report_figures_name_clusters_stages_and_axes_in_the_interface_language(
    app_test: Any, ui: str, cluster: str, stages: set[str], axis: str
) -> None:
    """The ranking's cluster legend, the stage figure's legend and the fragmentation axis
    were English under the Russian interface."""
    import json

    at = app_test(ui="EN", lang="en", preset="meteor-1.5")
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.radio(key="corpus_source").set_value("demo").run()
    if any(b.key == "rp_build" for b in at.button):  # else built already (the shared cache)
        at.button(key="rp_build").click().run()
    if ui != "EN":
        at.button_group(key="ui").set_value(ui.lower()).run()
    assert not at.exception, [e.value for e in at.exception]
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    names = {tr.get("name") for s in specs for tr in s["data"]}
    axes = {s["layout"].get("xaxis", {}).get("title", {}).get("text") for s in specs}
    assert cluster in names and stages <= names and axis in axes, (names, axes)
