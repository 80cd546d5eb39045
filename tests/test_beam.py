"""The beam aligner's two step implementations (plain list, bounded heap) choose the same.

Meteor 1.5 sorts every successor stably and keeps the first `beam`; the heap path keeps
the `beam` smallest (key, insertion order) without building the others.  They must agree
on every input, including ties, tiny beams and n:m candidates.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor.aligners import beam
from meteor.types import Match, Module, Span


@st.composite
def lattices(draw: st.DrawFn) -> tuple[int, int, list[Match]]:
    n_hyp = draw(st.integers(0, 9))
    n_ref = draw(st.integers(0, 9))
    cands: list[Match] = []
    if n_hyp and n_ref:
        for _ in range(draw(st.integers(0, 30))):
            hs = draw(st.integers(0, n_hyp - 1))
            rs = draw(st.integers(0, n_ref - 1))
            hl = draw(st.integers(1, min(3, n_hyp - hs)))
            rl = draw(st.integers(1, min(3, n_ref - rs)))
            mod = draw(st.sampled_from([Module.EXACT, Module.STEM, Module.PARAPHRASE]))
            cands.append(Match(mod, Span(hs, hs + hl), Span(rs, rs + rl), ("h",), ("r",)))
    return n_hyp, n_ref, cands


@settings(max_examples=300, deadline=None)
@given(
    case=lattices(),
    beam_size=st.sampled_from([1, 2, 3, 5, 40]),
    threshold=st.sampled_from([-1, 2, 6, 12]),  # all heap steps, or a mix of both kinds
)
def test_heap_and_list_steps_agree(
    case: tuple[int, int, list[Match]], beam_size: int, threshold: int
) -> None:
    n_hyp, n_ref, cands = case
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(beam, "_HEAP_THRESHOLD", 10**9)
        by_list = beam.align_beam(n_hyp, n_ref, cands, beam_size)
        mp.setattr(beam, "_HEAP_THRESHOLD", threshold)
        by_heap = beam.align_beam(n_hyp, n_ref, cands, beam_size)
    assert by_list == by_heap
