"""The embedding stage: unmatched words whose word vectors are close enough.

Beyond every official METEOR.  The seed Russian notebook looks at ``navec``
neighbours (``navec_hudlit_v1_12B_500K_300d_100q``, a GitHub release download
that is not available offline); this stage uses the **navec news model**
``navec_news_v1_1B_250K_300d_100q.tar`` (250K words, 300 dimensions, product
quantised to 100 sub-vectors) that the ``natasha==1.6.0`` wheel carries in
``natasha/data/emb/``, loaded with ``navec==0.10.0`` (``Navec.load``) from the
installed package.  Nothing is downloaded; ``natasha`` itself is located with
:func:`importlib.util.find_spec` and **never imported** (importing it would
import ``pymorphy2``, which ``natasha`` pulls in and which is broken on Python
3.11; ``dependencies.md``, "Russian word embeddings and tokenization").

The rule (issue #8):

* the stage runs last, after the synonym stage; it considers only words **not
  touched by any candidate of the earlier stages** (every stage listed before
  ``embedding`` in :attr:`~meteor.params.Params.modules`);
* a word is looked up by its surface form (lowercased; then with ``ё``→``е``),
  then by its lemmas (the language's :meth:`~meteor.languages.Language.lemmas`,
  in sorted order, the first one in the vocabulary wins);
* a hypothesis and a reference word match when the cosine of their vectors
  reaches :attr:`~meteor.params.Params.embedding_threshold`; the record keeps
  the cosine (:attr:`meteor.types.Match.similarity`, rounded to 6 decimals, the
  value compared with the threshold) and says so in ``detail``
  (``"navec cosine 0.48"``);
* a word out of the vocabulary simply does not match;
* like every other stage it proposes all its candidates (many-to-many) in
  Meteor 1.5's lattice order (reference position, then hypothesis position) and
  the preset's aligner chooses; its matches are weighted by the stage's own
  weight (:meth:`~meteor.params.Params.weight`).

Cosines seen with the news model (``dependencies.md``): грустный/унылый 0.39,
быстрый/стремительный 0.48, собака/собачка 0.37, коричневый/рыжий 0.25,
собака/стол −0.01; ``лисичка`` and ``скакнуть`` are out of the vocabulary.

Loading cost, measured on the project's 2-core machine: about 1 s and 170 MB
more resident memory for ``Navec.load`` (the quantised codes, a 25 MB
centroid-product table navec precomputes, and the 250K-word vocabulary dict).

Importing this module is cheap (no numpy, no navec) and does nothing else: the
stage is the registry's line ``embedding`` (:mod:`meteor.stages.registry`), imported
on first use.  The navec loader (:class:`NavecEmbeddings`, :func:`navec_available` ...)
is a language resource and lives in :mod:`meteor.languages.navec`; its names are
re-exported here for earlier imports.
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

# ----------------------------------------------------------------------- the stage


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
        # Only the pairs over the threshold, in (reference, hypothesis) order: numpy finds
        # them, so long texts cost no Python loop over every pair.
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
