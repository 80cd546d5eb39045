"""Numbers as JSON holds them: the one rule of every JSON this package writes.

JSON has no NaN and no infinity.  Meteor 1.5 prints NaN where a quantity is undefined
(``MeteorScorer.computeMetrics``: a pair with no match or an empty side), and the
records keep those NaNs; in JSON each is ``null``.  ``-0.0`` is written ``0.0``.
:func:`unique_keys` is the ``object_pairs_hook`` of every JSON this package reads.
Imports nothing of the package: safe to use from any layer.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["RepeatedKeyError", "json_number", "json_ready", "json_text", "unique_keys"]


def json_number(x: float) -> float | None:
    """``x`` as JSON holds it: ``None`` for NaN and ±infinity (undefined), ``0.0`` for
    ``-0.0``, else ``x`` itself."""
    if not math.isfinite(x):
        return None
    return 0.0 if x == 0.0 else x


def json_ready(value: Any) -> Any:
    """A copy of ``value`` (dicts, lists, tuples as lists) with every float
    :func:`json_number`'s; anything else as it is (``True`` stays a bool)."""
    if isinstance(value, float):
        return json_number(value)
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_ready(v) for v in value]
    return value


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON text (UTF-8 characters kept, ``null`` for an undefined number);
    ``ValueError`` rather than ``NaN`` should a number slip past :func:`json_ready`."""
    return json.dumps(json_ready(value), ensure_ascii=False, allow_nan=False, indent=indent)


class RepeatedKeyError(Exception):
    """A JSON object gives ``key`` twice (each reader says so in its own terms)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``' ``object_pairs_hook``: refuse a key given twice (``json`` would keep
    the last value silently)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKeyError(key)
            seen.add(key)
    return out
