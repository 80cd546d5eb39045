"""Official human system scores (a WMT ``sys`` file): :func:`read_system_scores`.

The WMT metrics tasks correlate a metric's system scores with the official human system
scores (WMT21's ``ad-sys-ranking-*.csv``, mt-metrics-eval's ``*.sys.score``): a table with
a ``system`` column and score columns, one row per system.
"""

from __future__ import annotations

from dataclasses import dataclass

from meteor.errors import InputError
from meteor.io.lines import MAX_SEGMENTS, detect_format
from meteor.io.rows import table_rows
from meteor.io.scores import cell_number, numeric_columns

__all__ = ["SystemScores", "read_system_scores"]


@dataclass(frozen=True)
class SystemScores:
    """Human system scores from a file.

    Attributes:
        source: the file's name.
        column: the score column read.
        scores: ``(system, score)`` in file order (higher = better unless the caller says
            otherwise).
    """

    source: str
    column: str
    scores: tuple[tuple[str, float], ...]

    def as_dict(self) -> dict[str, float]:
        return dict(self.scores)


def read_system_scores(data: bytes | str, name: str, column: str | None = None) -> SystemScores:
    """Read one score per system from ``column`` (default: the first numeric column).

    Raises:
        InputError: plain text, no ``system`` column, no (such) score column, a cell that
            is not a number, a system given twice, or no row.
    """
    kind = detect_format(name)
    if kind == "text":
        raise InputError(
            f"{name}: system scores need a table (TSV, CSV or JSONL) with a 'system' column "
            "and a score column"
        )
    header, rows = table_rows(data, name, kind, MAX_SEGMENTS)
    sys_col = next((h for h in header if h.lower() in ("system", "sys")), None)
    if sys_col is None:
        raise InputError(f"{name}: no 'system' column; columns: {', '.join(header)}")
    if column is None:
        numeric = [c for c in numeric_columns(data, name) if c != sys_col]
        if not numeric:
            raise InputError(f"{name}: no numeric score column; columns: {', '.join(header)}")
        column = numeric[0]
    elif column not in header:
        raise InputError(f"{name}: no column {column!r}; columns: {', '.join(header)}")
    out: dict[str, float] = {}
    for line, row in rows:
        system = str(row.get(sys_col, "")).strip()
        if not system:
            raise InputError(f"{name}: line {line} has no system name")
        value = cell_number(row.get(column))
        if value is None:
            raise InputError(
                f"{name}: line {line}: column {column!r} is not a number ({row.get(column)!r})"
            )
        if system in out:
            raise InputError(f"{name}: system {system!r} is given twice; give each system once")
        out[system] = value
    if not out:
        raise InputError(f"{name}: no system scores (the table has no rows)")
    return SystemScores(name, column, tuple(out.items()))
