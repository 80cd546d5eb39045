"""The import graph of ``meteor/`` and ``pages/``: no cycle, no import up a layer.

Every ``import`` statement counts, wherever it stands: at module level, inside a
function, or under ``if TYPE_CHECKING:`` (a type named by a lower layer is a
dependency on the higher one all the same).  The layers are those of
docs/architecture.md, "Layers"; :data:`LAYERS` is that table, and a test checks
that every module has a layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("meteor", "pages")

#: Layer of each module, by the longest matching dotted prefix (docs/architecture.md).
#: A module may import its own layer or a lower one, never a higher one.
LAYERS: dict[str, int] = {
    # 1 foundation: errors, small rules, the records (tokens, matches, chunks, results)
    "meteor.errors": 1,
    "meteor.rules": 1,
    "meteor.json_numbers": 1,
    "meteor.runtime": 1,
    "meteor.memo": 1,
    "meteor.resources": 1,
    "meteor.types": 1,
    "meteor.match_tuples": 1,
    "meteor.module_registry": 1,
    "meteor.stats": 1,
    "meteor.chunking": 1,
    # 2 text and languages: normalisers, tokenisers, language resources
    "meteor.text": 2,
    "meteor.languages": 2,
    # 3 settings: Params (a value) and the presets
    "meteor.params": 3,
    "meteor.presets": 3,
    # 4 stages, 5 aligners
    "meteor.stages": 4,
    "meteor.aligners": 5,
    # 6 the metric: scoring formula, settings signature, Meteor, the corpus runner's core
    "meteor.scoring": 6,
    "meteor.signatures": 6,
    "meteor.metric": 6,
    "meteor.batch": 6,
    # 7 beyond one score: analysis, files, drop-ins
    "meteor.analysis": 7,
    "meteor.runners": 7,
    "meteor.io": 7,
    "meteor.compat": 7,
    # 8 front ends inside the package: figures, CLI, the package's face
    "meteor.viz": 8,
    "meteor.cli": 8,
    "meteor": 8,
    "meteor.__main__": 8,
    # 9 the app
    "pages": 9,
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if "data" in path.relative_to(ROOT / pkg).parts:
                continue  # vendored scripts (compat/hf_meteor lives under compat, not data)
            out[_module_name(path)] = path
    return out


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module of ours that ``name`` (a module or a name in one) lands in."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Our modules that ``module`` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_pkg else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
            targets = [t for t in targets if t.rstrip(".")]
            hit = [t for t in targets[:-1] if t in modules]
            targets = hit or targets[-1:]
        for target in targets:
            got = _resolve(target, modules)
            if got is not None and got != module:
                out.add(got)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: imports_of(m, p, modules) for m, p in modules.items()}


def layer_of(module: str) -> int:
    name = module
    while name:
        if name in LAYERS:
            return LAYERS[name]
        name = name.rpartition(".")[0]
    raise KeyError(module)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{a} (layer {layer_of(a)}) imports {b} (layer {layer_of(b)})"
        for a, targets in graph.items()
        for b in targets
        if layer_of(b) > layer_of(a)
    )


def test_every_module_has_a_layer() -> None:
    missing = []
    for module in import_graph():
        try:
            layer_of(module)
        except KeyError:
            missing.append(module)
    assert not missing, f"no layer in LAYERS (and docs/architecture.md) for {missing}"


def test_the_import_graph_has_no_cycle() -> None:
    assert cycles(import_graph()) == []


def test_no_module_imports_a_higher_layer() -> None:
    assert upward_imports(import_graph()) == []


def test_function_level_and_type_checking_imports_are_read(tmp_path: Path) -> None:
    # the checker itself: an import inside a function or under TYPE_CHECKING is an edge
    src = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from meteor.params import Params\n"
        "def f():\n    from meteor.aligners import get_aligner\n"
        "    from . import chunking\n"
    )
    path = tmp_path / "probe.py"
    path.write_text(src, encoding="utf-8")
    modules = _modules()
    got = imports_of("meteor.probe", path, modules)
    assert {"meteor.params", "meteor.aligners", "meteor.chunking"} <= got
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_the_graph_sees_each_package(package: str) -> None:
    assert any(m == package or m.startswith(package + ".") for m in import_graph())
