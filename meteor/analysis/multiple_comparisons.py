"""Multiple-comparison corrections of a family of p-values (the report's pairwise tests).

* ``none``: the p-values as they are.
* ``bonferroni``: ``min(1, m·p_i)`` for ``m`` p-values (Bonferroni; Dunn 1961).
* ``holm``: Holm's step-down procedure (Holm 1979, "A simple sequentially rejective
  multiple test procedure", *Scand. J. Statist.* 6:65–70) as adjusted p-values: with the
  p-values sorted ascending ``p_(1) ≤ … ≤ p_(m)``,
  ``p̃_(i) = min(1, max_{j ≤ i} (m − j + 1)·p_(j))``; rejecting where ``p̃ < alpha`` is
  Holm's procedure at level ``alpha``.  Ties keep their input order.

These are the values of statsmodels' ``multipletests(method="holm" | "bonferroni")``
(statsmodels is not a dependency; ``scipy.stats`` has neither).  A NaN p-value (an
untested pair) is left NaN and does not count in ``m``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["CORRECTIONS", "adjust_p_values", "correction_name"]

#: The corrections offered, the default first.
CORRECTIONS = ("holm", "bonferroni", "none")

_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "none"}


def correction_name(method: str) -> str:
    """The correction as written in every output: ``Holm``, ``Bonferroni``, ``none``."""
    check_correction(method)
    return _NAMES[method]


def check_correction(method: str) -> None:
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}; got {method!r}")


def adjust_p_values(p_values: Sequence[float], method: str) -> tuple[float, ...]:
    """The adjusted p-values of ``p_values`` under ``method`` (module docstring), in input order."""
    check_correction(method)
    ps = [float(p) for p in p_values]
    if method == "none":
        return tuple(ps)
    tested = [k for k, p in enumerate(ps) if not math.isnan(p)]
    m = len(tested)
    out = list(ps)
    if method == "bonferroni":
        for k in tested:
            out[k] = min(1.0, m * ps[k])
        return tuple(out)
    running = 0.0
    for rank, k in enumerate(sorted(tested, key=lambda k: ps[k])):
        running = max(running, min(1.0, (m - rank) * ps[k]))
        out[k] = running
    return tuple(out)
