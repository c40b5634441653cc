"""The package has no import cycle: every module can be read knowing only the modules below it
(``docs/architecture.md``, "Layers"). A cycle is listed with one of its rings."""

from __future__ import annotations

import re
from pathlib import Path

from tests.package.imports import cycles, import_graph

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_has_no_import_cycle() -> None:
    found = cycles(import_graph(ROOT, "omen_solver"))
    assert not found, "import cycles:\n" + "\n".join(group[0] for group in found)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


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
