"""nltk's greedy alignment in C (``meteor_native._greedy``) chooses what the Python stages choose.

:func:`meteor.aligners.greedy.nltk_candidates` hands both sides to
``meteor_native._greedy.nltk_align`` when it is installed; its candidate tuples, their
order and their details must equal :func:`~meteor.aligners.greedy.python_candidates`
(which ``tests/parity/test_aligners_nltk.py`` compares with nltk itself, and which runs
when ``METEOR_PURE_PYTHON`` is set).  Without the extension these tests are skipped on a
user's machine and fail in CI.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import assert_deferred_as_kept, native_part
from hypothesis import given, settings
from hypothesis import strategies as st

from meteor.aligners import greedy
from meteor.aligners.greedy import python_candidates
from meteor.match_tuples import check_spans, pack_raw, unpack_raw
from meteor.module_registry import Module
from meteor.scoring import stats_from_raw
from meteor.types import Alignment, Token

#: Words whose Porter stems and WordNet synonyms meet: exact, stem and synonym matches,
#: repeated words (which reference position a word takes), words without synsets.
VOCAB = (
    "the a cat cats dog dogs run runs running ran jump jumps jumped leapt leap "
    "car cars automobile auto big large great small little quick fast rapid "
    "house home sit sat sitting seat happy happily glad xyzzy on of"
).split()

MODULES = (Module.EXACT, Module.STEM, Module.SYNONYM)


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_greedy", "nltk's greedy alignment")


@pytest.fixture(scope="module")
def wn() -> Any:
    return greedy._wordnet()


def _c(native: Any, hyp: list[str], ref: list[str], wn: Any, stemmer: Any = None) -> Any:
    stem = greedy._porter_stem if stemmer is None else stemmer.stem
    label = "porter stem: " if stemmer is None else f"{type(stemmer).__name__} stem: "
    return native.nltk_align(
        hyp,
        ref,
        stem,
        greedy._synonym_cache(wn),
        lambda key: greedy._synonyms(wn, key),
        MODULES,
        "exact: ",
        label,
        greedy._synonym_detail,
    )


words = st.lists(st.sampled_from(VOCAB), max_size=18)


@settings(max_examples=400, deadline=None)
@given(hyp=words, ref=words)
def test_c_candidates_equal_python_candidates(native: Any, wn: Any, hyp: Any, ref: Any) -> None:
    expected = python_candidates(hyp, ref, wordnet=wn)
    assert _c(native, hyp, ref, wn) == expected
    assert greedy.nltk_candidates(hyp, ref, wordnet=wn) == expected


def test_every_stage_is_used_and_reference_order_kept(native: Any, wn: Any) -> None:
    hyp = "the cats leapt on the house and sat".split()
    ref = "a cat jumps on the home the seat sitting".split()
    got = _c(native, hyp, ref, wn)
    assert got == python_candidates(hyp, ref, wordnet=wn)
    assert {c[0] for c in got} == set(MODULES)
    assert [c[3] for c in got] == sorted(c[3] for c in got)


def test_a_callers_stemmer_and_no_reader(native: Any, wn: Any) -> None:
    class Prefix:
        def stem(self, w: str) -> str:
            return w[:3]

    hyp = "running cats automobile xyzzy".split()
    ref = "runner catalog car xyzzz".split()
    expected = python_candidates(hyp, ref, wordnet=wn, stemmer=Prefix())
    assert _c(native, hyp, ref, wn, Prefix()) == expected
    assert greedy.nltk_candidates(hyp, ref, wordnet=wn, stemmer=Prefix()) == expected
    assert greedy.nltk_candidates(hyp, ref, stemmer=Prefix()) == expected  # default reader
    assert any(c[5] == "Prefix stem: run" for c in expected)


def test_stems_are_asked_only_when_both_sides_have_words_left(native: Any, wn: Any) -> None:
    asked: list[str] = []

    def stem(w: str) -> str:
        asked.append(w)
        return w

    def call(hyp: list[str], ref: list[str]) -> Any:
        return native.nltk_align(hyp, ref, stem, None, lambda k: {}, MODULES, "e", "s", None)

    assert len(call(["a", "b"], ["b", "a", "c"])) == 2 and asked == []
    assert len(call(["a", "b", "c"], ["b", "a"])) == 2 and asked == []
    assert call(["a", "x"], ["y", "a"]) == [(Module.EXACT, 0, 1, 1, 2, "ea", None)]
    assert asked == ["x", "y"]


def test_errors_come_through(native: Any, wn: Any) -> None:
    def broken(w: str) -> str:
        raise RuntimeError("stemmer broke")

    def args(hyp: Any, ref: Any, stem: Any = str, synonyms: Any = None) -> tuple[Any, ...]:
        syn = synonyms or (lambda k: {})
        return (hyp, ref, stem, None, syn, MODULES, "e", "s", greedy._synonym_detail)

    with pytest.raises(RuntimeError, match="stemmer broke"):
        native.nltk_align(*args(["a"], ["b"], broken))
    with pytest.raises(TypeError, match="must return a dict"):
        native.nltk_align(*args(["a"], ["b"], synonyms=lambda k: ["b"]))
    with pytest.raises(TypeError, match="reference word 1 is not a str"):
        native.nltk_align(*args(["a"], ["b", 3]))
    with pytest.raises(TypeError, match="unhashable"):
        native.nltk_align(*args(["a"], ["b"], stem=lambda w: [w]))
    with pytest.raises(ValueError, match="modules"):
        native.nltk_align(["a"], ["a"], str, None, str, MODULES[:2], "e", "s", None)
    assert native.nltk_align([], [], str, None, str, MODULES, "e", "s", None) == []


@pytest.fixture(scope="module")
def c_pair(native: Any) -> Any:
    """:func:`greedy.bound_pair` on the C part, with ``METEOR_PURE_PYTHON`` set too (then
    the library itself takes the general path)."""
    saved = greedy.NATIVE_PAIR
    greedy.NATIVE_PAIR = native.nltk_pair
    yield lambda hyp, ref, wn: greedy.bound_pair(wn)(hyp, ref)
    greedy.NATIVE_PAIR = saved


def _tokens(words: list[str], function: set[str]) -> tuple[Token, ...]:
    return tuple(Token(w, k, k + 1, w in function) for k, w in enumerate(words))


def _general_path(hyp: tuple[Token, ...], ref: tuple[Token, ...], wn: Any) -> Any:
    """What ``Meteor._score_tokens`` does without :meth:`GreedyAligner.corpus_pair`."""
    raw = python_candidates([t.text for t in hyp], [t.text for t in ref], wordnet=wn)
    raw = sorted(raw, key=lambda c: c[3])
    stats = stats_from_raw(raw, [t.function_word for t in hyp], [t.function_word for t in ref])
    return pack_raw(raw), stats


@settings(max_examples=400, deadline=None)
@given(hyp=words, ref=words, function=st.sets(st.sampled_from(VOCAB)))
def test_c_packed_pair_equals_the_general_path(
    c_pair: Any, wn: Any, hyp: Any, ref: Any, function: Any
) -> None:
    h, r = _tokens(hyp, function), _tokens(ref, function)
    expected = _general_path(h, r, wn)
    got = c_pair(h, r, wn)
    assert got == expected
    assert [type(x) for x in got[0]] == [type(x) for x in expected[0]]
    pending = Alignment.deferred_packed(h, r, got[0]).pending()
    assert pending == Alignment.deferred(h, r, tuple(unpack_raw(expected[0]))).pending()
    check_spans(len(h), len(r), [c[1:5] for c in pending or ()])


def test_packed_pair_through_the_scorer(c_pair: Any) -> None:
    """A corpus run (records deferred) gives the records and numbers of a kept one."""
    import meteor

    m = meteor.Meteor("nltk")
    hyps = ["The cats leapt on the house and sat", "", "a b c", "The car sat"]
    refs = ["A cat jumps on the home the seat sitting", "x", "", "the automobile sits"]
    assert_deferred_as_kept(m, hyps, refs)


def test_packed_pair_errors(native: Any, wn: Any) -> None:
    def call(hyp: Any, ref: Any, slots: Any = (0, 1, 2), width: int = 6) -> Any:
        return native.nltk_pair(
            hyp, ref, str, None, lambda k: {}, MODULES, "e", "s", None, slots, width
        )

    assert call((), ()) == ((b"", (), (), ()), 0, 0, 0, 0, ((0,) * 6,) * 4, 0, 0, 0)
    with pytest.raises(TypeError, match="reference token 0's text is not a str"):
        call((Token("a", 0, 1),), (Token(3, 0, 1),))  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        call(("a",), ())
    with pytest.raises(ValueError, match="slot"):
        call((), (), (0, 1, 6))
