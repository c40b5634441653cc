"""Per-move answers on the kernel (docs/kernel.md, "Every root move"): the answer of every move
at the root agrees with the exact value of the position after it, solved as one position as
before; a search cut short by its budget reports every move with bounds that hold; the two
kernels give the same answers and node counts.

The values are those the rules give: a round is won by the team one of whose players is left
with 1 card (rules file 000, "Goal of the Game"); the root searched as one position is itself
tested against the reference solver (test_solve.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from omen_solver.core.budget import Budget, Status
from omen_solver.core.search import moves, solve
from omen_solver.core.search.moves import MoveStatus
from omen_solver.core.search.result import Concept
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.params import Tuning
from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE, solve_with_kernel
from omen_solver.omens.state import OmensState
from tests.omens_kernel.helpers import random_small


def _concept(players: int) -> str:
    return "paranoid" if players == 6 else "minimax"


def _after(state: OmensState, text: str) -> OmensState:
    return state.apply_move(state.parse_move(text))


def _differential(players: int, seed: int, positions: int, cards: tuple[int, int],
                  nodes: int) -> int:
    rng = random.Random(seed)
    compared = 0
    for _ in range(positions):
        state = random_small(rng, players, rng.randint(*cards))
        if state.is_terminal():
            continue
        team = [seat + 1 for seat in state.teams()[rng.randrange(len(state.teams()))]]
        options = {"concept": _concept(players), "team": team, "budget": Budget(max_nodes=nodes)}
        per_move = solve(state, **options)
        whole = solve(state, per_move=False, **options)
        legal = sorted(state.move_to_string(move) for move in state.moves())
        assert sorted(m.action for m in per_move.moves) == legal
        if whole.solved and per_move.solved:
            assert (per_move.value, per_move.values, set(per_move.best_actions)) == (
                whole.value, whole.values, set(whole.best_actions)
            ), state
        for move in per_move.moves:
            after = solve(_after(state, move.action), per_move=False, **options)
            if not after.solved:
                continue
            truth = after.value
            assert truth is not None
            if move.settled:
                assert move.value == truth, (state, move)
                assert (move.status is MoveStatus.WON) == (truth == 1), (state, move)
                assert (move.status is MoveStatus.LOST) == (truth == 0), (state, move)
            else:
                assert move.lower is not None and move.upper is not None
                assert move.lower <= truth <= move.upper, (state, move)
            compared += 1
        if per_move.solved:
            # every optimal action is settled at the value
            best = {m.action for m in per_move.moves if m.value == per_move.value}
            assert best == set(per_move.best_actions)
    return compared


@pytest.mark.parametrize("players", [4, 5, 6])
def test_every_move_agrees_with_the_exact_value_after_it(players: int) -> None:
    assert _differential(players, 60 + players, 6, (2, 3 if players == 4 else 2), 400_000) >= 10


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 5, 6])
def test_every_move_agrees_on_many_positions(players: int) -> None:
    assert _differential(players, 160 + players, 80, (2, 3), 3_000_000) >= 150


def test_a_budget_that_runs_out_reports_every_move_with_true_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(moves, "FIRST_TURN", 200)  # turns small enough to reach every move
    settled = 0
    for seed in (16, 17, 18):
        state = random_small(random.Random(seed), 4, 3)
        cut = solve(state, budget=Budget(max_nodes=3_000))
        team = cut.team_seats
        assert cut.status is Status.UNKNOWN
        assert cut.nodes <= 3_000
        assert len(cut.moves) == len(state.moves())
        assert cut.to_json()["moves"] and "node limit of 3000" in (cut.note or "")
        # the turns go to the moves whose proofs look cheapest (kernel/turns.py), each move
        # one turn before any has two
        assert sum(move.nodes > 0 for move in cut.moves) >= 2
        for move in cut.moves:
            truth = solve(_after(state, move.action), team=team, per_move=False).value
            assert truth is not None
            assert move.lower is not None and move.upper is not None
            assert move.lower <= truth <= move.upper
            if move.settled:
                assert move.value == truth
                settled += 1
    assert settled >= 1


def test_a_budget_spent_on_the_line_says_every_move_is_known() -> None:
    """Every root move settled but the line of play cut short: the answer stays unknown (the
    line is part of an exact answer, docs/search.md) with the exact value as both bounds, and
    its note says that every move is known rather than that some optimal ones are not."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(4, make_rules("rulebook", {}))
    state = deal_position(table, random_deal(table, 1, "first", 2))
    team = state.team_of(state.current_player())
    whole = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(), threads=1)
    assert whole.status is Status.SOLVED and whole.value is not None
    # the moves' own nodes and one more: the moves are settled, the line is not
    spent = sum(move.nodes for move in whole.moves)
    assert spent + 1 < whole.nodes
    cut = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=spent + 1),
                            threads=1)
    assert cut.status is Status.UNKNOWN and cut.value is None
    assert all(move.settled for move in cut.moves)
    assert cut.lower == cut.upper == whole.value
    assert "every move's value are exact, the line of play is not" in (cut.note or "")
    assert "not all known" not in (cut.note or "")


def test_both_kernels_give_the_same_moves_and_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moves, "FIRST_TURN", 500)  # several rounds of turns
    state = random_small(random.Random(16), 4, 3)
    runs = [solve(state), solve(state)]
    if compiled.AVAILABLE:
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
        runs.append(solve(state))
    assert len({(r.value, r.nodes, r.moves) for r in runs}) == 1


@pytest.mark.skipif(not compiled.AVAILABLE, reason="threads are the compiled kernel's")
def test_threads_give_the_same_moves_and_node_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The moves of a round read the shared tables as they stood at its start, and their own
    tables are merged in move order (kernel/rounds.py): no thread's timing shows."""
    monkeypatch.setattr(moves, "FIRST_TURN", 2_000)  # several rounds, several merges
    state = random_small(random.Random(18), 4, 3)
    alone = replace(Tuning(), parallel_dfpn=False)  # a lone move's df-pn on one thread
    runs = [solve_with_kernel(state, Concept.MINIMAX, _leader_team(state), budget=Budget(),
                              threads=threads, tuning=alone) for threads in (1, 2, 2)]
    assert runs[0].solved
    assert len({(r.value, r.nodes, r.states, r.moves, r.best_actions) for r in runs}) == 1
    assert {r.extra["threads"] for r in runs} == {1, 2}


@pytest.mark.skipif(not compiled.AVAILABLE, reason="threads are the compiled kernel's")
def test_a_lone_move_proved_on_every_thread_keeps_the_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move searched alone in its round has its df-pn turns on every thread at once
    (``Tuning.parallel_dfpn``, Kaneko's parallel df-pn): the answers of every move stay those
    of one thread; the node counts may differ from run to run (here from the first round on:
    a solve does so once the move has taken ``rounds.PARALLEL_NODES`` nodes), while one
    thread gives the same node counts every run."""
    from omen_solver.omens.kernel import rounds

    monkeypatch.setattr(moves, "FIRST_TURN", 500)
    monkeypatch.setattr(rounds, "PARALLEL_NODES", 0)
    lone_rounds = 0
    for seed in (10, 18, 29):
        state = random_small(random.Random(seed), 4, 3)
        team = _leader_team(state)
        one = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(), threads=1)
        again = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(), threads=1)
        two = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(), threads=2)
        assert one.solved and two.solved
        # one thread: the same node counts run after run (Tuning.parallel_dfpn needs threads)
        assert (again.nodes, again.moves) == (one.nodes, one.moves)
        assert (two.value, set(two.best_actions)) == (one.value, set(one.best_actions))
        assert ([(m.action, m.status, m.value) for m in two.moves]
                == [(m.action, m.status, m.value) for m in one.moves])
        lone_rounds += one.nodes != two.nodes
    assert lone_rounds >= 1  # the parallel search ran somewhere


def test_a_small_memory_budget_keeps_the_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables far smaller than the search replace what cost least (kernel/tables.py): the
    answers stay those of the large tables; only the node counts grow."""
    monkeypatch.setattr(moves, "FIRST_TURN", 2_000)
    state = random_small(random.Random(10), 4, 3)  # a search of about 90,000 nodes
    large = solve(state)
    small = solve(state, max_memory=400 * 2**20)
    assert small.solved and large.solved
    assert (small.value, small.best_actions) == (large.value, large.best_actions)
    assert [(m.action, m.status, m.value) for m in small.moves] == [
        (m.action, m.status, m.value) for m in large.moves]
    assert small.extra["max_memory"] == 400 * 2**20
    assert small.extra["table_collections"] > 0 and large.extra["table_collections"] == 0


def test_threads_and_memory_are_refused_where_the_kernel_does_not_answer() -> None:
    from omen_solver.errors import ChoiceError

    state = random_small(random.Random(18), 4, 2)
    with pytest.raises(ChoiceError, match="threads"):
        solve(state, engine="reference", threads=2)


def test_moves_that_differ_only_by_secrets_show_are_searched_once() -> None:
    """Secret (omens-cards.md 24: choose a player; either they show you a card from their hand,
    or you show them one of yours) changes nothing in play: the card shown stays in hand
    (rules, "card.secret.show"). So every way of resolving it leads to the same play; the
    root's moves that differ only by it are searched once and answered alike, each with the
    value the position after it has when solved alone."""
    from tests.omens.helpers import position

    state = position({1: [27, 24], 2: [5, 6, 7], 3: [8, 2, 3], 4: [1, 18, 19]})
    result = solve(state, budget=Budget(max_nodes=400_000))
    assert result.solved
    secret = [move for move in result.moves if move.action.startswith("1:24")]
    assert len(secret) >= 3
    searched = [move for move in secret if move.same_as is None]
    assert len(searched) == 1 and searched[0].nodes > 0
    for move in secret:
        alone = solve(_after(state, move.action), per_move=False, team=result.team_seats,
                      budget=Budget(max_nodes=400_000))
        assert alone.solved and move.value == alone.value, move
        if move is not searched[0]:
            assert (move.same_as, move.nodes) == (searched[0].action, 0)
            assert move.to_json()["same_as"] == searched[0].action


ROUND_TABLES = [
    replace(Tuning(), lone_move_shared=False, private_by_round=False),
    replace(Tuning(), lone_move_shared=False),
    replace(Tuning(), private_by_round=False),
    Tuning(round_width=2),
    replace(Tuning(), round_width=0, lone_move_shared=False, private_by_round=False),
    Tuning(),
]
"""How the moves of a round keep their tables (``Tuning.lone_move_shared``,
``Tuning.private_by_round``): each alone, together, and neither (as before them); and how many
moves a round serves (``Tuning.round_width``: two, as before, and every open one)."""


def _leader_team(state: OmensState) -> int:
    seat = state.current_player()
    return next(index for index, seats in enumerate(state.teams()) if seat in seats)


@pytest.mark.parametrize("tuning", ROUND_TABLES)
def test_how_the_moves_keep_their_tables_changes_no_answer(
        monkeypatch: pytest.MonkeyPatch, tuning: Tuning) -> None:
    """A move searched alone in its round stores straight into the shared tables, and the
    moves of a round divide the memory of their own tables among them: the nodes change,
    the answers do not (each move's value is the position's after it, solved alone). A small
    memory budget makes the moves' own tables replace entries, which the settings change."""
    monkeypatch.setattr(moves, "FIRST_TURN", 2_000)  # several rounds, moves settling apart
    state = random_small(random.Random(18), 4, 3)
    team = _leader_team(state)
    found = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=2_000_000),
                              tuning=tuning, max_memory=400 * 2**20)
    assert found.solved
    for move in found.moves:
        alone = solve(_after(state, move.action), per_move=False, team=found.team_seats)
        assert alone.solved and move.value == alone.value, (tuning, move)
    again = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=2_000_000),
                              tuning=replace(tuning, parallel_dfpn=False),
                              max_memory=400 * 2**20, threads=2)
    assert (again.nodes, again.moves) == (found.nodes, found.moves)


@pytest.mark.parametrize("tuning", ROUND_TABLES)
def test_both_kernels_keep_the_moves_tables_alike(monkeypatch: pytest.MonkeyPatch,
                                                  tuning: Tuning) -> None:
    """The two kernels give the same node counts with every way of keeping the moves' tables
    (a limit of entries given for every table, which both kernels keep alike)."""
    monkeypatch.setattr(moves, "FIRST_TURN", 500)
    state = random_small(random.Random(16), 4, 3)
    team = _leader_team(state)

    def run() -> tuple[object, ...]:
        found = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(),
                                  tuning=tuning, table_limit=1_024)
        return found.value, found.nodes, found.moves, found.extra["table_collections"]

    runs = [run()]
    if compiled.AVAILABLE:
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
        runs.append(run())
    assert len(set(runs)) == 1


def _same_answers_other_nodes_both_kernels(monkeypatch: pytest.MonkeyPatch, seed: int,
                                           tunings: list[Tuning]) -> None:
    """Three tunings of one small position in turns of 500, 1,000, 2,000... nodes: the same
    answers, three node counts (the tuning changes the search), and the pure-Python kernel
    repeating the compiled one's run of the last tuning."""
    monkeypatch.setattr(moves, "FIRST_TURN", 500)
    state = random_small(random.Random(seed), 4, 3)
    team = _leader_team(state)

    def run(tuning: Tuning) -> tuple[object, ...]:
        found = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(), tuning=tuning)
        assert found.solved
        return found.value, found.nodes, found.moves

    runs = [run(tuning) for tuning in tunings]
    answers = {(value, tuple((m.action, m.value) for m in found)) for value, _, found in runs}
    assert len(answers) == 1
    assert len({nodes for _, nodes, _ in runs}) == 3  # the tuning changes the search
    if compiled.AVAILABLE:
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
        assert run(tunings[2]) == runs[2]


def test_playouts_from_a_turn_size_keep_the_answers_in_both_kernels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """df-pn's short turns seed without playouts and the longer ones with them
    (``Tuning.playouts_turn``): the answers are those of the search without playouts, and the
    two kernels switch at the same turns (the same node counts and moves)."""
    played = replace(Tuning(), seed_model=False, playouts=4)
    tunings = [replace(Tuning(), playouts=0), replace(played, playouts_turn=0),
               replace(played, playouts_turn=1_000)]
    _same_answers_other_nodes_both_kernels(monkeypatch, 16, tunings)


def test_playouts_after_a_question_s_first_nodes_keep_the_answers_in_both_kernels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the turns shorter than ``Tuning.playouts_turn`` a question's first
    ``Tuning.playouts_after`` nodes at a move are searched without playouts and the rest with
    them: the answers are those without, and the two kernels switch at the same nodes (the
    same node counts and moves)."""
    from omen_solver.omens.kernel import solve as kernel_solve

    # the searches by turns' own first turn as the moves' (a shorter turn has no playouts)
    monkeypatch.setattr(kernel_solve, "FIRST_TURN", 500)
    tunings = [replace(Tuning(), seed_model=False, playouts=4, playouts_turn=4_000,
                    playouts_after=after)
               for after in (0, 300, 100)]
    _same_answers_other_nodes_both_kernels(monkeypatch, 16, tunings)


def test_value_zero_after_value_one_from_a_turn_size_keeps_the_answers_in_both_kernels(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From turns of ``Tuning.in_order_turn`` nodes on, "value 0?" waits while "value 1?" is
    open and follows it in the step that disproves it; the shorter turns ask both. The answers
    are those of both questions in every turn and of one after the other, and the two kernels
    switch at the same turns (the same node counts and moves)."""
    tunings = [replace(Tuning(), in_order_turn=0), replace(Tuning(), both_questions=False),
               replace(Tuning(), in_order_turn=1_000)]
    _same_answers_other_nodes_both_kernels(monkeypatch, 17, tunings)
