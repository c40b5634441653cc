"""PIMC checked against an exact imperfect-information solution (``docs/advice.md``).

The game of imperfect information behind an advice view: chance deals the hidden cards (every
deal consistent with the view, with its weight: the deals PIMC enumerates), then the round is
played with every seat of the **advised team** seeing only what the team knows, and the other
team seeing everything. The model, and why:

* the advised team is one OpenSpiel player, so it must have perfect recall: its seats pool what
  they know (the view must know the partners' hands, else they would be dealt by chance and
  the team would know them without the advised seat knowing them). What the team sees: its own
  hands at every step, and every move, with ``?`` for a card given or shown between other seats
  (the same rules as :class:`~omen_solver.survey.advice.Tracker`);
* the other team sees every hand, as PIMC assumes. So PIMC and the exact solution differ only in
  what the advised team knows **after** its action: PIMC lets it see the deal (each deal is
  solved with every hand open), the exact solution does not. The exact value of an action is
  therefore never above PIMC's, and where it is below, PIMC's answer rests on **strategy
  fusion** (a later choice that must guess what PIMC let it see).

Each action's exact value is the sequence-form LP value of the game that starts after it
(:func:`omen_solver.integrations.openspiel_hidden.sequence_form_value`); the value of the
position (the team choosing its action too) is the LP value of the whole game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.errors import AdviceError
from omen_solver.integrations.openspiel_hidden import (
    HiddenDeal,
    Information,
    Step,
    make_hidden_game,
    sequence_form_value,
)
from omen_solver.omens.state import OmensState
from omen_solver.survey.advice import (
    HIDDEN,
    Advice,
    Tracker,
    View,
    advise,
    consistent_count,
    enumerate_deals,
    with_revealed,
)

__all__ = [
    "MAX_DEALS",
    "TOLERANCE",
    "ActionCheck",
    "ImperfectCheck",
    "check_against_imperfect",
    "hidden_game",
    "team_view",
]

MAX_DEALS: Final = 2000
"""The most deals the check builds one game of (the sequence form grows with them)."""
TOLERANCE: Final = 1e-7
"""Floating-point slack of the linear program when values are compared."""


@dataclass(frozen=True)
class ActionCheck:
    action: str
    pimc: float
    """PIMC's win probability: the mean over deals of the value with every hand open."""
    exact: float
    """The value of the game of imperfect information after this action (sequence-form LP)."""

    @property
    def fusion(self) -> float:
        """What PIMC over-values this action by (0 when it does not)."""
        return max(0.0, self.pimc - self.exact)


@dataclass(frozen=True)
class ImperfectCheck:
    seat: int
    deals: int
    value: float
    """The value of the position for the advised team: the LP of the whole game."""
    actions: tuple[ActionCheck, ...]
    sequences: tuple[int, int]
    information_sets: tuple[int, int]
    advice: Advice

    @property
    def pimc_best(self) -> ActionCheck:
        return max(self.actions, key=lambda a: a.pimc)

    @property
    def exact_best(self) -> ActionCheck:
        return max(self.actions, key=lambda a: a.exact)

    @property
    def agrees(self) -> bool:
        """PIMC's best action is an exactly optimal one."""
        return self.pimc_best.exact >= self.exact_best.exact - TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat + 1,
            "deals": self.deals,
            "value": round(self.value, 6),
            "sequences": list(self.sequences),
            "information_sets": list(self.information_sets),
            "pimc_best": self.pimc_best.action,
            "exact_best": self.exact_best.action,
            "agrees": self.agrees,
            "actions": [
                {"action": a.action, "pimc": round(a.pimc, 6), "exact": round(a.exact, 6)}
                for a in self.actions
            ],
        }


def team_view(view: View) -> View:
    """Refuse a view that does not know its partners' hands (the team is one player)."""
    slots = view.slots()
    team = next(t for t in view.teams if view.seat in t)
    blind = [seat + 1 for seat in team if slots[seat]]
    if blind:
        raise AdviceError(
            f"the imperfect-information check treats a team as one player who knows its own "
            f"hands: seat {view.seat + 1} must know seat(s) {blind}'s hands ([[known]])"
        )
    return view


def _team_text(step: Step, seats: Sequence[int]) -> str:
    """A move as the team saw it: a part is shown if any seat of the team saw it."""
    before = step.before
    assert isinstance(before, OmensState)
    seen = [Tracker.seen_by(seat, before, step.move).split(" & ") for seat in seats]
    parts = []
    for versions in zip(*seen, strict=True):
        clear = [text for text in versions if not text.endswith(" " + HIDDEN)]
        parts.append(clear[0] if clear else versions[0])
    return " & ".join(parts)


def _information(advised: int, teams: tuple[tuple[int, ...], ...]) -> Information:
    seats = teams[advised]

    def information(team: int, deal: int, state: Any, history: tuple[Step, ...]) -> str:
        if team != advised:
            # The other team sees every hand: the deal and the moves say everything.
            return f"deal {deal}: " + " / ".join(
                " & ".join(map(str, step.move)) for step in history)
        lines = []
        for step in history:
            lines.append(f"{_hands(step.before, seats)} {_team_text(step, seats)}")
        lines.append(_hands(state, seats))
        return " / ".join(lines)

    return information


def _hands(state: Any, seats: Sequence[int]) -> str:
    """The team's hands (``state`` is an :class:`OmensState`)."""
    return ",".join(f"{seat + 1}:{list(state.hands[seat])}" for seat in seats)


def hidden_game(deals: Sequence[tuple[OmensState, Fraction]], view: View) -> Any:
    """The OpenSpiel game over ``deals`` (states and weights), the team of ``view.seat`` seeing
    what it knows and the other team everything."""
    teams = deals[0][0].teams()
    advised = deals[0][0].team_of(view.seat)
    return make_hidden_game([HiddenDeal(state, weight) for state, weight in deals],
                            _information(advised, teams))


def check_against_imperfect(view: View, budget: Budget | None = None) -> ImperfectCheck:
    """PIMC's action values beside the exact values of the game of imperfect information."""
    view = team_view(with_revealed(view))
    count = consistent_count(view)
    if count > MAX_DEALS:
        raise AdviceError(f"{count} ways to place the hidden cards: the check solves one game "
                          f"over every deal, at most {MAX_DEALS}")
    found = enumerate_deals(view)
    if not found:
        raise AdviceError("no deal is consistent with this view and its moves")
    advice = advise(view, exact_limit=count, budget=budget, per_move=False)  # exact values
    if advice.unknown:
        raise AdviceError(f"{advice.unknown} PIMC searches ran out of budget: no comparison")
    advised = found[0].state.team_of(view.seat)
    weights = [Fraction(deal.weight).limit_denominator(10**9) for deal in found]
    whole = sequence_form_value(hidden_game(
        [(deal.state, w) for deal, w in zip(found, weights, strict=True)], view))
    checks = []
    for value in advice.actions:
        after = []
        for deal, weight in zip(found, weights, strict=True):
            action = deal.state.string_to_action(value.action)
            after.append((deal.state.child(action), weight))
        exact = sequence_form_value(hidden_game(after, view))
        checks.append(ActionCheck(value.action, value.probability or 0.0,
                                  exact.values[advised]))
    return ImperfectCheck(view.seat, len(found), whole.values[advised], tuple(checks),
                          whole.sequences, whole.information_sets, advice)
