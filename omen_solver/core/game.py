"""The game protocol: what every game implements and every algorithm relies on.

The protocol follows OpenSpiel's state API (``current_player``, ``legal_actions``,
``chance_outcomes``, ``is_terminal``, ``returns``) so that an adapter to OpenSpiel stays thin,
with two differences that make exact search simpler:

* States are immutable values. :meth:`GameState.child` returns the successor and leaves the
  state untouched, so a state can be kept as a dictionary key, shared between branches of a
  search and compared for equality through :meth:`GameState.key`.
* Results are exact: probabilities and returns are :class:`fractions.Fraction`, so the same
  input always gives the same numbers.

Players are numbered from 0 **inside** the protocol, as in OpenSpiel (``current_player()``,
``teams()``, the hands of a state): the numbers a program passes around. Everything a person
reads numbers seats from 1: action text, messages, ``str()`` and ``repr()`` of states, the
command line, JSON, and :meth:`GameState.result`. A game groups players into teams; results
are per player and equal within a team.

Coming from OpenSpiel: ``child(action)`` is the way to move (states never change);
``clone()`` returns the state itself, and ``apply_action`` refuses with a pointer to
``child``, so that OpenSpiel code that expects a state to change in place fails loudly
instead of silently playing on from the old state. ``action_to_string(player, action)`` and
``string_to_action(player, text)`` accept OpenSpiel's player argument. For a real OpenSpiel
game (mutable states, integer actions) use :mod:`omen_solver.integrations.openspiel`.

What a game is, beside its states, is declared once in a :class:`Game` (OpenSpiel's
``GameType`` and ``GameInfo``): its name, its facts, its rule set and new games, its loader,
bounds and stopping points, its position codec, its search kernel and how it explains a
move. Each game module
(``omen_solver/omens/game.py``, ``omen_solver/omen/game.py``) registers its descriptor with
:func:`register`; code that works on any game looks the game up by name
(:func:`game_named`) or by state (:func:`game_of`), never by probing a state for methods.
What the upper layers offer per game (the conformance vectors' view of a game) is a
:class:`Feature`: the feature's own module registers each game's part on it, so that a game
never imports a layer above its own (``docs/architecture.md``, "Layers").
"""

from __future__ import annotations

import enum
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar

if TYPE_CHECKING:
    from omen_solver.core.budget import Budget, Progress
    from omen_solver.core.options import RuleOptions
    from omen_solver.core.search.kernels import KernelRoot
    from omen_solver.core.search.moves import Report
    from omen_solver.core.search.result import Concept, SimultaneousMode, SolveResult

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionT",
    "Feature",
    "Game",
    "GameResult",
    "GameState",
    "Kernel",
    "MakeRules",
    "NewGame",
    "NodeKind",
    "RuleSet",
    "TraceStep",
    "game_named",
    "game_of",
    "games",
    "openspiel_argument",
    "play_chance",
    "register",
    "registered",
]

CHANCE = -1
"""``current_player()`` at a chance node (a deal, a draw, a random choice)."""
SIMULTANEOUS = -2
"""``current_player()`` when several players decide at once without seeing each other's choice."""
TERMINAL = -4
"""``current_player()`` once the game (or the solved scope of it) is over."""

ActionT = TypeVar("ActionT", bound=Hashable)


class NodeKind(enum.Enum):
    """Who acts at a state."""

    DECISION = "decision"
    """One player chooses among :meth:`GameState.legal_actions`."""
    CHANCE = "chance"
    """Nature picks an outcome with the probabilities of :meth:`GameState.chance_outcomes`."""
    SIMULTANEOUS = "simultaneous"
    """The players of :meth:`GameState.acting_players` each choose, none seeing the others."""
    TERMINAL = "terminal"
    """Nothing is left to decide; :meth:`GameState.returns` gives the result."""


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of an explained resolution: the rule applied and what it did.

    ``rule`` is a rule id from the game's rule table (``docs/``), e.g. ``bout.winner.mirror``.
    """

    rule: str
    text: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.text}"


def openspiel_argument(args: tuple[object, ...], method: str) -> object:
    """The action (or text) of a call written ours, ``f(action)``, or OpenSpiel's,
    ``f(player, action)``; OpenSpiel's player (an index from 0) is only context there."""
    if len(args) == 1:
        return args[0]
    if len(args) == 2 and isinstance(args[0], int) and not isinstance(args[0], bool):
        return args[1]
    raise TypeError(f"{method}() takes (action) or OpenSpiel's (player, action), got {args!r}")


def _seat_words(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won a finished game (or solved scope of it), per team, with seats from 1."""

    teams: tuple[tuple[int, ...], ...]
    """Each team's seats, numbered from 1."""
    returns: tuple[Fraction, ...]
    """Each team's return, in the order of ``teams``."""

    @property
    def winner(self) -> tuple[int, ...] | None:
        """The seats of the team whose return is strictly the highest; ``None`` on a tie."""
        best = max(self.returns)
        leaders = [team for team, value in zip(self.teams, self.returns, strict=True)
                   if value == best]
        return leaders[0] if len(leaders) == 1 else None

    def of_seat(self, seat: int) -> Fraction:
        """The return of the team of ``seat`` (from 1)."""
        for team, value in zip(self.teams, self.returns, strict=True):
            if seat in team:
                return value
        raise ValueError(f"seat {seat!r}: no such seat; seats are 1 to {max(map(max, self.teams))}")

    def to_json(self) -> dict[str, object]:
        return {
            "winner": None if self.winner is None else list(self.winner),
            "teams": [list(team) for team in self.teams],
            "returns": [str(value) for value in self.returns],
        }

    def __str__(self) -> str:
        values = ", ".join(
            f"{_seat_words(team)}: {value}"
            for team, value in zip(self.teams, self.returns, strict=True)
        )
        lead = "no team is ahead" if self.winner is None else (
            f"{_seat_words(self.winner)} {'wins' if len(self.winner) == 1 else 'win'}"
        )
        return f"{lead} ({values})"


class GameState(ABC, Generic[ActionT]):
    """An immutable game position seen by search, enumeration and proof code.

    Subclasses implement the abstract methods; everything else has a default built on them.
    Legal actions come in a stable, documented order so that enumeration, node counts and
    principal variations are deterministic.
    """

    __slots__ = ()

    game_name: ClassVar[str | None] = None
    """The name of the game's registered :class:`Game` (:func:`game_of` reads it); ``None``
    for a state of no registered game, which then has no loader, bounds or kernel."""

    # -- who acts -------------------------------------------------------------------------

    @abstractmethod
    def num_players(self) -> int:
        """The number of players (numbered ``0 .. num_players - 1``)."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to decide, or :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""

    def node_kind(self) -> NodeKind:
        """The kind of node, derived from :meth:`current_player`."""
        player = self.current_player()
        if player >= 0:
            return NodeKind.DECISION
        return {
            CHANCE: NodeKind.CHANCE,
            SIMULTANEOUS: NodeKind.SIMULTANEOUS,
            TERMINAL: NodeKind.TERMINAL,
        }[player]

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def acting_players(self) -> tuple[int, ...]:
        """The players who decide at this node (several at a simultaneous node)."""
        player = self.current_player()
        return (player,) if player >= 0 else ()

    # -- moves ----------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> tuple[ActionT, ...]:
        """The legal actions, in a stable order.

        At a decision node ``player`` may be omitted. At a simultaneous node it names one of
        :meth:`acting_players`; a game whose ``child`` takes joint actions may list them when
        it is omitted (Omens does), so that ``child(legal_actions()[0])`` works everywhere. At a
        chance node the outcomes of :meth:`chance_outcomes` are returned. At a terminal node
        the result is empty.
        """

    @abstractmethod
    def child(self, action: ActionT) -> Self:
        """The state after ``action`` at a decision or chance node.

        Raises :class:`ValueError` (a subclass naming the action and the position) if the
        action is not legal here.
        """

    def joint_child(self, actions: Sequence[ActionT]) -> Self:
        """The state after a simultaneous node: one action per acting player, in order."""
        raise TypeError(f"{type(self).__name__} has no simultaneous nodes")

    def chance_outcomes(self) -> tuple[tuple[ActionT, Fraction], ...]:
        """The outcomes of a chance node with their exact probabilities (summing to 1)."""
        return ()

    # -- results --------------------------------------------------------------------------

    @abstractmethod
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The teams, each a sorted tuple of players; every player is in exactly one team."""

    def team_of(self, player: int) -> int:
        """The index in :meth:`teams` of the team that ``player`` belongs to."""
        for index, team in enumerate(self.teams()):
            if player in team:
                return index
        raise ValueError(f"player index {player} (seat {player + 1}) is in no team")

    @abstractmethod
    def returns(self) -> tuple[Fraction, ...]:
        """The result for each player at a terminal state (equal within a team)."""

    def team_returns(self) -> tuple[Fraction, ...]:
        """The result for each team at a terminal state."""
        results = self.returns()
        return tuple(results[team[0]] for team in self.teams())

    def result(self) -> GameResult | None:
        """Who won, per team, with seats from 1; ``None`` while play goes on."""
        if not self.is_terminal():
            return None
        teams = tuple(tuple(player + 1 for player in team) for team in self.teams())
        return GameResult(teams, self.team_returns())

    # -- OpenSpiel habits -------------------------------------------------------------------

    def clone(self) -> Self:
        """The state itself: states never change, so a copy is never needed."""
        return self

    def apply_action(self, action: object) -> NoReturn:
        """Refused: states never change. OpenSpiel's ``state.apply_action(a)`` changes the
        state in place; here that would silently leave ``state`` as it was."""
        raise TypeError(
            f"{type(self).__name__} never changes: write `state = state.child(action)` "
            "(for an OpenSpiel game whose states change, use omen_solver.integrations.openspiel)"
        )

    def apply_actions(self, actions: object) -> NoReturn:
        """Refused like :meth:`apply_action`: use :meth:`joint_child`."""
        raise TypeError(
            f"{type(self).__name__} never changes: write `state = state.joint_child(actions)`"
        )

    # -- identity and text ----------------------------------------------------------------

    @abstractmethod
    def key(self) -> Hashable:
        """A hashable value equal for two states exactly when play continues identically.

        Used for transposition tables, distinct-state counts and equality.
        """

    @abstractmethod
    def action_to_string(self, action: ActionT) -> str:
        """The canonical text of an action; :meth:`string_to_action` reads it back."""

    @abstractmethod
    def string_to_action(self, text: str) -> ActionT:
        """Parse an action in canonical notation that is legal here.

        Raises a :class:`ValueError` subclass naming the text and what is wrong with it.
        """

    def move_to_string(self, move: ActionT | Sequence[ActionT]) -> str:
        """The canonical text of what :meth:`child` or :meth:`joint_child` takes: an action,
        or the actions of a joint action."""
        if isinstance(move, Sequence) and not isinstance(move, str):
            return self.joint_to_string(move)
        return self.action_to_string(move)

    def to_text(self) -> str:
        """The whole state as text that the game's loader reads back to an equal state (both
        games write TOML that :func:`omen_solver.load` reads); a game without one raises
        :class:`NotImplementedError`."""
        raise NotImplementedError(f"{type(self).__name__} has no text form")

    def joint_to_string(self, actions: Sequence[ActionT]) -> str:
        """The canonical text of a joint action at a simultaneous node."""
        return " & ".join(self.action_to_string(action) for action in actions)

    def string_to_joint(self, text: str) -> tuple[ActionT, ...]:
        """Parse a joint action written as the acting players' actions joined by ``&``."""
        parts = [part.strip() for part in text.split("&")]
        players = self.acting_players()
        if len(parts) != len(players):
            raise ValueError(
                f"{text!r}: a joint action here needs {len(players)} parts joined by '&'"
            )
        by_player: dict[int, ActionT] = {}
        for part in parts:
            for player in players:
                try:
                    action = self._parse_for(player, part)
                except ValueError:
                    continue
                by_player[player] = action
                break
            else:
                raise ValueError(f"{text!r}: {part!r} is no legal choice of an acting player")
        if len(by_player) != len(players):
            raise ValueError(f"{text!r}: each acting player must choose exactly once")
        return tuple(by_player[player] for player in players)

    def _parse_for(self, player: int, text: str) -> ActionT:
        for action in self.legal_actions(player):
            if self.action_to_string(action) == text:
                return action
        raise ValueError(f"{text!r} is not a legal action of seat {player + 1}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState) or type(other) is not type(self):
            return NotImplemented
        return bool(self.key() == other.key())

    def __hash__(self) -> int:
        return hash(self.key())


StateU = TypeVar("StateU", bound=GameState[Any])


def play_chance(state: StateU, seed: int) -> StateU:
    """``state`` after its chance nodes, each outcome drawn with its exact probability by a
    generator seeded with ``seed``, up to the first node that is not chance (the same seed
    gives the same play on every machine)."""
    rng = random.Random(seed)
    while state.is_chance_node():
        draw = Fraction(rng.getrandbits(53), 1 << 53)
        outcomes = state.chance_outcomes()
        chosen = outcomes[-1][0]
        for outcome, probability in outcomes:
            if draw < probability:
                chosen = outcome
                break
            draw -= probability
        state = state.child(chosen)
    return state


# -- the game descriptor ---------------------------------------------------------------------

StateT = TypeVar("StateT", bound=GameState[Any])
StateT_contra = TypeVar("StateT_contra", bound=GameState[Any], contravariant=True)


class Kernel(Protocol[StateT_contra]):
    """A game's own exact search, tried by :func:`omen_solver.core.search.solve` before the
    reference search. It answers the question whole (a :class:`SolveResult`), or hands the
    solve its searches (a :class:`~omen_solver.core.search.kernels.KernelRoot`), whose root
    the solve then analyses as it does the reference's. It raises
    :class:`omen_solver.errors.KernelRefused` (with the reason) for a position or question it
    does not answer, and :class:`omen_solver.errors.ChoiceError` for an ``algorithm`` it lacks.
    ``per_move`` and ``report`` are the root's options of :func:`omen_solver.core.search.solve`
    (every root move's answer, and the snapshots after each turn); ``threads`` and
    ``max_memory``, when given, the kernel's threads and memory budget, and ``estimate`` and
    ``seed`` its estimates of the moves left open (a kernel without them refuses them)."""

    def __call__(
        self,
        state: StateT_contra,
        concept: Concept,
        team: int,
        *,
        budget: Budget,
        simultaneous: SimultaneousMode,
        progress: Progress | None,
        algorithm: str | None,
        per_move: bool,
        report: Report | None,
        threads: int | None = None,
        max_memory: int | None = None,
        estimate: bool = False,
        seed: int | None = None,
    ) -> SolveResult | KernelRoot: ...


class MakeRules(Protocol):
    """A game's rule options from a preset with options set over it (errors name ``where``)."""

    def __call__(self, preset: str, overrides: Mapping[str, object] | None = None, /, *,
                 where: str = "rules") -> RuleOptions: ...


@dataclass(frozen=True)
class RuleSet:
    """How a game names its rules: its options, its presets (each a mapping of options to
    settings; Omen's profiles), the preset a position without one is played under, the
    position file's key for it, and how the options of a preset are made."""

    game: str
    options: type[RuleOptions]
    presets: Mapping[str, Mapping[str, str]]
    default_preset: str
    preset_key: str
    """The position file's key of the preset (``preset``; Omen: ``profile``)."""
    make: MakeRules
    preset_refusal: str = ""
    """Why a preset given apart from the file is refused, if it is (an Omen profile also
    fixes the card sets); empty when it is taken."""


StateT_co = TypeVar("StateT_co", bound=GameState[Any], covariant=True)


class NewGame(Protocol[StateT_co]):
    """A new game: before the deal (play starts with its chance nodes), or, with ``seed``,
    after the deal that seed draws; under ``preset`` (the rule set's default when ``None``)
    with the options ``rules`` set."""

    def __call__(self, players: int = ..., preset: str | None = ..., *,
                 rules: Mapping[str, object] | None = None,
                 seed: int | None = None) -> StateT_co: ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Game(Generic[StateT]):
    """A game, declared once: its facts and the functions generic code needs from it.

    Every callable takes the game's own state; code that works on any game reaches them
    through :func:`game_of` or :func:`game_named`."""

    name: str
    """The ``game`` key of its position files and vectors (``omens``, ``omen``)."""
    title: str
    players: tuple[int, ...]
    """The numbers of players its rules allow."""
    chance: bool
    """Whether play can reach chance nodes (deals, draws)."""
    simultaneous: bool
    """Whether play can reach simultaneous nodes."""
    return_bounds: tuple[Fraction, Fraction] | None = None
    """``(low, high)``: every team return of every terminal state lies within. The zero-sum
    solver starts from that window and prunes below chance nodes (Star1); a terminal return
    outside it is reported as an error, never silently used."""
    stop_points: tuple[str, ...] = ()
    """The named stopping points of perft, graph export and ``--to NAME``."""
    stop_predicate: Callable[[StateT, str], Callable[[StateT], bool]] | None = None
    """``stop_predicate(root, name)``: the predicate of a stopping point, relative to the root
    of a walk; it is tested on every state reached after at least one action, never on the
    root; it depends only on what :meth:`GameState.key` captures. An unknown name raises
    :class:`ValueError`."""
    load: Callable[[Path, dict[str, Any]], StateT] | None = None
    """``load(path, data)``: the state of a position file's parsed TOML (``path`` names it in
    errors, :class:`omen_solver.errors.PositionError`)."""
    text_data: Callable[[str, str], dict[str, Any]] | None = None
    """``text_data(text, name)``: a position file's data from the game's one-line text (its
    first word is the game's name; ``docs/position-text.md``), for ``load`` to read."""
    write_text: Callable[[StateT], str] | None = None
    """``write_text(state)``: the state's one-line text, which ``text_data`` (and ``load``)
    read back to an equal state (``state.to_text()`` and ``repr(state)`` call it)."""
    write_file: Callable[[StateT], str] | None = None
    """``write_file(state)``: the state's position file (TOML), which ``load`` reads back to an
    equal state: the one writer of the game's position files."""
    file_keys: tuple[str, ...] = ()
    """The keys of its position files that name other files to read (a card catalogue, card
    lists): a reader that takes positions from a request, never from the disk (the web
    server), refuses them."""
    game_key_optional: bool = False
    """Whether its own position reader takes a position file without a ``game`` key as one of
    its own (:func:`omen_solver.load` always needs the key)."""
    explain: Callable[[StateT, str], tuple[StateT, list[TraceStep]]] | None = None
    """``explain(state, text)``: the successor after the move written ``text`` and the rule
    steps it caused."""
    parse: Callable[[StateT, str], Hashable] | None = None
    """``parse(state, text)``: the move written ``text``, checked legal (what ``child``
    takes)."""
    kernel: Kernel[StateT] | None = None
    """Its own exact search, if it has one."""
    rule_set: Callable[[], RuleSet] | None = None
    """Its rule options and presets, if it has named options (made on first use)."""
    new_game: NewGame[StateT] | None = None
    """A new game of it."""


_REGISTRY: dict[str, Game[Any]] = {}


def register(game: Game[StateT]) -> Game[StateT]:
    """Make ``game`` known by its name; registering an equal descriptor again changes nothing,
    and another game under a taken name is an error (a definition mistake, found at once)."""
    known = _REGISTRY.get(game.name)
    if known is not None and known != game:
        raise ValueError(f"game {game.name!r} is registered already, as {known.title}")
    _REGISTRY[game.name] = game
    return game


@contextmanager
def registered(game: Game[Any]) -> Iterator[Game[Any]]:
    """Register ``game`` for the duration of a ``with`` block (a test's toy game)."""
    if game.name in _REGISTRY:
        raise ValueError(f"game {game.name!r} is registered already")
    _REGISTRY[game.name] = game
    try:
        yield game
    finally:
        del _REGISTRY[game.name]


def games() -> tuple[Game[Any], ...]:
    """The registered games, in the order they were registered."""
    return tuple(_REGISTRY.values())


def game_named(name: str) -> Game[Any]:
    """The registered game of that name; an unknown name raises :class:`KeyError` naming the
    known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(map(repr, _REGISTRY))
        raise KeyError(f"unknown game {name!r}; known: {known}") from None


PartT = TypeVar("PartT")


class Feature(Generic[PartT]):
    """Something an upper layer offers per game (the conformance vectors' view of a game,
    ``omen_solver/vectors/views.py``), as OpenSpiel's registries do: the feature's module
    registers each game's part with :meth:`register`, and asks for it with :meth:`of`. A game
    takes part without importing the feature, which sits in a layer above it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._parts: dict[str, PartT] = {}

    def register(self, game: Game[Any], part: PartT) -> PartT:
        """Register ``game``'s part (an equal part again changes nothing; another one is a
        definition mistake, refused at once)."""
        known = self._parts.get(game.name)
        if known is not None and known != part:
            raise ValueError(f"{self.name}: game {game.name!r} has its part already")
        self._parts[game.name] = part
        return part

    def of(self, game: Game[Any]) -> PartT:
        """``game``'s part; a game without one raises :class:`KeyError` naming those with."""
        try:
            return self._parts[game.name]
        except KeyError:
            known = ", ".join(map(repr, self._parts))
            raise KeyError(f"{self.name}: no part for game {game.name!r}; games with one: "
                           f"{known}") from None

    def games(self) -> tuple[Game[Any], ...]:
        """The registered games with a part, in the order the games were registered."""
        return tuple(game for game in games() if game.name in self._parts)


def game_of(state: GameState[Any]) -> Game[Any]:
    """The descriptor of the game ``state`` belongs to; a state of no registered game gets a
    bare descriptor (no loader, bounds, stopping points or kernel)."""
    name = type(state).game_name
    if name is None:
        return Game(name=type(state).__name__, title=type(state).__name__, players=(),
                    chance=False, simultaneous=False)
    return game_named(name)
