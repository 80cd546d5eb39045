"""Segment-level Kendall τ of the Russian presets against expert MQM (WMT21 TED en→ru).

Data: ``../shared/data/wmt21_ted_en-ru_mqm/seg_mqm.tsv`` (14 systems × 550 segments, MQM
penalty ``human_score``).  τ is scipy's ``kendalltau`` (τ-b) between the segment scores and
``human_score`` over the pooled segments, as in the data README (sentence-chrF 0.218; Java
Meteor 1.5 ``-l ru -norm -m 'exact stem' -w '1.0 0.5'`` 0.2001), on the tuning half of
``bench/ru_tune.py`` (odd TED talks), the held-out half (even talks) and the whole set.
Each preset runs in a fresh process: ``load`` is the first segment (resources loading),
``score`` the segments after it, ``peak RSS`` the process's maximum resident set.

Usage::

    python bench/ru_mqm_kendall.py            # every Russian preset, ± embedding stage
    python bench/ru_mqm_kendall.py --loading  # loading cost of each Russian resource
    python bench/ru_mqm_kendall.py --one ru   # one preset (JSON line; used internally)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from common import ROOT, SHARED, last_json, peak_mb, read_tsv
from scipy.stats import kendalltau

DATA = SHARED / "wmt21_ted_en-ru_mqm" / "seg_mqm.tsv"


def toggled_embedding(preset: str) -> dict[str, Any]:
    """Overrides that drop the embedding stage from a preset that has it, or add it (with the
    weight and threshold of the `ru` preset) to one that has not."""
    from meteor.module_registry import Module
    from meteor.presets import RU_EMBEDDING_THRESHOLD, RU_EMBEDDING_WEIGHT, get_preset

    p = get_preset(preset).params
    if Module.EMBEDDING in p.modules:
        mods = [m for m in p.modules if m is not Module.EMBEDDING]
        return {"modules": [m.value for m in mods], "weights": {m.value: p.weight(m) for m in mods}}
    return {
        "modules": [m.value for m in (*p.modules, Module.EMBEDDING)],
        "weights": {**{m.value: w for m, w in p.weights}, "embedding": RU_EMBEDDING_WEIGHT},
        "embedding_threshold": RU_EMBEDDING_THRESHOLD,
    }


def variants() -> list[tuple[str, str, dict[str, Any]]]:
    """(label, preset, overrides): each Russian preset with and without the embedding stage."""
    from meteor.module_registry import Module
    from meteor.presets import get_preset

    ru_has = Module.EMBEDDING in get_preset("ru").params.modules
    return [
        ("meteor-1.5-ru", "meteor-1.5-ru", {}),
        ("meteor-1.5-ru + embedding", "meteor-1.5-ru", toggled_embedding("meteor-1.5-ru")),
        ("seed-ru", "seed-ru", {}),
        ("seed-ru-emb", "seed-ru-emb", {}),
        ("seed-ru, Meteor's perfect rule", "seed-ru", {"perfect_rule": True}),
        ("ru", "ru", {}),
        ("ru - embedding" if ru_has else "ru + embedding", "ru", toggled_embedding("ru")),
    ]


@dataclass(frozen=True)
class Data:
    """The MQM table: texts, human scores and the two halves of the split."""

    hyps: list[str]
    refs: list[str]
    human: np.ndarray
    tune: np.ndarray  # bool mask: odd talks
    systems: list[str]

    @property
    def held(self) -> np.ndarray:
        return ~self.tune


def load_data(path: Path = DATA) -> Data:
    """Read ``seg_mqm.tsv`` with ``csv.QUOTE_NONE`` (as its README says)."""
    rows = read_tsv(path)
    return Data(
        hyps=[r["hyp"] for r in rows],
        refs=[r["ref"] for r in rows],
        human=np.array([float(r["human_score"]) for r in rows]),
        tune=np.array([int(r["doc"].rsplit("-", 1)[1]) % 2 == 1 for r in rows]),
        systems=[r["system"] for r in rows],
    )


def kendall(scores: Sequence[float] | np.ndarray, human: np.ndarray) -> float:
    """scipy τ-b between metric scores and MQM (higher MQM = better)."""
    return float(kendalltau(np.asarray(scores, dtype=float), human)[0])


def taus(scores: Sequence[float] | np.ndarray, data: Data) -> tuple[float, float, float]:
    """τ on (tuning half, held-out half, whole set)."""
    s = np.asarray(scores, dtype=float)
    return (
        kendall(s[data.tune], data.human[data.tune]),
        kendall(s[data.held], data.human[data.held]),
        kendall(s, data.human),
    )


def run_one(preset: str, overrides: dict[str, Any]) -> dict[str, Any]:
    """Score the whole set with one configuration (in this process)."""
    from meteor import Meteor

    data = load_data()
    t0 = time.perf_counter()
    scorer = Meteor(preset, **overrides)
    first = scorer.score(data.hyps[0], data.refs[0]).score
    t1 = time.perf_counter()
    scores = [first] + [
        scorer.score(h, r).score for h, r in zip(data.hyps[1:], data.refs[1:], strict=True)
    ]
    t2 = time.perf_counter()
    tune, held, whole = taus(scores, data)
    return {
        "signature": scorer.signature(),
        "tau_tune": tune,
        "tau_held": held,
        "tau_whole": whole,
        "load_s": t1 - t0,
        "score_s": t2 - t1,
        "peak_rss_mb": peak_mb(),
        "modules": [m.value for m in scorer.params.modules],
    }


# --------------------------------------------------------------- loading costs

LOADERS: dict[str, str] = {
    "PyStemmer (Snowball Russian)": "from meteor.languages.russian import RUSSIAN as R; R.stem('проверка')",
    "pymorphy3 + DAWG2": "from meteor.languages.russian import RUSSIAN as R; R.lemmas('проверка')",
    "wiki-ru-wordnet (read-only dicts)": "from meteor.languages.russian import RUSSIAN as R; R.synsets('проверка')",
    "navec news model (natasha wheel)": "from meteor.stages.embedding import news_embeddings as N; e = N(); e.load(); len(e)",
    "razdel": "from meteor.text.tokenize_ru import razdel_tokens; razdel_tokens('проверка')",
    "Meteor 1.5 function words (jar)": "from meteor.languages.russian import RUSSIAN as R; R.is_function_word('и')",
}


def measure_loading(code: str) -> dict[str, Any]:
    """Time and resident-memory growth of one resource, in a fresh process."""
    prog = (
        "import json, resource, time\n"
        "import meteor.languages.russian, meteor.stages.embedding\n"
        "def rss():\n"
        "    return int(open('/proc/self/statm').read().split()[1]) * resource.getpagesize() / 2**20\n"
        "r0 = rss(); t = time.perf_counter()\n"
        f"{code}\n"
        "dt = time.perf_counter() - t\n"
        "print(json.dumps({'s': dt, 'rss_mb': rss() - r0, "
        "'peak_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n"
    )
    return last_json([sys.executable, "-c", prog], cwd=ROOT)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--one", metavar="PRESET")
    ap.add_argument("--overrides", default="{}", help="JSON Params overrides (with --one)")
    ap.add_argument("--loading", action="store_true", help="measure resource loading only")
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(run_one(args.one, json.loads(args.overrides))))
        return
    if args.loading:
        print(f"{'resource':36} {'time s':>7} {'+RSS MB':>8} {'peak MB':>8}")
        for label, code in LOADERS.items():
            r = measure_loading(code)
            print(f"{label:36} {r['s']:7.2f} {r['rss_mb']:8.0f} {r['peak_mb']:8.0f}")
        return
    data = load_data()
    print(
        f"WMT21 TED en-ru MQM: {len(data.hyps)} segments; tuning half = odd talks "
        f"({int(data.tune.sum())}), held-out = even talks ({int(data.held.sum())})"
    )
    print(
        f"{'configuration':28} {'τ tune':>7} {'τ held':>7} {'τ all':>7} "
        f"{'load s':>7} {'score s':>8} {'peak MB':>8}  modules"
    )
    for label, preset, overrides in variants():
        r = last_json(
            [sys.executable, __file__, "--one", preset, "--overrides", json.dumps(overrides)]
        )
        print(
            f"{label:28} {r['tau_tune']:7.4f} {r['tau_held']:7.4f} {r['tau_whole']:7.4f} "
            f"{r['load_s']:7.2f} {r['score_s']:8.1f} {r['peak_rss_mb']:8.0f}  "
            f"{'+'.join(r['modules'])}"
        )
        print(f"{'':28} {r['signature']}")


if __name__ == "__main__":
    main()
