"""The navec word vectors: Russian's embeddings, a language resource.

The **navec news model** (:data:`NAVEC_MODEL_FILE`: 250K words, 300 dimensions, product
quantised to 100 sub-vectors) that the ``natasha==1.6.0`` wheel carries, loaded with
``navec==0.10.0`` (``Navec.load``); ``natasha`` is located, **never imported**
(``dependencies.md``, "Russian word embeddings and tokenization").  Russian offers it as
:meth:`~meteor.languages.Language.embeddings` to :mod:`meteor.stages.embedding`.
Importing this module is cheap: the model loads on first use.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meteor.errors import ResourceError
from meteor.resources import package_dir
from meteor.rules import fold_yo

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "LOOKUP_CACHE_SIZE",
    "NAVEC_HINT",
    "NAVEC_MODEL_FILE",
    "SIMILARITY_DECIMALS",
    "VECTOR_CACHE_SIZE",
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
    """``natasha/data/emb/<NAVEC_MODEL_FILE>`` if natasha is installed (not imported)."""
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

    Vectors are navec's product-quantised ones (``PQ.__getitem__``), normalised in
    float64, one vocabulary id at a time, cached.

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
        return self.cosine_matrix(hyp_ids, ref_ids).tolist()

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

    def __repr__(self) -> str:
        return f"NavecEmbeddings({str(self._path or NAVEC_MODEL_FILE)!r})"


_NEWS = NavecEmbeddings()


def news_embeddings() -> NavecEmbeddings:
    """The process-wide navec news model (loaded on first use)."""
    return _NEWS
