"""Load benchmark of the app's server: N websocket sessions at once (run by hand, not in CI).

    python bench/bench_load_ws.py                     # 1, 5, 10 and 20 sessions
    python bench/bench_load_ws.py --sessions 10 --rounds 4
    python bench/bench_load_ws.py --app-dir ../before    # another checkout (git archive), same conditions
    python bench/bench_load_ws.py --sessions 20 --processes 2   # 2 server processes, one address

For each N a fresh ``streamlit run app.py`` on 127.0.0.1 (``--processes`` behind
tools/serve_class.py); each session is a websocket speaking Streamlit's protocol as the
browser does (bench/wsclient.py), so the server does a browser session's whole work while
the clients cost it no CPU.  The phases (:func:`appserver.load_phase`: one session typing
~7,000-character documents beside N-1 typing real pairs, each edit timed until the score
shows and until the run ended) and what is printed: docs/app-load.md, "The server's share,
over websockets".
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
