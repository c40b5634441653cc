"""Two rounds won by a team win the game."""

from __future__ import annotations

from z3 import And, Implies, Not, Or

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.symbolic import StepModel
from omen_solver.omens.proofs.theorems.bout_theorem import BoutTheorem
from omen_solver.omens.proofs.theorems.theorem import Query, rule


def query(m: StepModel, i: int) -> Query:
    del i
    end, inputs = m.end, m.inputs
    assert end is not None
    winner = end.round_winner
    won = winner != 0
    seated = [inputs.table & (1 << s) != 0 for s in m.seats]
    laurel = [inputs.laurels & (1 << s) != 0 for s in m.seats]
    laurel_after = [end.laurels_after & (1 << s) != 0 for s in m.seats]
    # seat s is on the round winner's team: read from s's own team, not the winner's
    mate = [And(won, inputs.mates[s] & winner != 0) for s in m.seats]
    claim = And(
        # every player of the winning team, and only they, turn their Player Aid to the
        # laurel side (a laurel already shown stays)
        *[Implies(seated[s], laurel_after[s] == Or(laurel[s], mate[s])) for s in m.seats],
        # the game is over exactly when a player of that team already showed the laurel
        end.game_over == Or(*[And(mate[s], laurel[s]) for s in m.seats]),
        # a bout that ends no round changes no laurel and does not end the game
        Implies(Not(won), And(end.laurels_after == inputs.laurels, Not(end.game_over))),
        # otherwise the next round is led by the round winner (unless Pride's choice holds,
        # option pride_next_round: theorem pride-at-round-end)
        Implies(
            And(won, Not(end.game_over), Or(Not(end.pride), m.option("pride_next_round", "no"))),
            end.next_round_leader == winner,
        ),
    )
    return Query(claim)


THEOREM = BoutTheorem(
    name="two-rounds-win-the-game",
    title="A round won counts for the whole team; a team's second round wins the game",
    statement="When a bout ends a round, every player of the round winner's team (and no one "
    "else) has their Player Aid on the laurel side afterwards, and the game is over exactly "
    "when that team had already won a round, that is when it has won 2 rounds. Otherwise a "
    "new round starts, led by the round winner unless Pride was in play and option "
    "pride_next_round keeps Pride's choice. A bout that ends no round changes no laurel and "
    "never ends the game. For every team split of 4, 5 and 6 players and every option "
    "setting.",
    rests_on=(
        rule("000", "End of a Round / End of the Game ('When a team wins 2 rounds ...')"),
        rule("000", "Setup (Player Aid cards; 'Teams will not change members')"),
        rule("000", "Goal of the Game ('The first team to win 2 rounds wins the game')"),
    ),
    query=query,
    broken=(Broken.GAME_AFTER_ONE_ROUND, Broken.ROUND_FOR_WINNER_ONLY),
    span=0,
    game=True,
    search_bit_blast=False,
)
