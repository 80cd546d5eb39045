"""How quick the app is to click, in Chromium (run by hand; not a timed test, never in CI).

    python bench/bench_clicks.py                 # warm: typed pair, preset switch, corpus row
    python bench/bench_clicks.py --cold          # also the first load with an empty cache dir
    python bench/bench_clicks.py --app-dir ../old-checkout   # the same on another checkout

Each action is timed from the user's input until the page shows the library's answer: the
first load (``--cold``: with an empty ``METEOR_CACHE_DIR``, and whether a progress bar
showed), a typed pair, a preset switch, a corpus row (docs/app-load.md, "Benchmarks").
Prints each sample, the median per action and the load average.  Debian's Chromium,
127.0.0.1 only, every wait bounded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from appserver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    HYP_BOX,
    WAIT_VALUE_JS,
    app_server,
    fmt,
    loadavg,
    wmt_pairs,
)
from common import ROOT

from meteor import Meteor

SIGNATURE_JS = """([needle]) => [...document.querySelectorAll('[data-testid="stCode"]')]
  .some(c => c.innerText.includes(needle))"""
PROGRESS_JS = """() => document.querySelectorAll('[data-testid="stProgress"]').length > 0
  || [...document.querySelectorAll('[data-testid="stSpinner"]')].length > 0"""
FIRST = (
    "Under the starry night, we danced with glee.",
    "We danced with joy under the starry night.",
)


def first_load(pg: Any, url: str, timeout_ms: float) -> tuple[float, bool]:
    """Seconds until the first example's score shows; whether progress was ever visible."""
    want = fmt(Meteor("meteor-1.5").score(FIRST[0], [FIRST[1]]).score)
    t0 = time.perf_counter()
    pg.goto(url + "/", timeout=timeout_ms)
    saw_progress = False
    deadline = time.monotonic() + timeout_ms / 1000
    while time.monotonic() < deadline:
        if pg.evaluate(WAIT_VALUE_JS, ["METEOR", want]):
            return time.perf_counter() - t0, saw_progress
        saw_progress = saw_progress or bool(pg.evaluate(PROGRESS_JS))
        time.sleep(0.05)
    raise TimeoutError("first load")


def typed_pairs(pg: Any, n: int, timeout_ms: float) -> list[float]:
    m = Meteor("meteor-1.5")
    out = []
    ref = FIRST[1]
    shown = fmt(m.score(FIRST[0], [ref]).score)
    for hyp, _ in wmt_pairs(max_tokens=60)[200:]:
        if len(out) >= n:
            break
        want = fmt(m.score(hyp, [ref]).score)
        if want == shown:
            continue
        box = pg.get_by_role("textbox", name=HYP_BOX)
        box.fill(hyp)
        t0 = time.perf_counter()
        box.press("Control+Enter")
        pg.wait_for_function(WAIT_VALUE_JS, arg=["METEOR", want], timeout=timeout_ms, polling=10)
        out.append(time.perf_counter() - t0)
        shown = want
        time.sleep(1.0)  # let the rest of the page (near misses) finish, as a reader would
    return out


def choose_preset(pg: Any, name: str, hyp: str, ref: str, timeout_ms: float) -> float:
    want = fmt(Meteor(name).score(hyp, [ref]).score)
    box = pg.get_by_role("combobox", name="Preset", exact=True)
    box.click()
    box.fill(name)
    t0 = time.perf_counter()
    box.press("Enter")
    pg.wait_for_function(SIGNATURE_JS, arg=[f"preset:{name}|"], timeout=timeout_ms, polling=10)
    pg.wait_for_function(WAIT_VALUE_JS, arg=["METEOR", want], timeout=timeout_ms, polling=10)
    took = time.perf_counter() - t0
    time.sleep(1.5)  # the rest of the page
    return took


def corpus_rows(pg: Any, url: str, rows: list[int], timeout_ms: float) -> list[float]:
    pg.goto(url + "/corpus", timeout=timeout_ms)
    pg.get_by_text("Demo corpus (20 segments, 2 systems)").click()
    goto = pg.get_by_role("spinbutton", name="Open segment number").first  # the first system
    goto.wait_for(timeout=timeout_ms)
    time.sleep(2.0)
    out = []
    for k in rows:
        goto.fill(str(k))
        t0 = time.perf_counter()
        goto.press("Enter")
        pg.wait_for_function(
            """([k]) => [...document.querySelectorAll('[data-testid="stMarkdown"] strong')]
                .some(s => new RegExp('· segment ' + k + ' \\\\(id').test(s.innerText))
              && document.querySelectorAll('[data-testid="stPlotlyChart"] .main-svg').length > 0""",
            arg=[k],
            timeout=timeout_ms,
            polling=10,
        )
        out.append(time.perf_counter() - t0)
        time.sleep(1.0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cold", action="store_true", help="also a first load with an empty cache")
    ap.add_argument("--typed", type=int, default=6, help="typed pairs to time")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one action may take")
    ap.add_argument("--app-dir", type=Path, default=ROOT, help="checkout whose app.py to run")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    tmo = args.timeout * 1000
    res: dict[str, Any] = {"loadavg_start": loadavg()}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if args.cold:
                with tempfile.TemporaryDirectory() as cache:
                    with app_server({"METEOR_CACHE_DIR": cache}, app_dir=args.app_dir) as srv:
                        pg = browser.new_page(viewport={"width": 1280, "height": 900})
                        secs, prog = first_load(pg, srv["url"], tmo)
                        res["cold_first_load_s"] = secs
                        res["cold_progress_visible"] = prog
                        pg.close()
                print(json.dumps(res), flush=True)
            with app_server(app_dir=args.app_dir) as srv:
                url = srv["url"]
                pg = browser.new_page(viewport={"width": 1280, "height": 900})
                res["first_load_new_process_s"], _ = first_load(pg, url, tmo)
                time.sleep(3.0)
                pg2 = browser.new_page(viewport={"width": 1280, "height": 900})
                res["first_load_warm_s"], _ = first_load(pg2, url, tmo)
                pg.close()
                time.sleep(2.0)
                res["typed_pair_s"] = typed_pairs(pg2, args.typed, tmo)
                print(json.dumps(res), flush=True)
                # presets: first visit, then back and forth (warm)
                hyp = pg2.get_by_role("textbox", name=HYP_BOX).input_value()
                ref = FIRST[1]
                first = ("meteor-1.5-paper2005", "nltk", "paper-2005")
                res["preset_first_visit_s"] = {
                    k: choose_preset(pg2, k, hyp, ref, tmo) for k in first
                }
                warm = ("meteor-1.5", "meteor-1.5-paper2005", "nltk", "meteor-1.5", "nltk")
                res["preset_switch_warm_s"] = [choose_preset(pg2, k, hyp, ref, tmo) for k in warm]
                print(json.dumps(res), flush=True)
                res["corpus_row_s"] = corpus_rows(pg2, url, [3, 7, 12, 3, 18], tmo)
        finally:
            browser.close()
    res["loadavg_end"] = loadavg()
    res["median"] = {
        k: statistics.median(v)
        for k, v in res.items()
        if isinstance(v, list) and v and isinstance(v[0], float)
    }
    print(json.dumps(res, indent=1))
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
