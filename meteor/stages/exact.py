"""The exact stage: Meteor 1.5 ``ExactMatcher`` (``meteor-1.5.md`` section 6).

A hypothesis word and a reference word match when their keys are equal (the words
themselves, or their Java ``String.hashCode`` under ``Params.java_keys``).
"""

from __future__ import annotations

from meteor.module_registry import Module
from meteor.stages.base import Candidate, LanguageStage, MatchContext

__all__ = ["EXACT", "ExactStage"]


class ExactStage(LanguageStage):
    """``ExactMatcher``: ``key(hyp_i) == key(ref_j)``; nothing to load."""

    name = Module.EXACT
    code = "ex"

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        by_key = ctx.hs.key_index()
        if ctx.limit is not None:  # count first: repeated words make n² candidates
            ctx.check(sum(len(by_key.get(k, ())) for k in ctx.ref_keys), Module.EXACT)
        ex = Module.EXACT
        return [
            (ex, i, i + 1, j, j + 1, "", None)
            for j, k in enumerate(ctx.ref_keys)
            for i in by_key.get(k, ())
        ]


EXACT = ExactStage()
