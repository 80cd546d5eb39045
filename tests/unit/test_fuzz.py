"""Issue #7: property-based fuzzing of the normaliser, tokenizer, matchers and aligners.

Whatever text comes in, nothing raises and the record keeps its invariants: score in
[0, 1], a one-to-one alignment, chunks that partition the matches, token offsets with
0 <= start < end <= len(text), non-decreasing.  The linear-time handling of dot runs in
the normaliser is checked against Java's loops, character spans included.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from meteor import Meteor, MeteorResult
from meteor.aligners.beam import align_beam
from meteor.aligners.stagewise import align_stagewise
from meteor.module_registry import Module
from meteor.text import dot_runs, normalize, tracked_line
from meteor.types import Match, Span, Token

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Words that match each other at every stage (exact, stems, WordNet synonyms, the
#: paraphrase table, Russian lemmas and synonyms), plus markup and odd characters.
VOCAB = (
    "the a an of to in on cat cats dog dogs sat sits sitting mat mats fast quick rapid "
    "big large house home car automobile jump jumps jumped leapt over under in order to "
    "kill killed U.S. Mr. don't l'homme 1,000 3.5 ... -- “ ” ' \" ( ) <script> </script> "
    "<img onerror=x> кот коты кошка собака собаки пёс дом дома быстро быстрый "
    "😀 👨‍👩‍👧 é e\u0301 İ ß \u200b \u202e \u00a0 \u2028 DOTMULTI"
).split(" ")

words = st.sampled_from(VOCAB)
any_char = st.characters(codec=None, exclude_categories=())  # every code point, surrogates too
sentences = st.one_of(
    st.lists(words, max_size=25).map(" ".join),
    st.text(alphabet=st.one_of(any_char, st.sampled_from(" .'-,\t\n\r")), max_size=60),
    st.lists(
        st.sampled_from([".", "..", "DOT", "MULTI", "DOTMULTI", " ", "x", "U.S"]), max_size=20
    ).map("".join),
)
clean_sentences = sentences.filter(lambda s: not any("\ud800" <= c <= "\udfff" for c in s))


def check_offsets(tokens: Sequence[Token], text: str) -> None:
    prev = 0
    for t in tokens:
        assert t.text, "empty token"
        assert prev <= t.start < t.end <= len(text), (t, prev, len(text))
        prev = t.end


def check_matches(matches: Sequence[Match], n_hyp: int, n_ref: int) -> None:
    used_h: set[int] = set()
    used_r: set[int] = set()
    for m in matches:
        assert 0 <= m.hyp.start < m.hyp.end <= n_hyp and 0 <= m.ref.start < m.ref.end <= n_ref
        assert not used_h & set(m.hyp) and not used_r & set(m.ref), "aligned twice"
        used_h |= set(m.hyp)
        used_r |= set(m.ref)


def check_record(r: MeteorResult) -> None:
    assert 0.0 <= r.score <= 1.0
    for x in (r.precision, r.recall, r.fmean, r.frag, r.penalty):
        assert math.isnan(x) or 0.0 <= x <= 1.0
    al = r.alignment
    check_offsets(al.hyp, r.hyp)
    check_offsets(al.ref, r.refs[r.best_ref_index])
    check_matches(al.matches, len(al.hyp), len(al.ref))
    assert [m.ref.start for m in al.matches] == sorted(m.ref.start for m in al.matches)
    covered = sorted(k for c in al.chunks for k in c.matches)
    assert covered == list(range(len(al.matches))), "chunks must partition the matches"
    for c in al.chunks:  # a chunk is contiguous and in order on both sides
        ms = [al.matches[k] for k in c.matches]
        for a, b in zip(ms, ms[1:], strict=False):
            assert b.hyp.start == a.hyp.end and b.ref.start == a.ref.end
        assert (c.hyp.start, c.hyp.end) == (ms[0].hyp.start, ms[-1].hyp.end)
    assert r.stats.chunks <= max(len(al.matches), 1)
    assert len(r.ref_scores) == len(r.refs) and r.score == max(r.ref_scores)


# -- the normaliser and tokenizers --------------------------------------------------------------


@FUZZ
@example(text="0\x1f0", lang="en", mode="meteor", no_punct=False)  # U+001F is not a delimiter
@given(
    text=sentences,
    lang=st.sampled_from(["en", "ru", "fr", "de", "cz", "es"]),
    mode=st.sampled_from(["meteor", "lower", "none"]),
    no_punct=st.booleans(),
)
def test_tokenize_never_raises_and_offsets_are_valid(
    text: str, lang: str, mode: str, no_punct: bool
) -> None:
    toks = normalize.tokenize(text, lang, mode, no_punct=no_punct and mode == "meteor")  # type: ignore[arg-type]
    check_offsets(toks, text)
    for t in toks:
        assert not set(t.text) & set(" \t\n\r\f"), t
    if mode == "meteor":  # the normalised line split as java.util.StringTokenizer does
        line = normalize.normalize_text(text, lang, no_punct=no_punct)
        assert [t.text for t in toks] == re.findall(r"[^ \t\n\r\f]+", line)
    clean, _ = normalize.sanitize(text)
    assert len(clean) == len(text)


@FUZZ
@given(text=sentences, lower=st.booleans(), no_punct=st.booleans())
def test_razdel_tokens_are_substrings(text: str, lower: bool, no_punct: bool) -> None:
    from meteor.text.tokenize_ru import razdel_tokens

    toks = razdel_tokens(text, lower=lower, no_punct=no_punct)
    check_offsets(toks, text)
    for t in toks:
        assert t.text == (text[t.start : t.end].lower() if lower else text[t.start : t.end])


def _iterative_escape(line: tracked_line.Line) -> None:
    """Java's loop, as the normaliser ran it before the one-pass version."""
    while "DOTMULTI." in line.s:
        line.apply(dot_runs.MULTI_DOT2)
        line.apply(dot_runs.MULTI_DOT3)


def _iterative_unescape(line: tracked_line.Line) -> None:
    while "DOTDOTMULTI" in line.s:
        line.apply(dot_runs.UNESCAPE_DOTS)
    if "DOTMULTI" in line.s:
        line.apply(dot_runs.UNESCAPE_DOTS2)


def _line(s: str, tracked: bool) -> tracked_line.Line:
    if not tracked:
        return tracked_line.Line(s)
    n = len(s)  # arbitrary but distinct spans, so that any difference shows
    return tracked_line.Line(s, [k // 2 for k in range(n)], [k // 2 + 1 + k % 3 for k in range(n)])


@settings(max_examples=600, deadline=None)
@given(
    parts=st.lists(
        st.sampled_from(
            [
                ".",
                ".",
                "..",
                "DOTMULTI",
                "DOT",
                "MULTI",
                "D",
                " ",
                "x",
                "I",
                "\t",
                "DOTDOTMULTI",
                "DOTMULTI.",
            ]
        ),
        max_size=16,
    ),  # fmt: skip
    tracked=st.booleans(),
)
def test_one_pass_dot_runs_equal_javas_loops(parts: list[str], tracked: bool) -> None:
    s = "".join(parts)
    for slow, fast, trigger in (
        (_iterative_escape, dot_runs.escape_dot_runs, "DOTMULTI."),
        (_iterative_unescape, dot_runs.unescape_dot_runs, "DOTMULTI"),
    ):
        a, b = _line(s, tracked), _line(s, tracked)
        slow(a)
        if trigger in b.s:
            fast(b)
        assert (a.s, a.st, a.en) == (b.s, b.st, b.en)


# -- the whole pipeline per aligner ----------------------------------------------------------


@pytest.fixture(scope="module")
def scorers() -> dict[str, Meteor]:
    out = {p: Meteor(p) for p in ("meteor-1.5", "nltk", "paper-2005", "meteor-1.5-ru", "seed-ru")}
    for m in out.values():
        m.prepare()
    return out


@pytest.mark.parametrize("preset", ["meteor-1.5", "nltk", "paper-2005", "meteor-1.5-ru", "seed-ru"])
def test_score_invariants(scorers: dict[str, Meteor], preset: str) -> None:
    m = scorers[preset]

    @FUZZ
    @given(hyp=clean_sentences, refs=st.lists(clean_sentences, min_size=1, max_size=3))
    def run(hyp: str, refs: list[str]) -> None:
        r = m.score(hyp, refs)
        check_record(r)
        assert r.hyp == hyp and list(r.refs) == refs

    run()


def test_matchers_propose_in_lattice_order(scorers: dict[str, Meteor]) -> None:
    m = scorers["meteor-1.5"]

    @FUZZ
    @given(hyp=st.lists(words, max_size=20), ref=st.lists(words, max_size=20))
    def run(hyp: list[str], ref: list[str]) -> None:
        h = [t.text for t in m.tokenize(" ".join(hyp))]
        r = [t.text for t in m.tokenize(" ".join(ref))]
        for module, stage in zip(m.params.modules, m.candidates(h, r), strict=True):
            for c in stage:
                assert c.module is module
                assert 0 <= c.hyp.start < c.hyp.end <= len(h)
                assert 0 <= c.ref.start < c.ref.end <= len(r)
                assert c.hyp_words == tuple(h[c.hyp.start : c.hyp.end])
                assert c.ref_words == tuple(r[c.ref.start : c.ref.end])
            if module is not Module.PARAPHRASE:  # word stages: reference order, then hypothesis
                keys = [(c.ref.start, c.hyp.start) for c in stage]
                assert keys == sorted(keys)

    run()


# -- the aligners on arbitrary candidate lattices ---------------------------------------------

spans = st.tuples(st.integers(0, 11), st.integers(1, 3), st.integers(0, 11), st.integers(1, 3))
modules = st.sampled_from([Module.EXACT, Module.STEM, Module.SYNONYM, Module.PARAPHRASE])


def _cands(raw: list[tuple[int, int, int, int]], mods: list[Module], n: int) -> list[Match]:
    out = []
    for (hs, hl, rs, rl), mod in zip(raw, mods, strict=False):
        if mod is not Module.PARAPHRASE:
            hl = rl = 1
        he, re_ = min(hs + hl, n), min(rs + rl, n)
        if hs < he and rs < re_:
            out.append(
                Match(mod, Span(hs, he), Span(rs, re_), ("w",) * (he - hs), ("w",) * (re_ - rs))
            )
    out.sort(key=lambda c: (c.ref.start, c.hyp.start))  # the lattice order matchers give
    return out


@FUZZ
@given(
    raw=st.lists(spans, max_size=40), mods=st.lists(modules, max_size=40), beam=st.integers(1, 50)
)
def test_beam_aligner_on_arbitrary_lattices(
    raw: list[tuple[int, int, int, int]], mods: list[Module], beam: int
) -> None:
    n = 12
    cands = _cands(raw, mods, n)
    chosen = align_beam(n, n, cands, beam)
    check_matches(chosen, n, n)
    assert all(c in cands for c in chosen)
    assert [c.ref.start for c in chosen] == sorted(c.ref.start for c in chosen)


@FUZZ
@given(raw=st.lists(spans, max_size=30), mods=st.lists(modules, max_size=30))
def test_stagewise_aligner_on_arbitrary_lattices(
    raw: list[tuple[int, int, int, int]], mods: list[Module]
) -> None:
    n = 12
    cands = [c for c in _cands(raw, mods, n) if c.module is not Module.PARAPHRASE]
    stages = [
        [c for c in cands if c.module is mod] for mod in (Module.EXACT, Module.STEM, Module.SYNONYM)
    ]
    chosen = align_stagewise(n, n, stages)
    check_matches(chosen, n, n)
    assert all(c in cands for c in chosen)
    # each stage keeps a largest one-to-one subset: no candidate of the first stage could be added
    used_h = {i for c in chosen for i in c.hyp}
    used_r = {j for c in chosen for j in c.ref}
    for c in stages[0]:
        assert c.hyp.start in used_h or c.ref.start in used_r


@FUZZ
@given(hyp=st.lists(words, max_size=25), ref=st.lists(words, max_size=25))
def test_greedy_aligner_on_arbitrary_token_lists(hyp: list[str], ref: list[str]) -> None:
    from meteor.aligners.greedy import align_nltk

    h = [w.lower() for w in hyp if w.strip()]
    r = [w.lower() for w in ref if w.strip()]
    chosen = align_nltk(h, r)
    check_matches(chosen, len(h), len(r))
    for c in chosen:
        assert c.hyp_words == (h[c.hyp.start],) and c.ref_words == (r[c.ref.start],)
