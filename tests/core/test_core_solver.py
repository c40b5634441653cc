"""The exact solvers against the naive reference and against known values
(docs/search.md, "Solving")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from core_toys import (
    THREE_TEAMS_OF_TWO,
    BoundedNim,
    CoinRow,
    GustNim,
    MatrixToy,
    RandomGame,
    RandomSpec,
    TeamNim,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_solver.core.enumeration import perft
from omen_solver.core.game import CHANCE, TERMINAL
from omen_solver.core.search import (
    Budget,
    Concept,
    SimultaneousMode,
    SolveResult,
    Status,
    naive_solve,
    solve,
)
from omen_solver.errors import ConceptError, OmenSolverError, OptionError

PENNIES = ((1, -1), (-1, 1))

TWO_TEAM_SPECS = (
    [RandomSpec(seed, depth=6, branching=3, id_space=10) for seed in range(15)]
    + [RandomSpec(100 + s, depth=6, chance_percent=25, id_space=14) for s in range(15)]
    + [RandomSpec(200 + s, depth=5, chance_percent=15, simultaneous_percent=25) for s in range(15)]
    + [RandomSpec(300 + s, depth=5, teams=((0,), (1,)), simultaneous_percent=30, id_space=8)
       for s in range(10)]
)
THREE_TEAM_SPECS = [
    RandomSpec(400 + s, depth=5, teams=THREE_TEAMS_OF_TWO, chance_percent=20, constant_sum=False)
    for s in range(15)
]
SEQUENTIAL_THREE_TEAM = [
    RandomSpec(500 + s, depth=5, teams=THREE_TEAMS_OF_TWO, simultaneous_percent=30,
               constant_sum=False) for s in range(10)
]


def replay(state, line: tuple[str, ...]):
    """Apply a principal variation written in canonical text."""
    for text in line:
        if state.is_simultaneous_node():
            state = state.joint_child(state.string_to_joint(text))
        else:
            state = state.child(state.string_to_action(text))
    return state


def assert_agree(fast: SolveResult, reference: SolveResult) -> None:
    assert fast.status is reference.status is Status.SOLVED
    assert fast.concept is reference.concept
    assert fast.value == reference.value
    assert fast.values == reference.values
    assert fast.best_actions == reference.best_actions


def assert_line_keeps_value(root, result: SolveResult, **options) -> None:
    """Every state along the principal variation has the root's value (two-sided concepts)."""
    state = root
    for text in result.principal_variation:
        state = replay(state, (text,))
        options.setdefault("team", result.team_seats)
        assert naive_solve(state, **options).value == result.value, text
    # The line ends only where it must: at the end, at chance, or at a mixed matrix game.
    kind = state.current_player()
    assert kind in (TERMINAL, CHANCE) or state.is_simultaneous_node()


def minimax_variants(state, **options):
    yield solve(state, **options)
    yield solve(state, transpositions=False, **options)
    yield solve(state, ordering=False, **options)


@pytest.mark.parametrize("spec", TWO_TEAM_SPECS, ids=lambda s: f"seed{s.seed}")
def test_minimax_agrees_with_the_naive_solver(spec: RandomSpec) -> None:
    root = RandomGame(spec)
    reference = naive_solve(root)
    for fast in minimax_variants(root):
        assert_agree(fast, reference)
    bounded = solve(root, bounds=(Fraction(0), Fraction(spec.value_range)))
    assert_agree(bounded, reference)
    assert_line_keeps_value(root, solve(root))


@pytest.mark.parametrize("mode", list(SimultaneousMode))
@pytest.mark.parametrize("spec", TWO_TEAM_SPECS[30:], ids=lambda s: f"seed{s.seed}")
def test_simultaneous_modes_agree_with_the_naive_solver(spec, mode) -> None:
    root = RandomGame(spec)
    reference = naive_solve(root, simultaneous=mode)
    assert_agree(solve(root, simultaneous=mode), reference)
    lower = naive_solve(root, simultaneous=SimultaneousMode.LOWER).value
    upper = naive_solve(root, simultaneous=SimultaneousMode.UPPER).value
    assert lower <= naive_solve(root).value <= upper
    fast = solve(root)
    if lower != upper:
        assert (fast.pure_lower, fast.pure_upper) == (lower, upper)


@pytest.mark.parametrize("spec", THREE_TEAM_SPECS + SEQUENTIAL_THREE_TEAM[:0],
                         ids=lambda s: f"seed{s.seed}")
def test_maxn_agrees_with_the_naive_solver(spec: RandomSpec) -> None:
    root = RandomGame(spec)
    reference = naive_solve(root, concept="maxn")
    assert_agree(solve(root, concept="maxn"), reference)
    assert_agree(solve(root, concept="maxn", transpositions=False), reference)
    assert solve(root, concept="maxn").principal_variation == reference.principal_variation


@pytest.mark.parametrize("spec", THREE_TEAM_SPECS + SEQUENTIAL_THREE_TEAM,
                         ids=lambda s: f"seed{s.seed}")
@pytest.mark.parametrize("team", [0, 1, 2])
def test_paranoid_agrees_and_never_exceeds_maxn(spec: RandomSpec, team: int) -> None:
    root = RandomGame(spec)
    seats = [player + 1 for player in root.teams()[team]]
    reference = naive_solve(root, concept="paranoid", team=seats)
    for fast in minimax_variants(root, concept="paranoid", team=seats):
        assert_agree(fast, reference)
    assert_line_keeps_value(root, solve(root, concept="paranoid", team=seats),
                            concept="paranoid")
    if spec in THREE_TEAM_SPECS:
        # A team's paranoid value is what it guarantees whatever the others do, so it is at
        # most what it gets when they play max-n (its max-n play is a best response to theirs).
        assert reference.value <= naive_solve(root, concept="maxn").values[team]


@pytest.mark.parametrize("pile", range(1, 14))
def test_team_nim_values_follow_the_subtraction_game(pile: int) -> None:
    # Players alternate between the two teams, so this is the subtraction game {1, 2, 3}:
    # the side to move wins exactly when the pile is not a multiple of 4, by taking pile % 4.
    result = solve(TeamNim(pile))
    wins = pile % 4 != 0
    assert result.value == int(wins)
    assert result.winner == (0 if wins else 1)
    assert result.answer() == ([1, 3] if wins else [2, 4])
    every = [f"take{k}" for k in range(1, min(3, pile) + 1)]
    expected_best = [f"take{pile % 4}"] if wins else every
    assert list(result.best_actions) == expected_best


def test_teammates_moving_in_a_row_pool_their_moves() -> None:
    # Seats 1 and 2 are one team and move one after the other: with 4 tokens that team
    # takes 1 then 3 (or 3 then 1, 2 then 2) and wins at once.
    root = TeamNim(4, teams_=((0, 1), (2, 3)))
    result = solve(root)
    assert result.value == 1 and result.best_actions == ("take1", "take2", "take3")
    assert_agree(result, naive_solve(root))


def test_coin_row_two_teams() -> None:
    root = CoinRow((3, 1, 4, 1, 5, 9, 2, 6))
    reference = naive_solve(root)
    assert_agree(solve(root), reference)
    assert sum(reference.values) == sum(root.coins)


def test_three_teams_need_a_named_concept() -> None:
    root = CoinRow((4, 1, 3, 5, 2, 6), teams_=((0,), (1,), (2,)))
    with pytest.raises(ConceptError, match=r"3 teams.*choose 'maxn'.*or 'paranoid'"):
        solve(root)
    with pytest.raises(ConceptError, match=r"'minimax' .* needs exactly two teams"):
        solve(root, concept="minimax")
    maxn = solve(root, concept="maxn")
    paranoid = solve(root, concept=Concept.PARANOID, team=1)
    assert (maxn.concept, paranoid.concept) == (Concept.MAXN, Concept.PARANOID)
    assert maxn.to_json()["answer"]["concept"] == "maxn"
    assert paranoid.to_json()["answer"] == {
        "concept": "paranoid", "outcome": {"team": [1], "value": str(paranoid.value)}
    }
    assert paranoid.value <= maxn.values[0]


def test_unknown_concept_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="unknown; choose one of minimax, maxn, paranoid"):
        solve(TeamNim(3), concept="expectimax")
    with pytest.raises(OptionError, match="team 0: name a team by its seats, numbered from 1"):
        solve(TeamNim(3), team=0)
    with pytest.raises(OptionError, match=r"team: seats \[9\] are not a team here"):
        solve(TeamNim(3), team=9)


def test_maxn_plays_security_strategies_when_several_teams_choose_at_once() -> None:
    """The stated rule of omen_solver/core/search/maxn.py: each team picks the choice whose worst
    case is best for it. In matching pennies every choice risks -1, so (ties to the first) both
    show heads and the row team gets 1; paranoid, each team guarantees only the mixed value 0."""
    result = solve(MatrixToy((PENNIES,)), concept="maxn")
    assert result.values == (1, -1)
    report = result.extra["maxn"]
    assert report["tie_breaks"] == {"first": ["1", "-1"], "last": ["1", "-1"]}
    assert report["paranoid"] == ["0", "0"] and report["forced_winner"] is None
    assert naive_solve(MatrixToy((PENNIES,)), concept="maxn").values == (1, -1)


def test_minimax_refuses_a_game_that_is_not_constant_sum() -> None:
    root = RandomGame(RandomSpec(7, depth=4, constant_sum=False))
    with pytest.raises(ConceptError, match="not constant-sum"):
        solve(root)
    assert solve(root, concept="paranoid").solved


def test_matching_pennies_at_the_root() -> None:
    # Matching pennies: value 0 in mixed strategies; the row side gets -1 if it must show its
    # coin first and 1 if the column side must.
    result = solve(MatrixToy((PENNIES,)), team=1)
    assert (result.value, result.pure_lower, result.pure_upper) == (0, -1, 1)
    assert result.best_actions == ("0", "1")
    assert result.principal_variation == ()
    assert result.root_matrix is not None
    assert result.root_matrix.row_strategy == (Fraction(1, 2), Fraction(1, 2))
    assert result.to_json()["root_matrix"]["value"] == "0"
    assert result.answer() is None  # a tie: neither side is ahead
    assert_agree(result, naive_solve(MatrixToy((PENNIES,)), team=1))


def test_menu_then_matrix_game() -> None:
    # Seat 1 picks pennies (worth 0) or [[0, 2], [3, 1]] (worth 3/2 by the 2x2 formula).
    root = MatrixToy((PENNIES, ((0, 2), (3, 1))))
    result = solve(root)
    assert result.value == Fraction(3, 2) and result.best_actions == ("m1",)
    assert result.principal_variation == ("m1",)
    assert (result.pure_lower, result.pure_upper) == (1, 2)


def test_teammates_choosing_at_once_make_one_joint_choice() -> None:
    # Both acting seats are on one team: its joint choice takes the best cell.
    root = MatrixToy((((1, -1), (-1, 5)),), teams_=((0, 1), (2,)))
    result = solve(root)
    assert result.value == 5 and result.best_actions == ("r1&c1",)
    assert result.principal_variation == ("r1&c1",)
    assert result.pure_lower is None


@pytest.mark.parametrize("pile", range(1, 9))
def test_chance_values_are_exact_expectations(pile: int) -> None:
    root = GustNim(pile)
    reference = naive_solve(root)
    assert_agree(solve(root), reference)
    assert_agree(solve(root, bounds=(Fraction(0), Fraction(1))), reference)


def test_gust_nim_with_two_tokens() -> None:
    # take2 wins at once; take1 leaves a gust: calm (2/3) lets the other team take the last
    # token, a gust (1/3) blows it away and the taker's team wins. So take2 is worth 1.
    result = solve(GustNim(2))
    assert result.value == 1 and result.best_actions == ("take2",)
    assert solve(GustNim(2, max_take=1)).value == Fraction(1, 3)


def test_return_bounds_hook_cuts_work_and_keeps_the_value() -> None:
    plain, bounded = solve(TeamNim(21)), solve(BoundedNim(21))
    assert plain.value == bounded.value == 1
    assert bounded.nodes < plain.nodes


def test_declared_bounds_are_checked() -> None:
    with pytest.raises(OmenSolverError, match="outside the declared return bounds"):
        solve(TeamNim(5), bounds=(Fraction(0), Fraction(1, 2)))


@pytest.mark.parametrize("limit", [1, 10, 50, 150])
def test_budget_gives_unknown_with_true_bounds(limit: int) -> None:
    spec = RandomSpec(11, depth=8, branching=4, id_space=40, chance_percent=10)
    root = RandomGame(spec)
    truth = solve(root).value
    result = solve(root, budget=Budget(max_nodes=limit),
                   bounds=(Fraction(0), Fraction(spec.value_range)))
    assert result.status is Status.UNKNOWN and result.value is None
    assert result.best_actions == () and result.answer() is None
    assert result.nodes == limit
    assert result.lower is not None and result.upper is not None
    assert result.lower <= truth <= result.upper
    assert result.to_json()["status"] == "unknown"


def test_budget_without_bounds_may_leave_a_side_open() -> None:
    result = solve(TeamNim(25), budget=Budget(max_nodes=5))
    assert result.status is Status.UNKNOWN
    assert result.lower is None or result.lower <= 1
    assert "node limit of 5" in (result.note or "")


def test_budgets_for_maxn_and_naive() -> None:
    root = RandomGame(THREE_TEAM_SPECS[0])
    assert solve(root, concept="maxn", budget=Budget(max_nodes=3)).status is Status.UNKNOWN
    assert naive_solve(root, concept="maxn", budget=Budget(max_nodes=3)).status is Status.UNKNOWN


def test_node_counts_are_deterministic() -> None:
    root = RandomGame(TWO_TEAM_SPECS[40])
    first, second = solve(root), solve(root)
    assert (first.nodes, first.states, first.principal_variation) == (
        second.nodes, second.states, second.principal_variation
    )


def test_table_saves_nodes_on_transpositions() -> None:
    with_table = solve(TeamNim(16))
    without = solve(TeamNim(16), transpositions=False)
    assert with_table.value == without.value
    assert with_table.nodes * 10 < without.nodes


def test_result_json_has_the_documented_fields() -> None:
    data = solve(TeamNim(7)).to_json()
    for key in ("answer", "value", "concept", "best_actions", "principal_variation", "nodes",
                "states", "seconds", "status", "team", "teams", "values", "lower", "upper"):
        assert key in data
    assert data["answer"] == [1, 3] and data["value"] == "1" and data["concept"] == "minimax"
    assert data["principal_variation"][0] == "take3"


specs = st.builds(
    RandomSpec,
    seed=st.integers(0, 10**6),
    depth=st.integers(1, 5),
    branching=st.integers(1, 3),
    id_space=st.integers(1, 12),
    teams=st.sampled_from([((0, 2), (1, 3)), ((0,), (1,)), ((0, 1), (2, 3)), THREE_TEAMS_OF_TWO]),
    chance_percent=st.integers(0, 30),
    simultaneous_percent=st.integers(0, 30),
    constant_sum=st.just(True),
)


@settings(max_examples=60, deadline=None)
@given(specs, st.sampled_from(list(SimultaneousMode)))
def test_every_concept_agrees_with_the_naive_solver_on_generated_games(spec, mode) -> None:
    root = RandomGame(spec)
    concepts = ["minimax", "paranoid"] if len(spec.teams) == 2 else ["paranoid"]
    for concept in concepts:
        for team in root.teams():
            seats = [player + 1 for player in team]
            options = {"concept": concept, "team": seats, "simultaneous": mode}
            assert_agree(solve(root, **options), naive_solve(root, **options))
    try:
        reference = naive_solve(root, concept="maxn")
    except ConceptError:
        with pytest.raises(ConceptError):
            solve(root, concept="maxn")
    else:
        assert_agree(solve(root, concept="maxn"), reference)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_exhaustive_agreement_on_deeper_games(seed: int) -> None:
    spec = RandomSpec(10_000 + seed, depth=8, branching=3, id_space=25, chance_percent=15,
                      simultaneous_percent=15)
    root = RandomGame(spec)
    assert_agree(solve(root), naive_solve(root))
    assert_agree(solve(root, bounds=(Fraction(0), Fraction(4))), naive_solve(root))


def test_deep_games_do_not_hit_the_recursion_limit() -> None:
    # 600 plies of taking one token: far more frames than Python's default limit of 1000.
    root = TeamNim(600, max_take=1)
    assert solve(root).value == 0  # 600 moves: the last one is seat 4's, of the second team
    assert perft(root).total.sequences == 1
