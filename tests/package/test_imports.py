"""Every module imports only its own layer and the layers below it, in the order
``docs/architecture.md`` ("Layers") draws them (the test reads the diagram from that page), and
the package has no import cycle: every module can be read knowing only the modules below it.
A cycle is listed with one of its rings."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import networkx as nx

from tests.package.imports import cycles, import_graph, layer_of, layers_drawn

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs/architecture.md"


def test_the_package_has_no_import_cycle() -> None:
    found = cycles(import_graph(ROOT, "omen_solver"))
    assert not found, "import cycles:\n" + "\n".join(group[0] for group in found)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def _layers(doc: str, package: str) -> Callable[[str], int | None]:
    drawn = layers_drawn(doc)
    return lambda module: layer_of(module, drawn, package)


def _upward(graph: nx.DiGraph, layer: Callable[[str], int | None]) -> list[tuple[str, str]]:
    return [(a, b) for a, b in sorted(graph.edges) if (layer(b) or 0) < (layer(a) or 0)]


def test_every_import_goes_to_its_own_layer_or_below() -> None:
    layer = _layers(ARCHITECTURE.read_text(encoding="utf-8"), "omen_solver")
    graph = import_graph(ROOT, "omen_solver")
    unplaced = sorted(m for m in graph.nodes if layer(m) is None)
    assert not unplaced, f"modules in no layer of docs/architecture.md: {unplaced}"
    upward = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})"
              for a, b in _upward(graph, layer)]
    assert not upward, "imports of a layer above (0 is the top):\n" + "\n".join(upward)


def test_the_layers_are_read_from_the_diagram() -> None:
    """The diagram's blocks, top first; the most specific name decides a module's layer."""
    layer = _layers(ARCHITECTURE.read_text(encoding="utf-8"), "omen_solver")
    assert (layer("omen_solver.__main__"), layer("omen_solver.cli.solve")) == (0, 1)
    assert layer("omen_solver.omens.game") == layer("omen_solver") == layer("omen_solver.omens")
    assert layer("omen_solver.vectors.views") == layer("omen_solver.puzzles") == 3
    assert [layer("omen_solver.omens.kernel.machine"), layer("omen_solver.omen.endgame"),
            layer("omen_solver.omens.state"), layer("omen_solver.core.game"),
            layer("omen_solver.errors"), layer("omen_solver.shipped")] == [5, 5, 6, 7, 8, 8]
    assert layer("elsewhere.module") is None


def test_an_import_of_a_layer_above_is_found(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/base.py": "def f():\n    from pkg.game import G\n    return G\n",
        "game.py": "from pkg.core import base\nG = 1\n",
    })
    doc = ("## Layers\n\n```text\n  game.py  __init__.py\n                       the game\n"
           "  ─────\n  core/                below it\n```\n")
    assert layers_drawn(doc) == [("game.py", "__init__.py"), ("core/",)]
    graph = import_graph(root, "pkg")
    assert _upward(graph, _layers(doc, "pkg")) == [("pkg.core.base", "pkg.game")]


def test_a_lazy_import_inside_a_function_closes_a_cycle(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "state.py": "def child():\n    from pkg.engine import apply\n    return apply\n",
        "engine.py": "from pkg import state\n",
    })
    found = cycles(import_graph(root, "pkg"))
    assert [group[1:] for group in found] == [["pkg.engine", "pkg.state"]]
    assert found[0][0] in ("pkg.engine -> pkg.state -> pkg.engine",
                           "pkg.state -> pkg.engine -> pkg.state")


def test_imports_for_the_type_checker_and_of_the_parent_package_close_none(
    tmp_path: Path,
) -> None:
    root = _package(tmp_path, {
        "__init__.py": "from pkg.game import GAME\n",
        "game.py": "from .state import State\nGAME = State\n",
        "state.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from pkg.game import GAME\nclass State: ...\n"),
    })
    graph = import_graph(root, "pkg")
    assert set(graph.edges) == {("pkg", "pkg.game"), ("pkg.game", "pkg.state")}
    assert cycles(graph) == []


HOOK = re.compile(r"""getattr\(\s*(?:state|root|self\.state)\s*,\s*["'][A-Za-z_]+["']\s*[,)]""")


def test_no_code_probes_a_state_for_a_method_by_name() -> None:
    """What a game offers beyond the protocol is in its descriptor (``core/game.py``)."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "omen_solver").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if HOOK.search(line)]
    assert found == []
    assert HOOK.search('hook = getattr(state, "kernel_solve", None)')
