"""Cached scoring for the pages: one ``Meteor`` per setting (:func:`scorer`), the library's
records for a pair kept once for every session in :data:`pages._cache.APP_CACHE`, resources
loaded once per process with a progress bar, and the library's errors shown as one
``st.error`` line (:func:`shown_errors`), never a traceback.
"""

from __future__ import annotations

import functools
import gc
import json
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import streamlit as st

from meteor import ParamError, ResourceError
from meteor.analysis.explain import walkthrough as walk
from meteor.analysis.explain.record import Explanation, explain
from meteor.memo import Sized
from meteor.metric import Meteor
from meteor.presets import PRESETS
from meteor.resources import import_nltk
from meteor.types import MeteorResult
from pages._cache import APP_CACHE, load_once
from pages._i18n import t
from pages._offload import (
    OFFLOADER,
    Analysis,
    analyse_here,
    explain_pair,
    is_long,
    make_scorer,
    score_pair,
)
from pages._offload import warm as warm_worker
from pages._widgets import md_escape

T = TypeVar("T")

SHOWN_ERRORS = (ParamError, ResourceError, ValueError, TypeError, ImportError)


@contextmanager
def shown_errors() -> Iterator[None]:
    """Turn the library's errors into ``st.error`` with its message, then stop the page."""
    try:
        yield
    except SHOWN_ERRORS as exc:
        st.error(t("error", msg=md_escape(str(exc))))  # messages may quote input
        st.stop()


def shared_cache(fn: Callable[..., T]) -> Callable[..., T]:
    """Cache ``fn``'s (immutable) value in :data:`APP_CACHE`, keyed on its name and args."""
    name = fn.__qualname__

    @functools.wraps(fn)
    def cached(*args: Any) -> T:
        return APP_CACHE.get((name, *args), lambda: fn(*args))

    return cached


@st.cache_resource(max_entries=64, show_spinner=False)
def scorer(preset: str, overrides: str) -> Meteor:
    """One ``Meteor`` per (preset, overrides); ParamError names a bad field."""
    return make_scorer(preset, overrides)


@dataclass(frozen=True)
class Setting:
    """A preset plus parameter overrides (JSON, so it hashes and caches)."""

    preset: str
    overrides: str  # JSON object of Params fields

    def meteor(self) -> Meteor:
        return scorer(self.preset, self.overrides)

    def modules(self) -> list[str]:
        """The stages in order (the overrides', else the preset's), without building a scorer."""
        over = json.loads(self.overrides)
        return list(over.get("modules", [m.value for m in PRESETS[self.preset].params.modules]))


def _ready_key(m: Meteor) -> tuple[Any, ...]:
    p = m.params
    return (p.lang, p.modules, p.stemmer, p.aligner, p.function_words)


#: Loaded in the background when the server's first session starts (see :func:`warm_up`).
WARM_PRESETS = ("meteor-1.5",)
#: Seconds a busy thread keeps the interpreter before another may take it (Python's 0.005).
SWITCH_INTERVAL = 0.001


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Once per process: load the default preset's resources and nltk (seconds to import,
    used by near misses) in a background thread, then start the long-pair worker
    (pages/_offload.py) loading the same.  The first sessions wait for this load and show
    its progress (:func:`ensure_ready`).

    It also shortens the interpreter's switch interval to :data:`SWITCH_INTERVAL`: sessions
    are threads of one process, and a reply needs many hand-overs of the interpreter
    (bench/bench_load_ws.py and docs/app-load.md measure the gain).
    """

    def run() -> None:
        for name in WARM_PRESETS:
            try:
                m = scorer(name, "{}")
                load_once(_ready_key(m), m.prepare)
            except Exception:  # noqa: BLE001 -- a session that needs it reports the error
                return
        try:
            import_nltk()
        except Exception:  # noqa: BLE001
            return
        # the resources just loaded live as long as the process: out of the collector's sight
        gc.collect()
        gc.freeze()
        if OFFLOADER.enabled:  # the long-pair worker, ready before the first long pair
            for name in WARM_PRESETS:
                try:
                    OFFLOADER.run(warm_worker, name)
                except Exception:  # noqa: BLE001 -- the pair that needs it reports the error
                    return

    sys.setswitchinterval(SWITCH_INTERVAL)
    th = threading.Thread(target=run, name="meteor-warm-up", daemon=True)
    th.start()
    return th


def ensure_ready(m: Meteor) -> None:
    """Load a setting's resources once per process, with a progress bar the first time
    (sessions asking meanwhile wait for that load and show its progress: ``load_once``)."""
    key = _ready_key(m)
    bar: Any = None

    def show(frac: float, msg: str) -> None:
        nonlocal bar
        if bar is None:
            bar = st.progress(0.0, text=t("loading"))
        bar.progress(frac, text=f"{t('loading')} {msg}")  # load_once reports within 0..1

    try:
        load_once(key, m.prepare, show)
    finally:
        if bar is not None:
            bar.empty()


def _offloaded(kind: str, job: Callable[..., Sized[T]], *args: Any) -> T:
    """A long pair's record made in the worker process, kept for every session with the
    size the worker measured."""
    sized = APP_CACHE.get(("offloaded", *args, kind), lambda: OFFLOADER.run(job, *args))
    return sized.value


def _offload(hyp: str, refs: tuple[str, ...]) -> bool:
    return OFFLOADER.enabled and is_long(hyp, refs)


@shared_cache
def _analyse_here(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Analysis:
    return analyse_here(scorer(preset, overrides), hyp, refs)


def analyse(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Analysis:
    """Score the pair (cached on hyp, refs and the setting, shared by sessions); a long pair
    in the worker process."""
    if _offload(hyp, refs):
        return _offloaded("analysis", score_pair, hyp, refs, preset, overrides)
    return _analyse_here(hyp, refs, preset, overrides)


@shared_cache
def _of_record(
    job: Callable[[MeteorResult, Meteor], T],
    hyp: str,
    refs: tuple[str, ...],
    preset: str,
    overrides: str,
) -> T:
    """``job(record, scorer)`` on the pair's cached record (:func:`analyse`), kept per ``job``."""
    return job(analyse(hyp, refs, preset, overrides).result, scorer(preset, overrides))


def explanation_for(hyp: str, refs: tuple[str, ...], setting: Setting) -> Explanation:
    """Why the pair got its score: the library's :class:`Explanation` (one call, cached apart
    from :func:`analyse`: its near misses may load other stages' resources)."""
    args = (hyp, refs, setting.preset, setting.overrides)
    with shown_errors():
        if _offload(hyp, refs):
            return _offloaded("explanation", explain_pair, *args)
        return _of_record(explain, *args)


def stage_steps_for(
    hyp: str, refs: tuple[str, ...], setting: Setting
) -> tuple[walk.StageStep, ...]:
    """Each enabled stage's candidates on the pair (cached like :func:`analyse`; errors shown)."""
    with shown_errors():
        return _of_record(walk.stage_steps, hyp, refs, setting.preset, setting.overrides)


def analysis_for(hyp: str, refs: tuple[str, ...], setting: Setting) -> Analysis:
    """Resources loaded (with progress), then the cached analysis; errors shown, page stopped."""
    with shown_errors():
        m = setting.meteor()
        ensure_ready(m)
        return analyse(hyp, refs, setting.preset, setting.overrides)
