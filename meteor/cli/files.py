"""The command line's edges: inputs, outputs, signals, limits, all checked before any scoring.

Inputs are declared per command (:func:`mark_inputs`) and checked (:func:`check_inputs`);
outputs are checked against every input by file identity (:func:`check_outputs`) and
written complete or not at all (:func:`atomic_output`); SIGTERM unwinds like Ctrl-C
(:func:`handle_signals`); usage errors are one line (:class:`Parser`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import os
import re
import signal
import stat
import sys
import tempfile
import unicodedata
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TextIO

from meteor.cli.numbers import real_number, whole_number
from meteor.io.progress import ProgressBar
from meteor.io.read import MAX_BYTES, check_size
from meteor.json_numbers import json_text
from meteor.runners.parallel import default_workers

__all__ = [
    "DEFAULT_MAX_BOOTSTRAP_WORK",
    "EXIT_SCORING",
    "EXIT_USAGE",
    "CliError",
    "STDIO",
    "Parser",
    "Terminated",
    "align_out_paths",
    "atomic_output",
    "cap_workers",
    "check_bootstrap_work",
    "check_dask",
    "check_input_file",
    "check_inputs",
    "check_output_folder",
    "check_outputs",
    "check_seed",
    "check_width",
    "check_stdout",
    "handle_signals",
    "input_paths",
    "interrupted",
    "mark_inputs",
    "one_line_warnings",
    "progress_bar",
    "read_input",
    "remove_stale_parts",
    "write_record",
    "writes_stdout",
]

STDIO = "-"
#: A segment could not be scored (the others were written), or an internal error.
EXIT_SCORING = 1
#: Bad options or input, found before scoring.
EXIT_USAGE = 2
#: Most bootstrap work of one run: resamples × segments × (systems + 2 × paired tests),
#: 2.5 times one system's limit (:data:`meteor.analysis.significance.MAX_BOOTSTRAP_DRAWS`);
#: about 20 s at 35 ns a draw.  ``--max-bootstrap-work`` raises it.
DEFAULT_MAX_BOOTSTRAP_WORK = 500_000_000
#: Largest ``--seed`` (numpy's generators take any non-negative integer; 128 bits is plenty).
MAX_SEED = 2**128 - 1


class CliError(Exception):
    """A user error: printed as one ``meteor: error:`` line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line ``meteor: error: …`` and exit status 2; ``int``
    and ``float`` read plain ASCII numbers (:mod:`meteor.cli.numbers`); no abbreviated
    options; a single-valued option given twice is a usage error (:class:`_StoreOnce`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.register("type", int, whole_number)
        self.register("type", float, real_number)
        self.register("action", None, _StoreOnce)  # argparse's default action, "store"
        self.register("action", "store", _StoreOnce)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"meteor: error: {one_line(message)} (see --help)\n")
        sys.exit(EXIT_USAGE)


def visible(text: str) -> str:
    """``text`` with each control character that is not white space (ESC, BEL, NUL, DEL,
    C1) written as its escape (``\\x1b``), so none reaches the terminal raw."""
    return "".join(
        c.encode("unicode_escape").decode("ascii")
        if unicodedata.category(c) == "Cc" and not c.isspace()
        else c
        for c in text
    )


#: Longest run of non-space characters an error line shows whole (longer: cut, with its length).
MAX_SHOWN_WORD = 300


def one_line(message: str) -> str:
    """``message`` as the one line the CLI prints: :func:`visible`, white space collapsed,
    any run of more than :data:`MAX_SHOWN_WORD` non-space characters cut."""

    def cut(m: re.Match[str]) -> str:
        word = m.group()
        return f"{word[:100]}…[{len(word):,} characters]"

    return re.sub(rf"\S{{{MAX_SHOWN_WORD + 1},}}", cut, " ".join(visible(message).split()))


class Terminated(KeyboardInterrupt):  # noqa: N818 - it is an interruption, as its base
    """SIGTERM arrived: unwinds like Ctrl-C (workers stopped, no partial output)."""

    exit_code = 128 + signal.SIGTERM


def interrupted(exc: KeyboardInterrupt) -> int:
    """Say that Ctrl-C or SIGTERM (:class:`Terminated`) stopped the run; its exit status."""
    terminated = isinstance(exc, Terminated)
    sys.stderr.write(f"\nmeteor: {'terminated' if terminated else 'interrupted'}\n")
    return Terminated.exit_code if terminated else 130


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
            hint = " with every weight, e.g. 'exact=1.0,stem=0.6'" if self.dest == "weights" else ""
            parser.error(
                f"{names} given more than once (only one value can be used, and silently "
                f"keeping the last would hide a mistake); give it once{hint}"
            )
        seen.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


def cap_workers(requested: int | None) -> int | None:
    """``--workers`` capped at the CPUs this process may use, saying so on stderr."""
    if requested is None:
        return None
    cpus = default_workers()
    if requested > cpus:
        sys.stderr.write(
            f"meteor: note: --workers {requested:,} is more than the {cpus} CPU(s) this "
            f"process may use; using {cpus}\n"
        )
        return cpus
    return requested


#: Most decimals of a text summary (``--width``): a float has 17 significant digits.
MAX_WIDTH = 17
#: Longest ``--dask-timeout`` accepted, in seconds (a day).
MAX_DASK_TIMEOUT = 86_400.0


def check_width(width: int) -> None:
    """``--width``: decimals of the text summary, 0 to :data:`MAX_WIDTH`."""
    if not 0 <= width <= MAX_WIDTH:
        raise CliError(f"--width must be between 0 and {MAX_WIDTH}, got {width}")


def check_dask(address: str | None, timeout: float) -> str | None:
    """``--dask`` and ``--dask-timeout`` (``score``, ``meteor stream``): the address to connect
    to (None without ``--dask``; ``local:N`` capped at this process's CPUs, saying so).

    Raises:
        CliError: an empty or malformed address
            (:func:`meteor.runners.cluster.client.check_address`), or a timeout outside
            (0, :data:`MAX_DASK_TIMEOUT`] seconds.
    """
    if address is None:
        return None
    if not address.strip():
        raise CliError(
            "--dask needs an address: tcp://HOST:PORT or local:N (leave --dask out to "
            "score on this machine)"
        )
    if not 0 < timeout <= MAX_DASK_TIMEOUT:  # nan and inf too
        raise CliError(
            f"--dask-timeout must be a positive number of seconds, at most "
            f"{MAX_DASK_TIMEOUT:,.0f} (a day), got {timeout}"
        )
    from meteor.errors import ClusterError
    from meteor.runners.cluster.client import check_address  # loads distributed: --dask only

    try:
        address, n_local = check_address(address)
    except ClusterError as exc:
        raise CliError(f"--dask: {exc}") from None
    cpus = default_workers()
    if n_local is not None and n_local > cpus:
        sys.stderr.write(
            f"meteor: note: --dask {address} asks for {n_local:,} worker processes, more than "
            f"the {cpus} CPU(s) this process may use; using local:{cpus}\n"
        )
        return f"local:{cpus}"
    return address


def check_seed(seed: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise CliError(f"--seed must be a whole number from 0 to 2**128 - 1, got {seed}")


def check_bootstrap_work(n_samples: int, n_segments: int, n_systems: int, limit: int) -> None:
    """Refuse a bootstrap whose total work exceeds ``limit``: one unit per segment drawn per
    resample, per system, and two per paired test (each system against the first)."""
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


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def mark_inputs(parser: argparse.ArgumentParser, **what: str) -> None:
    """Declare the options of ``parser`` whose values name files the command reads, by
    argparse ``dest``: what each file holds (``hyp="hypothesis"``, ``preset_file="preset"``).
    :func:`check_inputs` checks each; no output may name one (:func:`check_outputs`)."""
    flags = {a.dest: max(a.option_strings, key=len) for a in parser._actions if a.dest in what}
    declared = tuple((dest, flags[dest], kind) for dest, kind in what.items())
    parser.set_defaults(_input_files=declared)


def _declared_inputs(args: argparse.Namespace) -> Iterator[tuple[str, str, list[str]]]:
    """``(flag, what, paths)`` of every input option declared by :func:`mark_inputs`."""
    for dest, flag, what in getattr(args, "_input_files", ()):
        value = getattr(args, dest, None)
        if value is None:
            continue
        paths = [value] if isinstance(value, str) else list(value)
        yield flag, what, paths


def input_paths(args: argparse.Namespace) -> list[str]:
    """Every file the command reads (``-``: stdin), from the options :func:`mark_inputs` declared."""
    return [p for _, _, paths in _declared_inputs(args) for p in paths]


def check_inputs(args: argparse.Namespace) -> None:
    """Check every file the command reads, before any work: each that exists is a regular
    file (:func:`check_input_file`; a missing one is named by its reader), no file (by
    device and inode) is given twice to one option, and stdout does not go into one.

    Raises:
        CliError: naming the option, the file and what is wrong.
    """
    names: dict[tuple[int, int], str] = {}  # every input file, by identity: its first name
    for flag, what, paths in _declared_inputs(args):
        seen: dict[tuple[int, int], str] = {}
        for path in paths:
            if path == STDIO or not os.path.exists(path):
                continue  # a missing file: said by its reader, in the command's order
            st = check_input_file(path, what)
            fid = (st.st_dev, st.st_ino)
            if fid in seen:
                same = "twice" if seen[fid] == path else f"and {seen[fid]!r}: the same file"
                raise CliError(
                    f"{flag} names {path!r} {same}; give each file once (read twice, "
                    "its systems, rows or references would count twice)"
                )
            seen[fid] = path
            names.setdefault(fid, path)
    out = _file_id(1)
    if out is not None and out in names and out != _file_id(os.devnull):
        raise CliError(
            f"stdout is redirected to the input file {names[out]!r}; it would be overwritten "
            "(send stdout to another file)"
        )


def check_input_file(path: str, what: str) -> os.stat_result:
    """The ``stat`` of an input file (not ``-``) that exists and is a regular file (a FIFO
    may block for ever, a device never end).  ``what``: what it holds, for the message.

    Raises:
        CliError: the file is missing, cannot be looked at, or is not a regular file.
    """
    label = f"{what} file {path!r}"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CliError(f"cannot read {label}: no such file") from None
    except OSError as exc:
        raise CliError(f"cannot read {label}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name
        raise CliError(f"cannot read {label}: not a valid file name") from None
    if stat.S_ISDIR(st.st_mode):
        raise CliError(f"cannot read {label}: it is a directory")
    if not stat.S_ISREG(st.st_mode):
        hint = (
            f"to read from it, pipe it in as stdin: ... < {path} meteor score "
            f"{'-r' if what == 'reference' else '-i'} -"
            if what in ("hypothesis", "reference")
            else "copy it to a regular file first"
        )
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise CliError(f"cannot read {label}: it is {kind}, not a regular file; {hint}")
    return st


def read_input(
    path: str, what: str, stdin_used: list[bool], *, limit: int = MAX_BYTES
) -> tuple[str, bytes]:
    """``(display name, bytes)`` of an input; ``-`` is stdin (once).  Only regular files
    are read by name (:func:`check_input_file`), no virtual file (``/proc``: size 0 with
    content); more than ``limit`` bytes are refused, a file before it is read.

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
    st = check_input_file(path, what)
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
    name = Path(path).name or path  # a label (system, data): bytes that are not UTF-8 as �
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), data


def _check_read(n_read: int, label: str, limit: int) -> None:
    if n_read > limit:
        raise CliError(
            f"{label} has more than {limit:,} bytes (reading stopped at {n_read:,} bytes); "
            f"at most {limit:,} bytes ({limit / 1e6:,.0f} MB) per input are accepted — split "
            "it and score the parts (statistics add up)"
        )


def check_stdout() -> None:
    """Refuse to run with stdout closed (``>&-``): the first file opened would take
    descriptor 1.

    Raises:
        CliError: stdout is closed.
    """
    if sys.stdout is None or _file_id(1) is None:
        raise CliError(
            "stdout is closed (started with '>&-'); send it somewhere, e.g. '> /dev/null'"
        )


def writes_stdout(path: str) -> bool:
    """Whether writing ``path`` writes stdout: ``-``, or the file descriptor 1 writes to
    (``/dev/stdout``, a redirection, the terminal) unless it is the null device."""
    if path == STDIO:
        return True
    fid = _file_id(path)
    return fid is not None and fid == _file_id(1) and fid != _file_id(os.devnull)


def check_outputs(outputs: Sequence[tuple[str, str]], inputs: Sequence[str]) -> None:
    """Check every ``(flag, path)`` output before scoring; inputs (and the file read as
    stdin when ``-`` is one) are recognised by device and inode, whatever their name.

    Raises:
        CliError: a name that cannot be a file name, a folder that does not exist or is
            not writable, a path that is a folder, an output that would overwrite an
            input, the same file for two outputs, or stdout (``-``, ``/dev/stdout``) for
            more than one output.
    """
    for flag, path in outputs:
        _check_name(flag, path)
    _check_stdout_writers(outputs)
    seen: dict[str, str] = {}
    input_ids = {_file_id(p) for p in inputs if p != STDIO} - {None}
    stdin_id = _file_id(0) if STDIO in inputs else None
    for flag, path in outputs:
        if writes_stdout(path):
            continue
        p = Path(_target(path))
        if p.is_dir():
            raise CliError(f"cannot write {flag} {path!r}: it is a directory")
        folder = p.parent  # "." for a bare name
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
        fid = _file_id(path)
        if fid is not None and fid in input_ids:
            raise CliError(f"{flag} {path!r} is one of the input files; it would be overwritten")
        if fid is not None and fid == stdin_id:
            raise CliError(
                f"{flag} {path!r} is the file read as stdin (an input); it would be overwritten"
            )


def check_output_folder(flag: str, path: str) -> None:
    """An output folder (``report --out``): a folder where files can be created, or one
    that does not exist yet in such a folder.

    Raises:
        CliError: an empty name, a path that is a file, a parent that does not exist, or
            a folder (or parent) where no file can be created.
    """
    if not path:
        raise CliError(f"{flag} needs a folder name")
    if path == "-":  # stdout elsewhere: a report is several files
        raise CliError(f"{flag} needs a folder name; '-' (stdout) cannot hold the report's files")
    _check_name(flag, path)
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise CliError(f"cannot write {flag} {path!r}: it is a file; give a folder")
    folder = p if p.exists() else p.parent
    if not folder.is_dir():
        raise CliError(
            f"cannot create {flag} {path!r}: its parent folder {str(folder)!r} does not exist"
        )
    if not _writable_folder(folder):
        what = "folder" if folder is p else "parent folder"
        raise CliError(
            f"cannot {'write in' if folder is p else 'create'} {flag} {path!r}: its {what} "
            f"{str(folder)!r} is not writable"
        )


def _check_name(flag: str, path: str) -> None:
    if not path:
        raise CliError(f"{flag} needs a file name (or '-' for stdout)")
    try:
        os.fsencode(path)
    except UnicodeError:
        raise CliError(
            f"cannot write {flag} {path!r}: the name cannot be a file name here (not "
            f"valid {sys.getfilesystemencoding()}); choose another name"
        ) from None


def _check_stdout_writers(outputs: Sequence[tuple[str, str]]) -> None:
    to_stdout = [(flag, path) for flag, path in outputs if writes_stdout(path)]
    if len(to_stdout) <= 1:
        return
    both = "both" if len(to_stdout) == 2 else "all"
    named = [flag if path == STDIO else f"{flag} {path!r}" for flag, path in to_stdout]
    aliases = [path for _, path in to_stdout if path != STDIO]
    if not aliases:
        raise CliError(f"{' and '.join(named)} {both} write to stdout ('-'); choose one")
    raise CliError(
        f"{' and '.join(named)} {both} write to stdout ({', '.join(map(repr, aliases))} is "
        "where stdout goes: every record would be written twice); choose one"
    )


def _file_id(path: str | int) -> tuple[int, int] | None:
    """``(device, inode)`` of a path or an open descriptor (``1``: stdout), else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino)


def _target(path: str) -> str:
    """Where writing ``path`` lands: a symbolic link's target (the link stays a link)."""
    return os.path.realpath(path) if os.path.islink(path) else path


def _writable_folder(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (tried: root ignores modes, and a
    read-only file system shows only when writing)."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".meteor-check.", dir=folder)
    except OSError:
        return False
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or not allowed to ask: keep its file
        return True
    return True


def remove_stale_parts(target: str) -> list[str]:
    """Remove the temporary files of output ``target`` whose writer (the pid in the name)
    no longer exists (``kill -9``, a power cut); the paths removed."""
    folder, name = os.path.split(target)
    # a temporary file of the output: .<name>.<writer pid>.<8 random>.part (atomic_output)
    pattern = re.compile(rf"\.{re.escape(name)}\.(\d+)\.[a-z0-9_]{{8}}\.part")
    removed: list[str] = []
    try:
        entries = os.listdir(folder or ".")
    except OSError:
        return removed
    for entry in entries:
        m = pattern.fullmatch(entry)
        if m is None or _pid_alive(int(m.group(1))):
            continue
        stale = os.path.join(folder, entry)
        with contextlib.suppress(OSError):
            if stat.S_ISREG(os.lstat(stale).st_mode):
                os.unlink(stale)
                removed.append(stale)
    return removed


@contextlib.contextmanager
def atomic_output(path: str, *, flag: str | None = None) -> Iterator[TextIO]:
    """The one writer of every output: a text stream for ``path``.

    ``-`` or the file stdout goes to: stdout.  Something that is not a regular file
    (``/dev/null``, a FIFO): written in place.  Else a temporary file
    ``.<name>.<pid>.<random>.part`` beside the target (a link's target), renamed onto it
    when the block ends normally and removed otherwise, so the target is never
    half-written; an existing file keeps its permissions.  A failed write is a
    :class:`CliError` naming ``flag`` and ``path``.
    """
    label = f"{flag} {path!r}" if flag else repr(path)
    if writes_stdout(path):
        if sys.stdout is None:
            check_stdout()
        yield sys.stdout
        sys.stdout.flush()
        return
    target = _target(path)
    try:
        if os.path.exists(target) and not os.path.isfile(target):
            with os.fdopen(_open_special(target, label), "w", encoding="utf-8", newline="\n") as fh:
                yield fh
            return
    except OSError as exc:
        raise _write_error(label, exc) from None
    folder, name = os.path.split(target)
    remove_stale_parts(target)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask  # mkstemp makes 0o600; a new output gets the usual mode
    try:
        fd, tmp = tempfile.mkstemp(
            prefix=f".{name}.{os.getpid()}.", suffix=".part", dir=folder or "."
        )
    except OSError as exc:
        raise CliError(f"cannot write {label}: {exc.strerror or exc}") from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise _write_error(label, exc) from None
        raise


def write_record(
    args: argparse.Namespace, record: Callable[[], dict[str, Any]], text: Callable[[], str]
) -> None:
    """Print the record to stdout: ``record()`` as one JSON object with ``--format json``,
    else ``text()``."""
    out_text = json_text(record()) if args.format == "json" else text()
    with atomic_output("-") as out:
        out.write(out_text + "\n")


@contextlib.contextmanager
def progress_bar(args: argparse.Namespace, label: str) -> Iterator[ProgressBar | None]:
    """A progress bar on stderr with ``--progress`` or on a tty (else None), closed after."""
    bar = ProgressBar(sys.stderr, label) if args.progress or sys.stderr.isatty() else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def _open_special(target: str, label: str) -> int:
    """Open an output that is not a regular file for writing; a FIFO no process reads is refused."""
    if not stat.S_ISFIFO(os.stat(target).st_mode):
        return os.open(target, os.O_WRONLY)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno != errno.ENXIO:
            raise
        raise CliError(
            f"cannot write {label}: it is a named pipe (FIFO) that no process reads; start "
            "its reader first, or write to a regular file"
        ) from None
    os.set_blocking(fd, True)
    return fd


def _write_error(label: str, exc: OSError) -> BaseException:
    """A failed write named after the output (a full disk names no file by itself)."""
    if isinstance(exc, BrokenPipeError):
        return exc
    return CliError(f"cannot write {label}: {exc.strerror or exc}")


def align_out_paths(path: str, systems: Sequence[str]) -> dict[str, str]:
    """One ``--align-out`` file per system: ``run.out`` → ``run.<system>.out`` (one system,
    or stdout: the path as is).  A name with characters other than letters, digits and
    ``-_.`` (or differing only in case) gets them as ``_`` and a short hash of the name,
    so no two systems share a file."""
    if len(systems) <= 1 or writes_stdout(path):
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
def one_line_warnings() -> Iterator[None]:
    """Warnings as one line ``meteor: warning: …`` each, without Python's source line."""

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        sys.stderr.write(f"meteor: warning: {one_line(str(message))}\n")

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield
