"""Shared by the app benchmarks (bench_load*.py, bench_clicks.py): the server (127.0.0.1 only),
its memory, real pairs, and the load phases.  Every wait is bounded."""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from common import ROOT, SHARED, loadavg, read_tsv, tree_memory
from serve_class import free_port, health_latency, stop_process, streamlit_command

DATA = SHARED / "wmt21_ru-en_da" / "all_outputs.tsv"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: In the page: the text of the ``st.metric`` labelled ``label`` (the score card); waits until
#: it is ``value``, until it is some text other than ``old``.
METRIC_JS = """([label]) => {
  const m = [...document.querySelectorAll('[data-testid="stMetric"]')].find(
    m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label);
  return m ? m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() : null;
}"""
WAIT_VALUE_JS = f"""([label, value]) => ({METRIC_JS})([label]) === value"""
WAIT_CHANGE_JS = f"""([label, old]) => {{
  const v = ({METRIC_JS})([label]); return v !== null && v !== old; }}"""
HYP_BOX = "Hypothesis"
REF_BOX = "Reference(s), one per line"


@contextmanager
def app_server(
    env: dict[str, str] | None = None,
    timeout: float = 180,
    app_dir: Path = ROOT,
    processes: int = 1,
) -> Iterator[dict[str, Any]]:
    """``streamlit run app.py`` (of ``app_dir``) on 127.0.0.1; yields ``{"url", "proc", "up"}``.

    ``app_dir`` may be another checkout (e.g. ``git archive`` of an older commit) to
    compare before and after in the same conditions.  ``processes`` > 1: that many
    server processes behind one address (``tools/serve_class.py``, of this checkout);
    ``proc`` is then the launcher, whose process tree holds them all.
    """
    port = free_port()
    started = time.perf_counter()
    if processes > 1:
        cmd = [sys.executable, str(ROOT / "tools" / "serve_class.py"),
               f"--processes={processes}", f"--port={port}", f"--app-dir={app_dir}"]  # fmt: skip
    else:
        cmd = streamlit_command(port)
    proc = subprocess.Popen(
        cmd,
        cwd=app_dir,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while health_latency(url, timeout=2) is None:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("streamlit did not start")
            time.sleep(0.3)
        yield {"url": url, "proc": proc, "up": time.perf_counter() - started}
    finally:
        stop_process(proc)


class RssSampler:
    """Peak RSS of a process tree, and (given the server's ``url``) health-endpoint
    latencies, sampled in threads."""

    def __init__(self, pid: int, url: str | None = None, every: float = 0.25) -> None:
        self.pid, self.url, self.every = pid, url, every
        self.peak = 0
        self.health: list[float] = []
        self.health_failures = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._rss, daemon=True)]
        if url is not None:
            self._threads.append(threading.Thread(target=self._health, daemon=True))

    def _rss(self) -> None:
        while not self._stop.wait(self.every):
            self.peak = max(self.peak, tree_memory(self.pid)[0])

    def _health(self) -> None:
        assert self.url is not None
        while not self._stop.wait(0.5):
            lat = health_latency(self.url)
            if lat is None:
                self.health_failures += 1
            else:
                self.health.append(lat)

    def __enter__(self) -> RssSampler:
        self.peak = tree_memory(self.pid)[0]
        for th in self._threads:
            th.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        for th in self._threads:
            th.join(timeout=35)


def pct(xs: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation; NaN for no data."""
    if not xs:
        return float("nan")
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(sorted(xs), n=100, method="inclusive")[min(98, int(q * 100) - 1)]


def wmt_pairs(
    max_tokens: int = 60, system: str = "AFRL", path: Path = DATA
) -> list[tuple[str, str]]:
    """Real (hyp, ref) pairs of one WMT21 ru→en system with at most ``max_tokens`` words a side."""
    out = []
    for row in read_tsv(path):
        words = (len(row["hyp"].split()), len(row["ref"].split()))
        if row["system"] == system and min(words) > 0 and max(words) <= max_tokens:
            out.append((row["hyp"], row["ref"]))
    return out


def long_pair(chars: int = 7000, start: int = 0, system: str = "AFRL") -> tuple[str, str]:
    """Consecutive WMT21 segments joined into a ~``chars``-character document pair."""
    rows = wmt_pairs(max_tokens=10_000, system=system)[start:]
    ends = itertools.accumulate(len(h) + 1 for h, _ in rows)  # each hypothesis and a space
    rows = rows[: sum(1 for end in ends if end <= chars)]
    return " ".join(h for h, _ in rows), " ".join(r for _, r in rows)


def fmt(x: float) -> str:
    """A score as the page's score card shows it (four decimals)."""
    return f"{x:.4f}"


def long_edits(stop: asyncio.Event) -> Iterator[tuple[str, str]]:
    """The long session's edits: (box, text) of a new ~7,000-character pair (reference, then
    hypothesis) each round, at most 50 rounds, until ``stop`` is set."""
    for k in range(1, 51):
        hyp, ref = long_pair(7000, start=40 * k)
        for box, text in ((REF_BOX, ref), (HYP_BOX, hyp)):
            if stop.is_set():
                return
            yield box, text


def plan(n_typical: int, rounds: int) -> list[list[tuple[str, str, str]]]:
    """Each typical session's edits (box, text, score text), with the score the library
    gives after each: a new reference, then a new hypothesis, a round."""
    from meteor import Meteor  # here: bench_load_server.py imports it from --app-dir

    pairs = wmt_pairs(max_tokens=60)
    m = Meteor("meteor-1.5")
    start_hyp = "Under the starry night, we danced with glee."  # the page's first example
    plans = []
    it = iter(pairs[5:])  # every edit a pair no other edit uses
    for _ in range(n_typical):
        edits = []
        hyp = start_hyp
        for _ in range(rounds):
            new_hyp, new_ref = next(it)
            edits.append((REF_BOX, new_ref, fmt(m.score(hyp, [new_ref]).score)))
            edits.append((HYP_BOX, new_hyp, fmt(m.score(new_hyp, [new_ref]).score)))
            hyp = new_hyp
        plans.append(edits)
    return plans


def load_bench_args(doc: str | None, settle_help: str) -> argparse.Namespace:
    """The load benchmarks' common options (bench_load.py, bench_load_ws.py), parsed."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 5, 10, 20])
    ap.add_argument("--rounds", type=int, default=3, help="rounds of (new ref, new hyp) a session")
    ap.add_argument("--think", type=float, default=0.5, help="seconds between a session's edits")
    ap.add_argument("--timeout", type=float, default=120, help="seconds one edit may take")
    ap.add_argument("--settle", type=float, default=15, help=settle_help)
    ap.add_argument(
        "--phase-timeout", type=float, default=600, help="seconds; then report what was measured"
    )
    ap.add_argument("--no-long", action="store_true", help="no 7,000-character session")
    ap.add_argument("--app-dir", type=Path, default=ROOT, help="checkout whose app.py to run")
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes behind one address (tools/serve_class.py); default 1",
    )
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    if not all(1 <= n <= 50 for n in args.sessions):
        ap.error("--sessions: each between 1 and 50")
    if not 1 <= args.processes <= 16:
        ap.error("--processes: between 1 and 16")
    return args


def run_load_phases(
    args: argparse.Namespace,
    run_phase: Callable[[int, argparse.Namespace], Awaitable[dict[str, Any]]],
    head: str,
    cells: Callable[[dict[str, Any]], str],
) -> None:
    """One phase per ``--sessions`` value, each printed as JSON (and written to ``--json``);
    then a table: the columns ``head`` (after "sessions"), a row of ``cells`` per phase."""
    rows = []
    for n in args.sessions:
        print(f"-- {n} session(s), load average {loadavg()}", flush=True)
        row = asyncio.run(run_phase(n, args))  # type: ignore[arg-type]
        rows.append(row)
        print(json.dumps(row, indent=1), flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    print(f"\n\n| sessions | {head} |")
    print("|---" * (head.count("|") + 2) + "|")  # "sessions" and head's columns
    for r in rows:
        print(f"| {r['sessions']}{' (1 long)' if r['long_session'] else ''} | {cells(r)} |")


async def guarded(job: Awaitable[None], out: dict[str, Any]) -> None:
    """A session that fails (a browser timeout on a busy machine) is counted and its
    message kept, not fatal to the phase."""
    try:
        await job
    except Exception as exc:
        out["errors"] = out.get("errors", 0) + 1
        out["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"


async def run_sessions(
    typical: list[Awaitable[None]],
    long: Awaitable[None] | None,
    stop: asyncio.Event,
    timeout: float,
) -> tuple[float, bool]:
    """The typical sessions (then ``stop`` is set) beside the long one, for at most
    ``timeout`` seconds: (wall seconds, whether the phase was cut at the timeout).  What
    was measured until then stays in the sessions' records."""

    async def typical_all() -> None:
        await asyncio.gather(*typical)
        stop.set()

    t0 = time.perf_counter()
    jobs = [asyncio.ensure_future(typical_all())]
    if long is not None:
        jobs.append(asyncio.ensure_future(long))
    _, late = await asyncio.wait(jobs, timeout=timeout)
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    return time.perf_counter() - t0, bool(late)


def spread(name: str, xs: list[float]) -> dict[str, float]:
    """``{name}_p50_s``, ``{name}_p95_s`` and ``{name}_max_s`` of a list of seconds."""
    return {
        f"{name}_p50_s": pct(xs, 0.5),
        f"{name}_p95_s": pct(xs, 0.95),
        f"{name}_max_s": max(xs, default=float("nan")),
    }


class Session(Protocol):
    """One app session as the load benchmarks drive it: a browser page (bench_load.py) or
    a websocket (bench_load_ws.py, :class:`wsclient.WsSession`)."""

    async def connect(self, timeout: float) -> float:
        """Open Inspect; seconds until its score card shows a score."""

    async def shown(self) -> str | None:
        """The score card's text now."""

    async def type_text(self, box: str, text: str) -> None:
        """Commit ``text`` in the text area ``box`` (as Ctrl+Enter does)."""

    async def edit(
        self, box: str, text: str, expected: str | None, timeout: float
    ) -> tuple[float, float | None]:
        """Type ``text`` into ``box``; seconds until the score card shows ``expected`` (or, with
        None, any other text), and until the script run ended (None where it cannot tell).
        TimeoutError after ``timeout`` seconds."""

    async def close(self) -> None: ...


async def typical_session(
    session: Session,
    args: argparse.Namespace,
    edits: list[tuple[str, str, str]],
    out: dict[str, Any],
) -> None:
    """The edits (box, text, expected score text) in order, ``--think`` s apart.  An edit whose
    score text is the one shown already is sent but not timed (``skipped``: the wait could not
    tell)."""
    try:
        out["first_load"] = await session.connect(args.timeout)
        for box, text, expected in edits:
            if await session.shown() == expected:
                out["skipped"] += 1
                await session.type_text(box, text)
                await asyncio.sleep(1.0)
                continue
            try:
                shown, done = await session.edit(box, text, expected, args.timeout)
            except TimeoutError:
                out["timeouts"] += 1
            else:
                out["shown"].append(shown)
                if done is not None:
                    out["done"].append(done)
            await asyncio.sleep(args.think)
    finally:
        await session.close()


async def long_session(
    session: Session, args: argparse.Namespace, stop: asyncio.Event, out: dict[str, Any]
) -> None:
    """Keep typing new ~7,000-character pairs (:func:`long_edits`) until ``stop``: the seconds
    until each run ended (where the session cannot tell: until the score changed)."""
    try:
        out["first_load"] = await session.connect(args.timeout * 3)
        for box, text in long_edits(stop):
            try:
                shown, done = await session.edit(box, text, None, args.timeout * 3)
            except TimeoutError:
                out["timeouts"] += 1
            else:
                out["lat"].append(shown if done is None else done)
    finally:
        await session.close()


async def load_phase(
    n: int,
    args: argparse.Namespace,
    warm: Callable[[str], Awaitable[float]],
    new_session: Callable[[str], Session],
) -> dict[str, Any]:
    """One phase of a load benchmark with ``n`` sessions, each a ``new_session(url)``: a fresh
    server (:func:`app_server`) warmed by ``warm(url)`` (seconds of its first page load) and
    ``--settle`` s; then, under an :class:`RssSampler`, a :func:`typical_session` for each
    :func:`plan` beside (``n`` >= 2, unless ``--no-long``) a :func:`long_session`.  The row:
    the spread of the edits and first loads, what went wrong, health, peak RSS, load average."""
    with_long = n >= 2 and not args.no_long
    n_typical = n - 1 if with_long else n
    plans = plan(n_typical, args.rounds)
    with app_server(app_dir=args.app_dir, processes=args.processes) as server:
        url = server["url"]
        warm_load = await warm(url)
        await asyncio.sleep(args.settle)  # the rest of the page, the background warm-up
        la_before = loadavg()
        with RssSampler(server["proc"].pid, url) as sampler:
            typ: list[dict[str, Any]] = [
                {"shown": [], "done": [], "timeouts": 0, "skipped": 0} for _ in plans
            ]
            lng: dict[str, Any] = {"lat": [], "timeouts": 0}
            stop = asyncio.Event()
            tasks: list[Awaitable[None]] = [
                guarded(typical_session(new_session(url), args, edits, out), out)
                for edits, out in zip(plans, typ, strict=True)
            ]
            long_job = (
                guarded(long_session(new_session(url), args, stop, lng), lng) if with_long else None
            )
            wall, cut = await run_sessions(tasks, long_job, stop, args.phase_timeout)
    shown = [x for s in typ for x in s["shown"]]
    return {
        "sessions": n,
        "typical_sessions": n_typical,
        "processes": args.processes,
        "long_session": with_long,
        "typical_edits": len(shown),
        **spread("shown", shown),
        **spread("done", [x for s in typ for x in s["done"]]),
        "typical_timeouts": sum(s["timeouts"] for s in typ),
        "typical_skipped": sum(s["skipped"] for s in typ),
        "session_errors": sum(s.get("errors", 0) for s in [*typ, lng]),
        "first_error": next((s["error"] for s in [*typ, lng] if "error" in s), None),
        "long_edits": len(lng["lat"]),
        **spread("long", lng["lat"]),
        "long_timeouts": lng["timeouts"],
        **spread("first_load", [s["first_load"] for s in typ if "first_load" in s]),
        "warm_first_load_s": warm_load,
        "server_up_s": server["up"],
        **spread("health", sampler.health),
        "health_failures": sampler.health_failures,
        "peak_rss_mb": sampler.peak / 2**20,
        "wall_s": wall,
        "phase_cut_at_timeout": cut,
        "loadavg_before": la_before,
        "loadavg_after": loadavg(),
    }
