"""``meteor.runners.parallel.run_tasks``: the statistics of ``measure`` and the sacreBLEU
baselines run through it; results come back in task order whether the work runs in worker
processes, in this process, or falls back to this process."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from meteor.analysis import agreement_stats as st
from meteor.analysis.resampling import resample_indices
from meteor.runners import parallel


def test_results_in_task_order_in_workers() -> None:
    seen: list[int] = []
    out = parallel.run_tasks([(math.pow, (2, k)) for k in range(9)], 2, lambda k, v: seen.append(k))
    assert out == [2.0**k for k in range(9)]
    assert sorted(seen) == list(range(9))


def test_falls_back_to_this_process_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(parallel, "run_in_workers", broken)
    with pytest.warns(
        RuntimeWarning, match="parallel statistics failed .*statistics in one process"
    ):
        out = parallel.run_tasks([(abs, (-3,)), (abs, (4,))], 2, what="statistics")
    assert out == [3, 4]


def test_perm_both_and_bootstrap_the_same_in_workers() -> None:
    rng = np.random.default_rng(0)
    items = np.repeat(np.arange(40), 3)
    human = rng.normal(size=120)
    a, b = human + rng.normal(size=120), np.round(human + rng.normal(size=120), 1)
    data = st.SegmentData.build(human, items)
    draws = resample_indices(40, 50, 1)
    tasks = [
        (st.perm_both, ("kendall_flat", data, a, b, 100, 2, "two")),
        (st.bootstrap_segment, ("spearman_flat", data, a, draws)),
    ]
    here = parallel.run_tasks(tasks, 1)
    there = parallel.run_tasks(tasks, 2)
    assert here[0] == there[0]
    assert np.array_equal(here[1], there[1])
