"""Reading human error annotations (meteor.io.spans): the three formats and their quirks."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest
from conftest import shared_path

from meteor.errors import InputError
from meteor.io.read import load_corpus
from meteor.io.spans import detect_span_format, hypotheses_of, read_spans

DATA = Path(__file__).parent.parent / "data" / "spans"
HYP = "Das ist ein kleiner Test."
HYPS = {("sysA", "1"): HYP, ("sysA", "2"): "Noch ein Satz hier."}
HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"


def mqm(*rows: str, head: str = HEAD) -> tuple[str, bytes]:
    return ("a.tsv", ("\n".join([head, *rows]) + "\n").encode())


def row(target: str, severity: str = "Major", rater: str = "r1", seg: str = "1",
        category: str = "Accuracy/Mistranslation", system: str = "sysA") -> str:  # fmt: skip
    return "\t".join([system, "d", "1", seg, rater, "src", target, category, severity, ""])


def test_mqm_marks_are_character_offsets_of_the_hypothesis() -> None:
    s = read_spans([mqm(row("Das ist <v>ein kleiner</v> Test."))], HYPS)
    (a,) = s.annotations
    (sp,) = a.spans
    assert HYP[sp.start : sp.end] == "ein kleiner"
    assert (sp.severity, sp.category, sp.rater) == ("Major", "Accuracy/Mistranslation", "r1")
    assert s.format == "mqm" and s.rows == 1 and not s.notices


def test_mqm_severities_in_any_case_no_error_neutral_omission_and_raters() -> None:
    s = read_spans(
        [
            mqm(
                row("Das ist <v>ein</v> kleiner Test.", "major", "r1"),
                row("<v>Das</v> ist ein kleiner Test.", "CRITICAL", "r2"),
                row("Das ist ein kleiner <v>Test</v>.", "minor", "r3"),
                row(HYP, "No-error", "r4", category="No-error"),
                row("Das <v>ist</v> ein kleiner Test.", "Neutral", "r1"),
                row(HYP, "Major", "r2", category="Accuracy/Omission"),
            )
        ],
        HYPS,
    )
    (a,) = s.annotations
    assert a.raters == ("r1", "r2", "r3", "r4")
    assert [x.severity for x in a.spans] == ["Critical", "Neutral", "Major", "Minor"]
    assert [x.rank for x in a.spans] == [3, 0, 2, 1]
    assert [(o.severity, o.category) for o in a.omissions] == [("Major", "Accuracy/Omission")]


def test_mqm_target_that_is_not_the_hypothesis_is_a_per_row_notice() -> None:
    s = read_spans(
        [mqm(row("Das ist <v>ein</v> grosser Test."), row("Das <v>ist</v> ein kleiner Test."))],
        HYPS,
    )
    assert s.skipped == 1 and len(s.annotations[0].spans) == 1
    (n,) = s.notices
    assert (n.file, n.line, n.reason, n.system, n.seg_id, n.at) == (
        "a.tsv",
        2,
        "not_hypothesis",
        "sysA",
        "1",
        13,
    )
    msg = str(n)
    assert "a.tsv: line 2: skipped" in msg and "character 13" in msg and "\n" not in msg


@pytest.mark.parametrize(
    ("target", "reason", "what"),
    [
        ("Das ist <v>ein kleiner Test.", "mark_unclosed", "never closed"),
        ("Das ist </v>ein kleiner Test.", "mark_unopened", "closes nothing"),
        ("Das <v>ist <v>ein</v></v> kleiner Test.", "mark_nested", "opens inside another"),
        ("Das ist <v></v>ein kleiner Test.", "mark_empty", "empty <v></v>"),
    ],
)
def test_mqm_marks_that_do_not_pair_skip_the_row_with_a_notice(
    target: str, reason: str, what: str
) -> None:
    s = read_spans([mqm(row(target), row("Das ist <v>ein</v> kleiner Test."))], HYPS)
    (n,) = s.notices
    assert (n.file, n.line, n.reason) == ("a.tsv", 2, reason)
    assert what in str(n) and "line 2" in str(n)


# each reason's English line, as the reader wrote it before the notices were records
# (the CLI's warnings and docs/spans.md quote these)
ENGLISH = {
    "mark_nested": "a.tsv: line 2: skipped: a <v> mark opens inside another; the marks must be "
    "<v>…</v> pairs",
    "mark_unopened": "a.tsv: line 3: skipped: a </v> mark closes nothing; the marks must be "
    "<v>…</v> pairs",
    "mark_unclosed": "a.tsv: line 4: skipped: a <v> mark is never closed (no </v>); the marks "
    "must be <v>…</v> pairs",
    "mark_empty": "a.tsv: line 5: skipped: an empty <v></v> mark (an omission is a row with no "
    "mark); the marks must be <v>…</v> pairs",
    "not_hypothesis": "a.tsv: line 6: skipped: the target without its <v> marks is not the "
    "hypothesis of system 'sysA' segment '1' (they differ from character 13)",
    "mt_not_hypothesis": "t.mt: line 2: skipped: not the hypothesis of system 'sysA' segment '2'",
}


def test_each_notice_is_todays_english_line() -> None:
    targets = ["Das <v>ist <v>ein</v></v> kleiner Test.", "Das ist </v>ein kleiner Test.",
               "Das ist <v>ein kleiner Test.", "Das ist <v></v>ein kleiner Test.",
               "Das ist <v>ein</v> grosser Test.", "Das ist <v>ein</v> kleiner Test."]  # fmt: skip
    s = read_spans([mqm(*map(row, targets))], HYPS)
    qe = read_spans(
        [("t.mt", f"{HYP}\nanders\n".encode()), ("t.tags", b"OK OK OK OK BAD\nOK\n")], HYPS
    )
    notices = [*s.notices, *qe.notices]
    assert {n.reason: str(n) for n in notices} == ENGLISH
    assert [n.reason for n in notices] == list(ENGLISH)
    assert s.notice_lines() == tuple(str(n) for n in s.notices) and s.unlisted == 0


def test_rows_past_the_twentieth_are_counted_in_one_line() -> None:
    bad = [row("Das ist ein <v>x</v>")] * 23
    s = read_spans([mqm(*bad, row(HYP))], HYPS)
    assert (s.skipped, len(s.notices), s.unlisted) == (23, 20, 3)
    assert [n.line for n in s.notices] == list(range(2, 22))
    lines = s.notice_lines()
    assert len(lines) == 21 and lines[-1] == "… and 3 more rows skipped"
    assert lines[0] == str(s.notices[0])


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([mqm(row(HYP), head=HEAD.replace("severity", "sev"))], "no column severity"),
        ([mqm(row("Das ist <v>ein</v> kleiner Test.", "Horrible"))], "unknown severity 'Horrible'"),
        ([mqm(row("Das ist <v>ein</v> kleiner Test.") + "\textra")], "line 2 has 11 tab-separated"),
        ([mqm(row("Das ist <v>ein</v> kleiner Test.", system="other"))], "none of the 1"),
        ([("a.tsv", b"system\tseg_id\n\xff\xfe")], "line 2 is not valid UTF-8"),
        ([mqm(row("Das ist ein <v>kleiner</v> Tst."))], "whose text is the hypothesis"),
    ],
)
def test_bad_mqm_files_give_one_line(files: list[tuple[str, bytes]], message: str) -> None:
    with pytest.raises(InputError) as exc:
        read_spans(files, HYPS)
    assert message in str(exc.value) and "\n" not in str(exc.value)


def spans_jsonl(*objs: dict[str, object]) -> tuple[str, bytes]:
    return ("p.jsonl", "\n".join(json.dumps(o) for o in objs).encode())


def test_jsonl_spans() -> None:
    s = read_spans(
        [
            spans_jsonl(
                {
                    "system": "sysA",
                    "seg_id": "1",
                    "start": 8,
                    "end": 11,
                    "severity": "minor",
                    "category": "Fluency/Grammar",
                },  # fmt: skip
                {
                    "system": "sysA",
                    "seg_id": 2,
                    "start": 0,
                    "end": 4,
                    "severity": "Major",
                    "category": "x",
                    "rater": "xcomet",
                },  # fmt: skip
                {"system": "other", "seg_id": "2", "start": 0, "end": 4, "severity": "Major"},
            )
        ],
        HYPS,
    )
    assert [(a.seg_id, [(x.start, x.end, x.severity) for x in a.spans]) for a in s.annotations] == [
        ("1", [(8, 11, "Minor")]),
        ("2", [(0, 4, "Major")]),
    ]
    assert s.unjoined == 1 and "1 rows name a segment" in s.summary()


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"start": 3, "end": 3}, "an empty span (start 3, end 3)"),
        ({"start": 3, "end": 99}, "end 99 is past the end of the hypothesis"),
        ({"start": -1, "end": 3}, "start must be a character offset"),
        ({"start": "3", "end": 4}, "start must be a character offset"),
        ({"severity": "fatal"}, "unknown severity 'fatal'"),
        ({"severity": None}, "unknown severity"),
    ],
)
def test_bad_jsonl_spans_give_one_line(obj: dict[str, object], message: str) -> None:
    base = {"system": "sysA", "seg_id": "1", "start": 0, "end": 3, "severity": "Major"}
    with pytest.raises(InputError) as exc:
        read_spans([spans_jsonl(base | obj)], HYPS)
    assert message in str(exc.value) and "p.jsonl: line 1" in str(exc.value)


def test_jsonl_missing_field() -> None:
    with pytest.raises(InputError, match="line 1 has no field end"):
        read_spans(
            [spans_jsonl({"system": "sysA", "seg_id": "1", "start": 0, "severity": "x"})], HYPS
        )


def test_qe_tags_with_and_without_gaps() -> None:
    mt = ("t.mt", (HYP + "\nNoch ein Satz hier.\n").encode())
    words = ("t.tags", b"OK OK BAD BAD OK\nOK OK OK BAD\n")
    gaps = ("t.tags", b"OK OK OK OK OK OK OK BAD OK BAD OK\nBAD OK OK OK OK OK OK OK OK\n")
    for files in ([mt, words], [words], [mt, gaps]):
        s = read_spans(files, HYPS)
        assert s.format == "qe"
        a1, a2 = s.annotations
        got = [HYP[x.start : x.end] for x in a1.spans]
        assert got == (["ein", "kleiner"] if files[-1] is words else ["kleiner", "Test."])
        if files[-1] is gaps:
            assert len(a2.omissions) == 1 and a2.spans == ()
        assert all(x.severity == "BAD" and x.rank == 1 for x in a1.spans)


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        (b"OK OK OK\nOK OK OK OK\n", "line 1: 3 tags for 5 words (expected 5, or 11 with gap"),
        (b"OK OK OK OK OK\nOK OK OK FINE\n", "unknown tag 'FINE'"),
        (b"OK OK OK OK OK\n", "has 1 lines but the segments table has 2"),
    ],
)
def test_bad_qe_tags(tags: bytes, message: str) -> None:
    with pytest.raises(InputError, match=re.escape(message)):
        read_spans([("t.tags", tags)], HYPS)


def test_qe_mt_line_that_is_not_the_hypothesis_is_a_notice() -> None:
    s = read_spans(
        [("t.mt", f"{HYP}\nanders\n".encode()), ("t.tags", b"OK OK OK OK BAD\nOK\n")], HYPS
    )
    assert s.skipped == 1 and "t.mt: line 2: skipped" in str(s.notices[0])


def test_format_detection() -> None:
    assert detect_span_format(["x.tsv"]) == "mqm"
    assert detect_span_format(["x.mt", "x.tags"]) == "qe"
    assert detect_span_format(["x.jsonl"]) == "jsonl"
    assert detect_span_format(["x.txt"], "jsonl") == "jsonl"
    with pytest.raises(InputError, match="cannot tell the annotation format"):
        detect_span_format(["x.txt"])
    with pytest.raises(InputError, match="unknown span format"):
        detect_span_format(["x.tsv"], "xml")


@pytest.mark.parametrize("lp", ["en-de", "zh-en"])
def test_golden_subset_reads_with_no_notice(lp: str) -> None:
    corpus = load_corpus([("segments.tsv", (DATA / f"{lp}.segments.tsv").read_bytes())])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = read_spans([("mqm.tsv", (DATA / f"{lp}.mqm.tsv").read_bytes())], corpus)
    assert len(s.annotations) == 40 and s.skipped == 0 and s.unjoined == 0
    for a in s.annotations:
        assert hypotheses_of(corpus)[a.system, a.seg_id] == a.hyp
        assert all(0 <= x.start < x.end <= len(a.hyp) for x in a.spans)


@pytest.mark.parametrize(
    ("lp", "name", "annotated", "unjoined"),
    [("en-de", "mqm_ted_ende.tsv", 6766, 690), ("zh-en", "mqm_ted_zhen.tsv", 3641, 5821)],
)
def test_shared_span_files(lp: str, name: str, annotated: int, unjoined: int) -> None:
    folder = shared_path(f"wmt21_ted_mqm_spans/{lp}")
    corpus = load_corpus([("segments.tsv", (folder / "segments.tsv").read_bytes())])
    s = read_spans([(name, (folder / name).read_bytes())], corpus)
    assert (len(s.annotations), s.unjoined) == (annotated, unjoined)
    # each published file holds one row whose <v> mark is never closed: skipped, said
    assert s.skipped == (1 if lp == "en-de" else 0)
    assert all(n.reason == "mark_unclosed" and "never closed" in str(n) for n in s.notices)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([("a.tsv", b"")], "a.tsv: the MQM file is empty"),
        ([("a.tsv", b"system\tseg\x00_id\n")], "a.tsv: line 1 contains a NUL"),
        ([("a.jsonl", b"")], "none of the 0 annotation rows"),
        ([("a.jsonl", b"[1, 2]\n")], "a.jsonl: line 1"),
        ([("a.tags", b"OK\n"), ("b.tags", b"OK\n")], "give one .tags file"),
        ([], "no annotation file given"),
    ],
)
def test_empty_binary_and_odd_files_give_one_line(
    files: list[tuple[str, bytes]], message: str
) -> None:
    with pytest.raises(InputError) as exc:
        read_spans(files, HYPS)
    assert message in str(exc.value) and "\n" not in str(exc.value)
