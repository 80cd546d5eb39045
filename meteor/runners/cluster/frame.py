"""Score columns for pandas and ``dask.dataframe`` frames (:func:`score_frame`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from distributed import Client

from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.cluster.client import prepare_workers, score_corpus_dask
from meteor.runners.cluster.worker import SCORERS, collection_paused, load_scorer, spec_key
from meteor.types import MeteorResult

__all__ = ["FRAME_COLUMNS", "score_frame"]

#: Columns :func:`score_frame` adds (after its prefix).
FRAME_COLUMNS = ("score", "precision", "recall", "fmean", "frag", "penalty", "chunks")


def _row_refs(values: Sequence[Any]) -> list[Any]:
    """References of a row: missing cells (None, NaN) are left out."""
    return [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]


def _frame_columns(records: Sequence[MeteorResult]) -> dict[str, list[float]]:
    return {
        "score": [r.score for r in records],
        "precision": [r.precision for r in records],
        "recall": [r.recall for r in records],
        "fmean": [r.fmean for r in records],
        "frag": [r.frag for r in records],
        "penalty": [r.penalty for r in records],
        "chunks": [float(r.chunks) for r in records],
    }


def _score_pandas(
    df: Any,
    key: str,
    params: Params,
    preset: str | None,
    hyp: str,
    refs: Sequence[str],
    prefix: str,
) -> Any:
    """One pandas partition with score columns (runs on a worker, or here)."""
    m = load_scorer(key, params, preset)
    hyps = df[hyp].tolist()
    ref_lists = [_row_refs(row) for row in zip(*(df[c].tolist() for c in refs), strict=True)]
    with collection_paused():
        records = m.score_segments(hyps, ref_lists, candidates=False) if len(df) else []
    cols = _frame_columns(records)
    return df.assign(**{prefix + name: values for name, values in cols.items()})


def score_frame(
    df: Any,
    hyp: str = "hyp",
    refs: Sequence[str] = ("ref",),
    preset: str | None = None,
    *,
    params: Params | None = None,
    meteor: Meteor | None = None,
    client: Client | None = None,
    prefix: str = "meteor_",
    **overrides: Any,
) -> Any:
    """The frame with score columns (``meteor_score``, ``meteor_precision`` … ``meteor_chunks``).

    A ``dask.dataframe.DataFrame`` comes back lazy: each partition is scored by a
    worker (resources loaded once per worker) when the frame is computed, and
    row order is kept.  A pandas ``DataFrame`` is scored now (on ``client`` if
    given, else in this process).  Several reference columns: the best reference
    wins (Meteor 1.5); empty cells (None, NaN) are skipped.  The numbers equal
    :meth:`meteor.Meteor.score` on each row.

    Raises:
        KeyError: a named column is missing.
        ClusterError: as :func:`score_corpus_dask` (with ``client``).
    """
    if isinstance(refs, str):
        refs = [refs]
    refs = list(refs)
    if not refs:
        raise ValueError("refs must name at least one reference column")
    m = meteor if meteor is not None else Meteor(preset, params=params, **overrides)
    missing = [c for c in [hyp, *refs] if c not in df.columns]
    if missing:
        raise KeyError(
            f"column(s) {', '.join(map(repr, missing))} not in the frame "
            f"(columns: {', '.join(map(str, df.columns))})"
        )
    key = spec_key(m.params, m.preset)
    if hasattr(df, "map_partitions"):  # dask.dataframe
        if client is not None:
            prepare_workers(client, m)
        meta = df._meta.assign(**{prefix + c: [] for c in FRAME_COLUMNS}).astype(
            {prefix + c: "float64" for c in FRAME_COLUMNS}
        )
        return df.map_partitions(
            _score_pandas, key, m.params, m.preset, hyp, refs, prefix, meta=meta
        )
    if client is None:
        SCORERS.setdefault(key, m)
        return _score_pandas(df, key, m.params, m.preset, hyp, refs, prefix)
    hyps = df[hyp].tolist()
    ref_lists = [_row_refs(row) for row in zip(*(df[c].tolist() for c in refs), strict=True)]
    result = score_corpus_dask(m, hyps, ref_lists, client=client)
    cols = _frame_columns(result.segments)
    return df.assign(**{prefix + name: values for name, values in cols.items()})
