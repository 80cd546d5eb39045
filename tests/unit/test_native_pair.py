"""One pair in one C call (``meteor_native._beam.pair_stats``) chooses, packs and counts
as the Python stages, search and counting do.

A corpus run (records deferred) hands each pair of a Meteor 1.5 preset to
:func:`meteor.aligners.beam.packed_native_pair`: every stage's candidates (ExactMatcher,
StemMatcher, SynonymMatcher, ParaphraseMatcher) made in C from the sentences' packed
arrays, then the beam search.  The Python stages (:func:`propose_all_raw`),
:func:`beam_choice`, ``pack_raw`` and ``stats_from_raw`` are the reference: the chosen
matches must be the same (module, spans, detail) and the statistics equal on random
sentences made to share words, stems, synonyms and phrases, and on real WMT21 pairs.
Skipped without the extension (failed in CI).
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from array import array
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import assert_deferred_as_kept, native_part, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st

import meteor
from meteor.aligners import beam
from meteor.match_tuples import pack_raw
from meteor.runtime import PURE_PYTHON_ENV
from meteor.scoring import stats_from_raw
from meteor.stages.registry import propose_all_raw
from meteor.types import Alignment, Token

#: Words sharing stems, synsets and paraphrases, and words that share none.
VOCAB = (
    "the a cat cats dog dogs big large great house home houses run running ran quick fast "
    "rapid car automobile cars of in on at to , . it is was he said says tell told very "
    "much many a lot of people persons man men woman women child children good well"
).split()


@pytest.fixture(scope="module")
def native() -> Iterator[Any]:
    """The C part, in use by ``packed_native_pair`` even under ``METEOR_PURE_PYTHON`` (the
    comparison is the point)."""
    part = native_part("_beam", "the pair alignment")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(beam, "NATIVE_PAIR_STATS", part.pair_stats)
        yield part


def _python(m: meteor.Meteor, hyp: list[str], ref: list[str], limit: int) -> list[Any]:
    ctx = m._context(hyp, ref, limit)
    stages = propose_all_raw(ctx, m.aligner.stage_modules(ctx, m.params.modules))
    flat = [c for stage in stages for c in stage]
    picked = beam.beam_choice(len(hyp), len(ref), flat, m.params.beam_size)
    return sorted([flat[k] for k in picked], key=lambda c: c[3])


def _c(m: meteor.Meteor, hyp: list[str], ref: list[str], limit: int) -> Any:
    pair = beam.packed_native_pair(m.params, m.lang, m._sentence, lambda: limit)
    return pair(_tokens(hyp, set()), _tokens(ref, set()))


def _wmt21_rows() -> list[dict[str, str]]:
    """The first 1,500 rows of WMT21 ru-en (hyp, ref, …)."""
    path = shared_path("wmt21_ru-en_da/all_outputs.tsv")
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))[:1500]


def _tokens(words: list[str], function: set[str]) -> tuple[Token, ...]:
    return tuple(Token(w, k, k + 1, w in function) for k, w in enumerate(words))


def _same_packed(
    m: meteor.Meteor, hyp: tuple[Token, ...], ref: tuple[Token, ...], limit: int = 250_000
) -> None:
    """``pair_stats`` (:func:`beam.packed_native_pair`) gives what the general path of a
    corpus run gives: the Python stages and search, ``pack_raw`` and ``stats_from_raw``."""
    pair = beam.packed_native_pair(m.params, m.lang, m._sentence, lambda: limit)
    got = pair(hyp, ref)
    assert got is not None
    raw = _python(m, [t.text for t in hyp], [t.text for t in ref], limit)
    want = (
        pack_raw(raw),
        stats_from_raw(raw, [t.function_word for t in hyp], [t.function_word for t in ref]),
    )
    assert got == want, ([t.text for t in hyp], [t.text for t in ref])
    assert [type(x) for x in got[0]] == [type(x) for x in want[0]]
    deferred = Alignment.deferred_packed(hyp, ref, got[0])
    assert deferred.pending() == Alignment.deferred(hyp, ref, tuple(raw)).pending()


PRESETS = ("meteor-1.5", "meteor-1.5-paper2005")


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=150, deadline=None)
@given(
    hyp=st.lists(st.sampled_from(VOCAB), max_size=30),
    ref=st.lists(st.sampled_from(VOCAB), max_size=30),
    function=st.sets(st.sampled_from(VOCAB)),
)
def test_random_pairs_pack_and_count_as_python(
    native: Any, preset: str, hyp: list[str], ref: list[str], function: set[str]
) -> None:
    m = meteor.Meteor(preset)
    _same_packed(m, _tokens(hyp, function), _tokens(ref, function))
    _same_packed(m, _tokens(hyp, function), _tokens(hyp, function))


@pytest.mark.parametrize("preset", PRESETS)
def test_wmt21_pairs_pack_and_count_as_python(native: Any, preset: str) -> None:
    rows = _wmt21_rows()
    m = meteor.Meteor(preset)
    for row in rows:
        hyp, ref = m.tokenize(row["hyp"]), m.tokenize(row["ref"])
        _same_packed(m, hyp, ref)
        _same_packed(m, hyp, hyp)  # identical sentences: the first stage only


def test_the_scorer_packs_and_counts_a_corpus_pair_as_it_keeps_it(native: Any) -> None:
    """A corpus run (records deferred) through the scorer's hook gives the records and
    numbers of a kept one."""
    m = meteor.Meteor("meteor-1.5")
    assert m._pair is not None or os.environ.get(PURE_PYTHON_ENV)
    hyps = ["The cats leapt on the house and sat", "", "a b c", "the united states said"]
    refs = ["A cat jumps on the home the seat sitting", "x", "", "the united states of america"]
    assert_deferred_as_kept(m, hyps, refs)


def _unpacked(packed: tuple[bytes, bytes, bytes]) -> dict[int, list[int]]:
    ids, offsets, starts = (array("i", b).tolist() for b in packed)
    assert ids == sorted(set(ids))
    base = offsets[0] if offsets else 0
    return {pid: starts[offsets[k] - base : offsets[k + 1] - base] for k, pid in enumerate(ids)}


def test_phrases_packed_for_a_block_hold_their_occurrences() -> None:
    """``phrases_many``'s packed occurrences (for the whole block at once) and
    :func:`pack_occ`'s (one sentence's ``occ``) both say what ``occ`` says."""
    from meteor.languages.paraphrase import ParaphraseTable

    m = meteor.Meteor("meteor-1.5")
    table = m.lang.paraphrases()
    if not isinstance(table, ParaphraseTable):
        pytest.skip("the paraphrase index is not in use")
    texts = [
        "the united states of america said on monday that it would not take part",
        "",
        "he said he said he said , the united states and the united states",
        "in the end , the prime minister of the country was not able to form a government",
    ]
    sents = [[t.text for t in m.tokenize(x)] for x in texts]
    for phrases in table.phrases_many(sents * 3):
        assert phrases.packed is not None
        assert _unpacked(phrases.packed) == phrases.occ
        assert _unpacked(beam.pack_occ(phrases.occ)) == phrases.occ
    assert any(len(starts) > 1 for p in table.phrases_many(sents) for starts in p.occ.values())


def test_repetitive_and_long_pairs(native: Any) -> None:
    m = meteor.Meteor("meteor-1.5")
    words = "the cat and the dog sat on the mat of the house".split()
    _same_packed(m, _tokens(words * 20, {"the"}), _tokens(list(reversed(words)) * 21, set()))
    assert _c(m, words * 30, words, 250_000) is None  # 360 words: the Python search


def test_over_the_limit_the_python_stages_decide(
    native: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = meteor.Meteor("meteor-1.5")
    hyp = ["the"] * 20
    assert _c(m, hyp, hyp + ["cat"], 399) is None
    assert _c(m, hyp, hyp + ["cat"], 400) is not None
    monkeypatch.setenv("METEOR_MAX_CANDIDATES", "100")
    with pytest.raises(ValueError, match="at least 400 candidate matches"):
        meteor.batch.score_segments(m, [" ".join(hyp)], [" ".join(hyp + ["cat"])], candidates=False)


def test_bad_packs_and_tokens_are_refused(native: Any) -> None:
    mods = tuple(beam.PAIR_STAGES)
    details = ("", str, str, "paraphrase table")
    word = bytes(8)  # key 0, stem key 0, no synset
    good = ((word,), b"", b"", b"", b"")
    tok = (Token("a", 0, 1),)

    def call(hpack: Any, stages: bytes = b"\0", hyp: Any = tok, slots: Any = (0, 1, 2, 3)) -> Any:
        return native.pair_stats(
            hpack, good, stages, 40, 10, mods, details, None, hyp, tok, slots, 6
        )

    with pytest.raises(TypeError):
        call((b"",) * 3)
    with pytest.raises(ValueError, match="8 bytes"):
        call(((word[:7],), b"", b"", b"", b""))
    two = (word + (5).to_bytes(8, "little") * 2,)
    with pytest.raises(ValueError, match="ascending"):
        call((two, b"", b"", b"", b""), b"\2")
    with pytest.raises(ValueError, match="disagree"):
        call(((word,), bytes(4), b"", b"", b""), b"\3")
    with pytest.raises(ValueError, match="does not fit"):
        call(good, b"\7")  # no such stage
    one = array("i", [0, 1, 0, 1]).tobytes()
    assert call(good) == ((one, (mods[0],), (), ()), 1, 1, 0, 0,
                          ((1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (0,) * 6, (0,) * 6), 1, 1, 1)  # fmt: skip
    with pytest.raises(ValueError, match="as long as its pack"):
        call(good, hyp=())
    with pytest.raises(AttributeError):
        call(good, hyp=("a",))
    with pytest.raises(ValueError, match="slot"):
        call(good, slots=(0, 1, 2, 6))


def test_the_environment_switches_the_pair_alignment_off(native: Any) -> None:
    code = "from meteor.aligners import beam; print(beam.NATIVE_PAIR_STATS is None)"
    for value, off in (("1", "True"), ("", "False")):
        env = {**os.environ, PURE_PYTHON_ENV: value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == off, (value, out.stderr)
