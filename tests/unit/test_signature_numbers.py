"""The settings signature writes numbers exactly: one setting has one signature (``-0.0``
and ``0.0`` alike) and two settings have two (``4.4375`` is not ``4.438``), while the
standard presets' signatures stay as they were (``a:0.85``, ``w:1/0.6/0.8/0.6``)."""

from __future__ import annotations

import pytest

from meteor.params import Params
from meteor.presets import PRESETS

#: Signatures of standard presets as they have always been written (pinned).
PINNED = {
    "meteor-1.5": "meteor|v:0.1.0|preset:meteor-1.5|lang:en|norm:meteor|mods:ex+st+sy+pa|"
    "w:1/0.6/0.8/0.6|a:0.85|b:0.2|g:0.6|d:0.75|align:beam40|stem:snowball|nrefs:1",
    "nltk": "meteor|v:0.1.0|preset:nltk|lang:en|norm:lower|mods:ex+st+sy|w:1/1/1|a:0.9|b:3|"
    "g:0.5|d:0.5|align:greedy|stem:porter|perfect:no|tok:whitespace|nrefs:1",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_standard_presets_keep_their_signatures(name: str) -> None:
    assert PRESETS[name].params.signature(preset=name) == PINNED[name]


def test_two_settings_two_signatures() -> None:
    a = Params(beta=4.4375).signature()
    b = Params(beta=4.438).signature()
    assert a != b and "|b:4.4375|" in a and "|b:4.438|" in b
    assert "|a:0.30000000000000004|" in Params(alpha=0.1 + 0.2).signature()


def test_one_setting_one_signature() -> None:
    assert Params(alpha=-0.0) == Params(alpha=0.0)
    assert Params(alpha=-0.0).signature() == Params(alpha=0.0).signature()
    assert (
        "|a:0|" in Params(alpha=-0.0).signature() and "a:-0" not in Params(alpha=-0.0).signature()
    )
    assert "|b:20|" in Params(beta=20.0).signature()


def test_every_preset_round_trips_to_the_same_signature() -> None:
    for name, preset in PRESETS.items():
        again = Params.from_dict(preset.params.to_dict())
        assert again.signature(preset=name) == preset.params.signature(preset=name)
