"""The C normaliser (``meteor_native._normalize``) gives the Python normaliser's lines.

``normalize.normalize_text`` hands a line to ``meteor_native._normalize.normalize_line``
when it is installed; for every line (runs of dots and ``DOTMULTI`` included) the result
must be what ``normalize._run`` makes, in every language and with ``-noPunct``.  Without the extension these tests are skipped on a user's machine and fail
in CI.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import native_part, read_jsonl_gz, wmt_en_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meteor.runtime import PURE_PYTHON_ENV
from meteor.text import normalize
from meteor.text.tracked_line import Line, java_lower

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
LANGS = ["en", "fr", "de", "ru", "cs", "es"]

_PIECES = [
    "U.S.", "Mr.", "Mr. Smith", "No. 5", "pp. x", "St. Louis", "e.g.", "D.O.T.M.U.L.T.I.",
    "DOTMULT", "I.", "don't", "l'homme", "1990's", "'s", "s'", "''", "'''", "“", "”", "‘", "’",
    "`", "–", "—", "--", "---", "-", "x-y", "1-2", ".-a", "a-.", "1,000", "a,b,c", ",", ", ",
    "1,a", "a,1", ".", " ", "  ", "\t", "\n", "\r", "\x0b", "\f", "\xa0", "\u2003", "\u3000",
    "\u2028", "😀", "e\u0301", "İ", "Σ", "Ёж", "ÀÖØöøž", "Š", "ꙁ", "ᴀ", "a", "Z", "7", "s",
    "(", ")", "$", "%", "&", "!", "?", "\x00", "\x7f", "\x85", "..", "...", "....", "wait...",
    "DOTMULTI", "DOTMULTI.", "DOTDOTMULTI", "DOT", "MULTI", "-..", "..-", "'..", ",..",
]  # fmt: skip
_TEXTS = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=16).map("".join),
    st.text(alphabet="aZ7s.,'`-–“”‘’ \t\xa0\u2003İ$", max_size=30),
    st.text(max_size=40),
    # runs of dots among the letters of DOTMULTI (Java's escape loops)
    st.text(alphabet="..DOTMULIx -,'", max_size=30),
)


@pytest.fixture(scope="module")
def native() -> Any:
    return native_part("_normalize", "the normaliser")


def _python(text: str, lang: str, no_punct: bool) -> str:
    line = Line(" " + text + " ")
    normalize._run(line, lang, no_punct)
    return line.s


def _c(native: Any, text: str, lang: str, no_punct: bool) -> str:
    spec = normalize._lang_spec(lang)
    return java_lower(native.normalize_line(text, spec.native_lang, spec.prefixes, no_punct))


def _check(native: Any, text: str, lang: str, no_punct: bool) -> None:
    assert _c(native, text, lang, no_punct) == _python(text, lang, no_punct), (
        text,
        lang,
        no_punct,
    )


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXTS, lang=st.sampled_from(LANGS), no_punct=st.booleans())
def test_equals_the_python_normaliser(native: Any, text: str, lang: str, no_punct: bool) -> None:
    _check(native, text, lang, no_punct)


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("Mr. Smith paid $1,000.", "en", "mr. smith paid $ 1,000 ."),
        ("He said “don't” -- it’s 1990's U.S. policy", "en", 'he said " don \'t " - it \'s 1990 \'s us policy'),
        ("l'homme a,b,c x-y", "fr", "l' homme a , b,c x y"),
        ("Ёж's", "ru", "ёж ' s"),
        ("a.\tb", "en", "a. b"),  # step 8 joins the words with spaces
    ],
)  # fmt: skip
def test_worked_examples(native: Any, text: str, lang: str, expected: str) -> None:
    assert _c(native, text, lang, False) == expected == _python(text, lang, False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("wait...", "wait ..."),
        ("a..b", "a .. b"),
        ("So.. what .... . .. x..y...", "so .. what .... . .. x .. y ..."),
        ("+ 13... + 15 degrees.", "+ 13 ... + 15 degrees ."),
        ("DOTMULTI", "."),  # Java unescapes the text's own DOTMULTI too
        ("x DOTMULTI. y", "x .. y"),
        ("D.O.T.M.U.L.T.I.", "."),  # step 8 makes a DOTMULTI, step 9 unescapes it
    ],
)
def test_runs_of_dots(native: Any, text: str, expected: str) -> None:
    assert _c(native, text, "en", False) == expected == _python(text, "en", False)
    assert normalize.normalize_text(text) == expected


def test_the_golden_segments(native: Any) -> None:
    n = 0
    for path in sorted(GOLDEN.glob("meteor15*.jsonl.gz")):
        lang = path.name.split(".")[1].split("_")[0]
        lang = lang if lang in normalize.NORM_LANGUAGES else "en"
        for d in read_jsonl_gz(path):
            for text in [d["hyp"], *d["refs"]]:
                clean = normalize.sanitize(text)[0]
                for no_punct in (False, True):
                    _check(native, clean, lang, no_punct)
                    n += 1
    assert n > 200


def test_every_line_of_the_shared_wmt_data(native: Any) -> None:
    """Every hypothesis and reference of the WMT and TED sets, as the presets read them
    (``jar_line``), with and without ``-noPunct``: each step the C code skips for want of
    its characters (commas, quotes, dashes, apostrophes) is skipped on many of them, and
    some hold runs of dots."""
    n = runs = 0
    for text in wmt_en_texts():
        line = normalize.jar_line(text)
        runs += ".." in line
        for no_punct in (False, True):
            _check(native, line, "en", no_punct)
            n += 1
    assert n > 40_000 and runs > 50


def test_bad_arguments(native: Any) -> None:
    with pytest.raises(ValueError, match="lang"):
        native.normalize_line("a", 3, {}, False)
    with pytest.raises(TypeError):
        native.normalize_line("a.", 0, [], False)
    with pytest.raises(TypeError):  # a prefix kind that is no number
        native.normalize_line("Mr. x", 0, {"Mr": "x"}, False)


def test_the_environment_switches_the_c_normaliser_off(native: Any) -> None:
    code = "from meteor.text import normalize; print(normalize.NATIVE_NORMALIZE is None)"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
