"""The named rule options of Omens: one per question the rulebook leaves open.

The questions (O1-O15) are listed in the rules README; the choices listed at the end of
omens-cards.md are options too. Each option names its settings, its default with the reason, and
the rule text it is about. Two presets: ``rulebook`` (the defaults: the best reading of the
printed rules) and ``gamepark`` (the choices of the published digital adaptation, as listed in
omens-cards.md). ``docs/omens-options.md`` is generated from these declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.options import OptionSpec, RuleOptions, build, describe, option

__all__ = ["PRESETS", "OmensRules", "make_rules", "option_specs"]

_R = "rules file 000"
_C = "omens-cards.md"


@dataclass(frozen=True, slots=True)
class OmensRules(RuleOptions):
    """Every open rule question of Omens as a named setting."""

    absolute_timing: str = option(
        default="now",
        question="O1",
        summary="When The Absolute's exchange happens.",
        settings={
            "now": "at once, when the card is played (like every other immediate card)",
            "end": "at the end of the bout, after the cards return to hand, in play order",
        },
        reason="The card list marks 30-35 with the lightning icon of immediate cards.",
        source=f"{_R}, 'Special Card Effects: The Absolute'; {_C}, timing column",
    )
    absolute_exchange: str = option(
        default="secret",
        question="O2",
        summary="Whether the target of The Absolute sees the card it receives before giving one.",
        settings={
            "secret": "both cards are chosen at once, face down (a simultaneous decision)",
            "open": "house variant: the Absolute's player gives first, the target answers",
        },
        reason="Printed: 'Exchange the cards simultaneously and secretly'.",
        source=f"{_R}, 'Special Card Effects: The Absolute'",
    )
    law_binds: str = option(
        default="every_placement",
        question="O3",
        summary="Which placements after Law must follow its constraint.",
        settings={
            "every_placement": "every card placed from a hand after Law, whatever the reason "
            "(normal turn, Dream's placement, Wrath's replay, Betrayal's gift)",
            "turns_only": "only the cards played on a normal turn",
        },
        reason="'Everyone must, if possible, play a card lower or higher': any card played.",
        source=f"{_R}, 'Special Card Effects: Law'",
    )
    law_after_jealousy: str = option(
        default="stays",
        question="O3",
        summary="Whether Law's constraint survives Jealousy swapping Law to another place.",
        settings={
            "stays": "Law is still in play, so its constraint stays",
            "ends": "moving Law ends its constraint, as taking it away does",
        },
        reason="Only Wrath and Betrayal are said to end it; after Jealousy, Law is still in play.",
        source=f"{_R}, 'Wrath', 'Betrayal', 'Jealousy'",
    )
    law_when_last: str = option(
        default="choose",
        question="O3",
        summary="Whether Law asks for 'higher' or 'lower' when nobody is left to play.",
        settings={
            "choose": "the Law player always chooses (the choice binds nobody)",
            "skip": "Law does nothing when no one is left to play (no choice is made)",
        },
        reason="'you choose which' is part of playing Law; the choice is harmless when idle.",
        source=f"{_R}, 'Law'; {_C}, last paragraph (digital adaptation)",
    )
    wrath_replay: str = option(
        default="forbidden",
        question="O4",
        summary="Whether the card Wrath sends back may be the very card played again.",
        settings={
            "forbidden": "'They must play another card': a different card if they have one",
            "allowed": "any card of the hand, the returned one included",
        },
        reason="'another card' reads as a different card; the digital adaptation agrees.",
        source=f"{_R}, 'Wrath'",
    )
    jealousy_own_card: str = option(
        default="allowed",
        question="O5",
        summary="Whether Jealousy may swap with a card lying in front of its own player.",
        settings={
            "allowed": "any other card in play",
            "forbidden": "only a card in front of another player",
        },
        reason="Printed: 'Exchange this card with another card already in play' (any card).",
        source=f"{_R}, 'Jealousy'",
    )
    dream_target_turn: str = option(
        default="placement_is_turn",
        question="O6",
        summary="Whether Dream's target still takes a normal turn later in the bout.",
        settings={
            "placement_is_turn": "the card placed in front of the Dream player is the target's "
            "play for this bout",
            "plays_again": "the target also plays a card on their own turn later",
        },
        reason="The target must not have played yet, so the placement is their play: every "
        "player places one card per bout.",
        source=f"{_R}, 'Dream'; 'Game Sequence'",
    )
    now_resolver: str = option(
        default="position",
        question="O6",
        summary="Who resolves an immediate card placed in front of someone by Dream or Betrayal.",
        settings={
            "position": "the player the card lies in front of",
            "placer": "the player who placed it",
        },
        reason="Printed for Betrayal ('They then resolve the card's effect'); the digital "
        "adaptation does the same for Dream.",
        source=f"{_R}, 'Betrayal', 'Dream'; {_C}",
    )
    betrayal_give_back: str = option(
        default="allowed",
        question="O7",
        summary="Whether Betrayal may give back the very card it just took.",
        settings={
            "allowed": "any card of the hand, the taken one included",
            "forbidden": "a different card (no effect if the taken card is the only one)",
        },
        reason="Printed: 'play a card from your hand': the taken card is in the hand.",
        source=f"{_R}, 'Betrayal'",
    )
    card_owner: str = option(
        default="position",
        question="O8",
        summary="Whose card a card in play is for winning the bout, Pride, Luck and Jealousy.",
        settings={
            "position": "the player it lies in front of",
            "placer": "the player who placed it",
        },
        reason="The printed clarification makes cards follow position when they go back to hand.",
        source=f"{_R}, 'How a Bout Is Resolved'; {_C}, clarifications",
    )
    return_to: str = option(
        default="position",
        question="O8",
        summary="To whose hand a card not discarded goes back.",
        settings={
            "position": "the hand of the player it lies in front of (official clarification)",
            "placer": "house variant: the hand of the player who placed it",
        },
        reason="Official clarification: 'the hand of the player they lie in front of'.",
        source=f"{_C}, 'What the printed clarifications settle'",
    )
    sadness_lone_card: str = option(
        default="wins",
        question="O9",
        summary="Sadness when it is the only card in play.",
        settings={
            "wins": "a lone card wins anyway (and is discarded as the winning card)",
            "discarded_no_winner": "the lone card cannot win; it is discarded all the same (a "
            "card goes every bout) and the leader leads again",
        },
        reason="'There will always be at least 1 card discarded in each bout'.",
        source=f"{_R}, 'How a Bout Is Resolved', note; 'Sadness'",
    )
    fear_pass_on: str = option(
        default="no",
        question="O10",
        summary="Whether 'discard the highest/lowest X' passes to the next card when it is Fear.",
        settings={
            "no": "the effect picks Fear and is ignored: nothing is discarded by it",
            "yes": "the effect skips Fear and discards the next highest/lowest card",
        },
        reason="'Ignore any effect that asks you to discard Fear'; the digital adaptation agrees.",
        source=f"{_R}, 'Fear'; {_C}",
    )
    luck_chooser: str = option(
        default="owner",
        question="O11",
        summary="Who chooses the card Luck makes a player discard.",
        settings={
            "owner": "the player who discards chooses any card but Fear",
            "random": "a card (never Fear) drawn at random from that hand",
        },
        reason="'discard a card from your hand': you choose; the digital adaptation agrees.",
        source=f"{_R}, 'Luck'",
    )
    luck_timing: str = option(
        default="before_return",
        question="O11",
        summary="Whether Luck's discard is taken before or after the cards go back to hand.",
        settings={
            "before_return": "with the other discards, from the hand as it is",
            "after_return": "after the cards that were not discarded are back in hand",
        },
        reason="Discards are simultaneous; cards go back to hand after them.",
        source=f"{_R}, 'How a Bout Is Resolved'; 'Luck'",
    )
    zero_cards: str = option(
        default="luck_only",
        question="O12",
        summary="Whether a player left with 0 cards for a reason other than Luck wins the round.",
        settings={
            "luck_only": "only Luck's 0 cards win; another player at 0 sits out the round",
            "any": "any player at 0 cards wins as Luck's does",
        },
        reason="The win condition is 1 card; only Luck is given the 0-card win.",
        source=f"{_R}, 'Goal of the Game', 'Luck', 'End of a Round'",
    )
    pride_next_round: str = option(
        default="no",
        question="O13",
        summary="Whether Pride also chooses who starts the next round.",
        settings={
            "no": "the player who won the round starts the next one",
            "yes": "Pride's choice of leader also holds across the round end",
            "unless_luck": "Pride's choice holds across the round end, unless a player "
            "discarded a card from hand because of Luck in the bout that ended the round: then "
            "the round winner starts",
            "unless_luck_discarded": "Pride's choice holds across the round end, unless Luck "
            "was discarded in the bout that ended the round, whether or not its player had a "
            "card to discard (a hand of only Fear has none): then the round winner starts "
            "(what the published digital adaptation does)",
        },
        reason="Printed: 'The player who won the round for their team begins the first bout'.",
        source=f"{_R}, 'End of a Round'; {_C}",
    )
    reshuffle_absolutes: str = option(
        default="used_only",
        question="O13",
        summary="Which Absolutes are shuffled into the deck for the next round (4-5 players).",
        settings={
            "used_only": "only those dealt in the first round; the others stay in the box",
            "all": "all six",
        },
        reason="Printed: 'all The Absolute cards used in the previous round'.",
        source=f"{_R}, 'Setup', 'End of a Round'",
    )
    extreme_includes_self: str = option(
        default="yes",
        question="C1",
        summary="Whether 'discard the highest/lowest X card in play' can pick the card itself.",
        settings={
            "yes": "the card is in play, so it can be picked (Harmony can discard itself)",
            "no": "only the other cards are candidates",
        },
        reason="'in play' means every card placed in front of the players, this one included.",
        source=f"{_R}, 'Details' ('in play'); {_C}",
    )


PRESETS: Final[Mapping[str, Mapping[str, str]]] = {
    "rulebook": {},
    "gamepark": {
        "fear_pass_on": "no",
        "wrath_replay": "forbidden",
        "betrayal_give_back": "forbidden",
        "jealousy_own_card": "forbidden",
        "now_resolver": "position",
        "law_when_last": "skip",
        "pride_next_round": "unless_luck_discarded",
        "luck_chooser": "owner",
    },
}
"""``rulebook``: the defaults. ``gamepark``: the digital adaptation's choices (omens-cards.md)."""


def make_rules(
    preset: str | None = "rulebook",
    overrides: Mapping[str, Any] | None = None,
    *,
    where: str = "rules",
) -> OmensRules:
    """Rule options from a preset plus named overrides (errors name ``where``)."""
    return build(OmensRules, PRESETS, preset, overrides, where=where)


def option_specs() -> tuple[OptionSpec, ...]:
    return describe(OmensRules)
