"""The bounded-bout search (``omen_solver.puzzles.depth``): "can this side make sure to win the
round by the end of the k-th bout?", compared with a plain recursion over the explaining
engine (no table, no pruning, no kernel) on small positions.

A round lasts until a player is down to one card at the end of a bout (rules file 000, "Game
Sequence", "End of a Round"); the bout in progress counts as the first.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from omen_solver.core.budget import Budget
from omen_solver.core.game import CHANCE, SIMULTANEOUS
from omen_solver.core.positions import load_state
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.deals import DealKind, deal_round
from omen_solver.omens.playout import play_forward
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table
from omen_solver.puzzles.deep import mover_team
from omen_solver.puzzles.depth import BoutSearch, Goal

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omens"

VISITED: dict[str, int] = {"chance": 0, "exchange": 0}
"""Kinds of node the plain recursion went through (so the tests know they were covered)."""


def naive_within(state: OmensState, bouts: int, goal: Goal) -> bool:
    """The definition, spelled out on the engine: every decision of the side is an "or",
    every other decision and every chance outcome an "and"; at The Absolute's exchange
    between the sides, a gift of the side's player must win against every answer."""
    if state.is_terminal():
        winner = state.winner
        return goal.reached(-1 if winner is None else winner)
    bout_over = state.stop_predicate("bout")

    def after(move: tuple[object, ...]) -> bool:
        child = state.apply_move(move)  # type: ignore[arg-type]
        if not child.is_terminal() and bout_over(child):
            return bouts > 1 and naive_within(child, bouts - 1, goal)
        return naive_within(child, bouts, goal)

    player = state.current_player()
    if player == CHANCE:
        VISITED["chance"] += 1
        return all(after((action,)) for action, _ in state.chance_outcomes())
    if player == SIMULTANEOUS:
        VISITED["exchange"] += 1
        first, second = state.acting_players()
        if goal.side[first] == goal.side[second]:
            joint = all if not goal.side[first] else any
            return joint(after(move) for move in state.joint_actions())
        mine = first if goal.side[first] else second
        rows: dict[object, list[tuple[object, ...]]] = {}
        for move in state.joint_actions():
            rows.setdefault(move[state.acting_players().index(mine)], []).append(move)
        return any(all(after(move) for move in row) for row in rows.values())
    moves = [tuple(move) for move in state.moves()]
    if goal.side[player]:
        return any(after(move) for move in moves)
    return all(after(move) for move in moves)


def small_positions(
    players: int, count: int, max_cards: int, options: dict[str, str] | None = None
) -> list[OmensState]:
    """Positions of real deals played forward at random, small enough for the recursion."""
    table = Table(players, make_rules("rulebook", options), scope=Scope.ROUND)
    found: list[OmensState] = []
    for seed in range(400):
        rng = random.Random(seed)
        for reached in play_forward(deal_round(table, DealKind.LATER, rng), rng):
            cards = sum(map(len, reached.state.hands)) + len(reached.state.in_play)
            if cards <= max_cards:
                found.append(reached.state)
                break
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize(
    ("players", "max_cards", "options", "count"),
    [
        (4, 10, {}, 12),
        (4, 10, {"luck_chooser": "random"}, 12),
        (5, 12, {}, 12),
        (6, 13, {}, 6),
    ],
)
def test_agrees_with_the_plain_recursion(
    players: int, max_cards: int, options: dict[str, str], count: int
) -> None:
    positions = small_positions(players, count, max_cards, options)
    assert len(positions) == count
    seen = set()
    for state in positions:
        team = mover_team(state)
        for goal in (
            Goal.team_wins(players, team),
            Goal.team_fails(players, team),
        ):
            search = BoutSearch(state, goal)
            for bouts in (1, 2, 3):
                expected = naive_within(state, bouts, goal)
                assert search.won_within(bouts) == expected, (state, goal, bouts)
                seen.add(expected)
    assert seen == {True, False}


def test_chance_and_exchanges_were_compared() -> None:
    """The comparison above went through Luck's random discard and The Absolute's secret
    exchange (rules file 000, "Luck", "The Absolute"); run after it."""
    if VISITED == {"chance": 0, "exchange": 0}:
        for options in [{}, {"luck_chooser": "random"}]:
            test_agrees_with_the_plain_recursion(4, 10, options, 12)
    assert VISITED["chance"] > 0
    assert VISITED["exchange"] > 0


def test_depth_is_the_fewest_bouts_and_the_line_takes_that_many() -> None:
    positions = small_positions(4, 8, 10)
    depths = set()
    for state in positions:
        team = mover_team(state)
        for goal in (Goal.team_wins(4, team), Goal.team_fails(4, team)):
            search = BoutSearch(state, goal)
            depth = search.depth(limit=6)
            if depth is None:
                continue
            depths.add(depth)
            assert depth == 1 or not naive_within(state, depth - 1, goal)
            assert naive_within(state, depth, goal)
            line = search.line(depth)
            replayed = state
            for step in line:
                replayed = replayed.apply_move(search.engine_move(step.move))
            assert replayed.is_terminal()
            assert goal.reached(-1 if replayed.winner is None else replayed.winner)
            over = BoutSearch(replayed, goal)
            assert over.won_within(1) and over.depth() == 1 and over.line(1) == []
            assert line[-1].bouts_left == 0
            bout_starts = state.stop_predicate("bout")
            ends = 1  # the bout in which the round ends
            replayed = state
            for step in line[:-1]:
                replayed = replayed.apply_move(search.engine_move(step.move))
                ends += bout_starts(replayed)
            assert ends <= depth
    assert len(depths) >= 2


def test_two_bouts_to_win_with_pride() -> None:
    """puzzles/omens/pride-hands-the-lead.toml: Pride hands the lead to seat 2, and seats 1
    and 3 win in the second bout, not in the first (omens-cards.md 22)."""
    state = load_state(PUZZLES / "pride-hands-the-lead.toml")
    search = BoutSearch(state, Goal.team_wins(4, (1, 3)))
    assert not search.won_within(1)
    assert search.depth() == 2


def test_budget_is_kept() -> None:
    state = small_positions(4, 1, 14)[0]
    search = BoutSearch(state, Goal.team_wins(4, mover_team(state)), budget=Budget(max_nodes=3))
    with pytest.raises(BudgetExceeded):
        search.depth()
