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
