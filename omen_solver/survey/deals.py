"""A survey's deals written out: as position files a person can solve again, and whole.

The deals themselves are drawn by :func:`omen_solver.omens.deals.draw_deal`, each named by
``(seed, players, index)`` and drawn from its own generator, so that the same deal comes out
whichever process draws it and in whatever order (and existing surveys draw theirs again).
"""

from __future__ import annotations

from typing import Any

from omen_solver.omens.deals import Deal
from omen_solver.omens.position import position_toml as write_position
from omen_solver.omens.table import Scope

__all__ = ["position_toml"]


def position_toml(
    deal: Deal, preset: str, rules: dict[str, str], scope: Scope, title: str, description: str
) -> str:
    """The deal as a position file (``docs/omens-positions.md``) a person can solve again."""
    data: dict[str, Any] = {
        "game": "omens", "title": title, "description": description, "players": deal.players,
        "teams": [[s + 1 for s in team] for team in deal.teams], "preset": preset,
        "scope": scope.value, "box": list(deal.box),
    }
    if rules:
        data["rules"] = dict(rules)
    data["hands"] = {str(seat + 1): list(hand) for seat, hand in enumerate(deal.hands)}
    data["bout"] = {"leader": deal.leader + 1}
    return write_position(data)
