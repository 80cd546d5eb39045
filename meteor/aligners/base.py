"""The aligner interface and its registry.

An aligner chooses a one-to-one alignment among the candidate matches the stages
proposed (``meteor-1.5.md`` section 7; the 2005 paper, section 2).  Everything
:class:`meteor.metric.Meteor` needs to know about one is a method of :class:`Aligner`,
so the facade never names one.  Another aligner is one class and one
:func:`register_aligner` call (``docs/architecture.md``, "How to add an aligner").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from meteor import runtime as _runtime
from meteor.errors import CandidateLimitError, ParamError
from meteor.match_tuples import Packed
from meteor.module_registry import Module
from meteor.stats import Stats

if TYPE_CHECKING:
    from meteor.languages import Language
    from meteor.params import Params
    from meteor.stages.base import Candidate, MatchContext, Sentence
    from meteor.types import Token

__all__ = [
    "CANDIDATE_LIMIT_ENV",
    "MAX_CANDIDATES",
    "Aligner",
    "PackedPair",
    "PairFunction",
    "ScorerParts",
    "aligner_names",
    "get_aligner",
    "register_aligner",
]

#: Most candidate matches (all stages together) per pair unless an aligner says otherwise
#: (:meth:`Aligner.candidate_limit`); more is a :class:`~meteor.errors.CandidateLimitError`
#: before any search (``docs/limits.md``; measured worst cases: ``docs/robustness.md``).
MAX_CANDIDATES = 50_000
#: Environment variable that replaces the candidate limit (read by :mod:`meteor.runtime`).
CANDIDATE_LIMIT_ENV = _runtime.CANDIDATE_LIMIT_ENV

#: A resource to load ahead of scoring: (label for a progress bar, loader).
LoadStep = tuple[str, Callable[[], Any]]
#: A pair's chosen matches packed (:func:`~meteor.match_tuples.pack_raw`, reference order)
#: and its statistics (:meth:`Aligner.corpus_pair`).
PackedPair = tuple[Packed, Stats]
#: What :meth:`Aligner.corpus_pair` gives: (hypothesis tokens, reference tokens) -> the
#: pair packed and counted, or ``None`` (the general path decides).
PairFunction = Callable[[tuple["Token", ...], tuple["Token", ...]], PackedPair | None]


@dataclass(frozen=True, slots=True)
class ScorerParts:
    """What a scorer lends :meth:`Aligner.corpus_pair`'s function, to ask on a pair."""

    #: Its memo of per-sentence work: ``sentence(words)``.
    sentence: Callable[[Sequence[str]], Sentence]
    #: Its candidate limit (the environment's override read when asked).
    limit: Callable[[], int]
    #: Its aligner's resources: what the :meth:`Aligner.prepare` steps loaded, by label
    #: (loaded on the first call).
    resources: Callable[[], dict[str, Any]]


class Aligner(ABC):
    """Chooses a one-to-one alignment among candidate matches.

    A subclass implements :meth:`align`; every other method has a default that fits
    an aligner reading the stages' candidates with no settings of its own.  Aligners
    hold no per-pair state: the registry keeps one instance per name.
    """

    #: False when the aligner proposes its own candidates (:meth:`propose`) and the
    #: language's stages are not run (nltk's greedy aligner has its own stemmer and
    #: WordNet).
    uses_stages: ClassVar[bool] = True
    #: Compute P, R and Fmean in nltk's order (``meteor.scoring``): only an aligner
    #: that reproduces nltk sets it.
    nltk_arithmetic: ClassVar[bool] = False
    #: Where the candidate limit is defined, for :meth:`limit_hint`'s message.
    limit_name: ClassVar[str] = "meteor.aligners.base.MAX_CANDIDATES"

    # -- settings -------------------------------------------------------------
    def check_params(self, params: Params) -> None:
        """Refuse settings this aligner cannot honour (:class:`ParamError`, field named),
        before anything is loaded."""
        return None

    def check(self, params: Params, language: Language) -> None:
        """Refuse a language this aligner cannot serve (called when a scorer is built)."""
        return None

    def signature(self, params: Params) -> str:
        """The ``align:`` field of the settings signature (:func:`meteor.signatures.settings_signature`)."""
        return params.aligner

    # -- resources ------------------------------------------------------------
    def prepare(self, params: Params) -> list[LoadStep]:
        """Resources of its own to load ahead of scoring (``Meteor.prepare``)."""
        return []

    def candidate_limit(self, params: Params) -> int:
        """Most candidate matches accepted per pair (before the environment override)."""
        return MAX_CANDIDATES

    def limit_hint(self, params: Params, exc: CandidateLimitError) -> str:
        """What the :class:`CandidateLimitError` message says about the limit passed."""
        return (
            f"the {params.aligner} aligner's limit ({self.limit_name}); "
            f"raise it with the environment variable {CANDIDATE_LIMIT_ENV}=N (time and "
            "memory grow with it) or split the texts into several segments"
        )

    # -- one pair -------------------------------------------------------------
    def propose(self, ctx: MatchContext) -> list[list[Candidate]] | None:
        """The aligner's own candidates, per stage; ``None``: the enabled stages propose.

        Only an aligner with ``uses_stages = False`` overrides this; its ``ctx`` has no
        candidate limit (``ctx.limit`` is ``None``: it chooses as it proposes) and sentences
        made for the pair, not the scorer's memo of them.
        """
        return None

    def stage_modules(self, ctx: MatchContext, modules: Sequence[Module]) -> Sequence[Module]:
        """The stages to run on this pair (all enabled ones unless a shortcut applies)."""
        return modules

    def corpus_pair(
        self, params: Params, language: Language, scorer: ScorerParts
    ) -> PairFunction | None:
        """A corpus run's pair in one go, or ``None`` (the default): asked once per scorer.

        When given, ``pair(hyp_tokens, ref_tokens)`` returns exactly what the general path
        gives (:meth:`propose` or the stages, :meth:`align`, then
        :func:`~meteor.match_tuples.pack_raw` and :func:`meteor.scoring.stats_from_raw`), or
        ``None`` for a pair it leaves to that path.  ``scorer``: what it may ask of the
        scorer (:class:`ScorerParts`).
        """
        return None

    @abstractmethod
    def align(self, ctx: MatchContext, stages: Sequence[Sequence[Candidate]]) -> Sequence[int]:
        """Choose the alignment.

        Args:
            ctx: the pair (``ctx.hyp``, ``ctx.ref``: tokens; ``ctx.params``).
            stages: candidates per stage, each as the stage yields them (Meteor 1.5's
                lattice order).

        Returns:
            Indices of the chosen candidates in the concatenation of ``stages``
            (one-to-one: no word used twice), in the aligner's order.

        Raises:
            ValueError: the pair is out of this aligner's reach (message for a user).
        """


_REGISTRY: dict[str, Aligner] = {}


def register_aligner(name: str, cls: type[Aligner], *, replace: bool = False) -> None:
    """Make ``cls`` the aligner called ``name`` (``Meteor(aligner=name)``).

    Raises:
        TypeError: ``cls`` is not an :class:`Aligner` subclass.
        ValueError: ``name`` is empty or already taken (unless ``replace``).
    """
    if not isinstance(cls, type) or not issubclass(cls, Aligner):
        raise TypeError(f"an aligner must be a subclass of Aligner, got {cls!r}")
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise ValueError(f"an aligner's name must be a non-empty word, got {name!r}")
    if name in _REGISTRY and not replace and type(_REGISTRY[name]) is not cls:
        raise ValueError(f"aligner {name!r} is already registered")
    _REGISTRY[name] = cls()


def get_aligner(name: str) -> Aligner:
    """The registered aligner called ``name``.

    Raises:
        ParamError: no aligner has that name (the message lists the names).
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise ParamError(
            f"aligner must be one of {', '.join(aligner_names())}, got {name!r}"
        ) from None


def aligner_names() -> tuple[str, ...]:
    """Names of the registered aligners, in registration order."""
    return tuple(_REGISTRY)
