"""Benchmark scoring on a Dask cluster against the local ``--workers`` path (run by hand).

    python bench/bench_dask.py                       # 9,832 WMT21 segments, meteor-1.5
    python bench/bench_dask.py --segments 2000 --skip-identity
    python bench/bench_dask.py --identity-only       # the CLI check below, nothing else

On 127.0.0.1, with a real ``dask scheduler`` and ``dask worker`` processes (one thread each):
``score_corpus`` with 1 and 2 local workers; a worker's start-up (registration, then loading
the preset's resources); ``score_corpus_dask`` and ``score_stream_lines`` on 1 and 2 warm
workers (segments/s, and the client's CPU share); a projection to N workers (a worker's rate
with a core to itself × N, capped by the client's cost per segment).  **identity**: ``python
-m meteor score --jsonl … --format json -b 1000`` locally and with ``--dask`` on 2 workers, one
killed (SIGKILL) when the progress bar first moves: stdout and the JSONL must be identical.
Data: ``../shared/data/wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz``; temporary files in
``bench/out/`` (git-ignored).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import psutil
from common import ROOT, SHARED, P, T, child_env, jar_pairs, timed, write_pairs
from distributed import Client
from serve_class import stop_process

from meteor import Meteor
from meteor.io.record_files import segments_jsonl
from meteor.runners.cluster import (
    StreamTotals,
    prepare_workers,
    score_corpus_dask,
    score_stream_lines,
)
from meteor.runners.parallel import score_corpus
from meteor.runners.transport import Decoder, encode

DATA = SHARED / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"
OUT = ROOT / "bench" / "out" / "dask"


class Cluster:
    """``dask scheduler`` and ``dask worker`` subprocesses on 127.0.0.1."""

    def __init__(self) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        self.procs: list[subprocess.Popen[bytes]] = []
        sched_file = OUT / "scheduler.json"
        sched_file.unlink(missing_ok=True)
        self._spawn(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
            + ["--port", "0", "--no-dashboard", "--scheduler-file", str(sched_file)],
            "scheduler",
        )
        while not sched_file.exists():
            time.sleep(0.1)
        time.sleep(0.2)
        self.address = json.loads(sched_file.read_text())["address"]

    def _spawn(self, cmd: list[str], name: str) -> subprocess.Popen[bytes]:
        log = (OUT / f"{name}.log").open("wb")
        p = subprocess.Popen(cmd, env=child_env(), cwd=OUT, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(p)
        return p

    def worker(self, name: str) -> subprocess.Popen[bytes]:
        return self._spawn(
            [sys.executable, "-m", "distributed.cli.dask_worker", self.address]
            + ["--host", "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard"]
            + ["--name", name, "--death-timeout", "60"],
            name,
        )

    def close(self) -> None:
        for p in reversed(self.procs):  # the workers, then the scheduler
            if p.poll() is None:
                stop_process(p)


def rate(n: int, seconds: float, cpu: float) -> str:
    return (
        f"{seconds:6.2f} s wall {n / seconds:7,.0f} segments/s; "
        f"{cpu:6.2f} CPU-s {n / cpu:7,.0f} segments per CPU-second"
    )


def cpu_of(pids: list[int]) -> float:
    """User + system CPU seconds of processes and their children so far."""
    total = 0.0
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            procs = [proc, *proc.children(recursive=True)]
        except psutil.NoSuchProcess:
            continue
        for p in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
    return total


def self_cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def measured(
    pids: list[int], fn: Callable[P, T], *args: P.args, **kw: P.kwargs
) -> tuple[T, float, float, float]:
    """``fn(*args, **kw)``, its wall seconds, the CPU seconds of the worker processes ``pids``
    (:func:`cpu_of`) and of this process (:func:`self_cpu`) during the call."""
    t0, c0, s0 = time.perf_counter(), cpu_of(pids), self_cpu()
    result = fn(*args, **kw)
    return result, time.perf_counter() - t0, cpu_of(pids) - c0, self_cpu() - s0


def bench(args: argparse.Namespace) -> None:
    pairs = jar_pairs(DATA)[: args.segments]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    n = len(hyps)
    meteor = Meteor(args.preset)
    t0 = time.perf_counter()
    meteor.prepare()
    print(f"{n:,} segments, preset {args.preset}, {os.cpu_count()} CPUs")
    print(f"resources loaded in this process: {time.perf_counter() - t0:.2f} s")
    local = None
    for w in (1, 2):
        local, wall, _, cpu = measured([], score_corpus, meteor, hyps, refs, workers=w)
        print(f"local --workers {w}:  {rate(n, wall, cpu)}")
    assert local is not None
    encoded = [encode(s) for s in local.segments]
    _, wall, _, cpu = measured([], lambda: list(map(Decoder().decode, encoded)))
    client_rate = n / cpu
    print(
        f"client: rebuilding records {n / wall:,.0f} segments/s wall, {client_rate:,.0f} per CPU-s"
    )

    cluster = Cluster()
    try:
        client = Client(cluster.address, timeout=30, set_as_default=False)
        per_worker: dict[int, float] = {}
        per_cpu: dict[int, float] = {}
        for k in (1, 2):
            t0 = time.perf_counter()
            cluster.worker(f"w{k}")
            client.wait_for_workers(k, timeout=120)
            joined = time.perf_counter() - t0
            states = prepare_workers(client, meteor)
            ready = time.perf_counter() - t0
            loads = sorted(st["load_seconds"] for st in states.values())
            print(
                f"worker {k}: process start → registered {joined:.2f} s, → resources loaded "
                f"{ready:.2f} s (loading in the worker: {loads[-1]:.2f} s)"
            )
            pids = [st["pid"] for st in states.values()]
            best: tuple[float, float, float] | None = None
            for _ in range(args.repeat):
                res, dt, cpu, own = measured(
                    pids, score_corpus_dask, meteor, hyps, refs, client=client
                )
                best = (dt, cpu, own) if best is None or dt < best[0] else best
                assert res == local, "the cluster's result differs from the local one"
            assert best is not None
            per_worker[k] = n / best[0]
            per_cpu[k] = n / best[1]
            client_rate = min(client_rate, n / best[2])
            print(
                f"dask, {k} worker(s):  {rate(n, best[0], best[1])} of the workers, "
                f"client {best[2]:.2f} CPU-s (identical to local: yes)"
            )
        # the streaming path whose workers write the JSONL lines (client: pass on and sum)
        expected = "".join(segments_jsonl(local.segments))
        totals = StreamTotals(meteor)
        lines = score_stream_lines(meteor, zip(hyps, refs, strict=True), client=client)
        text, dt, cpu, own = measured(pids, lambda: "".join(totals.add_line(x) for x in lines))
        assert text == expected and totals.summary().score == local.score
        lines_rate = n / own
        lines_worker = n / cpu  # a worker also writing JSON, with a core to itself
        print(
            f"score_stream_lines, 2 workers: {rate(n, dt, cpu)}, client {own:.2f} CPU-s "
            f"(JSONL identical: yes)"
        )
        client.close()
    finally:
        cluster.close()
    one = max(per_worker[1], per_cpu[1])  # a worker with a core of its own
    print(
        f"projection (a worker with a core to itself: {one:,.0f} segments/s, measured wall "
        f"{per_worker[1]:,.0f}/s; one client core handles at most {client_rate:,.0f}/s with "
        f"records, {lines_rate:,.0f}/s with score_stream_lines, whose workers do "
        f"{lines_worker:,.0f}/s each):"
    )
    for w in (1, 2, 4, 8, 16, 32, 64, 128):
        proj = min(w * one, client_rate)
        proj_lines = min(w * lines_worker, lines_rate)
        print(
            f"  {w:3d} workers: records {proj:9,.0f} segments/s (1 M in "
            f"{1e6 / proj / 60:5.1f} min); lines {proj_lines:9,.0f} segments/s "
            f"(1 M in {1e6 / proj_lines / 60:5.1f} min)"
        )


def identity(args: argparse.Namespace) -> None:
    """The CLI locally vs on a scheduler + 2 workers, one worker killed mid-run."""
    pairs = jar_pairs(DATA)[: args.segments]
    hyp, ref = write_pairs(OUT, pairs)
    common = [sys.executable, "-m", "meteor", "score", "-i", str(hyp), "-r", str(ref)]
    common += ["--preset", args.preset, "--format", "json", "-b", "1000"]
    run = [*common, "--jsonl", str(OUT / "local.jsonl")]
    t_local, local = timed(subprocess.run, run, capture_output=True, cwd=ROOT, env=child_env())
    local.check_returncode()
    cluster = Cluster()
    try:
        workers = [cluster.worker("w1"), cluster.worker("w2")]
        with Client(cluster.address, timeout=30, set_as_default=False) as c:
            c.wait_for_workers(2, timeout=120)
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [*common, "--jsonl", str(OUT / "dask.jsonl"), "--progress", "--dask", cluster.address],
            cwd=ROOT,
            env=child_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        err = bytearray()
        killed: list[str] = []

        def watch() -> None:
            assert proc.stderr is not None
            while chunk := proc.stderr.read1(4096):
                err.extend(chunk)
                text = err.decode("utf-8", "replace")
                if not killed and "% scored " in text:
                    workers[0].send_signal(signal.SIGKILL)
                    killed.append(text.rsplit("%", 1)[0].rsplit("]", 1)[-1].strip() + "%")

        th = threading.Thread(target=watch)
        th.start()
        assert proc.stdout is not None
        out = proc.stdout.read()
        proc.wait()
        th.join()
        t_dask = time.perf_counter() - t0
    finally:
        cluster.close()
    if proc.returncode != 0:
        raise SystemExit(f"the --dask run failed: {err.decode()}")
    same_out = out == local.stdout
    same_jsonl = (OUT / "dask.jsonl").read_bytes() == (OUT / "local.jsonl").read_bytes()
    system = json.loads(out)["systems"][0]
    print(f"identity, {len(pairs):,} segments, preset {args.preset}:")
    print(f"  local CLI (every CPU): {t_local:.1f} s; --dask on 2 workers: {t_dask:.1f} s")
    print(f"  worker w1 killed (SIGKILL) at {killed[0] if killed else 'never'} of the run")
    print(f"  stdout (JSON report, 1,000-sample bootstrap) identical: {same_out}")
    print(
        f"  per-segment JSONL identical: {same_jsonl} ({(OUT / 'dask.jsonl').stat().st_size:,} bytes)"
    )
    ci = system["bootstrap"]["corpus_score"]
    print(
        f"  corpus score {system['score']!r}, mean of segments {system['mean_segment_score']!r}, "
        f"95% CI [{ci['low']!r}, {ci['high']!r}]"
    )
    if not (same_out and same_jsonl and killed):
        raise SystemExit(1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--preset", default="meteor-1.5")
    ap.add_argument("--segments", type=int, default=None, help="first N (default: all 9,832)")
    ap.add_argument("--repeat", type=int, default=2, help="runs per cluster size (best kept)")
    ap.add_argument("--skip-identity", action="store_true")
    ap.add_argument("--identity-only", action="store_true")
    args = ap.parse_args()
    if not args.identity_only:
        bench(args)
    if not args.skip_identity:
        identity(args)


if __name__ == "__main__":
    main()
