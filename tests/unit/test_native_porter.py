"""nltk's Porter stemmer in C (``meteor_native._porter``) gives nltk's stems.

:func:`meteor.aligners.greedy._porter_stem` (the nltk presets' stems) calls
``meteor_native._porter.stem`` when it is installed, nltk 3.10.4's
``PorterStemmer().stem`` (mode ``NLTK_EXTENSIONS``) otherwise or with
``METEOR_PURE_PYTHON`` set.  The two must agree on every word: here on WordNet 3.0's
lemmas and exception forms (every third, in three casings), every token of the committed
golden files, random words over the letters the rules look at, and the rules' own
examples.  (Once, by hand: 1,080,377 words -- all WordNet forms in three casings, every
token of the shared data, 300,000 random words -- none differ.)  Without the extension
these tests are skipped on a user's machine and fail in CI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import golden_words, native_part, wordnet_forms
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from meteor.aligners import greedy

DATA = Path(__file__).resolve().parents[1] / "data"
NLTK = PorterStemmer()

#: The paper's and nltk's examples for every step, the irregular forms, and edges: the
#: literal suffix "*d" nltk's step 1b also strips, runs of y, characters whose
#: lowercase is longer, words of one and two characters.
EXAMPLES = (
    "caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated "
    "troubled sized hopping tanned falling hissing fizzed failing filing happy sky skies "
    "enjoy spy relational conditional rational valenci hesitanci digitizer conformabli "
    "radicalli differentli vileli analogousli vietnamization predication operator "
    "feudalism decisiveness hopefulness callousness formaliti sensitiviti sensibiliti "
    "triplicate formative formalize electriciti electrical hopeful goodness revival "
    "allowance inference airliner gyroscopic adjustable defensible irritant replacement "
    "adjustment dependent adoption homologou communism activate angulariti homologous "
    "effective bowdlerize probate rate cease controll roll dying lying tying news innings "
    "outings cannings howe proceed exceed succeed tied died generously biology analogi "
    "fully beautifulli a*d ba*d yyy yyyy syzygy toy y yy ay İİ İs ẞies Ÿes naïve ёлка"
).split() + ["", "a", "ab", "a\u0000b", "x" * 300, "SKIES", "Dying"]


@pytest.fixture(scope="module")
def stem() -> Any:
    return native_part("_porter", "nltk's Porter stemmer").stem


def _wordnet_forms() -> list[str]:
    return sorted({w for f in wordnet_forms(3) for w in (f, f.capitalize(), f.upper())})


def _differences(stem: Any, words: list[str]) -> list[tuple[str, str, str]]:
    return [(w, NLTK.stem(w), stem(w)) for w in words if NLTK.stem(w) != stem(w)]


def test_the_rules_examples(stem: Any) -> None:
    assert _differences(stem, EXAMPLES) == []
    assert stem("generously") == "gener" and stem("dying") == "die"


def test_wordnet_forms(stem: Any) -> None:
    words = _wordnet_forms()
    assert len(words) > 150_000
    assert _differences(stem, words) == []


def test_golden_tokens(stem: Any) -> None:
    words = sorted(golden_words())
    assert len(words) > 1_000
    assert _differences(stem, words) == []


@settings(max_examples=3000, deadline=None)
@given(word=st.text(alphabet="aeiouyysdlzbtcgnmrwx*İẞ", max_size=14))
def test_random_words(stem: Any, word: str) -> None:
    assert stem(word) == NLTK.stem(word)


def test_the_presets_stems_come_from_it(stem: Any) -> None:
    if greedy.NATIVE_PORTER is not None:  # None with METEOR_PURE_PYTHON: nltk's stemmer
        assert greedy.NATIVE_PORTER is stem
    assert greedy._porter_stem("Relational") == NLTK.stem("Relational") == "relat"


def test_not_a_str(stem: Any) -> None:
    with pytest.raises(TypeError, match="takes a str"):
        stem(b"bytes")
