"""Alpha-beta and df-pn by turns (kernel/portfolio.py), the default search of a round: the same
answers as alpha-beta alone, the same node counts on every run and in both kernels, and the
budget kept.

The answers are those the rules give (a round is won by the team one of whose players is left
with 1 card: rules file 000, "Goal of the Game"); the reference for them is the kernel's
alpha-beta, itself tested against the reference solver (test_solve.py)."""

from __future__ import annotations

import random

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import solve
from omen_solver.errors import ChoiceError
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE
from tests.omens_kernel.helpers import random_small


def _concept(players: int) -> str:
    return "paranoid" if players == 6 else "minimax"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_every_search_gives_the_same_answer(players: int) -> None:
    rng = random.Random(40 + players)
    compared = 0
    for _ in range(12):
        state = random_small(rng, players, rng.randint(2, 3 if players < 6 else 2))
        if state.is_terminal():
            continue
        team = [seat + 1 for seat in state.teams()[rng.randrange(len(state.teams()))]]
        answers = {}
        for algorithm in ("alphabeta", "dfpn", "portfolio"):
            result = solve(state, concept=_concept(players), team=team,
                           budget=Budget(max_nodes=500_000), algorithm=algorithm)
            answers[algorithm] = result
        if any(r.status is not Status.SOLVED for r in answers.values()):
            continue
        reference = answers["alphabeta"]
        for algorithm in ("dfpn", "portfolio"):
            found = answers[algorithm]
            assert found.extra["algorithm"] == algorithm
            assert (found.value, found.values, set(found.best_actions)) == (
                reference.value, reference.values, set(reference.best_actions)
            ), (state, algorithm)
            # the line is legal and keeps the value (replayed on the explaining engine)
            line = state
            for text in found.principal_variation:
                line = line.apply_move(line.parse_move(text))
        compared += 1
    assert compared >= 6


def test_the_same_position_gives_the_same_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    state = random_small(rng, 4, 3)
    runs = [solve(state, budget=Budget(max_nodes=3_000_000)) for _ in range(2)]
    if compiled.AVAILABLE:
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
        runs.append(solve(state, budget=Budget(max_nodes=3_000_000)))
    assert runs[0].extra["algorithm"] == "portfolio"
    assert len({(r.value, r.nodes, r.states, r.best_actions) for r in runs}) == 1


def test_a_node_budget_is_kept_and_answered_unknown() -> None:
    rng = random.Random(8)
    state = random_small(rng, 4, 5)
    result = solve(state, budget=Budget(max_nodes=120_000))
    assert result.status is Status.UNKNOWN
    assert result.nodes <= 120_000
    assert "node limit of 120000" in (result.note or "")


def test_an_algorithm_needs_the_kernel() -> None:
    rng = random.Random(9)
    state = random_small(rng, 4, 2)
    with pytest.raises(ChoiceError, match="reference search has one"):
        solve(state, engine="reference", algorithm="dfpn")
    with pytest.raises(ChoiceError, match="unknown"):
        solve(state, algorithm="minimax")


def test_solve_command_takes_a_search(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "--deal", "3", "--players", "4", "--cards", "2", "--search", "dfpn"])
    out = capsys.readouterr().out
    assert code == 0
    assert "search: dfpn" in out
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "--deal", "3", "--players", "4", "--search", "fastest"])
    assert stopped.value.code == 2


def test_an_omen_position_has_no_choice_of_search(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "docs/examples/omen/position.toml", "--search", "dfpn"])
    assert code == 2
    assert "Omen positions have one search" in capsys.readouterr().err
