"""A survey's deals written out: as position files a person can solve again, and whole.

The deals themselves are drawn by :func:`omen_solver.omens.deals.draw_deal`, each named by
``(seed, players, index)`` and drawn from its own generator, so that the same deal comes out
whichever process draws it and in whatever order (and existing surveys draw theirs again).
"""

from __future__ import annotations

from omen_solver.omens.deals import Deal
from omen_solver.omens.table import Scope

__all__ = ["position_toml"]


def position_toml(
    deal: Deal, preset: str, rules: dict[str, str], scope: Scope, title: str, description: str
) -> str:
    """The deal as a position file (``docs/omens-positions.md``) a person can solve again."""
    lines = [
        f"title = {_quote(title)}",
        f"description = {_quote(description)}",
        'game = "omens"',
        f"players = {deal.players}",
        f"teams = {[[s + 1 for s in team] for team in deal.teams]}",
        f"preset = {_quote(preset)}",
        f"scope = {_quote(scope.value)}",
        f"box = {list(deal.box)}",
    ]
    if rules:
        lines += ["", "[rules]", *(f"{name} = {_quote(value)}" for name, value in rules.items())]
    lines += ["", "[hands]"]
    lines += [f"{seat + 1} = {list(hand)}" for seat, hand in enumerate(deal.hands)]
    lines += ["", "[bout]", f"leader = {deal.leader + 1}", ""]
    return "\n".join(lines)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
