"""The synonym stage: Meteor 1.5 ``SynonymMatcher`` (``meteor-1.5.md`` section 6).

Two words match when the synonym sets the language gives them intersect (WordNet 3.0
for English, the Russian thesaurus for Russian) and the words differ; ``detail``
names the thesaurus and the smallest shared synset.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import Params
from meteor.runtime import compiled
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress

__all__ = ["NATIVE_PAIRS", "SYNONYM", "SynonymStage", "synonym_pairs"]

#: Above this many (hypothesis word × reference word) pairs with synsets, the synonym
#: stage looks synsets up in an index instead of comparing every pair (in Python).
INDEX_PAIRS = 400
#: Most hypothesis words with synsets the C loop takes (its index holds a 64-bit mask).
NATIVE_MAX_HYP = 64


_SYNONYM = compiled("_synonym")
#: ``meteor_native._synonym.synonym_pairs``, or ``None``: :func:`synonym_pairs` in C,
#: the same pairs in the same order (up to :data:`NATIVE_MAX_HYP` hypothesis entries).
NATIVE_PAIRS: Callable[..., list[tuple[int, int, int]]] | None = (
    None if _SYNONYM is None else _SYNONYM.synonym_pairs
)


class SynonymStage(LanguageStage):
    """``SynonymMatcher``: the synonym sets intersect and the word keys differ."""

    name = Module.SYNONYM
    code = "sy"
    resource = "synonyms"

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        language.synsets("test")

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        """Every (reference word, hypothesis word) pair whose synsets intersect and whose
        keys differ, reference outer: in C (:data:`NATIVE_PAIRS`) when it can, else through
        the hypothesis's synset index for long pairs, else every pair; all give the same
        candidates in the same order."""
        hyp = ctx.hs.with_synsets()
        if not hyp:
            return []
        refs = ctx.rs.with_synsets()
        hk, rk = ctx.hyp_keys, ctx.ref_keys
        if NATIVE_PAIRS is not None and len(hyp) <= NATIVE_MAX_HYP:
            return _from_pairs(ctx, NATIVE_PAIRS(hyp, refs, hk, rk))
        if len(hyp) * len(refs) > INDEX_PAIRS:
            return _indexed(ctx, refs)
        return _from_pairs(ctx, synonym_pairs(hyp, refs, hk, rk))


def synonym_pairs(
    hyp: list[tuple[int, frozenset[int]]],
    refs: list[tuple[int, frozenset[int]]],
    hyp_keys: list[Hashable],
    ref_keys: list[Hashable],
) -> list[tuple[int, int, int]]:
    """``(i, j, smallest shared synset)`` for every reference entry ``(j, ss)`` (outer) and
    hypothesis entry ``(i, hs)`` (inner) whose sets intersect and whose keys differ:
    ``SynonymMatcher.java``'s loop, and the reference for the C ``synonym_pairs``."""
    out: list[tuple[int, int, int]] = []
    for j, ss in refs:
        key = ref_keys[j]
        for i, hs in hyp:
            if not ss.isdisjoint(hs) and hyp_keys[i] != key:
                out.append((i, j, min(ss & hs)))
    return out


def _from_pairs(ctx: MatchContext, pairs: list[tuple[int, int, Any]]) -> list[Candidate]:
    """Candidates from ``(i, j, smallest shared synset)`` in the loop's order; the limit
    is checked where the loop checks it (after each reference word), so an error counts
    what the loop had found."""
    syn = Module.SYNONYM
    limit = ctx.limit
    if limit is not None and len(pairs) > limit:
        last_j = pairs[limit][1]  # the reference word whose matches cross the limit
        found = limit + 1
        while found < len(pairs) and pairs[found][1] == last_j:
            found += 1
        ctx.check(found, syn)
    if not pairs:
        return []
    src = ctx.lang.synonym_source().split(" (")[0]
    return [(syn, i, i + 1, j, j + 1, f"{src} synset {off:08d}", None) for i, j, off in pairs]


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
