"""Notices about text the Meteor 1.5 jar reads in a way a user would not guess.

Plain one-line messages for the CLI (stderr) and the app (``st.warning``); nothing here
changes a score.  :func:`bom_notice` says a file starts with a UTF-8 byte-order mark;
:func:`token_notices` why a sentence has blank tokens or letters split one per token.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from meteor.text.java_chars import ALNUM_SET as _JAR_ALNUM

__all__ = ["BOM", "STRIP_BOM_OPTION", "bom_notice", "has_bom", "token_notices"]

#: U+FEFF, the byte-order mark as a character (bytes ``EF BB BF`` in UTF-8).
BOM = "\ufeff"
#: The CLI option that drops a leading byte-order mark under the Meteor 1.5 presets.
STRIP_BOM_OPTION = "--strip-bom"


def has_bom(data: bytes | str) -> bool:
    """Whether a file's content starts with a UTF-8 byte-order mark."""
    if isinstance(data, str):
        return data.startswith(BOM)
    return bytes(data[:3]) == b"\xef\xbb\xbf"


def bom_notice(name: str, *, kept: bool, option: str = STRIP_BOM_OPTION) -> str:
    """The one-line notice for a file ``name`` that starts with a byte-order mark.

    ``kept``: the mark stays in segment 1, as the Meteor 1.5 jar keeps it (the CLI and
    the app under the ``meteor-1.5*`` presets); otherwise it was dropped (the other
    presets, or the option that drops it).  ``option``: how the user drops it (the CLI's
    ``--strip-bom``; the app names its checkbox).
    """
    if kept:
        return (
            f"{name!r} starts with a UTF-8 byte-order mark (BOM); as the Meteor 1.5 jar does, "
            "it stays in the first word of segment 1 (a token of its own after -norm), which "
            f"lowers that segment's score; {option} drops it"
        )
    return (
        f"{name!r} starts with a UTF-8 byte-order mark (BOM); it was dropped, so segment 1 "
        "may score higher than with the Meteor 1.5 jar, which keeps it in the first word "
        "(the meteor-1.5 presets keep it)"
    )


def _codepoints(chars: Iterable[str]) -> str:
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'CONTROL')}" for c in sorted(set(chars)))


def _script(ch: str) -> str:
    """The script word of a letter's Unicode name (``GREEK``, ``ARABIC``…), title case."""
    name = unicodedata.name(ch, "")
    word = name.split(" ", 1)[0] if name else "other"
    return word.title()


def token_notices(tokens: Iterable[str], *, meteor_norm: bool) -> tuple[str, ...]:
    """Why some tokens of a sentence look odd, one line per reason (empty: nothing odd).

    * A token made only of invisible characters (Unicode format characters such as
      U+200D ZERO WIDTH JOINER, U+200B, U+2060; or control characters) is drawn as a
      blank, yet counts as a word.  Under Meteor 1.5's ``-norm`` every character that is
      not a letter, digit or space becomes a token of its own, as the jar does.
    * ``meteor_norm`` (the tokens come from Meteor 1.5's normaliser, ``norm='meteor'``):
      letters of scripts the jar's normaliser does not count as letters (Greek, Arabic,
      Hebrew, CJK …; it knows Latin and Cyrillic) are one token per letter, as in the jar.

    Args:
        tokens: the token texts of one sentence (``Token.text``).
        meteor_norm: whether they come from Meteor 1.5's normaliser.
    """
    toks = list(tokens)
    out: list[str] = []
    invisible = [t for t in toks if t and all(unicodedata.category(c) in ("Cf", "Cc") for c in t)]
    if invisible:
        how = (
            "Meteor 1.5's normaliser makes each such character a token of its own, as the jar does"
            if meteor_norm
            else "the tokeniser keeps them as words"
        )
        out.append(
            f"{len(invisible)} token(s) are invisible characters drawn as blanks "
            f"({_codepoints(''.join(invisible))}); they count as words: {how}"
        )
    if meteor_norm:
        split = [t for t in toks if len(t) == 1 and t.isalpha() and t not in _JAR_ALNUM]
        if split:
            scripts = sorted({_script(c) for c in split})
            out.append(
                f"{', '.join(scripts)} letters are one token each ({len(split)} token(s)): "
                "Meteor 1.5's normaliser counts only Latin and Cyrillic letters as letters and "
                "separates every other character, as the jar does"
            )
    return tuple(out)
