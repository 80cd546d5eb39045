"""What :func:`~meteor.analysis.agreement.correlate` and :func:`~meteor.analysis.tune.tune`
accept, checked before any work (the caps on resamples and permutations, the DARR
threshold), and how their records name an undefined Williams test and same-named preset
files.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from meteor.analysis.resampling import MAX_BOOTSTRAP_DRAWS, MAX_BOOTSTRAP_SAMPLES
from meteor.errors import InputError, shown

__all__ = [
    "MAX_PERMUTATIONS",
    "WILLIAMS_NA",
    "check_darr_threshold",
    "check_resamples",
    "file_labels",
    "williams_reason",
]

#: Most permutations of one PERM-BOTH test (``--permutations``).
MAX_PERMUTATIONS = 100_000


def check_darr_threshold(threshold: Any) -> float:
    """The DARR threshold: a finite number ≥ 0 (0 keeps every pair that is not a tie).

    Raises:
        InputError: naming ``darr_threshold``.
    """
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, int | float | np.number)
        or not math.isfinite(float(threshold))
        or threshold < 0
    ):
        raise InputError(
            "darr_threshold must be a finite number ≥ 0 (DARR pairs differ by it or more), "
            f"got {shown(threshold)}"
        )
    return float(threshold)


def check_resamples(n_bootstrap: int, n_permutations: int = 0, n_items: int = 0,
                    n_rows: int = 0) -> None:  # fmt: skip
    """Refuse resamples or permutations beyond the caps before any work.

    Raises:
        InputError: ``n_bootstrap`` not in [1, MAX_BOOTSTRAP_SAMPLES], ``n_permutations``
            not in [0, MAX_PERMUTATIONS], or either times the items (rows) over
            ``MAX_BOOTSTRAP_DRAWS``.
    """
    if not 1 <= n_bootstrap <= MAX_BOOTSTRAP_SAMPLES:
        raise InputError(
            f"n_bootstrap (--bootstrap) must be between 1 and {MAX_BOOTSTRAP_SAMPLES:,}, "
            f"got {n_bootstrap:,}"
        )
    if not 0 <= n_permutations <= MAX_PERMUTATIONS:
        raise InputError(
            f"n_permutations (--permutations) must be between 0 and {MAX_PERMUTATIONS:,}, "
            f"got {n_permutations:,}"
        )
    for n, what, size, unit in (
        (n_bootstrap, "resamples", n_items, "items"),
        (n_permutations, "permutations", n_rows, "rows"),
    ):
        if n * size > MAX_BOOTSTRAP_DRAWS:
            raise InputError(
                f"{n:,} {what} of {size:,} {unit} is too much ({what} × {unit} "
                f"≤ {MAX_BOOTSTRAP_DRAWS:,}); use at most {MAX_BOOTSTRAP_DRAWS // size:,}"
            )


#: Why a Williams test is n/a (:func:`~.agreement_stats.williams` gives NaN then).
WILLIAMS_NA = (
    "Williams' test needs 4 or more values and both Pearson correlations defined, "
    "not both metrics perfectly correlated"
)


def williams_reason(result: tuple[float, float]) -> str | None:
    """Why a Williams result ``(t, p)`` is undefined (None when it is a number)."""
    return None if all(math.isfinite(v) for v in result) else WILLIAMS_NA


def file_labels(files: Sequence[str], names: Sequence[str], taken: Sequence[str]) -> list[str]:
    """Each preset file's label: the ``name`` it holds, or, when two files (or a file and a
    preset) share that name, ``name (file.json)`` (the whole path when the file names are
    alike too)."""
    clash = {n for n in names if names.count(n) > 1 or n in taken}
    labels = [
        f"{n} ({os.path.basename(f)})" if n in clash else n
        for n, f in zip(names, files, strict=True)
    ]
    return [
        f"{n} ({f})" if labels.count(lab) > 1 else lab
        for lab, n, f in zip(labels, names, files, strict=True)
    ]
