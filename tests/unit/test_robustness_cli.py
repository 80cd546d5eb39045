"""Issue #7: ``python -m meteor score`` under bad and extreme input (docs/robustness.md).

Every bad input ends with exit status 2 and exactly one line ``meteor: error: …`` on
stderr that names the file, the line or the option and what to do; never a traceback,
never partial output on stdout.  Inputs that are odd but valid are scored.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from meteor import batch
from meteor.cli import files as cli_files
from meteor.cli.command_line import main
from meteor.io.read import MAX_BYTES, MAX_SEGMENTS

PRESET = "meteor-1.5"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def fail(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run and expect a user error: status 2, nothing on stdout, one line on stderr."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("meteor: error: "), err
    assert "Traceback" not in err
    return err[len("meteor: error: ") :].strip()


def ok(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    return report


def score_of(report: dict[str, Any]) -> float:
    (system,) = report["systems"]
    return float(system["score"])


@pytest.fixture
def ref(tmp_path: Path) -> str:
    p = tmp_path / "ref.txt"
    p.write_text("the cat sat on the mat\na quick brown fox\n", encoding="utf-8")
    return str(p)


def file_with(tmp_path: Path, name: str, data: bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


# -- options ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["-p", "meteor-2"], "unknown preset 'meteor-2'"),
        (["--alpha", "abc"], "argument --alpha: invalid float value: 'abc'"),
        (["--alpha", "2"], r"alpha must be in [0.0, 1.0], got 2.0"),
        (["--beta", "nan"], "beta must be in"),
        (["--gamma=-inf"], "gamma must be in"),
        (["--delta", "1e400"], "argument --delta: got '1e400', a number too large to use"),
        (["--modules", "exact telepathy"], "unknown module 'telepathy'"),
        (["--weights", "exact=heavy"], "weight of exact must be a number, got 'heavy'"),
        (["--weights", "1 2 3 4 5"], "5 positional weight(s) for 4 module(s)"),
        (["--weights", "exact=7"], "must be in [0.0, 1.0]"),
        (["--aligner", "quantum"], "argument --aligner: invalid choice: 'quantum'"),
        (["--lang", "zz"], "no default preset for language 'zz'"),  # 'xx' is Meteor's 'other'
        (["-p", "meteor-1.5-ru", "--lang", "en"], "is for language 'ru', not 'en'"),
        (["--bootstrap", "-1"], "--bootstrap must be 0 (off) or a positive number"),
        (["--bootstrap", "1000000000"], "--bootstrap must be at most 100,000"),
        (["--bootstrap", "many"], "argument --bootstrap/-b: invalid int value"),
        (["--workers", "0"], "--workers must be at least 1"),
        (["--width", "99"], "--width must be between 0 and 17"),
        (["--format", "xml"], "invalid choice: 'xml'"),
        (["--input-format", "xml"], "invalid choice: 'xml'"),
    ],
)
def test_bad_options(
    capsys: pytest.CaptureFixture[str], ref: str, args: list[str], match: str
) -> None:
    assert match in fail(capsys, "score", "-i", ref, "-r", ref, *args)


def test_bootstrap_too_large_for_the_corpus_is_refused_before_scoring(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = b"a b\n" * 3_000
    h = file_with(tmp_path, "h.txt", lines)

    def no_scoring(*args: object, **kw: object) -> None:
        raise AssertionError("scored before the bootstrap size was checked")

    monkeypatch.setattr(batch, "score_segments", no_scoring)  # the corpus loop
    msg = fail(capsys, "score", "-p", PRESET, "-i", h, "-r", h, "-b", "90000")
    assert "with 3,000 segments is too much" in msg and "use at most 66,666" in msg


# -- files ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "match"),
    [
        ("latin1.txt", "café\n".encode("latin-1"), "latin1.txt: line 1 is not valid UTF-8 (byte 0xe9"),
        ("u16.txt", "the cat\n".encode("utf-16"), "it may be UTF-16; save it as UTF-8"),
        ("u16be.txt", "the cat\n".encode("utf-16-be"), "contains a NUL byte"),
        ("u32.txt", "the cat\n".encode("utf-32"), "contains a NUL byte"),
        ("blob.bin", bytes(range(256)) * 16, "this looks like a binary file"),
        ("elf.txt", b"\x7fELF\x02\x01\x01" + b"\x00" * 64, "line 1 contains a NUL byte"),
        ("gz.txt", b"\x1f\x8b\x08\x08name\xff", "is not valid UTF-8 (byte 0x8b"),
        ("t.tsv", b"hyp\tref\na\tb\nc\n", "t.tsv: line 3 has 1 tab-separated fields"),
        ("t.tsv", b"hyp\tref\na\tb\tc\n", "t.tsv: line 2 has 3 tab-separated fields"),
        ("t.tsv", b"foo\tbar\na\tb\n", "found neither a hypothesis column (hyp) nor a reference"),
        ("j.jsonl", b'{"hyp": "a", "ref": "b"}\nnot json\n', "j.jsonl: line 2 is not valid JSON"),
        ("j.jsonl", b"[" * 50_000 + b"\n", "line 1 nests JSON too deeply to read"),
        ("j.jsonl", b'{"hyp": "\\udc80", "ref": "x"}\n', "contains a lone surrogate (U+DC80)"),
        ("empty.txt", b"", "no segments: hypothesis file empty.txt is empty"),
    ],
    ids=["latin1", "utf16-bom", "utf16-no-bom", "utf32", "binary", "elf", "gzip", "tsv-missing",
         "tsv-extra", "tsv-no-columns", "jsonl-bad", "jsonl-deep", "jsonl-surrogate", "empty"],
)  # fmt: skip
def test_unreadable_hypothesis_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, data: bytes, match: str
) -> None:
    h = file_with(tmp_path, name, data)
    if name.endswith((".tsv", ".jsonl")):
        refs = []  # tables carry their references
    elif name == "empty.txt":
        refs = ["-r", h]
    else:
        refs = ["-r", file_with(tmp_path, "r.txt", b"the cat\n")]
    assert match in fail(capsys, "score", "-p", PRESET, "-i", h, *refs)


def test_mismatched_line_counts_name_both(
    capsys: pytest.CaptureFixture[str], ref: str, tmp_path: Path
) -> None:
    h = file_with(tmp_path, "sys.txt", b"one\ntwo\nthree\n")
    msg = fail(capsys, "score", "-i", h, "-r", ref)
    assert msg == "reference file ref.txt has 2 segments but hypothesis file sys.txt has 3"


def test_missing_and_special_paths(
    capsys: pytest.CaptureFixture[str], ref: str, tmp_path: Path
) -> None:
    assert "no such file" in fail(capsys, "score", "-i", str(tmp_path / "nope.txt"), "-r", ref)
    assert "it is a directory" in fail(capsys, "score", "-i", str(tmp_path), "-r", ref)
    # /dev/zero never ends: a device is refused without reading it (pipe it in instead)
    t0 = time.perf_counter()
    msg = fail(capsys, "score", "-i", "/dev/zero", "-r", ref)
    assert "it is a character device, not a regular file" in msg and "-i -" in msg
    assert time.perf_counter() - t0 < 10.0  # read, it would never end


def test_huge_file_is_refused_before_reading(
    capsys: pytest.CaptureFixture[str], ref: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as fh:
        fh.truncate(20 * MAX_BYTES)  # a sparse 1 GB file: reading it would take the memory
    opened: list[str] = []

    def recording_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        opened.append(str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(cli_files, "open", recording_open, raising=False)
    msg = fail(capsys, "score", "-i", str(big), "-r", ref)
    assert (
        "is 1,000,000,000 bytes (1,000.0 MB); at most 50,000,000 bytes (50 MB) per file" in msg
        and "split the file" in msg
    )
    assert str(big) not in opened  # refused from its size, never opened


def test_too_many_segments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    h = file_with(tmp_path, "h.txt", b"a\n" * (MAX_SEGMENTS + 1))
    assert "h.txt has 100,001 segments; at most 100,000" in fail(capsys, "score", "-i", h, "-r", h)


def test_oversized_and_explosive_segments_name_the_segment(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A segment that cannot be scored is named (status 1); the others are still written."""
    line = b"ok\n" + b"word " * 200_000 + b"\n"  # a 1 MB line as segment 2
    h = file_with(tmp_path, "h.txt", line)
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", h, "-r", h)
    assert code == 1 and out == "" and "Traceback" not in err
    first, last = err.splitlines()
    assert first.startswith(
        "meteor: error: segment 2: the hypothesis has 1,000,000 characters; at most 200,000"
    )
    assert last.startswith("meteor: error: 1 of 2 segments could not be scored")
    rep = file_with(tmp_path, "rep.txt", b"fine\n" + b"the " * 1_000 + b"\n")
    t0 = time.perf_counter()
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", rep, "-r", rep)
    assert code == 1
    assert err.startswith("meteor: error: segment 2: this pair has at least 1,000,000 candidate")
    assert time.perf_counter() - t0 < 20.0  # aligned, a million candidates take minutes


def test_binary_on_stdin(
    capsys: pytest.CaptureFixture[str], ref: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Stdin:
        buffer = io.BytesIO(b"\x00\x01\x02binary")

        def isatty(self) -> bool:
            return False

    monkeypatch.setattr(sys, "stdin", Stdin())
    assert "<stdin>: line 1 contains a NUL byte" in fail(capsys, "score", "-r", ref)


# -- odd but valid input: scored ------------------------------------------------------------


def test_crlf_bom_and_newline_only_files(
    capsys: pytest.CaptureFixture[str], ref: str, tmp_path: Path
) -> None:
    lf = ok(capsys, "score", "-p", PRESET, "-i", ref, "-r", ref)
    crlf = file_with(
        tmp_path, "crlf.txt", b"\xef\xbb\xbfthe cat sat on the mat\r\na quick brown fox\r\n"
    )
    # the BOM stays in segment 1 as the jar keeps it unless --strip-bom (test_edges_bytes.py)
    stripped = ok(capsys, "score", "-p", PRESET, "-i", crlf, "-r", ref, "--strip-bom")
    assert score_of(stripped) == score_of(lf) == 1.0
    blank = file_with(tmp_path, "blank.txt", b"\n\n")
    report = ok(capsys, "score", "-p", PRESET, "-i", blank, "-r", ref)
    assert score_of(report) == 0.0  # two empty hypotheses: NaN precision, score 0, valid JSON


def test_hostile_text_is_scored_and_reported_verbatim(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = [
        "<script>window.__pwned=1</script>",
        '<img src=x onerror="window.__pwned=1">',
        "\x1b[31mred\x1b[0m \x07 bell",
        "I ❤️ 🍕 \u202eevil\u202c \u200bzero",
        "a\u2028b\u00a0c",
        "Привет world 你好",
        "." * 9_000,
    ]
    text = "\n".join(lines) + "\n"
    h = file_with(tmp_path, "h.txt", text.encode("utf-8"))
    jsonl = tmp_path / "seg.jsonl"
    code, out, err = run(capsys, "score", "-p", PRESET, "-i", h, "-r", h, "--jsonl", str(jsonl))
    assert code == 0 and err == ""
    assert "METEOR corpus score" in out
    records = [json.loads(x) for x in jsonl.read_text(encoding="utf-8").split("\n") if x]
    assert [r["hyp"] for r in records] == text.split("\n")[:-1]  # U+2028 stays inside its line
    assert all(r["score"] > 0.99 for r in records)


def test_every_preset_scores_an_empty_corpus_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    h = file_with(tmp_path, "h.txt", b"\n \n")
    for preset in ("meteor-1.5", "nltk", "paper-2005", "meteor-1.5-ru", "ru"):
        assert score_of(ok(capsys, "score", "-p", preset, "-i", h, "-r", h)) == 0.0


def test_no_traceback_end_to_end(tmp_path: Path) -> None:
    """A real process: binary hypothesis on stdin, one line on stderr, status 2."""
    r = file_with(tmp_path, "r.txt", b"a\n")
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", "score", "-r", r],
        input=b"\xff\xfe\x00\x00garbage",
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr.decode().startswith("meteor: error: <stdin>: line 1 contains a NUL byte")
    assert b"Traceback" not in proc.stderr
