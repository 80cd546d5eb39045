"""The paraphrase stage: Meteor 1.5 ``ParaphraseMatcher`` (``meteor-1.5.md`` section 6).

n:m phrase pairs from the language's paraphrase table (:mod:`meteor.languages.paraphrase`);
before a batch of pairs the trie is walked for all their sentences at once
(:meth:`ParaphraseStage.prefetch`).
"""

from __future__ import annotations

from collections.abc import Sequence

from meteor.errors import CandidateLimitError
from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import Params
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress, Sentence

__all__ = ["PARAPHRASE", "ParaphraseStage"]


class ParaphraseStage(LanguageStage):
    """``ParaphraseMatcher``: every table entry whose two phrases occur in the pair."""

    name = Module.PARAPHRASE
    code = "pa"
    resource = "paraphrase table"
    prefetches = True

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        """Load the table (the first use on a machine builds its index: about a minute,
        reported through ``progress``)."""
        from meteor.languages import paraphrase

        paraphrase.get_table(params.lang, progress=progress)

    def prefetch(self, sentences: Sequence[Sentence], language: Language) -> None:
        """Walk the paraphrase trie for every sentence not walked yet, in one call
        (:meth:`ParaphraseTable.phrases_many`; the same results as one walk each)."""
        from meteor.languages.paraphrase import ParaphraseTable

        table = language.paraphrases()
        if not isinstance(table, ParaphraseTable):
            return
        todo = list({id(s): s for s in sentences if not s.has_phrases()}.values())
        for sent, phrases in zip(todo, table.phrases_many([s.words for s in todo]), strict=True):
            sent.set_phrases(phrases)

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        from meteor.languages.paraphrase import CandidateOverflowError, ParaphraseTable

        table = ctx.lang.paraphrases()
        try:
            if isinstance(table, ParaphraseTable):  # the index: per-sentence work is cached
                found = table.pair_candidates(
                    ctx.hs.phrases(table), ctx.rs.phrases(table), limit=ctx.limit
                )
            else:
                found = table.candidates(ctx.hyp, ctx.ref, limit=ctx.limit)
        except CandidateOverflowError as exc:  # counted before any candidate was built
            raise CandidateLimitError(exc.found, exc.limit, Module.PARAPHRASE.value) from None
        pa = Module.PARAPHRASE
        return [
            (pa, hs, hs + hl, rs, rs + rl, "paraphrase table", None) for hs, hl, rs, rl in found
        ]


PARAPHRASE = ParaphraseStage()
