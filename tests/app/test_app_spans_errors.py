"""A span file that cannot be read at all, and a link's bad spans, in the interface language
(AppTest): the readers' errors carry a code and its params (meteor.errors.INPUT_CODES), so
the Corpus, Agreement and Inspect pages word them in Russian under ``?ui=RU``; English (and
the command line) keep the library's line."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from _latin import latin_words_in
from _spans_app import SEGMENTS, agreement_page, corpus_page, upload_spans

from meteor.errors import INPUT_CODES, InputError
from meteor.io.read import load_corpus
from meteor.io.spans import annotation_from_strings, read_spans

HEAD = "system\tseg_id\trater\ttarget\tcategory\tseverity"
HYP1 = "the cat sat on a mat today"


def _jsonl(**obj: object) -> bytes:
    base: dict[str, object] = {"system": "A", "seg_id": "1", "start": 0, "end": 3}
    return json.dumps({**base, "severity": "Major", **obj}).encode()


# (files, code): one per code the span readers raise
CASES = [
    ([("m.tsv", f"{HEAD}\nA\t1\tr1\t{HYP1}\tx\tHorrible".encode())], "span_severity"),
    ([("m.txt", b"x")], "span_format"),
    ([("m.tsv", f"{HEAD}\nB\t1\tr1\t{HYP1}\tx\tMinor".encode())], "span_unjoined"),
    ([("m.tsv", b"")], "span_mqm_empty"),
    ([("m.tsv", b"system\tseg_id\nA\t1\n")], "span_mqm_columns"),
    ([("m.jsonl", b'{"system": "A", "seg_id": "1"}')], "span_jsonl_fields"),
    ([("m.jsonl", _jsonl(start=-1))], "span_offset"),
    ([("m.jsonl", _jsonl(start=3, end=3))], "span_empty"),
    ([("m.jsonl", _jsonl(end=99))], "span_past_end"),
    ([("a.tags", b"OK\n"), ("b.tags", b"OK\n")], "span_qe_files"),
    ([("m.tags", b"OK\nOK\nOK\n"), ("m.mt", b"x\n")], "span_mt_lines"),
    ([("m.tags", b"OK\n")], "span_tags_lines"),
    ([("m.tags", b"OK OK OK OK OK OK FINE\nOK\nOK\n")], "span_qe_tag"),
    ([("m.tags", b"OK\nOK\nOK\n")], "span_tag_count"),
]
LINK_CASES = [
    ("1,2,Minor", "span_value"),
    ("0,3,Fatal,r1,x", "span_value_severity"),
    ("a,3,Minor,r1,x", "span_value_offsets"),
    ("0,99,Minor,r1,x", "span_value_range"),
]
_CODE = re.compile(r"`[^`]*`")


def _error(files: list[tuple[str, bytes]]) -> InputError:
    with pytest.raises(InputError) as info:
        read_spans(files, load_corpus([("segments.tsv", SEGMENTS)]))
    return info.value


def _to_ui(at: Any, ui: str) -> Any:
    """``at`` switched to ``ui`` by the sidebar's switch (AppTest cannot set the Corpus
    page's formatted sort order on a Russian page: the choices are made in English)."""
    if ui != "EN":
        at.button_group(key="ui").set_value(ui.lower()).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _russian_only(text: str, data: set[str]) -> None:
    """No Latin word in a Russian message but the data, codes (code spans) and names."""
    found = latin_words_in([_CODE.sub(" ", text.replace("\\", ""))], data=data)
    assert not found, (found, text)


@pytest.mark.parametrize(("files", "code"), CASES, ids=[c for _, c in CASES])
def test_each_span_file_error_carries_its_code_and_reads_in_russian(
    files: list[tuple[str, bytes]], code: str, monkeypatch: Any
) -> None:
    import pages._i18n
    from pages import _input_messages

    exc = _error(files)
    assert exc.code == code and set(exc.params) == set(INPUT_CODES[code]), (exc.code, exc)
    monkeypatch.setattr(pages._i18n, "ui", lambda: "ru")
    monkeypatch.setattr(_input_messages, "ui", lambda: "ru")
    ru = _input_messages.input_message(exc)
    assert "библиотеки" not in ru, ru  # not the fallback (English text, said to be so)
    _russian_only(ru, {"m", "A", "B", "a", "b", "tags", "mt", "Horrible", "FINE", "system"})


@pytest.mark.parametrize(("value", "code"), LINK_CASES, ids=[c for _, c in LINK_CASES])
def test_each_link_span_error_carries_its_code(value: str, code: str) -> None:
    with pytest.raises(InputError) as info:
        annotation_from_strings(HYP1, [value])
    assert info.value.code == code and set(info.value.params) == set(INPUT_CODES[code])


@pytest.mark.parametrize(
    ("ui", "shown"),
    [
        ("EN", "The annotations could not be read: m.tsv: line 2: unknown severity 'Horrible'"),
        ("RU", "Разметку не удалось прочитать: m.tsv: строка 2: неизвестная серьёзность "
         "«Horrible»; допустимы `No-error`"),
    ],
)  # fmt: skip
def test_corpus_page_words_an_unreadable_span_file(app_test: Any, ui: str, shown: str) -> None:
    at = upload_spans(corpus_page(app_test), CASES[0][0])
    at = _to_ui(at, ui)
    (error,) = [e.value.replace("\\", "") for e in at.error]
    assert error.startswith(shown), error
    if ui == "RU":
        _russian_only(error, {"m", "Horrible"})


def test_agreement_page_words_an_unreadable_span_file_in_russian(app_test: Any) -> None:
    at = agreement_page(app_test)
    at.file_uploader(key="agr_spans").set_value([("m.tags", b"OK\n", "text/plain")]).run()
    at = _to_ui(at, "RU")
    errors = [e.value.replace("\\", "") for e in at.error if "Разметку" in e.value]
    assert errors == [
        "Разметку не удалось прочитать: в m.tags строк 1, а гипотез в таблице сегментов — 3; "
        "метки QE идут парами с гипотезами строка к строке"
    ], [e.value for e in at.error]


@pytest.mark.parametrize(
    ("ui", "shown"),
    [
        ("EN", "The link's human error spans were not used: span 1: [0, 99) is empty or past "
         "the end of the hypothesis (26 characters)"),
        ("RU", "Ошибки из ссылки не показаны: фрагмент 1: [0, 99) пуст или выходит за конец "
         "гипотезы (символов: 26)"),
    ],
)  # fmt: skip
def test_inspect_words_a_links_bad_spans(app_test: Any, ui: str, shown: str) -> None:
    at = app_test(ui=ui, preset="meteor-1.5", lang="en", hyp=HYP1, ref="the cat sat",
                  spans=["0,99,Minor,r1,x"])  # fmt: skip
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert shown in [w.value.replace("\\", "") for w in at.warning]
