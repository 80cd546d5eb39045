"""Compare's "Why do A and B differ?": the path from A to B and each group's share.

One library call (:func:`meteor.reconcile`, kept for every session), then the record's
fields: both scores, the path as a waterfall, the fair shares, each step's words (as text:
they quote the pair) and the link view after the chosen step.
"""

from __future__ import annotations

from functools import cache

import streamlit as st

import meteor
from meteor.analysis.reconcile import Reconciliation
from meteor.analysis.reconcile_reasons import ALIGNERS, Formatter, Reason
from meteor.module_registry import Module
from meteor.viz import figures
from pages._i18n import STRINGS, integer, num, signed, t, ui
from pages._offload import is_long
from pages._scoring import SHOWN_ERRORS, Setting, shared_cache
from pages._strings_reconcile import REASONS_RU
from pages._widgets import md_escape, plotly, setting_md, show_link_view, table

#: The groups a reconciliation may name (meteor.analysis.reconcile_groups), translated here.
GROUP_KEYS = (
    "text",
    "function_words",
    "stages",
    "resources",
    "weights",
    "aligner",
    "parameters",
    "rules",
    "aggregation",
)


@shared_cache
def _reconcile(
    hyp: str, refs: tuple[str, ...], preset: str, overrides: str, b: str
) -> Reconciliation:
    """The library's record for A (the sidebar's setting) against preset ``b`` (cached)."""
    return meteor.reconcile(hyp, list(refs), Setting(preset, overrides).meteor(), b)


class _Russian(Formatter):
    """The library's reasons in Russian: decimal comma, minus sign, three plural forms."""

    undefined = "не определено"

    def plural(self, n: int, forms: list[str]) -> str:
        if len(forms) < 3:
            return forms[-1]
        if n % 10 == 1 and n % 100 != 11:
            return forms[0]
        return forms[1] if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else forms[2]

    def number(self, text: str) -> str:
        return text.replace(".", ",").replace("-", "−")


@cache
def _russian() -> _Russian:
    """The Russian templates: :data:`REASONS_RU`, and the interface's own names of the
    stages, groups and aligners."""
    names = {f"stage.{m.value}": STRINGS[m.value]["ru"] for m in Module}
    names |= {f"group.{k}": STRINGS[f"rc_g_{k}"]["ru"] for k in GROUP_KEYS}
    names |= {f"aligner.{a}": STRINGS[f"aligner_{a}"]["ru"] for a in ALIGNERS}
    return _Russian({**names, **REASONS_RU})


def reason_text(r: Reason) -> str:
    """A reason of the library's record in the interface language."""
    return _russian().render(r) if ui() == "ru" else r.text


def _label(labels: dict[str, str], key: str) -> str:
    return " + ".join(labels.get(k, k) for k in key.split("+"))


def show_reconcile(hyp: str, refs: tuple[str, ...], a: Setting, a_name: str, bs: list[str]) -> None:
    """The view: B chosen among ``bs`` (Compare's other presets), then the record shown."""
    st.subheader(t("rc_title"))
    st.caption(t("rc_intro"))
    if not bs:
        return
    if is_long(hyp, refs):
        st.info(t("rc_too_long"))
        return
    b = st.selectbox(t("rc_b"), bs, key="rc_b") if len(bs) > 1 else bs[0]
    try:
        rec = _reconcile(hyp, refs, a.preset, a.overrides, b)
    except SHOWN_ERRORS as exc:
        st.error(t("rc_failed", name=md_escape(b), msg=md_escape(str(exc))))
        return
    labels = {k: t(f"rc_g_{k}") for k in GROUP_KEYS}  # for the figures and tables
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("rc_score_a", name=setting_md(a_name)), num(rec.score_a))
    c2.metric(t("rc_score_b", name=setting_md(b)), num(rec.score_b))
    c3.metric(t("rc_gap"), signed(rec.gap))
    c4.metric(t("rc_steps"), integer(len(rec.steps)))
    if not rec.steps:
        st.caption(t("rc_same"))
        return

    st.markdown(f"**{t('rc_path')}**")
    plotly(figures.reconcile_figure(rec, labels=labels, fmt=num), key="rc_path_fig")
    st.markdown(f"**{t('rc_shares')}**")
    path = {s.group: s.delta for s in rec.steps}
    table(
        [
            {
                t("rc_col_group"): _label(labels, g),
                t("rc_col_share"): signed(v),
                t("rc_col_step"): signed(path[g]) if g in path else "",
            }
            for g, v in rec.shares
        ],
        "rc_shares_table",
    )
    # the library's reasons, in the interface language, as plain text (they quote the pair)
    with st.container(key="rc_words"):
        method = t("rc_method", method=reason_text(rec.share_reason))
        st.text("\n".join([method, *map(reason_text, rec.reasons)]))

    # -- the stepper: the alignment after each step -----------------------------------------
    options = list(range(len(rec.steps) + 1))
    names = [t("rc_step_0", name=a_name)] + [
        t("rc_step_k", k=k, group=_label(labels, s.group)) for k, s in enumerate(rec.steps, 1)
    ]
    k = st.select_slider(
        t("rc_stepper"), options, value=len(rec.steps), format_func=names.__getitem__, key="rc_k"
    )
    if k == 0:
        result, params = rec.result_a, rec.params_a
        st.caption(t("rc_at_a", score=num(rec.score_a)))
    else:
        step = rec.steps[k - 1]
        result, params = step.result, step.params
        st.caption(t("rc_after", k=k, before=num(step.score_before), score=num(step.score)))
        with st.container(key="rc_step_words"):
            note = () if step.note_reason is None else (step.note_reason,)
            st.text("\n".join(map(reason_text, (*note, *step.reasons))))
    if result is not None and params is not None:
        show_link_view(result.alignment, "rc_links", weights=dict(params.weights))
