"""The synonym stage: Meteor 1.5 ``SynonymMatcher`` (``meteor-1.5.md`` section 6).

Two words match when the synonym sets the language gives them intersect (WordNet 3.0
for English, the Russian thesaurus for Russian) and the words differ; ``detail``
names the thesaurus and the smallest shared synset.
"""

from __future__ import annotations

from collections.abc import Hashable

from meteor.languages import Language
from meteor.params import Params
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress
from meteor.types import Module

__all__ = ["SYNONYM", "SynonymStage"]

#: Above this many (hypothesis word × reference word) pairs with synsets, the synonym
#: stage looks synsets up in an index instead of comparing every pair.
INDEX_PAIRS = 400


class SynonymStage(LanguageStage):
    """``SynonymMatcher``: the synonym sets intersect and the word keys differ."""

    name = Module.SYNONYM
    code = "sy"
    resource = "synonyms"

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        language.synsets("test")

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        """Long pairs look the reference's synsets up in an index of the hypothesis's
        (:meth:`Sentence.synset_index`) instead of comparing every pair of words; both
        give the same candidates."""
        hyp = ctx.hs.with_synsets()
        if not hyp:
            return []
        refs = ctx.rs.with_synsets()
        if len(hyp) * len(refs) > INDEX_PAIRS:
            return _indexed(ctx, refs)
        hk, rk = ctx.hyp_keys, ctx.ref_keys
        out: list[Candidate] = []
        src = ""
        syn = Module.SYNONYM
        for j, ss in refs:
            key = rk[j]
            for i, hs in hyp:
                if not ss.isdisjoint(hs) and hk[i] != key:
                    src = src or ctx.lang.synonym_source().split(" (")[0]
                    out.append((syn, i, i + 1, j, j + 1, f"{src} synset {min(ss & hs):08d}", None))
            ctx.check(len(out), syn)
        return out


def _indexed(ctx: MatchContext, refs: list[tuple[int, frozenset[int]]]) -> list[Candidate]:
    """:meth:`SynonymStage.candidates` through the hypothesis's synset index; a repeated
    reference word (same key, same synsets) reuses its hits."""
    index = ctx.hs.synset_index()
    hk, rk = ctx.hyp_keys, ctx.ref_keys
    hsyn = ctx.hs.synsets()
    src = ctx.lang.synonym_source().split(" (")[0]
    out: list[Candidate] = []
    syn = Module.SYNONYM
    memo: dict[tuple[Hashable, frozenset[int]], list[tuple[int, str]]] = {}
    for j, ss in refs:
        key = rk[j]
        hits = memo.get((key, ss))
        if hits is None:
            found: set[int] = set()
            for off in ss:
                found.update(index.get(off, ()))
            hits = [
                (i, f"{src} synset {min(ss & hsyn[i]):08d}") for i in sorted(found) if hk[i] != key
            ]
            memo[(key, ss)] = hits
        for i, detail in hits:
            out.append((syn, i, i + 1, j, j + 1, detail, None))
        ctx.check(len(out), syn)
    return out


SYNONYM = SynonymStage()
