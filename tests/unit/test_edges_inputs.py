"""Issue 31 ("Trust at the edges, round 3"), the input readers: items 4, 10, 11 and 16.

Nothing in an input is dropped or misread without a word: JSONL rows keep whatever
``type`` they carry (only the Meteor 1.5 harness's summary line is skipped, with a
warning); csv-quoted TSV (pandas) and CSV files are read as such; a system name that
would forge rows in a table is refused; repeated JSON keys, bad environment variables
and a trailing blank line are named.
"""

from __future__ import annotations

import csv
import io
import json
import warnings
from pathlib import Path

import pytest

from meteor import Meteor
from meteor.cli.command_line import main
from meteor.errors import ParamError
from meteor.io.read import InputError, InputWarning, load_corpus, read_table
from meteor.runtime import PURE_PYTHON_ENV, check_environment, pure_python

PRESET = "meteor-1.5-paper2005"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(rows: list[dict[str, object]]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def scores(csv_text: str) -> list[float]:
    return [float(r["score"]) for r in csv.DictReader(io.StringIO(csv_text))]


# --------------------------------------------------------------------------- item 4


def test_jsonl_rows_with_a_type_field_are_segments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A domain label called ``type`` is data: 4 rows are 4 segments."""
    rows: list[dict[str, object]] = [
        {"hyp": "a cat", "ref": "a cat", "type": "news"},
        {"hyp": "a dog", "ref": "a dog", "type": "review"},
        {"hyp": "a cow", "ref": "a cow", "type": "segment"},
        {"hyp": "a pig", "ref": "a pig"},
    ]
    path = tmp_path / "four.jsonl"
    path.write_bytes(jsonl(rows))
    code, out, err = run(capsys, "--hyp", str(path), "--preset", PRESET)
    assert code == 0, err
    assert "segments 4\n" in out, out
    assert err == ""


def test_only_the_harness_corpus_line_is_skipped_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows: list[dict[str, object]] = [
        {"type": "segment", "id": 0, "hyp": "a cat", "refs": ["a cat"], "score": 1.0},
        {"type": "corpus", "id": 1, "hyp": "a dog", "ref": "a dog"},  # has a hyp: data
        {"type": "corpus", "n_segments": 2, "score": 1.0},  # meteor15.py's summary line
    ]
    with pytest.warns(InputWarning, match=r"h\.jsonl: skipped line 3: a \{\"type\": \"corpus\"\}"):
        table = read_table(jsonl(rows), "h.jsonl")
    assert table.systems[0][1] == ("a cat", "a dog")
    path = tmp_path / "h.jsonl"
    path.write_bytes(jsonl(rows))
    code, out, err = run(capsys, "--hyp", str(path), "--preset", PRESET)
    assert code == 0, err
    assert "segments 2\n" in out
    assert err.startswith("meteor: warning: ") and "skipped line 3" in err and err.count("\n") == 1


# --------------------------------------------------------------------------- item 10

QUOTED = 'He said "hi" to me'


def test_pandas_quoted_tsv_is_read_as_its_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``df.to_csv(sep="\\t")`` quotes fields with quotes, tabs and line breaks (RFC 4180)."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")  # what pandas' to_csv calls
    w.writerow(["", "hyp", "ref"])  # pandas' index column, unnamed
    w.writerow(["0", QUOTED, QUOTED])
    w.writerow(["1", "a\tb", "a b"])
    w.writerow(["2", "x", '"Stop."'])
    text = buf.getvalue()
    assert '"He said ""hi"" to me"' in text  # the quoting this item is about
    table = read_table(text.encode(), "p.tsv")
    assert table.systems[0][1] == (QUOTED, "a\tb", "x")
    assert table.refs == ((QUOTED,), ("a b",), ('"Stop."',))
    path = tmp_path / "p.tsv"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "--hyp", str(path), "--preset", PRESET, "--format", "csv")
    assert code == 0, err
    assert scores(out)[0] == 1.0  # read literally it scored 0.468 (the jar too)


def test_unquoted_tsv_fields_that_start_with_a_quote_stay_text() -> None:
    """A field only csv writes (quotes around, inner quotes doubled) switches quoting on;
    a quote at the start of an unquoted field, or a quoted sentence, is text."""
    table = read_table(b'hyp\tref\n"Hi," he said\t"Stop."\n"a"\tb "c"\n', "u.tsv")
    assert table.systems[0][1] == ('"Hi," he said', '"a"')
    assert table.refs == (('"Stop."',), ('b "c"',))


def test_half_quoted_tsv_is_read_as_written_with_a_warning() -> None:
    """compare-mt's TED file has such a field (``"Povedal: ""Tak je to tu. …"``) among
    fields that do not read as csv: it is text, as written, and the reader says so."""
    data = b'hyp\tref\n"a ""b"" c"\tx\n"Hi," he said\ty\n'
    with pytest.warns(InputWarning, match=r"q\.tsv: line 2 has a field in csv quotes.*line 3"):
        table = read_table(data, "q.tsv")
    assert table.systems[0][1] == ('"a ""b"" c"', '"Hi," he said')


def test_csv_input_is_read_as_csv(tmp_path: Path) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    w.writerow(["hyp", "ref", "seg_id"])
    w.writerow([QUOTED, "a, b", "7"])
    table = read_table(buf.getvalue().encode(), "s.csv")
    assert table.systems == (("s", (QUOTED,)),)
    assert table.refs == (("a, b",),) and table.ids == ("7",)
    with pytest.raises(InputError, match=r"x\.csv: line 2 has 3 fields but the header has 2"):
        read_table(b"hyp,ref\na,b,c\n", "x.csv")


# --------------------------------------------------------------------------- item 11


@pytest.mark.parametrize("system", ["A\tB", "A\nB", "A\rB", "A\u2028B", "A\x1bB"])
def test_system_names_that_would_forge_rows_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], system: str
) -> None:
    rows: list[dict[str, object]] = [
        {"hyp": "a cat", "ref": "a cat", "system": "ok"},
        {"hyp": "a cat", "ref": "a cat", "system": system},
    ]
    path = tmp_path / "s.jsonl"
    path.write_bytes(jsonl(rows))
    code, out, err = run(capsys, "--hyp", str(path), "--preset", PRESET, "--format", "tsv")
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("meteor: error: s.jsonl: line 2: the system name ")


# --------------------------------------------------------------------------- item 16


def test_a_repeated_jsonl_key_is_refused_naming_line_and_key() -> None:
    data = b'{"hyp": "a", "ref": "a"}\n{"hyp": "b", "ref": "c", "hyp": "d"}\n'
    with pytest.raises(InputError, match=r"d\.jsonl: line 2 gives the key 'hyp' more than once"):
        read_table(data, "d.jsonl")


def test_no_input_warning_on_plain_files() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_corpus([("h.jsonl", jsonl([{"hyp": "a", "ref": "a"}]))])


# --------------------------------------------------------------------------- item 16: environment


def test_a_bad_candidate_limit_is_one_message_before_any_input_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked once, when the scorer is built: the CLI reads no file (this one is absent)."""
    monkeypatch.setenv("METEOR_MAX_CANDIDATES", "abc")
    missing = str(tmp_path / "absent.txt")
    code, out, err = run(capsys, "--hyp", missing, "--ref", missing, "--preset", PRESET)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "segment" not in err
    assert err.startswith("meteor: error: the environment variable METEOR_MAX_CANDIDATES must be")
    with pytest.raises(ParamError, match=r"METEOR_MAX_CANDIDATES .* got 'abc'"):
        Meteor(PRESET)


@pytest.mark.parametrize(
    ("value", "on"),
    [("1", True), ("true", True), ("Yes", True), ("ON", True)]
    + [("0", False), ("false", False), ("No", False), ("off", False), ("", False)],
)
def test_pure_python_reads_yes_and_no(
    monkeypatch: pytest.MonkeyPatch, value: str, on: bool
) -> None:
    monkeypatch.setenv(PURE_PYTHON_ENV, value)
    assert pure_python() is on
    check_environment()


def test_an_unreadable_pure_python_value_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(PURE_PYTHON_ENV, "maybe")
    with pytest.raises(ParamError, match=r"METEOR_PURE_PYTHON must be 1/true/yes/on .* 'maybe'"):
        Meteor(PRESET)
    code, out, err = run(capsys, "--hyp", "absent.txt", "--ref", "absent.txt", "--preset", PRESET)
    assert code == 2 and err.startswith("meteor: error: the environment variable METEOR_PURE")


# --------------------------------------------------------------------------- item 16: blank line


def test_a_count_mismatch_says_that_the_last_line_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refs = [f"segment {k}" for k in range(600)]
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("\n".join(refs) + "\n\n", encoding="utf-8")  # one blank line at the end
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "--hyp", str(hyp), "--ref", str(ref), "--preset", PRESET)
    assert (code, out) == (2, "")
    assert err.endswith(
        " has 600 segments but hypothesis file hyp.txt has 601 (the last one is empty)\n"
    )
    with pytest.raises(InputError, match=r"r\.txt has 3 segments \(the last one is empty\) but"):
        load_corpus([("h.txt", "a\nb\n")], [("r.txt", "a\nb\n\n")])
    with pytest.raises(InputError, match=r"has 3 segments but .* has 2$"):  # not empty: no note
        load_corpus([("h.txt", "a\nb\n")], [("r.txt", "a\nb\nc\n")])
