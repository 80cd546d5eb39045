"""Text in, tokens out: normalisation (Meteor 1.5 ``-norm``, the 2005 tokenizer, NLTK's) and tokenizers."""
