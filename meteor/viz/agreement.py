"""Plotly figures of agreement with people: library records in, ``go.Figure`` out.

:func:`scatter` draws one metric's segment scores against the human scores (a trace per
system; ``customdata = [row index, system index, segment number]``, the row in the judged
corpus's system-major order); :func:`heatmap` draws an
:class:`~meteor.analysis.agreement_grid.AgreementGrid` (``z``: its values, unchanged) with
the metric's own setting and the best cell marked.
"""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go

from meteor.analysis.agreement import Judged, MetricScores
from meteor.analysis.agreement_grid import AgreementGrid
from meteor.params import PARAM_SYMBOLS
from meteor.viz.style import escape, frame, system_color

__all__ = ["LABELS_EN", "PARAM_SYMBOLS", "heatmap", "scatter"]

#: Every display string of these figures by key (a page passes ``labels`` with these keys).
LABELS_EN: dict[str, str] = {
    "metric_axis": "{name} segment score",
    "human_axis": "human score ({column})",
    "lower_better": "lower is better",
    "system": "system",
    "segment": "segment",
    "current": "the metric's own setting",
    "best": "best: {value}",
    "measure": "{measure}",
}


def _label(labels: Mapping[str, str] | None, key: str, **kw: str) -> str:
    text = labels[key] if labels and key in labels else LABELS_EN[key]
    return text.format(**kw) if kw else text


def scatter(
    judged: Judged, scores: MetricScores, *, labels: Mapping[str, str] | None = None
) -> go.Figure:
    """``scores``' segment score (x) against the human score (y), one trace per system."""
    if judged.human is None:
        raise ValueError("pairwise judgements only: no human score to plot against")
    fig = go.Figure()
    corpus = judged.corpus
    row = 0
    for k, (system, hyps) in enumerate(corpus.systems):
        n = len(hyps)
        xs = list(scores.segment[row : row + n])
        ys = [float(v) for v in judged.human[system]]
        ids = corpus.ids_of(system)
        fig.add_trace(
            go.Scattergl(
                x=xs,
                y=ys,
                mode="markers",
                name=escape(system),
                marker={"color": system_color(k), "size": 6, "opacity": 0.7},
                customdata=[[row + i, k, i + 1] for i in range(n)],
                text=[escape(s) for s in ids],
                hovertemplate=(
                    f"{escape(_label(labels, 'system'))}: {escape(system)}<br>"
                    f"{escape(_label(labels, 'segment'))} %{{text}}<br>"
                    "x = %{x:.4f}<br>y = %{y:.4f}<extra></extra>"
                ),
            )
        )
        row += n
    y_title = _label(labels, "human_axis", column=judged.human_column)
    if not judged.higher_is_better:
        y_title += f" · {_label(labels, 'lower_better')}"
    fig.update_layout(
        **frame(None),
        xaxis_title=escape(_label(labels, "metric_axis", name=scores.name)),
        yaxis_title=escape(y_title),
        legend_title_text=escape(_label(labels, "system")),
        height=460,
    )
    return fig


def heatmap(
    grid: AgreementGrid,
    *,
    labels: Mapping[str, str] | None = None,
    measure_name: str | None = None,
    fmt: str = ".3f",
) -> go.Figure:
    """The grid as a heatmap: ``z[i][j]`` is ``grid.values[i][j]`` (NaN: no value)."""
    xs = list(grid.x_values)
    ys = list(grid.y_values)
    z = grid.to_dict()["values"]  # NaN as None: a gap
    title = _label(labels, "measure", measure=measure_name or grid.measure)
    sx = PARAM_SYMBOLS.get(grid.x_param, grid.x_param)
    sy = PARAM_SYMBOLS.get(grid.y_param, grid.y_param)
    fig = go.Figure(
        go.Heatmap(
            x=xs,
            y=ys,
            z=z,
            colorscale="Viridis",
            colorbar={"title": {"text": escape(title)}},
            hovertemplate=f"{sx} = %{{x}}<br>{sy} = %{{y}}<br>%{{z:{fmt}}}<extra></extra>",
        )
    )
    # the metric's own setting, and the best cell if there is one
    current = {"symbol": "circle-open", "size": 14, "color": "white", "line": {"width": 2}}
    marks = [(grid.base[0], grid.base[1], _label(labels, "current"), current)]
    best = grid.best()
    if best is not None:
        name = _label(labels, "best", value=format(best[2], fmt))
        marks.append((best[0], best[1], name, {"symbol": "star", "size": 14, "color": "#D55E00"}))
    for x, y, name, marker in marks:
        fig.add_trace(
            go.Scatter(
                x=[x],
                y=[y],
                mode="markers",
                marker=marker,
                name=escape(name),
                hovertemplate=f"{sx} = %{{x}}<br>{sy} = %{{y}}<extra></extra>",
            )
        )
    fig.update_layout(
        **frame(None),
        xaxis_title=sx,
        yaxis_title=sy,
        legend={"orientation": "h", "y": -0.2},
        height=460,
    )
    return fig
