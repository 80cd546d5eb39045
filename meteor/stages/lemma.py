"""The lemma stage (beyond Meteor 1.5; Russian): words that share a normal form.

The sets of normal forms the language gives (:meth:`~meteor.languages.Language.lemmas`,
``pymorphy3`` for Russian) intersect and the words differ; ``detail`` names the first
shared lemma in sorted order.
"""

from __future__ import annotations

from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import Params
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress

__all__ = ["LEMMA", "LemmaStage"]


class LemmaStage(LanguageStage):
    """The sets of normal forms intersect, the word keys differ."""

    name = Module.LEMMA
    code = "le"
    resource = "lemmatiser"

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        language.lemmas("тест")

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        by_lemma = ctx.hs.lemma_index()
        hk, rk = ctx.hyp_keys, ctx.ref_keys
        out: list[Candidate] = []
        for j, ls in enumerate(ctx.rs.lemmas() if by_lemma else ()):
            hits: dict[int, str] = {}
            for lem in sorted(ls):
                for i in by_lemma.get(lem, ()):
                    hits.setdefault(i, lem)
            for i in sorted(hits):
                if hk[i] != rk[j]:
                    out.append((Module.LEMMA, i, i + 1, j, j + 1, f"same lemma “{hits[i]}”", None))
            ctx.check(len(out), Module.LEMMA)
        return out


LEMMA = LemmaStage()
