"""Star2 search (probing at chance nodes, per-state value bounds) finds the values the naive
expectimax finds, on generated games with chance nodes, with and without bounds hooks."""

from __future__ import annotations

import random
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from omen_solver.core.game import CHANCE, TERMINAL, GameState
from omen_solver.core.search import naive_solve
from omen_solver.core.search.alphabeta import TwoSidedSearch, exact
from omen_solver.core.search.star import StarSearch
from tests.core.core_toys import TWO_TEAMS_OF_TWO, GustNim, RandomGame, RandomSpec

CHANCE_SPECS = [RandomSpec(700 + s, depth=7, branching=3, chance_percent=40, id_space=30,
                           teams=((0,), (1,))) for s in range(20)]
CHANCE_SPECS += [RandomSpec(800 + s, depth=6, branching=4, chance_percent=25, id_space=20,
                            teams=TWO_TEAMS_OF_TWO) for s in range(10)]


def _true_values(state: GameState[Any], team: int, memo: dict[Hashable, Fraction]) -> Fraction:
    """Expectimax by plain recursion (the reference for the bounds hook)."""
    key = state.key()
    if key in memo:
        return memo[key]
    kind = state.current_player()
    if kind == TERMINAL:
        value = state.team_returns()[team]
    elif kind == CHANCE:
        value = sum((p * _true_values(state.child(o), team, memo)
                     for o, p in state.chance_outcomes()), Fraction(0))
    else:
        values = [_true_values(state.child(a), team, memo) for a in state.legal_actions()]
        value = max(values) if state.team_of(kind) == team else min(values)
    memo[key] = value
    return value


def _star(root: RandomGame, **options: Any) -> tuple[Fraction, StarSearch]:
    top = Fraction(root.spec.value_range)
    search = StarSearch(root, root.teams()[0], constant_sum=True, bounds=(Fraction(0), top),
                        **options)
    return exact(search.search(root, search.low, search.high)), search


@pytest.mark.parametrize("spec", CHANCE_SPECS, ids=lambda s: f"seed{s.seed}")
def test_star2_agrees_with_the_naive_expectimax(spec: RandomSpec) -> None:
    root = RandomGame(spec)
    reference = naive_solve(root, team=1)
    assert reference.value is not None
    value, _ = _star(root)
    assert value == reference.value
    plain, _ = _star(root, probing=False)
    assert plain == reference.value


@pytest.mark.parametrize("spec", CHANCE_SPECS[:12], ids=lambda s: f"seed{s.seed}")
def test_per_state_bounds_keep_the_value(spec: RandomSpec) -> None:
    """Bounds from a hook (the true value, widened at random, some exact) change the work, not
    the answer."""
    root = RandomGame(spec)
    memo: dict[Hashable, Fraction] = {}
    truth = _true_values(root, 0, memo)
    rng = random.Random(spec.seed)
    top = Fraction(spec.value_range)
    slack = {key: (Fraction(rng.randint(0, 2)), Fraction(rng.randint(0, 2))) for key in memo}

    def hook(state: GameState[Any]) -> tuple[Fraction, Fraction]:
        value = _true_values(state, 0, memo)
        below, above = slack[state.key()]
        return max(Fraction(0), value - below), min(top, value + above)

    value, search = _star(root, value_bounds=hook)
    assert value == truth
    unbounded_nodes = _star(root)[1].nodes
    assert search.nodes <= unbounded_nodes


class Tree(GameState[int]):
    """A game tree written out: a node is ("max"|"min", children), ("chance", [(p, child)]) or
    a number (seat 1's return; seat 2's is 4 minus it)."""

    __slots__ = ("node", "path")

    def __init__(self, node: Any, path: tuple[int, ...] = ()) -> None:
        self.node = node
        self.path = path

    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if isinstance(self.node, int):
            return TERMINAL
        return {"max": 0, "min": 1, "chance": CHANCE}[self.node[0]]

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        return () if isinstance(self.node, int) else tuple(range(len(self.node[1])))

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        return tuple((i, p) for i, (p, _) in enumerate(self.node[1]))

    def child(self, action: int) -> Tree:
        branch = self.node[1][action]
        return Tree(branch[1] if self.node[0] == "chance" else branch, (*self.path, action))

    def returns(self) -> tuple[Fraction, ...]:
        return (Fraction(self.node), Fraction(4 - self.node))

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,))

    def key(self) -> Hashable:
        return self.path

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)


def _deep(depth: int) -> Any:
    """A subtree worth 1 that alpha-beta must search to find out."""
    if depth == 0:
        return 1
    return ("max", [_deep(depth - 1), _deep(depth - 1)])


def test_probing_cuts_a_chance_node() -> None:
    """Seat 2 already holds 2 (the first action); the chance action's successors each start
    with a 3 for seat 1, so probing proves the chance node is worth at least 3 at once, while
    Star1 alone searches the deep alternatives of the first successor."""
    successor = ("max", [3, _deep(6)])
    root = Tree(("min", [2, ("chance", [(Fraction(1, 2), successor),
                                         (Fraction(1, 2), successor)])]))
    results = {}
    for probing in (True, False):
        search = StarSearch(root, (0,), constant_sum=True, bounds=(Fraction(0), Fraction(4)),
                            probing=probing)
        results[probing] = (exact(search.search(root, search.low, search.high)), search.nodes)
    assert results[True][0] == results[False][0] == 2
    assert results[True][1] < results[False][1] / 4


def test_without_bounds_it_is_the_plain_search() -> None:
    root = GustNim(6)
    star = StarSearch(root, root.teams()[0], constant_sum=True, bounds=None)
    plain = TwoSidedSearch(root, root.teams()[0], constant_sum=True, bounds=None)
    assert star.search(root, star.low, star.high) == plain.search(root, plain.low, plain.high)
    assert star.nodes == plain.nodes


def test_bounds_outside_the_return_bounds_are_an_error() -> None:
    root = RandomGame(CHANCE_SPECS[0])
    with pytest.raises(ArithmeticError, match="lie outside the return bounds"):
        _star(root, value_bounds=lambda state: (Fraction(7), Fraction(9)))


class Loop(GameState[int]):
    """Seat 1 at A takes 1 or passes to seat 2 at B, who takes ``b_stop`` or hands back to A."""

    __slots__ = ("at", "b_stop")

    def __init__(self, at: str, b_stop: int) -> None:
        self.at = at
        self.b_stop = b_stop

    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return {"A": 0, "B": 1}.get(self.at, TERMINAL)

    def legal_actions(self, player: int | None = None) -> tuple[int, ...]:
        return (0, 1) if self.at in "AB" else ()

    def child(self, action: int) -> Loop:
        if self.at == "A":
            return Loop("B" if action == 0 else "1", self.b_stop)
        return Loop("A" if action == 0 else str(self.b_stop), self.b_stop)

    def returns(self) -> tuple[Fraction, ...]:
        value = Fraction(int(self.at))
        return (value, 4 - value)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,))

    def key(self) -> Hashable:
        return self.at

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)


@pytest.mark.parametrize(("b_stop", "value"), [(3, 3), (0, 1)])
def test_a_line_back_to_a_state_on_it_is_not_followed(b_stop: int, value: int) -> None:
    """Handing the turn back changes nothing: each player's best line that does not loop."""
    root = Loop("A", b_stop)
    search = StarSearch(root, (0,), constant_sum=True, bounds=(Fraction(0), Fraction(4)))
    assert search.search(root, search.low, search.high) == value
    assert search.repetitions >= 1
    again = search.search(root, search.low, search.high)  # the table holds no looped value
    assert again == value
