"""The alignment of the 2005 METEOR paper, solved exactly.

Banerjee & Lavie (2005), "METEOR: An Automatic Metric for MT Evaluation with
Improved Correlation with Human Judgments" (ACL workshop, pp. 65-72), section 2
("The METEOR Metric"): the alignment is built in stages (exact, then Porter
stem, then WordNet synonym).  Each stage lists every candidate mapping between
unigrams that no earlier stage has mapped; of those it keeps the largest subset
that is an alignment (each unigram mapped at most once) and, among subsets of
that size, the one with the fewest *crossings*: mappings ``(i1, j1)`` and
``(i2, j2)`` (hypothesis, reference positions) cross when
``(i1 - i2) * (j1 - j2) < 0``.  ``meteor-1.5.md`` section 13 contrasts this
with Meteor 1.5's beam search and nltk's greedy choice
(:mod:`meteor.aligners.greedy`).

:func:`stagewise_choice` (on candidate tuples; :func:`align_stagewise` on records) makes
that choice **exactly**, stage by stage:

1. cardinality: a maximum matching of the stage's candidate graph;
2. crossings, counted among the stage's mappings **and** between them and the
   mappings fixed by earlier stages (those are never revisited);
3. remaining ties: the lexicographically smallest vector
   ``(h(0), h(1), ..., h(n_ref - 1))``, where ``h(j)`` is the hypothesis
   position the stage maps reference position ``j`` to and "unmapped" counts
   as larger than any position.  In words: reading the reference left to
   right, at the first difference prefer the leftmost hypothesis word, and a
   mapping over none.

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
* **Charging crossings early.**  Sweeping the reference, a crossing pair is
  charged at its earlier member when the later member's hypothesis word is
  *essential* (covered by every maximum matching, hence certainly used later),
  and at its later member otherwise.  The state that decides the future is
  then small: the words still usable and the used words right of the
  leftmost usable inessential one.
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
``n * (s1 + 1) * (s2 + 1)`` states, ``s`` = how many more times a word occurs on
one side than on the other); real sentence pairs take well under a
millisecond (WMT21 ru-en, 11,000 pairs: median 0.25 ms).  In general the
state space grows with the product of those surpluses over the word classes
that share a block, so a long pair built from several heavily repeated words
with large surpluses on both sides can be out of reach.

Safety valve: one call of :func:`stagewise_choice` may explore at most
``max_nodes`` search states (default :data:`DEFAULT_MAX_NODES`), counted over
**all** its stages and blocks together: branch-and-bound nodes plus the states
the dynamic programmes expand (the beam pass included).  When the next step
would pass it, the call raises :class:`StagewiseSearchError`, so a pair made of
many independent hard blocks costs no more than one hard block.  A layer of a
programme never holds more states than the call has expanded, so the same
budget bounds the memory: a state costs about 0.1 KB in a 60-word block and
1.5 KB in a 500-word one (masks and the tie-break are integers that grow with
the block), so the default budget means 3-10 s and at most about 0.75 GB on
the hardest pairs measured (2-core VM).  The crossings with earlier stages'
mappings are counted for the stage's candidates only (no ``n_hyp x n_ref``
table, which took 200 MB at 5,000 x 5,000 words).  The search never returns an
answer it has not proved optimal; ``max_nodes=None`` removes the limit.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from meteor.aligners.base import Aligner
from meteor.errors import ParamError
from meteor.errors import StagewiseSearchError as StagewiseSearchError
from meteor.params import Params
from meteor.stages.base import Candidate, MatchContext, from_match
from meteor.types import Match, Module, Span

__all__ = [
    "DEFAULT_MAX_NODES",
    "StagewiseAligner",
    "StagewiseSearchError",
    "align_stagewise",
    "count_crossings",
    "stagewise_choice",
]

#: Search states one :func:`stagewise_choice` call may explore (all stages and blocks
#: together) before :class:`StagewiseSearchError`.
DEFAULT_MAX_NODES = 500_000

_INF = float("inf")
_BEAM = 48  # states per layer of the heuristic pass that bounds the exact one
_DFS_MAX_DEPTH = 600  # longer blocks skip the (recursive) branch and bound
_DFS_NODES_PER_WORD = 4  # node budget of the short branch and bound: per word ...
_DFS_NODES_BASE = 200  # ... plus this
_FORCE_SWEEP: str | None = None  # tests only: "ref" or "hyp" overrides the orientation choice


class _Budget:
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
        """Count ``states`` about to be explored, or raise if they would pass the limit.

        So a call explores at most ``limit`` states; :class:`StagewiseSearchError`
        reports how many it did.
        """
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


def count_crossings(pairs: Sequence[tuple[int, int]]) -> int:
    """Number of crossing pairs among ``(hyp, ref)`` mappings (2005 paper, section 2)."""
    ordered = sorted(pairs, key=lambda p: (p[1], p[0]))
    hyps = [h for h, _ in ordered]
    return sum(1 for a in range(len(hyps)) for b in range(a + 1, len(hyps)) if hyps[a] > hyps[b])


class StagewiseAligner(Aligner):
    """The 2005 paper's alignment (:func:`stagewise_choice`), one-word candidates only."""

    #: Search states one pair may explore (:func:`stagewise_choice`'s ``max_nodes``).
    max_nodes: ClassVar[int | None] = DEFAULT_MAX_NODES

    def check_params(self, params: Params) -> None:
        """No paraphrase stage: the search solves one-word matches only.

        The 2005 paper has no paraphrases; n:m paraphrase spans would end in an
        internal error.
        """
        if Module.PARAPHRASE in params.modules:
            raise ParamError(
                f"aligner {params.aligner!r} (the 2005 paper's stage-by-stage optimum) matches "
                "single words only and cannot use the paraphrase module; use aligner='beam' "
                "(Meteor 1.5) or remove paraphrase from modules"
            )

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> list[int]:
        """:func:`stagewise_choice`; a search over its budget is a ``ValueError`` for the user."""
        try:
            return stagewise_choice(len(ctx.hyp), len(ctx.ref), stages, max_nodes=self.max_nodes)
        except StagewiseSearchError as exc:
            raise ValueError(str(exc)) from exc


def align_stagewise(
    n_hyp: int,
    n_ref: int,
    stages: Sequence[Sequence[Match]],
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> tuple[Match, ...]:
    """:func:`stagewise_choice` on :class:`~meteor.types.Match` records.

    Returns:
        The chosen matches (objects from ``stages``), sorted by reference start.
    """
    flat = [m for stage in stages for m in stage]
    cands = [[from_match(m) for m in stage] for stage in stages]
    return tuple(flat[k] for k in stagewise_choice(n_hyp, n_ref, cands, max_nodes=max_nodes))


def stagewise_choice(
    n_hyp: int,
    n_ref: int,
    stages: Sequence[Sequence[Candidate]],
    *,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> list[int]:
    """Align stage by stage as Banerjee & Lavie (2005), section 2, describe.

    Args:
        n_hyp: number of hypothesis tokens.
        n_ref: number of reference tokens.
        stages: per stage, in order (e.g. exact, Porter stem, WordNet synonym),
            all one-word candidates its matcher proposed.  Candidates may touch
            words mapped by earlier stages; they are ignored.  A repeated
            ``(hyp, ref)`` pair keeps its first candidate.
        max_nodes: search states the whole call may explore, over all stages
            and blocks, before it gives up (``None``: unlimited).

    Returns:
        Indices of the chosen candidates in the concatenation of ``stages``,
        sorted by reference start.

    Raises:
        ValueError: a candidate spans more than one word or lies out of range.
        StagewiseSearchError: the state budget was exceeded (never a
            suboptimal answer instead); the pair is too ambiguous for the
            exact search.
    """
    if n_hyp < 0 or n_ref < 0:
        raise ValueError(f"negative sentence length: n_hyp={n_hyp}, n_ref={n_ref}")
    used_h = 0
    used_r = 0
    fixed: list[tuple[int, int]] = []
    chosen: list[tuple[int, int, int]] = []  # (ref, hyp, index)
    budget = _Budget(max_nodes)
    offset = 0
    for number, stage in enumerate(stages, 1):
        by_pair: dict[tuple[int, int], int] = {}
        for k, c in enumerate(stage, offset):
            _, i, he, j, re_ = c[:5]
            if he - i != 1 or re_ - j != 1:
                raise ValueError(
                    "align_stagewise takes one-word candidates only, got "
                    f"hyp {Span(i, he)} ref {Span(j, re_)}"
                )
            if i >= n_hyp or j >= n_ref:
                raise ValueError(f"candidate ({i}, {j}) is outside {n_hyp}x{n_ref}")
            if used_h >> i & 1 or used_r >> j & 1 or (i, j) in by_pair:
                continue
            by_pair[(i, j)] = k
        offset += len(stage)
        if not by_pair:
            continue
        where = f"stage {number} of {len(stages)}"
        picked = _solve_stage(list(by_pair), fixed, budget, where)
        for pair in picked:
            chosen.append((pair[1], pair[0], by_pair[pair]))
            used_h |= 1 << pair[0]
            used_r |= 1 << pair[1]
        fixed.extend(picked)
    chosen.sort()
    return [k for _, _, k in chosen]


# --------------------------------------------------------------------------- stage


def _bits(mask: int) -> list[int]:
    """Positions of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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
    out = {}
    for i, j in pairs:
        out[(i, j)] = (
            bisect_left(before_ref, j)
            - answers[(i + 1, j)]
            + bisect_left(before_hyp, i)
            - answers[(i, j + 1)]
        )
    return out


def _solve_stage(
    pairs: Sequence[tuple[int, int]],
    fixed: Sequence[tuple[int, int]],
    budget: _Budget,
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

    for side in (0, 1):
        spans = []
        for c, (hm, rl) in enumerate(comps):
            if side == 0:
                spans.append(((hm & -hm).bit_length() - 1, hm.bit_length() - 1, c))
            else:
                spans.append((min(rl), max(rl), c))
        spans.sort()
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
    """A maximum bipartite matching (greedy start, then augmenting paths, bit masks).

    Args:
        order: the right-side nodes ``b``.
        cm: ``b`` -> mask of its left-side neighbours ``a``.

    Returns:
        ``(a -> b, b -> a)``.
    """
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
            for a in _bits(opts):
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
        for a in _bits(opts):
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
    return {a: c for c in classes for a in _bits(c)}


def _solve_block(
    comps: list[tuple[int, list[int]]],
    cm: dict[int, int],
    cross_fixed: dict[tuple[int, int], int] | None,
    budget: _Budget,
    where: str,
) -> list[tuple[int, int]]:
    """Solve one block: a short branch and bound, then the dynamic programme.

    Both draw on the call's shared ``budget`` (see the module docstring).

    The branch and bound (reference sweep, children in tie-break order) settles
    the common cases in about one node per reference word: when its first
    leaf's cost meets the lower bound, that leaf is the answer.  Otherwise the
    dynamic programme takes over, in the orientation (sweeping the reference or
    the hypothesis) whose other side has fewer twin classes that some maximum
    matching leaves partly unused: those are what its state must remember.
    """
    refs = sorted(j for _, rl in comps for j in rl)
    match_h, match_r = _max_matching(refs, cm)
    ess_h = _essential_left(refs, cm, match_h, match_r)
    ess_r = _essential_right(refs, cm, match_h, match_r)
    twins_h = _twin_masks(refs, cm)
    hyps = _bits(sum(hm for hm, _ in comps))
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

    ref_sweep = _Block(
        refs, cm, comp_refs, match_r, ess_h, ess_r, twins_h,
        (lambda i, j: cross_fixed[(i, j)]) if cross_fixed else None,
        h_term, r_term, budget,
    )  # fmt: skip
    if len(refs) <= _DFS_MAX_DEPTH:
        quick = ref_sweep.branch_and_bound(_DFS_NODES_PER_WORD * len(refs) + _DFS_NODES_BASE)
    else:  # keep clear of the recursion limit; the programme is iterative
        quick = _Result([], _INF, False)
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
        for i in _bits(cm[j]):
            hm[i] = hm.get(i, 0) | (1 << j)
    comp_hyps = [_bits(mask) for mask, _ in comps]
    hyp_sweep = _Block(
        hyps, hm, comp_hyps, match_h,
        sum(1 << j for j in ess_r), {i for i in hyps if ess_h >> i & 1}, _twin_masks(hyps, hm),
        (lambda j, i: cross_fixed[(i, j)]) if cross_fixed else None,
        r_term, h_term, budget,
    )  # fmt: skip
    _, bound = hyp_sweep.dynamic_programme(quick.cost, beam=_BEAM)
    pairs, _ = hyp_sweep.dynamic_programme(min(bound, quick.cost))
    return [(i, j) for j, i in pairs]


@dataclass(slots=True)
class _Result:
    pairs: list[tuple[int, int]]
    cost: float
    exact: bool


class _FoundError(Exception):
    """Internal (not an error): the incumbent meets the root lower bound; stop."""


class _BudgetError(Exception):
    """Internal: the quick branch and bound ran out of nodes."""


class _Block:
    """One block, oriented: left side ``a`` (bit masks), swept side ``b`` (in order).

    In the reference sweep ``a`` is the hypothesis and ``b`` the reference; the
    hypothesis sweep is the same code on the transposed block (crossings,
    fixed-mapping costs and the additive tie-break are symmetric).

    Crossings are charged as the sweep walks ``b`` left to right.  Let ``E`` be
    the *essential* ``a`` nodes (covered by every maximum matching, so each
    unused one will be mapped at a later ``b`` position).  Mapping ``(x, y)``
    costs

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
        budget: _Budget,
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
        self.cands = [_bits(x) for x in self.cmask]
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
            return _INF
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

    def branch_and_bound(self, node_limit: int) -> _Result:
        """Depth-first branch and bound in tie-break order (reference sweep only).

        Children: usable ``a`` nodes left to right, then "unmapped", so the first
        optimal leaf reached is the lexicographic minimum.  Prunes: the lower
        bound (``>=`` the incumbent, which was reached earlier, hence is
        lexicographically smaller), a state key already reached at no higher
        cost (from a lexicographically smaller prefix), and the uncrossing rule.
        Kept whole: the paper's search with its tie-breaks in one place, read against it.
        Stops when the incumbent meets the root bound, or after ``node_limit``
        nodes or the shared budget's remaining states, whichever is less; its
        nodes are charged to the budget.

        Returns:
            ``exact`` when the search finished; otherwise the incumbent (if any)
            as an upper bound for :meth:`dynamic_programme`.
        """
        best = _Result([], _INF, False)
        if self.k == 0:
            return _Result([], 0, True)
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
        self, bound: float = _INF, beam: int | None = None
    ) -> tuple[list[tuple[int, int]], float]:
        """Exact dynamic programme over the sweep, states merged by :meth:`_key`.

        Kept whole: the layers, merging and pruning share their state; split, the
        exactness argument below would span several functions.

        Each layer keeps, per key, the state of least ``(crossings, tie-break)``;
        both are additive, so merging is exact, and the tie-break is the same
        as the reference-sweep search's.  States with more crossings than
        ``bound`` (a known solution's) are dropped.  With ``beam``, only that
        many cheapest states survive each layer: a quick heuristic whose cost
        serves as ``bound`` for the exact run.

        Using the ``r``-th usable twin of a class means giving up the ``r - 1``
        before it; that is done one twin at a time ("give up the leftmost usable
        twin, stay at this position"), so states that give up the same twins
        are merged before they branch again.

        Returns:
            The pairs and their crossing cost (``([], inf)`` if a beam lost
            every state).

        Raises:
            StagewiseSearchError: the call's shared budget ran out (every
                expanded state, beam pass included, is charged to it).
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
                return [], _INF
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
