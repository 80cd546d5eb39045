"""English Snowball 2.2.0 in C (PyStemmer 2.2.0.x) and in Python (snowballstemmer 2.2.0).

Meteor 1.5's English stems are Snowball 2.2.0's (``meteor-1.5.md`` section 6; the
pure-Python class agreed with the jar on 17,478 pairs).  The C stemmer runs the same
algorithm 40 times faster; these tests hold the two to the same stems and check that
Snowball 3 (PyStemmer 3.x) is never taken for it.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from conftest import golden_words, wordnet_forms
from snowballstemmer.english_stemmer import EnglishStemmer

from meteor.languages import english
from meteor.runtime import PURE_PYTHON_ENV, pure_python


def _words() -> list[str]:
    """Every 5th WordNet 3.0 lemma as it is, capitalised and upper-cased; every token of
    the committed golden files, as it is and lowercased; and hand-picked edges."""
    words = {w for lemma in wordnet_forms(5) for w in (lemma, lemma.capitalize(), lemma.upper())}
    words |= golden_words()
    edges = [
        "",
        "'",
        "universities",
        "generously",
        "sociologist",
        "biology",
        "dying",
        "news",
        "skies",
        "Ÿes",
        "naïve",
        "ёлка",
        "a\u0000b",
        "x" * 300,
    ]
    return sorted(words) + edges


@pytest.fixture(scope="module")
def c_stem() -> Iterator[object]:
    """PyStemmer's English stemmer, which requirements.txt pins at a 2.2.0.x release."""
    import Stemmer

    release = importlib.metadata.version("PyStemmer")
    assert release.startswith(english.C_SNOWBALL_RELEASE + "."), (
        f"PyStemmer {release} is installed: requirements.txt pins PyStemmer==2.2.0.3 "
        "(pip install -r requirements.txt)"
    )
    yield Stemmer.Stemmer("english", 0).stemWord


def test_the_c_and_the_python_snowball_give_the_same_english_stems(c_stem: object) -> None:
    words = _words()
    assert len(words) > 70_000
    python = EnglishStemmer()
    bad = [(w, c_stem(w), python.stemWord(w)) for w in words if c_stem(w) != python.stemWord(w)]  # type: ignore[operator]
    assert bad == []


def test_the_scorer_stems_with_snowball_2_2(c_stem: object) -> None:
    expected = "Python" if pure_python() else "C (PyStemmer 2.2.0"
    assert english.snowball_backend().startswith(expected)
    assert english.ENGLISH.stem("universities") == "univers"  # Snowball 3: universiti
    assert english.ENGLISH.stem("Running") == "Run"  # case kept, as the jar


def test_meteor_pure_python_switches_the_c_stemmer_off() -> None:
    code = "from meteor.languages.english import snowball_backend; print(snowball_backend())"
    for value, expected in (("1", "Python"), ("0", "C"), ("", "C")):
        env = {**os.environ, PURE_PYTHON_ENV: value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert out.stdout.startswith(expected), (value, out.stdout, out.stderr)


@pytest.mark.parametrize("release", ["3.1.0", "2.0.1", "2.2.1", "22.0"])
def test_another_pystemmer_release_is_not_used(
    monkeypatch: pytest.MonkeyPatch, release: str
) -> None:
    """Only a 2.2.0.x PyStemmer bundles Snowball 2.2.0; with any other the Python one stems."""
    real = importlib.metadata.version
    monkeypatch.setattr(
        importlib.metadata,
        "version",
        lambda name: release if name == "PyStemmer" else real(name),
    )
    english._snowball_backend.cache_clear()
    try:
        assert english.snowball_backend() == "Python (snowballstemmer 2.2.0)"
        assert english._snowball_backend()[1]("universities") == "univers"
    finally:
        english._snowball_backend.cache_clear()


def test_a_pystemmer_that_stems_like_snowball_3_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The release check is backed by a behaviour check: Snowball 3 says ``universiti``."""
    import Stemmer

    class Snowball3:
        def __init__(self, algorithm: str, cache: int) -> None:
            pass

        def stemWord(self, word: str) -> str:  # noqa: N802 (PyStemmer's name)
            return "universiti" if word == "universities" else word

    monkeypatch.setattr(Stemmer, "Stemmer", Snowball3)
    english._snowball_backend.cache_clear()
    try:
        assert english.snowball_backend() == "Python (snowballstemmer 2.2.0)"
    finally:
        english._snowball_backend.cache_clear()
