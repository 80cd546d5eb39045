"""Child processes of the Dask tests (a real ``dask scheduler`` / ``dask worker``)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from typing import IO, Any


def stop_processes(procs: Sequence[subprocess.Popen[Any]], logs: Sequence[IO[Any]]) -> None:
    """Terminate the processes newest first, wait for each (kill after 20 s), close the logs."""
    for p in reversed(procs):
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
    for log in logs:
        log.close()
