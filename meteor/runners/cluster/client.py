"""The client side of cluster scoring: connect, prepare the workers, run partitions.

:func:`connect` gives a client of a running scheduler or of a new local cluster;
:func:`prepare_workers` loads the resources on every worker
(:mod:`meteor.runners.cluster.worker`); :func:`run_partitions` keeps a bounded
number of partitions in flight and yields their results in input order, turning
every fault into a :class:`~meteor.errors.ClusterError`; :func:`score_corpus_dask`
scores a whole corpus with them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import threading
import time
import uuid
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from typing import Any

from distributed import Client, LocalCluster, wait
from distributed.scheduler import KilledWorker

from meteor import batch
from meteor.errors import ClusterError
from meteor.metric import Meteor
from meteor.params import VERSION, Params
from meteor.runners import DASK_TIMEOUT
from meteor.runners.cluster.probe import not_a_scheduler, probe_scheduler, unreachable
from meteor.runners.cluster.worker import MeteorWorkerPlugin, score_partition, worker_state
from meteor.runners.transport import Decoder
from meteor.runtime import Progress
from meteor.types import CorpusResult, MeteorResult

__all__ = [
    "DEFAULT_TIMEOUT",
    "Partition",
    "Progress",
    "as_meteor",
    "check_address",
    "connect",
    "prepare_workers",
    "run_partitions",
    "score_corpus_dask",
]


#: Seconds to wait for the scheduler and the workers (:data:`meteor.runners.DASK_TIMEOUT`,
#: the one home of the number, which the command line reads without importing Dask).
DEFAULT_TIMEOUT = DASK_TIMEOUT
#: Most segments per partition (a partition takes about 0.1-0.5 s to score).
MAX_PARTITION = 1000
#: Fewest segments per partition (smaller ones cost more in scheduling than scoring).
MIN_PARTITION = 25


_LOCAL = re.compile(r"^local(?::([0-9]+))?$")  # ASCII digits: `\d` takes ٢ and ２ too
#: Most worker processes of ``local:N``.
MAX_LOCAL_WORKERS = 256
_HOST_PORT = re.compile(r"^(?P<host>\[[^\]]*\]|[^:/\[\]]*)(?::(?P<port>[^:/]*))?/?$")


def check_address(address: str) -> tuple[str, int | None]:
    """A Dask address :func:`connect` can use: ``(address stripped, N of local:N or None)``.

    ``local`` or ``local:N`` (1 to :data:`MAX_LOCAL_WORKERS` processes; ``local`` is one
    per CPU), or ``tcp://HOST[:PORT]`` (port 1 to 65535; 8786 when left out).  Other
    schemes are refused by name.

    Raises:
        ClusterError: the address and what is wrong with it.
    """
    if not isinstance(address, str) or not address.strip():
        raise ClusterError("the Dask address is empty; give tcp://HOST:PORT or local:N")
    address = address.strip()
    m = _LOCAL.match(address)
    if m:
        n = int(m.group(1)) if m.group(1) else (os.cpu_count() or 1)
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            got = f"{n}" if n < 10**9 else f"a number of {len(str(n)):,} digits"
            raise ClusterError(
                f"local:N needs 1 to {MAX_LOCAL_WORKERS} worker processes, got {got}"
            )
        return address, n
    scheme, sep, rest = address.partition("://")
    if not sep:
        raise ClusterError(
            f"the Dask address {address!r} is neither tcp://HOST:PORT (a running scheduler) "
            "nor local:N (N local worker processes)"
        )
    if scheme.lower() != "tcp":
        why = {
            "inproc": "it reaches a scheduler inside the same Python process only",
            "tls": "it needs TLS certificates, which this package does not set up",
            "wss": "it needs TLS certificates, which this package does not set up",
        }.get(scheme.lower(), "this package connects over tcp:// only")
        raise ClusterError(
            f"the Dask address {address!r} uses {scheme}://, which is not supported ({why}); "
            "give tcp://HOST:PORT (a running `dask scheduler`) or local:N"
        )
    hp = _HOST_PORT.match(rest)
    if hp is None or not hp.group("host").strip("[]"):
        raise ClusterError(
            f"the Dask address {address!r} has no host; give tcp://HOST:PORT, e.g. "
            "tcp://127.0.0.1:8786"
        )
    port = hp.group("port")
    if port is not None and not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise ClusterError(
            f"the Dask address {address!r} has port {port!r}; a port is a number from 1 to "
            "65535 (`dask scheduler` listens on 8786 by default)"
        )
    return address, None


@contextlib.contextmanager
def connect(
    address: str, *, timeout: float = DEFAULT_TIMEOUT, quiet: bool = False
) -> Iterator[Client]:
    """A client for ``tcp://HOST:PORT`` (a running scheduler) or ``local:N`` (a new cluster).

    ``local:N`` starts a :class:`distributed.LocalCluster` of ``N`` one-thread worker
    processes on 127.0.0.1, closed on exit.  A remote scheduler must answer, and have a
    worker, within ``timeout`` seconds.  With ``quiet``, the ``distributed`` loggers
    report only critical errors while the client is open.

    Raises:
        ClusterError: a bad address, an unreachable scheduler, no workers.
    """
    if quiet:
        with _quiet_logs():
            with connect(address, timeout=timeout) as client:
                yield client
        return
    address, n_local = check_address(address)
    if n_local is not None:
        with _local_cluster(n_local) as client:
            yield client
        return
    deadline = time.monotonic() + timeout
    probe_scheduler(address, deadline, timeout)
    client = _client_within(address, deadline, timeout)
    try:
        _wait_for_workers(client, timeout)
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=10)


def _client_within(address: str, deadline: float, timeout: float) -> Client:
    """``Client(address)``, given up on at ``deadline`` (its handshake read has no timeout;
    a client made after the deadline is closed)."""
    box: dict[str, Any] = {}
    lock = threading.Lock()

    def make() -> None:
        try:
            c = Client(address, timeout=max(1.0, deadline - time.monotonic()), set_as_default=False)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc
            return
        with lock:
            if box.get("abandoned"):
                with contextlib.suppress(Exception):
                    c.close(timeout=5)
                return
            box["client"] = c

    thread = threading.Thread(target=make, name="meteor-dask-connect", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()) + 2.0)
    with lock:
        if "client" not in box and "error" not in box:
            box["abandoned"] = True
            raise unreachable(address, timeout, "no Dask handshake") from None
    if "error" in box:
        exc = box["error"]
        if isinstance(exc, OSError | TimeoutError | ValueError):
            raise unreachable(address, timeout, str(exc)) from None
        if isinstance(exc, Exception):
            raise not_a_scheduler(address, f"{type(exc).__name__}: {exc}") from None
        raise exc
    client: Client = box["client"]
    return client


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    # distributed configures some of its loggers one by one; tornado.application logs
    # failing event-loop callbacks (distributed's clean-up when Ctrl-C interrupts a wait)
    names = ["distributed", "tornado.application"] + [
        n for n in logging.root.manager.loggerDict if n.startswith("distributed.")
    ]
    loggers = [logging.getLogger(n) for n in names]
    levels = [log.level for log in loggers]
    for log in loggers:
        log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for log, level in zip(loggers, levels, strict=True):
            log.setLevel(level)


@contextlib.contextmanager
def _local_cluster(n: int) -> Iterator[Client]:
    """A local cluster of ``n`` one-thread worker processes, no dashboard (distributed's
    warning that port 8787 is taken is not the user's business here)."""
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use")
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
    except Exception as exc:
        raise ClusterError(
            f"could not start {n} local Dask worker processes ({type(exc).__name__}: {exc})"
        ) from None
    try:
        client = Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            with contextlib.suppress(Exception):
                client.close(timeout=10)
    finally:
        with contextlib.suppress(Exception):
            cluster.close(timeout=30)


def _wait_for_workers(client: Client, timeout: float) -> None:
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as exc:
        raise ClusterError(
            f"the Dask scheduler at {client.scheduler.address} has no workers after "
            f"{timeout:g} s ({type(exc).__name__}); start some with "
            f"`dask worker {client.scheduler.address}`"
        ) from None


def _n_workers(client: Client) -> int:
    try:
        return len(client.nthreads())
    except Exception:
        raise ClusterError(_LOST) from None


def prepare_workers(
    client: Client, meteor: Meteor, *, timeout: float = DEFAULT_TIMEOUT
) -> dict[str, dict[str, Any]]:
    """Load ``meteor``'s resources on every worker (and on later ones); report each worker.

    Returns:
        Per worker address: ``ready``, ``load_seconds``, ``version``, ``pid``, ``mapped``
        (the paraphrase index files it has memory-mapped).

    Raises:
        ClusterError: no worker within ``timeout`` seconds, or a worker that cannot
            import this package or load the resources (named, with the reason).
    """
    _wait_for_workers(client, timeout)
    _check_imports(client)
    plugin = MeteorWorkerPlugin(meteor.params, meteor.preset)
    try:
        client.register_plugin(plugin, name=plugin.name)
        states: dict[str, dict[str, Any]] = client.run(worker_state, plugin.name)
    except Exception as exc:
        raise ClusterError(
            f"a Dask worker could not set up METEOR ({type(exc).__name__}: {exc}); install "
            "this package and its requirements (requirements.txt) on every worker"
        ) from None
    for addr, st in sorted(states.items()):
        if st["error"]:
            raise ClusterError(
                f"Dask worker {addr} cannot load the METEOR resources for "
                f"{meteor.preset or 'these parameters'}: {st['error']}"
            )
        if st["version"] != VERSION:
            raise ClusterError(
                f"Dask worker {addr} runs meteor {st['version']}, this process {VERSION}; "
                "install the same version everywhere"
            )
    return states


#: Run by the scheduler and every worker: imports what tasks and the plugin need (a
#: builtin is sent, so a process without this package can run it and say so).
_IMPORT_CHECK = "__import__('importlib').import_module('meteor.runners.cluster.worker').__name__"


def _check_imports(client: Client) -> None:
    """Refuse a scheduler or workers that cannot import this package, naming them
    (otherwise they fail to unpack the task graph or the plugin)."""
    address = client.scheduler.address
    try:
        client.run_on_scheduler(eval, _IMPORT_CHECK)
    except Exception as exc:
        raise ClusterError(
            f"the Dask scheduler at {address} cannot import meteor ({_why(exc)}): install "
            "the workbench there (the scheduler unpacks every task), the same version as here"
        ) from None
    try:
        found: dict[str, Any] = client.run(eval, _IMPORT_CHECK, on_error="return")
    except Exception as exc:
        raise ClusterError(
            f"the Dask workers of {address} could not be asked whether they can import meteor "
            f"({_why(exc)})"
        ) from None
    bad = sorted(addr for addr, r in found.items() if isinstance(r, BaseException))
    if bad:
        shown = ", ".join(bad[:3]) + (f" and {len(bad) - 3:,} more" if len(bad) > 3 else "")
        workers = "worker" if len(bad) == 1 else "workers"
        raise ClusterError(
            f"the Dask {workers} at {shown} cannot import meteor ({_why(found[bad[0]])}): "
            "install the workbench there, the same version as here"
        )


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"


# --------------------------------------------------------------------------- the run loop


Partition = tuple[list[int], list[Any], list[Any]]


def run_partitions(
    client: Client,
    meteor: Meteor,
    parts: Iterable[Partition],
    *,
    form: str,
    max_in_flight: int,
    timeout: float,
    on_done: Callable[[int], None] | None = None,
) -> Iterator[list[Any]]:
    """Submit partitions (at most ``max_in_flight`` unreturned) and yield results in order."""
    key = batch.spec_key(meteor.params, meteor.preset)
    run = uuid.uuid4().hex[:8]
    it = iter(parts)
    pending: dict[Any, int] = {}
    ready: dict[int, list[Any]] = {}
    submitted = 0
    next_out = 0
    exhausted = False
    no_workers_since: float | None = None
    params, preset = meteor.params, meteor.preset
    try:
        while True:
            while not exhausted and len(pending) + len(ready) < max_in_flight:
                part = next(it, None)
                if part is None:
                    exhausted = True
                    break
                numbers, hyps, refs = part
                fut = client.submit(
                    score_partition,
                    key,
                    params,
                    preset,
                    numbers,
                    hyps,
                    refs,
                    form,
                    key=f"meteor-partition-{run}-{submitted}",
                    pure=False,
                )
                pending[fut] = submitted
                submitted += 1
            while next_out in ready:
                yield ready.pop(next_out)
                next_out += 1
            if exhausted and not pending and not ready:
                return
            if not pending:
                continue
            try:
                with client.as_current():
                    done, _ = wait(
                        list(pending), timeout=min(5.0, timeout), return_when="FIRST_COMPLETED"
                    )
            except CancelledError:  # the client lost the scheduler: every future is cancelled
                raise ClusterError(_LOST) from None
            except TimeoutError:
                if _n_workers(client) == 0:
                    now = time.monotonic()
                    no_workers_since = no_workers_since or now
                    if now - no_workers_since > timeout:
                        raise ClusterError(
                            f"no Dask worker for {timeout:g} s; the run cannot finish "
                            "(start workers or use --dask local:N)"
                        ) from None
                else:
                    no_workers_since = None
                continue
            for fut in done:
                idx = pending.pop(fut)
                ready[idx] = _result(fut, idx)
                if on_done:
                    on_done(len(ready[idx]))  # one result per segment of the partition
    finally:
        for fut in pending:
            fut.release()


def _result(fut: Any, idx: int) -> list[Any]:
    try:
        out: list[Any] = fut.result()
    except KilledWorker as exc:
        raise ClusterError(
            f"partition {idx + 1} was running on every worker that died ({exc}); it may "
            "need more memory than a worker has, or the workers are being stopped"
        ) from None
    except (CancelledError, OSError):
        raise ClusterError(_LOST) from None
    return out


_LOST = (
    "lost the connection to the Dask scheduler during the run (it stopped or the network "
    "failed); nothing was written — run again when the scheduler is back"
)


def _default_partition(n: int, workers: int) -> int:
    return max(MIN_PARTITION, min(MAX_PARTITION, math.ceil(n / max(1, workers * 8))))


def as_meteor(meteor_or_params: Meteor | Params) -> Meteor:
    """The scorer given, or one built from bare params."""
    if isinstance(meteor_or_params, Meteor):
        return meteor_or_params
    return Meteor(params=meteor_or_params)


def score_corpus_dask(
    meteor_or_params: Meteor | Params,
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    *,
    client: Client,
    partition_size: int | None = None,
    progress: Progress | None = None,
    candidates: bool = False,
    timeout: float = DEFAULT_TIMEOUT,
) -> CorpusResult:
    """Score a corpus on a Dask cluster; the result equals (``==``) a run in one process.

    The distinct pairs are cut into partitions, scored on the workers and put back in
    input order; :func:`meteor.batch.combine` sums their statistics.

    Args:
        meteor_or_params: a configured scorer (its preset name goes into the
            signature) or bare params.
        hyps, refs: as :meth:`meteor.Meteor.corpus_score`.
        client: a :class:`distributed.Client` (see :func:`connect`).
        partition_size: segments per task (default: about eight tasks per worker,
            25 to 1,000 segments each).
        progress: ``progress(fraction, message)``, called in this process as
            partitions complete.
        candidates: keep each record's candidate list (as
            :meth:`meteor.Meteor.corpus_score`; costs transfer time).
        timeout: seconds to wait for workers (see :data:`DEFAULT_TIMEOUT`).

    Raises:
        TypeError, ValueError: bad inputs (:func:`meteor.batch.check_corpus`, an empty
            corpus is a :class:`~meteor.errors.InputError`), or a segment that cannot be
            scored (``segment N: …``, as in one process).
        ClusterError: the cluster cannot do the run (docs/cluster.md, "Faults").
    """
    meteor = as_meteor(meteor_or_params)
    batch.check_corpus(hyps, refs)  # the checks of every runner (meteor.batch)
    batch.check_count("partition_size", partition_size, segments=True)
    n = len(hyps)
    states = prepare_workers(client, meteor, timeout=timeout)
    first, where = batch.unique_pairs(hyps, refs)
    size = partition_size or _default_partition(len(first), len(states))
    parts = (
        (idx, [hyps[k] for k in idx], [refs[k] for k in idx])
        for idx in (first[s : s + size] for s in range(0, len(first), size))
    )
    done = [0]
    if progress:
        progress(0.0, f"scoring {n:,} segments on {len(states)} Dask workers")

    def on_done(count: int) -> None:
        done[0] += count
        if progress:
            shown = round(done[0] / len(first) * n)
            progress(done[0] / len(first), f"scored {shown:,} of {n:,} segments")

    decoder = Decoder()
    unique: list[MeteorResult] = []
    for chunk in run_partitions(
        client,
        meteor,
        parts,
        form="candidates" if candidates else "records",
        max_in_flight=max(8, 4 * len(states)),
        timeout=timeout,
        on_done=on_done,
    ):
        unique.extend(decoder.decode(e) for e in chunk)
    return batch.combine(meteor, [unique[pos] for pos in where])
