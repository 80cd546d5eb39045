"""Control characters from user text (a ``--hyp`` text, a file name, a preset name) never
reach the terminal raw: every message and text output of the CLI shows them as
``\\uXXXX`` (one helper, :mod:`meteor.cli.terminal`), while JSON output stays valid and
decodes to the same text."""

from __future__ import annotations

import io
import json

import pytest

from meteor.cli.command_line import main
from meteor.cli.terminal import TerminalStream, terminal_text
from meteor.io.progress import ProgressBar

RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\x00")
HYP = "the \x1b]0;title\x07 cat \x9b31m sat \u202e"
REF = "the cat sat \x1b"


def test_the_helper_escapes_controls_and_keeps_lines() -> None:
    assert terminal_text("a\x1b[31mb\x07c") == "a\\u001b[31mb\\u0007c"
    assert terminal_text("x\x9by\u202ez") == "x\\u009by\\u202ez"
    assert terminal_text("line 1\nline 2\tcell\r") == "line 1\nline 2\tcell\r"
    assert terminal_text("plain ünïcode — ok") == "plain ünïcode — ok"


def test_the_progress_bar_keeps_its_own_erase_sequence() -> None:
    buf = io.StringIO()
    bar = ProgressBar(TerminalStream(buf), "scoring \x1b[2J")  # type: ignore[arg-type]
    bar(0.5, "sys\x07")
    out = buf.getvalue()
    assert out.endswith("\x1b[K") and "\\u001b[2J" in out and "\\u0007" in out
    assert out.count("\x1b") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["reconcile", "--from", "hf", "--to", "meteor-1.5", "--hyp", HYP, "--ref", REF],
        ["explain", "--hyp", HYP, "--ref", REF],
    ],
)
def test_text_output_shows_no_raw_control_character(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    for ch in RAW:
        assert ch not in out and ch not in err, repr(ch)


def test_reconcile_text_names_the_escaped_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reconcile", "--from", "hf", "--to", "meteor-1.5", "--hyp", HYP,
                 "--ref", REF]) == 0  # fmt: skip
    assert "\\u001b" in capsys.readouterr().out


def test_json_output_stays_valid_and_exact(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--hyp", HYP, "--ref", REF, "-f", "json"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    json.loads(out)


def test_messages_escape_controls(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "-i", "/no/such\x1b[31m\x07file", "-r", "/no/such/ref"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("meteor: error:") and all(ch not in err for ch in RAW)
