"""Human-judged corpora for :mod:`meteor.analysis.agreement`: :class:`Judged` (hypotheses,
references, a human score per system × segment and optional pairwise judgements) and
:func:`load_judged`, which reads the scores from the tables or joins separate files on
(system, seg_id), reporting every unjoined row (:class:`Join`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from meteor.errors import InputError
from meteor.io.read import Corpus, load_corpus, some_ids
from meteor.io.scores import Pair, numeric_columns, read_pairs, read_scores

__all__ = [
    "RAW_DA_COLUMNS",
    "Join",
    "Judged",
    "darr_notice",
    "load_judged",
    "raw_da_column",
    "row_index",
]


@dataclass(frozen=True)
class Join:
    """How a separate file joined the corpus on (system, seg_id); nothing unjoined is hidden.

    Attributes:
        what: ``scores`` (a scores file) or ``pairs`` (pairwise judgements).
        sources: the file names.
        joined: rows (scores) or pairs that joined.
        unscored: scores: the corpus outputs without a score, left out of every measure.
        unscored_ids: the first few of them, ``system/seg_id``.
        unused: scores: rows, pairs: pairs, that name an output the corpus lacks (unused).
        unused_ids: the first few of them.
    """

    what: str
    sources: tuple[str, ...]
    joined: int
    unscored: int
    unscored_ids: tuple[str, ...]
    unused: int
    unused_ids: tuple[str, ...]

    def message(self) -> str:
        """One line for stderr."""
        unit = "rows" if self.what == "scores" else "pairs"
        text = f"{self.what} {', '.join(self.sources)}: {self.joined:,} {unit} joined on (system, seg_id)"
        if self.unscored:
            text += (
                f"; {self.unscored:,} output(s) of the corpus have no score and are left out "
                f"({some_ids(self.unscored_ids, 5)})"
            )
        if self.unused:
            text += (
                f"; {self.unused:,} {unit[:-1]}(s) name an output the corpus lacks and are "
                f"unused ({some_ids(self.unused_ids, 5)})"
            )
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "sources": list(self.sources), "joined": self.joined,
                "unscored": self.unscored, "unscored_ids": list(self.unscored_ids),
                "unused": self.unused, "unused_ids": list(self.unused_ids)}  # fmt: skip


def _key(system: str, seg: str) -> str:
    return f"{system}/{seg}"


@dataclass(frozen=True)
class Judged:
    """A corpus with a human score for every (system, segment) row.

    Attributes:
        corpus: the systems and references.
        human: per system (corpus order), one human score per hypothesis; None when
            the only judgements are ``pairs``.
        human_column: the human column's name (for reports).
        higher_is_better: False for error scores (MQM error counts, HTER): flipped.
        darr: per system, the scores DARR pairs are built from (default: ``human``).
        darr_column: its name.
        columns: metric columns of the file: name → per system, one score per hypothesis.
        pairs: pairwise judgements ``(seg_id, better system, worse system)``, every one
            an output pair of the corpus; they replace the DARR pairs.
        pairs_source: the pairs' file name(s).
        joins: how separate scores or pairs files joined (:class:`Join`).
        all_corpus: every output of the input before a scores file left the unscored
            ones out (None: ``corpus`` is every output); the metric's system scores
            against official human system scores use all of them.
        system_only: no segment-level judgements at all (neither ``human`` nor
            ``pairs``): only official system scores can be correlated.
    """

    corpus: Corpus
    human: Mapping[str, Sequence[float]] | None
    human_column: str = "human"
    higher_is_better: bool = True
    darr: Mapping[str, Sequence[float]] | None = None
    darr_column: str | None = None
    columns: Mapping[str, Mapping[str, Sequence[float]]] = field(default_factory=dict)
    pairs: tuple[Pair, ...] | None = None
    pairs_source: str | None = None
    joins: tuple[Join, ...] = ()
    all_corpus: Corpus | None = None
    system_only: bool = False

    def __post_init__(self) -> None:
        if self.human is None and not self.pairs and not self.system_only:
            raise InputError("no human judgements: give a human score column or pairs")
        if self.pairs is not None:
            rows = row_index(self.corpus)
            for seg, better, worse in self.pairs:
                for system in (better, worse):
                    if (system, seg) not in rows:
                        raise InputError(f"pair of segment {seg!r}: no output of system {system!r}")
        given: list[tuple[str, Mapping[str, Sequence[float]]]] = []
        if self.human is not None:
            given.append(("human", self.human))
        if self.darr is not None:
            given.append((f"darr column {self.darr_column!r}", self.darr))
        given.extend((f"column {c!r}", v) for c, v in self.columns.items())
        for what, values in given:
            for name, _ in self.corpus.systems:
                if name not in values:
                    raise InputError(f"{what}: no scores for system {name!r}")
                if len(values[name]) != len(self.corpus.hyps(name)):
                    raise InputError(
                        f"{what}: system {name!r} has {len(values[name])} scores for "
                        f"{len(self.corpus.hyps(name))} hypotheses"
                    )


def row_index(corpus: Corpus) -> dict[tuple[str, str], int]:
    """``(system, seg_id)`` → row (system-major, corpus order, as ``judged_rows``)."""
    out: dict[tuple[str, str], int] = {}
    for name, _ in corpus.systems:
        for seg in corpus.ids_of(name):
            out[(name, seg)] = len(out)
    return out


def _subset(corpus: Corpus, keep: set[tuple[str, str]]) -> Corpus:
    """The corpus with only the outputs in ``keep`` (and the segments some system keeps)."""
    cov = [[i for i, seg in zip(corpus.indices(n), corpus.ids_of(n), strict=True)
            if (n, seg) in keep] for n, _ in corpus.systems]  # fmt: skip
    segs = sorted({i for c in cov for i in c})
    new = {old: k for k, old in enumerate(segs)}
    systems = []
    coverage = []
    for (name, hyps), c in zip(corpus.systems, cov, strict=True):
        if c:  # a system with no scored output is left out
            pos = dict(zip(corpus.indices(name), hyps, strict=True))
            systems.append((name, tuple(pos[i] for i in c)))
            coverage.append(tuple(new[i] for i in c))
    return Corpus(
        tuple(systems),
        tuple(corpus.refs[i] for i in segs),
        tuple(corpus.ids[i] for i in segs),
        corpus.sources,
        tuple(coverage),
        corpus.keyed,
    )


def _join_pairs(
    corpus: Corpus, pairs_files: Sequence[tuple[str, bytes | str]], fmt: str | None
) -> tuple[tuple[Pair, ...] | None, tuple[Join, ...]]:
    """The pairs of ``pairs_files`` that join the corpus, and how they joined (none: None)."""
    if not pairs_files:
        return None, ()
    rows = row_index(corpus)
    joined: list[Pair] = []
    unused: list[str] = []
    seen: set[Pair] = set()
    for name, data in pairs_files:
        for pair in read_pairs(data, name, fmt=fmt):
            seg, better, worse = pair
            if pair in seen:
                raise InputError(f"{name}: pair {seg!r}: {better!r} > {worse!r} is given twice")
            seen.add(pair)
            if (better, seg) in rows and (worse, seg) in rows:
                joined.append(pair)
            else:
                unused.append(f"{seg}: {better} > {worse}")
    join = Join("pairs", tuple(n for n, _ in pairs_files), len(joined), 0, (), len(unused),
                tuple(unused[:5]))  # fmt: skip
    if not joined:
        raise InputError(f"{join.message()}; check the system names and seg_ids")
    return tuple(joined), (join,)


def load_judged(
    files: Sequence[tuple[str, bytes | str]],
    human_column: str | None,
    *,
    ref_files: Sequence[tuple[str, bytes | str]] = (),
    metric_columns: Sequence[str] = (),
    darr_column: str | None = None,
    higher_is_better: bool = True,
    fmt: str | None = None,
    scores: Sequence[tuple[str, bytes | str]] = (),
    pairs: Sequence[tuple[str, bytes | str]] = (),
    system_only: bool = False,
) -> Judged:
    """Read hypothesis tables that carry ``human_column`` (and metric columns) per row.

    Args:
        scores: separate scores files (``system``, ``seg_id`` and the score columns),
            joined to the outputs on (system, seg_id); outputs without a score are left
            out and rows without an output unused, both counted in ``Judged.joins``.
        pairs: pairwise judgement files (:func:`meteor.io.scores.read_pairs`), which
            replace the DARR pairs (``human_column`` may then be None); pairs naming an
            output the corpus lacks are counted in ``Judged.joins``.
        darr_column: the column DARR pairs are built from; default the raw DA column
            the files have (:func:`raw_da_column`), else the human column.
        system_only: with no ``human_column`` and no ``pairs``: a corpus without
            segment judgements (``Judged.system_only``), for official system scores.

    Raises:
        InputError: as :func:`meteor.io.read.load_corpus`,
            :func:`meteor.io.scores.read_scores` (every cell that is not a number is
            reported) and :func:`~meteor.io.scores.read_pairs`, a system name given by
            two files, or a scores or pairs file of which nothing joins.
    """
    corpus = load_corpus(files, ref_files, fmt=fmt)
    pairs_source = ", ".join(n for n, _ in pairs) if pairs else None
    if human_column is None:
        if not pairs and not system_only:
            raise InputError("give a human score column, or pairwise judgements")
        if darr_column or scores:
            raise InputError("a DARR column and a scores file need a human column")
        return _judged_by_pairs(corpus, files, pairs, metric_columns, fmt, pairs_source)
    if darr_column is None and not pairs:
        darr_column = raw_da_column(scores or files, human_column, fmt)
    cols = list(
        dict.fromkeys([human_column, *metric_columns, *([darr_column] if darr_column else [])])
    )
    merged = _read_columns(scores or files, cols, fmt)
    joins: list[Join] = []
    all_corpus = None
    if scores:
        full = corpus
        join, corpus = _join_scores(corpus, scores, merged[human_column])
        joins.append(join)
        all_corpus = None if corpus is full else full
    # after the scores: a pair of a left-out output is unused too
    pair_list, pair_joins = _join_pairs(corpus, pairs, fmt)
    joins.extend(pair_joins)
    return Judged(
        corpus,
        _per_system(corpus, merged[human_column]),
        human_column,
        higher_is_better,
        _per_system(corpus, merged[darr_column]) if darr_column else None,
        darr_column,
        {c: _per_system(corpus, merged[c]) for c in metric_columns},
        pair_list,
        pairs_source,
        tuple(joins),
        all_corpus,
    )


#: Raw DA columns WMT's DARR pairs are built from, looked for when none is named.
RAW_DA_COLUMNS = ("human_raw", "raw")


def raw_da_column(
    files: Sequence[tuple[str, bytes | str]], human_column: str, fmt: str | None = None
) -> str | None:
    """The raw DA column every file has (``human_raw``, else ``raw``), which WMT's DARR
    pairs come from (mt-metrics-eval); None when there is none besides the human column."""
    have = [set(numeric_columns(data, name, fmt=fmt)) for name, data in files]
    for col in RAW_DA_COLUMNS:
        if col != human_column and have and all(col in h for h in have):
            return col
    return None


def darr_notice(judged: Judged) -> str:
    """One line when DARR pairs come from a column that is not raw DA (WMT's DARR is built
    from raw DA), naming the column it would need; empty otherwise."""
    if judged.human is None or judged.pairs is not None or judged.darr is not None:
        return ""
    if judged.human_column.lower() in RAW_DA_COLUMNS:
        return ""
    return (
        f"DARR pairs are built from {judged.human_column!r}, not raw DA: WMT's DARR needs a "
        f"raw DA column ({' or '.join(RAW_DA_COLUMNS)}, or name one with --darr-column)"
    )


def _per_system(corpus: Corpus, values: Mapping[tuple[str, str], float]) -> dict[str, list[float]]:
    """Scores keyed by ``(system, seg_id)`` as per system, one per hypothesis (corpus order)."""
    return {s: [values[(s, seg)] for seg in corpus.ids_of(s)] for s, _ in corpus.systems}


def _judged_by_pairs(
    corpus: Corpus,
    files: Sequence[tuple[str, bytes | str]],
    pairs: Sequence[tuple[str, bytes | str]],
    metric_columns: Sequence[str],
    fmt: str | None,
    pairs_source: str | None,
) -> Judged:
    """A corpus judged by pairwise judgements only (no pairs: ``Judged.system_only``), with
    the metric columns of the hypothesis tables."""
    pair_list, joins = _join_pairs(corpus, pairs, fmt)
    cols_read: dict[str, dict[tuple[str, str], float]] = {c: {} for c in metric_columns}
    for name, data in files if metric_columns else ():
        for col, values in read_scores(data, name, metric_columns, fmt=fmt).items():
            cols_read[col].update(values)
    columns = {c: _per_system(corpus, v) for c, v in cols_read.items()}
    return Judged(corpus, None, "pairs" if pairs else "none", True, columns=columns,
                  pairs=pair_list, pairs_source=pairs_source, joins=joins,
                  system_only=not pairs)  # fmt: skip


def _read_columns(
    files: Sequence[tuple[str, bytes | str]], cols: Sequence[str], fmt: str | None
) -> dict[str, dict[tuple[str, str], float]]:
    """The score columns ``cols`` of every file, keyed by ``(system, seg_id)``.

    Raises:
        InputError: as :func:`~meteor.io.scores.read_scores`, or a system given by two files.
    """
    merged: dict[str, dict[tuple[str, str], float]] = {c: {} for c in cols}
    seen: dict[str, str] = {}
    for name, data in files:
        table = read_scores(data, name, cols, fmt=fmt)
        for col, values in table.items():
            for system, _ in values:
                if seen.setdefault(system, name) != name:
                    raise InputError(
                        f"system {system!r} is in both {seen[system]} and {name}; give each "
                        "system in one file to correlate"
                    )
            merged[col].update(values)
    return merged


def _join_scores(
    corpus: Corpus,
    scores: Sequence[tuple[str, bytes | str]],
    human: Mapping[tuple[str, str], float],
) -> tuple[Join, Corpus]:
    """How a scores file's human column joined the corpus, and the corpus without the
    outputs that have no score.

    Raises:
        InputError: nothing joined.
    """
    have = set(human)
    rows = row_index(corpus)
    unscored = [k for k in rows if k not in have]
    unused = [k for k in human if k not in rows]
    join = Join(
        "scores",
        tuple(n for n, _ in scores),
        len(rows) - len(unscored),
        len(unscored),
        tuple(_key(*k) for k in unscored[:5]),
        len(unused),
        tuple(_key(*k) for k in unused[:5]),
    )
    if join.joined == 0:
        raise InputError(f"{join.message()}; check the system names and seg_ids")
    if unscored:
        corpus = _subset(corpus, set(rows) - set(unscored))
    return join, corpus
