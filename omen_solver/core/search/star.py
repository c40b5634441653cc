"""Star2 search: alpha-beta over chance nodes with probing and per-state value bounds.

:class:`StarSearch` is :class:`~omen_solver.core.search.alphabeta.TwoSidedSearch` with two
additions, both game-agnostic and both sound (the value found is the same, only fewer nodes
are searched):

* **Per-state bounds.** A ``value_bounds(state) -> (low, high)`` function, proven bounds on the
  maximising side's value of a state (for a card game: "the leader's guaranteed points already
  exceed everything the other side can still score"). A new state's table entry starts from
  them instead of the global return bounds; a state whose bounds meet is not searched at all.
* **Star2 at chance nodes** (Ballard 1983, "The *-minimax search procedure for trees
  containing chance nodes"; Hauk, Buro and Schaeffer 2004, "Rediscovering *-Minimax
  Search"). Before any outcome is searched in full, each outcome whose successor is a decision
  node is *probed*: one action of that successor (the table's best, else the first in the
  game's order) is searched, which proves a lower bound on a maximising successor and an upper
  bound on a minimising one. If the probabilities times those bounds already pass the window,
  the chance node is cut. Otherwise the outcomes are searched with Star1 windows that use each
  outcome's own proven bounds, not the global ones, for the outcomes not searched yet.

* **Repetitions.** A game may let a player return to a state already on the line being
  searched (Omen: discard a Priestess whose SCORNED draw brings her back from the reshuffled
  discard pile). Such a line changes nothing (the player could have chosen differently at the
  repeated state), so it is not followed: the repetition is scored the worst outcome for the
  last player who had a real choice (two or more actions) before it, and no value that
  depended on it is kept in the table (its value depends on the line, not only on the state).

Without declared return bounds it behaves exactly as the parent class (full-window
expectation), repetitions aside.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any

from omen_solver.core.game import TERMINAL, GameState
from omen_solver.core.search.alphabeta import Bound, TwoSidedSearch, exact, lean
from omen_solver.core.walk import Step

__all__ = ["StarSearch", "ValueBounds"]

ValueBounds = Callable[[GameState[Any]], tuple[Fraction, Fraction]]
_NO_LOOP = 1 << 62
"""Proven bounds on the maximising side's value of a (non-terminal) state."""


class StarSearch(TwoSidedSearch):
    """Alpha-beta with Star2 probing at chance nodes and optional per-state value bounds."""

    def __init__(
        self,
        root: GameState[Any],
        maximisers: Sequence[int],
        *,
        value_bounds: ValueBounds | None = None,
        probing: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(root, maximisers, **options)
        self.value_bounds = value_bounds
        self.probing = probing
        self.probes = 0
        """Successors probed at chance nodes (one action searched each)."""
        self.bounded_cuts = 0
        """States whose per-state bounds met, so that nothing below them was searched."""
        self.repetitions = 0
        """Lines that returned to a state already on them (not followed)."""
        self._path: dict[Hashable, int] = {}
        self._choosers: list[int | None] = []
        self._loop_floor = _NO_LOOP

    # -- per-state bounds --------------------------------------------------------------------

    def _seed(self, state: GameState[Any]) -> tuple[Bound, Bound]:
        """The bounds a state starts from: its table entry, else the hook's, else global."""
        key = state.key()
        entry = self.table.get(key)
        if entry is not None:
            return entry[0], entry[1]
        low, high = self.low, self.high
        if self.value_bounds is not None:
            hook_low, hook_high = self.value_bounds(state)
            low, high = max(low, lean(hook_low)), min(high, lean(hook_high))
            if low > high:
                raise ArithmeticError(f"{state}: value bounds [{hook_low}, {hook_high}] lie "
                                      "outside the return bounds")
            if self.transpositions:
                self.table[key] = (low, high, -1)
        return low, high

    def node(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Step[Bound]:
        player = state.current_player()
        if player == TERMINAL:
            return (yield from super().node(state, alpha, beta))
        key = state.key()
        if key in self._path:
            return self._repetition(self._path[key])
        if self.value_bounds is not None:
            low, high = self._seed(state)
            if low == high:
                self.nodes += 1
                self.bounded_cuts += 1
                return low
        depth = len(self._choosers)
        self._path[key] = depth
        chooses = player >= 0 and len(state.legal_actions()) > 1
        self._choosers.append(player if chooses else None)
        outer, self._loop_floor = self._loop_floor, _NO_LOOP
        previous = self.table.get(key)
        try:
            value = yield from super().node(state, alpha, beta)
        finally:
            del self._path[key]
            self._choosers.pop()
        if self._loop_floor < depth and self.transpositions:
            # The value rests on a repetition of a state above this one: not kept.
            if previous is None:
                self.table.pop(key, None)
            else:
                self.table[key] = previous
        self._loop_floor = min(outer, self._loop_floor if self._loop_floor < depth
                               else _NO_LOOP)
        return value

    def _repetition(self, depth: int) -> Bound:
        """A line back to the state at ``depth`` on the path: the worst outcome for the last
        player with a real choice (see the module docstring)."""
        self.nodes += 1
        self.repetitions += 1
        self._loop_floor = min(self._loop_floor, depth)
        chooser = next((p for p in reversed(self._choosers) if p is not None), None)
        if chooser is None:
            raise ArithmeticError("a line returns to a state with no choice made on the way: "
                                  "the game loops by itself")
        return self.low if self.maximising[chooser] else self.high

    def _outcome_bounds(self, child: GameState[Any]) -> tuple[Bound, Bound]:
        if child.current_player() == TERMINAL:
            value = self.terminal(child)
            return value, value
        return self._seed(child)

    # -- chance nodes ------------------------------------------------------------------------

    def chance(self, state: GameState[Any], alpha: Bound, beta: Bound) -> Step[Bound]:
        if self.bounds is None:
            return (yield from super().chance(state, alpha, beta))
        outcomes = [(o, p) for o, p in state.chance_outcomes() if p != 0]
        children = [state.child(o) for o, _ in outcomes]
        probabilities = [p for _, p in outcomes]
        bounds = [self._outcome_bounds(child) for child in children]
        lows = [b[0] for b in bounds]
        highs = [b[1] for b in bounds]
        if self.probing:
            cut = yield from self._probe(children, probabilities, lows, highs, alpha, beta)
            if cut is not None:
                return cut
        return (yield from self._star1(children, probabilities, lows, highs, alpha, beta))

    def _probe(
        self,
        children: list[GameState[Any]],
        probabilities: list[Fraction],
        lows: list[Bound],
        highs: list[Bound],
        alpha: Bound,
        beta: Bound,
    ) -> Step[Bound | None]:
        """Star2's probing phase: one action of each decision successor; a cut if the
        weighted bounds already pass the window (``lows``/``highs`` are tightened in place)."""
        for index, child in enumerate(children):
            player = child.current_player()
            if player < 0 or lows[index] == highs[index]:
                continue
            actions = child.legal_actions()
            entry = self.table.get(child.key())
            first = actions[self.order(actions, entry[2] if entry else -1)[0]]
            grandchild = child.child(first)
            self.probes += 1
            p = probabilities[index]
            others_low = _weighted(probabilities, lows, skip=index)
            others_high = _weighted(probabilities, highs, skip=index)
            if self.maximising[player]:
                # One action's value is at most the successor's: a lower bound on it.
                target = (beta - others_low) / p
                window_low, window_high = lows[index], min(highs[index], target)
                if window_low >= window_high:
                    continue
                value = yield self.node(grandchild, window_low, window_high)
                if value > window_low:
                    lows[index] = min(value, highs[index])
                total = _weighted(probabilities, lows)
                if total >= beta:
                    return total
            else:
                target = (alpha - others_high) / p
                window_low, window_high = max(lows[index], target), highs[index]
                if window_low >= window_high:
                    continue
                value = yield self.node(grandchild, window_low, window_high)
                if value < window_high:
                    highs[index] = max(value, lows[index])
                total = _weighted(probabilities, highs)
                if total <= alpha:
                    return total
        return None

    def _star1(
        self,
        children: list[GameState[Any]],
        probabilities: list[Fraction],
        lows: list[Bound],
        highs: list[Bound],
        alpha: Bound,
        beta: Bound,
    ) -> Step[Bound]:
        """Star1 with each outcome's own proven bounds for the outcomes not searched yet."""
        done: Bound = Fraction(0)
        for index, child in enumerate(children):
            p = probabilities[index]
            rest_low = _weighted(probabilities, lows, start=index + 1)
            rest_high = _weighted(probabilities, highs, start=index + 1)
            child_alpha = (alpha - done - rest_high) / p
            child_beta = (beta - done - rest_low) / p
            window_low = child_alpha if child_alpha > lows[index] else lows[index]
            window_high = child_beta if child_beta < highs[index] else highs[index]
            if window_low >= window_high:
                if child_alpha >= highs[index]:
                    return done + p * highs[index] + rest_high
                if child_beta <= lows[index]:
                    return done + p * lows[index] + rest_low
                done += p * exact(lows[index])  # known exactly (a terminal, a met bound)
                continue
            value: Bound = yield self.node(child, window_low, window_high)
            if value <= child_alpha:
                return done + p * value + rest_high
            if value >= child_beta:
                return done + p * value + rest_low
            done += p * exact(value)
        return done


def _weighted(probabilities: Sequence[Fraction], values: Sequence[Bound], *, skip: int = -1,
              start: int = 0) -> Bound:
    """The sum of probability times value over the outcomes from ``start`` (but ``skip``)."""
    total: Bound = Fraction(0)
    for index in range(start, len(values)):
        if index != skip:
            total += probabilities[index] * values[index]
    return total
