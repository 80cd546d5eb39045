"""Tests for meteor.text.normalize: Meteor 1.5's -norm / -lower / plain tokens and their offsets.

Expected tokens come from the Java jar: the real-data JSONL files in
``../shared/data`` (read by path, never copied) and, for the case table below,
``Normalizer.normalizeLine(...).toLowerCase()`` run on each input.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED_DATA, require_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor import resources
from meteor.languages import ResourceError
from meteor.text import java_chars, normalize, offsets
from meteor.text.normalize import NormMode, normalize_text, sanitize, tokenize
from meteor.types import Token

DATA = SHARED_DATA


def _has_jar() -> bool:
    try:
        resources.jar_path()
    except ResourceError:
        return False
    return True


needs_jar = pytest.mark.skipif(
    not _has_jar(), reason="nonbreaking prefixes come from pycocoevalcap==1.2"
)

_SPLIT = re.compile(r"[^ \t\n\r\f]+")  # java.util.StringTokenizer
_SPACES = frozenset(" \t\n\r\f\u00a0\u202f\u205f\u3000" + "".join(map(chr, range(0x2000, 0x200B))))


# -- 1. agreement with Meteor 1.5 on every segment of the shared data ---------

# (file under ../shared/data, -l, mode)
DATA_FILES: list[tuple[str, str, NormMode]] = [
    ("newstest2009_cs-en/meteor15.en_default_norm.jsonl.gz", "en", "meteor"),
    ("ted_sk-en/meteor15.en_default_norm.jsonl.gz", "en", "meteor"),
    ("wmt21_ru-en_da/meteor15.en_default_norm.jsonl.gz", "en", "meteor"),
    ("meteor15_cases/cases.default_norm.jsonl.gz", "en", "meteor"),
    ("wmt21_ted_en-ru_mqm/meteor15.ru_exact_stem_norm.jsonl.gz", "ru", "meteor"),
    # without -norm: plain StringTokenizer split, case kept
    ("meteor15_cases/cases.default.jsonl.gz", "en", "none"),
    ("meteor15_cases/cases.paper2005.jsonl.gz", "en", "none"),
]


def _segments(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec.get("type") != "corpus":
                yield rec


@functools.cache
def _tokenized(
    rel: str, lang: str, mode: NormMode
) -> tuple[tuple[str, str, str, tuple[str, ...], tuple[Token, ...], bool, bool], ...]:
    """(id, side, text, Java tokens, our tokens, harness flag, our sanitize flag) per side."""
    path = DATA / rel
    require_shared(path)
    rows = []
    for rec in _segments(path):
        texts = [rec["hyp"], *rec["refs"]]
        flagged = any(sanitize(t)[1] for t in texts)
        best = rec["refs"][rec["best_ref_index"]]
        for side, text, java in (
            ("hyp", rec["hyp"], rec["hyp_tokens"]),
            ("ref", best, rec["ref_tokens"]),
        ):
            clean, _ = sanitize(text)
            toks = tokenize(clean, lang, mode)
            rows.append(
                (str(rec["id"]), side, text, tuple(java), toks, bool(rec.get("sanitized")), flagged)
            )
    return tuple(rows)


def _data_param(rel: str, lang: str, mode: NormMode) -> Any:
    marks = [needs_jar] if mode == "meteor" else []
    return pytest.param(
        rel, lang, mode, marks=marks, id=rel.split("/")[-1] if "cases" in rel else rel.split("/")[0]
    )


@pytest.mark.parametrize(("rel", "lang", "mode"), [_data_param(*f) for f in DATA_FILES])
def test_tokens_match_meteor15(rel: str, lang: str, mode: NormMode) -> None:
    rows = _tokenized(rel, lang, mode)
    diffs = [
        (i, side) for i, side, _, java, toks, _, _ in rows if tuple(t.text for t in toks) != java
    ]
    rate = 1 - len(diffs) / len(rows)
    print(
        f"{rel}: {len(rows) - len(diffs)}/{len(rows)} sides identical ({rate:.4%}); first diffs {diffs[:10]}"
    )
    # the harness flags a segment when it replaced a C0 control; sanitize() must agree
    flags = [(i, side) for i, side, _, _, _, harness, ours in rows if harness != ours]
    assert not flags, f"sanitize() disagrees with the harness flag on {flags[:10]}"
    assert not diffs, f"{len(diffs)} sides differ from Meteor 1.5, first {diffs[:10]}"


# -- 2. the worked examples (meteor-1.5.md section 4) and more Java outputs ---

# (lang, no_punct, input, Meteor 1.5 normalizeLine + toLowerCase, run on the jar)
CASES: list[tuple[str, bool, str, str]] = [
    ("en", False, "Mr. Smith didn't go to the U.S.-based firm -- really.",
     "mr. smith didn 't go to the us based firm - really ."),
    ("en", False, "rock'n'roll, 1,000 people... wow", "rock 'n'roll , 1,000 people ... wow"),
    # rule 8b is ASCII only
    ("en", False, "word. über", "word . über"),
    ("ru", False, "домой. и", "домой . и"),
    ("ru", False, "ёлка Ёлка", "ёлка ёлка"),  # ё is never folded
    ("en", False, "He said: “Don’t go to the U.S.-based café!”",
     "he said : \" don 't go to the us based café ! \""),
    ("en", False, "the 1990's", "the 1990 's"),
    ("fr", False, "l'homme aujourd'hui", "l' homme aujourd' hui"),
    ("ru", False, "т.е. д'Артаньян", "те д ' артаньян"),
    ("de", False, "Herr Dr. Müller's Haus", "herr dr. müller ' s haus"),
    # replaceAll consumes the context characters: only the first comma of a,b,c splits
    ("en", False, "a,b,c 1,000 1, 2 x,1", "a , b,c 1,000 1 , 2 x , 1"),
    ("en", False, "a-b-c", "a b-c"),
    # nonbreaking prefixes: #NUMERIC_ONLY#, any next word starting with [a-z]
    ("en", False, "No. 5 No. five No. Five", "no. 5 no. five no . five"),
    ("en", False, "Acme Inc. and Acme Inc. Then", "acme inc. and acme inc . then"),
    ("en", False, "e.g. this i.e. that", "eg this ie that"),
    ("en", False, "Prof. Smith St. Louis pp. 5 pp. x", "prof. smith st. louis pp. 5 pp. x"),
    ("en", False, "end...", "end ..."),
    # spaces, separators, quotes and dashes
    ("en", False, "a\u00a0b\u2003c", "a b c"),
    ("en", False, "a\u2028b", "a \u2028 b"),
    ("en", False, "wait—what – now", "wait — what - now"),
    ("en", False, "''quoted'' `single'", "\" quoted \" ' single '"),
    ("en", False, "emoji😀ok", "emoji 😀 ok"),
    ("en", False, "İstanbul", "i\u0307stanbul"),
    ("en", False, "  ", ""),
    ("en", False, "", ""),
    # -noPunct
    ("en", True, "Mr. Smith didn't go to the U.S.-based firm -- really.",
     "mr smith didn t go to the us based firm really"),
    ("en", True, "rock'n'roll, 1,000 people... wow", "rock n roll 1 000 people wow"),
]  # fmt: skip


@needs_jar
@pytest.mark.parametrize(("lang", "no_punct", "text", "expected"), CASES)
def test_worked_examples(lang: str, no_punct: bool, text: str, expected: str) -> None:
    assert normalize_text(text, lang, no_punct=no_punct) == expected
    toks = tokenize(text, lang, no_punct=no_punct)
    assert [t.text for t in toks] == _SPLIT.findall(expected)
    _check_offsets(text, toks, no_punct=no_punct)


@pytest.mark.parametrize(
    ("mode", "text", "expected"),
    [
        # -lower and plain: StringTokenizer only, NBSP and U+2028 are not delimiters
        ("lower", "The Cat  sat.", ["the", "cat", "sat."]),
        ("lower", "a\u00a0B\u2028C", ["a\u00a0b\u2028c"]),
        ("lower", "ΟΔΟΣ", ["οδος"]),
        ("none", "The Cat\tsat.\r\n", ["The", "Cat", "sat."]),
        ("none", "a\u00a0B\u2028C", ["a\u00a0B\u2028C"]),
        ("none", " \x0b ", ["\x0b"]),
    ],
)
def test_lower_and_plain_modes(mode: NormMode, text: str, expected: list[str]) -> None:
    toks = tokenize(text, "xx", mode)  # the language is not used by these modes
    assert [t.text for t in toks] == expected
    for t in toks:
        src = text[t.start : t.end]
        assert (src.lower() if mode == "lower" else src) == t.text


@needs_jar
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the offsets named in the brief: source of each token
        ("U.S.", [("us", "U.S.")]),
        ("don't", [("don", "don"), ("'t", "'t")]),
        ("“x”", [('"', "“"), ("x", "x"), ('"', "”")]),
        ("U.S.-based", [("us", "U.S."), ("based", "based")]),
        ("firm -- really.", [("firm", "firm"), ("-", "--"), ("really", "really"), (".", ".")]),
        ("''hi''", [('"', "''"), ("hi", "hi"), ('"', "''")]),
        ("Don’t", [("don", "Don"), ("'t", "’t")]),
        ("wow... ok", [("wow", "wow"), ("...", "..."), ("ok", "ok")]),
        ("İx", [("i\u0307x", "İx")]),
        ("a\u00a0b", [("a", "a"), ("b", "b")]),
    ],
)
def test_offsets_point_at_the_source(text: str, expected: list[tuple[str, str]]) -> None:
    toks = tokenize(text)
    assert [(t.text, text[t.start : t.end]) for t in toks] == expected


def test_unknown_language_or_mode() -> None:
    with pytest.raises(ValueError, match="no normaliser"):
        tokenize("x", "xx", "meteor")
    with pytest.raises(ValueError, match="no normaliser"):
        normalize_text("x", "other")
    with pytest.raises(ValueError, match="mode"):
        tokenize("x", "en", "upper")  # type: ignore[arg-type]


def test_sanitize_replaces_c0_but_tab_one_for_one() -> None:
    text = "a\x00b\tc\nd\re\x1bf\x7fg\x85h\u2028i"
    clean, changed = sanitize(text)
    assert changed and len(clean) == len(text)
    assert clean == "a b\tc d e f\x7fg\x85h\u2028i"  # DEL, C1 and U+2028 stay, as in Java
    assert sanitize("plain text") == ("plain text", False)


def test_prefix_file_parsing() -> None:
    table = normalize._parse_prefixes(
        ("# comment", "Mr", "No #NUMERIC_ONLY#", "pp\t#NUMERIC_ONLY# trailing", "St # not numeric")
    )
    assert table == {"Mr": 1, "No": 2, "pp": 2, "St": 1}


@needs_jar
def test_prefixes_come_from_the_jar() -> None:
    en = normalize._lang_spec("en").prefixes
    ru = normalize._lang_spec("ru").prefixes
    assert en["Mr"] == 1 and en["No"] == 2 and "#Anything" not in en
    assert ru["тыс"] == 1 and ru["млн"] == 1


def test_without_the_jar_every_dot_may_split(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(member: str) -> tuple[str, ...]:
        raise ResourceError(f"{member}: pycocoevalcap is not installed")

    monkeypatch.setattr(resources, "jar_lines", missing)
    normalize._lang_spec.cache_clear()
    try:
        assert normalize_text("Mr. Smith") == "mr . smith"
        assert normalize_text("see Mr. smith") == "see mr. smith"  # lowercase next word
    finally:
        monkeypatch.undo()
        normalize._lang_spec.cache_clear()


# -- 3. offsets ----------------------------------------------------------------

_FOLD = str.maketrans({"‘": "'", "’": "'", "`": "'", "“": '"', "”": '"', "–": "-"})


def _key(s: str) -> str:
    """What survives every substitution of the normaliser (case, quotes, dashes, dots)."""
    return s.lower().translate(_FOLD).replace("''", '"').replace(".", "").replace("-", "")


def _check_offsets(text: str, toks: tuple[Token, ...], *, no_punct: bool = False) -> int:
    """Assert valid offsets, that every source slice explains its token, and that only
    spaces and dropped dashes (any punctuation under -noPunct) fall between tokens.

    Returns how many tokens are their source lowercased.
    """

    def dropped(c: str) -> bool:
        return c in _SPACES or c == "-" or (no_punct and c not in java_chars.ALNUM_SET)

    prev = 0
    verbatim = 0
    for t in toks:
        assert prev <= t.start < t.end <= len(text), (text, toks)
        gap = text[prev : t.start]
        assert all(map(dropped, gap)), (text, t, gap)
        src = text[t.start : t.end]
        if src.lower() == t.text:
            verbatim += 1
        else:
            assert _key(src) == _key(t.text), (text, t, src)
        prev = t.end
    assert all(map(dropped, text[prev:])), (text, toks)
    return verbatim


@pytest.mark.parametrize(
    ("rel", "lang", "mode"), [_data_param(*f) for f in DATA_FILES if f[2] == "meteor"]
)
def test_offsets_on_real_data(rel: str, lang: str, mode: NormMode) -> None:
    n = verbatim = 0
    for _, _, text, _, toks, _, _ in _tokenized(rel, lang, mode):
        verbatim += _check_offsets(sanitize(text)[0], toks)
        n += len(toks)
    print(f"{rel}: {n} tokens, {verbatim} verbatim (case aside), {n - verbatim} substituted")


def test_span_safety_net() -> None:
    """Broken spans (never produced so far) are clamped into valid, ordered, disjoint ones."""
    broken = [("a", 3, 3), ("b", 1, 2), ("c", 5, 9)]
    assert offsets.valid_spans(broken, 6) == [("a", 3, 4), ("b", 4, 5), ("c", 5, 6)]
    good = [("a", 0, 1), ("b", 2, 4)]
    assert offsets.valid_spans(good, 4) is good


_PIECES = [
    "U.S.", "Mr.", "No.", "don't", "1990's", "l'", "''", "“", "”", "‘", "’", "`", "–", "—",
    "--", "-", "...", "..", ".", ",", "1,000", "'", " ", "  ", "\t", "\n", "\r", "\x0b", "\xa0",
    "\u2028", "\u2003", "\u3000", "😀", "e\u0301", "\u200f", "\u202e", "İ", "Σ", "ς", "DOTMULTI",
    "DOTDOTMULTI.", "\x00", "\x01", "\x7f", "\x85", "abc", "Abc", "т.е.", "Ёж", "\ud800",
    "\U00010570", "Ⱟ", "a", "Z", "7",
]  # fmt: skip
_texts = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(_PIECES), max_size=20).map("".join),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=_texts,
    lang=st.sampled_from(["en", "ru", "fr", "de"]),
    mode=st.sampled_from(["meteor", "lower", "none"]),
    no_punct=st.booleans(),
)
def test_never_raises_and_offsets_are_valid(
    text: str, lang: str, mode: NormMode, no_punct: bool
) -> None:
    toks = tokenize(text, lang, mode, no_punct=no_punct and mode == "meteor")
    prev = 0
    for t in toks:
        assert t.text and prev <= t.start < t.end <= len(text)
        prev = t.end
    if mode == "meteor":
        norm = normalize_text(text, lang, no_punct=no_punct)
        assert [t.text for t in toks] == _SPLIT.findall(norm)
    else:
        assert [text[t.start : t.end] for t in toks] == _SPLIT.findall(text)


_EDITED = [*_PIECES, "non-profit", "x-", "-y", "a - b", "say “hi”", "it’s", "‘a’", "1–2", "--x"]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.one_of(
        st.lists(st.sampled_from(_EDITED), max_size=14).map("".join),
        st.text(alphabet="ab -–—‘’“”`'\".,", max_size=30),
    ),
    lang=st.sampled_from(["en", "fr", "de", "ru"]),
    no_punct=st.booleans(),
)
def test_offsets_without_provenance_equal_the_tracked_ones(
    text: str, lang: str, no_punct: bool
) -> None:
    """Where the tokens are the text's characters in order (spaces aside, a few replaced
    one for one, hyphens dropped), offsets are read off the text directly
    (``_verbatim_spans``); they must be the ones the normaliser run with provenance gives."""
    words = java_chars.WORD.findall(normalize_text(text, lang, no_punct=no_punct))
    spans = offsets.verbatim_spans(text, words)
    if spans is not None:
        tracked = normalize._tracked_tokens(text, lang, no_punct)
        assert list(zip(words, *spans, strict=True)) == tracked


def test_quotes_dashes_and_hyphens_need_no_provenance() -> None:
    text = "A “non-profit” group’s plan – they said"
    words = java_chars.WORD.findall(normalize_text(text))
    spans = offsets.verbatim_spans(text, words)
    assert spans is not None
    assert list(zip(words, *spans, strict=True)) == normalize._tracked_tokens(text, "en", False)
    for text in ["U.S. plans", "it''s", "don''t"]:  # dropped dots, two quotes made one
        words = java_chars.WORD.findall(normalize_text(text))
        assert offsets.verbatim_spans(text, words) is None, text
    for text in ["a--b", "x - - y", "a-", "-a"]:
        words = java_chars.WORD.findall(normalize_text(text))
        spans = offsets.verbatim_spans(text, words)
        assert spans is not None
        assert list(zip(words, *spans, strict=True)) == normalize._tracked_tokens(text, "en", False)


@needs_jar
def test_speed() -> None:
    """10k real segments (~22 words) normalise in well under a second (CPU time, lenient bound)."""
    rows = _tokenized(DATA_FILES[0][0], "en", "meteor")
    texts = [text for _, _, text, _, _, _, _ in rows][:10_000]
    start = time.process_time()
    for text in texts:
        normalize_text(text)
    norm = time.process_time() - start
    start = time.process_time()
    for text in texts:
        tokenize(text)
    tok = time.process_time() - start
    print(f"normalize_text {len(texts) / norm:,.0f} seg/s; tokenize {len(texts) / tok:,.0f} seg/s")
    assert norm < 1.5
    assert tok < 4.0
