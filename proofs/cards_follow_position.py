"""Cards going back to hand follow position, over whole bouts with Dream, Jealousy and
Betrayal."""

from __future__ import annotations

from omen_solver.omens.smt.enumeration import EnumerationTheorem, Mutant, Space, deals
from omen_solver.omens.smt.monitors import ResolutionMonitor
from omen_solver.omens.smt.theorem import rule

DREAM = 21
POOL = (4, 9, 12, 13, 23, 26, 29)
"""Calm 4, Lie 9, Fear 12, Luck 13, Jealousy 23, Sadness 26, Betrayal 29."""


def space() -> Space:
    return Space(
        description="4 players, seat 1 leads, 2 cards in every hand; seat 1 holds Dream (21) "
        "and the other seven cards, Calm 4, Lie 9, Fear 12, Luck 13, Jealousy 23, Sadness 26 "
        "and Betrayal 29, are dealt every possible way; every legal sequence of moves to the "
        "end of the bout, default options",
        deals=deals(4, [{0: [DREAM]}], POOL, 2),
    )


THEOREM = EnumerationTheorem(
    name="cards-follow-position",
    title="Cards not discarded go back to the player they lie in front of, in play",
    statement="In every bout played, however Dream, Jealousy and Betrayal have moved cards "
    "between players, every card in play that is not discarded ends the bout in the hand of "
    "the player it lies in front of when the bout is resolved, and in no other hand.",
    rests_on=(
        rule("cards", "What the printed clarifications settle ('whoever placed them')"),
        rule("000", "Game Sequence ('If your card was not discarded, take it back')"),
    ),
    space=space,
    monitor=lambda: ResolutionMonitor(returns=True),
    broken=(
        Mutant(
            "return-to-placer",
            "cards not discarded go back to the player who placed them (option return_to = "
            "placer, which the official clarification rules out)",
            rules={"return_to": "placer"},
        ),
    ),
)
