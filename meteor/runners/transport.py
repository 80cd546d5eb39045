"""Segment records in a compact form, for sending them between processes.

Pickling a :class:`~meteor.types.MeteorResult` as it is costs more than scoring some
segments (a 25-word pair's record holds about 110 small frozen objects).  Here a record
travels as nested tuples of plain values (:func:`encode`), and :class:`Decoder` rebuilds
it in the caller, reusing the tokens of texts already seen and skipping the check the
worker ran.  The decoded record equals the one the worker built (``==``; tested).
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any

from meteor.stats import Breakdown, Stats
from meteor.types import (
    Alignment,
    Chunk,
    MeteorResult,
    Token,
    candidate_of,
    matches_of,
    shared_span,
)

__all__ = ["Decoder", "Encoded", "encode"]

Encoded = tuple[Any, ...]
#: The fields of :class:`Stats` and :class:`Breakdown` as a tuple, in their constructor's order.
_STATS = attrgetter(*(f.name for f in fields(Stats)))
_BREAKDOWN = attrgetter(*(f.name for f in fields(Breakdown)))


def _tokens(tokens: tuple[Token, ...]) -> tuple[tuple[str, int, int, bool], ...]:
    return tuple((t.text, t.start, t.end, t.function_word) for t in tokens)


def encode(r: MeteorResult) -> Encoded:
    """A record as nested tuples of str, int, float, bool and :class:`~meteor.types.Module`."""
    a, s = r.alignment, r.stats
    pending = a.pending()  # a corpus run's alignment travels unbuilt: no chunks then
    return (
        r.hyp,
        r.refs,
        _tokens(a.hyp),
        _tokens(a.ref),
        tuple(map(candidate_of, a.matches)) if pending is None else pending,
        None
        if pending is not None
        else tuple(
            (c.index, c.hyp.start, c.hyp.end, c.ref.start, c.ref.end, c.matches) for c in a.chunks
        ),
        _STATS(s),
        _BREAKDOWN(r.breakdown),
        r.best_ref_index,
        r.ref_scores,
        r.signature,
        tuple(map(candidate_of, r.candidates)),
    )


class Decoder:
    """Rebuilds records from :func:`encode`; keeps the tokens it has made for reuse.

    One decoder serves one scoring run (its memory grows with the distinct texts).
    """

    def __init__(self) -> None:
        self._tokens: dict[str, tuple[Token, ...]] = {}

    def _toks(self, text: str, raw: tuple[tuple[str, int, int, bool], ...]) -> tuple[Token, ...]:
        # One scorer tokenises a text the same way every time, on either side.
        toks = self._tokens.get(text)
        if toks is None:
            toks = self._tokens[text] = tuple(Token(*t) for t in raw)
        return toks

    def decode(self, e: Encoded) -> MeteorResult:
        hyp, refs, ht, rt, ms, cs, st, nums, best, ref_scores, sig, cands = e
        span = shared_span
        hyp_toks, ref_toks = self._toks(hyp, ht), self._toks(refs[best], rt)
        hw: list[str] = []
        rw: list[str] = []
        if cs is not None or cands:  # a match's words are its tokens' texts, as the scorer's
            hw, rw = [t.text for t in hyp_toks], [t.text for t in ref_toks]
        if cs is None:  # the worker's alignment was deferred: so is this one
            alignment = Alignment.deferred(hyp_toks, ref_toks, ms)
        else:
            alignment = Alignment.trusted(
                hyp_toks,
                ref_toks,
                matches_of(ms, hw, rw),
                tuple(Chunk(i, span(hs, he), span(rs, re_), mi) for i, hs, he, rs, re_, mi in cs),
            )
        return MeteorResult(
            hyp,
            refs,
            alignment,
            Stats(*st),
            Breakdown(*nums),
            best,
            ref_scores,
            sig,
            matches_of(cands, hw, rw) if cands else (),
        )
