"""``--bootstrap`` and ``--permutations`` of ``correlate`` and ``tune`` are bounded by
documented caps, checked before any file is read (3,000,000 resamples ran past 90 s at
2.1 GB; 1e9 ended in a MemoryError blaming the workers)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from meteor.analysis.agreement import correlate
from meteor.analysis.agreement_limits import MAX_PERMUTATIONS, check_resamples
from meteor.analysis.resampling import MAX_BOOTSTRAP_DRAWS, MAX_BOOTSTRAP_SAMPLES
from meteor.analysis.tune import tune
from meteor.cli.command_line import main
from meteor.errors import InputError
from tests.unit.test_agreement_scale import judged_with

HUMAN = [float(x) for x in np.arange(60.0)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["correlate", "--bootstrap", "3000000"], "must be between 1 and 100,000, got 3,000,000"),
        (["correlate", "--bootstrap", "0"], "must be between 1 and 100,000, got 0"),
        (["correlate", "--permutations", "1000000000"], "must be between 0 and 100,000"),
        (["correlate", "--permutations", "-1"], "must be between 0 and 100,000"),
        (["tune", "--bootstrap", "3000000"], "must be between 1 and 100,000, got 3,000,000"),
    ],
)
def test_the_cli_refuses_beyond_the_cap_before_reading(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    t0 = time.perf_counter()
    code = main([*argv, "--hyp", "no-such-file.tsv", "--human-column", "h"])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "no-such-file" not in err
    assert "workers" not in err and time.perf_counter() - t0 < 5


def test_the_caps_and_the_product_with_the_data() -> None:
    assert MAX_BOOTSTRAP_SAMPLES == 100_000 and MAX_PERMUTATIONS == 100_000
    check_resamples(MAX_BOOTSTRAP_SAMPLES, MAX_PERMUTATIONS, 100, 1000)
    with pytest.raises(InputError, match="resamples × items"):
        check_resamples(100_000, 0, MAX_BOOTSTRAP_DRAWS // 100_000 + 1)
    with pytest.raises(InputError, match="permutations × rows"):
        check_resamples(1, 100_000, 1, MAX_BOOTSTRAP_DRAWS // 100_000 + 1)


def test_the_library_refuses_before_scoring() -> None:
    judged = judged_with(HUMAN)
    with pytest.raises(InputError, match="n_bootstrap"):
        correlate(judged, presets=("nltk",), n_bootstrap=3_000_000)
    with pytest.raises(InputError, match="n_permutations"):
        correlate(judged, presets=("nltk",), n_permutations=10**9)
    with pytest.raises(InputError, match="n_bootstrap"):
        tune(judged, preset="nltk", n_bootstrap=3_000_000)
