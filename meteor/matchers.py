"""Matching stages: each proposes *candidate* matches and records why.

Reproduces Meteor 1.5's matchers (``ExactMatcher``, ``StemMatcher``,
``SynonymMatcher``, ``ParaphraseMatcher``; ``meteor-1.5.md`` section 6): every
module proposes **all** its candidates, including words other modules already
matched; the aligner chooses.  Candidates come out in the order Meteor adds them
to its lattice: by reference position, then hypothesis position.

Words are compared through *keys*: Java ``String.hashCode`` when
``Params.java_keys`` is set (Meteor 1.5 compares hash codes with no collision
check, ``Stage.java:43-50``), the string itself otherwise.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from meteor.languages import Language
from meteor.params import Params
from meteor.types import Match, Module, Span

__all__ = ["CandidateLimitError", "MatchContext", "java_hash", "propose", "propose_all"]


class CandidateLimitError(ValueError):
    """A pair has more candidate matches than the caller's limit (:attr:`MatchContext.limit`).

    A word repeated n times on both sides alone gives n² candidates (5,000 copies of
    "the" would give 25 million), which no aligner can search in reasonable time and
    memory; the matchers stop as soon as a stage goes over the limit.
    """

    def __init__(self, found: int, limit: int, module: str, hint: str | None = None) -> None:
        tail = hint or "shorten the texts (split them into several segments)"
        super().__init__(
            f"this pair has at least {found:,} candidate matches (counted up to the {module} "
            f"stage), more than the {limit:,} accepted per hypothesis-reference pair -- "
            f"words or phrases repeated many times on both sides; {tail}"
        )
        self.found = found
        self.limit = limit
        self.module = module
        self.hint = hint

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (type(self), (self.found, self.limit, self.module, self.hint))


@functools.lru_cache(maxsize=500_000)
def java_hash(s: str) -> int:
    """Java ``String.hashCode``: 31-polynomial over UTF-16 code units, signed 32-bit."""
    h = 0
    b = s.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(b), 2):
        h = (31 * h + (b[i] | (b[i + 1] << 8))) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


class MatchContext:
    """Per-pair cache of keys, stems and synsets shared by the matchers."""

    def __init__(
        self,
        hyp: Sequence[str],
        ref: Sequence[str],
        params: Params,
        lang: Language,
        *,
        limit: int | None = None,
    ) -> None:
        #: Most candidates one stage, and all stages together, may propose (None: no limit).
        self.limit = limit
        self.hyp = list(hyp)
        self.ref = list(ref)
        self.params = params
        self.lang = lang
        fold = params.fold_yo
        self._prep: Callable[[str], str] = _fold_yo if fold else _identity
        key: Callable[[str], Hashable] = java_hash if params.java_keys else _identity
        self.key = key
        self.hyp_keys = [key(self._prep(w)) for w in self.hyp]
        self.ref_keys = [key(self._prep(w)) for w in self.ref]

    def check(self, found: int, module: Module) -> None:
        """Raise :class:`CandidateLimitError` when ``found`` candidates exceed the limit."""
        if self.limit is not None and found > self.limit:
            raise CandidateLimitError(found, self.limit, module.value)

    def stems(self, words: Sequence[str]) -> list[str]:
        st = self.params.stemmer
        return [self.lang.stem(self._prep(w), st) for w in words]


def _identity(s: str) -> str:
    return s


def _fold_yo(s: str) -> str:
    return s.replace("ё", "е").replace("Ё", "Е")


def _index(keys: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    idx: dict[Hashable, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        idx[k].append(i)
    return idx


def _one(module: Module, ctx: MatchContext, i: int, j: int, detail: str = "") -> Match:
    return Match(module, Span(i, i + 1), Span(j, j + 1), (ctx.hyp[i],), (ctx.ref[j],), detail)


def exact(ctx: MatchContext) -> list[Match]:
    """``ExactMatcher``: ``key(hyp_i) == key(ref_j)``."""
    by_key = _index(ctx.hyp_keys)
    out: list[Match] = []
    if ctx.limit is not None:  # count first: repeated words make n² candidates
        ctx.check(sum(len(by_key.get(k, ())) for k in ctx.ref_keys), Module.EXACT)
    for j, k in enumerate(ctx.ref_keys):
        for i in by_key.get(k, ()):
            out.append(_one(Module.EXACT, ctx, i, j))
    return out


def stem(ctx: MatchContext) -> list[Match]:
    """``StemMatcher``: equal stem keys and different word keys (case-sensitive)."""
    hs = ctx.stems(ctx.hyp)
    rs = ctx.stems(ctx.ref)
    by_key = _index([ctx.key(s) for s in hs])
    out: list[Match] = []
    for j, s in enumerate(rs):
        for i in by_key.get(ctx.key(s), ()):
            if ctx.hyp_keys[i] != ctx.ref_keys[j]:
                out.append(_one(Module.STEM, ctx, i, j, f"same stem “{s}”"))
        ctx.check(len(out), Module.STEM)  # per reference word: at most n_hyp over
    return out


def lemma(ctx: MatchContext) -> list[Match]:
    """Lemma stage (beyond Meteor 1.5): the sets of normal forms intersect, words differ."""
    prep = ctx._prep
    hl = [ctx.lang.lemmas(prep(w)) for w in ctx.hyp]
    rl = [ctx.lang.lemmas(prep(w)) for w in ctx.ref]
    by_lemma: dict[str, list[int]] = defaultdict(list)
    for i, ls in enumerate(hl):
        for lem in ls:
            by_lemma[lem].append(i)
    out: list[Match] = []
    for j, ls in enumerate(rl):
        hits: dict[int, str] = {}
        for lem in sorted(ls):
            for i in by_lemma.get(lem, ()):
                hits.setdefault(i, lem)
        for i in sorted(hits):
            if ctx.hyp_keys[i] != ctx.ref_keys[j]:
                out.append(_one(Module.LEMMA, ctx, i, j, f"same lemma “{hits[i]}”"))
        ctx.check(len(out), Module.LEMMA)
    return out


def synonym(ctx: MatchContext) -> list[Match]:
    """``SynonymMatcher``: the synonym sets intersect and the word keys differ."""
    prep = ctx._prep
    hsyn = [ctx.lang.synsets(prep(w)) for w in ctx.hyp]
    rsyn = [ctx.lang.synsets(prep(w)) for w in ctx.ref]
    by_set: dict[int, list[int]] = defaultdict(list)
    for i, ss in enumerate(hsyn):
        for s in ss:
            by_set[s].append(i)
    out: list[Match] = []
    src = ctx.lang.synonym_source().split(" (")[0]
    for j, ss in enumerate(rsyn):
        hits: dict[int, int] = {}
        for s in sorted(ss):
            for i in by_set.get(s, ()):
                hits.setdefault(i, s)
        for i in sorted(hits):
            if ctx.hyp_keys[i] != ctx.ref_keys[j]:
                out.append(_one(Module.SYNONYM, ctx, i, j, f"{src} synset {hits[i]:08d}"))
        ctx.check(len(out), Module.SYNONYM)
    return out


def paraphrase(ctx: MatchContext) -> list[Match]:
    """``ParaphraseMatcher``: n:m phrase pairs from the language's paraphrase table."""
    table = ctx.lang.paraphrases()
    out: list[Match] = []
    from meteor.paraphrase import CandidateOverflowError

    try:
        found = table.candidates(ctx.hyp, ctx.ref, limit=ctx.limit)
    except CandidateOverflowError as exc:  # counted before any candidate was built
        raise CandidateLimitError(exc.found, exc.limit, Module.PARAPHRASE.value) from None
    for hs, hl, rs, rl in found:
        out.append(
            Match(
                Module.PARAPHRASE,
                Span(hs, hs + hl),
                Span(rs, rs + rl),
                tuple(ctx.hyp[hs : hs + hl]),
                tuple(ctx.ref[rs : rs + rl]),
                "paraphrase table",
            )
        )
    return out


_MATCHERS: dict[Module, Callable[[MatchContext], list[Match]]] = {
    Module.EXACT: exact,
    Module.STEM: stem,
    Module.SYNONYM: synonym,
    Module.PARAPHRASE: paraphrase,
    Module.LEMMA: lemma,
}


def register_matcher(module: Module, fn: Callable[[MatchContext], list[Match]]) -> None:
    """Plug in a stage implemented elsewhere (e.g. the embedding stage)."""
    _MATCHERS[module] = fn


def propose(module: Module, ctx: MatchContext) -> list[Match]:
    """All candidates of one module, in Meteor 1.5's lattice order."""
    try:
        fn = _MATCHERS[module]
    except KeyError:
        raise ValueError(f"no matcher for module {module.value!r}") from None
    return fn(ctx)


def propose_all(ctx: MatchContext, modules: Sequence[Module]) -> list[list[Match]]:
    """Candidates per module, in the order of ``modules``.

    Raises:
        CandidateLimitError: one stage, or all of them together, proposed more than
            ``ctx.limit`` candidates.
    """
    out: list[list[Match]] = []
    total = 0
    for m in modules:
        stage = propose(m, ctx)
        total += len(stage)
        ctx.check(total, m)
        out.append(stage)
    return out
