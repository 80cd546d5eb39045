"""The valuation behind :func:`meteor.analysis.reconcile.reconcile`: the score of each
combination of switched groups (v(S)), scorers and statistics kept per process, and the
Shapley shares (exact over every subset, or sampled orders with their standard errors)."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from meteor.analysis.reconcile_groups import AGGREGATION, build_params
from meteor.errors import ParamError, ResourceError
from meteor.metric import Meteor
from meteor.params import Params
from meteor.presets import PRESETS
from meteor.scoring import compute
from meteor.stats import Stats

__all__ = ["exact_shares", "sampled_shares"]

_TOL = 1e-9
_FORMULA_FIELDS = ("alpha", "beta", "gamma", "delta", "weights", "perfect_rule")
_STATS: dict[tuple[Any, ...], Stats] = {}
_MAX_STATS = 500_000


@functools.lru_cache(maxsize=1024)
def _scorer(params: Params) -> Meteor | str:
    """The scorer of ``params``, kept per process; the reason as a string when it cannot run."""
    try:
        return Meteor(params=params)
    except (ParamError, ResourceError) as exc:
        return str(exc)


def scorer_of(params: Params) -> Meteor:
    """The scorer of ``params`` (kept per Params); ParamError when it cannot run."""
    got = _scorer(params)
    if isinstance(got, str):
        raise ParamError(got)
    return got


@functools.lru_cache(maxsize=8192)
def _built(a: Params, b: Params, switched: frozenset[str]) -> Params | str:
    """:func:`build_params`, kept per process (Params validation is most of a pair's time);
    the reason as a string when the combination cannot run."""
    try:
        got = build_params(a, b, set(switched))
        scorer_of(got)
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
        got = scorer_of(params).score(hyp, [ref], candidates=False).stats
        if len(_STATS) >= _MAX_STATS:
            _STATS.clear()
        _STATS[key] = got
    return got


def settings_of(x: Any) -> tuple[Params, str, Meteor | None]:
    if isinstance(x, str):
        m = Meteor(x)
        return m.params, x, m
    if isinstance(x, Meteor):
        return x.params, x.preset or "custom", x
    if isinstance(x, Params):
        name = next((n for n, p in PRESETS.items() if p.params == x), "custom")
        return x, name, None
    raise ParamError(
        f"a setting must be a preset name, a Params or a Meteor, got {type(x).__name__}"
    )


class Game:
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
                    total = total + best.corpus_contribution(perfect_rule=p.perfect_rule)
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


def exact_shares(game: Game) -> tuple[dict[str, float], list[tuple[str, str, float]]]:
    """Shapley values over every subset, and the pairwise Shapley interaction indices."""
    players = game.players
    n = len(players)
    fact = [math.factorial(k) for k in range(n + 1)]

    def over_subsets(
        fixed: tuple[str, ...], delta: Callable[[frozenset[str], tuple[str, ...]], float]
    ) -> float:
        """Σ over the subsets T of the other players (``m`` of them) of
        ``|T|!·(m − |T|)!/(m + 1)! · delta(T, fixed)``: a Shapley value (one player fixed)
        or a pairwise interaction index (two)."""
        others = [h for h in players if h not in fixed]
        m = len(others)
        terms = []
        for r in range(m + 1):
            w = fact[r] * fact[m - r] / fact[m + 1]
            for t in itertools.combinations(others, r):
                terms.append(w * delta(frozenset(t), fixed))
        return math.fsum(terms)

    def gain(ts: frozenset[str], fixed: tuple[str, ...]) -> float:
        (g,) = fixed
        return game.value(ts | {g}) - game.value(ts)

    def interaction(ts: frozenset[str], fixed: tuple[str, ...]) -> float:
        g, h = fixed
        return (
            game.value(ts | {g, h}) - game.value(ts | {g}) - game.value(ts | {h}) + game.value(ts)
        )

    shares = {g: over_subsets((g,), gain) for g in players}
    inter = []
    for g, h in itertools.combinations(players, 2):
        v = over_subsets((g, h), interaction)
        if abs(v) > _TOL:
            inter.append((g, h, v))
    inter.sort(key=lambda x: -abs(x[2]))
    return shares, inter


def sampled_shares(game: Game, orders: int, seed: int) -> tuple[dict[str, float], dict[str, float]]:
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
