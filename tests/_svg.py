"""What an exported SVG figure shows: its fills and where its labels stand.

Plotly's SVG keeps every label as one ``<text>`` whose place is its ``x``/``y`` plus
the ``translate`` of it and its groups; a label is *whole* when the box its text
needs at least (half an em a character: narrower than any real glyph run) lies inside
the drawing.  Streamlit's plotly theme gives placeholder colours ``#000001``…
(``rgb(0, 0, 1)``…) that only its web page replaces: a file must hold none.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

NS = "{http://www.w3.org/2000/svg}"
_TRANSLATE = re.compile(r"translate\(\s*([-\d.e]+)(?:[ ,]+([-\d.e]+))?\s*\)")
_FILL = re.compile(r"(?<![-\w])fill:\s*rgb\((\d+),\s*(\d+),\s*(\d+)\)")
_SIZE = re.compile(r"font-size:\s*([\d.]+)px")


@dataclass(frozen=True)
class Label:
    """One text of the figure: its class (``xtick``, ``ytick``, ``xtitle``, ``ytitle``,
    ``legendtext``…), its text, anchor point and anchor, and font size."""

    kind: str
    text: str
    x: float
    y: float
    anchor: str
    size: float

    def span(self) -> tuple[float, float]:
        """The least horizontal extent the text needs (half an em a character)."""
        w = 0.5 * self.size * len(self.text)
        if self.anchor == "end":
            return self.x - w, self.x
        if self.anchor == "middle":
            return self.x - w / 2, self.x + w / 2
        return self.x, self.x + w


def _shift(el: ET.Element) -> tuple[float, float]:
    m = _TRANSLATE.search(el.get("transform", ""))
    if m is None:
        return 0.0, 0.0
    return float(m.group(1)), float(m.group(2) or 0.0)


def labels(svg: bytes) -> tuple[list[Label], float, float]:
    """Every text label and the drawing's width and height."""
    root = ET.fromstring(svg)
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
    out: list[Label] = []

    def walk(el: ET.Element, dx: float, dy: float, kind: str) -> None:
        sx, sy = (
            _shift(el)
            if el.tag != f"{NS}text" or "rotate" not in el.get("transform", "")
            else (0.0, 0.0)
        )
        dx, dy = dx + sx, dy + sy
        cls = el.get("class", "")
        if el.tag == f"{NS}text":
            text = "".join(el.itertext())
            size = _SIZE.search(el.get("style", ""))
            if text.strip():
                out.append(Label(cls or kind, text, dx + float(el.get("x", "0")),
                                 dy + float(el.get("y", "0")), el.get("text-anchor", "start"),
                                 float(size.group(1)) if size else 12.0))  # fmt: skip
            return
        for child in el:
            walk(child, dx, dy, cls if cls in ("xtick", "ytick") else kind)

    walk(root, 0.0, 0.0, "")
    return out, width, height


def cut_labels(svg: bytes) -> list[str]:
    """Labels whose text cannot fit inside the drawing where they stand."""
    found, width, height = labels(svg)
    bad = []
    for lab in found:
        left, right = lab.span()
        if lab.kind == "ytitle":  # turned a quarter: its height runs along x
            left, right = lab.x - lab.size / 2, lab.x + lab.size / 2
        if left < 0 or right > width or lab.y > height or lab.y < 0:
            bad.append(
                f"{lab.kind} {lab.text!r} at ({lab.x:.0f}, {lab.y:.0f}) in {width:.0f}×{height:.0f}"
            )
    return bad


def titles_over_ticks(svg: bytes) -> list[str]:
    """Axis titles that stand on their axis's tick labels."""
    found, _w, _h = labels(svg)
    bad = []
    yticks = [lab for lab in found if lab.kind == "ytick"]
    xticks = [lab for lab in found if lab.kind == "xtick"]
    for title in found:
        if title.kind == "ytitle" and yticks:
            leftmost = min(lab.span()[0] for lab in yticks)
            if title.x + title.size / 2 > leftmost:
                bad.append(f"y title {title.text!r} at x {title.x:.0f}, ticks from {leftmost:.0f}")
        if title.kind == "xtitle" and xticks:
            lowest = max(lab.y for lab in xticks)
            if title.y - title.size * 0.7 < lowest:
                bad.append(f"x title {title.text!r} at y {title.y:.0f}, ticks down to {lowest:.0f}")
    return bad


def fills(svg: bytes) -> set[str]:
    """Every fill colour of the drawing as ``#rrggbb``."""
    return {f"#{int(r):02x}{int(g):02x}{int(b):02x}" for r, g, b in _FILL.findall(svg.decode())}


def placeholder_fills(svg: bytes) -> set[str]:
    """Streamlit's placeholder colours (``#000001``…``#000040``) among the fills."""
    return {c for c in fills(svg) if c.startswith("#0000") and 0 < int(c[1:], 16) <= 0x40}


def legend_fills(svg: bytes) -> list[str]:
    """The fill of each legend entry's symbol, in legend order."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{NS}g"):
        if g.get("class") == "legendpoints":
            for path in g.iter(f"{NS}path"):
                m = _FILL.search(path.get("style", ""))
                if m:
                    out.append("#{:02x}{:02x}{:02x}".format(*map(int, m.groups())))
    return out
