"""Alpha-beta and df-pn by turns (kernel/portfolio.py), the default search of a round: the same
answers as alpha-beta alone, the same node counts on every run and in both kernels, and the
budget kept.

The answers are those the rules give (a round is won by the team one of whose players is left
with 1 card: rules file 000, "Goal of the Game"); the reference for them is the kernel's
alpha-beta, itself tested against the reference solver (test_solve.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from omen_solver.cli import main
from omen_solver.core.budget import Budget, Status, deep_recursion
from omen_solver.core.search import solve
from omen_solver.errors import ChoiceError
from omen_solver.omens.deals import deal_position, random_deal
from omen_solver.omens.kernel import compiled
from omen_solver.omens.kernel.convert import from_engine
from omen_solver.omens.kernel.machine import Machine
from omen_solver.omens.kernel.params import PLAYOUTS_AFTER, SearchParams, Tuning
from omen_solver.omens.kernel.portfolio import FIRST_TURN, Portfolio
from omen_solver.omens.kernel.search import Value
from omen_solver.omens.kernel.solve import PURE_PYTHON_VARIABLE, make_search
from omen_solver.omens.kernel.spec import compile_table
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Table
from tests.omens_kernel.helpers import random_small


def _concept(players: int) -> str:
    return "paranoid" if players == 6 else "minimax"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_every_search_gives_the_same_answer(players: int) -> None:
    rng = random.Random(40 + players)
    compared = 0
    for _ in range(12):
        state = random_small(rng, players, rng.randint(2, 3 if players < 6 else 2))
        if state.is_terminal():
            continue
        team = [seat + 1 for seat in state.teams()[rng.randrange(len(state.teams()))]]
        answers = {}
        for algorithm in ("alphabeta", "dfpn", "portfolio"):
            result = solve(state, concept=_concept(players), team=team,
                           budget=Budget(max_nodes=500_000), algorithm=algorithm)
            answers[algorithm] = result
        if any(r.status is not Status.SOLVED for r in answers.values()):
            continue
        reference = answers["alphabeta"]
        for algorithm in ("dfpn", "portfolio"):
            found = answers[algorithm]
            assert found.extra["algorithm"] == algorithm
            assert (found.value, found.values, set(found.best_actions)) == (
                reference.value, reference.values, set(reference.best_actions)
            ), (state, algorithm)
            # the line is legal and keeps the value (replayed on the explaining engine)
            line = state
            for text in found.principal_variation:
                line = line.apply_move(line.parse_move(text))
        compared += 1
    assert compared >= 6


def test_the_same_position_gives_the_same_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(5)
    state = random_small(rng, 4, 3)
    runs = [solve(state, budget=Budget(max_nodes=3_000_000)) for _ in range(2)]
    if compiled.AVAILABLE:
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
        runs.append(solve(state, budget=Budget(max_nodes=3_000_000)))
    assert runs[0].extra["algorithm"] == "portfolio"
    assert len({(r.value, r.nodes, r.states, r.best_actions) for r in runs}) == 1


@pytest.mark.parametrize("algorithm", ["alphabeta", "dfpn", "portfolio"])
def test_every_search_runs_on_the_pure_python_kernel(
    monkeypatch: pytest.MonkeyPatch, algorithm: str
) -> None:
    """Each ``--search`` on the pure-Python kernel answers every root move (their rounds read
    only the df-pn questions a search has), as the compiled kernel does."""
    state = random_small(random.Random(11), 4, 2)
    runs = [solve(state, budget=Budget(max_nodes=200_000), algorithm=algorithm)]
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    runs.append(solve(state, budget=Budget(max_nodes=200_000), algorithm=algorithm))
    assert runs[1].extra["engine"] == "kernel (pure Python)"
    assert runs[0].status is Status.SOLVED and len(runs[0].moves) > 1
    assert len({(r.value, r.nodes, r.best_actions, r.moves) for r in runs}) == 1


def test_a_node_budget_is_kept_and_answered_unknown() -> None:
    rng = random.Random(8)
    state = random_small(rng, 4, 5)
    result = solve(state, budget=Budget(max_nodes=120_000))
    assert result.status is Status.UNKNOWN
    assert result.nodes <= 120_000
    assert "node limit of 120000" in (result.note or "")


def test_an_algorithm_needs_the_kernel() -> None:
    rng = random.Random(9)
    state = random_small(rng, 4, 2)
    with pytest.raises(ChoiceError, match="reference search has one"):
        solve(state, engine="reference", algorithm="dfpn")
    with pytest.raises(ChoiceError, match="unknown"):
        solve(state, algorithm="minimax")


def test_solve_command_takes_a_search(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "--deal", "3", "--players", "4", "--cards", "2", "--search", "dfpn"])
    out = capsys.readouterr().out
    assert code == 0
    assert "search: dfpn" in out
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "--deal", "3", "--players", "4", "--search", "fastest"])
    assert stopped.value.code == 2


def test_an_omen_position_has_no_choice_of_search(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", "docs/examples/omen/position.toml", "--search", "dfpn"])
    assert code == 2
    assert "Omen positions have one search" in capsys.readouterr().err


def _turns_on_a_deal(tuning: Tuning) -> tuple[Value, list[tuple[str, int]]]:
    """A seeded 3-card deal of the proof-size benchmark (4 players, one Absolute a hand: deal
    0 of ``benchmarks/proof_size.py``) solved by the searches by turns: the value, and the
    nodes each turn took, in order (a turn of df-pn in two parts, without the playouts and
    with them, ``Tuning.playouts_after``, counted as two)."""
    value, turns = _seeded_turns_on_a_deal(tuning)
    return value, [(name, nodes) for name, nodes, _ in turns]


def _seeded_turns_on_a_deal(tuning: Tuning) -> tuple[Value, list[tuple[str, int, int]]]:
    """:func:`_turns_on_a_deal`, each turn with the playouts its df-pn search seeded bout
    starts with (0 for alpha-beta's)."""
    table = Table(4, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, 20261130, cards=3))
    spec = compile_table(state.table, state.teams())
    root = from_engine(spec, state)
    maximising = [spec.team_of[seat] == spec.team_of[root.leader] for seat in range(4)]
    params = SearchParams(constant_sum=True, budget=Budget(max_nodes=3_000_000), tuning=tuning)
    search = make_search(Machine(spec), maximising, params, algorithm="portfolio")
    assert isinstance(search, Portfolio)
    turns: list[tuple[str, int, int]] = []
    taken = search._turn

    def recorded(one: object, turn: int | None, run: object) -> object:
        before = search.nodes
        try:
            return taken(one, turn, run)  # type: ignore[arg-type]
        finally:
            name = ("alpha-beta" if one is search.alpha_beta else
                    "value 1?" if one is search.proofs[1] else "value 0?")
            turns.append((name, search.nodes - before, getattr(one, "playouts", 0)))

    search._turn = recorded  # type: ignore[method-assign,assignment]
    with deep_recursion():
        value = search.search(root, 0, 1)
    return value, turns


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_a_question_searches_its_first_nodes_at_a_move_without_the_playouts() -> None:
    """By default (``Tuning.playouts_after``) df-pn's first turn on "value 1?" runs its first
    ``PLAYOUTS_AFTER`` nodes without the playouts and the rest of the turn with them; its
    later turns are whole, with them. With ``playouts_after`` 0 the turns shorter than
    ``playouts_turn`` have none, as before. The value is the same (rules file 000, "Goal of
    the Game"); the seeds change the nodes, not the answer."""
    value, turns = _seeded_turns_on_a_deal(Tuning())
    playouts = Tuning().playouts
    assert playouts and PLAYOUTS_AFTER < FIRST_TURN < Tuning().playouts_turn
    assert turns[:3] == [("value 1?", PLAYOUTS_AFTER, 0),
                         ("value 1?", FIRST_TURN - PLAYOUTS_AFTER, playouts),
                         ("alpha-beta", FIRST_TURN >> 4, 0)]
    later = [turn for turn in turns[3:] if turn[0] != "alpha-beta"]
    assert later and all(seeded == playouts for _, _, seeded in later)
    assert all(nodes > PLAYOUTS_AFTER for _, nodes, _ in later[:1])
    before, earlier = _seeded_turns_on_a_deal(replace(Tuning(), playouts_after=0))
    assert before == value
    assert earlier[:2] == [("value 1?", FIRST_TURN, 0), ("alpha-beta", FIRST_TURN >> 4, 0)]
    assert sum(nodes for _, nodes, _ in turns) != sum(nodes for _, nodes, _ in earlier)


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the compiled kernel is not built")
def test_df_pn_asks_both_questions_first_in_each_round_and_alpha_beta_a_sixteenth() -> None:
    """The turns where both questions are asked (kernel/params.py, ``Tuning.dfpn_first``,
    ``both_questions`` and ``alpha_beta_shift``; ``in_order_turn`` 0: in every turn, where by
    default they are asked one after the other): every round opens with df-pn's turn on
    "value 1?" and then on "value 0?" while each is open, then alpha-beta's, a sixteenth of
    df-pn's; the turns double each round. The earlier order (alpha-beta first, turns alike,
    "value 0?" only once "value 1?" is disproved, no hint) gives the same value in more nodes.
    The value is the round's (rules file 000, "Goal of the Game")."""
    value, turns = _turns_on_a_deal(replace(Tuning(), in_order_turn=0, playouts_after=0))
    assert turns[:3] == [("value 1?", FIRST_TURN), ("value 0?", FIRST_TURN),
                         ("alpha-beta", FIRST_TURN >> 4)]
    assert turns[-1][0] != "alpha-beta"  # a question of df-pn's settles it
    rounds: list[list[tuple[str, int]]] = [[]]
    for turn in turns:
        rounds[-1].append(turn)
        if turn[0] == "alpha-beta":
            rounds.append([])
    for index, taken in enumerate(rounds):
        whole = FIRST_TURN << index
        names = [name for name, _ in taken]
        asked = [name for name in names if name != "alpha-beta"]
        assert asked in (["value 1?", "value 0?"], ["value 1?"], ["value 0?"]), names
        for name, nodes in taken:
            # a question settled or disproved may end its turn early
            assert nodes == whole >> 4 if name == "alpha-beta" else 0 < nodes <= whole
    before, earlier = _turns_on_a_deal(replace(Tuning(), dfpn_first=False, alpha_beta_shift=0,
                                               both_questions=False, hint=False,
                                               playouts_after=0))
    assert before == value
    assert earlier[:3] == [("alpha-beta", FIRST_TURN), ("value 1?", FIRST_TURN),
                           ("alpha-beta", 2 * FIRST_TURN)]
    assert sum(nodes for _, nodes in turns) < sum(nodes for _, nodes in earlier)
