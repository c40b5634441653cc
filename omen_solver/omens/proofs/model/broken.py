"""Deliberately wrong rules: the one catalogue the model can be run with.

A proof that no broken rule can break might be vacuous (an assumption that is never true, a
claim that says nothing). So every theorem names broken rules under which it must be refuted,
with a counterexample (CrossHair's "buggy examples side by side with the correct ones"). Each
member is a switch of the whole-bout model (:mod:`~omen_solver.omens.proofs.model.play`): a z3
boolean in a symbolic build (one build serves a theorem and all its variants), a Python bool in
a concrete run (the differential tests check that each one is seen against the engine).
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["BROKEN_TEXT", "Broken"]


class Broken(enum.Enum):
    """A deliberately wrong rule of the whole-bout model (its text: :attr:`text`)."""

    # while cards are placed
    LAW_BINDS_TURNS_ONLY = "law-binds-turns-only"
    GIFT_RESOLVED_BY_GIVER = "gift-resolved-by-giver"
    REPLACEMENT_NO_EFFECT = "replacement-no-effect"
    ABSOLUTE_GIVE_ONLY = "absolute-give-only"
    LAW_SURVIVES_WRATH = "law-survives-wrath"
    LAW_SURVIVES_BETRAYAL = "law-survives-betrayal"
    JEALOUSY_ALWAYS_ENDS_LAW = "jealousy-always-ends-law"
    JEALOUSY_REAPPLIES = "jealousy-reapplies"
    WRATH_LOSES_THE_CARD = "wrath-loses-the-card"
    # the end of the bout
    MIRROR_IGNORED = "mirror-ignored"
    SADNESS_IGNORED = "sadness-ignored"
    MALICE_NO_COLOUR = "malice-no-colour"
    DISCARDED_LOSE_EFFECT = "discarded-lose-effect"
    PASS_ON_IGNORED = "pass-on-ignored"
    WINNER_IS_PLACER = "winner-is-placer"
    FEAR_UNPROTECTED = "fear-unprotected"
    FEAR_ONLY_VS_EXTREMES = "fear-only-vs-extremes"
    WINNER_KEPT = "winner-kept"
    FEAR_KEPT_WHEN_WINNING = "fear-kept-when-winning"
    LUCK_BY_PLACER = "luck-by-placer"
    RETURN_TO_PLACER = "return-to-placer"
    DISCARDED_ALSO_RETURN = "discarded-also-return"
    # the end of the round and of the game
    LUCK_ZERO_LOSES = "luck-zero-loses"
    PRIDE_OVER_ROUND = "pride-over-round"
    GAME_AFTER_ONE_ROUND = "game-after-one-round"
    ROUND_FOR_WINNER_ONLY = "round-for-winner-only"

    @property
    def text(self) -> str:
        """The wrong rule, in words."""
        return BROKEN_TEXT[self]


BROKEN_TEXT: Final[dict[Broken, str]] = {
    Broken.LAW_BINDS_TURNS_ONLY: "Law binds only normal turns, not Dream's placement, Wrath's "
    "replacement or Betrayal's gift (whatever option law_binds says)",
    Broken.GIFT_RESOLVED_BY_GIVER: "Betrayal's gift is resolved by the Betrayal player, not by "
    "the player who receives it (whatever option now_resolver says)",
    Broken.REPLACEMENT_NO_EFFECT: "Wrath's replacement card is placed without its immediate effect",
    Broken.ABSOLUTE_GIVE_ONLY: "The Absolute's partner receives a card but gives none back",
    Broken.LAW_SURVIVES_WRATH: "Law's constraint survives Wrath sending Law back to a hand",
    Broken.LAW_SURVIVES_BETRAYAL: "Law's constraint survives Betrayal taking Law (until the gift "
    "is placed and after)",
    Broken.JEALOUSY_ALWAYS_ENDS_LAW: "Jealousy moving Law always ends its constraint (whatever "
    "option law_after_jealousy says)",
    Broken.JEALOUSY_REAPPLIES: "a card Jealousy takes acts again for Jealousy's player: Law "
    "taken by Jealousy has its direction chosen again (and reversed)",
    Broken.WRATH_LOSES_THE_CARD: "the card Wrath sends back is lost instead of going back to the "
    "hand",
    Broken.MIRROR_IGNORED: "Mirror has no effect: the highest card wins",
    Broken.SADNESS_IGNORED: "Sadness has no effect: the highest card wins",
    Broken.MALICE_NO_COLOUR: "a card printed in every colour (Malice) counts as no colour",
    Broken.DISCARDED_LOSE_EFFECT: "discards are not simultaneous: a card that another effect "
    "discards (or that wins) has no effect itself",
    Broken.PASS_ON_IGNORED: "with fear_pass_on = yes an effect that would pick Fear discards "
    "nothing, as under 'no'",
    Broken.WINNER_IS_PLACER: "the bout is won by the player who placed the winning card, "
    "wherever it lies",
    Broken.FEAR_UNPROTECTED: "Fear can be discarded by effects like any other card",
    Broken.FEAR_ONLY_VS_EXTREMES: "Fear only ignores 'discard the highest/lowest' effects, not "
    "'discard every yellow card'",
    Broken.WINNER_KEPT: "the winning card is not discarded",
    Broken.FEAR_KEPT_WHEN_WINNING: "Fear is never discarded, not even as the winning card",
    Broken.LUCK_BY_PLACER: "Luck's discard falls on the player who placed Luck, wherever it lies",
    Broken.RETURN_TO_PLACER: "cards not discarded go back to the player who placed them",
    Broken.DISCARDED_ALSO_RETURN: "a card discarded by an effect (not the winning card) also "
    "goes back to hand",
    Broken.LUCK_ZERO_LOSES: "a player left with 0 cards by Luck does not win the round",
    Broken.PRIDE_OVER_ROUND: "Pride's choice of leader also holds across the end of a round "
    "(whatever option pride_next_round says)",
    Broken.GAME_AFTER_ONE_ROUND: "the first round a team wins also wins it the game",
    Broken.ROUND_FOR_WINNER_ONLY: "a round won counts for the player who won it, not for their "
    "whole team (only their Player Aid turns to the laurel side)",
}
"""Each broken rule in words."""
