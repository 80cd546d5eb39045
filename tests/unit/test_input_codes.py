"""Input errors carry a machine-readable reason (``code`` + ``params``) for an interface in
another language: every code raised is registered (meteor.errors.INPUT_CODES) with the
params it is raised with, every code has an English and a Russian template in the app,
and a coded error pickles (worker processes) with its English message unchanged."""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path
from typing import Any

import pytest

from meteor.errors import INPUT_CODES, InputError, ParamError
from meteor.io.read import load_corpus
from meteor.presets import parse_preset_file

ROOT = Path(__file__).resolve().parents[2]


def _raised_codes() -> set[str]:
    """The codes given to InputError/ParamError, or to an InputWarning by notice(),
    anywhere in meteor/ (2nd argument)."""
    codes: set[str] = set()
    for path in (ROOT / "meteor").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in ("InputError", "ParamError", "notice"):
                continue
            for sub in ast.walk(node.args[1]):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    codes.add(sub.value)
    return codes


def test_every_code_raised_is_registered_and_every_registered_code_is_raised() -> None:
    raised = _raised_codes()
    assert raised == set(INPUT_CODES), raised ^ set(INPUT_CODES)


def test_every_code_has_an_english_and_a_russian_template(monkeypatch: Any) -> None:
    import pages._i18n
    from pages import _input_messages
    from pages._strings_inputs import TEMPLATES

    monkeypatch.setattr(pages._i18n, "ui", lambda: "ru")
    monkeypatch.setattr(_input_messages, "ui", lambda: "ru")
    for code, names in INPUT_CODES.items():
        assert TEMPLATES[code]["en"] and TEMPLATES[code]["ru"], code
        sample: dict[str, Any] = {}
        for n in names:
            if n.endswith("role"):
                sample[n] = "ref_file"
            elif n in ("utf16", "last_empty", "other_last_empty"):
                sample[n] = True
            elif n in ("codepoint",) or n.endswith(("file", "system", "name")):
                sample[n] = "x[1].txt"
            else:
                sample[n] = 123456
        exc = InputError("English text", code, **sample)
        ru = _input_messages.input_message(exc)
        assert "English text" not in ru and "{" not in ru, (code, ru)
        fields = {f for _, f, _, _ in string.Formatter().parse(TEMPLATES[code]["ru"]) if f}
        assert fields, code
        if any(isinstance(v, int) and not isinstance(v, bool) for v in sample.values()):
            assert "123\u202f456" in ru or "0x123456" in ru or "0x1e240" in ru, (code, ru)
        if any(v == "x[1].txt" for v in sample.values()):
            assert "x\\[1\\].txt" in ru, (code, ru)  # a user's name is escaped


def test_an_unknown_code_in_russian_keeps_the_english_detail_marked(monkeypatch: Any) -> None:
    import pages._i18n
    from pages import _input_messages

    monkeypatch.setattr(pages._i18n, "ui", lambda: "ru")
    monkeypatch.setattr(_input_messages, "ui", lambda: "ru")
    ru = _input_messages.input_message(InputError("a <b>bad</b> thing"))
    assert ru == "подробности (текст библиотеки, по-английски): a \\<b\\>bad\\</b\\> thing"


@pytest.mark.parametrize("cls", [InputError, ParamError])
def test_a_coded_error_pickles_with_its_code_params_and_message(cls: type[Any]) -> None:
    exc = cls("f.txt: line 2 is not valid UTF-8", "not_utf8", name="f.txt", line=2, byte=233)
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is cls and str(back) == str(exc) and back.args == exc.args
    assert back.code == "not_utf8" and back.params == {"name": "f.txt", "line": 2, "byte": 233}
    plain = pickle.loads(pickle.dumps(cls("plain")))
    assert str(plain) == "plain" and plain.code is None and plain.params == {}


def _error(hyp: list[tuple[str, bytes]], ref: list[tuple[str, bytes]], **kw: Any) -> InputError:
    with pytest.raises(InputError) as info:
        load_corpus(hyp, ref, **kw)
    return info.value


@pytest.mark.parametrize(
    ("hyp", "ref", "kw", "code", "params"),
    [
        ([("h.txt", b"caf\xe9\n")], [("r.txt", b"x\n")], {}, "not_utf8",
         {"name": "h.txt", "line": 1, "byte": 0xE9, "column": 4}),
        ([("h.txt", b"a\x00\n")], [("r.txt", b"x\n")], {}, "nul_byte",
         {"name": "h.txt", "line": 1, "utf16": False}),
        ([("h.txt", b"a\nb\n")], [("r.txt", b"a\nb\n\n")], {}, "count_mismatch",
         {"role": "ref_file", "file": "r.txt", "system": "", "count": 3, "last_empty": True,
          "other_role": "hyp_file", "other_file": "h.txt", "other_system": "h",
          "other_count": 2, "other_last_empty": False}),
        ([("h.txt", b"")], [("r.txt", b"")], {}, "no_segments",
         {"role": "hyp_file", "file": "h.txt", "system": "h"}),
        ([("h.txt", b"a\nb\nc\n")], [("r.txt", b"x\n")], {"limit": 2}, "too_many_segments",
         {"name": "h.txt", "count": 3, "limit": 2}),
        ([("h.tsv", b"system\thyp\tref\nA\ta\tx\nA\tb\ty\nB\tc\tz\n")], [], {},
         "system_count_mismatch",
         {"name": "h.tsv", "system": "B", "count": 1, "other_system": "A", "other_count": 2}),
    ],
)  # fmt: skip
def test_the_common_upload_problems_carry_their_code(
    hyp: Any, ref: Any, kw: Any, code: str, params: dict[str, Any]
) -> None:
    exc = _error(hyp, ref, **kw)
    assert exc.code == code and exc.params == params, (exc.code, exc.params)
    assert set(exc.params) == set(INPUT_CODES[code])


@pytest.mark.parametrize(
    ("data", "code", "params", "message"),
    [
        (b'{"a": \x80}', "preset_not_utf8", {"file": "p.json", "byte": 0x80, "position": 7},
         "preset file p.json: not UTF-8 text (byte 0x80 at position 7); save it as UTF-8"),
        (b'\xef\xbb\xbf{"a": ', "preset_not_json", {"file": "p.json", "line": 1, "column": 7},
         "preset file p.json: not a JSON preset file (Expecting value: line 1 column 7 "
         "(char 6))"),
    ],
)  # fmt: skip
def test_a_preset_file_that_is_not_utf8_or_json_carries_its_code(
    data: bytes, code: str, params: dict[str, Any], message: str
) -> None:
    with pytest.raises(ParamError) as info:
        parse_preset_file(data, "preset file p.json")
    exc = info.value
    assert str(exc) == message and "codec" not in str(exc)
    assert exc.code == code and exc.params == params
    assert set(exc.params) == set(INPUT_CODES[code])
