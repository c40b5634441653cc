"""The zones of an Omen table as immutable values: units, cities, players, the turn so far, and
who acts next (:class:`Prompt`); the sorted-multiset helpers every rule module uses.

:class:`omen_solver.omen.state.OmenState` holds them; the rule modules (frames, effects, war,
scoring...) build and read them without importing the state class at run time, so that the
state can import the engine that plays it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, TypeVar

from omen_solver.core.game import TERMINAL
from omen_solver.omen.notation import Action

__all__ = [
    "CAPACITY",
    "HIDDEN",
    "TERMINAL_PROMPT",
    "City",
    "Player",
    "Prompt",
    "TurnInfo",
    "Unit",
    "add_card",
    "quick_replace",
    "remove_card",
]

CAPACITY = 5
"""City capacity: at most 5 units per player per city, COLOSSAL units counting 2 (001 Cities;
003 Step 2; 004 Surge Step)."""

HIDDEN = "?"
"""A face-down Reward whose identity is not known yet (revealed by a chance event)."""


_T = TypeVar("_T")
_REPLACERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _replacer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy-with-changes function written for ``cls``'s fields (as ``dataclasses`` writes
    ``__init__``), so no field list is walked per call."""
    names = [item.name for item in fields(cls)]  # its fields, not its class variables
    lines = ["def replace(self, changes):", "    new = new_object(cls)"]
    lines += [f"    set_field(new, {name!r}, self.{name})" for name in names]
    lines += ["    for name, value in changes.items():", "        set_field(new, name, value)",
              "    return new"]
    scope: dict[str, Any] = {"new_object": object.__new__, "cls": cls,
                             "set_field": object.__setattr__}
    exec("\n".join(lines), scope)  # the code is built from the class's own field names
    function: Callable[[Any, dict[str, Any]], Any] = scope["replace"]
    return function


def quick_replace(value: _T, **changes: Any) -> _T:
    """``dataclasses.replace`` for the frozen, slotted values of this module, without its
    per-call introspection (the search builds millions of states)."""
    cls = type(value)
    replacer = _REPLACERS.get(cls)
    if replacer is None:
        replacer = _REPLACERS[cls] = _replacer(cls)
    result: _T = replacer(value, changes)
    return result


def add_card(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The sorted multiset ``cards`` with one more ``card``."""
    items = list(cards)
    bisect.insort(items, card)
    return tuple(items)


def remove_card(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The sorted multiset ``cards`` with one ``card`` less (it must be there)."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


@dataclass(frozen=True, slots=True, order=True)
class Unit:
    """A unit card lying in a city."""

    card: str
    enraged: bool = False
    spent: bool = False
    """Its Portent or end-of-Surge ability has resolved in the current step."""


@dataclass(frozen=True, slots=True)
class City:
    """One city: each player's side (sorted units), the Reward stack (top first), a Relic."""

    sides: tuple[tuple[Unit, ...], tuple[Unit, ...]] = ((), ())
    rewards: tuple[str, ...] = ()
    relic: str | None = None
    relic_owner: int = 0

    def with_side(self, player: int, units: tuple[Unit, ...]) -> City:
        sides = (units, self.sides[1]) if player == 0 else (self.sides[0], units)
        return quick_replace(self, sides=sides)


@dataclass(frozen=True, slots=True)
class Player:
    """One player's hand, coins and play area."""

    coins: int = 0
    hand: tuple[str, ...] = ()
    """Unit cards in hand (sorted ids)."""
    rewards: tuple[str, ...] = ()
    """Reward cards in hand (R12 ``hand``), unused: 2 VP."""
    rewards_unused: tuple[str, ...] = ()
    """Rewards in the play area, unused (R12 ``play-area``): 2 VP."""
    rewards_used: tuple[str, ...] = ()
    """Rewards used (or buried by the hand limit): 1 VP."""
    feats: tuple[str, ...] = ()
    """Achieved Feats, turned face down: 2 VP."""
    feats_rotated: tuple[str, ...] = ()
    """Achieved Feats rotated for a Relic: 1 VP."""
    challenges: tuple[str, ...] = ()
    """Completed Challenges, face down: 3 VP."""
    vp_tokens: int = 0
    rituals: tuple[str, ...] = ()
    """Priestesses removed by RITUAL, face down under their VP token."""

    def hand_size(self) -> int:
        return len(self.hand) + len(self.rewards)

    def achieved_feats(self) -> int:
        return len(self.feats) + len(self.feats_rotated)


@dataclass(frozen=True, slots=True)
class TurnInfo:
    """What the current turn has done so far."""

    number: int = 1
    first: bool = False
    """This is the first player's first turn (2 Wealth actions)."""
    step: str = "wealth"
    reward_used: bool = False
    forced: tuple[int, int] = (0, 0)
    """Cards each player's abilities made the opponent discard this turn."""
    challenge_done: bool = False
    cost_change: tuple[int, int] = (0, 0)
    """Each player's ``cost_change`` effects of this turn (added to the cost of every play)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """Who acts at the top frame and how: a player's legal actions or chance outcomes."""

    player: int
    actions: tuple[Action, ...]
    probabilities: tuple[Fraction, ...] = ()


TERMINAL_PROMPT = Prompt(TERMINAL, ())
