"""Parameters are validated with messages that name the field; presets carry their tables."""

from __future__ import annotations

import pytest

from meteor.metric import Meteor
from meteor.module_registry import Module
from meteor.params import ParamError, Params, parse_modules
from meteor.presets import PRESETS, get_preset


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"alpha": 1.5}, "alpha"),
        ({"alpha": -0.1}, "alpha"),
        ({"beta": -1}, "beta"),
        ({"gamma": 2}, "gamma"),
        ({"delta": float("nan")}, "delta"),
        ({"alpha": "abc"}, "alpha"),
        ({"beam_size": 0}, "beam_size"),
        ({"beam_size": 2.5}, "beam_size"),
        ({"modules": ()}, "modules"),
        ({"modules": ("exact", "exact"), "weights": {"exact": 1.0}}, "modules"),
        ({"modules": ("exact", "magic")}, "modules"),
        ({"weights": {"exact": 1.0, "stem": 2.0, "synonym": 1, "paraphrase": 1}}, "weights[stem]"),
        ({"modules": ("exact", "stem"), "weights": {"exact": 1.0}}, "weights"),
        ({"aligner": ""}, "aligner"),
        ({"norm": "upper"}, "norm"),
        ({"no_punct": True, "norm": "lower"}, "no_punct"),
        ({"lang": ""}, "lang"),
    ],
)
def test_invalid_values_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(ParamError) as exc:
        Params(**kwargs)  # type: ignore[arg-type]
    assert field in str(exc.value)


def test_the_aligner_is_checked_where_it_is_chosen() -> None:
    # Params is a value: the aligners' registry is asked when a scorer is built
    assert Params(aligner="fast").aligner == "fast"
    with pytest.raises(ParamError, match=r"^aligner must be one of beam, greedy, stagewise, got"):
        Meteor(params=Params(aligner="fast"))
    with pytest.raises(ParamError, match=r"^aligner must be one of .*, got 'fast'"):
        Meteor("meteor-1.5", aligner="fast")


def test_weights_follow_names_not_slots() -> None:
    # Meteor's -m trap: `-m 'exact synonym'` would give synonym the stem slot's weight.
    p = get_preset("meteor-1.5").params.replace(modules=("exact", "synonym"))
    assert p.weight(Module.SYNONYM) == 0.8
    assert p.weight(Module.STEM) == 0.0


def test_params_are_hashable_and_round_trip() -> None:
    for preset in PRESETS.values():
        p = preset.params
        assert hash(p) == hash(Params.from_dict(p.to_dict()))
        assert Params.from_dict(p.to_dict()) == p


def test_unknown_preset_and_field() -> None:
    with pytest.raises(ParamError, match="unknown preset 'nope'"):
        get_preset("nope")
    with pytest.raises(ParamError, match="unknown parameter"):
        get_preset("nltk").params.replace(alhpa=0.5)


def test_meteor15_task_tables() -> None:
    # Constants.java task tables (meteor-1.5.md section 3), weights by module name.
    rank = get_preset("meteor-1.5").params
    assert (rank.alpha, rank.beta, rank.gamma, rank.delta) == (0.85, 0.20, 0.60, 0.75)
    assert [w for _, w in rank.weights] == [1.0, 0.6, 0.8, 0.6]
    hter = get_preset("meteor-1.5-hter").params
    assert (hter.alpha, hter.beta, hter.gamma, hter.delta) == (0.40, 1.50, 0.35, 0.55)
    assert [w for _, w in hter.weights] == [1.0, 0.2, 0.6, 0.8]
    ru = get_preset("meteor-1.5-ru").params
    assert ru.modules == (Module.EXACT, Module.STEM)
    assert [w for _, w in ru.weights] == [1.0, 0.5]


def test_signature_encodes_settings() -> None:
    sig = get_preset("meteor-1.5").params.signature(preset="meteor-1.5", nrefs=2)
    assert sig.startswith("meteor|v:")
    for part in (
        "preset:meteor-1.5",
        "lang:en",
        "mods:ex+st+sy+pa",
        "w:1/0.6/0.8/0.6",
        "a:0.85",
        "b:0.2",
        "g:0.6",
        "d:0.75",
        "align:beam40",
        "nrefs:2",
    ):
        assert part in sig


def test_parse_modules() -> None:
    assert parse_modules("exact, stem") == (Module.EXACT, Module.STEM)
