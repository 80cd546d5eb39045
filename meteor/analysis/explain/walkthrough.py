"""The stage-by-stage walkthrough (the Learn page): what each stage proposed and what the
aligner kept, the definite candidates of Meteor 1.5's beam, and the METEOR formula step by step
with the pair's own numbers.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from meteor.metric import Meteor
from meteor.module_registry import Module, module_slot
from meteor.params import Params
from meteor.rules import is_definite
from meteor.scoring import Breakdown
from meteor.stats import Stats
from meteor.types import Match, MeteorResult

__all__ = [
    "FORMULA_WORDS",
    "FormulaLine",
    "StageStep",
    "definite_candidates",
    "formula_lines",
    "frag_rule",
    "stage_steps",
]

Fmt = Callable[[float], str]


@dataclass(frozen=True, slots=True)
class StageStep:
    """One stage of the walkthrough: its candidates and which of them the aligner chose."""

    module: Module
    candidates: tuple[Match, ...]  # distinct (duplicates of the paraphrase table merged)
    chosen: tuple[Match, ...]
    new_words: int  # hypothesis words no earlier stage had a candidate for


def _dedupe(ms: Iterable[Match]) -> tuple[Match, ...]:
    first: dict[tuple[int, int, int, int], Match] = {}
    for m in ms:
        first.setdefault((m.hyp.start, m.hyp.end, m.ref.start, m.ref.end), m)
    return tuple(first.values())


def stage_steps(result: MeteorResult, meteor: Meteor) -> tuple[StageStep, ...]:
    """Every enabled stage's candidates on the winning pair (all stages run, as Meteor 1.5's
    do; for NLTK's greedy aligner too, whose own choice is ``result.matches``)."""
    al = result.alignment
    stages = meteor.candidates(list(al.hyp_words), list(al.ref_words))
    covered: set[int] = set()
    out = []
    for mod, cands in zip(meteor.params.modules, stages, strict=True):
        c = _dedupe(cands)
        new = {i for m in c for i in m.hyp} - covered
        covered |= new
        chosen = tuple(m for m in al.matches if m.module is mod)
        out.append(StageStep(mod, c, chosen, len(new)))
    return tuple(out)


def definite_candidates(candidates: Sequence[Match], n_hyp: int, n_ref: int) -> tuple[int, ...]:
    """Indices of the candidates Meteor 1.5's beam aligner fixes before searching
    (Aligner.java:199-218, :func:`meteor.rules.is_definite`; duplicates count as others)."""
    starts = Counter(m.ref.start for m in candidates)
    cov_h = [0] * n_hyp
    cov_r = [0] * n_ref
    for m in candidates:
        for i in m.hyp:
            cov_h[i] += 1
        for j in m.ref:
            cov_r[j] += 1
    return tuple(
        k
        for k, m in enumerate(candidates)
        if is_definite(
            starts[m.ref.start],
            range(m.hyp.start, m.hyp.end),
            range(m.ref.start, m.ref.end),
            cov_h,
            cov_r,
        )
    )


# -- formulas with the pair's numbers ----------------------------------------------


@dataclass(frozen=True, slots=True)
class FormulaLine:
    """A formula in LaTeX, once symbolic and once with the numbers substituted."""

    key: str
    symbolic: str
    numeric: str


#: The words the formulas write in ``\\text{}`` (symbols, subscripts and notes), English by
#: default; :func:`formula_lines` takes a translation of any of them.
FORMULA_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "hyp": "hyp",
        "ref": "ref",
        "mean": "mean",
        "frag": "frag",
        "pen": "Pen",
        "stage": "stage",
        "content": "content",
        "function": "function",
        "chunks": "chunks",
        "single_chunk": "single-chunk rule",
        "single_chunk_off": "no single-chunk rule here",
    }
)

_TEX_SPECIAL = {c: f"\\{c}" for c in "#$%&_{}"} | {
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
}


def _text(word: str) -> str:
    """``word`` as LaTeX ``\\text{...}`` (its special characters escaped)."""
    return "\\text{" + "".join(_TEX_SPECIAL.get(c, c) for c in word) + "}"


def formula_lines(
    stats: Stats,
    bd: Breakdown,
    params: Params,
    fmt: Fmt = "{:.4f}".format,
    *,
    words: Mapping[str, str] | None = None,
    stage_name: Callable[[Module], str] | None = None,
) -> tuple[FormulaLine, ...]:
    """The METEOR formula step by step, with this pair's numbers (from :class:`Breakdown`).

    Keys: ``len_hyp``, ``len_ref``, ``m_hyp``, ``m_ref``, ``precision``, ``recall``,
    ``fmean``, ``frag``, ``penalty``, ``score``.  ``words`` translates the words of
    :data:`FORMULA_WORDS`; ``stage_name`` names a stage (its code by default).
    """

    def n(x: float) -> str:  # a number in LaTeX (NaN and inf by name, not by ``fmt``)
        if math.isnan(x):
            return "\\text{NaN}"
        if math.isinf(x):
            return "\\infty"
        return fmt(x).replace(",", "{,}")  # a decimal comma must not become a LaTeX space

    w = {**FORMULA_WORDS, **(words or {})}
    name = stage_name or (lambda m: m.value)
    return (
        *_length_lines(stats, bd, params, n, w),
        *_match_lines(stats, bd, params, n, w, name),
        *_ratio_lines(stats, bd, params, n, w),
    )


def _length_lines(
    stats: Stats, bd: Breakdown, params: Params, n: Callable[[float], str], w: Mapping[str, str]
) -> list[FormulaLine]:
    """``len_hyp``, ``len_ref``: the lengths weighted by δ (content) and 1 − δ (function words)."""
    d = params.delta
    return [
        FormulaLine(
            f"len_{side}",
            f"L_{{{_text(w[side])}}} = \\delta\\,(n - f) + (1-\\delta)\\,f",
            f"L_{{{_text(w[side])}}} = {n(d)}\\cdot({length} - {fw})"
            f" + {n(1 - d)}\\cdot {fw} = {n(weighted)}",
        )
        for side, length, fw, weighted in (
            ("hyp", stats.hyp_len, stats.hyp_function_words, bd.hyp_weighted_len),
            ("ref", stats.ref_len, stats.ref_function_words, bd.ref_weighted_len),
        )
    ]


def _match_lines(
    stats: Stats,
    bd: Breakdown,
    params: Params,
    n: Callable[[float], str],
    w: Mapping[str, str],
    name: Callable[[Module], str],
) -> list[FormulaLine]:
    """``m_hyp``, ``m_ref``: the matches weighted per stage, one stage that matched per line
    (``aligned``, its name on the right), so many stages stay as narrow as one term."""
    d = params.delta
    mods = params.modules
    idx = {m: module_slot(m) for m in mods}
    hc, rc, hf, rf = stats.per_module(max(idx.values()) + 1)
    stage, content, function = _text(w["stage"]), _text(w["content"]), _text(w["function"])
    lines: list[FormulaLine] = []
    for side, cont, func, weighted in (
        ("hyp", hc, hf, bd.hyp_weighted_matches),
        ("ref", rc, rf, bd.ref_weighted_matches),
    ):
        terms = [
            f"{n(params.weight(m))}\\cdot({n(d)}\\cdot {cont[idx[m]]}"
            f" + {n(1 - d)}\\cdot {func[idx[m]]}) && {_text(name(m))}"
            for m in mods
            if cont[idx[m]] or func[idx[m]]
        ] or ["0"]
        rows = [f"M_{{{_text(w[side])}}} &= {terms[0]}"]
        rows += [f"&\\quad + {term}" for term in terms[1:]]
        rows.append(f"&= {n(weighted)}")
        lines.append(
            FormulaLine(
                f"m_{side}",
                f"M_{{{_text(w[side])}}} = \\sum_{{{stage}}} w\\,"
                f"(\\delta\\,m_{{{content}}} + (1-\\delta)\\,m_{{{function}}})",
                "\\begin{aligned}" + " \\\\ ".join(rows) + "\\end{aligned}",
            )
        )
    return lines


def frag_rule(stats: Stats, params: Params) -> str:
    """Which rule gives this segment's fragmentation: ``"single_chunk"`` when Meteor 1.5's
    rule (``params.perfect_rule``, MeteorScorer.java's ``frag = 0`` case) applies: every word
    of both sides matched, by any stage, in one chunk; ``"single_chunk_off"`` for such a
    segment under a setting without the rule (NLTK, the 2005 paper); else ``"ratio"``.
    """
    if not stats.is_perfect:
        return "ratio"
    return "single_chunk" if params.perfect_rule else "single_chunk_off"


def _ratio_lines(
    stats: Stats, bd: Breakdown, params: Params, n: Callable[[float], str], w: Mapping[str, str]
) -> list[FormulaLine]:
    """``precision``, ``recall``, ``fmean``, ``frag``, ``penalty``, ``score``."""
    a, b, g = params.alpha, params.beta, params.gamma
    rule = frag_rule(stats, params)
    hyp, ref, frag, pen = _text(w["hyp"]), _text(w["ref"]), _text(w["frag"]), _text(w["pen"])
    fmean = f"F_{{{_text(w['mean'])}}}"
    ratio = f"\\frac{{{stats.chunks}}}{{({stats.hyp_word_matches} + {stats.ref_word_matches})/2}}"
    if rule == "single_chunk":  # the rule sets frag to 0: the ratio is not its value
        frag_numeric = f"{frag} = 0\\quad({_text(w['single_chunk'])})"
    else:
        frag_numeric = f"{frag} = {ratio} = {n(bd.frag)}" + (
            f"\\quad({_text(w['single_chunk_off'])})" if rule == "single_chunk_off" else ""
        )
    return [
        FormulaLine(
            "precision",
            f"P = M_{{{hyp}}} / L_{{{hyp}}}",
            f"P = {n(bd.hyp_weighted_matches)} / {n(bd.hyp_weighted_len)} = {n(bd.precision)}",
        ),
        FormulaLine(
            "recall",
            f"R = M_{{{ref}}} / L_{{{ref}}}",
            f"R = {n(bd.ref_weighted_matches)} / {n(bd.ref_weighted_len)} = {n(bd.recall)}",
        ),
        FormulaLine(
            "fmean",
            f"{fmean} = \\frac{{P\\,R}}{{\\alpha P + (1-\\alpha) R}}",
            f"{fmean} = \\frac{{{n(bd.precision)}\\cdot {n(bd.recall)}}}"
            f"{{{n(a)}\\cdot {n(bd.precision)} + {n(1 - a)}\\cdot {n(bd.recall)}}}"
            f" = {n(bd.fmean)}",
        ),
        FormulaLine(
            "frag",
            f"{frag} = \\frac{{{_text(w['chunks'])}}}{{(m_{{{hyp}}} + m_{{{ref}}})/2}}",
            frag_numeric,
        ),
        FormulaLine(
            "penalty",
            f"{pen} = \\gamma \\cdot {frag}^{{\\beta}}",
            f"{pen} = {n(g)}\\cdot {n(bd.frag)}^{{{n(b)}}} = {n(bd.penalty)}",
        ),
        FormulaLine(
            "score",
            f"\\text{{METEOR}} = {fmean} \\cdot (1 - {pen})",
            f"\\text{{METEOR}} = {n(bd.fmean)}\\cdot(1 - {n(bd.penalty)}) = {n(bd.score)}",
        ),
    ]
