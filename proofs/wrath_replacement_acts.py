"""Wrath: the replacement acts at once; what the returned card already did stays done."""

from __future__ import annotations

from z3 import And, If, Implies, Not, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    o = m.o
    wrath, replay = m.steps[i], m.steps[i + 1]
    before, after = m.states[i], m.states[i + 1]
    returns = And(wrath.active, m.is_(wrath.card, "wrath"), wrath.x != 0)
    victim = m.where(before, wrath.x)
    undone = And(
        # the returned card goes back to the hand of the player it lay in front of, and
        # nothing else moves: an exchange or a swap it made is not undone
        *[
            wrath.hands_after[s]
            == (wrath.hands[s] & ~wrath.card) | If(victim == (1 << s), wrath.x, o.card(0))
            for s in m.seats
        ],
        *[
            after.front[s]
            == (before.front[s] | If(wrath.lies == (1 << s), wrath.card, o.card(0))) & ~wrath.x
            for s in m.seats
        ],
        # Law's constraint ends exactly when the returned card is Law
        after.law == If(wrath.x == before.law, o.card(0), before.law),
    )
    # the replacement is the next placement, by that player, and its immediate effect acts
    # at once: Law's constraint is set before anyone else plays (when someone is left to),
    # The Absolute's exchange is made
    law_next = And(m.is_(replay.card, "law"), replay.law_choice)
    acts = And(
        replay.replay,
        replay.placer == victim,
        Implies(law_next, m.states[i + 2].law == replay.card),
        Implies(
            And(m.is_(replay.card, "absolute"), replay.partners != 0),
            And(replay.give != 0, replay.get != 0),
        ),
        Implies(
            And(m.is_(replay.card, "law"), Not(m.option("law_when_last", "skip"))),
            replay.law_choice,
        ),
    )
    return Query(Implies(returns, And(undone, Or(acts, Not(replay.active)), replay.active)))


THEOREM = BoutTheorem(
    name="wrath-replacement-acts",
    title="Wrath's replacement acts at once; nothing the returned card did is undone",
    statement="When Wrath sends a card back, that card returns to the hand of the player it "
    "lay in front of and nothing else moves (an exchange The Absolute made, a swap Jealousy "
    "made, a card Betrayal took stay as they are; only Law's constraint ends, and only when "
    "the card sent back is Law). That player's replacement is the very next placement and "
    "its immediate effect acts at once: a replacement Law sets its constraint before anyone "
    "else plays, a replacement Absolute makes its exchange.",
    rests_on=(
        rule(
            "000",
            "Special Card Effects: Wrath ('If the new card played has an effect, it "
            "applies immediately')",
        ),
        rule("cards", "What the printed clarifications settle (Wrath)"),
    ),
    query=query,
    broken=(Broken.REPLACEMENT_NO_EFFECT, Broken.LAW_SURVIVES_WRATH),
    span=2,
)
