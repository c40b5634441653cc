"""A lighter package: Dask and matplotlib are the ``survey`` extra, not requirements; a
command that needs them says which extra at once (exit 2), before it starts; rules questions,
solving, puzzles and proofs run without them; ``make test`` still installs them."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("dask", "distributed", "matplotlib")


def _project() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        data: dict[str, object] = tomllib.load(file)["project"]
    return data


def test_dask_and_matplotlib_are_extras_not_requirements() -> None:
    project = _project()
    required = " ".join(project["dependencies"])  # type: ignore[arg-type]
    extras: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    assert not any(name in required for name in HEAVY)
    assert any(r.startswith("dask[distributed]") for r in extras["survey"])
    assert any(r.startswith("matplotlib") for r in extras["survey"])
    # make test installs the dev extra, which carries every extra the tests exercise
    assert any(r.startswith("dask[distributed]") for r in extras["dev"])
    assert any(r.startswith("matplotlib") for r in extras["dev"])
    assert ".[dev,web]" in (ROOT / "Makefile").read_text(encoding="utf-8")


def _without_heavy(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command line in a process where Dask and matplotlib cannot be imported, as after
    a plain ``pip install .``."""
    blocked = "; ".join(f"sys.modules[{name!r}] = None" for name in HEAVY)
    code = (f"import sys; {blocked}; from omen_solver.cli import main; "
            f"sys.exit(main({list(argv)!r}))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.mark.parametrize("argv", [
    ["omens", "play", "docs/examples/omens/worked-example.toml", "--moves", "5:11", "6:19"],
    ["solve", "puzzles/omens/harmony.toml"],
    ["solve", "--deal", "3", "--players", "4", "--cards", "3"],
    ["puzzles", "check", "puzzles/omen/endgame-occupation.toml"],
    ["omen", "ask", "puzzles/omen/endgame-keep-to-hold.toml", "keep", "1"],
    ["prove", "life-and-death", "--counterexamples", "{tmp}"],
])
def test_rules_questions_and_solving_need_neither(tmp_path: Path, argv: list[str]) -> None:
    done = _without_heavy(*(word.replace("{tmp}", str(tmp_path)) for word in argv))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("argv", "said"), [
    (["survey", "--deals", "1"], "survey on a Dask cluster: needs the 'survey' extra "
     "(distributed is not installed): pip install 'omen-solver[survey]'; or run in this "
     "process with --workers 0"),
    (["balance", "--games", "1", "--workers", "0"], "balance's plots: needs the 'survey' "
     "extra (matplotlib is not installed): pip install 'omen-solver[survey]'; or write none "
     "with --no-plots"),
])
def test_a_command_that_needs_the_extra_names_it_before_it_starts(
    tmp_path: Path, argv: list[str], said: str,
) -> None:
    out = tmp_path / "out"
    done = _without_heavy(*argv, "--out", str(out))
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert not out.exists()  # nothing started, nothing written


def test_without_the_extra_a_survey_runs_in_process_without_plots(
    tmp_path: Path,
) -> None:
    done = _without_heavy("survey", "--deals", "1", "--workers", "0", "--no-plots",
                          "--no-options", "--out", str(tmp_path / "s"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "s" / "summary.md").exists()


def test_the_check_passes_where_the_extra_is_installed() -> None:
    from omen_solver.core.extras import EXTRAS, has, require

    for module in EXTRAS["survey"]:
        assert has(module)
        require(module, "survey", "a test")
    assert not has("omen_solver_no_such_module")


# -- one wording of a missing extra (serve: tests/web/test_serve.py) ---------------------------


def _blocked(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """Make ``modules`` unimportable, as where their extra is not installed."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


def test_graph_export_and_pictures_name_their_extra_as_require_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DOT export needs the ``dot`` extra and pictures the ``draw`` one (docs/install.md):
    said in the words of :func:`omen_solver.core.extras.require`."""
    import networkx as nx

    from omen_solver.core import graph
    from omen_solver.errors import MissingDependencyError

    _blocked(monkeypatch, "pydot", "matplotlib")
    with pytest.raises(MissingDependencyError) as dot:
        graph._dot_graph(nx.DiGraph())
    assert str(dot.value) == ("DOT export: needs the 'dot' extra (pydot is not installed): "
                              "pip install 'omen-solver[dot]'")
    with pytest.raises(MissingDependencyError) as draw:
        graph._draw_with_matplotlib(nx.DiGraph(), "png")
    assert str(draw.value) == (
        "pictures: needs the 'draw' extra (matplotlib is not installed): pip install "
        "'omen-solver[draw]'; or install Graphviz's `dot` program and the 'dot' extra")
