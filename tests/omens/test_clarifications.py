"""Every printed clarification listed in omens-cards.md ("What the printed clarifications
settle"), each as at least one test."""

from __future__ import annotations

import pytest

from omen_solver.core.game import SIMULTANEOUS

from .helpers import hand, legal, play, position, rules_of


@pytest.mark.rules(
    "card.dream.target", "bout.return", "bout.winner.owner", "bout.next_leader", "round.continue"
)
def test_cards_return_to_the_hand_they_lie_in_front_of() -> None:
    """'Cards not discarded go back to the hand of the player they lie in front of, whoever
    placed them.' Seat 2 places Malice in front of seat 1 (Dream); it returns to seat 1."""
    state = position({1: [21, 30, 12], 2: [17, 31, 13], 3: [19, 32, 16], 4: [18, 33, 14]})
    state, _ = play(state, "1:21>2", "2:17>1", "3:19", "4:18")
    summary = state.last_bout
    assert summary is not None
    # Dream (21) is the highest card; it lies in front of seat 2, so seat 2 wins the bout.
    assert summary.winning_card == 21 and summary.winner == 1
    assert summary.discarded == (21,)
    assert hand(state, 1) == [12, 17, 30]
    assert hand(state, 2) == [13, 31]
    assert state.leader == 1


@pytest.mark.rules("card.absolute.target", "card.absolute.exchange")
def test_absolute_exchange_is_simultaneous_and_secret() -> None:
    """'The Absolute: both cards are placed face down at the same time, then swapped.' The
    protocol makes it one simultaneous decision: neither choice can depend on the other."""
    state = position({1: [30, 5, 6], 2: [7, 8], 3: [9, 10, 11], 4: [2, 3]})
    assert state.acting_players() == (0,)  # before it: one seat decides, the one to play
    state, _ = play(state, "1:30 with 3")
    assert state.current_player() == SIMULTANEOUS
    assert state.acting_players() == (0, 2)
    assert [str(a) for a in state.legal_actions(2)] == ["3:gives 9", "3:gives 10", "3:gives 11"]
    assert [str(a) for a in state.legal_actions(0)] == ["1:gives 5", "1:gives 6"]
    state, trace = play(state, "1:gives 5 & 3:gives 11")
    assert hand(state, 1) == [6, 11] and hand(state, 3) == [5, 9, 10]
    assert "card.absolute.exchange" in rules_of(trace)


def test_absolute_exchange_has_no_moves_for_a_seat_outside_it() -> None:
    """Rules file 000, "The Absolute": 'Exchange a card from your hand with the player of your
    choice': only the two seats of the exchange give a card; asking for the moves of another
    seat is refused, not answered with gifts from its hand."""
    state = position({1: [30, 5, 6], 2: [7, 8], 3: [9, 10, 11], 4: [2, 3]})
    state, _ = play(state, "1:30 with 3")
    for seat in (1, 3):
        with pytest.raises(ValueError, match="seats choose at once"):
            state.legal_actions(seat)


@pytest.mark.rules(
    "card.betrayal.take",
    "card.betrayal.give",
    "card.dream.placement",
    "card.law.choose",
    "bout.now",
)
def test_betrayal_the_receiver_resolves_the_given_card() -> None:
    """'Betrayal: the person who receives the new card resolves its "now" effect.'"""
    state = position({1: [5, 6], 2: [29, 15, 20], 3: [7, 8], 4: [9, 10]})
    state, _ = play(state, "1:5", "2:29 take 5 give 15")
    assert state.current_player() == 0
    assert legal(state) == ["1:resolve 15 higher", "1:resolve 15 lower"]
    state, _ = play(state, "1:resolve 15 higher")
    assert state.law == (15, 1)
    assert hand(state, 2) == [5, 20]


@pytest.mark.rules("card.law.ends", "card.law.constraint")
def test_betrayal_taking_law_ends_its_constraint() -> None:
    """'Betrayal: ... taking Law away ends its constraint for the rest of the bout.'"""
    state = position({1: [15, 6], 2: [29, 20], 3: [3, 25], 4: [9, 10]})
    state, _ = play(state, "1:15 lower")
    # Seat 2 has no card lower than 15, so it may play Betrayal (rules file 000, "Law").
    state, trace = play(state, "2:29 take 15 give 20")
    assert state.law is None
    assert legal(state) == ["3:3", "3:25"]
    assert "card.law.ends" in rules_of(trace)


@pytest.mark.rules("card.wrath.return", "card.wrath.replay", "card.law.ends", "card.jealousy.swap")
def test_wrath_sending_law_back_ends_it_and_the_replacement_applies_at_once() -> None:
    """'Wrath: sending Law back ends its constraint; a "now" effect on the replacement applies
    at once.' Seat 1's replacement Jealousy swaps with Wrath immediately."""
    state = position({1: [15, 23, 5], 2: [28, 26], 3: [3, 25], 4: [9, 10]})
    state, _ = play(state, "1:15 lower", "2:28 return 15")
    assert state.law is None
    assert state.current_player() == 0
    assert "1:15 lower" not in legal(state)  # "another card" (option wrath_replay)
    assert "1:23 swap 28" in legal(state)
    state, _ = play(state, "1:23 swap 28")
    placed = {p.card: p.before for p in state.in_play}
    assert placed == {23: 1, 28: 0}
    assert legal(state) == ["3:3", "3:25"]


@pytest.mark.rules("card.jealousy.swap", "card.law.constraint")
def test_jealousy_does_not_trigger_the_card_it_takes() -> None:
    """'Jealousy: a "now" card received in the swap does not trigger again.' Law moves to
    seat 2 without a new choice; its constraint (lower) stays."""
    state = position({1: [15, 6], 2: [23, 29], 3: [3, 25], 4: [9, 10]})
    state, _ = play(state, "1:15 lower", "2:23 swap 15")
    assert not state.pending
    assert state.current_player() == 2
    assert state.law == (15, -1)
    assert legal(state) == ["3:3"]


@pytest.mark.rules("card.dream.self")
def test_dream_in_front_of_yourself_does_nothing() -> None:
    """'Dream: in front of yourself it does nothing.'"""
    state = position({1: [21, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]})
    state, trace = play(state, "1:21")
    assert not state.pending and state.current_player() == 1
    assert "card.dream.self" in rules_of(trace)


def test_dream_target_must_not_have_played() -> None:
    """'Dream: the target must not have played yet this bout.'"""
    state = position({1: [5, 6], 2: [7, 8], 3: [21, 10], 4: [2, 3]})
    state, _ = play(state, "1:5", "2:7")
    assert [m for m in legal(state) if m.startswith("3:21")] == ["3:21", "3:21>4"]


def test_law_with_no_card_that_follows_any_card_may_be_played() -> None:
    """'Law: with no card that can follow the constraint, play any card.'"""
    state = position({1: [15, 6], 2: [20, 25], 3: [3, 25 - 1], 4: [9, 10]})
    state, _ = play(state, "1:15 lower")
    assert legal(state) == ["2:20", "2:25"]


@pytest.mark.rules("card.fear.protected")
def test_fear_ignores_effects_that_would_discard_it() -> None:
    """'Fear: the only way to discard it is to win the bout with it.' Lie discards the highest
    yellow card, which is Fear: Fear stays (no pass-on by default, option fear_pass_on)."""
    state = position({1: [12, 6], 2: [9, 8], 3: [26, 10], 4: [2, 3]})
    state, trace = play(state, "1:12", "2:9", "3:26", "4:2")
    summary = state.last_bout
    assert summary is not None
    # Sadness: the highest (26) cannot win; Fear (12) is second-highest and wins.
    assert summary.winning_card == 12
    assert 12 in summary.discarded
    state = position({1: [12, 6], 2: [9, 8], 3: [25, 10], 4: [2, 3]})
    state, trace = play(state, "1:12", "2:9", "3:25", "4:2")
    assert state.last_bout is not None and 12 not in state.last_bout.discarded
    assert hand(state, 1) == [6, 12]
    assert "card.fear.protected" in rules_of(trace)


@pytest.mark.rules("card.fear.wins", "bout.winner.sadness")
def test_fear_that_wins_is_discarded() -> None:
    """'Fear: ... The only way to discard Fear is to win the bout with it.'"""
    state = position({1: [12, 6], 2: [9, 8], 3: [26, 10], 4: [2, 3]})
    state, trace = play(state, "1:12", "2:9", "3:26", "4:2")
    assert state.last_bout is not None and state.last_bout.winning_card == 12
    assert "card.fear.wins" in rules_of(trace)


@pytest.mark.rules("card.luck.discard")
def test_luck_cannot_discard_fear() -> None:
    """'Luck can't discard it [Fear].' Seat 1 holds only Fear when Luck is discarded."""
    state = position({1: [13, 12], 2: [7, 8], 3: [9, 10], 4: [2, 3]})
    # Luck (13) is the highest card: it wins and is discarded.
    state, trace = play(state, "1:13", "2:7", "3:9", "4:2")
    assert hand(state, 1) == [12]
    assert "card.luck.discard" in rules_of(trace)


@pytest.mark.rules("round.end.luck_zero", "card.luck.discard")
def test_luck_zero_cards_wins_over_players_with_one() -> None:
    """'Luck: 0 cards in hand through Luck wins the round even over players left with 1.'
    Seat 2 (team 2) ends with 0 cards by Luck; seat 1 (team 1) ends with 1 card."""
    state = position({1: [4, 31], 2: [13, 9], 3: [16, 6, 7], 4: [22, 3, 5]}, leader=1)
    # Pride (22) wins and goes; Calm (4) goes (a red card is in play); Truth (16) discards the
    # lowest yellow, Luck (13): seat 2 must discard its last card (9) and has 0 cards, while
    # seat 1 is left with 1 card.
    state, trace = play(state, "1:4", "2:13", "3:16", "4:22", "2:discards 9")
    assert hand(state, 2) == [] and len(hand(state, 1)) == 1
    assert state.is_terminal() and state.winning_team() == (1, 3)
    assert "round.end.luck_zero" in rules_of(trace)


@pytest.mark.rules("bout.winner.mirror", "bout.winner.mirror_over_sadness")
def test_mirror_lowest_wins_and_sadness_is_ignored() -> None:
    """'Mirror: the lowest card wins and is discarded as the winner; with Mirror in play
    Sadness is ignored.'"""
    state = position({1: [14, 6], 2: [26, 8], 3: [30, 10], 4: [22, 3]})
    state, _ = play(state, "1:14", "2:26", "3:30 with 4", "3:gives 10 & 4:gives 3", "4:22")
    summary = state.last_bout
    assert summary is not None
    assert summary.winning_card == 14 and summary.winner == 0
    assert 14 in summary.discarded and 26 not in summary.discarded


@pytest.mark.rules("bout.no_effect")
def test_an_effect_that_cannot_apply_does_nothing() -> None:
    """'You must always apply an effect; if it can't apply, the card is played with no
    effect.' Wrath led: no card lies in front of anyone."""
    state = position({1: [28, 6], 2: [7, 8], 3: [9, 10], 4: [2, 3]})
    assert legal(state) == ["1:6", "1:28"]
    state, trace = play(state, "1:28")
    assert "bout.no_effect" in rules_of(trace)
    assert state.current_player() == 1


def test_an_effect_that_can_apply_must_be_applied() -> None:
    """'You must always apply a card's effect': Wrath with a target has no plain play."""
    state = position({1: [5, 6], 2: [28, 8], 3: [9, 10], 4: [2, 3]})
    state, _ = play(state, "1:5")
    assert legal(state) == ["2:8", "2:28 return 5"]
