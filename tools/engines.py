"""Engines with a known deviation, behind the vector protocol: copies of this library's engine
with one change, for measuring what the conformance vectors and ``vectors fuzz`` find.

Two kinds of change:

* the **published engine's deviations** (:data:`DEVIATIONS`): the places where a published
  digital Omens engine, declaring the ``gamepark`` preset, was found to depart from the rules
  or from an earlier reading of that preset, written as a small change of this library's
  engine (``omens/state.py``);
* every **mutant** of :mod:`tools.mutants` (one syntactic change of the engine's rules).

:func:`engine_copy` writes a copy of the package with the changed file into a folder, and
:func:`engine_command` is the command line that serves it (``omen-solver vectors engine``
with the copy first on ``PYTHONPATH``), to give ``vectors check`` or ``vectors fuzz``.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from omen_solver.core.files import atomic_write

ROOT: Final = Path(__file__).resolve().parents[1]
PACKAGE: Final = ROOT / "omen_solver"
STATE: Final = "omen_solver/omens/state.py"


@dataclass(frozen=True)
class Deviation:
    """One change of the engine: the text ``old`` of ``file`` replaced by ``new``."""

    name: str
    what: str
    file: str
    old: str
    new: str

    def source(self) -> str:
        text = (ROOT / self.file).read_text(encoding="utf-8")
        if text.count(self.old) != 1:
            raise ValueError(f"deviation {self.name}: the text to change is not once in "
                             f"{self.file} (the engine changed: update tools/engines.py)")
        return text.replace(self.old, self.new)


DEVIATIONS: Final = {
    deviation.name: deviation
    for deviation in (
        Deviation(
            "betrayal-keeps-law",
            "Betrayal takes Law and its constraint stays (rules 000, 'Betrayal': 'If the card "
            "you took is \"Law,\" its constraint no longer applies for the rest of the bout')",
            STATE,
            "    placement = work.remove_from_play(taken)\n    work.add_to_hand(resolver, taken)",
            "    law = work.law\n    placement = work.remove_from_play(taken)\n"
            "    work.law = law\n    work.add_to_hand(resolver, taken)",
        ),
        Deviation(
            "betrayal-law-gift-one-left",
            "Law given by Betrayal while a single player is left to play is treated as played "
            "last: no choice is made and its constraint binds nobody (under law_when_last = "
            "skip, Law does nothing only when nobody is left to play)",
            STATE,
            "    if given in table.now and table.effect[given] != \"dream\":\n"
            "        chooser = victim",
            "    left = sum(1 for s in range(table.players)\n"
            "               if not work.played >> s & 1 and work.hands[s])\n"
            "    if table.effect[given] == \"law\" and left == 1:\n"
            "        return\n"
            "    if given in table.now and table.effect[given] != \"dream\":\n"
            "        chooser = victim",
        ),
        Deviation(
            "pride-unless-luck-took-a-card",
            "Pride's choice of the next round's leader is dropped only when Luck made a "
            "player discard a card from hand (pride_next_round = unless_luck), where the "
            "preset says whenever Luck is discarded (unless_luck_discarded): they differ when "
            "Luck's player holds only Fear",
            STATE,
            "    if setting == \"unless_luck_discarded\":\n"
            "        return outcome.luck_seat is None\n",
            "    if setting == \"unless_luck_discarded\":\n"
            "        return luck_victim is None\n",
        ),
    )
}
"""The deviations of the published engine (the ``gamepark`` preset's engine): two departures
from the printed rules and the Pride-and-Luck sub-case its preset once described otherwise."""


def engine_copy(folder: Path, changes: dict[str, str], source: Path = PACKAGE) -> Path:
    """A copy of the package (``source``) in ``folder`` with each file of ``changes`` (a path
    relative to the project, e.g. ``omen_solver/omens/state.py``) replaced by its text;
    returns the folder to put first on ``PYTHONPATH``."""
    copy = folder / "omen_solver"
    if not copy.exists():
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for relative, text in changes.items():
        atomic_write(folder / relative, text)
    return folder


def engine_command(folder: Path, *options: str) -> str:
    """The command line of the engine copied into ``folder`` behind the vector protocol
    (``options``: those of ``omen-solver vectors engine``, e.g. ``--preset gamepark``)."""
    # -P: the current folder is not put first on sys.path (from the project folder it would
    # hold the unchanged package)
    argv = ["env", f"PYTHONPATH={folder}", "PYTHONDONTWRITEBYTECODE=1", sys.executable, "-P",
            "-m", "omen_solver", "vectors", "engine", *options]
    return shlex.join(argv)
