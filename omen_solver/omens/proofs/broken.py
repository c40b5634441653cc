"""Deliberately wrong rules: each theorem names the ones that must break it.

A proof that no broken rule can break might be vacuous (an assumption that is never true, a
claim that says nothing). So every theorem is also run on the model built with one of these
rules broken, and there it must be refuted with a counterexample (CrossHair's "buggy examples
side by side with the correct ones").
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["BROKEN_TEXT", "Broken"]


class Broken(enum.Enum):
    """A deliberately wrong rule of the symbolic model (see :data:`BROKEN_TEXT`)."""

    SADNESS_OVER_MIRROR = "sadness-over-mirror"
    SADNESS_IGNORED = "sadness-ignored"
    SADNESS_ANY_BUT_HIGHEST = "sadness-any-but-highest"
    MIRROR_IGNORED = "mirror-ignored"
    WINNER_KEPT = "winner-kept"
    WINNER_IS_PLACER = "winner-is-placer"
    FEAR_UNPROTECTED = "fear-unprotected"
    FEAR_KEPT_WHEN_WINNING = "fear-kept-when-winning"
    FEAR_ONLY_VS_EXTREMES = "fear-only-vs-extremes"
    DISCARDED_LOSE_EFFECT = "discarded-lose-effect"
    MALICE_NO_COLOUR = "malice-no-colour"
    EXTREMES_EXCLUDE_SELF = "extremes-exclude-self"
    PRIDE_IGNORED = "pride-ignored"
    PRIDE_TO_THE_RIGHT = "pride-to-the-right"
    LUCK_BY_PLACER = "luck-by-placer"
    RETURN_TO_PLACER = "return-to-placer"
    DISCARDED_ALSO_RETURN = "discarded-also-return"
    LUCK_MAY_DISCARD_FEAR = "luck-may-discard-fear"
    LUCK_ZERO_LOSES = "luck-zero-loses"
    SINGLES_ALL_WIN = "singles-all-win"
    LOWEST_SINGLE_WINS = "lowest-single-wins"

    @property
    def text(self) -> str:
        """The wrong rule, in words."""
        return BROKEN_TEXT[self]


BROKEN_TEXT: Final[dict[Broken, str]] = {
    Broken.SADNESS_OVER_MIRROR: "Sadness is not ignored when Mirror is in play: the lowest card "
    "cannot win and the second-lowest wins",
    Broken.SADNESS_IGNORED: "Sadness has no effect: the highest card wins",
    Broken.SADNESS_ANY_BUT_HIGHEST: "Sadness read as 'the highest card cannot win' alone: every "
    "other card wins",
    Broken.MIRROR_IGNORED: "Mirror has no effect: the highest card wins",
    Broken.WINNER_KEPT: "the winning card is not discarded",
    Broken.WINNER_IS_PLACER: "the bout is won by the player who placed the winning card, "
    "wherever it lies",
    Broken.FEAR_UNPROTECTED: "Fear can be discarded by effects like any other card",
    Broken.FEAR_KEPT_WHEN_WINNING: "Fear is never discarded, not even as the winning card",
    Broken.FEAR_ONLY_VS_EXTREMES: "Fear only ignores 'discard the highest/lowest' effects, not "
    "'discard every yellow card'",
    Broken.DISCARDED_LOSE_EFFECT: "discards are not simultaneous: a card that another effect "
    "discards (or that wins) has no effect itself",
    Broken.MALICE_NO_COLOUR: "a card printed in every colour (Malice) counts as no colour",
    Broken.EXTREMES_EXCLUDE_SELF: "'discard the highest/lowest card in play' never picks the "
    "card itself",
    Broken.PRIDE_IGNORED: "Pride has no effect: the winner leads the next bout",
    Broken.PRIDE_TO_THE_RIGHT: "Pride hands the lead to the player on the right",
    Broken.LUCK_BY_PLACER: "Luck's discard falls on the player who placed Luck, wherever it lies",
    Broken.RETURN_TO_PLACER: "cards not discarded go back to the player who placed them",
    Broken.DISCARDED_ALSO_RETURN: "a card discarded by an effect (not the winning card) also "
    "goes back to hand",
    Broken.LUCK_MAY_DISCARD_FEAR: "Luck's discard may take Fear from the hand",
    Broken.LUCK_ZERO_LOSES: "a player left with 0 cards by Luck does not win the round; only "
    "players with 1 card do",
    Broken.SINGLES_ALL_WIN: "every player left with 1 card wins the round (no tie-break by the "
    "highest card)",
    Broken.LOWEST_SINGLE_WINS: "among players left with 1 card, the lowest card wins the round",
}
"""Each broken rule in words."""
