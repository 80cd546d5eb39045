"""The pair inputs (hypothesis and references) bound to the URL, and the examples.

Shared by Inspect, Compare and Learn (:func:`require_pair`); :func:`check_pair`
refuses what the interactive pages cannot score, with a message.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from meteor.io.read import split_lines
from pages._i18n import integer, t, ui
from pages._settings import on_lang_change, reset_params

#: Inputs longer than this are refused by the interactive pages (the CLI and Corpus take more).
MAX_UI_CHARS = 10_000
MAX_UI_REFS = 10


@dataclass(frozen=True)
class Example:
    key: str
    hyp: str
    ref: str
    lang: str = "en"
    note_en: str = ""
    note_ru: str = ""

    def title(self) -> str:
        return (self.note_ru if ui() == "ru" and self.note_ru else self.note_en) or self.key


#: The documentation's two cases (two chunks swapped; every word alone) on Russian sentences:
#: the Learn page's worked examples under the Russian interface (scored by the engine).
EXAMPLES_RU: tuple[tuple[str, str], ...] = (
    ("Под звёздным небом мы танцевали с радостью", "Мы танцевали с радостью под звёздным небом"),
    ("Танцевали мы с под радостью небом звёздным", "Мы танцевали с радостью под звёздным небом"),
)

EXAMPLES: tuple[Example, ...] = (
    Example(
        "starry",
        "Under the starry night, we danced with glee.",
        "We danced with joy under the starry night.",
        note_en="Doc page, example 1: two chunks swapped",
        note_ru="Документация, пример 1: два фрагмента поменялись местами",
    ),
    Example(
        "scrambled",
        "Danced we with under joy the night starry.",
        "We danced with joy under the starry night.",
        note_en="Doc page, example 2: every word in its own chunk",
        note_ru="Документация, пример 2: каждое слово — отдельный фрагмент",
    ),
    Example(
        "fox",
        "A fast brown fox leapt over a lazy dog",
        "The quick brown fox jumps over the lazy dog",
        note_en="Synonyms: fast/quick, leapt/jumps",
        note_ru="Синонимы: fast/quick, leapt/jumps",
    ),
    Example(
        "fox_ru",
        "Быстрая коричневая лиса прыгнула на грустную собаку",
        "Стремительная рыжая лисичка скакнула на унылую собачку",
        lang="ru",
        note_en="Russian: few exact matches, stems and synonyms",
        note_ru="Русский: мало точных совпадений, основы и синонимы",
    ),
    Example(
        "president",
        "the president spoke to the audience",
        "the president then spoke to the audience",
        note_en="Doc page: one missing word, two chunks",
        note_ru="Документация: пропущено одно слово, два фрагмента",
    ),
    Example(
        "cat_mat",
        "the cat was sat on the mat",
        "the cat sat on the mat",
        note_en="One extra word (house-style example)",
        note_ru="Одно лишнее слово",
    ),
    Example(
        "stems",
        "The committee members were discussing the proposals quickly",
        "The committee member discussed the proposal in a quick way",
        note_en="Stems: members/member, discussing/discussed, proposals/proposal",
        note_ru="Основы: members/member, discussing/discussed, proposals/proposal",
    ),
    Example(
        "multi",
        "The cat is on the mat",
        "There is a cat on the mat\nThe cat sits on the mat\nA cat was lying on the rug",
        note_en="Three references: which one wins?",
        note_ru="Три эталона: какой победит?",
    ),
    Example(
        "ru_stems",
        "Кошка сидела на ковре у окна",
        "Кошка сидит на коврике у окошка",
        lang="ru",
        note_en="Russian stems: сидела/сидит",
        note_ru="Русские основы: сидела/сидит",
    ),
)


def _load_example() -> None:
    ex = next((e for e in EXAMPLES if e.key == st.session_state.get("example")), None)
    if ex is None:
        return
    load_pair(ex.hyp, ex.ref, ex.lang)
    st.session_state["example"] = None


def load_pair(hyp: str, ref: str, lang: str | None = None, preset: str | None = None) -> None:
    """Callback helper: put a pair (and optionally a preset) into the shared widgets."""
    st.session_state["hyp"] = hyp
    st.session_state["ref"] = ref
    if lang is not None and st.session_state.get("lang", "en") != lang:
        st.session_state["lang"] = lang
        on_lang_change()
    if preset is not None:
        st.session_state["preset"] = preset
        reset_params()


#: The pair each language shows when nothing is typed: its first example.
LANGUAGE_EXAMPLE: dict[str, Example] = {e.lang: e for e in reversed(EXAMPLES)}


def _example_picker() -> None:
    titles = {e.key: e.title() for e in EXAMPLES}  # fixed now: AppTest formats later
    st.selectbox(
        t("examples"),
        list(titles),
        index=None,
        placeholder=t("examples_ph"),
        format_func=titles.__getitem__,
        key="example",
        on_change=_load_example,
    )


def _language_example() -> None:
    """Untouched, the pair is the example of the language of the texts: when the pair is
    still another language's untouched example (or the boxes' default, the first English
    example, on a first load whose URL has no pair), the language's own is written in.  A
    pair anybody typed is never one of those, so an ordinary rerun writes nothing."""
    ss = st.session_state
    own = LANGUAGE_EXAMPLE.get(ss.get("lang", "en"))
    if own is None:
        return
    pair = (ss.get("hyp"), ss.get("ref"))
    if pair == (None, None):  # first run: the URL's pair, else the boxes' default
        if "hyp" in st.query_params or "ref" in st.query_params:
            return
        pair = (EXAMPLES[0].hyp, EXAMPLES[0].ref)
    untouched = {(e.hyp, e.ref) for e in LANGUAGE_EXAMPLE.values()}
    if pair in untouched and pair != (own.hyp, own.ref):
        ss["hyp"], ss["ref"] = own.hyp, own.ref


def _reassert_on_page_switch() -> None:
    """On another page than the last run's, write back the pair Streamlit holds."""
    ctx = get_script_run_ctx()
    page = ctx.page_script_hash if ctx is not None else ""  # the running page ("": no run)
    if st.session_state.get("_pair_page") != page:
        for key in ("hyp", "ref"):
            if st.session_state.get(key) is not None:
                st.session_state[key] = st.session_state[key]
    st.session_state["_pair_page"] = page


def _pair_boxes() -> tuple[str, str]:
    """The two text boxes, bound to the URL and kept for the session."""
    # The boxes' default is the first example, the widgets' own fixed default (never a
    # value written into session state): on Back/Forward Streamlit resets a bound widget
    # whose parameter the restored URL lacks to its default.  The widget keys are written
    # only when a box mounts on another page (:func:`_reassert_on_page_switch`) or holds
    # another language's untouched example (:func:`_language_example`), never on an
    # ordinary rerun: a write pushes the value to the browser, and a push from a rerun in
    # flight would overwrite what the user typed meanwhile.  (Streamlit's warning about a
    # written key with a default is off in .streamlit/config.toml: here it is by design.)
    c1, c2 = st.columns(2)
    hyp, ref = (
        col.text_area(
            t(key),
            default,
            height=90,
            key=key,
            bind="query-params",
            persist_state="session",
            help=t(f"{key}_help"),
        )
        for col, key, default in ((c1, "hyp", EXAMPLES[0].hyp), (c2, "ref", EXAMPLES[0].ref))
    )
    return hyp, ref


def require_pair(*, examples: bool = True) -> tuple[str, tuple[str, ...]]:
    """Hypothesis and references (bound to the URL); without a usable pair the page stops
    there, its message shown (:func:`check_pair`)."""
    if examples:
        _example_picker()
    _language_example()
    _reassert_on_page_switch()
    pair = check_pair(*_pair_boxes())
    if pair is None:
        st.stop()
    return pair


def check_pair(hyp: str | None, ref: str | None) -> tuple[str, tuple[str, ...]] | None:
    """Validate the raw inputs, showing a message (never an exception) when they can't be scored."""
    hyp = hyp or ""
    ref = ref or ""

    def too_long(what: str, text: str, limit: int) -> bool:
        """Say so when ``text`` is longer than ``limit`` (the message names MAX_UI_CHARS)."""
        if len(text) > limit:
            st.warning(
                t("too_long", what=t(what), n=integer(len(text)), limit=integer(MAX_UI_CHARS))
            )
        return len(text) > limit

    if too_long("what_hyp", hyp, MAX_UI_CHARS) or too_long(
        "what_ref", ref, MAX_UI_CHARS * MAX_UI_REFS
    ):
        return None
    # one reference per line, by the library's line-break rule (the CLI's); blank lines skipped
    refs = tuple(line for line in split_lines(ref, limit=len(ref) + 1) if line.strip())
    if not hyp.strip():
        st.info(t("need_hyp"))
        return None
    if not refs:
        st.info(t("need_ref"))
        return None
    if len(refs) > MAX_UI_REFS:
        st.warning(t("too_many_refs", n=integer(len(refs)), limit=integer(MAX_UI_REFS)))
        return None
    if any(too_long("what_ref", r, MAX_UI_CHARS) for r in refs):
        return None
    return hyp, refs
