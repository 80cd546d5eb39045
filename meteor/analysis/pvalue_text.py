"""How every human-readable output writes a resampling test's p-value (:func:`p_value_text`):
never ``0``, since a test with B resamples cannot tell a p below its resolution
(docs/report.md).
"""

from __future__ import annotations

import math

__all__ = ["bootstrap_resolution", "p_value_text", "plus_one_resolution"]


def bootstrap_resolution(samples: int) -> float:
    """The smallest two-sided paired-bootstrap p with ``samples`` resamples: 2/(B+1)."""
    return 2 / (samples + 1)


def plus_one_resolution(resamples: int) -> float:
    """The smallest ``(k+1)/(B+1)`` p (approximate randomisation, sacreBLEU's bootstrap
    p) with B = ``resamples``: 1/(B+1)."""
    return 1 / (resamples + 1)


def p_value_text(
    p: float | None,
    resolution: float,
    *,
    relation: bool = False,
    decimal: str = ".",
    missing: str = "n/a",
) -> str:
    """``p`` for people: ``0.0712`` (two significant digits below 0.0001: ``5e-05``), or
    ``< 0.002`` when it is 0 (below ``resolution``, the test's smallest positive p:
    :func:`bootstrap_resolution`, :func:`plus_one_resolution`).

    ``relation``: write ``= 0.0712`` / ``< 0.002`` (after a "p"); ``decimal``: the decimal
    mark; ``missing``: what stands for ``None`` or NaN.
    """
    if p is None or not math.isfinite(p):
        return missing
    if p <= 0.0:
        text = f"< {resolution:.2g}"
    else:
        text = ("= " if relation else "") + (f"{p:.4f}" if p >= 1e-4 else f"{p:.2g}")
    return text.replace(".", decimal) if decimal != "." else text
