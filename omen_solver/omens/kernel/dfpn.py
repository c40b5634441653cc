"""Depth-first proof-number search (df-pn) on the kernel, in pure Python: the alternative to
the kernel's boolean alpha-beta that issue "solve real deals" asks to measure.

A round is won or lost, so "does this side win for sure?" is an AND/OR question, and df-pn
(Nagai 2002, with the 1+epsilon trick of Pawlewicz and Lew 2007) answers it by always
expanding the most-proving node: the one whose proof needs the fewest leaves still unknown.
It is a different way to walk the same game, tested against the alpha-beta search on the same
positions (``tests/omens_kernel/test_dfpn.py``) and measured against it by
``benchmarks/omens_dfpn.py`` (nodes and seconds, both in pure Python, side by side).

The question is "is the round's value for the maximising seats 1?" (they win for sure) or
"is it 0?" (they lose for sure); the side whose sure result is asked is the attacker.

* A decision of one of its seats is an OR node, a decision of another seat an AND node.
* Luck's random discard (a chance node) is an AND node: a sure win needs every outcome won.
* The Absolute's secret exchange between two teams is won for sure exactly when one of the
  attacker's cards wins against every card the other side may give (a mixed strategy that
  guarantees the whole value must put all its weight on such rows): an OR node over the
  attacker's cards of AND nodes over the defender's. Between teammates it is one joint choice.

:func:`omen_solver.omens.kernel.solve.dfpn_value` asks both sides: value 1 (the maximising
side wins for sure), value 0 (the others do), or neither (a matrix game with a mixed value,
which df-pn does not compute: the answer is then ``None``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from omen_solver.core.budget import NodeMeter
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import DEFAULT_PARAMS, SearchParams
from omen_solver.omens.kernel.search import (
    CYCLE_REASON,
    DEPTH_REASON,
    MAX_DEPTH,
    checked_total,
    distances,
    skip_shows,
)
from omen_solver.omens.kernel.seed_model import model_wins
from omen_solver.omens.kernel.tables import Table

__all__ = ["DfpnSearch", "Prover", "link_questions", "settled_by"]

INFINITE: Final = 1 << 40
"""A proof or disproof number that stands for "proved impossible"."""

SEED_MAX: Final = 1 << 30
"""The largest number a node not searched yet starts with."""

HINT_SCALE: Final = 256
"""How much larger than its seed's the disproof number of a state starts when the other
question's search disproved it (:meth:`DfpnSearch._first_numbers`)."""

PLAYOUT_STEPS: Final = 400
"""A playout of a bout start's seed (``Tuning.playouts``) stops after this many actions."""

_MASK64: Final = (1 << 64) - 1


def _playout_seed(players: int, state: KState) -> int:
    """The first random number of a bout start's playouts, from its hands and leader, so that
    the same state gets the same playouts in either kernel (``_ckernel.c``: playout_seed)."""
    x = 0x9E3779B97F4A7C15
    for seat in range(players):
        x = ((x ^ state.hands[seat]) * 0xBF58476D1CE4E5B9) & _MASK64
        x ^= x >> 31
    x = ((x ^ state.leader) * 0x94D049BB133111EB) & _MASK64
    x ^= x >> 29
    return x or 1


def is_bout_start(state: KState) -> bool:
    """A bout's start: no card played or in play, nothing pending."""
    return (state.phase == m.BOUT and not state.played and not state.front
            and not state.pending)


EPSILON_SHARE: Final = 4
"""The 1+epsilon trick with epsilon = 1/4: a child is searched until its number passes the
second best's by a quarter (in whole numbers), which cuts the re-expansions of plain df-pn."""


Key = tuple[object, ...]


class Prover(Protocol):
    """What a df-pn search offers (:class:`DfpnSearch`, or the compiled one)."""

    nodes: int

    @property
    def states(self) -> int: ...

    @property
    def mixed_seen(self) -> bool: ...

    @property
    def total(self) -> int | None: ...

    @property
    def node_limit(self) -> int | None: ...

    def limit_nodes(self, limit: int | None) -> None: ...

    def elapsed(self) -> float: ...

    def prove(self, state: KState) -> bool: ...

    def numbers(self, state: KState) -> tuple[int, int] | None: ...

    def use_hint(self, other: Prover | None) -> None: ...

    @property
    def playouts(self) -> int: ...

    @playouts.setter
    def playouts(self, count: int) -> None: ...

    @property
    def hint_stored(self) -> bool: ...

    @hint_stored.setter
    def hint_stored(self, on: bool) -> None: ...

Node = tuple[Key, KState, int]
"""A node of the AND/OR tree: its key, its state, and the attacker's card of an exchange row
(``-1`` for a node that is a state of play)."""


def settled_by(question: int, proved: bool, proof: Prover) -> int | None:
    """The round's value that df-pn's answer to "value == question?" settles, or None: a proof
    settles it; a disproof of "value 1?" through decisions only (no exchange between the
    teams, no chance: ``mixed_seen``) is a pure strategy of the others, so the value is 0;
    any other disproof leaves "value 0?" to ask, or, after it, a value strictly between."""
    if proved:
        return question
    if question == 1 and not proof.mixed_seen:
        return 0
    return None


def link_questions(proofs: dict[int, Prover]) -> None:
    """Let the searches of "value 1?" and "value 0?" of one side (``proofs`` by question)
    read each other's proofs (:meth:`DfpnSearch.use_hint`, ``Tuning.hint``)."""
    if set(proofs) == {0, 1}:
        proofs[1].use_hint(proofs[0])
        proofs[0].use_hint(proofs[1])


class DfpnSearch(NodeMeter):
    """Proves or disproves that the round's value for the ``maximising`` seats is ``target``
    (1: they win for sure; 0: the others do, or the round ends with no winner)."""

    def __init__(
        self,
        machine: Machine,
        maximising: Sequence[bool],
        target: int,
        params: SearchParams = DEFAULT_PARAMS,
    ) -> None:
        params.refuse("df-pn", mode=True, payoff=True)
        super().__init__(params.budget, params.progress)
        self.machine = machine
        self.maximising = list(maximising)
        self.target = target
        self.params = params
        self.constant_sum = params.constant_sum
        self.total: int | None = None
        """With minimax: what the two teams' returns add up to at every leaf met."""
        self.attacker = [flag == bool(target) for flag in maximising]
        """The seats whose choices the proof makes: the maximising side's when the question
        is "value 1", the others' when it is "value 0"."""
        self.table: Table[tuple[int, int]] = Table.of(params)
        """Proof and disproof numbers; full, it replaces what cost least (:mod:`.tables`)."""
        self.table_limit = params.table_limit
        self.mobility = params.tuning.mobility
        self.distance = params.tuning.distance
        self.playouts = params.tuning.first_playouts()
        """The playouts of a bout start's seed from now on (``Tuning.playouts``; the searches
        by turns set it turn by turn, ``Tuning.playouts_turn`` and ``playouts_after``)."""
        self.hint_stored = params.tuning.first_hint_stored()
        """Whether the hint reaches stored entries from now on (``Tuning.hint_stored``; the
        searches by turns set it turn by turn, as the playouts): :meth:`_hinted`."""
        self._path: set[Key] = set()
        self.hint: DfpnSearch | None = None
        """The search of the other question (:meth:`use_hint`), or None."""
        self.mixed_seen = False
        """Whether a chance node or an exchange between teams was expanded: a disproof then
        says only that the attacker's value is below 1, not that it is 0."""

    @property
    def states(self) -> int:
        return len(self.table)

    def use_hint(self, other: Prover | None) -> None:
        """Read what ``other`` (a df-pn search of the same side, usually of the other
        question, or None) has settled about a child not in this search's table
        (:meth:`_first_numbers`): a state worth 1 is not worth 0, and a state not worth 1 is
        likely worth 0. ``other`` must not search while this one does. ``tuning.hint`` links
        the two questions of the searches by turns."""
        if other is self:
            raise ValueError("a search cannot be its own hint")
        if other is not None and not isinstance(other, DfpnSearch):
            raise TypeError(f"a hint for the pure-Python df-pn must be one too, not {other!r}")
        self.hint = other

    def numbers(self, state: KState) -> tuple[int, int] | None:
        """The table's proof and disproof numbers of ``state`` (0 and 0: proved or disproved
        for the target), or None."""
        return self.table.get(state.key())

    def prove(self, state: KState) -> bool:
        """True if the value of ``state`` is the target, False if it is not. Raises
        :class:`BudgetExceeded` when the budget runs out first."""
        state = skip_shows(self.machine, state)
        root: Node = (state.key(), state, -1)
        leaf = self._leaf(state)
        if leaf is not None:
            return leaf[0] == 0
        self._mid(root, INFINITE - 1, INFINITE - 1, 0)
        pn, dn = self.table[root[0]]
        if pn == 0:
            return True
        if dn == 0:
            return False
        raise BudgetExceeded("the proof numbers did not settle", self.nodes, self.elapsed())

    # -- the tree ------------------------------------------------------------------------------

    def _leaf(self, state: KState) -> tuple[int, int] | None:
        """(0, INFINITE) for a leaf worth the target, (INFINITE, 0) for one that is not."""
        if state.phase != m.OVER:
            return None
        winner = state.winner
        if self.constant_sum:
            self.total = checked_total(self.total, winner)
        value = 1 if winner >= 0 and self.maximising[winner] else 0
        return (0, INFINITE) if value == self.target else (INFINITE, 0)

    def _expand(self, node: Node) -> tuple[bool, list[Node]]:
        """Whether ``node`` is an OR node (the attacker chooses), and its distinct children."""
        key, state, row = node
        machine = self.machine
        if row >= 0:
            self.mixed_seen = True
            # an exchange row: the attacker's card is fixed, the defender answers
            player, target = machine.acting_players(state)
            defender = target if self.attacker[player] else player
            answers = machine.legal(state, defender)
            mine_first = self.attacker[player]
            pairs = [(row, answer) if mine_first else (answer, row) for answer in answers]
            return False, self._distinct(machine.joint_child(state, pair) for pair in pairs)
        player = machine.current_player(state)
        if player >= 0:
            kids = (machine.child(state, move) for move in machine.legal(state))
            return self.attacker[player], self._distinct(kids)
        if player == m.CHANCE:
            self.mixed_seen = True
            kids = (machine.child(state, move) for move in machine.chance_outcomes(state))
            return False, self._distinct(kids)
        player, target = machine.acting_players(state)
        mine, theirs = machine.legal(state, player), machine.legal(state, target)
        if self.attacker[player] == self.attacker[target]:
            kids = (machine.joint_child(state, (a, b)) for a in mine for b in theirs)
            return self.attacker[player], self._distinct(kids)
        rows = mine if self.attacker[player] else theirs
        return True, [((key, "row", card), state, card) for card in rows]

    def _distinct(self, states: Iterable[KState]) -> list[Node]:
        seen: set[Key] = set()
        out: list[Node] = []
        for state in states:
            state = skip_shows(self.machine, state)
            key = state.key()
            if key not in seen:
                seen.add(key)
                out.append((key, state, -1))
        return out

    def _numbers(self, node: Node, seed: tuple[int, int]) -> tuple[int, int]:
        leaf = self._leaf(node[1]) if node[2] < 0 else None
        if leaf is not None:
            return leaf
        return self.table.get(node[0], seed)

    def _first_numbers(self, node: Node) -> tuple[int, int]:
        """The numbers of a node not in the table: what the hint (:meth:`use_hint`) settled
        about it if it is a state of play, else its seed. A state the hint proved is settled;
        one it disproved is settled if both ask the same value, else it starts as likely
        proved: proof number 1, disproof number :data:`HINT_SCALE` times its seed's (the
        states where "value 1?" failed are where "value 0?" finds its proof)."""
        hint = self.hint
        if hint is not None and node[2] < 0:
            found = hint.table.get(node[0])
            if found is not None:
                same = hint.target == self.target
                if found[0] == 0 or (found[1] == 0 and same):
                    return (0, INFINITE) if (found[0] == 0) == same else (INFINITE, 0)
                if found[1] == 0:
                    return (1, min(self._seed_of(node)[1] * HINT_SCALE, SEED_MAX))
        return self._seed_of(node)

    def _hinted(self, node: Node) -> tuple[int, int] | None:
        """The numbers a node stored still open starts a visit of its parent with, if the
        other question's search (the hint of "value 1?" for "value 0?" and the other way round)
        has disproved it since (``Tuning.hint_stored``): proof number 1 and its stored
        disproof number :data:`HINT_SCALE` times (at most :data:`SEED_MAX`, never less than
        stored), as :meth:`_first_numbers` starts a state not stored; else None."""
        hint = self.hint
        if not self.hint_stored or hint is None or node[2] >= 0 or hint.target == self.target:
            return None
        pn, dn = self.table[node[0]]
        if pn <= 1 or dn == 0:
            return None
        found = hint.table.get(node[0])
        if found is None or found[1] != 0 or found[0] == 0:
            return None
        return (1, max(dn, min(dn * HINT_SCALE, SEED_MAX)))

    def _seed_of(self, node: Node) -> tuple[int, int]:
        """:meth:`_seed`, and at a bout start with ``tuning.playouts`` = P, the proof number
        multiplied by the playouts the attacker lost plus one and the disproof number by those
        it won plus one (:meth:`_playout_wins`): a seed that tells positions apart, as in Monte
        Carlo proof-number search; with ``tuning.seed_model`` the wins are the fitted model's
        probability as wins of P, none played
        (:func:`~omen_solver.omens.kernel.seed_model.model_wins`)."""
        pn, dn = self._seed(node)
        state = node[1]
        count = self.playouts
        if count and node[2] < 0 and is_bout_start(state):
            if self.params.tuning.seed_model:
                wins = model_wins(self.machine.spec, state, self.attacker, count)
            else:
                wins = self._playout_wins(state, count)
            prior = 1 + self.params.tuning.playout_prior
            pn = min(pn * (count + prior - wins), SEED_MAX)
            dn = min(dn * (wins + prior), SEED_MAX)
        return pn, dn

    def _playout_wins(self, start: KState, count: int) -> int:
        """How many of ``count`` random playouts from ``start`` (every player, and chance,
        choosing uniformly among the legal actions, to the round's end or
        :data:`PLAYOUT_STEPS` actions) end with the value this search asks. The random numbers
        are xorshift64's from :func:`_playout_seed`, the same as the compiled kernel's."""
        machine = self.machine
        x = _playout_seed(machine.spec.players, start)

        def draw(n: int) -> int:
            nonlocal x
            x ^= (x << 13) & _MASK64
            x ^= x >> 7
            x ^= (x << 17) & _MASK64
            return (x >> 11) % n

        wins = 0
        for _ in range(count):
            state = start
            for _ in range(PLAYOUT_STEPS):
                if state.phase == m.OVER:
                    break
                if machine.current_player(state) == m.SIMULTANEOUS:
                    _, player, target, _ = state.pending[-1]
                    mine, theirs = machine.legal(state, player), machine.legal(state, target)
                    if not mine or not theirs:
                        break
                    first = mine[draw(len(mine))]
                    state = machine.joint_child(state, (first, theirs[draw(len(theirs))]))
                else:
                    moves = machine.legal(state)
                    if not moves:
                        break
                    state = machine.child(state, moves[draw(len(moves))])
            if state.phase == m.OVER:
                value = 1 if state.winner >= 0 and self.maximising[state.winner] else 0
                wins += value == self.target
        return wins

    def _seed(self, node: Node) -> tuple[int, int]:
        """The numbers of a node not searched yet: 1 and 1; with ``tuning.mobility`` its
        mobility (:meth:`_choices`); with ``tuning.distance`` the proof number multiplied by
        ``(1 + a) ** distance`` and the disproof number by ``(1 + d) ** distance``, ``a`` and
        ``d`` the cards the nearest attacker and the nearest defender must still lose to hold
        1 (:func:`~omen_solver.omens.kernel.search.distances`, at most 9 counted)."""
        state = node[1]
        if state.phase == m.OVER:
            return (1, 1)
        pn, dn = self._choices(node) if self.mobility else (1, 1)
        if self.distance:
            mine, theirs = distances(self.machine, self.attacker, state)
            pn *= (1 + min(mine, 9)) ** self.distance
            dn *= (1 + min(theirs, 9)) ** self.distance
        return (min(pn, SEED_MAX), min(dn, SEED_MAX))

    def _choices(self, node: Node) -> tuple[int, int]:
        """A node's numbers by its mobility: the number of choices of the side to move (both
        cards of every pair at an exchange between teammates, the attacker's cards at one
        between the teams, the defender's answers to a row), which an AND node needs as many
        proofs of and an OR node as many disproofs of."""
        _, state, row = node
        machine = self.machine
        if row >= 0:
            player, target = machine.acting_players(state)
            answers = machine.legal(state, target if self.attacker[player] else player)
            return (max(len(answers), 1), 1)
        player = machine.current_player(state)
        if player >= 0:
            return _mobility(len(machine.legal(state)), self.attacker[player])
        if player == m.CHANCE:
            return _mobility(len(machine.chance_outcomes(state)), False)
        player, target = machine.acting_players(state)
        mine, theirs = machine.legal(state, player), machine.legal(state, target)
        if self.attacker[player] == self.attacker[target]:
            return _mobility(len(mine) * len(theirs), self.attacker[player])
        return _mobility(len(mine) if self.attacker[player] else len(theirs), True)

    def _store(self, key: Key, pn: int, dn: int, spent: int) -> None:
        self.table.store(key, (pn, dn), spent)

    # -- the search ----------------------------------------------------------------------------

    def _mid(self, node: Node, th_pn: int, th_dn: int, depth: int) -> None:
        """Search ``node`` until its proof number reaches ``th_pn`` or its disproof number
        ``th_dn`` (multiple iterative deepening), and store its numbers."""
        self.nodes += 1
        start = self.nodes
        if self.nodes >= self.next_check:
            self.check()
        if depth >= MAX_DEPTH:
            raise BudgetExceeded(DEPTH_REASON, self.nodes, self.elapsed())
        key = node[0]
        is_or, kids = self._expand(node)
        self._path.add(key)
        try:
            for kid in kids:
                if kid[0] in self._path:
                    raise BudgetExceeded(CYCLE_REASON, self.nodes, self.elapsed())
            table = self.table
            hinted = [self._hinted(kid) if kid[0] in table else None for kid in kids]
            seeds = [(1, 1) if kid[0] in table else self._first_numbers(kid) for kid in kids]
            # of equal least numbers, the larger other number first (1), the smaller (-1), or
            # the first (0): Tuning.ties at this node
            ties = self.params.tuning.ties
            tie = -1 if ties == 2 else int(ties == 1 or (ties == 3 and is_or))
            while True:
                numbers = [over or self._numbers(kid, seed)
                           for kid, seed, over in zip(kids, seeds, hinted, strict=True)]
                # phi: the number this node's side minimises; delta: the one it sums
                if is_or:
                    phis = [pn for pn, _ in numbers]
                    deltas = [dn for _, dn in numbers]
                    th_phi, th_delta = th_pn, th_dn
                else:
                    phis = [dn for _, dn in numbers]
                    deltas = [pn for pn, _ in numbers]
                    th_phi, th_delta = th_dn, th_pn
                phi = min(phis) if phis else INFINITE
                delta = min(sum(deltas), INFINITE)
                if phi == 0:
                    delta = INFINITE
                if delta == 0:
                    phi = INFINITE
                pn, dn = (phi, delta) if is_or else (delta, phi)
                if phi >= th_phi or delta >= th_delta:
                    self._store(key, pn, dn, self.nodes - start + 1)
                    return
                best = min(range(len(kids)), key=lambda i: (phis[i], -tie * deltas[i]))
                second = min((phis[i] for i in range(len(kids)) if i != best), default=INFINITE)
                child_delta = deltas[best]
                want_phi = th_phi
                if second < INFINITE:
                    want_phi = min(th_phi, second + second // EPSILON_SHARE + 1)
                want_delta = min(th_delta - delta + child_delta, INFINITE - 1)
                hinted[best] = None  # searched in this visit: the table's numbers from now on
                # the child's own phi is this node's delta side and vice versa
                if is_or:
                    self._mid(kids[best], want_phi, want_delta, depth + 1)
                else:
                    self._mid(kids[best], want_delta, want_phi, depth + 1)
        finally:
            self._path.discard(key)



def _mobility(choices: int, is_or: bool) -> tuple[int, int]:
    """The numbers of a node with ``choices`` choices (at least 1: a node without any is
    searched, which settles it): an OR node is disproved only when every choice is, an AND
    node proved only when every choice is."""
    count = max(choices, 1)
    return (1, count) if is_or else (count, 1)
