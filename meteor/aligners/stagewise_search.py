"""The 2005 paper's stage-wise search, stage by stage: blocks, matchings, essential words.

How (all steps exact; proofs in the docstrings below):

* **Blocks.**  Connected components of the candidate graph whose hypothesis
  intervals and reference intervals are both disjoint cross each other a fixed
  number of times (every maximum matching holds a maximum matching of each
  component), so only components with overlapping intervals are solved
  together.  Per-block lexicographic minima combine into the global one.
* **Uncrossing.**  When two chosen mappings ``(i1, j1)``, ``(i2, j2)`` cross and
  ``(i1, j2)``, ``(i2, j1)`` are candidates too, swapping them removes that
  crossing and adds none with any third mapping (fixed ones included), so no
  optimal alignment holds such a pair.  Hence words with the same candidate
  set (*twins*: the repeats of a word in the exact and stem stages) are used
  in order, never left of an already used twin.
* **Charging crossings early** (:class:`~meteor.aligners.stagewise_block.Block`): a
  crossing is charged at its earlier member when the later one is *essential* (used
  by every maximum matching), so the state deciding the future is small.
* **Branch and bound** (depth-first, children in tie-break order, lower bound
  from each future word's cheapest option and per-component cardinality,
  memoised on the state) settles most pairs in about one node per word: its
  first leaf is optimal when it meets the root bound.
* Otherwise a **dynamic programme** over the same states, with the tie-break
  as an additive secondary cost, so it may sweep either side: it sweeps the
  side whose opposite side has fewer twin classes with inessential members
  (what the state must remember).  A 48-state beam pass first supplies an
  upper bound that prunes the exact pass.

Cost: one repeated word, or two words in any order, is polynomial (about
``n * (s1 + 1) * (s2 + 1)`` states, ``s`` = how many more times a word occurs on one
side than on the other); real pairs take well under a millisecond (WMT21 ru-en: median
0.25 ms).  The state space grows with the product of those surpluses over the word
classes sharing a block, so long pairs of several heavily repeated words can be out of
reach.

Safety valve (``docs/limits.md``): one :func:`stagewise_choice` call may explore at most
``max_nodes`` states, branch-and-bound nodes and programme states (beam pass included)
over all its stages and blocks together, else :class:`StagewiseSearchError`.  A layer
never holds more states than the call has expanded, so the budget bounds the memory
too (the default: 3-10 s and at most about 0.75 GB on the hardest pairs measured).
The search never returns an answer it has not proved optimal.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from meteor.aligners.stagewise_block import (
    INF,
    Block,
    Budget,
    Result,
    set_bits,
)

_BEAM = 48  # states per layer of the heuristic pass that bounds the exact one
_DFS_MAX_DEPTH = 600  # longer blocks skip the (recursive) branch and bound
_DFS_NODES_PER_WORD = 4  # node budget of the short branch and bound: per word ...
_DFS_NODES_BASE = 200  # ... plus this
_FORCE_SWEEP: str | None = None  # tests only: "ref" or "hyp" overrides the orientation choice


def _fixed_crossings(
    pairs: Sequence[tuple[int, int]], fixed: Sequence[tuple[int, int]]
) -> dict[tuple[int, int], int]:
    """Crossings of each candidate ``(i, j)`` with the mappings of earlier stages.

    ``#{fixed (fi, fj): fi > i, fj < j} + #{fixed: fi < i, fj > j}``, counted
    for the stage's candidates only: with ``A(x, y) = #{fi < x, fj < y}`` it is
    ``(A(inf, j) - A(i + 1, j)) + (A(i, inf) - A(i, j + 1))``, and the ``A``
    queries are answered offline, sorted by ``x``, with a Fenwick tree over the
    reference positions: ``O((F + C) log n)`` time and ``O(n + C)`` memory.
    """
    n = max(max(j for _, j in fixed), max(j for _, j in pairs)) + 2
    tree = [0] * (n + 1)

    def below(y: int) -> int:  # fixed mappings added so far with fj < y
        total = 0
        while y > 0:
            total += tree[y]
            y &= y - 1
        return total

    queries = sorted({(x, y) for i, j in pairs for x, y in ((i + 1, j), (i, j + 1))})
    by_hyp = sorted(fixed)
    answers: dict[tuple[int, int], int] = {}
    k = 0
    for x, y in queries:
        while k < len(by_hyp) and by_hyp[k][0] < x:
            pos = by_hyp[k][1] + 1
            while pos <= n:
                tree[pos] += 1
                pos += pos & -pos
            k += 1
        answers[(x, y)] = below(y)
    before_ref = sorted(fj for _, fj in fixed)
    before_hyp = sorted(fi for fi, _ in fixed)
    return {
        (i, j): bisect_left(before_ref, j)
        - answers[(i + 1, j)]
        + bisect_left(before_hyp, i)
        - answers[(i, j + 1)]
        for i, j in pairs
    }


def solve_stage(
    pairs: Sequence[tuple[int, int]],
    fixed: Sequence[tuple[int, int]],
    budget: Budget,
    where: str,
) -> list[tuple[int, int]]:
    """Maximum matching of ``pairs`` with the fewest crossings (stage + fixed), tie-broken.

    Every block draws on the call's ``budget``; ``where`` names the stage for its message.
    """
    cm: dict[int, int] = {}  # ref -> mask of its candidate hyps
    for i, j in pairs:
        cm[j] = cm.get(j, 0) | (1 << i)
    # connected components: refs whose candidate sets share a hyp, transitively
    comps: list[tuple[int, list[int]]] = []
    for j in sorted(cm):
        mask, members = cm[j], [j]
        keep = []
        for hm, rl in comps:
            if hm & mask:
                mask |= hm
                members.extend(rl)
            else:
                keep.append((hm, rl))
        keep.append((mask, members))
        comps = keep
    # blocks: components whose hyp or ref intervals overlap are solved together
    parent = list(range(len(comps)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    hyp_spans = [
        ((hm & -hm).bit_length() - 1, hm.bit_length() - 1, c) for c, (hm, _) in enumerate(comps)
    ]
    ref_spans = [(min(rl), max(rl), c) for c, (_, rl) in enumerate(comps)]
    for spans in (sorted(hyp_spans), sorted(ref_spans)):
        reach, head = -1, -1
        for lo, hi, c in spans:
            if head >= 0 and lo <= reach:
                parent[find(c)] = find(head)
                reach = max(reach, hi)
            else:
                head, reach = c, hi
    blocks: dict[int, list[tuple[int, list[int]]]] = {}
    for c, comp in enumerate(comps):
        blocks.setdefault(find(c), []).append(comp)
    cross_fixed = _fixed_crossings(pairs, fixed) if fixed else None
    picked: list[tuple[int, int]] = []
    for block in blocks.values():
        picked.extend(_solve_block(block, cm, cross_fixed, budget, where))
    return picked


def _max_matching(
    order: Sequence[int], cm: dict[int, int]
) -> tuple[dict[int, int], dict[int, int]]:
    """A maximum bipartite matching ``(a -> b, b -> a)`` of the right-side nodes ``order``
    (``cm``: ``b`` -> mask of its neighbours ``a``): greedy start, then augmenting paths."""
    match_a: dict[int, int] = {}
    match_b: dict[int, int] = {}
    taken = 0
    for b in order:
        free = cm[b] & ~taken
        if free:
            low = free & -free
            a = low.bit_length() - 1
            taken |= low
            match_a[a] = b
            match_b[b] = a
    for root in order:
        if root in match_b:
            continue
        seen = 0
        came_from: dict[int, int] = {}  # a -> the b it was reached from
        queue = [root]
        end = -1
        while queue and end < 0:
            b = queue.pop()
            opts = cm[b] & ~seen
            seen |= opts
            for a in set_bits(opts):
                came_from[a] = b
                if a not in match_a:
                    end = a
                    break
                queue.append(match_a[a])
        if end < 0:
            continue
        a = end
        while True:
            b = came_from[a]
            prev = match_b.get(b)
            match_a[a] = b
            match_b[b] = a
            if prev is None:
                break
            a = prev
    return match_a, match_b


def _essential_left(
    order: Sequence[int], cm: dict[int, int], match_a: dict[int, int], match_b: dict[int, int]
) -> int:
    """Mask of the left nodes covered by *every* maximum matching.

    A node is inessential iff it is free or reachable from a free one by an
    alternating path (free ``a`` - ``b`` - the ``a`` matched to ``b`` - ...):
    flipping that path frees it.
    """
    all_a = 0
    for b in order:
        all_a |= cm[b]
    reached = all_a
    for a in match_a:
        reached &= ~(1 << a)
    pending = list(order)
    grew = True
    while grew:
        grew = False
        rest = []
        for b in pending:
            if cm[b] & reached:
                mate = match_b.get(b)
                if mate is not None and not reached >> mate & 1:
                    reached |= 1 << mate
                    grew = True
            else:
                rest.append(b)
        pending = rest
    return all_a & ~reached


def _essential_right(
    order: Sequence[int], cm: dict[int, int], match_a: dict[int, int], match_b: dict[int, int]
) -> set[int]:
    """Right nodes covered by every maximum matching (alternating paths from free ``b``)."""
    frontier = [b for b in order if b not in match_b]
    reached = set(frontier)
    seen = 0
    while frontier:
        b = frontier.pop()
        opts = cm[b] & ~seen
        seen |= opts
        for a in set_bits(opts):
            b2 = match_a.get(a)
            if b2 is not None and b2 not in reached:
                reached.add(b2)
                frontier.append(b2)
    return set(order) - reached


def _twin_masks(order: Sequence[int], cm: dict[int, int]) -> dict[int, int]:
    """Left node -> mask of the left nodes with exactly the same neighbours."""
    all_a = 0
    for b in order:
        all_a |= cm[b]
    classes = [all_a] if all_a else []
    for b in order:
        m = cm[b]
        split = []
        for c in classes:
            x = c & m
            if x:
                split.append(x)
            if x != c:
                split.append(c & ~m)
        classes = split
    return {a: c for c in classes for a in set_bits(c)}


def _solve_block(
    comps: list[tuple[int, list[int]]],
    cm: dict[int, int],
    cross_fixed: dict[tuple[int, int], int] | None,
    budget: Budget,
    where: str,
) -> list[tuple[int, int]]:
    """Solve one block: a short branch and bound, then the dynamic programme in the
    orientation the module docstring says, both drawing on the call's ``budget``."""
    refs = sorted(j for _, rl in comps for j in rl)
    match_h, match_r = _max_matching(refs, cm)
    ess_h = _essential_left(refs, cm, match_h, match_r)
    ess_r = _essential_right(refs, cm, match_h, match_r)
    twins_h = _twin_masks(refs, cm)
    hyps = set_bits(sum(hm for hm, _ in comps))
    # Tie-break as an additive secondary cost: the lexicographic order of
    # (h(r_0), h(r_1), ...) over the block's references, "unmapped" counting as
    # len(hyps), is the order of the sum over pairs of
    # (rank(i) - len(hyps)) * base ** (len(refs) - 1 - rank(j)).
    base = len(hyps) + 1
    h_term = {i: r - len(hyps) for r, i in enumerate(hyps)}
    r_term = {j: base ** (len(refs) - 1 - r) for r, j in enumerate(refs)}
    comp_refs = [rl for _, rl in comps]
    budget.where = (
        f"{where}, a block of {len(hyps):,} hypothesis and {len(refs):,} reference words "
        f"linked by {sum(cm[j].bit_count() for j in refs):,} candidate matches"
    )

    ref_sweep = Block(
        refs, cm, comp_refs, match_r, ess_h, ess_r, twins_h,
        (lambda i, j: cross_fixed[(i, j)]) if cross_fixed else None,
        h_term, r_term, budget,
    )  # fmt: skip
    if len(refs) <= _DFS_MAX_DEPTH:
        quick = ref_sweep.branch_and_bound(_DFS_NODES_PER_WORD * len(refs) + _DFS_NODES_BASE)
    else:  # keep clear of the recursion limit; the programme is iterative
        quick = Result([], INF, False)
    if quick.exact:
        return quick.pairs
    by_mask: dict[int, int] = {}
    for j in refs:
        if j not in ess_r:
            by_mask[cm[j]] = 1
    trouble_h = len({twins_h[i] for i in hyps if not ess_h >> i & 1})
    if _FORCE_SWEEP == "ref" or (_FORCE_SWEEP is None and len(by_mask) >= trouble_h):
        _, bound = ref_sweep.dynamic_programme(quick.cost, beam=_BEAM)
        return ref_sweep.dynamic_programme(min(bound, quick.cost))[0]
    # hypothesis sweep: the same code on the transposed block
    hm: dict[int, int] = {}
    for j in refs:
        for i in set_bits(cm[j]):
            hm[i] = hm.get(i, 0) | (1 << j)
    comp_hyps = [set_bits(mask) for mask, _ in comps]
    hyp_sweep = Block(
        hyps, hm, comp_hyps, match_h,
        sum(1 << j for j in ess_r), {i for i in hyps if ess_h >> i & 1}, _twin_masks(hyps, hm),
        (lambda j, i: cross_fixed[(i, j)]) if cross_fixed else None,
        r_term, h_term, budget,
    )  # fmt: skip
    _, bound = hyp_sweep.dynamic_programme(quick.cost, beam=_BEAM)
    pairs, _ = hyp_sweep.dynamic_programme(min(bound, quick.cost))
    return [(i, j) for j, i in pairs]
