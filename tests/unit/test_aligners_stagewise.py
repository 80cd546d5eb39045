"""The 2005 paper's stagewise alignment: exactness against brute force, speed, the valve.

Banerjee & Lavie (2005), section 2: per stage, among the mappings between words
still unmapped, the largest one-to-one subset; among those, the fewest
crossings (with the mappings of earlier stages counted too).  Ties: the
lexicographically smallest ``(h(0), ..., h(n_ref - 1))`` ("unmapped" last), as
documented in :mod:`meteor.aligners.stagewise`.
"""

from __future__ import annotations

import csv
import random
import time
from collections.abc import Callable, Sequence

import pytest
from conftest import shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

import meteor.aligners.stagewise as sw
import meteor.aligners.stagewise_search as sws
from meteor.aligners.stagewise import (
    StagewiseSearchError,
    align_stagewise,
    count_crossings,
)
from meteor.module_registry import Module
from meteor.types import Match, Span

MODULES = (Module.EXACT, Module.STEM, Module.SYNONYM)


def cand(i: int, j: int, module: Module = Module.EXACT, detail: str = "") -> Match:
    return Match(module, Span(i, i + 1), Span(j, j + 1), (f"h{i}",), (f"r{j}",), detail)


def key_stage(
    hyp: Sequence[str], ref: Sequence[str], key: Callable[[str], str], module: Module
) -> list[Match]:
    """All pairs with equal keys (what an exact or stem matcher proposes)."""
    hk = [key(w) for w in hyp]
    rk = [key(w) for w in ref]
    return [
        Match(module, Span(i, i + 1), Span(j, j + 1), (hyp[i],), (ref[j],))
        for j in range(len(ref))
        for i in range(len(hyp))
        if hk[i] == rk[j]
    ]


def pairs(matches: Sequence[Match]) -> list[tuple[int, int]]:
    return [(m.hyp.start, m.ref.start) for m in matches]


# --------------------------------------------------------------------------- brute force


def brute_force(n_hyp: int, n_ref: int, stages: Sequence[Sequence[Match]]) -> list[Match]:
    """Enumerate every one-to-one subset of each stage (the definition, spelled out)."""
    fixed: list[tuple[int, int]] = []
    chosen: list[Match] = []
    for stage in stages:
        used_h = {i for i, _ in fixed}
        used_r = {j for _, j in fixed}
        by_pair: dict[tuple[int, int], Match] = {}
        for m in stage:
            p = (m.hyp.start, m.ref.start)
            if p[0] not in used_h and p[1] not in used_r:
                by_pair.setdefault(p, m)
        options: dict[int, list[int]] = {}
        for i, j in by_pair:
            options.setdefault(j, []).append(i)
        best = _best_subset(n_hyp, n_ref, options, fixed)
        for p in best:
            chosen.append(by_pair[p])
        fixed.extend(best)
    return sorted(chosen, key=lambda m: (m.ref.start, m.hyp.start))


def _best_subset(
    n_hyp: int, n_ref: int, options: dict[int, list[int]], fixed: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Largest, then fewest crossings (fixed ones too), then lexicographically smallest."""
    refs = sorted(options)
    best: tuple[tuple[int, int, tuple[int, ...]], list[tuple[int, int]]] | None = None

    def walk(k: int, taken: set[int], cur: list[tuple[int, int]]) -> None:
        nonlocal best
        if best is not None and len(cur) + len(refs) - k < -best[0][0]:
            return  # cannot reach the best cardinality any more
        if k == len(refs):
            vec = [n_hyp] * n_ref
            for i, j in cur:
                vec[j] = i
            score = (-len(cur), count_crossings(cur + fixed), tuple(vec))
            if best is None or score < best[0]:
                best = (score, list(cur))
            return
        j = refs[k]
        for i in options[j]:
            if i not in taken:
                taken.add(i)
                cur.append((i, j))
                walk(k + 1, taken, cur)
                cur.pop()
                taken.discard(i)
        walk(k + 1, taken, cur)

    walk(0, set(), [])
    assert best is not None
    return best[1]


@st.composite
def instances(draw: st.DrawFn) -> tuple[int, int, list[list[Match]]]:
    """Up to 7 words a side, 1-3 stages of random or word-class candidate sets."""
    n_hyp = draw(st.integers(1, 7))
    n_ref = draw(st.integers(1, 7))
    stages = []
    for module in MODULES[: draw(st.integers(1, 3))]:
        if draw(st.booleans()):  # arbitrary bipartite graph (synonym-like)
            density = draw(st.sampled_from([0.2, 0.4, 0.7, 1.0]))
            seed = draw(st.integers(0, 2**32 - 1))
            rng = random.Random(seed)
            edges = [(i, j) for i in range(n_hyp) for j in range(n_ref) if rng.random() < density]
        else:  # equal keys (exact / stem): unions of complete bipartite blocks
            k = draw(st.integers(1, 3))
            hw = draw(st.lists(st.integers(0, k - 1), min_size=n_hyp, max_size=n_hyp))
            rw = draw(st.lists(st.integers(0, k - 1), min_size=n_ref, max_size=n_ref))
            edges = [(i, j) for i in range(n_hyp) for j in range(n_ref) if hw[i] == rw[j]]
        stage = [cand(i, j, module) for i, j in edges]
        random.Random(len(edges)).shuffle(stage)
        stages.append(stage)
    return n_hyp, n_ref, stages


FORCES = ("auto", "programme-ref", "programme-hyp", "short-search")


def force(strategy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Route every block through one code path of the solver."""
    if strategy.startswith("programme"):  # no branch and bound at all
        monkeypatch.setattr(sws, "_DFS_NODES_PER_WORD", 0)
        monkeypatch.setattr(sws, "_DFS_NODES_BASE", 0)
        monkeypatch.setattr(sws, "_FORCE_SWEEP", strategy.removeprefix("programme-"))
    if strategy == "short-search":  # it stops early; its incumbent bounds the programme
        monkeypatch.setattr(sws, "_DFS_NODES_PER_WORD", 0)
        monkeypatch.setattr(sws, "_DFS_NODES_BASE", 3)


@pytest.mark.parametrize("strategy", FORCES)
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(instances())
def test_exact_against_brute_force(
    strategy: str, monkeypatch: pytest.MonkeyPatch, inst: tuple[int, int, list[list[Match]]]
) -> None:
    n_hyp, n_ref, stages = inst
    with monkeypatch.context() as mp:
        force(strategy, mp)
        got = align_stagewise(n_hyp, n_ref, stages)
    want = brute_force(n_hyp, n_ref, stages)
    assert pairs(got) == pairs(want)
    assert [m.module for m in got] == [m.module for m in want]
    assert all(a is b for a, b in zip(got, want, strict=True))  # the stage's own objects


# --------------------------------------------------------------------------- semantics


def test_fewest_crossings_where_nltk_is_greedy() -> None:
    """dependencies.md 6.1: ref "the dog and the cat", hyp "the dog": one chunk, not two."""
    hyp, ref = ["the", "dog"], "the dog and the cat".split()
    got = align_stagewise(2, 5, [key_stage(hyp, ref, str, Module.EXACT)])
    assert pairs(got) == [(0, 0), (1, 1)]


def test_later_stage_only_on_unmapped_words_and_counts_fixed_crossings() -> None:
    # stage 1 fixes (1, 1); stage 2 may map hyp 0 or 2 to ref 0: 0 does not cross (1, 1)
    stage1 = [cand(1, 1)]
    stage2 = [cand(1, 0, Module.STEM), cand(2, 0, Module.STEM), cand(0, 0, Module.STEM)]
    got = align_stagewise(3, 2, [stage1, stage2])
    assert pairs(got) == [(0, 0), (1, 1)]
    assert [m.module for m in got] == [Module.STEM, Module.EXACT]
    # hyp 2 -> ref 0 would cross the fixed mapping: with no alternative it is still taken
    got = align_stagewise(3, 2, [stage1, [cand(2, 0, Module.STEM)]])
    assert pairs(got) == [(2, 0), (1, 1)]


def test_cardinality_before_crossings() -> None:
    # one mapping without crossings vs two that cross: two wins
    stage = [cand(0, 0), cand(0, 1), cand(1, 0)]
    assert pairs(align_stagewise(2, 2, [stage])) == [(1, 0), (0, 1)]


def test_tie_break_leftmost_hypothesis_in_reference_order() -> None:
    assert pairs(align_stagewise(2, 1, [[cand(1, 0), cand(0, 0)]])) == [(0, 0)]
    # equal cost either way: ref 0 takes its leftmost option
    stage = [cand(0, 0), cand(1, 0), cand(0, 1), cand(1, 1), cand(2, 2), cand(3, 2)]
    assert pairs(align_stagewise(4, 3, [stage])) == [(0, 0), (1, 1), (2, 2)]
    # mapping ref 0 beats leaving it for ref 1
    assert pairs(align_stagewise(1, 2, [[cand(0, 1), cand(0, 0)]])) == [(0, 0)]


def test_duplicates_keep_the_first_match_and_empty_inputs() -> None:
    first = cand(0, 0, detail="first")
    got = align_stagewise(1, 1, [[first, cand(0, 0, detail="second")], [cand(0, 0)]])
    assert got == (first,) and got[0] is first
    assert align_stagewise(0, 0, []) == ()
    assert align_stagewise(3, 3, [[], []]) == ()


def test_candidate_tuples_give_indices_into_all_stages() -> None:
    """The facade's path: Candidate tuples in, indices of the concatenated stages out."""
    stage1 = [(Module.EXACT, 1, 2, 1, 2, "", None)]
    stage2 = [
        (Module.STEM, 1, 2, 0, 1, "", None),
        (Module.STEM, 2, 3, 0, 1, "", None),
        (Module.STEM, 0, 1, 0, 1, "", None),
    ]
    # as test_later_stage_only_on_unmapped_words...: (0, 0) from stage 2, then (1, 1)
    assert sw.stagewise_choice(3, 2, [stage1, stage2]) == [3, 0]
    records = [[cand(c[1], c[3], c[0]) for c in stage] for stage in (stage1, stage2)]
    assert pairs(align_stagewise(3, 2, records)) == [(0, 0), (1, 1)]
    with pytest.raises(ValueError, match="one-word"):
        sw.stagewise_choice(2, 1, [[(Module.PARAPHRASE, 0, 2, 0, 1, "", None)]])


def test_validation() -> None:
    wide = Match(Module.PARAPHRASE, Span(0, 2), Span(0, 1), ("a", "b"), ("c",))
    with pytest.raises(ValueError, match="one-word"):
        align_stagewise(2, 1, [[wide]])
    with pytest.raises(ValueError, match="outside"):
        align_stagewise(1, 1, [[cand(1, 0)]])
    with pytest.raises(ValueError, match="negative"):
        align_stagewise(-1, 1, [])


def test_count_crossings() -> None:
    assert count_crossings([]) == 0
    assert count_crossings([(0, 1), (1, 0)]) == 1
    assert count_crossings([(2, 0), (1, 1), (0, 2)]) == 3


# --------------------------------------------------------------------------- search effort


REPEATS: dict[str, tuple[list[str], list[str]]] = {
    "the x200 vs the x200": (["the"] * 200, ["the"] * 200),
    "the x200 vs the x150": (["the"] * 200, ["the"] * 150),
    "the x150 vs the x200": (["the"] * 150, ["the"] * 200),
    "(the a) vs (a the)": (["the", "a"] * 100, ["a", "the"] * 100),
    "(the a) vs (a the) minus one": (["the", "a"] * 100, ["a", "the"] * 99 + ["a"]),
    "(the the a) vs (a the)": ((["the", "the", "a"] * 67)[:200], ["a", "the"] * 100),
    "rotated sentence": (
        ("the cat sat on the mat".split() * 34)[:200],
        ("on the mat the cat sat".split() * 34)[:200],
    ),
    "blocks swapped": (["the"] * 150 + ["a"] * 50, ["a"] * 50 + ["the"] * 150),
    "random two words": (
        [random.Random(1).choice("ab") for _ in range(200)],
        [random.Random(2).choice("ab") for _ in range(200)],
    ),
}


#: Search states a 200-token repeat may explore: the worst of them, "(the the a) vs (a the)",
#: needs 70,981 (the default budget is 500,000).  States, not seconds: how long a state
#: takes is the machine's; the count is the search's.
REPEAT_STATES = 100_000


@pytest.mark.parametrize("name", list(REPEATS))
def test_200_token_repeats_stay_within_their_search_budget(name: str) -> None:
    hyp, ref = REPEATS[name]
    stages = [key_stage(hyp, ref, str, Module.EXACT)]
    got = align_stagewise(len(hyp), len(ref), stages, max_nodes=REPEAT_STATES)
    counts = {w: (hyp.count(w), ref.count(w)) for w in set(hyp)}
    assert len(got) == sum(min(a, b) for a, b in counts.values())  # maximum cardinality


def test_repeat_answers_are_the_known_optima() -> None:
    def crossings(name: str) -> int:
        hyp, ref = REPEATS[name]
        return count_crossings(pairs(align_stagewise(len(hyp), len(ref), [
            key_stage(hyp, ref, str, Module.EXACT)])))  # fmt: skip

    assert crossings("the x200 vs the x150") == 0
    assert crossings("(the a) vs (a the)") == 100  # forced: each pair swaps once
    assert crossings("(the a) vs (a the) minus one") == 0  # drop the first "the"
    assert crossings("(the the a) vs (a the)") == 0
    assert crossings("blocks swapped") == 50 * 150


#: Search states one real pair may explore: the worst of these 1,000 needs 2,432.
REAL_PAIR_STATES = 5_000


def test_real_pairs_need_few_search_states() -> None:
    """WMT21 ru-en: exact and Porter-stem stages on 1,000 real pairs, each a few thousand states."""
    rows = []
    with shared_path("wmt21_ru-en_da/all_outputs.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))[::11]
    stem = PorterStemmer().stem
    for row in rows:
        hyp, ref = row["hyp"].lower().split(), row["ref"].lower().split()
        exact = key_stage(hyp, ref, str, Module.EXACT)
        stages = [exact, key_stage(hyp, ref, stem, Module.STEM)]
        got = align_stagewise(len(hyp), len(ref), stages, max_nodes=REAL_PAIR_STATES)
        # the exact stage alone never crosses more than a greedy maximum matching would
        ex = align_stagewise(len(hyp), len(ref), [exact])
        assert len(ex) == sum(min(hyp.count(w), ref.count(w)) for w in set(hyp))
        assert len(got) >= len(ex)


# --------------------------------------------------------------------------- safety valve


def test_budget_raises_instead_of_guessing() -> None:
    hyp, ref = ["the", "a", "a"] * 20, ["a", "the", "the"] * 20
    stages = [key_stage(hyp, ref, str, Module.EXACT)]
    with pytest.raises(StagewiseSearchError, match="max_nodes=None"):
        align_stagewise(len(hyp), len(ref), stages, max_nodes=50)
    unlimited = align_stagewise(len(hyp), len(ref), stages, max_nodes=None)
    assert unlimited == align_stagewise(len(hyp), len(ref), stages)
    assert len(unlimited) == 40
    assert count_crossings(pairs(unlimited)) == 1


def test_adversarial_input_hits_the_default_budget_quickly() -> None:
    """Several heavily repeated words, surpluses on both sides: documented as out of reach."""
    rng = random.Random(5)
    hyp = [rng.choice("abcd") for _ in range(200)]
    ref = [rng.choice("abcd") for _ in range(200)]
    stages = [key_stage(hyp, ref, str, Module.EXACT)]
    t = time.perf_counter()
    with pytest.raises(StagewiseSearchError):
        align_stagewise(len(hyp), len(ref), stages, max_nodes=20_000)
    assert time.perf_counter() - t < 10
