"""Text for a terminal: control characters from user text (a preset name, a ``--hyp``
text, a system or file name) are shown escaped, never sent raw.

ESC, BEL, C1 characters and bidirectional overrides are written as ``\\uXXXX``, which is
also how JSON escapes them, so a JSON document on stdout stays valid.
:func:`safe_terminal` puts every message (stderr) and every text output of a command
through :func:`terminal_text`: the one place that escapes.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["TerminalStream", "safe_terminal", "terminal_text"]

#: Control characters but newline, tab and carriage return (C0, DEL, C1), the
#: bidirectional embeddings, overrides and isolates, and the line/paragraph separators.
#: ESC is kept only in the progress bar's own "erase to the end of the line" (ESC [ K).
_CONTROL = re.compile(
    "\x1b(?!\\[K)|[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f"
    "\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]"
)


def terminal_text(text: str) -> str:
    """``text`` with every control character written as ``\\uXXXX`` (newline, tab and
    carriage return are kept)."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class TerminalStream:
    """A text stream whose writes go through :func:`terminal_text`; everything else
    (``buffer``, ``flush``, ``isatty``, ``fileno`` ...) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def safe_terminal(stdout: bool) -> Iterator[None]:
    """Within: stderr (and with ``stdout``, stdout) escapes control characters."""
    saved = sys.stdout, sys.stderr
    try:
        if sys.stderr is not None and not isinstance(sys.stderr, TerminalStream):
            sys.stderr = TerminalStream(sys.stderr)  # type: ignore[assignment]
        if stdout and sys.stdout is not None and not isinstance(sys.stdout, TerminalStream):
            sys.stdout = TerminalStream(sys.stdout)  # type: ignore[assignment]
        yield
    finally:
        sys.stdout, sys.stderr = saved
