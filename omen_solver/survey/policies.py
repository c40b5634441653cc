"""How a seat plays when a survey plays a deal forward, or a game to its end (``docs/survey.md``).

Every policy sees what its seat may see: its own hand, the cards in play and what the rules show
(the :class:`~omen_solver.survey.advice.Tracker` keeps the rest of what it knows). A policy is
seeded: the same deal, policy and seed give the same line of play on every machine.

* **heuristic**: a trick-taking habit. A bout's winner discards its card, and a hand of one card
  wins the round, so a seat plays the lowest card that beats every card in play, else its lowest
  card; any other decision (a choice of an effect, a card to give or show, Luck's discard) takes
  the first legal choice in the engine's order (lowest cards first). No search.
* **advice**: the hidden-hand advice (:func:`omen_solver.survey.advice.advise`, perfect-information
  Monte Carlo) with a fixed small budget: ``samples`` deals consistent with what the seat knows
  (every one when there are at most that many), each solved within ``nodes`` nodes (the
  searches of all its actions together). The seat plays PIMC's best action when every search of
  the decision settled; otherwise (a search ran out of budget, or no consistent deal was found)
  it plays the heuristic's move, and the decision is counted as a fallback. A decision with one
  legal move is not asked; The Absolute's secret exchange, which the advice does not cover, is
  played by the heuristic.
* **random**: a uniformly random legal move.

Chance (Luck's random discard under ``luck_chooser = "random"``, the deals of later rounds) is
drawn as the rules draw it, from the same seeded generator.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.game import CHANCE, SIMULTANEOUS
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.state import OmensState, Phase

__all__ = [
    "DEFAULT_POLICY_NODES",
    "DEFAULT_POLICY_SAMPLES",
    "POLICIES",
    "Counts",
    "Policy",
    "Seats",
    "heuristic_move",
]

POLICIES: Final = ("heuristic", "advice", "random")
DEFAULT_POLICY_SAMPLES: Final = 8
"""Deals the advice policy solves per decision."""
DEFAULT_POLICY_NODES: Final = 20_000
"""Nodes the advice policy spends on one sampled deal (all its actions together)."""

Move = tuple[OmensAction, ...]


@dataclass(frozen=True)
class Policy:
    """A stated, seeded way to play every seat."""

    name: str = "heuristic"
    samples: int = DEFAULT_POLICY_SAMPLES
    """advice: deals per decision."""
    nodes: int = DEFAULT_POLICY_NODES
    """advice: the node budget of one sampled deal."""

    def __post_init__(self) -> None:
        if self.name not in POLICIES:
            raise OmenSolverError(
                f"policy {self.name!r}: unknown; choose one of {', '.join(POLICIES)}"
            )
        if self.samples < 1 or self.nodes < 1:
            raise OmenSolverError("policy: samples and nodes must be at least 1")

    def label(self) -> str:
        """How tables and plots name it."""
        if self.name == "advice":
            return (f"advice (PIMC, {self.samples} deals per decision, {self.nodes:,} nodes per "
                    "deal, else heuristic)")
        return self.name

    def to_json(self) -> dict[str, Any]:
        if self.name != "advice":
            return {"name": self.name}
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Policy:
        return cls(**data)


@dataclass
class Counts:
    """What the players of one line or game did: decisions asked (more than one legal move),
    those the advice answered, and its fallbacks to the heuristic."""

    decisions: int = 0
    advised: int = 0
    fallbacks: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def _placed(move: Move) -> int:
    """The card a move places in play (0 for a move that places none)."""
    return max((a.card for a in move if a.verb is Verb.PLAY), default=0)


def heuristic_move(state: OmensState, seat: int | None = None) -> Move:
    """The heuristic's move for the seat to act (``seat``: one seat's part of The Absolute's
    exchange, a move of that seat's action alone)."""
    if seat is not None:
        return (state.actions(seat)[0],)
    moves = state.moves()
    top = max((placed.card for placed in state.in_play), default=0)
    above = [move for move in moves if _placed(move) > top]
    return min(above or moves, key=_placed)


class Seats:
    """Every seat of one line or game played by ``policy``, drawing from ``rng``."""

    def __init__(self, policy: Policy, rng: random.Random) -> None:
        self.policy = policy
        self.rng = rng
        self.counts = Counts()
        self.tracker: Any = None

    def start(self, state: OmensState) -> None:
        """A new round starts at ``state`` (what each seat knows starts again)."""
        if self.policy.name == "advice":
            from omen_solver.survey.advice import Tracker

            self.tracker = Tracker(state)

    def observe(self, before: OmensState, move: Move, after: OmensState) -> None:
        """Follow a move (a new round's deal starts what each seat knows again)."""
        if self.policy.name != "advice":
            return
        if after.is_terminal() or after.phase == Phase.DEAL:
            self.tracker = None
        elif before.phase == Phase.DEAL:
            self.start(after)
        elif self.tracker is not None:
            self.tracker.observe(before, move, after)

    def move(self, state: OmensState) -> Move:
        """The move at ``state`` (a chance outcome drawn as the rules draw it)."""
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = self.rng.choices([a for a, _ in outcomes],
                                      weights=[float(p) for _, p in outcomes])[0]
            return (action,)
        if player == SIMULTANEOUS:
            parts = [self._part(state, seat) for seat in state.acting_players()]
            return tuple(part for move in parts for part in move)
        moves = state.moves()
        if len(moves) == 1:
            return moves[0]
        self.counts.decisions += 1
        if self.policy.name == "random":
            return self.rng.choice(moves)
        if self.policy.name == "heuristic":
            return heuristic_move(state)
        return self._advised(state, player)

    def _part(self, state: OmensState, seat: int) -> Move:
        if self.policy.name == "random":
            return (self.rng.choice(state.actions(seat)),)
        return heuristic_move(state, seat)

    def _advised(self, state: OmensState, seat: int) -> Move:
        from omen_solver.errors import AdviceError
        from omen_solver.survey.advice import advise

        policy = self.policy
        seed = self.rng.randrange(2**32)
        try:
            advice = advise(self.tracker.view(seat), samples=policy.samples,
                            exact_limit=policy.samples, seed=seed,
                            budget=Budget(max_nodes=policy.nodes),
                            per_move=False)  # the searches docs/advice.md's figures measured
        except AdviceError:
            advice = None
        best = None if advice is None or advice.unknown else advice.best
        if best is None:
            self.counts.fallbacks += 1
            return heuristic_move(state)
        self.counts.advised += 1
        return (state.string_to_action(best.action),)
