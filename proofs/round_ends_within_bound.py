"""Every round ends within a bound on its bouts, with exactly one winning team."""

from __future__ import annotations

from omen_solver.omens.smt.enumeration import (
    EnumerationTheorem,
    Move,
    Mutant,
    Resolved,
    Space,
    deals,
    rebuild,
)
from omen_solver.omens.smt.monitors import RoundMonitor
from omen_solver.omens.smt.theorem import rule
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Scope

FEAR = 12


def space() -> Space:
    return Space(
        description="4 players, seat 1 leads, 3 cards in every hand (a bound of 12 - 8 + 1 = 5 "
        "bouts); seat 1 holds Fear 12, Feast 5 and Spring 7, seat 2 Day 18 and Pride 22, seat "
        "3 Winter 27, seat 4 Summer 11, and the four cards left, dealt every possible way from "
        "Lie 9, Luck 13, Mirror 14, Sadness 26 and Friendship 3, fill seats 2, 3 and 4; every "
        "legal sequence of moves to the end of the round, default options",
        deals=deals(4, [{0: [FEAR, 5, 7], 1: [18, 22], 2: [27], 3: [11]}], (3, 9, 13, 14, 26), 3),
        scope=Scope.ROUND,
    )


def _fear_kept(before: OmensState, move: Move, after: OmensState, resolved: Resolved) -> OmensState:
    """The broken rule: Fear is never discarded, not even when it wins: after the bout it goes
    back to the hand of the player who won with it."""
    del before, move
    summary = after.last_bout
    if not resolved or summary is None or summary.winning_card != FEAR:
        return after
    if after.is_terminal() or after.phase != Phase.BOUT or summary.winner is None:
        return after
    hands = [list(hand) for hand in after.hands]
    hands[summary.winner] = sorted([*hands[summary.winner], FEAR])
    out = tuple(card for card in after.discard_pile if card != FEAR)
    return rebuild(after, hands=tuple(tuple(hand) for hand in hands), out=out)


THEOREM = EnumerationTheorem(
    name="round-ends-within-bound",
    title="Every round ends within h_1 + ... + h_P - 2P + 1 bouts, with one winning team",
    statement="Every round whose players start with h_1..h_P cards ends after at most "
    "h_1 + ... + h_P - 2P + 1 bouts, and a finished round has exactly one winning team "
    "(checked by playing every legal sequence of whole rounds in the stated space).",
    rests_on=(
        rule("000", "Goal of the Game; End of a Round / End of the Game"),
        rule("000", "How a Bout Is Resolved (Note: at least 1 card discarded)"),
    ),
    space=space,
    monitor=RoundMonitor,
    broken=(
        Mutant(
            "fear-kept-when-winning",
            "Fear is never discarded, not even when it wins: it goes back to the winner's hand",
            transform=_fear_kept,
        ),
    ),
    max_nodes=3_000_000,
)
