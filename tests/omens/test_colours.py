"""The colour effects (omens-cards.md), and Malice counting as every colour at once."""

from __future__ import annotations

import pytest

from .helpers import play, position

# Four players; seat 4 always plays a filler card that no effect in these tests touches unless
# stated. Each case: the four cards played (seats 1-4) and the cards discarded at the end.
CASES = [
    # Malice (17) is yellow: Summer (11) is not the only yellow card, so it stays.
    ("summer_with_malice", (11, 17, 30, 31), {31}),
    # Malice is green: Love (2) sees another green card and goes.
    ("love_with_malice", (2, 17, 30, 31), {31, 2}),
    # Malice is green: Life (1) discards the highest green card, Malice.
    ("life_discards_malice", (1, 17, 30, 31), {31, 17}),
    # Malice is yellow: Winter (27) discards every yellow card.
    ("winter_discards_malice", (27, 17, 9, 30), {30, 17, 9}),
    # Malice is red: Night (25) discards the lowest red card, Malice (17 < 25).
    ("night_discards_malice", (25, 17, 30, 31), {31, 17}),
    # Day (18) discards the highest red: Malice is red but lower; Day itself is the highest.
    ("day_is_highest_red", (18, 17, 30, 31), {31, 18}),
    # Death (8) discards the lowest green: with Malice, Death (8) is the lowest green itself.
    ("death_with_malice", (8, 17, 30, 31), {31, 8}),
    # Truth (16) discards the lowest yellow: Truth itself (16 < 17).
    ("truth_with_malice", (16, 17, 30, 31), {31, 16}),
    # Spring (7) and Autumn (19) are not alone in their colour with Malice.
    ("spring_autumn_with_malice", (7, 19, 17, 31), {31}),
    # Friendship, Calm, Feast go: Malice is yellow, red and blue.
    ("friendship_calm_feast", (3, 4, 5, 17), {17, 3, 4, 5}),
    # Without Malice, Friendship (3) sees no yellow card and stays; Calm sees no red.
    ("friendship_calm_alone", (3, 4, 30, 31), {31}),
    # Hope (6) goes when it is the lowest card; Enigma (10) goes when an Absolute is in play.
    ("hope_and_enigma", (6, 10, 30, 31), {31, 6, 10}),
    # Harmony (20) discards the lowest card of any colour.
    ("harmony_discards_lowest", (20, 9, 30, 31), {31, 9}),
    # Harmony is the lowest card in play: it discards itself.
    ("harmony_discards_itself", (20, 22, 30, 31), {31, 20}),
    # Life and Death discard each other.
    ("life_and_death", (1, 8, 30, 31), {31, 1, 8}),
    # Lie (9) discards the highest yellow: Malice (17).
    ("lie_discards_malice", (9, 17, 30, 31), {31, 17}),
]


@pytest.mark.parametrize(("cards", "discarded"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_colour_effects(cards: tuple[int, ...], discarded: set[int]) -> None:
    """omens-cards.md: the colour effect of each card; Malice (17) 'counts as green, yellow,
    red and blue'. The Absolutes are played with an exchange that changes nothing relevant."""
    fillers = [21, 22, 23, 24, 26, 28, 29, 32, 33, 34, 35, 12, 13, 14, 15]
    used = set(cards)
    spare = [c for c in fillers if c not in used]
    hands = {
        seat + 1: [card, spare[2 * seat], spare[2 * seat + 1]] for seat, card in enumerate(cards)
    }
    state = position(hands)
    moves = []
    for seat, card in enumerate(cards, start=1):
        if card >= 30:
            target = 1 if seat != 1 else 2
            moves += [f"{seat}:{card} with {target}"]
            state, _ = play(state, *moves[-1:])
            giver, taker = state.acting_players()
            state, _ = play(
                state,
                f"{giver + 1}:gives {state.hands[giver][-1]} & "
                f"{taker + 1}:gives {state.hands[taker][-1]}",
            )
        else:
            move = next(
                m
                for m in (str(a) for a in state.legal_actions())
                if m.split()[0] == f"{seat}:{card}"
            )
            state, _ = play(state, move)
    assert state.last_bout is not None
    assert set(state.last_bout.discarded) == discarded


@pytest.mark.rules(
    "card.colour.extreme", "card.colour.all", "card.colour.self", "card.malice.colours"
)
def test_colour_rules_are_traced() -> None:
    """Winter (27) discards Malice and Summer (every yellow); Feast (5) discards itself (a blue
    card is in play); Life (1) discards the highest green, Malice."""
    state = position({1: [11, 21, 22], 2: [17, 23, 24], 3: [5, 26, 28], 4: [27, 1, 12]})
    state, _ = play(state, "1:11", "2:17", "3:5", "4:27")
    assert state.last_bout is not None and set(state.last_bout.discarded) == {27, 17, 11, 5}
    state = position({1: [1, 21, 22], 2: [17, 23, 24], 3: [6, 26, 28], 4: [9, 2, 12]})
    state, _trace = play(state, "1:1", "2:17", "3:6", "4:9")
    assert state.last_bout is not None and 17 in state.last_bout.discarded
