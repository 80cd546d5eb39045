"""The groups of settings :func:`meteor.analysis.reconcile.reconcile` switches, and their words.

A group is a set of :class:`~meteor.params.Params` fields that one step of the path
switches from setting A's values to setting B's, in pipeline order: the text
(tokenizer, normaliser, case), the function-word list, the stages (which, in what
order), the stemmer and resources, the stage weights, the aligner, α β γ δ, the
scoring rules, and for a corpus the aggregation.  The choice among several
references is the same rule for every setting of this library (the best scores,
the first wins ties; Meteor 1.5 and NLTK alike), so it is never a group: a step
says when the chosen reference changes.

Every number in the words is computed from the results, never written in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meteor.aligners import get_aligner
from meteor.errors import ParamError
from meteor.module_registry import Module
from meteor.params import Params, stage_weight
from meteor.scoring import Breakdown, _nltk_arithmetic
from meteor.stats import Stats

__all__ = [
    "ALIGNMENT_FREE",
    "AGGREGATION",
    "GROUPS",
    "Group",
    "aggregation_of",
    "build_params",
    "differing_groups",
    "rule_words",
]


@dataclass(frozen=True, slots=True)
class Group:
    """One group of settings: its key, its label and the Params fields it holds."""

    key: str
    label: str
    fields: tuple[str, ...]


#: The groups, in pipeline order (the path's default order).
GROUPS: tuple[Group, ...] = (
    Group(
        "text",
        "text (tokenizer, normalisation, case)",
        (
            "lang",
            "tokenizer",
            "norm",
            "no_punct",
            "java_keys",
            "fold_yo",
        ),
    ),  # fmt: skip
    Group("function_words", "function words", ("function_words",)),
    Group("stages", "stages (which, order)", ("modules",)),
    Group("resources", "stemmer and resources", ("stemmer", "embedding_threshold")),
    Group("weights", "stage weights", ("weights",)),
    Group("aligner", "aligner", ("aligner", "beam_size")),
    Group("parameters", "α β γ δ", ("alpha", "beta", "gamma", "delta")),
    Group("rules", "scoring rules", ("perfect_rule",)),
)
#: The corpus-only group: summed statistics (Meteor 1.5) or the mean of segment scores.
AGGREGATION = Group("aggregation", "corpus aggregation", ())
#: Groups no aligner reads: switching them re-scores the same statistics.
ALIGNMENT_FREE = frozenset({"weights", "parameters", "rules"})
_BY_KEY = {g.key: g for g in (*GROUPS, AGGREGATION)}


def group(key: str) -> Group:
    """The group named ``key``."""
    return _BY_KEY[key]


def aggregation_of(params: Params) -> str:
    """``"mean"`` (of segment scores, as HF evaluate averages NLTK's) for an aligner
    reproducing NLTK, else ``"sum"`` (summed statistics, Meteor 1.5)."""
    return "mean" if get_aligner(params.aligner).nltk_arithmetic else "sum"


def _value(params: Params, name: str) -> Any:
    if name == "modules":
        return tuple(m.value for m in params.modules)
    if name == "weights":
        return tuple((m.value, w) for m, w in params.weights)
    return getattr(params, name)


def differing_groups(a: Params, b: Params) -> tuple[str, ...]:
    """The keys of the groups whose fields differ between ``a`` and ``b``, in order.

    The weights differ when some module that either side uses is weighed differently
    (a module one side lacks counts with the weight it would get there,
    :func:`~meteor.params.stage_weight`).
    """
    out = []
    for g in GROUPS:
        if g.key == "weights":
            mods = {*a.modules, *b.modules}
            if any(stage_weight(m, a, b) != stage_weight(m, b, a) for m in mods):
                out.append(g.key)
        elif any(_value(a, f) != _value(b, f) for f in g.fields):
            out.append(g.key)
    return tuple(out)


def changes(a: Params, b: Params, key: str) -> dict[str, list[Any]]:
    """``{field: [A's value, B's value]}`` of one group's differing fields (JSON-ready)."""
    out: dict[str, list[Any]] = {}
    for f in group(key).fields:
        va, vb = a.to_dict()[f], b.to_dict()[f]
        if va != vb:
            out[f] = [va, vb]
    return out


def build_params(a: Params, b: Params, switched: frozenset[str] | set[str]) -> Params:
    """A's settings with the groups in ``switched`` taken from B.

    A module's weight comes from the side whose weights are in force (B's when
    ``weights`` is switched), falling back on the other side's for a module that side
    lacks (:func:`~meteor.params.stage_weight`).

    Raises:
        ParamError: the combination is not valid (e.g. the stage-wise aligner with
            the paraphrase stage).
    """
    d = a.to_dict()
    src = b.to_dict()
    for key in switched:
        for f in group(key).fields:
            d[f] = src[f]
    first, second = (b, a) if "weights" in switched else (a, b)
    mods = [Module(m) for m in d["modules"]]
    d["weights"] = {m.value: stage_weight(m, first, second) for m in mods}
    return Params.from_dict(d)


def _fmt(x: float) -> str:
    return f"{x:.4g}"


_TOKENIZERS = {
    "meteor": "Meteor 1.5's tokeniser",
    "whitespace": "str.split()",
    "nltk": "nltk.word_tokenize",
    "razdel": "razdel",
}
_NORMS = {
    "meteor": "Meteor's -norm (punctuation split, lowercase)",
    "lower": "lowercase",
    "none": "case kept",
}


def rule_words(
    key: str,
    before: Params,
    after: Params,
    names: tuple[str, str],
    bd: Breakdown | None = None,
    stats: Stats | None = None,
    bd_before: Breakdown | None = None,
) -> list[str]:
    """Plain words naming the rule one step switches, with the numbers of ``bd``/``stats``
    (the breakdown and statistics after the step; ``None`` for a corpus step without them)."""
    name_a, name_b = names
    words: list[str] = []
    if key == "text":
        if before.tokenizer != after.tokenizer:
            words.append(
                f"{name_b} tokenises with {_TOKENIZERS.get(after.tokenizer, after.tokenizer)} "
                f"({name_a}: {_TOKENIZERS.get(before.tokenizer, before.tokenizer)})"
            )
        if before.norm != after.norm:
            words.append(
                f"normalisation {_NORMS.get(after.norm, after.norm)} "
                f"({name_a}: {_NORMS.get(before.norm, before.norm)})"
            )
        if before.no_punct != after.no_punct:
            words.append("punctuation " + ("dropped" if after.no_punct else "kept"))
        if before.java_keys != after.java_keys:
            words.append(
                "words compared by Java's String.hashCode, as Meteor 1.5 does"
                if after.java_keys
                else "words compared as strings (no Java hash keys)"
            )
        if before.fold_yo != after.fold_yo:
            words.append("ё folded to е" if after.fold_yo else "ё kept apart from е")
        if before.lang != after.lang:
            words.append(f"language {before.lang} → {after.lang}")
    elif key == "function_words":
        words.append(f"function-word list {before.function_words} → {after.function_words}")
    elif key == "stages":
        words.append(
            "stages "
            + " → ".join(m.value for m in before.modules)
            + " become "
            + " → ".join(m.value for m in after.modules)
        )
        if not get_aligner(after.aligner).uses_stages:
            words.append(f"(the {after.aligner} aligner runs NLTK's own three stages)")
    elif key == "resources":
        if before.stemmer != after.stemmer:
            words.append(f"stemmer {before.stemmer} → {after.stemmer}")
        if before.embedding_threshold != after.embedding_threshold:
            words.append(
                f"embedding threshold {_fmt(before.embedding_threshold)} → "
                f"{_fmt(after.embedding_threshold)}"
            )
        if not get_aligner(after.aligner).uses_stages:
            words.append(
                f"(the {after.aligner} aligner uses NLTK's own Porter stemmer and WordNet)"
            )
    elif key == "weights":
        words += _weight_words(before, after, name_b, name_a, stats)
    elif key == "aligner":
        words.append(_aligner_words(after, name_b))
    elif key == "parameters":
        words += _parameter_words(before, after, bd, stats)
    elif key == "rules":
        words += _rule_words(after, bd, stats)
    if bd is not None and bd_before is not None:
        nb = _nltk_arithmetic(before)
        na = _nltk_arithmetic(after)
        if nb != na:
            words.append(
                "NLTK's own arithmetic now applies: Fmean = P·R/(αP+(1−α)R) in NLTK's order"
                if na
                else "Meteor 1.5's arithmetic now applies: Fmean = 1/((1−α)/P + α/R)"
            )
    return words


def _weight_words(
    before: Params, after: Params, name_b: str, name_a: str, stats: Stats | None
) -> list[str]:
    words = []
    for m in after.modules:
        w0, w1 = stage_weight(m, before, after), after.weight(m)
        if w0 == w1:
            continue
        text = f"{name_b} weighs {m.value} matches {_fmt(w1)} ({name_a}: {_fmt(w0)})"
        if stats is not None:
            from meteor.module_registry import module_slot

            k = module_slot(m)
            hc, rc, hf, rf = stats.per_module(k + 1)
            n = hc[k] + hf[k]
            text += f": {n} {m.value} match{'es' if n != 1 else ''} here"
        words.append(text)
    return words


def _aligner_words(p: Params, name: str) -> str:
    al = p.aligner
    if al == "greedy":
        return f"{name} aligns as NLTK does: greedily, first come first served"
    if al == "beam":
        return (
            f"{name} aligns with Meteor 1.5's beam search (width {p.beam_size}): most "
            "weighted coverage, then fewest chunks"
        )
    if al == "stagewise":
        return (
            f"{name} aligns as the 2005 paper: stage by stage, the largest mapping with "
            "the fewest crossings"
        )
    return f"{name} aligns with the {al} aligner"


def _parameter_words(
    before: Params, after: Params, bd: Breakdown | None, stats: Stats | None
) -> list[str]:
    words = []
    if before.alpha != after.alpha:
        text = f"α {_fmt(before.alpha)} → {_fmt(after.alpha)}"
        if bd is not None:
            a = after.alpha
            text += (
                f": Fmean = P·R/(αP+(1−α)R) = {bd.precision:.4f}·{bd.recall:.4f}/"
                f"({_fmt(a)}·{bd.precision:.4f}+{_fmt(1 - a)}·{bd.recall:.4f}) = {bd.fmean:.4f}"
            )
        words.append(text)
    if before.beta != after.beta or before.gamma != after.gamma:
        text = f"β {_fmt(before.beta)} → {_fmt(after.beta)}, γ {_fmt(before.gamma)} → " + _fmt(
            after.gamma
        )
        if bd is not None and stats is not None:
            m = (stats.hyp_word_matches + stats.ref_word_matches) / 2
            text += (
                f": the penalty {_fmt(after.gamma)}·frag^{_fmt(after.beta)} = {bd.penalty:.4f} "
                f"for {stats.chunks} chunk{'s' if stats.chunks != 1 else ''} in {m:g} matches "
                f"(frag {bd.frag:.4f})"
            )
        words.append(text)
    if before.delta != after.delta:
        d = after.delta
        text = (
            f"δ {_fmt(before.delta)} → {_fmt(d)}: content words count {_fmt(d)}, "
            f"function words {_fmt(1 - d)}"
        )
        if bd is not None:
            text += f" (P {bd.precision:.4f}, R {bd.recall:.4f})"
        words.append(text)
    return words


def _rule_words(after: Params, bd: Breakdown | None, stats: Stats | None) -> list[str]:
    if stats is None or bd is None:
        return [
            "Meteor 1.5's perfect-segment rule (frag 0 when every word matches in one chunk) "
            + ("on" if after.perfect_rule else "off")
        ]
    perfect = stats.is_perfect
    if after.perfect_rule:
        if perfect:
            return [
                "Meteor 1.5's perfect-segment rule: every word matched in one chunk, so "
                "frag = 0 and no penalty"
            ]
        return ["Meteor 1.5's perfect-segment rule is on but does not apply (not one full chunk)"]
    if perfect:
        return [
            f"no perfect-segment rule: frag = 1 chunk / {stats.hyp_word_matches} matches = "
            f"{bd.frag:.4f}, penalty {bd.penalty:.4f}"
        ]
    return ["no perfect-segment rule (it would not apply here: not one full chunk)"]


def plural(n: int, word: str) -> str:
    """``"1 match"``, ``"2 matches"``."""
    return f"{n} {word}{'' if n == 1 else ('es' if word.endswith('ch') else 's')}"


def match_words(added: Sequence[Any], lost: Sequence[Any]) -> list[str]:
    """Words for the matches one step adds and loses (each with its stage)."""
    words = []
    for verb, ms in (("adds", added), ("loses", lost)):
        if ms:
            parts = [
                f"{' '.join(m.hyp_words)}→{' '.join(m.ref_words)} ({m.module.value})" for m in ms
            ]
            words.append(f"{verb} {plural(len(ms), 'match')}: " + ", ".join(parts))
    return words


def check_side(p: Any) -> None:
    """Refuse a side that is not a preset name, Params or Meteor (one line)."""
    raise ParamError(
        f"a setting must be a preset name, a Params or a Meteor, got {type(p).__name__}"
    )
