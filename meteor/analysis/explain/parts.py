"""Why a segment got its score: what-if losses, near misses, formulas with numbers.

Everything here re-scores *modified statistics* (or modified alignments) with the engine's
own :func:`meteor.scoring.compute`, so every number under "why this score" comes from the
same formula as the score itself.  Comparing settings is
:mod:`meteor.analysis.compare_settings`; the stage-by-stage walkthrough is
:mod:`meteor.analysis.explain.walkthrough`.  No Streamlit and no plotly here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from meteor.analysis.explain.why_unmatched import stats_with, why_not_chosen
from meteor.errors import ResourceError
from meteor.metric import Meteor
from meteor.params import DEFAULT_ALIGNER, ParamError, Params, stage_weight
from meteor.presets import PRESETS
from meteor.scoring import compute
from meteor.types import (
    MODULE_ORDER,
    Match,
    MeteorResult,
    Module,
    Span,
    Stats,
    module_slot,
)

__all__ = [
    "ChunkBreak",
    "NearMiss",
    "WaterfallStep",
    "TokenRow",
    "WordCost",
    "chunk_break_costs",
    "near_misses",
    "span_label",
    "token_table",
    "unmatched_costs",
    "waterfall",
]

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


def _trim(s: Stats, side: str) -> Stats:
    """The statistics with the unmatched words of ``side`` (``hyp`` or ``ref``) removed (that
    side is then perfect)."""
    if side == "hyp":
        return replace(
            s, hyp_len=s.hyp_word_matches, hyp_function_words=sum(s.hyp_function_matches)
        )
    return replace(s, ref_len=s.ref_word_matches, ref_function_words=sum(s.ref_function_matches))


def span_label(span: Span) -> str:
    """Token positions for people, numbered from 1 as every table and hover of the app:
    ``"5"`` for one token (index 4), ``"5–6"`` for a phrase (inclusive)."""
    first, last = span.start + 1, span.end
    return str(first) if len(span) == 1 else f"{first}–{last}"


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
    return tuple(
        TokenRow(side, i, tk.text, text[tk.start : tk.end], tk.start, tk.end,
                 tk.function_word, by.get(i))
        for side, toks, text, by in (("hyp", al.hyp, result.hyp, by_h), ("ref", al.ref, ref_text, by_r))
        for i, tk in enumerate(toks)
    )  # fmt: skip


# -- waterfall ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WaterfallStep:
    """One bar of the waterfall: ``value`` is the level (first/last) or the signed change."""

    key: str
    value: float
    level: float  # the running total after this step


def waterfall(stats: Stats, params: Params) -> tuple[WaterfallStep, ...]:
    """From the ideal (1.0, a perfect match) down to the score, one loss at a time.

    * unmatched words: the Fmean lost because some words have no match, with
      every stage weight set to 1; split between the two sides by the Shapley
      value (average over both orders of "fix the hypothesis side" and "fix
      the reference side"), so neither side is favoured;
    * partial credit: what the stage weights below 1 (stem 0.6, …) cost;
    * fragmentation: ``Fmean · penalty``.

    The losses sum to ``ideal − score`` exactly (up to rounding). With no match at
    all nothing can be attributed by re-scoring, and the loss is split evenly
    between the two sides -- unless a side is empty: words it does not have cost
    nothing, so the other side carries the whole loss, and with both sides empty
    there is no word to match and the ideal itself is 0.
    """
    bd = compute(stats, params)
    fmean = _finite(bd.fmean)
    unit = params.replace(weights=tuple((m, 1.0) for m in params.modules))
    f_all = _finite(compute(stats, unit).fmean)
    ideal = 1.0
    if stats.hyp_len == 0 and stats.ref_len == 0:
        ideal = loss_hyp = loss_ref = 0.0
    elif stats.hyp_len == 0:
        loss_hyp, loss_ref = 0.0, 1.0 - f_all
    elif stats.ref_len == 0:
        loss_hyp, loss_ref = 1.0 - f_all, 0.0
    elif stats.hyp_word_matches == 0 or stats.ref_word_matches == 0:
        loss_hyp = loss_ref = (1.0 - f_all) / 2
    else:
        f_hyp_only = _finite(compute(_trim(stats, "ref"), unit).fmean)  # R = 1
        f_ref_only = _finite(compute(_trim(stats, "hyp"), unit).fmean)  # P = 1
        loss_hyp = ((1.0 - f_hyp_only) + (f_ref_only - f_all)) / 2
        loss_ref = ((1.0 - f_ref_only) + (f_hyp_only - f_all)) / 2
    partial = f_all - fmean
    frag = fmean - bd.score
    steps = [WaterfallStep("ideal", ideal, ideal)]
    level = ideal
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


def _add_one(stats: Stats, side: str, function: bool, module: Module) -> Stats:
    k = module_slot(module)
    name = f"{side}_{'function' if function else 'content'}_matches"
    vec = list(getattr(stats, name))
    vec += [0] * (k + 1 - len(vec))  # a registered stage's slot the stats lack yet
    vec[k] += 1
    count = f"{side}_word_matches"
    changes = {name: tuple(vec), count: getattr(stats, count) + 1, "chunks": max(stats.chunks, 1)}
    return replace(stats, **changes)  # type: ignore[arg-type]


def unmatched_costs(result: MeteorResult, params: Params) -> tuple[WordCost, ...]:
    """For every unmatched word: the score if it were matched by the best enabled stage.

    The word is counted as matched on its own side only (precision for a
    hypothesis word, recall for a reference word) and as extending an existing
    chunk (the chunk count does not grow). Sorted by gain, largest first.
    """
    module = (
        Module.EXACT if Module.EXACT in params.modules else max(params.modules, key=params.weight)
    )
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
    """Each break between consecutive chunks, with the words on either side, and the score
    with one chunk fewer (the same for every break: the penalty counts chunks only)."""
    chunks = result.alignment.chunks
    if len(chunks) < 2:
        return ()
    joined = compute(replace(result.stats, chunks=result.stats.chunks - 1), params).score
    hw, rw = result.alignment.hyp_words, result.alignment.ref_words
    return tuple(
        ChunkBreak(
            a.index,
            hw[a.hyp.end - 1],
            hw[b.hyp.start],
            rw[a.ref.end - 1],
            rw[b.ref.start],
            joined,
            joined - result.score,
        )
        for a, b in zip(chunks, chunks[1:], strict=False)
    )


# -- near misses -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Unmatched words that some stage would match.

    ``reason``: one of :data:`meteor.analysis.explain.why_unmatched.REASONS`; ``presets``:
    the presets of the language that run that stage (with that stemmer).
    """

    match: Match
    reason: str
    stemmer: str
    weight: float
    presets: tuple[str, ...]
    score_if_added: float
    gain: float


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

    The candidates of every stage the language offers (and every other stemmer) on the
    winning reference's tokens whose words are all unmatched, each re-scored added to the
    alignment (chunks recounted) with the stage's weight (the language's default for a stage
    not enabled); stages whose resources are missing are skipped.  Sorted by gain.
    """
    params = meteor.params
    al = result.alignment
    used_h = {i for m in al.matches for i in m.hyp}
    used_r = {j for m in al.matches for j in m.ref}
    hyp_w, ref_w = list(al.hyp_words), list(al.ref_words)
    if not hyp_w or not ref_w or (len(used_h) == len(hyp_w) or len(used_r) == len(ref_w)):
        return ()

    found: dict[tuple[str, int, int, int, int], NearMiss] = {}

    def add(m: Match, reason: str, stemmer: str, weight: float) -> None:
        key = (m.module.value, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end)
        if key in found or set(m.hyp) & used_h or set(m.ref) & used_r:  # a word matched already
            return
        mods = params.modules if m.module in params.modules else (*params.modules, m.module)
        # only p's scoring weights are used; Meteor 1.5's aligner stands in for n:m
        # paraphrase spans, which a one-word aligner would refuse
        aligner = DEFAULT_ALIGNER if m.module is Module.PARAPHRASE else params.aligner
        p = params.replace(
            modules=mods,
            weights=tuple((x, params.weight(x) if x in params.modules else weight) for x in mods),
            aligner=aligner,
        )
        s = compute(stats_with(result, m), p).score
        presets = _presets_running(params.lang, m.module, stemmer)
        found[key] = NearMiss(m, reason, stemmer, weight, presets, s, s - result.score)

    for m in result.candidates:
        add(m, why_not_chosen(m, result, params), params.stemmer, params.weight(m.module))
    lang = meteor.lang
    off = [m for m in MODULE_ORDER if m in lang.modules and m not in params.modules]
    configs: list[tuple[tuple[Module, ...], str, str]] = []
    if off:
        configs.append((tuple(off), params.stemmer, "stage_off"))
    if params.aligner == "greedy":  # its own stem/synonym rules: what Meteor 1.5's propose
        own = tuple(m for m in (Module.STEM, Module.SYNONYM) if m in params.modules)
        configs.append((own, params.stemmer, "matcher"))
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
                        embedding_threshold=_embedding_threshold(params),
                    )
                )
                stages = other.candidates(hyp_w, ref_w)
            except (ResourceError, ParamError, ValueError, ImportError):
                continue
            w = stage_weight(mod, params, *_lang_presets(params.lang))
            for m in stages[0]:
                add(m, reason, stemmer, w)
    return tuple(sorted(found.values(), key=lambda n: (-n.gain, n.match.ref.start)))


def _embedding_threshold(params: Params) -> float:
    """The cosine threshold a near miss of the embedding stage is judged by: the
    settings' own when they run the stage, else the first preset of the language that
    runs it (``ru`` for Russian), else the settings' value."""
    for p in (params, *_lang_presets(params.lang)):
        if Module.EMBEDDING in p.modules:
            return p.embedding_threshold
    return params.embedding_threshold
