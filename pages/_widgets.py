"""Display helpers the pages share: the score card, escaped Markdown, shared figures.

Nothing here computes a number: each comes from the library's record and is only
formatted (:mod:`pages._i18n`) and shown.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Hashable
from typing import Any

import plotly.io as pio
import streamlit as st

from meteor.presets import PRESETS
from meteor.types import Alignment, MeteorResult
from meteor.viz import figures
from meteor.viz.style import standalone
from pages._cache import APP_CACHE
from pages._i18n import fig_labels, integer, num, t, ui
from pages._input_messages import safe_name

#: Streamlit's dataframe: pixels per row (header included) and of the border.
ROW_PX, BORDER_PX = 35, 3


def headline(result: MeteorResult) -> dict[str, str]:
    """The record's score, P, R, Fmean, frag, penalty, chunks and matches, formatted,
    by their label key (``t`` gives the label)."""
    s = result.stats
    return {
        "score": num(result.score),
        "precision": num(result.precision),
        "recall": num(result.recall),
        "fmean": num(result.fmean),
        "frag": num(result.frag),
        "penalty": num(result.penalty),
        "chunks": integer(s.chunks),
        # no spaces: "1,234 / 1,234" would be cut off in a score card column of eight
        "matches": f"{integer(s.hyp_word_matches)}/{integer(s.ref_word_matches)}",
    }


#: The longest metric value eight columns show whole at 1366 px ("0.3831"): a longer
#: one ("1,707/1,707", 174 px in a 99-px column) halves the metrics per row.
WIDE_VALUE_CHARS = 6


def score_card(result: MeteorResult, *, compact: bool = False) -> None:
    """:func:`headline`'s numbers as metrics, then the signature (all from the record): 8 a
    row, or 4 when ``compact``, when a value is longer than :data:`WIDE_VALUE_CHARS`
    characters, or when the labels are Russian (longer than the English ones)."""
    items = list(headline(result).items())
    wide = max(len(v) for _, v in items) > WIDE_VALUE_CHARS
    per_row = 4 if compact or ui() != "en" or wide else 8
    for start in range(0, len(items), per_row):
        cols = st.columns(per_row)
        for col, (key, value) in zip(cols, items[start : start + per_row], strict=False):
            # a short label, the rest in its help: "Matches hyp / ref" was cut in 99 px
            col.metric(t(key), value, help=t(f"{key}_help") if key == "matches" else None)
    st.code(result.signature, language=None, wrap_lines=True)
    if any(math.isnan(x) for x in (result.precision, result.recall, result.fmean, result.frag)):
        st.caption(t("nan_note"))


def md_escape(text: str) -> str:
    """User text for ``st.markdown``: every Markdown/HTML special character escaped, and
    GitHub's autolinks broken (``http://``, ``www.``, ``a@b.c`` stay text, never a link)."""
    out = []
    for k, ch in enumerate(text):
        if ch in "\\`*_{}[]()#+-.!|<>~$&@" or (ch == ":" and text.startswith("//", k + 1)):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def md_fill(text: str, **fields: str) -> str:
    """``text`` escaped (:func:`md_escape`), then each mark ``\\0name\\0`` in it replaced by
    the field ``name``, already Markdown (a code span, an escaped message): a translated
    sentence around parts that carry their own Markdown."""
    out = md_escape(text)
    for name, value in fields.items():
        out = out.replace(f"\0{name}\0", value)
    return out


def code_span(text: str) -> str:
    """User text as one Markdown code span: shown verbatim, never a link, image or HTML (the
    fence one backtick longer than ``text``'s longest run, as CommonMark wants; one line)."""
    flat = " ".join(text.splitlines()) or " "
    fence = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat.startswith(("`", " ")) or flat.endswith(("`", " ")) else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def setting_md(label: str) -> str:
    """A setting's label (a scorer's preset name) for Markdown: a registered preset's name
    as it is (``meteor-1.5``, ``nltk+custom``); anything else -- a preset file's label,
    which carries the file's own ``name`` and ``tuned_on.data`` -- as a code span."""
    return label if label.removesuffix("+custom") in PRESETS else code_span(label)


def shared_figure(key: tuple[Hashable, ...], build: Callable[[], Any]) -> Any:
    """``build()``'s figure, kept once for every session per ``key`` and UI language, ready
    to show (:func:`localized`) and never changed afterwards (``st.plotly_chart`` sends a copy)."""
    return APP_CACHE.get(("figure", ui(), *key), lambda: localized(build()))


def localized(fig: Any) -> Any:
    """``fig`` with the interface's number separators: in Russian plotly's own number
    formats (ticks, hovers) use a decimal comma too.  Every figure shown goes through
    here, also those shown with ``st.plotly_chart`` directly (selectable charts)."""
    if ui() == "ru" and fig.layout.separators != ", ":  # a shared figure has them already
        fig.update_layout(separators=", ")
    return fig


def plotly(fig: Any, key: str) -> None:
    """Show a figure (:func:`localized`)."""
    fig = localized(fig)
    st.plotly_chart(fig, key=key, width="stretch", config={"displaylogo": False})


def show_link_view(alignment: Alignment, key: str, **options: Any) -> None:
    """Show an alignment's link view (:func:`meteor.viz.figures.link_view`, labels and numbers
    in the UI language; ``options``: the figure's own, e.g. ``weights``)."""
    plotly(figures.link_view(alignment, labels=fig_labels(), fmt=num, **options), key=key)


def chart_points(fig: Any, key: str) -> list[Any]:
    """Show a figure whose points can be selected (:func:`localized`; a selection reruns
    the page); the selected points that carry ``customdata``."""
    st.plotly_chart(
        localized(fig), key=key, on_select="rerun", selection_mode=("points",), width="stretch"
    )
    return [p for p in selected(key, "points") if p.get("customdata")]


def uploader_css(button: str, limit: str, scope: str = "") -> str:
    """``<style>`` for Streamlit's file drop zones (those below ``scope``, a CSS selector):
    they write "Upload" and "200MB per file" in English whatever the interface, so those are
    hidden and ``button`` and ``limit`` drawn in their place."""
    zone = f'{scope} [data-testid="stFileUploaderDropzone"]'.strip()
    hint = '[data-testid="stFileUploaderDropzoneInstructions"] > div'
    button, limit = (json.dumps(x, ensure_ascii=False) for x in (button, limit))
    return (
        "<style>"
        f'{zone} button [data-testid="stMarkdownContainer"] p {{display: none}}'
        f'{zone} button [data-testid="stMarkdownContainer"]::after {{content: {button}}}'
        f"{zone} {hint} > span {{display: none}}"
        f"{zone} {hint}::after {{content: {limit}; font-size: 0.875rem; opacity: 0.6}}"
        "</style>"
    )


def table(rows: Any, key: str, *, where: Any = st, **kw: Any) -> None:
    """A dataframe in ``where`` (``st`` or a container) as wide as it, without the index."""
    where.dataframe(rows, hide_index=True, width="stretch", key=key, **kw)


def remember(key: str, value: Any) -> None:
    """A button's callback: session state ``key`` becomes ``value`` (what was asked for),
    before the run that follows the click."""
    st.session_state[key] = value


def selected(key: str, what: str) -> list[Any]:
    """The selected ``"rows"`` of a dataframe or ``"points"`` of a chart (by widget key)."""
    ev = st.session_state.get(key) or {}
    return list((ev.get("selection") or {}).get(what) or [])


def with_progress(
    key: tuple[Hashable, ...], compute: Callable[[Callable[[float, str], None]], Any]
) -> Any:
    """``compute(show)``'s result, kept once for every session per ``key`` (:data:`APP_CACHE`),
    with a progress bar while it runs (``show(fraction, message)`` moves it)."""
    bar = st.progress(0.0)

    def show(fraction: float, message: str) -> None:
        bar.progress(min(max(fraction, 0.0), 1.0), text=safe_name(message))

    try:
        return APP_CACHE.get(key, lambda: compute(show))
    finally:
        bar.empty()


def download(where: Any, label: str, data: Any, name: str, mime: str, key: str, **kw: Any) -> None:
    """A download button in ``where`` (``st`` or a container); ``data`` may be a function,
    called only when clicked, and a click does not rerun the page."""
    where.download_button(
        label, data=data, file_name=name, mime=mime, key=key, on_click="ignore", **kw
    )


def download_html(label: str, fig_factory: Callable[[], Any], name: str, key: str) -> None:
    """A download button that builds the figure's self-contained HTML only when clicked
    (in plotly's own template: :func:`meteor.viz.style.standalone`, not the app's theme)."""

    def html() -> str:
        return pio.to_html(
            standalone(fig_factory()), include_plotlyjs=True, full_html=True, validate=False
        )

    download(st, label, html, name, "text/html", key)
