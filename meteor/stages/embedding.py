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
on first use.  :mod:`meteor.languages.russian` uses :class:`NavecEmbeddings` from here.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meteor.errors import ResourceError
from meteor.languages import Language
from meteor.params import Params
from meteor.resources import package_dir
from meteor.rules import fold_yo
from meteor.stages.base import Candidate, LanguageStage, MatchContext, Progress
from meteor.stages.registry import propose_raw
from meteor.types import Module

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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

#: The model file inside the ``natasha`` wheel (``natasha/data/emb/``).
NAVEC_MODEL_FILE = "navec_news_v1_1B_250K_300d_100q.tar"
NAVEC_HINT = "pip install natasha==1.6.0 navec==0.10.0"

#: Decimals kept of a cosine; the rounded value is what meets the threshold.
SIMILARITY_DECIMALS = 6
#: Unit vectors kept per process (one per distinct vocabulary id looked up).
VECTOR_CACHE_SIZE = 1 << 16
LOOKUP_CACHE_SIZE = 1 << 17

_SPECIAL = ("<unk>", "<pad>")


def navec_model_path() -> Path | None:
    """``natasha/data/emb/navec_news_v1_1B_250K_300d_100q.tar`` if natasha is installed.

    Found with :func:`importlib.util.find_spec` (``natasha`` is not imported).
    """
    base = package_dir("natasha")
    if base is None:
        return None
    path = base / "data" / "emb" / NAVEC_MODEL_FILE
    return path if path.is_file() else None


@functools.cache
def navec_available() -> bool:
    """Whether ``navec`` and the natasha news model are installed (nothing is loaded)."""
    return package_dir("navec") is not None and navec_model_path() is not None


class NavecEmbeddings:
    """A navec model, loaded once on first use (thread-safe), with cosine look-ups.

    Vectors are rebuilt from navec's product-quantisation codes
    (``PQ.__getitem__``: ``codes[q, indexes[id, q]]`` for each of the 100
    sub-spaces) and normalised in float64, one vocabulary id at a time, cached.

    Args:
        path: a navec ``.tar`` model; by default the news model inside the
            installed natasha package (:func:`navec_model_path`).
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self._path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._navec: Any = None
        self._ids: dict[str, int] = {}
        self.unit = functools.lru_cache(maxsize=VECTOR_CACHE_SIZE)(self._unit)
        self._surface = functools.lru_cache(maxsize=LOOKUP_CACHE_SIZE)(self._surface_id)

    # -- loading -----------------------------------------------------------------
    def path(self) -> Path:
        """The model file.

        Raises:
            ResourceError: when navec or the natasha model is not installed.
        """
        if self._path is not None:
            if not self._path.is_file():
                raise ResourceError(f"navec model not found: {self._path}")
            return self._path
        found = navec_model_path()
        if found is None or package_dir("navec") is None:
            raise ResourceError(
                "the embedding stage reads the navec news model shipped in the natasha "
                f"wheel with the navec loader; install both: {NAVEC_HINT}"
            )
        return found

    @property
    def source(self) -> str:
        """E.g. ``"navec news_v1_1B_250K_300d_100q"`` (the model's own id)."""
        navec = self.load()
        return f"navec {getattr(navec.meta, 'id', self.path().stem)}"

    def load(self) -> Any:
        """The ``navec.Navec`` object (loaded on the first call, about 1 s)."""
        navec = self._navec
        if navec is not None:
            return navec
        with self._lock:
            if self._navec is None:
                path = self.path()
                try:
                    from navec import Navec
                except ImportError as exc:
                    raise ResourceError(f"the navec loader is not installed: {NAVEC_HINT}") from exc
                try:
                    loaded = Navec.load(str(path))
                except Exception as exc:  # a truncated or foreign file
                    raise ResourceError(f"cannot load navec model {path}: {exc}") from exc
                ids = dict(loaded.vocab.word_ids)
                for special in _SPECIAL:
                    ids.pop(special, None)
                self._ids = ids
                self._navec = loaded
            return self._navec

    def __len__(self) -> int:
        """Vocabulary size (without ``<unk>`` and ``<pad>``)."""
        self.load()
        return len(self._ids)

    def __contains__(self, word: object) -> bool:
        self.load()
        return isinstance(word, str) and word in self._ids

    # -- look-ups ----------------------------------------------------------------
    def _surface_id(self, word: str) -> tuple[int, str] | None:
        self.load()
        low = word.lower()
        for key in (low, fold_yo(low)):
            vid = self._ids.get(key)
            if vid is not None:
                return vid, key
        return None

    def lookup(
        self, word: str, lemmas: Callable[[str], Iterable[str]] | None = None
    ) -> tuple[int, str, bool] | None:
        """``(vocabulary id, key found, via lemma)`` for ``word``, or ``None`` when OOV.

        The surface form first (lowercased, then ``ё``→``е``), then each lemma
        from ``lemmas(word)`` in sorted order.
        """
        if not word:
            return None
        hit = self._surface(word)
        if hit is not None:
            return hit[0], hit[1], False
        if lemmas is not None:
            for lemma in sorted(lemmas(word)):
                hit = self._surface(lemma)
                if hit is not None:
                    return hit[0], hit[1], True
        return None

    def _unit(self, vid: int) -> npt.NDArray[np.float64]:
        import numpy as np

        pq = self.load().pq
        vec = np.asarray(pq[vid], dtype=np.float64)
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm > 0 else vec

    def vector(self, vid: int) -> npt.NDArray[np.float32]:
        """The model's (dequantised) vector of a vocabulary id."""
        import numpy as np

        return np.asarray(self.load().pq[vid], dtype=np.float32)

    def cosines(self, hyp_ids: Sequence[int], ref_ids: Sequence[int]) -> list[list[float]]:
        """``cos[i][j]`` between two lists of vocabulary ids, rounded as the stage uses them."""
        if not hyp_ids or not ref_ids:
            return [[] for _ in hyp_ids]
        return [[float(x) for x in row] for row in self.cosine_matrix(hyp_ids, ref_ids)]

    def cosine_matrix(
        self, hyp_ids: Sequence[int], ref_ids: Sequence[int]
    ) -> npt.NDArray[np.float64]:
        """:meth:`cosines` as a ``(len(hyp_ids), len(ref_ids))`` array (8 bytes a pair,
        not a Python float: 5,000 × 5,000 words take 200 MB instead of about 1 GB)."""
        import numpy as np

        if not hyp_ids or not ref_ids:
            return np.zeros((len(hyp_ids), len(ref_ids)), dtype=np.float64)
        h = np.stack([self.unit(v) for v in hyp_ids])
        r = np.stack([self.unit(v) for v in ref_ids])
        return np.round(h @ r.T, SIMILARITY_DECIMALS)

    def cosine(self, a: int, b: int) -> float:
        """Cosine of two vocabulary ids (rounded to :data:`SIMILARITY_DECIMALS`)."""
        return self.cosines([a], [b])[0][0]

    def __repr__(self) -> str:
        return f"NavecEmbeddings({str(self._path or NAVEC_MODEL_FILE)!r})"


_NEWS = NavecEmbeddings()


def news_embeddings() -> NavecEmbeddings:
    """The process-wide navec news model (loaded on first use)."""
    return _NEWS


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
