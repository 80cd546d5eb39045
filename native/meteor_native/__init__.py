"""Compiled parts of the METEOR workbench (optional; ``meteor`` runs without them).

``meteor_native._beam.beam_choice`` is Meteor 1.5's beam search in C for sides of at
most 256 words; :mod:`meteor.aligners.beam` uses it when it is installed (and
``METEOR_PURE_PYTHON`` is unset) and gives the same choices without it.
``meteor_native._synonym.synonym_pairs`` is the pair loop of Meteor 1.5's synonym
matcher, used the same way by :mod:`meteor.stages.synonym`;
``meteor_native._phrases.phrase_ids`` the paraphrase index look-up of
:mod:`meteor.languages.paraphrase`; ``meteor_native._tokens`` builds the token records
of :mod:`meteor.text` (and their offsets when the tokens are the text's own characters);
``meteor_native._normalize`` is Meteor 1.5's normaliser (:mod:`meteor.text.normalize`) for
lines without a run of dots; ``meteor_native._greedy.nltk_align`` is nltk's greedy
exact / stem / synonym alignment of :mod:`meteor.aligners.greedy`.
"""
