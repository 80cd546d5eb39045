"""The exact search in one block of the 2005 paper's stage-wise alignment: the state
budget, branch and bound, and the dynamic programme (:mod:`meteor.aligners.stagewise_search`
says why each is exact).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from meteor.errors import StagewiseSearchError

INF = float("inf")


def set_bits(mask: int) -> list[int]:
    """Positions of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Budget:
    """The state budget of one :func:`stagewise_choice` call, shared by all its stages and blocks.

    ``where`` describes the block being solved, for the error message.
    """

    __slots__ = ("limit", "spent", "where")

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.spent = 0
        self.where = ""

    def remaining(self) -> int | None:
        """States left (``None``: unlimited)."""
        return None if self.limit is None else max(self.limit - self.spent, 0)

    def charge(self, states: int) -> None:
        """Count ``states`` about to be explored, or raise :class:`StagewiseSearchError`
        if they would pass the limit."""
        if self.limit is not None and self.spent + states > self.limit:
            raise StagewiseSearchError(
                "this sentence pair is too ambiguous for the exact stage-wise (2005 paper) "
                f"search: it explored {self.spent:,} search states and the next step would "
                f"pass its limit of {self.limit:,}, without proving the optimal alignment "
                f"({self.where}). "
                "Score it with a beam-search preset instead (meteor-1.5-paper2005: the 2005 "
                "formula on Meteor 1.5's aligner; for Russian ru or meteor-1.5-ru), or split "
                "the text into shorter segments; align_stagewise(..., max_nodes=None) "
                "searches without a limit",
                self.spent,
                self.limit,
            )
        self.spent += states


@dataclass(slots=True)
class Result:
    pairs: list[tuple[int, int]]
    cost: float
    exact: bool


class _FoundError(Exception):
    """Internal (not an error): the incumbent meets the root lower bound; stop."""


class _BudgetError(Exception):
    """Internal: the quick branch and bound ran out of nodes."""


class Block:
    """One block, oriented: left side ``a`` (bit masks), swept side ``b`` (in order).

    In the reference sweep ``a`` is the hypothesis and ``b`` the reference; the
    hypothesis sweep is the same code on the transposed block (everything is symmetric).

    Crossings are charged as the sweep walks ``b`` left to right.  The *essential*
    ``a`` nodes are covered by every maximum matching, so each unused one will be
    mapped at a later ``b`` position.  Mapping ``(x, y)`` costs

    * its crossings with the fixed mappings of earlier stages;
    * the unused essential nodes left of ``x`` (each will be mapped later, right
      of ``y``: one crossing each), and
    * if ``x`` is not essential, the used nodes right of ``x`` (earlier mappings
      it crosses).

    Every crossing pair is charged exactly once: at its earlier member when the
    later one is essential, at its later member otherwise.  The future then
    depends only on the nodes still usable and on the used nodes right of the
    leftmost usable inessential one: that is the state key (:meth:`_key`).
    """

    def __init__(
        self,
        order: list[int],
        cm: dict[int, int],
        comp_members: list[list[int]],
        match_b: dict[int, int],
        ess: int,
        ess_b: set[int],
        twins: dict[int, int],
        fixed_cost: Callable[[int, int], int] | None,
        a_term: dict[int, int],
        b_term: dict[int, int],
        budget: Budget,
    ) -> None:
        self.k = len(match_b)
        self.budget = budget
        self.ess = ess
        self.ess_b = ess_b
        self.twins = twins
        self.a_term = a_term
        m = len(order)
        self.order = order
        self.cmask = [cm[b] for b in order]
        self.cands = [set_bits(x) for x in self.cmask]
        self.bmask = cm
        comp_of = {b: c for c, members in enumerate(comp_members) for b in members}
        self.comp = [comp_of[b] for b in order]
        self.ncomp = len(comp_members)
        self.comp_amask = [0] * self.ncomp
        for d in range(m):
            self.comp_amask[self.comp[d]] |= self.cmask[d]
        self.comp_k = [0] * self.ncomp
        for b in match_b:
            self.comp_k[comp_of[b]] += 1
        self.futref = [[0] * (m + 1) for _ in range(self.ncomp)]
        for d in range(m - 1, -1, -1):
            for c in range(self.ncomp):
                self.futref[c][d] = self.futref[c][d + 1] + (self.comp[d] == c)
        fm = [0] * (m + 1)
        for d in range(m - 1, -1, -1):
            fm[d] = fm[d + 1] | self.cmask[d]
        self.fmask = fm
        self.all_a = fm[0]
        self.b_term = [b_term[b] for b in order]
        self.unary: list[dict[int, int] | None] = [None] * m
        if fixed_cost is not None:
            for d, b in enumerate(order):
                row = {a: fixed_cost(a, b) for a in self.cands[d]}
                if any(row.values()):
                    self.unary[d] = row

    # ------------------------------------------------------------------ pieces

    def _cost(self, d: int, x: int, used: int, alive: int) -> int:
        """Crossings charged for mapping ``a`` node ``x`` at sweep position ``d``."""
        bit = 1 << x
        ess = self.ess
        cost = (alive & ess & (bit - 1)).bit_count()
        if not ess & bit:
            cost += (used >> (x + 1)).bit_count()
        row = self.unary[d]
        if row is not None:
            cost += row[x]
        return cost

    def _key(self, d: int, used: int, alive: int) -> tuple[int, int, int]:
        """What the future depends on, given the sweep position ``d``.

        The number of mappings made, the ``a`` nodes still usable, and the used
        nodes right of the leftmost usable inessential one (the only used nodes
        a future charge can count).  Two partial alignments with equal keys have
        the same completions at the same costs.
        """
        future = alive & self.fmask[d]
        free = future & ~self.ess
        tail = used >> (free & -free).bit_length() if free else 0
        return (used.bit_count(), future, tail)

    def lower_bound(self, d: int, placed: int, used: int, alive: int) -> float:
        """Admissible bound on the cost still to come, or inf if K is out of reach.

        Each future ``b`` node that gets mapped pays at least its cheapest usable
        option against the nodes used now; per connected component at least
        ``needed - (what the other components can still take)`` get mapped.
        """
        needed = self.k - placed
        if needed <= 0:
            return 0
        ncomp = self.ncomp
        per: list[list[int]] = [[] for _ in range(ncomp)]
        cmask, cands, comp, ess, unary = self.cmask, self.cands, self.comp, self.ess, self.unary
        for e in range(d, len(self.order)):
            usable = cmask[e] & alive
            if not usable:
                continue
            row = unary[e]
            if row is None:
                c = 0 if usable & ess else (used >> usable.bit_length()).bit_count()
            else:
                c = 1 << 30
                for a in cands[e]:
                    if usable >> a & 1:
                        v = row[a] if ess >> a & 1 else row[a] + (used >> (a + 1)).bit_count()
                        if v < c:
                            c = v
            per[comp[e]].append(c)
        fmask = self.fmask[d] & alive
        bounds = []
        total = 0
        for c in range(ncomp):
            b = len(per[c])
            if b:
                hb = (self.comp_amask[c] & fmask).bit_count()
                if hb < b:
                    b = hb
            bounds.append(b)
            total += b
        if total < needed:
            return INF
        lb = 0
        rest: list[int] = []
        forced_total = 0
        for c in range(ncomp):
            lst = per[c]
            if not lst:
                continue
            forced = needed - (total - bounds[c])
            if forced > 0:
                lst.sort()
                lb += sum(lst[:forced])
                forced_total += forced
                rest.extend(lst[forced:])
            else:
                rest.extend(lst)
        left = needed - forced_total
        if left > 0 and rest:
            rest.sort()
            lb += sum(rest[:left])
        return lb

    # ------------------------------------------------------------------ B&B

    def branch_and_bound(self, node_limit: int) -> Result:
        """Depth-first branch and bound in tie-break order (reference sweep only).

        Children: usable ``a`` nodes left to right, then "unmapped", so the first
        optimal leaf reached is the lexicographic minimum.  Prunes: the lower
        bound (``>=`` the incumbent, which was reached earlier, hence is
        lexicographically smaller), a state key already reached at no higher
        cost (from a lexicographically smaller prefix), and the uncrossing rule.
        Stops when the incumbent meets the root bound, or after ``node_limit``
        nodes or the shared budget's remaining states, whichever is less; its
        nodes are charged to the budget.

        Returns:
            ``exact`` when the search finished; otherwise the incumbent (if any)
            as an upper bound for :meth:`dynamic_programme`.
        """
        best = Result([], INF, False)
        if self.k == 0:
            return Result([], 0, True)
        root_lb = self.lower_bound(0, 0, 0, self.all_a)
        memo: dict[tuple[int, tuple[int, int, int]], int] = {}
        assigned: dict[int, int] = {}  # a -> b
        path: list[tuple[int, int]] = []
        order, cands, cmask = self.order, self.cands, self.cmask
        bmask, twins = self.bmask, self.twins
        m = len(order)
        k = self.k
        nodes = 0
        left = self.budget.remaining()
        if left is not None:
            node_limit = min(node_limit, left)

        def dfs(d: int, placed: int, used: int, alive: int, g: int) -> None:
            nonlocal nodes
            if placed == k:
                if g < best.cost:
                    best.cost = g
                    best.pairs = list(path)
                    if g <= root_lb:
                        raise _FoundError
                return
            if d == m:
                return
            key = (d, self._key(d, used, alive))
            seen = memo.get(key)
            if seen is not None and seen <= g:
                return
            memo[key] = g
            nodes += 1
            if nodes > node_limit:
                raise _BudgetError
            if g + self.lower_bound(d, placed, used, alive) >= best.cost:
                return
            b = order[d]
            for a in cands[d]:
                bit = 1 << a
                if not alive & bit:
                    continue
                # uncrossing rule against used nodes right of a that could take b
                clash = used & cmask[d] & ~((bit << 1) - 1)
                dominated = False
                while clash:
                    low = clash & -clash
                    if bmask[assigned[low.bit_length() - 1]] & bit:
                        dominated = True
                        break
                    clash ^= low
                if dominated:
                    continue
                cost = self._cost(d, a, used, alive)
                # twins of a left of it can no longer be used (uncrossing rule)
                new_alive = alive & ~(twins[a] & ((bit << 1) - 1))
                assigned[a] = b
                path.append((a, b))
                dfs(d + 1, placed + 1, used | bit, new_alive, g + cost)
                path.pop()
                del assigned[a]
            dfs(d + 1, placed, used, alive, g)

        try:
            dfs(0, 0, 0, self.all_a, 0)
        except _FoundError:
            pass
        except _BudgetError:
            self.budget.spent += node_limit  # the dynamic programme raises if that was all
            return best
        self.budget.spent += nodes
        best.exact = True
        return best

    # ------------------------------------------------------------------ DP

    def dynamic_programme(
        self, bound: float = INF, beam: int | None = None
    ) -> tuple[list[tuple[int, int]], float]:
        """Exact dynamic programme over the sweep, states merged by :meth:`_key`.

        Each layer keeps, per key, the state of least ``(crossings, tie-break)``; both
        are additive, so merging is exact.  States with more crossings than ``bound``
        are dropped.  With ``beam``, only that many cheapest states survive each layer:
        a quick heuristic whose cost serves as ``bound`` for the exact run.

        Using the ``r``-th usable twin of a class means giving up the ``r - 1``
        before it; that is done one twin at a time ("give up the leftmost usable
        twin, stay at this position"), so states that give up the same twins
        are merged before they branch again.

        Returns:
            The pairs and their crossing cost (``([], inf)`` if a beam lost
            every state).

        Raises:
            StagewiseSearchError: the call's shared budget ran out.
        """
        order, cmask, twins, ess, fmask = self.order, self.cmask, self.twins, self.ess, self.fmask
        comp, ess_b, a_term, b_term = self.comp, self.ess_b, self.a_term, self.b_term
        comp_amask, comp_k, futref, unary = self.comp_amask, self.comp_k, self.futref, self.unary
        m = len(order)
        budget = self.budget
        layer_classes = [list(dict.fromkeys(twins[a] for a in cs)) for cs in self.cands]
        # path nodes: (parent node, pair or None); a state: [g, tie-break, used, alive, node]
        links: list[tuple[int, tuple[int, int] | None]] = [(-1, None)]
        cur: list[list[int]] = [[0, 0, 0, self.all_a, 0]]

        def offer(
            table: dict[tuple[int, int, int], list[int]],
            g: int,
            t: int,
            used: int,
            alive: int,
            nfm: int,
            node: int,
            pair: tuple[int, int] | None,
        ) -> None:
            """Merge a state into the next layer under its key (see :meth:`_key`)."""
            future = alive & nfm
            free = future & ~ess
            key = (used.bit_count(), future, used >> (free & -free).bit_length() if free else 0)
            ent = table.get(key)
            if ent is None:
                links.append((node, pair))
                table[key] = [g, t, used, alive, len(links) - 1]
            elif g < ent[0] or (g == ent[0] and t < ent[1]):
                links.append((node, pair))
                ent[0], ent[1], ent[2], ent[3], ent[4] = g, t, used, alive, len(links) - 1

        for d in range(m):
            b = order[d]
            am = comp_amask[comp[d]]
            ess_am = ess & am
            k_c = comp_k[comp[d]]
            fut_now, fut_next = futref[comp[d]][d], futref[comp[d]][d + 1]
            fm, nfm = fmask[d], fmask[d + 1]
            fm_am, nfm_am = fm & am, nfm & am
            wb = b_term[d]
            row = unary[d]
            cm_d = cmask[d]
            nxt: dict[tuple[int, int, int], list[int]] = {}

            # level 0: the layer's states; level r: r twins of one class given up
            level: list[tuple[int, list[int]]] = []  # (class mask, state)
            classes = layer_classes[d]
            skippable = b not in ess_b
            for st in cur:
                g, t, used, alive, node = st
                for tw in classes:
                    if alive & tw:
                        level.append((tw, st))
                if skippable:
                    # feasibility of this component (the others are unchanged)
                    fut = alive & nfm_am
                    need = k_c - (used & am).bit_count()
                    if not ess_am & ~used & ~fut and need <= fut.bit_count() and need <= fut_next:
                        offer(nxt, g, t, used, alive, nfm, node, None)
            while level:
                budget.charge(len(level))
                given_up: dict[tuple[int, int, int, int], list[int]] = {}
                for tw, (g, t, used, alive, node) in level:
                    usable = alive & tw & cm_d
                    low = usable & -usable
                    new_alive = alive & ~low
                    new_used = used | low
                    need = k_c - (new_used & am).bit_count()
                    fut = new_alive & nfm_am
                    # use the leftmost usable twin
                    if (
                        not ess_am & ~new_used & ~fut
                        and need <= fut.bit_count()
                        and need <= fut_next
                    ):
                        a = low.bit_length() - 1
                        cost = (alive & ess & (low - 1)).bit_count()
                        if not ess & low:
                            cost += (used >> (a + 1)).bit_count()
                        if row is not None:
                            cost += row[a]
                        if g + cost <= bound:
                            offer(
                                nxt,
                                g + cost,
                                t + a_term[a] * wb,
                                new_used,
                                new_alive,
                                nfm,
                                node,
                                (a, b),
                            )
                    # or give it up for a later twin at this same position
                    if usable == low:
                        continue
                    if row is None:
                        # Using the next twin instead of ``low`` only differs if some
                        # used or usable word of another class lies between them:
                        # otherwise every charge, now and later, is the same and
                        # ``low`` keeps more options (and is lexicographically
                        # smaller).  So jump to the first twin past such a word.
                        other = (used | alive) & ~tw & ~((low << 1) - 1)
                        if not other:
                            continue
                        later = usable & ~(((other & -other) << 1) - 1)
                        if not later:
                            continue
                        new_alive = alive & ~(usable & ((later & -later) - 1))
                    need = k_c - (used & am).bit_count()
                    fut = new_alive & fm_am
                    if ess_am & ~used & ~fut or need > fut.bit_count() or need > fut_now:
                        continue
                    future = new_alive & fm
                    free = future & ~ess
                    gkey = (
                        tw,
                        used.bit_count(),
                        future,
                        used >> (free & -free).bit_length() if free else 0,
                    )
                    ent = given_up.get(gkey)
                    if ent is None or g < ent[0] or (g == ent[0] and t < ent[1]):
                        given_up[gkey] = [g, t, used, new_alive, node]
                level = [(gkey[0], st) for gkey, st in given_up.items()]
            cur = list(nxt.values())
            if beam is not None and len(cur) > beam:
                cur.sort(key=lambda st: (st[0], st[1]))
                del cur[beam:]
        if not cur:
            if beam is not None:
                return [], INF
            raise AssertionError("stagewise DP lost every state")  # pragma: no cover
        best = min(cur, key=lambda st: (st[0], st[1]))
        pairs: list[tuple[int, int]] = []
        node = best[4]
        while node > 0:
            node, pair = links[node]
            if pair is not None:
                pairs.append(pair)
        pairs.reverse()
        return pairs, best[0]
