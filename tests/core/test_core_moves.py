"""Per-move answers at the root (docs/search.md, "Every root move"): each move's answer agrees
with the naive solver's value of the position after it, and what a search cut short by its
budget says is proven (its bounds hold the true value)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core_toys import RandomGame, RandomSpec, TeamNim
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import SIMULTANEOUS, GameState
from omen_solver.core.search import Budget, Status, naive_solve, solve
from omen_solver.core.search.moves import MoveAnswer, MoveStatus, order_best_first


def _children(root: GameState[Any]) -> dict[str, GameState[Any]]:
    if root.current_player() == SIMULTANEOUS:
        return {root.joint_to_string(j): root.joint_child(j) for j in joint_actions(root)}
    return {root.action_to_string(a): root.child(a) for a in root.legal_actions()}


def _check_moves(root: GameState[Any], moves: tuple[MoveAnswer, ...], team: list[int],
                 concept: str, low: Fraction | None, high: Fraction | None) -> None:
    children = _children(root)
    assert sorted(m.action for m in moves) == sorted(children)
    for move in moves:
        truth = naive_solve(children[move.action], concept=concept, team=team).value
        assert truth is not None
        if move.settled:
            assert move.value == truth, move
            assert (move.status is MoveStatus.WON) == (truth == high), move
            assert (move.status is MoveStatus.LOST) == (truth == low), move
        else:
            assert move.value is None
            assert move.lower is None or move.lower <= truth, move
            assert move.upper is None or truth <= move.upper, move


specs = st.builds(
    RandomSpec,
    seed=st.integers(0, 10**6),
    depth=st.integers(2, 5),
    branching=st.integers(2, 3),
    id_space=st.integers(2, 12),
    chance_percent=st.integers(0, 20),
    simultaneous_percent=st.integers(0, 20),
)


@settings(max_examples=40, deadline=None)
@given(specs, st.sampled_from([None, 2, 9, 40]))
def test_every_move_agrees_with_the_value_after_it(spec: RandomSpec, nodes: int | None) -> None:
    root = RandomGame(spec)
    if root.current_player() < 0 and root.current_player() != SIMULTANEOUS:
        return
    for bounds in (None, (Fraction(0), Fraction(4))):
        for team in root.teams():
            seats = [p + 1 for p in team]
            budget = Budget(max_nodes=nodes)
            found = solve(root, team=seats, budget=budget, bounds=bounds)
            exact = naive_solve(root, team=seats)
            if found.status is Status.SOLVED:
                assert found.value == exact.value
                assert set(found.best_actions) == set(exact.best_actions)
            else:
                assert found.lower is None or found.lower <= exact.value  # type: ignore[operator]
                assert found.upper is None or exact.value <= found.upper  # type: ignore[operator]
            if not found.moves:
                continue
            acting = root.acting_players() if root.current_player() == SIMULTANEOUS else ()
            if len({p in team for p in acting}) == 2:
                # a matrix root: each of the asked side's choices with its row's guarantee,
                # never more than the game's (mixed) value
                assert all(m.settled for m in found.moves)
                assert max(m.value for m in found.moves) <= exact.value  # type: ignore[type-var]
                continue
            low, high = bounds if bounds else (None, None)
            _check_moves(root, found.moves, seats, "minimax", low, high)


def test_a_winning_move_decides_the_position_and_the_moves_come_best_first() -> None:
    # TeamNim(7): taking 3 wins for the first team, the other takes lose.
    result = solve(TeamNim(7), bounds=(Fraction(0), Fraction(1)))
    assert result.solved and result.value == 1
    assert result.moves[0].action == "take3"
    assert result.moves[0].status is MoveStatus.WON
    assert all(m.status is MoveStatus.LOST for m in result.moves[1:])
    assert result.to_json()["moves"][0] == {
        "action": "take3", "status": "won", "value": "1", "lower": "1", "upper": "1",
        "nodes": result.moves[0].nodes,
    }
    assert sum(m.nodes for m in result.moves) <= result.nodes


def test_reports_come_after_every_turn_and_end_with_the_answer() -> None:
    seen = []
    result = solve(TeamNim(16), report=seen.append)
    assert seen and seen[-1].value == result.value
    assert [m.action for m in seen[-1].moves] == [m.action for m in result.moves]


def test_order_best_first_follows_the_guarantee_of_the_side_choosing() -> None:
    def move(name: str, low: int | None, high: int | None) -> MoveAnswer:
        return MoveAnswer(name, MoveStatus.UNKNOWN, None,
                          None if low is None else Fraction(low),
                          None if high is None else Fraction(high), 0)

    moves = [move("a", 0, 1), move("b", 1, 1), move("c", None, 1), move("d", 0, 0)]
    assert [m.action for m in order_best_first(moves, True)] == ["b", "a", "d", "c"]
    assert [m.action for m in order_best_first(moves, False)] == ["d", "a", "b", "c"]
