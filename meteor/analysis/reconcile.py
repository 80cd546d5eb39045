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
process and scorers are kept per Params (:mod:`meteor.analysis.reconcile_game`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from meteor.analysis.compare import match_diff
from meteor.analysis.reconcile_game import _Game, _meteor, _side, exact_shares, sampled_shares
from meteor.analysis.reconcile_groups import (
    AGGREGATION,
    aggregation_of,
    changes,
    differing_groups,
    group,
    match_words,
    rule_words,
)
from meteor.analysis.reconcile_records import Invalid, Reconciliation, Step
from meteor.batch import check_corpus
from meteor.errors import ParamError
from meteor.metric import Meteor
from meteor.params import Params
from meteor.scoring import compute
from meteor.types import MeteorResult

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
        result=r1,
        params=p1,
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
    check_corpus(hyps, refs)  # the corpus runner's checks (meteor.batch)
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
    shares, errors, inter, method = _shares(game, orders, seed, segments)
    words = _path_words(steps, players, shares, errors, inter)
    invalid = _invalid(game)
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


def _shares(
    game: _Game, orders: int | None, seed: int, segments: int
) -> tuple[dict[str, float], dict[str, float], list[tuple[str, str, float]], str]:
    """Each group's share, its standard error (sampled), the interactions, and the method."""
    n = len(game.players)
    errors: dict[str, float] = {}
    inter: list[tuple[str, str, float]] = []
    if not game.players:
        shares: dict[str, float] = {}
        method = "none: the two settings agree"
    elif orders is None and (2**n) * segments <= EXACT_BUDGET:
        shares, inter = exact_shares(game)
        method = f"exact: every one of the {2**n} subsets of the {n} groups"
    else:
        k = orders or SAMPLED_ORDERS
        shares, errors = sampled_shares(game, k, seed)
        method = (
            f"sampled: {k} random orders (seed {seed}); each share ± its standard error "
            f"(largest {max(errors.values()):.2g})"
        )
    return shares, errors, inter, method


def _path_words(
    steps: list[Step],
    players: tuple[str, ...],
    shares: dict[str, float],
    errors: dict[str, float],
    inter: list[tuple[str, str, float]],
) -> list[str]:
    """Whether the path's one-group steps agree with the shares, in words."""
    words: list[str] = []
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
    return words


def _invalid(game: _Game) -> tuple[Invalid, ...]:
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
