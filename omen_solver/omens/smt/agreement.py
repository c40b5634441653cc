"""The whole-bout model against the engine on random bouts (the differential tests and the
mutation run use this).

:func:`random_bout` deals random hands to 4-6 players, sets every rule option at random and
plays the engine's bout with random legal moves; :func:`check_bout` observes it
(:mod:`~omen_solver.omens.smt.observe`), plays the model with the same choices and returns
every disagreement. Deterministic: the same seed gives the same bout.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.smt.deck import Deck, mask_of
from omen_solver.omens.smt.observe import Move, Observed, disagreements, observe_bout
from omen_solver.omens.smt.whole import run_concrete
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Scope, Table

__all__ = ["Bout", "check_bout", "random_bout"]

TEAMS: Final = {4: [[0, 2], [1, 3]], 5: [[0, 2], [1, 3, 4]], 6: [[0, 3], [1, 4], [2, 5]]}
MAX_MOVES: Final = 200
"""A random bout longer than this is not compared (a bout can go on for ever: Wrath sending
Betrayal back while Betrayal takes Wrath and gives it back)."""


@dataclass(frozen=True)
class Bout:
    seed: int
    rules: OmensRules
    start: OmensState
    moves: tuple[Move, ...]


def random_bout(
    seed: int, *, catalogue: Catalogue | None = None, default_rules: bool = False
) -> Bout | None:
    """A random bout (None if it ran past :data:`MAX_MOVES`)."""
    catalogue = catalogue or default_catalogue()
    rng = random.Random(seed)
    players = rng.choice([4, 5, 6])
    settings = {spec.name: rng.choice(list(spec.settings)) for spec in option_specs()}
    rules = make_rules() if default_rules else make_rules(None, settings)
    size = rng.randint(2, 5)
    cards = rng.sample(sorted(catalogue), players * size)
    hands = [cards[i * size : (i + 1) * size] for i in range(players)]
    table = Table(players, rules, catalogue, Scope.ROUND)
    start = OmensState.start_of_bout(table, hands, TEAMS[players], rng.randrange(players))
    state, moves = start, []
    while not state.is_terminal() and not (state.bouts_played > 0 and state.phase != Phase.END):
        move = rng.choice(state.moves())
        moves.append(move)
        state = state.apply_move(move)
        if len(moves) > MAX_MOVES:
            return None
    return Bout(seed, rules, start, tuple(moves))


def model_of(bout: Bout, observed: Observed, deck: Deck, broken: Iterable[str] = ()) -> object:
    start = bout.start
    return run_concrete(
        deck,
        bout.rules,
        start.num_players,
        start.leader,
        [mask_of(hand) for hand in start.hands],
        observed.choices,
        broken=broken,
    )


def check_bout(
    seed: int, *, deck: Deck | None = None, default_rules: bool = False
) -> tuple[Observed | None, list[str]]:
    """Play a random bout in the engine and in the model; the disagreements."""
    deck = deck or Deck(default_catalogue())
    bout = random_bout(seed, catalogue=deck.catalogue, default_rules=default_rules)
    if bout is None:
        return None, []
    observed, _ = observe_bout(bout.start, bout.moves)
    return observed, disagreements(observed, model_of(bout, observed, deck))
