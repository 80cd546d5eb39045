"""Notices about text the Meteor 1.5 jar reads in a way a user would not guess.

Plain one-line messages for the CLI (stderr) and the app (``st.warning``); nothing here
changes a score.  :func:`bom_notice` says a file starts with a UTF-8 byte-order mark.
"""

from __future__ import annotations

__all__ = ["BOM", "STRIP_BOM_OPTION", "bom_notice", "has_bom"]

#: U+FEFF, the byte-order mark as a character (bytes ``EF BB BF`` in UTF-8).
BOM = "\ufeff"
#: The CLI option that drops a leading byte-order mark under the Meteor 1.5 presets.
STRIP_BOM_OPTION = "--strip-bom"


def has_bom(data: bytes | str) -> bool:
    """Whether a file's content starts with a UTF-8 byte-order mark."""
    if isinstance(data, str):
        return data.startswith(BOM)
    return bytes(data[:3]) == b"\xef\xbb\xbf"


def bom_notice(name: str, *, kept: bool) -> str:
    """The one-line notice for a file ``name`` that starts with a byte-order mark.

    ``kept``: the mark stays in segment 1, as the Meteor 1.5 jar keeps it (the CLI under
    the ``meteor-1.5*`` presets); otherwise it was dropped (the app, the other presets,
    or ``--strip-bom``).
    """
    if kept:
        return (
            f"{name!r} starts with a UTF-8 byte-order mark (BOM); as the Meteor 1.5 jar does, "
            "it stays in the first word of segment 1 (a token of its own after -norm), which "
            f"lowers that segment's score; {STRIP_BOM_OPTION} drops it"
        )
    return (
        f"{name!r} starts with a UTF-8 byte-order mark (BOM); it was dropped, so segment 1 "
        "may score higher than with the Meteor 1.5 jar, which keeps it in the first word "
        "(the command line keeps it under the meteor-1.5 presets)"
    )
