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

from meteor.errors import CandidateLimitError as CandidateLimitError
from meteor.languages import Language
from meteor.params import Params
from meteor.rules import fold_yo
from meteor.types import Match, Module, Span

__all__ = [
    "Candidate",
    "CandidateLimitError",
    "MatchContext",
    "Sentence",
    "from_match",
    "java_hash",
    "propose",
    "propose_all",
    "propose_all_raw",
    "propose_raw",
    "to_match",
    "to_matches",
]


@functools.lru_cache(maxsize=500_000)
def java_hash(s: str) -> int:
    """Java ``String.hashCode``: 31-polynomial over UTF-16 code units, signed 32-bit."""
    h = 0
    b = s.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(b), 2):
        h = (31 * h + (b[i] | (b[i + 1] << 8))) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


#: A candidate as the matchers produce it and the aligners read it:
#: ``(module, hyp_start, hyp_end, ref_start, ref_end, detail, similarity)``.
#: :class:`~meteor.types.Match` records are built only for what a caller keeps
#: (:func:`to_match`): a corpus run needs records for the chosen matches alone.
Candidate = tuple[Module, int, int, int, int, str, float | None]


class Sentence:
    """What the matchers need of one tokenised sentence, computed once.

    Everything here depends on the sentence alone (and the scorer's params and
    language), never on the other side of the pair, so a scorer keeps one per
    distinct sentence: a reference shared by every system of a corpus is keyed,
    stemmed, looked up in WordNet and walked through the paraphrase trie once.
    Each piece is computed on first use.
    """

    __slots__ = (
        "_key_index",
        "_lang",
        "_lemma_index",
        "_lemmas",
        "_params",
        "_phrases",
        "_prep",
        "_stem_index",
        "_stem_keys",
        "_stems",
        "_syn",
        "_synset_index",
        "_with_syn",
        "keys",
        "words",
    )

    def __init__(self, words: Sequence[str], params: Params, lang: Language) -> None:
        self.words = list(words)
        self._params = params
        self._lang = lang
        self._prep: Callable[[str], str] = fold_yo if params.fold_yo else _identity
        key = _key_function(params)
        prep = self._prep
        #: Word keys (``Stage.java:43-50``: ``String.hashCode`` when ``java_keys``).
        self.keys: list[Hashable] = [key(prep(w)) for w in self.words]
        self._key_index: dict[Hashable, list[int]] | None = None
        self._stems: list[str] | None = None
        self._stem_keys: list[Hashable] | None = None
        self._stem_index: dict[Hashable, list[int]] | None = None
        self._syn: list[frozenset[int]] | None = None
        self._with_syn: list[tuple[int, frozenset[int]]] | None = None
        self._synset_index: dict[int, list[int]] | None = None
        self._lemmas: list[frozenset[str]] | None = None
        self._lemma_index: dict[str, list[int]] | None = None
        self._phrases: Any = None

    def key_index(self) -> dict[Hashable, list[int]]:
        """Word key -> positions (ascending)."""
        if self._key_index is None:
            self._key_index = _index(self.keys)
        return self._key_index

    def stems(self) -> list[str]:
        """Each word's stem under the params' stemmer (after ё folding)."""
        if self._stems is None:
            st = self._params.stemmer
            stem = self._lang.stem
            self._stems = [stem(self._prep(w), st) for w in self.words]
        return self._stems

    def stem_keys(self) -> list[Hashable]:
        """Keys of :meth:`stems` (compared like words, ``Stage.java``)."""
        if self._stem_keys is None:
            key = _key_function(self._params)
            self._stem_keys = [key(s) for s in self.stems()]
        return self._stem_keys

    def stem_index(self) -> dict[Hashable, list[int]]:
        """Stem key -> positions (ascending)."""
        if self._stem_index is None:
            self._stem_index = _index(self.stem_keys())
        return self._stem_index

    def synsets(self) -> list[frozenset[int]]:
        if self._syn is None:
            look = self._lang.synsets
            self._syn = [look(self._prep(w)) for w in self.words]
        return self._syn

    def with_synsets(self) -> list[tuple[int, frozenset[int]]]:
        """``(position, synsets)`` of the words that have any (ascending positions)."""
        if self._with_syn is None:
            self._with_syn = [(i, ss) for i, ss in enumerate(self.synsets()) if ss]
        return self._with_syn

    def synset_index(self) -> dict[int, list[int]]:
        """Synset -> positions of the words that have it (ascending)."""
        if self._synset_index is None:
            by_synset: dict[int, list[int]] = defaultdict(list)
            for i, ss in self.with_synsets():
                for off in ss:
                    by_synset[off].append(i)
            self._synset_index = dict(by_synset)
        return self._synset_index

    def lemmas(self) -> list[frozenset[str]]:
        if self._lemmas is None:
            look = self._lang.lemmas
            self._lemmas = [look(self._prep(w)) for w in self.words]
        return self._lemmas

    def lemma_index(self) -> dict[str, list[int]]:
        if self._lemma_index is None:
            by_lemma: dict[str, list[int]] = defaultdict(list)
            for i, ls in enumerate(self.lemmas()):
                for lem in ls:
                    by_lemma[lem].append(i)
            self._lemma_index = dict(by_lemma)
        return self._lemma_index

    def phrases(self, table: Any) -> Any:
        """The paraphrase table's view of the sentence (:meth:`ParaphraseTable.phrases`)."""
        if self._phrases is None:
            self._phrases = table.phrases(self.words)
        return self._phrases

    def has_phrases(self) -> bool:
        return self._phrases is not None

    def set_phrases(self, phrases: Any) -> None:
        """Store :meth:`phrases` computed for many sentences at once (``phrases_many``)."""
        self._phrases = phrases


def _key_function(params: Params) -> Callable[[str], Hashable]:
    return java_hash if params.java_keys else _identity


class MatchContext:
    """One hypothesis-reference pair as the matchers see it.

    ``sentences`` passes the two sides' :class:`Sentence` objects when the caller
    caches them (the scorer does); otherwise they are made here.
    """

    def __init__(
        self,
        hyp: Sequence[str],
        ref: Sequence[str],
        params: Params,
        lang: Language,
        *,
        limit: int | None = None,
        sentences: tuple[Sentence, Sentence] | None = None,
    ) -> None:
        #: Most candidates one stage, and all stages together, may propose (None: no limit).
        self.limit = limit
        self.params = params
        self.lang = lang
        if sentences is None:
            sentences = (Sentence(hyp, params, lang), Sentence(ref, params, lang))
        self.hs, self.rs = sentences
        self.hyp = self.hs.words
        self.ref = self.rs.words
        self.hyp_keys = self.hs.keys
        self.ref_keys = self.rs.keys

    def check(self, found: int, module: Module) -> None:
        """Raise :class:`CandidateLimitError` when ``found`` candidates exceed the limit."""
        if self.limit is not None and found > self.limit:
            raise CandidateLimitError(found, self.limit, module.value)


def _identity(s: str) -> str:
    return s


def _index(keys: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    idx: dict[Hashable, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        idx[k].append(i)
    return dict(idx)


def exact(ctx: MatchContext) -> list[Candidate]:
    """``ExactMatcher``: ``key(hyp_i) == key(ref_j)``."""
    by_key = ctx.hs.key_index()
    if ctx.limit is not None:  # count first: repeated words make n² candidates
        ctx.check(sum(len(by_key.get(k, ())) for k in ctx.ref_keys), Module.EXACT)
    ex = Module.EXACT
    return [
        (ex, i, i + 1, j, j + 1, "", None)
        for j, k in enumerate(ctx.ref_keys)
        for i in by_key.get(k, ())
    ]


def stem(ctx: MatchContext) -> list[Candidate]:
    """``StemMatcher``: equal stem keys and different word keys (case-sensitive)."""
    by_key = ctx.hs.stem_index()
    hk, rk = ctx.hyp_keys, ctx.ref_keys
    out: list[Candidate] = []
    rstems = ctx.rs.stems()
    for j, sk in enumerate(ctx.rs.stem_keys() if by_key else ()):
        for i in by_key.get(sk, ()):
            if hk[i] != rk[j]:
                out.append((Module.STEM, i, i + 1, j, j + 1, f"same stem “{rstems[j]}”", None))
        ctx.check(len(out), Module.STEM)  # per reference word: at most n_hyp over
    return out


def lemma(ctx: MatchContext) -> list[Candidate]:
    """Lemma stage (beyond Meteor 1.5): the sets of normal forms intersect, words differ."""
    by_lemma = ctx.hs.lemma_index()
    hk, rk = ctx.hyp_keys, ctx.ref_keys
    out: list[Candidate] = []
    for j, ls in enumerate(ctx.rs.lemmas() if by_lemma else ()):
        hits: dict[int, str] = {}
        for lem in sorted(ls):
            for i in by_lemma.get(lem, ()):
                hits.setdefault(i, lem)
        for i in sorted(hits):
            if hk[i] != rk[j]:
                out.append((Module.LEMMA, i, i + 1, j, j + 1, f"same lemma “{hits[i]}”", None))
        ctx.check(len(out), Module.LEMMA)
    return out


def synonym(ctx: MatchContext) -> list[Candidate]:
    """``SynonymMatcher``: the synonym sets intersect and the word keys differ.

    ``detail`` names the smallest shared synset.  Long pairs look the reference's
    synsets up in an index of the hypothesis's (:meth:`Sentence.synset_index`)
    instead of comparing every pair of words; both give the same candidates.
    """
    hyp = ctx.hs.with_synsets()
    if not hyp:
        return []
    refs = ctx.rs.with_synsets()
    if len(hyp) * len(refs) > _SYNONYM_INDEX_PAIRS:
        return _synonym_indexed(ctx, refs)
    hk, rk = ctx.hyp_keys, ctx.ref_keys
    out: list[Candidate] = []
    src = ""
    syn = Module.SYNONYM
    for j, ss in refs:
        key = rk[j]
        for i, hs in hyp:
            if not ss.isdisjoint(hs) and hk[i] != key:
                src = src or ctx.lang.synonym_source().split(" (")[0]
                out.append((syn, i, i + 1, j, j + 1, f"{src} synset {min(ss & hs):08d}", None))
        ctx.check(len(out), syn)
    return out


#: Above this many (hypothesis word × reference word) pairs with synsets, the synonym
#: stage looks synsets up in an index instead of comparing every pair.
_SYNONYM_INDEX_PAIRS = 400


def _synonym_indexed(ctx: MatchContext, refs: list[tuple[int, frozenset[int]]]) -> list[Candidate]:
    """:func:`synonym` through the hypothesis's synset index; a repeated reference word
    (same key, same synsets) reuses its hits."""
    index = ctx.hs.synset_index()
    hk, rk = ctx.hyp_keys, ctx.ref_keys
    hsyn = ctx.hs.synsets()
    src = ctx.lang.synonym_source().split(" (")[0]
    out: list[Candidate] = []
    syn = Module.SYNONYM
    memo: dict[tuple[Hashable, frozenset[int]], list[tuple[int, str]]] = {}
    for j, ss in refs:
        key = rk[j]
        hits = memo.get((key, ss))
        if hits is None:
            found: set[int] = set()
            for off in ss:
                found.update(index.get(off, ()))
            hits = [
                (i, f"{src} synset {min(ss & hsyn[i]):08d}") for i in sorted(found) if hk[i] != key
            ]
            memo[(key, ss)] = hits
        for i, detail in hits:
            out.append((syn, i, i + 1, j, j + 1, detail, None))
        ctx.check(len(out), syn)
    return out


def paraphrase(ctx: MatchContext) -> list[Candidate]:
    """``ParaphraseMatcher``: n:m phrase pairs from the language's paraphrase table."""
    table = ctx.lang.paraphrases()
    from meteor.languages.paraphrase import CandidateOverflowError, ParaphraseTable

    try:
        if isinstance(table, ParaphraseTable):  # the index: per-sentence work is cached
            found = table.pair_candidates(
                ctx.hs.phrases(table), ctx.rs.phrases(table), limit=ctx.limit
            )
        else:
            found = table.candidates(ctx.hyp, ctx.ref, limit=ctx.limit)
    except CandidateOverflowError as exc:  # counted before any candidate was built
        raise CandidateLimitError(exc.found, exc.limit, Module.PARAPHRASE.value) from None
    pa = Module.PARAPHRASE
    return [(pa, hs, hs + hl, rs, rs + rl, "paraphrase table", None) for hs, hl, rs, rl in found]


def to_match(ctx: MatchContext, c: Candidate) -> Match:
    """The :class:`~meteor.types.Match` record of a candidate."""
    module, hs, he, rs, re_, detail, sim = c
    return Match(
        module,
        Span(hs, he),
        Span(rs, re_),
        tuple(ctx.hyp[hs:he]),
        tuple(ctx.ref[rs:re_]),
        detail,
        similarity=sim,
    )


def to_matches(ctx: MatchContext, cands: Sequence[Candidate]) -> tuple[Match, ...]:
    """:func:`to_match` of many candidates; the spans and word tuples they share are built once.

    (Records are immutable, so candidates may share them: a long pair has many more
    candidates than distinct spans.)
    """
    hyp, ref = ctx.hyp, ctx.ref
    spans: dict[tuple[int, int], Span] = {}
    hyp_words: dict[tuple[int, int], tuple[str, ...]] = {}
    ref_words: dict[tuple[int, int], tuple[str, ...]] = {}
    out: list[Match] = []
    for module, hs, he, rs, re_, detail, sim in cands:
        h = (hs, he)
        r = (rs, re_)
        hspan = spans.get(h)
        if hspan is None:
            hspan = spans[h] = Span(hs, he)
        rspan = spans.get(r)
        if rspan is None:
            rspan = spans[r] = Span(rs, re_)
        hw = hyp_words.get(h)
        if hw is None:
            hw = hyp_words[h] = tuple(hyp[hs:he])
        rw = ref_words.get(r)
        if rw is None:
            rw = ref_words[r] = tuple(ref[rs:re_])
        out.append(Match(module, hspan, rspan, hw, rw, detail, similarity=sim))
    return tuple(out)


def from_match(m: Match) -> Candidate:
    """The candidate tuple of a :class:`~meteor.types.Match`."""
    return (m.module, m.hyp.start, m.hyp.end, m.ref.start, m.ref.end, m.detail, m.similarity)


_MATCHERS: dict[Module, Callable[[MatchContext], list[Candidate]]] = {
    Module.EXACT: exact,
    Module.STEM: stem,
    Module.SYNONYM: synonym,
    Module.PARAPHRASE: paraphrase,
    Module.LEMMA: lemma,
}


def register_matcher(module: Module, fn: Callable[[MatchContext], list[Candidate]]) -> None:
    """Plug in a stage implemented elsewhere (e.g. the embedding stage)."""
    _MATCHERS[module] = fn


def propose_raw(module: Module, ctx: MatchContext) -> list[Candidate]:
    """All candidates of one module as :data:`Candidate` tuples, in Meteor 1.5's lattice order."""
    try:
        fn = _MATCHERS[module]
    except KeyError:
        raise ValueError(f"no matcher for module {module.value!r}") from None
    return fn(ctx)


def propose(module: Module, ctx: MatchContext) -> list[Match]:
    """All candidates of one module, in Meteor 1.5's lattice order."""
    return [to_match(ctx, c) for c in propose_raw(module, ctx)]


def propose_all_raw(ctx: MatchContext, modules: Sequence[Module]) -> list[list[Candidate]]:
    """Candidates per module (as :data:`Candidate` tuples), in the order of ``modules``.

    Raises:
        CandidateLimitError: one stage, or all of them together, proposed more than
            ``ctx.limit`` candidates.
    """
    out: list[list[Candidate]] = []
    total = 0
    for m in modules:
        stage = propose_raw(m, ctx)
        total += len(stage)
        ctx.check(total, m)
        out.append(stage)
    return out


def propose_all(ctx: MatchContext, modules: Sequence[Module]) -> list[list[Match]]:
    """Candidates per module, in the order of ``modules`` (see :func:`propose_all_raw`)."""
    return [[to_match(ctx, c) for c in stage] for stage in propose_all_raw(ctx, modules)]
