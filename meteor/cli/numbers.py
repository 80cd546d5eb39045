"""The command line's numbers: plain ASCII decimal numbers only.

Python's ``int()`` and ``float()`` also accept other scripts' digits, ``_`` between digits
and surrounding spaces (``--beta 1_0`` meant β = 10).  :class:`meteor.cli.files.Parser`
registers these two as argparse's ``int`` and ``float`` types, so every number option
is read here; ``nan`` and ``inf`` pass, for each option's range check to refuse.
"""

from __future__ import annotations

import argparse
import re

from meteor.errors import shown
from meteor.params import DECIMAL, parse_number

__all__ = ["MAX_DIGITS", "real_number", "whole_number"]

#: Most digits of a whole number (2**128, the largest seed, has 39).
MAX_DIGITS = 40

_WHOLE = re.compile(r"[+-]?[0-9]+")
_SPECIAL = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)


def whole_number(text: str) -> int:
    """A whole number written with the digits 0-9 (optionally signed), at most
    :data:`MAX_DIGITS` digits.

    Raises:
        argparse.ArgumentTypeError: anything else, with the value shown short.
    """
    if _WHOLE.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(
            f"invalid int value: {shown(text)} (a whole number written with the digits 0-9)"
        )
    digits = sum(c.isdigit() for c in text)
    if digits > MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"got a number of {digits:,} digits ({text[:20]}…); at most {MAX_DIGITS}"
        )
    return int(text)


def real_number(text: str) -> float:
    """A number written with the digits 0-9 (``0.5``, ``.5``, ``1e-3``), or ``nan``/``inf``.

    Raises:
        argparse.ArgumentTypeError: anything else, or a number too large for a float
        (``1e400``), with the value shown short.
    """
    if _SPECIAL.fullmatch(text) is not None:
        return float(text)
    if DECIMAL.fullmatch(text) is None:  # the library's rule of a written number (spaces too)
        raise argparse.ArgumentTypeError(
            f"invalid float value: {shown(text)} (a number written with the digits 0-9, "
            "such as 0.5 or 1e-3)"
        )
    value = parse_number(text)
    if value is None:  # digits 0-9, but beyond a float
        raise argparse.ArgumentTypeError(
            f"got {shown(text)}, a number too large to use (over 1.8e308)"
        )
    return value
