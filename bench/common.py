"""What the benches share: paths, the shared data's tables, timing, peak memory, cold runs of a
child process and the load average.  A bench runs as ``python bench/<name>.py``, so ``from
common import ...`` finds this module (and it puts ``tools/`` on ``sys.path`` for
``from serve_class import ...``)."""

from __future__ import annotations

import csv
import gzip
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, TypeVar

ROOT = Path(__file__).resolve().parents[1]
for _folder in (ROOT / "tools", ROOT):  # the checkout's library first, then tools/serve_class.py
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
P = ParamSpec("P")
T = TypeVar("T")
#: ``$METEOR_SHARED_DATA`` or ``../shared/data`` beside the repository (as tests/conftest.py).
SHARED = Path(os.environ.get("METEOR_SHARED_DATA") or ROOT.parent / "shared" / "data")
#: The Meteor 1.5 jar as tools/meteor15/setup_meteor15.sh unpacks it.
JAR = Path.home() / ".cache" / "meteor15" / "meteor-1.5" / "meteor-1.5.jar"


def java_runs(skip: bool) -> bool:
    """Whether the jar runs: not ``skip``ped, and unpacked (else it says how to get it)."""
    if not skip and not JAR.is_file():
        print(f"(Java skipped: {JAR} not found; run ../shared/tools/meteor15/setup_meteor15.sh)")
    return not skip and JAR.is_file()


def jar_command(hyp: str, ref: str, *extra: str) -> list[str]:
    """Meteor 1.5 ``-l en -norm -q`` (and ``extra``) scoring the files ``hyp`` against ``ref``."""
    return ["java", "-Xmx2G", "-jar", str(JAR), hyp, ref, "-l", "en", "-norm", "-q", *extra]


def jar_pairs(path: Path) -> list[tuple[str, str]]:
    """(hypothesis, first reference) of every segment of a jar's expected-value file
    (``meteor15.*.jsonl.gz``: one JSON object a line, pairs on ``"type": "segment"``)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return [(d["hyp"], d["refs"][0]) for d in map(json.loads, fh) if d.get("type") == "segment"]


def read_tsv(path: Path) -> list[dict[str, str]]:
    """The rows of a tab-separated table with a header line, read with ``csv.QUOTE_NONE`` (as
    the shared data's READMEs say: quotes are text)."""
    csv.field_size_limit(1 << 30)
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def last_json(cmd: list[str], **kw: Any) -> dict[str, Any]:
    """The JSON object a child process prints last (it must exit 0)."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def child_env(root: Path = ROOT, **extra: str) -> dict[str, str]:
    """This environment (and ``extra``) with the checkout ``root`` first on ``PYTHONPATH``, for a
    child ``python -m meteor ...`` run from anywhere; its own in-place build of ``./native``
    before it when it has one (``cd native && python setup.py build_ext --inplace``), else
    the ``meteor_native`` installed in this interpreter is what its runs use."""
    native = root / "native"
    built = [str(native)] if any((native / "meteor_native").glob("*.so")) else []
    path = os.pathsep.join([*built, str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
    return dict(os.environ, PYTHONPATH=path, **extra)


def write_pairs(folder: Path, pairs: Iterable[tuple[str, str]]) -> tuple[Path, Path]:
    """``hyp.txt`` and ``ref.txt`` in ``folder`` (created), one segment a line, for the CLI."""
    folder.mkdir(parents=True, exist_ok=True)
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    with hyp.open("w", encoding="utf-8") as hf, ref.open("w", encoding="utf-8") as rf:
        for h, r in pairs:
            hf.write(h + "\n")
            rf.write(r + "\n")
    return hyp, ref


def beam_search() -> str:
    """Which Meteor 1.5 beam search this checkout's runs use: ``C`` (./native) or ``Python``."""
    code = "from meteor.aligners.beam import NATIVE_SEARCH as n; print('C' if n else 'Python')"
    out = subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak RSS in MB of this process, or with ``RUSAGE_CHILDREN`` of its largest waited-for
    child (``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(who).ru_maxrss / 1024


def loadavg(sep: str = " ") -> str:
    """The 1, 5 and 15 minute load averages, two decimals each."""
    return sep.join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn: Callable[P, T], *args: P.args, **kw: P.kwargs) -> tuple[float, T]:
    """(wall seconds, result) of one call ``fn(*args, **kw)``."""
    t0 = time.perf_counter()
    result = fn(*args, **kw)
    return time.perf_counter() - t0, result


def tree_memory(pid: int) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) in bytes over a process and all its descendants (0 once gone).
    PSS divides pages shared by forked workers (the memory-mapped paraphrase index, tables
    inherited from the parent) among them: the honest total for a tree; RSS counts them in each."""
    rss = pss = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack += [int(x) for x in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return rss * 1024, pss * 1024


class Cold(NamedTuple):
    """One cold process's run (:func:`run_cold`)."""

    wall: float  #: seconds
    cpu: float  #: user + system seconds of the process and the children it waited for
    stdout: str
    maxrss_mb: float  #: the kernel's peak RSS of its largest process (``ru_maxrss``)
    pss_mb: float  #: peak of the tree's summed PSS (sampled, :func:`tree_memory`), else NaN
    rss_mb: float  #: peak of the tree's summed RSS (sampled), else NaN


def run_cold(cmd: list[str], sample: bool = True, **kw: object) -> Cold:
    """Run ``cmd`` (it must exit 0) in a cold process, output to files, not pipes.

    ``sample``: its process tree's memory every 20 ms; without it, a blocking ``wait4``
    (the steadiest wall time)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, text=True, **kw)  # type: ignore[call-overload]
        peak_rss = peak_pss = 0
        while sample and not (done := os.wait4(proc.pid, os.WNOHANG))[0]:
            rss, pss = tree_memory(proc.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            time.sleep(0.02)
        if not sample:
            done = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(done[1])
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed ({proc.returncode}):\n{stderr[-2000:]}")
    usage = done[2]
    cpu = usage.ru_utime + usage.ru_stime
    mb = 2**20 if sample else math.nan  # not sampled: NaN
    return Cold(wall, cpu, stdout, usage.ru_maxrss / 1024, peak_pss / mb, peak_rss / mb)
