"""Omen: A Reign of War (with the Omega edition extras) and Fires in the East.

Two players deploy units into three cities, fight wars for Rewards and complete Feats. The
rules follow the rulebooks in ``shared/rules`` (001, 003, 004); every point where they disagree
or are silent is a named option of :class:`OmenRules`, and each rulebook is a profile
(:data:`PROFILES`). Cards are data (:mod:`omen_solver.omen.cards`).
"""

from omen_solver.omen.cards import Card, Catalogue, default_catalogue, load_catalogue
from omen_solver.omen.endgame import Draws, EndgameSettings, solve_endgame
from omen_solver.omen.notation import Action, parse_action
from omen_solver.omen.position import load_position
from omen_solver.omen.rules import DEFAULT_PROFILE, PROFILES, OmenRules, make_rules
from omen_solver.omen.setup import new_game
from omen_solver.omen.state import OmenState

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "Action",
    "Card",
    "Catalogue",
    "Draws",
    "EndgameSettings",
    "OmenRules",
    "OmenState",
    "default_catalogue",
    "load_catalogue",
    "load_position",
    "make_rules",
    "new_game",
    "parse_action",
    "solve_endgame",
]
