"""The match tuple: :data:`Candidate`, its packed form and its span check.

A match is a plain tuple until a caller keeps it as a :class:`~meteor.types.Match`
record (:mod:`meteor.types` converts both ways).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from sys import intern
from typing import Any

from meteor.module_registry import Module

__all__ = ["Candidate"]

#: A match before it is a record, as the stages propose it and the aligners read it:
#: ``(module, hyp_start, hyp_end, ref_start, ref_end, detail, similarity)``.  ``RawMatch``
#: is its old name (deprecated).
Candidate = tuple[Module, int, int, int, int, str, float | None]


#: A deferred alignment's matches, packed (:func:`pack_raw`): their positions as 32-bit
#: integers (hyp start, hyp end, ref start, ref end each), their modules, their details
#: (``()`` when all are ``""``) and similarities (``()`` when all are ``None``).
Packed = tuple[bytes, tuple[Any, ...], tuple[str, ...], tuple["float | None", ...]]

_POSITIONS = itemgetter(1, 2, 3, 4)
_MODULE, _DETAIL, _SIMILARITY = itemgetter(0), itemgetter(5), itemgetter(6)
#: ``struct.Struct`` of ``4·n`` 32-bit integers, per number of matches ``n``.
_STRUCTS: dict[int, struct.Struct] = {}


def _positions(n: int) -> struct.Struct:
    st = _STRUCTS.get(n)
    if st is None:
        st = _STRUCTS[n] = struct.Struct(f"{4 * n}i")
    return st


def pack_raw(matches: Sequence[Candidate]) -> Packed:
    """``matches`` in a fraction of the memory of their tuples (24 bytes a match, one
    string per distinct detail, instead of a 112-byte tuple): a corpus run keeps one
    deferred alignment per segment."""
    flat = _positions(len(matches)).pack(*chain.from_iterable(map(_POSITIONS, matches)))
    details = list(map(_DETAIL, matches))
    if any(details):
        try:
            packed_details = tuple(map(intern, details))
        except TypeError:  # a stage's detail of a str subclass: kept as it is
            packed_details = tuple(details)
    else:
        packed_details = ()
    sims = list(map(_SIMILARITY, matches))
    return (
        flat,
        tuple(map(_MODULE, matches)),
        packed_details,
        tuple(sims) if sims.count(None) != len(sims) else (),
    )


def unpack_raw(packed: Packed) -> tuple[Candidate, ...]:
    """The matches :func:`pack_raw` packed, equal to the tuples it was given."""
    data, modules, details, sims = packed
    n = len(modules)
    ints = _positions(n).unpack(data)
    return tuple(
        zip(
            modules,
            ints[0::4],
            ints[1::4],
            ints[2::4],
            ints[3::4],
            details or ("",) * n,
            sims or (None,) * n,
            strict=True,
        )
    )


def check_spans(n_h: int, n_r: int, spans: list[tuple[int, int, int, int]]) -> None:
    """Raise when a token is aligned twice or a span runs past its side (``(hyp_start,
    hyp_end, ref_start, ref_end)`` each); token sets as bit masks, one test per match."""
    used_h = used_r = 0
    for hs, he, rs, re_ in spans:
        bits = ((1 << (he - hs)) - 1) << hs
        if used_h & bits or he > n_h:
            _twice("hypothesis", used_h, hs, he, n_h)
        used_h |= bits
        bits = ((1 << (re_ - rs)) - 1) << rs
        if used_r & bits or re_ > n_r:
            _twice("reference", used_r, rs, re_, n_r)
        used_r |= bits


def _twice(side: str, used: int, start: int, end: int, n: int) -> None:
    """Raise for the first token of ``[start, end)`` that is already aligned or out of range."""
    for i in range(start, end):
        if used >> i & 1 or i >= n:
            raise ValueError(f"{side} token {i} is aligned twice or out of range")
