"""Which METEOR setting agrees best with people?  Tuning (docs/agreement.md, "Tune").

:func:`tune` searches α, β, γ, δ and the stage weights of a base setting for the best
agreement with a human score column, as Meteor 1.5's ``Trainer`` does.  None of those
parameters changes an alignment (:data:`STATS_ONLY`; Meteor 1.5's beam search ranks with
fixed weights, :func:`meteor.aligners.beam.search_weight`), so the corpus is aligned once
and every point is scored from the sufficient statistics
(:mod:`meteor.analysis.tune_scoring`).  :func:`search` is a grid, then coordinate descent
on shrinking steps; ``folds=k`` adds k-fold cross-validation over whole groups.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from meteor.analysis import agreement_stats as st
from meteor.analysis.agreement import Estimate, Judged, judged_rows
from meteor.analysis.agreement_limits import check_darr_threshold, check_resamples
from meteor.analysis.baselines import score_baselines
from meteor.analysis.resampling import resample_indices
from meteor.analysis.tune_scoring import (
    CHUNK,
    Point,
    RowData,
    Rows,
    StatArrays,
    align_statistics,
    check_tunable,
    group_folds,
    objective_values,
    segment_scores,
    system_scores,
)
from meteor.errors import InputError
from meteor.json_numbers import json_number, json_text
from meteor.metric import resolve_params
from meteor.params import Params
from meteor.presets import settings_digest
from meteor.runtime import Progress

__all__ = [
    "ALIGNMENT_FIELDS",
    "OBJECTIVES",
    "STATS_ONLY",
    "FoldResult",
    "Point",
    "StatArrays",
    "TuneResult",
    "align_statistics",
    "group_folds",
    "objective_values",
    "search",
    "segment_scores",
    "system_scores",
    "tune",
]

Array = np.ndarray

#: The fields a parameter point changes: they leave every alignment as it is.
STATS_ONLY: tuple[str, ...] = ("alpha", "beta", "gamma", "delta", "weights")
#: Every other field of :class:`~meteor.params.Params` changes the alignment or the
#: statistics (stages and their order, aligner, tokens, function words): re-align.
ALIGNMENT_FIELDS: tuple[str, ...] = (
    "lang", "modules", "aligner", "beam_size", "norm", "no_punct", "stemmer",
    "function_words", "perfect_rule", "java_keys", "fold_yo", "embedding_threshold",
    "tokenizer",
)  # fmt: skip
#: Objectives: every segment-level measure, and the system-level ones.
OBJECTIVES: tuple[str, ...] = (*st.MEASURES, "system_pearson", "system_kendall")
#: Short names the CLI accepts.
ALIASES: dict[str, str] = {
    "kendall": "kendall_flat",
    "pearson": "pearson_flat",
    "spearman": "spearman_flat",
    "darr": "darr_flat",
}
#: The grid searched first (the jar's Trainer also starts from a grid).
GRID: dict[str, tuple[float, ...]] = {
    "alpha": (0.5, 0.65, 0.8, 0.9, 0.95),
    "beta": (0.2, 0.5, 1.0, 2.0, 3.0),
    "gamma": (0.0, 0.2, 0.4, 0.6, 0.8),
    "delta": (0.5, 0.65, 0.75, 0.85, 0.95),
}
_RANGES = {"alpha": (0.0, 1.0), "beta": (0.0, 20.0), "gamma": (0.0, 1.0), "delta": (0.0, 1.0)}
_STEP = {"alpha": 0.1, "beta": 0.5, "gamma": 0.1, "delta": 0.1, "weight": 0.2}


def canonical_objective(name: str) -> str:
    """An objective's key (aliases resolved).

    Raises:
        InputError: an unknown objective, listing the known ones.
    """
    key = ALIASES.get(name, name)
    if key not in OBJECTIVES:
        raise InputError(
            f"unknown objective {name!r}; choose from {', '.join([*ALIASES, *OBJECTIVES])}"
        )
    return key


# --------------------------------------------------------------------------- search


@dataclass(frozen=True)
class _Space:
    """The searched parameters: base params, the weighted modules and the statistics."""

    base: Params
    stats: StatArrays
    width: int
    perfect_rule: bool
    tune_weights: bool

    def params(self, values: Mapping[str, float], weights: Mapping[Any, float]) -> Params:
        return self.base.replace(
            alpha=values["alpha"], beta=values["beta"], gamma=values["gamma"],
            delta=values["delta"], weights=tuple(weights.items()),
        )  # fmt: skip


#: Objectives searched with a screen, and their screen: every point is measured by the
#: screen (Pearson: one matrix product), and only the best :func:`screen_size` of them by
#: the exact, costlier objective; the others are left out (-inf).
SCREENED: dict[str, str] = {
    "kendall_flat": "pearson_flat",
    "spearman_flat": "pearson_flat",
    "kendall_item": "pearson_item",
    "spearman_item": "pearson_item",
}


def screen_size(n_points: int) -> int:
    """How many of ``n_points`` screened points get the exact objective: all of up to 16
    (every coordinate-descent step), then 1 in 16 (at least 16)."""
    return n_points if n_points <= 16 else max(16, -(-n_points // 16))


def evaluate_points(
    stats: StatArrays, rows: Rows, key: str, pt: Point, perfect_rule: bool = True,
    screen: bool = True,
) -> Array:  # fmt: skip
    """The objective ``key`` under each point (``(B,)``), :data:`CHUNK` points at a time;
    with ``screen``, screened as :data:`SCREENED` says."""
    screened = screen and key in SCREENED and len(pt) > screen_size(len(pt))
    first = SCREENED[key] if screened else key
    out = np.empty(len(pt))
    for start in range(0, len(pt), CHUNK):
        part = pt.take(slice(start, start + CHUNK))
        if key.startswith("system_"):
            sys_scores = system_scores(stats, part, rows.systems, rows.n_systems, perfect_rule)
            out[start : start + len(part)] = objective_values(
                key, rows, np.zeros((len(part), 0)), sys_scores
            )
        else:
            seg = segment_scores(stats, part, perfect_rule)
            out[start : start + len(part)] = objective_values(first, rows, seg)
    if not screened:
        return out
    keep = np.argsort(-np.where(np.isfinite(out), out, -np.inf), kind="stable")
    keep = np.sort(keep[: screen_size(len(pt))])
    exact = np.full(len(pt), -np.inf)
    best = pt.take(keep)
    for start in range(0, len(keep), CHUNK):
        part = best.take(slice(start, start + CHUNK))
        seg = segment_scores(stats, part, perfect_rule)
        exact[keep[start : start + len(part)]] = objective_values(key, rows, seg)
    return exact


def _evaluate(space: _Space, rows: Rows, key: str, points: Sequence[Params]) -> Array:
    return evaluate_points(
        space.stats, rows, key, Point.of(points, space.width), space.perfect_rule
    )


def _better(value: float, best: float) -> bool:
    return math.isfinite(value) and (not math.isfinite(best) or value > best + 1e-12)


def search(
    space: _Space,
    rows: Rows,
    key: str,
    *,
    idx: Array | None = None,
    rounds: int = 6,
    progress: Progress | None = None,
) -> tuple[Params, float, int]:
    """Grid over α β γ δ (weights as given), then coordinate descent over α β γ δ and each
    weight, halving the steps each round.  Returns ``(best params, value, points tried)``."""
    if idx is not None:  # the rows' statistics, taken once for the whole search
        space = replace(space, stats=space.stats.take(idx))
    base = space.base
    weights = dict(base.weights)
    grid = [
        space.params(dict(zip(GRID, combo, strict=True)), weights)
        for combo in itertools.product(*GRID.values())
    ]
    values = _evaluate(space, rows, key, [base, *grid])
    tried = len(values)
    k = int(np.argmax(np.where(np.isfinite(values), values, -np.inf)))
    best, best_value = ([base, *grid][k], float(values[k]))
    if progress is not None:
        progress(0.3, f"grid: {tried:,} points, best {best_value:.4f}")
    names = ["alpha", "beta", "gamma", "delta"]
    if space.tune_weights:
        names += [f"w:{m.value}" for m, _ in base.weights]
    for r in range(rounds):
        scale = 0.5**r
        improved = False
        for name in names:
            cur = {n: getattr(best, n) for n in ("alpha", "beta", "gamma", "delta")}
            w = dict(best.weights)
            if name.startswith("w:"):
                mod = next(m for m in w if m.value == name[2:])
                lo, hi, step, now = 0.0, 1.0, _STEP["weight"] * scale, w[mod]
            else:
                lo, hi = _RANGES[name]
                step, now = _STEP[name] * scale, cur[name]
            cands = sorted({min(hi, max(lo, round(now + s * step, 10))) for s in range(-4, 5)})
            cands = [c for c in cands if c != now]
            if name.startswith("w:"):
                pts = [space.params(cur, {**w, mod: c}) for c in cands]
            else:
                pts = [space.params({**cur, name: c}, w) for c in cands]
            if not pts:
                continue
            vals = _evaluate(space, rows, key, pts)
            tried += len(vals)
            j = int(np.argmax(np.where(np.isfinite(vals), vals, -np.inf)))
            if _better(float(vals[j]), best_value):
                best, best_value, improved = pts[j], float(vals[j]), True
        if progress is not None:
            progress(0.3 + 0.7 * (r + 1) / rounds, f"round {r + 1}: best {best_value:.4f}")
        if not improved and r >= 1:
            break
    return best, best_value, tried


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class FoldResult:
    """One fold: the setting tuned on the other folds, and the held-out agreement of it,
    the base setting and chrF on this fold's rows."""

    fold: int
    n_rows: int
    groups: tuple[str, ...]
    train_value: float
    params: Params
    tuned: Estimate
    base: Estimate
    chrf: Estimate | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "fold": self.fold,
            "rows": self.n_rows,
            "groups": list(self.groups),
            "train_value": json_number(self.train_value),
            "params": {k: v for k, v in self.params.to_dict().items() if k in STATS_ONLY},
            "held_out": {
                "tuned": self.tuned.to_dict(),
                "base": self.base.to_dict(),
                "chrf": self.chrf.to_dict() if self.chrf else None,
            },
        }


@dataclass(frozen=True)
class TuneResult:
    """What :func:`tune` found, how, and how well it generalises."""

    objective: str
    base_name: str
    base: Params
    params: Params
    value: float
    base_value: float
    n_points: int
    seconds: float
    align_seconds: float
    n_rows: int
    data: str
    data_sha256: str
    human_column: str
    higher_is_better: bool
    group_by: str | None
    folds: tuple[FoldResult, ...] = field(default=())
    data_files: tuple[tuple[str, str], ...] = ()

    def cv_mean(self, which: str) -> float:
        vals = [getattr(f, which).value for f in self.folds if getattr(f, which) is not None]
        vals = [v for v in vals if math.isfinite(v)]
        return float(np.mean(vals)) if vals else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "objective": self.objective,
            "base": self.base_name,
            "value": json_number(self.value),
            "base_value": json_number(self.base_value),
            "params": self.params.to_dict(),
            "signature": self.params.signature(),
            "points": self.n_points,
            "seconds": round(self.seconds, 3),
            "align_seconds": round(self.align_seconds, 3),
            "rows": self.n_rows,
            "data": self.data,
            "data_sha256": self.data_sha256,
            "human_column": self.human_column,
            "higher_is_better": self.higher_is_better,
            "cross_validation": None if not self.folds else {
                "group_by": self.group_by,
                "folds": [f.to_dict() for f in self.folds],
                "mean": {"tuned": json_number(self.cv_mean("tuned")), "base": json_number(self.cv_mean("base")),
                         "chrf": json_number(self.cv_mean("chrf"))},
            },
        }  # fmt: skip

    def preset_text(self, name: str | None = None) -> str:
        """The preset file as ``meteor tune --out`` writes it (and the app offers it)."""
        return json_text(self.preset_document(name), indent=2) + "\n"

    def preset_document(self, name: str | None = None) -> dict[str, Any]:
        """The preset file's content (JSON; :func:`meteor.presets.load_preset_file`)."""
        cv = self.to_dict()["cross_validation"]
        doc = {
            "format": "meteor-preset",
            "version": 1,
            "name": name or f"tuned-{self.base_name}",
            "description": (
                f"{self.base_name} with α β γ δ and weights tuned for {self.objective} "
                f"against {self.human_column} on {self.data} ({self.n_rows:,} rows; tuned on "
                "all of it)"
            ),
            "base_preset": self.base_name,
            "params": self.params.to_dict(),
            "tuned_on": {
                "data": self.data,
                "sha256": self.data_sha256,
                "rows": self.n_rows,
                "human_column": self.human_column,
                "higher_is_better": self.higher_is_better,
                "objective": self.objective,
                "value": json_number(self.value),
                "base_value": json_number(self.base_value),
                "cross_validation": None if cv is None else {"group_by": cv["group_by"],
                                                             "mean": cv["mean"]},
                "files": [{"name": n, "sha256": h} for n, h in self.data_files],
            },
        }  # fmt: skip
        doc["settings_sha256"] = settings_digest(doc["params"], doc["tuned_on"])
        return doc


# --------------------------------------------------------------------------- tune


def _estimate(key: str, rows: Rows, scores: Array, draws: int, seed: int) -> Estimate:
    """``key`` of ``scores`` on ``rows`` with its interval: of segment scores, resampling
    items; of system scores (``system_…``), resampling systems."""
    if key.startswith("system_"):
        fn = st.pearson if key == "system_pearson" else st.kendall_b
        return st.system_estimate(fn, rows.sys_human, scores, draws, seed, 0.95, rows.n_systems)
    data = rows.data
    value = float(objective_values(key, rows, scores[None, :])[0])
    return st.segment_estimate(key, data, scores, resample_indices(data.n_items, draws, seed), 0.95,
                            value)  # fmt: skip


def tune(
    judged: Judged,
    *,
    preset: str | None = None,
    params: Params | None = None,
    lang: str | None = None,
    objective: str = "kendall_flat",
    weights: bool = True,
    folds: int = 0,
    groups: Sequence[str] | str | None = None,
    group_name: str | None = None,
    darr_threshold: float = 25.0,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    rounds: int = 6,
    data_name: str = "data",
    data_sha256: str = "",
    workers: int | None = 1,
    progress: Progress | None = None,
    data_files: Sequence[tuple[str, str]] = (),
) -> TuneResult:
    """Tune α, β, γ, δ (and, with ``weights``, each stage's weight) of a base setting.

    Args:
        preset, params, lang: the base setting (as :class:`meteor.Meteor` takes them);
            every field of :data:`ALIGNMENT_FIELDS` stays fixed.
        objective: a key of :data:`OBJECTIVES` (or an alias of :data:`ALIASES`).
        folds: ``k ≥ 2``: also k-fold cross-validation grouped by ``groups``.
        groups: per row (system-major, corpus order) a group label such as the document
            id, or ``"system"``: the folds never split a group.
        group_name: what the labels are (e.g. the column's name), for the record.
        n_bootstrap, seed: the held-out intervals (resamples of items; of systems for
            a system-level objective).
        data_name, data_sha256, data_files: what the data was, for the preset file (the
            plain SHA-256 of the data file, each file's name and SHA-256).
        workers: processes for the one alignment.

    Raises:
        InputError: an unknown objective, bad folds or groups.
    """
    if not isinstance(judged, Judged):
        raise TypeError(
            "tune takes a Judged corpus (meteor.analysis.agreement.load_judged), got "
            f"{type(judged).__name__}"
        )
    key = canonical_objective(objective)
    base, base_name = resolve_params(preset, params, lang)
    name = base_name or "custom"
    darr_threshold = check_darr_threshold(darr_threshold)
    human, darr, items, systems = judged_rows(judged)
    check_resamples(n_bootstrap, 0, len(np.unique(items)))
    data = RowData(human, darr, items, systems, len(judged.corpus.systems), darr_threshold)
    all_rows = data.rows()
    check_tunable(key, all_rows, judged)  # before the alignment: nothing to tune on
    t0 = time.perf_counter()
    stats = align_statistics(
        judged, base, base_name, workers=workers, progress=_stage(progress, 0, 0.5)
    )
    align_seconds = time.perf_counter() - t0
    space = _Space(base, stats, stats.hc.shape[2], base.perfect_rule, weights)
    labels: Sequence[str] = _fold_labels(judged, groups, systems) if folds else ()
    fold_rows = group_folds(labels, folds) if folds else []
    n_stages = 1 + len(fold_rows)
    t1 = time.perf_counter()
    best, value, tried = search(space, all_rows, key, rounds=rounds,
                                progress=_stage(progress, 0.5, 0.5 + 0.5 / n_stages))  # fmt: skip
    seconds = time.perf_counter() - t1
    if not math.isfinite(value):
        raise InputError(
            f"nothing to tune on: the objective {key} is undefined for every setting tried "
            "(the metric scores do not vary where the human scores do)"
        )
    base_value = float(_evaluate(space, all_rows, key, [base])[0])
    results: list[FoldResult] = []
    if fold_rows:
        results, n = _cross_validate(judged, space, data, key, fold_rows, labels, rounds=rounds,
                                     n_bootstrap=n_bootstrap, seed=seed, progress=progress)  # fmt: skip
        tried += n
    return TuneResult(
        key, name, base, best, value, base_value, tried, seconds, align_seconds,
        len(human), data_name, data_sha256, judged.human_column, judged.higher_is_better,
        None if not folds else ("system" if groups == "system" else group_name or "label"), tuple(results),
        tuple(data_files),
    )  # fmt: skip


def _stage(progress: Progress | None, lo: float, hi: float) -> Progress | None:
    """``progress`` for one stage of the run: its fractions mapped onto ``[lo, hi]``."""
    if progress is None:
        return None
    return lambda f, msg: progress(lo + (hi - lo) * f, msg)


def _fold_labels(judged: Judged, groups: Sequence[str] | str | None, systems: Array) -> list[str]:
    """Per row, the group label the folds keep whole: the system's name for ``"system"``.

    Raises:
        InputError: no groups, a string other than ``"system"``, or not one label per row.
    """
    if groups is None:
        raise InputError("cross-validation needs groups: a document column or 'system'")
    if isinstance(groups, str):
        if groups != "system":
            raise InputError(f"groups must be per-row labels or 'system', got {groups!r}")
        labels = [judged.corpus.systems[s][0] for s in systems]
    else:
        labels = list(groups)
    if len(labels) != len(systems):
        raise InputError(f"{len(labels)} group labels for {len(systems)} rows")
    return labels


def _cross_validate(
    judged: Judged,
    space: _Space,
    data: RowData,
    key: str,
    fold_rows: Sequence[Array],
    labels: Sequence[str],
    *,
    rounds: int,
    n_bootstrap: int,
    seed: int,
    progress: Progress | None,
) -> tuple[list[FoldResult], int]:
    """Tune on all folds but one and measure on that one, for each fold in turn.  Returns
    the folds' results and the parameter points tried."""
    chrf_seg = None  # chrF's segment scores (segment-level objectives)
    if not key.startswith("system_"):
        chrf_seg = np.asarray(score_baselines(judged, ["chrf"])[0].segment, dtype=float)
    label_arr = np.asarray(labels, dtype=object)
    n_stages = 1 + len(fold_rows)
    results: list[FoldResult] = []
    tried = 0
    for f, held in enumerate(fold_rows):
        train = np.setdiff1d(np.arange(len(data.human)), held)
        lo = 0.5 + 0.5 * (f + 1) / n_stages
        fold_best, fold_value, n = search(
            space, data.rows(train), key, idx=train, rounds=rounds,
            progress=_stage(progress, lo, lo + 0.5 / n_stages),
        )  # fmt: skip
        tried += n
        tuned_e, base_e, chrf_e = _held_out(
            space, data.rows(held), key, held, fold_best, chrf_seg, n_bootstrap, seed
        )
        groups = tuple(sorted(set(map(str, label_arr[held]))))
        results.append(
            FoldResult(f + 1, len(held), groups, fold_value, fold_best, tuned_e, base_e, chrf_e)
        )
    return results, tried


def _held_out(
    space: _Space,
    ho: Rows,
    key: str,
    held: Array,
    tuned: Params,
    chrf_seg: Array | None,
    n_bootstrap: int,
    seed: int,
) -> tuple[Estimate, Estimate, Estimate | None]:
    """The held-out agreement on the rows ``held`` of the ``tuned`` setting, the base
    setting and (segment-level objectives) chrF, each with its bootstrap interval."""
    sub = space.stats.take(held)
    pts = Point.of([tuned, space.base], space.width)
    if key.startswith("system_"):
        scores = system_scores(sub, pts, ho.systems, ho.n_systems, space.perfect_rule)
    else:
        scores = segment_scores(sub, pts, space.perfect_rule)
    tuned_e, base_e = (_estimate(key, ho, s, n_bootstrap, seed) for s in scores)
    chrf = None if chrf_seg is None else _estimate(key, ho, chrf_seg[held], n_bootstrap, seed)
    return tuned_e, base_e, chrf
