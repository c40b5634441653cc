"""End of game scoring and the winner (001 End of the Game and Scoring; 003 Scoring / Victory
Conditions; 004 End of Game and Scoring).

Points, each counted where the player's sets have them:

* a Reward unused (in hand, or in the play area 2 VP side up): 2 VP; a used Reward: 1 VP;
* an achieved Feat face down: 2 VP; a Feat rotated for a Relic: 1 VP; a Relic on the player's
  side of a city: 1 VP; a Challenge face down: 3 VP (001);
* a VP token (Priestess RITUAL): 2 VP (004);
* a TREASURED unit in hand (Sphinxes, Heroes): 1 VP (001 Heroes; 004 Sphinxes).

The higher total wins. A tie is broken by R13 (``score_tiebreak``); a tie left after it is a
shared victory (004 "both players ... share the victory"; 001 and 003 say nothing more).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from omen_solver.omen.state import OmenState

__all__ = ["breakdown", "returns", "score", "tiebreak_key", "winner"]


def breakdown(state: OmenState, player: int) -> dict[str, int]:
    """The victory points of ``player`` by source."""
    p = state.players[player]
    return {
        "rewards_unused": 2 * (len(p.rewards) + len(p.rewards_unused)),
        "rewards_used": len(p.rewards_used),
        "feats": 2 * len(p.feats),
        "feats_rotated": len(p.feats_rotated),
        "relics": sum(1 for city in state.cities if city.relic and city.relic_owner == player),
        "challenges": 3 * len(p.challenges),
        "vp_tokens": 2 * p.vp_tokens,
        "treasured": sum(1 for card in p.hand if state.card(card).treasured),
    }


def score(state: OmenState, player: int) -> int:
    return sum(breakdown(state, player).values())


def tiebreak_key(state: OmenState, player: int) -> tuple[int, ...]:
    """R13: what decides a tied score (compared left to right)."""
    p = state.players[player]
    rule = state.rules.score_tiebreak
    if rule == "face-down-cards":
        # 001: Feats, used Rewards and Challenges lie face down (and RITUAL Priestesses).
        return (len(p.feats) + len(p.rewards_used) + len(p.challenges) + len(p.rituals),)
    if rule == "face-down-feats":
        return (len(p.feats),)
    treasured = sum(1 for card in p.hand if state.card(card).treasured)
    return (len(p.rewards) + len(p.rewards_unused), p.vp_tokens, treasured)


def winner(state: OmenState) -> int | None:
    """The winning player, or ``None`` for a shared victory."""
    scores = (score(state, 0), score(state, 1))
    if scores[0] != scores[1]:
        return 0 if scores[0] > scores[1] else 1
    keys = (tiebreak_key(state, 0), tiebreak_key(state, 1))
    if keys[0] != keys[1]:
        return 0 if keys[0] > keys[1] else 1
    return None


def returns(state: OmenState) -> tuple[Fraction, ...]:
    """Win 1, loss 0, a shared victory 1/2 each."""
    best = winner(state)
    if best is None:
        return (Fraction(1, 2), Fraction(1, 2))
    return tuple(Fraction(1 if player == best else 0) for player in (0, 1))
