"""The alignment of the 2005 METEOR paper, solved exactly.

Banerjee & Lavie (2005), "METEOR: An Automatic Metric for MT Evaluation with
Improved Correlation with Human Judgments" (ACL workshop, pp. 65-72), section 2: the
alignment is built in stages (exact, Porter stem, WordNet synonym), each on the
unigrams no earlier stage mapped, keeping the largest alignment (each unigram mapped at
most once) and, among those, the one with the fewest *crossings* (``(i1, j1)`` and
``(i2, j2)`` cross when ``(i1 - i2) * (j1 - j2) < 0``); ``meteor-1.5.md`` section 13.

:func:`stagewise_choice` (:func:`align_stagewise` on records) makes that choice
**exactly**, stage by stage:

1. cardinality: a maximum matching of the stage's candidate graph;
2. crossings, counted among the stage's mappings **and** between them and the
   mappings fixed by earlier stages (those are never revisited);
3. remaining ties: the lexicographically smallest vector
   ``(h(0), h(1), ..., h(n_ref - 1))``, where ``h(j)`` is the hypothesis
   position the stage maps reference position ``j`` to and "unmapped" counts
   as larger than any position.  In words: reading the reference left to
   right, at the first difference prefer the leftmost hypothesis word, and a
   mapping over none.

How it is exact, what it costs and its safety valve: :mod:`meteor.aligners.stagewise_search`
(stage decomposition, blocks) and :mod:`meteor.aligners.stagewise_block` (the search in a block).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from meteor.aligners.base import Aligner
from meteor.aligners.stagewise_block import Budget
from meteor.aligners.stagewise_search import solve_stage
from meteor.errors import ParamError
from meteor.errors import StagewiseSearchError as StagewiseSearchError
from meteor.module_registry import Module
from meteor.params import Params
from meteor.stages.base import Candidate, MatchContext
from meteor.types import Match, Span, candidate_of

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
    cands = [[candidate_of(m) for m in stage] for stage in stages]
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
        stages: per stage, in order, its one-word candidates; those touching words
            mapped by earlier stages are ignored, a repeated ``(hyp, ref)`` pair keeps
            its first candidate.
        max_nodes: search states the whole call may explore (``None``: unlimited).

    Returns:
        Indices of the chosen candidates in the concatenation of ``stages``,
        sorted by reference start.

    Raises:
        ValueError: a candidate spans more than one word or lies out of range.
        StagewiseSearchError: the state budget was exceeded (never a suboptimal
            answer instead).
    """
    if n_hyp < 0 or n_ref < 0:
        raise ValueError(f"negative sentence length: n_hyp={n_hyp}, n_ref={n_ref}")
    used_h = 0
    used_r = 0
    fixed: list[tuple[int, int]] = []
    chosen: list[tuple[int, int, int]] = []  # (ref, hyp, index)
    budget = Budget(max_nodes)
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
        picked = solve_stage(list(by_pair), fixed, budget, where)
        for pair in picked:
            chosen.append((pair[1], pair[0], by_pair[pair]))
            used_h |= 1 << pair[0]
            used_r |= 1 << pair[1]
        fixed.extend(picked)
    chosen.sort()
    return [k for _, _, k in chosen]
