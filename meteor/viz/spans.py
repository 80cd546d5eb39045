"""Human error spans on the link view's hypothesis row (:func:`span_link_view`).

Behind each hypothesis token an error span overlaps (:func:`meteor.analysis.spans.label_tokens`)
a square as strong as the severity, with the categories, raters and the token's cell on hover
and one legend entry per severity shown, in both layouts of the link view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from meteor.analysis.spans import TokenLabel
from meteor.types import Alignment
from meteor.viz.links import link_view
from meteor.viz.style import escape, label, rgba

__all__ = ["SEVERITY_OPACITY", "SPAN_COLOR", "SPAN_LABELS_EN", "add_spans", "span_link_view"]

#: The colour of a human error mark (a purple apart from the stage colours and the
#: unmatched orange-red), and its opacity per severity: the mark's strength.
SPAN_COLOR = "#7B2CBF"
SEVERITY_OPACITY = {"Minor": 0.25, "BAD": 0.25, "Major": 0.5, "Critical": 0.8}
_ORDER = ("Critical", "Major", "Minor", "BAD")

#: The strings of the marks (a page passes its language's ``labels``; keys missing there
#: fall back to these).
SPAN_LABELS_EN = {
    "span_error": "human error",
    "span_Minor": "human error: Minor",
    "span_Major": "human error: Major",
    "span_Critical": "human error: Critical",
    "span_BAD": "human error: BAD (QE tag)",
    "span_raters": "raters",
    "cell_unmatched_error": "METEOR saw it (unmatched)",
    "cell_matched_error": "an error METEOR cannot see (matched by {stage})",
}


def _label(labels: Mapping[str, str] | None, key: str) -> str:
    if labels and key in labels:
        return labels[key]
    return SPAN_LABELS_EN.get(key, label(labels, key))


def _category(labels: Mapping[str, str] | None, category: str) -> str:
    """A category as the raters (or the QE reader, :data:`meteor.io.spans.QE_CATEGORIES`)
    gave it, or its ``category_…`` label when ``labels`` words it (the reader's own)."""
    return (labels or {}).get(f"category_{category}", category)


def _hover(t: TokenLabel, labels: Mapping[str, str] | None) -> str:
    sev = _label(labels, f"span_{t.severity}")
    cell = (
        _label(labels, "cell_unmatched_error")
        if t.flagged
        else _label(labels, "cell_matched_error").replace("{stage}", label(labels, t.stage or ""))
    )
    return (
        f"{escape(label(labels, 'hyp_short'))}[{t.index + 1}] <b>{escape(t.text)}</b>"
        f"<br>{escape(sev)}"
        + "".join(f"<br>{escape(_category(labels, c))}" for c in t.categories)
        + f"<br>{escape(_label(labels, 'span_raters'))}: {t.raters}<br>{escape(cell)}"
    )


def add_spans(
    fig: go.Figure, tokens: Sequence[TokenLabel], labels: Mapping[str, str] | None = None
) -> go.Figure:
    """A copy of a link view with the human error marks behind its hypothesis tokens.

    ``fig``: :func:`meteor.viz.links.link_view` of the alignment ``tokens`` label.
    """
    hyp_trace = next(t for t in fig.data if (t.meta or {}).get("role") == "tokens_hyp")
    xs, ys = list(hyp_trace.x), list(hyp_trace.y)
    if len(xs) != len(tokens):
        raise ValueError(f"{len(tokens)} token labels for {len(xs)} hypothesis tokens")
    marks = []
    for sev in _ORDER:
        marked = [t for t in tokens if t.error and t.severity == sev]
        if not marked:
            continue
        marks.append(
            go.Scatter(
                x=[xs[t.index] for t in marked],
                y=[ys[t.index] for t in marked],
                mode="markers",
                marker={
                    "symbol": "square",
                    "size": 26,
                    "color": rgba(SPAN_COLOR, SEVERITY_OPACITY[sev]),
                    "line": {"width": 0},
                },
                customdata=[["hyp", t.index] for t in marked],
                hovertext=[_hover(t, labels) for t in marked],
                hovertemplate="%{hovertext}<extra></extra>",
                name=_label(labels, f"span_{sev}"),
                legendgroup="human_errors",
                meta={"role": f"spans_{sev}", "severity": sev},
            )
        )
    # behind everything else: the tokens and links stay on top
    out = go.Figure(data=[*marks, *fig.data], layout=fig.layout)
    out.update_layout(meta={**(out.layout.meta or {}), "human_spans": bool(marks)})
    return out


def span_link_view(
    alignment: Alignment,
    tokens: Sequence[TokenLabel],
    *,
    labels: Mapping[str, str] | None = None,
    **link_view_options: Any,
) -> go.Figure:
    """:func:`meteor.viz.links.link_view` with the human error spans (:func:`add_spans`)."""
    return add_spans(link_view(alignment, labels=labels, **link_view_options), tokens, labels)
