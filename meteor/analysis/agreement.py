"""Which METEOR agrees with people? Correlation with human judgements (issue 34, "Measure").

:func:`correlate` scores a judged corpus (:class:`Judged`: the systems' hypotheses, the
references and a human score per system × segment) with every metric asked for —
METEOR presets and :class:`~meteor.params.Params`, chrF, chrF++ and BLEU through
sacreBLEU's own classes, any numeric column of the user's file (e.g. COMET) — and
measures how each agrees with the human scores (:mod:`meteor.analysis.agreement_stats`
states every measure, interval and test).  The result, :class:`Agreement`, is frozen
and JSON-serialisable (:meth:`Agreement.to_dict`).

* Segment scores: METEOR's segment score; sacreBLEU's ``sentence_score`` (BLEU with
  ``effective_order=True``, as sacreBLEU recommends for sentences); a column as given.
* System scores: METEOR from the summed statistics of the system's segments
  (:meth:`meteor.Meteor.combine`); sacreBLEU's ``corpus_score``; a column's mean.
  Human: the mean of the system's human scores.
* Several references: sacreBLEU gets one stream per reference; a segment with fewer
  references repeats its first (which changes neither chrF nor BLEU's best-match counts).

For tuning (not built yet), :class:`MetricScores` keeps METEOR's per-row sufficient
statistics (:class:`~meteor.types.Stats`): parameters that leave the alignment alone
(α, β, γ, δ, the stage weights) re-score from them with :func:`rescore` without aligning
again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypedDict, Unpack

import numpy as np

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement_stats import Estimate, _num, segment_estimate, system_estimate
from meteor.analysis.judged import Join, Judged, load_judged, row_index
from meteor.errors import InputError
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import Stats

__all__ = [
    "BASELINES",
    "Agreement",
    "Comparison",
    "Estimate",
    "Join",
    "Judged",
    "MetricAgreement",
    "MetricScores",
    "correlate",
    "load_judged",
    "rescore",
    "score_metrics",
]

#: sacreBLEU baselines: name → (class name, keyword arguments).
BASELINES: dict[str, tuple[str, dict[str, Any]]] = {
    "chrf": ("CHRF", {}),
    "chrf++": ("CHRF", {"word_order": 2}),
    "bleu": ("BLEU", {}),
}
Progress = Callable[[float, str], None]


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class MetricScores:
    """One metric's scores on a judged corpus's rows (system-major, corpus order).

    Attributes:
        name: the label (a preset name, a Params label, ``chrf``, a column name).
        kind: ``preset``, ``params``, ``baseline`` or ``column``.
        signature: the metric's signature (METEOR's, sacreBLEU's; ``column:NAME``).
        segment: per row, the segment score.
        system: per system, the corpus score.
        stats: METEOR only: per row, the sufficient statistics (for :func:`rescore`).
        params: METEOR only: the settings.
    """

    name: str
    kind: str
    signature: str
    segment: tuple[float, ...]
    system: tuple[float, ...]
    stats: tuple[Stats, ...] | None = None
    params: Params | None = None


def rescore(scores: MetricScores, params: Params) -> tuple[float, ...]:
    """Segment scores under other formula parameters, from the kept statistics (no aligning).

    Only parameters that do not change the alignment may differ from ``scores.params``
    (α, β, γ, δ, stage weights); the caller is responsible for that.
    """
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
) -> MetricScores:
    from meteor.runners.parallel import score_corpus

    m = build()
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
        system.append(result.score)
        signature = result.signature
    return MetricScores(label, kind, signature, tuple(segs), tuple(system), tuple(stats), m.params)


def _baseline_scores(judged: Judged, name: str, progress: Progress | None) -> MetricScores:
    import sacrebleu.metrics as sm

    if name not in BASELINES:
        raise InputError(f"unknown baseline {name!r}; choose from {', '.join(BASELINES)}")
    cls_name, kwargs = BASELINES[name]
    cls = getattr(sm, cls_name)
    sentence = cls(**kwargs, **({"effective_order": True} if cls_name == "BLEU" else {}))
    corpus_metric = cls(**kwargs)
    corpus = judged.corpus
    segs: list[float] = []
    system: list[float] = []
    n_refs = corpus.n_refs
    for k, (sys_name, hyps) in enumerate(corpus.systems):
        refs = corpus.refs_of(sys_name)
        segs.extend(
            sentence.sentence_score(h, list(r)).score for h, r in zip(hyps, refs, strict=True)
        )
        streams = [[r[i] if i < len(r) else r[0] for r in refs] for i in range(n_refs)]
        system.append(corpus_metric.corpus_score(list(hyps), streams).score)
        if progress is not None:
            progress((k + 1) / len(corpus.systems), f"{name}: {sys_name}")
    signature = corpus_metric.get_signature().format()
    return MetricScores(name, "baseline", signature, tuple(segs), tuple(system))


def _column_scores(judged: Judged, name: str) -> MetricScores:
    values = judged.columns[name]
    segs: list[float] = []
    system: list[float] = []
    for sys_name, _ in judged.corpus.systems:
        v = [float(x) for x in values[sys_name]]
        segs.extend(v)
        system.append(math.fsum(v) / len(v) if v else math.nan)
    return MetricScores(name, "column", f"column:{name}", tuple(segs), tuple(system))


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
) -> list[MetricScores]:
    """Every metric's segment and system scores (``columns``: default every column given)."""
    from meteor.metric import Meteor

    out: list[MetricScores] = []
    for preset in dict.fromkeys(presets):
        out.append(
            _meteor_scores(
                judged, preset, "preset", partial(Meteor, preset, lang=lang), workers, progress
            )
        )
    for path in dict.fromkeys(preset_files):  # tuned presets: their signature names them
        build = partial(Meteor, preset_file=path)
        label = str(build().preset).split("@")[0]
        out.append(_meteor_scores(judged, label, "preset", build, workers, progress))
    for label, p in (params or {}).items():
        out.append(
            _meteor_scores(judged, label, "params", partial(Meteor, params=p), workers, progress)
        )
    for name in dict.fromkeys(baselines):
        out.append(_baseline_scores(judged, name, progress))
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


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class MetricAgreement:
    """One metric's agreement: ``segment`` by :data:`~meteor.analysis.agreement_stats.MEASURES`
    key, ``system`` by ``pearson``/``kendall``."""

    name: str
    kind: str
    signature: str
    segment: tuple[tuple[str, Estimate], ...]
    system: tuple[tuple[str, Estimate], ...]

    def seg(self, key: str) -> Estimate:
        return dict(self.segment)[key]

    def sys(self, key: str) -> Estimate:
        return dict(self.system)[key]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "signature": self.signature,
            "segment": {k: e.to_dict() for k, e in self.segment},
            "system": {k: e.to_dict() for k, e in self.system},
        }


@dataclass(frozen=True)
class Comparison:
    """``a`` vs ``b`` on one segment-level measure: Δ = a − b and its PERM-BOTH p-value;
    beside it Williams' test of their Pearson correlations, ``(t, two-sided p)``, at
    segment level (flattened, over the rows) and system level (None: no human scores)."""

    a: str
    b: str
    measure: str
    delta: float
    p_value: float
    williams_segment: tuple[float, float] | None = None
    williams_system: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        def w(x: tuple[float, float] | None) -> dict[str, float | None] | None:
            return None if x is None else {"t": _num(x[0]), "p_value": _num(x[1])}

        return {"a": self.a, "b": self.b, "measure": self.measure,
                "delta": _num(self.delta), "p_value": _num(self.p_value),
                "williams_pearson": {"segment_flat": w(self.williams_segment),
                                     "system": w(self.williams_system)}}  # fmt: skip


@dataclass(frozen=True)
class Agreement:
    """What :func:`correlate` measured, with the settings that reproduce it."""

    human_column: str
    higher_is_better: bool
    darr_column: str
    darr_threshold: float
    n_rows: int
    n_items: int
    n_systems: int
    n_darr_pairs: int
    n_bootstrap: int
    n_permutations: int
    seed: int
    level: float
    test_measure: str
    metrics: tuple[MetricAgreement, ...]
    comparisons: tuple[Comparison, ...]
    pairs_source: str | None = None
    joins: tuple[Join, ...] = ()

    def metric(self, name: str) -> MetricAgreement:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(f"no metric {name!r}; metrics: {', '.join(m.name for m in self.metrics)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "human_column": self.human_column,
            "higher_is_better": self.higher_is_better,
            "darr": {
                "column": None if self.pairs_source else self.darr_column,
                "threshold": None if self.pairs_source else self.darr_threshold,
                "pairs_file": self.pairs_source,
                "pairs": self.n_darr_pairs,
            },  # fmt: skip
            "joins": [j.to_dict() for j in self.joins],
            "rows": self.n_rows,
            "items": self.n_items,
            "systems": self.n_systems,
            "bootstrap": {
                "resamples": self.n_bootstrap,
                "seed": self.seed,
                "level": self.level,
                "segment_level": "items",
                "system_level": "systems",
            },  # fmt: skip
            "significance": {
                "method": "PERM-BOTH (Deutsch et al. 2021), z-scored metrics, two-sided",
                "pearson": "Williams (1959) t, n - 3 df, two-sided (Graham & Baldwin 2014)",
                "measure": self.test_measure,
                "permutations": self.n_permutations,
            },  # fmt: skip
            "metrics": [m.to_dict() for m in self.metrics],
            "comparisons": [c.to_dict() for c in self.comparisons],
        }


# --------------------------------------------------------------------------- correlate


def _rows(judged: Judged) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
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
        systems.extend([k] * len(corpus.hyps(name)))
    return (
        sign * np.asarray(human),
        sign * np.asarray(darr),
        np.asarray(items, dtype=np.int64),
        np.asarray(systems, dtype=np.int64),
    )


def _system_human(human: np.ndarray, systems: np.ndarray, n: int) -> np.ndarray:
    return np.bincount(systems, human, n) / np.bincount(systems, minlength=n)


class MeasureOptions(TypedDict, total=False):
    """:func:`measure`'s settings, which :func:`correlate` passes on (see :func:`measure`
    for their defaults)."""

    darr_threshold: float
    n_bootstrap: int
    n_permutations: int
    seed: int
    level: float
    test_measure: str | None


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
) -> Agreement:
    """The agreement of already scored metrics (:func:`score_metrics`) with the human scores.

    With pairwise judgements only (``judged.human`` None) the measures are the τ-like
    on the pairs (keys ``darr_flat``, ``darr_item``) and there is no system level.
    ``test_measure`` defaults to ``kendall_flat`` (``darr_flat`` with pairs only).
    """
    pairs_only = judged.human is None
    keys, test_measure = _measure_keys(pairs_only, test_measure)
    human, darr, items, systems = _rows(judged)
    n_sys = len(judged.corpus.systems)
    data = st.SegmentData.build(human, items, darr, darr_threshold, _given_pairs(judged))
    draws = st.item_draws(data.n_items, n_bootstrap, seed)
    sys_human = _system_human(human, systems, n_sys)
    out: list[MetricAgreement] = []
    for m in metrics:
        segment = _segment_estimates(keys, data, np.asarray(m.segment, dtype=float), draws, level)
        sys_scores = np.asarray(m.system, dtype=float)
        system = (
            () if pairs_only else _system_estimates(sys_human, sys_scores, n_bootstrap, seed, level)
        )
        out.append(MetricAgreement(m.name, m.kind, m.signature, segment, system))
    human_sides = None if pairs_only else (human, sys_human)
    comparisons = _comparisons(metrics, test_measure, data, n_permutations, seed, human_sides)
    return Agreement(
        judged.human_column,
        judged.higher_is_better,
        judged.darr_column or judged.human_column,
        darr_threshold,
        len(human),
        data.n_items,
        n_sys,
        len(data.darr[0]),
        n_bootstrap,
        n_permutations,
        seed,
        level,
        test_measure,
        tuple(out),
        tuple(comparisons),
        judged.pairs_source,
        judged.joins,
    )


def _measure_keys(pairs_only: bool, test_measure: str | None) -> tuple[tuple[str, ...], str]:
    """The segment-level measures to report and the one PERM-BOTH tests (its default
    filled in: ``kendall_flat``, or ``darr_flat`` with pairs only).

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


def _system_estimates(
    human: np.ndarray, scores: np.ndarray, n_bootstrap: int, seed: int, level: float
) -> tuple[tuple[str, Estimate], ...]:
    """Pearson and Kendall of one metric's system scores with the systems' mean human
    scores, each with its interval."""
    return tuple(
        (key, system_estimate(fn, human, scores, n_bootstrap, seed, level, len(human)))
        for key, fn in (("pearson", st.pearson), ("kendall", st.kendall_b))
    )


def _comparisons(
    metrics: Sequence[MetricScores],
    test_measure: str,
    data: st.SegmentData,
    n_permutations: int,
    seed: int,
    human: tuple[np.ndarray, np.ndarray] | None,
) -> list[Comparison]:
    """Every pair of metrics, in the order given: PERM-BOTH on ``test_measure`` and, with
    ``human`` (per row, per system; None: pairs only), Williams' test at both levels."""
    out = []
    for i, a in enumerate(metrics):
        for b in metrics[i + 1 :]:
            sa = np.asarray(a.segment, dtype=float)
            sb = np.asarray(b.segment, dtype=float)
            delta, p = st.perm_both(test_measure, data, sa, sb, n_permutations, seed)
            w_seg = w_sys = None
            if human is not None:
                w_seg = _williams(human[0], sa, sb)
                w_sys = _williams(human[1], np.asarray(a.system), np.asarray(b.system))
            out.append(Comparison(a.name, b.name, test_measure, delta, p, w_seg, w_sys))
    return out


def _williams(human: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Williams' test of Pearson r(human, a) vs r(human, b) (:func:`~.agreement_stats.williams`)."""
    return st.williams(st.pearson(human, a), st.pearson(human, b), st.pearson(a, b), len(human))


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
    **options: Unpack[MeasureOptions],
) -> Agreement:
    """Score ``judged`` with every metric asked for and measure each one's agreement.

    Args:
        judged: the corpus and its human scores (:func:`load_judged`, or built directly).
        presets: METEOR presets to compare.
        params: further METEOR settings, by label.
        baselines: any of ``chrf``, ``chrf++``, ``bleu`` (sacreBLEU's classes).
        columns: metric columns of ``judged`` to compare (default: all).
        lang: the language for the presets (default: each preset's).
        workers: processes for METEOR scoring (``None``: every CPU).
        progress: ``progress(fraction, message)`` while scoring.
        preset_files: preset files (``meteor tune --out``), labelled by their name.
        options: how :func:`measure` measures (:class:`MeasureOptions`, its defaults):
            ``darr_threshold``: DARR pairs need a larger difference than this (WMT: 25
            on raw DA); ``n_bootstrap``, ``level``, ``seed``: the intervals (resamples,
            coverage, seed); ``n_permutations``: permutations of each pairwise test
            (``0``: none run); ``test_measure``: the segment-level measure tested (a key
            of ``MEASURES``).

    Returns:
        :class:`Agreement`; every pair of metrics is compared, in the order given.
    """
    if not isinstance(judged, Judged):
        raise TypeError(
            "correlate takes a Judged corpus (meteor.analysis.agreement.load_judged), got "
            f"{type(judged).__name__}"
        )
    _check_options(options)
    metrics = score_metrics(
        judged,
        presets=presets,
        params=params,
        baselines=baselines,
        columns=columns,
        lang=lang,
        workers=workers,
        progress=progress,
        preset_files=preset_files,
    )
    if not metrics:
        raise InputError("no metric to correlate: give a preset, Params, a baseline or a column")
    return measure(judged, metrics, **options)


def _check_options(options: MeasureOptions) -> None:
    """Refuse resamples, permutations or a coverage out of range before anything is scored
    (:func:`measure`'s defaults are all in range).

    Raises:
        InputError: ``n_bootstrap < 1``, ``n_permutations < 0`` or ``level`` not in (0, 1).
    """
    if options.get("n_bootstrap", 1) < 1 or options.get("n_permutations", 0) < 0:
        raise InputError("n_bootstrap must be at least 1 and n_permutations at least 0")
    level = options.get("level", 0.5)
    if not 0 < level < 1:
        raise InputError(f"level must be between 0 and 1, got {level}")
