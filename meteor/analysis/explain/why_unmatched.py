"""Why an aligner left a proposed match out: the reason codes of the near-miss table.

For a candidate of the setting's own stages (both its words left unmatched),
:func:`why_not_chosen` names the rule that left it out:

* ``"weight_zero"``: the stage is enabled with weight 0, so its match counts nothing;
* ``"beam_quirk"``: Meteor 1.5's beam search counts coverage in a Java ``int`` updated by
  ``+= len × 0.5`` for every stage but exact (quirk 1 of :mod:`meteor.aligners.beam`), so a
  lone one-word stem, synonym … match covers nothing and is left out when it would add a
  chunk (``handling``/``handled``): here, the alignment with it has more chunks;
* ``"not_chosen"``: the aligner preferred another arrangement of the same words.

Runs of other stages give the rest (:func:`meteor.analysis.explain.parts.near_misses`):
``"stage_off"`` (the stage is not enabled), ``"stemmer"`` (another stemmer of the language)
and ``"matcher"`` (the setting's aligner matches by its own rule: NLTK's greedy stem and
synonym stages compare Porter stems, and never see what Meteor 1.5's matcher proposes).
"""

from __future__ import annotations

from meteor.params import Params
from meteor.scoring import stats_from_alignment
from meteor.types import Match, MeteorResult, Module, Stats

__all__ = ["REASONS", "why_not_chosen"]

#: Every reason code of :attr:`meteor.analysis.explain.parts.NearMiss.reason`.
REASONS = ("weight_zero", "beam_quirk", "not_chosen", "stage_off", "stemmer", "matcher")


def stats_with(result: MeteorResult, extra: Match) -> Stats:
    """``result``'s statistics with ``extra`` added to its alignment (chunks recounted)."""
    al = result.alignment
    return stats_from_alignment(
        (*al.matches, extra), [t.function_word for t in al.hyp], [t.function_word for t in al.ref]
    )


def why_not_chosen(m: Match, result: MeteorResult, params: Params) -> str:
    """The reason code for a candidate of ``params``' own stages that ``result`` left out."""
    if params.weight(m.module) == 0:
        return "weight_zero"
    one_word = m.hyp.end - m.hyp.start == 1 and m.ref.end - m.ref.start == 1
    if params.aligner == "beam" and one_word and m.module is not Module.EXACT:
        if stats_with(result, m).chunks > result.stats.chunks:  # no coverage, one more chunk
            return "beam_quirk"
    return "not_chosen"
