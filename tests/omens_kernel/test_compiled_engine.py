"""The compiled kernel (C) plays exactly the rules of the explaining engine, compared directly:
no step goes through the pure-Python kernel's moves.

The compiled kernel is the rules' copy that the searches run; the engine is the reference,
citing the rulebook (rules file 000) for each step. At every node of random positions (4, 5
and 6 players; the rulebook and the gamepark presets, each with every rule option sampled;
deals as at a game start and of later rounds, and small hands of any cards) the two must
agree on every legal set (who acts and what they may do, in order; at The Absolute's exchange
each seat's gifts; Luck's random discards) and, after every legal action or joint action, on
the state that follows, which holds the bout's outcome once the last card is played (rules
file 000, "End of a bout": the winning seat, the cards discarded, Luck's victim, the next
leader and whether Pride chose them) and the round's winner at its end.

The only shared piece is the translation of an engine state into the kernel's numbers
(``convert.from_engine``) and of its actions (``convert.to_action``), which
``tests/omens_kernel/test_machine.py`` checks both ways. By default a bounded run; the slow
tier (``--runslow``) plays twenty times as many positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_action, from_engine, to_action
from omen_solver.omens.kernel.machine import decode
from omen_solver.omens.kernel.spec import Spec, compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table
from tests.omens_kernel.helpers import (
    MAX_LINE,
    NOW_EFFECTS,
    PRESETS,
    random_round,
    random_small,
)

pytestmark = pytest.mark.skipif(
    not compiled.AVAILABLE, reason="the compiled kernel is not built (no C compiler)"
)

_KEY_OUTCOME = 8
"""Where a kernel key holds the bout's outcome (``KState.key``: winner, discards, Luck's
victim, next leader, Pride), set from the last card of a bout until the cards go back."""
_KEY_WINNER = 12
"""Where a kernel key holds the round's winning team (-1 while it is played)."""


@dataclass
class Seen:
    """What the comparison met, so that a run that misses a rule fails."""

    nodes: int = 0
    successors: int = 0
    outcomes: set[tuple[object, ...]] = field(default_factory=set)
    """The distinct bout outcomes compared (as the kernel's key holds them)."""
    kinds: set[str] = field(default_factory=set)
    effects: set[str] = field(default_factory=set)
    tables: set[tuple[int, str]] = field(default_factory=set)
    """(players, preset) of every position compared."""
    rounds_over: int = 0
    playout_steps: int = 0
    """Positions where a playout's step, made directly, matched the listed one."""


class Compared:
    """One position's rules in both copies: the engine's state and the compiled kernel's."""

    def __init__(self, state: OmensState) -> None:
        self.spec: Spec = compile_table(state.table, state.teams())
        self.packed = self.spec.as_tuple()
        self.ckernel = compiled._ckernel

    def key(self, state: OmensState) -> tuple[object, ...]:
        return tuple(from_engine(self.spec, state).key())

    def legal(self, state: OmensState, seat: int) -> list[int]:
        return list(self.ckernel.legal(self.packed, self.key(state), seat))

    def node(self, state: OmensState, seen: Seen, thorough: bool) -> None:
        """The legal sets here, and (``thorough``) the successor of every move."""
        seen.nodes += 1
        player = state.current_player()
        key = self.key(state)
        self.playout_steps(key, seen)
        if player == TERMINAL:
            assert self.legal(state, -1) == [], state
            assert key[_KEY_WINNER] == (-1 if state.winner is None else state.winner)
            seen.rounds_over += 1
            return
        if player == SIMULTANEOUS:
            seen.kinds.add("exchange")
            gifts = {}
            for seat in state.acting_players():
                moves = self.legal(state, seat)
                assert [to_action(self.spec, a) for a in moves] == list(
                    state.legal_actions(seat)), (state, seat)
                gifts[seat] = moves
            if thorough:
                for joint in state.joint_actions():
                    a, b = (from_action(self.spec, action) for action in joint)
                    self.same(self.ckernel.joint_child(self.packed, key, a, b),
                              state.joint_child(joint), seen)
            return
        moves = self.legal(state, -1)
        if player == CHANCE:
            seen.kinds.add("luck at random")
            outcomes = state.chance_outcomes()
            assert [to_action(self.spec, a) for a in moves] == [a for a, _ in outcomes]
            assert {p for _, p in outcomes} == {Fraction(1, len(moves))}
            actions = [a for a, _ in outcomes]
        else:
            actions = list(state.legal_actions())
            assert [to_action(self.spec, a) for a in moves] == actions, state
            assert {decode(move)[1] for move in moves} == {player}, state
        if thorough:
            for action, move in zip(actions, moves, strict=True):
                self.same(self.ckernel.child(self.packed, key, move), state.child(action),
                          seen)

    def playout_steps(self, key: tuple[object, ...], seen: Seen) -> None:
        """A playout's step here, made directly (without listing every legal action) and from
        the list of legal actions that the comparisons above check: the same state and the
        same numbers drawn, from a few generator states."""
        for x in (1, 0x9E3779B97F4A7C15, seen.nodes * 0x2545F4914F6CDD1D % 2**64 or 1):
            direct = self.ckernel.playout_step(self.packed, key, x, False)
            assert direct == self.ckernel.playout_step(self.packed, key, x, True), (key, x)
            seen.playout_steps += direct[0] is not None

    def same(self, ckey: tuple[object, ...], after: OmensState, seen: Seen) -> None:
        seen.successors += 1
        assert tuple(ckey) == self.key(after), after
        if ckey[_KEY_OUTCOME] is not None:
            seen.outcomes.add(tuple(ckey[_KEY_OUTCOME]))  # type: ignore[arg-type]


def play(rng: random.Random, state: OmensState, seen: Seen, thorough: bool) -> None:
    """One random line of ``state``'s scope, both copies compared at every node."""
    compared = Compared(state)
    for _ in range(MAX_LINE):
        compared.node(state, seen, thorough)
        if state.is_terminal():
            return
        moves = state.moves()
        move = moves[rng.randrange(len(moves))]
        if len(move) == 1 and move[0].verb == 0:
            effect = state.table.effect[move[0].card]
            if effect in NOW_EFFECTS:
                seen.effects.add(effect)
        state = state.apply_move(move)
    # a bout that repeats for ever (Betrayal and Wrath, docs/kernel.md): cut, both copies
    # having agreed on every step of it


def uneven(rng: random.Random, players: int, preset: str) -> OmensState:
    """A bout start where hands hold 0 to 3 cards each (a seat with none sits the bout out),
    so that a card can be the only one in play (option ``sadness_lone_card``, O9)."""
    state = random_small(rng, players, 3, preset)
    hands = [sorted(rng.sample(hand, rng.randint(0, len(hand)))) for hand in state.hands]
    if not any(hands):
        hands[0] = list(state.hands[0][:1])
    leader = rng.choice([seat for seat, hand in enumerate(hands) if hand])
    return OmensState.start_of_bout(state.table, hands, [list(t) for t in state.teams()],
                                    leader)


def lone(rng: random.Random, players: int, preset: str) -> OmensState:
    """A bout where one seat alone holds cards, Sadness among them: whatever it plays is the
    only card in play (option ``sadness_lone_card``, O9: it wins, or Sadness is discarded
    with no winner)."""
    setting = rng.choice(["wins", "discarded_no_winner"])
    table = Table(players, make_rules(preset, {"sadness_lone_card": setting}))
    sadness = table.catalogue.with_effect("sadness")[0]
    other = rng.choice([card for card in table.catalogue if card != sadness])
    seat = rng.randrange(players)
    hands = [[sadness, other] if index == seat else [] for index in range(players)]
    teams = [list(range(players))[i::players // 2] for i in range(players // 2)]
    return OmensState.start_of_bout(table, hands, teams, seat)


def compare(seed: int, positions: int) -> Seen:
    """``positions`` random positions: every player count and both presets in turn; a whole
    round from a deal (one line, every successor at every third), small hands of any cards,
    hands of uneven sizes or a lone card (one line, every successor at every node)."""
    rng = random.Random(seed)
    seen = Seen()
    for index in range(positions):
        players = (4, 5, 6)[index % 3]
        preset = PRESETS[index // 3 % 2]
        if index % 2:
            scope = Scope.BOUT if index % 7 == 6 else Scope.ROUND
            play(rng, random_round(rng, players, scope, preset), seen, index % 3 == 1)
        elif index % 4:
            play(rng, random_small(rng, players, rng.randint(1, 3), preset), seen, True)
        elif index % 8:
            play(rng, uneven(rng, players, preset), seen, True)
        else:
            play(rng, lone(rng, players, preset), seen, True)
        seen.tables.add((players, preset))
    return seen


def _check_coverage(seen: Seen) -> None:
    assert {(p, s) for p in (4, 5, 6) for s in PRESETS} <= seen.tables, seen.tables
    assert set(NOW_EFFECTS) <= seen.effects, seen.effects
    assert "exchange" in seen.kinds and "luck at random" in seen.kinds, seen.kinds
    assert seen.playout_steps > seen.nodes, (seen.playout_steps, seen.nodes)
    winners = {outcome[0] for outcome in seen.outcomes}
    luck = {outcome[2] for outcome in seen.outcomes}
    pride = {outcome[4] for outcome in seen.outcomes}
    assert -1 in winners and len(winners) >= 7, winners  # no winner (Sadness alone), seats
    assert -1 in luck and len(luck) > 1, luck  # no Luck discarded, and a victim
    assert pride == {0, 1}, pride
    assert seen.rounds_over > 0


def test_the_compiled_kernel_plays_the_engine_rules() -> None:
    """A bounded run (a few seconds): every node's legal sets, every successor of most."""
    seen = compare(seed=20261205, positions=240)
    _check_coverage(seen)
    assert seen.successors > 5_000 and len(seen.outcomes) > 300, (seen.successors,
                                                                   len(seen.outcomes))
    print(f"compiled kernel vs engine: {seen.nodes} nodes, {seen.successors} successors, "
          f"{len(seen.outcomes)} distinct bout outcomes, {seen.rounds_over} rounds over")


@pytest.mark.slow
def test_the_compiled_kernel_plays_the_engine_rules_long() -> None:
    seen = compare(seed=1, positions=5_000)
    _check_coverage(seen)
    assert seen.successors > 100_000
    print(f"compiled kernel vs engine: {seen.nodes} nodes, {seen.successors} successors, "
          f"{len(seen.outcomes)} distinct bout outcomes, {seen.rounds_over} rounds over")
