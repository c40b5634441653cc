"""The kernel behind the game protocol, so that the reference's root analysis (every optimal
first action, the principal variation, matrix reports) runs unchanged on kernel answers.

:class:`KernelView` is a :class:`~omen_solver.core.game.GameState` whose actions are the
kernel's encoded actions, written in the engine's canonical notation;
:class:`KernelTwoSided` gives the reference's two-sided analysis
(:mod:`omen_solver.core.search.solver`) the interface of
:class:`~omen_solver.core.search.alphabeta.TwoSidedSearch` on top of a kernel search.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol, Self

from omen_solver.core.game import GameState
from omen_solver.core.search.alphabeta import Bound, MatrixGame, TwoSidedSearch
from omen_solver.core.search.result import SimultaneousMode
from omen_solver.core.search.root import run_turn
from omen_solver.errors import IllegalActionError
from omen_solver.omens.actions import format_action, parse_action
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.convert import from_action, to_action
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.search import Entry, Value, leaf_value

__all__ = ["KernelSearchLike", "KernelTwoSided", "KernelView"]

_ONE = Fraction(1)
_ZERO = Fraction(0)


class KernelView(GameState[int]):
    """A kernel state seen through the game protocol (seats from 0, as the protocol has it)."""

    __slots__ = ("k", "machine")

    def __init__(self, machine: Machine, k: KState) -> None:
        self.machine = machine
        self.k = k

    def num_players(self) -> int:
        return self.machine.players

    def current_player(self) -> int:
        return self.machine.current_player(self.k)

    def acting_players(self) -> tuple[int, ...]:
        return self.machine.acting_players(self.k)

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        if self.current_player() == m.CHANCE:
            return tuple(self.machine.chance_outcomes(self.k))
        return tuple(self.machine.legal(self.k, player))

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        if self.current_player() != m.CHANCE:
            return ()
        outcomes = self.machine.chance_outcomes(self.k)
        return tuple((outcome, Fraction(1, len(outcomes))) for outcome in outcomes)

    def child(self, action: int) -> Self:
        return type(self)(self.machine, self.machine.child(self.k, action))

    def joint_child(self, actions: Sequence[int]) -> Self:
        return type(self)(self.machine, self.machine.joint_child(self.k, actions))

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self.machine.spec.teams

    def returns(self) -> tuple[Fraction, ...]:
        winner = self.k.winner
        if winner < 0:
            return (_ZERO,) * self.num_players()
        team = self.machine.spec.team_of[winner]
        return tuple(
            _ONE if self.machine.spec.team_of[seat] == team else _ZERO
            for seat in range(self.num_players())
        )

    def key(self) -> Hashable:
        return self.k.key()

    def action_to_string(self, action: int) -> str:
        return format_action(to_action(self.machine.spec, action))

    def string_to_action(self, text: str) -> int:
        action = parse_action(text)
        spec = self.machine.spec
        if action.card not in spec.rank:
            raise IllegalActionError(f"{text!r}: card {action.card} is not in the catalogue")
        move = from_action(spec, action)
        if move not in self.legal_actions(action.seat):
            raise IllegalActionError(f"{text!r} is not legal here")
        return move

    def __repr__(self) -> str:
        return f"<KernelView {self.k.key()!r}>"


class KernelSearchLike(Protocol):
    """What :class:`KernelTwoSided` needs of a kernel search (Python or compiled)."""

    nodes: int
    mode: SimultaneousMode

    @property
    def total(self) -> int | None: ...

    @property
    def states(self) -> int: ...

    @property
    def gap_seen(self) -> bool: ...

    def elapsed(self) -> float: ...

    def search(self, state: KState, alpha: Value, beta: Value) -> Value: ...

    def entry(self, state: KState) -> Entry | None: ...


class KernelTwoSided:
    """The interface the reference's root analysis expects of a two-sided search."""

    low: Bound = 0
    high: Bound = 1

    def __init__(
        self,
        inner: KernelSearchLike,
        machine: Machine,
        maximising: Sequence[bool],
        payoff: Sequence[Sequence[Value]] | None = None,
        overall: int | None = None,
    ) -> None:
        self.inner = inner
        self.overall = overall
        """The node limit of the whole search (a turn's limit is put back to it after)."""
        self.machine = machine
        self.maximising = list(maximising)
        self.payoff = payoff
        self.mode = inner.mode

    @property
    def nodes(self) -> int:
        return self.inner.nodes

    @nodes.setter
    def nodes(self, value: int) -> None:
        self.inner.nodes = value

    @property
    def states(self) -> int:
        return self.inner.states

    @property
    def total(self) -> Fraction | None:
        """With minimax, what the two teams' returns add up to (checked at every leaf)."""
        total = self.inner.total
        return None if total is None else Fraction(total)

    @property
    def gap_seen(self) -> bool:
        return self.inner.gap_seen

    def elapsed(self) -> float:
        return self.inner.elapsed()

    def search(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Bound:
        assert isinstance(state, KernelView)
        lo: Value = alpha if isinstance(alpha, Fraction | int) else 0
        hi: Value = beta if isinstance(beta, Fraction | int) else 1
        return self.inner.search(state.k, lo, hi)

    def cap(self, limit: int | None) -> None:
        """Keep the whole search to ``limit`` nodes (counted on its own counter)."""
        self.overall = limit
        inner_limit = getattr(self.inner, "limit_nodes", None)
        if inner_limit is not None:
            inner_limit(limit)

    def step(self, state: GameState[Any], alpha: Bound, beta: Bound, turn: int) -> Bound | None:
        """:meth:`search` for at most ``turn`` more nodes (``None`` if that was not enough):
        the per-move search of the root runs by turns (:mod:`omen_solver.core.search.moves`)."""
        assert isinstance(state, KernelView)
        lo: Value = alpha if isinstance(alpha, Fraction | int) else 0
        hi: Value = beta if isinstance(beta, Fraction | int) else 1
        own = getattr(self.inner, "step", None)
        if own is not None:
            found: Value | None = own(state.k, lo, hi, turn)
            return found
        inner = self.inner
        return run_turn(inner, turn, self.overall,  # type: ignore[no-any-return]
                        lambda: inner.search(state.k, lo, hi))

    def matrix(self, state: GameState[Any]) -> MatrixGame:
        return TwoSidedSearch.matrix(self, state)  # type: ignore[arg-type]

    def at_least(self, state: GameState[Any], value: Fraction) -> bool:
        return value <= 0 or self.search(state, 0, value) >= value

    def at_most(self, state: GameState[Any], value: Fraction) -> bool:
        return value >= 1 or self.search(state, value, 1) <= value

    def reaches(self, state: GameState[Any], value: Fraction, maximising: bool) -> bool:
        return self.at_least(state, value) if maximising else self.at_most(state, value)

    def best_move(self, state: GameState[Any]) -> int:
        """The table's best action at ``state``, as an index into its legal actions (or joint
        actions at a simultaneous node); -1 if none."""
        assert isinstance(state, KernelView)
        found = self.inner.entry(state.k)
        if found is None or found[2] < 0:
            return -1
        if state.is_simultaneous_node():
            return found[2]
        actions = state.legal_actions()
        return actions.index(found[2]) if found[2] in actions else -1

    def bounds_of(self, state: GameState[Any]) -> tuple[Bound, Bound]:
        assert isinstance(state, KernelView)
        if state.is_terminal():
            value = leaf_value(self.machine, self.maximising, self.payoff, state.k)
            return value, value
        found = self.inner.entry(state.k)
        return (0, 1) if found is None else (found[0], found[1])
