"""The C token records (``meteor_native._tokens``) equal the Python code's.

``meteor.text.records`` hands ``normalize.tokenize`` and the nltk tokens to
``meteor_native._tokens`` when it is installed: the offsets ``verbatim_tokens`` finds must be
``offsets.verbatim_spans``'s (``None`` where it has none) and every record must equal
``Token(...)``'s.  Without the extension these tests are skipped on a user's machine and
fail in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import native_part, read_jsonl_gz, wmt_en_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor.runtime import PURE_PYTHON_ENV
from meteor.text import java_chars, normalize, offsets, records
from meteor.text.tracked_line import java_lower
from meteor.types import Token

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

_PIECES = [
    "U.S.", "Mr.", "don't", "it’s", "‘a’", "say “hi”", "''", "`", "–", "—", "--", "-", "x-",
    "-y", "a - b", "non-profit", "1–2", "--x", "...", ".", ",", "1,000", " ", "  ", "\t",
    "\xa0", "\u2003", "\u3000", "İ", "Σ", "Ёж", "😀", "abc", "Abc", "a", "Z", "7",
]  # fmt: skip
_TEXTS = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=16).map("".join),
    st.text(alphabet="ab -–—‘’“”`'\".,İ\xa0\t", max_size=30),
    st.text(max_size=30),
)


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_tokens", "the token records")


def _python(text: str, words: list[str]) -> list[Token] | None:
    spans = offsets.verbatim_spans(text, words)
    if spans is None:
        return None
    return [Token(w, a, b, w.startswith("a")) for w, a, b in zip(words, *spans, strict=True)]


def _c(text: str, words: list[str]) -> list[Token] | None:
    low = java_lower(text)
    if len(low) != len(text):
        return None
    got = records.verbatim_tokens(low, words, lambda w: w.startswith("a"))
    return None if got is None else list(got)


def _check(text: str, words: list[str]) -> bool:
    want, got = _python(text, words), _c(text, words)
    assert got == want, (text, words)
    if got is not None:
        assert [(t.start, t.end) for t in got] == [(t.start, t.end) for t in want or []]
    return got is not None


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXTS, lang=st.sampled_from(["en", "fr", "de", "ru"]), no_punct=st.booleans())
def test_offsets_equal_the_python_code_for_normalised_tokens(
    native: Any, text: str, lang: str, no_punct: bool
) -> None:
    words = java_chars.WORD.findall(normalize.normalize_text(text, lang, no_punct=no_punct))
    _check(text, words)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=_TEXTS,
    line=st.one_of(_TEXTS, st.text(alphabet="ab \t\n\r\f\x0b\x1c\xa0\u2003", max_size=20)),
    lang=st.sampled_from(["en", "fr", "de", "ru"]),
)
def test_line_tokens_split_the_line_as_the_word_pattern(
    native: Any, text: str, line: str, lang: str
) -> None:
    """``line_tokens`` splits a normalised line as ``WORD.findall`` (only StringTokenizer's
    five delimiters; not ``\\x0b``, ``\\x1c`` or ``\\xa0``), interns each word and pairs
    them with the text as ``verbatim_tokens``."""
    low = java_lower(text)
    for cut in (line, normalize.normalize_text(text, lang)):
        words = java_chars.WORD.findall(cut)
        fw = lambda w: w.startswith("a")  # noqa: E731
        want = native.verbatim_tokens(low, words, fw)
        got = native.line_tokens(low, cut, fw)
        assert got == want, (text, cut)
        if got is not None:
            assert all(t.text is sys.intern(w) for t, w in zip(got, words, strict=True))
            assert [(t.start, t.end) for t in got] == [(t.start, t.end) for t in want]


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet="ab -–‘’\t", max_size=16),
    words=st.lists(st.text(alphabet="ab-'\"", min_size=1, max_size=4), max_size=6),
)
def test_offsets_equal_the_python_code_for_any_words(
    native: Any, text: str, words: list[str]
) -> None:
    """Words that are not the text's: every failure path of the pairing returns None."""
    _check(text, words)


@pytest.mark.parametrize(
    ("text", "words", "found"),
    [
        ("--a", ["-", "a"], False),  # either hyphen could be the dropped one
        ("a--", ["a", "-"], False),  # the last hyphen could be either
        ("a--", ["a-"], False),  # the hyphen left over could be either
        ("a-b", ["a", "b"], True),  # a hyphen turned into a space
        ("a b", ["ab"], False),  # a token across a space
        ("a b", ["a"], False),  # characters left over
        ("a", ["a", "b"], False),  # words left over
        ("a’s", ["a", "'s"], True),  # replaced one for one
    ],
)
def test_each_rule_of_the_pairing(native: Any, text: str, words: list[str], found: bool) -> None:
    assert _check(text, words) is found


def test_offsets_on_the_golden_segments(native: Any) -> None:
    n = found = 0
    for path in sorted(GOLDEN.glob("meteor15.*.jsonl.gz")):
        lang = path.name.split(".")[1].split("_")[0]
        for d in read_jsonl_gz(path):
            for text in [d["hyp"], *d["refs"]]:
                clean = normalize.sanitize(text)[0]
                words = java_chars.WORD.findall(normalize.normalize_text(clean, lang))
                found += _check(clean, words)
                n += 1
    assert n > 100 and found > 0.9 * n  # most texts need no second normaliser run


def test_worked_examples(native: Any) -> None:
    text = "A “non-profit” group’s plan – they said"
    toks = normalize.tokenize(text)
    assert [(t.text, text[t.start : t.end]) for t in toks] == [
        ("a", "A"), ('"', "“"), ("non", "non"), ("profit", "profit"), ('"', "”"),
        ("group", "group"), ("'s", "’s"), ("plan", "plan"), ("-", "–"), ("they", "they"),
        ("said", "said"),
    ]  # fmt: skip
    for text in ["a--b", "x - - y", "U.S. plans", "it''s"]:  # ambiguous, dropped dots, '' -> "
        words = java_chars.WORD.findall(normalize.normalize_text(text))
        _check(text, words)


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=40),
        st.lists(
            st.sampled_from(["a", "İ", "ΣΑΣ", "ß", " ", "\u2003", "\x1c", "\x85", "\t\n"])
        ).map("".join),
    ),
    lower=st.booleans(),
)
def test_whitespace_tokens_equal_the_python_loop(native: Any, text: str, lower: bool) -> None:
    from meteor.text.tokenize_nltk import tokens

    fw = {"a", "i̇"}.__contains__
    got = tokens(text, "whitespace", lower=lower, function_word=fw)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(records, "NATIVE_TOKENS", None)
        want = tokens(text, "whitespace", lower=lower, function_word=fw)
    assert got == want
    assert [(t.start, t.end) for t in got] == [(t.start, t.end) for t in want]
    assert [text[t.start : t.end] for t in got] == text.split()


def test_one_string_per_distinct_word(native: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus run keeps every segment's tokens: equal words are one string object,
    in C and in Python, for the Meteor normaliser and for the whitespace split."""
    from meteor.text.tokenize_nltk import tokens

    first, second = "The cat saw THE dog", "the end"
    for native_on in (True, False):
        if not native_on:
            monkeypatch.setattr(records, "NATIVE_TOKENS", None)
        for make in (
            lambda t: normalize.tokenize(t, "en", "meteor"),
            lambda t: tokens(t, "whitespace", lower=True),
        ):
            a, b = make(first), make(second)
            assert a[0].text == a[3].text == b[0].text == "the"
            assert a[0].text is a[3].text is b[0].text, (native_on, make)


def test_build_equals_token(native: Any) -> None:
    words, starts, ends = ["the", "cat", "a"], [0, 4, 8], [3, 7, 9]
    fw = {"the", "a"}.__contains__
    got = records.build(words, starts, ends, fw)
    assert got == records._python_build(words, starts, ends, fw)
    assert [t.function_word for t in got] == [True, False, True]
    assert records.build(words, starts, ends) == tuple(map(Token, words, starts, ends))
    assert type(got[0]) is Token and hash(got[0]) == hash(Token("the", 0, 3, True))
    with pytest.raises(AttributeError):
        got[0].text = "x"  # type: ignore[misc]  # still frozen


def test_errors_reach_the_caller(native: Any) -> None:
    def boom(word: str) -> bool:
        raise KeyError(word)

    with pytest.raises(KeyError):
        records.build(["a"], [0], [1], boom)
    with pytest.raises(KeyError):
        records.verbatim_tokens("a b", ["a", "b"], boom)
    with pytest.raises(KeyError):
        records.split_tokens("a b", True, boom)
    with pytest.raises(ValueError, match="differ in length"):
        native.build(["a", "b"], [0], [1, 2], None)
    with pytest.raises(TypeError, match="strings"):
        native.verbatim_tokens("a", [1], None)
    with pytest.raises(TypeError, match="Token class"):
        native.bind(3)
    with pytest.raises(TypeError, match="not a slot"):
        native.bind(type("NoSlots", (), {"text": 1, "start": 2, "end": 3, "function_word": 4}))
    assert native.build(["a"], [0], [1], None)[0] == Token("a", 0, 1)  # still bound to Token


def test_the_environment_switches_the_c_records_off(native: Any) -> None:
    code = "from meteor.text import records; print(records.NATIVE_TOKENS is None)"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(_TEXTS, max_size=4), kept=st.integers(1, 6))
def test_a_function_word_memo_gives_the_flags_of_its_function(
    native: Any, texts: list[str], kept: int
) -> None:
    """The C builders read a remembered flag from the memo itself and call it for a new
    word; the memo starts again when full: the flags are the function's every time."""

    def is_function(word: str) -> bool:
        return word[:1] in "a'i-"

    for mode in ("meteor", "lower", "none"):
        memo = records.FunctionWordMemo(is_function, kept)  # empty: still a function
        for text in texts:
            want = normalize.tokenize(text, "en", mode, function_word=is_function)
            got = normalize.tokenize(text, "en", mode, function_word=memo)
            assert got == want
            assert [t.function_word for t in got] == [is_function(t.text) for t in got]
            assert len(memo) <= kept
            with pytest.MonkeyPatch.context() as m:
                m.setattr(records, "NATIVE_TOKENS", None)
                assert normalize.tokenize(text, "en", mode, function_word=memo) == want


_DOTTED = [
    "U.S.", "e.g.", "p.m.", "a.b.", "1.2.", ".a.", "x.y", "Mr.", "No.", "...", "..", ".", "U.N.",
    "I.Q.", "Ü.S.", "\u212a.", "İ.", "(", ")", "-", "–", "'", "’", "“", ",", " ", "\xa0", "\t",
    "a", "Z", "7", "s",
]  # fmt: skip


def _tracked(text: str, no_punct: bool) -> list[tuple[str, int, int]]:
    """The offsets of the normaliser run with provenance (what tokenize falls back to)."""
    return normalize._tracked_tokens(text, "en", no_punct)


def _dotted_check(text: str, no_punct: bool = False) -> bool:
    """line_tokens given the text: the tracked offsets, or None; True when it found them."""
    low = java_lower(text)
    if len(low) != len(text):
        return False
    line = normalize.normalize_text(text, "en", no_punct=no_punct)
    got = records.line_tokens(low, line, None, None if no_punct else text)
    if got is not None:
        assert [(t.text, t.start, t.end) for t in got] == _tracked(text, no_punct), text
    return got is not None


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(
        st.lists(st.sampled_from(_DOTTED), max_size=12).map("".join),
        st.text(alphabet="..aZ7 -'’(\xa0", max_size=20),
    ),
    no_punct=st.booleans(),
)
def test_dropped_dots_have_the_offsets_of_the_tracked_normaliser(
    native: Any, text: str, no_punct: bool
) -> None:
    """A word whose dots step 8 dropped (U.S. -> us): each dot joins the span of the letter
    or digit before it, as the normaliser's provenance has it; where that cannot be told
    (a dot that led its word, or came after a space or a bracket) the tracked run is left
    to Python."""
    _dotted_check(text, no_punct)


def test_dropped_dots_on_every_line_of_the_shared_wmt_data(native: Any) -> None:
    """Every WMT and TED line the C offsets accept equals the tracked normaliser, and the
    dotted words (U.S., p.m., I.Q.) no longer leave their lines to it."""
    n = found = dotted = 0
    for text in wmt_en_texts():
        line = normalize.jar_line(text)
        ok = _dotted_check(line)
        n += 1
        found += ok
        without = records.line_tokens(java_lower(line), normalize.normalize_text(line), None)
        dotted += ok and without is None  # the dots made it: before, Python's
    assert found > 0.995 * n and dotted > 200


def test_dropped_dot_worked_examples(native: Any) -> None:
    spans = {
        "The U.S. army": [("the", 0, 3), ("us", 4, 8), ("army", 9, 13)],
        "at 5 p.m.": [("at", 0, 2), ("5", 3, 4), ("pm", 5, 9)],
        "(U.S.)": [("(", 0, 1), ("us", 1, 5), (")", 5, 6)],
        "U.S.-born": [("us", 0, 4), ("born", 5, 9)],
    }
    for text, want in spans.items():
        got = normalize.tokenize(text)
        assert [(t.text, t.start, t.end) for t in got] == want == _tracked(text, False)
    # a dot that led its word: left to the tracked run
    assert records.line_tokens(".a.", normalize.normalize_text(".a."), None, ".a.") is None
    with pytest.raises(ValueError, match="as long as"):
        records.line_tokens("ab", "ab", None, "a")


def test_an_older_build_of_a_part_is_not_used(native: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A part older than the Python code asks (its API constant) runs the Python code instead
    of failing on a changed function (a stale ``pip install ./native``)."""
    from meteor import runtime

    monkeypatch.setattr(runtime, "use_native", lambda: True)  # under METEOR_PURE_PYTHON too
    assert native.API == runtime.PART_API["_tokens"] == 2
    assert runtime.compiled("_tokens") is native
    monkeypatch.setitem(runtime.PART_API, "_tokens", 3)
    with pytest.warns(
        RuntimeWarning, match=r"meteor_native\._tokens .*API 2.*needs 3.*pip install"
    ):
        assert runtime.compiled("_tokens") is None
    assert runtime.compiled("_normalize") is not None
