"""Load benchmark of the app: N real browser sessions at once (run by hand, not in CI).

    python bench/bench_load.py                    # 1, 5, 10 and 20 sessions
    python bench/bench_load.py --sessions 10 --rounds 2
    python bench/bench_load.py --no-long          # without the 7,000-character session

For each N a fresh ``streamlit run app.py`` is started on 127.0.0.1 and warmed by one
page load; then N Chromium sessions (Debian's /usr/bin/chromium driven by Playwright,
one browser context each: real HTTP and websocket traffic) open Inspect at once.
With N >= 2 one of them (the "long" session) keeps typing ~7,000-character document
pairs (consecutive WMT21 ru→en segments joined) until the others are done; the other
N-1 type typical real pairs (WMT21 ru→en AFRL segments of at most 60 words), a new
reference then a new hypothesis each round, and time each edit from the key press
(Ctrl+Enter) until the score card shows the score ``meteor.score`` gives for that
pair (computed here, by the library).  No two edits repeat a pair, so no answer
comes from a cache another session filled.

Printed per N: p50/p95/max of the typical edits, the long session's edits, the first
page load, the health endpoint (polled every 0.5 s during the run), and the peak RSS
of the server process and its children (sampled every 0.25 s), with the load average.
Every wait is bounded (``--timeout`` per edit).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import time
from typing import Any

from appserver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    HYP_BOX,
    REF_BOX,
    RssSampler,
    app_server,
    fmt,
    guarded,
    load_bench_args,
    loadavg,
    long_pair,
    pct,
    run_load_phases,
    run_sessions,
    sampled_fields,
    session_counts,
    wmt_pairs,
)

from meteor import Meteor

METRIC_JS = """([label]) => {
  const m = [...document.querySelectorAll('[data-testid="stMetric"]')].find(
    m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim() === label);
  return m ? m.querySelector('[data-testid="stMetricValue"]')?.innerText.trim() : null;
}"""
WAIT_VALUE_JS = f"""([label, value]) => ({METRIC_JS})([label]) === value"""
WAIT_CHANGE_JS = f"""([label, old]) => {{
  const v = ({METRIC_JS})([label]); return v !== null && v !== old; }}"""


async def type_into(pg: Any, box: str, text: str) -> None:
    loc = pg.get_by_role("textbox", name=box)
    await loc.fill(text)
    await loc.press("Control+Enter")


async def current(pg: Any) -> str | None:
    return await pg.evaluate(METRIC_JS, ["METEOR"])  # type: ignore[no-any-return]


async def open_inspect(pg: Any, url: str, timeout_ms: float) -> float:
    pg.set_default_timeout(timeout_ms)
    t0 = time.perf_counter()
    await pg.goto(url + "/", timeout=timeout_ms)
    await pg.wait_for_function(WAIT_CHANGE_JS, arg=["METEOR", None], timeout=timeout_ms, polling=50)
    return time.perf_counter() - t0


async def typical_session(
    pg: Any, url: str, pairs: list[tuple[str, str, str, str]], out: dict[str, Any], timeout: float
) -> None:
    """pairs: (box, text, expected score text, what) edits in order."""
    out["first_load"] = await open_inspect(pg, url, timeout * 1000)
    for box, text, expected, _what in pairs:
        if await current(pg) == expected:
            out["skipped"] += 1  # same score text as shown now: the wait could not tell
            await type_into(pg, box, text)
            await asyncio.sleep(1.0)
            continue
        t0 = time.perf_counter()
        await type_into(pg, box, text)
        try:
            await pg.wait_for_function(
                WAIT_VALUE_JS, arg=["METEOR", expected], timeout=timeout * 1000, polling=20
            )
            out["lat"].append(time.perf_counter() - t0)
        except Exception:
            out["timeouts"] += 1
        await asyncio.sleep(out["think"])


async def long_session(
    pg: Any, url: str, stop: asyncio.Event, out: dict[str, Any], timeout: float
) -> None:
    """Keep typing new ~7,000-character pairs (reference, then hypothesis) until ``stop``."""
    out["first_load"] = await open_inspect(pg, url, timeout * 1000)
    for k in itertools.count(1):
        if stop.is_set() or k > 50:
            break
        hyp, ref = long_pair(7000, start=40 * k)
        for box, text in ((REF_BOX, ref), (HYP_BOX, hyp)):
            old = await current(pg)
            t0 = time.perf_counter()
            await type_into(pg, box, text)
            try:
                await pg.wait_for_function(
                    WAIT_CHANGE_JS, arg=["METEOR", old], timeout=timeout * 1000, polling=50
                )
                out["lat"].append(time.perf_counter() - t0)
            except Exception:
                out["timeouts"] += 1
            if stop.is_set():
                break


def plan(n_typical: int, rounds: int) -> list[list[tuple[str, str, str, str]]]:
    """Each typical session's edits, with the score the library gives after each."""
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
            edits.append((REF_BOX, new_ref, fmt(m.score(hyp, [new_ref]).score), "ref"))
            edits.append((HYP_BOX, new_hyp, fmt(m.score(new_hyp, [new_ref]).score), "hyp"))
            hyp = new_hyp
        plans.append(edits)
    return plans


async def run_phase(n: int, args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    with_long = n >= 2 and not args.no_long
    n_typical = n - 1 if with_long else n
    plans = plan(n_typical, args.rounds)
    with app_server(app_dir=args.app_dir, processes=args.processes) as server:
        url = server["url"]
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                warm = await browser.new_page()
                warm_load = await open_inspect(warm, url, args.timeout * 1000)
                await asyncio.sleep(args.settle)  # the rest of the page, the background warm-up
                await warm.close()
                la_before = loadavg()
                with RssSampler(server["proc"].pid, url) as sampler:
                    pages = []
                    for _ in range(n):
                        ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
                        pages.append(await ctx.new_page())
                    typ = [
                        {"lat": [], "timeouts": 0, "skipped": 0, "think": args.think}
                        for _ in range(n_typical)
                    ]
                    lng: dict[str, Any] = {"lat": [], "timeouts": 0}
                    stop = asyncio.Event()
                    tasks = [
                        guarded(
                            typical_session(pages[i], url, plans[i], typ[i], args.timeout), typ[i]
                        )
                        for i in range(n_typical)
                    ]
                    ends = args.timeout * 3
                    long = (
                        guarded(long_session(pages[-1], url, stop, lng, ends), lng)
                        if with_long
                        else None
                    )
                    wall, cut = await run_sessions(tasks, long, stop, args.phase_timeout)
            finally:
                await browser.close()
    lat = [x for s in typ for x in s["lat"]]
    first = [s["first_load"] for s in typ if "first_load" in s]
    return {
        "sessions": n,
        "typical_sessions": n_typical,
        "long_session": with_long,
        "typical_edits": len(lat),
        "typical_p50_s": pct(lat, 0.50),
        "typical_p95_s": pct(lat, 0.95),
        "typical_max_s": max(lat, default=float("nan")),
        **session_counts(typ, lng),
        "long_edits": len(lng["lat"]),
        "long_p50_s": pct(lng["lat"], 0.50),
        "long_max_s": max(lng["lat"], default=float("nan")),
        "long_timeouts": lng["timeouts"],
        "first_load_p50_s": pct(first, 0.50),
        "first_load_p95_s": pct(first, 0.95),
        "warm_first_load_s": warm_load,
        "server_up_s": server["up"],
        **sampled_fields(sampler),
        "wall_s": wall,
        "phase_cut_at_timeout": cut,
        "loadavg_before": la_before,
        "loadavg_after": loadavg(),
    }


def main() -> None:
    args = load_bench_args(__doc__, "seconds after the warm-up load")
    rows = run_load_phases(args, run_phase)
    print()
    print(
        "| sessions | typical p50 | typical p95 | typical max | long edit p50 | health p95 "
        "| health max | peak RSS | load avg |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['sessions']}{' (1 long)' if r['long_session'] else ''} "
            f"| {r['typical_p50_s']:.2f} s | {r['typical_p95_s']:.2f} s "
            f"| {r['typical_max_s']:.2f} s | {r['long_p50_s']:.1f} s "
            f"| {r['health_p95_s']:.3f} s | {r['health_max_s']:.3f} s "
            f"| {r['peak_rss_mb']:.0f} MB | {r['loadavg_before']} |"
        )


if __name__ == "__main__":
    main()
