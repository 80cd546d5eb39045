"""Bytes → text → lines: the size limits, UTF-8 decoding and the one line-break rule.

:func:`check_size` refuses what is too big, :func:`decode` refuses binary content and
names the line of a bad byte, :func:`split_lines` cuts segments where Java's
``BufferedReader.readLine`` would (Meteor 1.5 reads its files with it), and
:func:`detect_format` picks the format from the file name.
"""

from __future__ import annotations

import itertools
import re
import warnings
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any, Literal

from meteor.errors import InputError

__all__ = [
    "FORMATS",
    "LINE_BREAK",
    "InputWarning",
    "MAX_BYTES",
    "MAX_SEGMENTS",
    "SURROGATE",
    "Format",
    "check_size",
    "decode",
    "detect_format",
    "iter_lines",
    "notice",
    "split_lines",
]

#: Most segments accepted in one file or corpus (bigger input is an error, not a hang).
MAX_SEGMENTS = 100_000
#: Largest file accepted, in bytes (50 MB: a WMT test set is well under 1 MB per system).
MAX_BYTES = 50_000_000

Format = Literal["text", "tsv", "csv", "jsonl"]
FORMATS: tuple[Format, ...] = ("text", "tsv", "csv", "jsonl")

_EXTENSIONS: dict[str, Format] = {
    ".txt": "text",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".csv": "csv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
#: A lone UTF-16 surrogate (only reachable through a JSON ``\ud800`` escape or a str).
SURROGATE = re.compile("[\ud800-\udfff]")


class InputWarning(UserWarning):
    """Something in an input was read in a way the user should know of (a skipped line).

    ``str()`` is the English line; ``code`` and ``params``, as an
    :class:`~meteor.errors.InputError`'s (:data:`meteor.errors.INPUT_CODES`), let an
    interface in another language word it.
    """

    def __init__(self, message: str = "", code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def __reduce__(self) -> tuple[Any, ...]:  # kept in caches (pickled) with its code
        return (_warning, (str(self), self.code, self.params))


def _warning(message: str, code: str | None, params: dict[str, Any]) -> InputWarning:
    return InputWarning(message, code, **params)


def notice(message: str, code: str | None = None, **params: Any) -> None:
    """Warn (:class:`InputWarning`) about how an input was read."""
    warnings.warn(InputWarning(message, code, **params), stacklevel=3)


#: A line break (:func:`split_lines`): CR LF, LF or a lone CR.
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(LINE_BREAK.pattern.encode())
_BOM = b"\xef\xbb\xbf"


def _line_of(data: bytes, offset: int) -> int:
    return len(_LINE_BREAK_BYTES.findall(data, 0, offset)) + 1


def _line_of_text(text: str, offset: int) -> int:
    return len(LINE_BREAK.findall(text, 0, offset)) + 1


def check_size(size: int, name: str = "input", limit: int = MAX_BYTES) -> None:
    """Refuse a file of more than ``limit`` bytes (before reading it, where possible).

    Raises:
        InputError: naming the file, its size and the limit.
    """
    if size > limit:
        raise InputError(
            f"{name} is {size:,} bytes ({size / 1e6:,.1f} MB); at most {limit:,} bytes "
            f"({limit / 1e6:,.0f} MB) per file are accepted — split the file and score the "
            "parts (statistics add up)",
            "too_large",
            name=name,
            size=size,
            limit=limit,
        )


def decode(data: bytes | str, name: str = "input", *, keep_bom: bool = False) -> str:
    """UTF-8 bytes → text, rejecting binary files and naming the line of a bad byte.

    A UTF-8 byte-order mark is dropped, unless ``keep_bom`` (the Meteor 1.5 jar keeps it
    in the first word).  ``str`` input is returned as is, after the same checks.

    Raises:
        InputError: more than :data:`MAX_BYTES`, NUL bytes (a binary or UTF-16 file),
            bytes that are not UTF-8, or a lone surrogate in ``str`` input.
    """
    if isinstance(data, str):
        check_size(len(data), name)
        if "\x00" in data:
            line = _line_of_text(data, data.index("\x00"))
            raise InputError(
                f"{name}: line {line} contains a NUL character; this looks like a binary file, "
                "not text with one segment per line",
                "nul_byte",
                name=name,
                line=line,
                utf16=False,
            )
        bad = SURROGATE.search(data)
        if bad is not None:
            line = _line_of_text(data, bad.start())
            raise InputError(
                f"{name}: line {line} contains a lone surrogate (U+{ord(bad.group()):04X}), "
                "which is not text; save the file as UTF-8",
                "lone_surrogate",
                name=name,
                line=line,
                codepoint=f"U+{ord(bad.group()):04X}",
            )
        return data[1:] if data.startswith("\ufeff") and not keep_bom else data
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError(f"{name}: expected bytes or str, got {type(data).__name__}")
    check_size(len(data), name)
    data = bytes(data)
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _nul_error(name, _line_of(data, nul), data[:2])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _utf8_error(name, line, data[exc.start], col) from None
    return text[1:] if text.startswith("\ufeff") and not keep_bom else text


def _nul_error(name: str, line: int, start: bytes) -> InputError:
    """A NUL byte on ``line``; ``start``: the file's first bytes (a UTF-16 mark is named)."""
    utf16 = start[:2] in (b"\xff\xfe", b"\xfe\xff")
    hint = " (it may be UTF-16; save it as UTF-8)" if utf16 else ""
    return InputError(
        f"{name}: line {line} contains a NUL byte; this looks like a binary "
        f"file, not UTF-8 text with one segment per line{hint}",
        "nul_byte",
        name=name,
        line=line,
        utf16=utf16,
    )


def _utf8_error(name: str, line: int, byte: int, col: int) -> InputError:
    return InputError(
        f"{name}: line {line} is not valid UTF-8 (byte 0x{byte:02x} at "
        f"column {col}); save the file as UTF-8",
        "not_utf8",
        name=name,
        line=line,
        byte=byte,
        column=col,
    )


def _decode_line(raw: bytes, name: str, line: int, start: bytes) -> str:
    """One line's bytes → text, with :func:`decode`'s checks and messages."""
    if b"\x00" in raw:
        raise _nul_error(name, line, start)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _utf8_error(name, line, raw[exc.start], exc.start + 1) from None


def iter_lines(
    chunks: Iterable[bytes],
    name: str = "input",
    *,
    keep_bom: bool = False,
    max_line_bytes: int | None = None,
    too_long: str = "",
) -> Iterator[tuple[int, str]]:
    """``(1-based line number, text)`` of UTF-8 bytes read lazily, chunk by chunk.

    The streaming form of :func:`decode` + :func:`split_lines` (the same rules and
    messages; no size or segment limit), holding one line at a time, in linear time.
    ``max_line_bytes``: a longer line is refused as soon as that many bytes of it are
    read; ``too_long`` ends that message.

    Raises:
        InputError: a NUL byte or invalid UTF-8, naming the line; a line over
            ``max_line_bytes``.
    """
    parts: list[bytes] = []  # the current line's bytes so far (scanned: no line break)
    held = 0
    buf = b""  # not yet scanned: at most a chunk and a held-back CR (or the first bytes)
    start: bytes | None = None  # the file's first bytes, once known
    k = 0
    for final, chunk in itertools.chain(((False, c) for c in chunks), [(True, b"")]):
        buf += chunk
        if start is None:
            if len(buf) < 3 and not final:
                continue  # the first bytes (a byte-order mark?) may be cut by the chunking
            start = buf[:3]
            if start == _BOM and not keep_bom:
                buf = buf[3:]
        pos = 0
        for m in _LINE_BREAK_BYTES.finditer(buf):
            if m.group() == b"\r" and m.end() == len(buf) and not final:
                break  # maybe the first half of a CR LF: wait for the next chunk
            k += 1
            piece = buf[pos : m.start()]
            raw = b"".join([*parts, piece]) if parts else piece
            parts, held = [], 0
            if max_line_bytes is not None and len(raw) > max_line_bytes:
                raise _line_too_long(name, k, max_line_bytes, too_long)
            yield k, _decode_line(raw, name, k, start)
            pos = m.end()
        rest = buf[pos:]
        buf = b""
        if rest.endswith(b"\r") and not final:  # held back: maybe half of a CR LF
            rest, buf = rest[:-1], b"\r"
        if rest:
            parts.append(rest)
            held += len(rest)
            if max_line_bytes is not None and held > max_line_bytes:
                raise _line_too_long(name, k + 1, max_line_bytes, too_long)
    if parts:  # the last line, without a line break
        yield k + 1, _decode_line(b"".join(parts), name, k + 1, start or b"")


def _line_too_long(name: str, line: int, limit: int, why: str) -> InputError:
    return InputError(
        f"{name}: line {line:,} is longer than {limit:,} bytes" + (f"; {why}" if why else "")
    )


def split_lines(text: str, name: str = "input", *, limit: int = MAX_SEGMENTS) -> list[str]:
    """Text → segments: the one line-break rule of the CLI, the API and the app.

    A line ends at ``\\r\\n``, ``\\n`` or a lone ``\\r``, as Java's
    ``BufferedReader.readLine`` (Meteor 1.5 reads its files with it) decides, and nowhere
    else: unlike ``str.splitlines``, form feed, NEL, U+2028 and the like stay inside the
    segment.  Empty lines are kept; a final line break starts no segment (``"a\\nb\\n"``
    and ``"a\\nb"`` both give ``["a", "b"]``; ``"\\n"`` gives ``[""]``).

    Raises:
        InputError: more than ``limit`` segments.
    """
    if not text:
        return []
    lines = LINE_BREAK.split(text) if "\r" in text else text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if len(lines) > limit:
        raise InputError(
            f"{name} has {len(lines):,} segments; at most {limit:,} are accepted — "
            "split the file and score the parts (statistics add up)",
            "too_many_segments",
            name=name,
            count=len(lines),
            limit=limit,
        )
    return lines


def detect_format(name: str, fmt: str | None = None) -> Format:
    """The format to read ``name`` with: ``fmt`` if given, else by extension (default text)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise InputError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        return fmt  # type: ignore[return-value]
    return _EXTENSIONS.get(PurePath(name).suffix.lower(), "text")
