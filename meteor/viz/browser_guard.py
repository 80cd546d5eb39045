"""The browser that draws figures never outlives the export: a watchdog process.

kaleido starts Chromium in a session of its own (``start_new_session``), so neither our
timeout nor a signal or crash of our process reaches it.  :meth:`BrowserGuard.kill` ends the
browser's whole process group (our timeout); a watchdog process (``python -c``, in a session
of its own) holds the read end of a pipe only we write to: when our process ends in any way
the kernel closes the pipe, and the watchdog reads end-of-file and kills every group it was
told about.  :meth:`BrowserGuard.release` says "done" first, so a normal end kills nothing.
POSIX only (process groups); elsewhere the guard does nothing beyond ``Popen.kill``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from typing import IO

__all__ = ["BrowserGuard"]

#: The watchdog: reads process-group ids, one a line; "done" ends it quietly; end of
#: file (its parent gone, or the guard released without "done") kills them all.
_WATCHDOG = """
import os, signal, sys
groups = []
for line in sys.stdin:
    line = line.strip()
    if line == "done":
        sys.exit(0)
    if line.isascii() and line.isdigit():
        groups.append(int(line))
for g in groups:
    try:
        os.killpg(g, signal.SIGKILL)
    except OSError:
        pass
"""


class BrowserGuard:
    """Kills the process groups it watches on :meth:`kill`, and when our process ends
    before :meth:`release` (module docstring)."""

    def __init__(self) -> None:
        self._groups: list[int] = []
        self._pipe: IO[bytes] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        if hasattr(os, "killpg") and sys.executable:
            try:
                self._proc = subprocess.Popen(
                    [sys.executable, "-c", _WATCHDOG],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # a signal to our process group spares it
                )
            except OSError:  # no interpreter to run it: the timeouts' kill still holds
                return
            self._pipe = self._proc.stdin

    def watch(self, group: int) -> None:
        """Also kill process group ``group`` (the browser wrapper's pid) if we end."""
        if group in self._groups:
            return
        self._groups.append(group)
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                self._pipe.write(f"{group}\n".encode())
                self._pipe.flush()

    def kill(self) -> None:
        """Kill every watched process group now."""
        for group in self._groups:
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)

    def release(self) -> None:
        """Stop watching: the watchdog ends without killing anything."""
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                self._pipe.write(b"done\n")
                self._pipe.flush()
            with contextlib.suppress(OSError):
                self._pipe.close()
            self._pipe = None
        if self._proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
            self._proc = None
