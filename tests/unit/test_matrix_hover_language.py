"""The X-Ray matrix's hovers name the two sides in the interface's words (the Russian
interface passes its labels; English is the default), numbered from 1 as every table."""

from __future__ import annotations

import meteor
from meteor.viz import figures


def _hovers(fig: object) -> list[str]:
    out: list[str] = []
    for trace in fig.data:  # type: ignore[attr-defined]
        text = trace.text
        if text is None:
            continue
        for row in text if isinstance(text[0], (list, tuple)) else [text]:
            out += [t for t in row if t]
    return out


def test_hovers_name_the_sides_in_the_given_language() -> None:
    al = meteor.score("the cat sat", "the cat sat down").alignment
    english = _hovers(figures.matrix_view(al))
    russian = _hovers(figures.matrix_view(al, labels={"hyp_short": "гип", "ref_short": "эт"}))
    assert any(t.startswith("hyp[1] the / ref[1] the") for t in english)
    assert any(t.startswith("гип[1] the / эт[1] the") for t in russian)
    assert not any("hyp[" in t or "ref[" in t for t in russian)
