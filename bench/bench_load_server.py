"""The server side of bench_load.py without the browsers: N AppTest sessions in threads of
one process (run by hand, not in CI).

    python bench/bench_load_server.py                       # 1, 5, 10 and 20 sessions
    python bench/bench_load_server.py --app-dir ../old    # another checkout, same load

Each session is a Streamlit ``AppTest`` of ``app.py`` in its own thread of this process: the
same script, process-wide caches and GIL as a server with N sessions, but no websocket and no
rendering.  With N >= 2 one session keeps scoring ~7,000-character pairs; the others type
real WMT21 pairs (≤ 60 words), each edit's ``run()`` timed and its score checked against
``meteor.score``.  Prints p50/p95/max of the edits and this process's peak RSS per N.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from appserver import RssSampler, loadavg, long_pair, pct, wmt_pairs
from common import ROOT, timed


def started(app: str, timeout: float) -> Any:
    """An ``AppTest`` of ``app`` after its first run."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(app, default_timeout=timeout)
    at.run()
    return at


def timed_run(at: Any, hyp: str, ref: str) -> float:
    """Seconds of the run after typing ``hyp`` and ``ref``."""
    at.text_area(key="hyp").set_value(hyp)
    at.text_area(key="ref").set_value(ref)
    return timed(at.run)[0]


def run_phase(n: int, m: Any, pairs: Any, app: str, args: argparse.Namespace) -> dict[str, Any]:
    with_long = n >= 2
    n_typ = n - 1 if with_long else n
    plan = [[next(pairs) for _ in range(args.edits)] for _ in range(n_typ)]
    want = [[f"{m.score(h, [r]).score:.4f}" for h, r in p] for p in plan]
    lat: list[float] = []
    long_lat: list[float] = []
    errors: list[str] = []
    stop = threading.Event()

    def typical(i: int) -> None:
        try:
            at = started(app, args.timeout)
            for (h, r), w in zip(plan[i], want[i], strict=True):
                lat.append(timed_run(at, h, r))
                got = next(x.value for x in at.metric if x.label == "METEOR")
                if got != w:
                    errors.append(f"{got} != {w}")
        except Exception as exc:
            errors.append(repr(exc)[:200])

    def long() -> None:
        at = started(app, args.timeout)
        for k in range(1, 50):
            if stop.is_set():
                return
            long_lat.append(timed_run(at, *long_pair(7000, start=40 * k + 7 * n)))

    la = loadavg()
    threads = [threading.Thread(target=typical, args=(i,), daemon=True) for i in range(n_typ)]
    long_thread = threading.Thread(target=long, daemon=True) if with_long else None
    with RssSampler(os.getpid()) as sampler:
        if long_thread is not None:
            long_thread.start()
            time.sleep(1.0)  # the long pair is under way
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join(max(1.0, args.timeout - (time.perf_counter() - t0)))
        stop.set()
    row = {
        "sessions": n,
        "long_session": with_long,
        "edits": len(lat),
        "p50_s": pct(lat, 0.5),
        "p95_s": pct(lat, 0.95),
        "max_s": max(lat, default=float("nan")),
        "long_runs": len(long_lat),
        "long_p50_s": pct(long_lat, 0.5),
        "errors": errors[:3],
        "peak_rss_mb": sampler.peak / 2**20,
        "loadavg": la,
    }
    if long_thread is not None:
        long_thread.join(args.timeout)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 5, 10, 20])
    ap.add_argument("--edits", type=int, default=4, help="typed pairs per typical session")
    ap.add_argument("--app-dir", type=Path, default=ROOT)
    ap.add_argument("--timeout", type=float, default=600, help="seconds a phase may take")
    args = ap.parse_args()
    sys.path.insert(0, str(args.app_dir))

    os.chdir(args.app_dir)
    from meteor import Meteor

    m = Meteor("meteor-1.5")
    pairs = iter(wmt_pairs(60)[400:])
    app = str(args.app_dir / "app.py")
    started(app, args.timeout)
    time.sleep(15)  # the background warm-up, where the checkout has one
    rows = []
    for n in args.sessions:
        row = run_phase(n, m, pairs, app, args)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(json.dumps({"app": str(args.app_dir), "rows": rows}))


if __name__ == "__main__":
    main()
