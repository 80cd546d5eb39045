"""The DARR threshold is a finite number ≥ 0 (pairs differ by it or more): a negative
one made ties into pairs, NaN gave 0 pairs silently; both are refused, by the library and
by ``--darr-threshold`` of ``correlate`` and ``tune``, before any work."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meteor.analysis.agreement import correlate, measure
from meteor.analysis.agreement_limits import check_darr_threshold
from meteor.analysis.tune import tune
from meteor.cli.command_line import main
from meteor.errors import InputError
from tests.unit.test_agreement_scale import column_metric, judged_with

HUMAN = [float(x) for x in np.tile([10.0, 10.0, 50.0, 90.0, 90.0], 12)]


@pytest.mark.parametrize("bad", [-1, -0.5, math.nan, math.inf, -math.inf, True, "25", None])
def test_the_library_refuses_a_threshold_that_is_not_a_finite_number_at_least_0(
    bad: object,
) -> None:
    with pytest.raises(InputError, match="darr_threshold must be a finite number ≥ 0"):
        check_darr_threshold(bad)
    judged = judged_with(HUMAN)
    with pytest.raises(InputError, match="darr_threshold"):
        measure(judged, [column_metric(np.arange(60.0))], darr_threshold=bad, n_bootstrap=5)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="darr_threshold"):
        correlate(judged, presets=(), columns=(), darr_threshold=bad)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="darr_threshold"):
        tune(judged, preset="nltk", darr_threshold=bad)  # type: ignore[arg-type]


def test_zero_keeps_every_pair_but_ties() -> None:
    assert check_darr_threshold(0) == 0.0
    got = measure(
        judged_with(HUMAN), [column_metric(np.arange(60.0))], darr_threshold=0, n_bootstrap=5
    )
    # per item, 5 systems ranked 10 10 50 90 90 by column: 10 pairs, 2 of them ties
    assert got.n_darr_pairs == 12 * 8


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "1_0", "０.5", "x"])
@pytest.mark.parametrize("command", ["correlate", "tune"])
def test_the_cli_refuses_it_before_reading(
    command: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([command, "--hyp", "no-such-file.tsv", "--human-column", "h",
                 f"--darr-threshold={value}"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "--darr-threshold: must be a number ≥ 0" in err and "no-such-file" not in err
