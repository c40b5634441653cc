"""OpenSpiel adapter: a two-team position as an OpenSpiel Python game.

Install the optional extra ``openspiel`` (``pip install 'omen-solver[openspiel]'``). The adapter
maps the protocol onto OpenSpiel's state API:

* OpenSpiel player ``i`` is **team** ``i`` of :meth:`GameState.teams`: a team's seats acting in
  a row are the same OpenSpiel player moving several times;
* an OpenSpiel action is an **index** into :meth:`GameState.legal_actions` (at a chance node,
  into :meth:`GameState.chance_outcomes`), and its text is the canonical action text;
* returns are the team returns shifted by half their constant sum, so the game is zero-sum as
  OpenSpiel's ``alpha_beta_search`` requires (the value of team 0 is ``ours - sum / 2``);
* the game's facts (most actions at a node, most chance outcomes, longest line of play, utility
  bounds, whether chance occurs) are found by walking the position's state graph once.

A simultaneous node where one team alone chooses (teammates choosing at once) is that team's
joint choice: one OpenSpiel move over every joint action. A position that can reach a
simultaneous node where **both** teams choose, that has other than two teams, or that is not
constant-sum, is refused with the reason (OpenSpiel's sequential searches cannot play a
simultaneous choice; our solver treats it as a matrix game).

:func:`register` registers the game type ``python_omen_solver_position`` whose parameter
``position`` is a position file path, so ``pyspiel.load_game`` can load any position file.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from omen_solver.core.budget import Budget, NodeMeter
from omen_solver.core.enumeration.tree import joint_actions
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.positions import load_state
from omen_solver.core.walk import Step, TooDeep, drive
from omen_solver.errors import BudgetExceeded, ConceptError, MissingDependencyError

try:
    import pyspiel
except ImportError:  # pragma: no cover - exercised only without the extra
    pyspiel = None

__all__ = [
    "GAME_NAME",
    "MAX_STATES",
    "GameFacts",
    "load_game",
    "make_game",
    "register",
    "scan",
]

GAME_NAME = "python_omen_solver_position"
MAX_STATES = 2_000_000
"""The largest state graph the adapter walks to learn the game's facts."""


def _pyspiel() -> Any:
    if pyspiel is None:
        raise MissingDependencyError(
            "the OpenSpiel adapter needs open-spiel: install the extra with "
            "`pip install 'omen-solver[openspiel]'`"
        )
    return pyspiel


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What OpenSpiel needs to know about a position before play."""

    max_actions: int
    max_chance_outcomes: int
    max_length: int
    """The most plies (decisions and chance outcomes) from the root to a terminal state."""
    min_return: Fraction
    """The least team return at a terminal state (before the zero-sum shift)."""
    max_return: Fraction
    total: Fraction
    """The constant sum of the two teams' returns."""
    has_chance: bool


def _joint_choice(state: GameState[Any], team_of: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """The joint actions of a simultaneous node where one team alone chooses (one OpenSpiel
    move of that team); a node where both teams choose at once is refused."""
    if len({team_of[p] for p in state.acting_players()}) != 1:
        raise ConceptError(
            f"{state}: both teams choose at once here; OpenSpiel's sequential search cannot "
            "play a simultaneous choice, so the adapter refuses it (our solver treats it as a "
            "matrix game)"
        )
    return joint_actions(state)


class _Scanner(NodeMeter):
    def __init__(self, max_states: int, team_of: tuple[int, ...]) -> None:
        super().__init__(Budget(max_nodes=max_states))
        self.team_of = team_of
        self.lengths: dict[Hashable, int] = {}
        self.max_actions = 1
        self.max_outcomes = 0
        self.returns: set[Fraction] = set()
        self.totals: set[Fraction] = set()

    def walk(self, state: GameState[Any]) -> int:
        """The longest line from ``state`` to a terminal state, noting the facts on the way."""
        return drive(self._walk(state), self)

    def _walk(self, state: GameState[Any]) -> Step[int]:
        """:meth:`walk` as a node of a walk (:mod:`omen_solver.core.walk`)."""
        key = state.key()
        known = self.lengths.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        player = state.current_player()
        if player == TERMINAL:
            values = state.team_returns()
            self.returns.update(values)
            self.totals.add(sum(values, Fraction(0)))
            length = 0
        else:
            if player == SIMULTANEOUS:
                joints = _joint_choice(state, self.team_of)
                self.max_actions = max(self.max_actions, len(joints))
                children = [state.joint_child(j) for j in joints]
            elif player == CHANCE:
                outcomes = state.chance_outcomes()
                self.max_outcomes = max(self.max_outcomes, len(outcomes))
                children = [state.child(o) for o, _ in outcomes]
            else:
                actions = state.legal_actions()
                self.max_actions = max(self.max_actions, len(actions))
                children = [state.child(a) for a in actions]
            longest = 0
            for child in children:
                longest = max(longest, (yield self._walk(child)))
            length = 1 + longest
        self.lengths[key] = length
        return length


def scan(root: GameState[Any], max_states: int = MAX_STATES) -> GameFacts:
    """Walk the state graph of ``root`` once and return the facts OpenSpiel needs."""
    if len(root.teams()) != 2:
        raise ConceptError(
            f"the OpenSpiel adapter needs two teams (two OpenSpiel players); this position "
            f"has {len(root.teams())}"
        )
    scanner = _Scanner(max_states, tuple(root.team_of(p) for p in range(root.num_players())))
    try:
        length = scanner.walk(root)
    except TooDeep as deep:
        raise ConceptError(f"{deep.reason}: too long for the adapter") from None
    except BudgetExceeded:
        raise ConceptError(
            f"the position has more than {max_states} states: too large for the adapter"
        ) from None
    if len(scanner.totals) != 1:
        raise ConceptError(
            "the two teams' returns do not add up to a constant "
            f"({', '.join(sorted(map(str, scanner.totals)))}): not a zero-sum game"
        )
    return GameFacts(
        scanner.max_actions, scanner.max_outcomes, length, min(scanner.returns),
        max(scanner.returns), scanner.totals.pop(), scanner.max_outcomes > 0,
    )


def _game_type(has_chance: bool) -> Any:
    spiel = _pyspiel()
    kind = spiel.GameType
    return kind(
        short_name=GAME_NAME,
        long_name="omen_solver position (two teams)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=(
            kind.ChanceMode.EXPLICIT_STOCHASTIC if has_chance else kind.ChanceMode.DETERMINISTIC
        ),
        information=kind.Information.PERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"position": ""},
    )


def _classes() -> tuple[type[Any], type[Any]]:
    """The game and state classes, made on first use so that importing this module never
    needs OpenSpiel."""
    global _GAME_CLASS, _STATE_CLASS
    if _GAME_CLASS is not None and _STATE_CLASS is not None:
        return _GAME_CLASS, _STATE_CLASS
    spiel = _pyspiel()

    class PositionGame(spiel.Game):  # type: ignore[misc, name-defined]
        """A position as an OpenSpiel game; ``params['position']`` names a position file."""

        def __init__(self, params: dict[str, Any] | None = None,
                     root: GameState[Any] | None = None, facts: GameFacts | None = None,
                     max_states: int = MAX_STATES) -> None:
            params = dict(params or {})
            if root is None:
                if not params.get("position"):
                    raise ValueError(f"{GAME_NAME}: the parameter 'position' (a file) is required")
                root = load_state(Path(str(params["position"])))
            facts = facts or scan(root, max_states)
            half = facts.total / 2
            info = spiel.GameInfo(
                num_distinct_actions=facts.max_actions,
                max_chance_outcomes=facts.max_chance_outcomes,
                num_players=2,
                min_utility=float(facts.min_return - half),
                max_utility=float(facts.max_return - half),
                utility_sum=0.0,
                max_game_length=max(facts.max_length, 1),
            )
            super().__init__(_game_type(facts.has_chance), info, params)
            self.root = root
            self.facts = facts
            self.team_of = tuple(root.team_of(p) for p in range(root.num_players()))

        def new_initial_state(self) -> Any:
            return PositionState(self, self.root)

    class PositionState(spiel.State):  # type: ignore[misc, name-defined]
        """An OpenSpiel state wrapping an immutable protocol state."""

        def __init__(self, game: Any, state: GameState[Any]) -> None:
            super().__init__(game)
            self.state = state
            self._team_of = game.team_of
            self._half = game.facts.total / 2

        def current_player(self) -> int:
            player = self.state.current_player()
            if player >= 0:
                return int(self._team_of[player])
            if player == CHANCE:
                return int(spiel.PlayerId.CHANCE)
            if player == SIMULTANEOUS:
                return int(self._team_of[self.state.acting_players()[0]])
            return int(spiel.PlayerId.TERMINAL)

        def _options(self) -> Sequence[Any]:
            if self.state.is_simultaneous_node():
                return _joint_choice(self.state, self._team_of)
            return self.state.legal_actions()

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(len(self._options())))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(i, float(p)) for i, (_, p) in enumerate(self.state.chance_outcomes())]

        def _apply_action(self, action: int) -> None:
            if self.state.is_chance_node():
                outcome = self.state.chance_outcomes()[action][0]
                self.state = self.state.child(outcome)
            elif self.state.is_simultaneous_node():
                self.state = self.state.joint_child(self._options()[action])
            else:
                self.state = self.state.child(self.state.legal_actions()[action])

        def _action_to_string(self, player: int, action: int) -> str:
            if self.state.is_chance_node():
                return self.state.action_to_string(self.state.chance_outcomes()[action][0])
            if self.state.is_simultaneous_node():
                return self.state.joint_to_string(self._options()[action])
            return self.state.action_to_string(self.state.legal_actions()[action])

        def is_terminal(self) -> bool:
            return self.state.is_terminal()

        def returns(self) -> list[float]:
            if not self.state.is_terminal():
                return [0.0, 0.0]
            return [float(value - self._half) for value in self.state.team_returns()]

        def __str__(self) -> str:
            return str(self.state)

    _GAME_CLASS, _STATE_CLASS = PositionGame, PositionState
    return PositionGame, PositionState


_GAME_CLASS: type[Any] | None = None
_STATE_CLASS: type[Any] | None = None


def make_game(
    root: GameState[Any], facts: GameFacts | None = None, max_states: int = MAX_STATES
) -> Any:
    """An OpenSpiel game whose initial state is ``root``.

    ``facts`` (from an earlier :func:`scan`) saves walking the state graph again.
    """
    game_class, _ = _classes()
    return game_class(root=root, facts=facts, max_states=max_states)


def register() -> None:
    """Register the game type ``python_omen_solver_position`` with OpenSpiel (once)."""
    spiel = _pyspiel()
    game_class, _ = _classes()
    if GAME_NAME not in spiel.registered_names():
        spiel.register_game(_game_type(True), game_class)


def load_game(path: Path | str) -> Any:
    """Load a position file as an OpenSpiel game through ``pyspiel.load_game``."""
    register()
    return _pyspiel().load_game(GAME_NAME, {"position": str(path)})
