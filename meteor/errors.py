"""Every public exception of the library, in one module that imports nothing heavy.

Each class used to be defined next to the code that raises it; they live here so
that low-level modules (tokenisers, matchers, resources) need not import upward
(``ResourceError`` was in :mod:`meteor.languages`), and so that a caller can catch
them all from one place: ``from meteor import CandidateLimitError`` or
``from meteor.errors import ResourceError``.  The old import paths
(``meteor.params.ParamError``, ``meteor.stages.base.CandidateLimitError``, ...) still
work: those modules re-export the class from here.  Names, bases, messages and
attributes are unchanged; this module imports only the standard library.

Not here: :class:`meteor.languages.paraphrase.InvalidIndexError` and
:class:`meteor.languages.paraphrase.CandidateOverflowError` stay in the table reader
:mod:`meteor.languages.paraphrase`, the only module that raises them, because both
are handled inside the library (a damaged index is rebuilt; an overflow becomes
:class:`CandidateLimitError`); the index builder beside it
(:mod:`meteor.languages.paraphrase_build`) runs as a standalone script and imports
nothing from :mod:`meteor`.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CacheSpaceError",
    "CandidateLimitError",
    "ClusterError",
    "InputError",
    "ParamError",
    "ResourceError",
    "SettingsMismatchError",
    "StagewiseSearchError",
]


class ParamError(ValueError):
    """An invalid parameter; the message names the field and its range."""


class ResourceError(RuntimeError):
    """A language resource is missing; the message says what to install."""


class CacheSpaceError(ResourceError):
    """The cache folder, and the temporary folder tried after it, have no room for a file
    that must be written there (the paraphrase index, the WordNet copy); the message
    names the folder and the space needed."""


class CandidateLimitError(ValueError):
    """A pair has more candidate matches than the caller's limit (:attr:`MatchContext.limit`).

    A word repeated n times on both sides alone gives n² candidates (5,000 copies of
    "the" would give 25 million); long natural documents give hundreds of thousands.
    The matchers stop as soon as a stage goes over the limit; the message says which
    limit it was and how to raise it (``hint``, given by the caller that set it).
    """

    def __init__(self, found: int, limit: int, module: str, hint: str | None = None) -> None:
        tail = hint or "split the texts into several segments"
        super().__init__(
            f"this pair has at least {found:,} candidate matches (counted up to the {module} "
            f"stage), more than the {limit:,} accepted per hypothesis-reference pair -- "
            f"{tail}"
        )
        self.found = found
        self.limit = limit
        self.module = module
        self.hint = hint

    def __reduce__(self) -> tuple[Any, ...]:  # picklable across worker processes
        return (type(self), (self.found, self.limit, self.module, self.hint))


class InputError(ValueError):
    """Input that cannot be read as segments; the message says where and why."""


class SettingsMismatchError(ValueError):
    """Results made with different settings were to be combined; the message shows both."""


class StagewiseSearchError(RuntimeError):
    """The exact search exceeded its state budget: the pair is too ambiguous.

    Raised rather than returning an alignment that might not be optimal; pass a
    larger ``max_nodes`` (or ``None``) to :func:`meteor.aligners.stagewise.align_stagewise`
    to insist.  The message says how many states were explored against which limit,
    and which block was being solved.

    Attributes:
        explored: search states explored by the call when it stopped.
        limit: the ``max_nodes`` it was given.
    """

    def __init__(self, message: str, explored: int, limit: int) -> None:
        super().__init__(message)
        self.explored = explored
        self.limit = limit


class ClusterError(RuntimeError):
    """The cluster cannot do the run; the message says why and what to do."""
