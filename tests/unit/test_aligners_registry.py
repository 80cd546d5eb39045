"""The aligner interface: a new aligner is one class and one registry line.

``LeftmostAligner`` below is a toy: it takes the candidates in the order the stages
give them (Meteor 1.5's lattice order: reference position, then hypothesis position)
and keeps each one that touches no word already used.  Registered with one line, it
scores through the facade like a built-in aligner; its record is checked against
arithmetic done by hand.  The facade (``meteor/metric.py``) never names an aligner.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

import meteor
from meteor.aligners import aligner_names, get_aligner, register_aligner
from meteor.aligners import base as aligners_base
from meteor.aligners.base import Aligner
from meteor.aligners.beam import BeamAligner
from meteor.aligners.greedy import GreedyAligner
from meteor.aligners.stagewise import StagewiseAligner
from meteor.errors import ParamError
from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import ALIGNERS, Params
from meteor.stages.base import Candidate, MatchContext

METRIC = Path(meteor.__file__).resolve().parent / "metric.py"


class LeftmostAligner(Aligner):
    """Candidates in lattice order, each kept unless it touches a used word."""

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> list[int]:
        used_h: set[int] = set()
        used_r: set[int] = set()
        chosen = []
        flat = [c for stage in stages for c in stage]
        for k, (_, hs, he, rs, re_, _, _) in enumerate(flat):
            if used_h.isdisjoint(range(hs, he)) and used_r.isdisjoint(range(rs, re_)):
                chosen.append(k)
                used_h.update(range(hs, he))
                used_r.update(range(rs, re_))
        return chosen


class EnglishOnlyOneStage(LeftmostAligner):
    """Refuses settings (more than one stage) and languages (not English)."""

    def check_params(self, params: Params) -> None:
        if len(params.modules) > 1:
            raise ParamError(f"aligner {params.aligner!r} takes one stage, got modules {params}")

    def check(self, params: Params, language: Language) -> None:
        if params.lang != "en":
            raise ParamError(f"aligner {params.aligner!r} is for English only")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A private copy of the registry: aligners registered in a test vanish after it."""
    monkeypatch.setattr(aligners_base, "_REGISTRY", dict(aligners_base._REGISTRY))


def toy_params(aligner: str) -> Params:
    """Exact stage only, δ = 0.5 (plain ratios), α 0.9, β 3, γ 0.5: easy arithmetic."""
    return Params(
        lang="en",
        alpha=0.9,
        beta=3.0,
        gamma=0.5,
        delta=0.5,
        modules=(Module.EXACT,),
        weights=((Module.EXACT, 1.0),),
        aligner=aligner,
    )


def test_a_registered_toy_aligner_scores_through_the_facade(registry: None) -> None:
    register_aligner("leftmost", LeftmostAligner)  # the one registry line

    r = meteor.Meteor(params=toy_params("leftmost")).score("the cat the dog", "the dog the cat")
    # Exact candidates in lattice order (ref, hyp): (r0 h0) (r0 h2) (r1 h3) (r2 h0)
    # (r2 h2) (r3 h1).  Leftmost keeps h0-r0, h3-r1, h2-r2, h1-r3.
    assert len(r.candidates) == 6
    assert [(m.hyp.start, m.ref.start) for m in r.alignment.matches] == [
        (0, 0),
        (3, 1),
        (2, 2),
        (1, 3),
    ]
    # Sorted by reference, the hypothesis positions 0 3 2 1 never continue: 4 chunks.
    assert r.chunks == 4
    # P = R = 4/4, Fmean = 1; frag = 4 chunks / 4 matches = 1; penalty = 0.5 · 1³;
    # score = 1 · (1 − 0.5).
    assert (r.precision, r.recall, r.fmean) == (1.0, 1.0, 1.0)
    assert r.frag == 1.0 and r.penalty == 0.5 and r.score == 0.5
    assert "align:leftmost|" in r.signature


def test_the_same_pair_with_the_beam_differs_so_the_toy_was_used() -> None:
    r = meteor.Meteor(params=toy_params("beam")).score("the cat the dog", "the dog the cat")
    # Meteor 1.5's search finds two chunks: "the dog" (h2 h3) and "the cat" (h0 h1).
    assert r.chunks == 2
    # frag = 2/4, penalty = 0.5 · 0.5³ = 0.0625.
    assert r.score == 1.0 - 0.0625


def test_params_accept_registered_names_and_name_the_field_otherwise(registry: None) -> None:
    # Params is a value: the name is checked where the aligner is chosen (Meteor)
    with pytest.raises(ParamError, match=r"^aligner must be one of beam, greedy, stagewise, got"):
        meteor.Meteor(params=Params(aligner="leftmost"))
    register_aligner("leftmost", LeftmostAligner)
    assert Params(aligner="leftmost").aligner == "leftmost"
    assert Params().replace(aligner="leftmost").aligner == "leftmost"
    assert aligner_names() == ("beam", "greedy", "stagewise", "leftmost")
    with pytest.raises(ParamError, match=r"^aligner must be one of .*leftmost, got 'quantum'"):
        meteor.Meteor(aligner="quantum")
    with pytest.raises(ParamError, match=r"^aligner must be one of .*leftmost, got 'quantum'"):
        Params(aligner="quantum").signature()  # the signature names the aligner's own field
    with pytest.raises(ParamError, match="^aligner must be an aligner's name such as 'beam'"):
        Params(aligner=["beam"])  # type: ignore[arg-type]


def test_an_aligner_refuses_settings_and_languages(registry: None) -> None:
    register_aligner("one-stage", EnglishOnlyOneStage)
    with pytest.raises(ParamError, match="'one-stage' takes one stage"):
        meteor.Meteor(params=Params(aligner="one-stage"))  # the default has four stages
    p = toy_params("one-stage")
    assert meteor.Meteor(params=p).score("a cat", "a cat").score == 1.0
    with pytest.raises(ParamError, match="'one-stage' is for English only"):
        meteor.Meteor(params=p.replace(lang="de"))


def test_registration_errors(registry: None) -> None:
    with pytest.raises(TypeError, match="subclass of Aligner"):
        register_aligner("x", object)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="non-empty word"):
        register_aligner(" ", LeftmostAligner)
    with pytest.raises(ValueError, match="'beam' is already registered"):
        register_aligner("beam", LeftmostAligner)
    register_aligner("beam", BeamAligner)  # the same class again: no change
    register_aligner("beam", LeftmostAligner, replace=True)
    assert isinstance(get_aligner("beam"), LeftmostAligner)


def test_the_builtins_are_registered_and_offered() -> None:
    assert isinstance(get_aligner("beam"), BeamAligner)
    assert isinstance(get_aligner("stagewise"), StagewiseAligner)
    assert isinstance(get_aligner("greedy"), GreedyAligner)
    assert set(ALIGNERS) <= set(aligner_names())  # what the app and the CLI offer


def test_metric_never_names_an_aligner() -> None:
    """The facade composes stages → aligner through the registry alone."""
    source = METRIC.read_text(encoding="utf-8")
    words = {*aligner_names(), "beam", "greedy", "stagewise", "stage-wise"}
    for word in words:
        found = re.search(re.escape(word), source, re.IGNORECASE)
        assert found is None, f"meteor/metric.py names {word!r}: {found}"
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
    assert {m for m in imported if m.startswith("meteor.aligners")} == {"meteor.aligners.base"}
