"""Scoring on a real Dask cluster (meteor.runners.cluster): identity with one process, faults, CLI.

Two clusters, both real and on 127.0.0.1 only: a ``LocalCluster`` of 2 worker processes
(module fixture) and, for the CLI, ``dask scheduler`` + ``dask worker`` processes started
as subprocesses.  Inputs are WMT21 ru→en segments from ../shared/data.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed
import pytest
from _processes import stop_processes
from conftest import SHARED_DATA, read_jsonl_gz, require_shared

from meteor import Meteor, corpus_score
from meteor.analysis.significance import bootstrap, paired_bootstrap
from meteor.io.read import load_corpus
from meteor.io.record_files import segments_jsonl
from meteor.languages.paraphrase_index import index_path
from meteor.runners.cluster import (
    ClusterError,
    StreamTotals,
    connect,
    iter_segments,
    prepare_workers,
    score_corpus_dask,
    score_frame,
    score_stream,
    score_stream_lines,
)
from meteor.runners.parallel import score_corpus

ROOT = Path(__file__).resolve().parents[2]
WMT = SHARED_DATA / "wmt21_ru-en_da" / "meteor15.en_default_norm.jsonl.gz"
ALL_OUTPUTS = SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv"
N_DEFAULT = 300


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    """The 9,832 WMT21 ru→en (hypothesis, reference) pairs of the Meteor 1.5 file."""
    return [(d["hyp"], d["refs"][0]) for d in read_jsonl_gz(require_shared(WMT))]


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    m = Meteor("meteor-1.5")
    m.prepare()  # builds the paraphrase index here if this machine has none yet
    return m


@pytest.fixture(scope="module")
def client(meteor: Meteor) -> Iterator[Any]:
    with connect("local:2", timeout=120) as c:
        yield c


def _worker_pids(client: Any) -> dict[str, int]:
    return dict(client.run(os.getpid))


# ---------------------------------------------------------------------------
# LocalCluster: identity with one process
# ---------------------------------------------------------------------------
def test_local_cluster_identical_to_one_process(
    client: Any, meteor: Meteor, pairs: list[tuple[str, str]]
) -> None:
    hyps = [h for h, _ in pairs[:N_DEFAULT]]
    refs = [r for _, r in pairs[:N_DEFAULT]]
    local = score_corpus(meteor, hyps, refs, workers=1)
    seen: list[float] = []
    remote = score_corpus_dask(
        meteor, hyps, refs, client=client, partition_size=40, progress=lambda f, _m: seen.append(f)
    )
    assert len(client.nthreads()) == 2
    # resources loaded once per worker; the paraphrase index is the one memory-mapped file
    states = prepare_workers(client, meteor)
    assert len(states) == 2 and all(st["ready"] for st in states.values())
    assert {tuple(st["mapped"]) for st in states.values()} == {(str(index_path("en")),)}
    again = score_corpus_dask(meteor, hyps[:50], refs[:50], client=client)
    assert again.segments == local.segments[:50]
    assert prepare_workers(client, meteor) == states  # same processes, nothing reloaded
    assert remote.score == local.score and remote.mean_segment_score == local.mean_segment_score
    assert remote.segments == local.segments  # every record, in input order
    assert [s.hyp for s in remote.segments] == hyps
    assert remote == local
    assert seen[0] == 0.0 and seen[-1] == 1.0 and seen == sorted(seen) and len(seen) > 3
    assert bootstrap(remote, meteor.params, n_samples=200) == bootstrap(
        local, meteor.params, n_samples=200
    )
    # the API entry point keeps candidate lists, like Meteor.corpus_score
    few_h, few_r = hyps[:30], refs[:30]
    api = corpus_score(few_h, few_r, "meteor-1.5", client=client)
    plain = meteor.corpus_score(few_h, few_r)
    assert api == plain
    assert [s.candidates for s in api.segments] == [s.candidates for s in plain.segments]


def test_paired_test_and_multiple_references(client: Any, meteor: Meteor) -> None:
    import csv

    with require_shared(ALL_OUTPUTS).open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    by_sys: dict[str, dict[str, dict[str, str]]] = {}
    for row in rows:
        by_sys.setdefault(row["system"], {})[row["seg_id"]] = row
    ids = list(by_sys["AFRL"])[:150]
    human = by_sys["HUMAN-refB"]
    refs = [(by_sys["AFRL"][i]["ref"], human[i]["hyp"]) for i in ids]  # two references
    systems = {name: [by_sys[name][i]["hyp"] for i in ids] for name in ("AFRL", "Online-W")}
    local = {n: score_corpus(meteor, h, refs, workers=1) for n, h in systems.items()}
    remote = {n: score_corpus(meteor, h, refs, client=client) for n, h in systems.items()}
    assert remote == local
    assert any(s.best_ref_index == 1 for s in remote["AFRL"].segments)
    kw: dict[str, Any] = {"names": ("AFRL", "Online-W"), "n_samples": 300}
    assert paired_bootstrap(
        remote["AFRL"], remote["Online-W"], meteor.params, **kw
    ) == paired_bootstrap(local["AFRL"], local["Online-W"], meteor.params, **kw)


@pytest.mark.slow  # about 25 s on 2 idle cores (one process, then the cluster)
def test_all_wmt21_segments_identical(
    client: Any, meteor: Meteor, pairs: list[tuple[str, str]]
) -> None:
    """Every one of the 9,832 segments: the cluster's records equal one process's."""
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    assert len(hyps) == 9832
    remote = score_corpus_dask(meteor, hyps, refs, client=client)
    local = meteor.combine(meteor.score_segments(hyps, refs, candidates=False))
    assert remote.segments == local.segments
    assert remote.score == local.score == 0.39698439958302595


def test_segment_error_is_named_as_in_one_process(client: Any, meteor: Meteor) -> None:
    hyps = ["a cat", "x" * 300_000, "a dog"]
    refs = ["the cat", "y", "the dog"]
    with pytest.raises(ValueError, match="segment 2: ") as remote:
        score_corpus_dask(meteor, hyps, refs, client=client)
    with pytest.raises(ValueError, match="segment 2: ") as local:
        score_corpus(meteor, hyps, refs, workers=1)
    assert str(remote.value) == str(local.value)


# ---------------------------------------------------------------------------
# data frames and streaming
# ---------------------------------------------------------------------------
def test_score_frame_pandas_and_dask(
    client: Any, meteor: Meteor, pairs: list[tuple[str, str]]
) -> None:
    import dask.dataframe as dd
    import pandas as pd

    sub = pairs[:120]
    df = pd.DataFrame({"hyp": [h for h, _ in sub], "ref": [r for _, r in sub], "n": range(120)})
    df.loc[3, "hyp"] = df.loc[4, "hyp"]
    scored = score_frame(df, hyp="hyp", refs=["ref"], preset="meteor-1.5")
    assert list(scored.columns[:3]) == ["hyp", "ref", "n"]
    for k in (0, 3, 119):
        r = meteor.score(df.loc[k, "hyp"], df.loc[k, "ref"])
        assert scored.loc[k, "meteor_score"] == r.score
        assert scored.loc[k, "meteor_chunks"] == r.chunks
        assert scored.loc[k, "meteor_precision"] == r.precision
    ddf = dd.from_pandas(df, npartitions=4)
    lazy = score_frame(ddf, preset="meteor-1.5", client=client)
    with client.as_current():
        out = lazy.compute()
    # dask may store the text columns as Arrow strings; values and scores are the same
    pd.testing.assert_frame_equal(out, scored, check_dtype=False)
    assert out["meteor_score"].tolist() == scored["meteor_score"].tolist()
    on_cluster = score_frame(df, preset="meteor-1.5", client=client)
    pd.testing.assert_frame_equal(on_cluster, scored)
    with pytest.raises(KeyError, match="'reference'"):
        score_frame(df, refs=["reference"])


def test_stream_in_order_with_bounded_partitions(
    client: Any, meteor: Meteor, pairs: list[tuple[str, str]], tmp_path: Path
) -> None:
    sub = pairs[:200]
    (tmp_path / "hyp.txt").write_text("".join(h + "\n" for h, _ in sub), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(r + "\n" for _, r in sub), encoding="utf-8")
    local = score_corpus(meteor, [h for h, _ in sub], [r for _, r in sub], workers=1)
    totals = StreamTotals(meteor)
    read: list[int] = []

    def source() -> Iterator[tuple[str, tuple[str, ...]]]:
        for k, seg in enumerate(iter_segments(tmp_path / "hyp.txt", [tmp_path / "ref.txt"])):
            read.append(k)
            yield seg

    got = []
    for r in score_stream(meteor, source(), client=client, partition_size=20, max_in_flight=2):
        got.append(totals.add(r))
        # never more than two partitions read ahead of what has been handed back
        assert len(read) <= len(got) + 2 * 20
    assert got == list(local.segments)
    s = totals.summary()
    assert (s.score, s.mean_segment_score, s.stats, s.signature, s.n_segments) == (
        local.score,
        local.mean_segment_score,
        local.stats,
        local.signature,
        200,
    )
    # the workers write the JSONL lines; the client only sums
    lines = StreamTotals(meteor)
    out = tmp_path / "out.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        segs = iter_segments(tmp_path / "hyp.txt", [tmp_path / "ref.txt"])
        for line in score_stream_lines(meteor, segs, client=client, partition_size=30):
            fh.write(lines.add_line(line))
    assert out.read_text(encoding="utf-8") == "".join(segments_jsonl(local.segments))
    assert lines.summary() == s


def test_streaming_readers_agree_with_load_corpus(tmp_path: Path) -> None:
    tsv = "system\thyp\tref\tref2\nA\tthe cat\ta cat\tone cat\nA\tdog\t\tthe dog\n"
    jsonl = (
        '{"hyp": "the cat", "refs": ["a cat", "one cat"]}\n'
        '{"hyp": "dog", "ref": "", "ref2": "the dog"}\n{"type": "corpus"}\n'
    )
    (tmp_path / "c.tsv").write_text(tsv, encoding="utf-8")
    (tmp_path / "c.jsonl").write_text(jsonl, encoding="utf-8")
    (tmp_path / "h.txt").write_bytes(b"\xef\xbb\xbfthe cat\r\n\ndog\n")
    (tmp_path / "r.txt").write_text("a cat\nx\nthe dog\n", encoding="utf-8")
    for name in ("c.tsv", "c.jsonl"):
        data = (tmp_path / name).read_bytes()
        corpus = load_corpus([(name, data)], [])
        streamed = list(iter_segments(tmp_path / name))
        assert streamed == list(zip(corpus.hyps(0), corpus.refs, strict=True))
    got = list(iter_segments(tmp_path / "h.txt", [tmp_path / "r.txt"]))
    assert got == [("the cat", ("a cat",)), ("", ("x",)), ("dog", ("the dog",))]
    (tmp_path / "r2.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(ValueError, match="r2.txt ended after 2 segments"):
        list(iter_segments(tmp_path / "h.txt", [tmp_path / "r2.txt"]))
    (tmp_path / "bad.txt").write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(ValueError, match="bad.txt: line 2 is not valid UTF-8"):
        list(iter_segments(tmp_path / "bad.txt", [tmp_path / "r.txt"]))


# ---------------------------------------------------------------------------
# faults
# ---------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_scheduler_is_a_clear_error_not_a_hang() -> None:
    address = f"tcp://127.0.0.1:{_free_port()}"  # nobody listens there
    t0 = time.monotonic()
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1"):
        with connect(address, timeout=2):
            pass
    assert time.monotonic() - t0 < 30
    with pytest.raises(ClusterError, match="neither tcp://HOST:PORT"):
        with connect("127.0.0.1:8786"):
            pass
    proc = subprocess.run(
        [sys.executable, "-m", "meteor", "score", "--dask", address, "--dask-timeout", "2"]
        + ["-i", str(ROOT / "meteor" / "data" / "demo" / "system_a.txt")]
        + ["-r", str(ROOT / "meteor" / "data" / "demo" / "reference.txt")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("meteor: error: cannot reach the Dask scheduler at tcp://")
    assert "Traceback" not in proc.stderr


def test_worker_killed_mid_run_gives_the_same_result(
    client: Any, meteor: Meteor, pairs: list[tuple[str, str]]
) -> None:
    hyps = [h for h, _ in pairs[:N_DEFAULT]]
    refs = [r for _, r in pairs[:N_DEFAULT]]
    local = score_corpus(meteor, hyps, refs, workers=1)
    pids = _worker_pids(client)
    victim = sorted(pids.values())[0]
    killed: list[float] = []

    def progress(fraction: float, _message: str) -> None:
        if 0.0 < fraction < 0.5 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(fraction)

    remote = score_corpus_dask(
        meteor, hyps, refs, client=client, partition_size=10, progress=progress
    )
    assert killed, "the worker was not killed mid-run"
    with pytest.raises(ProcessLookupError):
        os.kill(victim, 0)
    assert remote == local and remote.segments == local.segments


# ---------------------------------------------------------------------------
# the CLI against `dask scheduler` + `dask worker` processes
# ---------------------------------------------------------------------------
def _env(extra_path: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    paths = [p for p in (extra_path, str(ROOT), env.get("PYTHONPATH")) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


@contextlib.contextmanager
def _dask_processes(tmp: Path) -> Iterator[dict[str, Any]]:
    """A ``dask scheduler`` on 127.0.0.1; ``start_worker()`` adds a ``dask worker`` process."""
    sched_file = tmp / "scheduler.json"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs: list[subprocess.Popen[bytes]] = []
    logs = []

    def spawn(cmd: list[str], env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
        log = (tmp / f"{name}.log").open("wb")
        logs.append(log)
        p = subprocess.Popen(cmd, env=env, cwd=tmp, stdout=log, stderr=subprocess.STDOUT)
        procs.append(p)
        return p

    def start_worker(name: str, extra_path: str | None = None) -> subprocess.Popen[bytes]:
        cmd = [sys.executable, "-m", "distributed.cli.dask_worker", address]
        cmd += ["--host", "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard"]
        cmd += ["--death-timeout", "60", "--name", name]
        return spawn(cmd, _env(extra_path), name)

    try:
        sched = spawn(
            [*dask, "--host", "127.0.0.1", "--port", "0", "--no-dashboard"]
            + ["--scheduler-file", str(sched_file), "--idle-timeout", "600"],
            _env(),
            "scheduler",
        )
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.2)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        yield {"address": address, "start_worker": start_worker, "process": sched}
    finally:
        stop_processes(procs, logs)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with _dask_processes(tmp_path_factory.mktemp("dask")) as procs:
        yield procs


def _cli(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "meteor", "score", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=300,
        **kw,
    )


def test_cli_scheduler_without_workers(scheduler: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "h.txt").write_text("a cat\n", encoding="utf-8")
    t0 = time.monotonic()
    proc = _cli(
        ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "h.txt")]
        + ["--dask", scheduler["address"], "--dask-timeout", "1"]
    )
    assert proc.returncode == 2, proc.stderr
    assert "has no workers after 1 s" in proc.stderr and "dask worker" in proc.stderr
    assert time.monotonic() - t0 < 60


def test_cli_on_scheduler_and_two_workers_with_one_killed(
    scheduler: dict[str, Any], pairs: list[tuple[str, str]], tmp_path: Path
) -> None:
    sub = pairs[:N_DEFAULT]
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(h + "\n" for h, _ in sub), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in sub), encoding="utf-8")
    workers = [scheduler["start_worker"](f"w{k}") for k in (1, 2)]
    common = ["-i", str(hyp), "-r", str(ref), "-b", "200", "--format", "json"]
    local = _cli([*common, "--workers", "1", "--jsonl", str(tmp_path / "local.jsonl")])
    assert local.returncode == 0, local.stderr
    cmd = [sys.executable, "-m", "meteor", "score", *common, "--progress"]
    cmd += ["--dask", scheduler["address"], "--jsonl", str(tmp_path / "dask.jsonl")]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None and proc.stdout is not None
    err = bytearray()
    killed = threading.Event()

    def watch() -> None:  # kill one worker when the progress bar shows the first partition
        assert proc.stderr is not None
        while chunk := proc.stderr.read1(4096):
            err.extend(chunk)
            text = err.decode("utf-8", "replace")
            if not killed.is_set() and "scored " in text and "% scored 300 of" not in text:
                workers[0].send_signal(signal.SIGKILL)
                killed.set()

    t = threading.Thread(target=watch)
    t.start()
    out = proc.stdout.read()
    proc.wait(timeout=300)
    t.join(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert killed.is_set() and workers[0].wait(timeout=10) == -signal.SIGKILL
    assert json.loads(out) == json.loads(local.stdout)
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


def test_streaming_command_writes_what_the_cli_writes(
    scheduler: dict[str, Any], pairs: list[tuple[str, str]], tmp_path: Path
) -> None:
    """``meteor stream``: JSONL streamed in order, the numbers of ``meteor score``."""
    scheduler["start_worker"]("w3")
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(h + "\n" for h, _ in pairs[:150]), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in pairs[:150]), encoding="utf-8")
    local = _cli(["-i", str(hyp), "-r", str(ref), "--jsonl", str(tmp_path / "local.jsonl")])
    assert local.returncode == 0, local.stderr
    cmd = [sys.executable, "-m", "meteor", "stream", "--dask", scheduler["address"]]
    cmd += ["-i", str(hyp), "-r", str(ref), "--jsonl", str(tmp_path / "stream.jsonl")]
    cmd += ["--partition-size", "20", "--progress"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == local.stdout
    assert "scored 150 of 150 segments" in proc.stderr
    assert (tmp_path / "stream.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    proc = subprocess.run(
        [*cmd, "--dask-timeout", "1", "-r", str(tmp_path / "missing.txt")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 2 and proc.stderr.startswith("meteor: error: cannot read")


def test_cli_worker_without_resources(scheduler: dict[str, Any], tmp_path: Path) -> None:
    """A worker whose pycocoevalcap lacks Meteor's data: a message naming it, no hang."""
    fake = tmp_path / "fake"
    (fake / "pycocoevalcap").mkdir(parents=True)
    (fake / "pycocoevalcap" / "__init__.py").write_text("", encoding="utf-8")
    bad = scheduler["start_worker"]("bad", extra_path=str(fake))
    with distributed.Client(scheduler["address"], timeout=30, set_as_default=False) as c:
        deadline = time.monotonic() + 60
        while bad.pid not in c.run(os.getpid).values() and time.monotonic() < deadline:
            time.sleep(0.3)
    (tmp_path / "h.txt").write_text("a cat\n", encoding="utf-8")
    proc = _cli(
        ["-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "h.txt")]
        + ["--dask", scheduler["address"], "--dask-timeout", "20"]
    )
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert line.startswith("meteor: error: Dask worker tcp://127.0.0.1:"), line
    assert "cannot load the METEOR resources for meteor-1.5" in line
    assert "pycocoevalcap" in line and "\n" not in line


def test_cli_local_cluster(pairs: list[tuple[str, str]], tmp_path: Path) -> None:
    """``--dask local:2`` starts two worker processes; the output is a local run's."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(h + "\n" for h, _ in pairs[:100]), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in pairs[:100]), encoding="utf-8")
    common = ["-i", str(hyp), "-r", str(ref), "--format", "tsv", "-b", "100"]
    local = _cli([*common, "--workers", "1"])
    dask = _cli([*common, "--dask", "local:2"])
    assert local.returncode == 0 and dask.returncode == 0, dask.stderr
    assert dask.stdout == local.stdout
    bad = _cli([*common, "--dask", "local:2", "--workers", "2"])
    assert bad.returncode == 2 and "with --dask the cluster's workers score" in bad.stderr


def test_cli_scheduler_lost_mid_run(pairs: list[tuple[str, str]], tmp_path: Path) -> None:
    """The scheduler killed during a run: one error line, exit 2, no hang."""
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(h + "\n" for h, _ in pairs[:200]), encoding="utf-8")
    ref.write_text("".join(r + "\n" for _, r in pairs[:200]), encoding="utf-8")
    with _dask_processes(tmp_path) as dask:
        dask["start_worker"]("w1")
        cmd = [sys.executable, "-m", "meteor", "score", "-i", str(hyp), "-r", str(ref)]
        cmd += ["--progress", "--dask", dask["address"], "--dask-timeout", "20"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=_env(), stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = bytearray()
        while chunk := proc.stderr.read1(4096):
            err.extend(chunk)
            if b"scored " in err and dask["process"].poll() is None:
                dask["process"].send_signal(signal.SIGKILL)
        assert proc.wait(timeout=120) == 2
    last = err.decode().rsplit("\n", 2)[-2]
    assert last == (
        "meteor: error: lost the connection to the Dask scheduler during the run (it stopped "
        "or the network failed); nothing was written — run again when the scheduler is back"
    )
    assert "Traceback" not in err.decode()
