"""An input error (a file that cannot be read) in the interface's language.

:func:`input_message` writes an :class:`~meteor.errors.InputError` (or a preset file's
``ParamError``) from its ``code`` and ``params`` with :mod:`pages._strings_inputs`'
templates; English is the library's own message; an unknown code in Russian, a short
note and the English text.  User text is escaped by :func:`safe_name`.
"""

from __future__ import annotations

from typing import Any

from pages._i18n import integer, num, ui
from pages._strings_inputs import NOTES_RU, TEMPLATES, WHERE_RU


def safe_name(text: str) -> str:
    """A file or system name (or a message quoting one) for Markdown: no link, image or HTML.

    Labels, progress texts and messages render Markdown, and names come from uploads;
    the characters that build links, images, HTML, code and maths are escaped, and so are
    the characters GitHub's autolinks start at (``http://``, ``www.``, ``a@b.c``).  ``_``,
    ``-`` and ``.`` stay as they are otherwise (common in file names; at worst italics).
    """
    out = []
    for k, ch in enumerate(text):
        autolink = (ch == ":" and text.startswith("//", k + 1)) or (
            ch == "." and text[max(k - 3, 0) : k].lower() == "www"
        )
        out.append("\\" + ch if ch in "\\`*{}[]()#+!|<>~$&@" or autolink else ch)
    return "".join(out)


def _ru_values(params: dict[str, Any]) -> dict[str, str]:
    """An error's params written for the Russian templates (names escaped, numbers spaced)."""
    out: dict[str, str] = {}
    for key, value in params.items():
        if isinstance(value, bool):
            note = NOTES_RU["utf16" if key == "utf16" else "last_empty"]
            out[key.replace("last_empty", "last_note").replace("utf16", "utf16_note")] = (
                note if value else ""
            )
        elif key == "byte" and isinstance(value, int):
            out[key] = f"0x{value:02x}"
        elif isinstance(value, int):
            out[key] = integer(value)
        else:
            out[key] = safe_name(str(value))
    for prefix in ("", "other_"):
        role = params.get(f"{prefix}role")
        if role in WHERE_RU:
            out[f"{prefix}where"] = WHERE_RU[role].format(
                file=out[f"{prefix}file"], system=out[f"{prefix}system"]
            )
    for key in ("size", "limit"):
        if isinstance(params.get(key), int) and "size" in params:
            out[f"{key}_mb"] = num(params[key] / 1e6, 1 if key == "size" else 0)
    return out


def input_message(exc: BaseException) -> str:
    """``exc``'s message in the interface language, one line, safe as Markdown."""
    text = safe_name(" ".join(str(exc).split()))
    if ui() != "ru":
        return text
    code = getattr(exc, "code", None)
    template = TEMPLATES.get(code, {}).get("ru") if isinstance(code, str) else None
    params = getattr(exc, "params", None)
    if template is not None and isinstance(params, dict):
        try:
            return template.format(msg=text, **_ru_values(params))
        except (KeyError, IndexError, ValueError):
            pass  # params that do not fit the template: the English text, said to be so
    return NOTES_RU["english"].format(msg=text)
