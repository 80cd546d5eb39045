"""The settings signature, and refusing to mix results made with different settings.

:func:`settings_signature` writes every setting of a :class:`~meteor.params.Params`
as one sacreBLEU-style line (as sacreBLEU's ``BLEUSignature``); it asks the stage and
aligner registries, so it lives here, above both.  Two records may be combined
(:func:`check_same_settings`) when their signatures agree on everything except the
preset's *name* and the number of references.
"""

from __future__ import annotations

from collections.abc import Iterable

from meteor import params as _params
from meteor.aligners import get_aligner
from meteor.errors import SettingsMismatchError as SettingsMismatchError
from meteor.module_registry import Module
from meteor.params import VERSION, Params
from meteor.stages.registry import stage_code

__all__ = ["SettingsMismatchError", "check_same_settings", "settings_key", "settings_signature"]

_IGNORED = ("preset:", "nrefs:")


def _fmt(x: float) -> str:
    """A number of the signature: Python's shortest repr (two settings never share a
    signature), without a trailing ``.0`` and with ``-0.0`` as ``0``."""
    value = float(x)
    return "0" if value == 0 else repr(value).removesuffix(".0")


def settings_signature(params: Params, *, preset: str | None = None, nrefs: int = 1) -> str:
    """A sacreBLEU-style reproducibility signature that encodes every setting.

    Raises:
        ParamError: ``params.aligner`` names no registered aligner.
    """
    parts = [
        "meteor",
        f"v:{VERSION}",
        f"preset:{preset or 'custom'}",
        f"lang:{params.lang}",
        f"norm:{params.norm}{'-nopunct' if params.no_punct else ''}",
        "mods:" + "+".join(stage_code(m) for m in params.modules),
        "w:" + "/".join(_fmt(w) for _, w in params.weights),
        f"a:{_fmt(params.alpha)}",
        f"b:{_fmt(params.beta)}",
        f"g:{_fmt(params.gamma)}",
        f"d:{_fmt(params.delta)}",
        f"align:{get_aligner(params.aligner).signature(params)}",
    ]
    if Module.STEM in params.modules:
        parts.append(f"stem:{params.stemmer}")
    if params.function_words != "meteor":
        parts.append(f"fw:{params.function_words}")
    if not params.perfect_rule:
        parts.append("perfect:no")
    if params.fold_yo:
        parts.append("yo:fold")
    if params.tokenizer != "meteor":
        parts.append(f"tok:{params.tokenizer}")
    if Module.EMBEDDING in params.modules:
        parts.append(f"emb:{_fmt(params.embedding_threshold)}")
    parts.append(f"nrefs:{nrefs}")
    return "|".join(parts)


_params._signer = settings_signature  # Params.signature hands over to this function


def settings_key(signature: str) -> str:
    """The part of a signature that decides the numbers (no preset name, no ``nrefs``)."""
    return "|".join(p for p in signature.split("|") if not p.startswith(_IGNORED))


def check_same_settings(signatures: Iterable[tuple[str, str]], what: str) -> None:
    """Raise unless every ``(label, signature)`` has the same :func:`settings_key`.

    Args:
        signatures: ``(where it comes from, signature)`` pairs, e.g. ``("segment 3", sig)``.
        what: what was being done, for the message ("a corpus score", "a paired test").

    Raises:
        SettingsMismatchError: naming the first two that differ, with both signatures.
    """
    first: tuple[str, str, str] | None = None
    for label, sig in signatures:
        key = settings_key(sig)
        if first is None:
            first = (label, sig, key)
        elif key != first[2]:
            raise SettingsMismatchError(
                f"{what} cannot combine results made with different settings: "
                f"{first[0]} has signature {first[1]} but {label} has {sig}; "
                "score everything with one setting"
            )
