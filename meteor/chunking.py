"""Chunks: maximal runs of matches contiguous and in order on both sides.

The chunk rule and :func:`chunk_matches` live with the records, in :mod:`meteor.types`
(:func:`~meteor.types.chunk_starts` is the one counter, which the statistics use
too); this module keeps the name for earlier imports.
"""

from __future__ import annotations

from meteor.types import chunk_matches as chunk_matches

__all__ = ["chunk_matches"]
