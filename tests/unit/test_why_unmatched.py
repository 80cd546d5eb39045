"""The near-miss table's "why not matched" names the rule (issue 33), each on a real pair."""

from __future__ import annotations

from meteor import Meteor
from meteor.analysis.explain.parts import NearMiss, near_misses
from meteor.analysis.explain.why_unmatched import REASONS
from meteor.types import Module

#: the issue's example: Meteor 1.5 leaves handling/handled unmatched
HANDLING = ("the handling of cases", "we handled the case")
CAR = ("I drove the automobile home", "I drove the car home")


def misses(m: Meteor, pair: tuple[str, str]) -> dict[tuple[str, str, str], NearMiss]:
    r = m.score(*pair)
    return {
        (n.match.module.value, *n.match.hyp_words, *n.match.ref_words): n for n in near_misses(r, m)
    }


def test_beam_quirk_handling_handled() -> None:
    m = Meteor("meteor-1.5")
    r = m.score(*HANDLING)
    stem = next(c for c in r.candidates if c.module is Module.STEM)
    assert stem.hyp_words == ("handling",) and stem.ref_words == ("handled",)
    assert "handling" not in {w for x in r.matches for w in x.hyp_words}  # proposed, left out
    got = misses(m, HANDLING)
    assert got["stem", "handling", "handled"].reason == "beam_quirk"
    assert got["synonym", "handling", "handled"].reason == "beam_quirk"
    assert got["stem", "handling", "handled"].gain > 0  # it would have raised the score
    # the quirk is the beam's: the stage-wise aligner, same stages, takes the match
    sw = Meteor("meteor-1.5", aligner="stagewise", modules=["exact", "stem", "synonym"],
                weights={"exact": 1.0, "stem": 0.6, "synonym": 0.8})  # fmt: skip
    assert ("handling", "handled") in {
        (x.hyp_words[0], x.ref_words[0]) for x in sw.score(*HANDLING).matches
    }


def test_stage_weighted_zero() -> None:
    w = {"exact": 1.0, "stem": 0.0, "synonym": 0.8, "paraphrase": 0.6}
    got = misses(Meteor("meteor-1.5", weights=w), HANDLING)
    n = got["stem", "handling", "handled"]
    assert n.reason == "weight_zero" and n.weight == 0.0 and n.gain <= 0
    assert got["synonym", "handling", "handled"].reason == "beam_quirk"  # weighted 0.8


def test_nltk_synonym_rule_misses_automobile_car() -> None:
    m = Meteor("nltk")
    r = m.score(*CAR)
    assert "automobile" not in {w for x in r.matches for w in x.hyp_words}
    assert Module.SYNONYM in m.params.modules  # the stage is on: its rule misses it
    got = misses(m, CAR)
    assert got["synonym", "automobile", "car"].reason == "matcher"
    assert got["paraphrase", "automobile", "car"].reason == "stage_off"


def test_reasons_are_known_codes() -> None:
    for m, pair in ((Meteor("meteor-1.5"), HANDLING), (Meteor("nltk"), CAR)):
        assert {n.reason for n in misses(m, pair).values()} <= set(REASONS)
