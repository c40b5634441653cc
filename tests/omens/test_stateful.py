"""Random legal games as a Hypothesis state machine (style guide: Hypothesis ``stateful.py``).

Every step plays one random legal move (a chance outcome at a deal, a joint action at The
Absolute's exchange). Invariants checked at every step (rules file 000):

* all 35 cards are somewhere exactly once: hands, in play, discard pile, box, deck;
* every resolved bout discards at least one card and has exactly one winner ("How a Bout Is
  Resolved", note);
* a finished round gives exactly one round to exactly one team ("End of a Round");
* a round has at most as many bouts as there were cards in hand at its start, since every bout
  discards a card: rounds, and so games, end.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

GAMES = {"finished": 0, "rounds": 0, "bouts": 0, "moves": 0}
"""Counts over the whole test run, printed in the terminal summary (conftest)."""


class OmensGames(RuleBasedStateMachine):
    state: OmensState

    @initialize(
        players=st.sampled_from([4, 5, 6]), preset=st.sampled_from(["rulebook", "gamepark"])
    )
    def new_game(self, players: int, preset: str) -> None:
        self.table = Table(players, make_rules(preset), scope=Scope.GAME)
        self._start()

    def _start(self) -> None:
        self.state = OmensState.new_game(self.table)
        self.round_cards = 0
        self.round_bouts = 0

    @precondition(lambda self: not self.state.is_terminal())
    @rule(data=st.data())
    def move(self, data: st.DataObject) -> None:
        before = self.state
        moves = before.moves()
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        after = before.apply_move(move)
        GAMES["moves"] += 1
        if before.is_chance_node() and not after.is_chance_node():
            self.round_cards = sum(len(hand) for hand in after.hands)
            self.round_bouts = 0
        if after.last_bout is not before.last_bout and after.last_bout is not None:
            self._check_bout(before, after)
        self.state = after
        if after.is_terminal():
            GAMES["finished"] += 1

    def _check_bout(self, before: OmensState, after: OmensState) -> None:
        summary = after.last_bout
        assert summary is not None
        GAMES["bouts"] += 1
        self.round_bouts += 1
        assert summary.discarded, "every bout discards at least one card"
        assert summary.winner is not None and 0 <= summary.winner < self.table.players
        assert summary.winning_card in summary.discarded
        assert self.round_bouts <= self.round_cards, "a round cannot outlast its cards"
        won = [b - a for a, b in zip(before.rounds_won, after.rounds_won, strict=True)]
        if summary.round_winner is None:
            assert not any(won)
            return
        GAMES["rounds"] += 1
        assert sorted(won) == [0] * (len(won) - 1) + [1], "exactly one team wins the round"
        assert won[after.team_of(summary.round_winner)] == 1

    @precondition(lambda self: self.state.is_terminal())
    @rule()
    def next_game(self) -> None:
        assert max(self.state.rounds_won) == 2
        self._start()

    @invariant()
    def every_card_exactly_once(self) -> None:
        places = self.state.all_cards()
        cards = sorted(card for group in places.values() for card in group)
        assert cards == sorted(self.table.catalogue), places


OmensGames.TestCase.settings = settings(
    max_examples=20,  # the default tier's share; the slow tier below plays 300
    stateful_step_count=600,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow],
)
TestOmensGames = OmensGames.TestCase


class OmensGamesSlow(OmensGames):
    """The bigger tier: ten times the games of the default run."""


OmensGamesSlow.TestCase.settings = settings(OmensGames.TestCase.settings, max_examples=300)
TestOmensGamesSlow = pytest.mark.slow(OmensGamesSlow.TestCase)
