"""The command line's edges: inputs, outputs, signals, limits (issue 13, items 4-12).

:mod:`meteor.cli.commands` parses the options and prints the results; this module holds
what it needs at the edges, so that every check runs **before** any scoring:

* :func:`read_input` reads one input file (``-`` is stdin), refusing what is not a
  regular file (a FIFO would hang, ``/dev/urandom`` never ends) and virtual files
  (``/proc/version`` reports size 0), with sizes given in bytes read and the limit;
* :func:`check_outputs` checks every output path (its folder exists and is
  writable, it is not a folder, not an input, not given twice) before scoring;
  :func:`atomic_output` writes to a temporary file in the same folder and renames
  it only when the writing finished (an interrupted run leaves no half-written
  file); ``-`` is stdout;
* :func:`align_out_paths` gives each system its own ``--align-out`` file even when
  their names differ only in characters a file name cannot hold;
* :func:`handle_signals` turns SIGTERM into :class:`Terminated` (exit 143), as
  Ctrl-C is a ``KeyboardInterrupt`` (exit 130); the worker processes are stopped
  by :func:`meteor.analysis.parallel.score_corpus` when either reaches it;
* :func:`cap_workers`, :func:`check_bootstrap_work`, :func:`check_seed`: limits.

Scoring that survives segments which cannot be scored is :mod:`meteor.cli.failures`.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import signal
import stat
import sys
import tempfile
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TextIO

from meteor.analysis.parallel import default_workers
from meteor.io.read import MAX_BYTES, check_size

__all__ = [
    "DEFAULT_MAX_BOOTSTRAP_WORK",
    "EXIT_OK",
    "EXIT_SCORING",
    "EXIT_USAGE",
    "CliError",
    "Terminated",
    "align_out_paths",
    "atomic_output",
    "cap_workers",
    "check_bootstrap_work",
    "check_outputs",
    "check_seed",
    "handle_signals",
    "one_line_warnings",
    "read_input",
    "refuse_repeated_options",
]

STDIO = "-"
EXIT_OK = 0
#: A segment could not be scored (the others were written), or an internal error.
EXIT_SCORING = 1
#: Bad options or input, found before scoring.
EXIT_USAGE = 2
#: Most bootstrap work of one run: resamples × segments × (systems + 2 × paired tests),
#: 2.5 times one system's limit (:data:`meteor.analysis.corpus.MAX_BOOTSTRAP_DRAWS`).  A draw
#: costs about 35 ns on an idle core (10,000 segments × 1,000 resamples in 0.34 s), so
#: the default is about 20 s (3 minutes measured on a loaded 2-core machine, 2.7 M
#: draws/s).  ``--max-bootstrap-work`` raises it.
DEFAULT_MAX_BOOTSTRAP_WORK = 500_000_000
#: Largest ``--seed`` (numpy's generators take any non-negative integer; 128 bits is plenty).
MAX_SEED = 2**128 - 1


class CliError(Exception):
    """A user error: printed as one ``meteor: error:`` line, exit status 2."""


class Terminated(KeyboardInterrupt):  # noqa: N818 - it is an interruption, as its base
    """SIGTERM arrived: unwinds like Ctrl-C (workers stopped, no partial output)."""

    exit_code = 128 + signal.SIGTERM


# ---------------------------------------------------------------------------
# options
# ---------------------------------------------------------------------------
class _StoreOnce(argparse._StoreAction):
    """``store``, but a second occurrence of the option is a usage error."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        seen: set[str] = namespace.__dict__.setdefault("_given_once", set())
        if self.dest in seen:
            names = "/".join(self.option_strings)
            parser.error(
                f"{names} given more than once (only one value can be used, and silently "
                f"keeping the last would hide a mistake); give it once"
                + (
                    " with every weight, e.g. 'exact=1.0,stem=0.6'"
                    if self.dest == "weights"
                    else ""
                )
            )
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


def refuse_repeated_options(parser: argparse.ArgumentParser) -> None:
    """Make every single-valued option of ``parser`` refuse to be given twice."""
    for action in parser._actions:
        if type(action) is argparse._StoreAction:
            action.__class__ = _StoreOnce


def cap_workers(requested: int | None, stderr: TextIO) -> int | None:
    """``--workers`` capped at the CPUs this process may use, saying so on stderr."""
    if requested is None:
        return None
    cpus = default_workers()
    if requested > cpus:
        stderr.write(
            f"meteor: note: --workers {requested:,} is more than the {cpus} CPU(s) this "
            f"process may use; using {cpus}\n"
        )
        return cpus
    return requested


def check_seed(seed: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise CliError(f"--seed must be a whole number from 0 to 2**128 - 1, got {seed}")


def check_bootstrap_work(
    n_samples: int, n_segments: int, n_systems: int, limit: int = DEFAULT_MAX_BOOTSTRAP_WORK
) -> None:
    """Refuse a bootstrap whose total work exceeds ``limit`` (before any scoring).

    Work counts one unit per segment drawn per resample, per system, and twice per
    paired test (both systems are resampled): a paired test against the first
    system is run for every other system.
    """
    if not n_samples:
        return
    units = n_systems + 2 * max(0, n_systems - 1)
    work = n_samples * n_segments * units
    if work > limit:
        most = limit // max(1, n_segments * units)
        raise CliError(
            f"--bootstrap {n_samples:,} is too much work for {n_systems:,} system(s) × "
            f"{n_segments:,} segments: {work:,} segment draws (systems and paired tests), "
            f"the limit is {limit:,}; use --bootstrap {most:,} or less, or raise the limit "
            f"with --max-bootstrap-work {work}"
        )


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------
_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def read_input(
    path: str, what: str, stdin_used: list[bool], *, limit: int = MAX_BYTES
) -> tuple[str, bytes]:
    """``(display name, bytes)`` of an input; ``-`` is stdin (once).

    Only regular files are read by name: a FIFO blocks until some writer comes,
    a device may never end, and a virtual file (``/proc``, ``/sys``) reports size 0
    while it has content; pipe such input in as stdin instead.  A file over
    ``limit`` is refused before it is read; stdin is read up to ``limit + 1``
    bytes and refused when there are more.

    Raises:
        CliError: the file is missing, unreadable, not a regular file or too big.
    """
    if path == STDIO:
        if stdin_used[0]:
            raise CliError("stdin ('-') can be read only once")
        stdin_used[0] = True
        data = sys.stdin.buffer.read(limit + 1)  # never more than the limit in memory
        _check_read(len(data), "<stdin>", limit)
        return "<stdin>", data
    label = f"{what} file {path!r}"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CliError(f"cannot read {label}: no such file") from None
    except OSError as exc:
        raise CliError(f"cannot read {label}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise CliError(f"cannot read {label}: it is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise CliError(
            f"cannot read {label}: it is {_kind(st.st_mode)}, not a regular file; "
            f"to read from it, pipe it in as stdin: ... < {path} meteor score {_flag(what)} -"
        )
    check_size(st.st_size, label, limit)
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise CliError(f"cannot read {label}: {exc.strerror or exc}") from None
    if st.st_size == 0 and data:
        raise CliError(
            f"cannot read {label}: it reports a size of 0 bytes but has content, so it is a "
            "virtual file (such as /proc/version), not a text file; copy it to a file first"
        )
    _check_read(len(data), label, limit)
    return Path(path).name or path, data


def _flag(what: str) -> str:
    return "-r" if what == "reference" else "-i"


def _check_read(n_read: int, label: str, limit: int) -> None:
    if n_read > limit:
        raise CliError(
            f"{label} has more than {limit:,} bytes (reading stopped at {n_read:,} bytes); "
            f"at most {limit:,} bytes ({limit / 1e6:,.0f} MB) per input are accepted — split "
            "it and score the parts (statistics add up)"
        )


# ---------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------
def check_outputs(outputs: Sequence[tuple[str, str]], inputs: Sequence[str]) -> None:
    """Check every ``(flag, path)`` output before scoring.

    Raises:
        CliError: a folder that does not exist or is not writable, a path that is a
            folder, an output that would overwrite an input, the same file for two
            outputs, or stdout (``-``) for more than one output.
    """
    to_stdout = [flag for flag, path in outputs if path == STDIO]
    if len(to_stdout) > 1:
        both = "both" if len(to_stdout) == 2 else "all"
        raise CliError(f"{' and '.join(to_stdout)} {both} write to stdout ('-'); choose one")
    seen: dict[str, str] = {}
    input_ids = {_file_id(p) for p in inputs if p != STDIO} - {None}
    for flag, path in outputs:
        if path == STDIO:
            continue
        if not path:
            raise CliError(f"{flag} needs a file name (or '-' for stdout)")
        p = Path(path)
        if p.is_dir():
            raise CliError(f"cannot write {flag} {path!r}: it is a directory")
        folder = p.parent if str(p.parent) else Path(".")
        if not folder.exists():
            raise CliError(f"cannot write {flag} {path!r}: folder {str(folder)!r} does not exist")
        if not folder.is_dir():
            raise CliError(f"cannot write {flag} {path!r}: {str(folder)!r} is not a folder")
        if p.exists() and not p.is_file():
            pass  # /dev/null, a FIFO: written in place (see atomic_output)
        elif not _writable_folder(folder):
            raise CliError(f"cannot write {flag} {path!r}: folder {str(folder)!r} is not writable")
        key = str(p.resolve())
        if key in seen:
            raise CliError(f"{seen[key]} and {flag} both write {path!r}; give different files")
        seen[key] = flag
        if _file_id(path) in input_ids:
            raise CliError(f"{flag} {path!r} is one of the input files; it would be overwritten")


def _file_id(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _writable_folder(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (tried for real: root ignores modes,
    and a read-only file system shows only when writing)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".meteor-check.", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    return True


@contextlib.contextmanager
def atomic_output(path: str, stdout: TextIO | None = None) -> Iterator[TextIO]:
    """A text stream for an output: stdout for ``-``; else a temporary file beside
    ``path`` renamed to ``path`` when the block ends normally and removed otherwise
    (Ctrl-C, SIGTERM, an error), so ``path`` is never half-written.  Something that
    exists and is not a regular file (``/dev/null``, a FIFO) is written in place."""
    if path == STDIO:
        yield stdout if stdout is not None else sys.stdout
        return
    p = Path(path)
    try:
        if p.exists() and not p.is_file():
            with open(p, "w", encoding="utf-8", newline="\n") as fh:
                yield fh
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".part", dir=p.parent or ".")
    except OSError as exc:
        raise CliError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0o600; an output gets the usual mode
        os.replace(tmp, p)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def align_out_paths(path: str, systems: Sequence[str]) -> dict[str, str]:
    """One ``--align-out`` file per system: ``run.out`` → ``run.<system>.out``.

    A name that is not safe as a file name part (letters, digits, ``-_.``) has its
    other characters replaced by ``_`` and gets a short hash of the full name, so
    ``x y`` and ``x_y`` never share a file (nor ``A`` and ``a`` on a case-blind
    file system).  With one system, or ``-`` (stdout), the path is used as is.
    """
    if path == STDIO or len(systems) <= 1:
        return {name: path for name in systems}
    p = Path(path)
    out: dict[str, str] = {}
    taken: dict[str, str] = {}
    folded = [s.casefold() for s in systems]
    for name in systems:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
        if safe != name or folded.count(name.casefold()) > 1 or not name.strip("."):
            safe = f"{safe}-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:8]}"
        target = str(p.with_name(f"{p.stem}.{safe}{p.suffix}"))
        if target.casefold() in taken:  # pragma: no cover - a hash collision
            raise CliError(
                f"--align-out: systems {taken[target.casefold()]!r} and {name!r} would share "
                f"{target!r}; rename one of them"
            )
        taken[target.casefold()] = name
        out[name] = target
    return out


# ---------------------------------------------------------------------------
# signals
# ---------------------------------------------------------------------------
def _on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated


@contextlib.contextmanager
def handle_signals() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` in the main thread for the duration."""
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def one_line_warnings(stream: TextIO | None = None) -> Iterator[None]:
    """Warnings (an unusable cache folder, parallel scoring unavailable) as one line
    ``meteor: warning: …`` each, without the source line Python adds."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        out = stream if stream is not None else sys.stderr
        out.write(f"meteor: warning: {' '.join(str(message).split())}\n")

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield
