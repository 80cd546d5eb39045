"""The corpus report as LaTeX tables, Markdown and JSON (the HTML: :mod:`meteor.viz.report_html`).

* **LaTeX** (:func:`to_latex`): ``booktabs`` tables (the ranking with clusters, each
  bucketing; past :data:`LATEX_SYSTEMS_PER_TABLE` systems a bucketing continues in further
  tables), the signature in a footnote of the ranking's caption; user text through
  :func:`latex_escape`.
* **Markdown** (:func:`to_markdown`): the same tables; user text inert (``& < >`` as HTML
  entities, every other Markdown character behind a backslash, line breaks as spaces: no name
  becomes HTML, a link, an image or a table cell); the signature a code span whose fence is
  longer than any backtick run in it.
* **JSON** (:func:`to_json`): :meth:`CorpusReport.to_dict`, with NaN and ±inf as ``null``.
"""

from __future__ import annotations

import math
import re

from meteor.analysis.buckets import BucketTable
from meteor.analysis.corpus_report import CorpusReport
from meteor.analysis.pvalue_text import bootstrap_resolution, p_value_text, plus_one_resolution
from meteor.analysis.ranking import named_test
from meteor.json_numbers import json_text

__all__ = [
    "LATEX_SYSTEMS_PER_TABLE",
    "data_line",
    "latex_escape",
    "pair_p_texts",
    "to_json",
    "to_latex",
    "to_markdown",
]

#: Most systems one LaTeX bucket table holds: with the bucket and its count, seven
#: columns, which fit a page's text width; more systems continue in further tables.
LATEX_SYSTEMS_PER_TABLE = 5

_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "`": r"\textasciigrave{}",
    "–": "--",
    "≤": r"$\le$",
    "≥": r"$\ge$",
}


def latex_escape(text: str) -> str:
    """``text`` safe inside a LaTeX table cell (the ten special characters, and ``< > |``
    that OT1, LaTeX's default font encoding, draws as ``¡ ¿ —``, and a backtick, which
    would open a quotation mark; line breaks as spaces)."""
    text = " ".join(text.split())
    return "".join(_LATEX.get(ch, ch) for ch in text)


def to_json(rep: CorpusReport) -> str:
    """The whole analysis as one JSON document."""
    return json_text(rep.to_dict(), indent=2)


def _num(x: float | None) -> str:
    return "--" if x is None or not math.isfinite(x) else f"{x:.4f}"


def _pct(x: float | None) -> str:
    return "--" if x is None or not math.isfinite(x) else f"{100 * x:.1f}"


def data_line(rep: CorpusReport) -> str:
    src = ", ".join(rep.sources) or "in memory"
    return (
        f"{len(rep.system_segments)} systems, {rep.segments:,} segments ({src}); "
        f"{rep.ranking.comparisons} pairwise comparisons, {rep.ranking.samples:,} bootstrap "
        f"samples, {rep.ranking.trials:,} randomisation trials, seed {rep.ranking.seed}; "
        f"test {named_test(rep.ranking.test)}, correction {rep.ranking.correction}"
    )


def pair_p_texts(rep: CorpusReport, missing: str) -> list[tuple[str, str, str]]:
    """Each pair's (bootstrap p, randomisation p, adjusted p) as every writer prints them."""
    rk = rep.ranking
    bs, ar = bootstrap_resolution(rk.samples), plus_one_resolution(rk.trials)
    adj = ar if rk.test == "ar" else bs
    return [
        (
            p_value_text(p.p_bootstrap, bs, missing=missing),
            p_value_text(p.p_randomisation, ar, missing=missing),
            p_value_text(p.p_adjusted, adj, missing=missing),
        )
        for p in rk.pairs
    ]


# --------------------------------------------------------------------------- LaTeX
def _latex_table(cols: str, head: str, body: list[str], caption: str) -> list[str]:
    """A ``booktabs`` table: ``head`` over the ``body`` rows, then ``caption``."""
    return [
        r"\begin{table}[t]",
        r"\centering",
        r"\begin{tabular}{" + cols + "}",
        r"\toprule",
        head,
        r"\midrule",
        *body,
        r"\bottomrule",
        r"\end{tabular}",
        r"\caption{" + caption + "}",
        r"\end{table}",
    ]


def _latex_ranking(rep: CorpusReport) -> list[str]:
    rk = rep.ranking
    body: list[str] = []
    last = None
    for r in rk.systems:
        if last is not None and r.cluster != last:
            body.append(r"\midrule")
        last = r.cluster
        body.append(
            f"{r.cluster} & {latex_escape(r.name)} & {r.segments:,} & "
            f"{_num(r.corpus.value)} & [{_num(r.corpus.low)}, {_num(r.corpus.high)}] & "
            f"{_num(r.mean_segment.value)} & {_num(r.recall)} \\\\"
        )
    caption = (
        r"Corpus METEOR (summed statistics) with its 95\% bootstrap interval; "
        r"``Mean seg.'' is the mean of segment scores. Clusters: "
        + latex_escape(rk.cluster_rule)
        + ". "
        + latex_escape(rk.decision[0].upper() + rk.decision[1:])
        + "."
        + "".join(" " + latex_escape(d.note(rk.alpha)) + "." for d in rk.borderline)
        + r"\protect\footnotemark"
    )
    head = r"Cluster & System & Segments & METEOR & 95\% CI & Mean seg. & R \\"
    return [
        *_latex_table("rlrrrrr", head, body, caption),
        r"\footnotetext{" + latex_escape(rep.signature) + "; " + latex_escape(data_line(rep)) + "}",
    ]


def _latex_buckets(rep: CorpusReport, table: BucketTable) -> list[str]:
    """One table per :data:`LATEX_SYSTEMS_PER_TABLE` systems (ranking order)."""
    every = rep.systems
    step = LATEX_SYSTEMS_PER_TABLE
    parts = [every[k : k + step] for k in range(0, len(every), step)]
    lines: list[str] = []
    for k, systems in enumerate(parts):
        if lines:
            lines.append("")
        part = (
            f" Systems {k * step + 1}--{k * step + len(systems)} of {len(every)} (ranking order)."
            if len(parts) > 1
            else ""
        )
        lines += _latex_bucket_table(rep, table, systems, part)
    return lines


def _latex_bucket_table(
    rep: CorpusReport, table: BucketTable, systems: tuple[str, ...], part: str
) -> list[str]:
    seg = table.unit == "segments"
    head = " & ".join(latex_escape(s) for s in systems)
    what = "METEOR" if seg else "recall"
    body = []
    for lab in table.labels:
        first = table.get(rep.systems[0], lab)
        count = first.count if first is not None else 0
        cells = []
        for s in systems:
            b = table.get(s, lab)
            cells.append("--" if b is None else _num(b.meteor if seg else b.recall))
        body.append(f"{latex_escape(lab)} & {count:,} & {' & '.join(cells)} \\\\")
    caption = (latex_escape(table.title) + f": {what} per bucket "
        + ("(summed statistics of the bucket's segments); n: segments of the top system."
           if seg else "(share of the bucket's reference words matched); n: reference words "
           "of the top system.") + part)  # fmt: skip
    cols = "l" + "r" * (1 + len(systems))
    return _latex_table(cols, f"{latex_escape(table.title)} & n & {head} \\\\", body, caption)


def to_latex(rep: CorpusReport) -> str:
    """Every table of the report as LaTeX (needs ``\\usepackage{booktabs}``)."""
    lines = [
        "% METEOR corpus report; needs \\usepackage{booktabs}",
        "% " + rep.signature,
        *_latex_ranking(rep),
        "",
    ]
    for t in rep.buckets:
        lines += [*_latex_buckets(rep, t), ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------- Markdown
_MD_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MD_SPECIAL = frozenset('\\`*_{}[]()#+-.!|~$:=^"')


def _md(text: str) -> str:
    """User text inert in Markdown (module docstring): one line, HTML's ``& < >`` as
    entities, Markdown's characters behind a backslash."""
    return "".join(
        _MD_ENTITIES.get(ch) or ("\\" + ch if ch in _MD_SPECIAL else ch)
        for ch in " ".join(text.split())
    )


def _md_plain(text: str) -> str:
    """The report's own text (a p-value's ``<``, the cluster rule) with HTML's ``& < >``
    as entities: no ``<`` of ours starts a tag either."""
    return "".join(_MD_ENTITIES.get(ch, ch) for ch in text)


def _md_code(text: str) -> str:
    """``text`` as one Markdown code span: the fence is one backtick longer than the
    longest run in it, with a space inside when it starts or ends with a backtick."""
    text = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def to_markdown(rep: CorpusReport) -> str:
    """The report's tables as Markdown."""
    rk = rep.ranking
    out = [
        "# METEOR corpus report",
        "",
        f"Signature: {_md_code(rep.signature)}",
        "",
        f"Data: {_md(data_line(rep))}.",
        "",
        "## Ranking",
        "",
        "Corpus METEOR from summed statistics with its 95 % bootstrap interval; "
        "*mean seg.* is the mean of segment scores. "
        f"Clusters: {_md_plain(rk.cluster_rule)}.",
        "",
        "| cluster | system | segments | METEOR | 95 % CI | mean seg. | P | R | frag |",
        "|---:|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for r in rk.systems:
        out.append(
            f"| {r.cluster} | {_md(r.name)} | {r.segments:,} | {_num(r.corpus.value)} | "
            f"[{_num(r.corpus.low)}, {_num(r.corpus.high)}] | {_num(r.mean_segment.value)} | "
            f"{_num(r.precision)} | {_num(r.recall)} | {_num(r.frag)} |"
        )
    out += [
        "",
        f"## Pairwise tests ({rk.comparisons} comparisons, alpha {rk.alpha:g}, "
        f"test {named_test(rk.test)}, correction {rk.correction})",
        "",
        f"{_md_plain(rk.decision[0].upper() + rk.decision[1:])}.",
        "",
        "| A | B | common | B − A | 95 % CI | p (bootstrap) | p (randomisation) | "
        f"{rk.adjusted_label} | significant |",
        "|---|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for p, texts in zip(rk.pairs, pair_p_texts(rep, "--"), strict=True):
        p_bs, p_ar, p_adj = (_md_plain(x) for x in texts)
        out.append(
            f"| {_md(p.a)} | {_md(p.b)} | {p.common:,} | {p.difference:+.4f} | "
            f"[{_num(p.difference_low)}, {_num(p.difference_high)}] | {p_bs} | {p_ar} | "
            f"{p_adj} | {'yes' if p.significant else 'no'} |"
        )
    for t in rep.buckets:
        seg = t.unit == "segments"
        out += ["", f"## Buckets: {_md(t.title)}", ""]
        out.append(
            "| system | bucket | n | METEOR | 95 % CI | P | R | frag |"
            if seg
            else "| system | bucket | ref words | hyp words | P | R | F |"
        )
        out.append(
            "|---|---|---:|---:|---|---:|---:|---:|"
            if seg
            else "|---|---|---:|---:|---:|---:|---:|"
        )
        for b in t.rows:
            if seg:
                out.append(
                    f"| {_md(b.system)} | {_md(b.label)} | {b.count:,} | {_num(b.meteor)} | "
                    f"[{_num(b.low)}, {_num(b.high)}] | {_num(b.precision)} | "
                    f"{_num(b.recall)} | {_num(b.frag)} |"
                )
            else:
                out.append(
                    f"| {_md(b.system)} | {_md(b.label)} | {b.count:,} | {b.hyp_words or 0:,} | "
                    f"{_num(b.precision)} | {_num(b.recall)} | {_num(b.fmean)} |"
                )
    out += ["", "## Where the points go", ""]
    for loss in rep.losses:
        stages = ", ".join(f"{m} {_pct(s)} %" for m, _c, s in loss.stage_matches)
        missed = ", ".join(f"{_md(w)} ({m}/{n})" for w, m, n in loss.missed_ref_words[:10])
        extra = ", ".join(f"{_md(w)} ({m}/{n})" for w, m, n in loss.unmatched_hyp_words[:10])
        out += [
            f"### {_md(loss.system)}",
            "",
            f"- matches by stage: {stages}",
            f"- most-missed reference words (missed/occurrences): {missed}",
            f"- unmatched hypothesis words: {extra}",
            "",
        ]
    for note in rep.notes:
        out.append(f"Note: {_md(note)}.")
    return "\n".join(out) + "\n"
