"""The import graph of a package, read from its source with :mod:`ast` (nothing is imported).

An edge ``a -> b`` is an import of module ``b`` anywhere in module ``a``: at the top, or inside
a function (a lazy import still ties ``a`` to ``b``). Imports under ``if TYPE_CHECKING:`` are
left out: they exist only for the type checker and never run. ``from package import name``
counts as an import of ``package.name`` when that is a module, else of ``package``. A
package's ``__init__`` is not counted as imported by its submodules (Python runs it first
whatever they import)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import networkx as nx

__all__ = ["cycles", "import_graph", "layer_of", "layers_drawn"]


def _modules(root: Path, package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _targets(node: ast.Import | ast.ImportFrom, here: list[str], modules: dict[str, Path]
             ) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = here[: len(here) - node.level + 1] if node.level else []
    module = ".".join([*base, *([node.module] if node.module else [])])
    return [f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module
            for alias in node.names]


def import_graph(root: Path, package: str) -> nx.DiGraph:
    """The modules of ``root/package`` and their imports of one another."""
    modules = _modules(root, package)
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, here, modules):
                if target in modules and target != name:
                    graph.add_edge(name, target)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """Each group of modules that import one another in a ring, with one ring of it written
    out (``a -> b -> a``) as the first item; largest groups first."""
    found = []
    for group in nx.strongly_connected_components(graph):
        if len(group) > 1:
            ring = [edge[0] for edge in nx.find_cycle(graph.subgraph(group))]
            found.append([" -> ".join([*ring, ring[0]]), *sorted(group)])
    return sorted(found, key=len, reverse=True)


def layers_drawn(page: str) -> list[tuple[str, ...]]:
    """The layers of the diagram under ``## Layers`` of an architecture page, top first: each
    block between rules of ``─`` names its folders (``core/``: every module in it) and modules
    (``game.py``; ``__init__.py``: a package itself) in its first column, before its
    description, as paths inside the package."""
    section = page.split("## Layers", 1)[1]
    diagram = section.split("```text", 1)[1].split("```", 1)[0]
    blocks: list[list[str]] = [[]]
    for line in diagram.splitlines():
        if line.strip().startswith("─"):
            blocks.append([])
        elif line.strip() and not line.startswith(" " * 4):
            names = re.split(r"\s{3,}", line.strip())[0]
            blocks[-1].extend(re.split(r"[\s,]+", names))
    return [tuple(block) for block in blocks if block]


def layer_of(module: str, layers: Sequence[tuple[str, ...]], package: str) -> int | None:
    """The index of the layer of ``module`` (0 the top): the one naming it most specifically
    (the module's own file, else the deepest folder holding it); ``None`` if none names it."""
    if module != package and not module.startswith(package + "."):
        return None
    inside = module.removeprefix(package).lstrip(".").replace(".", "/")
    files = {f"{inside}.py", f"{inside}/__init__.py"} if inside else {"__init__.py"}
    best: tuple[int, int] | None = None
    for index, names in enumerate(layers):
        for name in names:
            named = name in files if not name.endswith("/") else any(
                file.startswith(name) for file in files)
            if named and (best is None or len(name) > best[1]):
                best = (index, len(name))
    return None if best is None else best[0]
