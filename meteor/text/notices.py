"""Notices about text the Meteor 1.5 jar reads in a way a user would not guess.

Plain one-line messages for the CLI (stderr) and the app (``st.warning``); nothing here
changes a score.  :func:`bom_notice` says a file starts with a UTF-8 byte-order mark;
:func:`token_notices` why a sentence has blank tokens or letters split one per token
(:class:`TokenNotice` records: a reason and its data; ``str()`` the English line, and an
interface in another language words the same fields).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from meteor.text.java_chars import ALNUM_SET as _JAR_ALNUM

__all__ = [
    "BOM",
    "BOM_TEXT",
    "STRIP_BOM_OPTION",
    "TOKEN_TEXT",
    "TokenNotice",
    "TokenReason",
    "bom_notice",
    "has_bom",
    "token_notices",
]

#: U+FEFF, the byte-order mark as a character (bytes ``EF BB BF`` in UTF-8).
BOM = "\ufeff"
#: The CLI option that drops a leading byte-order mark under the Meteor 1.5 presets.
STRIP_BOM_OPTION = "--strip-bom"


def has_bom(data: bytes | str) -> bool:
    """Whether a file's content starts with a UTF-8 byte-order mark."""
    if isinstance(data, str):
        return data.startswith(BOM)
    return bytes(data[:3]) == b"\xef\xbb\xbf"


#: The byte-order mark notice, kept (the jar's reading) or dropped → its English text
#: (``str.format`` fields: ``name``, the file; ``option``, how the user drops it); an
#: interface in another language words the same fields.
BOM_TEXT: dict[str, str] = {
    "kept": "{name!r} starts with a UTF-8 byte-order mark (BOM); as the Meteor 1.5 jar does, "
    "it stays in the first word of segment 1 (a token of its own after -norm), which "
    "lowers that segment's score; {option} drops it",
    "dropped": "{name!r} starts with a UTF-8 byte-order mark (BOM); it was dropped, so segment "
    "1 may score higher than with the Meteor 1.5 jar, which keeps it in the first word "
    "(the meteor-1.5 presets keep it)",
}


def bom_notice(name: str, *, kept: bool, option: str = STRIP_BOM_OPTION) -> str:
    """The one-line notice for a file ``name`` that starts with a byte-order mark.

    ``kept``: the mark stays in segment 1, as the Meteor 1.5 jar keeps it; otherwise it
    was dropped.  ``option``: how the user drops it.  The text: :data:`BOM_TEXT`.
    """
    return BOM_TEXT["kept" if kept else "dropped"].format(name=name, option=option)


def _codepoints(chars: Iterable[str]) -> str:
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'CONTROL')}" for c in sorted(set(chars)))


def _script(ch: str) -> str:
    """The script word of a letter's Unicode name (``GREEK``, ``ARABIC``, ``CJK``…)."""
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else "OTHER"


#: Why a sentence's tokens look odd: tokens of invisible characters only (from Meteor
#: 1.5's normaliser, or kept as words by another tokeniser), letters one per token.
TokenReason = Literal["invisible_norm", "invisible_words", "split_letters"]
_INVISIBLE = (
    "{n} token(s) are invisible characters drawn as blanks ({chars}); they count as words: "
)
#: Why → the English notice (``str.format`` fields: those of :meth:`TokenNotice.fields`);
#: an interface in another language words the same fields.
TOKEN_TEXT: dict[TokenReason, str] = {
    "invisible_norm": _INVISIBLE + "Meteor 1.5's normaliser makes each such character a token "
    "of its own, as the jar does",
    "invisible_words": _INVISIBLE + "the tokeniser keeps them as words",
    "split_letters": "{scripts} letters are one token each ({n} token(s)): Meteor 1.5's "
    "normaliser counts only Latin and Cyrillic letters as letters and separates every other "
    "character, as the jar does",
}


@dataclass(frozen=True, slots=True)
class TokenNotice:
    """Why some tokens of a sentence look odd (``str()``: the one-line English notice).

    Attributes:
        reason: a :data:`TOKEN_TEXT` key.
        count: how many tokens.
        chars: the invisible characters, distinct, in code point order (``invisible_*``).
        scripts: the split letters' scripts, the first word of their Unicode names
            (``GREEK``, ``CJK``…), sorted (``split_letters``).
    """

    reason: TokenReason
    count: int
    chars: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()

    def fields(self) -> dict[str, str | int]:
        """The English notice's ``str.format`` fields: the count, the characters as code
        points with their Unicode names, the scripts in title case."""
        return {
            "n": self.count,
            "chars": _codepoints(self.chars),
            "scripts": ", ".join(s.title() for s in self.scripts),
        }

    def __str__(self) -> str:
        return TOKEN_TEXT[self.reason].format(**self.fields())


def token_notices(tokens: Iterable[str], *, meteor_norm: bool) -> tuple[TokenNotice, ...]:
    """Why some tokens of a sentence look odd, one notice per reason (empty: nothing odd).

    * A token made only of invisible characters (Unicode categories Cf, Cc) is drawn as
      a blank, yet counts as a word.
    * ``meteor_norm``: letters of scripts the jar's normaliser does not count as letters
      (it knows Latin and Cyrillic) are one token per letter, as in the jar.

    Args:
        tokens: the token texts of one sentence (``Token.text``).
        meteor_norm: whether they come from Meteor 1.5's normaliser.
    """
    toks = list(tokens)
    out: list[TokenNotice] = []
    invisible = [t for t in toks if t and all(unicodedata.category(c) in ("Cf", "Cc") for c in t)]
    if invisible:
        reason: TokenReason = "invisible_norm" if meteor_norm else "invisible_words"
        out.append(TokenNotice(reason, len(invisible), tuple(sorted(set("".join(invisible))))))
    if meteor_norm:
        split = [t for t in toks if len(t) == 1 and t.isalpha() and t not in _JAR_ALNUM]
        if split:
            scripts = tuple(sorted({_script(c) for c in split}))
            out.append(TokenNotice("split_letters", len(split), scripts=scripts))
    return tuple(out)
