"""Shared code of the "Agreement with people" page (not a page): reading the input, one
cached run per input and choices, the table rows and the "Use this setting" callback.
Every number comes from :mod:`meteor`; this module only arranges and formats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

import meteor
from meteor.analysis.agreement import Agreement, Judged, load_judged, measure, score_metrics
from meteor.analysis.agreement_grid import AgreementGrid, agreement_grid
from meteor.analysis.tune import TuneResult, group_folds, tune
from meteor.io.labels import label_columns, read_groups
from meteor.io.scores import numeric_columns
from meteor.presets import DEFAULT_PRESET, PRESETS, preset_names
from meteor.viz import agreement as agreement_figures
from pages._cache import APP_CACHE
from pages._i18n import integer, interval, num, signed, t
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
    name: str,
    data: bytes,
    human: str,
    columns: Sequence[str],
    higher_is_better: bool,
    darr_column: str | None = None,
) -> Judged:
    """The judged corpus (read once per content and choices; InputError as the readers').

    ``darr_column``: the column DARR pairs are built from, as chosen (None: the library's
    default, a raw DA column when the file has one, else the human scores)."""
    key = ("agr_judged", name, digest(data), human, tuple(columns), higher_is_better, darr_column)
    return APP_CACHE.get(
        key,
        lambda: load_judged(
            [(name, data)],
            human,
            metric_columns=list(columns),
            higher_is_better=higher_is_better,
            darr_column=darr_column,
        ),
    )


def default_darr_column(numeric: Sequence[str], human: str) -> str:
    """The DARR column offered first: a raw-score column (WMT's DARR pairs come from raw DA,
    at a threshold of 25) when the file has one (``human_raw``, ``raw``), else the human column."""
    return next((c for c in numeric if "raw" in c.casefold()), human)


@dataclass(frozen=True)
class Run:
    """One measured run: the judged corpus and the agreement (which holds every metric's
    scores)."""

    judged: Judged
    agreement: Agreement


def compute_run(
    judged: Judged,
    presets: Sequence[str],
    baselines: Sequence[str],
    columns: Sequence[str],
    resamples: int,
    progress: Callable[[float, str], None],
    darr_threshold: float = 25.0,
) -> Run:
    """Score every metric, then measure: ``meteor.correlate`` in two steps (same numbers),
    so the progress bar can say which step it is in."""
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
        judged,
        scores,
        n_bootstrap=resamples,
        n_permutations=resamples,
        test_measure=TEST_MEASURE,
        darr_threshold=darr_threshold,
    )
    progress(1.0, t("agr_measuring"))
    return Run(judged, agreement)


def grid_of(
    run_id: tuple[Any, ...], run: Run, metric: str, x: str, y: str, key: str
) -> AgreementGrid:
    """The metric's grid over ``x × y`` (once per run, metric, parameters and measure)."""
    return APP_CACHE.get(
        ("agr_grid", run_id, metric, x, y, key),
        lambda: agreement_grid(
            run.judged,
            run.agreement.scores_of(metric),
            x,
            y,
            measure=key,
            darr_threshold=run.agreement.darr_threshold,
        ),
    )


# -- tune ------------------------------------------------------------------------------
#: The choices of "Tune" (the cache key's part, with the run's key).
@dataclass(frozen=True)
class TuneChoices:
    base: str
    objective: str
    weights: bool
    group_by: str  # "system" or a column of the input
    folds: int
    rounds: int
    resamples: int


def group_columns(name: str, data: bytes) -> list[str]:
    """The input's columns a fold may group by (a document or talk id, …): every column but
    the system, segment-id, hypothesis and reference ones (read once:
    :func:`meteor.io.labels.label_columns`)."""
    return APP_CACHE.get(("agr_header", name, digest(data)), lambda: label_columns([(name, data)]))


def group_labels(name: str, data: bytes, column: str, judged: Judged) -> list[str] | str:
    """``"system"``, or the column's label of every row (system-major, corpus order; the
    CLI's, :func:`meteor.io.labels.read_groups`)."""
    if column == "system":
        return "system"
    labels = read_groups([(name, data)], column, None)
    corpus = judged.corpus
    return [labels[f"{s}\t{seg}"] for s, _ in corpus.systems for seg in corpus.ids_of(s)]


def tune_run(
    run: Run, name: str, data: bytes, c: TuneChoices, progress: Callable[[float, str], None]
) -> TuneResult:
    """``meteor.tune`` on the run's judged corpus with these choices (the folds checked first,
    so too few groups is said before aligning)."""
    groups = group_labels(name, data, c.group_by, run.judged)
    if not isinstance(groups, str):
        group_folds(groups, c.folds)
    elif len(run.judged.corpus.systems) < c.folds:
        group_folds([s for s, _ in run.judged.corpus.systems], c.folds)
    return tune(
        run.judged,
        preset=c.base,
        objective=c.objective,
        weights=c.weights,
        folds=c.folds,
        groups=groups,
        group_name=c.group_by,
        n_bootstrap=c.resamples,
        rounds=c.rounds,
        data_name=name,
        data_sha256=hashlib.sha256(data).hexdigest(),  # as meteor tune --hyp FILE
        workers=1,
        progress=progress,
        darr_threshold=run.agreement.darr_threshold,
    )


def objective_label(key: str) -> str:
    """An objective as the UI says it."""
    return t(f"agr_obj_{key}") if key.startswith("system_") else measure_label(key)


def fold_rows(result: TuneResult) -> list[dict[str, str]]:
    """One row per held-out fold, then the mean: tuned, base and chrF with intervals."""
    base = result.base_name
    rows = [
        {
            t("agr_tune_col_fold"): str(f.fold),
            t("agr_tune_col_rows"): integer(f.n_rows),
            t("agr_tune_col_groups"): integer(len(f.groups)),
            t("agr_tune_col_tuned"): interval(f.tuned),
            base: interval(f.base),
            "chrF": interval(f.chrf) if f.chrf is not None else "—",
        }
        for f in result.folds
    ]
    rows.append(
        {
            t("agr_tune_col_fold"): t("agr_tune_mean"),
            t("agr_tune_col_rows"): integer(result.n_rows),
            t("agr_tune_col_groups"): integer(sum(len(f.groups) for f in result.folds)),
            t("agr_tune_col_tuned"): num(result.cv_mean("tuned")),
            base: num(result.cv_mean("base")),
            "chrF": num(result.cv_mean("chrf")) if result.folds[0].chrf is not None else "—",
        }
    )
    return rows


def param_rows(result: TuneResult) -> list[dict[str, str]]:
    """The best setting's α β γ δ and stage weights beside the base preset's."""
    p, b = result.params, result.base
    base_w = dict(b.weights)
    values = [
        (sym, getattr(p, k), getattr(b, k)) for k, sym in agreement_figures.PARAM_SYMBOLS.items()
    ]
    values += [(f"w {m.value}", w, base_w.get(m, 0.0)) for m, w in p.weights]
    return [
        {t("agr_tune_col_param"): name, t("agr_tune_col_tuned"): num(x), result.base_name: num(y)}
        for name, x, y in values
    ]


# -- display ---------------------------------------------------------------------------
def measure_label(key: str) -> str:
    """A MEASURES key as the UI says it: ``Kendall τ-b, flattened``."""
    stat, conv = key.rsplit("_", 1)
    return f"{t(f'agr_stat_{stat}')}, {t(f'agr_conv_{conv}')}"


def table_rows(agreement: Agreement, statistic: str) -> list[dict[str, str]]:
    """One row per metric: the statistic flattened and grouped, and system-level r and τ."""
    return [
        {
            t("agr_col_metric"): m.name,
            t("agr_col_kind"): t(f"agr_kind_{m.kind}"),
            t("agr_col_flat"): interval(m.seg(f"{statistic}_flat")),
            t("agr_col_item"): interval(m.seg(f"{statistic}_item")),
            t("agr_col_sys_pearson"): interval(m.sys("pearson")),
            t("agr_col_sys_kendall"): interval(m.sys("kendall")),
        }
        for m in agreement.metrics
    ]


def comparison_rows(agreement: Agreement) -> list[dict[str, str]]:
    """One row per pair of metrics: Δ, its PERM-BOTH p-value and whether p < 0.05."""
    return [
        {
            "A": c.a,
            "B": c.b,
            t("agr_col_delta"): signed(c.delta),
            t("agr_col_p"): num(c.p_value),
            t("agr_col_sig"): "✓" if c.p_value < 0.05 else "",
        }
        for c in agreement.comparisons
    ]


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


def use_setting(preset: str, values: dict[str, float]) -> None:
    """Callback of "Use this setting": the sidebar gets ``preset`` (and its language), every
    parameter the preset's, then ``values`` (α β γ δ by widget key)."""
    ss = st.session_state
    if preset not in PRESETS:
        return
    ss["lang"] = PRESETS[preset].params.lang
    ss["preset"] = preset
    ss.update(preset_values(preset))
    ss.update({k: float(v) for k, v in values.items()})
    ss["agr_used"] = (preset, dict(values))
