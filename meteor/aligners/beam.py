"""Meteor 1.5's alignment search, reproduced exactly.

Replicates ``Aligner.align`` and ``Aligner.resolve`` (cmu-mtlab/meteor,
``src/edu/cmu/meteor/aligner/Aligner.java``; ``meteor-1.5.md`` sections 7-9):

* candidates of all modules are pooled in a lattice indexed by reference start;
* a candidate is *definite* when it is the only one starting at its reference
  position and every word it touches (both sides) is touched by no other
  candidate; definite matches are fixed before the search;
* a beam search (width 40 by default) walks reference positions left to right,
  ranking partial alignments by more weighted coverage, then fewer chunks, then
  smaller distance, stably (``Constants.PARTIAL_COMPARE_TOTAL``);
* **quirk 1**: coverage is an ``int`` updated by ``+= len * w`` with search
  weights exact 1.0 and every other module 0.5 (``MeteorScorer`` constructor),
  so Java truncates: a one-word non-exact match adds 0;
* **quirk 2**: each candidate's distance is added to the *parent* path
  (Aligner.java:382), so later siblings and the skip path inherit it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meteor.types import Match, Module

__all__ = ["DEFAULT_BEAM_SIZE", "align_beam", "search_weight"]

DEFAULT_BEAM_SIZE = 40


def search_weight(module: Module) -> float:
    """Hard-coded search weights (MeteorScorer.loadConfiguration): exact 1.0, others 0.5."""
    return 1.0 if module is Module.EXACT else 0.5


@dataclass(slots=True)
class _Path:
    used_h: int  # bit masks of used hypothesis / reference words
    used_r: int
    cov: int  # matches1 + matches2, each truncated as Java's int +=
    m1: int
    m2: int
    chunks: int
    distance: int
    idx: int
    last_end: int
    chosen: tuple[int, object] | None  # linked list (candidate id, rest)

    def copy(self) -> _Path:
        return _Path(
            self.used_h,
            self.used_r,
            self.cov,
            self.m1,
            self.m2,
            self.chunks,
            self.distance,
            self.idx,
            self.last_end,
            self.chosen,
        )


def _add(p: _Path, hs: int, hl: int, rs: int, rl: int, w: float) -> None:
    # Java: matches1 += matchLength * w  (int compound assignment truncates)
    p.m1 = int(p.m1 + hl * w)
    p.m2 = int(p.m2 + rl * w)
    p.cov = p.m1 + p.m2
    if p.last_end != -1 and hs != p.last_end:
        p.chunks += 1
    p.idx = rs + rl
    p.last_end = hs + hl


def align_beam(
    n_hyp: int,
    n_ref: int,
    candidates: Sequence[Match],
    beam_size: int = DEFAULT_BEAM_SIZE,
) -> tuple[Match, ...]:
    """Choose Meteor 1.5's alignment among ``candidates``.

    Args:
        n_hyp: number of hypothesis tokens.
        n_ref: number of reference tokens.
        candidates: every candidate of every module, in the order Meteor adds
            them to its lattice (module order, then reference position, then
            hypothesis position, as :mod:`meteor.matchers` yields them).
        beam_size: beam width (``-x``).

    Returns:
        The chosen matches in reference order.
    """
    # Stage lattice: candidate ids per reference start, in insertion order.
    lattice: list[list[int]] = [[] for _ in range(n_ref)]
    cov_h = [0] * n_hyp
    cov_r = [0] * n_ref
    spans: list[tuple[int, int, int, int, float, int, int]] = []
    for cid, m in enumerate(candidates):
        hs, he, rs, re_ = m.hyp.start, m.hyp.end, m.ref.start, m.ref.end
        lattice[rs].append(cid)
        for i in range(hs, he):
            cov_h[i] += 1
        for j in range(rs, re_):
            cov_r[j] += 1
        mask_h = ((1 << (he - hs)) - 1) << hs
        mask_r = ((1 << (re_ - rs)) - 1) << rs
        spans.append((hs, he - hs, rs, re_ - rs, search_weight(m.module), mask_h, mask_r))

    # Definite matches (Aligner.java:199-218).
    definite: list[int | None] = [None] * n_ref
    start = _Path(0, 0, 0, 0, 0, 0, 0, 0, -1, None)
    for j in range(n_ref):
        if len(lattice[j]) != 1:
            continue
        cid = lattice[j][0]
        hs, hl, rs, rl, _, mh, mr = spans[cid]
        if all(cov_r[rs + k] == 1 for k in range(rl)) and all(
            cov_h[hs + k] == 1 for k in range(hl)
        ):
            definite[j] = cid
            start.used_h |= mh
            start.used_r |= mr

    def rank(p: _Path) -> tuple[int, int, int]:
        return (-p.cov, p.chunks, p.distance)

    paths = [start]
    for current in range(n_ref + 1):
        paths.sort(key=rank)
        nxt: list[_Path] = []
        for path in paths[:beam_size]:
            if current == n_ref:
                if path.last_end != -1:
                    path.chunks += 1
                nxt.append(path)
                continue
            if (path.used_r >> current) & 1:
                if current < path.idx:
                    nxt.append(path)
                else:
                    cid = definite[path.idx] if path.idx < n_ref else None
                    if cid is not None:
                        hs, hl, rs, rl, w, _, _ = spans[cid]
                        _add(path, hs, hl, rs, rl, w)
                        path.distance += abs(rs - hs)
                        nxt.append(path)
                continue
            for cid in lattice[current]:
                hs, hl, rs, rl, w, mh, mr = spans[cid]
                if path.used_h & mh or path.used_r & mr:
                    continue
                new = path.copy()
                new.used_h |= mh
                new.used_r |= mr
                new.chosen = (cid, path.chosen)
                _add(new, hs, hl, rs, rl, w)
                path.distance += abs(rs - hs)  # quirk 2: the parent, not `new`
                nxt.append(new)
            if path.last_end != -1:
                path.chunks += 1
                path.last_end = -1
            path.idx += 1
            nxt.append(path)
        if not nxt:  # "unexpected conditions": keep the best path
            nxt.append(paths[0])
        paths = nxt
    paths.sort(key=rank)
    best = paths[0]

    chosen: list[int] = [c for c in definite if c is not None]
    node = best.chosen
    while node is not None:
        cid, rest = node
        chosen.append(cid)
        node = rest  # type: ignore[assignment]
    chosen.sort(key=lambda c: candidates[c].ref.start)
    return tuple(candidates[c] for c in chosen)
