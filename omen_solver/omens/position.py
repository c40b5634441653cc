"""Omens position files (``docs/omens-positions.md``).

A position is a TOML file a person can write by hand::

    game = "omens"
    players = 4                     # seats 1..N, clockwise
    teams = [[1, 3], [2, 4]]        # optional at the start of a game (derived from the Absolutes)
    preset = "rulebook"             # optional
    [rules]                         # optional: individual rule options by name
    [hands]
    1 = [30, 15, 7]
    ...
    [bout]
    leader = 1
    moves = ["1:15 lower"]          # optional: actions already taken, canonical notation

Reading follows python-chess's parsers: everything is read and checked into locals first and the
state is built only at the end, so a bad file changes nothing; every error names the file, the
key and what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import Source, read_source
from omen_solver.core.game import TraceStep
from omen_solver.core.options import hint
from omen_solver.core.values import decode
from omen_solver.errors import (
    NO_VALUE,
    CatalogueError,
    OmenSolverError,
    OptionError,
    PositionError,
    shown,
)
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.cards import Card, Catalogue, default_catalogue, load_catalogue
from omen_solver.omens.resolve import BoutOutcome
from omen_solver.omens.rules import OmensRules, make_rules
from omen_solver.omens.state import STATE_FIELDS, BoutSummary, OmensState, derive_teams
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Placement, Scope, Table, deal_sizes

__all__ = ["PHASES", "OmensPosition", "load_position", "load_state", "parse_position"]

PHASES: Final = ("bout", "round-start", "game-start")
"""``bout``: any bout of a round in progress (the default); ``round-start``: the first bout of
a round (full hands); ``game-start``: the first bout of the game (full hands, one Absolute each,
teams and leader derived from the Absolutes)."""

_KEYS: Final = {
    "game",
    "players",
    "teams",
    "preset",
    "rules",
    "catalogue",
    "scope",
    "phase",
    "hands",
    "bout",
    "rounds_won",
    "later_rounds",
    "box",
    "puzzle",
    "title",
    "description",
}


@dataclass(frozen=True)
class OmensPosition:
    """A position as read from a file: the start of the bout, the moves already made, and the
    resulting state."""

    source: str
    table: Table
    start: OmensState
    """The state at the start of the bout, before ``moves``."""
    moves: tuple[tuple[OmensAction, ...], ...]
    state: OmensState
    """The state after ``moves``."""
    puzzle: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""

    def replay(self) -> tuple[OmensState, list[tuple[str, list[TraceStep]]]]:
        """Apply the file's moves again, with the trace of each."""
        state = self.start
        steps: list[tuple[str, list[TraceStep]]] = []
        for move in self.moves:
            text = state.action_to_string(move)
            state, log = state.explain(move)
            steps.append((text, log))
        return state, steps


def load_state(path: Path, data: dict[str, Any]) -> OmensState:
    """The loader registered for ``game = "omens"`` (see :mod:`omen_solver.core.positions`)."""
    return parse_position(data, str(path), base=path.parent).state


def load_position(source: Source) -> OmensPosition:
    """Read a position with its parts (the start of the bout, the moves, title and puzzle)
    from a path, TOML text or an open file (see :func:`omen_solver.omens.load`)."""
    data, name, base = read_source(source)
    return parse_position(data, name, base=base)


class _Reader:
    """Checks one file's keys; every error names the file and the key."""

    def __init__(self, source: str, data: Mapping[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, problem: str, value: object = NO_VALUE) -> PositionError:
        return PositionError(file=self.source, key=key, value=value, problem=problem)

    def integer(self, key: str, value: object, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(
                key, f"expected a whole number from {low} to {high}, not {shown(value)}"
            )
        return value

    def seat(self, key: str, value: object, players: int) -> int:
        return self.integer(key, value, 1, players) - 1

    def cards(self, key: str, value: object, catalogue: Catalogue) -> list[int]:
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list of card values, not {shown(value)}")
        cards = []
        for card in value:
            if not isinstance(card, int) or isinstance(card, bool) or card not in catalogue:
                raise self.fail(
                    key, f"card {shown(card)} is not in the catalogue ({catalogue.source})"
                )
            if card in cards:
                raise self.fail(key, f"card {card} is listed twice")
            cards.append(card)
        return cards


def _catalogue(reader: _Reader, base: Path | None) -> Catalogue:
    name = reader.data.get("catalogue")
    if name is None:
        return default_catalogue()
    if not isinstance(name, str):
        raise reader.fail("catalogue", f"expected a file name, not {shown(name)}")
    path = (base or Path()) / name
    try:
        return load_catalogue(path)
    except CatalogueError as error:
        raise error.located(PositionError, file=reader.source, key="catalogue") from None


def _rules(reader: _Reader) -> OmensRules:
    preset = reader.data.get("preset", "rulebook")
    overrides = reader.data.get("rules", {})
    if not isinstance(preset, str):
        raise reader.fail("preset", f"expected a preset name, not {shown(preset)}")
    if not isinstance(overrides, dict):
        raise reader.fail("rules", "expected a table of rule options")
    try:
        return make_rules(preset, overrides, where="rules")
    except OptionError as error:
        raise error.located(PositionError, file=reader.source) from None


def _choice(reader: _Reader, key: str, allowed: Sequence[str], default: str) -> str:
    value = reader.data.get(key, default)
    if value not in allowed:
        raise reader.fail(key, f"{shown(value)} is not one of {', '.join(map(repr, allowed))}")
    return str(value)


def _hands(reader: _Reader, players: int, catalogue: Catalogue) -> list[list[int]]:
    raw = reader.data.get("hands")
    if not isinstance(raw, dict):
        raise reader.fail("hands", "missing or not a table: give one list of cards per seat")
    seats = [str(seat) for seat in range(1, players + 1)]
    for key in raw:
        if key not in seats:
            # Exact text only: "01" or "１" would name seat 1 twice, or a seat nobody reads.
            raise reader.fail(
                f"hands.{key}", f"no such seat: seats are written {', '.join(seats)}"
            )
    hands: list[list[int]] = []
    owner: dict[int, str] = {}
    for seat in range(1, players + 1):
        key = f"hands.{seat}"
        if str(seat) not in raw:
            raise reader.fail(key, "missing: every seat needs a hand (an empty list if none)")
        hand = reader.cards(key, raw[str(seat)], catalogue)
        for card in hand:
            if card in owner:
                raise reader.fail(key, f"card {card} is already in {owner[card]}")
            owner[card] = key
        hands.append(hand)
    return hands


def _teams(
    reader: _Reader, players: int, hands: list[list[int]], catalogue: Catalogue, phase: str
) -> tuple[tuple[int, ...], ...]:
    derived = None
    if phase == "game-start":
        absolutes = set(catalogue.absolutes)
        held = [[c for c in hand if c in absolutes] for hand in hands]
        for seat, cards in enumerate(held, start=1):
            if len(cards) != 1:
                raise reader.fail(
                    f"hands.{seat}",
                    f"at the start of a game each seat holds exactly one Absolute, not {cards}",
                )
        derived = derive_teams([cards[0] for cards in held])
    raw = reader.data.get("teams")
    if raw is None:
        if derived is None:
            raise reader.fail(
                "teams", 'missing: give the teams (they are derived only when phase = "game-start")'
            )
        return derived
    if not isinstance(raw, list) or not all(isinstance(team, list) for team in raw):
        raise reader.fail("teams", "expected a list of teams, each a list of seats")
    teams = [sorted(reader.seat("teams", seat, players) for seat in team) for team in raw]
    seen = sorted(seat for team in teams for seat in team)
    if seen != list(range(players)):
        raise reader.fail("teams", f"every seat 1..{players} must be in exactly one team")
    sizes = sorted(len(team) for team in teams)
    expected = {4: [2, 2], 5: [2, 3], 6: [2, 2, 2]}[players]
    if sizes != expected:
        raise reader.fail(
            "teams",
            f"{players} players form teams of sizes {expected}, not {sizes} (rules "
            "file 000, Setup)",
        )
    result = tuple(sorted(tuple(team) for team in teams))
    if derived is not None and result != derived:
        shown = [[s + 1 for s in team] for team in derived]
        raise reader.fail("teams", f"the Absolutes dealt make the teams {shown}")
    return result


def _check_sizes(
    reader: _Reader,
    hands: list[list[int]],
    teams: tuple[tuple[int, ...], ...],
    phase: str,
    rules: OmensRules,
) -> None:
    """Hand sizes for the phase (rules file 000, "Setup", "End of a Round")."""
    sizes = deal_sizes(len(hands), teams, first_round=phase == "game-start")
    for seat, hand in enumerate(hands):
        key, size = f"hands.{seat + 1}", sizes[seat]
        if phase != "bout":
            if len(hand) != size:
                raise reader.fail(key, f"a {phase} hand has {size} cards here, not {len(hand)}")
            continue
        if len(hand) > size:
            raise reader.fail(key, f"{len(hand)} cards: a hand never holds more than {size} here")
        if len(hand) == 1:
            raise reader.fail(key, "1 card at the start of a bout: the round is already over")
        if not hand and rules.dream_target_turn != "plays_again":
            raise reader.fail(
                key,
                "0 cards at the start of a bout cannot happen under these "
                'rules (only with dream_target_turn = "plays_again")',
            )
    if all(len(hand) == 0 for hand in hands):
        raise reader.fail("hands", "nobody holds a card")


def _leader(
    reader: _Reader, players: int, hands: list[list[int]], catalogue: Catalogue, phase: str
) -> int:
    bout = reader.data.get("bout", {})
    if not isinstance(bout, dict):
        raise reader.fail("bout", "expected a table with 'leader' and optional 'moves'")
    for key in bout:
        if key not in ("leader", "moves"):
            raise reader.fail(f"bout.{key}", "unknown key (expected 'leader' or 'moves')")
    highest = None
    if phase == "game-start":
        absolutes = set(catalogue.absolutes)
        highest = max(range(players), key=lambda s: max(c for c in hands[s] if c in absolutes))
    if "leader" not in bout:
        if highest is None:
            raise reader.fail("bout.leader", "missing: which seat leads this bout?")
        return highest
    leader = reader.seat("bout.leader", bout["leader"], players)
    if highest is not None and leader != highest:
        raise reader.fail(
            "bout.leader", f"the first bout is led by the highest Absolute: seat {highest + 1}"
        )
    return leader


def _rounds_won(reader: _Reader, teams: tuple[tuple[int, ...], ...]) -> list[int]:
    raw = reader.data.get("rounds_won", [0] * len(teams))
    if not isinstance(raw, list) or len(raw) != len(teams):
        raise reader.fail("rounds_won", f"expected one number per team ({len(teams)} teams)")
    return [reader.integer(f"rounds_won[{i + 1}]", n, 0, 1) for i, n in enumerate(raw)]


def _later_rounds(
    reader: _Reader,
    scope: Scope,
    catalogue: Catalogue,
    teams: tuple[tuple[int, ...], ...],
    box: list[int],
    rules: OmensRules,
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The given deals of the rounds after this one (rules file 000, "End of a Round": every
    card not in the box is dealt again). A hand may be smaller than a real deal's, to make a
    smaller puzzle; never larger."""
    raw = reader.data.get("later_rounds")
    if raw is None:
        return ()
    if scope is not Scope.GAME:
        raise reader.fail("later_rounds", 'deals of later rounds need scope = "game"')
    if not isinstance(raw, list) or not raw:
        raise reader.fail("later_rounds", "expected a list of rounds, each a list of hands")
    players = sum(len(team) for team in teams)
    sizes = deal_sizes(players, teams, first_round=False)
    boxed = set() if rules.reshuffle_absolutes == "all" else set(box)
    rounds = []
    for number, hands in enumerate(raw, start=1):
        key = f"later_rounds[{number}]"
        if not isinstance(hands, list) or len(hands) != players:
            raise reader.fail(key, f"expected {players} hands, one per seat in seat order")
        dealt: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for seat, hand in enumerate(hands):
            where = f"{key}[{seat + 1}]"
            cards = reader.cards(where, hand, catalogue)
            if not 1 <= len(cards) <= sizes[seat]:
                raise reader.fail(where, f"seat {seat + 1} is dealt 1 to {sizes[seat]} cards "
                                         f"(a real deal gives {sizes[seat]}), not {len(cards)}")
            for card in cards:
                if card in seen:
                    raise reader.fail(where, f"card {card} is dealt twice")
                if card in boxed:
                    raise reader.fail(where, f"card {card} stays in the box")
                seen.add(card)
            dealt.append(tuple(sorted(cards)))
        rounds.append(tuple(dealt))
    return tuple(rounds)


def _moves(
    reader: _Reader, state: OmensState
) -> tuple[OmensState, tuple[tuple[OmensAction, ...], ...]]:
    raw = reader.data.get("bout", {}).get("moves", [])
    if not isinstance(raw, list):
        raise reader.fail("bout.moves", "expected a list of moves in canonical notation")
    moves = []
    for number, text in enumerate(raw, start=1):
        key = f"bout.moves[{number}]"
        if not isinstance(text, str):
            raise reader.fail(key, f"expected a move as text, not {shown(text)}")
        try:
            move = state.parse_move(text)
        except OmenSolverError as error:
            raise error.located(PositionError, file=reader.source, key=key) from None
        moves.append(move)
        state = state.child(move)
    return state, tuple(moves)


def parse_position(
    data: Mapping[str, Any], source: str = "<position>", base: Path | None = None
) -> OmensPosition:
    """Read a parsed position file; ``base`` is where relative file names are looked up. A
    file with a ``[state]`` table is the text form of a state (:meth:`OmensState.to_text`)."""
    if "state" in data:
        state = state_from_text(data, source)
        return OmensPosition(source, state.table, state, (), state)
    reader = _Reader(source, data)
    if data.get("game", "omens") == "omen":
        raise reader.fail("game", "this is an Omen position, not an Omens one: read it with "
                                  "'omen-solver omen ...' or omen_solver.omen.load")
    if data.get("game", "omens") != "omens":
        raise reader.fail(
            "game", f"this reader is for 'omens' positions, not {shown(data['game'])}"
        )
    for key in data:
        if key not in _KEYS:
            raise reader.fail(key, f"unknown key; {hint(key, sorted(_KEYS), 'known keys:')}")
    players = reader.integer("players", data.get("players"), MIN_PLAYERS, MAX_PLAYERS)
    catalogue = _catalogue(reader, base)
    rules = _rules(reader)
    scope = Scope(_choice(reader, "scope", [s.value for s in Scope], Scope.ROUND.value))
    phase = _choice(reader, "phase", PHASES, "bout")
    hands = _hands(reader, players, catalogue)
    teams = _teams(reader, players, hands, catalogue, phase)
    _check_sizes(reader, hands, teams, phase, rules)
    leader = _leader(reader, players, hands, catalogue, phase)
    rounds_won = _rounds_won(reader, teams)
    held = {card for hand in hands for card in hand}
    box = reader.cards("box", data.get("box", []), catalogue)
    if phase == "game-start" and "box" not in data:
        box = [c for c in catalogue.absolutes if c not in held]
    clash = sorted(set(box) & held)
    if clash:
        raise reader.fail("box", f"card {clash[0]} is also in a hand")
    if scope is Scope.GAME and players < MAX_PLAYERS and len(box) != MAX_PLAYERS - players:
        raise reader.fail(
            "box",
            f"to play beyond this round with {players} players, list the "
            f"{MAX_PLAYERS - players} Absolutes kept in the box",
        )
    discard = sorted(set(catalogue) - held - set(box))
    later = _later_rounds(reader, scope, catalogue, teams, box, rules)
    table = Table(players, rules, catalogue, scope, later, sum(rounds_won) + 1)
    start = OmensState.start_of_bout(
        table, hands, teams, leader, rounds_won=rounds_won, out=discard, box=box
    )
    state, moves = _moves(reader, start)
    puzzle = data.get("puzzle", {})
    if not isinstance(puzzle, dict):
        raise reader.fail("puzzle", "expected a table")
    title = data.get("title", "")
    return OmensPosition(source, table, start, moves, state, puzzle, str(title))


_TEXT_KEYS: Final = frozenset({"game", "table", "state"})
_VALUES: Final = (OmensRules, Placement, BoutOutcome, BoutSummary, Card, Verb, OmensAction)
"""The classes the text form of a state is made of."""


def state_from_text(data: Mapping[str, Any], source: str) -> OmensState:
    """The state written by :meth:`OmensState.to_text` (errors name ``source`` and the key)."""
    unknown = sorted(set(data) - _TEXT_KEYS)
    if unknown:
        raise PositionError(f"{source}: key {unknown[0]!r}: unknown in the text form of a state; "
                            f"known keys: {', '.join(sorted(_TEXT_KEYS))}")
    setup, fields = data.get("table"), data.get("state")
    if not isinstance(setup, dict) or not isinstance(fields, dict):
        raise PositionError(f"{source}: the text form of a state needs the tables [table] and "
                            "[state]")
    try:
        cards = setup.get("catalogue")
        catalogue = default_catalogue() if cards is None else Catalogue(
            decode(cards, _VALUES, f"{source}: table.catalogue"),
            str(setup.get("catalogue_source", source)),
        )
        table = Table(int(setup["players"]), decode(setup["rules"], _VALUES, f"{source}: rules"),
                      catalogue, Scope(setup["scope"]),
                      decode(setup["later_rounds"], _VALUES, f"{source}: later_rounds"),
                      int(setup["later_from"]))
        values = {name: decode(fields[name], _VALUES, f"{source}: state.{name}")
                  for name in STATE_FIELDS}
        return OmensState(table, **values)
    except KeyError as error:
        raise PositionError(f"{source}: key {error}: missing in the text form of a state") from None
    except (TypeError, ValueError) as error:
        if isinstance(error, PositionError):
            raise
        raise PositionError(f"{source}: not the text form of a state: {error}") from None
