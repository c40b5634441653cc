"""Per-move answers at the root, anytime: every legal action with what is proven about it.

A solve asks two questions at once: "what is the position worth?" and "which of the moves at
the root win, which lose, and what is known about the rest?". The second has an answer long
before the first: one proven winning move settles the position for its side, and a move whose
proof is small is found early if it is not searched after the largest one.

:class:`MoveDriver` searches the root's moves **by turns** (dovetailing): in round ``r`` every
move still open gets a search of at most ``first_turn * 2**r`` nodes, in legal order, all on the
searches' shared tables, so what one move's search proves serves the others. A move is
**settled** when its own value is known (``won``, ``lost`` or an ``exact`` fraction); once the
moves decide the position's value ``V`` (a move proven worth the best the chooser can get,
or every move proven below another's proven value), the moves still open are asked only
whether they reach ``V``, which is what the list of every optimal action needs. The driver
reports after every turn, so a caller can show the table live, and stops with what is proven
when the budget runs out.

A move's status is for the **asked team** (whose value the solve reports): ``won`` when its
value is the highest return the game declares (``return_bounds``: 1 for an Omens round),
``lost`` when it is the lowest, ``exact`` for any other proven value (a fraction where chance
or a mixed strategy enters), ``unknown`` otherwise, with the proven bounds.

Where a game's kernel evaluates the moves it could not settle (the Omens kernel's tree search,
:mod:`omen_solver.omens.kernel.estimate`), an ``unknown`` move also carries an **estimate**
(:class:`Estimate`): the asked team's win rate in the evaluation's playouts, its interval, the
playouts and the line the evaluation expects. An estimate is never a proof: the move's status,
value and bounds stay what the searches proved, and the estimate only orders the moves that
nothing proven tells apart.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Protocol

from omen_solver.core.budget import Budget
from omen_solver.core.game import GameState
from omen_solver.errors import BudgetExceeded

__all__ = [
    "FIRST_TURN",
    "Estimate",
    "MoveAnswer",
    "MoveDriver",
    "MoveStatus",
    "MovesReport",
    "Stepper",
    "order_best_first",
]

FIRST_TURN: Final = 50_000
"""Nodes of each move's first turn; every round of turns doubles it."""

Bound = Fraction | int | float
"""A proven bound as the searches hold it: exact, or an infinity where none is known."""


class MoveStatus(enum.Enum):
    """What is proven about one root move, for the asked team."""

    WON = "won"
    """Its value is the highest return the game has (the asked team wins for sure)."""
    LOST = "lost"
    """Its value is the lowest (the asked team loses for sure)."""
    EXACT = "exact"
    """Its value is proven, strictly between (an expectation, or a mixed strategy's value)."""
    UNKNOWN = "unknown"
    """Not settled: only the bounds are proven."""


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class Estimate:
    """What an evaluation that proves nothing says about a move: the asked team's **win rate**
    in its playouts (a number in [0, 1], not a proven value), the 95 % interval of that rate,
    how many playouts it rests on, and the line of play the evaluation expects (canonical
    action text, the move itself first)."""

    win_rate: float
    low: float
    high: float
    playouts: int
    line: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The shared contract of a move's estimate (``kind`` says it is not a proof)."""
        return {"kind": "estimate", "win_rate": round(self.win_rate, 4),
                "low": round(self.low, 4), "high": round(self.high, 4),
                "playouts": self.playouts, "line": list(self.line)}


@dataclass(frozen=True, slots=True)
class MoveAnswer:
    """One root move and what is proven about it (values are the asked team's)."""

    action: str
    status: MoveStatus
    value: Fraction | None
    """The move's value when proven (``won``, ``lost`` or ``exact``), else ``None``."""
    lower: Fraction | None
    """A proven lower bound on the value (``None``: none known)."""
    upper: Fraction | None
    nodes: int
    """Nodes searched for this move (its turns)."""
    same_as: str | None = None
    """The earlier move that leads to the same position (its answer is this one's, and its
    nodes are counted there: this move is not searched again), or ``None``."""
    estimate: Estimate | None = None
    """Where the move is not settled and an evaluation ran: its estimate (never a proof)."""

    @property
    def settled(self) -> bool:
        return self.status is not MoveStatus.UNKNOWN

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "action": self.action,
            "status": self.status.value,
            "value": _text(self.value),
            "lower": _text(self.lower),
            "upper": _text(self.upper),
            "nodes": self.nodes,
        }
        if self.same_as is not None:
            data["same_as"] = self.same_as
        if self.estimate is not None and self.status is MoveStatus.UNKNOWN:
            data["estimate"] = self.estimate.to_json()
        return data


@dataclass(frozen=True, slots=True)
class MovesReport:
    """A snapshot of the per-move search, as a live display shows it."""

    moves: tuple[MoveAnswer, ...]
    """Best first for the side to move (:func:`order_best_first`)."""
    lower: Fraction | None
    """Proven bounds on the position's value (the asked team's)."""
    upper: Fraction | None
    value: Fraction | None
    """The position's value once the moves decide it."""
    nodes: int
    seconds: float
    turn: int
    """The node budget of the current round's turns."""


class Stepper(Protocol):
    """A search that can be run in turns, keeping its tables between them."""

    @property
    def nodes(self) -> int:
        """Nodes searched so far."""

    def step(self, state: GameState[Any], alpha: Any, beta: Any, turn: int) -> Any:
        """Search ``state`` within ``(alpha, beta)`` for at most ``turn`` more nodes: the
        fail-soft value, or ``None`` when the turn ran out first. Raises
        :class:`BudgetExceeded` when the whole budget (or the time, or memory) runs out."""

    def bounds_of(self, state: GameState[Any]) -> tuple[Any, Any]:
        """Proven bounds on the value of ``state`` from the tables."""

    def elapsed(self) -> float: ...


def _finite(value: Bound) -> Fraction | None:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return None


def order_best_first(moves: Sequence[MoveAnswer], maximising: bool) -> list[MoveAnswer]:
    """Moves best first for the side choosing: by what it is proven to guarantee (a
    maximiser's lower bound, a minimiser's upper bound), then by the other bound, then by the
    estimate's win rate (highest first for a maximiser; a move without one after those with
    one), then in legal order (the order of ``moves``). A bound not known sorts after every
    known one."""
    last = float("inf")

    def key(indexed: tuple[int, MoveAnswer]) -> tuple[float | Fraction, float | Fraction,
                                                      float, int]:
        index, move = indexed
        low = last if move.lower is None else (-move.lower if maximising else move.lower)
        high = last if move.upper is None else (-move.upper if maximising else move.upper)
        rate = last
        if move.estimate is not None and not move.settled:
            rate = -move.estimate.win_rate if maximising else move.estimate.win_rate
        return (low, high, rate, index) if maximising else (high, low, rate, index)

    return [move for _, move in sorted(enumerate(moves), key=key)]


class _Move:
    __slots__ = ("_lower", "_upper", "action", "index", "nodes", "state", "twin")

    def __init__(self, index: int, action: str, state: GameState[Any], low: Bound,
                 high: Bound) -> None:
        self.index = index
        self.action = action
        self.state = state
        self._lower: Bound = low
        self._upper: Bound = high
        self.nodes = 0
        self.twin: _Move | None = None
        """The earlier move leading to the same position: this one reads its bounds and is
        never searched."""

    @property
    def lower(self) -> Bound:
        return self._lower if self.twin is None else self.twin.lower

    @lower.setter
    def lower(self, value: Bound) -> None:
        self._lower = value

    @property
    def upper(self) -> Bound:
        return self._upper if self.twin is None else self.twin.upper

    @upper.setter
    def upper(self, value: Bound) -> None:
        self._upper = value

    @property
    def exact(self) -> bool:
        return self.lower == self.upper


Report = Callable[[MovesReport], None]


class MoveDriver:
    """Dovetailing over the root's moves (see the module's text).

    ``options`` are the moves (text, state after it) in legal order; ``maximising`` whether the
    side choosing at the root maximises the asked team's value; ``low`` and ``high`` the
    game's declared return bounds (infinities when it declares none); ``stepper`` the
    search the moves share (its tables), for which :meth:`stepper_for` may give each move its
    own (subclasses). ``same``: the key of the position a move leads to, where two moves may
    lead to one position by different actions (the Omens kernel: Secret's "show me a card"
    and "I show you" leave the same play); a move whose key an earlier move has is answered
    as that one, not searched again."""

    def __init__(
        self,
        options: Sequence[tuple[str, GameState[Any]]],
        maximising: bool,
        stepper: Stepper,
        *,
        low: Bound,
        high: Bound,
        budget: Budget,
        first_turn: int = FIRST_TURN,
        report: Report | None = None,
        same: Callable[[GameState[Any]], Hashable] | None = None,
    ) -> None:
        if not options:
            raise ValueError("a root with no move to choose")
        self.maximising = maximising
        self.stepper = stepper
        self.low, self.high = low, high
        self.budget = budget
        self.first_turn = first_turn
        self.report = report
        self.moves = [_Move(i, text, state, low, high) for i, (text, state) in enumerate(options)]
        if same is not None:
            first: dict[Hashable, _Move] = {}
            for move in self.moves:
                searched = first.setdefault(same(move.state), move)
                if searched is not move:
                    move.twin = searched
        self.turn = first_turn
        self.started_nodes = stepper.nodes
        self.estimates: dict[int, Estimate] = {}
        """Estimates of moves by index (an evaluation fills it; never a proof)."""

    # -- what is known -------------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        return sum(move.nodes for move in self.moves)

    def bounds(self) -> tuple[Bound, Bound]:
        """Proven bounds on the position's value: the best of the moves' bounds for the side
        choosing."""
        pick = max if self.maximising else min
        return pick(m.lower for m in self.moves), pick(m.upper for m in self.moves)

    def value(self) -> Bound | None:
        """The position's value once the moves decide it, else ``None``."""
        low, high = self.bounds()
        return low if low == high else None

    def _open(self, move: _Move, value: Bound | None) -> bool:
        """Whether ``move`` still needs searching: before the position's value is known, while
        its own value is unknown and it can still matter (it is not proven worse than another
        move's proven value); after, while it is not known whether it reaches the value."""
        if move.twin is not None:
            return False
        if value is not None:
            if self.maximising:
                return not (move.upper < value or move.lower >= value)
            return not (move.lower > value or move.upper <= value)
        if move.exact:
            return False
        low, high = self.bounds()
        return not (move.upper < low if self.maximising else move.lower > high)

    def answers(self) -> list[MoveAnswer]:
        """Every move's answer, in legal order."""
        return [self._answer(move) for move in self.moves]

    def _answer(self, move: _Move) -> MoveAnswer:
        lower, upper = _finite(move.lower), _finite(move.upper)
        same_as = None if move.twin is None else move.twin.action
        if move.exact and lower is not None:
            if move.lower == self.high:
                status = MoveStatus.WON
            elif move.lower == self.low:
                status = MoveStatus.LOST
            else:
                status = MoveStatus.EXACT
            return MoveAnswer(move.action, status, lower, lower, upper, move.nodes, same_as)
        return MoveAnswer(move.action, MoveStatus.UNKNOWN, None, lower, upper, move.nodes,
                          same_as, self.estimates.get(move.index))

    def snapshot(self) -> MovesReport:
        low, high = self.bounds()
        value = self.value()
        return MovesReport(
            tuple(order_best_first(self.answers(), self.maximising)),
            _finite(low), _finite(high), None if value is None else _finite(value),
            self.nodes, self.stepper.elapsed(), self.turn,
        )

    # -- the search ----------------------------------------------------------------------------

    def stepper_for(self, move: _Move) -> Stepper:
        """The search of ``move`` (one shared by every move here)."""
        return self.stepper

    def run(self) -> Bound:
        """Search until the position's value is known and every move is known to reach it or
        not; returns the value. Raises :class:`BudgetExceeded` when the budget runs out (the
        answers so far stay readable)."""
        self._notify()
        while True:
            value = self.value()
            todo = [move for move in self.moves if self._open(move, value)]
            if not todo:
                found = self.value()
                assert found is not None
                return found
            for move in todo:
                value = self.value()
                if not self._open(move, value):
                    continue
                self._step(move, value)
                self._notify()
            self.turn *= 2

    def _window(self, move: _Move, value: Bound | None) -> tuple[Bound, Bound]:
        if value is None:
            return self.low, self.high
        # only whether the move reaches the position's value
        return (self.low, value) if self.maximising else (value, self.high)

    def _turn_nodes(self) -> int:
        limit = self.budget.max_nodes
        if limit is None:
            return self.turn
        left = limit - self.nodes
        if left < 1:
            raise BudgetExceeded(f"node limit of {limit} reached", self.nodes,
                                 self.stepper.elapsed())
        return min(self.turn, left)

    def _step(self, move: _Move, value: Bound | None) -> None:
        stepper = self.stepper_for(move)
        alpha, beta = self._window(move, value)
        before = stepper.nodes
        turn = self._turn_nodes()
        try:
            found = stepper.step(move.state, alpha, beta, turn)
        except BudgetExceeded:
            move.nodes += stepper.nodes - before
            self._learn(move, stepper)
            raise
        move.nodes += stepper.nodes - before
        if found is None:
            self._learn(move, stepper)
            if turn < self.turn:
                limit = self.budget.max_nodes
                raise BudgetExceeded(f"node limit of {limit} reached", self.nodes,
                                     stepper.elapsed())
            return
        if found <= alpha:
            move.upper = min(move.upper, found)
        elif found >= beta:
            move.lower = max(move.lower, found)
        else:
            move.lower = move.upper = found
        self._learn(move, stepper)

    def _learn(self, move: _Move, stepper: Stepper) -> None:
        low, high = stepper.bounds_of(move.state)
        if low > move.lower:
            move.lower = low
        if high < move.upper:
            move.upper = high

    def _notify(self) -> None:
        if self.report is not None:
            self.report(self.snapshot())
