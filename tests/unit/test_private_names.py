"""No module takes another module's ``_private`` name (GUIDE: one home per concept, public
names between modules).

Between packages ruff's PLC2701 (pyproject.toml) checks it; within one package it does not
(``from meteor.scoring import _pow`` in a ``meteor`` module passes ruff 0.17.6, tried), so
this test walks the imports of the library, the pages, the tools and the benches."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # pages/ helper modules are named _* so Streamlit does not list them as pages
            if node.module == "pages":
                continue
            out += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {a.name} from {node.module}"
                for a in node.names
                if a.name.startswith("_") and not a.name.startswith("__")
            ]
    return out


@pytest.mark.parametrize("folder", ["meteor", "pages", "tools", "bench"])
def test_no_private_name_is_imported_from_another_module(folder: str) -> None:
    found = [hit for p in sorted((ROOT / folder).rglob("*.py")) for hit in _private_imports(p)]
    assert found == []
