"""Small games for testing the game-agnostic enumeration and search code.

Each is a :class:`GameState` with known properties:

* :class:`TeamNim`: a pile of tokens, players take 1..k in turn; whoever takes the last token
  wins for their team (1 for the winning team, 0 for the others). The state is only
  ``(pile, player)``, so transpositions abound. Any number of players and teams.
* :class:`CoinRow`: a row of coins; players in turn take the coin at either end; each team
  scores what its players took (constant-sum). With three teams max-n and paranoid differ.
* :class:`GustNim`: team Nim where, after every move, a gust (a chance node) blows one more
  token away with probability 1/3.
* :class:`MatrixToy`: one simultaneous node (a matrix game) after an optional menu choice.
* :class:`RandomGame`: a generated game whose states are ``(depth, id)`` with ``id`` in a
  small space, so transpositions are frequent; decision, chance and simultaneous nodes mixed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameState
from omen_solver.errors import IllegalActionError, OptionError, PositionError

TWO_TEAMS_OF_TWO = ((0, 2), (1, 3))
THREE_TEAMS_OF_TWO = ((0, 3), (1, 4), (2, 5))


def _check_teams(num_players: int, teams: Sequence[Sequence[int]]) -> None:
    seats = sorted(p for team in teams for p in team)
    if seats != list(range(num_players)):
        raise PositionError(f"teams {teams!r} must cover players 0..{num_players - 1} once each")


class _Toy(GameState[int]):
    """Shared parts: ``teams`` attribute, per-player returns from team returns, int actions."""

    __slots__ = ()
    teams_: tuple[tuple[int, ...], ...]

    def num_players(self) -> int:
        return sum(len(team) for team in self.teams_)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.teams_

    def team_values(self) -> tuple[Fraction, ...]:
        raise NotImplementedError

    def returns(self) -> tuple[Fraction, ...]:
        values = self.team_values()
        result = [Fraction(0)] * self.num_players()
        for team, value in zip(self.teams_, values, strict=True):
            for player in team:
                result[player] = value
        return tuple(result)

    def action_to_string(self, action: int) -> str:
        return f"a{action}"

    def string_to_action(self, text: str) -> int:
        for action in self.legal_actions():
            if self.action_to_string(action) == text:
                return action
        raise IllegalActionError(f"{text!r} is not legal in {self}")

    def child(self, action: int) -> Any:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal in {self}")
        return self._apply(action)

    def _apply(self, action: int) -> Any:
        raise NotImplementedError


@dataclass(frozen=True, eq=False, slots=True)
class TeamNim(_Toy):
    game_name: ClassVar[str | None] = "toy-nim"
    pile: int
    max_take: int = 3
    player: int = 0
    teams_: tuple[tuple[int, ...], ...] = TWO_TEAMS_OF_TWO
    last: int | None = None

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.player

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        if self.pile == 0:
            return ()
        return tuple(range(1, min(self.max_take, self.pile) + 1))

    def _apply(self, action: int) -> TeamNim:
        return type(self)(
            self.pile - action, self.max_take, (self.player + 1) % self.num_players(),
            self.teams_, self.player,
        )

    def action_to_string(self, action: int) -> str:
        return f"take{action}"

    def team_values(self) -> tuple[Fraction, ...]:
        assert self.last is not None
        winner = self.team_of(self.last)
        return tuple(Fraction(int(index == winner)) for index in range(len(self.teams_)))

    def key(self) -> Hashable:
        # Who took the last token matters only once the pile is empty.
        return (self.pile, self.player, self.last if self.pile == 0 else None)

    def stop_predicate(self, name: str) -> Callable[[TeamNim], bool]:
        if name != "half":
            raise OptionError(f"TeamNim has no stopping point {name!r}")
        half = self.pile // 2
        return lambda state: state.pile <= half

    def stop_points(self) -> tuple[str, ...]:
        return ("half",)

    def __str__(self) -> str:
        return f"nim pile={self.pile} to-move={self.player + 1}"


class BoundedNim(TeamNim):
    """Team Nim whose descriptor declares its return bounds (win 1, loss 0)."""

    __slots__ = ()
    game_name: ClassVar[str | None] = "toy-bounded-nim"


@dataclass(frozen=True, eq=False, slots=True)
class CoinRow(_Toy):
    coins: tuple[int, ...]
    left: int = 0
    right: int = -1
    player: int = 0
    teams_: tuple[tuple[int, ...], ...] = ((0,), (1,))
    scores: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.right == -1:
            object.__setattr__(self, "right", len(self.coins))
        if not self.scores:
            object.__setattr__(self, "scores", (0,) * len(self.teams_))

    def current_player(self) -> int:
        return TERMINAL if self.left == self.right else self.player

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        if self.left == self.right:
            return ()
        return (0,) if self.right - self.left == 1 else (0, 1)

    def _apply(self, action: int) -> CoinRow:
        team = self.team_of(self.player)
        if action == 0:
            coin, left, right = self.coins[self.left], self.left + 1, self.right
        else:
            coin, left, right = self.coins[self.right - 1], self.left, self.right - 1
        scores = tuple(s + coin * (i == team) for i, s in enumerate(self.scores))
        return CoinRow(
            self.coins, left, right, (self.player + 1) % self.num_players(), self.teams_, scores
        )

    def action_to_string(self, action: int) -> str:
        return "left" if action == 0 else "right"

    def team_values(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(s) for s in self.scores)

    def key(self) -> Hashable:
        return (self.left, self.right, self.player, self.scores)

    def __str__(self) -> str:
        return f"coins={list(self.coins[self.left:self.right])} scores={list(self.scores)}"


@dataclass(frozen=True, eq=False, slots=True)
class GustNim(_Toy):
    """Team Nim with a gust after every move: with probability 1/3 one more token goes."""

    pile: int
    max_take: int = 2
    player: int = 0
    teams_: tuple[tuple[int, ...], ...] = TWO_TEAMS_OF_TWO
    gust_pending: bool = False
    last: int | None = None

    GUST = Fraction(1, 3)

    def current_player(self) -> int:
        if self.gust_pending:
            return CHANCE
        return TERMINAL if self.pile == 0 else self.player

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        if self.gust_pending:
            return tuple(outcome for outcome, _ in self.chance_outcomes())
        if self.pile == 0:
            return ()
        return tuple(range(1, min(self.max_take, self.pile) + 1))

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        if not self.gust_pending:
            return ()
        return ((0, 1 - self.GUST), (1, self.GUST))

    def _apply(self, action: int) -> GustNim:
        if self.gust_pending:
            return GustNim(
                self.pile - action, self.max_take, self.player, self.teams_, False, self.last
            )
        pile = self.pile - action
        following = (self.player + 1) % self.num_players()
        # A gust only blows when tokens remain; the last taker wins either way.
        return GustNim(pile, self.max_take, following, self.teams_, pile > 0, self.player)

    def action_to_string(self, action: int) -> str:
        if self.gust_pending:
            return "gust" if action else "calm"
        return f"take{action}"

    def team_values(self) -> tuple[Fraction, ...]:
        assert self.last is not None
        winner = self.team_of(self.last)
        return tuple(Fraction(int(index == winner)) for index in range(len(self.teams_)))

    def key(self) -> Hashable:
        return (self.pile, self.player, self.gust_pending, self.last if self.pile == 0 else None)

    def __str__(self) -> str:
        return f"gust-nim pile={self.pile} {'gust?' if self.gust_pending else self.player + 1}"


@dataclass(frozen=True, eq=False, slots=True)
class MatrixToy(_Toy):
    """Optionally a menu (player ``chooser`` picks a matrix), then a simultaneous node.

    ``acting`` players choose at once: ``acting[0]`` picks the row, ``acting[1]`` the column;
    the row player's team gets the entry and the other team its negation (zero-sum), or, when
    both are on one team, that team gets the entry and the other team its negation.
    """

    matrices: tuple[tuple[tuple[int, ...], ...], ...]
    acting_: tuple[int, int] = (0, 1)
    teams_: tuple[tuple[int, ...], ...] = ((0,), (1,))
    chooser: int = 0
    chosen: int | None = None
    cell: tuple[int, int] | None = None

    def current_player(self) -> int:
        if self.cell is not None:
            return TERMINAL
        if self.chosen is None and len(self.matrices) > 1:
            return self.chooser
        return SIMULTANEOUS

    def _matrix(self) -> tuple[tuple[int, ...], ...]:
        return self.matrices[self.chosen or 0]

    def acting_players(self) -> tuple[int, ...]:
        if self.current_player() == SIMULTANEOUS:
            return self.acting_
        return GameState.acting_players(self)

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        kind = self.current_player()
        if kind == TERMINAL:
            return ()
        if kind >= 0:
            return tuple(range(len(self.matrices)))
        matrix = self._matrix()
        if player == self.acting_[0]:
            return tuple(range(len(matrix)))
        if player == self.acting_[1]:
            return tuple(range(len(matrix[0])))
        raise ValueError(f"player {player} does not act here")

    def _apply(self, action: int) -> MatrixToy:
        return MatrixToy(self.matrices, self.acting_, self.teams_, self.chooser, action)

    def joint_child(self, actions: Sequence[int]) -> MatrixToy:
        row, column = actions
        if row not in self.legal_actions(self.acting_[0]) or column not in self.legal_actions(
            self.acting_[1]
        ):
            raise IllegalActionError(f"{actions!r} is not legal in {self}")
        return MatrixToy(
            self.matrices, self.acting_, self.teams_, self.chooser, self.chosen or 0, (row, column)
        )

    def action_to_string(self, action: int) -> str:
        if self.current_player() >= 0:
            return f"m{action}"
        return str(action)

    def joint_to_string(self, actions: Sequence[int]) -> str:
        return f"r{actions[0]}&c{actions[1]}"

    def team_values(self) -> tuple[Fraction, ...]:
        assert self.cell is not None
        entry = Fraction(self._matrix()[self.cell[0]][self.cell[1]])
        row_team = self.team_of(self.acting_[0])
        return tuple(entry if i == row_team else -entry for i in range(len(self.teams_)))

    def key(self) -> Hashable:
        return (self.chosen, self.cell)

    def __str__(self) -> str:
        return f"matrix chosen={self.chosen} cell={self.cell}"


MASK = (1 << 64) - 1


def mix(*values: int) -> int:
    """A deterministic 64-bit mix (splitmix64 steps) of small integers."""
    state = 0x9E3779B97F4A7C15
    for value in values:
        state = (state ^ (value & MASK)) * 0xBF58476D1CE4E5B9 & MASK
        state = (state ^ (state >> 31)) * 0x94D049BB133111EB & MASK
        state ^= state >> 29
    return state


@dataclass(frozen=True)
class RandomSpec:
    seed: int
    depth: int = 5
    branching: int = 3
    id_space: int = 12
    teams: tuple[tuple[int, ...], ...] = TWO_TEAMS_OF_TWO
    chance_percent: int = 0
    simultaneous_percent: int = 0
    constant_sum: bool = True
    value_range: int = 4


@dataclass(frozen=True, eq=False, slots=True)
class RandomGame(_Toy):
    """A generated game: everything about state ``(depth, id)`` is a hash of it and the seed."""

    spec: RandomSpec
    level: int = 0
    node: int = 0
    teams_: tuple[tuple[int, ...], ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "teams_", self.spec.teams)

    def _hash(self, *extra: int) -> int:
        return mix(self.spec.seed, self.level, self.node, *extra)

    def current_player(self) -> int:
        if self.level >= self.spec.depth:
            return TERMINAL
        roll = self._hash(1) % 100
        if roll < self.spec.chance_percent:
            return CHANCE
        if roll < self.spec.chance_percent + self.spec.simultaneous_percent:
            return SIMULTANEOUS
        return self._hash(2) % self.num_players()

    def acting_players(self) -> tuple[int, ...]:
        if self.current_player() != SIMULTANEOUS:
            return GameState.acting_players(self)
        first = self._hash(3) % self.num_players()
        second = (first + 1 + self._hash(4) % (self.num_players() - 1)) % self.num_players()
        return tuple(sorted((first, second)))

    def _width(self, salt: int) -> int:
        return 1 + self._hash(5, salt) % self.spec.branching

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        kind = self.current_player()
        if kind == TERMINAL:
            return ()
        if kind == SIMULTANEOUS:
            if player not in self.acting_players():
                raise ValueError(f"player {player} does not act here")
            # Each acting player's actions are distinct numbers so that texts name the player.
            base = 100 * ((player or 0) + 1)
            return tuple(base + a for a in range(self._width(100 + (player or 0))))
        return tuple(range(self._width(0)))

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        weights = [1 + self._hash(6, a) % 3 for a in range(self._width(0))]
        total = sum(weights)
        return tuple((a, Fraction(w, total)) for a, w in enumerate(weights))

    def _next(self, *choice: int) -> RandomGame:
        return RandomGame(self.spec, self.level + 1, self._hash(7, *choice) % self.spec.id_space)

    def _apply(self, action: int) -> RandomGame:
        return self._next(action)

    def joint_child(self, actions: Sequence[int]) -> RandomGame:
        players = self.acting_players()
        if len(actions) != len(players) or any(
            a not in self.legal_actions(p) for a, p in zip(actions, players, strict=True)
        ):
            raise IllegalActionError(f"{actions!r} is not legal in {self}")
        return self._next(*(1000 + a for a in actions))

    def action_to_string(self, action: int) -> str:
        if action >= 100:
            return f"s{action // 100}.{action % 100}"
        return f"{'c' if self.current_player() == CHANCE else 'a'}{action}"

    def team_values(self) -> tuple[Fraction, ...]:
        count = len(self.teams_)
        top = self.spec.value_range
        if self.spec.constant_sum and count == 2:
            value = self._hash(8) % (top + 1)
            return (Fraction(value), Fraction(top - value))
        return tuple(Fraction(self._hash(9, i) % (top + 1)) for i in range(count))

    def key(self) -> Hashable:
        return (self.level, self.node)

    def __str__(self) -> str:
        return f"random[{self.spec.seed}] level={self.level} id={self.node}"


def every_action_sequence(state: GameState[Any]) -> Any:
    """Yield every complete sequence of branches (for brute-force checks)."""
    kind = state.current_player()
    if kind == TERMINAL:
        yield ()
        return
    if kind == CHANCE:
        options: list[Any] = [o for o, _ in state.chance_outcomes()]
        children = [state.child(o) for o in options]
    elif kind == SIMULTANEOUS:
        options = list(itertools.product(*(state.legal_actions(p) for p in state.acting_players())))
        children = [state.joint_child(j) for j in options]
    else:
        options = list(state.legal_actions())
        children = [state.child(a) for a in options]
    for option, child in zip(options, children, strict=True):
        for rest in every_action_sequence(child):
            yield (option, *rest)


TOY_GAMES = {
    "nim": TeamNim,
    "coins": CoinRow,
    "gust": GustNim,
}


def load_toy(path: Path, data: dict[str, Any]) -> GameState[Any]:
    """Position-file loader for ``game = "toy"`` (registered by ``conftest.py``)."""
    table = data.get("toy")
    if not isinstance(table, dict):
        raise PositionError(f"{path}: key 'toy': a table with 'kind' is required")
    kind = table.get("kind")
    teams = tuple(tuple(int(p) for p in team) for team in table.get("teams", TWO_TEAMS_OF_TWO))
    num_players = sum(len(t) for t in teams)
    _check_teams(num_players, teams)
    if kind == "nim":
        nim = BoundedNim if table.get("bounds", False) else TeamNim
        return nim(int(table["pile"]), int(table.get("max_take", 3)), teams_=teams)
    if kind == "coins":
        return CoinRow(tuple(int(c) for c in table["coins"]), teams_=teams)
    if kind == "gust":
        return GustNim(int(table["pile"]), int(table.get("max_take", 2)), teams_=teams)
    if kind == "matrix":
        matrix = tuple(tuple(int(x) for x in row) for row in table["matrix"])
        return MatrixToy((matrix,), teams_=teams)
    raise PositionError(f"{path}: key 'toy.kind': unknown toy {kind!r}")


def _nim_stop(root: TeamNim, name: str) -> Callable[[TeamNim], bool]:
    return root.stop_predicate(name)


TOY = Game(name="toy", title="the toy games", players=(), chance=True, simultaneous=True,
           load=load_toy)
"""Position files with ``game = "toy"``; each toy state belongs to its own game below, or to
none (no stopping points, no bounds)."""
TEAM_NIM: Game[TeamNim] = Game(
    name="toy-nim", title="team Nim", players=(2, 3, 4, 5, 6), chance=False, simultaneous=False,
    stop_points=("half",), stop_predicate=_nim_stop,
)
BOUNDED_NIM: Game[TeamNim] = replace(TEAM_NIM, name="toy-bounded-nim", title="bounded team Nim",
                                     return_bounds=(Fraction(0), Fraction(1)))
TOY_DESCRIPTORS = (TOY, TEAM_NIM, BOUNDED_NIM)
