"""The solver on Omens rounds: against the naive reference and, when the optional extra is
installed, against OpenSpiel's alpha-beta through the adapter (docs/search.md, "OpenSpiel").

Rounds are dealt from a fixed seed: four or five players, two cards each (the last bouts of a
round: larger rounds take OpenSpiel's table-less search minutes), no card of
The Absolute (30-35), whose exchange is a simultaneous choice of both teams that OpenSpiel's
sequential search cannot play (rules file 000, The Absolute; docs/search.md)."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from omen_solver.core.positions import load_state
from omen_solver.core.search import naive_solve, solve

TEAMS = {4: "[[1, 3], [2, 4]]", 5: "[[1, 3], [2, 4, 5]]"}


def deals(count: int, size: int = 2) -> list[tuple[int, int, list[list[int]], int]]:
    rng = random.Random(2024)
    found = []
    for index in range(count):
        players = 4 if index % 2 == 0 else 5
        cards = rng.sample(range(1, 30), players * size)
        hands = [sorted(cards[p * size:(p + 1) * size]) for p in range(players)]
        found.append((index, players, hands, 1 + index % players))
    return found


DEALS = deals(24)


def write(tmp_path: Path, deal: tuple[int, int, list[list[int]], int]) -> Path:
    index, players, hands, leader = deal
    lines = ['game = "omens"', f"players = {players}", f"teams = {TEAMS[players]}", "[hands]"]
    lines += [f"{seat + 1} = {hand}" for seat, hand in enumerate(hands)]
    lines += ["[bout]", f"leader = {leader}"]
    path = tmp_path / f"deal{index}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"deal{d[0]}-{d[1]}p")
def test_solver_agrees_with_naive_and_openspiel_on_omens_rounds(tmp_path: Path, deal) -> None:
    pytest.importorskip("omen_solver.omens.position")
    state = load_state(write(tmp_path, deal))
    ours = solve(state, team=1)
    reference = naive_solve(state, team=1)
    assert (ours.value, ours.best_actions) == (reference.value, reference.best_actions)
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import minimax

    from omen_solver.integrations.openspiel import make_game

    game = make_game(state)
    value, _ = minimax.alpha_beta_search(
        game, maximum_depth=game.max_game_length(), maximizing_player_id=0
    )
    assert math.isclose(value + game.facts.total / 2, ours.value)


def test_the_deals_are_not_all_alike(tmp_path: Path) -> None:
    pytest.importorskip("omen_solver.omens.position")
    values = {solve(load_state(write(tmp_path, deal)), team=1).value for deal in DEALS}
    assert values == {0, 1}  # both teams win some of these rounds
