"""The library's input errors in the interface's language (AppTest): a file that cannot
be read, on Corpus and in the sidebar's preset-file upload, is explained in Russian under
``?ui=RU`` (no English words of the library's message) and in the library's own English
words under ``?ui=EN``."""

from __future__ import annotations

import re
from typing import Any

import pytest

LATIN1 = ("latin1.txt", "café au lait\nthe cat\n".encode("latin-1"), "text/plain")
REF2 = ("ref2.txt", b"cafe au lait\nthe cat\n", "text/plain")
HYP2 = ("hyp2.txt", b"a b\nc d\n", "text/plain")
REF3 = ("ref3.txt", b"a b\nc d\ne f\n", "text/plain")


def _corpus_errors(app_test: Any, ui: str, hyp: tuple[str, bytes, str], ref: Any) -> str:
    at = app_test(ui=ui)
    at.run()
    at.switch_page("pages/corpus.py").run()
    at.file_uploader(key="corpus_hyp_files").set_value([hyp])
    at.file_uploader(key="corpus_ref_files").set_value([ref]).run()
    assert not at.exception, [e.value for e in at.exception]
    errors = [e.value.replace("\\", "") for e in at.error]
    assert len(errors) == 1, errors
    assert "\n" not in errors[0]
    return errors[0]


def _english_words(text: str, words: tuple[str, ...]) -> list[str]:
    return [w for w in words if re.search(rf"\b{w}\b", text, re.IGNORECASE)]


def test_russian_corpus_page_explains_a_file_that_is_not_utf8_in_russian(app_test: Any) -> None:
    err = _corpus_errors(app_test, "RU", LATIN1, REF2)
    assert err.startswith("Файлы не читаются: latin1.txt:"), err
    assert "UTF-8" in err and "0xe9" in err and "строка 1" in err and "позиции 4" in err, err
    english = ("valid", "line", "byte", "column", "save", "file", "not")
    assert not _english_words(err, english), err


def test_russian_corpus_page_explains_counts_that_differ_in_russian(app_test: Any) -> None:
    err = _corpus_errors(app_test, "RU", HYP2, REF3)
    assert "ref3.txt" in err and "hyp2.txt" in err, err
    assert "сегментов 3" in err and "— 2" in err, err
    english = ("segments", "but", "has", "reference", "hypothesis", "file")
    assert not _english_words(err, english), err


@pytest.mark.parametrize(
    ("hyp", "ref", "message"),
    [
        (
            LATIN1,
            REF2,
            "latin1.txt: line 1 is not valid UTF-8 (byte 0xe9 at column 4); save the file as UTF-8",
        ),
        (HYP2, REF3, "reference file ref3.txt has 3 segments but hypothesis file hyp2.txt has 2"),
    ],
)
def test_english_corpus_page_shows_the_librarys_message(
    app_test: Any, hyp: Any, ref: Any, message: str
) -> None:
    err = _corpus_errors(app_test, "EN", hyp, ref)
    assert err == f"Cannot read the files: {message}", err


def _preset_error(app_test: Any, ui: str, data: bytes) -> str:
    at = app_test(ui=ui)
    at.run()
    at.sidebar.file_uploader(key="preset_file_upload").set_value(
        [("bad.json", data, "application/json")]
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (err,) = at.error
    assert "\n" not in err.value
    return err.value.replace("\\", "")


def test_russian_preset_file_not_utf8_is_explained_in_russian(app_test: Any) -> None:
    err = _preset_error(app_test, "RU", b'{"format": "\x80"}')
    assert err.startswith("Не удалось прочитать файл пресета: bad.json:"), err
    assert "0x80" in err and "позиции 13" in err and "UTF-8" in err, err
    assert "codec" not in err and "preset file" not in err, err
    assert not _english_words(err, ("not", "text", "byte", "position", "save")), err


def test_english_preset_file_not_utf8_names_the_byte_without_codec_text(app_test: Any) -> None:
    err = _preset_error(app_test, "EN", b'{"format": "\x80"}')
    assert err == (
        "Cannot use the preset file: preset file bad.json: not UTF-8 text (byte 0x80 at "
        "position 13); save it as UTF-8"
    ), err


def test_russian_preset_file_error_without_a_code_says_the_detail_is_english(
    app_test: Any,
) -> None:
    """A problem without a Russian template keeps the Russian lead and marks the English."""
    err = _preset_error(app_test, "RU", b'{"format": "other"}')
    assert err.startswith("Не удалось прочитать файл пресета: подробности (текст библиотеки, ")
    assert "field 'format'" in err, err
