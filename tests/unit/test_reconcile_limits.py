"""``meteor reconcile``'s sampling options are checked before any work, with one line
naming the option: ``--seed`` (a whole number from 0) and, in the library, ``seed``."""

from __future__ import annotations

import pytest

import meteor
from meteor.cli.commands import main

PAIR = ["--hyp", "the cat sat", "--ref", "a cat sat"]


@pytest.mark.parametrize("seed", ["-1", "-5"])
def test_cli_refuses_a_negative_seed(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["reconcile", "--from", "nltk", "--to", "meteor-1.5", *PAIR, "--seed", seed]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("meteor: error: --seed must be a whole number from 0")
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize("seed", [-1, 1.5, True])
def test_library_refuses_a_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match="^seed must be a whole number of at least 0"):
        meteor.reconcile("the cat sat", "a cat sat", "nltk", "meteor-1.5", seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^seed must be"):
        meteor.reconcile(["a"], ["b"], "nltk", "meteor-1.5", corpus=True, seed=seed)  # type: ignore[arg-type]


def test_a_good_seed_still_runs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["reconcile", "--from", "nltk", "--to", "meteor-1.5", *PAIR, "--orders", "3"]
    assert main([*argv, "--seed", "0"]) == 0
    assert "seed 0" in capsys.readouterr().out
