"""Corpus score from summed statistics, bootstrap intervals, paired test, parallel scoring."""

from __future__ import annotations

import csv
import itertools
import math
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from meteor import Meteor, Stats
from meteor.analysis import resampling
from meteor.analysis.resampling import ci_bounds, resample_indices, stats_matrix
from meteor.analysis.significance import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    bootstrap,
    paired_bootstrap,
    segment_differences,
)
from meteor.io.read import demo_corpus
from meteor.module_registry import MODULE_ORDER, Module
from meteor.runners import parallel as parallel_mod
from meteor.runners.parallel import score_corpus
from meteor.scoring import compute
from tests.conftest import read_jsonl_gz

PRESET = "meteor-1.5-paper2005"

# meteor-1.5.md section 16, "paper2005, -norm": the jar's segment and corpus scores.
GOLDEN = [
    ("Under the starry night, we danced with glee.", "We danced with joy under the starry night."),
    ("Danced we with under joy the night starry.", "We danced with joy under the starry night."),
    ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog"),
]
GOLDEN_SEGMENTS = [0.855940934065934, 0.5, 0.7687074829931972]
GOLDEN_CORPUS = 0.7977142271422712


@pytest.fixture(scope="module")
def meteor() -> Meteor:
    return Meteor(PRESET)


@pytest.fixture(scope="module")
def demo(meteor: Meteor):  # type: ignore[no-untyped-def]
    c = demo_corpus()
    refs = [r[0] for r in c.refs]
    a = meteor.corpus_score(list(c.hyps("system_a")), refs)
    b = meteor.corpus_score(list(c.hyps("system_b")), refs)
    return a, b


# --- corpus score ----------------------------------------------------------------


def test_corpus_score_is_the_jars(meteor: Meteor) -> None:
    res = score_corpus(meteor, [h for h, _ in GOLDEN], [r for _, r in GOLDEN])
    assert [s.score for s in res.segments] == pytest.approx(GOLDEN_SEGMENTS, abs=1e-15)
    assert res.score == pytest.approx(GOLDEN_CORPUS, abs=1e-15)
    # the mean of segment scores is another number, labelled apart
    assert res.mean_segment_score == pytest.approx(sum(GOLDEN_SEGMENTS) / 3)
    assert abs(res.score - res.mean_segment_score) > 0.05


def test_corpus_score_equals_score_of_summed_stats(meteor: Meteor) -> None:
    hyps = ["the cat sat on the mat", "a dog", "the cat was sat on the mat", ""]
    refs = ["the cat sat on the mat", "the dog barked", "the cat sat on the mat", "x"]
    res = score_corpus(meteor, hyps, refs)
    total = Stats()
    for s in res.segments:
        total = total + s.stats.corpus_contribution(perfect_rule=True)
    assert res.stats == total
    assert res.score == compute(total, meteor.params).score
    # Meteor 1.5's rule: the perfect first segment adds its matches but not its chunk
    raw = Stats()
    for s in res.segments:
        raw = raw + s.stats
    assert res.segments[0].stats.is_perfect
    assert total.chunks == raw.chunks - 1
    assert compute(raw, meteor.params).score != res.score
    assert res.score != pytest.approx(res.mean_segment_score)


def _java_stats(d: dict, modules: tuple[Module, ...]) -> Stats:  # type: ignore[type-arg]
    """The jar's statistics as the harness records them (per-module lists in -m order)."""

    def vec(key: str) -> tuple[int, ...]:
        out = [0] * len(MODULE_ORDER)
        for slot, mod in enumerate(modules):
            out[MODULE_ORDER.index(mod)] = int(d[key][slot])
        return tuple(out)

    return Stats(
        int(d["hyp_len"]),
        int(d["ref_len"]),
        int(d["hyp_function_words"]),
        int(d["ref_function_words"]),
        vec("hyp_content_matches"),
        vec("ref_content_matches"),
        vec("hyp_function_matches"),
        vec("ref_function_matches"),
        int(d["chunks"]),
        int(d["hyp_word_matches"]),
        int(d["ref_word_matches"]),
    )


def test_corpus_score_from_the_jars_statistics(meteor: Meteor, shared_data: Path) -> None:
    """Our corpus score on 250 TED segments equals the formula on the jar's summed statistics."""
    path = shared_data / "ted_sk-en" / "meteor15.en_paper2005_norm.jsonl.gz"
    records = list(itertools.islice(read_jsonl_gz(path), 250))
    res = score_corpus(meteor, [d["hyp"] for d in records], [d["refs"] for d in records])
    total = Stats()
    for d in records:
        total = total + _java_stats(d["stats"], meteor.params.modules).corpus_contribution(
            perfect_rule=True
        )
    assert res.score == pytest.approx(compute(total, meteor.params).score, abs=1e-15)
    assert res.score != pytest.approx(res.mean_segment_score, abs=1e-3)


# --- parallel scoring --------------------------------------------------------------


def test_parallel_equals_serial_in_order(meteor: Meteor, monkeypatch: pytest.MonkeyPatch) -> None:
    c = demo_corpus()
    hyps = list(c.hyps("system_a")) + list(c.hyps("system_b"))
    refs = [r[0] for r in c.refs] * 2
    refs[3] = [refs[3], "an extra reference"]  # type: ignore[call-overload]
    serial = meteor.corpus_score(hyps, refs)
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS", 0)
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS_FRESH", 0)
    seen: list[float] = []
    par = score_corpus(
        meteor, hyps, refs, workers=2, chunk_size=3, progress=lambda f, m: seen.append(f)
    )
    assert par.segments == serial.segments  # same records, same order
    assert [s.hyp for s in par.segments] == hyps
    assert par.score == serial.score and par.mean_segment_score == serial.mean_segment_score
    assert par.signature == serial.signature  # the preset name survives the workers
    assert all(s.signature == serial.segments[0].signature for s in par.segments[:1])
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)


def test_chunks_hold_every_pair_of_their_references() -> None:
    """Two systems over the same references: each reference's pairs are next to each other,
    references in the order they first occur; a list of references is its own key."""
    refs: list[Any] = ["r1", "r2", "r3", "r1", "r2", "r3", ["r1", "x"], ["r1", "x"], [[]]]
    assert parallel_mod.by_reference(refs, range(len(refs))) == [0, 3, 1, 4, 2, 5, 6, 7, 8]
    first = [1, 2, 4]  # the distinct pairs are a subset: positions refer to ``first``
    assert parallel_mod.by_reference(refs, first) == [0, 2, 1]


def test_a_worker_forgets_its_chunk_references(
    meteor: Meteor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a chunk the worker's memos are empty: no later chunk has its references."""
    monkeypatch.setattr(parallel_mod, "_WORKER", meteor)
    meteor.clear_memos()
    encoded = parallel_mod._score_chunk([0, 1], ["a cat sat", "a dog"], ["the cat sat", "a dog"])
    assert len(encoded) == 2
    assert len(meteor._tok_cache) == 0 and len(meteor._sent_cache) == 0
    meteor.score("a cat sat", "the cat sat")
    assert len(meteor._tok_cache) == 2  # an ordinary call memoises as before


def test_records_travel_between_processes_unchanged(meteor: Meteor) -> None:
    """meteor.runners.transport: a record rebuilt from its compact form equals the original."""
    from meteor.runners.transport import Decoder, encode

    c = demo_corpus()
    originals = [meteor.score(h, r[0]) for h, r in zip(c.hyps("system_a"), c.refs, strict=True)]
    originals.append(meteor.score("", "a reference"))  # NaN precision, no tokens
    originals.append(meteor.score("the cat sat", ["a dog", "the cat sat down"]))  # 2 refs
    decoder = Decoder()
    for r in originals:
        back = decoder.decode(pickle.loads(pickle.dumps(encode(r))))
        assert back.to_dict(candidates=True) == r.to_dict(candidates=True)  # NaN -> null
        assert back == r or math.isnan(r.precision)
        assert back.candidates == r.candidates  # not part of ==
    assert any(r.candidates for r in originals)
    again = decoder.decode(encode(originals[0]))
    assert again.alignment.ref is decoder.decode(encode(originals[0])).alignment.ref  # shared
    hyps = [r.hyp for r in originals]
    deferred = meteor.score_segments(hyps, [list(r.refs) for r in originals], candidates=False)
    for d, r in zip(deferred, originals, strict=True):
        sent = pickle.loads(pickle.dumps(encode(d)))
        assert d.alignment.pending() is not None  # encoding built nothing
        back = decoder.decode(sent)
        assert back.alignment.pending() == d.alignment.pending()  # still deferred
        assert back.to_dict() == r.to_dict()
        assert back.alignment == r.alignment and back.stats == r.stats


def test_repeated_pairs_are_scored_once(meteor: Meteor, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = meteor._score  # what score() and every corpus run call

    def counting(h: str, r: object, *args: object, **kw: object) -> object:
        calls.append(h)
        return real(h, r, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(meteor, "_score", counting)
    hyps = ["a b c", "d e", "a b c", "a b c"]
    refs = ["a b c", "d f", "a b c", ["a b c"]]
    res = score_corpus(meteor, hyps, refs, workers=1)
    assert calls == ["a b c", "d e", "a b c"]  # a list of one reference is another key
    monkeypatch.undo()
    assert res.segments[0] is res.segments[2]
    assert res.segments == meteor.corpus_score(hyps, refs).segments


def test_garbage_collection_is_restored(meteor: Meteor) -> None:
    import gc

    assert gc.isenabled()
    score_corpus(meteor, ["a b"] * 3, ["a c"] * 3, workers=1)
    assert gc.isenabled()
    gc.disable()
    try:
        score_corpus(meteor, ["a b"] * 3, ["a c"] * 3, workers=1)
        assert not gc.isenabled()  # the caller's choice is left alone
    finally:
        gc.enable()


def test_prefetch_changes_no_result(meteor: Meteor) -> None:
    c = demo_corpus()
    hyps, refs = list(c.hyps("system_a")), [r[0] for r in c.refs]
    fresh = Meteor("meteor-1.5")
    plain = [fresh.score(h, r) for h, r in zip(hyps, refs, strict=True)]
    warmed = Meteor("meteor-1.5")
    warmed.prefetch(hyps + refs + ["", "\x00 bad \ud800"])
    assert [warmed.score(h, r) for h, r in zip(hyps, refs, strict=True)] == plain


def test_fork_server_workers(meteor: Meteor, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a multi-threaded app (Streamlit) gets: fresh workers from a fork server."""
    import multiprocessing as mp

    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS", 0)
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS_FRESH", 0)
    monkeypatch.setattr(parallel_mod, "_mp_context", lambda: mp.get_context("forkserver"))
    c = demo_corpus()
    hyps, refs = list(c.hyps("system_b")), [r[0] for r in c.refs]
    par = score_corpus(meteor, hyps, refs, workers=2, chunk_size=5)
    assert par.segments == meteor.corpus_score(hyps, refs).segments


def test_broken_pool_falls_back_to_one_process(
    meteor: Meteor, monkeypatch: pytest.MonkeyPatch
) -> None:
    from concurrent.futures.process import BrokenProcessPool

    def broken(*a, **k):  # type: ignore[no-untyped-def]
        raise BrokenProcessPool("no workers here")

    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS", 0)
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS_FRESH", 0)
    monkeypatch.setattr(parallel_mod, "_score_parallel", broken)
    with pytest.warns(RuntimeWarning, match="scoring in one process"):
        res = score_corpus(meteor, ["a b", "c d"], ["a b", "c d"], workers=2)
    assert [s.score for s in res.segments] == [1.0, 1.0]


def test_small_input_stays_serial(meteor: Meteor, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise AssertionError("no pool for small inputs")

    monkeypatch.setattr(parallel_mod, "ProcessPoolExecutor", boom)
    res = score_corpus(meteor, ["a b"], ["a b"], workers=4)
    assert res.score == 1.0
    assert res.segments[0].candidates == ()  # corpus records carry no candidate lists


def test_parallel_from_params_and_errors(meteor: Meteor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS", 0)
    monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS_FRESH", 0)
    res = score_corpus(meteor.params, ["a b", "c d"], ["a b", "c e"], workers=2, chunk_size=1)
    assert [s.score for s in res.segments] == [1.0, meteor.score("c d", "c e").score]
    with pytest.raises(ValueError, match="hypotheses have 2 segments but references have 1"):
        score_corpus(meteor, ["a", "b"], ["a"])
    with pytest.raises(ValueError, match="workers must be a whole number of at least 1"):
        score_corpus(meteor, ["a"], ["a"], workers=0)
    with pytest.raises(TypeError):
        score_corpus(meteor, "a b", ["a"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="segment 2: at least one reference"):
        score_corpus(meteor, ["a", "b"], [["a"], []], workers=2, chunk_size=1)
    with pytest.raises(ValueError, match="segment 1: at least one reference"):
        score_corpus(meteor, ["a"], [[]])


# --- bootstrap ---------------------------------------------------------------------


def _naive_bootstrap(segs, params, n_samples, seed):  # type: ignore[no-untyped-def]
    """A straightforward bootstrap: loops, Stats addition and the formula, nothing clever."""
    rng = np.random.default_rng(seed)
    n = len(segs)
    corpus, means = [], []
    for _ in range(n_samples):
        idx = rng.integers(0, n, size=n)
        total = Stats()
        score_sum = 0.0
        for i in idx:
            total = total + segs[i].stats.corpus_contribution(perfect_rule=params.perfect_rule)
            score_sum += segs[i].score
        corpus.append(compute(total, params).score)
        means.append(score_sum / n)
    return corpus, means


def _naive_ci(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    k = int(len(s) * 0.025 + 1e-9)  # 2.5 % in each tail
    return s[k], s[len(s) - 1 - k]


def test_bootstrap_matches_naive_implementation(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, _ = demo
    ci = bootstrap(a, meteor.params, n_samples=200, seed=7)
    corpus, means = _naive_bootstrap(a.segments, meteor.params, 200, 7)
    assert ci.corpus.value == a.score
    assert ci.mean_segment.value == pytest.approx(a.mean_segment_score)
    assert (ci.corpus.low, ci.corpus.high) == _naive_ci(corpus)  # exact: integer sums
    assert ci.corpus.mean == pytest.approx(float(np.mean(corpus)), abs=1e-12)
    lo, hi = _naive_ci(means)
    assert ci.mean_segment.low == pytest.approx(lo, abs=1e-12)
    assert ci.mean_segment.high == pytest.approx(hi, abs=1e-12)
    assert ci.corpus.low <= ci.corpus.value <= ci.corpus.high
    assert ci.n_samples == 200 and ci.seed == 7


def test_paired_bootstrap_matches_naive_implementation(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, b = demo
    n_samples, seed = 300, 3
    pb = paired_bootstrap(a, b, meteor.params, names=("A", "B"), n_samples=n_samples, seed=seed)
    ca, _ = _naive_bootstrap(a.segments, meteor.params, n_samples, seed)
    cb, _ = _naive_bootstrap(b.segments, meteor.params, n_samples, seed)  # same indices
    observed = b.score - a.score
    diffs = [abs(y - x) for x, y in zip(ca, cb, strict=True)]
    mean_diff = sum(diffs) / len(diffs)
    count = sum(1 for d in diffs if d - mean_diff > abs(observed))
    assert pb.corpus.p_value_sacrebleu == pytest.approx((count + 1) / (n_samples + 1))
    signed_diffs = [y - x for x, y in zip(ca, cb, strict=True)]
    tail = min(sum(d <= 0 for d in signed_diffs), sum(d >= 0 for d in signed_diffs))
    assert pb.corpus.p_value == min(1.0, 2 * (tail + 1) / (n_samples + 1))  # two-sided
    assert pb.p_value == pb.corpus.p_value
    assert pb.corpus.difference == observed
    assert (pb.corpus.a.low, pb.corpus.a.high) == _naive_ci(ca)
    assert (pb.corpus.b.low, pb.corpus.b.high) == _naive_ci(cb)
    assert pb.corpus.difference_interval.low == pytest.approx(
        _naive_ci([y - x for x, y in zip(ca, cb, strict=True)])[0]
    )
    assert pb.corpus.b_wins == pytest.approx(
        sum(y > x for x, y in zip(ca, cb, strict=True)) / n_samples
    )
    # system A (fluent paraphrases) is clearly better than B on the demo corpus
    assert a.score > b.score and pb.corpus.p_value < 0.05 and pb.corpus.a_wins > 0.95
    d = pb.to_dict()
    assert d["baseline"] == "A" and "p_value_definition" in d


def test_bootstrap_defaults_and_seed(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, _ = demo
    assert DEFAULT_SAMPLES == 1000 and DEFAULT_SEED == 12345
    x = bootstrap(a, meteor.params)
    assert x.n_samples == 1000 and x.seed == 12345
    assert bootstrap(a, meteor.params) == x  # seeded: reproducible
    assert bootstrap(a, meteor.params, seed=1) != x


def test_paired_identical_systems(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, _ = demo
    pb = paired_bootstrap(a, a, meteor.params, n_samples=100)
    assert pb.corpus.difference == 0.0
    assert pb.corpus.p_value == 1.0  # no difference at all is never significant
    assert pb.corpus.a_wins == pb.corpus.b_wins == 0.0


def test_paired_bootstrap_errors(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, b = demo
    with pytest.raises(ValueError, match="has 20 segments but"):
        paired_bootstrap(a, b.segments[:5], meteor.params)
    other = meteor.corpus_score(["x"] * 20, ["different"] * 20)
    with pytest.raises(ValueError, match="different references"):
        paired_bootstrap(a, other, meteor.params)
    with pytest.raises(ValueError, match="empty corpus"):
        bootstrap([], meteor.params)
    with pytest.raises(ValueError, match="n_samples"):
        bootstrap(a, meteor.params, n_samples=0)
    with pytest.raises(ValueError, match="level"):
        bootstrap(a, meteor.params, level=1.5)


def test_ci_bounds_rule() -> None:
    samples = list(range(1000))
    assert ci_bounds(samples) == (25.0, 974.0)  # sacreBLEU's estimate_ci indices
    assert ci_bounds(list(range(100)), 0.9) == (5.0, 94.0)
    assert all(math.isnan(x) for x in ci_bounds([]))


def test_resample_indices_are_the_bootstrap_draws() -> None:
    idx = resample_indices(5, 3, 42)
    rng = np.random.default_rng(42)
    for row in idx:
        assert list(row) == list(rng.integers(0, 5, size=5))


def test_stats_matrix_sums_to_corpus_stats(meteor: Meteor, demo) -> None:  # type: ignore[no-untyped-def]
    a, _ = demo
    m = stats_matrix(a.segments, meteor.params)
    assert m.shape[0] == 20
    assert resampling.row_stats(m.sum(axis=0)) == a.stats


def test_segment_differences(demo) -> None:  # type: ignore[no-untyped-def]
    a, b = demo
    diffs = segment_differences(a, b)
    assert len(diffs) == 20
    assert [d.difference for d in diffs] == sorted((d.difference for d in diffs), reverse=True)
    worst = diffs[-1]
    assert worst.score_a == a.segments[worst.index].score
    assert worst.difference == b.segments[worst.index].score - a.segments[worst.index].score


def test_ted_systems_differ(meteor: Meteor, shared_data: Path) -> None:
    """A smoke run on real data: 150 TED segments, both systems, a paired test."""
    path = shared_data / "ted_sk-en" / "ted_sys1_sys2.tsv"
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    s1 = [r for r in rows if r["system"] == "sys1"][:150]
    s2 = [r for r in rows if r["system"] == "sys2"][:150]
    a = score_corpus(meteor, [r["hyp"] for r in s1], [r["ref"] for r in s1])
    b = score_corpus(meteor, [r["hyp"] for r in s2], [r["ref"] for r in s2])
    pb = paired_bootstrap(a, b, meteor.params, names=("sys1", "sys2"), n_samples=200)
    assert 0 < pb.corpus.p_value <= 1
    assert pb.corpus.a.low <= a.score <= pb.corpus.a.high


def test_forked_workers_reopen_wordnet_files() -> None:
    """Regression: forked workers inherited nltk's open WordNet files and shared their
    offsets, so two workers read each other's lines ('NoneType' object has no attribute
    'lemmas' in parallel nltk scoring).  A child must start with no open data file."""
    import os

    from meteor.languages.nltk_wordnet import wordnet_reader

    wn = wordnet_reader()
    assert wn.synsets("dog")  # opens the noun data file in this process
    assert wn._data_file_map
    pid = os.fork()
    if pid == 0:  # child
        ok = wn._data_file_map == {} and bool(wn.synsets("cat"))
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert wn.synsets("dog")


def test_score_without_candidates_is_the_same_record(meteor: Meteor) -> None:
    full = meteor.score("the cat sat on the mat", ["a cat sat on a mat", "the cat is on the mat"])
    lean = meteor.score(
        "the cat sat on the mat", ["a cat sat on a mat", "the cat is on the mat"], candidates=False
    )
    assert full.candidates and lean.candidates == ()
    assert lean == full  # candidates are not part of ==


def test_scorers_that_tokenise_alike_share_their_memos() -> None:
    """The app builds a scorer per setting: moving α must not start new caches."""
    base = Meteor("meteor-1.5")
    moved = Meteor("meteor-1.5", alpha=0.5, beta=1.0)
    assert moved._tok_cache is base._tok_cache and moved._sent_cache is base._sent_cache
    other_norm = Meteor("meteor-1.5", norm="none")
    assert other_norm._tok_cache is not base._tok_cache
    plain_keys = Meteor("meteor-1.5", java_keys=False)
    assert plain_keys._sent_cache is not base._sent_cache
    pair = ("The quick brown foxes jumped", "A fast brown fox jumps")
    first = moved.score(*pair)
    assert Meteor("meteor-1.5", alpha=0.5, beta=1.0).score(*pair) == first
    assert Meteor("meteor-1.5").score(*pair).score != first.score  # same memo, own formula


@pytest.mark.filterwarnings("error::RuntimeWarning")  # a fallback to one process fails the test
def test_parallel_workers_start_in_a_threaded_process(
    meteor: Meteor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A threaded caller (the Streamlit server, a test runner after the app tests) gets
    workers from a fork server, whose OS parent is the server, not the caller: the
    workers' die-with-parent check must not mistake that for a dead parent (they used
    to exit at once, and scoring silently fell back to one process)."""
    import threading

    stop = threading.Event()
    t = threading.Thread(target=stop.wait, daemon=True)
    t.start()
    try:
        monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS", 0)
        monkeypatch.setattr(parallel_mod, "MIN_PARALLEL_SEGMENTS_FRESH", 0)
        assert parallel_mod._mp_context().get_start_method() != "fork"
        hyps = ["the cat sat on the mat", "a dog ran"] * 10
        refs = ["the cat sat on a mat", "the dog runs"] * 10
        par = score_corpus(meteor, hyps, refs, workers=2, chunk_size=3)
        assert par.segments == meteor.corpus_score(hyps, refs).segments
    finally:
        stop.set()
