"""The rulebook's own worked examples (rules file 000) must hold exactly."""

from __future__ import annotations

import pytest

from omen_solver.core.game import TERMINAL
from omen_solver.omens.state import OmensState, derive_teams
from omen_solver.omens.table import Scope, Table

from .helpers import hand, legal, play, position, rules_of


@pytest.mark.rules(
    "bout.turn",
    "bout.end",
    "bout.winner.highest",
    "bout.winner.owner",
    "bout.discard.winner",
    "card.colour.extreme",
    "card.colour.self",
    "bout.discard.simultaneous",
    "bout.return",
    "card.secret.choose",
    "card.secret.show",
)
def test_worked_example_secret_day_calm_death_summer() -> None:
    """Rules file 000, "How a Bout Is Resolved", EXAMPLE: Secret wins (and is the highest red,
    which Day discards), Calm goes (a red card is in play; Death discards the lowest green),
    Summer goes (the only yellow), the other three return to their owners' hands."""
    state = position(
        {1: [24, 2], 2: [18, 3], 3: [4, 5], 4: [8, 6], 5: [11, 7], 6: [19, 35]}, leader=1
    )
    state, trace = play(state, "1:24 ask 2", "2:shows 3", "2:18", "3:4", "4:8", "5:11", "6:19")
    summary = state.last_bout
    assert summary is not None
    assert summary.winning_card == 24 and summary.winner == 0
    assert summary.discarded == (4, 11, 24)
    assert hand(state, 2) == [3, 18] and hand(state, 4) == [6, 8] and hand(state, 6) == [19, 35]
    assert "card.colour.extreme" in rules_of(trace)


def test_secret_either_asks_or_shows() -> None:
    """omens-cards.md, card 24 Secret: 'choose a player: either they show you a card from their
    hand, or you show them one of yours': to each other seat, an ask and a show of each card
    left in hand."""
    state = position({1: [24, 2], 2: [18, 3], 3: [4, 5], 4: [8, 6]}, leader=1)
    moves = [m for m in legal(state) if m.startswith("1:24")]
    assert moves == [
        "1:24 ask 2", "1:24 ask 3", "1:24 ask 4", "1:24 show 2 2", "1:24 show 3 2", "1:24 show 4 2"
    ]


@pytest.mark.rules("round.end.highest_single", "card.colour.extreme", "card.colour.self")
def test_round_end_example_absolute_31_beats_lie_9() -> None:
    """Rules file 000, "End of a Round", EXAMPLE: Lana and Sabrina both end the bout with 1
    card; Lana's Absolute 31 beats Sabrina's Lie 9, so Lana's team wins the round."""
    lana, sabrina = 1, 2
    state = position({lana: [31, 20], sabrina: [9, 1], 3: [5, 6, 7], 4: [2, 3, 4]}, leader=1)
    # Harmony (20) wins and goes; it discards the lowest card, Life (1); Life discards the
    # highest green, Feast (5); Love (2) discards itself (another green is in play).
    state, trace = play(state, "1:20", "2:1", "3:5", "4:2")
    assert hand(state, lana) == [31] and hand(state, sabrina) == [9]
    assert state.is_terminal()
    assert state.winning_team() == (0, 2)
    assert "round.end.highest_single" in rules_of(trace)


def test_round_end_leaves_nobody_to_act() -> None:
    """Rules file 000, "End of a Round / End of the Game": a team with 1 card at the end of a
    bout wins the round, which ends there; nobody acts any more (not a seat, not chance)."""
    state = position({1: [31, 20], 2: [9, 1], 3: [5, 6, 7], 4: [2, 3, 4]}, leader=1)
    state, _ = play(state, "1:20", "2:1", "3:5", "4:2")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == ()


def test_bouts_are_counted_one_at_a_time() -> None:
    """Rules file 000, "Game Sequence": everyone plays a card, then the bout ends; the worked
    example of "How a Bout Is Resolved" is one bout, counted once (its summary is bout 1)."""
    state = position(
        {1: [24, 2], 2: [18, 3], 3: [4, 5], 4: [8, 6], 5: [11, 7], 6: [19, 35]}, leader=1
    )
    state, _ = play(state, "1:24 ask 2", "2:shows 3", "2:18", "3:4", "4:8", "5:11", "6:19")
    assert state.bouts_played == 1
    assert state.last_bout is not None and state.last_bout.number == 1


@pytest.mark.parametrize(
    ("absolutes", "teams"),
    [
        # Rules file 000, "Setup", EXAMPLE: Lana (35) teams up with Elodie (30).
        ((35, 31, 30, 33), ((0, 2), (1, 3))),
        ((32, 30, 31, 34, 35), ((0, 2, 3), (1, 4))),
        # 6 players: 30+35, 31+34, 32+33.
        ((30, 31, 32, 33, 34, 35), ((0, 5), (1, 4), (2, 3))),
        ((33, 35, 31, 30, 34, 32), ((0, 5), (1, 3), (2, 4))),
    ],
)
def test_teams_from_the_absolutes(
    absolutes: tuple[int, ...], teams: tuple[tuple[int, ...], ...]
) -> None:
    """Rules file 000, "Setup": highest with lowest (4-5 players); pairs 30+35, 31+34, 32+33."""
    assert derive_teams(absolutes) == teams


@pytest.mark.rules("setup.absolutes", "setup.teams", "setup.first_leader", "setup.deal")
@pytest.mark.parametrize("players", [4, 5, 6])
def test_new_game_deals_absolutes_then_hands(players: int) -> None:
    """Rules file 000, "Setup": one Absolute each face up (the rest boxed with 4-5 players),
    teams from them, the highest Absolute leads, then 4/4+3/3 more cards."""
    state = OmensState.new_game(Table(players, scope=Scope.GAME))
    trace = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        state, steps = state.explain(outcomes[-1][0])
        trace.extend(steps)
    sizes = sorted(len(h) for h in state.hands)
    expected = {4: [5, 5, 5, 5], 5: [4, 4, 5, 5, 5], 6: [4] * 6}[players]
    assert sizes == expected
    assert len(state.box) == 6 - players
    absolutes = [max(c for c in h if c >= 30) for h in state.hands]
    assert state.leader == absolutes.index(max(absolutes))
    assert len(state.teams()) == (3 if players == 6 else 2)
    if players == 5:
        small = next(team for team in state.teams() if len(team) == 2)
        assert all(len(state.hands[seat]) == 4 for seat in small)
    cards = state.all_cards()
    assert sorted(sum(cards.values(), ())) == list(range(1, 36))
    assert {s.rule for s in trace} >= {"setup.absolutes", "setup.teams", "setup.deal"}


@pytest.mark.parametrize(
    ("hands", "moves"),
    [
        (
            {1: [21, 30, 12], 2: [17, 31, 13], 3: [19, 32, 16], 4: [18, 33, 14]},
            ("1:21>2", "2:17>1", "3:19", "4:18"),
        ),
        # Luck (13) wins and goes: seat 1 discards a card from hand; nobody has won the round.
        (
            {1: [13, 5, 6, 4], 2: [7, 8, 1], 3: [9, 10, 11], 4: [2, 3, 12]},
            ("1:13", "2:7", "3:9", "4:2", "1:discards 5"),
        ),
    ],
)
def test_the_next_bout_is_the_position_its_hands_make(
    hands: dict[int, list[int]], moves: tuple[str, ...]
) -> None:
    """Rules file 000, "How a Bout Is Resolved": 'If no team has won the round ..., start a
    new bout. The player who won the previous bout starts the next one.' What the last bout
    left (its outcome, Luck's victim) is no part of the new one: the state is the same
    position, key for key, as a bout set up with those hands and that leader."""
    state, _ = play(position(hands), *moves)
    assert not state.is_terminal() and not state.in_play
    fresh = OmensState.start_of_bout(
        state.table,
        state.hands,
        state.teams(),
        state.leader,
        rounds_won=state.rounds_won,
        out=state.discard_pile,
        box=state.box,
    )
    assert state.key() == fresh.key()
