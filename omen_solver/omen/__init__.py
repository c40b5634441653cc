"""Omen: A Reign of War (with the Omega edition extras) and Fires in the East.

Two players deploy units into three cities, fight wars for Rewards and complete Feats. The
rules follow the rulebooks (A Reign of War, its Omega edition, Fires in the East); every point
where they disagree or are silent is a named option of :class:`OmenRules`, and each rulebook
is a profile (:data:`PROFILES`). Cards are data (:mod:`omen_solver.omen.cards`).
``load(source)`` reads a position from a path, TOML text or an open file.
"""

from pathlib import Path

from omen_solver.core.files import Source, read_source
from omen_solver.errors import PositionError
from omen_solver.omen.cards import Card, Catalogue, default_catalogue, load_catalogue
from omen_solver.omen.notation import Action, parse_action
from omen_solver.omen.position import load_position, load_state
from omen_solver.omen.rules import DEFAULT_PROFILE, PROFILES, OmenRules, make_rules
from omen_solver.omen.setup import new_game
from omen_solver.omen.state import OmenState

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "Action",
    "Card",
    "Catalogue",
    "OmenRules",
    "OmenState",
    "default_catalogue",
    "load",
    "load_catalogue",
    "load_position",
    "make_rules",
    "new_game",
    "parse_action",
]


def load(source: Source) -> OmenState:
    """The state of an Omen position (docs/omen.md, "Positions") from a path, TOML text (a
    ``str`` holding a line break or ``=``) or an open file. Card files named in ``cards`` are
    looked up next to the position file (in the current folder for text and open files)."""
    data, name, _ = read_source(source)
    if data.get("game") != "omen":
        raise PositionError(f"{name}: key 'game': must be \"omen\" for an Omen position, got "
                            f"{data.get('game')!r}")
    return load_state(Path(name), data)
