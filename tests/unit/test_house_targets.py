"""Issue 32's size targets for ``meteor/`` and ``pages/``.

* At most two modules over 600 lines, named in :data:`ALLOWED_LONG_MODULES`.
* No function over 80 lines except the documented search ports
  (:data:`DOCUMENTED_PORTS`), each of which docs/architecture.md names.

Lines are counted as the file's lines; a function's length runs from its ``def``
line to its last line (``ast``'s ``lineno`` .. ``end_lineno``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("meteor", "pages")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

#: The modules allowed over 600 lines (at most two).  Both are being cut down by
#: other work of issue 32 (the batch core out of ``Meteor``; the corpus page);
#: the list is tightened when those land.
ALLOWED_LONG_MODULES = frozenset({"meteor/metric.py", "pages/corpus.py"})

#: Functions kept long on purpose: faithful ports read line by line against their
#: Java or paper source (docs/architecture.md, "Where the code lives").
DOCUMENTED_PORTS = frozenset(
    {
        ("meteor/aligners/beam.py", "_python_search"),
        ("meteor/aligners/beam.py", "_heap_step"),
        ("meteor/aligners/stagewise_block.py", "dynamic_programme"),
        ("meteor/aligners/stagewise_block.py", "branch_and_bound"),
    }
)


def _sources() -> list[Path]:
    paths: list[Path] = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if "data" in path.relative_to(ROOT / pkg).parts:
                continue  # vendored scripts, not ours
            paths.append(path)
    return paths


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def long_modules() -> set[str]:
    """Modules of meteor/ and pages/ over :data:`MAX_MODULE_LINES` lines."""
    out = set()
    for path in _sources():
        n_lines = len(path.read_text(encoding="utf-8").splitlines())
        if n_lines > MAX_MODULE_LINES:
            out.add(_rel(path))
    return out


def long_functions() -> dict[tuple[str, str], int]:
    """(module, function) → length, for every function over :data:`MAX_FUNCTION_LINES`."""
    out: dict[tuple[str, str], int] = {}
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    out[(_rel(path), node.name)] = length
    return out


def test_the_allowlist_names_at_most_two_modules() -> None:
    assert len(ALLOWED_LONG_MODULES) <= 2


def test_at_most_two_modules_over_600_lines() -> None:
    over = long_modules()
    assert over <= ALLOWED_LONG_MODULES, sorted(over - ALLOWED_LONG_MODULES)


def test_only_the_documented_ports_are_over_80_lines() -> None:
    extra = {
        key: n for key, n in long_functions().items() if key not in DOCUMENTED_PORTS and n > 80
    }
    assert not extra, extra


def test_architecture_names_each_documented_port() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for module, name in sorted(DOCUMENTED_PORTS):
        assert module.removeprefix("meteor/") in doc, module
        assert f"`{name}`" in doc, name
