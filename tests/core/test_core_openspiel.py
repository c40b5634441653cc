"""The OpenSpiel adapter: OpenSpiel's own search agrees with ours (docs/search.md,
"OpenSpiel"). Skipped when the optional extra ``openspiel`` is not installed."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from core_toys import (
    THREE_TEAMS_OF_TWO,
    CoinRow,
    GustNim,
    MatrixToy,
    RandomGame,
    RandomSpec,
    TeamNim,
)

from omen_solver.core.search import solve
from omen_solver.errors import ConceptError
from omen_solver.integrations.openspiel import scan

POSITIONS = Path(__file__).parent / "data" / "positions"

DETERMINISTIC = (
    [TeamNim(pile) for pile in range(1, 9)]
    + [TeamNim(6, teams_=((0, 1), (2, 3)))]
    + [CoinRow((3, 1, 4, 1, 5)), CoinRow((2, 7, 1, 8, 2, 8))]
    + [RandomGame(RandomSpec(seed, depth=5, id_space=9)) for seed in range(8)]
)
WITH_CHANCE = [GustNim(pile) for pile in range(2, 8)] + [
    RandomGame(RandomSpec(50 + seed, depth=5, chance_percent=30, id_space=9)) for seed in range(8)
]


def test_at_least_twenty_positions_are_compared() -> None:
    assert len(DETERMINISTIC) + len(WITH_CHANCE) >= 20


@pytest.mark.parametrize("root", DETERMINISTIC, ids=str)
def test_alpha_beta_search_agrees(root) -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    from omen_solver.integrations.openspiel import make_game

    game = make_game(root)
    facts = game.facts
    value, _ = minimax.alpha_beta_search(
        game, maximum_depth=game.max_game_length(), maximizing_player_id=0
    )
    ours = solve(root, team=1).value
    assert math.isclose(value + facts.total / 2, ours, abs_tol=1e-9)


@pytest.mark.parametrize("root", WITH_CHANCE, ids=str)
def test_expectiminimax_agrees(root) -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    from omen_solver.integrations.openspiel import make_game

    game = make_game(root)
    assert game.get_type().chance_mode.name == "EXPLICIT_STOCHASTIC"
    value, _ = minimax.expectiminimax(game.new_initial_state(), game.max_game_length(), None, 0)
    ours = solve(root, team=1).value
    assert math.isclose(value + game.facts.total / 2, ours, abs_tol=1e-9)


def test_registered_game_loads_a_position_file() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    from omen_solver.integrations.openspiel import GAME_NAME, load_game

    game = load_game(POSITIONS / "nim10.toml")
    assert GAME_NAME in pyspiel.registered_names()
    value, action = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length())
    # Ten tokens, moves 1..3: the player to move wins by taking 2 (10 % 4), for 1 - 1/2.
    assert value == 0.5
    assert game.new_initial_state().action_to_string(0, action) == "take2"


def test_state_api() -> None:
    pytest.importorskip("pyspiel")
    from omen_solver.integrations.openspiel import make_game

    game = make_game(GustNim(3))
    state = game.new_initial_state()
    assert (state.current_player(), state.legal_actions()) == (0, [0, 1])
    clone = state.clone()
    clone.apply_action(0)
    assert clone.is_chance_node() and not state.is_chance_node()
    assert clone.chance_outcomes() == [(0, pytest.approx(2 / 3)), (1, pytest.approx(1 / 3))]
    assert clone.action_to_string(-1, 1) == "gust"
    clone.apply_action(1)
    assert clone.current_player() == 1  # the gust left one token, for seat 2 (team 1)
    clone.apply_action(0)
    assert clone.is_terminal() and clone.returns() == [-0.5, 0.5]


def test_teammates_choosing_at_once_are_one_openspiel_move() -> None:
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    from omen_solver.integrations.openspiel import make_game

    # Seats 1 and 2 (one team) choose at once: one joint choice, worth the best cell, 5.
    root = MatrixToy((((1, -1), (-1, 5)),), teams_=((0, 1), (2,)))
    game = make_game(root)
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2, 3]
    assert state.action_to_string(0, 3) == "r1&c1"
    value, action = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length())
    assert (value, action) == (5.0, 3) == (solve(root).value, 3)


def test_facts() -> None:
    facts = scan(GustNim(4))
    assert (facts.max_actions, facts.max_chance_outcomes, facts.has_chance) == (2, 2, True)
    # Four takes of one token, with a calm after each of the first three.
    assert facts.max_length == 7
    assert (facts.min_return, facts.max_return, facts.total) == (0, 1, Fraction(1))


def test_refusals() -> None:
    with pytest.raises(ConceptError, match="both teams choose at once"):
        scan(MatrixToy((((1, -1), (-1, 1)),)))
    with pytest.raises(ConceptError, match="two teams"):
        scan(CoinRow((1, 2, 3), teams_=((0,), (1,), (2,))))
    with pytest.raises(ConceptError, match="not a zero-sum game"):
        scan(RandomGame(RandomSpec(1, depth=3, constant_sum=False)))
    with pytest.raises(ConceptError, match="more than 10 states"):
        scan(TeamNim(30), max_states=10)
    assert THREE_TEAMS_OF_TWO  # the three-team layout used above is the toys' own
