"""Token records from words and offsets, in C when ``meteor_native`` is installed.

:func:`build` is ``tuple(map(Token, words, starts, ends, map(fw, words)))``;
:func:`verbatim_tokens` is :func:`meteor.text.offsets.verbatim_spans` then :func:`build`;
:func:`split_tokens` is the whitespace tokeniser of :func:`meteor.text.tokenize_nltk.tokens`.
The C part (``meteor_native._tokens``) gives equal records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from meteor.runtime import compiled
from meteor.types import Token

__all__ = [
    "NATIVE_TOKENS",
    "FunctionWordMemo",
    "build",
    "line_tokens",
    "split_tokens",
    "verbatim_tokens",
]

FunctionWord = Callable[[str], bool] | None


class FunctionWordMemo(dict[str, bool]):
    """``bool(is_function(word))`` remembered per word, as a callable ``fw`` for the token
    builders below (their C code reads the dict itself).  At most ``kept`` words are
    remembered (then it starts again)."""

    __slots__ = ("_is_function", "_kept")

    def __init__(self, is_function: Callable[[str], bool], kept: int) -> None:
        super().__init__()
        self._is_function = is_function
        self._kept = kept

    def __missing__(self, word: str) -> bool:
        if len(self) >= self._kept:
            self.clear()
        flag = self[word] = bool(self._is_function(word))
        return flag

    def __call__(self, word: str) -> bool:
        return self[word]


def _native() -> Any:
    """``meteor_native._tokens`` bound to :class:`~meteor.types.Token`, or ``None``."""
    part = compiled("_tokens")
    if part is not None:
        part.bind(Token)
    return part


NATIVE_TOKENS = _native()


def _python_build(
    words: Sequence[str], starts: Sequence[int], ends: Sequence[int], fw: FunctionWord
) -> tuple[Token, ...]:
    if fw is None:
        return tuple(Token(w, a, b, False) for w, a, b in zip(words, starts, ends, strict=True))
    return tuple(map(Token, words, starts, ends, map(fw, words)))


def build(
    words: list[str], starts: list[int], ends: list[int], fw: FunctionWord = None
) -> tuple[Token, ...]:
    """``Token(words[k], starts[k], ends[k], fw(words[k]))`` for every ``k`` (``fw`` None:
    ``function_word`` False)."""
    if NATIVE_TOKENS is not None:
        return NATIVE_TOKENS.build(words, starts, ends, fw)  # type: ignore[no-any-return]
    return _python_build(words, starts, ends, fw)


def verbatim_tokens(
    low: str, words: list[str], fw: FunctionWord = None
) -> tuple[Token, ...] | None:
    """The tokens with the offsets :func:`meteor.text.offsets.verbatim_spans` finds
    (``low``: the lowercased text, as long as the text), in C; ``None`` where it finds none
    or when the C part is not in use."""
    if NATIVE_TOKENS is None:
        return None
    return NATIVE_TOKENS.verbatim_tokens(low, words, fw)  # type: ignore[no-any-return]


def line_tokens(
    low: str, line: str, fw: FunctionWord = None, text: str | None = None
) -> tuple[Token, ...] | None:
    """:func:`verbatim_tokens` for the interned words of the normalised ``line``, in C;
    ``None`` where it finds no offsets or when the C part is not in use.

    With ``text`` (the text ``low`` lowercases) it also finds the offsets of words whose
    dots the normaliser dropped (``U.S.`` -> ``us``), as the normaliser run with
    provenance does."""
    if NATIVE_TOKENS is None:
        return None
    return NATIVE_TOKENS.line_tokens(low, line, fw, text)  # type: ignore[no-any-return]


def split_tokens(text: str, lower: bool, fw: FunctionWord = None) -> tuple[Token, ...] | None:
    """The tokens of ``text.split()`` at their places in ``text`` (lowercased with
    ``str.lower`` when ``lower``), in C; ``None`` when the C part is not in use."""
    if NATIVE_TOKENS is None:
        return None
    return NATIVE_TOKENS.split_tokens(text, lower, fw)  # type: ignore[no-any-return]
