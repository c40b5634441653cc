"""How many bouts a side needs to force the round: the depth of a best-play puzzle.

A round of Omens lasts as many bouts as it takes a player to get down to one card (rules file
000, "Game Sequence"; "End of a Round"). A position is *won in k bouts* by a side when that side
can make sure the round ends, with one of its players winning it, by the end of the k-th bout
from now (the bout in progress counts as the first), whatever everyone else does. The *depth*
of a won position is the smallest such k: the length of the winning line when the defence
holds out as long as it can (a chess problem's "mate in k", counted in bouts).

:class:`BoutSearch` answers "won within k bouts?" exactly, by a boolean search on the search
kernel's rules (:class:`omen_solver.omens.kernel.machine.Machine`, the pure-Python one: the
compiled search has no bout limit). A decision of the side is an *or*, a decision of anyone
else an *and*; Luck's random discard (option ``luck_chooser = "random"``) must win on every
outcome; The Absolute's secret exchange between the two sides must have a gift of the side that
wins against every gift of the other (a win for certain needs no mixed strategy: a matrix of
0s and 1s has value 1 only with a row of 1s); an exchange between two players of one side is
one joint choice. Proven results are kept per state as the largest k known to fail and the
smallest known to succeed, which stay true as k grows, so :meth:`BoutSearch.depth` deepens one
bout at a time and reuses them.

:meth:`BoutSearch.line` plays out the winning line: the side picks a move that keeps the
shortest win, everyone else the move that delays it longest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from omen_solver.core.budget import Budget, NodeMeter, Progress, deep_recursion
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.convert import from_engine, to_action
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import SearchParams
from omen_solver.omens.kernel.search import Value
from omen_solver.omens.kernel.solve import make_search
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.state import OmensState

__all__ = ["MAX_DEPTH", "BoutSearch", "Goal", "LineStep"]

MAX_DEPTH: Final = 40
"""Bouts :meth:`BoutSearch.depth` tries at most. Every bout discards at least the winning card
(rules file 000, "How a Bout Is Resolved"), so a round from hands of at most 5 cards each
lasts far fewer."""

_UNKNOWN: Final = 0
_NEVER: Final = 1 << 30

Move = tuple[int, ...]
"""One kernel move: a single action, or the two gifts of The Absolute's secret exchange."""


@dataclass(frozen=True)
class Goal:
    """What the side wants: the seats on it, and whether a round that ends with no winner
    (every hand empty) counts for it."""

    side: tuple[bool, ...]
    """For each seat (in the engine's order, from 0): whether it is on the side."""
    no_winner_counts: bool = False

    @classmethod
    def team_wins(cls, players: int, team: Sequence[int]) -> Goal:
        """The team (its seats from 1) wins the round."""
        return cls(tuple(seat + 1 in team for seat in range(players)))

    @classmethod
    def team_fails(cls, players: int, team: Sequence[int]) -> Goal:
        """Everyone else makes sure the team (its seats from 1) does not win the round."""
        return cls(tuple(seat + 1 not in team for seat in range(players)), no_winner_counts=True)

    def reached(self, winner: int) -> bool:
        """Whether a round won by ``winner`` (the engine's seat, from 0; -1: nobody) is."""
        return self.side[winner] if winner >= 0 else self.no_winner_counts


@dataclass(frozen=True)
class LineStep:
    """One move of a line, and the bouts the side still needs after it (0: the round is
    over)."""

    move: Move
    bouts_left: int


class BoutSearch(NodeMeter):
    """Bounded-bout search for one goal from one engine position (any point of a bout)."""

    def __init__(
        self,
        state: OmensState,
        goal: Goal,
        *,
        budget: Budget | None = None,
        progress: Progress | None = None,
    ) -> None:
        super().__init__(budget, progress)
        self.state = state
        self.goal = goal
        self.spec = compile_table(state.table, state.teams())
        self.machine = Machine(self.spec)
        self.root = from_engine(self.spec, state)
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        """Per state: (the largest k proven to fail, the smallest proven to succeed)."""
        # The whole round's value (the kernel's search, compiled when built): a side that
        # cannot reach its goal for certain in the round cannot reach it within k bouts. The
        # kernel values a round with no winner as 0 for its maximising seats, so a goal that
        # counts it is asked from the other seats' side, as a value of 0.
        against = goal.no_winner_counts
        self.oracle = make_search(
            self.machine, [flag != against for flag in goal.side],
            SearchParams(budget=budget or Budget(), progress=progress),
        )
        self.target: Value = 0 if against else 1

    # -- the questions ---------------------------------------------------------------------

    def won_within(self, bouts: int) -> bool:
        """Can the side make sure the goal is reached by the end of ``bouts`` bouts?
        Raises :class:`~omen_solver.core.budget.BudgetExceeded`."""
        if self.root.phase == m.OVER:
            return self.goal.reached(self.root.winner)
        if bouts < 1:
            return False
        with deep_recursion():
            return self._reaches(self.root, bouts)

    def depth(self, limit: int = MAX_DEPTH) -> int | None:
        """The fewest bouts in which the side forces the goal; ``None`` if it cannot within
        ``limit`` bouts."""
        for bouts in range(1, limit + 1):
            if self.won_within(bouts):
                return bouts
        return None

    def line(self, bouts: int) -> list[LineStep]:
        """A line in which the side reaches its goal within ``bouts`` bouts (which it must be
        able to) while everyone else holds out as long as possible."""
        steps: list[LineStep] = []
        state, left = self.root, bouts
        with deep_recursion():
            while self.machine.current_player(state) != m.TERMINAL:
                move, state, left = self._line_step(state, left)
                steps.append(LineStep(move, left))
        return steps

    def engine_move(self, move: Move) -> tuple[OmensAction, ...]:
        """The engine's actions of a kernel move (for :meth:`OmensState.apply_move`)."""
        return tuple(to_action(self.spec, action) for action in move)

    # -- the search ------------------------------------------------------------------------

    def _options(self, state: KState) -> tuple[bool, list[tuple[Move, KState]]]:
        """Whether the side chooses here, and every distinct successor with its move."""
        machine = self.machine
        player = machine.current_player(state)
        moves: list[Move]
        if player >= 0:
            chooser = self.goal.side[player]
            moves = [(move,) for move in machine.legal(state)]
        elif player == m.CHANCE:
            chooser = False
            moves = [(move,) for move in machine.chance_outcomes(state)]
        else:
            first, second = machine.acting_players(state)
            chooser = self.goal.side[first] and self.goal.side[second]
            answers = machine.legal(state, second)
            moves = [(a, b) for a in machine.legal(state, first) for b in answers]
        seen: set[tuple[object, ...]] = set()
        options = []
        for move in moves:
            if len(move) == 1:
                child = machine.child(state, move[0])
            else:
                child = machine.joint_child(state, move)
            key = child.key()
            if key not in seen:
                seen.add(key)
                options.append((move, child))
        return chooser, options

    def _exchange_rows(self, state: KState) -> list[list[tuple[Move, KState]]] | None:
        """At The Absolute's exchange between the two sides: for each gift of the side's
        player, the successors over every gift of the other player; else ``None``."""
        machine = self.machine
        if machine.current_player(state) != m.SIMULTANEOUS:
            return None
        first, second = machine.acting_players(state)
        side = self.goal.side
        if side[first] == side[second]:
            return None
        mine, theirs = (first, second) if side[first] else (second, first)
        rows = []
        for gift in machine.legal(state, mine):
            row: list[tuple[Move, KState]] = []
            for answer in machine.legal(state, theirs):
                joint = {mine: gift, theirs: answer}
                move = (joint[first], joint[second])
                row.append((move, machine.joint_child(state, move)))
            rows.append(row)
        return rows

    def _after(self, child: KState, bouts: int) -> bool:
        """The value of a successor reached with ``bouts`` bouts allowed, counting the bout
        that a fresh bout start shows has just ended."""
        if child.phase == m.OVER:
            return self.goal.reached(child.winner)
        if _fresh_bout(child):
            bouts -= 1
            if bouts <= 0:
                return False
        return self._reaches(child, bouts)

    def _reaches(self, state: KState, bouts: int) -> bool:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        key = state.key()
        failed, succeeded = self.table.get(key, (_UNKNOWN, _NEVER))
        if succeeded <= bouts:
            return True
        if failed >= bouts:
            return False
        if not self._possible(state):
            self.table[key] = (_NEVER, _NEVER)
            return False
        rows = self._exchange_rows(state)
        if rows is not None:
            value = any(all(self._after(child, bouts) for _, child in row) for row in rows)
        else:
            chooser, options = self._options(state)
            if chooser:
                value = any(self._after(child, bouts) for _, child in options)
            else:
                # A reply that the whole round's search already refutes is tried first.
                value = all(self._hopeful(child, bouts) for _, child in options) and all(
                    self._after(child, bouts) for _, child in options
                )
        if value:
            succeeded = min(succeeded, bouts)
        else:
            failed = max(failed, bouts)
        self.table[key] = (failed, succeeded)
        return value

    def _hopeful(self, child: KState, bouts: int) -> bool:
        """A cheap necessary condition of :meth:`_after`: the goal is not already missed."""
        if child.phase == m.OVER:
            return self.goal.reached(child.winner)
        if _fresh_bout(child) and bouts <= 1:
            return False
        return self._possible(child)

    def _possible(self, state: KState) -> bool:
        """Whether the side reaches its goal for certain in the whole round."""
        return self.oracle.search(state, 0, 1) == self.target

    # -- the line --------------------------------------------------------------------------

    def _needed(self, child: KState, bouts: int) -> int:
        """The fewest bouts, counted from the parent and at most ``bouts``, within which the
        side still reaches its goal after ``child``; ``bouts + 1`` if it does not."""
        for allowed in range(1, bouts + 1):
            if self._after(child, allowed):
                return allowed
        return bouts + 1

    def _line_step(self, state: KState, bouts: int) -> tuple[Move, KState, int]:
        rows = self._exchange_rows(state)
        if rows is not None:
            row = next(r for r in rows if all(self._after(child, bouts) for _, child in r))
            move, child = max(row, key=lambda option: self._needed(option[1], bouts))
        else:
            chooser, options = self._options(state)
            if chooser:
                move, child = min(options, key=lambda option: self._needed(option[1], bouts))
            else:
                move, child = max(options, key=lambda option: self._needed(option[1], bouts))
        left = bouts
        if child.phase == m.OVER:
            left = 0
        elif _fresh_bout(child):
            left -= 1
        return move, child, left


def _fresh_bout(state: KState) -> bool:
    """A bout is about to start: nothing is in play and nobody has played."""
    return state.phase == m.BOUT and not state.played and not state.front and not state.pending
