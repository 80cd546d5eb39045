"""Issue #7: every page of the app fed what students paste (AppTest).

Each page is walked with the catalogue's bad inputs (docs/robustness.md): pasted text
on Inspect, Compare and Learn; uploads on Corpus; odd URLs and extreme settings in the
sidebar.  The page must never show an exception element, and refused input must say
why (an info, warning or error element).
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from meteor.io.read import MAX_SEGMENTS

PAIR_PAGES = ["pages/inspect.py", "pages/compare.py", "pages/learn.py"]

#: name -> (hypothesis, references, a fragment of the message shown, or None when scored)
BAD_PAIRS: dict[str, tuple[str, str, str | None]] = {
    "empty": ("", "", "Enter a hypothesis"),
    "whitespace-only": ("  \t \u3000", " \n \n ", "Enter a hypothesis"),
    "empty-reference": ("a cat", "\n \n", "reference"),
    "one-megabyte-line": ("word " * 200_000, "word", "1,000,000 characters"),
    "ten-thousand-char-token": ("x" * 10_000, "x" * 10_000, None),
    "thousand-repetitions": ("the " * 1_000, "the " * 1_000, "candidate matches"),
    "5000-tokens-of-one-word": ("a " * 4_999, "a " * 4_999, "candidate matches"),
    "fifty-references": ("the cat", "\n".join(f"the cat {k}" for k in range(50)), "50 references"),
    "control-characters": ("a\x00b\x07c \x1b[31mred\x1b[0m \x7f\x85", "a b c red", None),
    "zero-width-and-bidi": ("a\u200bb \u202eevil\u202c \u2067x\u2069 \ufeffy", "ab evil x y", None),
    "emoji": ("I ❤️ 🍕 👨‍👩‍👧 👍🏽 🇫🇷", "I love 🍕", None),
    "mixed-scripts": ("Привет world 你好 مرحبا שלום", "hello мир 你好", None),
    "nfd-vs-nfc": (unicodedata.normalize("NFD", "café résumé"), "café résumé", None),
    "line-separators-nbsp": ("a\u2028b\u2029c\u00a0d\u0085e", "a b c d e", None),
    "script-and-img-markup": (
        "<script>window.__pwned=1</script>",
        '<img src=x onerror="window.__pwned=1">',
        None,
    ),
    "markdown-and-latex": (
        "[click](javascript:alert(1)) ![x](http://example.com/t.png) **b** $x^2$ <b>b</b>",
        "click b x",
        None,
    ),
    "run-of-dots": ("wait" + "." * 9_000, "wait ...", None),
    "run-of-quotes": ('"' * 5_000, "''", None),
}


def _messages(at: Any) -> str:
    return " | ".join(m.value for m in [*at.info, *at.warning, *at.error])


def _assert_clean(at: Any, what: str) -> None:
    assert not at.exception, (what, [e.value for e in at.exception])


@pytest.mark.parametrize("page", PAIR_PAGES)
def test_pair_pages_with_pasted_bad_text(app_test: Any, page: str) -> None:
    at = app_test()
    at.run()
    if page != "pages/inspect.py":
        at.switch_page(page).run()
    _assert_clean(at, "start")
    for name, (hyp, ref, expect) in BAD_PAIRS.items():
        at.text_area(key="hyp").set_value(hyp)
        at.text_area(key="ref").set_value(ref)
        at.run()
        _assert_clean(at, name)
        shown = _messages(at)
        if expect is None:
            assert at.metric, (name, shown)  # scored: the score card is there
        else:
            assert expect in shown.replace("\\", ""), (name, shown)


def test_learn_page_steps_with_bad_text(app_test: Any) -> None:
    """Every step of the walkthrough with markup, emoji and an empty reference."""
    at = app_test(hyp='<img src=x onerror="window.__pwned=1"> 😀 café', ref="<b>café</b> 😀")
    at.run()
    at.switch_page("pages/learn.py").run()
    stages = [f"stage:{m}" for m in ("exact", "stem", "synonym", "paraphrase")]  # meteor-1.5
    steps = ["tokens", *stages, "align", "chunks", "formula"]
    assert len(at.select_slider(key="learn_step").options) == len(steps)
    for step in steps:
        at.select_slider(key="learn_step").set_value(step).run()
        _assert_clean(at, step)


#: Query strings as a shared (or forged) link may carry them.
BAD_URLS: list[dict[str, str]] = [
    {"alpha": "abc"},
    {"alpha": "5"},
    {"beta": "nan"},
    {"gamma": "-1"},
    {"preset": "no-such-preset"},
    {"lang": "xx"},
    {"lang": "ru", "preset": "nltk"},
    {"modules": "telepathy"},
    {"modules": ""},
    {"beam": "0"},
    {"beam": "1e12"},
    {"aligner": "quantum"},
    {"stemmer": "none"},
    {"w_exact": "7"},
    {"ui": "zz"},
    {"step": "nope"},
    {"vs": "bogus"},
    {"hyp": "<script>window.__pwned=1</script>", "ref": "<b>x</b>"},
    {"hyp": "a" * 20_000},
]


@pytest.mark.parametrize("page", [None, *PAIR_PAGES[1:], "pages/corpus.py"])
def test_odd_urls_fall_back_or_explain(app_test: Any, page: str | None) -> None:
    for query in BAD_URLS if page is None else BAD_URLS[::3]:  # all on Inspect, some elsewhere
        at = app_test(**query)
        at.run()
        if page is not None:
            at.switch_page(page).run()
        _assert_clean(at, query)


def test_extreme_settings_in_the_sidebar(app_test: Any) -> None:
    at = app_test(hyp="the cat sat on the mat", ref="the cat was sitting on the mat")
    at.run()
    _assert_clean(at, "start")
    for key in ("alpha", "gamma", "delta", "w_exact", "w_stem", "w_synonym", "w_paraphrase"):
        for value in (0.0, 1.0):
            at.slider(key=key).set_value(value).run()
            _assert_clean(at, (key, value))
    for value in (0.0, 10.0):
        at.slider(key="beta").set_value(value).run()
        _assert_clean(at, ("beta", value))
    at.multiselect(key="modules").set_value([]).run()
    _assert_clean(at, "no modules")
    assert "at least one" in _messages(at)
    at.multiselect(key="modules").set_value(["paraphrase"]).run()
    _assert_clean(at, "paraphrase only")
    at.multiselect(key="modules").set_value(["exact", "stem", "synonym", "paraphrase"]).run()
    for aligner in ("greedy", "stagewise", "beam"):
        at.selectbox(key="aligner").set_value(aligner).run()
        _assert_clean(at, aligner)
    at.number_input(key="beam").set_value(10_000).run()
    _assert_clean(at, "beam 10000")
    at.text_area(key="hyp").set_value("the cat " * 30).run()
    at.text_area(key="ref").set_value("the dog " * 30).run()
    _assert_clean(at, "beam 10000, many candidates")
    assert "beam size" in _messages(at)


#: name -> (hypothesis files, reference files, message fragment or None when scored)
BAD_UPLOADS: dict[str, tuple[list[tuple[str, bytes]], list[tuple[str, bytes]], str | None]] = {
    "empty-files": ([("h.txt", b"")], [("r.txt", b"")], "no segments"),
    "only-newlines": ([("h.txt", b"\n\n\n")], [("r.txt", b"\n\n\n")], None),
    "crlf": ([("h.txt", b"a b\r\nc d\r\n")], [("r.txt", b"a b\nc d\n")], None),
    "latin-1": ([("h.txt", "café\n".encode("latin-1"))], [("r.txt", b"cafe\n")], "not valid UTF-8"),
    "utf-16": ([("h.txt", "hello\n".encode("utf-16"))], [("r.txt", b"hello\n")], "UTF-16"),
    "binary": ([("h.txt", bytes(range(256)) * 4)], [("r.txt", b"x\n")], "binary"),
    "invalid-utf8": ([("h.txt", b"ok\n\xff\xfe\xfd\n")], [("r.txt", b"a\nb\n")], "line 2"),
    "mismatched-counts": ([("h.txt", b"a\nb\nc\n")], [("r.txt", b"a\nb\n")], "has 2 segments"),
    "tsv-missing-column": ([("h.tsv", b"hyp\tref\na\tb\nc\n")], [], "line 3 has 1"),
    "tsv-extra-column": ([("h.tsv", b"hyp\tref\na\tb\tc\n")], [], "line 2 has 3"),
    "tsv-no-known-columns": ([("h.tsv", b"foo\tbar\na\tb\n")], [], "neither a hypothesis"),
    "jsonl-syntax": ([("h.jsonl", b'{"hyp": "a", "ref": "b"}\n{oops\n')], [], "not valid JSON"),
    "jsonl-deep-nesting": ([("h.jsonl", b"[" * 100_000 + b"\n")], [], "too deeply"),
    "jsonl-huge-integer": ([("h.jsonl", b'{"hyp": ' + b"1" * 5000 + b"}\n")], [], "JSON"),
    "jsonl-lone-surrogate": ([("h.jsonl", b'{"hyp": "a\\ud800", "ref": "x"}\n')], [], "surrogate"),
    "jsonl-null-text": ([("h.jsonl", b'{"hyp": null, "ref": "x"}\n')], [], "got null"),
    "empty-reference-list": ([("h.jsonl", b'{"hyp": "a", "refs": []}\n')], [], "no reference"),
    "no-references": ([("h.txt", b"a\n")], [], "no references"),
    "segment-of-1000-repeats": (
        [("h.txt", b"ok\n" + b"the " * 1_000 + b"\n")],
        [("r.txt", b"ok\n" + b"the " * 1_000 + b"\n")],
        "segment 2",
    ),
    "one-megabyte-segment": ([("h.txt", b"x " * 500_000 + b"\n")], [("r.txt", b"x\n")], "200,000"),
    "100001-segments": ([("h.txt", b"a\n" * (MAX_SEGMENTS + 1))], [("r.txt", b"a\n")], "100,000"),
    "markup-in-names-and-text": (
        [("<img src=x onerror=alert(1)>.txt", b"<script>window.__pwned=1</script>\n")],
        [("![x](http://example.com/t.png).txt", b"<b>x</b>\n")],
        None,
    ),
    "markdown-system-names": (
        [("h.tsv", b"system\thyp\tref\n[evil](javascript:alert(1))\ta\tb\n**x**\ta\tb\n")],
        [],
        None,
    ),
}


def test_corpus_page_with_bad_uploads(app_test: Any) -> None:
    at = app_test()
    at.run()
    at.switch_page("pages/corpus.py").run()
    _assert_clean(at, "start")
    for name, (hyps, refs, expect) in BAD_UPLOADS.items():
        at.file_uploader(key="corpus_hyp_files").set_value([(n, d, "text/plain") for n, d in hyps])
        at.file_uploader(key="corpus_ref_files").set_value([(n, d, "text/plain") for n, d in refs])
        at.run()
        _assert_clean(at, name)
        shown = _messages(at).replace("\\", "")
        if expect is None:
            assert at.metric, (name, shown)
        else:
            assert expect in shown, (name, shown)
    # names with markup reach labels escaped: Markdown shows them as text
    labels = [m.label for m in at.metric]
    assert any(label.startswith("\\[evil\\]\\(javascript:alert\\(1\\)\\)") for label in labels)


def test_inspect_long_pair_keeps_charts_small(app_test: Any) -> None:
    words = [f"w{k}" for k in range(700)]
    at = app_test()
    at.run()
    at.text_area(key="hyp").set_value(" ".join(words))
    at.text_area(key="ref").set_value(" ".join(reversed(words)))
    at.run()
    _assert_clean(at, "700 words")
    at.button_group(key="inspect_view").set_value("matrix").run()  # one view at a time
    _assert_clean(at, "700 words, matrix")
    charts = at.get("plotly_chart")
    sizes = [len(json.dumps(c.proto.spec)) for c in charts]
    assert sum(sizes) < 2_000_000, sizes  # 700 × 700 tokens: 21 MB of matrix before the fix
    matrix = next(
        json.loads(c.proto.spec)
        for c in charts
        if json.loads(c.proto.spec)["data"][0].get("meta", {}).get("role") == "matrix"
    )
    assert matrix["data"][0]["meta"]["compact"] is True  # drawn compact, and it says so
    assert "700 × 700 tokens: compact view" in matrix["layout"]["annotations"][0]["text"]
