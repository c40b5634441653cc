"""Perft: exact counts of action sequences, the divide, distinct states, stopping points,
budgets. The conventions tested here are those of docs/search.md ("Perft")."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from core_toys import (
    CoinRow,
    GustNim,
    MatrixToy,
    RandomGame,
    RandomSpec,
    TeamNim,
    every_action_sequence,
)

from omen_solver.core.enumeration import Budget, Status, perft
from omen_solver.core.enumeration.tree import child_states
from omen_solver.core.game import TERMINAL
from omen_solver.errors import OmenSolverError, OptionError, VectorFileError
from omen_solver.vectors.jsonfile import dumps
from omen_solver.vectors.perft_runner import load_perft_files
from omen_solver.vectors.perft_suites import check_suite, read_suite

RANDOM_SPECS = [
    RandomSpec(seed, depth=5, chance_percent=20, simultaneous_percent=20)
    for seed in range(12)
] + [RandomSpec(seed, depth=4, teams=((0, 3), (1, 4), (2, 5))) for seed in range(4)]


def brute_force(state, depth=None, stop=None):
    """Every prefix of every sequence, walked without any memo: (leaves, at_depth, nodes, keys)."""
    leaves = at_depth = nodes = 0
    keys = set()

    def walk(node, left, is_root):
        nonlocal leaves, at_depth, nodes
        nodes += 1
        keys.add(node.key())
        if left == 0:
            leaves += 1
            at_depth += 1
            return
        player = node.current_player()
        if player == TERMINAL or (not is_root and stop is not None and stop(node)):
            leaves += 1
            return
        for child in child_states(node, player):
            walk(child, None if left is None else left - 1, False)

    walk(state, depth, True)
    return leaves, at_depth, nodes, len(keys)


def tribonacci(n: int) -> int:
    values = [1, 1, 2]
    while len(values) <= n:
        values.append(sum(values[-3:]))
    return values[n]


@pytest.mark.parametrize("pile", range(0, 13))
def test_nim_sequences_are_compositions(pile: int) -> None:
    # Sequences of takes of 1..3 emptying the pile are the compositions of `pile` into parts
    # of at most 3, counted by the tribonacci numbers.
    result = perft(TeamNim(pile))
    assert result.total is not None
    assert result.total.sequences == tribonacci(pile)
    assert result.total.sequences == len(list(every_action_sequence(TeamNim(pile))))


def test_depth_cut_counts_full_length_and_early_ends_apart() -> None:
    # pile 5, depth 3: sequences 1+1+1 .. with the early wins 2+3 and 3+2 ending at ply 2.
    result = perft(TeamNim(5), 3)
    assert result.total is not None
    full = [s for s in itertools.product((1, 2, 3), repeat=3) if sum(s) <= 5]
    early = [s for s in itertools.product((1, 2, 3), repeat=2) if sum(s) == 5]
    assert result.total.at_depth == len(full) == 10
    assert result.total.ended == len(early) == 2
    assert result.total.sequences == 12


def test_divide_is_keyed_by_canonical_text_and_sums_to_total() -> None:
    result = perft(TeamNim(10), 4)
    assert [text for text, _ in result.divide] == ["take1", "take2", "take3"]
    assert result.total is not None
    assert sum(count.sequences for _, count in result.divide) == result.total.sequences
    assert result.divide[0][1].sequences == perft(TeamNim(9, player=1), 3).total.sequences


@pytest.mark.parametrize("spec", RANDOM_SPECS, ids=lambda s: f"seed{s.seed}-{len(s.teams)}t")
@pytest.mark.parametrize("depth", [None, 2, 3])
def test_merged_and_plain_walks_agree_with_brute_force(spec: RandomSpec, depth: int | None) -> None:
    state = RandomGame(spec)
    merged = perft(state, depth)
    plain = perft(state, depth, transpositions=False)
    leaves, at_depth, nodes, keys = brute_force(state, depth)
    for result in (merged, plain):
        assert result.total is not None
        assert (result.total.sequences, result.total.at_depth, result.total.nodes) == (
            leaves, at_depth, nodes
        )
        assert result.states == keys
    # Merging transpositions saves work and never changes a count.
    assert merged.visited <= plain.visited == nodes


def test_simultaneous_node_branches_on_every_joint_action() -> None:
    # docs/search.md: a simultaneous node branches once per joint action (2 rows x 3 columns).
    result = perft(MatrixToy((((1, 2, 3), (4, 5, 6)),)))
    assert result.total is not None and result.total.sequences == 6
    assert [text for text, _ in result.divide] == [
        f"r{r}&c{c}" for r in range(2) for c in range(3)
    ]


def test_chance_node_branches_once_per_outcome() -> None:
    # take1 leaves 2 tokens and a gust node with 2 outcomes (calm, gust), whatever their odds.
    result = perft(GustNim(3), 2)
    assert result.total is not None
    assert dict((t, c.sequences) for t, c in result.divide) == {"take1": 2, "take2": 2}


def test_stop_predicate_by_name_cuts_at_the_game_s_stopping_point() -> None:
    # TeamNim's "half": the pile has fallen to half of the root's pile or less.
    state = TeamNim(10)
    result = perft(state, stop="half")
    leaves, _, nodes, keys = brute_force(state, stop=lambda s: s.pile <= 5)
    assert result.total is not None
    assert (result.total.sequences, result.total.nodes, result.states) == (leaves, nodes, keys)
    assert result.total.ended == 31 and result.total.at_depth == 0
    assert result.to_json()["to"] == "half"


def test_root_is_never_a_stopping_point() -> None:
    result = perft(TeamNim(4), stop=lambda state: True)
    assert result.total is not None and result.total.sequences == 3


def test_unknown_stopping_point_and_a_game_without_any_are_errors() -> None:
    with pytest.raises(OptionError, match=r"'bout'.*known: half"):
        perft(TeamNim(4), stop="bout")
    with pytest.raises(OptionError, match="names no stopping points"):
        perft(CoinRow((1, 2)), stop="round")


def test_budget_gives_unknown_and_no_count() -> None:
    result = perft(TeamNim(30), budget=Budget(max_nodes=100))
    assert result.status is Status.UNKNOWN
    assert result.total is None and result.states is None
    assert result.visited == 100
    assert "node limit of 100" in (result.reason or "")
    assert result.to_json()["sequences"] is None


def test_counts_are_deterministic() -> None:
    first = perft(RandomGame(RANDOM_SPECS[3]), 4).to_json()
    second = perft(RandomGame(RANDOM_SPECS[3]), 4).to_json()
    first.pop("seconds")
    second.pop("seconds")
    assert first == second


@pytest.mark.parametrize("depth", [-1, 1.5, True])
def test_bad_depth_is_refused(depth: object) -> None:
    with pytest.raises(OmenSolverError, match="depth"):
        perft(TeamNim(3), depth)  # type: ignore[arg-type]


def test_bad_budgets_are_refused() -> None:
    with pytest.raises(OmenSolverError, match="max_nodes"):
        Budget(max_nodes=0)
    with pytest.raises(OmenSolverError, match="max_seconds"):
        Budget(max_seconds=-1)


def test_toy_perft_suite(data_dir: Path) -> None:
    """The toy suite, in the one perft format (docs/vectors.md "Perft suites"), counted again."""
    suite = read_suite(data_dir / "perft_toys.json")
    assert len(suite["cases"]) == 6
    failures = [str(mismatch) for mismatch in check_suite(suite)]
    assert not failures, "\n".join(failures)


def _wrong_suite(tmp_path: Path, data_dir: Path) -> Path:
    suite = read_suite(data_dir / "perft_toys.json")
    (case,) = [case for case in suite["cases"] if case["id"] == "nim10-depth2"]
    case["depths"][0]["sequences"] = 8
    case["divide"]["counts"]["take1"] = 2
    path = tmp_path / "suite.json"
    path.write_text(dumps({**suite, "cases": [case]}))
    return path


def test_suite_mismatch_names_the_branch(tmp_path: Path, data_dir: Path) -> None:
    found = [str(m) for m in check_suite(read_suite(_wrong_suite(tmp_path, data_dir)))]
    assert "nim10-depth2: depth 2: sequences: recorded 8, counted 9" in found
    (divide,) = [text for text in found if ": divide:" in text]
    assert "'take1': 2" in divide and "'take1': 3" in divide


def test_suite_errors_name_file_and_path(tmp_path: Path, data_dir: Path) -> None:
    path = _wrong_suite(tmp_path, data_dir)
    path.write_text(path.read_text().replace('"sequences": 8', '"sequences": -2'))
    with pytest.raises(VectorFileError, match=r"suite.json: \$\.cases\[0\]\.depths\[0\]"
                       r"\.sequences: -2"):
        read_suite(path)
    path.write_text(path.read_text().replace('"sequences": -2', '"sequence": 9'))
    with pytest.raises(VectorFileError, match=r"depths\[0\]: 'sequences' is a required"):
        read_suite(path)


def test_engines_are_not_asked_for_games_without_a_vector_view(data_dir: Path) -> None:
    """``vectors perft`` counts through the protocol, which sets up Omens and Omen only: a toy
    suite is refused rather than sent (docs/vectors.md "Perft suites")."""
    with pytest.raises(VectorFileError, match=r"perft_toys\.json: key 'game': 'toy' has no vector"):
        load_perft_files(data_dir / "perft_toys.json")
