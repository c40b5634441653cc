"""What the web board asks of the library, in one place.

The server never reads a path from a request: a position arrives as TOML text (or as the
parsed tables of the position editor) in the request body and is read here with the same
readers, and so the same one-line messages, as the command line. Everything the board shows is
computed here as plain JSON-ready data: the seats, hands and cards in play, who acts, and for
each legal action its canonical text, a label, and the clicks that choose it on the board.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import parse_toml, read_text
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TraceStep, game_named
from omen_solver.core.values import toml_text
from omen_solver.errors import OmenSolverError, PositionError, RequestError, shown
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.game import OMENS
from omen_solver.omens.position import OmensPosition, parse_position, position_toml
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import PRESETS, option_specs
from omen_solver.omens.state import BoutSummary, OmensState
from omen_solver.omens.table import Scope
from omen_solver.omens.vocabulary import ChoiceWord, Effect, PendingKind, law_word

__all__ = [
    "POSITION_NAME",
    "Board",
    "board_view",
    "cards_json",
    "dump_toml",
    "export_toml",
    "load_board",
    "options_json",
    "position_from_data",
    "position_texts",
    "read_position_line",
    "read_position_text",
    "rules_json",
]

POSITION_NAME: Final = "position"
"""How messages name a position that came in a request (the CLI names the file)."""

MAX_MOVES: Final = 2000
"""The most moves a request replays (a whole game is a few hundred)."""


# -- reading positions -------------------------------------------------------------------------


def _refuse_files(data: Mapping[str, Any], keys: Sequence[str]) -> None:
    """The server reads positions from the request only: a key naming a file is refused."""
    for key in keys:
        if key in data:
            raise PositionError(
                f"{POSITION_NAME}: key '{key}': names a file on disk, which the web API never "
                "reads (positions come from the request body only); use the command line for "
                "your own card files"
            )


def read_position_text(text: object, game: str) -> dict[str, Any]:
    """Parse TOML text from a request: the tables of a position of ``game``."""
    if not isinstance(text, str):
        raise RequestError(f"'toml': expected the position file's text, not {shown(text)}")
    data = parse_toml(text, POSITION_NAME)
    described = game_named(game)
    found = data.get("game", game if described.game_key_optional else None)
    if found != game:
        raise PositionError(
            f"{POSITION_NAME}: key 'game': this board reads {game!r} positions, not "
            f"{shown(found)}"
        )
    _refuse_files(data, described.file_keys)
    return data


def read_position_line(text: object, game: str) -> dict[str, Any]:
    """A position's one-line text from a request (``docs/position-text.md``): the tables of a
    position of ``game``."""
    from omen_solver.core.positions import position_text

    if not isinstance(text, str):
        raise RequestError(f"'text': expected a position's one-line text, not {shown(text)}")
    found = position_text(text)
    if found is None or found.split()[0] != game:
        raise PositionError(f"{POSITION_NAME}: not the text of {game!r} position: it starts "
                            f"with {game!r} (docs/position-text.md)")
    read = game_named(game).text_data
    assert read is not None
    data = read(found, POSITION_NAME)
    _refuse_files(data, game_named(game).file_keys)
    return data


def position_texts(state: Any) -> dict[str, str]:
    """A state's one-line text and its position file (``POST /api/GAME/text``), as its
    game's codec writes them."""
    from omen_solver.core.game import game_of

    write = game_of(state).write_file
    assert write is not None
    return {"text": state.to_text(), "toml": write(state)}


def position_from_data(data: object) -> OmensPosition:
    """An Omens position from its tables (the editor's, or a parsed file)."""
    if not isinstance(data, dict):
        raise RequestError(f"'position': expected the position's tables, not {shown(data)}")
    _refuse_files(data, OMENS.file_keys)
    return parse_position(data, POSITION_NAME)


def moves_list(value: object) -> list[str]:
    """The ``moves`` of a request: a list of actions in canonical notation."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(move, str) for move in value):
        raise RequestError("'moves': expected a list of actions in canonical notation")
    if len(value) > MAX_MOVES:
        raise RequestError(f"'moves': at most {MAX_MOVES} moves, not {len(value)}")
    return list(value)


# -- a board: a position and the moves played on it ---------------------------------------------


@dataclass(frozen=True)
class Played:
    """One move played on the board: its text, who made it, the explained steps, and the bout
    it finished (if any)."""

    text: str
    by: str
    steps: tuple[TraceStep, ...]
    bout: BoutSummary | None


@dataclass(frozen=True)
class Board:
    position: OmensPosition
    data: dict[str, Any]
    """The position's tables as read (what the export writes back)."""
    file_moves: int
    """How many of :attr:`history`'s moves are the file's own ``bout.moves``."""
    history: tuple[Played, ...]
    state: OmensState


def _actor(state: OmensState) -> str:
    player = state.current_player()
    if player == SIMULTANEOUS:
        return " & ".join(f"seat {seat + 1}" for seat in state.acting_players())
    if player == CHANCE:
        return "chance"
    return f"seat {player + 1}"


def _play(state: OmensState, text: str, where: str) -> tuple[OmensState, Played]:
    try:
        move = state.parse_move(text)
    except OmenSolverError as error:
        raise PositionError(f"{where}: {error}") from None
    canonical = state.action_to_string(move)
    by = _actor(state)
    after, log = state.explain(move)
    finished = after.last_bout if after.last_bout is not state.last_bout else None
    return after, Played(canonical, by, tuple(log), finished)


def load_board(data: dict[str, Any], moves: Sequence[str]) -> Board:
    """Read a position and play ``moves`` on it; an illegal move names its place,
    ``moves[N]``, as the CLI's ``--moves[N]`` does."""
    position = position_from_data(data)
    state = position.start
    history: list[Played] = []
    for move in position.moves:
        state, played = _play(state, state.action_to_string(move), "bout.moves")
        history.append(played)
    for number, text in enumerate(moves, start=1):
        state, played = _play(state, text, f"moves[{number}] (of {len(moves)})")
        history.append(played)
    return Board(position, data, len(position.moves), tuple(history), state)


# -- what the board shows ------------------------------------------------------------------------


def _hand(seat: int, card: int) -> str:
    return f"hand:{seat + 1}:{card}"


def _choice_clicks(state: OmensState, seat: int, choice: tuple[Any, ...]) -> list[str]:
    if not choice:
        return []
    word = str(choice[0])
    if word in (ChoiceWord.LOWER, ChoiceWord.HIGHER):
        return [f"word:{word}"]
    if word in (ChoiceWord.RETURN, ChoiceWord.SWAP):
        return [f"play:{choice[1]}"]
    if word == ChoiceWord.TAKE:
        # The card given is chosen in hand; the card just taken is not shown there yet.
        given = int(choice[2])
        last = f"word:give back {given}" if given == choice[1] else _hand(seat, given)
        return [f"play:{choice[1]}", last]
    if word == ChoiceWord.ASK:
        return [f"seat:{int(choice[1]) + 1}", "word:ask"]
    if word == ChoiceWord.SHOW:
        return [f"seat:{int(choice[1]) + 1}", "word:show", _hand(seat, int(choice[2]))]
    if word == ChoiceWord.WITH:
        return [f"seat:{int(choice[1]) + 1}"]
    raise ValueError(f"unknown choice {word!r}")  # pragma: no cover - the notation has no other


def action_clicks(state: OmensState, action: OmensAction) -> list[str]:
    """The clicks that choose ``action`` on the board, in order: a card in a hand
    (``hand:SEAT:CARD``), a card in play (``play:CARD``), a seat (``seat:SEAT``) or a word
    (``word:lower``). Two legal actions never have the same clicks."""
    verb = action.verb
    if verb is Verb.DEAL:
        return [f"word:deal {action.card} to {action.seat + 1}"]
    if verb in (Verb.SHOWS, Verb.GIVES, Verb.DISCARDS):
        return [_hand(action.seat, action.card)]
    if verb is Verb.RESOLVE:
        return [f"play:{action.card}", *_choice_clicks(state, action.seat, action.choice)]
    clicks = [_hand(action.seat, action.card)]
    placement = bool(state.pending) and state.pending[-1][0] == PendingKind.DREAM
    if state.table.effect[action.card] == Effect.DREAM and not placement:
        clicks.append(f"seat:{(action.to if action.to >= 0 else action.seat) + 1}")
    return clicks + _choice_clicks(state, action.seat, action.choice)


def _seats_text(seats: Sequence[int]) -> str:
    return " and ".join(str(seat + 1) for seat in seats)


def action_label(state: OmensState, action: OmensAction) -> str:
    """A sentence for people: what the action does."""
    name = state.table.name
    seat = action.seat + 1
    verb = action.verb
    if verb is Verb.DEAL:
        return f"{name(action.card)} is dealt to seat {seat}"
    if verb is Verb.SHOWS:
        return f"seat {seat} shows {name(action.card)}"
    if verb is Verb.GIVES:
        return f"seat {seat} gives {name(action.card)}"
    if verb is Verb.DISCARDS:
        return f"seat {seat} discards {name(action.card)} (Luck)"
    head = (
        f"seat {seat} resolves {name(action.card)}"
        if verb is Verb.RESOLVE
        else f"seat {seat} plays {name(action.card)}"
    )
    if verb is Verb.PLAY and action.to >= 0:
        head += f" in front of seat {action.to + 1}"
    choice = action.choice
    if not choice:
        return head
    word = str(choice[0])
    if word in (ChoiceWord.LOWER, ChoiceWord.HIGHER):
        return f"{head}: later cards {word} than {action.card}"
    if word == ChoiceWord.RETURN:
        return f"{head}: sends {name(int(choice[1]))} back to its player's hand"
    if word == ChoiceWord.TAKE:
        return f"{head}: takes {name(int(choice[1]))} and gives {name(int(choice[2]))}"
    if word == ChoiceWord.SWAP:
        return f"{head}: swaps with {name(int(choice[1]))}"
    if word == ChoiceWord.ASK:
        return f"{head}: seat {int(choice[1]) + 1} must show a card"
    if word == ChoiceWord.SHOW:
        return f"{head}: shows {name(int(choice[2]))} to seat {int(choice[1]) + 1}"
    if word == ChoiceWord.WITH:
        return f"{head}: exchanges a card with seat {int(choice[1]) + 1}"
    return head  # pragma: no cover


def _move_entry(state: OmensState, move: tuple[OmensAction, ...]) -> dict[str, Any]:
    text = state.action_to_string(move)
    if len(move) == 2:
        clicks = [_hand(a.seat, a.card) for a in move]
        label = " and ".join(action_label(state, a) for a in move) + ", at once and face down"
    else:
        clicks = action_clicks(state, move[0])
        label = action_label(state, move[0])
    return {"text": text, "label": label, "clicks": clicks}


def _pending_text(state: OmensState) -> str | None:
    """What the player to act is doing, when it is not a plain turn."""
    if not state.pending:
        return None
    name = state.table.name
    kind, seat, a, b = state.pending[-1]
    who = f"seat {seat + 1}"
    del b
    if kind == PendingKind.DREAM:
        return f"{who}, Dream's target, places a card in front of seat {a + 1}"
    if kind == PendingKind.REPLAY:
        return f"{who} plays another card (Wrath sent {name(a)} back)"
    if kind == PendingKind.RESOLVE:
        return f"{who} resolves {name(a)}, which lies in front of them"
    if kind == PendingKind.SHOW:
        return f"{who} shows a card to seat {a + 1} (Secret)"
    if kind == PendingKind.EXCHANGE:
        return (f"seats {seat + 1} and {a + 1} each choose a card to give, face down "
                "(The Absolute)")
    if kind == PendingKind.GIVE:
        return f"{who} gives a card to seat {a + 1} (The Absolute, open exchange)"
    if kind == PendingKind.GIVE_BACK:
        return f"{who} gives a card back to seat {a + 1} (The Absolute, open exchange)"
    if kind == PendingKind.LUCK:
        return f"{who} discards a card from hand (Luck)"
    if kind == PendingKind.END_ABSOLUTE:
        return f"{who} chooses whom to exchange a card with (The Absolute)"
    return kind


def _bout_json(summary: BoutSummary, state: OmensState) -> dict[str, Any]:
    round_team = None
    if summary.round_winner is not None:
        round_team = [s + 1 for s in state.teams()[state.team_of(summary.round_winner)]]
    return {
        "number": summary.number,
        "winner": None if summary.winner is None else summary.winner + 1,
        "winning_card": summary.winning_card,
        "discarded": list(summary.discarded),
        "next_leader": summary.next_leader + 1,
        "round_winner": None if summary.round_winner is None else summary.round_winner + 1,
        "round_winner_team": round_team,
    }


def _result_text(state: OmensState) -> str | None:
    if not state.is_terminal():
        return None
    team = state.winning_team()
    scope = state.table.scope.value
    if team is None:
        return f"the {scope} is over: no team won"
    return f"the {scope} is over: seats {_seats_text(team)} win"


def board_view(board: Board) -> dict[str, Any]:
    """Everything the page draws for an Omens board."""
    state = board.state
    teams = state.teams()
    player = state.current_player()
    if state.is_terminal():
        to_act: Any = None
    elif player == SIMULTANEOUS:
        to_act = "simultaneous"
    elif player == CHANCE:
        to_act = "chance"
    else:
        to_act = player + 1
    acting = [] if state.is_terminal() or player == CHANCE else [
        s + 1 for s in state.acting_players()
    ]
    seats = [
        {
            "seat": seat + 1,
            "team": state.team_of(seat) + 1,
            "hand": list(state.hands[seat]),
            "played": state.played_this_bout(seat),
            "laurels": state.rounds_won[state.team_of(seat)],
            "leader": seat == state.leader,
        }
        for seat in range(state.num_players())
    ]
    law = None
    if state.law is not None:
        law = {"card": state.law[0], "direction": law_word(state.law[1])}
    history = []
    for index, played in enumerate(board.history):
        entry: dict[str, Any] = {
            "move": played.text,
            "by": played.by,
            "from_file": index < board.file_moves,
            "steps": [{"rule": step.rule, "text": step.text} for step in played.steps],
        }
        if played.bout is not None:
            entry["bout"] = _bout_json(played.bout, state)
        history.append(entry)
    rounds_won = sum(state.rounds_won)
    return {
        "game": OMENS.name,
        "title": board.position.title,
        "players": state.num_players(),
        "teams": [[s + 1 for s in team] for team in teams],
        "rounds_won": list(state.rounds_won),
        "scope": state.table.scope.value,
        "seats": seats,
        "in_play": [
            {"card": p.card, "before": p.before + 1, "by": p.by + 1} for p in state.in_play
        ],
        "law": law,
        "leader": state.leader + 1,
        "bout": state.bouts_played + (0 if state.is_terminal() else 1),
        "round": rounds_won + (0 if state.is_terminal() else 1),
        "to_act": to_act,
        "acting": acting,
        "pending": _pending_text(state),
        "terminal": state.is_terminal(),
        "result": _result_text(state),
        "legal": [_move_entry(state, move) for move in state.moves()],
        "history": history,
        "discard_pile": list(state.discard_pile),
        "box": list(state.box),
        "preset": board.data.get("preset", "rulebook"),
        "rules": dict(board.data.get("rules", {})),
        "position": editable_tables(board),
    }


def editable_tables(board: Board) -> dict[str, Any]:
    """The position shown, as the tables of a position file for the editor: the state
    itself when no bout is under way (the start of a bout), else the start of the file's
    bout (the editor has no cards in play)."""
    state = board.state
    data = {k: v for k, v in board.data.items() if k not in ("puzzle",)}
    bout = dict(data.get("bout", {}))
    bout.pop("moves", None)
    under_way = bool(state.in_play or state.pending or any(
        state.played_this_bout(s) for s in range(state.num_players())))
    if state.is_terminal() or under_way or not board.history:
        data["bout"] = bout
        return data
    data["phase"] = "bout"
    data["teams"] = [[s + 1 for s in team] for team in state.teams()]
    data["hands"] = {str(s + 1): list(hand) for s, hand in enumerate(state.hands)}
    data["bout"] = {"leader": state.leader + 1}
    if any(state.rounds_won):
        data["rounds_won"] = list(state.rounds_won)
    data.pop("later_rounds", None)
    return data


# -- reference data ------------------------------------------------------------------------------

_COLOURS: Final = ("green", "yellow", "red", "blue")


def cards_json() -> list[dict[str, Any]]:
    """The 35 cards: value, names, colours (in the order green, yellow, red, blue), timing,
    effect text."""
    return [
        {
            "value": card.value,
            "name": card.name,
            "french": card.french,
            "colours": [c for c in _COLOURS if c in card.colours],
            "timing": card.timing,
            "effect": card.effect,
            "text": card.text,
        }
        for card in default_catalogue().values()
    ]


def rules_json() -> dict[str, dict[str, str]]:
    """Every rule id a trace cites, with its statement and source."""
    return {rid: {"statement": r.statement, "source": r.source} for rid, r in RULES.items()}


def options_json() -> dict[str, Any]:
    return {
        "presets": {name: dict(over) for name, over in PRESETS.items()},
        "options": [
            {
                "name": spec.name,
                "question": spec.question,
                "summary": spec.summary,
                "settings": dict(spec.settings),
                "default": spec.default,
            }
            for spec in option_specs()
        ],
        "scopes": [scope.value for scope in Scope],
    }


# -- writing TOML --------------------------------------------------------------------------------


def dump_toml(data: Mapping[str, Any]) -> str:
    """TOML text for parsed TOML tables (what :func:`tomllib.loads` reads back the same): the
    library's one TOML writer (:func:`omen_solver.core.values.toml_text`)."""
    return toml_text(data)


def export_toml(board: Board) -> str:
    """The board as a position file: the position's tables with every move played on it in
    ``bout.moves`` (``omen-solver omens play FILE`` replays them), written by the position
    writer (:func:`omen_solver.omens.position.position_toml`)."""
    data = json.loads(json.dumps(board.data))
    bout = data.setdefault("bout", {})
    if "leader" not in bout:
        bout["leader"] = board.position.start.leader + 1
    moves = [played.text for played in board.history]
    if moves:
        bout["moves"] = moves
    else:
        bout.pop("moves", None)
    text = position_toml(data)
    tomllib.loads(text)  # what is written reads back
    return text


def read_text_file(path: Path) -> str:
    """A file the server itself ships (a bundled puzzle or example); never a requested path.
    Read like every input file (a regular file, bounded in size)."""
    return read_text(path, PositionError)


# -- dealing and puzzles -------------------------------------------------------------------------

DEAL_KINDS: Final = {"game-start": "first", "round-start": "later"}
"""The editor's deals: as at a game start (one Absolute each, teams, leader and box from the
Absolutes), or as at a later round (every card but the box shuffled, any leader)."""


def deal_tables(body: Mapping[str, Any]) -> dict[str, Any]:
    """A seeded random deal as the tables of a position file (rules file 000, "Setup", "End
    of a Round"); the same seed gives the same deal."""
    from omen_solver.omens.deals import random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    players = body.get("players", 4)
    if isinstance(players, bool) or players not in (4, 5, 6):
        raise RequestError(f"'players': 4, 5 or 6, not {shown(players)}")
    seed = body.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise RequestError(f"'seed': a whole number from 0, not {shown(seed)}")
    phase = body.get("phase", "game-start")
    if not isinstance(phase, str) or phase not in DEAL_KINDS:
        raise RequestError(f"'phase': 'game-start' or 'round-start', not {shown(phase)}")
    preset = body.get("preset", "rulebook")
    overrides = body.get("rules", {})
    if not isinstance(preset, str) or not isinstance(overrides, dict):
        raise RequestError("'preset' is a preset's name and 'rules' a table of options")
    rules = make_rules(preset, overrides, where="rules")
    table = Table(players, rules)
    deal = random_deal(table, seed, DEAL_KINDS[phase])
    data: dict[str, Any] = {"game": OMENS.name, "players": players,
                            "title": f"Deal {seed} ({phase.replace('-', ' ')})"}
    if preset != "rulebook":
        data["preset"] = preset
    scope = body.get("scope")
    if scope is not None:
        data["scope"] = scope
    data["phase"] = phase
    data["teams"] = [[s + 1 for s in team] for team in deal.teams]
    data["box"] = list(deal.box)
    if overrides:
        data["rules"] = dict(overrides)
    data["hands"] = {str(seat + 1): list(hand) for seat, hand in enumerate(deal.hands)}
    data["bout"] = {"leader": deal.leader + 1}
    position_from_data(data)  # what is answered is a position (a bad 'scope' is refused here)
    return data


def puzzle_team(state: OmensState, puzzle: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats (from 1) of the team a puzzle asks about (default: the team to move)."""
    from omen_solver.core.search.solver import default_team

    raw = puzzle.get("team")
    teams = state.teams()
    if raw is None:
        index = default_team(state)
    else:
        seats = [raw] if isinstance(raw, int) else list(raw)
        matches = [i for i, team in enumerate(teams) if any(s - 1 in team for s in seats)]
        if len(set(matches)) != 1:
            raise PositionError(f"{POSITION_NAME}: key 'puzzle.team': {shown(raw)} names no "
                                "single team")
        index = matches[0]
    return tuple(seat + 1 for seat in teams[index])
