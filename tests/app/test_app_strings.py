"""The UI strings (pages/_i18n.py): one read-only shared table, each page's own on top.

Issue #14: ``STRINGS`` was one mutable table every page wrote into at import
(``add_strings``), so a key meant whatever the page imported last defined.  Now the
shared table is read-only, each page builds its own ``t`` (``Translator``) over its
table and the shared one, and a key defined twice differently is refused.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pages import _i18n
from pages._i18n import STRINGS, Translator, freeze

PAGES = Path(__file__).resolve().parents[2] / "pages"


def test_the_shared_table_cannot_be_written() -> None:
    with pytest.raises(TypeError):
        STRINGS["hyp"] = {"en": "changed"}  # type: ignore[index]
    with pytest.raises(TypeError):
        STRINGS["hyp"]["en"] = "changed"  # type: ignore[index]
    assert not hasattr(_i18n, "add_strings")


def test_a_page_table_is_read_only_and_shadows_nothing() -> None:
    page = freeze({"only_here": {"en": "here", "ru": "здесь"}})
    t = Translator(page)
    assert t("only_here") == "here" and t("hyp") == "Hypothesis"
    assert "only_here" in t and "only_here" not in STRINGS
    with pytest.raises(ValueError, match="'hyp' is defined twice"):
        Translator(freeze({"hyp": {"en": "something else"}}))
    with pytest.raises(ValueError, match="no English"):
        freeze({"x": {"ru": "только по-русски"}})


def _tables(path: Path) -> dict[str, set[str]]:
    """The keys of every ``NAME = freeze({...})`` literal in a page file."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", "") == "freeze"
        ):
            out[node.targets[0].id] = set(ast.literal_eval(node.value.args[0]))  # type: ignore[attr-defined]
    return out


#: page file → the tables its ``t`` reads besides the shared one
PAGE_TABLES = {
    "inspect.py": ("inspect.py", "_near_misses.py"),
    "_near_misses.py": ("_near_misses.py",),
    "compare.py": ("compare.py",),
    "learn.py": ("learn.py", "_match_details.py"),
    "_match_details.py": ("_match_details.py",),
    "corpus.py": ("corpus.py", "_corpus_common.py"),
    "_corpus_common.py": ("_corpus_common.py",),
}


@pytest.mark.parametrize("page", sorted(PAGE_TABLES))
def test_every_key_a_page_asks_for_is_defined_for_it(page: str) -> None:
    """A key missing from the page's ``t`` would show as the raw key on screen."""
    known = set(STRINGS)
    for name in PAGE_TABLES[page]:
        for keys in _tables(PAGES / name).values():
            known |= keys
    asked = set(re.findall(r'\bt\(\s*"([A-Za-z0-9_]+)"', (PAGES / page).read_text("utf-8")))
    assert asked, page  # the scan finds the page's keys (it can fail)
    assert not asked - known, f"{page}: keys without a string: {sorted(asked - known)}"


def test_shared_modules_ask_only_for_shared_keys() -> None:
    for name in ("_settings.py", "_pair.py", "_scoring.py", "_widgets.py", "_i18n.py"):
        asked = set(re.findall(r'\bt\(\s*"([A-Za-z0-9_]+)"', (PAGES / name).read_text("utf-8")))
        assert not asked - set(STRINGS), (name, sorted(asked - set(STRINGS)))
