"""The action notation and the game protocol (``omen_solver.core.game``).

Every legal action of many positions (every state of seeded random games under every profile,
and the example positions) has one canonical text that parses back to it; text that does not
parse is an ``InvalidActionError``, text that parses but is not legal an
``IllegalActionError``. The protocol: stable sorted actions, chance outcomes summing to 1,
equal keys for equal play, results only at the end.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from omen_solver.core.game import CHANCE, TERMINAL
from omen_solver.errors import IllegalActionError, InvalidActionError
from omen_solver.omen import load
from omen_solver.omen.notation import VERBS, Action, parse_action
from omen_solver.omen.rules import PROFILES
from omen_solver.omen.setup import new_game
from omen_solver.omen.state import OmenState

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "omen"
GAMES_PER_PROFILE = 6


def random_states(profile: str, seed: int) -> list[OmenState]:
    """Every state of one seeded random game."""
    rng = random.Random(seed)
    state = new_game(profile, {"max_turns": "100"}, first_player=seed % 2)
    states = [state]
    while not state.is_terminal():
        state = state.child(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_legal_action_round_trips(profile: str) -> None:
    verbs_seen: set[str] = set()
    checked = 0
    for seed in range(GAMES_PER_PROFILE):
        for state in random_states(profile, seed):
            actions = state.legal_actions()
            assert list(actions) == sorted(set(actions))
            for action in actions:
                text = state.action_to_string(action)
                assert state.string_to_action(text) == action
                assert parse_action(text) == action and str(action) == text
                assert eval(repr(action), {"Action": Action}) == action
                verbs_seen.add(action.verb)
                checked += 1
    assert checked > 1000
    assert {"wealth", "play", "done", "draw", "take", "offer"} <= verbs_seen


def test_the_example_positions_round_trip() -> None:
    for path in sorted(PUZZLES.glob("*.toml")):
        state = load(path)
        for action in state.legal_actions():
            assert state.string_to_action(str(action)) == action


@pytest.mark.parametrize(
    "text",
    ["", "fly", "play hoplite", "play hoplite 4", "play Hoplite 1", "keep 3@1:hoplite",
     "keep 1@1-hoplite", "wealth gold", "choose 3", "done now", "play  hoplite 1",
     "war 0"],
)
def test_text_that_does_not_parse(text: str) -> None:
    with pytest.raises(InvalidActionError) as error:
        parse_action(text)
    assert str(error.value).startswith(repr(text))


def test_parsable_but_illegal_text() -> None:
    state = load(PUZZLES / "war-colossal.toml")
    with pytest.raises(IllegalActionError, match="legal: keep 2@1:augur"):
        state.string_to_action("keep 2@1:cyclops")
    with pytest.raises(IllegalActionError):
        state.child(Action("done"))


def test_every_verb_is_documented() -> None:
    from omen_solver.omen.notation import _ARG_KINDS

    assert set(VERBS) == set(_ARG_KINDS)


def test_protocol_facts() -> None:
    state = new_game("reign-of-war")
    assert state.num_players() == 2 and state.teams() == ((0,), (1,))
    assert state.current_player() == CHANCE and state.legal_actions(0) == ()
    assert sum(p for _, p in state.chance_outcomes()) == Fraction(1)
    assert state.returns() == (Fraction(0), Fraction(0))
    decision = load(PUZZLES / "war-colossal.toml")
    assert decision.current_player() == 1
    assert decision.legal_actions(0) == () and decision.legal_actions(1)
    assert decision.chance_outcomes() == ()


def test_play_is_deterministic_and_keys_merge_transpositions() -> None:
    first, second = random_states("omega", 11), random_states("omega", 11)
    assert [s.key() for s in first] == [s.key() for s in second]
    final = first[-1]
    assert final.current_player() == TERMINAL and final.is_terminal()
    assert sum(final.returns()) == 1 and final.legal_actions() == ()
    state = load(PUZZLES / "war-colossal.toml")
    # Keeping the Hoplite then the Augur, or the other way round, leaves the same position.
    one = state.child(parse_action("keep 2@1:hoplite")).child(parse_action("keep 2@1:augur"))
    two = state.child(parse_action("keep 2@1:augur")).child(parse_action("keep 2@1:hoplite"))
    assert one == two and hash(one) == hash(two)
