"""razdel as a Russian tokenizer, beside Meteor 1.5's ``-norm`` rules.

``razdel==0.5.0`` is the rule-based tokenizer the seed Russian notebook shows.  Unlike
Meteor's normaliser (``meteor-1.5.md`` section 4) it keeps ``«»`` quotes, keeps
``Нью-Йорк``, ``3,5`` and ``...`` whole and changes no character, so every token is a
plain substring of the input.  ``Params(tokenizer="razdel")``; ``norm`` then only decides
the case.
"""

from __future__ import annotations

from collections.abc import Callable

from meteor.errors import ResourceError
from meteor.types import Token

__all__ = ["RAZDEL_HINT", "razdel_tokens"]

RAZDEL_HINT = "pip install razdel==0.5.0"


def razdel_tokens(
    text: str,
    *,
    lower: bool = True,
    no_punct: bool = False,
    function_word: Callable[[str], bool] | None = None,
) -> tuple[Token, ...]:
    """razdel tokens of ``text`` with character offsets: ``text[t.start:t.end]`` is the token.

    Args:
        text: one segment.
        lower: lowercase the token texts (offsets are unchanged).
        no_punct: drop tokens without a letter or digit (as Meteor's ``-noPunct``
            drops punctuation).
        function_word: sets each token's ``function_word`` from its text (default: all
            ``False``).

    Raises:
        ResourceError: when razdel is not installed.
    """
    try:
        from razdel import tokenize
    except ImportError as exc:
        raise ResourceError(f"the razdel tokenizer is not installed: {RAZDEL_HINT}") from exc
    out: list[Token] = []
    for sub in tokenize(text):
        word = sub.text
        if not word or (no_punct and not any(c.isalnum() for c in word)):
            continue
        t = word.lower() if lower else word
        out.append(Token(t, sub.start, sub.stop, function_word is not None and function_word(t)))
    return tuple(out)
