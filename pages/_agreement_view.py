"""Shared code of the "Agreement with people" page (not a page: app.py never registers it).

Reading the input, one cached run per input and choices (:data:`pages._cache.APP_CACHE`),
the table rows, the Inspect links and the "Use this setting" callback.  Every number
comes from :mod:`meteor` (``meteor.analysis.agreement``, ``agreement_grid``); this module
only arranges and formats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streamlit as st

import meteor
from meteor.analysis.agreement import (
    Agreement,
    Estimate,
    Judged,
    MetricScores,
    load_judged,
    measure,
    score_metrics,
)
from meteor.analysis.agreement_grid import AgreementGrid, agreement_grid
from meteor.analysis.agreement_stats import MEASURES
from meteor.io.scores import numeric_columns
from meteor.presets import DEFAULT_PRESET, PRESETS, preset_names
from meteor.viz import agreement as agreement_figures
from pages._cache import APP_CACHE
from pages._corpus_common import _LINK_KEYS
from pages._i18n import num, t, ui
from pages._settings import preset_values

#: The bundled demo (a subset of WMT21 ru-en DA; meteor/data/agreement/README.md).
DEMO_FILE = (
    Path(meteor.__file__).resolve().parent / "data" / "agreement" / "wmt21_ru-en_da_demo.tsv"
)
DEMO_HUMAN = "human_score"
#: The choices of the resampling control (the CLI's default is 1,000).
RESAMPLES = (100, 200, 500, 1000)
#: The statistics of the table's selector, by MEASURES key prefix.
STATISTICS = ("kendall", "pearson", "spearman", "darr")
#: The test measure of the significance table (correlate's default).
TEST_MEASURE = "kendall_flat"
#: Presets shown by default beside a language's default preset, when the language has them.
_MAIN_EXTRA = ("nltk", "hf", "ru")


def main_presets(lang: str) -> list[str]:
    """A language's main presets: its default, then nltk/hf (English) or ru (Russian)."""
    names = list(preset_names(lang))
    first = DEFAULT_PRESET.get(lang)
    out = [first] if first in names else names[:1]
    return out + [n for n in _MAIN_EXTRA if n in names and n not in out]


def digest(data: bytes) -> str:
    """A content digest of an input file (the cache key's part)."""
    return hashlib.sha256(data).hexdigest()[:24]


def file_columns(name: str, data: bytes) -> list[str]:
    """The file's numeric columns (read once per content; InputError as the reader's)."""
    return APP_CACHE.get(("agr_columns", name, digest(data)), lambda: numeric_columns(data, name))


def judged_of(
    name: str, data: bytes, human: str, columns: Sequence[str], higher_is_better: bool
) -> Judged:
    """The judged corpus (read once per content and choices; InputError as the readers')."""
    key = ("agr_judged", name, digest(data), human, tuple(columns), higher_is_better)
    return APP_CACHE.get(
        key,
        lambda: load_judged(
            [(name, data)], human, metric_columns=list(columns), higher_is_better=higher_is_better
        ),
    )


@dataclass(frozen=True)
class Run:
    """One measured run: the judged corpus, every metric's scores and the agreement."""

    judged: Judged
    scores: tuple[MetricScores, ...]
    agreement: Agreement

    def score(self, name: str) -> MetricScores:
        return next(m for m in self.scores if m.name == name)


def run_key(
    judged_key: tuple[Any, ...],
    presets: Sequence[str],
    baselines: Sequence[str],
    columns: Sequence[str],
    resamples: int,
) -> tuple[Any, ...]:
    return ("agr_run", judged_key, tuple(presets), tuple(baselines), tuple(columns), resamples)


def compute_run(
    judged: Judged,
    presets: Sequence[str],
    baselines: Sequence[str],
    columns: Sequence[str],
    resamples: int,
    progress: Callable[[float, str], None],
) -> Run:
    """Score every metric, then measure: ``meteor.correlate`` in two steps (same numbers),
    keeping the scores for the scatter and the grid."""
    scores = score_metrics(
        judged,
        presets=presets,
        baselines=baselines,
        columns=list(columns),
        workers=1,
        progress=lambda f, msg: progress(0.8 * f, t("agr_scoring", msg=msg)),
    )
    progress(0.8, t("agr_measuring"))
    agreement = measure(
        judged, scores, n_bootstrap=resamples, n_permutations=resamples, test_measure=TEST_MEASURE
    )
    progress(1.0, t("agr_measuring"))
    return Run(judged, tuple(scores), agreement)


def grid_of(
    run_id: tuple[Any, ...], run: Run, metric: str, x: str, y: str, key: str
) -> AgreementGrid:
    """The metric's grid over ``x × y`` (once per run, metric, parameters and measure)."""
    return APP_CACHE.get(
        ("agr_grid", run_id, metric, x, y, key),
        lambda: agreement_grid(run.judged, run.score(metric), x, y, measure=key),
    )


# ---------------------------------------------------------------------------
# display
# ---------------------------------------------------------------------------
def interval(e: Estimate, digits: int = 4) -> str:
    """``0.0900 [0.0218, 0.1560]`` in the UI's number format."""
    return f"{num(e.value, digits)} [{num(e.low, digits)}, {num(e.high, digits)}]"


def measure_label(key: str) -> str:
    """A MEASURES key as the UI says it: ``Kendall τ-b, flattened``."""
    stat, conv = key.rsplit("_", 1)
    return f"{t(f'agr_stat_{stat}')}, {t(f'agr_conv_{conv}')}"


def table_rows(agreement: Agreement, statistic: str) -> list[dict[str, str]]:
    """One row per metric: the statistic flattened and grouped, and system-level r and τ."""
    rows = []
    for m in agreement.metrics:
        rows.append(
            {
                t("agr_col_metric"): m.name,
                t("agr_col_kind"): t(f"agr_kind_{m.kind}"),
                t("agr_col_flat"): interval(m.seg(f"{statistic}_flat")),
                t("agr_col_item"): interval(m.seg(f"{statistic}_item")),
                t("agr_col_sys_pearson"): interval(m.sys("pearson")),
                t("agr_col_sys_kendall"): interval(m.sys("kendall")),
            }
        )
    return rows


def comparison_rows(agreement: Agreement) -> list[dict[str, str]]:
    """One row per pair of metrics: Δ, its PERM-BOTH p-value and whether p < 0.05."""
    out = []
    for c in agreement.comparisons:
        delta = "—" if c.delta != c.delta else ("+" if c.delta > 0 else "") + num(c.delta)
        out.append(
            {
                "A": c.a,
                "B": c.b,
                t("agr_col_delta"): delta,
                t("agr_col_p"): num(c.p_value),
                t("agr_col_sig"): "✓" if c.p_value < 0.05 else "",
            }
        )
    return out


def fig_labels() -> dict[str, str]:
    """Display strings of :mod:`meteor.viz.agreement` in the UI language."""
    return {k: t(f"agr_fig_{k}") for k in agreement_figures.LABELS_EN if k != "measure"}


def row_of(judged: Judged, row: int) -> tuple[str, str, str, tuple[str, ...]] | None:
    """``(system, segment id, hypothesis, references)`` of a row (system-major), or None."""
    corpus = judged.corpus
    start = 0
    for name, hyps in corpus.systems:
        if row < start + len(hyps):
            k = row - start
            return name, corpus.ids_of(name)[k], hyps[k], tuple(corpus.refs_of(name)[k])
        start += len(hyps)
    return None


def inspect_url(hyp: str, refs: Sequence[str], preset: str | None) -> str:
    """The Inspect page's URL for a pair: under ``preset`` as defined, or (None) under the
    sidebar's setting (its preset and the parameters changed from it); ``ui=RU`` travels."""
    ss = st.session_state
    query: dict[str, Any] = {"hyp": hyp, "ref": "\n".join(refs)}
    if ui() != "en":
        query["ui"] = ui().upper()
    if preset is not None and preset in PRESETS:
        query["lang"] = PRESETS[preset].params.lang
        query["preset"] = preset
    else:
        query["lang"] = ss.get("lang", "en")
        side = ss.get("preset")
        if side in PRESETS:
            query["preset"] = side
            base = preset_values(side)
            for k in _LINK_KEYS:
                if k in ss and k in base and ss[k] != base[k]:
                    query[k] = ss[k]
    return "/?" + urlencode(query, doseq=True)


def use_setting(preset: str, values: dict[str, float]) -> None:
    """Callback of "Use this setting": the sidebar gets ``preset`` (and its language), every
    parameter the preset's, then ``values`` (α β γ δ by widget key)."""
    ss = st.session_state
    if preset not in PRESETS:
        return
    ss["lang"] = PRESETS[preset].params.lang
    ss["preset"] = preset
    for k, v in preset_values(preset).items():
        ss[k] = v
    for k, v in values.items():
        ss[k] = float(v)
    ss["agr_used"] = (preset, dict(values))


__all__ = [
    "DEMO_FILE",
    "DEMO_HUMAN",
    "MEASURES",
    "RESAMPLES",
    "STATISTICS",
    "Run",
    "comparison_rows",
    "compute_run",
    "digest",
    "fig_labels",
    "file_columns",
    "grid_of",
    "inspect_url",
    "interval",
    "judged_of",
    "main_presets",
    "measure_label",
    "row_of",
    "run_key",
    "table_rows",
    "use_setting",
]
