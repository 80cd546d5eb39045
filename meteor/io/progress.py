"""A one-line progress bar for a terminal: the CLI's and the Dask runner's.

It lives below the CLI (:mod:`meteor.cli`, ``meteor stream`` included) and the runners
that report progress, so none of them imports another for it.
"""

from __future__ import annotations

from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """A one-line progress bar on stderr (``\\r`` updates)."""

    def __init__(self, stream: TextIO, label: str) -> None:
        self.stream = stream
        self.label = label
        self.last = -1

    def __call__(self, fraction: float, message: str) -> None:
        pct = int(fraction * 100)
        if pct == self.last and fraction < 1.0:
            return
        self.last = pct
        filled = int(fraction * 30)
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {pct:3d}% {message}\x1b[K"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.last >= 0:
            self.stream.write("\n")
            self.stream.flush()
