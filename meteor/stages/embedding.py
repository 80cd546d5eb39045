"""The embedding stage: unmatched words whose word vectors are close enough.

Beyond every official METEOR.  Instead of the seed Russian notebook's hudlit model
(not available offline) it uses the **navec news model** that the ``natasha==1.6.0``
wheel carries, loaded with ``navec==0.10.0`` (:mod:`meteor.languages.navec`; ``natasha``
is located, never imported).  The rule:

* it considers only words **not touched by any candidate of the earlier stages**
  (every stage listed before ``embedding`` in :attr:`~meteor.params.Params.modules`);
* a word is looked up by its surface form (lowercased; then with ``ё``→``е``), then by
  its lemmas in sorted order; a word out of the vocabulary does not match;
* a hypothesis and a reference word match when the cosine of their vectors reaches
  :attr:`~meteor.params.Params.embedding_threshold`; the record keeps the cosine
  (:attr:`meteor.types.Match.similarity`) and says so in ``detail``;
* like every other stage it proposes all its candidates in Meteor 1.5's lattice order
  and the preset's aligner chooses.

Cosines with the news model and loading costs: docs/russian.md.
"""

from __future__ import annotations

from meteor.languages import Language
from meteor.languages.navec import (
    NAVEC_HINT,
    NAVEC_MODEL_FILE,
    NavecEmbeddings,
    navec_available,
    navec_model_path,
    news_embeddings,
)
from meteor.module_registry import Module
from meteor.params import Params
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress
from meteor.stages.registry import propose_raw

__all__ = [
    "EMBEDDING",
    "NAVEC_HINT",
    "NAVEC_MODEL_FILE",
    "EmbeddingStage",
    "NavecEmbeddings",
    "navec_available",
    "navec_model_path",
    "news_embeddings",
]


def touched_by_earlier_stages(ctx: MatchContext) -> tuple[set[int], set[int]]:
    """Hypothesis and reference positions touched by any candidate of the stages before
    ``embedding`` in ``ctx.params.modules`` (all of them when it is not listed)."""
    mods = ctx.params.modules
    earlier = mods[: mods.index(Module.EMBEDDING)] if Module.EMBEDDING in mods else mods
    hyp: set[int] = set()
    ref: set[int] = set()
    for module in earlier:
        for _, hs, he, rs, re_, _, _ in propose_raw(module, ctx):
            hyp.update(range(hs, he))
            ref.update(range(rs, re_))
    return hyp, ref


class EmbeddingStage(LanguageStage):
    """Candidates between words no earlier candidate touches whose cosine reaches the
    threshold.  Offered by a language with word vectors (Russian, when navec and the
    natasha model are installed: :func:`navec_available`)."""

    name = Module.EMBEDDING
    code = "em"
    resource = "word vectors"
    #: The language the navec news model is for.
    model_language = "ru"

    def resource_hint(self, language: Language) -> str | None:
        if language.code != self.model_language:
            return None
        return f"the embedding stage needs the navec word vectors shipped in natasha: {NAVEC_HINT}"

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        language.embeddings().load()

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        """Candidates in lattice order (reference position, then hypothesis position);
        each carries the cosine in :attr:`Match.similarity`.

        Raises:
            ResourceError: when navec or its model is not installed.
        """
        source = ctx.lang.embeddings()  # ResourceError for a language without word vectors
        lemmas = ctx.lang.lemmas
        eligible = ctx.lang.embedding_eligible
        touched_h, touched_r = touched_by_earlier_stages(ctx)
        hyp: list[tuple[int, int, str, bool]] = []
        for i, w in enumerate(ctx.hyp):
            if i not in touched_h and eligible(w) and (hit := source.lookup(w, lemmas)) is not None:
                hyp.append((i, *hit))
        ref: list[tuple[int, int, str, bool]] = []
        for j, w in enumerate(ctx.ref):
            if j not in touched_r and eligible(w) and (hit := source.lookup(w, lemmas)) is not None:
                ref.append((j, *hit))
        if not hyp or not ref:
            return []
        sims = source.cosine_matrix([h[1] for h in hyp], [r[1] for r in ref])
        threshold = ctx.params.embedding_threshold
        out: list[Candidate] = []
        # the pairs over the threshold, in (reference, hypothesis) order
        for b, a in zip(*(sims.T >= threshold).nonzero(), strict=True):
            j, _, rkey, rlem = ref[b]
            i, _, hkey, hlem = hyp[a]
            if ctx.hyp_keys[i] == ctx.ref_keys[j]:
                continue
            cos = float(sims[a, b])
            detail = f"navec cosine {cos:.2f}"
            if hlem or rlem:
                detail += f" (looked up as {hkey} / {rkey})"
            out.append((Module.EMBEDDING, i, i + 1, j, j + 1, detail, cos))
            if len(out) % 1024 == 0:
                ctx.check(len(out), Module.EMBEDDING)
        ctx.check(len(out), Module.EMBEDDING)
        return out


EMBEDDING = EmbeddingStage()
