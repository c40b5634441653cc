"""Words shared by the bout theorems (not a theorem: the file name starts with '_')."""

from __future__ import annotations

from typing import Any

from omen_solver.omens.proofs.model.symbolic import StepModel


def follow(m: StepModel, cards: Any, law: Any, up: Any) -> Any:
    """The cards among ``cards`` that follow Law's constraint (higher or lower than Law)."""
    o = m.o
    return cards & o.If(up, o.above(law), o.below(law))


def pending(m: StepModel, i: int) -> Any:
    """After placement ``i`` another placement is called for (Dream, Wrath, Betrayal)."""
    after = m.states[i + 1]
    return m.o.Or(after.dreaming, after.replaying, after.giving)
