"""What a command asks, read from its parsed command line once, as a typed request: the work a
command shares with another takes the request, never argparse's namespace (which holds only
the flags its own command defines, so shared code would have to probe it by name).

``solve`` and ``puzzles check`` share the solving of a position file (``cli/solve.py``
``solve_file``): :class:`SolveRequest` is what they ask of it.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Final

from omen_solver.core.budget import Budget

__all__ = ["DEAL_ONLY", "SolveRequest"]

DEAL_ONLY: Final = ("players", "round", "cards")
"""Options that describe a random deal: a file fixes all three, so they are refused with one."""


@dataclass(frozen=True, kw_only=True)
class SolveRequest:
    """A solve asked on the command line: the rules set over the position file's, the
    question (where it replaces a puzzle's), the budget and the search. A flag the command
    does not define keeps its default here (``puzzles check`` asks each puzzle's own
    question)."""

    preset: str | None = None
    """``--preset``."""
    rules: tuple[tuple[str, str], ...] = ()
    """``--rule OPTION=SETTING``, in the order given."""
    deal_flags: tuple[str, ...] = ()
    """The options of a random deal given (:data:`DEAL_ONLY`), which a file refuses."""
    team: tuple[int, ...] | None = None
    """``--team``: the seats asked about (from 1)."""
    concept: str | None = None
    simultaneous: str | None = None
    max_nodes: int | None = None
    max_seconds: float | None = None
    engine: str = "auto"
    search: str | None = None
    """``--search``: the kernel's algorithm."""
    threads: int | None = None
    max_memory: int | None = None
    """``--max-memory`` in bytes: the Omens kernel's memory budget."""
    seed: int | None = None
    """``--seed``: the Omens evaluation's random seed."""
    estimates: bool | None = None
    """Whether the moves the exact searches leave open get estimates (``--no-estimates``
    turns them off); None where the command has no estimates (``puzzles check``)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SolveRequest:
        """The request of a parsed command line (the one place that reads its namespace)."""
        given: dict[str, Any] = vars(args)
        team = given.get("team")
        return cls(
            preset=given.get("preset"),
            rules=tuple(given.get("rule") or ()),
            deal_flags=tuple(name for name in DEAL_ONLY if given.get(name) is not None),
            team=None if team is None else tuple(team),
            concept=given.get("concept"),
            simultaneous=given.get("simultaneous"),
            max_nodes=given.get("max_nodes"),
            max_seconds=given.get("max_seconds"),
            engine=given.get("engine") or "auto",
            search=given.get("search"),
            threads=given.get("threads"),
            max_memory=given.get("max_memory"),
            seed=given.get("seed"),
            estimates=None if "no_estimates" not in given else not given["no_estimates"],
        )

    def budget(self, fallback: Budget) -> Budget:
        """``--max-nodes`` and ``--max-seconds``, each else the fallback's."""
        return Budget(self.max_nodes if self.max_nodes is not None else fallback.max_nodes,
                      self.max_seconds if self.max_seconds is not None
                      else fallback.max_seconds)
