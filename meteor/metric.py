"""The facade: text in, full record out.

``Meteor(preset=...)`` tokenises, proposes candidates stage by stage, aligns with
the preset's aligner, counts the sufficient statistics and applies the formula.
A sentence is a corpus of one: :meth:`Meteor.corpus_score` sums the segment
statistics and applies the same formula once (Meteor 1.5 ``MeteorStats.addStats``).
Several references: each is scored, the highest score wins and the first
reference wins ties (MeteorScorer.java:207-229).
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from operator import itemgetter
from typing import Any

from meteor import batch
from meteor.aligners.base import (
    CANDIDATE_LIMIT_ENV,
    MAX_CANDIDATES,
    Aligner,
    ScorerParts,
    get_aligner,
)
from meteor.languages import Language, ResourceError, canonical_code, get_language
from meteor.memo import ByteBoundedMemo
from meteor.params import ParamError, Params
from meteor.presets import DEFAULT_PRESET, get_preset, load_preset_file, parse_preset_file
from meteor.runtime import Progress, candidate_limit_env, check_environment, gc_paused
from meteor.scoring import Breakdown, compute, stats_from_raw
from meteor.signatures import settings_signature
from meteor.stages.base import (
    Candidate,
    CandidateLimitError,
    MatchContext,
    Sentence,
    Stage,
)
from meteor.stages.registry import get_stage, propose_all, propose_all_raw, stage_names
from meteor.text import normalize, records
from meteor.types import (
    Alignment,
    CorpusResult,
    Match,
    MeteorResult,
    Stats,
    Token,
    chunk_matches,
    matches_of,
)

__all__ = ["Meteor", "Progress", "resolve_params"]


#: Longest input (characters per side) accepted; longer text is an error, not a hang.
MAX_CHARS = 200_000
#: Most tokens per side the aligners are asked to handle.
MAX_TOKENS = 5_000
#: From this many hypothesis × reference words on, :meth:`Meteor.score` pauses the cyclic
#: garbage collector for the pair (:func:`meteor.runtime.gc_paused`): a long pair makes
#: millions of short-lived objects and no cycles (13 % of a 2,300-word document's time).
GC_PAUSE_WORD_PAIRS = 200 * 200
#: The same from this many hypothesis × reference characters on, decided before
#: tokenising, so that a long pair's tokens and sentence work are made under the pause too.
GC_PAUSE_CHAR_PAIRS = 1_200 * 1_200
#: Words whose function-word flag a scorer remembers (about 0.6 MB when full).
FUNCTION_WORD_MEMO = 16384
#: Estimated bytes of a memoised tokenisation: per token, per character of the text.
TOKEN_BYTES, CHAR_BYTES = 130, 2
#: Estimated bytes of a memoised :class:`~meteor.stages.base.Sentence` per word, once the
#: stages have filled it (about 650 on WMT21 ru-en with all of Meteor 1.5's stages).
_SENTENCE_WORD_BYTES = 700
_SURROGATE = re.compile("[\ud800-\udfff]")
_SHARED_CACHES: dict[tuple[Any, ...], ByteBoundedMemo] = {}
_SHARED_LOCK = threading.Lock()


def _shared_cache(kind: str, *settings: Any) -> ByteBoundedMemo:
    """The process-wide memo of ``kind`` for scorers whose ``settings`` (every parameter
    the memoised work depends on) are equal; all share :data:`meteor.memo.MAX_BYTES`."""
    with _SHARED_LOCK:
        memo = _SHARED_CACHES.get((kind, *settings))
        if memo is None:
            memo = _SHARED_CACHES[(kind, *settings)] = ByteBoundedMemo()
        return memo


def resolve_params(
    preset: str | None = None,
    params: Params | None = None,
    lang: str | None = None,
    **overrides: Any,
) -> tuple[Params, str | None]:
    """Combine a preset (or explicit params) with overrides; return (params, preset name)."""
    if params is not None and preset is not None:
        raise ParamError("give either preset or params, not both")
    if isinstance(preset, Params):
        raise ParamError("preset is a preset's name such as 'hf'; pass a Params as params=")
    if params is not None and not isinstance(params, Params):
        raise ParamError(
            f"params must be a meteor.Params (e.g. meteor.get_preset('hf').params), got "
            f"{type(params).__name__}; a preset's name goes in preset="
        )
    name: str | None = None
    if lang is not None:
        lang = canonical_code(lang)  # Meteor 1.5's names too (cz, se, german)
    if params is None:
        if preset is None:
            preset = DEFAULT_PRESET.get(lang or "en")
            if preset is None:
                raise ParamError(f"no default preset for language {lang!r}")
        base = get_preset(preset)
        name = base.name
        params = base.params
        if lang is not None and lang != params.lang:
            raise ParamError(
                f"preset {name!r} is for language {params.lang!r}, not {lang!r}; "
                "choose a preset of that language or leave the language out"
            )
    elif lang is not None and lang != params.lang:
        params = params.replace(lang=lang)
    if overrides:
        params = params.replace(**overrides)
        if name is not None and params != get_preset(name).params:
            name = f"{name}+custom"
    return params, name


class Meteor:
    """A configured scorer.  Cheap to build; language resources are shared per process."""

    def __init__(
        self,
        preset: str | None = None,
        *,
        params: Params | None = None,
        lang: str | None = None,
        preset_file: str | os.PathLike[str] | bytes | None = None,
        allow_edited: bool = False,
        **overrides: Any,
    ) -> None:
        check_environment()  # a bad METEOR_* value: one message, before anything loads
        if preset_file is not None:  # a tuned preset (`meteor tune --out`): its own name
            if preset is not None or params is not None:
                raise ParamError("give either preset_file or a preset/params, not both")
            if isinstance(preset_file, bytes):  # the file's content (an upload)
                where = "preset file"
                loaded = parse_preset_file(preset_file, allow_edited=allow_edited)
            else:
                where = f"preset file {os.fspath(preset_file)}"
                loaded = load_preset_file(preset_file, allow_edited=allow_edited)
            if lang is not None and canonical_code(lang) != loaded.params.lang:
                raise ParamError(
                    f"{where} is for language {loaded.params.lang!r}, not "
                    f"{canonical_code(lang)!r}: the file sets the language; leave the "
                    "language out, or tune a preset file for that language"
                )
            self.params, _ = resolve_params(None, loaded.params, None, **overrides)
            changed = self.params != loaded.params
            self.preset: str | None = loaded.name + ("+custom" if changed else "")
            try:
                self._set_up()
            except (ParamError, ResourceError) as exc:  # what in the file cannot run here
                raise type(exc)(f"{where}: {exc}") from None
        else:
            self.params, self.preset = resolve_params(preset, params, lang, **overrides)
            self._set_up()

    def _set_up(self) -> None:
        """The aligner, language, stages and caches of :attr:`params` (refused with a
        message naming the field when they cannot run here, before anything is loaded)."""
        p = self.params
        self.aligner: Aligner = get_aligner(p.aligner)
        self.aligner.check_params(p)
        self.lang: Language = get_language(p.lang)
        self._stages: tuple[Stage, ...] = tuple(get_stage(m) for m in p.modules)
        self._check_stages()
        self.aligner.check(p, self.lang)
        self._function_word: Callable[[str], bool] = records.FunctionWordMemo(
            functools.partial(_function_word, self._pick_function_words()), FUNCTION_WORD_MEMO
        )
        self._signatures: dict[int, str] = {}
        self._loaded: dict[str, Any] = {}  # the aligner's resources (_aligner_resources)
        # Shared by every scorer that tokenises (and matches) alike: the app builds a
        # scorer per setting.
        self._jar_text = jar_text(p)
        self._tok_cache = _shared_cache(
            "tokens", p.lang, p.norm, p.tokenizer, p.no_punct, p.function_words, self._jar_text
        )
        self._sent_cache = _shared_cache("sentences", *Sentence.settings(p))
        parts = ScorerParts(self._sentence, self.candidate_limit, self._aligner_resources)
        self._pair = self.aligner.corpus_pair(p, self.lang, parts)

    # -- resources ------------------------------------------------------
    def _check_stages(self) -> None:
        """Every stage of the params runs on the language, or a message says why not."""
        missing = [s for s in self._stages if not s.available(self.lang)]
        hint = missing[0].resource_hint(self.lang) if len(missing) == 1 else None
        if hint:
            raise ResourceError(hint)
        if missing:
            offered = [name for name in stage_names() if get_stage(name).available(self.lang)]
            raise ParamError(
                f"modules: {', '.join(s.name for s in missing)} not available for language "
                f"{self.params.lang!r} (available: {', '.join(sorted(offered))})"
            )
        for stage in self._stages:
            stage.validate(self.lang, self.params)

    def _pick_function_words(self) -> Language:
        """The language weighing with ``params.function_words`` (ParamError when it lacks it)."""
        p = self.params
        lang = self.lang.with_function_words(p.function_words)
        if p.delta != 0.5:  # with δ = 0.5 function words change nothing
            try:
                lang.is_function_word("the")
            except ResourceError as exc:
                raise ResourceError(f"{exc} (needed because delta = {p.delta} ≠ 0.5)") from exc
        return lang

    def _load(self, label: str, load: Callable[[], Any], progress: Progress | None = None) -> None:
        """Keep ``load()`` under ``label`` (an aligner's load step; no progress of its own)."""
        self._loaded[label] = load()

    def _aligner_resources(self) -> dict[str, Any]:
        """What the aligner's load steps gave, by label: loaded once per scorer, on first
        use if :meth:`prepare` was not called."""
        steps = self.aligner.prepare(self.params)
        if len(self._loaded) < len(steps):
            for label, load in steps:
                if label not in self._loaded:
                    self._load(label, load)
        return self._loaded

    def prepare(self, progress: Progress | None = None) -> None:
        """Load every resource the preset needs now (with a progress callback), not lazily."""
        p = self.params
        steps: list[tuple[str, Callable[[Progress | None], Any]]] = []
        if self.aligner.uses_stages:  # an aligner that proposes its own matches needs none
            for stage in self._stages:
                if stage.resource:
                    steps.append((stage.resource, functools.partial(stage.prepare, self.lang, p)))
        for label, load in self.aligner.prepare(p):
            steps.append((label, functools.partial(self._load, label, load)))
        steps.append(("function words", lambda _: self._function_word("the")))
        total = len(steps)
        for k, (label, fn) in enumerate(steps):
            if progress:
                progress(k / total, f"loading {label}")

            def sub(frac: float, msg: str, k: int = k) -> None:
                if progress:
                    progress((k + frac) / total, msg)

            fn(sub)
        if progress:
            progress(1.0, "ready")

    # -- pieces -----------------------------------------------------------
    def tokenize(self, text: str, *, what: str = "the text") -> tuple[Token, ...]:
        """Tokens (with offsets into ``text``) as this preset's normaliser gives them (memoised).

        Raises:
            TypeError: ``text`` is not a string.
            ValueError: more than :data:`MAX_CHARS` characters or :data:`MAX_TOKENS`
                tokens, or a lone surrogate; the message calls the text ``what``.
        """
        cached = self._tok_cache.get(text) if isinstance(text, str) else None
        if cached is not None:
            return cached
        _check_text(text, what)
        p = self.params
        common: dict[str, Any] = {"no_punct": p.no_punct, "function_word": self._function_word}
        if p.tokenizer in ("whitespace", "nltk"):  # nltk keeps control characters
            from meteor.text.tokenize_nltk import tokens as nltk_tokens

            toks = nltk_tokens(text, p.tokenizer, lower=p.norm != "none", **common)
        elif p.tokenizer == "razdel":
            from meteor.text.tokenize_ru import razdel_tokens

            toks = razdel_tokens(normalize.sanitize(text)[0], lower=p.norm != "none", **common)
        else:
            line = normalize.jar_line(text) if self._jar_text else normalize.sanitize(text)[0]
            toks = normalize.tokenize(line, p.lang, p.norm, **common)
        if len(toks) > MAX_TOKENS:
            raise ValueError(
                f"{what} has {len(toks):,} tokens; at most {MAX_TOKENS:,} per segment are "
                "accepted -- split it into several segments"
            )
        self._tok_cache.put(text, toks, TOKEN_BYTES * len(toks) + CHAR_BYTES * len(text))
        return toks

    def _sentence(self, words: Sequence[str]) -> Sentence:
        """The cached per-sentence matcher work (references repeat across systems)."""
        key = tuple(words)
        sent = self._sent_cache.get(key)
        if sent is None:
            sent = Sentence(key, self.params, self.lang)
            self._sent_cache.put(key, sent, _SENTENCE_WORD_BYTES * (len(key) + 1))
        return sent

    def prefetch(self, texts: Iterable[str]) -> None:
        """Do the per-sentence work of many texts at once, ahead of scoring them
        (:meth:`Stage.prefetch`; purely a speed-up).  Texts that cannot be scored are
        skipped here (the error comes when they are scored).

        Raises:
            TypeError: ``texts`` is not an iterable of strings (one string is refused:
                it would be read as its characters).
        """
        if isinstance(texts, str | bytes) or not isinstance(texts, Iterable):
            raise TypeError(f"texts must be a list of strings, got {type(texts).__name__}")
        texts = list(texts)
        for k, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(f"texts[{k}] must be a string, got {type(text).__name__}")
        stages = [s for s in self._stages if s.prefetches]
        if not stages or not self.aligner.uses_stages:
            return
        sents: list[Sentence] = []
        for text in texts:
            try:
                sents.append(self._sentence([t.text for t in self.tokenize(text)]))
            except (TypeError, ValueError):
                continue
        for stage in stages:
            stage.prefetch(sents, self.lang)

    def _context(self, hyp: Sequence[str], ref: Sequence[str], limit: int) -> MatchContext:
        sides = (self._sentence(hyp), self._sentence(ref))
        return MatchContext(hyp, ref, self.params, self.lang, limit=limit, sentences=sides)

    def candidates(self, hyp: Sequence[str], ref: Sequence[str]) -> list[list[Match]]:
        """Every stage's candidates for two token lists, stage by stage (for teaching views).

        Raises:
            CandidateLimitError: more than :data:`MAX_CANDIDATES` (no aligner runs, so
                its own limit does not apply).
        """
        return propose_all(self._context(hyp, ref, MAX_CANDIDATES), self.params.modules)

    def candidate_limit(self) -> int:
        """Most candidate matches accepted per pair: the aligner's limit
        (:meth:`~meteor.aligners.base.Aligner.candidate_limit`), unless the environment
        variable ``METEOR_MAX_CANDIDATES`` (:data:`CANDIDATE_LIMIT_ENV`) replaces it."""
        env = candidate_limit_env()
        return env if env is not None else self.aligner.candidate_limit(self.params)

    def align(
        self, hyp: Sequence[str], ref: Sequence[str]
    ) -> tuple[tuple[Match, ...], tuple[Match, ...]]:
        """(chosen matches in the aligner's order, all candidates considered).

        Meteor 1.5's aligner gives reference order; an aligner that proposes its own
        candidates (nltk's) considered only what it chose.
        """
        ctx, flat, picked = self._align(hyp, ref)
        cands = matches_of(flat, ctx.hyp, ctx.ref)
        return tuple(cands[k] for k in picked), cands

    def _align(
        self, hyp: Sequence[str], ref: Sequence[str]
    ) -> tuple[MatchContext, list[Candidate], Sequence[int]]:
        """(the pair's context, every candidate as a tuple, the indices the aligner chose).

        The aligner's own candidates if it proposes them, otherwise those of the stages
        it asks for; the limit and its message are the aligner's.
        """
        p = self.params
        aligner = self.aligner
        if not aligner.uses_stages:  # no stage look-ups to share, no candidate limit
            ctx = MatchContext(hyp, ref, p, self.lang, resources=self._aligner_resources())
        else:
            ctx = self._context(hyp, ref, self.candidate_limit())
        stages = aligner.propose(ctx)
        if stages is None:
            modules = aligner.stage_modules(ctx, p.modules)
            try:
                stages = propose_all_raw(ctx, modules)
            except CandidateLimitError as exc:
                if os.environ.get(CANDIDATE_LIMIT_ENV, "").strip():
                    hint = f"the limit comes from the environment variable {CANDIDATE_LIMIT_ENV}"
                else:
                    hint = aligner.limit_hint(p, exc)
                raise CandidateLimitError(exc.found, exc.limit, exc.module, hint) from None
        flat = [c for stage in stages for c in stage]
        return ctx, flat, aligner.align(ctx, stages)

    def _score_tokens(
        self, hyp_t: tuple[Token, ...], ref_t: tuple[Token, ...], keep: bool
    ) -> tuple[Alignment, Stats, Breakdown, tuple[Match, ...]]:
        if not keep and self._pair is not None:  # a corpus run: the pair in one go
            pair = self._pair(hyp_t, ref_t)
            if pair is not None:
                packed, stats = pair
                alignment = Alignment.deferred_packed(hyp_t, ref_t, packed)
                return alignment, stats, compute(stats, self.params), ()
        ctx, flat, picked = self._align([t.text for t in hyp_t], [t.text for t in ref_t])
        raw = sorted([flat[k] for k in picked], key=itemgetter(3))  # reference order
        stats = stats_from_raw(
            raw, [t.function_word for t in hyp_t], [t.function_word for t in ref_t]
        )
        if keep:  # the chosen records are the candidates' own
            cands = matches_of(flat, ctx.hyp, ctx.ref)
            chosen = tuple(sorted((cands[k] for k in picked), key=lambda m: m.ref.start))
            alignment = Alignment(hyp_t, ref_t, chosen, chunk_matches(chosen))
        else:  # a corpus run: records of the matches and chunks only if they are read
            cands = ()
            alignment = Alignment.deferred(hyp_t, ref_t, tuple(raw))
        return alignment, stats, compute(stats, self.params), cands

    # -- public API --------------------------------------------------------
    def signature(self, nrefs: int = 1) -> str:
        sig = self._signatures.get(nrefs)
        if sig is None:  # a scorer's settings never change: computed once per nrefs
            sig = settings_signature(self.params, preset=self.preset, nrefs=nrefs)
            self._signatures[nrefs] = sig
        return sig

    def score(
        self, hyp: str, refs: str | Sequence[str], *, candidates: bool = True
    ) -> MeteorResult:
        """Score one hypothesis against one or more references.

        ``candidates=False`` leaves the record's candidate list empty.

        Raises:
            TypeError: when ``hyp`` is not a string or ``refs`` not a string/sequence of strings.
            ValueError: when there is no reference, a text is too long or holds a lone
                surrogate, or a pair has too many candidate matches
                (:class:`~meteor.stages.base.CandidateLimitError`, :meth:`candidate_limit`).
        """
        return self._score(hyp, refs, candidates, prefetch=True)

    def _score(
        self, hyp: str, refs: str | Sequence[str], candidates: bool, *, prefetch: bool
    ) -> MeteorResult:
        """:meth:`score`; ``prefetch=False`` when the caller has prefetched the texts."""
        ref_list = _ref_list(refs)
        long = isinstance(hyp, str) and len(hyp) * max(map(len, ref_list)) >= GC_PAUSE_CHAR_PAIRS
        with gc_paused() if long else nullcontext():  # tokens, sentence work: no cycles either
            hyp_t = self.tokenize(hyp, what="the hypothesis")
            if prefetch and any(s.prefetches for s in self._stages):
                self.prefetch([hyp, *ref_list])  # both sides' look-ups in one call
            best: tuple[Any, ...] | None = None
            best_score = -1.0
            best_idx = 0
            scores: list[float] = []
            for k, ref in enumerate(ref_list):
                ref_t = self.tokenize(
                    ref, what=f"reference {k + 1}" if len(ref_list) > 1 else "the reference"
                )
                long_pair = len(hyp_t) * len(ref_t) >= GC_PAUSE_WORD_PAIRS  # millions of objects
                with gc_paused() if long_pair else nullcontext():
                    out = self._score_tokens(hyp_t, ref_t, candidates)
                s = out[2].score
                scores.append(s)
                if s > best_score:  # strict: the first reference wins ties
                    best, best_score, best_idx = out, s, k
        assert best is not None
        alignment, stats, bd, cands = best
        return MeteorResult(
            hyp=hyp,
            refs=tuple(ref_list),
            alignment=alignment,
            stats=stats,
            breakdown=bd,
            best_ref_index=best_idx,
            ref_scores=tuple(scores),
            signature=self.signature(len(ref_list)),
            candidates=cands,
        )

    def breakdown(self, result: MeteorResult | CorpusResult) -> Breakdown:
        """Every intermediate of the formula for a result (weighted lengths and matches)."""
        return compute(result.stats, self.params)

    def corpus_score(
        self,
        hyps: Sequence[str],
        refs: Sequence[str] | Sequence[Sequence[str]],
        *,
        progress: Progress | None = None,
    ) -> CorpusResult:
        """Score a corpus: summed statistics (Meteor 1.5) and the mean of segment scores.

        ``refs``: one reference per segment, or one sequence of references per segment.
        """
        return batch.corpus_score(self, hyps, refs, progress=progress)

    def score_segments(
        self,
        hyps: Sequence[str],
        refs: Sequence[str] | Sequence[Sequence[str]],
        *,
        candidates: bool = True,
        progress: Progress | None = None,
        numbers: Sequence[int] | None = None,
    ) -> list[MeteorResult]:
        """One record per segment, in order (:func:`meteor.batch.score_segments`)."""
        return batch.score_segments(
            self, hyps, refs, candidates=candidates, progress=progress, numbers=numbers
        )

    def combine(self, segments: Iterable[MeteorResult]) -> CorpusResult:
        """Corpus result from already scored segments (:func:`meteor.batch.combine`)."""
        return batch.combine(self, segments)

    def clear_memos(self) -> None:
        """Empty this scorer's memos of tokens and sentence work (shared by every scorer
        of the process that tokenises and matches alike; results never depend on them)."""
        self._tok_cache.clear()
        self._sent_cache.clear()

    # -- the corpus runner's hooks (meteor.batch.Scorer) ---------------------------
    def _forget(self, text: str) -> None:
        """Drop a scored text's tokens and sentence work from the memos."""
        toks = self._tok_cache.get(text)
        if toks is not None:
            if self.aligner.uses_stages:  # a corpus run of nltk's aligner makes none
                self._sent_cache.discard(tuple(t.text for t in toks))
            self._tok_cache.discard(text)


def _function_word(lang: Language, word: str) -> bool:
    """``lang.is_function_word(word)``; ``False`` without the list (only reachable with
    δ = 0.5, where it changes no score: :meth:`Meteor._pick_function_words`)."""
    try:
        return bool(lang.is_function_word(word))
    except ResourceError:
        return False


def jar_text(params: Params) -> bool:
    """Whether ``params`` score text as the Meteor 1.5 jar reads it from a file (the
    jar's tokeniser and ``String.hashCode`` keys): control characters and a UTF-8
    byte-order mark are kept (:func:`meteor.text.normalize.jar_line`); otherwise C0
    controls become spaces (:func:`meteor.text.normalize.sanitize`).
    """
    return params.tokenizer == "meteor" and params.java_keys


def _check_text(text: Any, what: str) -> None:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise ValueError(
            f"{what} has {len(text):,} characters; at most {MAX_CHARS:,} per segment are accepted"
        )
    bad = None if text.isascii() else _SURROGATE.search(text)  # isascii: a flag, O(1)
    if bad is not None:  # only a Python string holds one; it cannot be printed or saved
        raise ValueError(
            f"{what} contains a lone surrogate code point (U+{ord(bad.group()):04X}) at "
            f"character {bad.start() + 1:,}, which is not valid Unicode text"
        )


def _ref_list(refs: str | Sequence[str]) -> list[str]:
    if isinstance(refs, str):
        return [refs]
    if not isinstance(refs, Sequence):
        raise TypeError("refs must be a string or a list of strings")
    out = list(refs)
    if not out:
        raise ValueError("at least one reference is needed")
    for k, r in enumerate(out):
        if not isinstance(r, str):
            raise TypeError(f"reference {k + 1} must be a string, got {type(r).__name__}")
    return out
