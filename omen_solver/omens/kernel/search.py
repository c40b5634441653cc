"""Exact search on the kernel: alpha-beta for two sides, in pure Python.

The algorithm is the one of :class:`omen_solver.core.search.alphabeta.TwoSidedSearch` (the
reference, which works on any game through the protocol), specialised to the kernel's states:

* **Fail-soft alpha-beta** over exact values in ``[0, 1]``. With the window ``(0, 1)`` it is a
  boolean search (a maximiser stops at the first child worth 1, a minimiser at the first worth
  0); windows narrow only where chance or a mixed matrix game makes fractions.
* **Transposition table** of proven lower and upper bounds and the best action, keyed by the
  state (:meth:`KState.key`); at most ``table_limit`` entries: a full table drops the half
  that cost least (:mod:`.tables`, the same rule in both kernels).
* **Children first**: every child of a decision is made once, identical children merged, and
  the table asked about each before any is searched: a child already proven good enough cuts
  the node at once (enhanced transposition cut-off).
* **Move ordering**: the table's best action, then the children a static evaluation ranks best
  for the side to move (cards leaving its players' hands, see :func:`static_order`), then the
  legal order.
* **Chance** (Luck's random discard) by expectation with Star1 windows; **simultaneous**
  exchanges as a joint choice of one side, or as a matrix game solved exactly.

The compiled kernel runs the same algorithm in C; the tests compare values, best actions and
node counts between the two.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import NodeMeter
from omen_solver.core.search.alphabeta import proven_bounds
from omen_solver.core.search.matrix import solve_matrix_game
from omen_solver.core.search.result import SimultaneousMode
from omen_solver.errors import BudgetExceeded, ConceptError
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, DEFAULT_TABLE_LIMIT, SearchParams, Value
from omen_solver.omens.kernel.tables import Table

__all__ = [
    "CYCLE_REASON",
    "DEFAULT_TABLE_LIMIT",
    "DEPTH_REASON",
    "NOT_CONSTANT_SUM",
    "KernelSearch",
    "SearchParams",
    "Value",
    "checked_total",
    "distances",
    "leaf_value",
    "skip_shows",
]

MAX_DEPTH: Final = 1_000
"""Plies the search goes down at most. A round lasts far fewer (every bout discards a card);
only a bout that repeats reaches it (Betrayal takes Wrath and gives it back, Wrath sends
Betrayal back, Betrayal is replayed...: under ``wrath_replay = "allowed"``, or when Betrayal is
its player's only card), and the search then stops with "unknown"."""

DEPTH_REASON: Final = (
    f"play went {MAX_DEPTH} actions deep without ending: the rules let it repeat for ever "
    "(Betrayal gives Wrath back, Wrath sends Betrayal back to be replayed...; the rulebook "
    "does not say how such a bout ends)"
)

CYCLE_REASON: Final = (
    "play came back to a state already on the line being searched: the rules let a bout "
    "repeat for ever (Betrayal gives Wrath back, Wrath sends Betrayal back...; the rulebook "
    "does not say how such a bout ends)"
)
"""Why a df-pn search (:mod:`.dfpn`) stops where play comes back to a state on its line."""

NOT_CONSTANT_SUM: Final = (
    "the round can end with no winner (every hand empty) as well as with one: the two teams' "
    "returns do not add up to a constant, so minimax does not apply; use concept 'paranoid'"
)

_NONE: Final = -1
SQUEEZE_SCALE: Final = 16
"""With ``tuning.squeeze``, a step of distance outweighs any count of choices."""
Entry = tuple[Value, Value, int]


def _lean(value: Fraction) -> Value:
    return value.numerator if value.denominator == 1 else value


class KernelSearch(NodeMeter):
    """Alpha-beta for the seats marked ``maximising`` against all the others."""

    def __init__(
        self, machine: Machine, maximising: Sequence[bool], params: SearchParams = DEFAULT_PARAMS
    ) -> None:
        super().__init__(params.budget, params.progress)
        self.machine = machine
        self.maximising = list(maximising)
        self.params = params
        self.constant_sum = params.constant_sum
        self.mode = params.mode
        self.table: Table[Entry] = Table.of(params)
        """Bounds and best actions; full, it replaces what cost least (:mod:`.tables`)."""
        self.table_limit = params.table_limit
        self.total: int | None = None
        self.gap_seen = False
        self.payoff = params.payoff
        self.depth = 0
        self.squeeze = params.tuning.squeeze
        self.dfpn_proofs: tuple[Any, Any] = (None, None)
        """df-pn's searches of "value 0?" and "value 1?" whose proofs are exact values here
        (:meth:`use_proofs`), or None."""
        self.ask = False
        """Ask those searches at each state not searched yet (``Tuning.alpha_beta_asks``)."""
        self.asking = False
        """... in the search running: its root is worth a fraction (:meth:`search`)."""

    @property
    def states(self) -> int:
        return len(self.table)

    def limit_nodes(self, limit: int | None) -> None:
        """Set the node limit, for a search asked again after it stopped at one: a stop leaves
        the line's depth counted, so it starts from the root again."""
        super().limit_nodes(limit)
        self.depth = 0

    def entry(self, state: KState) -> Entry | None:
        """The table's entry for ``state``: proven (low, high) bounds and the best action."""
        return self.table.get(state.key())

    def use_proofs(self, zero: Any, one: Any) -> None:
        """Read the tables of df-pn's searches of "value 0?" (``zero``) and "value 1?"
        (``one``) of the same side (or None): a state one of them has proved is worth that
        value, without a search (``Tuning.alpha_beta_proofs``). With
        ``Tuning.alpha_beta_asks``, a search whose root both have disproved asks them about
        each state it has not searched yet (:meth:`ask_proofs`)."""
        self.dfpn_proofs = (zero, one)
        self.ask = self.params.tuning.alpha_beta_asks

    # -- values at the leaves ------------------------------------------------------------------

    def terminal(self, state: KState) -> Value:
        """The maximising side's return where play is over."""
        if self.constant_sum:
            self.total = checked_total(self.total, state.winner)
        return leaf_value(self.machine, self.maximising, self.payoff, state)

    # -- the search ----------------------------------------------------------------------------

    def search(self, state: KState, alpha: Value, beta: Value) -> Value:
        """Fail-soft alpha-beta value of ``state`` within ``(alpha, beta)``."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.check()
        if self.depth >= MAX_DEPTH:
            raise BudgetExceeded(DEPTH_REASON, self.nodes, self.elapsed())
        if self.depth == 0:
            self.asking = self.ask and self._disproved(state)
        self.depth += 1
        value = self._search(state, alpha, beta)
        self.depth -= 1
        return value

    def _search(self, state: KState, alpha: Value, beta: Value) -> Value:
        start = self.nodes
        machine = self.machine
        player = machine.current_player(state)
        if player == m.TERMINAL:
            return self.terminal(state)
        key = state.key()
        entry = self.table.get(key)
        if entry is None:
            low: Value = 0
            high: Value = 1
            best = _NONE
        else:
            low, high, best = entry
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
        for question, proof in enumerate(self.dfpn_proofs):
            if proof is not None:
                numbers = proof.numbers(state)
                if numbers is not None and numbers[0] == 0:
                    return question
        if entry is None and self.asking:
            asked = self.ask_proofs(state)
            if asked is not None:
                return asked
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
        if player >= 0:
            value, best = self.decision(state, player, alpha, beta, best)
        elif player == m.CHANCE:
            value = self.chance(state, alpha, beta)
        else:
            value, best = self.simultaneous(state, alpha, beta, best)
        low, high = proven_bounds(value, alpha, beta, low, high)  # type: ignore[assignment]
        self.table.store(key, (low, high, best), self.nodes - start + 1)
        return value

    def _disproved(self, state: KState) -> bool:
        """Whether df-pn's tables disprove both questions at ``state``: it is worth a
        fraction."""
        for proof in self.dfpn_proofs:
            numbers = None if proof is None else proof.numbers(state)
            if numbers is None or numbers[1] != 0:
                return False
        return True

    def ask_proofs(self, state: KState) -> int | None:
        """Ask df-pn about a state not searched yet (``Tuning.alpha_beta_asks``): "value 1?",
        then "value 0?", each to its answer on this search's node count; the value (1 or 0)
        one of them proves, or None if both are disproved. A question its table has already
        disproved is not asked again."""
        for question in (1, 0):
            proof = self.dfpn_proofs[question]
            if proof is None:
                continue
            numbers = proof.numbers(state)
            if numbers is not None:
                if numbers[0] == 0:
                    return question
                if numbers[1] == 0:
                    continue
            kept = proof.node_limit
            proof.nodes = self.nodes
            proof.limit_nodes(self.node_limit)
            try:
                proved = proof.prove(state)
            finally:
                proof.limit_nodes(kept)
                self.nodes = proof.nodes
            if self.nodes >= self.next_check:
                self.check()
            if proved:
                return question
        return None

    def children(self, state: KState, moves: Sequence[int]) -> list[tuple[int, KState]]:
        """Each distinct child with the first action that makes it (in legal order)."""
        machine = self.machine
        seen: set[tuple[object, ...]] = set()
        out: list[tuple[int, KState]] = []
        for move in moves:
            child = machine.child(state, move)
            child = self.skip_shows(child)
            key = child.key()
            if key in seen:
                continue
            seen.add(key)
            out.append((move, child))
        return out

    def skip_shows(self, state: KState) -> KState:
        return skip_shows(self.machine, state)

    def decision(
        self, state: KState, player: int, alpha: Value, beta: Value, best: int
    ) -> tuple[Value, int]:
        machine = self.machine
        options = self.children(state, machine.legal(state))
        return self.choose(options, alpha, beta, best, self.maximising[player])

    def choose(
        self,
        options: list[tuple[int, KState]],
        alpha: Value,
        beta: Value,
        best: int,
        maximising: bool,
    ) -> tuple[Value, int]:
        """The best child for one side: a child the table already proves good enough cuts at
        once (enhanced transposition cut-off); otherwise the children are searched best-looking
        first (:meth:`evaluate`, stable), the table's best action before all."""
        if len(options) > 1:
            table = self.table
            for move, child in options:
                entry = table.get(child.key())
                if entry is not None:
                    if maximising and entry[0] >= beta:
                        return entry[0], move
                    if not maximising and entry[1] <= alpha:
                        return entry[1], move
            sign = 1 if maximising else -1
            evaluate = self.evaluate
            options = sorted(options, key=lambda option: -sign * evaluate(option[1]))
        if best != _NONE:
            options = _best_first(options, best)
        best_move = best
        if maximising:
            best_value: Value = -1
            for move, child in options:
                value = self.search(child, alpha, beta)
                if value > best_value:
                    best_value = value
                    best_move = move
                    if value > alpha:
                        if value >= beta:
                            break
                        alpha = value
        else:
            best_value = 2
            for move, child in options:
                value = self.search(child, alpha, beta)
                if value < best_value:
                    best_value = value
                    best_move = move
                    if value < beta:
                        if value <= alpha:
                            break
                        beta = value
        return best_value, best_move

    def evaluate(self, state: KState) -> int:
        """A static guess of how good ``state`` is for the maximising side, for move ordering
        only: how close each side's nearest player is to 1 card, as if the bout ended now;
        with ``tuning.squeeze``, then the choices of the player to choose (at most 15 counted:
        fewer for the other side, more for the maximising side)."""
        squeeze = self.squeeze
        if state.phase == m.OVER:
            won = 1000 if state.winner >= 0 and self.maximising[state.winner] else -1000
            return won * SQUEEZE_SCALE if squeeze else won
        mine, theirs = distances(self.machine, self.maximising, state)
        if not squeeze:
            return theirs - mine
        score = (theirs - mine) * SQUEEZE_SCALE
        player = self.machine.current_player(state)
        if player >= 0:
            count = min(len(self.machine.legal(state)), SQUEEZE_SCALE - 1)
            score += count if self.maximising[player] else -count
        return score

    # -- chance and simultaneous nodes ---------------------------------------------------------

    def chance(self, state: KState, alpha: Value, beta: Value) -> Value:
        """Luck's random discard: the expectation, with Star1 windows on ``[0, 1]``."""
        machine = self.machine
        outcomes = machine.chance_outcomes(state)
        probability = Fraction(1, len(outcomes))
        done: Fraction = Fraction(0)
        remaining: Fraction = Fraction(1)
        for outcome in outcomes:
            remaining -= probability
            child_alpha = (alpha - done - remaining) / probability
            child_beta = (beta - done) / probability
            window_low: Value = child_alpha if child_alpha > 0 else 0
            window_high: Value = child_beta if child_beta < 1 else 1
            if window_low >= window_high:
                edge = 1 if child_alpha >= 1 else 0
                return _lean(done + (probability + remaining) * edge)
            child = self.skip_shows(machine.child(state, outcome))
            value = self.search(child, _lean(Fraction(window_low)), _lean(Fraction(window_high)))
            if value <= child_alpha:
                return _lean(done + probability * value + remaining)
            if value >= child_beta:
                return _lean(done + probability * value)
            done += probability * value
        return _lean(done)

    def simultaneous(
        self, state: KState, alpha: Value, beta: Value, best: int
    ) -> tuple[Value, int]:
        machine = self.machine
        player, target = machine.acting_players(state)
        mine, theirs = machine.legal(state, player), machine.legal(state, target)
        if self.maximising[player] == self.maximising[target]:
            joints = [(a, b) for a in mine for b in theirs]
            options = []
            seen: set[tuple[object, ...]] = set()
            for index, joint in enumerate(joints):
                child = self.skip_shows(machine.joint_child(state, joint))
                key = child.key()
                if key not in seen:
                    seen.add(key)
                    options.append((index, child))
            return self.choose(options, alpha, beta, best, self.maximising[player])
        rows, columns = (mine, theirs) if self.maximising[player] else (theirs, mine)
        return self.matrix(state, rows, columns, self.maximising[player], alpha, beta), _NONE

    def matrix(
        self,
        state: KState,
        rows: list[int],
        columns: list[int],
        player_rows: bool,
        alpha: Value,
        beta: Value,
    ) -> Value:
        """A matrix game. Its value lies between the pure lower value (the row side chooses
        first, the column side answers: a max over rows of a min over columns) and the pure
        upper value, and each is an ordinary two-ply alpha-beta search; the node fails high or
        low on them. Only when neither decides is every entry needed, and the exact value is
        then the linear programme's."""
        machine = self.machine
        children: dict[tuple[int, int], KState] = {}

        def child(r: int, c: int) -> KState:
            made = children.get((r, c))
            if made is None:
                joint = (rows[r], columns[c]) if player_rows else (columns[c], rows[r])
                made = children[(r, c)] = self.skip_shows(machine.joint_child(state, joint))
            return made

        height, width = len(rows), len(columns)
        lower = self.two_ply(height, width, lambda r, c: child(r, c), True, alpha, beta)
        if lower >= beta or self.mode is SimultaneousMode.LOWER:
            return lower
        upper = self.two_ply(width, height, lambda c, r: child(r, c), False, alpha, beta)
        if upper <= alpha or self.mode is SimultaneousMode.UPPER:
            return upper
        entries = [[self.search(child(r, c), 0, 1) for c in range(width)] for r in range(height)]
        return self.matrix_value(entries)

    def two_ply(
        self,
        first: int,
        second: int,
        child: Callable[[int, int], KState],
        maximising: bool,
        alpha: Value,
        beta: Value,
    ) -> Value:
        """Alpha-beta over a choice of ``first`` options answered by ``second`` options: the
        pure lower value of a matrix game (``maximising``) or its pure upper value."""
        best: Value = -1 if maximising else 2
        for i in range(first):
            answer: Value = 2 if maximising else -1
            a, b = (alpha, beta)
            for j in range(second):
                value = self.search(child(i, j), a, b)
                if maximising:
                    if value < answer:
                        answer = value
                        if value <= a:
                            break
                        if value < b:
                            b = value
                else:
                    if value > answer:
                        answer = value
                        if value >= b:
                            break
                        if value > a:
                            a = value
            if maximising:
                if answer > best:
                    best = answer
                    if answer >= beta:
                        break
                    if answer > alpha:
                        alpha = answer
            else:
                if answer < best:
                    best = answer
                    if answer <= alpha:
                        break
                    if answer < beta:
                        beta = answer
        return best

    def matrix_value(self, entries: list[list[Value]]) -> Value:
        row_minima: list[Value] = [min(row) for row in entries]
        column_maxima: list[Value] = [max(column) for column in zip(*entries, strict=True)]
        lower, upper = max(row_minima), min(column_maxima)
        if self.mode is SimultaneousMode.LOWER:
            return lower
        if self.mode is SimultaneousMode.UPPER:
            return upper
        if lower == upper:
            return lower
        self.gap_seen = True
        solution = solve_matrix_game([[Fraction(x) for x in row] for row in entries])
        return _lean(solution.value)


def distances(machine: Machine, side: Sequence[bool], state: KState) -> tuple[int, int]:
    """How many cards the nearest player of ``side`` and the nearest of the others must still
    lose to hold 1, as if the bout ended now (the cards in play resolved, the others back in
    hand); 99 for a side whose hands are all empty. A guess for ordering and seeding only."""
    hands = list(state.hands)
    if state.front:
        return_placer = machine.spec.return_placer
        discarded = machine.resolve(tuple(state.front), state.leader)[2]
        for placement in state.front:
            card = placement & 63
            if not discarded >> card & 1:
                seat = placement >> 9 & 7 if return_placer else placement >> 6 & 7
                hands[seat] |= 1 << card
    mine = theirs = 99
    for seat, hand in enumerate(hands):
        if not hand:
            continue
        distance = hand.bit_count() - 1
        if side[seat]:
            if distance < mine:
                mine = distance
        elif distance < theirs:
            theirs = distance
    return mine, theirs


def skip_shows(machine: Machine, state: KState) -> KState:
    """Answering Secret's "show me a card" changes nothing in play: every answer gives the
    same state, so a search takes the first (a sound reduction, tested)."""
    while state.pending and state.pending[-1][0] == m.P_SHOW:
        state = machine.child(state, machine.legal(state)[0])
    return state


def checked_total(total: int | None, winner: int) -> int:
    """With minimax, what the teams' returns add up to at a leaf won by ``winner`` (-1: none):
    1 with a winner, 0 without; it must be the same at every leaf (``total``: the one seen so
    far), else minimax does not apply."""
    found = 0 if winner < 0 else 1
    if total is not None and found != total:
        raise ConceptError(NOT_CONSTANT_SUM)
    return found


def leaf_value(
    machine: Machine,
    maximising: Sequence[bool],
    payoff: Sequence[Sequence[Value]] | None,
    state: KState,
) -> Value:
    """The maximising side's return where play is over: 1 if one of its seats won, else 0;
    with a payoff table (a game analysed round by round, :mod:`.game`), its entry for the
    winner and the seat that leads the next round."""
    winner = state.winner
    if payoff is not None:
        leader = machine.next_round_leader(state) if winner >= 0 else 0
        return payoff[winner + 1][leader]
    return 1 if winner >= 0 and maximising[winner] else 0


def _best_first(options: list[tuple[int, KState]], best: int) -> list[tuple[int, KState]]:
    for index, (move, _) in enumerate(options):
        if move == best:
            if index == 0:
                return options
            return [options[index], *options[:index], *options[index + 1 :]]
    return options
