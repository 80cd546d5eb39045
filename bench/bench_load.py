"""Load benchmark of the app: N real browser sessions at once (run by hand, not in CI).

    python bench/bench_load.py                    # 1, 5, 10 and 20 sessions
    python bench/bench_load.py --sessions 10 --rounds 2
    python bench/bench_load.py --no-long          # without the 7,000-character session

bench_load_ws.py's phases, but each session is a Chromium page (Debian's /usr/bin/chromium
driven by Playwright, a browser context each: real HTTP and websocket traffic), an edit timed
from the key press until the score card shows ``meteor.score``'s score; docs/app-load.md,
"Benchmarks".
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from typing import Any

from appserver import (
    CHROMIUM,
    CHROMIUM_ARGS,
    METRIC_JS,
    WAIT_CHANGE_JS,
    WAIT_VALUE_JS,
    load_bench_args,
    load_phase,
    run_load_phases,
)


async def open_inspect(pg: Any, url: str, timeout_ms: float) -> float:
    pg.set_default_timeout(timeout_ms)
    t0 = time.perf_counter()
    await pg.goto(url + "/", timeout=timeout_ms)
    await pg.wait_for_function(WAIT_CHANGE_JS, arg=["METEOR", None], timeout=timeout_ms, polling=50)
    return time.perf_counter() - t0


class BrowserSession:
    """A Chromium page in a browser context of its own: a session as appserver's
    ``typical_session`` and ``long_session`` drive it."""

    def __init__(self, browser: Any, url: str) -> None:
        self.browser, self.url = browser, url
        self.pg: Any = None

    async def connect(self, timeout: float) -> float:
        ctx = await self.browser.new_context(viewport={"width": 1280, "height": 900})
        self.pg = await ctx.new_page()
        return await open_inspect(self.pg, self.url, timeout * 1000)

    async def shown(self) -> str | None:
        return await self.pg.evaluate(METRIC_JS, ["METEOR"])  # type: ignore[no-any-return]

    async def type_text(self, box: str, text: str) -> None:
        loc = self.pg.get_by_role("textbox", name=box)
        await loc.fill(text)
        await loc.press("Control+Enter")

    async def edit(
        self, box: str, text: str, expected: str | None, timeout: float
    ) -> tuple[float, None]:
        """Seconds from the key press until the score card shows ``expected`` (None: any new
        text); when the script run ended a browser cannot tell."""
        if expected is None:
            js, arg, polling = WAIT_CHANGE_JS, await self.shown(), 50
        else:
            js, arg, polling = WAIT_VALUE_JS, expected, 20
        t0 = time.perf_counter()
        await self.type_text(box, text)
        try:
            await self.pg.wait_for_function(
                js, arg=["METEOR", arg], timeout=timeout * 1000, polling=polling
            )
        except Exception as exc:  # Playwright's timeout, or a page lost on a busy machine
            raise TimeoutError from exc
        return time.perf_counter() - t0, None

    async def close(self) -> None:
        pass  # the browser closes every context at the end of the phase


async def run_phase(n: int, args: argparse.Namespace) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        async def warm_up(url: str) -> float:
            pg = await browser.new_page()
            try:
                return await open_inspect(pg, url, args.timeout * 1000)
            finally:
                await pg.close()

        try:
            return await load_phase(n, args, warm_up, partial(BrowserSession, browser))
        finally:
            await browser.close()


def main() -> None:
    args = load_bench_args(__doc__, "seconds after the warm-up load")
    run_load_phases(
        args,
        run_phase,
        "typical p50 | typical p95 | typical max | long edit p50 | health p95 | health max"
        " | peak RSS | load avg",
        lambda r: (
            f"{r['shown_p50_s']:.2f} s | {r['shown_p95_s']:.2f} s | {r['shown_max_s']:.2f} s "
            f"| {r['long_p50_s']:.1f} s | {r['health_p95_s']:.3f} s | {r['health_max_s']:.3f} s "
            f"| {r['peak_rss_mb']:.0f} MB | {r['loadavg_before']}"
        ),
    )


if __name__ == "__main__":
    main()
