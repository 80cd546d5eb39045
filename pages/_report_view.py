"""The corpus report on the Corpus page: ranking, buckets, where the points go (not a page).

One library call builds the record (:func:`meteor.analysis.corpus_report.build_report`),
kept for every session in :data:`pages._cache.APP_CACHE` per upload and setting; this
module arranges its fields, :mod:`meteor.viz.report_figures`'s figures and the library's
writers.  User text goes into dataframes, figures or escaped Markdown (never HTML).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from itertools import count
from typing import Any

import streamlit as st

from meteor.analysis.buckets import BucketTable, label_buckets
from meteor.analysis.corpus_report import CorpusReport, build_report
from meteor.analysis.points_lost import HeadToHead, head_to_head
from meteor.analysis.pvalue_text import bootstrap_resolution, plus_one_resolution
from meteor.analysis.ranking import CORRECTIONS, TESTS, Ranking
from meteor.analysis.report_text import to_json, to_latex, to_markdown
from meteor.analysis.significance import DEFAULT_SAMPLES, DEFAULT_SEED
from meteor.io.labels import label_columns, read_labels
from meteor.io.read import Corpus
from meteor.metric import Meteor
from meteor.types import CorpusResult, Module
from meteor.viz import report_figures
from meteor.viz.report_html import to_html
from pages._cache import APP_CACHE
from pages._corpus_common import corpus_key, inspect_link, safe_name
from pages._i18n import integer, module_label, num, p_value, t
from pages._report_downloads import bucket_title, figure_downloads
from pages._scoring import SHOWN_ERRORS
from pages._settings import Setting
from pages._widgets import download, plotly, remember, shared_figure, table, with_progress

#: The Corpus page's tabs this module fills (their labels: ``corpus_tab_<name>``).
REPORT_TABS = ("ranking", "buckets", "where")

#: The exports offered: (key, label key, file name, MIME type, writer).
EXPORTS: tuple[tuple[str, str, str, str, Callable[[CorpusReport], str]], ...] = (
    ("latex", "rp_dl_latex", "meteor-report_figures.tex", "application/x-tex", to_latex),
    ("md", "rp_dl_md", "meteor-report_figures.md", "text/markdown", to_markdown),
    ("json", "rp_dl_json", "meteor-report_figures.json", "application/json", to_json),
    ("html", "rp_dl_html", "meteor-report_figures.html", "text/html", to_html),
)

Ids = Mapping[str, Sequence[str]]
Files = Sequence[tuple[str, bytes]]

#: Most buckets a label column may make (more: a column of free text or scores).
MAX_LABEL_BUCKETS = 50


def figure_labels() -> dict[str, str]:
    """:mod:`meteor.viz.report_figures`'s label keys in the interface language, and the
    stages' names."""
    stages = {report_figures.STAGE_LABEL.format(m.value): module_label(m) for m in Module}
    return {**{k: t(f"rf_{k}") for k in report_figures.LABELS_EN}, **stages}


def _ids(corpus: Corpus) -> dict[str, tuple[str, ...]]:
    return {name: tuple(corpus.ids_of(name)) for name in corpus.system_names}


def _test_settings() -> tuple[str, str]:
    """The report settings: the deciding test and the correction (two selects)."""
    row = st.container(horizontal=True, key="rp_settings")
    test = row.selectbox(
        t("rp_test"), TESTS, format_func=lambda x: t(f"rp_test_{x}"), key="rp_test",
        help=t("rp_test_help"),
    )  # fmt: skip
    correction = row.selectbox(
        t("rp_correction"), CORRECTIONS, format_func=lambda x: t(f"rp_correction_{x}"),
        key="rp_correction", help=t("rp_correction_help"),
    )  # fmt: skip
    return str(test), str(correction)


def _build(
    corpus: Corpus,
    meteor: Meteor,
    results: Mapping[str, CorpusResult],
    key: tuple[Any, ...],
    tests: tuple[str, str],
) -> CorpusReport:
    """The record, built once per key for every session (progress bar while it runs)."""
    kept = APP_CACHE.get(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    # build_report's progress lines: a bootstrap per system, a comparison per pair, the
    # randomisation tests, then the buckets and the losses
    n = len(results)
    pairs = n * (n - 1) // 2
    total = n + pairs + (1 if pairs else 0) + 2

    def make(show: Callable[[float, str], None]) -> CorpusReport:
        done = count(1)
        return build_report(
            results,
            meteor.params,
            ids=_ids(corpus),
            segments=corpus.n_segments,
            preset=meteor.preset,
            sources=corpus.sources,
            test=tests[0],
            correction=tests[1],
            progress=lambda step: show(next(done) / total, t("rp_progress", step=step)),
        )

    return with_progress(key, make)  # type: ignore[no-any-return]


# -- the tabs --------------------------------------------------------------------------
def report_tabs(
    tabs: Mapping[str, Any],
    corpus: Corpus,
    setting: Setting,
    meteor: Meteor,
    results: Mapping[str, CorpusResult],
    files: Files = (),
) -> None:
    """Fill the page's :data:`REPORT_TABS`: the report is built on request (a button),
    then shown on every rerun while the session keeps it requested.  ``files``: the
    uploaded (name, bytes), whose label columns the Buckets tab offers."""
    rep: CorpusReport | None = None
    with tabs["ranking"]:
        st.caption(t("rp_intro"))
        tests = _test_settings()
        key = ("corpus_report", corpus_key(corpus), setting, *tests)
        n = len(results)
        # the button's callback records the request before the run that builds; a changed
        # upload or setting is a new key, and the button comes back
        wanted = st.session_state.get("_rp_wanted") == key or key in APP_CACHE
        if not wanted:
            st.button(
                t("rp_build", systems=integer(n), pairs=integer(n * (n - 1) // 2)),
                key="rp_build",
                help=t("rp_build_help", samples=integer(DEFAULT_SAMPLES)),
                on_click=remember,
                args=("_rp_wanted", key),
            )
        if wanted:
            try:
                rep = _build(corpus, meteor, results, key, tests)
            except SHOWN_ERRORS as exc:
                st.session_state.pop("_rp_wanted", None)
                st.error(t("rp_failed", msg=safe_name(str(exc))))
        if rep is not None:
            _ranking(rep, key)
            figure_downloads(rep, key, figure_labels())  # SVG/PDF under the downloads
    with tabs["buckets"]:
        if rep is None:
            st.info(t("rp_build_first"))
        else:
            _buckets(rep, key, _Labels(files, results, meteor, _ids(corpus)))
    with tabs["where"]:
        if rep is None:
            st.info(t("rp_build_first"))
        else:
            _one_system(rep, key, list(rep.systems))
            if len(rep.systems) > 1:
                _two_systems(rep, key, corpus, results, list(rep.systems))


def _figure(key: tuple[Any, ...], name: str, make: Callable[..., Any], *args: Any) -> None:
    """``make(*args)``, a figure of :mod:`meteor.viz.report_figures`, kept for every session
    and shown (widget key ``rp_fig_<name>``)."""
    plotly(shared_figure((*key, name), partial(make, *args)), key=f"rp_fig_{name}")


def _ranking(rep: CorpusReport, key: tuple[Any, ...]) -> None:
    rk = rep.ranking
    _system_table(rk)
    st.caption(t("rp_mean_note"))
    st.caption(t("rp_clusters"))
    for d in rk.borderline:
        st.warning(
            t(
                "rp_borderline_open" if d.new_cluster else "rp_borderline_stay",
                system=safe_name(d.system), top=safe_name(d.top),
                p=p_value(d.p_adjusted, 0.0), alpha=num(rk.alpha, 2),
            )
        )  # fmt: skip
    if rk.paired_on_common_ids:
        st.caption(t("rp_common_ids"))
    if any(r.corpus.low != r.corpus.low for r in rk.systems):  # NaN
        st.caption(t("rp_nan_note"))
    labels = figure_labels()
    _figure(key, "ranking", report_figures.ranking_figure, rep, labels)
    _pairs(rep, key, labels)
    st.code(rep.signature, language=None, wrap_lines=True)
    st.subheader(t("rp_downloads"))
    st.caption(t("rp_dl_caption"))
    row = st.container(horizontal=True, key="rp_downloads")
    for fmt, label, file_name, mime, writer in EXPORTS:
        # one export of the record (the library's writer), kept with the record's key
        export = partial(APP_CACHE.get, ("report_export", fmt, *key), partial(writer, rep))
        # the HTML report carries plotly.js (megabytes): built only when clicked
        data = export if fmt == "html" else export()
        download(row, t(label), data, file_name, mime, f"rp_dl_{fmt}")


def _system_table(rk: Ranking) -> None:
    """The N-system table: rank, cluster, corpus METEOR with interval, mean, P, R, frag."""
    table(
        [
            {
                "rank": r.rank,
                "cluster": r.cluster,
                "system": r.name,
                "segments": r.segments,
                "meteor": r.corpus.value,
                "low": r.corpus.low,
                "high": r.corpus.high,
                "mean": r.mean_segment.value,
                "precision": r.precision,
                "recall": r.recall,
                "frag": r.frag,
            }
            for r in rk.systems
        ],
        "rp_ranking",
        column_config={
            "rank": st.column_config.NumberColumn(t("rp_col_rank"), width="small"),
            "cluster": st.column_config.NumberColumn(t("rp_col_cluster"), width="small"),
            "system": st.column_config.TextColumn(t("rp_col_system")),
            "segments": st.column_config.NumberColumn(t("rp_col_segments")),
            "meteor": st.column_config.NumberColumn(t("rp_col_meteor"), format="%.4f"),
            "low": st.column_config.NumberColumn(t("rp_col_low"), format="%.4f"),
            "high": st.column_config.NumberColumn(t("rp_col_high"), format="%.4f"),
            "mean": st.column_config.NumberColumn(t("rp_col_mean"), format="%.4f"),
            "precision": st.column_config.NumberColumn("P", format="%.4f"),
            "recall": st.column_config.NumberColumn("R", format="%.4f"),
            "frag": st.column_config.NumberColumn(t("frag"), format="%.4f"),
        },
    )


def _pairs(rep: CorpusReport, key: tuple[Any, ...], labels: Mapping[str, str]) -> None:
    """Every pairwise test: how many, the p-value figure and the table."""
    rk = rep.ranking
    if not rk.pairs:
        st.info(t("rp_need_two"))
    else:
        adjusted_resolution = (
            plus_one_resolution(rk.trials) if rk.test == "ar" else bootstrap_resolution(rk.samples)
        )
        st.subheader(t("rp_pairs_head"))
        st.caption(
            t(
                "rp_comparisons",
                n=integer(rk.comparisons),
                alpha=num(rk.alpha, 2),
                test=t(f"rp_test_{rk.test}"),
                correction=t(f"rp_correction_{rk.correction}"),
                samples=integer(rk.samples),
                trials=integer(rk.trials),
                seed=str(rk.seed),
            )
        )
        _figure(key, "pvalues", report_figures.pvalue_figure, rep, labels)
        table(
            [
                {
                    "a": p.a,
                    "b": p.b,
                    "common": p.common,
                    "diff": p.difference,
                    "low": p.difference_low,
                    "high": p.difference_high,
                    "p_bs": p_value(p.p_bootstrap, bootstrap_resolution(rk.samples)),
                    "p_ar": p_value(p.p_randomisation, plus_one_resolution(rk.trials)),
                    "p_adj": p_value(p.p_adjusted, adjusted_resolution),
                    "sig": t("yes") if p.significant else t("no"),
                }
                for p in rk.pairs
            ],
            "rp_pairs",
            column_config={
                "a": st.column_config.TextColumn(t("rp_col_a")),
                "b": st.column_config.TextColumn(t("rp_col_b")),
                "common": st.column_config.NumberColumn(t("rp_col_common")),
                "diff": st.column_config.NumberColumn(t("rp_col_diff"), format="%+.4f"),
                "low": st.column_config.NumberColumn(t("rp_col_low"), format="%+.4f"),
                "high": st.column_config.NumberColumn(t("rp_col_high"), format="%+.4f"),
                "p_bs": st.column_config.TextColumn(t("rp_col_p_bs")),  # never 0
                "p_ar": st.column_config.TextColumn(t("rp_col_p_ar")),
                "p_adj": st.column_config.TextColumn(
                    t(
                        "rp_col_p_adj",
                        correction=t(f"rp_correction_{rk.correction}"),
                        test=t(f"rp_test_{rk.test}"),
                    )
                ),
                "sig": st.column_config.TextColumn(t("rp_col_sig")),
            },
        )


class _Labels:
    """What the Buckets tab needs to bucket by a label column of the uploads."""

    def __init__(
        self, files: Files, results: Mapping[str, CorpusResult], meteor: Meteor, ids: Ids
    ) -> None:
        self.files, self.results, self.meteor, self.ids = files, results, meteor, ids

    def columns(self) -> list[str]:
        try:
            return label_columns(self.files)
        except SHOWN_ERRORS:
            return []  # the corpus was read from these files: not expected

    def table(self, rep: CorpusReport, column: str, key: tuple[Any, ...]) -> BucketTable | None:
        """:func:`label_buckets` as :func:`build_report` makes it (the report's settings,
        systems in ranking order), kept per upload; ``None`` after saying why not."""
        try:
            by_id = read_labels(self.files, column)
        except SHOWN_ERRORS as exc:
            st.error(t("rp_b_label_failed", msg=safe_name(str(exc))))
            return None
        values = set(by_id.values())
        if len(values) > MAX_LABEL_BUCKETS:
            st.warning(
                t(
                    "rp_b_label_many",
                    column=safe_name(column),
                    n=integer(len(values)),
                    most=integer(MAX_LABEL_BUCKETS),
                )
            )
            return None
        ranked = {n: self.results[n] for n in rep.systems}
        digest = hashlib.sha256(b"".join(d for _n, d in self.files)).hexdigest()

        def make() -> BucketTable:
            return label_buckets(
                ranked, self.meteor.params, column, by_id, self.ids,
                n_samples=DEFAULT_SAMPLES, seed=DEFAULT_SEED, level=rep.ranking.level,
            )  # fmt: skip

        return APP_CACHE.get(("report_label", *key, column, digest), make)  # type: ignore[no-any-return]


def _buckets(rep: CorpusReport, key: tuple[Any, ...], labels_of: _Labels) -> None:
    names = [b.name for b in rep.buckets]
    extra = [f"label:{c}" for c in labels_of.columns()]
    extra = [x for x in extra if x not in names]
    name = st.selectbox(
        t("rp_bucketing"), names + extra, format_func=bucket_title, key="rp_bucketing"
    )
    if name in extra:
        got = labels_of.table(rep, name.removeprefix("label:"), key)
        if got is None:
            return
        bucket = got
    else:
        bucket = rep.buckets[names.index(name) if name in names else 0]
    fig_key = (*key, "bucket", bucket.name, hash(bucket.rows))  # a label column: its upload's
    title = bucket_title(bucket.name)
    labels = figure_labels()

    def build() -> Any:
        fig = report_figures.bucket_figure(rep, bucket, labels)
        fig.update_layout(title={"text": title})  # the library's title is English
        return fig

    plotly(shared_figure(fig_key, build), key="rp_fig_bucket")
    f4 = "%.4f"
    if bucket.unit == "segments":
        st.caption(t("rp_b_seg_caption"))
        fields = ("meteor", "low", "high", "precision", "recall", "frag")
        config = {
            "count": st.column_config.NumberColumn(t("rp_col_count")),
            "meteor": st.column_config.NumberColumn("METEOR", format=f4),
            "low": st.column_config.NumberColumn(t("rp_col_low"), format=f4),
            "high": st.column_config.NumberColumn(t("rp_col_high"), format=f4),
            "frag": st.column_config.NumberColumn(t("frag"), format=f4),
        }
    else:
        st.caption(t("rp_b_word_caption"))
        fields = ("hyp_words", "precision", "recall", "fmean")
        config = {
            "count": st.column_config.NumberColumn(t("rp_col_ref_words")),
            "hyp_words": st.column_config.NumberColumn(t("rp_col_hyp_words")),
            "fmean": st.column_config.NumberColumn("F", format=f4),
        }
    table(
        [
            {"system": b.system, "bucket": b.label, "count": b.count}
            | {k: getattr(b, k) for k in fields}
            for b in bucket.rows
        ],
        "rp_bucket_table",
        column_config={
            "system": st.column_config.TextColumn(t("rp_col_system")),
            "bucket": st.column_config.TextColumn(t("rp_col_bucket")),
            "precision": st.column_config.NumberColumn("P", format=f4),
            "recall": st.column_config.NumberColumn("R", format=f4),
            **config,
        },
    )


def _one_system(rep: CorpusReport, key: tuple[Any, ...], systems: Sequence[str]) -> None:
    """The stage and fragmentation figures, then the chosen system's most-missed reference
    words, unmatched hypothesis words and stage shares."""
    labels = figure_labels()
    _figure(key, "stages", report_figures.stage_figure, rep, labels)
    _figure(key, "frag", report_figures.frag_figure, rep, labels)
    system = st.selectbox(t("rp_system"), systems, key="rp_where_system") or systems[0]
    loss = rep.losses[systems.index(system)] if system in systems else rep.losses[0]
    st.caption(
        t(
            "rp_missed_total",
            missed=integer(loss.unmatched_ref_total),
            total=integer(loss.ref_total),
        )
    )
    c1, c2, c3 = st.columns(3)
    for col, head, words, what, wkey in (
        (c1, "rp_missed", loss.missed_ref_words, "rp_col_missed", "missed"),
        (c2, "rp_unmatched", loss.unmatched_hyp_words, "rp_col_unmatched", "unmatched"),
    ):
        col.markdown(f"**{t(head)}**")
        table(
            [{"word": w, wkey: m, "of": n} for w, m, n in words],
            wkey,
            column_config={
                "word": st.column_config.TextColumn(t("rp_col_word")),
                wkey: st.column_config.NumberColumn(t(what)),
                "of": st.column_config.NumberColumn(t("rp_col_occurrences")),
            },
            where=col,
        )
    c3.markdown(f"**{t('rp_stages')}**")
    table(
        [{"stage": module_label(m), "matched": c, "share": s} for m, c, s in loss.stage_matches],
        "rp_stage_table",
        column_config={
            "stage": st.column_config.TextColumn(t("col_stage")),
            "matched": st.column_config.NumberColumn(t("rp_col_matched")),
            "share": st.column_config.ProgressColumn(
                t("rp_col_share"), format="percent", min_value=0.0, max_value=1.0
            ),
        },
        where=c3,
    )


def _two_systems(
    rep: CorpusReport,
    key: tuple[Any, ...],
    corpus: Corpus,
    results: Mapping[str, CorpusResult],
    systems: Sequence[str],
) -> None:
    """Two chosen systems head to head: where each wins most (rows opening Inspect) and
    the words only one of them matched."""
    st.subheader(t("rp_two"))
    s1, s2 = st.columns(2)
    a = s1.selectbox(t("rp_sys_a"), systems, index=0, key="rp_sys_a") or systems[0]
    b = s2.selectbox(t("rp_sys_b"), systems, index=1, key="rp_sys_b") or systems[1]
    if a == b:
        st.warning(t("rp_same"))
        return
    ids = _ids(corpus)
    versus: HeadToHead = (
        rep.versus
        if rep.versus is not None and (rep.versus.a, rep.versus.b) == (a, b)
        else APP_CACHE.get(("head_to_head", a, b, *key), lambda: head_to_head(a, b, results, ids))
    )
    if not versus.common:
        st.warning(t("rp_no_common", a=safe_name(a), b=safe_name(b)))
        return
    st.caption(t("rp_common", n=integer(versus.common)))
    position = {name: {sid: k for k, sid in enumerate(ids[name])} for name in (a, b)}

    def link(name: str, seg_id: str) -> str | None:
        k = position[name].get(seg_id)
        return None if k is None else inspect_link(results[name].segments[k])

    _wins_tables(a, b, versus, link)
    st.caption(t("rp_link_caption"))
    w1, w2 = st.columns(2)
    for col, who, only, wkey in (
        (w1, a, versus.words_only_a, "rp_only_a"),
        (w2, b, versus.words_only_b, "rp_only_b"),
    ):
        col.markdown(f"**{t('rp_only', name=safe_name(who))}**")
        table(
            [{"word": w, "count": c} for w, c in only],
            wkey,
            column_config={
                "word": st.column_config.TextColumn(t("rp_col_word")),
                "count": st.column_config.NumberColumn(t("rp_col_count_words")),
            },
            where=col,
        )


def _wins_tables(
    a: str, b: str, versus: HeadToHead, link: Callable[[str, str], str | None]
) -> None:
    """The segments where A wins most, then where B does (``link``: Inspect's address)."""
    for who, wins, tkey in ((a, versus.a_wins, "rp_wins_a"), (b, versus.b_wins, "rp_wins_b")):
        st.markdown(f"**{t('rp_wins', name=safe_name(who))}**")
        table(
            [
                {
                    "seg_id": w.seg_id,
                    "a": w.score_a,
                    "b": w.score_b,
                    "diff": w.score_b - w.score_a,
                    "open_a": link(a, w.seg_id),
                    "open_b": link(b, w.seg_id),
                    "hyp_a": w.hyp_a,
                    "hyp_b": w.hyp_b,
                    "ref": w.ref,
                }
                for w in wins
            ],
            tkey,
            column_config={
                "seg_id": st.column_config.TextColumn(t("rp_col_seg_id")),
                "a": st.column_config.NumberColumn("A", format="%.4f"),
                "b": st.column_config.NumberColumn("B", format="%.4f"),
                "diff": st.column_config.NumberColumn(t("rp_col_diff"), format="%+.4f"),
                "open_a": st.column_config.LinkColumn(
                    t("rp_col_open_a"), display_text=t("rp_open"), width="small"
                ),
                "open_b": st.column_config.LinkColumn(
                    t("rp_col_open_b"), display_text=t("rp_open"), width="small"
                ),
                "hyp_a": st.column_config.TextColumn("A", width=200),
                "hyp_b": st.column_config.TextColumn("B", width=200),
                "ref": st.column_config.TextColumn(t("reference"), width=200),
            },
        )
