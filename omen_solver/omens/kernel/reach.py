"""What the kernel's exact search can be expected to finish, said before it starts.

Measured on seeded deals (``benchmarks/omens_search.py``, ``docs/benchmarks.md``): rounds with
3 cards a hand at 4 players are solved in about a second, hands of 4 at 4 players are not
solved in tens of seconds, full hands from the deal are out of reach. The cost grows with the
cards still to be played, so that is what is counted: past :data:`CARDS_IN_REACH` (fewer for the
pure-Python kernel, about 35 times slower) a solve says at once that its value is not expected
and what to try, then searches anyway and reports every move.
"""

from __future__ import annotations

from typing import Final

from omen_solver.omens.kernel import compiled
from omen_solver.omens.state import OmensState

__all__ = ["CARDS_IN_REACH", "CARDS_IN_REACH_PURE", "out_of_reach"]

CARDS_IN_REACH: Final = 14
"""Cards still in the hands up to which a round is expected to be solved within the default
30 s by the compiled kernel (4 players with 3 cards a hand: 12; with 4 cards: 16)."""
CARDS_IN_REACH_PURE: Final = 10
"""The same for the pure-Python kernel."""


def out_of_reach(state: OmensState, pure_python: bool | None = None) -> str | None:
    """Why the exact value of ``state`` is not expected within the default budget, and what
    to try; ``None`` when it is."""
    cards = sum(len(hand) for hand in state.hands)
    pure = (not compiled.AVAILABLE) if pure_python is None else pure_python
    reach = CARDS_IN_REACH_PURE if pure else CARDS_IN_REACH
    if state.is_terminal() or cards <= reach:
        return None
    return (
        f"{cards} cards are still in the hands: the exact value is not expected within the "
        f"budget (rounds of up to {reach} cards are; full hands from the deal are out of "
        "reach). Searching anyway, move by move; to settle more, solve a later position "
        "(--moves M1 M2 ... from here, or a file at a later bout), fewer cards (--deal SEED "
        "--cards 3), or give more time (--max-seconds)"
    )
