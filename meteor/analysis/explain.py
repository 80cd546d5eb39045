"""Why a segment got its score: what-if losses, near misses, formulas with numbers.

Everything here re-scores *modified statistics* (or modified alignments) with the
engine's own :func:`meteor.scoring.compute`, so every number the app shows
under "why this score" comes from the same formula as the score itself:

* :func:`waterfall` splits ``1 − score`` into the loss from unmatched
  hypothesis words, unmatched reference words, partial credit (stage weights
  below 1) and fragmentation;
* :func:`unmatched_costs` and :func:`chunk_break_costs` give, for each
  unmatched word and each break between chunks, the score if it were matched /
  joined;
* :func:`near_misses` lists pairs of unmatched words that a stage the aligner
  did not choose, a disabled stage or another stemmer would have matched;
* :func:`sensitivity` traces the score as α, β, γ or δ moves (same statistics);
* :func:`match_diff` tells apart the matches of two settings on one pair;
* :func:`stage_steps`, :func:`definite_candidates` and :func:`formula_lines`
  feed the stage-by-stage walkthrough.

No Streamlit and no plotly here (``figures.py`` draws, ``pages/`` display).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from meteor.errors import ResourceError
from meteor.metric import Meteor
from meteor.params import DEFAULT_ALIGNER, RANGES, ParamError, Params, stage_weight
from meteor.presets import PRESETS
from meteor.rules import is_definite
from meteor.scoring import Breakdown, compute, stats_from_alignment
from meteor.types import (
    MODULE_ORDER,
    Alignment,
    Match,
    MeteorResult,
    Module,
    Span,
    Stats,
    module_slot,
)

__all__ = [
    "ChunkBreak",
    "Curve",
    "FormulaLine",
    "MatchDiff",
    "NearMiss",
    "StageStep",
    "WaterfallStep",
    "TokenRow",
    "WordCost",
    "chunk_break_costs",
    "definite_candidates",
    "formula_lines",
    "match_diff",
    "near_misses",
    "sensitivity",
    "span_label",
    "stage_steps",
    "token_table",
    "unmatched_costs",
    "waterfall",
]

Fmt = Callable[[float], str]

#: Order and ids of the waterfall steps (pages translate the ids).
WATERFALL_STEPS: tuple[str, ...] = (
    "ideal",
    "unmatched_hyp",
    "unmatched_ref",
    "partial_credit",
    "fragmentation",
    "score",
)


def _finite(x: float) -> float:
    """NaN (Meteor's "undefined") counts as 0 in a decomposition of the score."""
    return 0.0 if math.isnan(x) else x


def _unit_weights(params: Params) -> Params:
    return params.replace(weights=tuple((m, 1.0) for m in params.modules))


def _trim(stats: Stats, *, hyp: bool = False, ref: bool = False) -> Stats:
    """The statistics with the unmatched words of one side removed (that side is then perfect)."""
    s = stats
    if hyp:
        s = replace(
            s,
            hyp_len=s.hyp_word_matches,
            hyp_function_words=sum(s.hyp_function_matches),
        )
    if ref:
        s = replace(
            s,
            ref_len=s.ref_word_matches,
            ref_function_words=sum(s.ref_function_matches),
        )
    return s


def span_label(span: Span) -> str:
    """Token positions for display: ``"4"`` for one token, ``"4–5"`` for a phrase (inclusive)."""
    return str(span.start) if len(span) == 1 else f"{span.start}–{span.end - 1}"


# -- tokens ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TokenRow:
    """A token as the scorer used it, where it came from, and which stage matched it."""

    side: str  # "hyp" or "ref"
    index: int
    text: str
    source: str  # the characters of the original text it came from
    start: int
    end: int
    function_word: bool
    module: Module | None


def token_table(result: MeteorResult) -> tuple[TokenRow, ...]:
    """Both sides' tokens (the winning reference's), with offsets and the matching stage."""
    al = result.alignment
    by_h: dict[int, Module] = {}
    by_r: dict[int, Module] = {}
    for m in al.matches:
        by_h.update(dict.fromkeys(m.hyp, m.module))
        by_r.update(dict.fromkeys(m.ref, m.module))
    ref_text = result.refs[result.best_ref_index]
    rows = [
        TokenRow("hyp", i, tk.text, result.hyp[tk.start : tk.end], tk.start, tk.end,
                 tk.function_word, by_h.get(i))
        for i, tk in enumerate(al.hyp)
    ]  # fmt: skip
    rows += [
        TokenRow("ref", j, tk.text, ref_text[tk.start : tk.end], tk.start, tk.end,
                 tk.function_word, by_r.get(j))
        for j, tk in enumerate(al.ref)
    ]  # fmt: skip
    return tuple(rows)


# -- waterfall ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaterfallStep:
    """One bar of the waterfall: ``value`` is the level (first/last) or the signed change."""

    key: str
    value: float
    level: float  # the running total after this step


def waterfall(stats: Stats, params: Params) -> tuple[WaterfallStep, ...]:
    """From 1.0 (a perfect match) down to the score, one loss at a time.

    * unmatched words: the Fmean lost because some words have no match, with
      every stage weight set to 1; split between the two sides by the Shapley
      value (average over both orders of "fix the hypothesis side" and "fix
      the reference side"), so neither side is favoured;
    * partial credit: what the stage weights below 1 (stem 0.6, …) cost;
    * fragmentation: ``Fmean · penalty``.

    The losses sum to ``1 − score`` exactly (up to rounding). With no match at
    all nothing can be attributed by re-scoring, and the loss is split evenly.
    """
    bd = compute(stats, params)
    fmean = _finite(bd.fmean)
    unit = _unit_weights(params)
    f_all = _finite(compute(stats, unit).fmean)
    if stats.hyp_word_matches == 0 or stats.ref_word_matches == 0:
        loss_hyp = loss_ref = (1.0 - f_all) / 2
    else:
        f_hyp_only = _finite(compute(_trim(stats, ref=True), unit).fmean)  # R = 1
        f_ref_only = _finite(compute(_trim(stats, hyp=True), unit).fmean)  # P = 1
        loss_hyp = ((1.0 - f_hyp_only) + (f_ref_only - f_all)) / 2
        loss_ref = ((1.0 - f_ref_only) + (f_hyp_only - f_all)) / 2
    partial = f_all - fmean
    frag = fmean - bd.score
    steps = [WaterfallStep("ideal", 1.0, 1.0)]
    level = 1.0
    for key, loss in (
        ("unmatched_hyp", loss_hyp),
        ("unmatched_ref", loss_ref),
        ("partial_credit", partial),
        ("fragmentation", frag),
    ):
        level -= loss
        steps.append(WaterfallStep(key, -loss, level))
    steps.append(WaterfallStep("score", bd.score, bd.score))
    return tuple(steps)


# -- what each unmatched word and each chunk break costs ---------------------


@dataclass(frozen=True, slots=True)
class WordCost:
    """An unmatched word and the score if it alone were matched (joining a chunk)."""

    side: str  # "hyp" or "ref"
    index: int
    word: str
    function_word: bool
    module: Module
    score_if_matched: float
    gain: float


def _best_module(params: Params) -> Module:
    if Module.EXACT in params.modules:
        return Module.EXACT
    return max(params.modules, key=params.weight)


def _add_one(stats: Stats, side: str, function: bool, module: Module) -> Stats:
    k = module_slot(module)
    name = f"{side}_{'function' if function else 'content'}_matches"
    vec = list(getattr(stats, name))
    vec += [0] * (k + 1 - len(vec))  # a registered stage's slot the stats lack yet
    vec[k] += 1
    changes: dict[str, object] = {name: tuple(vec), "chunks": max(stats.chunks, 1)}
    if side == "hyp":
        changes["hyp_word_matches"] = stats.hyp_word_matches + 1
    else:
        changes["ref_word_matches"] = stats.ref_word_matches + 1
    return replace(stats, **changes)  # type: ignore[arg-type]


def unmatched_costs(result: MeteorResult, params: Params) -> tuple[WordCost, ...]:
    """For every unmatched word: the score if it were matched by the best enabled stage.

    The word is counted as matched on its own side only (precision for a
    hypothesis word, recall for a reference word) and as extending an existing
    chunk (the chunk count does not grow). Sorted by gain, largest first.
    """
    module = _best_module(params)
    base = result.score
    out: list[WordCost] = []
    al = result.alignment
    for side, tokens, matched in (
        ("hyp", al.hyp, al.hyp_matched()),
        ("ref", al.ref, al.ref_matched()),
    ):
        for i, (tok, ok) in enumerate(zip(tokens, matched, strict=True)):
            if ok:
                continue
            s = compute(_add_one(result.stats, side, tok.function_word, module), params).score
            out.append(WordCost(side, i, tok.text, tok.function_word, module, s, s - base))
    out.sort(key=lambda c: (-c.gain, c.side, c.index))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class ChunkBreak:
    """The break between chunk ``before`` and chunk ``before + 1`` (reference order)."""

    before: int
    hyp_left: str
    hyp_right: str
    ref_left: str
    ref_right: str
    score_if_joined: float
    gain: float


def chunk_break_costs(result: MeteorResult, params: Params) -> tuple[ChunkBreak, ...]:
    """Each break between consecutive chunks and the score with one chunk fewer.

    Every break costs the same (the penalty depends on the count of chunks
    only), but each is listed with the words on either side so the reader can
    see where the order breaks.
    """
    chunks = result.alignment.chunks
    if len(chunks) < 2:
        return ()
    joined = compute(replace(result.stats, chunks=result.stats.chunks - 1), params).score
    hw, rw = result.alignment.hyp_words, result.alignment.ref_words
    out = []
    for a, b in zip(chunks, chunks[1:], strict=False):
        out.append(
            ChunkBreak(
                a.index,
                hw[a.hyp.end - 1],
                hw[b.hyp.start],
                rw[a.ref.end - 1],
                rw[b.ref.start],
                joined,
                joined - result.score,
            )
        )
    return tuple(out)


# -- near misses -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Unmatched words that some stage would match.

    ``reason`` is ``"not_chosen"`` (an enabled stage proposed it, the aligner
    left it out), ``"stage_off"`` (the stage is not enabled) or
    ``"stemmer"`` (another stemmer of the language); ``presets`` names the
    presets of the language that run that stage (with that stemmer).
    """

    match: Match
    reason: str
    stemmer: str
    weight: float
    presets: tuple[str, ...]
    score_if_added: float
    gain: float


def _matched_sets(al: Alignment) -> tuple[set[int], set[int]]:
    return {i for m in al.matches for i in m.hyp}, {j for m in al.matches for j in m.ref}


def _score_with(result: MeteorResult, extra: Match, params: Params) -> float:
    al = result.alignment
    matches = (*al.matches, extra)
    stats = stats_from_alignment(
        matches, [t.function_word for t in al.hyp], [t.function_word for t in al.ref]
    )
    return compute(stats, params).score


def _lang_presets(lang: str) -> tuple[Params, ...]:
    """The params of every preset of ``lang``, in registry order (weights of stages not enabled)."""
    return tuple(p.params for p in PRESETS.values() if p.params.lang == lang)


def _presets_running(lang: str, module: Module, stemmer: str) -> tuple[str, ...]:
    return tuple(
        name
        for name, p in PRESETS.items()
        if p.params.lang == lang
        and module in p.params.modules
        and (module is not Module.STEM or p.params.stemmer == stemmer)
    )


def near_misses(result: MeteorResult, meteor: Meteor) -> tuple[NearMiss, ...]:
    """Pairs of unmatched words another stage, stemmer or the aligner's other choice would match.

    Runs the candidates of every stage the language offers (and every other
    stemmer) on the tokens of the winning reference, and keeps those whose
    words are all unmatched in ``result``. Each is re-scored by adding it to
    the alignment (chunks recounted) under the current parameters, with the
    stage's weight (the language's default weight for a stage not enabled).
    Stages whose resources are missing are skipped. Sorted by gain.
    """
    params = meteor.params
    al = result.alignment
    used_h, used_r = _matched_sets(al)
    hyp_w, ref_w = list(al.hyp_words), list(al.ref_words)
    if not hyp_w or not ref_w or (len(used_h) == len(hyp_w) or len(used_r) == len(ref_w)):
        return ()

    def free(m: Match) -> bool:
        return not (set(m.hyp) & used_h) and not (set(m.ref) & used_r)

    found: dict[tuple[str, int, int, int, int], NearMiss] = {}

    def add(m: Match, reason: str, stemmer: str, weight: float) -> None:
        key = (m.module.value, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
        if key in found or not free(m):
            return
        mods = params.modules if m.module in params.modules else (*params.modules, m.module)
        # Only the scoring weights of ``p`` are used (the match is added to the kept
        # alignment, nothing is searched); the default aligner (Meteor 1.5's) stands in
        # for n:m paraphrase spans, which a one-word aligner would refuse.
        aligner = DEFAULT_ALIGNER if m.module is Module.PARAPHRASE else params.aligner
        p = params.replace(
            modules=mods,
            weights=tuple((x, params.weight(x) if x in params.modules else weight) for x in mods),
            aligner=aligner,
        )
        s = _score_with(result, m, p)
        presets = _presets_running(params.lang, m.module, stemmer)
        found[key] = NearMiss(m, reason, stemmer, weight, presets, s, s - result.score)

    for m in result.candidates:
        add(m, "not_chosen", params.stemmer, params.weight(m.module))
    lang = meteor.lang
    off = [
        m for m in MODULE_ORDER if m in lang.modules and m not in params.modules and _has_matcher(m)
    ]
    configs: list[tuple[tuple[Module, ...], str, str]] = []
    if off:
        configs.append((tuple(off), params.stemmer, "stage_off"))
    for st in lang.stemmers:
        if st != params.stemmer and Module.STEM in lang.modules:
            configs.append(((Module.STEM,), st, "stemmer"))
    for mods, stemmer, reason in configs:
        for mod in mods:
            try:
                other = Meteor(
                    params=params.replace(
                        modules=(mod,),
                        weights=((mod, 1.0),),
                        stemmer=stemmer,
                        aligner=DEFAULT_ALIGNER,
                    )
                )
                stages = other.candidates(hyp_w, ref_w)
            except (ResourceError, ParamError, ValueError, ImportError):
                continue
            w = stage_weight(mod, params, *_lang_presets(params.lang))
            for m in stages[0]:
                add(m, reason, stemmer, w)
    return tuple(sorted(found.values(), key=lambda n: (-n.gain, n.match.ref.start)))


def _has_matcher(module: Module) -> bool:
    return module in (
        Module.EXACT,
        Module.STEM,
        Module.SYNONYM,
        Module.PARAPHRASE,
        Module.LEMMA,
    )


# -- sensitivity -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Curve:
    """The score as one parameter moves, everything else (statistics included) fixed."""

    param: str
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    current_x: float
    current_y: float


SENSITIVE_PARAMS: tuple[str, ...] = ("alpha", "beta", "gamma", "delta")


def sensitivity(
    stats: Stats,
    params: Params,
    names: Sequence[str] = SENSITIVE_PARAMS,
    points: int = 41,
) -> tuple[Curve, ...]:
    """Score curves over each parameter's range (β up to max(3, 2β), capped at its range).

    No aligner looks at α, β, γ or δ (Meteor 1.5's beam search uses fixed
    weights; the stagewise and greedy aligners only count matches and
    crossings), so re-scoring the same statistics is exact.
    """
    out = []
    for name in names:
        lo, hi = RANGES[name]
        cur = float(getattr(params, name))
        if name == "beta":
            hi = min(hi, max(3.0, 2 * cur))
        xs = tuple(lo + (hi - lo) * k / (points - 1) for k in range(points))
        ys = tuple(compute(stats, params.replace(**{name: x})).score for x in xs)
        out.append(Curve(name, xs, ys, cur, compute(stats, params).score))
    return tuple(out)


# -- two settings on one pair ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchDiff:
    """Matches of settings A and B on the same pair (see :func:`match_diff`).

    ``same_tokens`` is False when the two settings tokenised the pair differently.
    """

    only_a: tuple[Match, ...]
    only_b: tuple[Match, ...]
    both: tuple[tuple[Match, Match], ...]
    same_tokens: bool


def match_diff(a: MeteorResult, b: MeteorResult) -> MatchDiff:
    """Matches of A and B on one pair: by positions, or by words when the tokens differ.

    With different tokenisations (e.g. NLTK keeps ``night,`` as one token) positions
    mean nothing across the two, so matches are paired by their words instead (the
    k-th ``we → we`` of A with the k-th of B).
    """
    same = (
        a.alignment.hyp_words == b.alignment.hyp_words
        and a.alignment.ref_words == b.alignment.ref_words
    )

    def keyed(ms: Sequence[Match]) -> dict[tuple[object, ...], Match]:
        out: dict[tuple[object, ...], Match] = {}
        seen: dict[tuple[object, ...], int] = {}
        for m in ms:
            if same:
                base: tuple[object, ...] = (m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
            else:
                base = (m.hyp_words, m.ref_words)
            k = seen.get(base, 0)
            seen[base] = k + 1
            out[(*base, k)] = m
        return out

    ka, kb = keyed(a.matches), keyed(b.matches)
    return MatchDiff(
        tuple(m for k, m in ka.items() if k not in kb),
        tuple(m for k, m in kb.items() if k not in ka),
        tuple((m, kb[k]) for k, m in ka.items() if k in kb),
        same,
    )


# -- the walkthrough -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StageStep:
    """One stage of the walkthrough: its candidates and which of them the aligner chose."""

    module: Module
    candidates: tuple[Match, ...]  # distinct (duplicates of the paraphrase table merged)
    chosen: tuple[Match, ...]
    new_words: int  # hypothesis words no earlier stage had a candidate for


def _dedupe(ms: Iterable[Match]) -> tuple[Match, ...]:
    seen: set[tuple[int, int, int, int]] = set()
    out = []
    for m in ms:
        k = (m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
        if k not in seen:
            seen.add(k)
            out.append(m)
    return tuple(out)


def stage_steps(result: MeteorResult, meteor: Meteor) -> tuple[StageStep, ...]:
    """Every enabled stage's candidates on the winning pair (all stages run, as Meteor 1.5's do).

    For the greedy (NLTK) aligner, stages are run through :meth:`Meteor.candidates`
    too; NLTK's own matching is greedy per stage and its choice is ``result.matches``.
    """
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
    """Indices of the candidates Meteor 1.5's beam aligner fixes before searching.

    A candidate is *definite* when it is the only one starting at its reference
    position and no other candidate touches any of its words (on either side);
    ``meteor.aligners.beam`` (Aligner.java:199-218). Duplicates count as others.
    """
    starts: dict[int, int] = {}
    cov_h = [0] * n_hyp
    cov_r = [0] * n_ref
    for m in candidates:
        starts[m.ref.start] = starts.get(m.ref.start, 0) + 1
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


def _default_fmt(x: float) -> str:
    return "\\text{NaN}" if math.isnan(x) else f"{x:.4f}"


def _tex(fmt: Fmt, x: float) -> str:
    if math.isnan(x):
        return "\\text{NaN}"
    if math.isinf(x):
        return "\\infty"
    return fmt(x).replace(",", "{,}")  # a decimal comma must not become a LaTeX space


def formula_lines(
    stats: Stats, bd: Breakdown, params: Params, fmt: Fmt = _default_fmt
) -> tuple[FormulaLine, ...]:
    """The METEOR formula step by step, with this pair's numbers (from :class:`Breakdown`).

    Keys: ``len_hyp``, ``len_ref``, ``m_hyp``, ``m_ref``, ``precision``, ``recall``,
    ``fmean``, ``frag``, ``penalty``, ``score``.
    """

    def n(x: float) -> str:
        return _tex(fmt, x)

    return (
        *_length_lines(stats, bd, params, n),
        *_match_lines(stats, bd, params, n),
        *_ratio_lines(stats, bd, params, n),
    )


def _length_lines(
    stats: Stats, bd: Breakdown, params: Params, n: Callable[[float], str]
) -> list[FormulaLine]:
    """``len_hyp``, ``len_ref``: the lengths weighted by δ (content) and 1 − δ (function words)."""
    d = params.delta
    return [
        FormulaLine(
            f"len_{side}",
            f"L_{{\\text{{{side}}}}} = \\delta\\,(n - f) + (1-\\delta)\\,f",
            f"L_{{\\text{{{side}}}}} = {n(d)}\\cdot({length} - {fw})"
            f" + {n(1 - d)}\\cdot {fw} = {n(weighted)}",
        )
        for side, length, fw, weighted in (
            ("hyp", stats.hyp_len, stats.hyp_function_words, bd.hyp_weighted_len),
            ("ref", stats.ref_len, stats.ref_function_words, bd.ref_weighted_len),
        )
    ]


def _match_lines(
    stats: Stats, bd: Breakdown, params: Params, n: Callable[[float], str]
) -> list[FormulaLine]:
    """``m_hyp``, ``m_ref``: the matches weighted per stage (stages that matched nothing on
    a side add 0 and are left out)."""
    d = params.delta
    mods = params.modules
    idx = {m: module_slot(m) for m in mods}
    hc, rc, hf, rf = stats.per_module(max(idx.values()) + 1)
    lines: list[FormulaLine] = []
    for side, content, function, weighted in (
        ("hyp", hc, hf, bd.hyp_weighted_matches),
        ("ref", rc, rf, bd.ref_weighted_matches),
    ):
        terms = [
            f"{n(params.weight(m))}\\cdot({n(d)}\\cdot {content[idx[m]]}"
            f" + {n(1 - d)}\\cdot {function[idx[m]]})"
            for m in mods
            if content[idx[m]] or function[idx[m]]
        ] or ["0"]
        lines.append(
            FormulaLine(
                f"m_{side}",
                f"M_{{\\text{{{side}}}}} = \\sum_{{\\text{{stage}}}} w\\,"
                "(\\delta\\,m_{\\text{content}} + (1-\\delta)\\,m_{\\text{function}})",
                f"M_{{\\text{{{side}}}}} = " + " + ".join(terms) + f" = {n(weighted)}",
            )
        )
    return lines


def _ratio_lines(
    stats: Stats, bd: Breakdown, params: Params, n: Callable[[float], str]
) -> list[FormulaLine]:
    """``precision``, ``recall``, ``fmean``, ``frag``, ``penalty``, ``score``."""
    a, b, g = params.alpha, params.beta, params.gamma
    perfect = params.perfect_rule and stats.is_perfect
    return [
        FormulaLine(
            "precision",
            "P = M_{\\text{hyp}} / L_{\\text{hyp}}",
            f"P = {n(bd.hyp_weighted_matches)} / {n(bd.hyp_weighted_len)} = {n(bd.precision)}",
        ),
        FormulaLine(
            "recall",
            "R = M_{\\text{ref}} / L_{\\text{ref}}",
            f"R = {n(bd.ref_weighted_matches)} / {n(bd.ref_weighted_len)} = {n(bd.recall)}",
        ),
        FormulaLine(
            "fmean",
            "F_{\\text{mean}} = \\frac{P\\,R}{\\alpha P + (1-\\alpha) R}",
            f"F_{{\\text{{mean}}}} = \\frac{{{n(bd.precision)}\\cdot {n(bd.recall)}}}"
            f"{{{n(a)}\\cdot {n(bd.precision)} + {n(1 - a)}\\cdot {n(bd.recall)}}}"
            f" = {n(bd.fmean)}",
        ),
        FormulaLine(
            "frag",
            "\\text{frag} = \\frac{\\text{chunks}}{(m_{\\text{hyp}} + m_{\\text{ref}})/2}",
            f"\\text{{frag}} = \\frac{{{stats.chunks}}}"
            f"{{({stats.hyp_word_matches} + {stats.ref_word_matches})/2}}"
            f" = {n(bd.frag)}" + ("\\quad(\\text{perfect match: frag} = 0)" if perfect else ""),
        ),
        FormulaLine(
            "penalty",
            "\\text{Pen} = \\gamma \\cdot \\text{frag}^{\\beta}",
            f"\\text{{Pen}} = {n(g)}\\cdot {n(bd.frag)}^{{{n(b)}}} = {n(bd.penalty)}",
        ),
        FormulaLine(
            "score",
            "\\text{METEOR} = F_{\\text{mean}} \\cdot (1 - \\text{Pen})",
            f"\\text{{METEOR}} = {n(bd.fmean)}\\cdot(1 - {n(bd.penalty)}) = {n(bd.score)}",
        ),
    ]
