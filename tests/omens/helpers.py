"""Small builders for Omens tests: positions from hands, moves by text, traces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from omen_solver.core.game import TraceStep
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

DEFAULT_TEAMS = {4: [[1, 3], [2, 4]], 5: [[1, 3], [2, 4, 5]], 6: [[1, 4], [2, 5], [3, 6]]}


def position(
    hands: Mapping[int, Sequence[int]],
    *,
    leader: int = 1,
    teams: Sequence[Sequence[int]] | None = None,
    preset: str = "rulebook",
    scope: Scope = Scope.ROUND,
    **rules: str,
) -> OmensState:
    """A state at the start of a bout; seats and teams 1-based as in the rulebook."""
    players = len(hands)
    table = Table(players, make_rules(preset, rules), scope=scope)
    team_list = teams or DEFAULT_TEAMS[players]
    return OmensState.start_of_bout(
        table,
        [list(hands[seat]) for seat in range(1, players + 1)],
        [[seat - 1 for seat in team] for team in team_list],
        leader - 1,
    )


def play(state: OmensState, *moves: str) -> tuple[OmensState, list[TraceStep]]:
    """Apply moves written in canonical notation; return the state and the whole trace."""
    trace: list[TraceStep] = []
    for text in moves:
        state, steps = state.explain(state.parse_move(text))
        trace.extend(steps)
    return state, trace


def rules_of(trace: Iterable[TraceStep]) -> list[str]:
    return [step.rule for step in trace]


def legal(state: OmensState) -> list[str]:
    return [state.move_to_string(move) for move in state.moves()]


def hand(state: OmensState, seat: int) -> list[int]:
    return list(state.hands[seat - 1])
