"""The canonical action notation of Omen.

An action is a verb and its arguments separated by single spaces, e.g. ``play hoplite 2``
(play the card ``hoplite`` to city 2) or ``keep 1@3:hoplite`` (keep seat 1's Hoplite in city 3
after a war). Cities are ``1``-``3``, seats ``1``-``2``, cards are catalogue ids. A unit in a
city is written ``SEAT@CITY:CARD``, with a trailing ``!`` while it is Enraged.

Every legal action has exactly one text form and :func:`parse_action` reads it back
(``docs/omen.md`` lists every verb).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import InvalidActionError, shown

__all__ = ["VERBS", "Action", "UnitRef", "parse_action", "parse_unit_ref"]

_CARD = r"[a-z0-9][a-z0-9-]*"
_CARD_RE = re.compile(rf"^{_CARD}$")
_REF_RE = re.compile(rf"^([12])@([123]):({_CARD})(!?)$")
_CITY = ("1", "2", "3")


@dataclass(frozen=True, slots=True, order=True)
class UnitRef:
    """A unit in a city: its owner (0/1), city (0-2), card id and Enraged flag."""

    owner: int
    city: int
    card: str
    enraged: bool = False

    def __str__(self) -> str:
        return f"{self.owner + 1}@{self.city + 1}:{self.card}{'!' if self.enraged else ''}"


def parse_unit_ref(text: str) -> UnitRef:
    match = _REF_RE.match(text)
    if match is None:
        raise InvalidActionError(
            f"{shown(text)}: a unit is written SEAT@CITY:CARD (e.g. 2@1:hoplite, '!' if Enraged)"
        )
    seat, city, card, rage = match.groups()
    return UnitRef(int(seat) - 1, int(city) - 1, card, rage == "!")


_ARG_KINDS: Mapping[str, tuple[str, ...]] = {
    "wealth": ("resource",),
    "barter": ("card",),
    "play": ("card", "city"),
    "dirge": ("card",),
    "invoke": ("card",),
    "reward": ("card",),
    "hero": ("card",),
    "done": (),
    "activate": ("unit",),
    "rotate": ("card",),
    "relic": ("card",),
    "to": ("city",),
    "challenge": ("card",),
    "war": ("city",),
    "keep": ("unit",),
    "offer": ("card",),
    "take": ("resource",),
    "discard": ("card",),
    "bury": ("card",),
    "yes": (),
    "no": (),
    "city": ("city",),
    "destroy": ("unit",),
    "move": ("unit",),
    "enrage": ("unit",),
    "return": ("card",),
    "steal": ("card",),
    "choose": ("option",),
    "draw": ("card",),
    "reshuffle": ("card",),
    "reveal": ("card",),
    "recall": ("unit",),
    "swap": ("unit",),
    "with": ("unit",),
}

VERBS: Mapping[str, str] = {
    "wealth": "wealth card|coin: spend a Wealth action on a card or a coin",
    "barter": "barter CARD: discard a BARTER unit for an extra Wealth action",
    "play": "play CARD CITY: pay the cost and put the unit on your side of the city",
    "dirge": "dirge CARD: pay a Beast's cost, discard it and resolve its DIRGE ability",
    "invoke": "invoke CARD: pay a Spirit's INVOKE cost, resolve both abilities, discard it",
    "reward": "reward CARD: use a Reward (once per Surge step)",
    "hero": "hero CARD: discard a Hero for its ability",
    "done": "done: end the current choice (the step, the window, the optional activations)",
    "activate": "activate UNIT: resolve that unit's ability next (Portent, end of Surge)",
    "rotate": "rotate FEAT: take a Relic instead of turning that achieved Feat face down",
    "relic": "relic CARD: the Relic taken",
    "to": "to CITY: the destination of a unit being moved, returned or a Relic placed",
    "challenge": "challenge CARD: complete a Challenge whose condition holds",
    "war": "war CITY: resolve that war-torn city next",
    "keep": "keep UNIT: keep this unit after the war (one at a time)",
    "offer": "offer CARD: discard the card to the gods for its Offering value",
    "take": "take card|coin: one unit of the Offering value",
    "discard": "discard CARD: discard a card from your hand (hand limit, forced discard)",
    "bury": "bury CARD: play a Reward from hand face down without its ability (hand limit)",
    "yes": "yes: carry out an optional ('may') part of an ability",
    "no": "no: skip an optional part of an ability",
    "city": "city CITY: the city an ability chooses",
    "destroy": "destroy UNIT: the unit an ability destroys",
    "move": "move UNIT: the unit an ability moves (then 'to CITY')",
    "enrage": "enrage UNIT: the unit an ability Enrages",
    "return": "return CARD: the card an ability takes back from the discard pile",
    "steal": "steal CARD: the card an ability takes from the opponent's hand",
    "choose": "choose 1|2: which of a Spirit's two DEPLOY abilities to resolve",
    "draw": "draw CARD (chance): the card drawn from the shuffled deck",
    "reshuffle": "reshuffle CARD (chance): the discard pile becomes the deck; CARD is drawn",
    "reveal": "reveal CARD (chance): the face-down Reward turned up",
    "recall": "recall UNIT: the unit an ability returns to its owner's hand",
    "swap": "swap UNIT: the first unit an ability makes exchange cities (then 'with UNIT')",
    "with": "with UNIT: the unit the first one exchanges cities with",
}
"""Every verb of the notation and what it means."""


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """An action: a verb and its argument words. ``str(action)`` is the canonical text."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.verb, *self.args))

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> Action:
        return parse_action(text)

    # -- typed arguments: the words are the canonical text, these read and write them ----------

    @staticmethod
    def on(verb: str, unit: UnitRef) -> Action:
        """An action whose argument is a unit (``destroy 2@1:hoplite``)."""
        return Action(verb, (str(unit),))

    @staticmethod
    def at_city(verb: str, city: int) -> Action:
        """An action whose argument is a city, given from 0 (``war 1`` for the first city)."""
        return Action(verb, (str(city + 1),))

    @staticmethod
    def play(card: str, city: int) -> Action:
        """Deploy ``card`` into ``city`` (from 0): ``play hoplite 2``."""
        return Action("play", (card, str(city + 1)))

    def unit(self, index: int = 0) -> UnitRef:
        """The unit written as argument ``index``."""
        return parse_unit_ref(self.args[index])

    def city(self, index: int = 0) -> int:
        """The city written as argument ``index``, from 0."""
        return int(self.args[index]) - 1

    def card(self, index: int = 0) -> str:
        """The card id written as argument ``index``."""
        return self.args[index]

    def word(self, index: int = 0) -> str:
        """Argument ``index`` as written: a literal choice (``card``, ``coin``, ``1``, ``2``)."""
        return self.args[index]


def _check_arg(text: str, kind: str, arg: str) -> None:
    ok = {
        "resource": arg in ("card", "coin"),
        "card": bool(_CARD_RE.match(arg)),
        "city": arg in _CITY,
        "unit": bool(_REF_RE.match(arg)),
        "option": arg in ("1", "2"),
    }[kind]
    if not ok:
        expected = {
            "resource": "'card' or 'coin'",
            "card": "a card id (lowercase letters, digits, hyphens)",
            "city": "a city 1, 2 or 3",
            "unit": "a unit SEAT@CITY:CARD",
            "option": "1 or 2",
        }[kind]
        raise InvalidActionError(f"{shown(text)}: {shown(arg)} is not {expected}")


def parse_action(text: str) -> Action:
    """Read an action in canonical notation (syntax only; legality is the state's business)."""
    words = text.split(" ")
    verb = words[0]
    if verb not in _ARG_KINDS:
        hint = did_you_mean(verb, _ARG_KINDS)
        raise InvalidActionError(
            f"{shown(text)}: unknown verb {shown(verb)}; "
            + (hint if hint else f"known verbs: {', '.join(sorted(_ARG_KINDS))}")
        )
    kinds = _ARG_KINDS[verb]
    args = tuple(words[1:])
    if len(args) != len(kinds) or any(not arg for arg in args):
        usage = VERBS[verb].split(":")[0]
        raise InvalidActionError(
            f"{shown(text)}: {shown(verb)} takes {len(kinds)} argument(s) separated by single "
            f"spaces ({usage})"
        )
    for kind, arg in zip(kinds, args, strict=True):
        _check_arg(text, kind, arg)
    return Action(verb, args)
