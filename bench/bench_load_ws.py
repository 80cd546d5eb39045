"""Load benchmark of the app's server: N websocket sessions at once (run by hand, not in CI).

    python bench/bench_load_ws.py                     # 1, 5, 10 and 20 sessions
    python bench/bench_load_ws.py --sessions 10 --rounds 4
    python bench/bench_load_ws.py --app-dir ../before    # another checkout (git archive), same conditions
    python bench/bench_load_ws.py --sessions 20 --processes 2   # 2 server processes, one address

For each N a fresh ``streamlit run app.py`` on 127.0.0.1, warmed by one session; then N
sessions open Inspect at once, each a websocket speaking Streamlit's protocol as the browser
does (bench/wsclient.py): the server does a browser session's whole work, and the clients
cost it no CPU (bench_load.py's Chromium takes the cores the server needs, docs/app-load.md).
With N >= 2 one session keeps typing ~7,000-character documents (consecutive WMT21 ru→en
segments) until the others are done; the N-1 others type real pairs (WMT21 ru→en AFRL, at
most 60 words, never one twice: no answer comes from another session's cache), a new
reference then a new hypothesis each round, timed from sending until the score card shows
the score ``meteor.score`` gives ("score shown") and until the run ended ("run done").
Printed per N: p50/p95/max of both, the long session's edits, the first page load, the
health endpoint (every 0.5 s), the peak RSS of the server tree (every 0.25 s), load average.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from appserver import load_bench_args, load_phase, run_load_phases
from wsclient import WsSession


async def run_phase(n: int, args: argparse.Namespace) -> dict[str, Any]:
    async def warm_up(url: str) -> float:
        """One warm-up session a server process (open at once: the proxy spreads them)."""
        warms = [WsSession(url) for _ in range(args.processes)]
        warm_load = max(await asyncio.gather(*(w.connect(args.timeout) for w in warms)))
        for w in warms:
            await w.close()
        return warm_load

    return await load_phase(n, args, warm_up, WsSession)


def main() -> None:
    args = load_bench_args(__doc__, "seconds after the warm-up session")
    run_load_phases(
        args,
        run_phase,
        "processes | edits | score shown p50 / p95 / max | run done p50 / p95 / max"
        " | long edit p50 | health p50 / p95 / max | peak RSS | load avg",
        lambda r: (
            f"{r['processes']} | {r['typical_edits']} "
            f"| {r['shown_p50_s']:.2f} / {r['shown_p95_s']:.2f} / {r['shown_max_s']:.2f} s "
            f"| {r['done_p50_s']:.2f} / {r['done_p95_s']:.2f} / {r['done_max_s']:.2f} s "
            f"| {r['long_p50_s']:.1f} s "
            f"| {r['health_p50_s']:.3f} / {r['health_p95_s']:.3f} / {r['health_max_s']:.3f} s "
            f"| {r['peak_rss_mb']:.0f} MB | {r['loadavg_before']}"
        ),
    )


if __name__ == "__main__":
    main()
