"""The ``hf`` and ``nltk`` presets against nltk itself, float for float.

* ``hf`` = HF evaluate's ``meteor``: ``nltk.word_tokenize`` then
  ``meteor_score(refs, hyp, alpha=0.9, beta=3, gamma=0.5)`` (one reference:
  ``single_meteor_score``), as ``metrics/meteor/meteor.py`` calls them.
* ``nltk`` = ``meteor_score([ref.split()], hyp.split())``.

The oracle is nltk's own code: ``nltk.word_tokenize`` reading the English
``punkt_tab`` model from a temporary ``nltk_data`` folder.  The files written
there are checked, line for line, against the SHA-256 of NLTK's own
``punkt_tab/english`` files (the ``punkt_tab`` package as NLTK distributes it;
the files list their lines in no fixed order, so the hashes are of the sorted
lines).  WordNet is the offline reader the project's nltk tests use
(``meteor.languages.nltk_wordnet``; equal to nltk's stock reader, ``test_aligners_nltk``).
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nltk
import pytest
from conftest import SHARED_DATA, require_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate.meteor_score import meteor_score, single_meteor_score

from meteor import Meteor
from meteor.languages.nltk_wordnet import wordnet_reader
from meteor.text.tokenize_nltk import punkt_parameters, tokens, word_tokenize

#: SHA-256 of the sorted lines of NLTK's punkt_tab/english files (joined by "\n",
#: no final newline, as the files are written).  Measured on the files of NLTK's
#: punkt_tab package (punkt_tab.zip, SHA-256 e57f6418...0e0106, as redistributed in
#: llama-index-core 0.14.25's nltk_cache).
NLTK_PUNKT_TAB_ENGLISH = {
    "abbrev_types.txt": (156, "0ab7d6b126eed733d9bc5733d3a51ea575e90ece1b908e77c9d5b74e2a54213a"),
    "collocations.tab": (37, "73d7f183e9cf31ee6edf41df100a6f57c72404db66f599fe86b3fb2e6148f35f"),
    "sent_starters.txt": (39, "8a66e19f1bf6a03061dbcda945e46839d09612f8235dbcb1b994f59184ecc989"),
    "ortho_context.tab": (
        20366,
        "d762d271cb556bab69960781a49eb034588801983af80d39ac936362c812084f",
    ),
}

HF = {"alpha": 0.9, "beta": 3, "gamma": 0.5}

#: Texts that break naive tokenisers (each a whole segment).
HOSTILE = [
    "",
    " ",
    "\u00a0",
    "hello\u00a0world",
    "hello\u2003world\u3000again",
    "line\u2028sep\u2029para\u0085nel",
    "info\x1csep\x1dgroup\x1erecord\x1funit",
    "tab\tvtab\x0bff\x0ccr\rnl\nend",
    "nul\x00soh\x01del\x7fc1\x80\x94",
    "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom",
    "İstanbul İİ ẞtraße ΣΑΣ ǅemal ﬁne Ǆ",
    "Straße STRASSE ß ẞ",
    "e\u0301t\u00e9 cafe\u0301 café",
    "👍🏽 family: 👨‍👩‍👧 flags 🇺🇸🇬🇧 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐐀𐐨",
    "שלום עולם مرحبا بالعالم \u202eevil\u202c",
    "Tangut 𗀀𗀁 Cherokee ᏣᎳᎩ ꭰ",
    "\"Quoted\" text, 'single' and ``tex'' quotes; “curly” ‘ones’ «guillemets»",
    'He said "no." She said "yes!" "Why?"',
    "Mr. Smith met Dr. Jones at 5 p.m. in the U.S. on Jan. 3. They left.",
    "e.g. i.e. etc. vs. a.m. ... ?! ?? !!! …",
    "don't can't won't I'm you're y'all gonna wanna 'tis rock'n'roll",
    "1,000,000.50 $5 5% 3.14 -7 +8 1/2 10:30 2024-01-01",
    "http://example.com/a?b=c&d=e user@example.com #tag @user",
    "a--b a—b a–b (paren) [bracket] {brace} <angle>",
    "end with period.",
    ".leading dot ...and ellipsis...",
    "   lots   of    spaces   ",
    "UPPER lower MiXeD",
    "x" * 300,
    "word " * 200,
    "\u0130\u0131\u03a3\u03c2\u1e9e\u2126\u212a\u212b",
    "Ⅻ ⅻ ① ⑴ ⒜ Ⓐ ⓐ",
    "'' `` ' ` \" \"\"",
]


def _tsv(path: Path) -> list[dict[str, str]]:
    with require_shared(path).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))


def _rendered_tables() -> dict[str, list[str]]:
    """The package's English tables, one line per entry, as nltk's TabEncoder writes them."""
    p = punkt_parameters()
    return {
        "abbrev_types.txt": sorted(p.abbrev_types),
        "collocations.tab": sorted("\t".join(c) for c in p.collocations),
        "sent_starters.txt": sorted(p.sent_starters),
        "ortho_context.tab": sorted(f"{k}\t{v}" for k, v in p.ortho_context.items()),
    }


def test_punkt_tables_are_nltks() -> None:
    for name, lines in _rendered_tables().items():
        count, digest = NLTK_PUNKT_TAB_ENGLISH[name]
        assert len(lines) == count, name
        assert hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest() == digest, name


@pytest.fixture(scope="module")
def nltk_word_tokenize(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The real ``nltk.word_tokenize``, reading NLTK's English punkt_tab files from disk."""
    root = tmp_path_factory.mktemp("nltk_data")
    lang = root / "tokenizers" / "punkt_tab" / "english"
    lang.mkdir(parents=True)
    for name, lines in _rendered_tables().items():
        (lang / name).write_text("\n".join(lines), encoding="utf-8")
    from nltk.tokenize import _get_punkt_tokenizer

    nltk.data.path.insert(0, str(root))
    _get_punkt_tokenizer.cache_clear()
    try:
        assert nltk.word_tokenize("Mr. Smith left. He ran.") == [
            "Mr.",
            "Smith",
            "left",
            ".",
            "He",
            "ran",
            ".",
        ]
        yield nltk.word_tokenize
    finally:
        nltk.data.path.remove(str(root))
        _get_punkt_tokenizer.cache_clear()


@pytest.fixture(scope="module")
def wn() -> Any:
    return wordnet_reader()


def _real_texts() -> list[str]:
    texts: list[str] = []
    for r in _tsv(SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv"):
        texts += [r["hyp"], r["ref"]]
    ref_b = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "ref_B.txt")
    texts += ref_b.read_text(encoding="utf-8").splitlines()
    for r in _tsv(
        SHARED_DATA / "newstest2009_cs-en" / "newstest2009_cmu-combo_with_shipped_meteor.tsv"
    ):
        texts += [r["hyp"], r["ref"]]
    for r in _tsv(SHARED_DATA / "ted_sk-en" / "ted_sys1_sys2.tsv"):
        texts += [r["hyp"], r["ref"]]
    return list(dict.fromkeys(texts))


def _check_tokens(text: str, oracle: Any) -> None:
    expected = oracle(text)
    assert word_tokenize(text) == expected, text
    toks = tokens(text, "nltk")
    assert [t.text for t in toks] == [w.lower() for w in expected], text
    prev = 0
    for t in toks:  # ordered, disjoint, non-empty offsets into the text
        assert prev <= t.start < t.end <= len(text), (text, t)
        prev = t.end
    split = tokens(text, "whitespace")
    assert [t.text for t in split] == [w.lower() for w in text.split()]
    assert [text[t.start : t.end] for t in split] == text.split()


@pytest.mark.slow
def test_word_tokenize_equals_nltk_on_real_text(nltk_word_tokenize: Any) -> None:
    texts = _real_texts()[::3]
    assert len(texts) > 6_000
    for text in texts:
        _check_tokens(text, nltk_word_tokenize)
    print(f"\nword_tokenize identical to nltk on {len(texts):,} distinct real segments")


def test_word_tokenize_equals_nltk_on_hostile_text(nltk_word_tokenize: Any) -> None:
    for text in HOSTILE:
        _check_tokens(text, nltk_word_tokenize)


_WORDS = st.sampled_from(
    ["the", "The", "cat", "cats", "sat", "Mr.", "U.S.", "don't", '"', "''", "``", ".", "...",
     "?", "!", ",", "(", ")", "İ", "ß", "ΣΑΣ", "naïve", "e\u0301", "👍", "1,000", "--", "'s",
     "run", "running", "ran", "quick", "fast", "big", "large", "home", "house"]
)  # fmt: skip
_SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\x1c", "\u2028"])
_TEXT = st.one_of(
    st.lists(st.tuples(_WORDS, _SPACES), max_size=12).map(lambda p: "".join(a + b for a, b in p)),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
)
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(text=_TEXT)
def test_word_tokenize_property(nltk_word_tokenize: Any, text: str) -> None:
    _check_tokens(text, nltk_word_tokenize)


def _hf(hyp: str, refs: list[str], tok: Any, wn: Any) -> float:
    """HF evaluate's per-segment score (metrics/meteor/meteor.py, nltk >= 3.6.5)."""
    if len(refs) == 1:  # HF: references given as strings
        return float(single_meteor_score(tok(refs[0]), tok(hyp), wordnet=wn, **HF))
    return float(meteor_score([tok(r) for r in refs], tok(hyp), wordnet=wn, **HF))


def _nltk(hyp: str, refs: list[str], wn: Any) -> float:
    return float(meteor_score([r.split() for r in refs], hyp.split(), wordnet=wn))


def test_nltk_preset_splits_on_unicode_whitespace(wn: Any) -> None:
    # the issue's example: our preset gave 0.0, nltk 0.9375
    got = Meteor("nltk").score("hello\u00a0world", "hello world").score
    assert got == _nltk("hello\u00a0world", ["hello world"], wn) == 0.9375


def test_nltk_preset_lowercases_like_python(wn: Any) -> None:
    # U+2C2F (Glagolitic) lowercases in Python 3.11 but not in Java 17's table
    hyp, ref = "\u2c2f word", "\u2c5f word"
    assert Meteor("nltk").score(hyp, ref).score == _nltk(hyp, [ref], wn) == 1.0 - 0.5 * 0.5**3


def test_hf_issue_example(nltk_word_tokenize: Any, wn: Any) -> None:
    hyp, ref = "The cat sat on the mat, didn't it?", "The cat sat on the mat."
    got = Meteor("hf").score(hyp, ref).score
    assert got == _hf(hyp, [ref], nltk_word_tokenize, wn)
    assert round(got, 4) == 0.8089
    assert round(Meteor("nltk").score(hyp, ref).score, 4) == 0.8032


@pytest.mark.slow
def test_presets_equal_nltk_on_real_segments(nltk_word_tokenize: Any, wn: Any) -> None:
    rows = _tsv(SHARED_DATA / "wmt21_ru-en_da" / "all_outputs.tsv")
    ref_b = require_shared(SHARED_DATA / "wmt21_ru-en_da" / "ref_B.txt")
    second = ref_b.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 11_000 and len(second) == 1000
    hf, nl = Meteor("hf"), Meteor("nltk")
    n = same_hf = same_nltk = 0
    for k, r in enumerate(rows[::5]):
        refs = [r["ref"]] if k % 2 else [r["ref"], second[int(r["seg_id"]) - 1]]
        same_hf += hf.score(r["hyp"], refs).score == _hf(r["hyp"], refs, nltk_word_tokenize, wn)
        same_nltk += nl.score(r["hyp"], refs).score == _nltk(r["hyp"], refs, wn)
        n += 1
    print(f"\nhf identical on {same_hf}/{n}, nltk identical on {same_nltk}/{n} (1 and 2 refs)")
    assert same_hf == same_nltk == n == 2200


def test_presets_equal_nltk_on_hostile_text(nltk_word_tokenize: Any, wn: Any) -> None:
    hf, nl = Meteor("hf"), Meteor("nltk")
    for hyp in HOSTILE:
        for refs in ([HOSTILE[3]], [HOSTILE[17], hyp], [hyp.upper()]):
            assert hf.score(hyp, refs).score == _hf(hyp, refs, nltk_word_tokenize, wn), hyp
            assert nl.score(hyp, refs).score == _nltk(hyp, refs, wn), hyp


@PROPS
@given(hyp=_TEXT, ref=_TEXT, ref2=_TEXT)
def test_presets_equal_nltk_property(
    nltk_word_tokenize: Any, wn: Any, hyp: str, ref: str, ref2: str
) -> None:
    for refs in ([ref], [ref, ref2]):
        assert Meteor("hf").score(hyp, refs).score == _hf(hyp, refs, nltk_word_tokenize, wn)
        assert Meteor("nltk").score(hyp, refs).score == _nltk(hyp, refs, wn)
