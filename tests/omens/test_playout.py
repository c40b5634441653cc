"""Random deals as at the table played forward (``omen_solver.omens.playout``), rules file 000,
"Setup" and "End of a Round"."""

from __future__ import annotations

import random

import pytest

from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.deals import DealKind, deal_round
from omen_solver.omens.playout import play_forward
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import derive_teams
from omen_solver.omens.table import Scope, Table, deal_sizes

ABSOLUTES = set(default_catalogue().absolutes)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_a_game_start_deals_one_absolute_each(players: int) -> None:
    """000 "Setup": one Absolute each, face up; teams and the first leader follow from them;
    4 players hold 5 cards, 6 players 4, 5 players 5 (the trio) or 4 (the pair)."""
    table = Table(players, make_rules(), scope=Scope.ROUND)
    for seed in range(10):
        state = deal_round(table, DealKind.START, random.Random(seed))
        absolute_of = []
        for hand in state.hands:
            held = [card for card in hand if card in ABSOLUTES]
            assert len(held) == 1
            absolute_of.append(held[0])
        assert state.teams() == derive_teams(absolute_of)
        assert state.leader == absolute_of.index(max(absolute_of))
        assert tuple(map(len, state.hands)) == deal_sizes(players, state.teams(), True)
        assert set(state.box) == ABSOLUTES - set(absolute_of)


@pytest.mark.parametrize(("players", "reshuffle"), [(4, "used_only"), (5, "all"), (6, "used_only")])
def test_a_later_round_shuffles_every_card_in_play(players: int, reshuffle: str) -> None:
    """000 "End of a Round": every card but the boxed Absolutes is shuffled and dealt (a hand
    may hold several Absolutes); option ``reshuffle_absolutes = "all"`` empties the box."""
    table = Table(players, make_rules("rulebook", {"reshuffle_absolutes": reshuffle}),
                  scope=Scope.ROUND)
    several = False
    for seed in range(40):
        state = deal_round(table, DealKind.LATER, random.Random(seed))
        assert tuple(map(len, state.hands)) == deal_sizes(players, state.teams(), False)
        held = {card for hand in state.hands for card in hand}
        assert not held & set(state.box)
        expected_box = 0 if reshuffle == "all" or players == 6 else 6 - players
        assert len(state.box) == expected_box
        several |= any(len(set(hand) & ABSOLUTES) > 1 for hand in state.hands)
    assert several


def test_deals_and_play_are_fixed_by_the_seed() -> None:
    table = Table(5, make_rules(), scope=Scope.ROUND)

    def run(seed: int) -> list[str]:
        rng = random.Random(seed)
        return [repr(reached.state) for reached in play_forward(deal_round(
            table, DealKind.LATER, rng), rng)]

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_positions_replay_from_their_bout_start() -> None:
    table = Table(4, make_rules(), scope=Scope.ROUND)
    rng = random.Random(7)
    count = 0
    previous_bouts = 0
    for reached in play_forward(deal_round(table, DealKind.START, rng), rng):
        state = reached.start
        assert not state.in_play and state.leader == state.current_player()
        for move in reached.moves:
            state = state.apply_move(move)
        assert state.key() == reached.state.key()
        assert reached.state.current_player() >= 0 and not reached.state.pending
        assert reached.bouts >= previous_bouts
        previous_bouts = reached.bouts
        count += 1
    assert count > 4 and previous_bouts >= 1


def test_only_round_scope() -> None:
    with pytest.raises(ValueError, match="round scope"):
        deal_round(Table(4, make_rules(), scope=Scope.GAME), DealKind.START, random.Random(0))
