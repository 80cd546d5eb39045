"""Cached scoring for the pages: one ``Meteor`` per setting, analyses shared by sessions.

* :func:`scorer` (``st.cache_resource``: one ``Meteor`` per preset and overrides);
* :func:`analyse`, :func:`explanation_for`, :func:`stage_steps_for`: the library's
  records for a pair, kept once for every session in :data:`pages._cache.APP_CACHE`;
* :func:`ensure_ready` and :func:`warm_up`: resources loaded once per process, with
  a progress bar;
* :func:`shown_errors`: the library's errors become ``st.error`` with its message,
  never a traceback.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import streamlit as st

from meteor import ParamError, ResourceError
from meteor.analysis import compare
from meteor.analysis import steps as walk
from meteor.analysis.explanation import Explanation, explain
from meteor.metric import Meteor
from meteor.params import Params
from meteor.resources import import_nltk
from meteor.scoring import Breakdown
from meteor.types import MeteorResult
from pages._cache import APP_CACHE, load_once
from pages._i18n import t
from pages._widgets import md_escape

if TYPE_CHECKING:
    from pages._settings import Setting

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


# Scorers are per process (st.cache_resource); analyses, explanations and stage
# steps are kept once for all sessions in pages/_cache.py's byte-bounded cache.


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
    over = json.loads(overrides)
    if "modules" in over and not over["modules"]:
        raise ParamError("modules must name at least one stage (e.g. exact)")
    return Meteor(preset, **over)


def _ready_key(m: Meteor) -> tuple[Any, ...]:
    p = m.params
    return (p.lang, p.modules, p.stemmer, p.aligner, p.function_words)


#: Loaded in the background when the server's first session starts (see :func:`warm_up`).
WARM_PRESETS = ("meteor-1.5",)


@st.cache_resource(show_spinner=False)
def warm_up() -> threading.Thread:
    """Once per process: load the default preset's resources (and nltk) in a background thread.

    The first sessions do not each start a load: they wait for this one and show its
    progress (:func:`ensure_ready`).  nltk (imported by near misses for the Porter
    stemmer) takes seconds to import; it is imported here too, off every session.
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

    th = threading.Thread(target=run, name="meteor-warm-up", daemon=True)
    th.start()
    return th


def ensure_ready(m: Meteor) -> None:
    """Load a setting's resources once per process, with a progress bar the first time.

    Sessions that ask while another is loading the same resources wait for that
    load (pages/_cache.py ``load_once``) and show its progress: one build, not one
    per session.
    """
    key = _ready_key(m)
    bar: Any = None

    def show(frac: float, msg: str) -> None:
        nonlocal bar
        if bar is None:
            bar = st.progress(0.0, text=t("loading"))
        bar.progress(min(max(frac, 0.0), 1.0), text=f"{t('loading')} {msg}")

    try:
        load_once(key, m.prepare, show)
    finally:
        if bar is not None:
            bar.empty()


@dataclass(frozen=True)
class Analysis:
    """A pair scored under one setting: the record, its breakdown and sensitivity curves."""

    result: MeteorResult
    params: Params
    breakdown: Breakdown
    curves: tuple[compare.Curve, ...]


@shared_cache
def analyse(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Analysis:
    """Score the pair (cached on hyp, refs and the setting, shared by sessions)."""
    m = scorer(preset, overrides)
    r = m.score(hyp, list(refs))
    return Analysis(
        result=r,
        params=m.params,
        breakdown=m.breakdown(r),
        curves=compare.sensitivity(r.stats, m.params),
    )


@shared_cache
def _explanation(hyp: str, refs: tuple[str, ...], preset: str, overrides: str) -> Explanation:
    m = scorer(preset, overrides)
    return explain(analyse(hyp, refs, preset, overrides).result, m)


def explanation_for(hyp: str, refs: tuple[str, ...], setting: Setting) -> Explanation:
    """Why the pair got its score: the library's :class:`Explanation` (one call, cached).

    Cached apart from :func:`analyse`: its near misses may load other stages'
    resources, and the score card need not wait for them.
    """
    with shown_errors():
        return _explanation(hyp, refs, setting.preset, setting.overrides)


@shared_cache
def _stage_steps(
    hyp: str, refs: tuple[str, ...], preset: str, overrides: str
) -> tuple[walk.StageStep, ...]:
    m = scorer(preset, overrides)
    return walk.stage_steps(analyse(hyp, refs, preset, overrides).result, m)


def stage_steps_for(
    hyp: str, refs: tuple[str, ...], setting: Setting
) -> tuple[walk.StageStep, ...]:
    """Each enabled stage's candidates on the pair (cached like :func:`analyse`; errors shown)."""
    with shown_errors():
        return _stage_steps(hyp, refs, setting.preset, setting.overrides)


def analysis_for(hyp: str, refs: tuple[str, ...], setting: Setting) -> Analysis:
    """Resources loaded (with progress), then the cached analysis; errors shown, page stopped."""
    with shown_errors():
        m = setting.meteor()
        ensure_ready(m)
        return analyse(hyp, refs, setting.preset, setting.overrides)
