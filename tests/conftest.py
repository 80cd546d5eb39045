"""Shared test fixtures.  Expected values are read from ../shared/data by path, never copied."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def read_jsonl_gz(path: Path) -> Iterator[dict[str, Any]]:
    """Segment lines of a Meteor 1.5 harness file (the final corpus line is skipped)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "segment":
                yield d


def corpus_line(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        last: dict[str, Any] = {}
        for line in fh:
            d = json.loads(line)
            if d.get("type") == "corpus":
                last = d
        return last


@pytest.fixture(scope="session")
def shared_data() -> Path:
    assert SHARED_DATA.is_dir(), f"shared data not found at {SHARED_DATA}"
    return SHARED_DATA
