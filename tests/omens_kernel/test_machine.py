"""The kernel plays exactly the rules of the explaining engine.

At every node of random rounds (4, 5 and 6 players; the rulebook and gamepark presets with every
rule option sampled; deals as at a game start and of later rounds) the kernel and the engine
must agree on who acts, the legal actions in their order, and the state after the move played;
in the thorough part, after every legal move. The engine is the reference: it cites the
rulebook (rules file 000) for each step, and the kernel is a transcription of it on integers.
"""

from __future__ import annotations

import random

import pytest

from omen_solver.core.game import SIMULTANEOUS, TERMINAL
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.convert import from_action, from_engine, to_action, to_engine
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope
from tests.omens_kernel.helpers import MAX_LINE, NOW_EFFECTS, Coverage, random_round, random_small


def _same(machine: Machine, k: KState, state: OmensState) -> None:
    assert to_engine(machine, k, state).key() == state.key(), (state, k.key())


def _compare_node(machine: Machine, k: KState, state: OmensState, thorough: bool) -> None:
    spec = machine.spec
    player = state.current_player()
    assert machine.current_player(k) == player
    if player == TERMINAL:
        assert k.winner == (-1 if state.winner is None else state.winner)
        return
    if player == SIMULTANEOUS:
        acting = state.acting_players()
        assert machine.acting_players(k) == acting
        for seat in acting:
            assert [to_action(spec, a) for a in machine.legal(k, seat)] == list(
                state.legal_actions(seat)
            )
        if thorough:
            for joint in state.joint_actions():
                moves = [from_action(spec, a) for a in joint]
                _same(machine, machine.joint_child(k, moves), state.joint_child(joint))
        return
    actions = list(state.legal_actions())
    moves = machine.chance_outcomes(k) if player < 0 else machine.legal(k)
    assert [to_action(spec, move) for move in moves] == actions
    if thorough:
        for action, move in zip(actions, moves, strict=True):
            assert from_action(spec, action) == move
            _same(machine, machine.child(k, move), state.child(action))


def play_both(rng: random.Random, state: OmensState, coverage: Coverage, thorough: bool) -> None:
    """Play one random line on both engines, comparing at every node."""
    spec = compile_table(state.table, state.teams())
    machine = Machine(spec)
    k = from_engine(spec, state)
    _same(machine, k, state)
    coverage.presets.add(repr(state.table.rules))
    for _ in range(MAX_LINE):
        _compare_node(machine, k, state, thorough)
        if state.is_terminal():
            break
        bouts = state.bouts_played
        move = state.moves()[rng.randrange(len(state.moves()))]
        if len(move) == 2:
            coverage.exchanges += 1
            k = machine.joint_child(k, [from_action(spec, a) for a in move])
        else:
            action = move[0]
            if action.verb == 0 and state.table.effect[action.card] in NOW_EFFECTS:
                coverage.effects.add(state.table.effect[action.card])
            k = machine.child(k, from_action(spec, action))
        state = state.apply_move(move)
        coverage.moves += 1
        coverage.bouts += state.bouts_played - bouts
        _same(machine, k, state)
    else:
        # a bout that repeats for ever (Betrayal and Wrath, docs/kernel.md): both engines
        # agreed on every step of it; the line is cut, not counted as a round played out
        coverage.endless += 1
        return
    coverage.rounds += 1


def differential(seed: int, rounds: int, thorough_every: int) -> Coverage:
    rng = random.Random(seed)
    coverage = Coverage()
    for index in range(rounds):
        players = (4, 5, 6)[index % 3]
        scope = Scope.BOUT if index % 7 == 6 else Scope.ROUND
        state = random_round(rng, players, scope)
        play_both(rng, state, coverage, thorough=index % thorough_every == 0)
    return coverage


def test_kernel_plays_the_engine_rules_on_random_rounds() -> None:
    """Rules file 000 throughout; a bounded run (the slow tier plays 100,000 bouts)."""
    coverage = differential(seed=20261130, rounds=400, thorough_every=3)
    assert coverage.bouts >= 1_500
    assert set(NOW_EFFECTS) <= coverage.effects, coverage.effects
    assert coverage.exchanges > 0
    print(f"kernel vs engine: {coverage.rounds} rounds, {coverage.bouts} bouts, "
          f"{coverage.moves} moves, effects {sorted(coverage.effects)}, "
          f"{coverage.exchanges} exchanges")


def test_kernel_plays_the_engine_rules_on_small_hands_every_move() -> None:
    """Small random hands of any cards (several Absolutes, Fear, Luck...): every successor."""
    rng = random.Random(7)
    coverage = Coverage()
    for index in range(120):
        state = random_small(rng, (4, 5, 6)[index % 3], rng.randint(1, 3))
        play_both(rng, state, coverage, thorough=True)
    assert coverage.moves > 500


@pytest.mark.slow
def test_kernel_plays_the_engine_rules_on_100000_bouts() -> None:
    coverage = differential(seed=1, rounds=26_000, thorough_every=10)
    assert coverage.bouts >= 100_000, coverage.bouts
    assert set(NOW_EFFECTS) <= coverage.effects
    print(f"kernel vs engine: {coverage.rounds} rounds, {coverage.bouts} bouts, "
          f"{coverage.moves} moves, {coverage.exchanges} exchanges, "
          f"{coverage.endless} lines cut as endless")


def test_answers_to_secret_change_nothing() -> None:
    """The search answers Secret's "show me a card" with the first card (kernel/search.py,
    skip_shows): sound because every answer leaves the same state (rules file 000, "Details":
    only information passes; omens-cards.md, Secret)."""
    rng = random.Random(3)
    checked = 0
    for _ in range(300):
        state = random_small(rng, rng.choice((4, 5, 6)), 3)
        spec = compile_table(state.table, state.teams())
        machine = Machine(spec)
        k = from_engine(spec, state)
        for _ in range(MAX_LINE):
            if machine.current_player(k) < 0:
                break
            for move in machine.legal(k):
                child = machine.child(k, move)
                if child.pending and child.pending[-1][0] == m.P_SHOW:
                    answers = {machine.child(child, a).key() for a in machine.legal(child)}
                    assert len(answers) == 1
                    checked += 1
            moves = machine.legal(k)
            k = machine.child(k, moves[rng.randrange(len(moves))])
    assert checked > 20
