"""The sacreBLEU baselines of ``correlate`` and ``tune``: chrF, chrF++ and BLEU, scored
over worker processes and kept in the cache folder.

Every number is sacreBLEU's own: a segment's score is ``sentence_score``'s (BLEU with
``effective_order=True``, as ``sacrebleu.sentence_bleu``), a system's is
``corpus_score``'s over its segments (one stream per reference; a segment with fewer
references repeats its first, which changes neither chrF nor BLEU's best-match counts).
Both come from one pass of sacreBLEU's own steps over the segments (:func:`_segment_task`:
its reference cache, its segment statistics, its ``_aggregate_and_compute``; a system's
statistics are its segments' summed, as ``corpus_score`` sums them), each reference set's
n-grams extracted once for all the systems' outputs of its source; the tests hold the
numbers equal to ``sentence_chrf``/``sentence_bleu``/``corpus_score``.  The work is cut
into tasks (chunks of segments) run by the project's one worker pool
(:func:`meteor.runners.parallel.run_in_workers`); results are put back in corpus order,
so the numbers do not depend on ``workers``.

The scores are kept in the cache folder (:func:`meteor.resources.cache_dir`,
``baselines/``), one file per (digest of the corpus's systems, hypotheses and
references, baseline signature), in the cache folder's one layout
(:func:`meteor.resources.cache_sections`): a second run on the same texts reads them
back instead of scoring again.  The baseline signature is sacreBLEU's signature of the
two configured metrics (version, tokeniser, orders, smoothing, ``eff``), so another
sacreBLEU or setting never reads old scores.  Purely a cache: a damaged or missing file
is scored again.
"""

from __future__ import annotations

import hashlib
import json
import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meteor.analysis import system_level as sl
from meteor.analysis.agreement_records import MetricScores
from meteor.analysis.judged import Judged
from meteor.batch import check_count
from meteor.errors import InputError
from meteor.resources import cache_dir, cache_sections, read_cache_sections, write_cache_file
from meteor.runners.parallel import default_workers, run_tasks
from meteor.runtime import Progress

__all__ = ["BASELINES", "CACHE_FOLDER", "score_baselines"]

#: sacreBLEU baselines: name → (class name, keyword arguments).
BASELINES: dict[str, tuple[str, dict[str, Any]]] = {
    "chrf": ("CHRF", {}),
    "chrf++": ("CHRF", {"word_order": 2}),
    "bleu": ("BLEU", {}),
}
#: The cache folder's sub-folder holding the baselines' scores.
CACHE_FOLDER = "baselines"
#: Segments per task (a task costs about 0.1-0.4 s of chrF on WMT sentences).
CHUNK = 400
#: Below this many segments the baselines are scored in this process.
MIN_PARALLEL_ROWS = 500
#: Baselines whose statistics are another's first numbers when each segment has one
#: reference: sacreBLEU's CHRF appends chrF++'s word n-gram statistics after the
#: character n-grams' (the same ``extract_all_char_ngrams``), and only with several
#: references does its best-reference choice read them.  So chrF beside chrF++ costs no
#: second pass over the n-grams.
CHAR_PART = {"chrf": "chrf++"}

# ------------------------------------------------------------------ sacreBLEU


def _metrics(name: str) -> tuple[Any, Any]:
    """(segment metric, system metric) of baseline ``name``: sacreBLEU's class with its
    arguments; the segment BLEU with ``effective_order=True`` (``sentence_bleu``)."""
    import sacrebleu.metrics as sm

    cls_name, kwargs = BASELINES[name]
    cls = getattr(sm, cls_name)
    sentence = cls(**kwargs, **({"effective_order": True} if cls_name == "BLEU" else {}))
    return sentence, cls(**kwargs)


def _segment_task(
    names: Sequence[str], hyps: Sequence[str], ref_ids: Sequence[int], refs: Sequence[Sequence[str]]
) -> list[tuple[list[list[int]], list[float]]]:
    """sacreBLEU's statistics and ``sentence_score`` of each segment (a worker's task) for
    each baseline of ``names``: segment ``k``'s references are ``refs[ref_ids[k]]`` (the
    distinct reference sets of a chunk: the systems' outputs of one source share theirs).

    sacreBLEU's own steps, each reference set read once: ``_cache_references`` extracts
    the references' n-grams (one entry per set; ``None`` pads a set with fewer references,
    which sacreBLEU drops), they become the metric's reference cache, one entry per
    segment, and ``_extract_corpus_statistics`` reads each hypothesis against it — what
    ``sentence_score`` does for one segment before ``_aggregate_and_compute`` of its one
    row of statistics (``tests/unit/test_baselines.py`` holds the scores equal to
    ``sentence_chrf``/``sentence_bleu``, and summed statistics to ``corpus_score``).
    The first name's statistics are extracted; a second (:data:`CHAR_PART`: chrF beside
    chrF++, one reference per segment) takes its share of them."""
    sentence, _ = _metrics(names[0])  # its own: the reference cache is set on it (threads)
    width = max(len(r) for r in refs)
    streams = [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
    cached = sentence._cache_references(streams)
    sentence._ref_cache = [cached[k] for k in ref_ids]
    stats = sentence._extract_corpus_statistics(list(hyps), None)
    out = []
    for name in names:
        metric = sentence if name == names[0] else _metrics(name)[0]
        rows = stats if name == names[0] else [row[: 3 * metric.char_order] for row in stats]
        out.append((rows, [metric._aggregate_and_compute([row]).score for row in rows]))
    return out


def _configured_signature(name: str) -> str:
    """sacreBLEU's signatures of the two configured metrics of ``name`` (the cache key's
    baseline signature): signed after one trivial computation, as sacreBLEU requires."""
    sentence, corpus = _metrics(name)
    sentence.sentence_score("a", ["a"])
    corpus.corpus_score(["a"], [["a"]])
    return f"{sentence.get_signature().format()}; system: {corpus.get_signature().format()}"


# ------------------------------------------------------------------ the cache


def corpus_digest(judged: Judged) -> str:
    """SHA-256 of what the baselines read: the systems in order, their hypotheses and
    each segment's references."""
    corpus = judged.corpus
    h = hashlib.sha256()
    for name, hyps in corpus.systems:
        part = [name, list(hyps), [list(r) for r in corpus.refs_of(name)]]
        h.update(json.dumps(part, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


@dataclass(frozen=True)
class _Scored:
    """One baseline's numbers: segment scores (corpus order), system scores, signature."""

    segment: tuple[float, ...]
    system: tuple[float, ...]
    signature: str


def _cache_path(key: dict[str, Any]) -> Path:
    name = hashlib.sha256(json.dumps(key, sort_keys=True).encode("utf-8")).hexdigest()[:32]
    safe = key["metric"].replace("+", "p")
    return cache_dir() / CACHE_FOLDER / f"{safe}-{name}.bin"


def _read(key: dict[str, Any], n_rows: int, n_systems: int) -> _Scored | None:
    got = read_cache_sections(_cache_path(key), key, 2)
    if got is None:
        return None
    head, (seg, sys_) = got
    if len(seg) != 8 * n_rows or len(sys_) != 8 * n_systems:
        return None
    signature = head.get("signature")
    if not isinstance(signature, str):
        return None
    return _Scored(_floats(seg), _floats(sys_), signature)


def _write(key: dict[str, Any], scored: _Scored) -> None:
    sections = [array("d", scored.segment).tobytes(), array("d", scored.system).tobytes()]
    data = cache_sections(key, sections, signature=scored.signature)
    write_cache_file(_cache_path(key), data)


def _floats(section: bytes) -> tuple[float, ...]:
    values = array("d")
    values.frombytes(section)
    return tuple(values)


# ------------------------------------------------------------------ scoring


def score_baselines(
    judged: Judged,
    names: Sequence[str],
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
) -> list[MetricScores]:
    """The scores of each baseline of ``names`` (in that order): from the cache folder, or
    scored by sacreBLEU over ``workers`` processes (``None``: every CPU) and kept there.

    Raises:
        InputError: a name not in :data:`BASELINES`.
    """
    check_count("workers", workers)
    for name in names:
        if name not in BASELINES:
            raise InputError(f"unknown baseline {name!r}; choose from {', '.join(BASELINES)}")
    corpus = judged.corpus
    sys_names = tuple(n for n, _ in corpus.systems)
    n_rows = sum(len(h) for _, h in corpus.systems)
    digest = corpus_digest(judged) if names else ""
    found: dict[str, _Scored] = {}
    keys: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(names):
        keys[name] = {
            "digest": digest,
            "metric": name,
            "signature": _configured_signature(name),
            "rows": n_rows,
        }
        got = _read(keys[name], n_rows, len(sys_names))
        if got is not None:
            found[name] = got
            if progress is not None:
                progress(1.0, f"{name}: read from the cache")
    missing = [n for n in keys if n not in found]
    if missing:
        for name, scored in _score(judged, missing, workers, progress).items():
            found[name] = scored
            _write(keys[name], scored)
    return [
        MetricScores(
            name,
            "baseline",
            found[name].signature,
            found[name].segment,
            found[name].system,
            system_rule=sl.CORPUS,
            systems=sys_names,
        )  # fmt: skip
        for name in names
    ]


def _score(
    judged: Judged, names: Sequence[str], workers: int | None, progress: Progress | None
) -> dict[str, _Scored]:
    """Score ``names`` with sacreBLEU: the tasks in this process or in ``workers`` processes."""
    corpus = judged.corpus
    hyps: list[str] = []
    refs: list[tuple[str, ...]] = []
    for sys_name, sys_hyps in corpus.systems:
        hyps.extend(sys_hyps)
        refs.extend(tuple(r) for r in corpus.refs_of(sys_name))
    if not hyps:
        raise InputError("no segments to score with the baselines")
    # tasks: chunks of about CHUNK segments, whole reference sets at a time (each set's
    # n-grams extracted once), per baseline
    groups: dict[tuple[str, ...], list[int]] = {}
    for row, r in enumerate(refs):
        groups.setdefault(r, []).append(row)
    chunks: list[list[tuple[str, ...]]] = [[]]
    size = 0
    for r, rows in groups.items():
        if size >= CHUNK:
            chunks.append([])
            size = 0
        chunks[-1].append(r)
        size += len(rows)
    tasks: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    places: list[tuple[tuple[str, ...], list[int]]] = []  # (baselines, the rows of the task)
    for chunk in chunks:
        rows = [row for r in chunk for row in groups[r]]
        ref_ids = [k for k, r in enumerate(chunk) for _ in groups[r]]
        one_ref = all(len(r) == 1 for r in chunk)
        shared = {n for n in names if one_ref and CHAR_PART.get(n) in names}
        for name in names:
            if name not in shared:
                together = (name, *(n for n in shared if CHAR_PART[n] == name))
                tasks.append((_segment_task, (together, [hyps[i] for i in rows], ref_ids, chunk)))
                places.append((together, rows))
    segs = {name: [math.nan] * len(hyps) for name in names}
    stats: dict[str, list[Any]] = {name: [None] * len(hyps) for name in names}
    done: set[int] = set()

    def finished(k: int, value: Any) -> None:
        together, rows = places[k]
        for name, (name_stats, scores) in zip(together, value, strict=True):
            for row, row_stats, score in zip(rows, name_stats, scores, strict=True):
                stats[name][row] = row_stats
                segs[name][row] = score
        done.add(k)
        if progress is not None:
            progress(
                len(done) / len(tasks), f"{', '.join(names)}: {len(done)} of {len(tasks)} parts"
            )

    n_workers = (workers or default_workers()) if len(hyps) >= MIN_PARALLEL_ROWS else 1
    run_tasks(tasks, n_workers, finished, what="scoring")
    out: dict[str, _Scored] = {}
    for name in names:
        sentence, corpus_metric = _metrics(name)
        # a system's score: corpus_score's own last step on its segments' statistics (a
        # segment's first reference repeated in its missing streams changes none of them)
        system: list[float] = []
        at = 0
        for _, part in corpus.systems:
            system.append(
                corpus_metric._aggregate_and_compute(stats[name][at : at + len(part)]).score
            )
            at += len(part)
        # the signatures as sentence_score signs them after the corpus's last segment and
        # corpus_score after the last system (on its last segment: the same references)
        last = refs[-1]
        sentence.sentence_score(hyps[-1], list(last))
        seg_sig = sentence.get_signature().format()
        streams = [[last[i] if i < len(last) else last[0]] for i in range(corpus.n_refs)]
        corpus_metric.corpus_score([hyps[-1]], streams)
        sys_sig = corpus_metric.get_signature().format()
        sig = seg_sig if seg_sig == sys_sig else f"{seg_sig}; system: {sys_sig}"
        out[name] = _Scored(tuple(segs[name]), tuple(system), sig)
    return out
