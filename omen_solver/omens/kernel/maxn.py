"""Max-n on the kernel, with the prunings that keep its answers exact.

The answer is that of :class:`omen_solver.core.search.maxn.MaxnSearch` (the reference: every
child searched, ties broken by :class:`~omen_solver.core.search.maxn.TieBreak`, two teams
choosing at once by security strategies); what changes is how much is searched. Team returns
lie in ``[0, 1]`` and add up to at most 1 (one team wins a round, or none):

* **Immediate pruning**: a child worth 1 to the mover's team cannot be beaten; children are
  scanned in legal order (in reverse for the ``last`` tie-break, so that "the first best in scan
  order" is the tie-break's choice), and the scan stops there.
* **Shallow pruning** (Korf): when the parent's team (another team) already has ``b`` from an
  earlier child, and the mover's team has ``v`` here, the parent's team gets at most ``1 - v``
  here; once ``1 - v <= b`` the parent cannot prefer this node (it switches only to a strictly
  better child), so the node stops and its partial value is not kept in the table.

The compiled kernel runs the same search (``_ckernel.c``: ``Maxn``); tests compare the vectors,
tie-break by tie-break, with the reference, and the node counts with the compiled one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from omen_solver.core.budget import NodeMeter
from omen_solver.core.game import GameState
from omen_solver.core.search.maxn import TieBreak, security_choice
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, SearchParams
from omen_solver.omens.kernel.search import DEPTH_REASON, MAX_DEPTH, Value

__all__ = ["KernelMaxn"]

Vector = tuple[Value, ...]


class KernelMaxn(NodeMeter):
    """Max-n values of kernel states; :meth:`search` takes a protocol view (the reference's
    root analysis calls it) and :meth:`value` a kernel state."""

    def __init__(
        self,
        machine: Machine,
        params: SearchParams = DEFAULT_PARAMS,
        *,
        tie_break: TieBreak = TieBreak.FIRST,
    ) -> None:
        params.refuse("max-n", mode=True, payoff=True)
        super().__init__(params.budget, params.progress)
        self.machine = machine
        self.tie_break = tie_break
        spec = machine.spec
        self.team_of = list(spec.team_of)
        self.teams = len(spec.teams)
        self.table: dict[tuple[object, ...], Vector] = {}
        self.table_limit = params.table_limit
        self.depth = 0

    @property
    def states(self) -> int:
        return len(self.table)

    def search(self, state: GameState[Any]) -> tuple[Fraction, ...]:
        """The max-n vector of a protocol view of a kernel state (exact Fractions)."""
        k: KState = state.k  # type: ignore[attr-defined]
        return tuple(Fraction(v) for v in self.value(k, -1, 0)[0])

    def leaf(self, state: KState) -> Vector:
        winner = state.winner
        vector = [0] * self.teams
        if winner >= 0:
            vector[self.team_of[winner]] = 1
        return tuple(vector)

    def order(self, items: list[Any]) -> list[Any]:
        return items if self.tie_break is TieBreak.FIRST else items[::-1]

    def value(self, state: KState, parent_team: int, bound: Value) -> tuple[Vector, bool]:
        """The vector of ``state`` and whether it is exact (False: pruned for a parent of team
        ``parent_team`` that already has ``bound``)."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        if self.depth >= MAX_DEPTH:
            raise BudgetExceeded(DEPTH_REASON, self.nodes, self.elapsed())
        machine = self.machine
        player = machine.current_player(state)
        if player == m.TERMINAL:
            return self.leaf(state), True
        key = state.key()
        known = self.table.get(key)
        if known is not None:
            return known, True
        self.depth += 1
        if player >= 0:
            found = self.choose(
                [machine.child(state, move) for move in machine.legal(state)],
                self.team_of[player], parent_team, bound,
            )
        elif player == m.CHANCE:
            found = self.expectation(state), True
        else:
            found = self.simultaneous(state, parent_team, bound)
        self.depth -= 1
        if found[1] and len(self.table) < self.table_limit:
            self.table[key] = found[0]
        return found

    def choose(
        self, children: list[KState], team: int, parent_team: int, bound: Value
    ) -> tuple[Vector, bool]:
        """The tie-break's best child for ``team``, with immediate and shallow pruning."""
        best: Vector | None = None
        for child in self.order(children):
            mine = -1 if best is None else best[team]
            vector, exact = self.value(child, team, mine)
            if not exact:
                continue  # it cannot beat ``best`` for ``team``
            if best is None or vector[team] > best[team]:
                best = vector
                if vector[team] >= 1:
                    break
                if parent_team >= 0 and parent_team != team and 1 - vector[team] <= bound:
                    return best, False
        assert best is not None
        return best, True

    def expectation(self, state: KState) -> Vector:
        machine = self.machine
        outcomes = machine.chance_outcomes(state)
        share = Fraction(1, len(outcomes))
        total = [Fraction(0)] * self.teams
        for outcome in outcomes:
            vector, _ = self.value(machine.child(state, outcome), -1, 0)
            for index, v in enumerate(vector):
                total[index] += share * v
        return tuple(v.numerator if v.denominator == 1 else v for v in total)

    def simultaneous(
        self, state: KState, parent_team: int, bound: Value
    ) -> tuple[Vector, bool]:
        machine = self.machine
        first, second = machine.acting_players(state)
        rows, columns = machine.legal(state, first), machine.legal(state, second)
        team = self.team_of[first]
        if team == self.team_of[second]:
            children = [machine.joint_child(state, (r, c)) for r in rows for c in columns]
            return self.choose(children, team, parent_team, bound)
        table = [
            [self.value(machine.joint_child(state, (r, c)), -1, 0)[0] for c in columns]
            for r in rows
        ]
        row = security_choice(table, team, self.tie_break)
        flipped = [[table[r][c] for r in range(len(rows))] for c in range(len(columns))]
        column = security_choice(flipped, self.team_of[second], self.tie_break)
        return table[row][column], True
