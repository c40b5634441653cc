"""fear_pass_on: an effect that would pick Fear picks the next card instead (or nothing)."""

from __future__ import annotations

from z3 import And, If, Implies

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    o, end = m.o, m.end
    assert end is not None
    fear = m.cards("fear")
    claims = []
    for source in m.deck.end_effects:
        if source.effect != "discard_extreme":
            continue
        card = o.card(source.card)
        highest = source.params["which"] == "highest"
        pool = end.in_play & m.colour(source.params["colour"])
        pool = If(m.option("extreme_includes_self", "yes"), pool, pool & ~card)
        first = o.highest(pool) if highest else o.lowest(pool)
        rest = pool & ~fear
        after = o.highest(rest) if highest else o.lowest(rest)
        # the effect's own pick is Fear: under 'yes' the next card of the colour is
        # discarded; under 'no' the effect discards nothing (Fear ignores it)
        picks_fear = And(end.in_play & card != 0, first == fear, after != 0)
        claims.append(
            Implies(
                picks_fear,
                If(
                    m.option("fear_pass_on", "yes"),
                    end.discarded & after != 0,
                    end.hits & ~fear == end.hits & ~fear,
                ),
            )
        )
        claims.append(
            Implies(
                And(picks_fear, m.option("fear_pass_on", "no"), end.win != fear),
                end.discarded & fear == 0,
            )
        )
    return Query(And(*claims))


THEOREM = BoutTheorem(
    name="fear-pass-on",
    title="fear_pass_on = yes: an effect that would pick Fear discards the next card",
    statement="When an effect that discards the highest or lowest card of a colour (Life, "
    "Death, Lie, Truth, Day, Night, Harmony) would pick Fear, under fear_pass_on = yes it "
    "discards the next highest (lowest) card of that colour instead; under 'no' Fear ignores "
    "it and stays (unless Fear wins). For every card in play, seat and other option.",
    rests_on=(
        rule(
            "000", "Special Card Effects: Fear ('Ignore any effect that asks you to discard Fear')"
        ),
        rule("cards", "What remains a choice (pass-on for Fear)"),
    ),
    query=query,
    broken=(Broken.PASS_ON_IGNORED, Broken.FEAR_UNPROTECTED),
    span=0,
)
