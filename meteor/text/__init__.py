"""Text in, tokens out: normalisation (Meteor 1.5 ``-norm``, the 2005 tokenizer, NLTK's) and tokenizers."""

from typing import Literal, get_args

__all__ = ["TOKENIZERS", "TokenizerName"]

#: The tokenizers, by the name ``Params(tokenizer=...)`` takes (each a module here:
#: :mod:`~meteor.text.normalize`, :mod:`~meteor.text.tokenize_ru`,
#: :mod:`~meteor.text.tokenize_nltk`; ``whitespace`` is ``str.split``).
TokenizerName = Literal["meteor", "razdel", "whitespace", "nltk"]
TOKENIZERS: tuple[str, ...] = get_args(TokenizerName)
