"""Which METEOR agrees with people? Correlation with human judgements (docs/agreement.md).

:func:`correlate` scores a judged corpus (:class:`Judged`) with METEOR presets and
:class:`~meteor.params.Params`, sacreBLEU's chrF, chrF++ and BLEU
(:mod:`meteor.analysis.baselines`) and numeric columns of the user's file, and measures how
each agrees with the human scores (:mod:`meteor.analysis.agreement_stats`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, TypedDict, Unpack

import numpy as np

from meteor.analysis import agreement_stats as st
from meteor.analysis import system_level as sl
from meteor.analysis.agreement_limits import (
    check_darr_threshold,
    check_resamples,
    file_labels,
)
from meteor.analysis.agreement_records import (
    Agreement,
    Comparison,
    MetricAgreement,
    MetricScores,
)
from meteor.analysis.agreement_stats import Estimate, segment_estimate, system_estimate
from meteor.analysis.baselines import BASELINES, score_baselines
from meteor.analysis.judged import Join, Judged, darr_notice, load_judged, row_index
from meteor.analysis.resampling import resample_indices
from meteor.analysis.system_level import SystemLevel
from meteor.errors import InputError
from meteor.io.system_scores import SystemScores
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.parallel import default_workers, run_tasks, score_corpus
from meteor.runtime import Progress
from meteor.scoring import compute
from meteor.types import Stats

__all__ = [
    "BASELINES",
    "Agreement",
    "Comparison",
    "Estimate",
    "Join",
    "Judged",
    "SystemLevel",
    "SystemScores",
    "MetricAgreement",
    "MetricScores",
    "correlate",
    "load_judged",
    "rescore",
    "score_metrics",
]


# --------------------------------------------------------------------------- scoring


def rescore(scores: MetricScores, params: Params) -> tuple[float, ...]:
    """Segment scores under other formula parameters (α, β, γ, δ, stage weights: the
    caller keeps the alignment's own), from the kept statistics (no aligning)."""
    if scores.stats is None:
        raise ValueError(f"{scores.name}: no sufficient statistics kept (not a METEOR metric)")
    return tuple(compute(s, params).score for s in scores.stats)


def _meteor_scores(
    judged: Judged,
    label: str,
    kind: str,
    build: Callable[[], Any],
    workers: int | None,
    progress: Progress | None,
    by_definition: bool = False,
) -> MetricScores:
    m = build()
    rule = sl.system_rule(m.params, by_definition=by_definition)
    corpus = judged.corpus
    segs: list[float] = []
    stats: list[Stats] = []
    system: list[float] = []
    signature = ""
    k_sys = len(corpus.systems)
    for k, (name, hyps) in enumerate(corpus.systems):

        def step(fraction: float, message: str, k: int = k, name: str = name) -> None:
            if progress is not None:
                progress((k + fraction) / k_sys, f"{label}: {name}: {message}")

        result = score_corpus(m, hyps, corpus.refs_of(name), workers=workers, progress=step)
        segs.extend(s.score for s in result.segments)
        stats.extend(s.stats for s in result.segments)
        system.append(result.score if rule == sl.SUMMED else result.mean_segment_score)
        signature = result.signature
    names = corpus.system_names
    return MetricScores(
        label, kind, signature, tuple(segs), tuple(system), tuple(stats), m.params, rule, names
    )


def _column_scores(judged: Judged, name: str) -> MetricScores:
    values = judged.columns[name]
    segs: list[float] = []
    system: list[float] = []
    for sys_name, _ in judged.corpus.systems:
        v = [float(x) for x in values[sys_name]]
        segs.extend(v)
        system.append(math.fsum(v) / len(v) if v else math.nan)
    return MetricScores(name, "column", f"column:{name}", tuple(segs), tuple(system),
                        system_rule=sl.COLUMN_MEAN, systems=judged.corpus.system_names)  # fmt: skip


def score_metrics(
    judged: Judged,
    *,
    presets: Sequence[str] = (),
    params: Mapping[str, Params] | None = None,
    baselines: Sequence[str] = (),
    columns: Sequence[str] | None = None,
    lang: str | None = None,
    workers: int | None = 1,
    progress: Progress | None = None,
    preset_files: Sequence[str] = (),
    by_definition: bool = False,
    allow_edited_presets: bool = False,
) -> list[MetricScores]:
    """Every metric's segment and system scores (``columns``: default every column given;
    ``by_definition``: each METEOR setting's system score as it defines it,
    :mod:`meteor.analysis.system_level`; else summed statistics)."""
    files = list(dict.fromkeys(preset_files))
    builds = [
        partial(Meteor, preset_file=path, allow_edited=allow_edited_presets) for path in files
    ]
    labels = file_labels(files, [str(b().preset).split("@")[0] for b in builds], presets)
    meteors = [
        *((p, "preset", partial(Meteor, p, lang=lang)) for p in dict.fromkeys(presets)),
        *((label, "preset", b) for label, b in zip(labels, builds, strict=True)),  # by the file
        *((label, "params", partial(Meteor, params=p)) for label, p in (params or {}).items()),
    ]
    out = [
        _meteor_scores(judged, label, kind, build, workers, progress, by_definition)
        for label, kind, build in meteors
    ]
    out.extend(
        score_baselines(judged, list(dict.fromkeys(baselines)), workers=workers, progress=progress)
    )
    for name in judged.columns if columns is None else columns:
        if name not in judged.columns:
            raise InputError(
                f"no metric column {name!r}; columns read: {', '.join(judged.columns)}"
            )
        out.append(_column_scores(judged, name))
    names = [m.name for m in out]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise InputError(f"two metrics share the name(s) {', '.join(dup)}; give each its own")
    return out


# --------------------------------------------------------------------------- correlate


def judged_rows(judged: Judged) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per row: human, darr, item index, system index (system-major, corpus order)."""
    corpus = judged.corpus
    sign = 1.0 if judged.higher_is_better else -1.0
    human: list[float] = []
    darr: list[float] = []
    items: list[int] = []
    systems: list[int] = []
    for k, (name, _) in enumerate(corpus.systems):
        n = len(corpus.hyps(name))
        if judged.human is None:  # pairs only
            human.extend([math.nan] * n)
            darr.extend([math.nan] * n)
        else:
            human.extend(float(x) for x in judged.human[name])
            darr.extend(float(x) for x in (judged.darr or judged.human)[name])
        items.extend(corpus.indices(name))
        systems.extend([k] * n)
    # the human scores standardised; the DARR column keeps its units (the threshold's)
    return (
        st.standardised(sign * np.asarray(human)),
        sign * np.asarray(darr),
        np.asarray(items, dtype=np.int64),
        np.asarray(systems, dtype=np.int64),
    )


def system_human(human: np.ndarray, systems: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(systems, human, n) / np.bincount(systems, minlength=n)


class MeasureOptions(TypedDict, total=False):
    """:func:`measure`'s settings, which :func:`correlate` passes on."""

    darr_threshold: float
    n_bootstrap: int
    n_permutations: int
    seed: int
    level: float
    test_measure: str | None
    sided: str


def measure(
    judged: Judged,
    metrics: Sequence[MetricScores],
    *,
    darr_threshold: float = 25.0,
    n_bootstrap: int = 1000,
    n_permutations: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
    test_measure: str | None = None,
    official: SystemScores | None = None,
    all_rows: Sequence[MetricScores] | None = None,
    sided: str = "two",
    workers: int | None = 1,
) -> Agreement:
    """The agreement of already scored metrics (:func:`score_metrics`) with the human scores.

    With pairwise judgements only the measures are the τ-like on the pairs and there is no
    system level; a ``judged.system_only`` corpus has only the system level.  ``official``:
    official human system scores against ``all_rows``' system scores (the metrics over
    every output; default ``metrics``).
    """
    check_darr_threshold(darr_threshold)
    if judged.system_only and official is None:
        raise InputError("no segment judgements: give official system scores (--system-scores)")
    seg_only = judged.system_only
    pairs_only = judged.human is None and not seg_only
    keys, test_measure = _measure_keys(pairs_only, test_measure)
    human, darr, items, systems = judged_rows(judged)
    n_sys = len(judged.corpus.systems)
    data = None if seg_only else st.SegmentData.build(
        human, items, darr, darr_threshold, _given_pairs(judged)
    )  # fmt: skip
    draws = None if data is None else resample_indices(data.n_items, n_bootstrap, seed)
    sys_level, sys_human, sys_metric = _system_level(
        judged, metrics, official, all_rows, human, systems
    )
    # the bootstrap of each metric and the permutation test of each pair, in ``workers``
    columns = [np.asarray(m.segment, dtype=float) for m in metrics]
    tasks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    if data is not None and draws is not None:
        tasks += [(_segment_estimates, (keys, data, c, draws, level)) for c in columns]
        tasks += [
            (st.perm_both, (test_measure, data, a, b, n_permutations, seed, sided))
            for i, a in enumerate(columns)
            for b in columns[i + 1 :]
        ]
    if len(tasks) > 1 and (workers or default_workers()) > 1:
        # scipy.stats imported once, before the workers are forked
        st.scipy_stats()
    try:
        done = run_tasks(tasks, workers or default_workers(), what="statistics")
    finally:
        st.forget_swap_masks()
    segments, tests = done[: len(metrics)], done[len(metrics) :]
    out: list[MetricAgreement] = []
    for k, (m, sys_scores) in enumerate(zip(metrics, sys_metric, strict=True)):
        segment = segments[k] if segments else ()
        system: tuple[tuple[str, Estimate], ...] = ()
        if sys_human is not None:  # Pearson and Kendall with the human system scores
            n = len(sys_human)
            system = tuple(
                (key, system_estimate(fn, sys_human, sys_scores, n_bootstrap, seed, level, n))
                for key, fn in (("pearson", st.pearson), ("kendall", st.kendall_b))
            )
        rule = m.system_rule if official is None or all_rows is None else all_rows[k].system_rule
        out.append(MetricAgreement(m.name, m.kind, m.signature, segment, system, rule))
    comparisons = _comparisons(
        metrics, test_measure, data, tests, human, sys_human, sys_metric, sided
    )
    return Agreement(
        judged.human_column,
        judged.higher_is_better,
        judged.darr_column or judged.human_column,
        darr_threshold,
        len(human),
        data.n_items if data is not None else len(judged.corpus.refs),
        n_sys,
        len(data.darr[0]) if data is not None else 0,
        n_bootstrap,
        n_permutations,
        seed,
        level,
        "" if seg_only else test_measure,
        tuple(out),
        tuple(comparisons),
        judged.pairs_source,
        judged.joins,
        sys_level,
        darr_notice(judged),
        sided,
        tuple(metrics),
    )


def _system_level(
    judged: Judged,
    metrics: Sequence[MetricScores],
    official: SystemScores | None,
    all_rows: Sequence[MetricScores] | None,
    human: np.ndarray,
    systems: np.ndarray,
) -> tuple[SystemLevel, np.ndarray | None, list[np.ndarray]]:
    """What the system level correlates: the record, the human system scores (None: no
    system level) and per metric its system scores, in the same system order."""
    names = judged.corpus.system_names
    if official is None:
        sys_metric = [np.asarray(m.system, dtype=float) for m in metrics]
        sys_human = None if judged.human is None else system_human(human, systems, len(names))
        return SystemLevel(systems=names), sys_human, sys_metric
    scored = list(all_rows if all_rows is not None else metrics)
    return sl.official_level(
        official,
        [(m.systems or names, m.system) for m in scored],
        higher_is_better=judged.higher_is_better,
        all_rows=all_rows is not None or judged.all_corpus is None,
    )


def _measure_keys(pairs_only: bool, test_measure: str | None) -> tuple[tuple[str, ...], str]:
    """The segment-level measures to report and the one PERM-BOTH tests (default
    ``kendall_flat``, or ``darr_flat`` with pairs only).

    Raises:
        InputError: a test measure that is not among the measures reported.
    """
    keys = ("darr_flat", "darr_item") if pairs_only else tuple(st.MEASURES)
    if test_measure is None:
        test_measure = keys[0] if pairs_only else "kendall_flat"
    if test_measure not in keys:
        raise InputError(f"unknown measure {test_measure!r}; choose from {', '.join(keys)}")
    return keys, test_measure


def _given_pairs(judged: Judged) -> tuple[np.ndarray, np.ndarray] | None:
    """The judged pairs as ``(better rows, worse rows)``; None: DARR pairs are built."""
    if judged.pairs is None:
        return None
    rows = row_index(judged.corpus)
    return (
        np.asarray([rows[(better, seg)] for seg, better, _ in judged.pairs], dtype=np.int64),
        np.asarray([rows[(worse, seg)] for seg, _, worse in judged.pairs], dtype=np.int64),
    )


def _segment_estimates(
    keys: Sequence[str], data: st.SegmentData, scores: np.ndarray, draws: np.ndarray, level: float
) -> tuple[tuple[str, Estimate], ...]:
    """Every segment-level measure ``keys`` of one metric's scores, with its interval."""
    return tuple((key, segment_estimate(key, data, scores, draws, level)) for key in keys)


def _comparisons(
    metrics: Sequence[MetricScores],
    test_measure: str,
    data: st.SegmentData | None,
    tests: Sequence[tuple[float, float]],
    human: np.ndarray,
    sys_human: np.ndarray | None,
    sys_metric: Sequence[np.ndarray],
    sided: str = "two",
) -> list[Comparison]:
    """Every pair of metrics, in the order given: PERM-BOTH on ``test_measure`` (``tests``:
    its ``(Δ, p)`` per pair; none without a segment level: NaN), Williams' test at segment
    level (with a human score per row) and at system level (``sys_human`` None: none)."""
    out = []
    pairs = iter(tests)
    for (i, a), (j, b) in itertools.combinations(enumerate(metrics), 2):
        delta, p = next(pairs, (math.nan, math.nan))
        w_seg = w_sys = None
        if data is not None and not np.all(np.isnan(human)):
            sa, sb = np.asarray(a.segment, dtype=float), np.asarray(b.segment, dtype=float)
            w_seg = _williams(human, sa, sb, sided)
        if sys_human is not None:
            w_sys = _williams(sys_human, sys_metric[i], sys_metric[j], sided)
        out.append(Comparison(a.name, b.name, test_measure, delta, p, w_seg, w_sys))
    return out


def _williams(
    human: np.ndarray, a: np.ndarray, b: np.ndarray, sided: str = "two"
) -> tuple[float, float]:
    """Williams' test of Pearson r(human, a) vs r(human, b) (:func:`~.agreement_stats.williams`);
    ``sided="one"``: half the two-sided p, in the direction observed (WMT's reading)."""
    t, p = st.williams(st.pearson(human, a), st.pearson(human, b), st.pearson(a, b), len(human))
    return (t, p / 2.0) if sided == "one" else (t, p)


def correlate(
    judged: Judged,
    *,
    presets: Sequence[str] = ("meteor-1.5",),
    params: Mapping[str, Params] | None = None,
    baselines: Sequence[str] = (),
    columns: Sequence[str] | None = None,
    lang: str | None = None,
    workers: int | None = 1,
    progress: Progress | None = None,
    preset_files: Sequence[str] = (),
    system_scores: SystemScores | None = None,
    allow_edited_presets: bool = False,
    **options: Unpack[MeasureOptions],
) -> Agreement:
    """Score ``judged`` with every metric asked for and measure each one's agreement.

    Args:
        presets, params, baselines, columns: the metrics: METEOR presets, METEOR settings
            by label, any of ``chrf``, ``chrf++``, ``bleu`` (sacreBLEU's classes), metric
            columns of ``judged`` (default: all).
        lang: the language for the presets (default: each preset's).
        workers: processes (``None``: every CPU).
        preset_files: preset files (``meteor tune --out``), labelled by their name.
        allow_edited_presets: load preset files whose settings do not match their digest,
            with a warning (:func:`meteor.presets.parse_preset_file`).
        options: :class:`MeasureOptions`: ``darr_threshold`` (WMT: 25 on raw DA);
            ``n_bootstrap``, ``level``, ``seed`` of the intervals; ``n_permutations`` of
            each pairwise test (``0``: none); ``test_measure``: a key of ``MEASURES``;
            ``sided``: ``two`` or ``one`` (mt-metrics-eval's reading, in the direction
            observed) for PERM-BOTH and Williams' test.
        system_scores: official human system scores (WMT's ``sys`` file) against each
            metric's system score over every output (:mod:`meteor.analysis.system_level`).

    Returns:
        :class:`Agreement`; every pair of metrics is compared, in the order given.
    """
    if not isinstance(judged, Judged):
        raise TypeError(
            "correlate takes a Judged corpus (meteor.analysis.agreement.load_judged), got "
            f"{type(judged).__name__}"
        )
    _check_options(options, judged)
    if judged.system_only and system_scores is None:
        raise InputError("no segment judgements: give official system scores (--system-scores)")
    chosen: dict[str, Any] = {
        "presets": presets, "params": params, "baselines": baselines, "lang": lang,
        "workers": workers, "progress": progress, "preset_files": preset_files,
        "allow_edited_presets": allow_edited_presets,
    }  # fmt: skip
    all_rows: list[MetricScores] | None = None
    if system_scores is not None and judged.all_corpus is not None:
        everything = Judged(judged.all_corpus, None, system_only=True)
        all_rows = score_metrics(everything, columns=(), by_definition=True, **chosen)
        full_rows = row_index(judged.all_corpus)
        picked = [full_rows[key] for key in row_index(judged.corpus)]
        cols = score_metrics(judged, columns=columns) if columns is None or columns else []
        metrics = [_restrict(m, picked) for m in all_rows] + cols
        all_rows += cols
    else:
        metrics = score_metrics(
            judged, columns=columns, by_definition=system_scores is not None, **chosen
        )
    if not metrics:
        raise InputError("no metric to correlate: give a preset, Params, a baseline or a column")
    return measure(
        judged, metrics, official=system_scores, all_rows=all_rows, workers=workers, **options
    )


def _restrict(m: MetricScores, rows: Sequence[int]) -> MetricScores:
    """``m``'s segment scores (and statistics) of the given rows only; its system scores
    (over every row) are kept."""
    stats = None if m.stats is None else tuple(m.stats[i] for i in rows)
    return replace(m, segment=tuple(m.segment[i] for i in rows), stats=stats)


def _check_options(options: MeasureOptions, judged: Judged) -> None:
    """Refuse options out of range before anything is scored.

    Raises:
        InputError: see :func:`check_resamples` and :func:`check_darr_threshold`;
            ``level`` not in (0, 1).
    """
    if options.get("sided", "two") not in ("one", "two"):
        raise InputError(f"sided must be 'one' or 'two', got {options.get('sided')!r}")
    _, _, items, _ = judged_rows(judged)
    check_resamples(
        options.get("n_bootstrap", 1),
        options.get("n_permutations", 0),
        len(np.unique(items)),
        len(items),
    )
    check_darr_threshold(options.get("darr_threshold", 0.0))
    level = options.get("level", 0.5)
    if not 0 < level < 1:
        raise InputError(f"level must be between 0 and 1, got {level}")
