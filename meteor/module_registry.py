"""The matching stages' names (:class:`Module`) and their slots in the statistics.

The six built-in stages are the members of :class:`Module`, in the fixed order
:data:`MODULE_ORDER`; a stage registered at run time becomes a pseudo-member
(:func:`extend_module`) with a slot after them (:func:`module_slot`) for the life of
the process.
"""

from __future__ import annotations

import re
from enum import StrEnum

__all__ = [
    "MODULE_ORDER",
    "STAGE_NAME",
    "Module",
    "extend_module",
    "module_order",
    "module_slot",
    "retract_module",
    "stage_modules",
]

#: What a registered stage may be called: lowercase letters, digits and ``_``, starting
#: with a letter (it appears in URLs as ``w_<stage>``, in the CLI and in JSON keys).
STAGE_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: Stages registered at run time (:func:`meteor.stages.registry.register_stage`), by name.
_EXTENSIONS: dict[str, Module] = {}
#: Every name ever registered, in registration order: its statistics slot is 6 + its index
#: here, and stays so for the life of the process (records made with it stay readable).
_EXTRA_SLOTS: list[Module] = []


class Module(StrEnum):
    """A matching stage.  The value is the name used in records, figures and the CLI."""

    EXACT = "exact"
    STEM = "stem"
    SYNONYM = "synonym"
    PARAPHRASE = "paraphrase"
    LEMMA = "lemma"
    EMBEDDING = "embedding"

    @classmethod
    def _missing_(cls, value: object) -> Module | None:
        """``Module("toy")`` for a stage registered under that name (:func:`extend_module`)."""
        return _EXTENSIONS.get(value) if isinstance(value, str) else None


#: Fixed order of the per-module statistics (never "i-th enabled module").
MODULE_ORDER: tuple[Module, ...] = (
    Module.EXACT,
    Module.STEM,
    Module.SYNONYM,
    Module.PARAPHRASE,
    Module.LEMMA,
    Module.EMBEDDING,
)
N_BUILTIN = len(MODULE_ORDER)
ZEROS: tuple[int, ...] = (0,) * N_BUILTIN
_BUILTIN_SLOT: dict[Module, int] = {m: k for k, m in enumerate(MODULE_ORDER)}


def extend_module(name: str) -> Module:
    """The :class:`Module` of a stage named ``name``, made a module if it is a new name.

    A new name gives a *pseudo-member*: a ``Module`` instance outside the enumeration
    (``list(Module)`` stays the six built-in stages) that ``Module(name)`` returns while
    the stage is registered and that behaves like a member everywhere.

    Raises:
        ValueError: ``name`` is not a :data:`STAGE_NAME`.
    """
    if not isinstance(name, str) or not STAGE_NAME.fullmatch(name):
        raise ValueError(
            f"a stage name is lowercase letters, digits and '_' starting with a letter, "
            f"got {name!r}"
        )
    if name in Module._value2member_map_:
        return Module(name)
    for known in _EXTRA_SLOTS:
        if known.value == name:
            _EXTENSIONS[name] = known
            return known
    member = str.__new__(Module, name)
    member._name_ = name.upper()
    member._value_ = name
    _EXTENSIONS[name] = member
    _EXTRA_SLOTS.append(member)
    return member


def retract_module(name: str) -> None:
    """``Module(name)`` fails again (the stage was unregistered); its slot is kept."""
    _EXTENSIONS.pop(name, None)


def stage_modules() -> tuple[Module, ...]:
    """The built-in stages, then the registered ones (in registration order)."""
    return MODULE_ORDER + tuple(m for m in _EXTRA_SLOTS if _EXTENSIONS.get(m.value) is m)


def module_order() -> tuple[Module, ...]:
    """The order of the per-module statistics: :data:`MODULE_ORDER`, then every stage
    registered in this process (slots are never reused)."""
    return MODULE_ORDER + tuple(_EXTRA_SLOTS)


def module_slot(module: Module) -> int:
    """Index of ``module`` in :func:`module_order` (the built-in six: :data:`MODULE_ORDER`)."""
    k = _BUILTIN_SLOT.get(module)
    if k is None:
        k = N_BUILTIN + _EXTRA_SLOTS.index(module)
    return k
