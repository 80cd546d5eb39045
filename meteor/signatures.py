"""Refusing to mix results made with different settings.

A corpus score, a bootstrap interval or a paired test sums or compares segment
records; records made with different settings (another α, other stages, another
version) would give a number that no setting produces.  Every record carries its
signature (:meth:`meteor.Params.signature`); two records are compatible when their
signatures agree on everything except the preset's *name* (``preset:meteor-1.5``
and ``preset:custom`` with the same values score alike) and the number of
references (segments may have different numbers of references).
"""

from __future__ import annotations

from collections.abc import Iterable

from meteor.errors import SettingsMismatchError as SettingsMismatchError

__all__ = ["SettingsMismatchError", "check_same_settings", "settings_key"]

_IGNORED = ("preset:", "nrefs:")


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
