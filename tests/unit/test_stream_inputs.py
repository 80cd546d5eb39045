"""``meteor stream``'s inputs as ``meteor score`` reads them: an empty corpus is refused,
and a very long line is refused at once (the streaming reader is linear in the bytes)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from meteor.cli.command_line import main
from meteor.errors import InputError
from meteor.io.lines import iter_lines
from meteor.io.stream import check_files
from meteor.metric import MAX_CHARS


def test_stream_refuses_an_empty_corpus(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Before: a corpus score of 0.0000 and exit status 0; ``meteor score`` refuses it
    with the same line."""
    (tmp_path / "h.txt").write_text("", encoding="utf-8")
    (tmp_path / "r.txt").write_text("", encoding="utf-8")
    argv = ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt")]
    code = main(["stream", "--dask", "local:1", "--dask-timeout", "5", *argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (
        "meteor: error: no segments: hypothesis file h.txt is empty (an empty line is an "
        "empty segment, but an empty file holds none)\n"
    )
    assert main(["score", *argv]) == 2
    assert capsys.readouterr().err == err


def test_a_huge_line_is_refused_without_reading_it_to_its_end() -> None:
    """The line is refused once 4 bytes per allowed character are read."""
    read = 0

    def chunks() -> Iterator[bytes]:
        nonlocal read
        for _ in range(10_000):  # 640 MB if it were all read
            read += 1
            yield b"x" * 65_536

    with pytest.raises(InputError, match=r"line 1 is longer than 800,000 bytes; at most 200,000"):
        for _ in iter_lines(
            chunks(), "big.txt", max_line_bytes=4 * MAX_CHARS, too_long="at most 200,000 characters"
        ):
            pass
    assert read < 20


def test_a_long_line_is_read_in_linear_time() -> None:
    """Before: the unread rest was copied and searched again at every 64 KiB chunk (a 50 MB
    line took 103 s to refuse; ``meteor score`` 0.4 s)."""
    chunk = b"y" * 65_536
    start = time.monotonic()
    ((k, text),) = list(iter_lines(iter([chunk] * 400 + [b"\n"]), "long.txt"))  # 26 MB
    assert k == 1 and len(text) == 400 * 65_536
    assert time.monotonic() - start < 10


def test_stream_refuses_a_50_mb_line_at_once(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 50_000_000 + b"\n")
    (tmp_path / "r.txt").write_text("a\n", encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(InputError, match="line 1 is longer than 800,000 bytes"):
        check_files(big, [tmp_path / "r.txt"], max_chars=MAX_CHARS)
    assert time.monotonic() - start < 5
