"""The rulebook's worked example: Secret, Day, Calm, Death, Summer and a sixth card."""

from __future__ import annotations

from z3 import And, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule

NAMED = ("Secret", "Day", "Calm", "Death", "Summer")
SIXTH = (5, 6, 7, 19, 20, 21, 22, 23, 26)
"""The sixth cards for which the example holds, worked out by hand from the card texts: not
above Secret (24) unless it is Sadness (then Secret is second-highest and wins), not yellow
(Summer would not be the only yellow card; Malice counts as yellow), not a green card below
Calm (Death would discard it instead) nor Life, Love or Friendship (they discard Death or
themselves), and not Mirror (Calm would win)."""
SAME_OUTCOME = (*SIXTH, 9, 16)
"""The same cards leave play with two more sixth cards, Lie (9) and Truth (16), but not for
the book's reasons: Summer is then not the only yellow card; Lie (the highest yellow) or
Truth (the lowest) discards it instead."""


def query(m: StepModel, i: int) -> Query:
    del i
    o, end = m.o, m.end
    assert end is not None
    secret, day, calm, death, summer = (m.named(name) for name in NAMED)
    five = secret | day | calm | death | summer
    sixth = end.in_play & ~five
    # six players, and in play the five cards of the book and one more
    shape = [m.inputs.table == 0b111111, end.in_play & five == five, o.single(sixth)]
    gone = end.discarded
    outcome = And(
        end.win == secret,
        gone & (secret | calm | summer) == secret | calm | summer,
        gone & (day | death | sixth) == 0,
    )
    # the reasons the book gives: Day discards Secret (highest red), Death discards Calm
    # (lowest green) as Calm discards itself (a red card is in play), Summer is the only yellow
    reasons = And(
        m.pick("Day") & secret != 0,
        m.pick("Death") & calm != 0,
        m.pick("Calm") & calm != 0,
        m.pick("Summer") & summer != 0,
    )
    listed = Or(*[sixth == o.card(1 << value) for value in SIXTH])
    same = Or(*[sixth == o.card(1 << value) for value in SAME_OUTCOME])
    claim = And(And(outcome, reasons) == listed, outcome == same)
    return Query(claim, shape)


THEOREM = BoutTheorem(
    name="worked-example",
    title="The rulebook's worked example holds, and for exactly which sixth cards",
    statement="In the rulebook's example (Secret, Day, Calm, Death, Summer and a sixth card in "
    "play), Secret wins and Secret, Calm and Summer are discarded (for the reasons the book "
    "gives) while the other three go back to hand, exactly when the sixth card is one of "
    "5 Feast, 6 Hope, 7 Spring, 19 Autumn, 20 Harmony, 21 Dream, 22 Pride, 23 Jealousy or "
    "26 Sadness, whatever the options. With Lie (9) or Truth (16) as the sixth card the same "
    "cards leave play, but Summer goes because Lie or Truth discards it, not because it is "
    "the only yellow card.",
    rests_on=(
        rule("000", "How a Bout Is Resolved (EXAMPLE)"),
        rule("cards", "the worked example check"),
    ),
    query=query,
    broken=(Broken.SADNESS_IGNORED, Broken.MALICE_NO_COLOUR, Broken.DISCARDED_LOSE_EFFECT),
    span=0,
)
