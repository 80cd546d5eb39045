"""Why do two METEORs disagree?  Reconcile any two settings, step by step.

:func:`reconcile` scores a pair (or, with ``corpus=True``, a corpus) under settings A and B
(exactly as :func:`meteor.score` / :func:`meteor.corpus_score`) and splits the gap over the
groups of settings in which they differ (:data:`~meteor.analysis.reconcile_groups.GROUPS`)
two ways, as docs/reconcile.md states: the **path** (one group switched at a time) and each
group's **fair share** (Shapley values: every subset while ``2^groups × segments`` ≤
:data:`EXACT_BUDGET`, else :data:`SAMPLED_ORDERS` seeded random orders with standard errors).
A combination that cannot run is valued by the nearest runnable one, flagged in ``invalid``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, NamedTuple

from meteor.analysis.compare_settings import match_diff
from meteor.analysis.reconcile_groups import (
    AGGREGATION,
    aggregation_of,
    changes,
    differing_groups,
    group,
    match_words,
    rule_words,
)
from meteor.analysis.reconcile_reasons import Reason, reason
from meteor.analysis.reconcile_records import Invalid, Reconciliation, Step
from meteor.analysis.reconcile_shapley import (
    Game,
    exact_shares,
    sampled_shares,
    scorer_of,
    settings_of,
)
from meteor.batch import check_corpus
from meteor.errors import ParamError
from meteor.metric import Meteor
from meteor.params import Params
from meteor.scoring import Breakdown, compute
from meteor.stats import Stats
from meteor.types import MeteorResult

__all__ = [
    "EXACT_BUDGET",
    "MAX_ORDERS",
    "SAMPLED_ORDERS",
    "Invalid",
    "Reason",
    "Reconciliation",
    "Step",
    "check_sampling",
    "group_label",
    "reconcile",
    "reconcile_corpus",
]

#: Exact shares while ``2^groups × segments`` is at most this; sampled orders beyond.
EXACT_BUDGET = 200_000
#: Random orders of the sampled shares (seeded: the same shares every run).
SAMPLED_ORDERS = 64
#: Most random orders ``orders`` may ask for (100,000 orders of 8 groups: about 1.5 s and
#: 25 MB beyond the scoring, a share's standard error ~0.0006 on a pair).
MAX_ORDERS = 100_000
#: How many segments each corpus step lists as the ones it moved most.
TOP_SEGMENTS = 3
_TOL = 1e-9


class _Move(NamedTuple):
    """One step of the path: the groups switched before it, after it, and why its order moved."""

    before: frozenset[str]
    after: frozenset[str]
    groups: tuple[str, ...]
    note: Reason | None


def _path(game: Game) -> list[_Move]:
    """The steps in pipeline order, each the first group(s) that run from where the path is;
    a step's note says why the order moved (``None``: it did not)."""
    done: frozenset[str] = frozenset()
    remaining = list(game.players)
    steps: list[_Move] = []
    announced: set[str] = set()
    while remaining:
        chosen = next(  # the fewest groups, in order; every group switched is B, which runs
            t
            for r in range(1, len(remaining) + 1)
            for t in itertools.combinations(remaining, r)
            if game.runs(done | set(t))
        )
        skipped = [
            g
            for g in remaining[: remaining.index(chosen[-1])]
            if g not in chosen and g not in announced
        ]
        announced.update(skipped)
        note: Reason | None = None
        if skipped:
            reasons = []
            for g in skipped:
                try:
                    game.segments(done | {g})
                except ParamError as exc:
                    reasons.append(reason("cannot_come_yet", group=_group(g), error=str(exc)))
            note = reason("order_changed", groups=tuple(reasons))
        elif len(chosen) > 1:
            note = reason("switched_together")
        steps.append(_Move(done, done | set(chosen), chosen, note))
        done = done | set(chosen)
        remaining = [g for g in remaining if g not in chosen]
    return steps


def _group_words(
    game: Game,
    groups: tuple[str, ...],
    sets: tuple[frozenset[str], frozenset[str]],
    names: tuple[str, str],
    stats: Stats,
    bd_before: Breakdown | None,
) -> list[Reason]:
    """The rule each group of a step switches (``bd_before``: a pair's breakdown before the
    step, ``None`` for a corpus step, whose statistics only α β γ δ and weights quote)."""
    p0, p1 = game.params(sets[0]), game.params(sets[1])
    bd1 = compute(stats, p1)
    words: list[Reason] = []
    for g in groups:
        if g == AGGREGATION.key:
            agg = game.aggregation[1]
            words.append(reason("agg_mean" if agg == "mean" else "agg_sum", name=names[1]))
            continue
        quoted = bd_before is not None or g in ("parameters", "weights")
        words += rule_words(
            g, p0, p1, names, bd1 if quoted else None, stats if quoted else None, bd_before
        )
    return words


def _pair_step(
    game: Game,
    move: _Move,
    names: tuple[str, str],
    hyp: str,
    refs: Sequence[str],
    cache: dict[frozenset[str], MeteorResult],
) -> Step:
    def result(s: frozenset[str]) -> MeteorResult:
        got = cache.get(s)
        if got is None:
            got = cache[s] = scorer_of(game.params(s)).score(hyp, list(refs))
        return got

    before_s, after_s, groups = move.before, move.after, move.groups
    r0, r1 = result(before_s), result(after_s)
    bd0 = compute(r0.stats, game.params(before_s))
    words = _group_words(game, groups, (before_s, after_s), names, r1.stats, bd0)
    diff = match_diff(r0, r1)
    words += match_words(diff.only_b, diff.only_a)
    if r0.stats.chunks != r1.stats.chunks:
        words.append(reason("chunks", before=r0.stats.chunks, after=r1.stats.chunks))
    if r0.best_ref_index != r1.best_ref_index:
        words.append(reason("best_ref", now=r1.best_ref_index + 1, was=r0.best_ref_index + 1))
    return Step(
        groups=groups,
        changes=_changes(game, groups),
        score_before=r0.score,
        score=r1.score,
        reasons=tuple(words),
        note_reason=move.note,
        matches_added=diff.only_b,
        matches_lost=diff.only_a,
        chunks=(r0.stats.chunks, r1.stats.chunks),
        precision=(r0.precision, r1.precision),
        recall=(r0.recall, r1.recall),
        penalty=(r0.penalty, r1.penalty),
        best_ref=(r0.best_ref_index, r1.best_ref_index),
        result=r1,
        params=game.params(after_s),
    )


def _changes(game: Game, groups: tuple[str, ...]) -> tuple[tuple[str, Any, Any], ...]:
    out: list[tuple[str, Any, Any]] = []
    for g in groups:
        if g == AGGREGATION.key:
            out.append(("aggregation", game.aggregation[0], game.aggregation[1]))
        else:
            out += [(f, va, vb) for f, (va, vb) in changes(game.a, game.b, g).items()]
    return tuple(out)


def _corpus_step(game: Game, move: _Move, names: tuple[str, str], top: int) -> Step:
    before_s, after_s, groups = move.before, move.after, move.groups
    s0, _ = game.segments(before_s)
    s1, t1 = game.segments(after_s)
    words = _group_words(game, groups, (before_s, after_s), names, t1, None)
    moved = sorted(range(len(s0)), key=lambda k: (-abs(s1[k] - s0[k]), k))[:top]
    moved = [k for k in moved if s1[k] != s0[k]]
    return Step(
        groups=groups,
        changes=_changes(game, groups),
        score_before=game.value(before_s),
        score=game.value(after_s),
        reasons=tuple(words),
        note_reason=move.note,
        score_sum=game.direct(after_s, "sum"),
        score_mean=game.direct(after_s, "mean"),
        moved=tuple((k, s0[k], s1[k]) for k in moved),
    )


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
        orders: sample this many random orders for the shares instead of every subset
            (2 to :data:`MAX_ORDERS`).
        seed: the seed of the sampled orders (a whole number ≥ 0).
        top: (corpus) how many segments each step lists as those it moved most.

    Raises:
        ParamError: an unknown preset or a setting that cannot run.
        TypeError, ValueError: as :meth:`Meteor.score` for bad texts; ValueError for a
            bad ``orders`` or ``seed`` (before any scoring).
    """
    check_sampling(orders, seed)
    if corpus:
        return reconcile_corpus(hyp, refs, a, b, orders=orders, seed=seed, top=top)
    pa, name_a, ma = settings_of(a)
    pb, name_b, mb = settings_of(b)
    names = _names(name_a, name_b)
    ra = (ma or scorer_of(pa)).score(hyp, refs)
    rb = (mb or scorer_of(pb)).score(hyp, refs)
    ref_list = list(ra.refs)
    players = differing_groups(pa, pb)
    game = Game(pa, pb, [hyp], [ref_list], players, ("sum", "sum"), corpus=False)
    cache = {frozenset(): ra, frozenset(players): rb}
    steps = [_pair_step(game, m, names, hyp, ref_list, cache) for m in _path(game)]
    return _finish(game, names, ra.score, rb.score, steps, orders, seed, 1, ra)


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
    check_sampling(orders, seed)
    check_corpus(hyps, refs)  # the corpus runner's checks (meteor.batch)
    pa, name_a, _ = settings_of(a)
    pb, name_b, _ = settings_of(b)
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
    game = Game(pa, pb, list(hyps), ref_lists, players, aggregation, corpus=True)
    for s in (frozenset(), frozenset(players)):
        try:
            game.segments(s)
        except ParamError as exc:
            raise ParamError(f"{names[0] if not s else names[1]}: {exc}") from None
    steps = [_corpus_step(game, m, names, top) for m in _path(game)]
    score_a, score_b = game.value(frozenset()), game.value(frozenset(players))
    return _finish(game, names, score_a, score_b, steps, orders, seed, len(hyps), None)


def check_sampling(orders: int | None, seed: int) -> None:
    """Refuse an ``orders`` or ``seed`` the sampled shares cannot take (one line naming it)."""
    if orders is not None and (
        isinstance(orders, bool) or not isinstance(orders, int) or not 2 <= orders <= MAX_ORDERS
    ):
        raise ValueError(f"orders must be a whole number from 2 to {MAX_ORDERS:,}, got {orders!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number of at least 0, got {seed!r}")


def _group(key: str) -> Reason:
    return reason(f"group.{key}")


def _names(name_a: str, name_b: str) -> tuple[str, str]:
    return (f"A ({name_a})", f"B ({name_b})") if name_a == name_b else (name_a, name_b)


def _finish(
    game: Game,
    names: tuple[str, str],
    score_a: float,
    score_b: float,
    steps: list[Step],
    orders: int | None,
    seed: int,
    segments: int,
    ra: MeteorResult | None,
) -> Reconciliation:
    players = game.players
    # the ends are exactly the scores meteor.score gives, whatever the shortcut gave
    game._values[frozenset()] = score_a
    game._values[frozenset(players)] = score_b
    shares, errors, inter, method = _shares(game, orders, seed, segments)
    words = _path_words(steps, players, shares, errors, inter)
    invalid = _invalid(game)
    if invalid:
        words.append(reason("invalid_count", n=len(invalid)))
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
        share_reason=method,
        share_errors=tuple((g, errors[g]) for g in players if g in errors),
        invalid=invalid,
        interactions=tuple(inter),
        reasons=tuple(words),
        aggregation=game.aggregation,
        result_a=ra,
    )


def _shares(
    game: Game, orders: int | None, seed: int, segments: int
) -> tuple[dict[str, float], dict[str, float], list[tuple[str, str, float]], Reason]:
    """Each group's share, its standard error (sampled), the interactions, and the method."""
    n = len(game.players)
    errors: dict[str, float] = {}
    inter: list[tuple[str, str, float]] = []
    if not game.players:
        shares: dict[str, float] = {}
        method = reason("method_none")
    elif orders is None and (2**n) * segments <= EXACT_BUDGET:
        shares, inter = exact_shares(game)
        method = reason("method_exact", subsets=2**n, n=n)
    else:
        k = orders or SAMPLED_ORDERS
        shares, errors = sampled_shares(game, k, seed)
        method = reason("method_sampled", orders=k, seed=seed, error=max(errors.values()))
    return shares, errors, inter, method


def _path_words(
    steps: list[Step],
    players: tuple[str, ...],
    shares: dict[str, float],
    errors: dict[str, float],
    inter: list[tuple[str, str, float]],
) -> list[Reason]:
    """Whether the path's one-group steps agree with the shares."""
    words: list[Reason] = []
    off = [
        g
        for s in steps
        for g in s.groups
        if len(s.groups) == 1 and abs(s.delta - shares[g]) > max(_TOL, 2 * errors.get(g, 0.0))
    ]
    if off:
        groups = tuple(map(_group, off))
        pairs = tuple(
            reason("interaction", g=_group(g), h=_group(h), value=v) for g, h, v in inter[:3]
        )
        if pairs:
            words.append(reason("path_disagree_strongest", groups=groups, pairs=pairs))
        else:
            words.append(reason("path_disagree", groups=groups))
    elif players:
        words.append(reason("path_agree"))
    return words


def _invalid(game: Game) -> tuple[Invalid, ...]:
    """The combinations that cannot run, each with the nearest one that can."""
    players = game.players
    return tuple(
        Invalid(_ordered(s, players), reason, _ordered(near, players))
        for s, (reason, near) in sorted(
            game.invalid.items(), key=lambda x: (len(x[0]), _ordered(x[0], players))
        )
    )


def _ordered(s: frozenset[str], players: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(g for g in players if g in s)


def group_label(key: str) -> str:
    """The label of a group key (``a+b`` keys: each label joined)."""
    return " + ".join(group(k).label for k in key.split("+"))
