"""Issue 32 item 8: one name for the match tuple, one converter between tuples and records.

The stages' candidate and the deferred alignment's "raw match" are one type,
:data:`meteor.types.Candidate` (``RawMatch`` is its deprecated old name); a tuple becomes
a :class:`~meteor.types.Match` only through :func:`~meteor.types.match_of` /
:func:`~meteor.types.matches_of` and goes back through :func:`~meteor.types.candidate_of`,
in the scorer, the stages and the records sent between processes alike.
"""

from __future__ import annotations

import pytest

import meteor.types
from meteor import Meteor
from meteor.runners.transport import Decoder, encode
from meteor.stages import base

PAIR = ("the cats sat quickly on a mat", "a cat was sitting fast on the mat")


def test_one_name_for_the_match_tuple() -> None:
    candidate = meteor.types.Candidate
    assert base.Candidate is candidate
    with pytest.warns(DeprecationWarning, match="RawMatch"):
        old = meteor.types.RawMatch
    assert old is candidate
    assert "RawMatch" not in meteor.types.__all__


def test_the_stages_keep_no_converters_of_their_own() -> None:
    for name in ("to_match", "to_matches", "from_match"):
        assert not hasattr(base, name), name


def test_one_converter_both_ways() -> None:
    candidate_of, match_of = meteor.types.candidate_of, meteor.types.match_of
    matches_of = meteor.types.matches_of
    r = Meteor("meteor-1.5").score(*PAIR)
    hw, rw = list(r.alignment.hyp_words), list(r.alignment.ref_words)
    cands = [candidate_of(m) for m in r.candidates]
    assert len(cands) > len(r.matches) > 0
    assert matches_of(cands, hw, rw) == r.candidates
    assert tuple(match_of(c, hw, rw) for c in cands) == r.candidates


def test_records_travel_as_candidate_tuples() -> None:
    candidate_of = meteor.types.candidate_of
    r = Meteor("meteor-1.5").score(*PAIR)
    e = encode(r)
    assert e[4] == tuple(map(candidate_of, r.matches))  # the chosen matches
    assert e[-1] == tuple(map(candidate_of, r.candidates))
    back = Decoder().decode(e)
    assert back == r and back.candidates == r.candidates
