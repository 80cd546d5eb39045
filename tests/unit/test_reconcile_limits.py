"""``meteor reconcile``'s sampling options are checked before any work, with one line
naming the option: ``--seed`` (a whole number from 0) and ``--orders`` (2 to
:data:`~meteor.analysis.reconcile.MAX_ORDERS`), and in the library ``seed`` and ``orders``."""

from __future__ import annotations

import pytest

import meteor
from meteor.analysis.reconcile import MAX_ORDERS
from meteor.cli.command_line import main

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


@pytest.mark.parametrize("orders", ["1000000000", "100001", "1", "0", "-3"])
def test_cli_bounds_orders_before_any_work(
    orders: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from meteor.cli import reconcile as cli_reconcile

    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("scored before checking --orders")

    monkeypatch.setattr(cli_reconcile, "reconcile", no_work)
    monkeypatch.setattr(cli_reconcile, "Meteor", no_work)
    argv = ["reconcile", "--from", "nltk", "--to", "meteor-1.5", *PAIR, "--orders", orders]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("meteor: error: --orders must be at least 2 and at most 100,000")
    assert captured.err.rstrip().endswith(f"got {orders}") and captured.err.count("\n") == 1


def test_cli_takes_the_cap_itself(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["reconcile", "--from", "nltk", "--to", "meteor-1.5", *PAIR, "--orders", "100000"]
    assert main(argv) == 0
    assert "sampled: 100000 random orders" in capsys.readouterr().out


@pytest.mark.parametrize("orders", [10**9, MAX_ORDERS + 1, 1, 0, True, 2.5])
def test_library_bounds_orders(orders: object) -> None:
    with pytest.raises(ValueError, match="^orders must be a whole number from 2 to 100,000"):
        meteor.reconcile("the cat sat", "a cat sat", "nltk", "meteor-1.5", orders=orders)  # type: ignore[arg-type]
