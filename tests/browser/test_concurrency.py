"""Issue #7: several users at once.

* Library: many threads score different pairs through one shared ``Meteor`` (and the
  process-wide language resources) per preset; every record equals the serial one.
  A fresh process whose threads all ask for the resources at the same first moment
  (paraphrase index, WordNet, stemmers, pymorphy3, navec) gets the serial results too.
* App: five Chromium sessions against one ``streamlit run app.py`` score different pairs
  at the same time; each sees its own numbers and the server stays up.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from _browser import CHROMIUM, CHROMIUM_ARGS, healthy, streamlit_server, type_into, wait_metric
from conftest import GOLDEN, read_jsonl_gz

from meteor import Meteor
from meteor.io.read import demo_corpus

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ("meteor-1.5", "nltk", "paper-2005", "meteor-1.5-ru", "ru")


def english_pairs() -> list[tuple[str, list[str]]]:
    demo = demo_corpus()
    out = [(h, list(r)) for h, r in zip(demo.hyps(0), demo.refs, strict=True)]
    out += [(h, list(r)) for h, r in zip(demo.hyps(1), demo.refs, strict=True)]
    out.append(
        ("A fast brown fox leapt over a lazy dog", ["The quick brown fox jumps over the lazy dog"])
    )
    return out


def russian_pairs(n: int = 30) -> list[tuple[str, list[str]]]:
    """Real WMT21 TED en→ru pairs from the committed golden subset (runs on a clean clone)."""
    path = GOLDEN / "meteor15.ru_exact_stem_norm.jsonl.gz"
    return [(d["hyp"], list(d["refs"])) for d in itertools.islice(read_jsonl_gz(path), n)]


def record(r: Any) -> str:
    return json.dumps(r.to_dict(candidates=True), sort_keys=True, ensure_ascii=False)


def test_threads_share_scorers_and_get_serial_results() -> None:
    jobs: list[tuple[str, str, list[str]]] = []
    for preset in PRESETS:
        pairs = russian_pairs() if preset.endswith("ru") else english_pairs()
        jobs += [(preset, h, refs) for h, refs in pairs]
    serial = {(p, h, tuple(r)): record(Meteor(p).score(h, r)) for p, h, r in jobs}
    shared = {p: Meteor(p) for p in PRESETS}  # one scorer per preset, as the app caches them
    work = jobs * 3
    random.Random(7).shuffle(work)
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda j: (j, record(shared[j[0]].score(j[1], j[2]))), work))
    assert len(results) == len(work)
    for (preset, hyp, refs), got in results:
        assert got == serial[(preset, hyp, tuple(refs))], (preset, hyp)


COLD_START = textwrap.dedent(
    """
    import json, sys, threading
    from meteor import Meteor
    jobs = json.loads(sys.stdin.read())
    barrier = threading.Barrier(len(jobs))
    got = [None] * len(jobs)
    def run(k, preset, hyp, ref):
        barrier.wait()  # every thread asks for its resources at the same moment
        got[k] = Meteor(preset).score(hyp, ref).to_dict(candidates=True)
    threads = [threading.Thread(target=run, args=(k, *j)) for k, j in enumerate(jobs)]
    for t in threads: t.start()
    for t in threads: t.join()
    serial = [Meteor(p).score(h, r).to_dict(candidates=True) for p, h, r in jobs]
    print(json.dumps({"same": got == serial, "done": sum(g is not None for g in got)}))
    """
)


def test_cold_start_from_many_threads() -> None:
    en = english_pairs()
    ru = russian_pairs(4)
    jobs = [
        [p, *(ru[k % 4] if p.endswith("ru") else en[k])]
        for k, p in enumerate(["meteor-1.5", "nltk", "paper-2005", "meteor-1.5-ru", "ru"] * 2)
    ]
    proc = subprocess.run(
        [sys.executable, "-c", COLD_START],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads(proc.stdout) == {"same": True, "done": len(jobs)}


# -- five browser sessions ----------------------------------------------------------------

SESSIONS = [  # (preset, hypothesis, reference): five users, five different pairs
    ("meteor-1.5", "A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog"),
    ("nltk", "the cat was sat on the mat", "the cat sat on the mat"),
    ("paper-2005", "Danced we with under joy the night starry.", "We danced with joy under the starry night."),
    ("meteor-1.5-ru", "Кошка сидела на ковре у окна", "Кошка сидит на коврике у окошка"),
    ("meteor-1.5-paper2005", "the president spoke to the audience", "the president then spoke to the audience"),
]  # fmt: skip
RETYPED = [  # then each user types a new pair at the same time
    ("He jumped quickly over the wall", "He jumps quickly over the wall"),
    ("the dogs are barking loudly", "the dog barks loud"),
    ("a big house on the hill", "a large home on the hill"),
    ("Быстрая лиса прыгнула", "Стремительная лисица скакнула"),
    ("we will meet tomorrow at noon", "we meet at noon tomorrow"),
]


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (apt-get install -y chromium)")
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    with streamlit_server(env) as srv:
        yield srv["url"], srv["proc"]


def _shown_score(pg: Any) -> str:
    return str(
        pg.evaluate(
            """() => [...document.querySelectorAll('[data-testid="stMetric"]')]
                .find(m => m.querySelector('[data-testid="stMetricLabel"]')?.innerText.trim()
                           === 'METEOR')?.querySelector('[data-testid="stMetricValue"]')?.innerText.trim()"""
        )
    )


@pytest.mark.browser
def test_five_browser_sessions_at_once(server: tuple[str, Any]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    url, proc = server
    first = [f"{Meteor(p).score(h, r).score:.4f}" for p, h, r in SESSIONS]
    second = [
        f"{Meteor(p).score(h, r).score:.4f}"
        for (p, _, _), (h, r) in zip(SESSIONS, RETYPED, strict=True)
    ]
    assert len(set(first)) == len(first) and len(set(second)) == len(second)  # tell them apart
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        contexts = [browser.new_context(viewport={"width": 1300, "height": 1600}) for _ in SESSIONS]
        pages = [c.new_page() for c in contexts]
        # five deep links requested at once: different presets, languages and pairs
        for pg, (preset, hyp, ref) in zip(pages, SESSIONS, strict=True):
            lang = "ru" if preset.endswith("-ru") else "en"
            pg.goto(
                f"{url}/?{urlencode({'lang': lang, 'preset': preset, 'hyp': hyp, 'ref': ref})}",
                wait_until="commit",
            )
        for pg, value in zip(pages, first, strict=True):
            wait_metric(pg, "METEOR", value, timeout=90_000)
        # everyone types a new pair at about the same time
        for pg, (hyp, ref) in zip(pages, RETYPED, strict=True):
            for label, text in (("Hypothesis", hyp), ("Reference(s), one per line", ref)):
                type_into(pg, label, text)
        for pg, value in zip(pages, second, strict=True):
            wait_metric(pg, "METEOR", value, timeout=90_000)
        for pg, (preset, _, _), (hyp, _), value in zip(
            pages, SESSIONS, RETYPED, second, strict=True
        ):
            assert pg.get_by_role("textbox", name="Hypothesis").input_value() == hyp
            assert pg.get_by_role("combobox", name="Preset").input_value() == preset
            assert _shown_score(pg) == value  # still its own result, nobody else's
            assert not pg.locator('[data-testid="stException"]').count()
        browser.close()
    assert proc.poll() is None and healthy(url)  # the server is still up
