"""Score columns for pandas and ``dask.dataframe`` frames (:func:`score_frame`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from distributed import Client

from meteor.batch import SCORERS, collection_paused, spec_key
from meteor.metric import Meteor
from meteor.params import Params
from meteor.runners.cluster.client import prepare_workers, score_corpus_dask
from meteor.runners.cluster.worker import load_scorer
from meteor.types import MeteorResult

__all__ = ["FRAME_COLUMNS", "score_frame"]

#: Columns :func:`score_frame` adds (after its prefix).
FRAME_COLUMNS = ("score", "precision", "recall", "fmean", "frag", "penalty", "chunks")


def _inputs(df: Any, hyp: str, refs: Sequence[str]) -> tuple[list[Any], list[list[Any]]]:
    """The hypotheses and each row's references: missing cells (None, NaN) are left out."""
    rows = zip(*(df[c].tolist() for c in refs), strict=True)
    ref_lists = [
        [v for v in row if v is not None and not (isinstance(v, float) and math.isnan(v))]
        for row in rows
    ]
    return df[hyp].tolist(), ref_lists


def _with_scores(df: Any, records: Sequence[MeteorResult], prefix: str) -> Any:
    """``df`` with the :data:`FRAME_COLUMNS` of its rows' records (after ``prefix``)."""
    cols = {c: [getattr(r, c) for r in records] for c in FRAME_COLUMNS}
    cols["chunks"] = [float(x) for x in cols["chunks"]]
    return df.assign(**{prefix + name: values for name, values in cols.items()})


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
    hyps, ref_lists = _inputs(df, hyp, refs)
    with collection_paused():
        records = m.score_segments(hyps, ref_lists, candidates=False) if len(df) else []
    return _with_scores(df, records, prefix)


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
    hyps, ref_lists = _inputs(df, hyp, refs)
    return _with_scores(df, score_corpus_dask(m, hyps, ref_lists, client=client).segments, prefix)
