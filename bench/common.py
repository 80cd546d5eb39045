"""What the benches share: the checkout and the shared data folder on ``sys.path`` terms,
peak memory and the load average.  A bench runs as ``python bench/<name>.py``, so this
folder is on ``sys.path`` and ``from common import ...`` finds this module."""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
#: ``$METEOR_SHARED_DATA`` or ``../shared/data`` beside the repository (as tests/conftest.py).
SHARED = Path(os.environ.get("METEOR_SHARED_DATA") or ROOT.parent / "shared" / "data")


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak RSS in MB of this process, or with ``RUSAGE_CHILDREN`` of its largest waited-for
    child (``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(who).ru_maxrss / 1024


def loadavg(sep: str = " ") -> str:
    """The 1, 5 and 15 minute load averages, two decimals each."""
    return sep.join(f"{x:.2f}" for x in os.getloadavg())
