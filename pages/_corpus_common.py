"""Shared Streamlit code of the Corpus page (not a page): loading uploads, scoring with a
progress bar, the bootstrap and the paired test (cached in the session per corpus content
and setting), table rows with their Inspect links, and the segment drill-down.  Every
number comes from :mod:`meteor`; this module only arranges and formats.
"""

from __future__ import annotations

import hashlib
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from meteor.analysis.significance import (
    CorpusIntervals,
    PairedBootstrap,
    bootstrap,
    common_segments,
    paired_bootstrap,
)
from meteor.io.lines import InputWarning, detect_format
from meteor.io.read import Corpus, InputError, load_corpus
from meteor.io.record_files import segment_row
from meteor.metric import Meteor
from meteor.presets import PRESETS
from meteor.runners.parallel import score_corpus
from meteor.text.notices import BOM_TEXT, has_bom
from meteor.types import CorpusResult, MeteorResult, Module
from pages._i18n import Translator, freeze, integer, ui
from pages._input_messages import input_message, safe_name
from pages._scoring import SHOWN_ERRORS
from pages._settings import Setting, preset_values
from pages._widgets import headline, show_link_view

#: Resamples for the page's intervals and paired test (sacreBLEU's default).
BOOTSTRAP_SAMPLES = 1000
#: Scored corpora kept per session.
CACHE_ENTRIES = 4

CORPUS_STRINGS = freeze(
    {
        "corpus_scoring": {"en": "Scoring {system}…", "ru": "Оценивание {system}…"},
        "corpus_bad_input": {
            "en": "Cannot read the files: {msg}",
            "ru": "Файлы не читаются: {msg}",
        },
        "corpus_strip_bom": {
            "en": "Drop the byte-order mark (BOM) at the start of a file",
            "ru": "Убрать метку порядка байтов (BOM) в начале файла",
        },
        "corpus_open_inspect": {
            "en": "Open this segment on the Inspect page",
            "ru": "Открыть сегмент на странице «Разбор пары»",
        },
        "corpus_segment_head": {
            "en": "{system} · segment {k} (id {seg_id})",
            "ru": "{system} · сегмент {k} (id {seg_id})",
        },
    }
)
#: A file that starts with a BOM: meteor.text.notices.BOM_TEXT (fields name, option), Russian.
_BOM_RU = {
    "kept": "«{name}» начинается с метки порядка байтов UTF-8 (BOM); как и в Meteor 1.5, она "
    "остаётся в первом слове сегмента 1 (при -norm — отдельным словом) и снижает оценку этого "
    "сегмента; её убирает флажок {option}",
    "dropped": "«{name}» начинается с метки порядка байтов UTF-8 (BOM); она убрана, поэтому "
    "сегмент 1 может получить оценку выше, чем в Meteor 1.5, где она остаётся в первом слове "
    "(пресеты meteor-1.5 её оставляют)",
}
_BOM_STRINGS = {f"corpus_bom_{k}": {"en": en, "ru": _BOM_RU[k]} for k, en in BOM_TEXT.items()}
t = Translator(CORPUS_STRINGS, freeze(_BOM_STRINGS))


# -- input -----------------------------------------------------------------------------
def load_uploads(
    hyp_files: Sequence[Any], ref_files: Sequence[Any], *, jar_bytes: bool = False
) -> Corpus | None:
    """Uploaded files → a checked :class:`Corpus`; ``None`` after showing the reason.

    ``jar_bytes``: the settings read text as the Meteor 1.5 jar does
    (:func:`meteor.metric.jar_text`): a plain-text file's UTF-8 byte-order mark then stays
    in segment 1's first word, as the jar keeps it, unless the user ticks the checkbox
    shown for such a file; the other presets drop it.  Each such file gets a notice.
    """
    with_bom = [
        f.name for f in (*hyp_files, *ref_files)
        if has_bom(f.getvalue()) and detect_format(f.name) == "text"
    ]  # fmt: skip
    keep_bom = False
    if with_bom and jar_bytes:
        keep_bom = not st.checkbox(t("corpus_strip_bom"), key="corpus_strip_bom")
    try:
        corpus, notices = _load(
            tuple((f.name, f.getvalue()) for f in hyp_files),
            tuple((f.name, f.getvalue()) for f in ref_files),
            keep_bom,
        )
    except InputError as exc:
        # in the interface's language; file names are user text (escaped)
        st.error(t("corpus_bad_input", msg=input_message(exc)))
        return None
    for notice in notices:  # how the readers read the files (a skipped summary line…)
        st.warning(input_message(notice))
    option = f"'{t('corpus_strip_bom')}'" if ui() != "ru" else f"«{t('corpus_strip_bom')}»"
    for name in with_bom:
        key = "corpus_bom_kept" if keep_bom else "corpus_bom_dropped"
        st.warning(safe_name(t(key, name=name, option=option)))
    return corpus


@st.cache_data(max_entries=8, show_spinner=False)
def _load(
    hyp: tuple[tuple[str, bytes], ...], ref: tuple[tuple[str, bytes], ...], keep_bom: bool = False
) -> tuple[Corpus, tuple[InputWarning, ...]]:
    """The corpus and the readers' :class:`InputWarning` notices (each once), kept with the
    corpus so that every rerun using the cached corpus shows them again."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InputWarning)
        corpus = load_corpus(hyp, ref, keep_bom=keep_bom)
    notices: dict[str, InputWarning] = {}
    for w in caught:
        if isinstance(w.message, InputWarning):
            notices.setdefault(str(w.message), w.message)
        else:  # not the readers' business: passed on as raised
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return corpus, tuple(notices.values())


def corpus_key(corpus: Corpus) -> str:
    """A content digest of the corpus (systems, references, ids) for session caches,
    remembered for the corpus object last asked about (a rerun asks several times)."""
    last = st.session_state.get("_corpus_key_last")
    if last is not None and last[0] is corpus:
        return str(last[1])
    h = hashlib.sha256()
    for k, (name, hyps) in enumerate(corpus.systems):
        h.update(b"\x01" + name.encode())
        for x in hyps:
            h.update(b"\x02" + x.encode())
        if corpus.coverage:  # which segments the system has
            h.update(b"\x05" + ",".join(map(str, corpus.coverage[k])).encode())
    for refs in corpus.refs:
        h.update(b"\x03")
        for r in refs:
            h.update(b"\x04" + r.encode())
    for seg_id in corpus.ids:
        h.update(b"\x06" + seg_id.encode())
    key = h.hexdigest()[:24]
    st.session_state["_corpus_key_last"] = (corpus, key)
    return key


# -- scoring and statistics (session caches) -------------------------------------------
def _cache(name: str) -> dict[Any, Any]:
    store: dict[Any, Any] = st.session_state.setdefault(f"_corpus_{name}", {})
    while len(store) > CACHE_ENTRIES:
        store.pop(next(iter(store)))
    return store


_WORKER_POOL = threading.Semaphore(1)


def compact_segments(
    result: CorpusResult, hyps: Sequence[str], refs: Sequence[Sequence[str]], texts: dict[str, str]
) -> int:
    """Share the strings a scored corpus keeps; returns how many string objects were dropped.

    The records come back unpickled from the worker processes with their own copies of
    every token's text, hypothesis, reference and signature.  Each is replaced in place
    by one shared, equal string (``texts``: shared by every system of the corpus): the
    records are frozen, but these are the session's own fresh copies, and every value
    stays equal.
    """
    dropped = 0
    set_attr = object.__setattr__
    signature = result.signature
    for k, seg in enumerate(result.segments):
        for tok in (*seg.alignment.hyp, *seg.alignment.ref):
            shared = texts.setdefault(tok.text, tok.text)
            if shared is not tok.text:
                set_attr(tok, "text", shared)
                dropped += 1
        if seg.hyp is not hyps[k] and seg.hyp == hyps[k]:
            set_attr(seg, "hyp", hyps[k])
            dropped += 1
        kept = tuple(refs[k])
        if seg.refs is not refs[k] and seg.refs == kept:
            set_attr(seg, "refs", refs[k] if isinstance(refs[k], tuple) else kept)
            dropped += len(kept)
        if seg.signature is not signature and seg.signature == signature:
            set_attr(seg, "signature", signature)
            dropped += 1
    return dropped


def scored(corpus: Corpus, setting: Setting, meteor: Meteor) -> dict[str, CorpusResult]:
    """Every system scored under the setting (progress bar the first time)."""
    key = (corpus_key(corpus), setting)
    store = _cache("results")
    if key in store:
        return store[key]  # type: ignore[no-any-return]
    out: dict[str, CorpusResult] = {}
    bar = st.progress(0.0)
    # one pool of worker processes per server: meanwhile the other sessions score in their
    # own thread (a pool per session would load every resource again per session)
    pool_free = _WORKER_POOL.acquire(blocking=False)
    texts: dict[str, str] = {}  # one string per distinct token text (compact_segments)
    try:
        for name, hyps in corpus.systems:
            label = t("corpus_scoring", system=safe_name(name))
            bar.progress(0.0, text=label)

            def report(frac: float, msg: str, label: str = label) -> None:
                bar.progress(min(max(frac, 0.0), 1.0), text=f"{label} {msg}")

            refs = corpus.refs_of(name)
            out[name] = score_corpus(
                meteor, hyps, refs, progress=report, workers=None if pool_free else 1
            )
            compact_segments(out[name], hyps, refs, texts)
    except SHOWN_ERRORS as exc:
        bar.empty()
        st.error(t("error", msg=safe_name(str(exc))))
        st.stop()
    finally:
        if pool_free:
            _WORKER_POOL.release()
    bar.empty()
    keep_results(store, key, out)
    return out


#: Segment records a session keeps scored, over every setting it has scored (100,000
#: segments: about 0.6 GB of records).
MAX_KEPT_SEGMENTS = 100_000


def _segments(entry: dict[str, CorpusResult]) -> int:
    return sum(len(r.segments) for r in entry.values())


def keep_results(
    store: dict[Any, Any],
    key: Any,
    value: Any,
    size: Callable[[Any], int] = _segments,
    limit: int = MAX_KEPT_SEGMENTS,
) -> None:
    """Store ``value`` under ``key``, first dropping the oldest entries until the
    records kept (``size`` of each entry: segments, table rows) are within ``limit``;
    the newest entry is always kept."""
    store.pop(key, None)
    total = size(value) + sum(size(v) for v in store.values())
    while store and total > limit:
        total -= size(store.pop(next(iter(store))))
    store[key] = value


def get_intervals(
    corpus: Corpus, setting: Setting, meteor: Meteor, results: dict[str, CorpusResult]
) -> dict[str, CorpusIntervals]:
    """95 % bootstrap intervals of every system (seeded, cached)."""
    key = (corpus_key(corpus), setting)
    store = _cache("intervals")
    if key not in store:
        store[key] = {
            name: bootstrap(res, meteor.params, n_samples=BOOTSTRAP_SAMPLES)
            for name, res in results.items()
        }
    return store[key]  # type: ignore[no-any-return]


def get_paired(
    corpus: Corpus,
    setting: Setting,
    meteor: Meteor,
    results: dict[str, CorpusResult],
    a: str,
    b: str,
) -> PairedBootstrap | None:
    """Paired bootstrap of system ``b`` against baseline ``a`` on the segment ids both
    have (seeded, cached); ``None`` when they have no segment in common."""
    key = (corpus_key(corpus), setting, a, b)
    store = _cache("paired")
    if key not in store:
        if not common_segments(corpus.ids_of(a), corpus.ids_of(b))[0]:
            return None
        store[key] = paired_bootstrap(
            results[a],
            results[b],
            meteor.params,
            names=(a, b),
            n_samples=BOOTSTRAP_SAMPLES,
            ids=(corpus.ids_of(a), corpus.ids_of(b)),
        )
    return store[key]  # type: ignore[no-any-return]


def common_results(
    corpus: Corpus, meteor: Meteor, results: dict[str, CorpusResult], a: str, b: str
) -> tuple[CorpusResult, CorpusResult, tuple[int, ...], tuple[int, ...]]:
    """A's and B's records on the segment ids both have, and their positions in A and B.

    When both systems cover the same segments, the results themselves.
    """
    ids_a, ids_b = corpus.ids_of(a), corpus.ids_of(b)
    if ids_a == ids_b:
        every = tuple(range(len(ids_a)))
        return results[a], results[b], every, every
    pos_a, pos_b = common_segments(ids_a, ids_b)
    ra = meteor.combine(results[a].segments[i] for i in pos_a)
    rb = meteor.combine(results[b].segments[j] for j in pos_b)
    return ra, rb, pos_a, pos_b


# -- the segment table -----------------------------------------------------------------
#: Sidebar values a corpus row's Inspect link carries when they differ from the preset:
#: the parameters, the stage list (in its order) and the stage weights.
LINK_KEYS = (
    "alpha", "beta", "gamma", "delta", "aligner", "beam", "stemmer", "modules",
    *(f"w_{m.value}" for m in Module),
)  # fmt: skip


def inspect_url(hyp: str, refs: Sequence[str], preset: str | None = None) -> str:
    """``/?hyp=…&ref=…&lang=…&preset=…``, the Inspect page's URL (the default page, at ``/``):
    under ``preset`` as defined, or (None) under the sidebar's setting (its preset and the
    parameters changed from it).  A non-English interface travels too (``ui=RU``)."""
    ss = st.session_state
    query: dict[str, Any] = {"hyp": hyp, "ref": "\n".join(refs), "lang": ss.get("lang", "en")}
    if ui() != "en":
        query["ui"] = ui().upper()
    side = ss.get("preset")
    if preset is not None and preset in PRESETS:
        query["lang"] = PRESETS[preset].params.lang
        query["preset"] = preset
    elif side in PRESETS:
        query["preset"] = side
        base = preset_values(side)
        for k in LINK_KEYS:
            if k in ss and k in base and ss[k] != base[k]:
                query[k] = ss[k]
    return "/?" + urlencode(query, doseq=True)


def inspect_link(result: MeteorResult) -> str:
    """The Inspect page's URL for a scored pair under the sidebar's setting."""
    return inspect_url(result.hyp, result.refs)


def cached_rows(
    corpus: Corpus, setting: Setting, system: str, result: CorpusResult
) -> list[dict[str, Any]]:
    """The segment table's rows, kept per (corpus, setting, system): sorting, filtering and
    clicking rerun the page, and a large corpus has 100,000 rows to rebuild."""
    ss = st.session_state
    links = (ui(), ss.get("lang"), ss.get("preset"), tuple(repr(ss.get(k)) for k in LINK_KEYS))
    key = (corpus_key(corpus), setting, system, links)  # the rows hold Inspect links
    store = _cache("rows")
    if key not in store:
        ids = corpus.ids_of(system)
        rows = [
            segment_row(seg, k + 1, system=system, seg_id=ids[k]) | {"inspect": inspect_link(seg)}
            for k, seg in enumerate(result.segments)
        ]
        keep_results(store, key, rows, len)
    kept: list[dict[str, Any]] = store[key]
    return kept


SORT_KEYS = ("segment", "score", "precision", "recall", "frag", "ref_len", "hyp_len")


def filter_sort(
    rows: list[dict[str, Any]],
    *,
    sort_by: str = "segment",
    descending: bool = False,
    score_range: tuple[float, float] = (0.0, 1.0),
    query: str = "",
) -> list[dict[str, Any]]:
    """Rows with a score in ``score_range`` and ``query`` in the hypothesis or reference,
    sorted by ``sort_by`` (undefined values last, ties by segment number)."""
    lo, hi = score_range
    q = query.strip().casefold()
    kept = [
        r
        for r in rows
        if lo <= r["score"] <= hi
        and (not q or q in r["hyp"].casefold() or q in r["ref"].casefold())
    ]
    defined = [r for r in kept if r[sort_by] is not None]
    undefined = [r for r in kept if r[sort_by] is None]
    defined.sort(key=lambda r: r["segment"])
    defined.sort(key=lambda r: r[sort_by], reverse=descending)  # stable: ties keep their order
    return defined + undefined


def percent(share: float) -> str:
    """A share (0–1) as a percentage with one decimal, in the UI language's notation."""
    text = f"{share:.1%}"
    return text.replace(".", ",") if ui() == "ru" else text


# -- drill-down ------------------------------------------------------------------------
def show_segment(
    corpus: Corpus, results: dict[str, CorpusResult], system: str, pos: int, key: str
) -> None:
    """Segment ``pos`` (0-based) of ``system``: its numbers, the link view of its alignment,
    the Inspect link."""
    result = results[system].segments[pos]
    seg_id = corpus.ids_of(system)[pos]
    head = t(
        "corpus_segment_head",
        system=safe_name(system),
        k=integer(pos + 1),
        seg_id=safe_name(seg_id),
    )
    st.markdown(f"**{head}**")
    head = headline(result)
    keys = ("score", "precision", "recall", "frag", "chunks")
    for col, k in zip(st.columns(len(keys)), keys, strict=True):
        col.metric(t(k), head[k])
    show_link_view(result.alignment, f"{key}_links")
    st.link_button(t("corpus_open_inspect"), inspect_link(result), icon="🔍")
