"""Alpha-beta and df-pn by turns: the kernel's default search for a round's value.

Measured on seeded deals (``benchmarks/omens_dfpn.py``, ``docs/kernel.md``), neither search
is better everywhere: proof-number search (:mod:`.dfpn`) settles many positions in a small
fraction of alpha-beta's nodes and stays fast where alpha-beta runs out, and alpha-beta wins
elsewhere. :class:`Portfolio` runs them by turns on node budgets that double, each keeping
its table between turns, and answers with the first that finishes. By default df-pn takes each
round's first turn and alpha-beta a sixteenth of it (:class:`~.params.Tuning`:
``dfpn_first``, ``alpha_beta_shift``): on the proof-size benchmark's deals df-pn settles
nearly every round, so alpha-beta's turns are a small insurance, not half the work
(``docs/kernel.md`` has the figures). df-pn's turns of ``Tuning.playouts_turn`` nodes or more
(100,000) seed bout starts with playouts (``Tuning.playouts``); in the shorter ones a
question's first ``Tuning.playouts_after`` nodes at a position (2,000) are without them and
the rest of the turn with them: the default search by size (a short proof is found before the
playouts' pull, a longer search gets their cut). The turns are counted in nodes, not
seconds, so the same position gives the same answer and the same node count on every run.
A full table replaces the entries that cost least (:mod:`.tables`), so df-pn goes on
learning and keeps its turns.

df-pn answers yes-or-no questions: "value 1?" and "value 0?", each with a search of its own
that reads what the other has settled (``Tuning.hint``). By default each round gives both a
turn while they are open (``Tuning.both_questions``: most of a root's moves are lost, and
"value 0?" proves that in a fraction of the nodes "value 1?" takes to disprove it); otherwise
"value 0?" is asked once "value 1?" is disproved through an exchange between the teams or a
chance node (a disproof through decisions only is a proof of value 0). When both are
disproved the value is a fraction, and alpha-beta alone goes on. With a payoff table (a whole
game) or a simultaneous mode other than ``mixed`` only alpha-beta runs (df-pn's exchange rows
read the mixed value's pure-strategy bounds, see :mod:`.dfpn`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from omen_solver.core.search.result import SimultaneousMode
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel.compiled import CompiledSearch
from omen_solver.omens.kernel.dfpn import Prover, link_questions, settled_by
from omen_solver.omens.kernel.machine import KState
from omen_solver.omens.kernel.params import SearchParams
from omen_solver.omens.kernel.search import Entry, KernelSearch, Value

__all__ = ["FIRST_TURN", "Portfolio"]

FIRST_TURN: Final = 50_000
"""Nodes of each search's first turn; every round of turns doubles it."""

_MIXED: Final = "mixed"


class _TurnOver(Exception):
    """A search used up its turn (not the whole budget)."""


class Portfolio:
    """A :class:`~omen_solver.omens.kernel.view.KernelSearchLike` that runs ``alpha_beta`` and
    the df-pn searches ``proofs[1]`` ("value 1?") and ``proofs[0]`` ("value 0?") by turns.
    They must have been made with the same ``params`` (so the same deadline); the node limit
    is shared: every search counts on from the total."""

    mode = SimultaneousMode.MIXED

    def __init__(
        self,
        alpha_beta: KernelSearch | CompiledSearch,
        proofs: dict[int, Prover],
        params: SearchParams,
        *,
        first_turn: int = FIRST_TURN,
    ) -> None:
        params.refuse("the searches by turns", mode=True, payoff=True)
        self.alpha_beta = alpha_beta
        self.proofs = proofs
        self.budget = params.budget
        self.first_turn = first_turn
        """0: no turns: df-pn to the end, then alpha-beta only for a fraction."""
        self.dfpn_first = params.tuning.dfpn_first or not first_turn
        """Each round starts with df-pn's turn (always so with no turns)."""
        self.alpha_beta_shift = params.tuning.alpha_beta_shift
        self.playouts = params.tuning.playouts
        self.playouts_turn = params.tuning.playouts_turn
        self.playouts_after = params.tuning.playouts_after
        self._searched: dict[tuple[tuple[object, ...], int], int] = {}
        """Per state and question: the nodes df-pn's turns shorter than ``playouts_turn`` have
        searched there (``Tuning.playouts_after``)."""
        self.hint_stored = params.tuning.hint_stored
        self.in_order_turn = params.tuning.in_order_turn
        self.table_limit = params.table_limit
        if params.tuning.hint:
            link_questions(proofs)
        if params.tuning.alpha_beta_proofs:
            alpha_beta.use_proofs(proofs[0], proofs[1])  # type: ignore[arg-type]
        self._nodes = 0
        self._values: dict[tuple[object, ...], Value] = {}
        self.both_questions = params.tuning.both_questions
        self._questions: dict[tuple[object, ...], tuple[int, ...]] = {}
        """Per state searched: df-pn's questions still open (none: alpha-beta only)."""
        self._zero_asked: set[tuple[object, ...]] = set()
        """The states whose question "value 0?" has been opened (it is asked once)."""

    # -- what the root analysis reads ----------------------------------------------------------

    @property
    def nodes(self) -> int:
        return self._nodes

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._nodes = value

    @property
    def states(self) -> int:
        return self.alpha_beta.states + sum(proof.states for proof in self.proofs.values())

    @property
    def total(self) -> int | None:
        for total in (self.alpha_beta.total, *(p.total for p in self.proofs.values())):
            if total is not None:
                return total
        return None

    @property
    def gap_seen(self) -> bool:
        return self.alpha_beta.gap_seen

    @property
    def table_bytes(self) -> int:
        searches = (self.alpha_beta, *self.proofs.values())
        return sum(int(getattr(search, "table_bytes", 0)) for search in searches)

    def elapsed(self) -> float:
        return self.alpha_beta.elapsed()

    def entry(self, state: KState) -> Entry | None:
        """Alpha-beta's entry of ``state``, made exact where a search settled its value: a
        step of this search, or a proof or disproof in df-pn's tables (:meth:`settled`)."""
        found = self.alpha_beta.entry(state)
        value = self._values.get(state.key())
        if value is None:
            value = self.settled(state)
        if value is None:
            return found
        return value, value, -1 if found is None else found[2]

    def settled(self, state: KState) -> int | None:
        """The value (0 or 1) df-pn's tables prove for ``state``, or None: a proof of either
        question, or a disproof of "value 1?" by a search that met no exchange between the
        teams and no chance (:func:`~.dfpn.settled_by`). A proof or disproof is true whichever
        search of the solve made it, so this reads each table as it stands."""
        for question in (1, 0):
            proof = self.proofs[question]
            numbers = proof.numbers(state)
            if numbers is not None and 0 in numbers:
                settled = settled_by(question, numbers[0] == 0, proof)
                if settled is not None:
                    return settled
        return None

    # -- the search ----------------------------------------------------------------------------

    def search(self, state: KState, alpha: Value, beta: Value) -> Value:
        """The value of ``state`` within ``(alpha, beta)``, fail-soft as alpha-beta's."""
        turn: int | None = self.first_turn or None  # None: df-pn to the end, alpha-beta after
        while True:
            value = self.step(state, alpha, beta, turn)
            if value is not None:
                return value
            if turn is not None:
                turn *= 2

    def step(self, state: KState, alpha: Value, beta: Value, turn: int | None) -> Value | None:
        """One round of turns on ``state``: df-pn on each of its open questions ("value 1?"
        and "value 0?", or one after the other: ``Tuning.both_questions``) for at most
        ``turn`` nodes each and alpha-beta for a share of that (the order and the share are
        :class:`~.params.Tuning`'s ``dfpn_first`` and ``alpha_beta_shift``); the value once
        one of them settles it, else ``None``. The questions still open are kept for the
        next round of the same state; once df-pn has found that neither side wins for sure,
        alpha-beta alone goes on, with whole turns from the next round. With no turns
        (``first_turn`` 0) df-pn runs first, to the end, and alpha-beta only for a fraction;
        ``turn`` None runs to the end of the budget. At most :meth:`most_nodes_of_a_step`."""
        key = state.key()
        known = self._values.get(key)
        if known is not None:
            return known
        # a state searched first asks "value 1?"; "value 0?" joins or follows it
        questions = opened = self._questions.get(key, (1,))
        if self.dfpn_first and questions:
            settled, questions = self._dfpn_turns(state, key, questions, turn)
            if settled is not None:
                return settled
        if self.first_turn or not questions:
            # the share of a step that opened with a question: whole turns from the next on
            value = self._alpha_beta_turn(state, key, alpha, beta, self._share(turn, opened))
            if value is not None or not questions:
                return value
        if not self.dfpn_first and questions:
            return self._dfpn_turns(state, key, questions, turn)[0]
        return None

    def _share(self, turn: int | None, questions: tuple[int, ...]) -> int | None:
        """Alpha-beta's turn beside df-pn's ``turn``: a share of it while one of df-pn's
        questions is open, the whole of it once alpha-beta goes on alone."""
        if turn is None or not questions:
            return turn
        return max(1, turn >> self.alpha_beta_shift)

    def _alpha_beta_turn(self, state: KState, key: tuple[object, ...], alpha: Value,
                         beta: Value, turn: int | None) -> Value | None:
        """One turn of alpha-beta: the value found (kept if exact), None if the turn ran out."""
        try:
            value = self._turn(self.alpha_beta, turn,
                               lambda: self.alpha_beta.search(state, alpha, beta))
        except _TurnOver:
            return None
        if value in (0, 1) or alpha < value < beta:
            self._values[key] = value
        return value

    def _dfpn_turns(self, state: KState, key: tuple[object, ...], questions: tuple[int, ...],
                    turn: int | None) -> tuple[int | None, tuple[int, ...]]:
        """One turn of df-pn on each open question, in order: the value (0 or 1) once one
        settles it, else None; and the questions still open (none: alpha-beta alone).
        "value 0?" opens when "value 1?" is disproved through an exchange or chance (one
        question at a time: from the next round on), or, with ``Tuning.both_questions``, as
        soon as "value 1?" has met one (:meth:`_joins`), in the same step. In turns of
        ``Tuning.in_order_turn`` nodes or more, "value 0?" waits while "value 1?" is open and
        follows it in the step that disproves it."""
        still: list[int] = []
        asking = list(questions)
        in_order = bool(self.in_order_turn) and (turn is None or turn >= self.in_order_turn)
        waiting = in_order and 1 in asking and 0 in asking
        if waiting:
            asking.remove(0)
        while asking:
            question = asking.pop(0)
            try:
                settled = self._ask(state, question, turn)
            except _TurnOver:
                still.append(question)
                if question == 1 and waiting:
                    still.append(0)
                elif question == 1 and not in_order and self._joins() and self._open_zero(key):
                    asking.append(0)
                continue
            if isinstance(settled, int):
                self._values[key] = settled
                return settled, questions
            if question == 1 and (waiting or self._open_zero(key)):
                # disproved through an exchange or chance: "value 0?" is still to ask
                (asking if self.both_questions else still).append(0)
        self._questions[key] = tuple(still)
        return None, tuple(still)

    def _open_zero(self, key: tuple[object, ...]) -> bool:
        """Open "value 0?" for the state of ``key``: whether it was not open yet (it is
        asked once)."""
        if key in self._zero_asked:
            return False
        self._zero_asked.add(key)
        return True

    def _joins(self) -> bool:
        """Whether "value 0?" joins "value 1?" while it is open (``Tuning.both_questions``):
        once "value 1?" has met an exchange between the teams or a chance node, its disproof
        would no longer say that the value is 0, so "value 0?" is asked beside it."""
        return self.both_questions and self.proofs[1].mixed_seen

    def _ask(self, state: KState, question: int, turn: int | None) -> int | str | None:
        """One turn of df-pn on ``question``: the value (0 or 1) if settled; else, for a
        disproof, ``"mixed"`` if it was of "value 0?" (the value is above 0: with "value 1?"
        disproved too, a fraction), None if of "value 1?" ("value 0?" is still to ask)."""
        proof = self.proofs[question]
        if turn is not None and turn < self.playouts_turn and self.playouts_after:
            proved = self._short_turn(state, question, turn)
        else:
            self._seed_with(proof, turn is None or turn >= self.playouts_turn)
            proved = self._turn(proof, turn, lambda: proof.prove(state))
        settled = settled_by(question, bool(proved), proof)
        if settled is not None:
            return settled
        return _MIXED if question == 0 else None

    def _seed_with(self, proof: Prover, playouts: bool) -> None:
        """Seed ``proof``'s bout starts with the playouts (and read the other question's
        disproofs at stored states, ``Tuning.hint_stored``) or without."""
        proof.playouts = self.playouts if playouts else 0
        proof.hint_stored = self.hint_stored and playouts

    def _short_turn(self, state: KState, question: int, turn: int) -> object:
        """A turn of df-pn on ``question`` shorter than ``Tuning.playouts_turn``: the first
        ``Tuning.playouts_after`` nodes the question searches at ``state`` in such turns
        without the playouts, the rest of the turn with them. A proof or disproof that the
        mobility and distance seeds find at once is found before the playouts' pull; a
        question still open after them is a search the playouts cut. A turn shorter than
        :attr:`first_turn` (where the exact value is out of reach, the turns from
        :data:`~.estimate.CHEAP_TURN`, each move's small turns for the proofs found at once)
        is wholly without them, as before."""
        proof = self.proofs[question]
        key = (state.key(), question)
        start = self._nodes
        searched = self._searched.get(key, 0)
        without = (turn if turn < self.first_turn
                   else min(turn, max(0, self.playouts_after - searched)))
        try:
            if without:
                self._seed_with(proof, False)
                try:
                    return self._turn(proof, without, lambda: proof.prove(state))
                except _TurnOver:
                    if without == turn:
                        raise
            self._seed_with(proof, True)
            rest = max(1, turn - (self._nodes - start))
            return self._turn(proof, rest, lambda: proof.prove(state))
        finally:
            self._searched[key] = searched + self._nodes - start

    def most_nodes_of_a_step(self, turn: int) -> int:
        """The most nodes one :meth:`step` of ``turn`` takes: a turn for each of df-pn's
        questions and alpha-beta's share (alpha-beta's whole turn, once no question is
        open, is a step of its own)."""
        questions = 2 if self.both_questions else 1
        return questions * turn + max(1, turn >> self.alpha_beta_shift)

    def limit_nodes(self, limit: int | None) -> None:
        """Keep to ``limit`` nodes in all (counted on from :attr:`nodes`)."""
        self.budget = replace(self.budget, max_nodes=limit)

    def _turn(
        self,
        search: KernelSearch | CompiledSearch | Prover,
        turn: int | None,
        run: Callable[[], object],
    ) -> Value:
        """Run one search for at most ``turn`` nodes (None: to the end of the budget),
        counting on from the total."""
        overall = self.budget.max_nodes
        limit = None if turn is None else self._nodes + turn
        if overall is not None:
            limit = overall if limit is None else min(limit, overall)
        search.nodes = self._nodes
        search.limit_nodes(limit)
        try:
            return run()  # type: ignore[return-value]
        except BudgetExceeded as stopped:
            self._nodes = search.nodes
            if limit is None or self._nodes < limit:
                # the time, the depth, memory...: not a node limit
                raise BudgetExceeded(stopped.reason, self._nodes, stopped.seconds) from None
            if overall is None or self._nodes < overall:
                raise _TurnOver from None
            raise BudgetExceeded(
                f"node limit of {overall} reached", self._nodes, self.elapsed()
            ) from None
        finally:
            self._nodes = search.nodes

