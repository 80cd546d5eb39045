"""The beam aligner's two step implementations (plain list, bounded heap) choose the same.

Meteor 1.5 sorts every successor stably and keeps the first `beam`; the heap path keeps
the `beam` smallest (key, insertion order) without building the others.  They must agree
on every input, including ties, tiny beams and n:m candidates.  These tests run the
Python search (the C one, ``meteor_native``, is off here); tests/unit/test_native.py holds
the C search to the same transcription of Meteor 1.5's.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor.aligners import beam
from meteor.module_registry import Module
from meteor.types import Match, Span


@pytest.fixture(autouse=True)
def _python_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(beam, "NATIVE_SEARCH", None)


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


# -- the search against a literal transcription of Meteor 1.5's ------------------------------


class _Partial:
    """Aligner.java's ``Partial``, field by field (meteor-1.5.md section 9)."""

    def __init__(self, n_ref: int) -> None:
        self.m1 = self.m2 = self.chunks = self.distance = self.idx = 0
        self.last_end = -1
        self.hyp_used: set[int] = set()
        self.ref_used: set[int] = set()
        self.matches: list[int | None] = [None] * n_ref

    def copy(self) -> _Partial:
        new = _Partial(len(self.matches))
        new.__dict__.update(
            {k: (set(v) if isinstance(v, set) else list(v) if isinstance(v, list) else v)
             for k, v in self.__dict__.items()}
        )  # fmt: skip
        return new


def _java_search(
    n_hyp: int, n_ref: int, cands: list[tuple[Module, int, int, int, int]], beam_size: int
) -> list[int]:
    """The pseudo-code of meteor-1.5.md sections 7 and 9, written plainly: the oracle."""
    lattice: list[list[int]] = [[] for _ in range(n_ref)]
    cov_h = [0] * n_hyp
    cov_r = [0] * n_ref
    for cid, (_, hs, he, rs, re_) in enumerate(cands):
        lattice[rs].append(cid)
        for i in range(hs, he):
            cov_h[i] += 1
        for j in range(rs, re_):
            cov_r[j] += 1
    start = _Partial(n_ref)
    for j in range(n_ref):
        if len(lattice[j]) == 1:
            cid = lattice[j][0]
            _, hs, he, rs, re_ = cands[cid]
            if all(cov_r[k] == 1 for k in range(rs, re_)) and all(
                cov_h[k] == 1 for k in range(hs, he)
            ):
                start.matches[j] = cid
                start.hyp_used.update(range(hs, he))
                start.ref_used.update(range(rs, re_))

    def add(p: _Partial, cid: int) -> None:
        module, hs, he, rs, re_ = cands[cid]
        w = 1.0 if module is Module.EXACT else 0.5
        p.m1 = int(p.m1 + (he - hs) * w)  # quirk 1: Java int field, compound assignment
        p.m2 = int(p.m2 + (re_ - rs) * w)
        if p.last_end != -1 and hs != p.last_end:
            p.chunks += 1
        p.idx = re_
        p.last_end = he

    def rank(p: _Partial) -> tuple[int, int, int]:
        return (-(p.m1 + p.m2), p.chunks, p.distance)

    paths = [start]
    for cur in range(n_ref + 1):
        paths = sorted(paths, key=rank)
        nxt: list[_Partial] = []
        for path in paths[:beam_size]:
            if cur == n_ref:
                if path.last_end != -1:
                    path.chunks += 1
                nxt.append(path)
                continue
            if cur in path.ref_used:
                if cur < path.idx:
                    nxt.append(path)
                elif path.matches[path.idx] is not None:
                    cid = path.matches[path.idx]
                    assert cid is not None
                    add(path, cid)
                    path.distance += abs(cands[cid][3] - cands[cid][1])
                    nxt.append(path)
                continue
            for cid in lattice[cur]:
                _, hs, he, rs, re_ = cands[cid]
                if path.hyp_used & set(range(hs, he)) or path.ref_used & set(range(rs, re_)):
                    continue
                new = path.copy()
                new.hyp_used.update(range(hs, he))
                new.ref_used.update(range(rs, re_))
                new.matches[cur] = cid
                add(new, cid)
                path.distance += abs(rs - hs)  # quirk 2: the parent, not the new path
                nxt.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            nxt.append(path)
        paths = nxt or [paths[0]]
    best = sorted(paths, key=rank)[0]
    return sorted((c for c in best.matches if c is not None), key=lambda c: cands[c][3])


@settings(max_examples=400, deadline=None)
@given(
    case=lattices(),
    beam_size=st.sampled_from([1, 2, 3, 5, 40]),
    threshold=st.sampled_from([-1, 6, 10**9]),  # heap steps only, a mix, list steps only
)
def test_search_equals_the_java_transcription(
    case: tuple[int, int, list[Match]], beam_size: int, threshold: int
) -> None:
    n_hyp, n_ref, cands = case
    plain = [(m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end) for m in cands]
    expected = _java_search(n_hyp, n_ref, plain, beam_size)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(beam, "_HEAP_THRESHOLD", threshold)
        got = beam.beam_choice(n_hyp, n_ref, [(*c, "", None) for c in plain], beam_size)
    assert got == expected


def test_search_keys_stay_exact_for_long_pairs() -> None:
    """Wide key fields (long pairs, many candidates) still rank as the transcription does."""
    n = 120
    plain = [(Module.EXACT, i, i + 1, (i * 7) % n, (i * 7) % n + 1) for i in range(n)]
    plain += [(Module.STEM, i, i + 1, i, i + 1) for i in range(0, n, 3)]
    plain += [(Module.PARAPHRASE, i, i + 2, (i * 5) % (n - 1), (i * 5) % (n - 1) + 2)
              for i in range(0, n - 1, 4)]  # fmt: skip
    plain.sort(key=lambda c: c[3])
    got = beam.beam_choice(n, n, [(*c, "", None) for c in plain], 40)
    assert got == _java_search(n, n, plain, 40)


@st.composite
def repetitive_lattices(
    draw: st.DrawFn,
) -> tuple[int, int, list[tuple[Module, int, int, int, int]]]:
    """Candidates as the matchers make them for text from a tiny vocabulary: every
    exact pair, some stem pairs and a few paraphrases, in lattice order (module, then
    reference position, then hypothesis position) -- runs of one-word candidates."""
    vocab = st.sampled_from("abc")
    hyp = draw(st.lists(vocab, min_size=1, max_size=12))
    ref = draw(st.lists(vocab, min_size=1, max_size=12))
    stem = {("a", "b"), ("b", "a")} if draw(st.booleans()) else set()
    cands: list[tuple[Module, int, int, int, int]] = []
    for j, rw in enumerate(ref):
        cands += [(Module.EXACT, i, i + 1, j, j + 1) for i, hw in enumerate(hyp) if hw == rw]
    for j, rw in enumerate(ref):
        cands += [(Module.STEM, i, i + 1, j, j + 1) for i, hw in enumerate(hyp) if (hw, rw) in stem]
    for _ in range(draw(st.integers(0, 4))):
        hs = draw(st.integers(0, len(hyp) - 1))
        rs = draw(st.integers(0, len(ref) - 1))
        he = draw(st.integers(hs + 1, min(len(hyp), hs + 3)))
        re_ = draw(st.integers(rs + 1, min(len(ref), rs + 3)))
        cands.append((Module.PARAPHRASE, hs, he, rs, re_))
    order = {Module.EXACT: 0, Module.STEM: 1, Module.PARAPHRASE: 2}
    cands.sort(key=lambda c: (order[c[0]], c[3], c[1]))
    return len(hyp), len(ref), cands


@settings(max_examples=400, deadline=None)
@given(
    case=repetitive_lattices(),
    beam_size=st.sampled_from([1, 2, 3, 5, 40]),
    min_run=st.sampled_from([1, 2, 4]),
)
def test_pruned_heap_steps_equal_the_java_transcription(
    case: tuple[int, int, list[tuple[Module, int, int, int, int]]], beam_size: int, min_run: int
) -> None:
    """The heap step's pruning and its walk over free bits of one-word runs change nothing."""
    n_hyp, n_ref, plain = case
    expected = _java_search(n_hyp, n_ref, plain, beam_size)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(beam, "_HEAP_THRESHOLD", -1)
        mp.setattr(beam, "_MIN_RUN", min_run)
        got = beam.beam_choice(n_hyp, n_ref, [(*c, "", None) for c in plain], beam_size)
    assert got == expected
