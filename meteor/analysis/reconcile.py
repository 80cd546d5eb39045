"""Why do two METEORs disagree?  Reconcile any two settings, step by step (issue 33).

:func:`reconcile` scores one pair (or, with ``corpus=True``, a corpus) under setting A
and setting B (preset names, :class:`~meteor.params.Params` or :class:`~meteor.Meteor`;
each score exactly what :func:`meteor.score` / :func:`meteor.corpus_score` gives) and
splits the gap over the groups of settings in which A and B differ
(:data:`~meteor.analysis.reconcile_groups.GROUPS`, in pipeline order), two ways:

* the **path**: switch one group from A's value to B's at a time, in pipeline order,
  the score after each step; the last step lands on B.  Each step says what changed in
  the alignment (matches added or lost with their stage, chunks, P, R and the penalty
  before and after) and names the rule, every number computed;
* each group's **fair share** (Shapley values over the groups that differ): every
  subset for a pair, and for a corpus where ``2^groups × segments`` ≤
  :data:`EXACT_BUDGET`; beyond that, :data:`SAMPLED_ORDERS` random orders (seeded) with
  each share's standard error stated.  The shares add up to the gap.

Where the path and the shares disagree, the factors interact: the record names the
pairs of groups with the largest Shapley interaction.

A combination that cannot run (a :class:`~meteor.errors.ParamError`, e.g. the
stage-wise aligner with the paraphrase stage, or a missing resource) is skipped with
its reason: the path then takes the next group that runs (and says so), and a share
values that subset by the **nearest runnable subset** (fewest groups apart; a superset
first, then the smaller), flagged in ``invalid``.

Speed: the groups no aligner reads (stage weights, α β γ δ, scoring rules) re-score
the same statistics (:func:`meteor.scoring.compute`, the formula of every score); the
statistics of each alignment setting and each reference are computed once per
process (:data:`_STATS`), scorers are kept per Params (:data:`_METEORS`).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meteor.analysis.compare import match_diff
from meteor.analysis.reconcile_groups import (
    AGGREGATION,
    aggregation_of,
    build_params,
    changes,
    check_side,
    differing_groups,
    group,
    match_words,
    rule_words,
)
from meteor.errors import ParamError, ResourceError
from meteor.metric import Meteor
from meteor.params import Params
from meteor.presets import PRESETS
from meteor.scoring import compute
from meteor.types import Match, MeteorResult, Stats

__all__ = [
    "EXACT_BUDGET",
    "SAMPLED_ORDERS",
    "Invalid",
    "Reconciliation",
    "Step",
    "group_label",
    "reconcile",
    "reconcile_corpus",
]

#: Exact shares while ``2^groups × segments`` is at most this; sampled orders beyond.
EXACT_BUDGET = 200_000
#: Random orders of the sampled shares (seeded: the same shares every run).
SAMPLED_ORDERS = 64
#: How many segments each corpus step lists as the ones it moved most.
TOP_SEGMENTS = 3
_TOL = 1e-9
_FORMULA_FIELDS = ("alpha", "beta", "gamma", "delta", "weights", "perfect_rule")
_METEORS: dict[Params, Meteor | str] = {}
_STATS: dict[tuple[Any, ...], Stats] = {}
_MAX_METEORS = 1024
_MAX_STATS = 500_000


# ---------------------------------------------------------------------------
# records
# ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Step:
    """One step of the path: the groups switched from A's values to B's, and its effect.

    ``score`` is the score after the step (under the corpus aggregation in force);
    the alignment fields are ``None`` for a corpus, the corpus fields for a pair.
    """

    groups: tuple[str, ...]
    changes: tuple[tuple[str, Any, Any], ...]
    score_before: float
    score: float
    words: tuple[str, ...]
    note: str = ""
    matches_added: tuple[Match, ...] = ()
    matches_lost: tuple[Match, ...] = ()
    chunks: tuple[int, int] | None = None
    precision: tuple[float, float] | None = None
    recall: tuple[float, float] | None = None
    penalty: tuple[float, float] | None = None
    best_ref: tuple[int, int] | None = None
    score_sum: float | None = None
    score_mean: float | None = None
    moved: tuple[tuple[int, float, float], ...] = ()

    @property
    def group(self) -> str:
        """The group's key (``a+b`` when a step had to switch several together)."""
        return "+".join(self.groups)

    @property
    def delta(self) -> float:
        return self.score - self.score_before

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "group": self.group,
            "groups": list(self.groups),
            "changes": {f: [va, vb] for f, va, vb in self.changes},
            "score_before": self.score_before,
            "score": self.score,
            "delta": self.delta,
            "words": list(self.words),
        }
        if self.note:
            d["note"] = self.note
        if self.chunks is not None:
            d["matches_added"] = [_match_dict(m) for m in self.matches_added]
            d["matches_lost"] = [_match_dict(m) for m in self.matches_lost]
            d["chunks"] = list(self.chunks)
            d["precision"] = list(self.precision or ())
            d["recall"] = list(self.recall or ())
            d["penalty"] = list(self.penalty or ())
            d["best_ref"] = list(self.best_ref or ())
        if self.score_sum is not None:
            d["score_sum"] = self.score_sum
            d["score_mean"] = self.score_mean
            d["moved"] = [{"segment": k + 1, "before": x, "after": y} for k, x, y in self.moved]
        return d


@dataclass(frozen=True, slots=True)
class Invalid:
    """A combination of switched groups that cannot run, and how the shares value it."""

    groups: tuple[str, ...]
    reason: str
    valued_as: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": list(self.groups),
            "reason": self.reason,
            "valued_as": list(self.valued_as),
        }


@dataclass(frozen=True, slots=True)
class Reconciliation:
    """Why A and B disagree: both scores, the path from A to B and each group's share."""

    name_a: str
    name_b: str
    params_a: Params
    params_b: Params
    corpus: bool
    segments: int
    score_a: float
    score_b: float
    groups: tuple[str, ...]
    steps: tuple[Step, ...]
    shares: tuple[tuple[str, float], ...]
    share_method: str
    share_errors: tuple[tuple[str, float], ...] = ()
    invalid: tuple[Invalid, ...] = ()
    interactions: tuple[tuple[str, str, float], ...] = ()
    words: tuple[str, ...] = ()
    aggregation: tuple[str, str] = ("sum", "sum")
    result_a: MeteorResult | None = field(default=None, compare=False, repr=False)
    result_b: MeteorResult | None = field(default=None, compare=False, repr=False)

    @property
    def gap(self) -> float:
        return self.score_b - self.score_a

    def share(self, key: str) -> float:
        """The share of group ``key`` (0.0 for a group in which A and B agree)."""
        return dict(self.shares).get(key, 0.0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict (``score_a``, ``score_b``, ``steps``, ``shares`` ...)."""
        return {
            "from": self.name_a,
            "to": self.name_b,
            "corpus": self.corpus,
            "segments": self.segments,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "gap": self.gap,
            "aggregation": {"a": self.aggregation[0], "b": self.aggregation[1]},
            "groups": list(self.groups),
            "steps": [s.to_dict() for s in self.steps],
            "shares": dict(self.shares),
            "share_method": self.share_method,
            "share_errors": dict(self.share_errors),
            "invalid": [i.to_dict() for i in self.invalid],
            "interactions": [{"groups": [g, h], "value": v} for g, h, v in self.interactions],
            "words": list(self.words),
            "params_a": self.params_a.to_dict(),
            "params_b": self.params_b.to_dict(),
            "signature_a": self.params_a.signature(preset=_preset_of(self.name_a)),
            "signature_b": self.params_b.signature(preset=_preset_of(self.name_b)),
        }


def _preset_of(name: str) -> str | None:
    return name if name in PRESETS else None


def _match_dict(m: Match) -> dict[str, Any]:
    return {
        "stage": m.module.value,
        "hyp": list(m.hyp_words),
        "ref": list(m.ref_words),
        "hyp_span": [m.hyp.start, m.hyp.end],
        "ref_span": [m.ref.start, m.ref.end],
    }


# ---------------------------------------------------------------------------
# scorers and statistics, cached
# ---------------------------------------------------------------------------
def _meteor(params: Params) -> Meteor:
    """The scorer of ``params`` (kept per Params); ParamError/ResourceError when it cannot run."""
    got = _METEORS.get(params)
    if got is None:
        try:
            got = Meteor(params=params)
        except (ParamError, ResourceError) as exc:
            got = str(exc)
        if len(_METEORS) >= _MAX_METEORS:
            _METEORS.clear()
        _METEORS[params] = got
    if isinstance(got, str):
        raise ParamError(got)
    return got


@functools.lru_cache(maxsize=8192)
def _built(a: Params, b: Params, switched: frozenset[str]) -> Params | str:
    """:func:`build_params`, kept per process (Params validation is most of a pair's time);
    the reason as a string when the combination cannot run."""
    try:
        got = build_params(a, b, set(switched))
        _meteor(got)
    except (ParamError, ResourceError) as exc:
        return str(exc)
    return got


@functools.lru_cache(maxsize=8192)
def _alignment_key(params: Params) -> tuple[Any, ...]:
    d = params.to_dict()
    return tuple((k, repr(v)) for k, v in d.items() if k not in _FORMULA_FIELDS)


def _ref_stats(params: Params, hyp: str, ref: str) -> Stats:
    """The statistics of ``hyp`` against one reference (the same for every formula field)."""
    key = (_alignment_key(params), hyp, ref)
    got = _STATS.get(key)
    if got is None:
        got = _meteor(params).score(hyp, [ref], candidates=False).stats
        if len(_STATS) >= _MAX_STATS:
            _STATS.clear()
        _STATS[key] = got
    return got


def _side(x: Any) -> tuple[Params, str, Meteor | None]:
    if isinstance(x, str):
        m = Meteor(x)
        return m.params, x, m
    if isinstance(x, Meteor):
        return x.params, x.preset or "custom", x
    if isinstance(x, Params):
        name = next((n for n, p in PRESETS.items() if p.params == x), "custom")
        return x, name, None
    check_side(x)
    raise AssertionError  # pragma: no cover - check_side raises


# ---------------------------------------------------------------------------
# the valuation of subsets of switched groups
# ---------------------------------------------------------------------------
class _Game:
    """v(S): the score with the groups in S switched to B (S may hold ``aggregation``)."""

    def __init__(
        self,
        a: Params,
        b: Params,
        hyps: Sequence[str],
        refs: Sequence[Sequence[str]],
        players: tuple[str, ...],
        aggregation: tuple[str, str],
        corpus: bool,
    ) -> None:
        self.a, self.b, self.hyps, self.refs = a, b, hyps, refs
        self.players = players
        self.aggregation = aggregation
        self.corpus = corpus
        self._params: dict[frozenset[str], Params | str] = {}
        self._segments: dict[frozenset[str], tuple[tuple[float, ...], Stats] | str] = {}
        self._values: dict[frozenset[str], float] = {}
        self.invalid: dict[frozenset[str], tuple[str, frozenset[str]]] = {}

    def params(self, s: frozenset[str]) -> Params:
        """The Params of S (ParamError with the reason when they cannot run)."""
        core = s - {AGGREGATION.key}
        got = self._params.get(core)
        if got is None:
            if not core:
                got = self.a
            elif core == frozenset(self.players) - {AGGREGATION.key}:
                got = self.b
            else:
                got = _built(self.a, self.b, core)
            self._params[core] = got
        if isinstance(got, str):
            raise ParamError(got)
        return got

    def segments(self, s: frozenset[str]) -> tuple[tuple[float, ...], Stats]:
        """Each segment's score and the corpus' summed statistics under S's Params."""
        core = s - {AGGREGATION.key}
        got = self._segments.get(core)
        if got is None:
            try:
                p = self.params(core)
                scores = []
                total = Stats()
                for hyp, refs in zip(self.hyps, self.refs, strict=True):
                    best: Stats | None = None
                    best_score = -1.0
                    for ref in refs:
                        st = _ref_stats(p, hyp, ref)
                        sc = compute(st, p).score
                        if sc > best_score:  # strict: the first reference wins ties
                            best, best_score = st, sc
                    assert best is not None
                    scores.append(best_score)
                    total = total + best.corpus_contribution()
                got = (tuple(scores), total)
            except (ParamError, ResourceError, ValueError) as exc:
                got = str(exc)
            self._segments[core] = got
        if isinstance(got, str):
            raise ParamError(got)
        return got

    def agg(self, s: frozenset[str]) -> str:
        return self.aggregation[1] if AGGREGATION.key in s else self.aggregation[0]

    def direct(self, s: frozenset[str], how: str | None = None) -> float:
        """v(S) computed (ParamError when S cannot run)."""
        scores, total = self.segments(s)
        how = how or self.agg(s)
        if how == "mean":
            return math.fsum(scores) / len(scores) if scores else 0.0
        return compute(total, self.params(s)).score

    def runs(self, s: frozenset[str]) -> bool:
        try:
            self.segments(s)
        except ParamError:
            return False
        return True

    def value(self, s: frozenset[str]) -> float:
        """v(S); an S that cannot run is valued by the nearest S that can (recorded)."""
        got = self._values.get(s)
        if got is not None:
            return got
        try:
            got = self.direct(s)
        except ParamError as exc:
            near = self.nearest(s)
            self.invalid[s] = (str(exc), near)
            got = self.direct(near)
        self._values[s] = got
        return got

    def nearest(self, s: frozenset[str]) -> frozenset[str]:
        order = {g: k for k, g in enumerate(self.players)}
        cands = []
        for r in range(len(self.players) + 1):
            for t in itertools.combinations(self.players, r):
                ts = frozenset(t)
                cands.append(
                    (len(ts ^ s), 0 if ts >= s else 1, len(ts), sorted(order[g] for g in ts), ts)
                )
        cands.sort(key=lambda c: c[:4])
        for *_, ts in cands:
            if ts != s and self.runs(ts):
                return ts
        raise ParamError("no combination of the two settings runs")  # pragma: no cover


# ---------------------------------------------------------------------------
# shares
# ---------------------------------------------------------------------------
def _exact_shares(game: _Game) -> tuple[dict[str, float], list[tuple[str, str, float]]]:
    """Shapley values over every subset, and the pairwise Shapley interaction indices."""
    players = game.players
    n = len(players)
    fact = [math.factorial(k) for k in range(n + 1)]
    shares: dict[str, float] = {}
    for g in players:
        others = [h for h in players if h != g]
        terms = []
        for r in range(n):
            w = fact[r] * fact[n - r - 1] / fact[n]
            for t in itertools.combinations(others, r):
                ts = frozenset(t)
                terms.append(w * (game.value(ts | {g}) - game.value(ts)))
        shares[g] = math.fsum(terms)
    inter = []
    for g, h in itertools.combinations(players, 2):
        others = [x for x in players if x not in (g, h)]
        terms = []
        for r in range(n - 1):
            w = fact[r] * fact[n - r - 2] / fact[n - 1]
            for t in itertools.combinations(others, r):
                ts = frozenset(t)
                terms.append(
                    w
                    * (
                        game.value(ts | {g, h})
                        - game.value(ts | {g})
                        - game.value(ts | {h})
                        + game.value(ts)
                    )
                )
        v = math.fsum(terms)
        if abs(v) > _TOL:
            inter.append((g, h, v))
    inter.sort(key=lambda x: -abs(x[2]))
    return shares, inter


def _sampled_shares(
    game: _Game, orders: int, seed: int
) -> tuple[dict[str, float], dict[str, float]]:
    """Shapley values from ``orders`` random orders, and each one's standard error."""
    rng = random.Random(seed)
    players = list(game.players)
    contrib: dict[str, list[float]] = {g: [] for g in players}
    for _ in range(orders):
        rng.shuffle(players)
        s: frozenset[str] = frozenset()
        prev = game.value(s)
        for g in players:
            s = s | {g}
            cur = game.value(s)
            contrib[g].append(cur - prev)
            prev = cur
    shares = {g: math.fsum(v) / len(v) for g, v in contrib.items()}
    errors = {}
    for g, v in contrib.items():
        mean = shares[g]
        var = math.fsum((x - mean) ** 2 for x in v) / (len(v) - 1) if len(v) > 1 else 0.0
        errors[g] = math.sqrt(var / len(v))
    return shares, errors


# ---------------------------------------------------------------------------
# the path
# ---------------------------------------------------------------------------
def _path(game: _Game) -> list[tuple[tuple[str, ...], str]]:
    """The steps in pipeline order, each the first group(s) that run from where the path is.

    Returns ``(groups, note)`` per step; the note says why the order moved.
    """
    done: frozenset[str] = frozenset()
    remaining = list(game.players)
    steps: list[tuple[tuple[str, ...], str]] = []
    announced: set[str] = set()
    while remaining:
        chosen: tuple[str, ...] | None = None
        for r in range(1, len(remaining) + 1):
            for t in itertools.combinations(remaining, r):
                if game.runs(done | set(t)):
                    chosen = t
                    break
            if chosen is not None:
                break
        assert chosen is not None  # every group switched is B, which runs
        skipped = [
            g
            for g in remaining[: remaining.index(chosen[-1])]
            if g not in chosen and g not in announced
        ]
        announced.update(skipped)
        note = ""
        if skipped:
            reasons = []
            for g in skipped:
                try:
                    game.segments(done | {g})
                except ParamError as exc:
                    reasons.append(f"{g} cannot come yet ({exc})")
            note = "order changed: " + "; ".join(reasons)
        elif len(chosen) > 1:
            note = "switched together: no one of them runs alone from here"
        steps.append((chosen, note))
        done = done | set(chosen)
        remaining = [g for g in remaining if g not in chosen]
    return steps


def _pair_step(
    game: _Game,
    before_s: frozenset[str],
    after_s: frozenset[str],
    groups: tuple[str, ...],
    note: str,
    names: tuple[str, str],
    hyp: str,
    refs: Sequence[str],
    cache: dict[frozenset[str], MeteorResult],
) -> Step:
    def result(s: frozenset[str]) -> MeteorResult:
        got = cache.get(s)
        if got is None:
            got = cache[s] = _meteor(game.params(s)).score(hyp, list(refs))
        return got

    r0, r1 = result(before_s), result(after_s)
    p0, p1 = game.params(before_s), game.params(after_s)
    bd0, bd1 = compute(r0.stats, p0), compute(r1.stats, p1)
    words: list[str] = []
    for g in groups:
        words += rule_words(g, p0, p1, names, bd1, r1.stats, bd0)
    diff = match_diff(r0, r1)
    words += match_words(diff.only_b, diff.only_a)
    if r0.stats.chunks != r1.stats.chunks:
        words.append(f"chunks {r0.stats.chunks} → {r1.stats.chunks}")
    if r0.best_ref_index != r1.best_ref_index:
        words.append(
            f"the best reference is now reference {r1.best_ref_index + 1} "
            f"(was {r0.best_ref_index + 1})"
        )
    return Step(
        groups=groups,
        changes=_changes(game, groups),
        score_before=r0.score,
        score=r1.score,
        words=tuple(words),
        note=note,
        matches_added=diff.only_b,
        matches_lost=diff.only_a,
        chunks=(r0.stats.chunks, r1.stats.chunks),
        precision=(r0.precision, r1.precision),
        recall=(r0.recall, r1.recall),
        penalty=(r0.penalty, r1.penalty),
        best_ref=(r0.best_ref_index, r1.best_ref_index),
    )


def _changes(game: _Game, groups: tuple[str, ...]) -> tuple[tuple[str, Any, Any], ...]:
    out: list[tuple[str, Any, Any]] = []
    for g in groups:
        if g == AGGREGATION.key:
            out.append(("aggregation", game.aggregation[0], game.aggregation[1]))
        else:
            out += [(f, va, vb) for f, (va, vb) in changes(game.a, game.b, g).items()]
    return tuple(out)


def _corpus_step(
    game: _Game,
    before_s: frozenset[str],
    after_s: frozenset[str],
    groups: tuple[str, ...],
    note: str,
    names: tuple[str, str],
    top: int,
) -> Step:
    p0, p1 = game.params(before_s), game.params(after_s)
    s0, t0 = game.segments(before_s)
    s1, t1 = game.segments(after_s)
    words: list[str] = []
    bd1 = compute(t1, p1)
    for g in groups:
        if g == AGGREGATION.key:
            agg = game.aggregation[1]
            words.append(
                f"{names[1]} aggregates "
                + (
                    "by the mean of segment scores (as HF evaluate)"
                    if agg == "mean"
                    else "by summed statistics (Meteor 1.5)"
                )
            )
            continue
        with_stats = g in ("parameters", "weights")
        words += rule_words(
            g, p0, p1, names, bd1 if with_stats else None, t1 if with_stats else None
        )
    moved = sorted(range(len(s0)), key=lambda k: (-abs(s1[k] - s0[k]), k))[:top]
    moved = [k for k in moved if s1[k] != s0[k]]
    return Step(
        groups=groups,
        changes=_changes(game, groups),
        score_before=game.value(before_s),
        score=game.value(after_s),
        words=tuple(words),
        note=note,
        score_sum=game.direct(after_s, "sum"),
        score_mean=game.direct(after_s, "mean"),
        moved=tuple((k, s0[k], s1[k]) for k in moved),
    )


# ---------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------
def reconcile(
    hyp: Any,
    refs: Any,
    a: str | Params | Meteor,
    b: str | Params | Meteor,
    *,
    corpus: bool = False,
    orders: int | None = None,
    seed: int = 0,
    top: int = TOP_SEGMENTS,
) -> Reconciliation:
    """Why settings ``a`` and ``b`` score ``hyp`` against ``refs`` differently.

    Args:
        hyp, refs: one hypothesis and one or more references; with ``corpus=True``, a
            list of hypotheses and per segment one reference or a list of them.
        a, b: a preset name, :class:`~meteor.params.Params` or :class:`~meteor.Meteor`.
        corpus: reconcile corpus scores (:func:`reconcile_corpus`).
        orders: sample this many random orders for the shares instead of every subset.
        seed: the seed of the sampled orders.
        top: (corpus) how many segments each step lists as those it moved most.

    Raises:
        ParamError: an unknown preset or a setting that cannot run.
        TypeError, ValueError: as :meth:`Meteor.score` for bad texts.
    """
    if corpus:
        return reconcile_corpus(hyp, refs, a, b, orders=orders, seed=seed, top=top)
    pa, name_a, ma = _side(a)
    pb, name_b, mb = _side(b)
    names = _names(name_a, name_b)
    ra = (ma or _meteor(pa)).score(hyp, refs)
    rb = (mb or _meteor(pb)).score(hyp, refs)
    ref_list = list(ra.refs)
    players = differing_groups(pa, pb)
    game = _Game(pa, pb, [hyp], [ref_list], players, ("sum", "sum"), corpus=False)
    cache = {frozenset(): ra, frozenset(players): rb}
    steps = []
    done: frozenset[str] = frozenset()
    for groups, note in _path(game):
        after = done | set(groups)
        steps.append(_pair_step(game, done, after, groups, note, names, hyp, ref_list, cache))
        done = after
    return _finish(game, names, ra.score, rb.score, steps, orders, seed, 1, ra, rb)


def reconcile_corpus(
    hyps: Sequence[str],
    refs: Sequence[str] | Sequence[Sequence[str]],
    a: str | Params | Meteor,
    b: str | Params | Meteor,
    *,
    orders: int | None = None,
    seed: int = 0,
    top: int = TOP_SEGMENTS,
) -> Reconciliation:
    """:func:`reconcile` for a corpus: each side's corpus score under its own aggregation
    (summed statistics for Meteor 1.5 and the 2005 settings, the mean of segment scores for
    NLTK/HF, :func:`~meteor.analysis.reconcile_groups.aggregation_of`), the gap split over
    the groups plus ``aggregation``; each step gives both aggregations and the segments it
    moved most."""
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        raise TypeError("hyps must be a list of strings (one segment each)")
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise TypeError("refs must be a list with one entry per segment")
    if len(hyps) != len(refs):
        raise ValueError(f"hypotheses have {len(hyps)} segments but references have {len(refs)}")
    if not hyps:
        raise ValueError("the corpus has no segments")
    pa, name_a, ma = _side(a)
    pb, name_b, mb = _side(b)
    names = _names(name_a, name_b)
    ref_lists = [[r] if isinstance(r, str) else list(r) for r in refs]
    for k, (h, rs) in enumerate(zip(hyps, ref_lists, strict=True)):
        if not isinstance(h, str):
            raise TypeError(f"segment {k + 1}: the hypothesis must be a string")
        if not rs or not all(isinstance(r, str) for r in rs):
            raise ValueError(f"segment {k + 1}: at least one reference string is needed")
    aggregation = (aggregation_of(pa), aggregation_of(pb))
    players = differing_groups(pa, pb)
    if aggregation[0] != aggregation[1]:
        players = (*players, AGGREGATION.key)
    game = _Game(pa, pb, list(hyps), ref_lists, players, aggregation, corpus=True)
    for s in (frozenset(), frozenset(players)):
        try:
            game.segments(s)
        except ParamError as exc:
            raise ParamError(f"{names[0] if not s else names[1]}: {exc}") from None
    steps = []
    done: frozenset[str] = frozenset()
    for groups, note in _path(game):
        after = done | set(groups)
        steps.append(_corpus_step(game, done, after, groups, note, names, top))
        done = after
    score_a, score_b = game.value(frozenset()), game.value(frozenset(players))
    return _finish(game, names, score_a, score_b, steps, orders, seed, len(hyps), None, None)


def _names(name_a: str, name_b: str) -> tuple[str, str]:
    return (f"A ({name_a})", f"B ({name_b})") if name_a == name_b else (name_a, name_b)


def _finish(
    game: _Game,
    names: tuple[str, str],
    score_a: float,
    score_b: float,
    steps: list[Step],
    orders: int | None,
    seed: int,
    segments: int,
    ra: MeteorResult | None,
    rb: MeteorResult | None,
) -> Reconciliation:
    players = game.players
    # the ends are exactly the scores meteor.score gives, whatever the shortcut gave
    game._values[frozenset()] = score_a
    game._values[frozenset(players)] = score_b
    n = len(players)
    errors: dict[str, float] = {}
    inter: list[tuple[str, str, float]] = []
    if not players:
        shares: dict[str, float] = {}
        method = "none: the two settings agree"
    elif orders is None and (2**n) * segments <= EXACT_BUDGET:
        shares, inter = _exact_shares(game)
        method = f"exact: every one of the {2**n} subsets of the {n} groups"
    else:
        k = orders or SAMPLED_ORDERS
        shares, errors = _sampled_shares(game, k, seed)
        method = (
            f"sampled: {k} random orders (seed {seed}); each share ± its standard error "
            f"(largest {max(errors.values()):.2g})"
        )
    words: list[str] = []
    path_delta: dict[str, float] = {}
    for s in steps:
        for g in s.groups:
            path_delta[g] = path_delta.get(g, 0.0) + (s.delta if len(s.groups) == 1 else 0.0)
    off = [
        g
        for s in steps
        for g in s.groups
        if len(s.groups) == 1 and abs(s.delta - shares[g]) > max(_TOL, 2 * errors.get(g, 0.0))
    ]
    if off:
        words.append(
            "the path and the shares disagree for "
            + ", ".join(off)
            + ": the factors interact"
            + (
                " (strongest: " + "; ".join(f"{g} × {h} {v:+.4f}" for g, h, v in inter[:3]) + ")"
                if inter
                else ""
            )
        )
    elif players:
        words.append("the path and the shares agree: the groups add up independently")
    invalid = tuple(
        Invalid(_ordered(s, players), reason, _ordered(near, players))
        for s, (reason, near) in sorted(
            game.invalid.items(), key=lambda x: (len(x[0]), _ordered(x[0], players))
        )
    )
    if invalid:
        words.append(
            f"{len(invalid)} combination(s) cannot run; each is valued by the nearest one "
            "that can (see invalid)"
        )
    return Reconciliation(
        name_a=names[0],
        name_b=names[1],
        params_a=game.a,
        params_b=game.b,
        corpus=game.corpus,
        segments=segments,
        score_a=score_a,
        score_b=score_b,
        groups=players,
        steps=tuple(steps),
        shares=tuple((g, shares[g]) for g in players),
        share_method=method,
        share_errors=tuple((g, errors[g]) for g in players if g in errors),
        invalid=invalid,
        interactions=tuple(inter),
        words=tuple(words),
        aggregation=game.aggregation,
        result_a=ra,
        result_b=rb,
    )


def _ordered(s: frozenset[str], players: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(g for g in players if g in s)


def group_label(key: str) -> str:
    """The label of a group key (``a+b`` keys: each label joined)."""
    return " + ".join(group(k).label for k in key.split("+"))
