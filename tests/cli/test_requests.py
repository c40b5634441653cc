"""``solve`` and ``puzzles check`` share the solving of a position file through one typed
request read from each command line once (``cli/requests.py``), never through the namespace
argparse builds, which holds only the flags of its own command."""

from __future__ import annotations

import ast
from pathlib import Path

from omen_solver.cli import build_parser
from omen_solver.cli.requests import SolveRequest
from omen_solver.core.budget import Budget

ROOT = Path(__file__).resolve().parents[2]
HARMONY = ROOT / "puzzles/omens/harmony.toml"


def test_solve_asks_what_its_flags_say() -> None:
    args = build_parser().parse_args([
        "solve", str(HARMONY), "--team", "1,3", "--max-seconds", "5", "--rule",
        "fear_pass_on=yes", "--preset", "gamepark", "--threads", "2", "--engine", "kernel",
        "--max-memory", "1G"])
    assert SolveRequest.from_args(args) == SolveRequest(
        preset="gamepark", rules=(("fear_pass_on", "yes"),), team=(1, 3), max_seconds=5.0,
        threads=2, engine="kernel", max_memory=1 << 30, estimates=True)


def test_solve_asks_for_estimates_and_their_seed() -> None:
    """``--seed`` and ``--no-estimates`` (docs/estimates.md); ``puzzles check`` has neither,
    so its request says nothing of estimates (None)."""
    args = build_parser().parse_args(["solve", str(HARMONY), "--seed", "7"])
    assert SolveRequest.from_args(args).seed == 7
    assert SolveRequest.from_args(args).estimates is True
    args = build_parser().parse_args(["solve", str(HARMONY), "--no-estimates"])
    assert SolveRequest.from_args(args).estimates is False
    args = build_parser().parse_args(["puzzles", "check"])
    assert SolveRequest.from_args(args).estimates is None


def test_puzzles_check_asks_the_budget_only() -> None:
    """``puzzles check`` has no question flags: each puzzle asks its own."""
    args = build_parser().parse_args(["puzzles", "check", "--max-nodes", "1000"])
    request = SolveRequest.from_args(args)
    assert request == SolveRequest(max_nodes=1000)
    assert request.budget(Budget(None, 30.0)) == Budget(1000, 30.0)


def test_the_deal_s_flags_are_named_for_the_file_s_refusal() -> None:
    args = build_parser().parse_args(["solve", str(HARMONY), "--players", "4", "--cards", "3"])
    assert SolveRequest.from_args(args).deal_flags == ("players", "cards")


def test_the_shared_solving_never_probes_the_namespace() -> None:
    """No ``getattr(args, ...)`` in ``cli/solve.py``: what it reads is typed."""
    tree = ast.parse((ROOT / "omen_solver/cli/solve.py").read_text(encoding="utf-8"))
    probes = [node.lineno for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "getattr" and node.args
              and isinstance(node.args[0], ast.Name) and node.args[0].id == "args"]
    assert probes == []
