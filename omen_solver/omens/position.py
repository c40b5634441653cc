"""Omens positions: the one reader and the one writer of position files and texts
(``docs/omens-positions.md``, ``docs/position-text.md``).

A position is a TOML file a person can write by hand::

    game = "omens"
    players = 4                     # seats 1..N, clockwise
    teams = [[1, 3], [2, 4]]        # optional at the start of a game (derived from the Absolutes)
    preset = "rulebook"             # optional
    [rules]                         # optional: individual rule options by name
    [hands]
    1 = [30, 15, 7]                 # card values, or names: ["The Absolute", "Law", "Spring"]
    ...
    [bout]
    leader = 1
    moves = ["1:15 lower"]          # optional: actions already taken, canonical notation

A file may also describe a bout in progress as it stands (the cards in play, who has played,
Law's constraint, the decisions the rules wait for), the end of a bout, a deal or a finished
game: every state of the engine has a file, which :func:`position_data` writes and
:func:`parse_position` reads back to an equal state. The one-line text of a position
(:mod:`omen_solver.omens.text`, ``state.to_text()``) is the same data on one line.

Reading follows python-chess's parsers: everything is read and checked into locals first and the
state is built only at the end, so a bad file changes nothing; every error names the file, the
key and what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import Source
from omen_solver.core.game import TraceStep
from omen_solver.core.options import describe, hint
from omen_solver.core.positions import TEXT_NAME, read_position
from omen_solver.core.values import toml_text
from omen_solver.errors import (
    NO_VALUE,
    CardNameError,
    CatalogueError,
    OmenSolverError,
    OptionError,
    PositionError,
    shown,
)
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.cards import Catalogue, default_catalogue, load_catalogue
from omen_solver.omens.resolve import BoutOutcome
from omen_solver.omens.rules import (
    PRESETS,
    DreamTargetTurn,
    OmensRules,
    ReshuffleAbsolutes,
    make_rules,
)
from omen_solver.omens.state import OmensState, Pending, Phase, derive_teams
from omen_solver.omens.table import MAX_PLAYERS, MIN_PLAYERS, Placement, Scope, Table, deal_sizes
from omen_solver.omens.text import text_key
from omen_solver.omens.vocabulary import PENDING_FIELDS, PendingKind, Slot, Stage, law_word

__all__ = [
    "PHASES",
    "OmensPosition",
    "load_position",
    "load_state",
    "parse_position",
    "position_data",
    "position_toml",
]

PHASES: Final = ("bout", "round-start", "game-start", "deal", "end", "over")
"""``bout``: any bout of a round in progress (the default); ``round-start``: the first bout of
a round (full hands); ``game-start``: the first bout of the game (full hands, one Absolute each,
teams and leader derived from the Absolutes); and the engine's other phases, for a position as
it stands: ``deal`` (cards being dealt by chance: ``[deal]``), ``end`` (the end of a bout, its
winner known: ``[end]``), ``over`` (play is over: ``winner``)."""

_STATE_PHASES: Final = {"deal": Phase.DEAL, "end": Phase.END, "over": Phase.OVER}
_PHASE_NAMES: Final = {Phase.BOUT: "bout", **{v: k for k, v in _STATE_PHASES.items()}}

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
    "later_from",
    "box",
    "end",
    "deal",
    "winner",
    "bouts",
    "puzzle",
    "title",
    "description",
}
_BOUT_KEYS: Final = ("leader", "moves", "in_play", "played", "law", "pending")
_STATE_BOUT_KEYS: Final = frozenset({"in_play", "played", "law", "pending"})
_END_KEYS: Final = ("stages", "outcome", "luck", "absolutes")
_OUTCOME_KEYS: Final = ("winning_card", "winner", "discarded", "luck_seat", "next_leader",
                        "pride")
_DEAL_KEYS: Final = ("absolutes", "main", "queue")
_POOLS: Final = ("absolutes", "main")


@dataclass(frozen=True)
class OmensPosition:
    """A position as read from a file: the start of the bout, the moves already made, and the
    resulting state."""

    source: str
    table: Table
    start: OmensState
    """The state the file describes, before ``moves`` (the start of the bout in a file that
    gives only hands and a leader)."""
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
    from a path, TOML text, a position's one-line text or an open file (see
    :func:`omen_solver.omens.load`)."""
    data, name, base = read_position(source)
    return parse_position(data, name, base=base)


class _Reader:
    """Checks one file's keys; every error names the file and the key."""

    def __init__(self, source: str, data: Mapping[str, Any]) -> None:
        self.source = source
        self.data = data
        self.catalogue = default_catalogue()

    def fail(self, key: str, problem: str, value: object = NO_VALUE) -> PositionError:
        return PositionError(file=self.source, key=key, value=value, problem=problem)

    def table(self, key: str) -> Mapping[str, Any]:
        """A table of the file (empty if absent), its keys checked against ``known``."""
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a table, not {shown(value)}", value)
        return value

    def known(self, key: str, table: Mapping[str, Any], keys: Sequence[str]) -> None:
        for name in table:
            if name not in keys:
                raise self.fail(f"{key}.{name}", f"unknown key; {hint(name, keys, 'known:')}")

    def integer(self, key: str, value: object, low: int, high: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(
                key, f"expected a whole number from {low} to {high}, not {shown(value)}", value
            )
        return value

    def seat(self, key: str, value: object, players: int) -> int:
        return self.integer(key, value, 1, players) - 1

    def card(self, key: str, value: object) -> int:
        """A card: its value, or its name in any case (``"Law"``, ``"law"``)."""
        catalogue = self.catalogue
        if isinstance(value, int) and not isinstance(value, bool) and value in catalogue:
            return value
        if isinstance(value, str):
            try:
                return catalogue.value_of(value)
            except CardNameError as error:
                raise self.fail(key, error.problem, value) from None
        raise self.fail(key, f"card {shown(value)} is not in the catalogue ({catalogue.source})",
                        value)

    def cards(self, key: str, value: object) -> list[int]:
        if not isinstance(value, list):
            raise self.fail(key, f"expected a list of card values, not {shown(value)}", value)
        cards = []
        for card in map(lambda item: self.card(key, item), value):
            if card in cards:
                raise self.fail(key, f"card {card} is listed twice", card)
            cards.append(card)
        return cards

    def word(self, key: str, value: object, allowed: Iterable[str]) -> str:
        names = list(allowed)
        if value not in names:
            raise self.fail(key, f"{shown(value)} is not one of {', '.join(map(repr, names))}",
                            value)
        return str(value)


def _catalogue(reader: _Reader, base: Path | None) -> Catalogue:
    name = reader.data.get("catalogue")
    if name is None:
        return default_catalogue()
    if not isinstance(name, str):
        raise reader.fail("catalogue", f"expected a file name, not {shown(name)}", name)
    path = (base or Path()) / name
    try:
        return load_catalogue(path)
    except CatalogueError as error:
        raise error.located(PositionError, file=reader.source, key="catalogue") from None


def _rules(reader: _Reader) -> OmensRules:
    preset = reader.data.get("preset", "rulebook")
    overrides = reader.data.get("rules", {})
    if not isinstance(preset, str):
        raise reader.fail("preset", f"expected a preset name, not {shown(preset)}", preset)
    if not isinstance(overrides, dict):
        raise reader.fail("rules", "expected a table of rule options")
    try:
        return make_rules(preset, overrides, where="rules")
    except OptionError as error:
        raise error.located(PositionError, file=reader.source) from None


def _choice(reader: _Reader, key: str, allowed: Sequence[str], default: str) -> str:
    return reader.word(key, reader.data.get(key, default), allowed)


def _hands(reader: _Reader, players: int) -> list[list[int]]:
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
        hand = reader.cards(key, raw[str(seat)])
        for card in hand:
            if card in owner:
                raise reader.fail(key, f"card {card} is already in {owner[card]}", card)
            owner[card] = key
        hands.append(hand)
    return hands


def _teams(
    reader: _Reader, players: int, hands: list[list[int]], phase: str
) -> tuple[tuple[int, ...], ...]:
    derived = None
    if phase == "game-start":
        absolutes = set(reader.catalogue.absolutes)
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
        raise reader.fail("teams", "expected a list of teams, each a list of seats", raw)
    teams = [sorted(reader.seat("teams", seat, players) for seat in team) for team in raw]
    seen = sorted(seat for team in teams for seat in team)
    if seen != list(range(players)):
        raise reader.fail("teams", f"every seat 1..{players} must be in exactly one team", raw)
    sizes = sorted(len(team) for team in teams)
    expected = {4: [2, 2], 5: [2, 3], 6: [2, 2, 2]}[players]
    if sizes != expected and not (phase == "deal" and sizes == [1] * players):
        raise reader.fail(
            "teams",
            f"{players} players form teams of sizes {expected}, not {sizes} (rules "
            "file 000, Setup)", raw,
        )
    result = tuple(sorted(tuple(team) for team in teams))
    if derived is not None and result != derived:
        shown_teams = [[s + 1 for s in team] for team in derived]
        raise reader.fail("teams", f"the Absolutes dealt make the teams {shown_teams}", raw)
    return result


def _check_sizes(
    reader: _Reader,
    hands: list[list[int]],
    teams: tuple[tuple[int, ...], ...],
    phase: str,
    rules: OmensRules,
    as_it_stands: bool,
) -> None:
    """Hand sizes for the phase (rules file 000, "Setup", "End of a Round"); a position as it
    stands (a bout in progress, an end, a deal) may hold any number in a hand."""
    if phase == "deal" and len(teams) == len(hands):
        sizes = (5,) * len(hands)  # the teams are formed once the Absolutes are dealt
    else:
        sizes = deal_sizes(len(hands), teams, first_round=phase == "game-start")
    for seat, hand in enumerate(hands):
        key, size = f"hands.{seat + 1}", sizes[seat]
        if phase in ("round-start", "game-start"):
            if len(hand) != size:
                raise reader.fail(key, f"a {phase} hand has {size} cards here, not {len(hand)}")
            continue
        if as_it_stands:
            continue  # exchanges and Betrayal move cards between hands as play goes on
        if len(hand) > size:
            raise reader.fail(key, f"{len(hand)} cards: a hand never holds more than {size} here")
        if len(hand) == 1:
            raise reader.fail(key, "1 card at the start of a bout: the round is already over")
        if not hand and rules.dream_target_turn != DreamTargetTurn.PLAYS_AGAIN:
            raise reader.fail(
                key,
                "0 cards at the start of a bout cannot happen under these "
                f'rules (only with dream_target_turn = "{DreamTargetTurn.PLAYS_AGAIN}")',
            )
    if not as_it_stands and all(len(hand) == 0 for hand in hands):
        raise reader.fail("hands", "nobody holds a card")


def _leader(
    reader: _Reader, players: int, hands: list[list[int]], phase: str
) -> int:
    bout = reader.table("bout")
    reader.known("bout", bout, _BOUT_KEYS)
    highest = None
    if phase == "game-start":
        absolutes = set(reader.catalogue.absolutes)
        highest = max(range(players), key=lambda s: max(c for c in hands[s] if c in absolutes))
    if "leader" not in bout:
        if highest is not None:
            return highest
        if phase == "deal":
            return 0
        raise reader.fail("bout.leader", "missing: which seat leads this bout?")
    leader = reader.seat("bout.leader", bout["leader"], players)
    if highest is not None and leader != highest:
        raise reader.fail(
            "bout.leader", f"the first bout is led by the highest Absolute: seat {highest + 1}"
        )
    return leader


def _rounds_won(reader: _Reader, teams: tuple[tuple[int, ...], ...], most: int) -> list[int]:
    raw = reader.data.get("rounds_won", [0] * len(teams))
    if not isinstance(raw, list) or len(raw) != len(teams):
        raise reader.fail("rounds_won", f"expected one number per team ({len(teams)} teams)",
                          raw)
    return [reader.integer(f"rounds_won[{i + 1}]", n, 0, most) for i, n in enumerate(raw)]


def _later_rounds(
    reader: _Reader,
    scope: Scope,
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
    boxed = set() if rules.reshuffle_absolutes == ReshuffleAbsolutes.ALL else set(box)
    rounds = []
    for number, hands in enumerate(raw, start=1):
        key = f"later_rounds[{number}]"
        if not isinstance(hands, list) or len(hands) != players:
            raise reader.fail(key, f"expected {players} hands, one per seat in seat order")
        dealt: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for seat, hand in enumerate(hands):
            where = f"{key}[{seat + 1}]"
            cards = reader.cards(where, hand)
            if not 1 <= len(cards) <= sizes[seat]:
                raise reader.fail(where, f"seat {seat + 1} is dealt 1 to {sizes[seat]} cards "
                                         f"(a real deal gives {sizes[seat]}), not {len(cards)}")
            for card in cards:
                if card in seen:
                    raise reader.fail(where, f"card {card} is dealt twice", card)
                if card in boxed:
                    raise reader.fail(where, f"card {card} stays in the box", card)
                seen.add(card)
            dealt.append(tuple(sorted(cards)))
        rounds.append(tuple(dealt))
    return tuple(rounds)


def _moves(
    reader: _Reader, state: OmensState
) -> tuple[OmensState, tuple[tuple[OmensAction, ...], ...]]:
    raw = reader.table("bout").get("moves", [])
    if not isinstance(raw, list):
        raise reader.fail("bout.moves", "expected a list of moves in canonical notation")
    moves = []
    for number, text in enumerate(raw, start=1):
        key = f"bout.moves[{number}]"
        if not isinstance(text, str):
            raise reader.fail(key, f"expected a move as text, not {shown(text)}", text)
        try:
            move = state.parse_move(text)
        except OmenSolverError as error:
            raise error.located(PositionError, file=reader.source, key=key) from None
        moves.append(move)
        state = state.child(move)
    return state, tuple(moves)


def _as_it_stands(data: Mapping[str, Any]) -> bool:
    """Whether a file describes a position as it stands (a bout in progress, the end of a
    bout, a deal, a finished game) rather than the start of a bout."""
    bout = data.get("bout")
    in_bout = isinstance(bout, dict) and not _STATE_BOUT_KEYS.isdisjoint(bout)
    return (in_bout or data.get("phase") in _STATE_PHASES
            or any(key in data for key in ("end", "deal", "winner", "bouts")))


def parse_position(
    data: Mapping[str, Any], source: str = "<position>", base: Path | None = None
) -> OmensPosition:
    """Read a parsed position file (or a position's text, :mod:`omen_solver.omens.text`);
    ``base`` is where relative file names are looked up. An error about a text names the
    text's key (``lead``), not the file's (``bout.leader``)."""
    try:
        return _parse_position(data, source, base)
    except PositionError as error:
        if source != TEXT_NAME or error.key is None:
            raise
        raise PositionError(file=error.file, key=text_key(error.key), value=error.value,
                            rule=error.rule, problem=error.problem) from None


def _parse_position(data: Mapping[str, Any], source: str, base: Path | None) -> OmensPosition:
    reader = _Reader(source, data)
    if data.get("game", "omens") == "omen":
        raise reader.fail("game", "this is an Omen position, not an Omens one: read it with "
                                  "'omen-solver omen ...' or omen_solver.omen.load")
    if data.get("game", "omens") != "omens":
        raise reader.fail(
            "game", f"this reader is for 'omens' positions, not {shown(data['game'])}",
            data["game"],
        )
    for key in data:
        if key not in _KEYS:
            raise reader.fail(key, f"unknown key; {hint(key, sorted(_KEYS), 'known keys:')}")
    players = reader.integer("players", data.get("players"), MIN_PLAYERS, MAX_PLAYERS)
    reader.catalogue = catalogue = _catalogue(reader, base)
    rules = _rules(reader)
    scope = Scope(_choice(reader, "scope", [s.value for s in Scope], Scope.ROUND.value))
    phase = _choice(reader, "phase", PHASES, "bout")
    stands = _as_it_stands(data)
    hands = _hands(reader, players)
    teams = _teams(reader, players, hands, phase)
    _check_sizes(reader, hands, teams, phase, rules, stands)
    leader = _leader(reader, players, hands, phase)
    rounds_won = _rounds_won(reader, teams, 2 if stands else 1)
    held = {card for hand in hands for card in hand}
    box = reader.cards("box", data.get("box", []))
    if phase == "game-start" and "box" not in data:
        box = [c for c in catalogue.absolutes if c not in held]
    clash = sorted(set(box) & held)
    if clash:
        raise reader.fail("box", f"card {clash[0]} is also in a hand", clash[0])
    if (scope is Scope.GAME and players < MAX_PLAYERS and len(box) != MAX_PLAYERS - players
            and not stands):
        raise reader.fail(
            "box",
            f"to play beyond this round with {players} players, list the "
            f"{MAX_PLAYERS - players} Absolutes kept in the box",
        )
    later = _later_rounds(reader, scope, teams, box, rules)
    # the rounds won in all when the first later round is dealt, plus one: at most every
    # team's wins short of the game's (two when the position stands after the game's end)
    most = len(teams) * (2 if stands else 1) + 1
    later_from = reader.integer("later_from", data.get("later_from", sum(rounds_won) + 1), 1,
                                most)
    table = Table(players, rules, catalogue, scope, later, later_from)
    if stands:
        start = _state_as_it_stands(reader, table, hands, teams, leader, rounds_won, box, phase)
    else:
        discard = sorted(set(catalogue) - held - set(box))
        start = OmensState.start_of_bout(
            table, hands, teams, leader, rounds_won=rounds_won, out=discard, box=box
        )
    state, moves = _moves(reader, start)
    puzzle = data.get("puzzle", {})
    if not isinstance(puzzle, dict):
        raise reader.fail("puzzle", "expected a table")
    title = data.get("title", "")
    return OmensPosition(source, table, start, moves, state, puzzle, str(title))


# -- a position as it stands ----------------------------------------------------------------------


class _Places:
    """Where each card is, so that no card is in two places (the rest is the discard pile)."""

    def __init__(self, reader: _Reader, hands: list[list[int]], box: list[int]) -> None:
        self.reader = reader
        self.where: dict[int, str] = {card: f"hands.{seat + 1}" for seat, hand in
                                      enumerate(hands) for card in hand}
        self.where.update({card: "box" for card in box})

    def put(self, key: str, card: int) -> int:
        if card in self.where:
            raise self.reader.fail(key, f"card {card} is already in {self.where[card]}", card)
        self.where[card] = key
        return card

    def discard_pile(self) -> tuple[int, ...]:
        return tuple(sorted(set(self.reader.catalogue) - set(self.where)))


def _state_as_it_stands(
    reader: _Reader,
    table: Table,
    hands: list[list[int]],
    teams: tuple[tuple[int, ...], ...],
    leader: int,
    rounds_won: list[int],
    box: list[int],
    phase: str,
) -> OmensState:
    """The state a file describes as it stands: every field read and checked, then built."""
    players = table.players
    places = _Places(reader, hands, box)
    bout = reader.table("bout")
    front = _in_play(reader, bout.get("in_play", []), players, places)
    played = 0
    for seat in _seat_list(reader, "bout.played", bout.get("played", []), players):
        played |= 1 << seat
    law = _law(reader, bout.get("law"))
    pending = tuple(_pending(reader, f"bout.pending[{n}]", item, players)
                    for n, item in enumerate(_list(reader, "bout.pending",
                                                   bout.get("pending", [])), start=1))
    end = reader.table("end")
    reader.known("end", end, _END_KEYS)
    stages = tuple(Stage(reader.word(f"end.stages[{n}]", word, [s.value for s in Stage]))
                   for n, word in enumerate(_list(reader, "end.stages", end.get("stages", [])),
                                            start=1))
    outcome = _outcome(reader, end.get("outcome"), players)
    luck = _pair(reader, "end.luck", end.get("luck"), players, card_first=False)
    absolutes = tuple(_pair(reader, f"end.absolutes[{n}]", item, players, card_first=True)
                      for n, item in enumerate(_list(reader, "end.absolutes",
                                                     end.get("absolutes", [])), start=1))
    deal = reader.table("deal")
    reader.known("deal", deal, _DEAL_KEYS)
    pools = tuple(tuple(sorted(places.put(f"deal.{name}", card) for card in
                               reader.cards(f"deal.{name}", deal.get(name, []))))
                  for name in _POOLS)
    queue = tuple(_queue_entry(reader, f"deal.queue[{n}]", item, players)
                  for n, item in enumerate(_list(reader, "deal.queue", deal.get("queue", [])),
                                           start=1))
    winner = reader.data.get("winner")
    bouts = reader.integer("bouts", reader.data.get("bouts", 0), 0, 10**6)
    state = OmensState(
        table,
        teams=teams,
        phase=_STATE_PHASES.get(phase, Phase.BOUT),
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        front=front,
        played=played,
        leader=leader,
        law=law,
        pending=pending,
        rounds_won=tuple(rounds_won),
        stages=stages,
        outcome=outcome,
        luck_victim=None if luck is None else (luck[0], luck[1]),
        end_abs=tuple(pair for pair in absolutes if pair is not None),
        out=places.discard_pile(),
        box=tuple(sorted(box)),
        deck=(pools[0], pools[1]),
        deal_queue=queue,
        winner=None if winner is None else reader.seat("winner", winner, players),
        bouts=bouts,
    )
    return _checked(reader, state)


def _checked(reader: _Reader, state: OmensState) -> OmensState:
    """A state the rules can go on from: who acts and what they may do is asked once here, so
    that a position the engine cannot play is refused on reading, not later."""
    try:
        state.legal_actions() if not state.is_chance_node() else state.chance_outcomes()
        state.returns()
    except (IndexError, KeyError, StopIteration, ValueError, AssertionError) as error:
        problem = f"not a position the rules can go on from ({type(error).__name__}: {error})"
        raise PositionError(file=reader.source, problem=problem) from None
    return state


def _list(reader: _Reader, key: str, value: object) -> list[Any]:
    if not isinstance(value, list):
        raise reader.fail(key, f"expected a list, not {shown(value)}", value)
    return value


def _seat_list(reader: _Reader, key: str, value: object, players: int) -> list[int]:
    seats = [reader.seat(key, seat, players) for seat in _list(reader, key, value)]
    if len(set(seats)) != len(seats):
        raise reader.fail(key, "a seat is listed twice", value)
    return seats


def _in_play(reader: _Reader, value: object, players: int, places: _Places
             ) -> tuple[Placement, ...]:
    """``in_play``: each card in play, in the order placed: ``[card, seat]`` (in front of that
    seat, placed by them) or ``[card, seat, placed_by]``."""
    front = []
    for number, item in enumerate(_list(reader, "bout.in_play", value), start=1):
        key = f"bout.in_play[{number}]"
        if not isinstance(item, list) or len(item) not in (2, 3):
            raise reader.fail(key, "expected [card, seat] or [card, seat, placed by seat]", item)
        card = places.put(key, reader.card(key, item[0]))
        before = reader.seat(key, item[1], players)
        by = reader.seat(key, item[2], players) if len(item) == 3 else before
        front.append(Placement(card, before, by))
    return tuple(front)


def _law(reader: _Reader, value: object) -> tuple[int, int] | None:
    """``law``: Law's constraint, ``[card, "higher"]`` or ``[card, "lower"]``."""
    if value is None:
        return None
    words = [law_word(1), law_word(-1)]
    if not isinstance(value, list) or len(value) != 2:
        raise reader.fail("bout.law", 'expected [card, "higher"] or [card, "lower"]', value)
    card = reader.card("bout.law", value[0])
    direction = reader.word("bout.law", value[1], words)
    return card, 1 if direction == words[0] else -1


def _pending(reader: _Reader, key: str, value: object, players: int) -> Pending:
    """A decision the rules wait for: ``"KIND SEAT [A [B]]"``, seats from 1 (``"resolve 2
    15"``: seat 2 resolves card 15); the fields of each kind: ``PENDING_FIELDS``."""
    if not isinstance(value, str) or not value.split():
        raise reader.fail(key, f"expected a decision such as 'resolve 2 15', not {shown(value)}",
                          value)
    word, *numbers = value.split()
    kind = PendingKind(reader.word(key, word, [k.value for k in PendingKind]))
    slots = PENDING_FIELDS[kind]
    wanted = 1 + sum(slot is not Slot.UNUSED for slot in slots)
    if len(numbers) != wanted:
        shape = " ".join(["SEAT", *(slot.name for slot in slots if slot is not Slot.UNUSED)])
        raise reader.fail(key, f"{kind} is written '{kind} {shape}'", value)
    seat = reader.seat(key, _number(reader, key, numbers[0]), players)
    fields = [0, 0]
    for index, (slot, text) in enumerate(zip(slots, numbers[1:], strict=False)):
        if slot is Slot.SEAT:
            fields[index] = reader.seat(key, _number(reader, key, text), players)
        elif slot is Slot.CARD:
            fields[index] = reader.card(key, text)
    return (kind, seat, fields[0], fields[1])


def _number(reader: _Reader, key: str, text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise reader.fail(key, f"expected a number, not {shown(text)}", text)
    return int(text)


def _pair(reader: _Reader, key: str, value: object, players: int, card_first: bool
          ) -> tuple[int, int] | None:
    """``[seat, card]`` (Luck's victim) or ``[card, seat]`` (an Absolute to exchange at the
    end of the bout)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        shape = "[card, seat]" if card_first else "[seat, card]"
        raise reader.fail(key, f"expected {shape}", value)
    if card_first:
        return reader.card(key, value[0]), reader.seat(key, value[1], players)
    return reader.seat(key, value[0], players), reader.card(key, value[1])


def _outcome(reader: _Reader, value: object, players: int) -> BoutOutcome | None:
    """``end.outcome``: what the end of the bout decided before the cards go back to hand."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise reader.fail("end.outcome", "expected a table", value)
    reader.known("end.outcome", value, _OUTCOME_KEYS)
    key = "end.outcome"
    card = value.get("winning_card")
    winner = value.get("winner")
    luck = value.get("luck_seat")
    pride = value.get("pride", False)
    if not isinstance(pride, bool):
        raise reader.fail(f"{key}.pride", "expected true or false", pride)
    return BoutOutcome(
        None if card is None else reader.card(f"{key}.winning_card", card),
        None if winner is None else reader.seat(f"{key}.winner", winner, players),
        frozenset(reader.cards(f"{key}.discarded", value.get("discarded", []))),
        None if luck is None else reader.seat(f"{key}.luck_seat", luck, players),
        reader.seat(f"{key}.next_leader", value.get("next_leader"), players),
        pride,
    )


def _queue_entry(reader: _Reader, key: str, value: object, players: int) -> tuple[int, int]:
    """``deal.queue``: the cards still to deal, ``[seat, "absolutes"]`` or ``[seat, "main"]``."""
    if not isinstance(value, list) or len(value) != 2:
        raise reader.fail(key, 'expected [seat, "absolutes"] or [seat, "main"]', value)
    return reader.seat(key, value[0], players), _POOLS.index(reader.word(key, value[1], _POOLS))


# -- writing ------------------------------------------------------------------------------------


def _preset_of(rules: OmensRules) -> tuple[str, dict[str, str]]:
    """The preset closest to ``rules`` (the fewest options set apart; the first declared on a
    tie) and the options that differ from it."""
    settings = rules.as_dict()
    best: tuple[str, dict[str, str]] | None = None
    for name in PRESETS:
        base = make_rules(name).as_dict()
        apart = {key: value for key, value in settings.items() if base[key] != value}
        if best is None or len(apart) < len(best[1]):
            best = (name, apart)
    assert best is not None
    return best


def table_data(table: Table) -> dict[str, Any]:
    """A table's part of a position's data: players, preset and the options set apart from
    it, the scope, the given deals of later rounds, the catalogue if not the shipped one."""
    data: dict[str, Any] = {"game": "omens", "players": table.players}
    if dict(table.catalogue) != dict(default_catalogue()):
        data["catalogue"] = table.catalogue.source
    preset, rules = _preset_of(table.rules)
    if preset != "rulebook":
        data["preset"] = preset
    if table.scope is not Scope.ROUND:
        data["scope"] = table.scope.value
    if rules:
        names = [spec.name for spec in describe(type(table.rules))]
        data["rules"] = {name: rules[name] for name in names if name in rules}
    return data


def position_data(state: OmensState) -> dict[str, Any]:
    """The data of a position file that :func:`parse_position` reads back to ``state`` (an
    equal state, every field equal but the last bout's summary, kept for explanations only):
    what :func:`position_toml` writes as a file and :mod:`omen_solver.omens.text` on one line.
    Seats are written from 1, only what differs from the file's defaults."""
    table = state.table
    fields = state.fields()
    data = table_data(table)
    data["teams"] = [[seat + 1 for seat in team] for team in fields["teams"]]
    phase = fields["phase"]
    if phase != Phase.BOUT:
        data["phase"] = _PHASE_NAMES[phase]
    data["hands"] = {str(seat + 1): list(hand) for seat, hand in enumerate(fields["hands"])}
    bout: dict[str, Any] = {"leader": fields["leader"] + 1}
    if fields["front"]:
        bout["in_play"] = [[p.card, p.before + 1] + ([p.by + 1] if p.by != p.before else [])
                           for p in fields["front"]]
    if fields["played"]:
        bout["played"] = [seat + 1 for seat in range(table.players)
                          if fields["played"] >> seat & 1]
    if fields["law"] is not None:
        bout["law"] = [fields["law"][0], str(law_word(fields["law"][1]))]
    if fields["pending"]:
        bout["pending"] = [_pending_text(p) for p in fields["pending"]]
    data["bout"] = bout
    if any(fields["rounds_won"]):
        data["rounds_won"] = list(fields["rounds_won"])
    if fields["box"]:
        data["box"] = list(fields["box"])
    if table.later_rounds:
        data["later_rounds"] = [[list(hand) for hand in hands] for hands in table.later_rounds]
    if table.later_from != sum(fields["rounds_won"]) + 1 or table.later_rounds:
        data["later_from"] = table.later_from
    end = _end_data(fields)
    if end:
        data["end"] = end
    if phase == Phase.DEAL:
        data["deal"] = {
            "absolutes": list(fields["deck"][0]), "main": list(fields["deck"][1]),
            "queue": [[seat + 1, _POOLS[pool]] for seat, pool in fields["deal_queue"]],
        }
    if fields["winner"] is not None:
        data["winner"] = fields["winner"] + 1
    if fields["bouts"] or not (_as_it_stands(data) or _reads_back(data, state)):
        data["bouts"] = fields["bouts"]
    return data


def _reads_back(data: Mapping[str, Any], state: OmensState) -> bool:
    """Whether a file of the start of a bout (hands, teams, leader) reads back to ``state``:
    it does for every start of a bout the rules reach; any other is written as it stands."""
    try:
        again = parse_position(data, "<check>").start
    except PositionError:
        return False
    return again == state and again.fields() == {**state.fields(), "last": None}


def _pending_text(pending: Pending) -> str:
    kind, seat, a, b = pending
    slots = PENDING_FIELDS[PendingKind(kind)]
    words = [str(kind), str(seat + 1)]
    for slot, value in zip(slots, (a, b), strict=True):
        if slot is Slot.SEAT:
            words.append(str(value + 1))
        elif slot is Slot.CARD:
            words.append(str(value))
    return " ".join(words)


def _end_data(fields: Mapping[str, Any]) -> dict[str, Any]:
    end: dict[str, Any] = {}
    if fields["stages"]:
        end["stages"] = [str(stage) for stage in fields["stages"]]
    outcome = fields["outcome"]
    if outcome is not None:
        table: dict[str, Any] = {}
        if outcome.winning_card is not None:
            table["winning_card"] = outcome.winning_card
        if outcome.winner is not None:
            table["winner"] = outcome.winner + 1
        table["discarded"] = sorted(outcome.discarded)
        if outcome.luck_seat is not None:
            table["luck_seat"] = outcome.luck_seat + 1
        table["next_leader"] = outcome.next_leader + 1
        if outcome.pride:
            table["pride"] = True
        end["outcome"] = table
    if fields["luck_victim"] is not None:
        seat, card = fields["luck_victim"]
        end["luck"] = [seat + 1, card]
    if fields["end_abs"]:
        end["absolutes"] = [[card, seat + 1] for card, seat in fields["end_abs"]]
    return end


_ORDER: Final = ("game", "title", "description", "players", "teams", "preset", "scope",
                 "catalogue", "phase", "rounds_won", "box", "later_rounds", "later_from",
                 "winner", "bouts", "rules", "hands", "bout", "end", "deal", "puzzle")
"""The order a position file's keys are written in: what it is, the table, the hands, the
bout."""


def position_toml(data: Mapping[str, Any], comments: Iterable[str] = (),
                  spread: Iterable[str] = ()) -> str:
    """A position file's text (``docs/omens-positions.md``): ``comments`` first, then the keys
    of ``data`` in a fixed order (unknown keys last), each table under its header, the arrays
    named in ``spread`` one item per line. Every Omens position file the library writes is
    written by this function."""
    ordered = {key: data[key] for key in _ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    return toml_text(ordered, comments, spread)
