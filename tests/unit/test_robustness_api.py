"""Issue #7: the library under bad and extreme input (catalogue in docs/robustness.md).

Every input either gives a record whose invariants hold, or a ``TypeError`` /
``ValueError`` (``ParamError``, ``InputError``) with a message that says what is
wrong -- quickly.  The worst accepted alignment cases finish within the bounds
documented in docs/robustness.md (asserted here with head room for slow machines).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import time  # bounds below are CPU seconds of this process (process_time): a hang

# fails them, a machine loaded by other jobs does not
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import meteor
from meteor import Meteor, ParamError
from meteor.aligners.base import MAX_CANDIDATES
from meteor.aligners.beam import MAX_BEAM_WORK
from meteor.analysis import resampling
from meteor.analysis.resampling import MAX_BOOTSTRAP_DRAWS, MAX_BOOTSTRAP_SAMPLES
from meteor.analysis.significance import bootstrap
from meteor.io import read as io
from meteor.languages import paraphrase, paraphrase_index
from meteor.metric import MAX_CHARS, MAX_TOKENS
from meteor.stages.base import CandidateLimitError
from meteor.text import normalize

PRESETS = meteor.preset_names()
#: One preset per aligner and language (the slow checks run on these only).
REPRESENTATIVE = ("meteor-1.5", "paper-2005", "nltk", "meteor-1.5-ru", "ru")
FOX = ("A fast brown fox leapt over a lazy dog", "The quick brown fox jumps over the lazy dog")


@pytest.fixture(scope="module")
def scorers() -> dict[str, Meteor]:
    out = {name: Meteor(name) for name in PRESETS}
    for m in out.values():
        m.prepare()
    return out


def check_record(r: meteor.MeteorResult) -> None:
    """The invariants every record keeps (the same list as tests/unit/test_fuzz.py)."""
    assert 0.0 <= r.score <= 1.0
    for x in (r.precision, r.recall, r.fmean, r.frag, r.penalty):
        assert math.isnan(x) or 0.0 <= x <= 1.0
    al = r.alignment
    texts = (r.hyp, r.refs[r.best_ref_index])
    for toks, text in zip((al.hyp, al.ref), texts, strict=True):
        prev = 0
        for t in toks:
            assert prev <= t.start < t.end <= len(text), (t, prev, len(text))
            prev = t.end
    used_h: set[int] = set()
    used_r: set[int] = set()
    for m in al.matches:
        assert not used_h & set(m.hyp) and not used_r & set(m.ref)  # one-to-one
        used_h |= set(m.hyp)
        used_r |= set(m.ref)
    in_chunks = sorted(k for c in al.chunks for k in c.matches)
    assert in_chunks == list(range(len(al.matches)))  # chunks partition the matches
    json.dumps(r.to_dict(candidates=True), allow_nan=False)  # always serialisable


# -- 1-2. empty, whitespace-only, every preset ----------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    ("hyp", "ref"),
    [("", ""), ("", "a cat"), ("a cat", ""), ("  \t ", " \u3000\u00a0 "), ("\n\r\n", "a")],
    ids=["both-empty", "empty-hyp", "empty-ref", "whitespace", "newlines"],
)
def test_empty_and_whitespace_input_scores_zero_on_every_preset(
    scorers: dict[str, Meteor], preset: str, hyp: str, ref: str
) -> None:
    r = scorers[preset].score(hyp, ref)
    check_record(r)
    assert r.score == 0.0 and not r.alignment.matches


# -- 3-5. size limits ---------------------------------------------------------------------------


def test_one_megabyte_line_is_refused_before_tokenising(
    scorers: dict[str, Meteor], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = "word " * 200_000  # 1 MB
    real_tokenize = normalize.tokenize

    def tokenised(text: str, *args: Any, **kwargs: Any) -> Any:
        assert len(text) <= MAX_CHARS, "a text over the limit was tokenised"
        return real_tokenize(text, *args, **kwargs)

    monkeypatch.setattr(normalize, "tokenize", tokenised)  # what Meteor.tokenize calls
    with pytest.raises(ValueError, match=r"the hypothesis has 1,000,000 characters; at most"):
        scorers["meteor-1.5"].score(big, "word")
    with pytest.raises(ValueError, match=r"reference 2 has 1,000,000 characters"):
        scorers["meteor-1.5"].score("word", ["word", big])


def test_text_at_the_character_limit_is_accepted(scorers: dict[str, Meteor]) -> None:
    text = "x" * MAX_CHARS  # one token of 200,000 characters
    r = scorers["meteor-1.5"].score(text, text)
    assert r.score == 1.0 and r.alignment.hyp[0].end == MAX_CHARS
    with pytest.raises(ValueError, match="200,001 characters"):
        scorers["meteor-1.5"].score(text + "x", text)


def test_ten_thousand_character_token(scorers: dict[str, Meteor]) -> None:
    tok = "ab" * 5_000
    for preset in REPRESENTATIVE:
        r = scorers[preset].score(f"the {tok} sat", f"the {tok} sat")
        check_record(r)
        assert r.score > 0.9


def test_too_many_tokens_is_refused_with_the_count(scorers: dict[str, Meteor]) -> None:
    words = " ".join(f"w{k}" for k in range(MAX_TOKENS + 1))
    with pytest.raises(ValueError, match=r"the hypothesis has 5,001 tokens; at most 5,000"):
        scorers["meteor-1.5"].score(words, "w1")


# -- 6-8. worst alignment cases: refused fast, or finished within the documented bound --------


@pytest.mark.parametrize("preset", PRESETS)
def test_five_thousand_copies_of_one_word_are_refused_fast(
    scorers: dict[str, Meteor], preset: str
) -> None:
    word = "кот" if scorers[preset].params.lang == "ru" else "the"
    t0 = time.process_time()
    if scorers[preset].params.aligner == "greedy":  # nltk keeps no candidate list
        r = scorers[preset].score(f"{word} " * 5_000, f"{word} " * 5_000)
        assert r.score > 0.9999
    else:
        with pytest.raises(CandidateLimitError, match=r"at least 25,000,000 candidate matches"):
            scorers[preset].score(f"{word} " * 5_000, f"{word} " * 5_000)
    assert time.process_time() - t0 < 6.0  # about 0.1 s alone; before the fix: hours


def test_one_thousand_repetitions(scorers: dict[str, Meteor]) -> None:
    with pytest.raises(ValueError, match="1,000,000 candidate matches"):
        scorers["meteor-1.5"].score("dog " * 1000, "dog " * 1000)
    assert scorers["nltk"].score("dog " * 1000, "dog " * 999).score > 0.99


@pytest.mark.parametrize("preset", ["meteor-1.5", "paper-2005", "ru"])
def test_largest_accepted_repetition_finishes_in_bound(
    scorers: dict[str, Meteor], preset: str
) -> None:
    """223 × 223 copies: 49,729 candidates, just under MAX_CANDIDATES (documented ≤ 2 s)."""
    n = math.isqrt(MAX_CANDIDATES)
    word = "кот" if scorers[preset].params.lang == "ru" else "dog"
    t0 = time.process_time()
    r = scorers[preset].score(f"{word} " * n, f"{word} " * (n - 1))
    elapsed = time.process_time() - t0
    check_record(r)
    assert len(r.candidates) == n * (n - 1)
    assert elapsed < 6.0, f"{preset}: {elapsed:.1f} s"  # measured ≤ 1.5 s


def test_wide_beam_lowers_the_candidate_limit(scorers: dict[str, Meteor]) -> None:
    wide = Meteor("meteor-1.5", beam_size=10_000)
    assert wide.candidate_limit() == MAX_BEAM_WORK // 10_000 == 200
    with pytest.raises(ValueError, match=r"with beam size 10,000 at most 200 are accepted"):
        wide.score("the cat " * 20, "the dog " * 20)
    r = wide.score(*FOX)  # an ordinary sentence still works
    assert r.score == scorers["meteor-1.5"].score(*FOX).score


def test_long_distinct_pair_is_accepted(scorers: dict[str, Meteor]) -> None:
    words = [f"w{k}" for k in range(MAX_TOKENS)]
    t0 = time.process_time()
    r = scorers["meteor-1.5"].score(" ".join(words), " ".join(reversed(words)))
    assert time.process_time() - t0 < 10.0  # measured 0.5 s
    check_record(r)
    assert r.stats.chunks == MAX_TOKENS


# -- 9-16. odd characters ---------------------------------------------------------------------

ODD_TEXTS = {
    "control": "a\x00b\x07c \x1b[31mred\x1b[0m \x7f\x85\x9f d",
    "zero-width": "a\u200bb c\u200dd \ufeffe\u2060f",
    "bidi": "\u202eevil\u202c normal \u2067isolated\u2069 \u200fx",
    "emoji": "I ❤️ 🍕 👨‍👩‍👧 👍🏽 🇫🇷",
    "mixed-scripts": "Привет world 你好 مرحبا שלום Ελλάδα",
    "nfd": unicodedata.normalize("NFD", "café résumé naïve"),
    "line-separators": "a\u2028b\u2029c\u0085d\u00a0e\u3000f",
    "markup": '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=1">',
    "combining-pile": "a" + "\u0301" * 150 + " b",  # each mark is a token (as in Java)
    "case-expanding": "İSTANBUL ΣΊΣΥΦΟΣ ß ŉ",
    "dotmulti-literal": "DOTMULTI. DOTDOTMULTI.. x... U.S.A.... 'quoted' -- “curly”",
    "private-and-noncharacters": "\ue000 \uffff \U0010ffff \U000e0041 tag",
}


@pytest.mark.parametrize("preset", REPRESENTATIVE)
@pytest.mark.parametrize("name", list(ODD_TEXTS))
def test_odd_characters_give_valid_records(
    scorers: dict[str, Meteor], preset: str, name: str
) -> None:
    text = ODD_TEXTS[name]
    r = scorers[preset].score(text, [text, FOX[1]])
    check_record(r)
    assert r.hyp == text  # the record keeps the text as given


def test_nfc_and_nfd_are_compared_as_given(scorers: dict[str, Meteor]) -> None:
    """Meteor 1.5 does not normalise Unicode: é (NFC) and e + U+0301 (NFD) differ."""
    nfc = "café"
    nfd = unicodedata.normalize("NFD", nfc)
    m = scorers["meteor-1.5"]
    assert m.score(nfc, nfc).score == 1.0
    assert m.score(nfd, nfc).score < 1.0
    assert m.score(unicodedata.normalize("NFC", nfd), nfc).score == 1.0  # the remedy


def test_markup_stays_literal_text(scorers: dict[str, Meteor]) -> None:
    hyp = ODD_TEXTS["markup"]
    r = scorers["meteor-1.5"].score(hyp, hyp)
    assert "script" in r.alignment.hyp_words and "onerror" in r.alignment.hyp_words
    assert json.loads(json.dumps(r.to_dict()))["hyp"] == hyp  # no escaping, no stripping


def test_lone_surrogate_is_refused_with_its_position(scorers: dict[str, Meteor]) -> None:
    for preset in REPRESENTATIVE:  # Russian resources used to fail with an encoder error
        with pytest.raises(
            ValueError, match=r"lone surrogate code point \(U\+D800\) at character 3"
        ):
            scorers[preset].score("ab\ud800c", "abc")
        with pytest.raises(ValueError, match=r"reference 2 contains a lone surrogate"):
            scorers[preset].score("abc", ["abc", "x\udfffy"])


def test_long_runs_of_punctuation_are_linear(scorers: dict[str, Meteor]) -> None:
    """Java's dot-escaping loops were quadratic: 8,000 dots took 9 s before the fix."""
    t0 = time.process_time()
    for text in ("." * MAX_CHARS, "x.." * 60_000, "“" + "." * 100_000 + "”", "DOTMULTI." * 20_000):
        normalize.tokenize(text)
    r = scorers["meteor-1.5"].score("wait" + "." * 9_000, "wait" + "." * 9_000)
    assert r.score == 1.0 and r.alignment.hyp_words == ("wait", "." * 9_000)
    assert time.process_time() - t0 < 10.0  # measured 1.5 s


# -- 17-20. wrong types and missing references ----------------------------------------------


@pytest.mark.parametrize(
    ("hyp", "refs", "error", "match"),
    [
        (None, "a", TypeError, "the hypothesis must be a string, got NoneType"),
        ("a", None, TypeError, "refs must be a string or a list of strings"),
        ("a", ["b", None], TypeError, "reference 2 must be a string, got NoneType"),
        (b"bytes", "a", TypeError, "the hypothesis must be a string, got bytes"),
        (42, "a", TypeError, "must be a string, got int"),
        ("a", [], ValueError, "at least one reference is needed"),
        ("a", (), ValueError, "at least one reference is needed"),
    ],
    ids=["none-hyp", "none-refs", "none-in-refs", "bytes", "int", "empty-list", "empty-tuple"],
)
def test_wrong_types_and_empty_reference_lists(
    scorers: dict[str, Meteor], hyp: Any, refs: Any, error: type[Exception], match: str
) -> None:
    for preset in REPRESENTATIVE:
        with pytest.raises(error, match=match):
            scorers[preset].score(hyp, refs)


def test_fifty_references(scorers: dict[str, Meteor]) -> None:
    refs = [f"the cat number {k} sat" for k in range(49)] + ["the cat sat on the mat"]
    for preset in REPRESENTATIVE:
        r = scorers[preset].score("the cat sat on the mat", refs)
        check_record(r)
        assert len(r.ref_scores) == 50 and r.best_ref_index == 49
        assert r.score == max(r.ref_scores)
    same = scorers["meteor-1.5"].score("a cat", ["a cat"] * 50)
    assert same.best_ref_index == 0  # the first wins ties


def test_corpus_inputs_are_checked(scorers: dict[str, Meteor]) -> None:
    m = scorers["meteor-1.5"]
    with pytest.raises(ValueError, match="hypotheses have 2 segments but references have 1"):
        m.corpus_score(["a", "b"], ["a"])
    with pytest.raises(TypeError, match="hyps must be a list"):
        m.corpus_score("a b", ["a b"])
    with pytest.raises(TypeError, match="refs must be a list"):
        m.corpus_score(["a"], "a")
    with pytest.raises(io.InputError, match="no segments"):  # as the CLI (issue 31 item 16)
        m.corpus_score([], [])


# -- 21-24. presets and parameters ------------------------------------------------------------


def test_unknown_preset_names_the_choices() -> None:
    with pytest.raises(ParamError, match=r"unknown preset 'meteor-2'.*meteor-1\.5"):
        Meteor("meteor-2")
    with pytest.raises(ParamError, match="not 'en'"):
        Meteor("meteor-1.5-ru", lang="en")


@pytest.mark.parametrize(
    ("overrides", "match"),
    [
        ({"alpha": 1.5}, r"alpha must be in \[0\.0, 1\.0\], got 1\.5"),
        ({"alpha": -0.01}, r"alpha must be in"),
        ({"beta": 1e9}, r"beta must be in \[0\.0, 20\.0\]"),
        ({"gamma": float("inf")}, r"gamma must be in"),
        ({"delta": float("nan")}, r"delta must be in"),
        ({"beam_size": 0}, r"beam_size must be in \[1, 10000\]"),
        ({"beam_size": 10**9}, r"beam_size must be in"),
        ({"beam_size": 2.5}, r"beam_size must be a whole number"),
        ({"alpha": "abc"}, r"alpha must be a number in \[0\.0, 1\.0\], got 'abc'"),
        ({"alpha": None}, r"alpha must be a number"),
        ({"alpha": True}, r"alpha must be a number"),
        ({"modules": ()}, r"modules must name at least one module"),
        ({"modules": ("exact", "telepathy")}, r"unknown module 'telepathy'"),
        ({"aligner": "quantum"}, r"aligner must be one of beam, greedy, stagewise"),
        ({"colour": "blue"}, r"unknown parameter\(s\): colour"),
    ],
)
def test_bad_parameters_name_the_field_and_range(overrides: dict[str, Any], match: str) -> None:
    with pytest.raises(ParamError, match=match):
        Meteor("meteor-1.5", **overrides)


def test_numeric_strings_are_refused_not_parsed() -> None:
    # issue 13 item 19: float("1_0") is 10 and float("nan") is NaN; a string is not a number
    for value in ("0.9", "1_0", "nan"):
        with pytest.raises(ParamError, match=r"alpha must be a number in \[0\.0, 1\.0\].*a string"):
            Meteor("meteor-1.5", alpha=value)
    assert Meteor("meteor-1.5", alpha=0.9).params.alpha == 0.9


# -- 25-33. files (meteor.io.read) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "name", "match"),
    [
        (b"ok\ncaf\xe9\n", "latin1.txt", r"latin1\.txt: line 2 is not valid UTF-8 \(byte 0xe9 at column 4\)"),
        (b"ok\n\xff\xfe\xfd", "bad.txt", r"line 2 is not valid UTF-8"),
        ("hi\n".encode("utf-16"), "u16.txt", r"NUL byte.*it may be UTF-16; save it as UTF-8"),
        (bytes(range(256)), "blob.txt", r"blob\.txt: line 1 contains a NUL byte; this looks like a binary"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "img.txt", r"line 3 contains a NUL byte"),
        (b"hyp\tref\na\tb\nc\n", "t.tsv", r"t\.tsv: line 3 has 1 tab-separated fields but the header has 2"),
        (b"hyp\tref\na\tb\tc\n", "t.tsv", r"line 2 has 3 tab-separated fields but the header has 2"),
        (b"hyp\thyp\na\tb\n", "t.tsv", r"header repeats column\(s\) hyp"),
        (b"", "t.tsv", r"TSV file is empty"),
        (b"{oops\n", "j.jsonl", r"j\.jsonl: line 1 is not valid JSON"),
        (b"[" * 100_000, "j.jsonl", r"line 1 nests JSON too deeply"),
        (b'{"hyp": ' + b"1" * 5000 + b"}", "j.jsonl", r"line 1 cannot be read as JSON"),
        (b'{"hyp": "a\\ud800"}', "j.jsonl", r"field 'hyp' contains a lone surrogate \(U\+D800\)"),
        (b'{"hyp": null}', "j.jsonl", r"field 'hyp' must be a string, got null"),
        (b"[1, 2]", "j.jsonl", r"line 1 is a JSON list, not an object"),
        ("a\n\ud800\n", "s.txt", r"line 2 contains a lone surrogate"),
    ],
    ids=["latin1", "invalid-utf8", "utf16", "binary", "png", "tsv-missing-column",
         "tsv-extra-column", "tsv-duplicate-header", "tsv-empty", "jsonl-syntax", "jsonl-deep",
         "jsonl-huge-int", "jsonl-surrogate", "jsonl-null", "jsonl-not-object", "str-surrogate"],
)  # fmt: skip
def test_unreadable_files_name_file_line_and_remedy(data: Any, name: str, match: str) -> None:
    with pytest.raises(io.InputError, match=match):
        io.read_table(data, name)


def test_crlf_and_newline_only_files() -> None:
    crlf = io.load_corpus([("h.txt", b"a b\r\nc d\r\n")], [("r.txt", b"a b\nc d\n")])
    assert crlf.hyps(0) == ("a b", "c d")
    blank = io.load_corpus([("h.txt", b"\n\n\n")], [("r.txt", b"\n\n\n")])
    assert blank.hyps(0) == ("", "", "")  # three empty segments, scored 0
    assert Meteor("meteor-1.5").corpus_score(blank.hyps(0), blank.refs).score == 0.0


def test_empty_files_and_mismatched_counts() -> None:
    with pytest.raises(io.InputError, match=r"no segments: hypothesis file h\.txt is empty"):
        io.load_corpus([("h.txt", b"")], [("r.txt", b"")])
    with pytest.raises(io.InputError, match=r"reference file r\.txt has 2 segments but hypothesis"):
        io.load_corpus([("h.txt", b"a\nb\nc\n")], [("r.txt", b"a\nb\n")])
    with pytest.raises(io.InputError, match=r"segment 1 has no reference"):
        io.load_corpus([("h.jsonl", b'{"hyp": "a", "refs": []}\n')])


def test_segment_and_byte_limits() -> None:
    lines = b"a\n" * (io.MAX_SEGMENTS + 1)
    with pytest.raises(io.InputError, match=r"100,001 segments; at most 100,000"):
        io.read_table(lines, "big.txt")
    with pytest.raises(
        io.InputError,
        match=r"big\.txt is 50,000,001 bytes \(50\.0 MB\); at most 50,000,000 bytes \(50 MB\)",
    ):
        io.read_table(b"a" * (io.MAX_BYTES + 1), "big.txt")


def test_bootstrap_size_is_bounded(
    scorers: dict[str, Meteor], monkeypatch: pytest.MonkeyPatch
) -> None:
    m = scorers["meteor-1.5"]
    res = m.corpus_score(["a b", "c"], ["a b", "d"])
    assert bootstrap(res, m.params, n_samples=10, seed=1).n_samples == 10

    def resampled(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("resampling started")

    monkeypatch.setattr(resampling, "count_batches", resampled)  # refused before it
    with pytest.raises(ValueError, match=r"at most 100,000 bootstrap resamples"):
        bootstrap(res, m.params, n_samples=MAX_BOOTSTRAP_SAMPLES + 1)
    many = res.segments * 2_001
    with pytest.raises(ValueError, match=r"resamples × segments ≤ 200,000,000"):
        bootstrap(many, m.params, n_samples=MAX_BOOTSTRAP_DRAWS // len(many) + 1)


# -- 34-37. corrupted caches ----------------------------------------------------------------


@pytest.fixture(scope="module")
def good_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = paraphrase.get_table("en").path
    dst = tmp_path_factory.mktemp("ppidx") / src.name
    shutil.copyfile(src, dst)
    return dst


@pytest.mark.parametrize("damage", ["truncated", "flipped-byte", "garbage", "empty", "header-only"])
def test_corrupted_paraphrase_index_is_detected(
    good_index: Path, tmp_path: Path, damage: str
) -> None:
    bad = tmp_path / good_index.name
    data = good_index.read_bytes()
    if damage == "truncated":
        bad.write_bytes(data[: len(data) // 2])
    elif damage == "flipped-byte":
        buf = bytearray(data)
        buf[len(buf) // 3] ^= 0xFF
        bad.write_bytes(bytes(buf))
    elif damage == "garbage":
        bad.write_bytes(os.urandom(4096))
    elif damage == "empty":
        bad.write_bytes(b"")
    else:
        bad.write_bytes(data[:64])
    with pytest.raises(paraphrase.InvalidIndexError):
        paraphrase.ParaphraseTable.open(bad)


def test_corrupted_paraphrase_index_is_rebuilt(
    good_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """load() refuses the damaged file and builds a new one (the build is replaced by a copy)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    target = paraphrase.index_path("en", cache)
    target.write_bytes(good_index.read_bytes()[:1000])  # truncated
    built: list[Path] = []

    def fake_build(source: Path, dest: Path, lang: str, progress: Any) -> None:
        built.append(dest)
        shutil.copyfile(good_index, dest)

    monkeypatch.setattr(paraphrase_index, "build_in_child", fake_build)
    table = paraphrase.ParaphraseTable.load("en", cache=cache)
    assert built == [target]
    assert table.candidates(["a", "big", "house"], ["a", "large", "house"])


def test_paraphrase_candidates_are_counted_before_they_are_built() -> None:
    table = paraphrase.get_table("en")
    hyp, ref = ["big"] * 400, ["large"] * 400
    with pytest.raises(paraphrase.CandidateOverflowError) as info:
        table.candidates(hyp, ref, limit=1000)
    assert info.value.found > 1000
    assert len(table.candidates(hyp[:10], ref[:10], limit=1000)) <= 1000


@pytest.fixture
def wordnet_sandbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A private WordNet copy; nltk's search path and the reader cache are restored after."""
    import nltk.data

    from meteor.languages import nltk_wordnet

    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))
    monkeypatch.setattr(nltk_wordnet, "_READERS", {})
    yield tmp_path


def _wordnet_file(base: Path, name: str) -> Path:
    return base / "nltk_data" / "corpora" / "wordnet" / name


def test_truncated_wordnet_copy_is_rebuilt(wordnet_sandbox: Path) -> None:
    from meteor.aligners.greedy import align_nltk
    from meteor.languages.nltk_wordnet import ensure_wordnet_copy, wordnet_reader

    ensure_wordnet_copy(wordnet_sandbox)
    target = _wordnet_file(wordnet_sandbox, "data.noun")
    full = target.stat().st_size
    with target.open("r+b") as fh:
        fh.truncate(full // 2)
    reader = wordnet_reader(wordnet_sandbox)
    assert target.stat().st_size == full
    found = align_nltk(["a", "fast", "dog"], ["a", "quick", "dog"], wordnet=reader)
    assert [m.module.value for m in found] == ["exact", "synonym", "exact"]


def test_wordnet_copy_damaged_in_place_is_rebuilt(wordnet_sandbox: Path) -> None:
    from meteor.aligners.greedy import align_nltk
    from meteor.languages.nltk_wordnet import ensure_wordnet_copy, wordnet_reader

    ensure_wordnet_copy(wordnet_sandbox)
    target = _wordnet_file(wordnet_sandbox, "index.noun")
    buf = bytearray(target.read_bytes())
    for k in range(len(buf) // 3, len(buf) // 3 + 50_000, 7):
        if buf[k] != 0x0A:
            buf[k] = 0x41  # same size, digits become letters
    target.write_bytes(bytes(buf))
    reader = wordnet_reader(wordnet_sandbox)
    found = align_nltk(["a", "fast", "dog"], ["a", "quick", "dog"], wordnet=reader)
    assert [m.module.value for m in found] == ["exact", "synonym", "exact"]


# -- 38. the stage-wise aligner's budget ------------------------------------------------------

#: A 40-word pair over five words whose exact stage needs 10,316 search states.
HARD_HYP = "4 0 4 1 3 2 4 0 4 1 2 2 0 0 0 2 4 4 3 2 0 2 1 0 0 0 2 2 4 4 4 1 3 4 0 0 1 2 4 3"
HARD_REF = "3 0 3 3 1 4 1 4 2 3 2 0 4 2 1 0 1 2 2 2 4 0 1 0 3 1 1 0 4 4 4 3 3 1 3 3 4 4 1 2"


def test_stagewise_budget_covers_the_whole_pair(scorers: dict[str, Meteor]) -> None:
    from meteor.aligners.stagewise import StagewiseSearchError, align_stagewise

    blocks = 5  # own vocabulary each: independent blocks of 10,316 states
    hyp = [f"v{w}x{b}" for b in range(blocks) for w in HARD_HYP.split()]
    ref = [f"v{w}x{b}" for b in range(blocks) for w in HARD_REF.split()]
    stages = scorers["paper-2005"].candidates(hyp, ref)
    align_stagewise(40, 40, scorers["paper-2005"].candidates(hyp[:40], ref[:40]), max_nodes=15_000)
    with pytest.raises(StagewiseSearchError):  # 5 × 10,316 states > 15,000 for the call
        align_stagewise(len(hyp), len(ref), stages, max_nodes=15_000)
