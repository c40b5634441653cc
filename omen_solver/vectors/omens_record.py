"""Omens vectors: a position, an action sequence, and what this library's engine says must hold
after every step.

The JSON forms defined here are the published format (``docs/vectors.md``): the options (the
preset, the overrides and every setting spelled out), the position (seats 1..N, cards by value)
and the state reported at the end of each bout. :func:`record` plays a sequence and writes down
the legal actions after every step and the state at every bout end; :func:`state_view` and
:func:`legal_view` are also what the protocol adapter of this library answers
(:mod:`omen_solver.vectors.engine`), so the suite checks this engine through the same path as
any other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TraceStep
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb, parse_action
from omen_solver.omens.position import parse_position
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import OmensRules, make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table
from omen_solver.omens.vocabulary import ChoiceWord

__all__ = [
    "OmensSetup",
    "Recording",
    "cards_of_move",
    "legal_view",
    "normalize_move",
    "record",
    "recorded_steps",
    "replay_rules",
    "replay_step",
    "rulebook_passages",
    "setup_from_json",
    "state_view",
    "to_act_view",
    "turn_view",
]


def normalize_move(text: str) -> str:
    """A joint action's parts in seat order (``3:gives 5 & 1:gives 9`` -> ``1:gives 9 &
    3:gives 5``); any other action unchanged. Vectors and the runner use this form."""
    if "&" not in text:
        return text
    parts = [part.strip() for part in text.split("&")]
    return " & ".join(sorted(parts, key=lambda part: int(part.split(":", 1)[0])))


@dataclass(frozen=True)
class OmensSetup:
    """The options and the position of a vector, in the published JSON form (1-based)."""

    players: int
    teams: tuple[tuple[int, ...], ...]
    hands: Mapping[int, Sequence[int]]
    leader: int
    scope: str = "round"
    preset: str = "rulebook"
    overrides: Mapping[str, str] = field(default_factory=dict)
    rounds_won: tuple[int, ...] = ()
    box: tuple[int, ...] = ()
    new_game: bool = False
    """Start from the first deal of a game (the hands, teams and leader are dealt)."""

    def options_json(self) -> dict[str, Any]:
        rules = make_rules(self.preset, self.overrides, where="options.overrides")
        return {
            "preset": self.preset,
            "overrides": dict(sorted(self.overrides.items())),
            "settings": rules.as_dict(),
        }

    def position_json(self) -> dict[str, Any]:
        if self.new_game:
            return {"players": self.players, "phase": "new-game", "scope": self.scope}
        teams = sorted(tuple(sorted(team)) for team in self.teams)
        return {
            "players": self.players,
            "teams": [list(team) for team in teams],
            "hands": {str(seat): sorted(self.hands[seat]) for seat in range(1, self.players + 1)},
            "leader": self.leader,
            "scope": self.scope,
            "rounds_won": list(self.rounds_won or (0,) * len(teams)),
            "box": sorted(self.box),
        }

    def start(self) -> OmensState:
        return start_state(self.options_json(), self.position_json(), "setup")


def start_state(options: Mapping[str, Any], position: Mapping[str, Any], where: str) -> OmensState:
    """The state a vector's ``options`` and ``position`` describe (errors name ``where``)."""
    if position.get("phase") == "new-game":
        rules = make_rules(None, options["settings"], where=f"{where}: options.settings")
        table = Table(int(position["players"]), rules, scope=Scope(position["scope"]))
        return OmensState.new_game(table)
    data = {
        "game": "omens",
        "players": position["players"],
        "teams": position["teams"],
        "rules": dict(options["settings"]),
        "scope": position["scope"],
        "hands": position["hands"],
        "bout": {"leader": position["leader"]},
        "rounds_won": position["rounds_won"],
        "box": position["box"],
    }
    return parse_position(data, where).state


def setup_from_json(options: Mapping[str, Any], position: Mapping[str, Any]) -> OmensSetup:
    if position.get("phase") == "new-game":
        return OmensSetup(
            players=position["players"], teams=(), hands={}, leader=1, scope=position["scope"],
            preset=options["preset"], overrides=dict(options["overrides"]), new_game=True,
        )
    hands = {int(seat): tuple(cards) for seat, cards in position["hands"].items()}
    return OmensSetup(
        players=position["players"],
        teams=tuple(tuple(team) for team in position["teams"]),
        hands=hands,
        leader=position["leader"],
        scope=position["scope"],
        preset=options["preset"],
        overrides=dict(options["overrides"]),
        rounds_won=tuple(position["rounds_won"]),
        box=tuple(position["box"]),
    )


def legal_view(state: OmensState) -> list[str]:
    """The legal actions (joint actions at a simultaneous node, chance outcomes at a chance
    node), normalized, in the library's order."""
    return [normalize_move(state.move_to_string(move)) for move in state.moves()]


def to_act_view(state: OmensState) -> int | str | list[int] | None:
    """Who acts: a seat, ``"chance"``, the seats of a simultaneous decision (in seat order),
    or None once play is over."""
    if state.is_terminal():
        return None
    player = state.current_player()
    if player == SIMULTANEOUS:
        return sorted(seat + 1 for seat in state.acting_players())
    if player == CHANCE:
        return "chance"
    return player + 1


def turn_view(state: OmensState) -> dict[str, Any]:
    """What the vectors state after every step: who acts and the legal actions."""
    return {"to_act": to_act_view(state), "legal": legal_view(state)}


def _seats(seats: Sequence[int] | None) -> list[int] | None:
    return None if seats is None else [seat + 1 for seat in seats]


def state_view(state: OmensState) -> dict[str, Any]:
    """What the published format states at the end of a bout: the bout just resolved (winner,
    discards with Luck's), every hand, who leads next, the round and the game."""
    summary = state.last_bout
    if summary is None:
        raise OmenSolverError("no bout has been resolved yet: there is no state to report")
    teams = state.teams()
    round_team = None
    if summary.round_winner is not None:
        round_team = teams[state.team_of(summary.round_winner)]
    return {
        "bout_winner": None if summary.winner is None else summary.winner + 1,
        "discarded": list(summary.discarded),
        "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(summary.hands)},
        "next_leader": summary.next_leader + 1,
        "round_winner": None if summary.round_winner is None else summary.round_winner + 1,
        "round_winner_team": _seats(round_team),
        "rounds_won": list(state.rounds_won),
        "over": state.is_terminal(),
        "winner_team": _seats(state.winning_team()),
    }


def cards_of_move(text: str) -> Iterator[int]:
    """The cards a move names: placed, returned, taken, given, swapped, shown or discarded
    (a chance deal names none)."""
    for part in text.split("&"):
        action: OmensAction = parse_action(part.strip())
        if action.verb is Verb.DEAL:
            continue
        yield action.card
        choice = action.choice
        keyword = choice[0] if choice else None
        if keyword in (ChoiceWord.RETURN, ChoiceWord.SWAP):
            yield int(choice[1])
        elif keyword == ChoiceWord.TAKE:
            yield from (int(choice[1]), int(choice[2]))
        elif keyword == ChoiceWord.SHOW:
            yield int(choice[2])


def rulebook_passages(rules: Sequence[str]) -> str:
    """The rulebook passages behind rule ids, each once, in order: ``000 Law; 000 Wrath``."""
    seen: list[str] = []
    for rule in rules:
        for source in RULES[rule].source.split("; "):
            if source not in seen:
                seen.append(source)
    return "; ".join(seen)


@dataclass
class Recording:
    """A played sequence: the vector's expectations and the facts coverage is measured on."""

    start: OmensState
    moves: list[str] = field(default_factory=list)
    states: list[OmensState] = field(default_factory=list)
    traces: list[list[TraceStep]] = field(default_factory=list)

    @property
    def final(self) -> OmensState:
        return self.states[-1] if self.states else self.start

    def rules(self) -> list[str]:
        """The rule ids the trace cites, in the order of the rule table."""
        cited = {step.rule for trace in self.traces for step in trace}
        return [rule for rule in RULES if rule in cited]

    def cards(self) -> list[int]:
        return sorted({card for move in self.moves for card in cards_of_move(move)})

    def bout_ends(self) -> list[bool]:
        """For each step, whether a bout was resolved by it."""
        ends = []
        previous = self.start
        for state in self.states:
            ends.append(state.last_bout is not None and state.last_bout is not previous.last_bout)
            previous = state
        return ends

    def steps_json(self) -> list[dict[str, Any]]:
        steps = []
        for move, state, end in zip(self.moves, self.states, self.bout_ends(), strict=True):
            step: dict[str, Any] = {"action": move, **turn_view(state)}
            if end:
                step["state"] = state_view(state)
            steps.append(step)
        return steps


def record(start: OmensState, moves: Sequence[str]) -> Recording:
    """Play ``moves`` from ``start``, keeping every state and trace (an illegal move raises)."""
    recording = Recording(start)
    state = start
    for text in moves:
        move = state.parse_move(text)
        recording.moves.append(normalize_move(state.move_to_string(move)))
        state, trace = state.explain(move)
        recording.states.append(state)
        recording.traces.append(trace)
    return recording


def vector_json(
    vector_id: str,
    why: str,
    source: str,
    setup: OmensSetup,
    recording: Recording,
    covers: Sequence[str] = (),
    holds_under: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One vector in the published form (``holds_under``: :mod:`omen_solver.vectors.holds`)."""
    rules = recording.rules()
    passages = rulebook_passages(rules)
    text = why.strip()
    if passages:
        text += f"\nRulebook passages of the rules applied: {passages}."
    data: dict[str, Any] = {
        "id": vector_id,
        "game": "omens",
        "why": text,
        "source": source,
        "rules": rules,
        "cards": recording.cards(),
    }
    if covers:
        data["covers"] = list(covers)
    data["options"] = setup.options_json()
    if holds_under is not None:
        data["holds_under"] = dict(holds_under)
    data.update(
        {
            "position": setup.position_json(),
            "start": turn_view(recording.start),
            "steps": recording.steps_json(),
        }
    )
    return data


def replay_step(before: OmensState, text: str) -> tuple[OmensState, dict[str, Any]]:
    """The state after the move written ``text`` and the step as a vector records it (with
    the table when a bout ended); an illegal move raises :class:`ValueError`. Replays resume
    from any recorded state with it (:mod:`omen_solver.vectors.holds`)."""
    move = before.parse_move(text)
    after = before.explain(move)[0]
    view: dict[str, Any] = {"action": normalize_move(before.move_to_string(move)),
                            **turn_view(after)}
    if after.last_bout is not None and after.last_bout is not before.last_bout:
        view["state"] = state_view(after)
    return after, view


def replay_rules(state: OmensState) -> OmensRules:
    """The rule options a state plays under: one object shared by the states of a line, which
    a resumed replay sets to other settings (:mod:`omen_solver.vectors.holds`)."""
    return state.table.rules


def recorded_steps(start: OmensState, moves: Sequence[str]) -> list[dict[str, Any]]:
    """The steps of ``moves`` played from ``start`` as a vector records them."""
    return record(start, moves).steps_json()
