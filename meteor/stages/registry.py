"""Which stages exist: the one registry, and running stages on a pair.

Every built-in stage is one line of :data:`_BUILTIN`, imported on first use.  A stage
made elsewhere is plugged in with ``register_stage(MyStage())``; from then on its name
is accepted wherever a :class:`~meteor.types.Module` is.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence

from meteor.module_registry import (
    MODULE_ORDER,
    Module,
    extend_module,
    retract_module,
    stage_modules,
)
from meteor.stages.base import Candidate, MatchContext, Stage
from meteor.types import Match, matches_of

__all__ = [
    "get_stage",
    "propose_all",
    "propose_all_raw",
    "propose_raw",
    "register_stage",
    "stage_code",
    "stage_names",
    "unregister_stage",
]

#: The built-in stages, one line each, in :data:`~meteor.types.MODULE_ORDER`.
_BUILTIN: dict[Module, str] = {
    Module.EXACT: "meteor.stages.exact:EXACT",
    Module.STEM: "meteor.stages.stem:STEM",
    Module.SYNONYM: "meteor.stages.synonym:SYNONYM",
    Module.PARAPHRASE: "meteor.stages.paraphrase:PARAPHRASE",
    Module.LEMMA: "meteor.stages.lemma:LEMMA",
    Module.EMBEDDING: "meteor.stages.embedding:EMBEDDING",
}
_LOADED: dict[Module, Stage] = {}
_CODE = re.compile(r"[a-z0-9]+")


def get_stage(name: str) -> Stage:
    """The stage called ``name`` (a :class:`~meteor.types.Module` or its value).

    Raises:
        ValueError: no stage has that name.
    """
    stage = _LOADED.get(name)  # type: ignore[call-overload]  # a str finds its Module
    if stage is not None:
        return stage
    module = _module_of(name)
    target = _BUILTIN.get(module)
    if target is None:
        raise ValueError(f"no stage named {name!r}; stages: {', '.join(stage_names())}")
    path, attr = target.split(":")
    stage = getattr(importlib.import_module(path), attr)
    _LOADED[module] = stage
    return stage


def _module_of(name: str) -> Module:
    try:
        return Module(name)
    except ValueError:
        raise ValueError(f"no stage named {name!r}; stages: {', '.join(stage_names())}") from None


def stage_names() -> tuple[str, ...]:
    """Every stage's name: the built-in ones, then the registered ones."""
    return tuple(m.value for m in stage_modules())


def stage_code(name: str) -> str:
    """The stage's short code in settings signatures (``ex``, ``st``, ...)."""
    return get_stage(name).code


def register_stage(stage: Stage) -> Module:
    """Plug in a stage: ``register_stage(ToyStage())``.  Returns its module.

    Its ``name`` (lowercase letters, digits, ``_``) becomes a
    :class:`~meteor.types.Module` (:func:`~meteor.types.extend_module`); its ``code``
    (lowercase letters and digits) must differ from every other stage's.

    Raises:
        ValueError: a bad or built-in name, a bad or taken code, or a name already
            registered for another stage.
    """
    name: str = getattr(stage, "name", "")
    code = getattr(stage, "code", None)
    if name in MODULE_ORDER:
        raise ValueError(f"{name!r} is a built-in stage; give the new stage its own name")
    if not isinstance(code, str) or not _CODE.fullmatch(code):
        raise ValueError(f"a stage code is lowercase letters and digits, got {code!r}")
    current = _LOADED.get(name)  # type: ignore[call-overload]  # a str finds its Module
    if current is not None and current is not stage:
        raise ValueError(f"a stage named {name!r} is registered already: {current!r}")
    taken = {get_stage(m).code: m.value for m in stage_modules() if m != name}
    if code in taken:
        raise ValueError(f"stage code {code!r} is taken by stage {taken[code]!r}")
    module = extend_module(name)  # checks the name
    _LOADED[module] = stage
    return module


def unregister_stage(name: str) -> None:
    """Take a registered stage out again (tests); built-in stages stay."""
    module = _module_of(name)
    if module in MODULE_ORDER:
        raise ValueError(f"{name!r} is a built-in stage and cannot be unregistered")
    _LOADED.pop(module, None)
    retract_module(module.value)


# ------------------------------------------------------------------ running stages


def propose_raw(module: Module, ctx: MatchContext) -> list[Candidate]:
    """All candidates of one stage as :data:`Candidate` tuples, in Meteor 1.5's lattice order."""
    return get_stage(module).candidates(ctx)


def propose_all_raw(ctx: MatchContext, modules: Sequence[Module]) -> list[list[Candidate]]:
    """Candidates per stage (as :data:`Candidate` tuples), in the order of ``modules``.

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
    """Candidates per stage, in the order of ``modules`` (see :func:`propose_all_raw`)."""
    return [list(matches_of(stage, ctx.hyp, ctx.ref)) for stage in propose_all_raw(ctx, modules)]
