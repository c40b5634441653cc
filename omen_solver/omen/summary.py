"""The JSON view of an Omen position (what ``omen-solver omen play --json`` prints and the
Omen vectors record)."""

from __future__ import annotations

from typing import Any

from omen_solver.core.game import CHANCE
from omen_solver.omen import scoring
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import war_torn

__all__ = ["legal_strings", "state_summary"]


def legal_strings(state: OmenState) -> list[str]:
    """The legal actions in canonical notation."""
    return [state.action_to_string(action) for action in state.legal_actions()]


def state_summary(state: OmenState) -> dict[str, Any]:
    """The JSON view of a position."""
    seats = ("1", "2")
    winner = scoring.winner(state) if state.over else None
    player = state.current_player()
    return {
        "step": state.turn.step,
        "turn": state.turn.number,
        "active_player": state.active + 1,
        "to_act": None if state.over else "chance" if player == CHANCE else player + 1,
        "coins": {s: p.coins for s, p in zip(seats, state.players, strict=True)},
        "supply": state.supply,
        "hands": {s: list(p.hand) for s, p in zip(seats, state.players, strict=True)},
        "rewards": {
            s: {"in_hand": list(p.rewards), "unused": list(p.rewards_unused),
                "used": list(p.rewards_used)}
            for s, p in zip(seats, state.players, strict=True)
        },
        "feats": {s: list(p.feats) for s, p in zip(seats, state.players, strict=True)},
        "feats_rotated": {s: list(p.feats_rotated)
                          for s, p in zip(seats, state.players, strict=True)},
        "challenges": {s: list(p.challenges) for s, p in zip(seats, state.players, strict=True)},
        "vp_tokens": {s: p.vp_tokens for s, p in zip(seats, state.players, strict=True)},
        "rituals": {s: list(p.rituals) for s, p in zip(seats, state.players, strict=True)},
        "left": {"vp_tokens": None if state.unlimited_tokens() else state.tokens,
                 "challenges": list(state.challenge_pool), "relics": list(state.relic_pool)},
        "cities": [
            {
                "city": index + 1,
                "rewards": list(city.rewards),
                "seat1": [u.card + ("!" if u.enraged else "") for u in city.sides[0]],
                "seat2": [u.card + ("!" if u.enraged else "") for u in city.sides[1]],
                "relic": city.relic,
                "relic_seat": city.relic_owner + 1 if city.relic else None,
                "war_torn": war_torn(state, index),
            }
            for index, city in enumerate(state.cities)
        ],
        "deck": {"top": list(state.deck_top), "shuffled": len(state.deck_rest),
                 "discard": list(state.discard)},
        "scores": {s: scoring.score(state, i) for i, s in enumerate(seats)},
        "score_breakdown": {s: scoring.breakdown(state, i) for i, s in enumerate(seats)},
        "game_over": state.over,
        "winner": None if winner is None else winner + 1,
        "shared_victory": state.over and winner is None,
        "legal": legal_strings(state),
    }
