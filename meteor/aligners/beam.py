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
from heapq import heappush, heapreplace
from operator import itemgetter
from typing import Any

from meteor.types import Match, Module

__all__ = ["DEFAULT_BEAM_SIZE", "align_beam", "search_weight"]

DEFAULT_BEAM_SIZE = 40


def search_weight(module: Module) -> float:
    """Hard-coded search weights (MeteorScorer.loadConfiguration): exact 1.0, others 0.5."""
    return 1.0 if module is Module.EXACT else 0.5


# A partial alignment is a list, for speed (the search creates millions of them):
# [key, used_h, used_r, m1, m2, chunks, idx, last_end, chosen]
# ``key`` packs Java's ranking into one integer (see ``_key``) so that sorting runs
# in C; ``used_*`` are bit masks of used words; ``m1``/``m2`` are Java's truncated
# int coverage; ``chosen`` is a linked list (candidate id, rest) of the choices.
_KEY, _UH, _UR, _M1, _M2, _CH, _IX, _LE, _CO = range(9)
_DIST_BITS = 64
_CHUNK_BITS = 32
_CHUNK_UNIT = 1 << _DIST_BITS
_COV_UNIT = 1 << (_DIST_BITS + _CHUNK_BITS)
#: Above this many (paths × candidates) in one step, successors go through a bounded heap.
_HEAP_THRESHOLD = 400


def _ascending(entry: tuple[int, int, list[Any]]) -> tuple[int, int]:
    return (-entry[0], -entry[1])


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
    start_h = start_r = 0
    for j in range(n_ref):
        if len(lattice[j]) != 1:
            continue
        cid = lattice[j][0]
        hs, hl, rs, rl, _, mh, mr = spans[cid]
        if all(cov_r[rs + k] == 1 for k in range(rl)) and all(
            cov_h[hs + k] == 1 for k in range(hl)
        ):
            definite[j] = cid
            start_h |= mh
            start_r |= mr

    # key = (max_cov - cov) · 2^96 + chunks · 2^64 + distance: ascending key order is
    # PARTIAL_COMPARE_TOTAL (more coverage, then fewer chunks, then less distance).
    max_cov = 2 * (n_hyp + n_ref) + 2
    rank = itemgetter(_KEY)
    start: list[Any] = [max_cov * _COV_UNIT, start_h, start_r, 0, 0, 0, 0, -1, None]
    paths = [start]
    # Java appends every successor to nextPaths, then sorts them stably and keeps the
    # first `beam` (Aligner.java:300-310).  That equals keeping the `beam` smallest
    # (key, insertion order): a bounded max-heap.  Successors are generated in
    # insertion order, so once the heap is full a new one gets in only with a key
    # strictly below the worst kept: the others are never built.
    for current in range(n_ref):
        if len(paths) > 1:
            paths.sort(key=rank)  # stable, as Collections.sort
            del paths[beam_size:]
        bit = 1 << current
        row = lattice[current]
        if len(row) * len(paths) > _HEAP_THRESHOLD:
            # Many successors possible (long, repetitive pairs).  Java appends every
            # successor, sorts stably and keeps the first `beam`; that equals keeping
            # the `beam` smallest (key, insertion order) in a bounded heap.  Once it
            # is full, a successor gets in only with a key strictly below the worst
            # kept, so the others are never built.
            heap: list[tuple[int, int, list[Any]]] = []  # (-key, -seq, path)
            seq = 0
            for path in paths:
                if path[_UR] & bit:
                    if current >= path[_IX]:
                        fixed = definite[path[_IX]] if path[_IX] < n_ref else None
                        if fixed is None:
                            continue  # Java drops the path
                        hs, hl, rs, rl, w, _, _ = spans[fixed]
                        m1 = int(path[_M1] + hl * w)
                        m2 = int(path[_M2] + rl * w)
                        key = path[_KEY] - (m1 + m2 - path[_M1] - path[_M2]) * _COV_UNIT
                        if path[_LE] != -1 and hs != path[_LE]:
                            path[_CH] += 1
                            key += _CHUNK_UNIT
                        path[_KEY] = key + abs(rs - hs)
                        path[_M1] = m1
                        path[_M2] = m2
                        path[_IX] = rs + rl
                        path[_LE] = hs + hl
                    seq += 1
                    if len(heap) < beam_size:
                        heappush(heap, (-path[_KEY], -seq, path))
                    elif path[_KEY] < -heap[0][0]:
                        heapreplace(heap, (-path[_KEY], -seq, path))
                    continue
                uh = path[_UH]
                ur = path[_UR]
                le = path[_LE]
                pm1 = path[_M1]
                pm2 = path[_M2]
                pch = path[_CH]
                co = path[_CO]
                base = path[_KEY] + (pm1 + pm2) * _COV_UNIT  # key without the coverage part
                for cid in row:
                    hs, hl, rs, rl, w, mh, mr = spans[cid]
                    if uh & mh or ur & mr:
                        continue
                    m1 = int(pm1 + hl * w)
                    m2 = int(pm2 + rl * w)
                    key = base - (m1 + m2) * _COV_UNIT
                    brk = le != -1 and hs != le
                    if brk:
                        key += _CHUNK_UNIT
                    d = abs(rs - hs)
                    path[_KEY] += d  # quirk 2, as below
                    base += d
                    seq += 1
                    if len(heap) < beam_size:
                        heappush(heap, (-key, -seq, [key, uh | mh, ur | mr, m1, m2,
                                                     pch + 1 if brk else pch, rs + rl, hs + hl,
                                                     (cid, co)]))  # fmt: skip
                    elif key < -heap[0][0]:  # else the beam would cut it: never built
                        heapreplace(heap, (-key, -seq, [key, uh | mh, ur | mr, m1, m2,
                                                        pch + 1 if brk else pch, rs + rl, hs + hl,
                                                        (cid, co)]))  # fmt: skip
                if path[_LE] != -1:
                    path[_CH] += 1
                    path[_KEY] += _CHUNK_UNIT
                    path[_LE] = -1
                path[_IX] += 1
                seq += 1
                if len(heap) < beam_size:
                    heappush(heap, (-path[_KEY], -seq, path))
                elif path[_KEY] < -heap[0][0]:
                    heapreplace(heap, (-path[_KEY], -seq, path))
            if heap:
                heap.sort(key=_ascending)
                paths = [entry[2] for entry in heap]
            else:  # "unexpected conditions": keep the best path
                paths = paths[:1]
            continue
        nxt: list[list[Any]] = []
        push = nxt.append
        for path in paths:
            if path[_UR] & bit:
                if current < path[_IX]:
                    push(path)
                else:
                    fixed = definite[path[_IX]] if path[_IX] < n_ref else None
                    if fixed is not None:
                        hs, hl, rs, rl, w, _, _ = spans[fixed]
                        m1 = int(path[_M1] + hl * w)
                        m2 = int(path[_M2] + rl * w)
                        key = path[_KEY] - (m1 + m2 - path[_M1] - path[_M2]) * _COV_UNIT
                        if path[_LE] != -1 and hs != path[_LE]:
                            path[_CH] += 1
                            key += _CHUNK_UNIT
                        path[_KEY] = key + abs(rs - hs)
                        path[_M1] = m1
                        path[_M2] = m2
                        path[_IX] = rs + rl
                        path[_LE] = hs + hl
                        push(path)
                continue
            if row:
                uh = path[_UH]
                ur = path[_UR]
                le = path[_LE]
                pm1 = path[_M1]
                pm2 = path[_M2]
                pch = path[_CH]
                base = path[_KEY] + (pm1 + pm2) * _COV_UNIT  # key without the coverage part
                for cid in row:
                    hs, hl, rs, rl, w, mh, mr = spans[cid]
                    if uh & mh or ur & mr:
                        continue
                    # Java: matches1 += matchLength * w on an int field truncates (quirk 1)
                    m1 = int(pm1 + hl * w)
                    m2 = int(pm2 + rl * w)
                    if le != -1 and hs != le:
                        push(
                            [
                                base - (m1 + m2) * _COV_UNIT + _CHUNK_UNIT,
                                uh | mh,
                                ur | mr,
                                m1,
                                m2,
                                pch + 1,
                                rs + rl,
                                hs + hl,
                                (cid, path[_CO]),
                            ]
                        )
                    else:
                        push(
                            [
                                base - (m1 + m2) * _COV_UNIT,
                                uh | mh,
                                ur | mr,
                                m1,
                                m2,
                                pch,
                                rs + rl,
                                hs + hl,
                                (cid, path[_CO]),
                            ]
                        )
                    d = abs(rs - hs)
                    path[_KEY] += d  # quirk 2: the distance goes to the parent,
                    base += d  # so later siblings and the skip path inherit it
            if path[_LE] != -1:
                path[_CH] += 1
                path[_KEY] += _CHUNK_UNIT
                path[_LE] = -1
            path[_IX] += 1
            push(path)
        if not nxt:  # "unexpected conditions": keep the best path
            nxt.append(paths[0])
        paths = nxt
    # last step (current == n_ref): close the open chunk of every path in the beam
    paths.sort(key=rank)
    del paths[beam_size:]
    for path in paths:
        if path[_LE] != -1:
            path[_CH] += 1
            path[_KEY] += _CHUNK_UNIT
    paths.sort(key=rank)
    best = paths[0]

    chosen: list[int] = [c for c in definite if c is not None]
    node = best[_CO]
    while node is not None:
        cid, rest = node
        chosen.append(cid)
        node = rest  # type: ignore[assignment]
    chosen.sort(key=lambda c: candidates[c].ref.start)
    return tuple(candidates[c] for c in chosen)
