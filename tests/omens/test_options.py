"""Every named rule option, with a position where its settings give different results.

Each test cites the open question (rules README, O1-O15; C1 in docs/omens-options.md) and the
rule text the option is about.
"""

from __future__ import annotations

import pytest

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

from .helpers import hand, legal, play, position, rules_of


def test_every_option_has_a_test_here() -> None:
    """A new option must come with a test in this file (named test_<option>)."""
    names = {spec.name for spec in option_specs()}
    tests = {name[len("test_") :] for name in globals() if name.startswith("test_")}
    assert names <= tests, sorted(names - tests)


def test_absolute_timing() -> None:
    """O1 (rules file 000, "The Absolute"; omens-cards.md timing column)."""
    hands = {1: [30, 5, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    now = position(hands)
    assert "1:30 with 3" in legal(now)
    end = position(hands, absolute_timing="end")
    assert "1:30" in legal(end) and "1:30 with 3" not in legal(end)
    end, _trace = play(end, "1:30", "2:7", "3:9", "4:2")
    # The Absolute won and is discarded, but its effect still applies at the end of the bout.
    assert legal(end) == ["1:resolve 30 with 2", "1:resolve 30 with 3", "1:resolve 30 with 4"]
    end, _ = play(end, "1:resolve 30 with 4", "1:gives 5 & 4:gives 3")
    assert hand(end, 1) == [3, 6] and hand(end, 4) == [5]


def test_absolute_timing_end_resolves_each_absolute_once() -> None:
    """O1 (rules file 000, "The Absolute"; option absolute_timing = "end"): each Absolute played
    resolves once, at the end of the bout. Here its exchange leaves seat 4 with 1 card and ends
    the round: the finished state (its fields, what to_text writes) has none left to resolve."""
    hands = {1: [30, 5, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    end, _ = play(position(hands, absolute_timing="end"), "1:30", "2:7", "3:9", "4:2")
    end, _ = play(end, "1:resolve 30 with 4", "1:gives 5 & 4:gives 3")
    assert end.is_terminal() and end.fields()["end_abs"] == ()


def test_absolute_exchange() -> None:
    """O2 (rules file 000, "The Absolute": 'simultaneously and secretly')."""
    hands = {1: [30, 5, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    secret, _ = play(position(hands), "1:30 with 3")
    assert secret.current_player() == SIMULTANEOUS
    opened, _ = play(position(hands, absolute_exchange="open"), "1:30 with 3")
    assert opened.current_player() == 0
    opened, _ = play(opened, "1:gives 5")
    assert opened.current_player() == 2  # the target answers knowing the card offered
    opened, _ = play(opened, "3:gives 10")
    assert hand(opened, 1) == [6, 10] and hand(opened, 3) == [5, 9]


def test_law_binds() -> None:
    """O3 (rules file 000, "Law": 'Everyone must, if possible, play a card lower or higher')."""
    hands = {1: [15, 6], 2: [21, 25], 3: [5, 24], 4: [2, 3]}
    every, _ = play(position(hands), "1:15 lower", "2:21>3")
    assert legal(every) == ["3:5>2"]
    turns, _ = play(position(hands, law_binds="turns_only"), "1:15 lower", "2:21>3")
    assert legal(turns) == ["3:5>2", "3:24>2"]


def test_law_after_jealousy() -> None:
    """O3 (rules file 000, "Jealousy", "Wrath", "Betrayal")."""
    hands = {1: [15, 6], 2: [23, 29], 3: [3, 25], 4: [9, 10]}
    stays, _ = play(position(hands), "1:15 lower", "2:23 swap 15")
    assert legal(stays) == ["3:3"]
    ends, trace = play(position(hands, law_after_jealousy="ends"), "1:15 lower", "2:23 swap 15")
    assert legal(ends) == ["3:3", "3:25"]
    assert "card.law.ends" in rules_of(trace)


def test_law_when_last() -> None:
    """O3 and omens-cards.md (the digital adaptation: Law does nothing when nobody is left)."""
    hands = {1: [5, 6], 2: [7, 8], 3: [9, 10], 4: [15, 3]}
    choose, _ = play(position(hands), "1:5", "2:7", "3:9")
    assert legal(choose) == ["4:3", "4:15 higher", "4:15 lower"]
    skip, _ = play(position(hands, law_when_last="skip"), "1:5", "2:7", "3:9")
    assert legal(skip) == ["4:3", "4:15"]


def test_wrath_replay() -> None:
    """O4 (rules file 000, "Wrath": 'They must play another card')."""
    hands = {1: [5, 6], 2: [28, 8], 3: [9, 10], 4: [2, 3]}
    forbidden, _ = play(position(hands), "1:5", "2:28 return 5")
    assert legal(forbidden) == ["1:6"]
    allowed, _ = play(position(hands, wrath_replay="allowed"), "1:5", "2:28 return 5")
    assert legal(allowed) == ["1:5", "1:6"]


def test_jealousy_own_card() -> None:
    """O5 (rules file 000, "Jealousy": 'with another card already in play'). Dream leaves a
    card in front of seat 2, who then plays Jealousy on their own turn (option
    dream_target_turn = plays_again)."""
    hands = {1: [21, 6], 2: [23, 7, 8], 3: [9, 10], 4: [2, 3]}
    moves = ("1:21>2", "2:7>1")
    allowed, _ = play(position(hands, dream_target_turn="plays_again"), *moves)
    assert "2:23 swap 21" in legal(allowed)
    forbidden, _ = play(
        position(hands, dream_target_turn="plays_again", jealousy_own_card="forbidden"), *moves
    )
    assert "2:23 swap 21" not in legal(forbidden) and "2:23 swap 7" in legal(forbidden)


def test_dream_target_turn() -> None:
    """O6 (rules file 000, "Dream"; "Game Sequence")."""
    hands = {1: [21, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    once, _ = play(position(hands), "1:21>3", "3:9>1", "2:7")
    assert once.current_player() == 3
    again, _ = play(position(hands, dream_target_turn="plays_again"), "1:21>3", "3:9>1", "2:7")
    assert again.current_player() == 2 and legal(again) == ["3:10"]


def test_now_resolver() -> None:
    """O6/O7 (rules file 000, "Betrayal": 'They then resolve the card's effect'; "Dream")."""
    hands = {1: [21, 6], 2: [15, 8], 3: [9, 10], 4: [2, 3]}
    by_position, _ = play(position(hands), "1:21>2", "2:15>1")
    assert legal(by_position) == ["1:resolve 15 higher", "1:resolve 15 lower"]
    by_placer = position(hands, now_resolver="placer")
    by_placer, _ = play(by_placer, "1:21>2")
    assert "2:15>1 lower" in legal(by_placer) and "2:15>1" not in legal(by_placer)


def test_betrayal_give_back() -> None:
    """O7 (rules file 000, "Betrayal": 'play a card from your hand in front of that person')."""
    hands = {1: [5, 6], 2: [29, 8], 3: [9, 10], 4: [2, 3]}
    allowed, _ = play(position(hands), "1:5")
    assert "2:29 take 5 give 5" in legal(allowed)
    forbidden, _ = play(position(hands, betrayal_give_back="forbidden"), "1:5")
    assert "2:29 take 5 give 5" not in legal(forbidden) and "2:29 take 5 give 8" in legal(forbidden)


def test_card_owner() -> None:
    """O8 (rules file 000, "How a Bout Is Resolved": 'The person who played the highest-value
    card wins'). Dream (21) wins lying in front of seat 2, placed by seat 1."""
    hands = {1: [21, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    moves = ("1:21>2", "2:7>1", "3:9", "4:2")
    by_position, _ = play(position(hands), *moves)
    assert by_position.last_bout is not None and by_position.last_bout.winner == 1
    by_placer, _ = play(position(hands, card_owner="placer"), *moves)
    assert by_placer.last_bout is not None and by_placer.last_bout.winner == 0


def test_return_to() -> None:
    """O8 (omens-cards.md clarification: 'the hand of the player they lie in front of')."""
    hands = {1: [21, 6, 4], 2: [7, 8, 5], 3: [9, 10, 11], 4: [2, 3, 1]}
    moves = ("1:21>2", "2:8>1", "3:9", "4:3")
    by_position, _ = play(position(hands), *moves)
    assert 8 in hand(by_position, 1)
    by_placer, _ = play(position(hands, return_to="placer"), *moves)
    assert 8 in hand(by_placer, 2)


@pytest.mark.rules("bout.winner.lone_card", "bout.turn.empty_hand", "round.end.no_cards")
def test_sadness_lone_card() -> None:
    """O9 (rules file 000, "Sadness"; the note 'There will always be at least 1 card discarded
    in each bout'). A lone card in play only happens when the others have no card."""
    hands = {1: [26, 5, 6], 2: [], 3: [], 4: []}
    wins, _ = play(position(hands), "1:26")
    assert wins.last_bout is not None and wins.last_bout.winner == 0
    lone = position(hands, sadness_lone_card="discarded_no_winner")
    lone, _trace = play(lone, "1:26")
    assert lone.last_bout is not None and lone.last_bout.winner is None
    assert lone.last_bout.discarded == (26,)
    assert lone.leader == 0
    # A lone Sadness that is its player's last card leaves nobody with a card: a void round.
    void = position({1: [26], 2: [], 3: [], 4: []}, sadness_lone_card="discarded_no_winner")
    void, _ = play(void, "1:26")
    assert void.is_terminal() and void.winning_team() is None


def test_a_bout_with_no_card_in_any_hand_ends_the_round() -> None:
    """Rule round.end.no_cards (docs/omens-rules.md; rules file 000, "Game Sequence": players
    take turns to play a card, and one with no card cannot): a bout that would start with no
    card in any hand ends the round at once, with no winner and nobody to act."""
    state = position({1: [], 2: [], 3: [], 4: []})
    assert state.is_terminal() and state.winning_team() is None
    assert state.current_player() == TERMINAL and state.last_bout is None


def test_fear_pass_on() -> None:
    """O10 (rules file 000, "Fear": 'Ignore any effect that asks you to discard Fear')."""
    hands = {1: [9, 6], 2: [12, 8], 3: [11, 10], 4: [2, 3]}
    moves = ("1:9", "2:12", "3:11", "4:2")
    no, _ = play(position(hands), *moves)
    assert no.last_bout is not None and 11 not in no.last_bout.discarded
    yes, _ = play(position(hands, fear_pass_on="yes"), *moves)
    assert yes.last_bout is not None and 11 in yes.last_bout.discarded


def test_luck_chooser() -> None:
    """O11 (rules file 000, "Luck": 'discard a card from your hand')."""
    hands = {1: [13, 5, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]}
    moves = ("1:13", "2:7", "3:9", "4:2")
    owner, _ = play(position(hands), *moves)
    assert owner.current_player() == 0 and legal(owner) == ["1:discards 5", "1:discards 6"]
    randomly, _ = play(position(hands, luck_chooser="random"), *moves)
    assert randomly.current_player() == CHANCE
    assert [p for _, p in randomly.chance_outcomes()] == [0.5, 0.5]


def test_luck_timing() -> None:
    """O11 (rules file 000, "Luck"; "How a Bout Is Resolved"). Seat 2 has two cards in front
    (Dream's target plays again, option dream_target_turn): Luck is discarded, Dream returns."""
    hands = {1: [21, 20, 4], 2: [3, 13, 5], 3: [27, 10, 11], 4: [2, 1, 6]}
    # Winter (27) wins and discards every yellow card: Luck goes; Dream goes back to seat 2.
    moves = ("1:21>2", "2:3>1", "2:13", "3:27", "4:6")
    before, _ = play(position(hands, dream_target_turn="plays_again"), *moves)
    assert legal(before) == ["2:discards 5"]
    after = position(hands, dream_target_turn="plays_again", luck_timing="after_return")
    after, _ = play(after, *moves)
    assert legal(after) == ["2:discards 5", "2:discards 21"]


@pytest.mark.rules("round.end.zero_other")
def test_zero_cards() -> None:
    """O12 (rules file 000, "Goal of the Game": 1 card wins; "Luck": 0 through Luck wins).
    Dream's target places both of its cards and both are discarded."""
    hands = {1: [21, 20, 4], 2: [3, 2], 3: [9, 10, 11], 4: [6, 7, 8]}
    # Dream (21) wins and goes; Love (2) goes (another green card is in play).
    moves = ("1:21>2", "2:3>1", "2:2", "3:11", "4:7")
    only_luck, trace = play(position(hands, dream_target_turn="plays_again"), *moves)
    assert hand(only_luck, 2) == [] and not only_luck.is_terminal()
    assert "round.end.zero_other" in rules_of(trace)
    any_zero = position(hands, dream_target_turn="plays_again", zero_cards="any")
    any_zero, _ = play(any_zero, *moves)
    assert any_zero.is_terminal() and any_zero.winning_team() == (1, 3)


def _game_state(**rules: str) -> OmensState:
    from omen_solver.omens.rules import make_rules

    table = Table(4, make_rules("rulebook", rules), scope=Scope.GAME)
    return OmensState.start_of_bout(
        table, [[20, 31], [22, 9], [5, 6, 7], [2, 3, 4]], [[0, 2], [1, 3]], 0, box=[34, 35]
    )


@pytest.mark.rules("card.pride.next_leader", "round.new", "round.end.one_card")
def test_pride_next_round() -> None:
    """O13 (rules file 000, "End of a Round": the round winner begins; omens-cards.md: the
    digital adaptation lets Pride choose)."""
    moves = ("1:20", "2:22", "3:5", "4:2")
    # Pride (22) wins and goes, Love (2) goes; seat 2 is left with 1 card (9) and wins the
    # round; Pride names seat 3 (left of seat 2) as the next leader.
    no, _ = play(_game_state(), *moves)
    assert no.rounds_won == (0, 1) and no.is_chance_node()
    assert no.leader == 1
    yes, _ = play(_game_state(pride_next_round="yes"), *moves)
    assert yes.rounds_won == (0, 1) and yes.leader == 2
    unless_luck, _ = play(_game_state(pride_next_round="unless_luck"), *moves)
    assert unless_luck.leader == 2  # no Luck in this bout: as "yes"
    discarded, _ = play(_game_state(pride_next_round="unless_luck_discarded"), *moves)
    assert discarded.leader == 2  # no Luck in this bout: as "yes"


@pytest.mark.rules("card.luck.discard", "round.end.luck_zero", "card.pride.next_leader")
def test_pride_next_round_unless_luck() -> None:
    """O13, the setting of the published digital adaptation (preset gamepark): Pride's choice
    holds across the round end unless Luck's discard ended the round (rules file 000, "Luck":
    0 cards through Luck wins the round; "End of a Round": the round winner begins)."""
    table_hands = [[27, 31], [13, 9], [22, 5, 6], [2, 3, 4]]
    # Winter (27) wins and discards Luck (13); seat 2 discards its last card (9) and wins the
    # round with 0 cards; Pride (22, seat 3) names seat 4 as the next leader.
    moves = ("1:27", "2:13", "3:22", "4:2", "2:discards 9")
    leaders = {}
    for setting in ("no", "yes", "unless_luck", "unless_luck_discarded"):
        table = Table(4, make_rules("rulebook", {"pride_next_round": setting}), scope=Scope.GAME)
        start = OmensState.start_of_bout(
            table, table_hands, [[0, 2], [1, 3]], 0, box=[34, 35]
        )
        state, trace = play(start, *moves)
        assert state.rounds_won == (0, 1) and "round.end.luck_zero" in rules_of(trace)
        leaders[setting] = state.leader + 1
    assert leaders == {"no": 2, "yes": 4, "unless_luck": 2, "unless_luck_discarded": 2}


@pytest.mark.rules("card.luck.discard", "round.end.one_card",
                   "card.pride.next_leader")
def test_pride_next_round_when_luck_has_nothing_to_discard() -> None:
    """O13 with O11: Luck is discarded in the bout that ends the round while its player holds
    only Fear, so no card leaves a hand because of Luck (rules file 000, "Luck": 'Fear cannot
    be discarded using Luck's effect'; "Fear"). The round is won with one card (Fear), Pride
    names another seat. Under ``unless_luck`` (a card discarded from hand because of Luck)
    Pride's choice holds; under ``unless_luck_discarded`` (Luck itself discarded: what the
    published digital adaptation does, preset gamepark) the round winner leads; under ``no``
    (rules file 000, "End of a Round": the round winner begins) too, and under ``yes`` Pride's
    choice holds."""
    table_hands = [[27, 7, 8], [12, 13], [22, 5, 6], [2, 3, 4]]
    # Winter (27) wins and discards every yellow card: Luck (13), not Fear (12, protected:
    # it is in seat 2's hand). Seat 2 holds only Fear: Luck has nothing to discard, and seat 2
    # wins the round with one card; Pride (22, seat 3) names seat 4.
    moves = ("1:27", "2:13", "3:22", "4:2")
    leaders = {}
    for setting in ("no", "yes", "unless_luck", "unless_luck_discarded"):
        table = Table(4, make_rules("rulebook", {"pride_next_round": setting}), scope=Scope.GAME)
        start = OmensState.start_of_bout(table, table_hands, [[0, 2], [1, 3]], 0, box=[34, 35])
        state, trace = play(start, *moves)
        assert state.rounds_won == (0, 1) and "round.end.one_card" in rules_of(trace)
        assert state.last_bout is not None and 13 in state.last_bout.discarded
        assert state.last_bout.hands[1] == (12,)
        leaders[setting] = state.leader + 1
    assert leaders == {"no": 2, "yes": 4, "unless_luck": 4, "unless_luck_discarded": 2}
    assert make_rules("gamepark").pride_next_round == "unless_luck_discarded"


def test_reshuffle_absolutes() -> None:
    """O13 (rules file 000, "End of a Round": 'all "The Absolute" cards used in the previous
    round'; 4-5 players keep the others in the box)."""
    moves = ("1:20", "2:22", "3:5", "4:2")
    used, _ = play(_game_state(), *moves)
    assert used.is_chance_node()
    assert 35 not in [a.card for a, _ in used.chance_outcomes()] and used.box == (34, 35)
    every, _ = play(_game_state(reshuffle_absolutes="all"), *moves)
    assert 35 in [a.card for a, _ in every.chance_outcomes()] and every.box == ()


def test_extreme_includes_self() -> None:
    """C1 (rules file 000, "Details": 'in play' is every card in front of the players): Life,
    the only green card, is the highest green card in play."""
    hands = {1: [1, 6], 2: [12, 8], 3: [11, 10], 4: [22, 3]}
    moves = ("1:1", "2:12", "3:11", "4:22")
    yes, _ = play(position(hands), *moves)
    assert yes.last_bout is not None and 1 in yes.last_bout.discarded
    no, _ = play(position(hands, extreme_includes_self="no"), *moves)
    assert no.last_bout is not None and 1 not in no.last_bout.discarded


def test_presets_differ_as_documented() -> None:
    """The gamepark preset is the digital adaptation's list in omens-cards.md."""
    from omen_solver.omens.rules import make_rules

    gamepark = make_rules("gamepark")
    # "no pass-on for Fear; no replay after Wrath; Betrayal can't give back the taken card;
    # Jealousy only swaps with another player's card; the player the card lies in front of
    # resolves it; Law ... do nothing when ... no one is left to play; Pride also picks the
    # next round's starter; Luck's player picks any card but Fear." Measured against that
    # engine: Pride's choice holds across the round end unless Luck was discarded in the bout
    # that ended it, even when its player had nothing to discard (only Fear).
    assert gamepark.fear_pass_on == "no"
    assert gamepark.wrath_replay == "forbidden"
    assert gamepark.betrayal_give_back == "forbidden"
    assert gamepark.jealousy_own_card == "forbidden"
    assert gamepark.now_resolver == "position"
    assert gamepark.law_when_last == "skip"
    assert gamepark.pride_next_round == "unless_luck_discarded"
    assert gamepark.luck_chooser == "owner"
    assert set(gamepark.differences()) == {
        "betrayal_give_back",
        "jealousy_own_card",
        "law_when_last",
        "pride_next_round",
    }
    assert make_rules("rulebook") == OmensRules()


@pytest.mark.parametrize("name", [spec.name for spec in option_specs()])
def test_option_documentation_is_complete(name: str) -> None:
    spec = next(s for s in option_specs() if s.name == name)
    assert spec.question and spec.reason and spec.source and len(spec.settings) >= 2


@pytest.mark.rules("game.end")
def test_first_team_to_two_rounds_wins_the_game() -> None:
    """Rules file 000, "Goal of the Game": the first team to win 2 rounds wins the game."""
    from omen_solver.omens.rules import make_rules

    table = Table(4, make_rules("rulebook"), scope=Scope.GAME)
    state = OmensState.start_of_bout(
        table,
        [[20, 31], [22, 9], [5, 6, 7], [2, 3, 4]],
        [[0, 2], [1, 3]],
        0,
        rounds_won=[0, 1],
        box=[34, 35],
    )
    state, _ = play(state, "1:20", "2:22", "3:5", "4:2")
    assert state.is_terminal() and state.rounds_won == (0, 2)
    assert state.winning_team() == (1, 3)
