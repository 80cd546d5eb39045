"""nltk 3.10.4's METEOR alignment, reimplemented match for match.

Reproduces ``_enum_align_words`` of ``nltk/translate/meteor_score.py``
(nltk 3.10.4; ``dependencies.md`` section 6.1) and its stage functions
``_match_enums``, ``_enum_stem_match`` and ``_enum_wordnetsyn_match``:

* three stages, each on what the earlier ones left: exact forms, Porter stems
  (``PorterStemmer()`` by default), WordNet synonyms;
* every stage is greedy: hypothesis words **right to left** each take the **highest
  still-unused reference position** with an equal key (a synonym, in the last stage),
  although nltk's docstring speaks of "the least number of crossings";
* **quirk**: ``_enum_stem_match`` hands the *stemmed* leftovers on, so the
  synonym stage looks up ``wordnet.synsets(stem)`` and compares Porter stems:
  ``leapt`` matches ``jumps`` (lemma ``jump`` = the stem of ``jumps``), while
  ``automobile`` misses ``car`` (``synsets("automobil")`` is empty);
* a hypothesis word's synonyms are the ``lemma.name()`` of all its synsets (all
  parts of speech, nltk's morphy included) without ``_``, plus the word itself.
  The relation is one-directional: the reference word must be in that set.

The caller lowercases the tokens (nltk's ``preprocess=str.lower``);
``tests/parity/test_aligners_nltk.py`` compares the result with nltk's functions.
"""

from __future__ import annotations

import functools
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from meteor import resources
from meteor.aligners.base import Aligner, LoadStep, PackedPair, PairFunction, ScorerParts
from meteor.errors import ParamError
from meteor.languages import Language
from meteor.module_registry import N_BUILTIN, Module, module_slot
from meteor.params import Params
from meteor.runtime import compiled
from meteor.stages.base import Candidate, MatchContext
from meteor.stats import counted_stats
from meteor.types import Match, Token, shared_span

__all__ = ["GreedyAligner", "Stemmer", "WordNetLike", "align_nltk", "nltk_candidates"]


class Stemmer(Protocol):
    """Anything with nltk's ``StemmerI.stem`` signature."""

    def stem(self, token: str) -> str:
        """Return the stem of ``token``."""
        ...


class WordNetLike(Protocol):
    """The part of nltk's ``WordNetCorpusReader`` the synonym stage uses."""

    def synsets(self, lemma: str) -> Any:
        """Synsets of ``lemma`` over all parts of speech (nltk applies morphy)."""
        ...


#: The attribute of a WordNet reader holding its memo of :func:`_synonyms`: stem ->
#: {lemma name: first synset holding it}, in nltk's iteration order.
_MEMO_ATTR = "_meteor_synonym_names"


@functools.cache
def _default_stemmer() -> Stemmer:
    """nltk's default for ``meteor_score``: ``PorterStemmer()`` (mode NLTK_EXTENSIONS)."""
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


_PORTER = compiled("_porter")
#: ``meteor_native._porter.stem``: nltk's ``PorterStemmer().stem`` in C, equal on every
#: word of the shared data and of WordNet 3.0 (``tests/unit/test_native_porter.py``), or
#: ``None`` (not installed, or ``METEOR_PURE_PYTHON`` set): nltk's own stemmer runs.
NATIVE_PORTER: Callable[[str], str] | None = None if _PORTER is None else _PORTER.stem


@functools.lru_cache(maxsize=200_000)
def _porter_stem(word: str) -> str:
    """The default stemmer's stem of ``word`` (``PorterStemmer.stem`` is a pure function
    of the word), memoised per word type; in C when :data:`NATIVE_PORTER` is there.
    A caller's own stemmer is never memoised."""
    if NATIVE_PORTER is not None:
        return NATIVE_PORTER(word)
    return _default_stemmer().stem(word)


def _stemming(stemmer: Stemmer | None) -> tuple[Callable[[str], str], str]:
    """The stem function and what a stem match's detail starts with: nltk's default
    ``PorterStemmer`` (memoised, :func:`_porter_stem`) unless the caller gives one."""
    if stemmer is None:
        return _porter_stem, "porter stem: "
    name = type(stemmer).__name__
    return stemmer.stem, f"{'porter' if name == 'PorterStemmer' else name} stem: "


_WORDNET_LOCK = threading.RLock()
#: The label of :class:`GreedyAligner`'s load step, and of the reader in ``ctx.resources``.
WORDNET_STEP = "nltk WordNet"


def _synonym_cache(wordnet: WordNetLike) -> dict[str, dict[str, str]] | None:
    """The reader's memo of :func:`_synonyms`, kept on the reader itself (it lives and
    dies with it); ``None`` when the reader takes no attributes."""
    cache: dict[str, dict[str, str]] | None = getattr(wordnet, _MEMO_ATTR, None)
    if cache is None:
        cache = {}
        try:
            setattr(wordnet, _MEMO_ATTR, cache)
        except (AttributeError, TypeError):  # __slots__, a frozen dataclass, a builtin
            return None
    return cache


def _synonyms(wordnet: WordNetLike, word: str) -> dict[str, str]:
    """Lemma names (without ``_``) of ``wordnet.synsets(word)``, each with its first synset.

    The key set equals nltk's ``hypothesis_syns`` minus the word itself
    (``_enum_wordnetsyn_match``).
    """
    cache = _synonym_cache(wordnet)
    if cache is None:
        cache = {}
    found = cache.get(word)
    if found is None:
        # FastWordNetCorpusReader.synonym_names, else Synset objects; nltk's reader seeks
        # in shared file objects: one thread at a time
        names = getattr(wordnet, "synonym_names", None)
        with _WORDNET_LOCK:
            if names is not None:
                found = names(word)
            else:
                found = {}
                for synset in wordnet.synsets(word):
                    for lemma in synset.lemmas():
                        name = lemma.name()
                        if name.find("_") < 0 and name not in found:
                            found[name] = synset.name()
        cache[word] = found
    return found


def _greedy(
    hyp: list[tuple[int, str]], ref: list[tuple[int, str]]
) -> tuple[list[tuple[int, int]], list[tuple[int, str]], list[tuple[int, str]]]:
    """One greedy stage on equal keys (nltk ``_match_enums``) over the ``(original index,
    key)`` of the words still unmatched: the ``(hyp_index, ref_index)`` pairs in the order
    made, and the unmatched ``hyp`` and ``ref`` entries (order kept)."""
    positions: dict[str, list[int]] = defaultdict(list)
    for j, (_, key) in enumerate(ref):
        positions[key].append(j)
    pairs: list[tuple[int, int]] = []
    used_h: set[int] = set()
    used_r: set[int] = set()
    for i in range(len(hyp) - 1, -1, -1):
        free = positions.get(hyp[i][1])
        if free:
            j = free.pop()
            used_h.add(i)
            used_r.add(j)
            pairs.append((hyp[i][0], ref[j][0]))
    return (
        pairs,
        [p for i, p in enumerate(hyp) if i not in used_h],
        [p for j, p in enumerate(ref) if j not in used_r],
    )


class GreedyAligner(Aligner):
    """nltk's ``meteor_score`` alignment: its own stages (nltk's Porter stemmer and WordNet,
    not the language's) propose its choices (:func:`nltk_candidates`)."""

    uses_stages = False
    nltk_arithmetic = True

    def check(self, params: Params, language: Language) -> None:
        """English only: nltk's stemmer and WordNet are English."""
        if params.lang != "en":
            raise ParamError(
                f"aligner {params.aligner!r} reproduces NLTK and exists for English only"
            )

    def prepare(self, params: Params) -> list[LoadStep]:
        """nltk's WordNet reader (offline WordNet 3.0)."""
        return [(WORDNET_STEP, _wordnet)]

    def propose(self, ctx: MatchContext) -> list[list[Candidate]]:
        """One list: nltk's matches, sorted by reference position (WordNet reader: the
        scorer's, ``ctx.resources``, or the process's)."""
        wordnet = ctx.resources.get(WORDNET_STEP)
        return [nltk_candidates(ctx.hyp, ctx.ref, wordnet=wordnet or _wordnet())]

    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> range:
        """Every candidate: nltk chose them while proposing."""
        return range(sum(len(stage) for stage in stages))

    def corpus_pair(
        self, params: Params, language: Language, scorer: ScorerParts
    ) -> PairFunction | None:
        """:func:`bound_pair` with the scorer's WordNet reader (``scorer.resources()``, asked on the
        first pair); ``None`` without the C part (the general path, :meth:`propose` then
        ``pack_raw`` and ``stats_from_raw``, is its Python twin)."""
        if NATIVE_PAIR is None:
            return None
        bound: list[PairFunction] = []

        def pair(hyp: tuple[Token, ...], ref: tuple[Token, ...]) -> PackedPair | None:
            if not bound:
                bound.append(bound_pair(scorer.resources().get(WORDNET_STEP) or _wordnet()))
            return bound[0](hyp, ref)

        return pair


def _wordnet() -> WordNetLike:
    resources.import_nltk()  # one thread at a time (see import_nltk)
    from meteor.languages.nltk_wordnet import wordnet_reader

    return wordnet_reader()


def align_nltk(
    hyp: Sequence[str],
    ref: Sequence[str],
    *,
    wordnet: WordNetLike | None = None,
    stemmer: Stemmer | None = None,
) -> tuple[Match, ...]:
    """Align like nltk 3.10.4 ``meteor_score`` (``_enum_align_words``).

    Args:
        hyp: hypothesis tokens, already lowercased (nltk's ``preprocess``).
        ref: reference tokens, already lowercased.
        wordnet: a WordNet reader; defaults to
            :func:`meteor.languages.nltk_wordnet.wordnet_reader` (offline WordNet 3.0).
        stemmer: defaults to nltk's ``PorterStemmer()``, as in ``meteor_score``.

    Returns:
        One-word matches (module ``EXACT``, ``STEM`` or ``SYNONYM``), sorted by
        reference index.  ``hyp_words``/``ref_words`` are the tokens as given;
        ``detail`` names the shared stem or the WordNet lemma and synset.
        The same ``(hyp, ref)`` index pairs as nltk's ``_enum_align_words``.
    """
    if isinstance(hyp, str) or isinstance(ref, str):
        raise TypeError("align_nltk expects pre-tokenized sequences of str, not a str")
    hyp = list(hyp)
    ref = list(ref)
    return tuple(
        Match(module, shared_span(i, i + 1), shared_span(j, j + 1), (hyp[i],), (ref[j],), detail)
        for module, i, _, j, _, detail, _ in nltk_candidates(
            hyp, ref, wordnet=wordnet, stemmer=stemmer
        )
    )


#: ``meteor_native._greedy``, or ``None`` (not installed, or ``METEOR_PURE_PYTHON`` set).
_GREEDY = compiled("_greedy")
#: ``meteor_native._greedy.nltk_align``, or ``None``: :func:`nltk_candidates`' three
#: stages in C (stems and synonym names from the functions here).
NATIVE_ALIGN: Callable[..., list[Candidate]] | None = (
    None if _GREEDY is None else _GREEDY.nltk_align
)
#: ``meteor_native._greedy.nltk_pair`` (:func:`bound_pair`), or ``None``.
NATIVE_PAIR: Callable[..., Any] | None = None if _GREEDY is None else _GREEDY.nltk_pair
_MODULES = (Module.EXACT, Module.STEM, Module.SYNONYM)
#: Where each of the three modules' counts go in :class:`~meteor.stats.Stats`' vectors.
_SLOTS = tuple(module_slot(m) for m in _MODULES)


def bound_pair(
    wordnet: WordNetLike,
) -> Callable[[tuple[Token, ...], tuple[Token, ...]], PackedPair]:
    """A corpus run's pair in one C call (``meteor_native._greedy.nltk_pair``): the matches
    of :func:`nltk_candidates` (default stemmer) packed as
    :func:`~meteor.match_tuples.pack_raw` packs them, and the :class:`~meteor.stats.Stats`
    :func:`meteor.scoring.stats_from_raw` counts from them
    (``tests/unit/test_native_greedy.py`` compares the two).  ``wordnet`` is bound once."""
    if NATIVE_PAIR is None:
        raise RuntimeError("meteor_native._greedy is not in use")
    run = NATIVE_PAIR
    cache = _synonym_cache(wordnet)
    synonyms = functools.partial(_synonyms, wordnet)

    def pair(hyp: tuple[Token, ...], ref: tuple[Token, ...]) -> PackedPair:
        packed, *lengths, vectors, chunks, hyp_matches, ref_matches = run(
            hyp,
            ref,
            _porter_stem,
            cache,
            synonyms,
            _MODULES,
            "exact: ",
            "porter stem: ",
            _synonym_detail,
            _SLOTS,
            N_BUILTIN,
        )
        return packed, counted_stats(tuple(lengths), vectors, chunks, hyp_matches, ref_matches)

    return pair


def nltk_candidates(
    hyp: Sequence[str],
    ref: Sequence[str],
    *,
    wordnet: WordNetLike | None = None,
    stemmer: Stemmer | None = None,
) -> list[Candidate]:
    """:func:`align_nltk` as :data:`~meteor.stages.base.Candidate` tuples (same order).

    In C when ``meteor_native._greedy`` is installed (:data:`NATIVE_ALIGN`), otherwise
    :func:`python_candidates`; ``tests/unit/test_native_greedy.py`` compares the two.
    """
    if isinstance(hyp, str) or isinstance(ref, str):
        raise TypeError("align_nltk expects pre-tokenized sequences of str, not a str")
    if NATIVE_ALIGN is None:
        return python_candidates(hyp, ref, wordnet=wordnet, stemmer=stemmer)
    stem, label = _stemming(stemmer)
    cache = None if wordnet is None else _synonym_cache(wordnet)

    def synonyms(key: str) -> dict[str, str]:
        nonlocal wordnet
        if wordnet is None:
            wordnet = _wordnet()
        return _synonyms(wordnet, key)

    return NATIVE_ALIGN(
        list(hyp),
        list(ref),
        stem,
        cache,
        synonyms,
        _MODULES,
        "exact: ",
        label,
        _synonym_detail,
    )


def python_candidates(
    hyp: Sequence[str],
    ref: Sequence[str],
    *,
    wordnet: WordNetLike | None = None,
    stemmer: Stemmer | None = None,
) -> list[Candidate]:
    """:func:`nltk_candidates` in Python (the reference for its C transcription)."""
    hyp = list(hyp)
    ref = list(ref)
    stem, label = _stemming(stemmer)
    matches: list[Candidate] = []

    def add(module: Module, i: int, j: int, detail: str) -> None:
        matches.append((module, i, i + 1, j, j + 1, detail, None))

    # Stage 1: exact forms (nltk _match_enums on the enumerated lists).
    pairs, hyp_left, ref_left = _greedy(list(enumerate(hyp)), list(enumerate(ref)))
    for i, j in pairs:
        add(Module.EXACT, i, j, f"exact: {hyp[i]}")

    # Stage 2: stems (nltk _enum_stem_match); the leftovers keep their stems.
    hyp_stems = [(i, stem(w)) for i, w in hyp_left]
    ref_stems = [(j, stem(w)) for j, w in ref_left]
    pairs, hyp_left, ref_left = _greedy(hyp_stems, ref_stems)
    stem_of = dict(hyp_stems)
    for i, j in pairs:
        add(Module.STEM, i, j, f"{label}{stem_of[i]}")

    # Stage 3: WordNet synonyms of the *stems* (nltk _enum_wordnetsyn_match).
    if hyp_left and ref_left:
        wn = _wordnet() if wordnet is None else wordnet
        positions: dict[str, list[int]] = defaultdict(list)
        for k, (_, key) in enumerate(ref_left):
            positions[key].append(k)
        for i, hyp_key in reversed(hyp_left):
            syns = _synonyms(wn, hyp_key)
            best_k = -1
            best_key = ""
            for name in (*syns, hyp_key):
                free = positions.get(name)
                if free and free[-1] > best_k:
                    best_k = free[-1]
                    best_key = name
            if best_k < 0:
                continue
            positions[best_key].pop()
            j = ref_left[best_k][0]
            add(Module.SYNONYM, i, j, _synonym_detail(hyp[i], hyp_key, ref[j], best_key, syns))

    matches.sort(key=lambda c: (c[3], c[1]))
    return matches


def _synonym_detail(
    hyp_word: str, hyp_key: str, ref_word: str, ref_key: str, syns: dict[str, str]
) -> str:
    """Explain a synonym match, naming the stems nltk actually compared."""

    def of(word: str, key: str) -> str:
        return key if key == word else f"{key} (stem of {word})"

    if ref_key not in syns:  # identical stems; unreachable after the stem stage
        return f"wordnet: identical stem {ref_key}"
    return (
        f"wordnet: lemma {of(ref_word, ref_key)} of {syns[ref_key]}, "
        f"a synset of {of(hyp_word, hyp_key)}"
    )
