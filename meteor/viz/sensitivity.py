"""Sensitivity curves (:func:`sensitivity_figure`): the score as α, β, γ, δ move, one panel
per parameter, one curve per setting, the current values marked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from meteor.analysis.compare_settings import Curve
from meteor.viz.style import Fmt, default_fmt, escape, label

__all__ = ["COINCIDE_TOL", "coinciding_curves", "sensitivity_figure"]


#: One colour, dash and marker per setting (Okabe-Ito colours): a setting stays
#: identifiable in grey print or for any colour vision, and curves that coincide stay
#: visible (earlier settings are drawn wider, later ones inside them; markers staggered).
_SERIES = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
_SERIES_DASH = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
_SERIES_SYMBOL = ("circle", "square", "diamond", "triangle-up", "x", "star")
#: Two curves closer than this everywhere are "the same curve" for the note.
COINCIDE_TOL = 1e-9


def coinciding_curves(curves: Mapping[str, Sequence[Curve]]) -> list[tuple[list[str], list[str]]]:
    """Settings whose curves coincide: ``[(setting names, parameters), ...]``, per parameter
    those with the same xs and ys within :data:`COINCIDE_TOL`; groups of the same settings are
    merged across parameters (in parameter order), settings kept in order."""
    names = list(curves)
    found: dict[tuple[str, ...], list[str]] = {}
    if not names:
        return []
    for col, c0 in enumerate(curves[names[0]]):
        groups: list[list[str]] = []
        for name in names:
            c = curves[name][col]
            for g in groups:
                ref = curves[g[0]][col]
                if list(ref.xs) == list(c.xs) and all(
                    abs(a - b) <= COINCIDE_TOL for a, b in zip(ref.ys, c.ys, strict=True)
                ):
                    g.append(name)
                    break
            else:
                groups.append([name])
        for g in groups:
            if len(g) > 1:
                found.setdefault(tuple(g), []).append(c0.param)
    return [(list(g), ps) for g, ps in found.items()]


def sensitivity_figure(
    curves: Mapping[str, Sequence[Curve]],
    *,
    labels: Mapping[str, str] | None = None,
    fmt: Fmt = default_fmt,
) -> go.Figure:
    """One panel per parameter; one line per setting (its own colour, dash and marker), its
    current value marked; curves of several settings that coincide (:func:`coinciding_curves`)
    get a note above the panels (label ``coincide``) and ``meta["same_as"]``.  ``curves``:
    setting name → :func:`meteor.analysis.compare_settings.sensitivity`.
    """
    names = list(curves)
    params = [c.param for c in curves[names[0]]] if names else []
    fig = make_subplots(
        rows=1,
        cols=max(len(params), 1),
        shared_yaxes=True,
        subplot_titles=[escape(label(labels, p)) for p in params],
        horizontal_spacing=0.04,
    )
    same = coinciding_curves(curves)
    same_as = {  # (setting, parameter) → the other settings whose curve coincides with it
        (name, p): [g for g in group if g != name]
        for group, ps in same
        for p in ps
        for name in group
    }
    n = len(names)
    for s, setting in enumerate(names):
        look = _Look(s, n)
        for col, c in enumerate(curves[setting], start=1):
            others = same_as.get((setting, c.param), [])
            curve = _curve_trace(c, setting, look, others, labels, legend=col == 1)
            fig.add_trace(curve, row=1, col=col)
            fig.add_trace(_current_trace(c, setting, look, labels, fmt), row=1, col=col)
    notes = _coincide_notes(same, labels)
    for a in notes:
        fig.add_annotation(a)
    fig.update_yaxes(range=[0, 1.02])
    fig.update_yaxes(title={"text": escape(label(labels, "score_axis"))}, row=1, col=1)
    for col in range(len(params)):  # one x-range per panel, over every setting's curve
        xs = [x for cs in curves.values() for x in (*cs[col].xs, cs[col].current_x)]
        lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
        pad = 0.02 * (hi - lo or 1.0)  # the end markers whole
        fig.update_xaxes(range=[lo - pad, hi + pad], row=1, col=col + 1)
    fig.update_layout(
        height=300 + 18 * len(notes),
        margin={"l": 10, "r": 10, "t": 40 + 18 * len(notes), "b": 10},
        legend={
            "orientation": "h",
            "yanchor": "bottom",
            "y": -0.35,
            "x": 0.0,
            "itemsizing": "constant",  # each setting's marker shown in the legend too
        },
        plot_bgcolor="white",
    )
    return fig


class _Look:
    """Colour, dash, marker and line width of the ``s``-th of ``n`` settings: earlier ones
    wider, markers every ``step`` points shifted by one a setting, so coinciding curves show."""

    def __init__(self, s: int, n: int) -> None:
        self.color = _SERIES[s % len(_SERIES)]
        self.dash = _SERIES_DASH[s % len(_SERIES_DASH)]
        self.symbol = _SERIES_SYMBOL[s % len(_SERIES_SYMBOL)]
        self.width = 2.0 + 1.5 * (n - 1 - s)
        self.group = f"s{s}"
        step = 2 * max(n, 1)
        self._phase = (s % step, step)

    def marker_sizes(self, count: int) -> list[int]:
        phase, step = self._phase
        return [9 if k % step == phase else 0 for k in range(count)]


def _curve_trace(
    c: Curve,
    setting: str,
    look: _Look,
    same_as: list[str],
    labels: Mapping[str, str] | None,
    *,
    legend: bool,
) -> go.Scatter:
    """One setting's curve over one parameter (``legend``: its entry in the legend)."""
    return go.Scatter(
        x=list(c.xs),
        y=list(c.ys),
        mode="lines+markers",
        line={"color": look.color, "width": look.width, "dash": look.dash},
        marker={"symbol": look.symbol, "size": look.marker_sizes(len(c.xs)), "color": look.color},
        name=escape(setting),
        legendgroup=look.group,
        showlegend=legend,
        hovertemplate=f"{escape(label(labels, c.param))} = %{{x:.3f}}"
        f"<br>{escape(label(labels, 'score'))} %{{y:.4f}}<extra>" + escape(setting) + "</extra>",
        meta={"role": "curve", "param": c.param, "setting": setting, "same_as": same_as},
    )


def _current_trace(
    c: Curve, setting: str, look: _Look, labels: Mapping[str, str] | None, fmt: Fmt
) -> go.Scatter:
    """The setting's current value of the parameter, marked on its curve."""
    score = escape(label(labels, "score"))
    return go.Scatter(
        x=[c.current_x],
        y=[c.current_y],
        mode="markers",
        marker={
            "color": look.color,
            "size": 12,
            "symbol": look.symbol,
            "line": {"color": "white", "width": 1},
        },
        name=f"{escape(setting)} ({escape(label(labels, 'current'))})",
        legendgroup=look.group,
        showlegend=False,
        hovertext=[
            f"{escape(setting)}: {escape(label(labels, c.param))} = "
            f"{fmt(c.current_x)}, {score} {fmt(c.current_y)}"
        ],
        hovertemplate="%{hovertext}<extra></extra>",
        meta={"role": "current", "param": c.param, "setting": setting},
    )


def _coincide_notes(
    same: Sequence[tuple[list[str], list[str]]], labels: Mapping[str, str] | None
) -> list[dict[str, object]]:
    """One note per group of coinciding curves, stacked above the panels."""
    notes = []
    for k, (group, ps) in enumerate(same):
        text = (
            label(labels, "coincide")
            .replace("{names}", " = ".join(group))
            .replace("{params}", ", ".join(label(labels, p) for p in ps))
        )
        notes.append(
            {
                "text": escape(text),
                "xref": "paper",
                "yref": "paper",
                "x": 0.0,
                "y": 1.0,
                "xanchor": "left",
                "yanchor": "bottom",
                "yshift": 24 + 18 * (len(same) - 1 - k),
                "showarrow": False,
                "align": "left",
                "font": {"size": 12, "color": "#333333"},
                "name": "coincide",
            }
        )
    return notes
