"""The groups of settings :func:`meteor.analysis.reconcile.reconcile` switches, and their words.

A group is a set of :class:`~meteor.params.Params` fields one step of the path switches from
A's values to B's, in pipeline order (:data:`GROUPS`), plus the corpus aggregation.  The
choice among references is the same rule for every setting (the best score, the first wins
ties; Meteor 1.5 and NLTK alike), so it is no group: a step says when it changes.  Every
number in the words is computed from the results, never written in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from meteor.aligners import get_aligner
from meteor.analysis.reconcile_reasons import ALIGNERS, FUNCTION_WORDS, Reason, reason
from meteor.module_registry import Module, module_slot
from meteor.params import Params, stage_weight
from meteor.scoring import Breakdown, uses_nltk_arithmetic
from meteor.stats import Stats

__all__ = [
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
        ("lang", "tokenizer", "norm", "no_punct", "java_keys", "fold_yo"),
    ),
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
    """The keys of the groups whose fields differ between ``a`` and ``b``, in order (the
    weights: a module either side uses weighed differently, :func:`~meteor.params.stage_weight`)."""
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
    da, db = a.to_dict(), b.to_dict()
    return {f: [da[f], db[f]] for f in group(key).fields if da[f] != db[f]}


def build_params(a: Params, b: Params, switched: frozenset[str] | set[str]) -> Params:
    """A's settings with the groups in ``switched`` taken from B (a module's weight from the
    side whose weights are in force, :func:`~meteor.params.stage_weight`).

    Raises:
        ParamError: the combination is not valid (e.g. the stage-wise aligner with paraphrase).
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


_TOKENIZERS = ("meteor", "whitespace", "nltk", "razdel")
_NORMS = ("meteor", "lower", "none")


def _term(kind: str, name: str, known: tuple[str, ...]) -> Reason:
    return reason(f"{kind}.{name}") if name in known else reason(f"{kind}.other", name=name)


def _aligner(name: str) -> Reason:
    return _term("aligner", name, ALIGNERS)


def _stage(m: Module) -> Reason:
    return reason(f"stage.{m.value}")


def rule_words(
    key: str,
    before: Params,
    after: Params,
    names: tuple[str, str],
    bd: Breakdown | None = None,
    stats: Stats | None = None,
    bd_before: Breakdown | None = None,
) -> list[Reason]:
    """The reasons naming the rule one step switches, with the numbers of ``bd``/``stats``
    (the breakdown and statistics after the step; ``None`` for a corpus step without them)."""
    name_a, name_b = names
    words: list[Reason] = []
    if key == "text":
        words += _text_words(before, after, names)
    elif key == "function_words":
        words.append(
            reason(
                "function_words",
                before=_term("fw", before.function_words, FUNCTION_WORDS),
                after=_term("fw", after.function_words, FUNCTION_WORDS),
            )
        )
    elif key == "stages":
        words.append(
            reason(
                "stages",
                before=tuple(map(_stage, before.modules)),
                after=tuple(map(_stage, after.modules)),
            )
        )
        if not get_aligner(after.aligner).uses_stages:
            words.append(reason("stages_nltk", aligner=_aligner(after.aligner)))
    elif key == "resources":
        if before.stemmer != after.stemmer:
            words.append(reason("stemmer", before=before.stemmer, after=after.stemmer))
        if before.embedding_threshold != after.embedding_threshold:
            words.append(reason("embedding_threshold", before=before.embedding_threshold,
                                after=after.embedding_threshold))  # fmt: skip
        if not get_aligner(after.aligner).uses_stages:
            words.append(reason("resources_nltk", aligner=_aligner(after.aligner)))
    elif key == "weights":
        words += _weight_words(before, after, name_b, name_a, stats)
    elif key == "aligner":
        words.append(_aligner_words(after, name_b))
    elif key == "parameters":
        words += _parameter_words(before, after, bd, stats)
    elif key == "rules":
        words.append(_rule_words(after, bd, stats))
    if bd is not None and bd_before is not None:
        na = uses_nltk_arithmetic(after)
        if uses_nltk_arithmetic(before) != na:
            words.append(reason("arith_nltk" if na else "arith_meteor"))
    return words


def _text_words(before: Params, after: Params, names: tuple[str, str]) -> list[Reason]:
    name_a, name_b = names
    words = []
    if before.tokenizer != after.tokenizer:
        words.append(
            reason(
                "tokenises",
                a=name_a,
                b=name_b,
                before=_term("tok", before.tokenizer, _TOKENIZERS),
                after=_term("tok", after.tokenizer, _TOKENIZERS),
            )
        )
    if before.norm != after.norm:
        words.append(
            reason(
                "normalisation",
                a=name_a,
                before=_term("norm", before.norm, _NORMS),
                after=_term("norm", after.norm, _NORMS),
            )
        )
    if before.no_punct != after.no_punct:
        words.append(reason("punct_dropped" if after.no_punct else "punct_kept"))
    if before.java_keys != after.java_keys:
        words.append(reason("java_keys_on" if after.java_keys else "java_keys_off"))
    if before.fold_yo != after.fold_yo:
        words.append(reason("yo_fold" if after.fold_yo else "yo_keep"))
    if before.lang != after.lang:
        words.append(reason("language", before=before.lang, after=after.lang))
    return words


def _weight_words(
    before: Params, after: Params, name_b: str, name_a: str, stats: Stats | None
) -> list[Reason]:
    words = []
    for m in after.modules:
        w0, w1 = stage_weight(m, before, after), after.weight(m)
        if w0 == w1:
            continue
        args: dict[str, Any] = {"b": name_b, "stage": _stage(m), "after": w1, "a": name_a,
                                "before": w0}  # fmt: skip
        if stats is None:
            words.append(reason("weight", **args))
            continue
        k = module_slot(m)
        hc, rc, hf, rf = stats.per_module(k + 1)
        words.append(reason("weight_here", n=hc[k] + hf[k], **args))
    return words


def _aligner_words(p: Params, name: str) -> Reason:
    al = p.aligner
    if al == "beam":
        return reason("aligner_beam", name=name, width=p.beam_size)
    if al in ALIGNERS:
        return reason(f"aligner_{al}", name=name)
    return reason("aligner_other", name=name, aligner=_aligner(al))


def _parameter_words(
    before: Params, after: Params, bd: Breakdown | None, stats: Stats | None
) -> list[Reason]:
    words = []
    if before.alpha != after.alpha:
        a = after.alpha
        if bd is None:
            words.append(reason("alpha", before=before.alpha, after=a))
        else:
            words.append(reason("alpha_fmean", before=before.alpha, after=a, rest=1 - a,
                                p=bd.precision, r=bd.recall, fmean=bd.fmean))  # fmt: skip
    if before.beta != after.beta or before.gamma != after.gamma:
        bg = {"beta0": before.beta, "beta1": after.beta, "gamma0": before.gamma,
              "gamma1": after.gamma}  # fmt: skip
        if bd is None or stats is None:
            words.append(reason("beta_gamma", **bg))
        else:
            m = (stats.hyp_word_matches + stats.ref_word_matches) / 2
            words.append(reason("beta_gamma_penalty", penalty=bd.penalty, chunks=stats.chunks,
                                matches=m, frag=bd.frag, **bg))  # fmt: skip
    if before.delta != after.delta:
        d = after.delta
        if bd is None:
            words.append(reason("delta", before=before.delta, after=d, rest=1 - d))
        else:
            words.append(reason("delta_pr", before=before.delta, after=d, rest=1 - d,
                                p=bd.precision, r=bd.recall))  # fmt: skip
    return words


def _rule_words(after: Params, bd: Breakdown | None, stats: Stats | None) -> Reason:
    if stats is None or bd is None:
        return reason("perfect_rule_on" if after.perfect_rule else "perfect_rule_off")
    perfect = stats.is_perfect
    if after.perfect_rule:
        return reason("perfect_applies" if perfect else "perfect_not_full")
    if perfect:
        return reason("no_perfect_frag", matches=stats.hyp_word_matches, frag=bd.frag,
                      penalty=bd.penalty)  # fmt: skip
    return reason("no_perfect")


def match_words(added: Sequence[Any], lost: Sequence[Any]) -> list[Reason]:
    """The reasons for the matches one step adds and loses (each with its stage)."""
    words = []
    for verb, ms in (("adds", added), ("loses", lost)):
        if ms:
            parts = tuple(
                reason(
                    "match",
                    hyp=" ".join(m.hyp_words),
                    ref=" ".join(m.ref_words),
                    stage=_stage(m.module),
                )  # fmt: skip
                for m in ms
            )
            words.append(reason(verb, n=len(ms), matches=parts))
    return words
