"""What the benches share: the checkout and the shared data folder on ``sys.path`` terms,
peak memory and the load average.  A bench runs as ``python bench/<name>.py``, so this
folder is on ``sys.path`` and ``from common import ...`` finds this module."""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
#: ``$METEOR_SHARED_DATA`` or ``../shared/data`` beside the repository (as tests/conftest.py).
SHARED = Path(os.environ.get("METEOR_SHARED_DATA") or ROOT.parent / "shared" / "data")
#: The Meteor 1.5 jar as tools/meteor15/setup_meteor15.sh unpacks it.
JAR = Path.home() / ".cache" / "meteor15" / "meteor-1.5" / "meteor-1.5.jar"


def jar_pairs(path: Path) -> list[tuple[str, str]]:
    """(hypothesis, first reference) of every segment of a jar's expected-value file
    (``meteor15.*.jsonl.gz``: one JSON object a line, pairs on ``"type": "segment"``)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [(d["hyp"], d["refs"][0]) for d in map(json.loads, fh) if d.get("type") == "segment"]


def python_path(root: Path) -> str:
    """A checkout on the path, with its own in-place build of ``./native`` first when it
    has one (``cd native && python setup.py build_ext --inplace``); otherwise the
    ``meteor_native`` installed in this interpreter is what its runs use."""
    native = root / "native"
    if any((native / "meteor_native").glob("*.so")):
        return f"{native}{os.pathsep}{root}"
    return str(root)


def beam_search() -> str:
    """Which Meteor 1.5 beam search this checkout's runs use: ``C`` (./native) or ``Python``."""
    code = "from meteor.aligners.beam import NATIVE_SEARCH as n; print('C' if n else 'Python')"
    env = dict(os.environ, PYTHONPATH=python_path(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak RSS in MB of this process, or with ``RUSAGE_CHILDREN`` of its largest waited-for
    child (``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(who).ru_maxrss / 1024


def loadavg(sep: str = " ") -> str:
    """The 1, 5 and 15 minute load averages, two decimals each."""
    return sep.join(f"{x:.2f}" for x in os.getloadavg())
