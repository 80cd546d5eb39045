"""Load benchmark of the app's server: N websocket sessions at once (run by hand, not in CI).

    python bench/bench_load_ws.py                     # 1, 5, 10 and 20 sessions
    python bench/bench_load_ws.py --sessions 10 --rounds 4
    python bench/bench_load_ws.py --app-dir ../before    # another checkout (git archive), same conditions
    python bench/bench_load_ws.py --sessions 20 --processes 2   # 2 server processes, one address

For each N a fresh ``streamlit run app.py`` is started on 127.0.0.1 and warmed by one
session; then N sessions open Inspect at once, each a real websocket speaking
Streamlit's protocol as the browser does (bench/wsclient.py: ``rerun_script``
messages with the widgets' values and their fragment, the page's ``ForwardMsg``
deltas read back) -- the server does a browser session's whole work, and the
clients cost it no CPU (bench_load.py drives real Chromium instead; on one machine
the browsers then take the cores the server needs, docs/app-load.md).

With N >= 2 one session (the "long" one) keeps typing ~7,000-character document pairs
(consecutive WMT21 ru→en segments joined) until the others are done; the other N-1
type typical real pairs (WMT21 ru→en AFRL segments of at most 60 words; no pair
twice, so no answer comes from a cache another session filled), a new reference then
a new hypothesis each round, and time each edit from sending it until the score card
shows the score ``meteor.score`` gives for that pair ("score shown") and until the
script run ended ("run done": tables, near misses and figures sent too).

Printed per N: p50/p95/max of both, the long session's edits, the first page load,
the health endpoint (polled every 0.5 s), the peak RSS of the server and its child
processes (every 0.25 s), and the load average.  Every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from typing import Any

from appserver import (
    HYP_BOX,
    REF_BOX,
    RssSampler,
    app_server,
    guarded,
    load_bench_args,
    loadavg,
    long_pair,
    pct,
    run_load_phases,
    run_sessions,
    sampled_fields,
    session_counts,
)
from bench_load import plan
from wsclient import WsSession


async def edit(
    s: WsSession, box: str, text: str, expected: str | None, timeout: float
) -> tuple[float, float]:
    """Type ``text`` into ``box``; seconds until ``expected`` shows (or any change), and until done."""
    old = s.metrics.get("METEOR")
    before = s.finished
    t0 = time.perf_counter()
    await s.type_text(box, text)
    if expected is None:
        await s.wait(lambda: s.metrics.get("METEOR") != old, timeout)
    else:
        await s.wait(lambda: s.metrics.get("METEOR") == expected, timeout)
    shown = time.perf_counter() - t0
    await s.wait(lambda: s.finished > before, timeout)
    return shown, time.perf_counter() - t0


async def typical_session(
    url: str, edits: list[tuple[str, str, str, str]], out: dict[str, Any], args: argparse.Namespace
) -> None:
    s = WsSession(url)
    try:
        out["first_load"] = await s.connect(args.timeout)
        for box, text, expected, _what in edits:
            if s.metrics.get("METEOR") == expected:
                out["skipped"] += 1  # the same score text as shown now: the wait could not tell
                await s.type_text(box, text)
                await asyncio.sleep(1.0)
                continue
            try:
                shown, done = await edit(s, box, text, expected, args.timeout)
            except TimeoutError:
                out["timeouts"] += 1
            else:
                out["shown"].append(shown)
                out["done"].append(done)
            await asyncio.sleep(args.think)
    finally:
        await s.close()


async def long_session(
    url: str, stop: asyncio.Event, out: dict[str, Any], args: argparse.Namespace
) -> None:
    s = WsSession(url)
    try:
        out["first_load"] = await s.connect(args.timeout)
        for k in itertools.count(1):
            if stop.is_set() or k > 50:
                break
            hyp, ref = long_pair(7000, start=40 * k)
            for box, text in ((REF_BOX, ref), (HYP_BOX, hyp)):
                try:
                    _, done = await edit(s, box, text, None, args.timeout * 3)
                except TimeoutError:
                    out["timeouts"] += 1
                else:
                    out["done"].append(done)
                if stop.is_set():
                    break
    finally:
        await s.close()


async def run_phase(n: int, args: argparse.Namespace) -> dict[str, Any]:
    with_long = n >= 2 and not args.no_long
    n_typical = n - 1 if with_long else n
    plans = plan(n_typical, args.rounds)
    with app_server(app_dir=args.app_dir, processes=args.processes) as server:
        url = server["url"]
        # one warm-up session a server process (open at once: the proxy spreads them)
        warms = [WsSession(url) for _ in range(args.processes)]
        warm_load = max(await asyncio.gather(*(w.connect(args.timeout) for w in warms)))
        for w in warms:
            await w.close()
        await asyncio.sleep(args.settle)  # the background warm-up (resources, nltk)
        la_before = loadavg()
        with RssSampler(server["proc"].pid, url) as sampler:
            typ = [{"shown": [], "done": [], "timeouts": 0, "skipped": 0} for _ in range(n_typical)]
            lng: dict[str, Any] = {"done": [], "timeouts": 0}
            stop = asyncio.Event()

            tasks = [
                guarded(typical_session(url, plans[i], typ[i], args), typ[i])
                for i in range(n_typical)
            ]
            long = guarded(long_session(url, stop, lng, args), lng) if with_long else None
            wall, cut = await run_sessions(tasks, long, stop, args.phase_timeout)
    shown = [x for s in typ for x in s["shown"]]
    done = [x for s in typ for x in s["done"]]
    first = [s["first_load"] for s in typ if "first_load" in s]
    return {
        "sessions": n,
        "processes": args.processes,
        "long_session": with_long,
        "typical_edits": len(shown),
        "shown_p50_s": pct(shown, 0.50),
        "shown_p95_s": pct(shown, 0.95),
        "shown_max_s": max(shown, default=float("nan")),
        "done_p50_s": pct(done, 0.50),
        "done_p95_s": pct(done, 0.95),
        "done_max_s": max(done, default=float("nan")),
        **session_counts(typ, lng),
        "long_edits": len(lng["done"]),
        "long_p50_s": pct(lng["done"], 0.50),
        "long_max_s": max(lng["done"], default=float("nan")),
        "long_timeouts": lng["timeouts"],
        "first_load_p50_s": pct(first, 0.50),
        "first_load_max_s": max(first, default=float("nan")),
        "warm_first_load_s": warm_load,
        **sampled_fields(sampler),
        "wall_s": wall,
        "phase_cut_at_timeout": cut,
        "loadavg_before": la_before,
        "loadavg_after": loadavg(),
    }


def main() -> None:
    args = load_bench_args(__doc__, "seconds after the warm-up session")
    rows = run_load_phases(args, run_phase)
    print()
    print(
        "| sessions | processes | edits | score shown p50 / p95 / max | run done p50 / p95 / max "
        "| long edit p50 | health p50 / p95 / max | peak RSS | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['sessions']}{' (1 long)' if r['long_session'] else ''} | {r['processes']} "
            f"| {r['typical_edits']} "
            f"| {r['shown_p50_s']:.2f} / {r['shown_p95_s']:.2f} / {r['shown_max_s']:.2f} s "
            f"| {r['done_p50_s']:.2f} / {r['done_p95_s']:.2f} / {r['done_max_s']:.2f} s "
            f"| {r['long_p50_s']:.1f} s "
            f"| {r['health_p50_s']:.3f} / {r['health_p95_s']:.3f} / {r['health_max_s']:.3f} s "
            f"| {r['peak_rss_mb']:.0f} MB | {r['loadavg_before']} |"
        )


if __name__ == "__main__":
    main()
