"""What every matching stage is and shares: the :class:`Stage` protocol and the plumbing.

A stage proposes *candidate* matches for a hypothesis-reference pair and records
why; the aligner chooses among them.  This reproduces Meteor 1.5's matchers
(``ExactMatcher``, ``StemMatcher``, ``SynonymMatcher``, ``ParaphraseMatcher``;
``meteor-1.5.md`` section 6): every stage proposes **all** its candidates,
including words other stages already matched, in the order Meteor adds them to
its lattice: by reference position, then hypothesis position.

Here: :class:`Stage` (the protocol), :class:`StageBase` (its defaults) and a pair as
the stages see it (:class:`MatchContext`, built from two cached :class:`Sentence`
objects); candidates are :data:`~meteor.types.Candidate` tuples.  Which stages exist
is decided in :mod:`meteor.stages.registry`.

Words are compared through *keys*: Java ``String.hashCode`` when
``Params.java_keys`` is set (Meteor 1.5 compares hash codes with no collision
check, ``Stage.java:43-50``), the string itself otherwise.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from meteor.errors import CandidateLimitError as CandidateLimitError
from meteor.languages import Language
from meteor.module_registry import Module
from meteor.params import Params
from meteor.rules import fold_yo, java_hash
from meteor.runtime import Progress
from meteor.types import Candidate as Candidate

__all__ = [
    "Candidate",
    "CandidateLimitError",
    "LanguageStage",
    "MatchContext",
    "Progress",
    "Sentence",
    "Stage",
    "StageBase",
    "java_hash",
]


class Sentence:
    """What the matchers need of one tokenised sentence, each piece computed on first use.

    It depends on the sentence alone (and the params and language), never on the other
    side of the pair, so a scorer keeps one per distinct sentence.
    """

    __slots__ = (
        "_key_index",
        "_keys",
        "_lang",
        "_lemma_index",
        "_lemmas",
        "_packs",
        "_params",
        "_phrases",
        "_prepped",
        "_stem_index",
        "_stem_keys",
        "_stems",
        "_syn",
        "_synset_index",
        "_with_syn",
        "words",
    )

    @staticmethod
    def settings(params: Params) -> tuple[Any, ...]:
        """Every setting a sentence's work depends on (for a cache of sentences): the
        language, word keys, ё folding and the stemmer."""
        return (params.lang, params.java_keys, params.fold_yo, params.stemmer)

    def __init__(self, words: Sequence[str], params: Params, lang: Language) -> None:
        self.words = list(words)
        self._params = params
        self._lang = lang
        self._prepped = self.words if not params.fold_yo else list(map(fold_yo, self.words))
        self._keys: list[Hashable] | None = None
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
        self._packs: dict[bytes, Any] | None = None

    def prepped(self) -> list[str]:
        """The words every look-up takes: ё folded when the params fold it."""
        return self._prepped

    @property
    def keys(self) -> list[Hashable]:
        """Word keys (``Stage.java:43-50``: ``String.hashCode`` when ``java_keys``)."""
        if self._keys is None:
            self._keys = list(map(_key_function(self._params), self._prepped))
        return self._keys

    def key_index(self) -> dict[Hashable, list[int]]:
        """Word key -> positions (ascending)."""
        if self._key_index is None:
            self._key_index = _index(self.keys)
        return self._key_index

    def stems(self) -> list[str]:
        """Each word's stem under the params' stemmer (after ё folding)."""
        if self._stems is None:
            self._stems = list(map(self._lang.stem_function(self._params.stemmer), self._prepped))
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
            self._syn = list(map(self._lang.synsets_function(), self._prepped))
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
            self._lemmas = list(map(self._lang.lemmas, self._prepped))
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

    def pack(self, stages: bytes, build: Callable[[Sentence], Any]) -> Any:
        """``build(self)`` for the stage codes ``stages``, made once and kept."""
        packs = self._packs
        if packs is None:
            packs = self._packs = {}
        got = packs.get(stages, packs)
        if got is packs:
            got = packs[stages] = build(self)
        return got

    def set_phrases(self, phrases: Any) -> None:
        """Store :meth:`phrases` computed for many sentences at once (``phrases_many``)."""
        self._phrases = phrases


def _key_function(params: Params) -> Callable[[str], Hashable]:
    return java_hash if params.java_keys else str


class MatchContext:
    """One hypothesis-reference pair as the matchers see it (``sentences``: the two sides'
    cached :class:`Sentence` objects, else made here)."""

    def __init__(
        self,
        hyp: Sequence[str],
        ref: Sequence[str],
        params: Params,
        lang: Language,
        *,
        limit: int | None = None,
        sentences: tuple[Sentence, Sentence] | None = None,
        resources: Mapping[str, Any] | None = None,
    ) -> None:
        #: Most candidates one stage, and all stages together, may propose (None: no limit).
        self.limit = limit
        #: What an aligner that proposes its own candidates loaded (its ``prepare`` steps'
        #: results by label), once per scorer; empty when the caller passes none.
        self.resources: Mapping[str, Any] = resources if resources is not None else {}
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


def _index(keys: Sequence[Hashable]) -> dict[Hashable, list[int]]:
    idx: dict[Hashable, list[int]] = defaultdict(list)
    for i, k in enumerate(keys):
        idx[k].append(i)
    return dict(idx)


# ---------------------------------------------------------------------------- stages


@runtime_checkable
class Stage(Protocol):
    """One matching stage, as the scorer (:class:`meteor.Meteor`) uses it.

    Attributes:
        name: the :class:`~meteor.types.Module` it labels its candidates with (a plain
            ``str`` for a new stage, which registering makes a module).
        code: a short code for the settings signature (``ex`` in ``mods:ex+st``), unique.
        resource: what :meth:`prepare` loads, for progress messages; ``None``: nothing.
        prefetches: whether :meth:`prefetch` does anything.
    """

    name: str
    code: str
    resource: str | None
    prefetches: bool

    def available(self, language: Language) -> bool:
        """Whether the stage can run on ``language`` (its resources are installed)."""
        ...

    def resource_hint(self, language: Language) -> str | None:
        """When not :meth:`available` for want of an installable resource: what to
        install (the message of the :class:`~meteor.errors.ResourceError`); ``None``
        when the language simply has no such stage."""
        ...

    def validate(self, language: Language, params: Params) -> None:
        """Raise :class:`~meteor.errors.ParamError` when ``params`` ask this stage for
        something ``language`` lacks (e.g. a stemmer it does not have)."""
        ...

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        """Load every resource :meth:`candidates` will need now instead of on first use."""
        ...

    def prefetch(self, sentences: Sequence[Sentence], language: Language) -> None:
        """Do the per-sentence work of many sentences at once (a speed-up only)."""
        ...

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        """Every candidate of this stage for the pair, in Meteor 1.5's lattice order.

        Raises:
            CandidateLimitError: more than ``ctx.limit`` candidates (:meth:`MatchContext.check`).
        """
        ...


class StageBase:
    """Defaults for a :class:`Stage`: available everywhere, nothing to load or prefetch (a
    new stage sets ``name`` and ``code`` and writes :meth:`candidates`)."""

    name: str
    code: str
    resource: str | None = None
    prefetches: bool = False

    @functools.cached_property
    def module(self) -> Module:
        """``Module(self.name)`` (valid once the stage is registered)."""
        return Module(self.name)

    def available(self, language: Language) -> bool:
        return True

    def resource_hint(self, language: Language) -> str | None:
        return None

    def validate(self, language: Language, params: Params) -> None:
        return None

    def prepare(self, language: Language, params: Params, progress: Progress | None = None) -> None:
        return None

    def prefetch(self, sentences: Sequence[Sentence], language: Language) -> None:
        return None

    def candidates(self, ctx: MatchContext) -> list[Candidate]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<stage {self.name}>"


class LanguageStage(StageBase):
    """A stage the language must offer (listed in its ``modules``): the built-in stages."""

    def available(self, language: Language) -> bool:
        return self.name in language.modules
