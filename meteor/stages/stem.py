"""The stem stage: Meteor 1.5 ``StemMatcher`` (``meteor-1.5.md`` section 6).

Two words match when their stems (under ``Params.stemmer``, compared through keys
as words are) are equal and the words themselves are not; ``detail`` names the stem.
"""

from __future__ import annotations

from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import ParamError, Params
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress

__all__ = ["STEM", "StemStage"]


class StemStage(LanguageStage):
    """``StemMatcher``: equal stem keys and different word keys (case-sensitive)."""

    name = Module.STEM
    code = "st"
    resource = "stemmer"

    def validate(self, language: Language, params: Params) -> None:
        if params.stemmer not in language.stemmers:
            raise ParamError(
                f"stemmer must be one of {', '.join(language.stemmers)} for "
                f"{params.lang!r}, got {params.stemmer!r}"
            )

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        language.stem("tests", params.stemmer)

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        by_key = ctx.hs.stem_index()
        hk, rk = ctx.hyp_keys, ctx.ref_keys
        out: list[Candidate] = []
        rstems = ctx.rs.stems()
        for j, sk in enumerate(ctx.rs.stem_keys() if by_key else ()):
            for i in by_key.get(sk, ()):
                if hk[i] != rk[j]:
                    out.append((Module.STEM, i, i + 1, j, j + 1, f"same stem “{rstems[j]}”", None))
            ctx.check(len(out), Module.STEM)  # per reference word: at most n_hyp over
        return out


STEM = StemStage()
