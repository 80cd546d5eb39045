"""The reasons :func:`meteor.analysis.reconcile.reconcile` gives, as data (a code and its values).

Each sentence of a reconciliation is a :class:`Reason`: a code of :data:`TEMPLATES` with the
numbers, names and words it quotes.  :func:`render` writes it in English; another language
renders the same reason with its own templates (``pages/_strings_reconcile.py``), so no
sentence is ever parsed back.  Templates are :meth:`str.format` strings; a value may also be a
nested :class:`Reason`, a tuple of them (joined by the spec, ``", "`` by default), and
``{n:pl:match|matches}`` writes the word for ``n`` (:meth:`Formatter.plural`).
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meteor.module_registry import Module

__all__ = ["ALIGNERS", "FUNCTION_WORDS", "TEMPLATES", "Formatter", "Reason", "reason", "render"]


@dataclass(frozen=True, slots=True)
class Reason:
    """One sentence as data: ``code`` (a key of :data:`TEMPLATES`) and its values."""

    code: str
    args: tuple[tuple[str, Any], ...] = ()

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.args)

    @property
    def text(self) -> str:
        """The sentence in English."""
        return render(self)


def reason(code: str, **args: Any) -> Reason:
    """``Reason(code, args)``, the values given by name."""
    if code not in TEMPLATES:
        raise KeyError(code)
    return Reason(code, tuple(args.items()))


_GROUP_KEYS = ("text", "function_words", "stages", "resources", "weights", "aligner",
               "parameters", "rules", "aggregation")  # fmt: skip

#: The aligners and function-word lists named by a term of their own (any other: ``.other``).
ALIGNERS = ("beam", "greedy", "stagewise")
FUNCTION_WORDS = ("meteor", "meteor-lang", "project")

#: Code → English template.  ``stage.<module>`` and ``group.<key>`` name a stage and a
#: group of settings (the key, as the record writes it).
TEMPLATES: dict[str, str] = {
    **{f"stage.{m.value}": m.value for m in Module},
    **{f"group.{k}": k for k in _GROUP_KEYS},
    # terms
    **{f"aligner.{a}": a for a in ALIGNERS},
    "aligner.other": "{name}",
    **{f"fw.{f}": f for f in FUNCTION_WORDS},
    "fw.other": "{name}",
    "tok.meteor": "Meteor 1.5's tokeniser",
    "tok.whitespace": "str.split()",
    "tok.nltk": "nltk.word_tokenize",
    "tok.razdel": "razdel",
    "tok.other": "{name}",
    "norm.meteor": "Meteor's -norm (punctuation split, lowercase)",
    "norm.lower": "lowercase",
    "norm.none": "case kept",
    "norm.other": "{name}",
    # the text
    "tokenises": "{b} tokenises with {after} ({a}: {before})",
    "normalisation": "normalisation {after} ({a}: {before})",
    "punct_dropped": "punctuation dropped",
    "punct_kept": "punctuation kept",
    "java_keys_on": "words compared by Java's String.hashCode, as Meteor 1.5 does",
    "java_keys_off": "words compared as strings (no Java hash keys)",
    "yo_fold": "ё folded to е",
    "yo_keep": "ё kept apart from е",
    "language": "language {before} → {after}",
    "function_words": "function-word list {before} → {after}",
    # stages, resources, weights, aligner
    "stages": "stages {before: → } become {after: → }",
    "stages_nltk": "(the {aligner} aligner runs NLTK's own three stages)",
    "stemmer": "stemmer {before} → {after}",
    "embedding_threshold": "embedding threshold {before:.4g} → {after:.4g}",
    "resources_nltk": "(the {aligner} aligner uses NLTK's own Porter stemmer and WordNet)",
    "weight": "{b} weighs {stage} matches {after:.4g} ({a}: {before:.4g})",
    "weight_here": "{b} weighs {stage} matches {after:.4g} ({a}: {before:.4g}): "
    "{n} {stage} {n:pl:match|matches} here",
    "aligner_greedy": "{name} aligns as NLTK does: greedily, first come first served",
    "aligner_beam": "{name} aligns with Meteor 1.5's beam search (width {width}): most "
    "weighted coverage, then fewest chunks",
    "aligner_stagewise": "{name} aligns as the 2005 paper: stage by stage, the largest "
    "mapping with the fewest crossings",
    "aligner_other": "{name} aligns with the {aligner} aligner",
    # α β γ δ and the rules
    "alpha": "α {before:.4g} → {after:.4g}",
    "alpha_fmean": "α {before:.4g} → {after:.4g}: Fmean = P·R/(αP+(1−α)R) = {p:.4f}·{r:.4f}/"
    "({after:.4g}·{p:.4f}+{rest:.4g}·{r:.4f}) = {fmean:.4f}",
    "beta_gamma": "β {beta0:.4g} → {beta1:.4g}, γ {gamma0:.4g} → {gamma1:.4g}",
    "beta_gamma_penalty": "β {beta0:.4g} → {beta1:.4g}, γ {gamma0:.4g} → {gamma1:.4g}: the "
    "penalty {gamma1:.4g}·frag^{beta1:.4g} = {penalty:.4f} for {chunks} "
    "{chunks:pl:chunk|chunks} in {matches:g} matches (frag {frag:.4f})",
    "delta": "δ {before:.4g} → {after:.4g}: content words count {after:.4g}, function words "
    "{rest:.4g}",
    "delta_pr": "δ {before:.4g} → {after:.4g}: content words count {after:.4g}, function words "
    "{rest:.4g} (P {p:.4f}, R {r:.4f})",
    "perfect_rule_on": "Meteor 1.5's perfect-segment rule (frag 0 when every word matches in "
    "one chunk) on",
    "perfect_rule_off": "Meteor 1.5's perfect-segment rule (frag 0 when every word matches in "
    "one chunk) off",
    "perfect_applies": "Meteor 1.5's perfect-segment rule: every word matched in one chunk, so "
    "frag = 0 and no penalty",
    "perfect_not_full": "Meteor 1.5's perfect-segment rule is on but does not apply (not one "
    "full chunk)",
    "no_perfect_frag": "no perfect-segment rule: frag = 1 chunk / {matches} matches = "
    "{frag:.4f}, penalty {penalty:.4f}",
    "no_perfect": "no perfect-segment rule (it would not apply here: not one full chunk)",
    "arith_nltk": "NLTK's own arithmetic now applies: Fmean = P·R/(αP+(1−α)R) in NLTK's order",
    "arith_meteor": "Meteor 1.5's arithmetic now applies: Fmean = 1/((1−α)/P + α/R)",
    # what a step did
    "match": "{hyp}→{ref} ({stage})",
    "adds": "adds {n} {n:pl:match|matches}: {matches}",
    "loses": "loses {n} {n:pl:match|matches}: {matches}",
    "chunks": "chunks {before} → {after}",
    "best_ref": "the best reference is now reference {now} (was {was})",
    "agg_mean": "{name} aggregates by the mean of segment scores (as HF evaluate)",
    "agg_sum": "{name} aggregates by summed statistics (Meteor 1.5)",
    # the path and the shares
    "cannot_come_yet": "{group} cannot come yet ({error})",
    "order_changed": "order changed: {groups:; }",
    "switched_together": "switched together: no one of them runs alone from here",
    "method_none": "none: the two settings agree",
    "method_exact": "exact: every one of the {subsets} subsets of the {n} groups",
    "method_sampled": "sampled: {orders} random orders (seed {seed}); each share ± its "
    "standard error (largest {error:.2g})",
    "interaction": "{g} × {h} {value:+.4f}",
    "path_disagree": "the path and the shares disagree for {groups}: the factors interact",
    "path_disagree_strongest": "the path and the shares disagree for {groups}: the factors "
    "interact (strongest: {pairs:; })",
    "path_agree": "the path and the shares agree: the groups add up independently",
    "invalid_count": "{n} combination(s) cannot run; each is valued by the nearest one that "
    "can (see invalid)",
}


class Formatter(string.Formatter):
    """Renders a :class:`Reason` with a table of templates (English: :data:`TEMPLATES`).

    A subclass for another language overrides :meth:`plural` (its plural forms),
    :meth:`number` (its decimal sign) and :attr:`undefined` (the word for a number the
    formula leaves undefined: NaN, e.g. frag and the penalty with no match)."""

    undefined = "undefined"

    def __init__(self, templates: Mapping[str, str] | None = None) -> None:
        self.templates = TEMPLATES if templates is None else templates

    def render(self, r: Reason) -> str:
        return self.format(self.templates[r.code], **r.values)

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, Reason):
            return self.render(value)
        if isinstance(value, tuple):
            sep = format_spec or ", "
            return sep.join(self.format_field(v, "") for v in value)
        if format_spec.startswith("pl:"):
            return self.plural(int(value), format_spec[3:].split("|"))
        if isinstance(value, float) and not math.isfinite(value):
            return self.undefined
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.number(super().format_field(value, format_spec))
        return str(super().format_field(value, format_spec))

    def plural(self, n: int, forms: list[str]) -> str:
        """The form of a word for ``n`` (English: ``one|many``)."""
        return forms[0] if n == 1 else forms[-1]

    def number(self, text: str) -> str:
        """A formatted number as the language writes it (English: as Python writes it)."""
        return text


_ENGLISH = Formatter()


def render(r: Reason) -> str:
    """``r`` in English."""
    return _ENGLISH.render(r)
