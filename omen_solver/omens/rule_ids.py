"""The rules of Omens restated, one id per rule, each pointing at its rulebook passage.

Traces cite these ids; ``docs/omens-rules.md`` is generated from this table
(``python -m omen_solver.omens.docgen``) and a test checks that every id is exercised by a test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["RULES", "Rule", "rule"]

_R = "000"
_C = "omens-cards.md"


@dataclass(frozen=True)
class Rule:
    id: str
    statement: str
    source: str


def _table(*rows: tuple[str, str, str]) -> dict[str, Rule]:
    return {rid: Rule(rid, text, source) for rid, text, source in rows}


RULES: Final[Mapping[str, Rule]] = _table(
    # Setup and game
    (
        "setup.absolutes",
        "Each player receives one of the six Absolutes (30-35) face up; with 4 "
        "or 5 players the undealt Absolutes go back to the box for the whole game.",
        f"{_R} Setup",
    ),
    (
        "setup.teams",
        "4-5 players: the highest and the lowest Absolute form one team, the others "
        "the other team. 6 players: 30+35, 31+34, 32+33.",
        f"{_R} Setup",
    ),
    (
        "setup.deal",
        "Deal sizes: 4 players 4 cards each (5 in hand with the Absolute); 5 players 4 "
        "to the three-player team, 3 to the two-player team; 6 players 3 each. Later rounds: 5, "
        "5/4 and 4 cards.",
        f"{_R} Setup; End of a Round",
    ),
    (
        "setup.first_leader",
        "The player with the highest Absolute leads the first bout.",
        f"{_R} Game Sequence",
    ),
    ("game.end", "The first team to win 2 rounds wins the game.", f"{_R} Goal of the Game"),
    (
        "round.new",
        "A new round: shuffle every Arcane card (with the Absolutes used so far) and "
        "deal again; the teams do not change; the player who won the round leads.",
        f"{_R} End of a Round",
    ),
    # Playing a bout
    (
        "bout.turn",
        "Players play one card each in front of themselves, clockwise from the leader.",
        f"{_R} Game Sequence",
    ),
    (
        "bout.turn.empty_hand",
        "A player with no card in hand cannot play and is passed over.",
        f"{_R} Details ('If you cannot apply...')",
    ),
    (
        "bout.now",
        "An immediate ('now') effect resolves at once, completely, before the next player plays.",
        f"{_R} Details",
    ),
    (
        "bout.no_effect",
        "An effect that cannot apply does nothing; the card is still played.",
        f"{_R} Details",
    ),
    (
        "card.law.choose",
        "Law: its resolver chooses 'lower' or 'higher' than Law's value.",
        f"{_R} Law",
    ),
    (
        "card.law.constraint",
        "While Law lies in play, a card placed from a hand must be lower "
        "(higher) than Law if the hand has such a card; otherwise any card.",
        f"{_R} Law",
    ),
    (
        "card.law.ends",
        "Law's constraint ends for the rest of the bout when Law leaves play "
        "(sent back by Wrath, taken by Betrayal).",
        f"{_R} Wrath; Betrayal",
    ),
    ("card.dream.self", "Dream played in front of yourself has no effect.", f"{_R} Dream"),
    (
        "card.dream.target",
        "Dream may be played in front of a player who has not played yet this "
        "bout; that player at once places a card from hand in front of the Dream player.",
        f"{_R} Dream",
    ),
    (
        "card.dream.placement",
        "The card placed because of Dream resolves its immediate effect at once.",
        f"{_R} Dream",
    ),
    (
        "card.wrath.return",
        "Wrath sends a card lying in front of another player back to that player's hand.",
        f"{_R} Wrath",
    ),
    (
        "card.wrath.replay",
        "The player whose card was sent back must play another card in front "
        "of themselves; its immediate effect applies at once.",
        f"{_R} Wrath",
    ),
    (
        "card.betrayal.take",
        "Betrayal takes a card lying in front of another player into the resolver's hand.",
        f"{_R} Betrayal",
    ),
    (
        "card.betrayal.give",
        "Betrayal then plays a card from the resolver's hand in front of that "
        "person, who resolves its immediate effect.",
        f"{_R} Betrayal",
    ),
    (
        "card.jealousy.swap",
        "Jealousy swaps places with another card in play; the card it takes is not resolved again.",
        f"{_R} Jealousy",
    ),
    (
        "card.secret.choose",
        "Secret: choose a player; either they show you a card from their "
        "hand, or you show them one of yours.",
        f"{_C} 24",
    ),
    (
        "card.secret.show",
        "The shown card is chosen by the player who shows it; it stays in hand.",
        f"{_C} 24",
    ),
    (
        "card.absolute.target",
        "The Absolute: choose another player to exchange a card with.",
        f"{_R} The Absolute",
    ),
    (
        "card.absolute.exchange",
        "Both players choose the card they give at once, face down; then the cards are swapped.",
        f"{_R} The Absolute",
    ),
    # End of a bout
    (
        "bout.end",
        "When everyone has played, the bout ends: the winner is found and every "
        "'end' effect resolves, all at the same time.",
        f"{_R} How a Bout Is Resolved",
    ),
    (
        "bout.winner.highest",
        "The highest card in play wins the bout.",
        f"{_R} How a Bout Is Resolved",
    ),
    ("bout.winner.mirror", "With Mirror in play the lowest card wins.", f"{_R} Mirror"),
    ("bout.winner.mirror_over_sadness", "With Mirror in play Sadness is ignored.", f"{_R} Mirror"),
    (
        "bout.winner.sadness",
        "With Sadness in play (and no Mirror) the highest card cannot win: "
        "the second-highest wins.",
        f"{_R} Sadness",
    ),
    (
        "bout.winner.lone_card",
        "A bout with a single card in play: see option sadness_lone_card.",
        f"{_R} How a Bout Is Resolved, note",
    ),
    (
        "bout.winner.owner",
        "The bout is won by the owner of the winning card (option card_owner).",
        f"{_R} How a Bout Is Resolved",
    ),
    ("bout.discard.winner", "The winning card is discarded.", f"{_R} How a Bout Is Resolved"),
    (
        "card.colour.extreme",
        "Life, Death, Lie, Truth, Day, Night, Harmony: discard the "
        "highest/lowest card of a colour (Harmony: of any colour) in play.",
        f"{_C}",
    ),
    ("card.colour.all", "Winter: discard every card of a colour in play.", f"{_C} 27"),
    (
        "card.colour.self",
        "Love, Friendship, Calm, Feast, Hope, Spring, Enigma, Summer, Autumn: "
        "discard this card if its condition holds.",
        f"{_C}",
    ),
    ("card.malice.colours", "Malice counts as green, yellow, red and blue at once.", f"{_C} 17"),
    (
        "bout.discard.simultaneous",
        "All discards happen at once: a discarded card's own effect still applies.",
        f"{_R} How a Bout Is Resolved, IMPORTANT",
    ),
    ("card.fear.protected", "Fear is never discarded by an effect.", f"{_R} Fear"),
    ("card.fear.wins", "Fear that wins the bout is discarded as the winning card.", f"{_R} Fear"),
    (
        "card.luck.discard",
        "If Luck is discarded, the player it lies in front of discards a card "
        "from hand, never Fear.",
        f"{_R} Luck",
    ),
    (
        "bout.return",
        "Every card not discarded goes back to the hand of the player it lies in front of.",
        f"{_C} clarifications",
    ),
    ("bout.next_leader", "The bout's winner leads the next bout.", f"{_R} Game Sequence"),
    (
        "card.pride.next_leader",
        "Pride: the player to the left of Pride's player leads the next bout.",
        f"{_C} 22",
    ),
    # End of a round
    (
        "round.end.one_card",
        "A player with exactly 1 card in hand at the end of a bout wins the round for their team.",
        f"{_R} End of a Round",
    ),
    (
        "round.end.highest_single",
        "If several players have 1 card, the one holding the highest card wins the round.",
        f"{_R} End of a Round",
    ),
    (
        "round.end.luck_zero",
        "A player left with 0 cards by Luck wins the round, even over players with 1 card.",
        f"{_R} Luck",
    ),
    (
        "round.end.zero_other",
        "A player at 0 cards for another reason: see option zero_cards.",
        f"{_R} Goal of the Game",
    ),
    (
        "round.end.no_cards",
        "If no player holds a card when a bout should start, the round ends "
        "with no winner (possible only under non-default options).",
        f"{_R} Game Sequence",
    ),
    (
        "round.continue",
        "If nobody has won the round, a new bout starts.",
        f"{_R} How a Bout Is Resolved",
    ),
)


def rule(rule_id: str) -> Rule:
    """The rule with this id (raises KeyError for an unknown id, which is a bug)."""
    return RULES[rule_id]
