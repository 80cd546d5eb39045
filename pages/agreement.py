"""Agreement with people: which METEOR setting agrees with human judgements.

A corpus with a human score per row (an upload, or the bundled WMT21 ru-en demo): the
correlations and significance (``meteor.correlate``'s numbers), a scatter (a point opens
its pair on Inspect), a heatmap over two parameters with "Use this setting", and "Tune"
(``meteor.tune``).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from meteor.analysis.agreement import BASELINES
from meteor.analysis.agreement_grid import GRID_PARAMS
from meteor.analysis.agreement_stats import MEASURES
from meteor.analysis.tune import OBJECTIVES, TuneResult
from meteor.errors import ParamError
from meteor.metric import Meteor
from meteor.presets import PRESETS, preset_names
from meteor.viz import agreement as agreement_figures
from pages import _agreement_view as view
from pages import _spans_view as spans_view
from pages._corpus_common import inspect_url, safe_name
from pages._frame import require_frame
from pages._i18n import integer, num, t
from pages._input_messages import input_message
from pages._scoring import SHOWN_ERRORS
from pages._settings import PRESET_FILE_NAME, apply_preset_file
from pages._widgets import chart_points, code_span, plotly, remember, table, with_progress

require_frame()  # before any output: a deep link to a fresh server skips app.py

SYMBOLS = agreement_figures.PARAM_SYMBOLS


def _tune_choices(run: view.Run, name: str, data: bytes) -> view.TuneChoices | None:
    """The "Tune" controls: base preset, objective, weights, grouping, k and rounds."""
    meteors = [m.name for m in run.agreement.scores if m.kind == "preset"]
    if not meteors:
        st.info(t("agr_tune_none"))
        return None
    c1, c2 = st.columns(2)
    base = c1.selectbox(t("agr_tune_base"), meteors, key="agr_tune_base")
    objective = c2.selectbox(
        t("agr_tune_objective"), list(OBJECTIVES), key="agr_tune_objective",
        format_func=view.objective_label,
    )  # fmt: skip
    weights = st.checkbox(
        t("agr_tune_weights"), True, help=t("agr_tune_weights_help"), key="agr_tune_weights"
    )
    columns = [c for c in view.group_columns(name, data) if c != run.judged.human_column]
    options = ["system", *columns]
    default = next((c for c in ("doc_id", "doc", "talk_id", "talk") if c in columns), "system")
    g1, g2, g3 = st.columns(3)
    group_by = g1.selectbox(
        t("agr_tune_group"), options, index=options.index(default), key="agr_tune_group",
        format_func=lambda c: t("agr_tune_group_system") if c == "system" else c,
        help=t("agr_tune_group_help"),
    )  # fmt: skip
    folds = g2.number_input(t("agr_tune_folds"), 2, 20, 5, 1, key="agr_tune_folds")
    rounds = g3.number_input(t("agr_tune_rounds"), 0, 6, 6, 1, key="agr_tune_rounds",
                             help=t("agr_tune_rounds_help"))  # fmt: skip
    resamples = int(st.session_state.get("agr_resamples", 1000))
    return view.TuneChoices(
        base, objective, bool(weights), group_by, int(folds), int(rounds), resamples
    )


def _use_tuned(data: bytes, where: str) -> None:
    """Callback of "Use this setting" (Tune): the preset file becomes the sidebar's setting."""
    try:
        st.session_state["agr_tune_used"] = apply_preset_file(data, where)
    except ParamError as exc:
        st.session_state["agr_tune_used_error"] = str(exc).replace("\n", " ")


def tune_section(run: view.Run, run_id: tuple[Any, ...], name: str, data: bytes) -> None:
    """``meteor.tune`` on the measured run's corpus with a progress bar, once per run and
    choices; its cross-validated result, preset file and "Use this setting"."""
    st.subheader(t("agr_tune_title"))
    st.caption(t("agr_tune_intro"))
    choices = _tune_choices(run, name, data)
    if choices is None:
        return
    tune_id = ("agr_tune", run_id, choices)
    st.button(
        t("agr_tune_run"), key="agr_tune_run", on_click=remember, args=("agr_tune_id", tune_id)
    )
    if st.session_state.get("agr_tune_id") != tune_id:
        st.info(t("agr_tune_press"))
        return
    try:
        result = with_progress(tune_id, lambda show: view.tune_run(run, name, data, choices, show))
    except SHOWN_ERRORS as exc:
        st.error(t("agr_tune_failed", msg=safe_name(str(exc).replace("\n", " "))))
        return
    _show_tuned(result, choices)


def _show_tuned(result: TuneResult, choices: view.TuneChoices) -> None:
    """The cross-validated result, the best setting, its signature, download and use."""
    st.markdown("**" + t("agr_tune_cv_title", objective=view.objective_label(result.objective))
                + "**")  # fmt: skip
    table(view.fold_rows(result), "agr_tune_cv")
    group = t("agr_tune_group_system") if choices.group_by == "system" else choices.group_by
    st.caption(t("agr_tune_cv_caption", base=result.base_name, n=integer(choices.resamples),
                 k=integer(len(result.folds)), group=safe_name(group)))  # fmt: skip
    st.caption(
        t(
            "agr_tune_summary", rows=integer(result.n_rows), value=num(result.value),
            base=result.base_name, base_value=num(result.base_value),
            points=integer(result.n_points), seconds=num(result.seconds, 2),
            align=num(result.align_seconds, 1),
        )
    )  # fmt: skip
    st.markdown("**" + t("agr_tune_params_title") + "**")
    st.dataframe(view.param_rows(result), hide_index=True, key="agr_tune_params")
    doc = result.preset_text().encode("utf-8")
    label = Meteor(preset_file=doc).signature()
    st.caption(t("agr_tune_signature"))
    st.code(label, language=None, wrap_lines=True)
    c1, c2 = st.columns(2)
    c1.download_button(
        t("agr_tune_download"), doc, file_name=f"tuned-{result.base_name}.json",
        mime="application/json", key="agr_tune_download", icon="⬇️",
    )  # fmt: skip
    c2.button(
        t("agr_use"), key="agr_tune_use", on_click=_use_tuned,
        args=(doc, f"tuned-{result.base_name}.json"), help=t("agr_tune_use_help"),
    )  # fmt: skip
    err = st.session_state.pop("agr_tune_used_error", None)
    if err:
        st.error(t("agr_tune_failed", msg=safe_name(err)))
    used = st.session_state.get("agr_tune_used")
    if used and used == st.session_state.get(PRESET_FILE_NAME):
        st.success(t("agr_tune_used", name=code_span(used)))


def choose_input() -> tuple[str, bytes, str] | None:
    """The input file ``(name, bytes, language of its texts)``, or None (reason shown)."""
    source = st.radio(
        t("agr_source"),
        ["demo", "upload"],
        format_func={"demo": t("agr_src_demo"), "upload": t("agr_src_upload")}.__getitem__,
        key="agr_source",
        horizontal=True,
    )
    if source == "demo":
        st.caption(t("agr_demo_caption"))
        return view.DEMO_FILE.name, view.DEMO_FILE.read_bytes(), "en"
    up = st.file_uploader(t("agr_upload"), type=["tsv", "csv", "jsonl"], key="agr_file")
    if up is None:
        st.info(t("agr_no_file"))
        return None
    return up.name, up.getvalue(), st.session_state.get("lang", "en")


def show_table(run: view.Run) -> None:
    a = run.agreement
    direction = t("agr_dir_higher" if a.higher_is_better else "agr_dir_lower")
    st.subheader(t("agr_table_title"))
    st.caption(
        t(
            "agr_summary",
            rows=integer(a.n_rows),
            items=integer(a.n_items),
            systems=integer(a.n_systems),
            column=safe_name(a.human_column),
            direction=direction,
            n=integer(a.n_bootstrap),
        )
    )
    statistic = st.segmented_control(
        t("agr_statistic"),
        list(view.STATISTICS),
        format_func=lambda s: t(f"agr_stat_{s}"),
        default="kendall",
        key="agr_statistic",
        required=True,
    )
    table(view.table_rows(a, statistic or "kendall"), "agr_table")
    st.caption(t("agr_table_caption"))
    st.caption(darr_note(run))
    if a.comparisons:
        st.subheader(t("agr_sig_title"))
        table(view.comparison_rows(a), "agr_sig")
        st.caption(t("agr_sig_caption", n=integer(a.n_permutations)))


def darr_note(run: view.Run) -> str:
    """Where the DARR pairs come from (column, threshold) and how many there are; with none,
    why the DARR column shows "—" (the column's range against the threshold)."""
    a = run.agreement
    if a.pairs_source:
        return t("agr_darr_given", pairs=integer(a.n_darr_pairs))
    column, threshold = safe_name(a.darr_column), num(a.darr_threshold, 2)
    if a.n_darr_pairs:
        return t("agr_darr_pairs", pairs=integer(a.n_darr_pairs), column=column,
                 threshold=threshold)  # fmt: skip
    values = [float(x) for xs in (run.judged.darr or run.judged.human or {}).values() for x in xs]
    finite = [x for x in values if x == x]
    scale = t("agr_darr_scale", lo=num(min(finite), 2), hi=num(max(finite), 2)) if finite else ""
    return t("agr_darr_none", column=column, threshold=threshold, scale=scale)


def show_scatter(run: view.Run) -> None:
    st.subheader(t("agr_scatter_title"))
    names = [m.name for m in run.agreement.scores]
    name = st.selectbox(t("agr_scatter_metric"), names, key="agr_scatter_metric")
    scores = run.agreement.scores_of(name)
    fig = agreement_figures.scatter(run.judged, scores, labels=view.fig_labels())
    points = chart_points(fig, "agr_scatter")
    st.caption(t("agr_scatter_caption"))
    if not points:
        return
    row = int(points[0]["customdata"][0])
    found = view.row_of(run.judged, row) if 0 <= row < len(scores.segment) else None
    if found is None:
        return
    system, seg_id, hyp, refs = found
    human = float(run.judged.human[system][run.judged.corpus.ids_of(system).index(seg_id)])
    st.markdown(
        t(
            "agr_point_head",
            system=safe_name(system),
            seg_id=safe_name(seg_id),
            metric=num(scores.segment[row]),
            human=num(human),
        )
    )
    st.text(hyp)  # user text: plain, never Markdown or HTML
    for ref in refs:
        st.text(ref)
    preset = name if scores.kind == "preset" else None
    st.link_button(t("agr_open_inspect"), inspect_url(hyp, refs, preset), icon="🔍")


def show_heatmap(run: view.Run, run_id: tuple[Any, ...]) -> None:
    st.subheader(t("agr_heat_title"))
    meteors = [m.name for m in run.agreement.scores if m.kind == "preset" and m.stats is not None]
    if not meteors:
        st.info(t("agr_heat_none"))
        return
    c1, c2, c3, c4 = st.columns(4)
    metric = c1.selectbox(t("agr_heat_metric"), meteors, key="agr_heat_metric")
    x, y = (
        col.selectbox(t(f"agr_heat_{axis}"), GRID_PARAMS, index=k, key=f"agr_heat_{axis}",
                      format_func=SYMBOLS.__getitem__)
        for k, (col, axis) in enumerate(((c2, "x"), (c3, "y")))
    )  # fmt: skip
    key = c4.selectbox(
        t("agr_heat_measure"), list(MEASURES), key="agr_heat_measure",
        format_func=view.measure_label,
    )  # fmt: skip
    if x == y:
        st.info(t("agr_heat_same"))
        return
    grid = view.grid_of(run_id, run, metric, x, y, key)
    fig = agreement_figures.heatmap(
        grid, labels=view.fig_labels(), measure_name=view.measure_label(key)
    )
    plotly(fig, key="agr_heat")
    st.caption(t("agr_heat_caption"))
    best = grid.best()
    bx, by = (best[0], best[1]) if best is not None else grid.base
    xv, yv = (
        col.selectbox(
            t("agr_use_value", param=SYMBOLS[p]), values,
            index=values.index(start) if start in values else 0,
            format_func=lambda v: num(v, 2), key=f"agr_use_{axis}_{p}",
        )
        for col, axis, p, values, start in zip(
            st.columns(2), "xy", (x, y), (grid.x_values, grid.y_values), (bx, by), strict=True
        )
    )  # fmt: skip
    st.button(
        t("agr_use"),
        on_click=view.use_setting,
        args=(metric, {x: xv, y: yv}),
        help=t("agr_use_help"),
        key="agr_use",
    )
    used = st.session_state.get("agr_used")
    if used and used[0] in PRESETS:
        (p1, v1), (p2, v2) = list(used[1].items())
        st.success(
            t(
                "agr_used",
                preset=used[0],
                x=SYMBOLS[p1],
                xv=num(v1, 2),
                y=SYMBOLS[p2],
                yv=num(v2, 2),
            )
        )


def main() -> None:
    st.title(t("agr_title"))
    st.caption(t("agr_intro"))
    got = choose_input()
    if got is None:
        return
    name, data, lang = got
    try:
        numeric = view.file_columns(name, data)
    except SHOWN_ERRORS as exc:
        st.error(t("agr_bad_input", msg=input_message(exc)))
        return
    if not numeric:
        st.error(t("agr_no_numeric", name=safe_name(name)))
        return
    c1, c2 = st.columns([3, 1])
    default_human = view.DEMO_HUMAN if view.DEMO_HUMAN in numeric else numeric[0]
    human = c1.selectbox(
        t("agr_human_col"), numeric, index=numeric.index(default_human), key="agr_human"
    )
    higher = c2.checkbox(t("agr_higher"), True, help=t("agr_higher_help"), key="agr_higher")
    d1, d2 = st.columns([3, 1])
    darr_default = view.default_darr_column(numeric, human)
    darr_column = d1.selectbox(
        t("agr_darr_col"), numeric, index=numeric.index(darr_default), key="agr_darr_col",
        help=t("agr_darr_col_help"),
    )  # fmt: skip
    threshold = float(
        d2.number_input(
            t("agr_darr_threshold"),
            min_value=0.0,
            max_value=1e6,
            value=25.0,
            step=1.0,
            key="agr_darr_threshold",
            help=t("agr_darr_threshold_help"),
        )  # fmt: skip
    )
    others = [c for c in numeric if c != human]
    columns = st.multiselect(t("agr_metric_cols"), others, default=[], key="agr_columns")
    try:
        judged = view.judged_of(name, data, human, columns, higher, darr_column)
    except SHOWN_ERRORS as exc:
        st.error(t("agr_bad_input", msg=input_message(exc)))
        return
    names = list(preset_names(lang))
    presets = st.multiselect(
        t("agr_presets"), names, default=view.main_presets(lang), key=f"agr_presets_{lang}"
    )
    baselines = st.multiselect(
        t("agr_baselines"), list(BASELINES), default=list(BASELINES), key="agr_baselines"
    )
    resamples = st.select_slider(
        t("agr_resamples"),
        list(view.RESAMPLES),
        value=1000,
        key="agr_resamples",
        bind="query-params",  # a link keeps it (?agr_resamples=100)
    )
    if not (presets or baselines or columns):
        st.info(t("agr_need_metric"))
        return
    judged_key = (name, view.digest(data), human, tuple(columns), higher, darr_column, threshold)
    run_id = (
        "agr_run",
        judged_key,
        tuple(presets),
        tuple(baselines),
        tuple(columns),
        int(resamples),
    )
    st.button(
        t("agr_run"), type="primary", key="agr_run", on_click=remember, args=("agr_run_id", run_id)
    )
    if st.session_state.get("agr_run_id") != run_id:
        st.info(t("agr_press_run"))
        return
    try:
        run = with_progress(
            run_id,
            lambda show: view.compute_run(
                judged, presets, baselines, columns, int(resamples), show, threshold
            ),
        )
    except SHOWN_ERRORS as exc:
        st.error(t("agr_failed", msg=safe_name(str(exc))))
        return
    show_table(run)
    # human error spans of the same hypotheses, when uploaded: the per-setting span table
    spans_view.agreement_section(run.judged.corpus, presets, lang, run_id)
    show_scatter(run)
    try:
        show_heatmap(run, run_id)
    except SHOWN_ERRORS as exc:
        st.error(t("agr_failed", msg=safe_name(str(exc))))
    tune_section(run, run_id, name, data)


main()
