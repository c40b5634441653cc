"""Proven bounds on each player's final victory points, from what is on the table.

A player's points can only come from what is still in play, so a position bounds the final
score from above; and some points can never be lost, which bounds it from below. When the
leader's guaranteed points exceed everything the other player can still reach, the game is
decided whatever happens: the endgame search uses this to stop early (``endgame.py``).

Sources of points (001 End of the Game and Scoring; 003 Scoring; 004 End of Game and Scoring):
Rewards (2 unused, 1 used), Feats (2, rotated 1), Relics (1), Challenges (3), VP tokens (2),
TREASURED units in hand (1).

* Upper bound: the player's points now at their best (unused Rewards stay 2), plus 2 for every
  Reward still on a city, 2 for every Feat the player has not achieved, 3 for every Challenge
  left, 1 for every Relic on the table or beside the deck, 2 for every VP token a Priestess can
  still earn, and 1 for every TREASURED card not out of the game.
* Lower bound: the points no rule takes away: Feats, Challenges, VP tokens, used Rewards, and
  1 for every unused Reward (using one leaves 1 VP; 001 lets a Reward in hand be offered away,
  so under ``offering_card = 'any-hand-card'`` a Reward in hand counts 0). Relics can be sent
  back and TREASURED units leave the hand: they count 0.
"""

from __future__ import annotations

from collections.abc import Iterator

from omen_solver.omen import scoring
from omen_solver.omen.rules import OfferingCard, Relics
from omen_solver.omen.state import OmenState

__all__ = ["vp_bounds"]

REWARD_VP, USED_VP, FEAT_VP, CHALLENGE_VP, TOKEN_VP = 2, 1, 2, 3, 2


def _cards_in_play(state: OmenState) -> Iterator[str]:
    """Every unit card not out of the game: hands, cities, deck, discard pile."""
    for player in state.players:
        yield from player.hand
    for _, _, unit in state.units():
        yield unit.card
    yield from state.deck_top
    yield from state.deck_rest
    yield from state.discard


def _upper(state: OmenState, player: int, treasured: int, priestesses: int) -> int:
    p = state.players[player]
    on_cities = sum(len(city.rewards) for city in state.cities)
    feats_left = sum(1 for feat in state.feat_cards
                     if feat not in p.feats and feat not in p.feats_rotated)
    relics = sum(1 for city in state.cities if city.relic and (
        city.relic_owner == player or state.rules.relics == Relics.ON))
    relics += len(state.relic_pool) if state.rules.relics == Relics.ON else 0
    tokens = priestesses if state.unlimited_tokens() else min(state.tokens, priestesses)
    return (REWARD_VP * (len(p.rewards) + len(p.rewards_unused) + on_cities)
            + USED_VP * len(p.rewards_used)
            + FEAT_VP * (len(p.feats) + feats_left) + len(p.feats_rotated)
            + CHALLENGE_VP * (len(p.challenges) + len(state.challenge_pool))
            + TOKEN_VP * (p.vp_tokens + tokens) + relics + treasured)


def _lower(state: OmenState, player: int) -> int:
    p = state.players[player]
    in_hand = 0 if state.rules.offering_card == OfferingCard.ANY_HAND_CARD else len(p.rewards)
    return (FEAT_VP * len(p.feats) + len(p.feats_rotated) + CHALLENGE_VP * len(p.challenges)
            + TOKEN_VP * p.vp_tokens + USED_VP * (len(p.rewards_used) + len(p.rewards_unused)
                                                  + in_hand))


def vp_bounds(state: OmenState) -> tuple[tuple[int, int], tuple[int, int]]:
    """``((low, high), (low, high))``: each player's final victory points lie within."""
    if state.over:
        scores = (scoring.score(state, 0), scoring.score(state, 1))
        return (scores[0], scores[0]), (scores[1], scores[1])
    treasured = priestesses = 0
    for card_id in _cards_in_play(state):
        card = state.card(card_id)
        treasured += card.treasured
        priestesses += bool(card.ritual)
    first = (_lower(state, 0), _upper(state, 0, treasured, priestesses))
    second = (_lower(state, 1), _upper(state, 1, treasured, priestesses))
    return first, second
