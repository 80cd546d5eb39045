"""HF ``evaluate``'s ``meteor`` metric, offline and without ``nltk.download``.

Reproduces ``metrics/meteor/meteor.py`` of huggingface/evaluate (with nltk ≥ 3.6.5):
``nltk.word_tokenize`` on every text, then ``single_meteor_score`` (one reference string
per prediction) or ``meteor_score`` (a list of references: the best), and
``{"meteor": np.mean(scores)}``.  The per-segment scores are the ``hf`` preset's, which
equal nltk's floats bit for bit (``tests/parity/test_compat_evaluate.py``).
``evaluate.load(MODULE_PATH)`` loads the same metric through the ``evaluate`` package.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from meteor.metric import Meteor
from meteor.params import check_number

__all__ = ["MODULE_PATH", "compute", "segment_scores"]

#: A local evaluate module folder: ``evaluate.load(MODULE_PATH)``.
MODULE_PATH = str(Path(__file__).resolve().parent / "hf_meteor")


@functools.lru_cache(maxsize=16)
def _scorer(alpha: float, beta: float, gamma: float) -> Meteor:
    return Meteor("hf", alpha=alpha, beta=beta, gamma=gamma)


def _ref_lists(references: Sequence[str] | Sequence[Sequence[str]]) -> list[list[str]]:
    multiple = isinstance(references[0], list | tuple)  # HF: isinstance(references[0], list)
    out: list[list[str]] = []
    for k, ref in enumerate(references):
        if multiple != isinstance(ref, list | tuple):
            raise ValueError(
                f"references[{k}]: give every prediction either one reference string "
                "or a list of references, not a mixture"
            )
        out.append(list(ref) if isinstance(ref, list | tuple) else [ref])  # type: ignore[list-item]
    return out


def segment_scores(
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> list[float]:
    """HF's per-prediction scores (before the mean), in input order.

    Raises:
        ValueError: empty input, different lengths, a prediction with no reference,
            mixed reference shapes, or a parameter that is not a number (a string or a
            bool: :class:`meteor.ParamError`) or out of range (named).
        TypeError: a prediction or reference that is not a string.
    """
    if isinstance(predictions, str) or isinstance(references, str):
        raise TypeError("predictions and references must be lists (one entry per prediction)")
    if len(predictions) != len(references):
        raise ValueError(
            f"predictions has {len(predictions)} entries but references has {len(references)}"
        )
    if not predictions:
        raise ValueError("predictions is empty: nothing to score")
    # checked before the cache: True == 1.0 would be a cached key
    scorer = _scorer(
        *(
            check_number(n, v)
            for n, v in zip(("alpha", "beta", "gamma"), (alpha, beta, gamma), strict=True)
        )
    )
    refs = _ref_lists(references)
    return [
        scorer.score(pred, r, candidates=False).score
        for pred, r in zip(predictions, refs, strict=True)
    ]


def compute(
    *,
    predictions: Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> dict[str, float]:
    """``evaluate.load("meteor").compute(predictions=..., references=...)``, offline.

    Returns:
        ``{"meteor": mean of the per-prediction scores}`` (``np.mean``, as HF).
    """
    scores = segment_scores(predictions, references, alpha, beta, gamma)
    return {"meteor": float(np.mean(scores))}
