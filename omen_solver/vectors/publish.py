"""Each game's part in ``omen-solver vectors export`` (docs/vectors.md): the files of its
folder and how they are built. Registered on the games here
(:class:`omen_solver.core.game.Feature`), as the vectors' view of a game is in ``views``;
``export`` finds every game here and names none itself."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from omen_solver.core.game import Feature
from omen_solver.omen.game import OMEN
from omen_solver.omens.game import OMENS
from omen_solver.vectors.omen_export import OMEN_SETS, build_omen
from omen_solver.vectors.omens_export import OMENS_SETS, SHIPPED_SUITES, build_omens
from omen_solver.vectors.omens_mine import Suite

__all__ = ["PUBLISHED", "Publication"]

Build = Callable[[Path, Sequence[str], Callable[[str], None], Suite | None],
                 dict[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Publication:
    """What ``vectors export`` writes for a game, and how it builds it."""

    sets: tuple[str, ...]
    """The files of its folder (``NAME.json``), in the order they are built."""
    build: Build
    """``build(witnesses, wanted, progress, suite)``: the files named in ``wanted`` (and any
    it needs to build them) as JSON-ready data, by name; ``witnesses`` is the folder of the
    option witnesses, ``suite`` the suite to mine under (None for a game without suites)."""
    suites: tuple[Suite, ...] = ()
    """For a game whose vectors are mined per suite (a set of rule settings), the suites
    shipped in ``vectors/``, the default first; every set but ``reference`` is then a suite's
    (``GAME/SUITE/NAME.json``). Empty for a game without suites (``GAME/NAME.json``)."""
    suite_refusal: str = ""
    """Why a suite is refused for a game without suites."""
    witnesses_refusal: str = ""
    """Why a folder of option witnesses is refused for a game whose vectors are not mined from
    them (empty: the game mines them)."""


PUBLISHED: Final[Feature[Publication]] = Feature("vector files")
"""The games ``vectors export`` writes, each with its part."""

PUBLISHED.register(OMENS, Publication(sets=OMENS_SETS, build=build_omens, suites=SHIPPED_SUITES))
PUBLISHED.register(OMEN, Publication(
    sets=OMEN_SETS, build=build_omen,
    suite_refusal="--preset, --rule and --suite are for Omens (an Omen vector names its "
    "profile and settings itself)",
    witnesses_refusal="--witnesses is for Omens (Omen's witnesses are mined from its seed "
    "positions)"))
