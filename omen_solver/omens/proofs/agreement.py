"""The whole-bout model against the engine (the differential tests and the mutation run use
this).

:func:`random_bout` deals random hands to 4-6 players, sets every rule option at random and
plays the engine's bout with random legal moves; :func:`check_bout` observes it
(:mod:`~omen_solver.omens.proofs.observe`), plays the model with the same choices and returns
every disagreement. Deterministic: the same seed gives the same bout. :func:`end_agreement`
compares the end of a bout alone, for given cards in play (the exhaustive small sets).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import Deck, bits, mask_of
from omen_solver.omens.proofs.model.ops import Concrete
from omen_solver.omens.proofs.model.play import BoutMachine
from omen_solver.omens.proofs.model.records import Inputs
from omen_solver.omens.proofs.model.runs import GivenChoices, RuleSettings, run_concrete
from omen_solver.omens.proofs.observe import Move, Observed, disagreements, observe_bout
from omen_solver.omens.resolve import resolve_bout
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement, Scope, Table

__all__ = ["Bout", "check_bout", "end_agreement", "random_bout"]

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
    end: OmensState
    """The engine's state once the bout is over (the next bout, the next round or the end)."""


def random_bout(
    seed: int, *, catalogue: Catalogue | None = None, default_rules: bool = False
) -> Bout | None:
    """A random bout (None if it ran past :data:`MAX_MOVES`)."""
    catalogue = catalogue or default_catalogue()
    rng = random.Random(seed)
    players = rng.choice([4, 5, 6])
    settings = {spec.name: rng.choice(list(spec.settings)) for spec in option_specs()}
    rules = make_rules() if default_rules else make_rules(None, settings)
    size = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 5])
    cards = rng.sample(sorted(catalogue), players * size)
    hands = [cards[i * size : (i + 1) * size] for i in range(players)]
    # some bouts are the last of a round in a game, some teams a round up; some are searched
    # as a single bout (the bout's winner wins)
    scope = rng.choice([Scope.ROUND, Scope.ROUND, Scope.GAME, Scope.BOUT])
    game = scope is Scope.GAME
    table = Table(players, rules, catalogue, scope)
    rounds = [rng.randrange(2) if game else 0 for _ in TEAMS[players]]
    start = OmensState.start_of_bout(
        table,
        hands,
        TEAMS[players],
        rng.randrange(players),
        rounds_won=rounds,
        out=sorted(set(catalogue) - set(cards)),
    )
    state, moves = start, []
    while not state.is_terminal() and not (state.bouts_played > 0 and state.phase != Phase.END):
        move = rng.choice(state.moves())
        moves.append(move)
        state = state.apply_move(move)
        if len(moves) > MAX_MOVES:
            return None
    return Bout(seed, rules, start, tuple(moves), state)


def model_of(
    bout: Bout, observed: Observed, deck: Deck, broken: Iterable[Broken] = ()
) -> object:
    start = bout.start
    return run_concrete(
        deck,
        bout.rules,
        start.num_players(),
        start.leader,
        [mask_of(hand) for hand in start.hands],
        observed.choices,
        broken=broken,
        teams=start.teams(),
        rounds_won=start.rounds_won,
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
    trace: Any = model_of(bout, observed, deck)
    problems = disagreements(observed, trace)
    if observed.complete and not problems:
        problems = after_the_bout(bout, trace)
    return observed, problems


def after_the_bout(bout: Bout, trace: Any) -> list[str]:
    """The engine's state once the bout is over, against what the model's end of the bout
    requires (rules file 000, "End of a Round / End of the Game"): the cards discarded are in
    the discard pile; a round that goes on starts a new bout led by the model's next leader with
    nothing in play, nobody having played and no Law; a round that is won counts for the
    winner's team, and the team that reaches 2 rounds wins the game, else a new round is dealt
    and led by the model's next leader."""
    start, state, end = bout.start, bout.end, trace.end
    found = []
    winner = bits(end.round_winner)
    leader = bits(end.next_round_leader)
    if state.table.scope is Scope.BOUT:
        won = bits(end.winner)
        if not state.is_terminal() or state.winner != (won[0] if won else None):
            found.append(f"a single bout: model winner {won}, engine {state.winner}")
        return found
    if not winner and not any(end.final_hands):
        # nobody holds a card: the round ends with no winner
        if not state.is_terminal() or state.winner is not None:
            found.append("nobody holds a card, but the engine's round goes on")
        return found
    if not winner or state.table.scope is Scope.ROUND:
        gone = mask_of(state.discard_pile) & ~mask_of(start.discard_pile)
        if gone != end.discarded | end.luck_pick:
            found.append(f"discard pile: model {end.discarded | end.luck_pick}, engine {gone}")
    if not winner:
        if state.phase != Phase.BOUT or [state.leader] != leader:
            found.append(f"next bout: model leader {leader}, engine {state.leader}")
        if state.in_play or state.law is not None or state.pending:
            found.append("next bout: the engine starts it with cards in play, Law or a decision")
        if any(state.played_this_bout(s) for s in range(state.num_players())):
            found.append("next bout: the engine starts it with players marked as played")
        if state.rounds_won != start.rounds_won:
            found.append("a round that goes on changed the rounds won")
        return found
    # the model's team of the round winner gains the round (its laurels are compared with
    # the engine's in ``disagreements``; here the count)
    rounds = [
        won + (mask_of(members) == end.round_team)
        for members, won in zip(start.teams(), start.rounds_won, strict=True)
    ]
    if list(state.rounds_won) != rounds:
        found.append(f"rounds won: model {rounds}, engine {list(state.rounds_won)}")
    if state.table.scope is Scope.ROUND or end.game_over:
        if not state.is_terminal() or state.winner != winner[0]:
            found.append(f"the end: model winner seat {winner[0] + 1}, engine {state.winner}")
    elif state.phase != Phase.DEAL or [state.leader] != leader or any(state.hands):
        found.append(f"the next round: model leader {leader}, engine {state.leader}")
    return found


def end_agreement(
    deck: Deck,
    rules: OmensRules,
    players: int,
    leader: int,
    cards: Sequence[tuple[int, int, int]],
) -> list[str]:
    """The model's end of a bout once everyone has played, with ``cards`` in play (``(card,
    lies before, placed by)``, 0-based seats), against the engine's
    :func:`~omen_solver.omens.resolve.resolve_bout`: the winning card, the winner, the
    discards, Luck's seat, Pride and the next leader. The disagreements."""
    table = Table(players, rules, deck.catalogue, Scope.ROUND)
    outcome = resolve_bout([Placement(*card) for card in cards], leader, table)
    seats = (1 << players) - 1
    front, placed = [0] * 6, [0] * 6
    for card, before, by in cards:
        front[before] |= 1 << card
        placed[by] |= 1 << card
    inputs = Inputs(seats, 1 << leader, (0,) * 6, (0,) * 6, 0)
    program = BoutMachine(Concrete(), deck, RuleSettings(rules), inputs, GivenChoices({}))
    state = replace(program.start(), front=tuple(front), placed=tuple(placed), played=seats)
    end = program.finish(state)
    engine = {
        "win": 0 if outcome.winning_card is None else 1 << outcome.winning_card,
        "winner": 0 if outcome.winner is None else 1 << outcome.winner,
        "discarded": mask_of(outcome.discarded),
        "luck_seat": 0 if outcome.luck_seat is None else 1 << outcome.luck_seat,
        "pride": outcome.pride,
        "next_leader": 1 << outcome.next_leader,
    }
    return [
        f"{name}: model {getattr(end, name)!r}, engine {value!r}"
        for name, value in engine.items()
        if getattr(end, name) != value
    ]
