"""Reading segment files: text, TSV, JSONL; several systems and references; clear errors."""

from __future__ import annotations

import json

import pytest

from meteor.io.read import (
    MAX_SEGMENTS,
    InputError,
    decode,
    demo_corpus,
    detect_format,
    load_corpus,
    read_table,
    split_lines,
)

# --- lines -------------------------------------------------------------------

SPLIT_CASES = [
    ("", []),
    ("\n", [""]),
    ("a", ["a"]),
    ("a\n", ["a"]),  # a final newline does not start another segment
    ("a\nb", ["a", "b"]),
    ("a\nb\n", ["a", "b"]),
    ("a\n\nb\n", ["a", "", "b"]),  # empty lines are empty segments
    ("a\n\n", ["a", ""]),
    ("a\r\nb\r\n", ["a", "b"]),  # Windows line ends
    ("a\rb\n", ["a", "b"]),  # a lone CR ends a line (classic Mac files; Java readLine)
    ("a\rb\rc\r", ["a", "b", "c"]),  # a CR-only file is not one segment
    ("a\r\rb", ["a", "", "b"]),
    ("\r", [""]),
    ("a\r\n\nb", ["a", "", "b"]),  # CR LF is one break, not two
    # nothing else breaks a line (str.splitlines would break at each of these)
    ("a\u2028b\nc", ["a\u2028b", "c"]),
    ("a\u2029b\x0bc\x0cd\x1ce\x1df\x1eg\x85h", ["a\u2029b\x0bc\x0cd\x1ce\x1df\x1eg\x85h"]),
]


@pytest.mark.parametrize(("text", "expected"), SPLIT_CASES)
def test_split_lines(text: str, expected: list[str]) -> None:
    assert split_lines(text) == expected


def test_split_lines_limit() -> None:
    assert len(split_lines("x\n" * 5, limit=5)) == 5
    with pytest.raises(InputError, match=r"6 segments; at most 5"):
        split_lines("x\n" * 6, "big.txt", limit=5)


def test_default_limit_is_100k() -> None:
    assert MAX_SEGMENTS == 100_000
    data = b"x\n" * (MAX_SEGMENTS + 1)
    with pytest.raises(InputError, match=r"big\.txt has 100,001 segments; at most 100,000"):
        read_table(data, "big.txt")


# --- decoding ----------------------------------------------------------------


def test_decode_utf8_and_bom() -> None:
    assert decode("кот\n".encode()) == "кот\n"
    assert decode(b"\xef\xbb\xbfhello") == "hello"
    assert decode("\ufeffhi") == "hi"


def test_undecodable_bytes_name_the_line() -> None:
    data = b"fine\nalso fine\nbad \xff byte\n"
    with pytest.raises(InputError) as exc:
        decode(data, "hyp.txt")
    msg = str(exc.value)
    assert "hyp.txt: line 3 is not valid UTF-8" in msg
    assert "0xff" in msg and "column 5" in msg


def test_latin1_file_is_rejected_with_line() -> None:
    data = "ok\ncafé\n".encode("latin-1")
    with pytest.raises(InputError, match=r"line 2 is not valid UTF-8"):
        decode(data, "x.txt")


def test_binary_file_is_rejected() -> None:
    with pytest.raises(
        InputError, match=r"x\.bin: line 2 contains a NUL byte; this looks like a binary"
    ):
        decode(b"text\n\x00\x01\x02", "x.bin")


def test_utf16_gets_a_hint() -> None:
    with pytest.raises(InputError, match="UTF-16"):
        decode("hello\n".encode("utf-16"), "u16.txt")


def test_decode_rejects_non_bytes() -> None:
    with pytest.raises(TypeError):
        decode(42, "x")  # type: ignore[arg-type]


# --- formats -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fmt", "expected"),
    [
        ("a.txt", None, "text"),
        ("a.TSV", None, "tsv"),
        ("a.jsonl", None, "jsonl"),
        ("a.csv", None, "csv"),
        ("a.out", None, "text"),
        ("<stdin>", None, "text"),
        ("a.txt", "tsv", "tsv"),
    ],
)
def test_detect_format(name: str, fmt: str | None, expected: str) -> None:
    assert detect_format(name, fmt) == expected


def test_detect_format_unknown() -> None:
    with pytest.raises(InputError, match="unknown format 'xlsx'"):
        detect_format("a.xlsx", "xlsx")


def test_plain_text_table() -> None:
    t = read_table(b"one\n\nthree\n", "sys1.txt")
    assert t.systems == (("sys1", ("one", "", "three")),)
    assert t.refs is None
    assert t.ids == ("1", "2", "3")
    r = read_table(b"a\nb\n", "ref.txt", role="ref")
    assert r.systems == () and r.refs == (("a",), ("b",))


def test_tsv_named_columns_several_refs() -> None:
    data = "seg_id\thyp\tref\tref2\tref_tok\nA\th1\tr1\tq1\tx\nB\th2\tr2\tq2\ty\n"
    t = read_table(data.encode(), "data.tsv")
    assert t.systems == (("data", ("h1", "h2")),)
    assert t.refs == (("r1", "q1"), ("r2", "q2"))  # ref_tok is not a reference
    assert t.ids == ("A", "B")


def test_tsv_long_form_systems() -> None:
    data = "system\thyp\tref\nX\tx1\tr1\nX\tx2\tr2\nY\ty1\tr1\nY\ty2\tr2\n"
    t = read_table(data.encode(), "two.tsv")
    assert t.systems == (("X", ("x1", "x2")), ("Y", ("y1", "y2")))
    assert t.refs == (("r1",), ("r2",))


def test_tsv_long_form_count_mismatch() -> None:
    data = "system\thyp\tref\nX\tx1\tr1\nX\tx2\tr2\nY\ty1\tr1\n"
    with pytest.raises(InputError, match=r"system 'Y' has 1 segments but system 'X' has 2"):
        read_table(data.encode(), "two.tsv")


def test_tsv_long_form_reference_mismatch() -> None:
    data = "system\thyp\tref\nX\tx1\tr1\nY\ty1\tOTHER\n"
    with pytest.raises(InputError, match="different reference for segment 1"):
        read_table(data.encode(), "two.tsv")


def test_tsv_errors() -> None:
    with pytest.raises(InputError, match=r"line 3 has 1 tab-separated fields but the header has 2"):
        read_table(b"hyp\tref\na\tb\nc\n", "x.tsv")
    with pytest.raises(InputError, match="neither a hypothesis column"):
        read_table(b"foo\tbar\na\tb\n", "x.tsv")
    with pytest.raises(InputError, match="TSV file is empty"):
        read_table(b"", "x.tsv")
    with pytest.raises(InputError, match="repeats column"):
        read_table(b"hyp\thyp\na\tb\n", "x.tsv")


def test_tsv_quotes_are_text() -> None:
    t = read_table(b'hyp\tref\n"quoted"\tsay "hi"\n', "q.tsv")
    assert t.systems[0][1] == ('"quoted"',)
    assert t.refs == (('say "hi"',),)


def test_jsonl_fields_refs_list_and_corpus_line() -> None:
    lines = [
        {"hyp": "h1", "ref": "r1"},
        {"hyp": "h2", "refs": ["r2", "q2"]},
        {"type": "corpus", "score": 0.5},
    ]
    data = "\n".join(json.dumps(x) for x in lines) + "\n"
    t = read_table(data.encode(), "s.jsonl")
    assert t.systems == (("s", ("h1", "h2")),)
    # `ref` and `refs` are both reference fields; each segment keeps what it has
    assert t.refs == (("r1",), ("r2", "q2"))


def test_jsonl_errors() -> None:
    with pytest.raises(InputError, match=r"line 2 is not valid JSON"):
        read_table(b'{"hyp": "a", "ref": "b"}\n{oops\n', "x.jsonl")
    with pytest.raises(InputError, match=r"line 1 is a JSON list"):
        read_table(b'["a"]\n', "x.jsonl")
    with pytest.raises(InputError, match=r"line 1: field 'hyp' must be a string, got null"):
        read_table(b'{"hyp": null, "ref": "b"}\n', "x.jsonl")
    with pytest.raises(InputError, match=r"line 2 is empty"):
        read_table(b'{"hyp": "a", "ref": "b"}\n\n{"hyp": "a", "ref": "b"}\n', "x.jsonl")


# --- corpus ------------------------------------------------------------------


def test_load_corpus_systems_and_refs() -> None:
    c = load_corpus(
        [("a.txt", b"x1\nx2\n"), ("b.txt", b"y1\ny2")],
        [("r1.txt", b"r1\nr2\n"), ("r2.txt", b"q1\nq2\n")],
    )
    assert c.system_names == ("a", "b")
    assert c.hyps("b") == ("y1", "y2") and c.hyps(0) == ("x1", "x2")
    assert c.refs == (("r1", "q1"), ("r2", "q2"))
    assert c.n_refs == 2 and c.n_segments == 2
    assert c.sources == ("a.txt", "b.txt", "r1.txt", "r2.txt")


def test_load_corpus_same_file_names_get_unique_systems() -> None:
    c = load_corpus([("hyp.txt", b"a\n"), ("hyp.txt", b"b\n")], [("ref.txt", b"r\n")])
    assert c.system_names == ("hyp", "hyp-2")


def test_mismatched_counts_name_both() -> None:
    with pytest.raises(InputError) as exc:
        load_corpus([("hyp.txt", b"a\nb\nc\n")], [("ref.txt", b"a\nb\n")])
    msg = str(exc.value)
    assert "reference file ref.txt has 2 segments" in msg
    assert "hypothesis file hyp.txt has 3" in msg


def test_empty_lines_are_segments_in_a_corpus() -> None:
    c = load_corpus([("h.txt", b"a\n\nc\n")], [("r.txt", b"a\nb\n\n")])
    assert c.hyps(0) == ("a", "", "c")
    assert c.refs == (("a",), ("b",), ("",))


def test_missing_hyps_or_refs() -> None:
    with pytest.raises(InputError, match="no references"):
        load_corpus([("h.txt", b"a\n")])
    with pytest.raises(InputError, match="no hypotheses"):
        load_corpus([], [("r.txt", b"a\n")])


def test_table_with_refs_needs_no_ref_file() -> None:
    c = load_corpus([("d.tsv", b"hyp\tref\nh\tr\n")])
    assert c.refs == (("r",),) and c.hyps(0) == ("h",)


def test_empty_refs_list_is_an_error() -> None:
    with pytest.raises(InputError, match="segment 1 has no reference"):
        load_corpus([("d.jsonl", b'{"hyp": "h", "refs": []}\n')])


def test_ted_long_form_file(shared_data) -> None:  # type: ignore[no-untyped-def]
    path = shared_data / "ted_sk-en" / "ted_sys1_sys2.tsv"
    c = load_corpus([(path.name, path.read_bytes())])
    assert c.system_names == ("sys1", "sys2")
    assert c.n_segments == 2445 and c.n_refs == 1  # ref_tok is not a reference
    assert c.ids[:2] == ("1", "2")


def test_demo_corpus() -> None:
    c = demo_corpus()
    assert c.system_names == ("system_a", "system_b")
    assert c.n_segments == 20 and c.n_refs == 1
