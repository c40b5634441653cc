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

from omen_solver.core.options import (
    OptionSpec,
    RuleOptions,
    Setting,
    build,
    describe,
    option,
    preset,
)

__all__ = [
    "PRESETS",
    "AbsoluteExchange",
    "AbsoluteTiming",
    "BetrayalGiveBack",
    "CardOwner",
    "DreamTargetTurn",
    "ExtremeIncludesSelf",
    "FearPassOn",
    "JealousyOwnCard",
    "LawAfterJealousy",
    "LawBinds",
    "LawWhenLast",
    "LuckChooser",
    "LuckTiming",
    "NowResolver",
    "OmensRules",
    "PrideNextRound",
    "ReshuffleAbsolutes",
    "ReturnTo",
    "SadnessLoneCard",
    "WrathReplay",
    "ZeroCards",
    "make_rules",
    "option_specs",
]

_R = "rules file 000"
_C = "omens-cards.md"


class AbsoluteTiming(Setting):
    """The settings of ``absolute_timing`` (O1)."""

    NOW = "now"
    END = "end"


class AbsoluteExchange(Setting):
    """The settings of ``absolute_exchange`` (O2)."""

    SECRET = "secret"
    OPEN = "open"


class LawBinds(Setting):
    """The settings of ``law_binds`` (O3)."""

    EVERY_PLACEMENT = "every_placement"
    TURNS_ONLY = "turns_only"


class LawAfterJealousy(Setting):
    """The settings of ``law_after_jealousy`` (O3)."""

    STAYS = "stays"
    ENDS = "ends"


class LawWhenLast(Setting):
    """The settings of ``law_when_last`` (O3)."""

    CHOOSE = "choose"
    SKIP = "skip"


class WrathReplay(Setting):
    """The settings of ``wrath_replay`` (O4)."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"


class JealousyOwnCard(Setting):
    """The settings of ``jealousy_own_card`` (O5)."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class DreamTargetTurn(Setting):
    """The settings of ``dream_target_turn`` (O6)."""

    PLACEMENT_IS_TURN = "placement_is_turn"
    PLAYS_AGAIN = "plays_again"


class NowResolver(Setting):
    """The settings of ``now_resolver`` (O6)."""

    POSITION = "position"
    PLACER = "placer"


class BetrayalGiveBack(Setting):
    """The settings of ``betrayal_give_back`` (O7)."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class CardOwner(Setting):
    """The settings of ``card_owner`` (O8)."""

    POSITION = "position"
    PLACER = "placer"


class ReturnTo(Setting):
    """The settings of ``return_to`` (O8)."""

    POSITION = "position"
    PLACER = "placer"


class SadnessLoneCard(Setting):
    """The settings of ``sadness_lone_card`` (O9)."""

    WINS = "wins"
    DISCARDED_NO_WINNER = "discarded_no_winner"


class FearPassOn(Setting):
    """The settings of ``fear_pass_on`` (O10)."""

    NO = "no"
    YES = "yes"


class LuckChooser(Setting):
    """The settings of ``luck_chooser`` (O11)."""

    OWNER = "owner"
    RANDOM = "random"


class LuckTiming(Setting):
    """The settings of ``luck_timing`` (O11)."""

    BEFORE_RETURN = "before_return"
    AFTER_RETURN = "after_return"


class ZeroCards(Setting):
    """The settings of ``zero_cards`` (O12)."""

    LUCK_ONLY = "luck_only"
    ANY = "any"


class PrideNextRound(Setting):
    """The settings of ``pride_next_round`` (O13)."""

    NO = "no"
    YES = "yes"
    UNLESS_LUCK = "unless_luck"
    UNLESS_LUCK_DISCARDED = "unless_luck_discarded"


class ReshuffleAbsolutes(Setting):
    """The settings of ``reshuffle_absolutes`` (O13)."""

    USED_ONLY = "used_only"
    ALL = "all"


class ExtremeIncludesSelf(Setting):
    """The settings of ``extreme_includes_self`` (C1)."""

    YES = "yes"
    NO = "no"


@dataclass(frozen=True, slots=True)
class OmensRules(RuleOptions):
    """Every open rule question of Omens as a named setting."""

    absolute_timing: AbsoluteTiming = option(
        default=AbsoluteTiming.NOW,
        question="O1",
        summary="When The Absolute's exchange happens.",
        settings={
            AbsoluteTiming.NOW: "at once, when the card is played (like every other immediate "
                "card)",
            AbsoluteTiming.END: "at the end of the bout, after the cards return to hand, in play "
                "order",
        },
        reason="The card list marks 30-35 with the lightning icon of immediate cards.",
        source=f"{_R}, 'Special Card Effects: The Absolute'; {_C}, timing column",
    )
    absolute_exchange: AbsoluteExchange = option(
        default=AbsoluteExchange.SECRET,
        question="O2",
        summary="Whether the target of The Absolute sees the card it receives before giving one.",
        settings={
            AbsoluteExchange.SECRET: "both cards are chosen at once, face down (a simultaneous "
                "decision)",
            AbsoluteExchange.OPEN: "house variant: the Absolute's player gives first, the target "
                "answers",
        },
        reason="Printed: 'Exchange the cards simultaneously and secretly'.",
        source=f"{_R}, 'Special Card Effects: The Absolute'",
    )
    law_binds: LawBinds = option(
        default=LawBinds.EVERY_PLACEMENT,
        question="O3",
        summary="Which placements after Law must follow its constraint.",
        settings={
            LawBinds.EVERY_PLACEMENT: (
                "every card placed from a hand after Law, whatever the reason "
                "(normal turn, Dream's placement, Wrath's replay, Betrayal's gift)"
            ),
            LawBinds.TURNS_ONLY: "only the cards played on a normal turn",
        },
        reason="'Everyone must, if possible, play a card lower or higher': any card played.",
        source=f"{_R}, 'Special Card Effects: Law'",
    )
    law_after_jealousy: LawAfterJealousy = option(
        default=LawAfterJealousy.STAYS,
        question="O3",
        summary="Whether Law's constraint survives Jealousy swapping Law to another place.",
        settings={
            LawAfterJealousy.STAYS: "Law is still in play, so its constraint stays",
            LawAfterJealousy.ENDS: "moving Law ends its constraint, as taking it away does",
        },
        reason="Only Wrath and Betrayal are said to end it; after Jealousy, Law is still in play.",
        source=f"{_R}, 'Wrath', 'Betrayal', 'Jealousy'",
    )
    law_when_last: LawWhenLast = option(
        default=LawWhenLast.CHOOSE,
        question="O3",
        summary="Whether Law asks for 'higher' or 'lower' when nobody is left to play.",
        settings={
            LawWhenLast.CHOOSE: "the Law player always chooses (the choice binds nobody)",
            LawWhenLast.SKIP: "Law does nothing when no one is left to play (no choice is made)",
        },
        reason="'you choose which' is part of playing Law; the choice is harmless when idle.",
        source=f"{_R}, 'Law'; {_C}, last paragraph (digital adaptation)",
    )
    wrath_replay: WrathReplay = option(
        default=WrathReplay.FORBIDDEN,
        question="O4",
        summary="Whether the card Wrath sends back may be the very card played again.",
        settings={
            WrathReplay.FORBIDDEN: "'They must play another card': a different card if they have "
                "one",
            WrathReplay.ALLOWED: "any card of the hand, the returned one included",
        },
        reason="'another card' reads as a different card; the digital adaptation agrees.",
        source=f"{_R}, 'Wrath'",
    )
    jealousy_own_card: JealousyOwnCard = option(
        default=JealousyOwnCard.ALLOWED,
        question="O5",
        summary="Whether Jealousy may swap with a card lying in front of its own player.",
        settings={
            JealousyOwnCard.ALLOWED: "any other card in play",
            JealousyOwnCard.FORBIDDEN: "only a card in front of another player",
        },
        reason="Printed: 'Exchange this card with another card already in play' (any card).",
        source=f"{_R}, 'Jealousy'",
    )
    dream_target_turn: DreamTargetTurn = option(
        default=DreamTargetTurn.PLACEMENT_IS_TURN,
        question="O6",
        summary="Whether Dream's target still takes a normal turn later in the bout.",
        settings={
            DreamTargetTurn.PLACEMENT_IS_TURN: (
                "the card placed in front of the Dream player is the target's "
                "play for this bout"
            ),
            DreamTargetTurn.PLAYS_AGAIN: "the target also plays a card on their own turn later",
        },
        reason="The target must not have played yet, so the placement is their play: every "
        "player places one card per bout.",
        source=f"{_R}, 'Dream'; 'Game Sequence'",
    )
    now_resolver: NowResolver = option(
        default=NowResolver.POSITION,
        question="O6",
        summary="Who resolves an immediate card placed in front of someone by Dream or Betrayal.",
        settings={
            NowResolver.POSITION: "the player the card lies in front of",
            NowResolver.PLACER: "the player who placed it",
        },
        reason="Printed for Betrayal ('They then resolve the card's effect'); the digital "
        "adaptation does the same for Dream.",
        source=f"{_R}, 'Betrayal', 'Dream'; {_C}",
    )
    betrayal_give_back: BetrayalGiveBack = option(
        default=BetrayalGiveBack.ALLOWED,
        question="O7",
        summary="Whether Betrayal may give back the very card it just took.",
        settings={
            BetrayalGiveBack.ALLOWED: "any card of the hand, the taken one included",
            BetrayalGiveBack.FORBIDDEN: "a different card (no effect if the taken card is the "
                "only one)",
        },
        reason="Printed: 'play a card from your hand': the taken card is in the hand.",
        source=f"{_R}, 'Betrayal'",
    )
    card_owner: CardOwner = option(
        default=CardOwner.POSITION,
        question="O8",
        summary="Whose card a card in play is for winning the bout, Pride, Luck and Jealousy.",
        settings={
            CardOwner.POSITION: "the player it lies in front of",
            CardOwner.PLACER: "the player who placed it",
        },
        reason="The printed clarification makes cards follow position when they go back to hand.",
        source=f"{_R}, 'How a Bout Is Resolved'; {_C}, clarifications",
    )
    return_to: ReturnTo = option(
        default=ReturnTo.POSITION,
        question="O8",
        summary="To whose hand a card not discarded goes back.",
        settings={
            ReturnTo.POSITION: "the hand of the player it lies in front of (official "
                "clarification)",
            ReturnTo.PLACER: "house variant: the hand of the player who placed it",
        },
        reason="Official clarification: 'the hand of the player they lie in front of'.",
        source=f"{_C}, 'What the printed clarifications settle'",
    )
    sadness_lone_card: SadnessLoneCard = option(
        default=SadnessLoneCard.WINS,
        question="O9",
        summary="Sadness when it is the only card in play.",
        settings={
            SadnessLoneCard.WINS: "a lone card wins anyway (and is discarded as the winning card)",
            SadnessLoneCard.DISCARDED_NO_WINNER: (
                "the lone card cannot win; it is discarded all the same (a "
                "card goes every bout) and the leader leads again"
            ),
        },
        reason="'There will always be at least 1 card discarded in each bout'.",
        source=f"{_R}, 'How a Bout Is Resolved', note; 'Sadness'",
    )
    fear_pass_on: FearPassOn = option(
        default=FearPassOn.NO,
        question="O10",
        summary="Whether 'discard the highest/lowest X' passes to the next card when it is Fear.",
        settings={
            FearPassOn.NO: "the effect picks Fear and is ignored: nothing is discarded by it",
            FearPassOn.YES: "the effect skips Fear and discards the next highest/lowest card",
        },
        reason="'Ignore any effect that asks you to discard Fear'; the digital adaptation agrees.",
        source=f"{_R}, 'Fear'; {_C}",
    )
    luck_chooser: LuckChooser = option(
        default=LuckChooser.OWNER,
        question="O11",
        summary="Who chooses the card Luck makes a player discard.",
        settings={
            LuckChooser.OWNER: "the player who discards chooses any card but Fear",
            LuckChooser.RANDOM: "a card (never Fear) drawn at random from that hand",
        },
        reason="'discard a card from your hand': you choose; the digital adaptation agrees.",
        source=f"{_R}, 'Luck'",
    )
    luck_timing: LuckTiming = option(
        default=LuckTiming.BEFORE_RETURN,
        question="O11",
        summary="Whether Luck's discard is taken before or after the cards go back to hand.",
        settings={
            LuckTiming.BEFORE_RETURN: "with the other discards, from the hand as it is",
            LuckTiming.AFTER_RETURN: "after the cards that were not discarded are back in hand",
        },
        reason="Discards are simultaneous; cards go back to hand after them.",
        source=f"{_R}, 'How a Bout Is Resolved'; 'Luck'",
    )
    zero_cards: ZeroCards = option(
        default=ZeroCards.LUCK_ONLY,
        question="O12",
        summary="Whether a player left with 0 cards for a reason other than Luck wins the round.",
        settings={
            ZeroCards.LUCK_ONLY: "only Luck's 0 cards win; another player at 0 sits out the round",
            ZeroCards.ANY: "any player at 0 cards wins as Luck's does",
        },
        reason="The win condition is 1 card; only Luck is given the 0-card win.",
        source=f"{_R}, 'Goal of the Game', 'Luck', 'End of a Round'",
    )
    pride_next_round: PrideNextRound = option(
        default=PrideNextRound.NO,
        question="O13",
        summary="Whether Pride also chooses who starts the next round.",
        settings={
            PrideNextRound.NO: "the player who won the round starts the next one",
            PrideNextRound.YES: "Pride's choice of leader also holds across the round end",
            PrideNextRound.UNLESS_LUCK: (
                "Pride's choice holds across the round end, unless a player "
                "discarded a card from hand because of Luck in the bout that ended the round: then "
                "the round winner starts"
            ),
            PrideNextRound.UNLESS_LUCK_DISCARDED: (
                "Pride's choice holds across the round end, unless Luck "
                "was discarded in the bout that ended the round, whether or not its player had a "
                "card to discard (a hand of only Fear has none): then the round winner starts "
                "(what the published digital adaptation does)"
            ),
        },
        reason="Printed: 'The player who won the round for their team begins the first bout'.",
        source=f"{_R}, 'End of a Round'; {_C}",
    )
    reshuffle_absolutes: ReshuffleAbsolutes = option(
        default=ReshuffleAbsolutes.USED_ONLY,
        question="O13",
        summary="Which Absolutes are shuffled into the deck for the next round (4-5 players).",
        settings={
            ReshuffleAbsolutes.USED_ONLY: "only those dealt in the first round; the others stay "
                "in the box",
            ReshuffleAbsolutes.ALL: "all six",
        },
        reason="Printed: 'all The Absolute cards used in the previous round'.",
        source=f"{_R}, 'Setup', 'End of a Round'",
    )
    extreme_includes_self: ExtremeIncludesSelf = option(
        default=ExtremeIncludesSelf.YES,
        question="C1",
        summary="Whether 'discard the highest/lowest X card in play' can pick the card itself.",
        settings={
            ExtremeIncludesSelf.YES: "the card is in play, so it can be picked (Harmony can "
                "discard itself)",
            ExtremeIncludesSelf.NO: "only the other cards are candidates",
        },
        reason="'in play' means every card placed in front of the players, this one included.",
        source=f"{_R}, 'Details' ('in play'); {_C}",
    )


PRESETS: Final[Mapping[str, Mapping[str, Setting]]] = {
    "rulebook": {},
    "gamepark": preset(
        OmensRules,
        FearPassOn.NO,
        WrathReplay.FORBIDDEN,
        BetrayalGiveBack.FORBIDDEN,
        JealousyOwnCard.FORBIDDEN,
        NowResolver.POSITION,
        LawWhenLast.SKIP,
        PrideNextRound.UNLESS_LUCK_DISCARDED,
        LuckChooser.OWNER,
    ),
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
