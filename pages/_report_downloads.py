"""The corpus report's figures as SVG and PDF downloads on the Corpus page (not a page).

A button draws every figure of the report (:func:`meteor.viz.report_figures.report_figures`)
in one session of the machine's Chromium (:func:`meteor.viz.figure_files.figure_images`),
kept for every session per report and language; then each figure has an SVG and a PDF
button.  Without Chromium a one-line notice stands in their place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from meteor.analysis.corpus_report import CorpusReport
from meteor.errors import ResourceError
from meteor.viz.figure_files import check_engine, figure_images
from meteor.viz.report_figures import report_figures
from meteor.viz.style import escape
from pages._cache import APP_CACHE
from pages._corpus_common import safe_name
from pages._i18n import integer, t
from pages._widgets import download

#: format → MIME type of the download
IMAGE_TYPES = {"svg": "image/svg+xml", "pdf": "application/pdf"}


def bucket_title(name: str) -> str:
    """A bucketing's name in the interface language (``label:COLUMN``: by that column)."""
    if name.startswith("label:"):
        return t("rp_b_label", column=name.removeprefix("label:"))
    return t(f"rp_b_{name}")


def figure_titles(rep: CorpusReport) -> dict[str, str]:
    """Each figure id of the report → its title in the interface language (plain text)."""
    titles = {"ranking": t("rf_ranking"), "pvalues": t("rf_pvalues"),
              "stages": t("rf_stages"), "frag": t("rf_frag")}  # fmt: skip
    for k, table in enumerate(rep.buckets):
        titles[f"bucket-{k}"] = bucket_title(table.name)
    return titles


def figure_downloads(rep: CorpusReport, key: tuple[Any, ...], labels: Mapping[str, str]) -> None:
    """The SVG and PDF buttons of every figure (drawn on request), or the notice."""
    st.markdown(f"**{t('rp_fig_head')}**")
    try:
        check_engine()
    except ResourceError:
        st.info(t("rp_fig_no_engine"))
        return
    cache_key = ("report_figure_images", tuple(sorted(labels.items())), *key)
    wanted = st.session_state.get("_rp_figs_wanted") == cache_key or cache_key in APP_CACHE
    titles = figure_titles(rep)
    figs = report_figures(rep, labels)
    for name, fig in figs:  # the bucket charts titled in the interface language
        if name.startswith("bucket-"):
            fig.update_layout(title={"text": escape(titles[name])})
    if not wanted:
        if not st.button(t("rp_fig_make", n=integer(len(figs))), key="rp_img_make",
                         help=t("rp_fig_make_help")):  # fmt: skip
            return
        st.session_state["_rp_figs_wanted"] = cache_key
    try:
        with st.spinner(t("rp_fig_drawing")):
            drawn = APP_CACHE.get(cache_key, lambda: figure_images(figs))
    except (ResourceError, ValueError) as exc:
        st.session_state.pop("_rp_figs_wanted", None)
        st.error(t("rp_fig_failed", msg=safe_name(str(exc))))
        return
    for name, _fig in figs:
        row = st.container(horizontal=True, vertical_alignment="center", key=f"rp_img_{name}")
        row.caption(safe_name(titles.get(name, name)))
        for fmt, mime in IMAGE_TYPES.items():
            download(
                row,
                fmt.upper(),
                drawn[(name, fmt)],
                f"meteor-{name}.{fmt}",
                mime,
                f"rp_img_{name}_{fmt}",
            )
