"""Generating Omens puzzles: deals that satisfy stated constraints, confirmed by the solver.

Two kinds of constraints:

* on the deal itself (which cards, who holds which): a constraint problem of python-constraint2
  (``constraint``) whose variables are the cards of each hand, all different, each hand written
  in increasing order, the required cards in their seats. Its solutions are the candidate
  deals, each the first solution with the card pool in a new seeded random order (so that
  consecutive deals are not near copies).
* on best play (every hand open): each candidate is solved exactly
  (:func:`omen_solver.core.search.solve`) and kept if the recipe's property holds:

  - ``unique-win``: seat 1's team wins the round with best play, and only one first play of
    seat 1 does it;
  - ``only-lead``: seat 1's team wins only if seat 1 leads a given card (e.g. Mirror): the
    winning first plays are exactly the plays of that card.

No two deals kept in one run share more than half their cards (a card shared: the same seat
holds it in both, :func:`shared`). Each kept deal is written as a puzzle file
(``docs/puzzles.md``): the position, the question, the stated answer (winner, value, best first
plays) and, in comments, the value of every first play, so the answer can be followed.
``omen-solver puzzles check DIR`` confirms them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Final

import constraint

from omen_solver.core.budget import Budget
from omen_solver.core.files import atomic_write
from omen_solver.core.search import solve
from omen_solver.errors import OmenSolverError
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.position import position_toml
from omen_solver.omens.proofs.counterexamples import DEFAULT_TEAMS
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

__all__ = ["KINDS", "MAX_REPEATS", "Generated", "Recipe", "candidate_deals", "generate", "shared",
           "too_alike", "write_puzzle"]

KINDS = ("unique-win", "only-lead")


@dataclass(frozen=True)
class Recipe:
    """What to generate."""

    kind: str
    players: int = 4
    hand_size: int = 2
    lead: int | None = None
    """For ``only-lead``: the card seat 1 must lead to win."""
    pool: tuple[int, ...] = ()
    """Cards the deals are made of (default: every card of the catalogue)."""
    require: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Cards a seat must hold (0-based seat -> cards)."""
    count: int = 3
    seed: int = 0
    max_candidates: int = 2000
    """Candidate deals tried at most (the constraint solver's solutions, in order)."""
    budget: Budget = field(default_factory=lambda: Budget(max_nodes=200_000))
    """The solver's budget per candidate: a candidate left unknown is skipped, never kept."""

    def check(self, catalogue: Catalogue) -> None:
        """Errors name the option and what is wrong."""
        if self.kind not in KINDS:
            raise OmenSolverError(f"--kind {self.kind!r}: choose one of {', '.join(KINDS)}")
        if self.players not in (4, 5, 6):
            raise OmenSolverError(f"--players {self.players}: Omens is played by 4 to 6")
        if not 2 <= self.hand_size <= 4:
            raise OmenSolverError(f"--hand-size {self.hand_size}: from 2 to 4 cards")
        if self.kind == "only-lead" and self.lead is None:
            raise OmenSolverError("--lead: the kind only-lead needs the card seat 1 must lead")
        for card in (*self.pool, *(c for cards in self.require.values() for c in cards)):
            if card not in catalogue:
                raise OmenSolverError(f"card {card} is not in the catalogue")
        if self.lead is not None and self.lead not in catalogue:
            raise OmenSolverError(f"--lead {self.lead}: not a card of the catalogue")
        for seat in self.require:
            if not 0 <= seat < self.players:
                raise OmenSolverError(f"--require: no seat {seat + 1} with {self.players} players")
        if self.count < 1 or self.max_candidates < 1:
            raise OmenSolverError("--count and --max-candidates must be at least 1")

    def required(self) -> dict[int, tuple[int, ...]]:
        cards = {seat: tuple(cards) for seat, cards in self.require.items()}
        if self.lead is not None:
            cards[0] = tuple(sorted({*cards.get(0, ()), self.lead}))
        return cards


MAX_REPEATS: Final = 200
"""Candidate deals drawn in a row that were all drawn before: the constraints leave so few
deals that the stream stops."""


def candidate_deals(recipe: Recipe, catalogue: Catalogue) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Deals satisfying the recipe's constraints on cards, from python-constraint2: each one the
    first solution of the constraint problem with the pool in a new seeded random order, so
    that one deal does not follow another with one card changed; each deal once."""
    required = recipe.required()
    pool = list(recipe.pool or sorted(catalogue))
    for cards in required.values():
        pool += [card for card in cards if card not in pool]
    shuffle = random.Random(recipe.seed)
    names = [[f"s{s}c{h}" for h in range(recipe.hand_size)] for s in range(recipe.players)]
    seen: set[tuple[tuple[int, ...], ...]] = set()
    repeats = 0
    while repeats < MAX_REPEATS:
        shuffle.shuffle(pool)
        solution = _problem(names, pool, required).getSolution()
        if solution is None:
            return
        hands = tuple(tuple(solution[name] for name in row) for row in names)
        if hands in seen:
            repeats += 1
            continue
        repeats = 0
        seen.add(hands)
        yield hands


def _problem(names: list[list[str]], pool: list[int],
             required: Mapping[int, tuple[int, ...]]) -> constraint.Problem:
    """The cards of each hand, all different, each hand in increasing order, the required cards
    in their seats; the values tried in the order of ``pool``."""
    problem = constraint.Problem(constraint.BacktrackingSolver())
    for row in names:
        problem.addVariables(row, list(pool))
        for low, high in itertools.pairwise(row):
            problem.addConstraint(lambda a, b: a < b, [low, high])
    problem.addConstraint(constraint.AllDifferentConstraint())
    for seat, cards in required.items():
        for card in cards:
            problem.addConstraint(constraint.SomeInSetConstraint({card}), names[seat])
    return problem


def shared(first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]) -> int:
    """The cards two deals have in common: each card that the same seat holds in both."""
    return sum(len(set(a) & set(b)) for a, b in zip(first, second, strict=True))


def too_alike(hands: Sequence[Sequence[int]], kept: Sequence[Sequence[Sequence[int]]]) -> bool:
    """Whether ``hands`` shares more than half its cards with a deal already kept."""
    size = sum(len(hand) for hand in hands)
    return any(2 * shared(hands, other) > size for other in kept)


@dataclass(frozen=True)
class Generated:
    """A deal kept: the best first plays and the value of every first play."""

    hands: tuple[tuple[int, ...], ...]
    best: tuple[str, ...]
    values: Mapping[str, Fraction]
    """Seat 1's team's value after each first play."""
    line: tuple[str, ...]
    """The solver's principal variation."""


def _start(recipe: Recipe, hands: Sequence[Sequence[int]], catalogue: Catalogue) -> OmensState:
    table = Table(recipe.players, make_rules(), catalogue, Scope.ROUND)
    teams = [[seat - 1 for seat in team] for team in DEFAULT_TEAMS[recipe.players]]
    held = {card for hand in hands for card in hand}
    out = sorted(set(catalogue) - held)
    return OmensState.start_of_bout(table, hands, teams, 0, out=out)


def _keep(recipe: Recipe, state: OmensState) -> Generated | None:
    result = solve(state, budget=recipe.budget)
    if not result.solved or result.value != 1:
        return None
    moves = state.moves()
    if len(moves) < 2:
        return None
    best = tuple(result.best_actions)
    if recipe.kind == "unique-win" and len(best) != 1:
        return None
    if recipe.kind == "only-lead":
        leads = {state.move_to_string(m) for m in moves if m[0].card == recipe.lead}
        if set(best) != leads or len(leads) == len(moves):
            return None
    values = {}
    for move in moves:
        text = state.move_to_string(move)
        child = solve(state.apply_move(move), team=result.team_seats, budget=recipe.budget)
        if not child.solved or child.value is None:
            return None
        values[text] = child.value
    hands = tuple(tuple(hand) for hand in state.hands)
    return Generated(hands, best, values, tuple(result.principal_variation))


def generate(recipe: Recipe, catalogue: Catalogue | None = None) -> tuple[list[Generated], int]:
    """The first ``count`` deals kept, and how many candidates were tried."""
    catalogue = catalogue or default_catalogue()
    recipe.check(catalogue)
    kept: list[Generated] = []
    tried = 0
    for hands in candidate_deals(recipe, catalogue):
        if tried >= recipe.max_candidates or len(kept) >= recipe.count:
            break
        tried += 1
        if too_alike(hands, [found.hands for found in kept]):
            continue  # a near copy of a puzzle kept: not worth posing again
        found = _keep(recipe, _start(recipe, hands, catalogue))
        if found is not None:
            kept.append(found)
    return kept, tried


def _describe(value: Fraction) -> str:
    if value == 1:
        return "win"
    if value == 0:
        return "lose"
    return f"win with probability {value}"


def write_puzzle(
    recipe: Recipe, found: Generated, path: Path, catalogue: Catalogue | None = None
) -> None:
    """Write one puzzle file (``docs/puzzles.md``)."""
    catalogue = catalogue or default_catalogue()
    teams = DEFAULT_TEAMS[recipe.players]
    mine = next(team for team in teams if 1 in team)
    seats = " and ".join(str(seat) for seat in mine)
    if recipe.kind == "only-lead":
        assert recipe.lead is not None
        card = catalogue[recipe.lead].label()
        question = (
            f"Seat 1 leads. Seats {seats} can win this round only if seat 1 leads {card}: "
            "which first plays win?"
        )
    else:
        question = (
            f"Seat 1 leads. Which is the only first play that wins the round for seats {seats}?"
        )
    comment = [
        f"Generated by omen-solver puzzles generate (kind {recipe.kind}, seed {recipe.seed}).",
        f"Best play with every hand open: seats {seats} win the round after "
        + ", ".join(found.best)
        + ".",
        "Every first play of seat 1, and what seats " + seats + " get after it:",
    ]
    for move, value in sorted(found.values.items(), key=lambda item: (-item[1], item[0])):
        comment.append(f"- {move}: seats {seats} {_describe(value)}")
    comment.append("A winning line: " + " ".join(found.line) + ".")
    data = {
        "game": "omens", "title": question, "players": recipe.players, "teams": teams,
        "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(found.hands)},
        "bout": {"leader": 1},
        "puzzle": {
            "question": question, "team": list(mine),
            "max_nodes": recipe.budget.max_nodes or 200_000,
            "answer": {"winner": list(mine), "value": "1", "best_actions": list(found.best)},
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, position_toml(data, comment))
