"""Corpus scoring on a Dask cluster (``dask`` + ``distributed``).

METEOR's corpus score is built from additive per-segment statistics (Meteor 1.5
``MeteorStats.addStats``), so a corpus maps onto map-reduce: the distinct
(hypothesis, references) pairs are cut into partitions, each worker scores its
partitions with the same loop as one process (:meth:`meteor.Meteor.score_segments`)
and sends the records back in the compact form of :mod:`meteor.analysis.transport`; the
client puts them back in input order and sums their statistics
(:meth:`meteor.Meteor.combine`).  The corpus score, every per-segment record, the
bootstrap intervals and the paired tests are therefore those of a run in one
process (tested: ``==`` on the records, identical floats).

* **Resources once per worker.**  :class:`MeteorWorkerPlugin` loads the preset's
  resources when a worker joins (and on every worker that joins later); the
  scorer lives in a per-process cache that tasks use.  The paraphrase index is
  memory-mapped from the per-user cache (:mod:`meteor.languages.paraphrase`); the first
  worker of a machine builds it under an inter-process lock, the others wait for
  it and map the same file.
* **Faults.**  A worker that dies mid-run loses its tasks to the scheduler, which
  runs them again on another worker (scoring is deterministic, so the result is
  the same).  An unreachable scheduler, a scheduler without workers, a worker
  that cannot load the resources, a task that killed too many workers, or no
  worker for :data:`DEFAULT_TIMEOUT` seconds during a run: a :class:`ClusterError`
  that says what to do, never a hang.
* **Larger than memory.**  :func:`iter_segments` reads text, TSV or JSONL files
  lazily; :func:`score_stream` keeps a bounded number of partitions in flight and
  yields records in input order as partitions complete; :class:`StreamTotals`
  sums the statistics on the way (the corpus score without keeping records).
  :func:`score_stream_lines` has the workers write the JSONL lines too, so the
  client's cost per segment (the limit on how many workers one client can feed)
  drops several-fold.
* **Tables.**  :func:`score_frame` adds score columns to a pandas or
  ``dask.dataframe`` frame.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import json
import math
import os
import pickle
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from distributed import Client, LocalCluster, WorkerPlugin, get_worker, wait
from distributed.scheduler import KilledWorker

from meteor.analysis.transport import Decoder, encode
from meteor.errors import ClusterError as ClusterError
from meteor.errors import ResourceError
from meteor.io.export import segment_record
from meteor.io.read import InputError, detect_format
from meteor.metric import Meteor, unique_pairs
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import CorpusResult, MeteorResult, Stats

__all__ = [
    "DEFAULT_TIMEOUT",
    "ClusterError",
    "MeteorWorkerPlugin",
    "SegmentLine",
    "StreamSummary",
    "StreamTotals",
    "connect",
    "iter_segments",
    "prepare_workers",
    "score_corpus_dask",
    "score_frame",
    "score_stream",
    "score_stream_lines",
]

Progress = Callable[[float, str], None]

#: Seconds to wait for the scheduler, for the first worker, for a worker to load the
#: resources, and for any worker to come back when all have gone during a run.
DEFAULT_TIMEOUT = 60.0
#: Most segments per partition (a partition takes about 0.1-0.5 s to score).
MAX_PARTITION = 1000
#: Fewest segments per partition (smaller ones cost more in scheduling than scoring).
MIN_PARTITION = 25
#: Columns :func:`score_frame` adds (after its prefix).
FRAME_COLUMNS = ("score", "precision", "recall", "fmean", "frag", "penalty", "chunks")


# ---------------------------------------------------------------------------
# worker side
# ---------------------------------------------------------------------------
_SCORERS: dict[str, Meteor] = {}
_FAILURES: dict[str, str] = {}
_LOAD_SECONDS: dict[str, float] = {}
_LOAD_LOCK = threading.Lock()
_GC_LOCK = threading.Lock()
_GC_PAUSES = 0


def _spec_key(params: Params, preset: str | None) -> str:
    """A name for a scorer configuration (the plugin name and the cache key)."""
    digest = hashlib.sha256(pickle.dumps((params, preset), protocol=4)).hexdigest()
    return f"meteor-{digest[:16]}"


@contextlib.contextmanager
def _machine_lock() -> Iterator[None]:
    """One process of this machine at a time loads (and, the first time, builds) resources.

    The paraphrase index is built once per machine into the per-user cache
    (:func:`meteor.resources.cache_dir`); workers that start together wait here for
    the first one instead of building it each.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield
        return
    from meteor import resources

    fd = os.open(resources.cache_dir() / "worker-setup.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _load(key: str, params: Params, preset: str | None) -> Meteor:
    """This process's scorer for ``key``, loading its resources the first time."""
    m = _SCORERS.get(key)
    if m is not None:
        return m
    with _LOAD_LOCK:
        m = _SCORERS.get(key)
        if m is None:
            t0 = time.perf_counter()
            with _machine_lock():
                m = Meteor(params=params)
                m.preset = preset  # the caller's preset name goes into every signature
                m.prepare()
            gc.freeze()  # loaded resources never become garbage: collections skip them
            _LOAD_SECONDS[key] = time.perf_counter() - t0
            _SCORERS[key] = m
            _FAILURES.pop(key, None)
    return m


def _where() -> str:
    try:
        return f"worker {get_worker().address}"
    except ValueError:
        return "this process"


class MeteorWorkerPlugin(WorkerPlugin):
    """Loads a scorer's resources once on every worker, including workers that join later.

    A failure does not stop the worker: it is recorded and reported by
    :func:`prepare_workers` (naming the worker) and by any task sent there.
    """

    idempotent = True  # registering the same configuration again changes nothing

    def __init__(self, params: Params, preset: str | None) -> None:
        self.params = params
        self.preset = preset
        self.name = _spec_key(params, preset)

    async def setup(self, worker: Any) -> None:
        # In a thread: the worker's event loop keeps answering the scheduler meanwhile
        # (the first worker of a machine may spend a minute building the paraphrase index).
        import asyncio

        await asyncio.get_running_loop().run_in_executor(None, self._load)

    def _load(self) -> None:
        try:
            _load(self.name, self.params, self.preset)
        except Exception as exc:
            _FAILURES[self.name] = f"{type(exc).__name__}: {exc}"


def _worker_state(key: str) -> dict[str, Any]:
    """What a worker says about ``key`` (run by :func:`prepare_workers` on each worker)."""
    from meteor.params import VERSION

    return {
        "ready": key in _SCORERS,
        "error": _FAILURES.get(key),
        "load_seconds": _LOAD_SECONDS.get(key),
        "version": VERSION,
        "pid": os.getpid(),
        "mapped": _mapped_indexes(),
    }


def _mapped_indexes() -> list[str]:
    """Paraphrase index files this process has memory-mapped (Linux ``/proc``; else [])."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as fh:
            found = {line.split(None, 5)[-1].strip() for line in fh if ".idx" in line}
    except OSError:
        return []
    return sorted(p for p in found if Path(p).name.startswith("paraphrase-"))


@contextlib.contextmanager
def _collection_paused() -> Iterator[None]:
    """Cyclic GC off while a partition is scored (see :mod:`meteor.runtime`).

    A Dask worker runs several threads, so :func:`meteor.runtime.gc_paused` stays
    out of its way; here the pause is wanted: scoring makes no cycles, and
    collections walking the loaded resources cost a quarter of the time.
    """
    global _GC_PAUSES
    with _GC_LOCK:
        _GC_PAUSES += 1
        gc.disable()
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_PAUSES -= 1
            if _GC_PAUSES == 0:
                gc.enable()


def _score_partition(
    key: str,
    params: Params,
    preset: str | None,
    numbers: Sequence[int],
    hyps: Sequence[Any],
    refs: Sequence[Any],
    form: str,
) -> list[Any]:
    """Score one partition on a worker, results in the partition's order.

    ``form``: ``"records"`` (compact records, :mod:`meteor.analysis.transport`),
    ``"candidates"`` (the same with candidate lists) or ``"lines"`` (per segment its
    JSONL line, score, corpus contribution and number of references).
    """
    try:
        m = _load(key, params, preset)
    except ResourceError as exc:
        raise ResourceError(f"{_where()} cannot load the METEOR resources: {exc}") from exc
    with _collection_paused():
        found = m.score_segments(hyps, refs, candidates=form == "candidates", numbers=numbers)
        if form != "lines":
            return [encode(r) for r in found]
        return [
            (
                json.dumps(segment_record(r, k + 1), ensure_ascii=False, allow_nan=False) + "\n",
                r.score,
                r.stats.corpus_contribution(),
                len(r.refs),
            )
            for k, r in zip(numbers, found, strict=True)
        ]


# ---------------------------------------------------------------------------
# client side: connecting and preparing the workers
# ---------------------------------------------------------------------------
_LOCAL = re.compile(r"^local(?::(\d+))?$")


@contextlib.contextmanager
def connect(
    address: str, *, timeout: float = DEFAULT_TIMEOUT, quiet: bool = False
) -> Iterator[Client]:
    """A client for ``tcp://HOST:PORT`` (a running scheduler) or ``local:N`` (a new cluster).

    ``local:N`` starts a :class:`distributed.LocalCluster` of ``N`` worker
    processes with one thread each on 127.0.0.1, closed on exit.  A remote
    scheduler must answer within ``timeout`` seconds and have at least one worker
    within ``timeout`` seconds.

    With ``quiet``, the ``distributed`` loggers of this process report only
    critical errors while the client is open (the CLI prints one line per error).

    Raises:
        ClusterError: a bad address, an unreachable scheduler, no workers.
    """
    if quiet:
        with _quiet_logs():
            with connect(address, timeout=timeout) as client:
                yield client
        return
    if not isinstance(address, str) or not address.strip():
        raise ClusterError("the Dask address is empty; give tcp://HOST:PORT or local:N")
    address = address.strip()
    m = _LOCAL.match(address)
    if m:
        n = int(m.group(1)) if m.group(1) else (os.cpu_count() or 1)
        if not 1 <= n <= 256:
            raise ClusterError(f"local:N needs 1 to 256 worker processes, got {n}")
        with _local_cluster(n) as client:
            yield client
        return
    if "://" not in address:
        raise ClusterError(
            f"the Dask address {address!r} is neither tcp://HOST:PORT (a running scheduler) "
            "nor local:N (N local worker processes)"
        )
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({exc}); "
            "start one with `dask scheduler` and give the address it prints"
        ) from None
    try:
        _wait_for_workers(client, timeout)
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=10)


@contextlib.contextmanager
def _quiet_logs() -> Iterator[None]:
    import logging

    # distributed configures some of its loggers one by one (distributed.client, …)
    names = ["distributed"] + [
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
    import logging

    try:
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
        Per worker address: ``ready``, ``load_seconds`` (the resources' loading time
        in that worker), ``version``, ``pid``, ``mapped`` (the paraphrase index
        files it has memory-mapped).

    Raises:
        ClusterError: no worker within ``timeout`` seconds, or a worker that cannot
            import this package or load the resources (named, with the reason).
    """
    _wait_for_workers(client, timeout)
    plugin = MeteorWorkerPlugin(meteor.params, meteor.preset)
    try:
        client.register_plugin(plugin, name=plugin.name)
        states: dict[str, dict[str, Any]] = client.run(_worker_state, plugin.name)
    except ClusterError:
        raise
    except Exception as exc:
        raise ClusterError(
            f"a Dask worker could not set up METEOR ({type(exc).__name__}: {exc}); install "
            "this package and its requirements (requirements.txt) on every worker"
        ) from None
    from meteor.params import VERSION

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


# ---------------------------------------------------------------------------
# client side: the run loop
# ---------------------------------------------------------------------------
Partition = tuple[list[int], list[Any], list[Any]]


def _run_partitions(
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
    key = _spec_key(meteor.params, meteor.preset)
    run = uuid.uuid4().hex[:8]
    it = iter(parts)
    pending: dict[Any, int] = {}
    ready: dict[int, list[Any]] = {}
    sizes: dict[int, int] = {}
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
                    _score_partition,
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
                sizes[submitted] = len(numbers)
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
                    on_done(sizes.pop(idx))
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


def _as_meteor(meteor_or_params: Meteor | Params) -> Meteor:
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
    """Score a corpus on a Dask cluster; the result equals a run in one process.

    The distinct pairs are cut into partitions (identical pairs are scored once,
    as :meth:`meteor.Meteor.score_segments` does), scored on the workers and put
    back in input order; :meth:`meteor.Meteor.combine` sums their statistics.
    Equal (``==``) to :func:`meteor.analysis.corpus.score_corpus` and
    :meth:`meteor.Meteor.corpus_score`, so :func:`meteor.analysis.corpus.bootstrap` and
    :func:`meteor.analysis.corpus.paired_bootstrap` give the same intervals and tests.

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
        TypeError, ValueError: bad inputs, or a segment that cannot be scored
            (``segment N: …``, as in one process).
        ClusterError: the cluster cannot do the run (module docstring).
    """
    meteor = _as_meteor(meteor_or_params)
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        raise TypeError("hyps must be a list of strings (one segment each)")
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise TypeError("refs must be a list with one entry per segment")
    n = len(hyps)
    if len(refs) != n:
        raise ValueError(f"hypotheses have {n} segments but references have {len(refs)}")
    if partition_size is not None and (isinstance(partition_size, bool) or partition_size < 1):
        raise ValueError(f"partition_size must be at least 1, got {partition_size!r}")
    if n == 0:
        return meteor.combine([])
    states = prepare_workers(client, meteor, timeout=timeout)
    first, where = unique_pairs(hyps, refs)
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
    for chunk in _run_partitions(
        client,
        meteor,
        parts,
        form="candidates" if candidates else "records",
        max_in_flight=max(8, 4 * len(states)),
        timeout=timeout,
        on_done=on_done,
    ):
        unique.extend(decoder.decode(e) for e in chunk)
    return meteor.combine([unique[pos] for pos in where])


# ---------------------------------------------------------------------------
# streaming: larger-than-memory inputs
# ---------------------------------------------------------------------------
def _stream(
    meteor: Meteor,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    client: Client,
    form: str,
    partition_size: int,
    max_in_flight: int | None,
    progress: Progress | None,
    total: int | None,
    timeout: float,
) -> Iterator[list[Any]]:
    if isinstance(partition_size, bool) or partition_size < 1:
        raise ValueError(f"partition_size must be at least 1, got {partition_size!r}")
    states = prepare_workers(client, meteor, timeout=timeout)
    in_flight = max_in_flight or max(4, 4 * len(states))
    counter = itertools.count()

    def parts() -> Iterator[Partition]:
        it = iter(segments)
        while True:
            block = list(itertools.islice(it, partition_size))
            if not block:
                return
            numbers = [next(counter) for _ in block]
            yield numbers, [h for h, _ in block], [r for _, r in block]

    done = [0]

    def on_done(count: int) -> None:
        done[0] += count
        if progress:
            frac = min(1.0, done[0] / total) if total else 0.0
            of = f" of {total:,}" if total else ""
            progress(frac, f"scored {done[0]:,}{of} segments")

    yield from _run_partitions(
        client,
        meteor,
        parts(),
        form=form,
        max_in_flight=in_flight,
        timeout=timeout,
        on_done=on_done,
    )


def score_stream(
    meteor_or_params: Meteor | Params,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    *,
    client: Client,
    partition_size: int = 500,
    max_in_flight: int | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[MeteorResult]:
    """Score ``(hyp, refs)`` pairs from an iterable of any length; records in input order.

    At most ``max_in_flight`` partitions (default: four per worker) are read and
    not yet handed back, so memory stays bounded whatever the input's size; each
    record is yielded as soon as its partition and all before it are done (write
    them out as they come, e.g. with :func:`meteor.io.export.segments_jsonl`, and sum
    them with :class:`StreamTotals`).  Records carry no candidate lists.  When
    only the JSONL output and the corpus numbers are wanted,
    :func:`score_stream_lines` costs the client far less per segment.

    Args:
        segments: e.g. :func:`iter_segments`.
        total: the number of segments if known (for the progress fraction).

    Raises:
        as :func:`score_corpus_dask`.
    """
    meteor = _as_meteor(meteor_or_params)
    args = (partition_size, max_in_flight, progress, total, timeout)
    for chunk in _stream(meteor, segments, client, "records", *args):
        decoder = Decoder()  # per partition: memory stays bounded
        for e in chunk:
            yield decoder.decode(e)


@dataclass(frozen=True, slots=True)
class SegmentLine:
    """A segment scored on a worker, for output: its JSONL line and its corpus share.

    Attributes:
        line: the JSON object and ``\\n``, exactly as :func:`meteor.io.export.segments_jsonl`
            writes the segment's record (1-based ``segment`` number, no system).
        score: the segment's score.
        contribution: what it adds to the corpus statistics
            (:meth:`meteor.types.Stats.corpus_contribution`).
        nrefs: how many references it has.
    """

    line: str
    score: float
    contribution: Stats
    nrefs: int


def score_stream_lines(
    meteor_or_params: Meteor | Params,
    segments: Iterable[tuple[str, str | Sequence[str]]],
    *,
    client: Client,
    partition_size: int = 500,
    max_in_flight: int | None = None,
    progress: Progress | None = None,
    total: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Iterator[SegmentLine]:
    """:func:`score_stream`, but the workers also write each record's JSONL line.

    The client only passes lines on and sums statistics (:meth:`StreamTotals.add_line`),
    instead of rebuilding every record: several times less client time per segment,
    so one client keeps many more workers busy.
    """
    meteor = _as_meteor(meteor_or_params)
    args = (partition_size, max_in_flight, progress, total, timeout)
    for chunk in _stream(meteor, segments, client, "lines", *args):
        for line, score, contribution, nrefs in chunk:
            yield SegmentLine(line, score, contribution, nrefs)


@dataclass(frozen=True, slots=True)
class StreamSummary:
    """Corpus numbers of a streamed run (:class:`StreamTotals`), without the records.

    Equal to the fields of :meth:`meteor.Meteor.combine`'s result on the same segments.
    """

    stats: Stats
    precision: float
    recall: float
    fmean: float
    frag: float
    penalty: float
    score: float
    mean_segment_score: float
    n_segments: int
    signature: str


class StreamTotals:
    """Sums segment records one at a time (Meteor 1.5 ``addStats``), keeping no records.

    The mean of segment scores is summed exactly (Shewchuk's partials, what
    :func:`math.fsum` does), so it equals :meth:`meteor.Meteor.combine`'s.
    """

    def __init__(self, meteor: Meteor) -> None:
        self.meteor = meteor
        self.stats = Stats()
        self.n = 0
        self.nrefs = 1
        self._partials: list[float] = []

    def add(self, r: MeteorResult) -> MeteorResult:
        """Count a record; returns it (for use inside a generator expression)."""
        self._count(r.stats.corpus_contribution(), r.score, len(r.refs))
        return r

    def add_line(self, s: SegmentLine) -> str:
        """Count a :class:`SegmentLine`; returns its JSONL line."""
        self._count(s.contribution, s.score, s.nrefs)
        return s.line

    def _count(self, contribution: Stats, score: float, nrefs: int) -> None:
        self.stats = self.stats + contribution
        self.n += 1
        self.nrefs = max(self.nrefs, nrefs)
        x = score
        partials: list[float] = []
        for y in self._partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials.append(lo)
            x = hi
        partials.append(x)
        self._partials = partials

    def summary(self) -> StreamSummary:
        bd = compute(self.stats, self.meteor.params)
        mean = math.fsum(self._partials) / self.n if self.n else 0.0
        return StreamSummary(
            self.stats,
            bd.precision,
            bd.recall,
            bd.fmean,
            bd.frag,
            bd.penalty,
            bd.score,
            mean,
            self.n,
            self.meteor.signature(self.nrefs),
        )


_HYP_NAMES = ("hyp", "hypothesis", "mt", "translation")
_REF_COLUMN = re.compile(r"^ref(erence)?s?([_-]?\d+)?$", re.IGNORECASE)


def _text_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) of a UTF-8 file, read lazily (``meteor.io.read`` line rules)."""
    with path.open("rb") as fh:
        for k, raw in enumerate(fh, start=1):
            line = raw[:-1] if raw.endswith(b"\n") else raw
            if line.endswith(b"\r"):
                line = line[:-1]
            if k == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if b"\x00" in line:
                raise InputError(
                    f"{path.name}: line {k} contains a NUL byte; this looks like a binary "
                    "file, not text with one segment per line"
                )
            try:
                yield k, line.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(
                    f"{path.name}: line {k} is not valid UTF-8; save the file as UTF-8"
                ) from None


def _file_column(path: Path, role: str, fmt: str | None) -> Iterator[tuple[str, ...]]:
    """Per segment: the hypothesis (``role='hyp'``, a 1-tuple) or the references."""
    kind = detect_format(path.name, fmt)
    lines = _text_lines(path)
    if kind == "text":
        for _, text in lines:
            yield (text,)
        return
    header: list[str] | None = None
    system: str | None = None
    for k, text in lines:
        if kind == "tsv":
            if header is None:
                header = text.split("\t")
                _check_columns(path, header, role)
                continue
            cells = text.split("\t")
            if len(cells) != len(header):
                raise InputError(
                    f"{path.name}: line {k} has {len(cells)} columns but the header has "
                    f"{len(header)} (tab-separated, no quoting)"
                )
            row: dict[str, Any] = dict(zip(header, cells, strict=True))
        else:
            if not text.strip():
                raise InputError(
                    f"{path.name}: line {k} is empty; each line of a JSONL file must be one "
                    "JSON object"
                )
            try:
                row = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path.name}: line {k} is not JSON ({exc.msg})") from None
            if not isinstance(row, dict):
                raise InputError(f"{path.name}: line {k} is not a JSON object")
            if row.get("type", "segment") != "segment":
                continue
        sys_name = row.get("system", row.get("sys"))
        if sys_name is not None:
            if system is not None and sys_name != system:
                raise InputError(
                    f"{path.name}: line {k} starts system {sys_name!r} after {system!r}; "
                    "streaming reads one system per file (split the file by system)"
                )
            system = sys_name
        yield _pick(row, path, k, role)


def _check_columns(path: Path, header: Sequence[str], role: str) -> None:
    names = [h.lower() for h in header]
    if role == "hyp" and not any(h in names for h in _HYP_NAMES):
        raise InputError(f"{path.name}: no hypothesis column (one of {', '.join(_HYP_NAMES)})")
    if role == "ref" and not any(_REF_COLUMN.match(h) for h in header):
        raise InputError(f"{path.name}: no reference column (ref, ref2, …)")


def _pick(row: dict[str, Any], path: Path, line: int, role: str) -> tuple[str, ...]:
    lower = {str(k).lower(): v for k, v in row.items()}
    if role == "hyp":
        for name in _HYP_NAMES:
            if name in lower:
                return (_text(lower[name], path, line, name),)
        raise InputError(f"{path.name}: line {line} has no hypothesis field ('hyp')")
    refs: list[str] = []
    for key, value in row.items():
        if not _REF_COLUMN.match(str(key)) or value is None:
            continue
        if isinstance(value, list):
            refs.extend(_text(v, path, line, str(key)) for v in value)
        else:
            refs.append(_text(value, path, line, str(key)))
    if not refs:
        raise InputError(f"{path.name}: line {line} has no reference field ('ref')")
    return tuple(refs)


def _text(value: Any, path: Path, line: int, column: str) -> str:
    if not isinstance(value, str):
        raise InputError(
            f"{path.name}: line {line}, field {column!r} must be text, got {type(value).__name__}"
        )
    return value


def iter_segments(
    hyp: str | os.PathLike[str],
    refs: Sequence[str | os.PathLike[str]] = (),
    *,
    fmt: str | None = None,
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """``(hypothesis, references)`` per segment, read lazily from files of any size.

    Formats as :mod:`meteor.io.read` (text: one segment per line; TSV with a header;
    JSONL objects), one system per file.  With no ``refs``, the hypothesis file
    must hold the references too (a ``ref`` column).  Several reference files
    give several references per segment, in the order given.

    Raises:
        InputError: a bad line (named), or files whose segment counts differ.
    """
    hyp_path = Path(hyp)
    ref_paths = [Path(r) for r in refs] or [hyp_path]
    columns = [_file_column(hyp_path, "hyp", fmt)] + [
        _file_column(p, "ref", fmt) for p in ref_paths
    ]
    names = [hyp_path.name] + [p.name for p in ref_paths]
    missing = object()
    for k, row in enumerate(itertools.zip_longest(*columns, fillvalue=missing), start=1):
        if any(x is missing for x in row):
            short = [names[i] for i, x in enumerate(row) if x is missing]
            raise InputError(
                f"{', '.join(short)} ended after {k - 1:,} segments but "
                f"{', '.join(n for i, n in enumerate(names) if row[i] is not missing)} "
                "go on; every file needs one segment per line"
            )
        groups: list[tuple[str, ...]] = list(row)  # type: ignore[arg-type]
        yield groups[0][0], tuple(r for group in groups[1:] for r in group)


# ---------------------------------------------------------------------------
# data frames
# ---------------------------------------------------------------------------
def _row_refs(values: Sequence[Any]) -> list[Any]:
    """References of a row: missing cells (None, NaN) are left out."""
    return [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]


def _frame_columns(records: Sequence[MeteorResult]) -> dict[str, list[float]]:
    return {
        "score": [r.score for r in records],
        "precision": [r.precision for r in records],
        "recall": [r.recall for r in records],
        "fmean": [r.fmean for r in records],
        "frag": [r.frag for r in records],
        "penalty": [r.penalty for r in records],
        "chunks": [float(r.chunks) for r in records],
    }


def _score_pandas(
    df: Any,
    key: str,
    params: Params,
    preset: str | None,
    hyp: str,
    refs: Sequence[str],
    prefix: str,
) -> Any:
    """One pandas partition with score columns (runs on a worker, or here)."""
    m = _load(key, params, preset)
    hyps = df[hyp].tolist()
    ref_lists = [_row_refs(row) for row in zip(*(df[c].tolist() for c in refs), strict=True)]
    with _collection_paused():
        records = m.score_segments(hyps, ref_lists, candidates=False) if len(df) else []
    cols = _frame_columns(records)
    return df.assign(**{prefix + name: values for name, values in cols.items()})


def score_frame(
    df: Any,
    hyp: str = "hyp",
    refs: Sequence[str] = ("ref",),
    preset: str | None = None,
    *,
    params: Params | None = None,
    meteor: Meteor | None = None,
    client: Client | None = None,
    prefix: str = "meteor_",
    **overrides: Any,
) -> Any:
    """The frame with score columns (``meteor_score``, ``meteor_precision`` … ``meteor_chunks``).

    A ``dask.dataframe.DataFrame`` comes back lazy: each partition is scored by a
    worker (resources loaded once per worker) when the frame is computed, and
    row order is kept.  A pandas ``DataFrame`` is scored now (on ``client`` if
    given, else in this process).  Several reference columns: the best reference
    wins (Meteor 1.5); empty cells (None, NaN) are skipped.  The numbers equal
    :meth:`meteor.Meteor.score` on each row.

    Raises:
        KeyError: a named column is missing.
        ClusterError: as :func:`score_corpus_dask` (with ``client``).
    """
    if isinstance(refs, str):
        refs = [refs]
    refs = list(refs)
    if not refs:
        raise ValueError("refs must name at least one reference column")
    m = meteor if meteor is not None else Meteor(preset, params=params, **overrides)
    missing = [c for c in [hyp, *refs] if c not in df.columns]
    if missing:
        raise KeyError(
            f"column(s) {', '.join(map(repr, missing))} not in the frame "
            f"(columns: {', '.join(map(str, df.columns))})"
        )
    key = _spec_key(m.params, m.preset)
    if hasattr(df, "map_partitions"):  # dask.dataframe
        if client is not None:
            prepare_workers(client, m)
        meta = df._meta.assign(**{prefix + c: [] for c in FRAME_COLUMNS}).astype(
            {prefix + c: "float64" for c in FRAME_COLUMNS}
        )
        return df.map_partitions(
            _score_pandas, key, m.params, m.preset, hyp, refs, prefix, meta=meta
        )
    if client is None:
        _SCORERS.setdefault(key, m)
        return _score_pandas(df, key, m.params, m.preset, hyp, refs, prefix)
    hyps = df[hyp].tolist()
    ref_lists = [_row_refs(row) for row in zip(*(df[c].tolist() for c in refs), strict=True)]
    result = score_corpus_dask(m, hyps, ref_lists, client=client)
    cols = _frame_columns(result.segments)
    return df.assign(**{prefix + name: values for name, values in cols.items()})


# ---------------------------------------------------------------------------
# command line for inputs larger than memory
# ---------------------------------------------------------------------------
def _count_segments(path: Path, fmt: str | None) -> int | None:
    """Segments in a text or TSV file (a fast pass over its bytes); None for JSONL."""
    kind = detect_format(path.name, fmt)
    if kind == "jsonl":
        return None
    lines = 0
    last = b"\n"
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            lines += block.count(b"\n")
            last = block[-1:]
    lines += last != b"\n"
    return max(0, lines - (1 if kind == "tsv" else 0))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m meteor.analysis.cluster``: stream files of any size through a Dask cluster.

    Reads the inputs lazily (:func:`iter_segments`), has the workers score and
    write the JSONL lines (:func:`score_stream_lines`), writes them to ``--jsonl``
    in input order as partitions complete, and prints the corpus score, the mean
    of segment scores and the signature (the numbers ``python -m meteor score``
    prints for the same input).  Errors: one ``meteor: error:`` line, status 2.
    """
    import argparse
    import sys

    from meteor.params import ParamError

    ap = argparse.ArgumentParser(
        prog="python -m meteor.analysis.cluster",
        description="Score files of any size on a Dask cluster, streaming the per-segment "
        "JSONL out in input order as partitions complete.",
    )
    ap.add_argument("--dask", required=True, metavar="ADDRESS", help="tcp://HOST:PORT or local:N")
    ap.add_argument("--hyp", "-i", required=True, metavar="FILE")
    ap.add_argument("--ref", "-r", action="append", default=[], metavar="FILE")
    ap.add_argument("--input-format", choices=("text", "tsv", "jsonl"))
    ap.add_argument("--preset", "-p", metavar="NAME")
    ap.add_argument("--jsonl", metavar="OUT", help="write one JSON record per segment")
    ap.add_argument("--partition-size", type=int, default=500, metavar="N")
    ap.add_argument("--dask-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS")
    ap.add_argument("--progress", action="store_true", help="progress on stderr")
    ap.add_argument("--width", type=int, default=4, metavar="N")
    args = ap.parse_args(argv)
    out_file = None
    try:
        if args.partition_size < 1:
            raise ValueError(f"--partition-size must be at least 1, got {args.partition_size}")
        meteor = Meteor(args.preset)
        hyp = Path(args.hyp)
        for p in [hyp, *map(Path, args.ref)]:
            if not p.is_file():
                raise InputError(f"cannot read {p}: no such file")
        total = _count_segments(hyp, args.input_format)
        bar = None
        if args.progress or sys.stderr.isatty():
            from meteor.cli.commands import _ProgressBar

            bar = _ProgressBar(sys.stderr, hyp.name)
        totals = StreamTotals(meteor)
        with connect(args.dask, timeout=args.dask_timeout, quiet=True) as client:
            if args.jsonl:
                out_file = open(args.jsonl, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
            segments = iter_segments(hyp, args.ref, fmt=args.input_format)
            for s in score_stream_lines(
                meteor,
                segments,
                client=client,
                partition_size=args.partition_size,
                progress=bar,
                total=total,
                timeout=args.dask_timeout,
            ):
                line = totals.add_line(s)
                if out_file is not None:
                    out_file.write(line)
        if bar:
            bar.close()
    except (ClusterError, InputError, ParamError, ResourceError, ValueError, OSError) as exc:
        sys.stderr.write(f"meteor: error: {' '.join(str(exc).split())}\n")
        return 2
    finally:
        if out_file is not None:
            out_file.close()
    r, w = totals.summary(), args.width
    print(
        f"METEOR corpus score (summed statistics) = {r.score:.{w}f}  P {r.precision:.{w}f} "
        f"R {r.recall:.{w}f} Fmean {r.fmean:.{w}f} frag {r.frag:.{w}f} "
        f"penalty {r.penalty:.{w}f} segments {r.n_segments:,}"
    )
    print(f"mean of segment scores                 = {r.mean_segment_score:.{w}f}")
    print(f"signature: {r.signature}")
    return 0


if __name__ == "__main__":
    # Run the importable module's main: tasks must refer to meteor.analysis.cluster's functions
    # (workers import them by name), not to this __main__ copy's.
    from meteor.analysis.cluster import main as _main

    raise SystemExit(_main())
