"""The corpus report as one self-contained HTML file: opens offline.

plotly.js is embedded once, inline, so the file needs no network; each figure's camera
button saves it as SVG, in plotly's own template (:func:`meteor.viz.style.standalone`).
Every user string passes through :func:`html.escape`.
"""

from __future__ import annotations

import html
import math

import plotly.io as pio

from meteor.analysis.corpus_report import CorpusReport
from meteor.analysis.ranking import named_test
from meteor.analysis.report_text import data_line, pair_p_texts
from meteor.viz.report_figures import report_figures
from meteor.viz.style import standalone

__all__ = ["to_html"]

_CONFIG = {"displaylogo": False, "toImageButtonOptions": {"format": "svg"}}
_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border-bottom:1px solid #ccc;padding:.25em .6em;text-align:right}
th:first-child,td:first-child,td.l{text-align:left}
code{background:#f3f3f3;padding:.1em .3em;word-break:break-all}
.fig{margin:1.5em 0}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _n(x: float | None, digits: int = 4) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def _ranking_table(rep: CorpusReport) -> str:
    rows = [
        "<table id='ranking-table'><tr><th>cluster</th><th>system</th><th>segments</th>"
        "<th>METEOR</th><th>95 % CI</th><th>mean of segment scores</th><th>P</th><th>R</th>"
        "<th>frag</th></tr>"
    ]
    for r in rep.ranking.systems:
        rows.append(
            f"<tr><td>{r.cluster}</td><td class='l'>{_e(r.name)}</td><td>{r.segments:,}</td>"
            f"<td>{_n(r.corpus.value)}</td><td>[{_n(r.corpus.low)}, {_n(r.corpus.high)}]</td>"
            f"<td>{_n(r.mean_segment.value)}</td><td>{_n(r.precision)}</td>"
            f"<td>{_n(r.recall)}</td><td>{_n(r.frag)}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _pairs_table(rep: CorpusReport) -> str:
    rows = [
        "<table id='pairs-table'><tr><th>A</th><th>B</th><th>common segments</th><th>B − A</th>"
        "<th>95 % CI</th><th>p (bootstrap)</th><th>p (randomisation)</th>"
        f"<th>{_e(rep.ranking.adjusted_label)}</th><th>significant</th></tr>"
    ]
    rk = rep.ranking
    for p, (p_bs, p_ar, p_adj) in zip(rk.pairs, pair_p_texts(rep, "–"), strict=True):
        rows.append(
            f"<tr><td class='l'>{_e(p.a)}</td><td class='l'>{_e(p.b)}</td><td>{p.common:,}</td>"
            f"<td>{p.difference:+.4f}</td><td>[{_n(p.difference_low)}, {_n(p.difference_high)}]"
            f"</td><td>{_e(p_bs)}</td><td>{_e(p_ar)}</td><td>{_e(p_adj)}</td>"
            f"<td>{'yes' if p.significant else 'no'}</td></tr>"
        )
    rows.append("</table>")
    return "".join(rows)


def _losses(rep: CorpusReport) -> str:
    out = []
    for loss in rep.losses:
        missed = ", ".join(f"{_e(w)} ({m}/{n})" for w, m, n in loss.missed_ref_words[:15])
        extra = ", ".join(f"{_e(w)} ({m}/{n})" for w, m, n in loss.unmatched_hyp_words[:15])
        stages = ", ".join(f"{_e(m)} {100 * s:.1f} %" for m, _c, s in loss.stage_matches)
        out.append(
            f"<h3>{_e(loss.system)}</h3><ul><li>matches by stage: {stages}</li>"
            f"<li>most-missed reference words (missed/occurrences): {missed}</li>"
            f"<li>unmatched hypothesis words: {extra}</li></ul>"
        )
    v = rep.versus
    if v is not None:
        out.append(f"<h3>{_e(v.a)} vs {_e(v.b)} ({v.common:,} common segments)</h3>")
        for who, wins in ((v.a, v.a_wins), (v.b, v.b_wins)):
            out.append(f"<p>Segments where {_e(who)} wins most:</p><table><tr><th>seg</th>"
                       f"<th>{_e(v.a)}</th><th>{_e(v.b)}</th><th>reference</th></tr>")  # fmt: skip
            for w in wins[:5]:
                out.append(
                    f"<tr><td>{_e(w.seg_id)}</td><td>{_n(w.score_a, 3)}</td>"
                    f"<td>{_n(w.score_b, 3)}</td><td class='l'>{_e(w.ref)}</td></tr>"
                )
            out.append("</table>")
        for who, words in ((v.a, v.words_only_a), (v.b, v.words_only_b)):
            listed = ", ".join(f"{_e(w)} ({c})" for w, c in words[:15])
            out.append(f"<p>Reference words only {_e(who)} matches: {listed}</p>")
    return "".join(out)


def to_html(rep: CorpusReport) -> str:
    """The whole report as one HTML page, figures inside, plotly.js inline."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>METEOR corpus report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>METEOR corpus report</h1>",
        f"<p>Signature: <code id='signature'>{_e(rep.signature)}</code></p>",
        f"<p id='data'>Data: {_e(data_line(rep))}.</p>",
        *(f"<p class='note'>Note: {_e(n)}.</p>" for n in rep.notes),
        "<h2>Ranking</h2>",
        "<p>Corpus METEOR from summed statistics with its 95 % bootstrap interval; the mean of "
        "segment scores is a different number, shown beside it. "
        f"Clusters: {_e(rep.ranking.cluster_rule)}.</p>",
        _ranking_table(rep),
        f"<h2>Pairwise tests ({rep.ranking.comparisons} comparisons, alpha "
        f"{rep.ranking.alpha:g}, test {_e(named_test(rep.ranking.test))}, correction "
        f"{_e(rep.ranking.correction)})</h2>",
        f"<p id='decision'>{_e(rep.ranking.decision[0].upper() + rep.ranking.decision[1:])}.</p>",
        _pairs_table(rep),
    ]
    first = True
    for fig_id, fig in report_figures(rep):
        if fig_id == "stages":
            parts.append("<h2>Where the points go</h2>")
        elif fig_id == "bucket-0":
            parts.append("<h2>Buckets</h2>")
        div = pio.to_html(
            standalone(fig),  # the caller's theme (the app's) stays out
            validate=False,  # a figure already
            full_html=False,
            include_plotlyjs=first,  # inline plotly.js once: the file opens offline
            div_id=f"fig-{fig_id}",
            config=_CONFIG,
        )
        first = False
        parts.append(f"<div class='fig'>{div}</div>")
    parts += [_losses(rep), "</body></html>"]
    return "\n".join(parts)
