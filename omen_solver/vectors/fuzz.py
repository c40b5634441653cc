"""``omen-solver vectors fuzz --engine COMMAND``: differential fuzzing of an Omens engine.

Seeded random play through the vector protocol (:mod:`omen_solver.vectors.protocol`): whole
games from the first deal, rounds from a full deal, and mid-round positions with the effect
cards dealt first, every action drawn at random from the legal actions of this library's
engine. After the setup and after every action the engine's answer (who acts, the legal
actions) is compared with this library's engine under the settings the engine declares, and
at every bout end the state, exactly as ``vectors check`` compares them (the same functions).

A disagreement is **shrunk** the way Hypothesis shrinks a failing example: the line is kept as
the sequence of its choices (an index into each legal-action list), and the position and that
sequence are made smaller while the engine still disagrees in the same way: the start moved to
the last bout start before the disagreement (a whole game becomes the position of one bout),
fewer players, fewer cards in the hands, a smaller scope, fewer and smaller choices. The
smallest position and line found is written as a vector file (the published format, its
expectations this library's), which ``vectors check`` then plays as a regression test.

Everything is deterministic for a seed: the positions, the lines and the shrinking (an engine
that answers the same way gives the same vectors).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import atomic_write
from omen_solver.errors import EngineError, EngineStartError, OmenSolverError
from omen_solver.omens.actions import OmensAction, format_action, parse_action
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.state import OmensState
from omen_solver.omens.vocabulary import ChoiceWord, Effect
from omen_solver.vectors.holds import holds_info
from omen_solver.vectors.jsonfile import dumps, validate
from omen_solver.vectors.omens_features import SITUATIONS, BoutTrack, step_features
from omen_solver.vectors.omens_mine import possible_situations, situation_cards
from omen_solver.vectors.omens_record import (
    legal_view,
    record,
    setup_from_json,
    start_state,
    state_view,
    turn_view,
    vector_json,
)
from omen_solver.vectors.process import EngineProcess
from omen_solver.vectors.runner import Mismatch, _legal_mismatch, _state_mismatch
from omen_solver.vectors.settings import EngineRules, declared, options_json, preset_settings

__all__ = ["Disagreement", "FuzzReport", "Line", "fuzz", "random_start", "shrink"]

GAME: Final = "omens"
MAX_MOVES: Final = 400
"""Actions one line plays at most (a whole game of 6 players takes about 150)."""
SHRINK_CHECKS: Final = 400
"""Replays one shrink may ask of the engine."""
SHRINK_SECONDS: Final = 10.0
"""Seconds a shrink may take beyond the run's time budget (a disagreement found at its end)."""
_TEAMS: Final = {4: [[1, 3], [2, 4]], 5: [[1, 3], [2, 4, 5]], 6: [[1, 4], [2, 5], [3, 6]]}
_CATALOGUE = default_catalogue()
_ABSOLUTES: Final = tuple(card for card in sorted(_CATALOGUE)
                          if _CATALOGUE[card].effect == Effect.ABSOLUTE)
_FIRST: Final = (*(card for card in sorted(_CATALOGUE) if _CATALOGUE[card].is_now
                     and card not in _ABSOLUTES), 12, 13, 14, 22, 26, 27)
"""The cards a mid-round position deals first: the immediate cards (an Absolute is added)
and the end-of-bout cards whose rules meet theirs and each other's (Fear, Luck, Mirror,
Pride, Sadness, Winter)."""
_SWARM: Final = (*_FIRST, 9, 16, 20, 30)
"""The cards a line may favour (swarm testing: each line favours a few of them, so that rare
meetings of two or three rules come up far more often than under uniform play): those of
:data:`_FIRST`, the end-of-bout cards that can discard Luck or Fear (Lie, Truth, Harmony) and
an Absolute."""
_SITUATIONS: Final = tuple(sorted(SITUATIONS))
FAVOURED: Final = 0.75
"""How often a line picks among the actions that involve one of its favoured cards, when there
are any (otherwise among all)."""
_DEAL_SIZES: Final = {4: {1: 5, 2: 5, 3: 5, 4: 5}, 5: {1: 4, 2: 5, 3: 4, 4: 5, 5: 5},
                      6: dict.fromkeys(range(1, 7), 4)}
"""Cards per seat in a new round (rules 000, "End of a Round"), with :data:`_TEAMS`: at 5
players the 2-player team (seats 1 and 3) gets 4 cards each."""


# ---------------------------------------------------------------------------------------------
# Starts: game starts, round starts and mid-round positions
# ---------------------------------------------------------------------------------------------


def _favoured(rng: random.Random, seen: Mapping[str, int] | None = None,
              possible: Sequence[str] = _SITUATIONS) -> tuple[int, ...]:
    """The cards a line favours: half the time the cards of one situation of the coverage
    (:data:`~omen_solver.vectors.omens_features.SITUATIONS`, e.g. Pride, Luck, Fear and
    Winter for Pride and Luck at the round end), in that order, and one more; else two to four
    of :data:`_SWARM`. The situation is one of those ``possible`` under the settings that the
    run's lines have met the fewest times so far (``seen``: coverage-guided, as AFL favours
    the inputs that reach new edges), drawn at random among those."""
    if rng.random() < 0.5:
        counts = seen or {}
        fewest = min(counts.get(f, 0) for f in possible)
        situation = rng.choice([f for f in possible if counts.get(f, 0) == fewest])
        cards = situation_cards(situation)
        extra = rng.choice([card for card in _SWARM if card not in cards])
        return (*cards, extra)
    return tuple(rng.sample(_SWARM, rng.randint(2, 4)))


def random_start(rng: random.Random, seen: Mapping[str, int] | None = None,
                 possible: Sequence[str] = _SITUATIONS
                 ) -> tuple[str, dict[str, Any], tuple[int, ...]]:
    """A start drawn from ``rng``: its kind (``game``, ``round``, ``mid-round``), its position
    (the published JSON form, docs/vectors.md) and the cards its line favours
    (:func:`_favoured`: in a mid-round position they are dealt into random places of the
    hands, or half the time next to each other, so that two of them often share a hand; the
    other cards of :data:`_FIRST` next)."""
    roll = rng.random()
    players = rng.choice((4, 5, 6))
    favoured = _favoured(rng, seen, possible)
    if roll < 0.15:
        return "game", {"players": players, "phase": "new-game", "scope": "game"}, favoured
    teams = _TEAMS[players]
    box = sorted(rng.sample(_ABSOLUTES, 6 - players)) if players < 6 else []
    scope = rng.choice(("round", "game"))
    rounds_won = [rng.randint(0, 1) for _ in teams] if scope == "game" else [0] * len(teams)
    if roll < 0.4:
        deck = [card for card in sorted(_CATALOGUE) if card not in box]
        rng.shuffle(deck)
        hands: dict[str, list[int]] = {}
        for seat in range(1, players + 1):
            size = _DEAL_SIZES[players][seat]
            hands[str(seat)], deck = sorted(deck[:size]), deck[size:]
        kind = "round"
    else:
        size = rng.choice((2, 3))
        box = [a for a in box if a not in favoured]
        box += [a for a in _ABSOLUTES if a not in favoured and a not in box][
            : (6 - players if players < 6 else 0) - len(box)]
        box.sort()
        first = [card for card in _FIRST if card not in favoured]
        first += rng.sample([a for a in _ABSOLUTES if a not in box and a not in favoured], 1)
        rng.shuffle(first)
        rest = [card for card in sorted(_CATALOGUE)
                if card not in first and card not in favoured and card not in box]
        rng.shuffle(rest)
        slots = players * size
        others = first[: rng.randint(0, len(first))] + rest
        deck = others[: slots - len(favoured)]
        if rng.random() < 0.5:  # together, in order: two of them often share a hand
            at = rng.randint(0, len(deck))
            deck[at:at] = favoured
        else:
            for card in favoured:
                deck.insert(rng.randint(0, len(deck)), card)
        hands = {str(seat): sorted(deck[(seat - 1) * size: seat * size])
                 for seat in range(1, players + 1)}
        kind = "mid-round"
    return kind, {"players": players, "teams": teams, "hands": hands,
                  "leader": rng.randint(1, players), "scope": scope, "rounds_won": rounds_won,
                  "box": box}, favoured


def _position_at(state: OmensState, scope: str) -> dict[str, Any] | None:
    """The position of a state at the start of a bout (None elsewhere)."""
    if (state.is_terminal() or state.is_chance_node() or state.in_play or state.pending
            or any(state.played_this_bout(seat) for seat in range(state.num_players()))):
        return None
    return {
        "players": state.num_players(),
        "teams": [[seat + 1 for seat in team] for team in sorted(state.teams())],
        "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(state.hands)},
        "leader": state.leader + 1,
        "scope": scope,
        "rounds_won": list(state.rounds_won),
        "box": list(state.box),
    }


# ---------------------------------------------------------------------------------------------
# One line through the engine and the reference
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A start and the choices of a line: at step i, the ``choices[i]``-th legal action of this
    library's engine (modulo their number); the line ends when the choices do (``None``: a
    random line, drawn from ``rng``)."""

    position: Mapping[str, Any]
    choices: tuple[int, ...] | None = None
    favoured: tuple[int, ...] = ()
    """A random line's favoured cards (:data:`FAVOURED`)."""
    hints: tuple[str, ...] = ()
    """The actions of the line this one was made from: at step i, ``hints[i]`` is played where
    it is legal (a smaller position keeps the line as far as it can), else the choice."""


@dataclass
class Disagreement:
    """Where the engine and this library part: the first mismatch of a line."""

    what: str
    """What differs: ``to_act``, ``legal actions``, ``state.KEY``, ``play`` (the engine
    refused a legal action), ``setup`` (it refused the position), ``engine`` (it died, hung or
    garbled its answer)."""
    mismatch: Mismatch
    rules: tuple[str, ...]
    """The rule ids this library's engine cites for the step where they part."""
    position: Mapping[str, Any]
    moves: list[str]
    """The actions up to the disagreement (the last one the step where they part)."""
    choices: tuple[int, ...]

    @property
    def kind(self) -> str:
        """The class of the disagreement in the summary: what differs and the card rules of
        the step (``legal actions after card.betrayal.take``)."""
        cards = [rule for rule in self.rules if rule.startswith(("card.", "round.", "game."))]
        return self.what + (f" after {', '.join(cards[-3:])}" if cards else "")

    def size(self) -> tuple[int, int, int]:
        """Players, cards in hand and actions (a new game counts 99 cards)."""
        hands = self.position.get("hands") or {}
        return (int(self.position["players"]),
                sum(len(cards) for cards in hands.values()) or 99, len(self.moves))

    def order(self) -> tuple[int, ...]:
        """What shrinking makes smaller, in this order: players, cards, the scope, the rounds
        already won, actions, choices."""
        players, cards, actions = self.size()
        scope = ("bout", "round", "game").index(str(self.position.get("scope", "game")))
        won = sum(self.position.get("rounds_won") or ())
        return (players, cards, scope, won, actions, *self.choices)


@dataclass
class _Outcome:
    disagreement: Disagreement | None = None
    skipped: str = ""
    """Why the line was not played: the engine answered ``unsupported``, or the position is
    not one this library accepts (a shrink candidate)."""
    moves: int = 0
    states: int = 0
    situations: set[str] = field(default_factory=set)
    dead: bool = False
    """The engine died, hung or garbled an answer: it must be started again."""


def _cards(move: Sequence[OmensAction]) -> set[int]:
    """The cards an action names: placed, dealt, taken, given, returned, swapped, shown."""
    cards = set()
    for action in move:
        cards.add(action.card)
        choice = action.choice
        if choice and choice[0] in (ChoiceWord.RETURN, ChoiceWord.SWAP):
            cards.add(int(choice[1]))
        elif choice and choice[0] == ChoiceWord.TAKE:
            cards.update((int(choice[1]), int(choice[2])))
        elif choice and choice[0] == ChoiceWord.SHOW:
            cards.add(int(choice[2]))
    return cards


class _Reference:
    """This library's engine along a line, with the rule ids of each step and the situations
    the line meets (the coverage's, :func:`~omen_solver.vectors.omens_features.step_features`).
    """

    def __init__(self, options: Mapping[str, Any], position: Mapping[str, Any]) -> None:
        self.state = start_state(options, position, "fuzz")
        self.rules: tuple[str, ...] = ()
        self.bout = BoutTrack()
        self.situations: set[str] = set()

    def play(self, text: str) -> bool:
        """Play one action; whether it ended a bout."""
        before = self.state
        move = before.parse_move(text)
        self.state, trace = before.explain(move)
        self.rules = tuple(dict.fromkeys(step.rule for step in trace))
        self.bout, features = step_features(before, move, self.state, trace, self.bout)
        self.situations |= {f for f in features if f.startswith("situation:")}
        return self.state.last_bout is not None and self.state.last_bout is not before.last_bout


def _play_line(engine: EngineProcess, options: Mapping[str, Any], line: Line,
               rng: random.Random | None) -> _Outcome:
    """Play ``line`` through the engine and this library's engine, comparing every step. An
    engine that dies, hangs or garbles an answer is a disagreement too (``engine``); the
    caller stops it (and starts it again for the next line)."""
    try:
        reference = _Reference(options, line.position)
    except OmenSolverError as error:
        return _Outcome(skipped=f"position: {error}")
    position = dict(line.position)
    outcome = _Outcome()
    moves: list[str] = []
    choices: list[int] = []

    def parted(found: list[Mismatch]) -> _Outcome:
        first = found[0]
        outcome.disagreement = Disagreement(first.what, first, reference.rules, position,
                                            list(moves), tuple(choices))
        return outcome

    try:
        return _compare(engine, options, line, rng, reference, outcome, moves, choices, parted)
    except EngineError as error:
        step = len(moves)
        outcome.dead = True
        return parted([Mismatch("fuzz", step, moves[-1] if moves else None, "engine",
                                "a protocol answer", str(error))])
    finally:
        outcome.situations = reference.situations


def _compare(engine: EngineProcess, options: Mapping[str, Any], line: Line,
             rng: random.Random | None, reference: _Reference, outcome: _Outcome,
             moves: list[str], choices: list[int],
             parted: Callable[[list[Mismatch]], _Outcome]) -> _Outcome:
    position = dict(line.position)
    answer = engine.request("setup", game=GAME, options=dict(options), position=position)
    if not answer["ok"]:
        if answer.get("unsupported"):
            return _Outcome(skipped=f"unsupported: {str(answer.get('error'))[:200]}")
        return parted([Mismatch("fuzz", 0, None, "setup", "ok",
                                f"refused 'setup': {str(answer.get('error'))[:400]}")])
    found = _legal_mismatch("fuzz", 0, None, turn_view(reference.state),
                            engine.request("legal"))
    if found:
        return parted(found)
    while not reference.state.is_terminal() and len(moves) < MAX_MOVES:
        legal = legal_view(reference.state)
        step = len(moves)
        if line.choices is None:
            assert rng is not None
            preferred = [i for i, move in enumerate(reference.state.moves())
                         if _cards(move) & set(line.favoured)]
            index = (rng.choice(preferred) if preferred and rng.random() < FAVOURED
                     else rng.randrange(len(legal)))
        elif step < len(line.choices):
            hint = line.hints[step] if step < len(line.hints) else None
            index = legal.index(hint) if hint in legal else line.choices[step] % len(legal)
        else:
            break
        text = legal[index]
        moves.append(text)
        choices.append(index)
        ended = reference.play(text)
        outcome.moves += 1
        played = engine.request("play", action=text)
        if not played["ok"]:
            return parted([Mismatch("fuzz", step + 1, text, "play", "the action is legal",
                                    f"refused 'play': {str(played.get('error'))[:400]}")])
        found = _legal_mismatch("fuzz", step + 1, text, turn_view(reference.state),
                                engine.request("legal"))
        if not found and ended:
            outcome.states += 1
            found = _state_mismatch(GAME, "fuzz", step + 1, text,
                                    state_view(reference.state), engine.request("state"))
        if found:
            return parted(found)
    return outcome


# ---------------------------------------------------------------------------------------------
# Shrinking
# ---------------------------------------------------------------------------------------------


def _renumbered_move(text: str, drop: int) -> str:
    """An action's text with seat ``drop`` (1-based) gone: the seats after it one lower (an
    action of that seat, or naming it, becomes text no state finds legal)."""
    parts = []
    for part in text.split("&"):
        try:
            action = parse_action(part.strip())
        except OmenSolverError:
            return "-"

        def seat(number: int) -> int:  # 0-based
            return -9 if number == drop - 1 else number - (number > drop - 1)

        choice = tuple(action.choice)
        if choice and choice[0] in (ChoiceWord.ASK, ChoiceWord.SHOW, ChoiceWord.WITH):
            choice = (choice[0], seat(int(choice[1])), *choice[2:])
        to = action.to if action.to < 0 else seat(action.to)
        moved = replace(action, seat=seat(action.seat), to=to, choice=choice)
        if moved.seat < 0 or (action.to >= 0 and to < 0) or any(
                isinstance(c, int) and c < 0 for c in choice[1:2]):
            return "-"
        parts.append(format_action(moved))
    return " & ".join(parts)


def _renumbered(position: Mapping[str, Any], drop: int) -> dict[str, Any]:
    """The position without seat ``drop`` (its cards leave the game), seats renumbered and the
    teams those of a table of one player fewer."""
    players = int(position["players"]) - 1
    hands = [cards for seat, cards in sorted(position["hands"].items(), key=lambda i: int(i[0]))
             if int(seat) != drop]
    leader = int(position["leader"])
    leader = leader - 1 if leader > drop else (leader if leader < drop else 1)
    teams = _TEAMS[players]
    rounds_won = ([*list(position["rounds_won"]), 0, 0, 0])[: len(teams)]
    return {**position, "players": players, "teams": teams, "leader": min(leader, players),
            "hands": {str(seat): list(cards) for seat, cards in enumerate(hands, start=1)},
            "rounds_won": rounds_won}


def _smaller_positions(position: Mapping[str, Any], moves: Sequence[str] = ()
                       ) -> Iterator[tuple[dict[str, Any], tuple[str, ...]]]:
    """Candidate positions one step smaller, each with the line's actions as hints: a seat
    fewer (the seats after it renumbered), a card fewer in a hand, a smaller scope, no round
    won (new games are not made smaller: they are rebased first)."""
    if position.get("phase") == "new-game":
        return
    players = int(position["players"])
    if players > 4:
        for seat in range(players, 0, -1):
            yield (_renumbered(position, seat),
                   tuple(_renumbered_move(text, seat) for text in moves))
    for seat, cards in sorted(position["hands"].items(), key=lambda item: -len(item[1])):
        for card in sorted(cards, reverse=True):
            yield {**position, "hands": {**position["hands"],
                                         seat: [c for c in cards if c != card]}}, tuple(moves)
    smaller = {"game": "round", "round": "bout"}.get(str(position["scope"]))
    if smaller is not None:
        yield ({**position, "scope": smaller, "rounds_won": [0] * len(position["rounds_won"])},
               tuple(moves))
    if any(position["rounds_won"]):
        yield {**position, "rounds_won": [0] * len(position["rounds_won"])}, tuple(moves)


def _smaller_choices(choices: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Candidate choice sequences one step smaller: an entry left out (the last first), then an
    entry made 0 or one smaller."""
    for index in range(len(choices) - 1, -1, -1):
        yield choices[:index] + choices[index + 1:]
    for index, value in enumerate(choices):
        if value:
            yield (*choices[:index], 0, *choices[index + 1:])
            if value > 1:
                yield (*choices[:index], value - 1, *choices[index + 1:])


def _rebased(options: Mapping[str, Any], found: Disagreement) -> Line | None:
    """The same disagreement from the start of its bout: the position at the last bout start
    before the step where they part, and the choices after it."""
    try:
        state = start_state(options, found.position, "fuzz")
    except OmenSolverError:
        return None
    scope = str(found.position.get("scope", "round"))
    best: tuple[dict[str, Any], int] | None = None
    for index, text in enumerate(found.moves[:-1] if found.moves else []):
        try:
            state = state.child(text)
        except OmenSolverError:
            return None
        position = _position_at(state, scope)
        if position is not None:
            best = (position, index + 1)
    if best is None:
        return None
    position, start = best
    return Line(position, found.choices[start:])


def shrink(check: Callable[[Line], Disagreement | None], options: Mapping[str, Any],
           found: Disagreement, *, budget: int = SHRINK_CHECKS,
           deadline: float | None = None) -> tuple[Disagreement, int]:
    """The smallest disagreement of the same kind (what differs) reachable from ``found`` by
    :func:`_rebased`, :func:`_smaller_positions` and :func:`_smaller_choices`, each accepted
    while ``check`` still finds one; and the number of checks made."""
    checks = 0

    def attempt(line: Line) -> Disagreement | None:
        nonlocal checks
        checks += 1
        again = check(line)
        if again is None or again.what != found.what:
            return None
        return again

    best = found
    progress = True
    while progress and checks < budget and (deadline is None or time.monotonic() < deadline):
        progress = False
        rebased = _rebased(options, best)
        if rebased is not None:
            again = attempt(rebased)
            if again is not None:
                best, progress = again, True
                continue
        candidates: Iterator[Line] = (
            Line(position, best.choices, hints=hints)
            for position, hints in _smaller_positions(best.position, best.moves))
        for candidate in candidates:
            if checks >= budget or (deadline is not None and time.monotonic() >= deadline):
                break
            again = attempt(candidate)
            if again is not None and again.order() < best.order():
                best, progress = again, True
                break
        if progress:
            continue
        for choices in _smaller_choices(best.choices):
            if checks >= budget or (deadline is not None and time.monotonic() >= deadline):
                break
            again = attempt(Line(best.position, choices))
            if again is not None and again.order() < best.order():
                best, progress = again, True
                break
    return best, checks


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------


@dataclass
class Found:
    """One disagreement, shrunk, and the vector file written for it."""

    round: int
    kind: str
    start: str
    disagreement: Disagreement
    original: tuple[int, int, int]
    """Players, cards in hand and actions before shrinking."""
    checks: int
    file: Path | None = None

    def to_json(self) -> dict[str, Any]:
        d = self.disagreement
        return {
            "round": self.round, "class": self.kind, "start": self.start,
            "file": None if self.file is None else str(self.file),
            "step": d.mismatch.step, "action": d.mismatch.action, "what": d.what,
            "expected": d.mismatch.expected, "actual": d.mismatch.actual,
            "position": dict(d.position), "moves": d.moves,
            "size": dict(zip(("players", "cards", "actions"), d.size(), strict=True)),
            "size_before_shrinking": dict(zip(("players", "cards", "actions"), self.original,
                                              strict=True)),
            "shrink_checks": self.checks,
        }


@dataclass
class FuzzReport:
    engine: str
    settings: str
    seed: int
    rounds: int
    """Rounds asked for."""
    played: int = 0
    """Lines played through the engine to the end (or to a disagreement)."""
    skipped: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    states: int = 0
    found: list[Found] = field(default_factory=list)
    stopped: str = ""
    seconds: float = 0.0
    starts: Counter[str] = field(default_factory=Counter)
    situations: int = 0
    """The situations of the coverage (of :data:`SITUATIONS`) the lines met."""
    situations_total: int = len(SITUATIONS)
    """Those a line can have under the settings."""

    def by_class(self) -> list[tuple[str, int]]:
        counts = Counter(found.kind for found in self.found)
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def ok(self) -> bool:
        return not self.found and self.played > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine, "settings": self.settings, "seed": self.seed,
            "rounds": self.rounds, "played": self.played, "moves": self.moves,
            "states": self.states, "starts": dict(self.starts),
            "situations": self.situations, "situations_total": len(SITUATIONS),
            "skipped": dict(self.skipped), "stopped": self.stopped or None,
            "seconds": round(self.seconds, 1),
            "disagreements": [found.to_json() for found in self.found],
            "by_class": dict(self.by_class()),
        }


def _settings(hello: Mapping[str, Any], preset: str | None, command: str
              ) -> tuple[EngineRules, dict[str, Any]]:
    """The settings to fuzz under and the ``options`` of every setup: those the engine
    declares; a switchable engine gets ``preset`` (default rulebook)."""
    try:
        rules = declared(hello, [GAME])[GAME]
    except ValueError as error:
        raise EngineStartError(f"--engine {command!r}: {error}") from None
    if rules.settings is None:
        name = preset or "rulebook"
        settings = preset_settings(GAME, name)
        return EngineRules(GAME, settings, name, {}), options_json(GAME, settings, name)
    if preset is not None and dict(preset_settings(GAME, preset)) != dict(rules.settings):
        raise OmenSolverError(
            f"--preset {preset}: the engine plays {rules.describe()}, which differs; leave "
            "--preset out to fuzz the settings the engine declares")
    return rules, options_json(GAME, dict(rules.settings), rules.preset)


def fuzz(
    command: str,
    *,
    preset: str | None = None,
    rounds: int = 100,
    seed: int = 0,
    seconds: float = 60.0,
    out: Path | None = None,
    timeout: float = 10.0,
    start_timeout: float = 60.0,
    max_found: int = 5,
    shrink_replays: int = SHRINK_CHECKS,
    progress: Callable[[int, int, str], None] | None = None,
) -> FuzzReport:
    """Fuzz the engine ``command`` for ``rounds`` lines or ``seconds`` seconds, whichever ends
    first; shrink each disagreement (at most ``shrink_replays`` replays; 0: not at all) and
    write it as a vector file into ``out`` (stop after ``max_found`` of them)."""
    engine = EngineProcess(command, timeout, start_timeout)
    hello = engine.start()
    try:
        if engine.games and GAME not in engine.games:
            raise EngineStartError(f"--engine {command!r}: it does not play {GAME} (its hello "
                                   f"says games {list(engine.games)}); fuzz plays Omens")
        rules, options = _settings(hello, preset, command)
        report = FuzzReport(engine.name, rules.describe(), seed, rounds,
                            situations_total=len(possible_situations(options["settings"])[0]))
        _run(engine, options, report, seconds=seconds, out=out, max_found=max_found,
             shrink_replays=shrink_replays, progress=progress)
    except BaseException:
        engine.stop(kill=True)
        raise
    engine.stop()
    return report


def _run(engine: EngineProcess, options: Mapping[str, Any], report: FuzzReport, *,
         seconds: float, out: Path | None, max_found: int, shrink_replays: int,
         progress: Callable[[int, int, str], None] | None) -> None:
    started = time.monotonic()
    seen: Counter[str] = Counter()  # lines that met each situation (starts favour the fewest)
    possible = sorted(possible_situations(options["settings"])[0])
    deadline = started + seconds

    def check(line: Line, rng: random.Random | None = None) -> _Outcome:
        if not engine.running:
            try:
                engine.start()
            except EngineStartError as error:
                mismatch = Mismatch("fuzz", 0, None, "engine", "a protocol answer",
                                    f"it did not start again: {error}")
                return _Outcome(Disagreement("engine", mismatch, (), line.position, [],
                                             line.choices or ()))
        outcome = _play_line(engine, options, line, rng)
        if outcome.dead:
            engine.stop(kill=True)
        return outcome

    for number in range(report.rounds):
        if time.monotonic() >= deadline:
            report.stopped = f"the time budget of {seconds:g} s ran out (--seconds)"
            break
        rng = random.Random(f"omens-fuzz-{report.seed}-{number}")
        kind, position, favoured = random_start(rng, seen, possible)
        if progress is not None:
            progress(number, report.rounds, f"round {number + 1}: {kind}, "
                     f"{position['players']} players")
        outcome = check(Line(position, favoured=favoured), rng)
        report.starts[kind] += 1
        if outcome.skipped:
            report.skipped[outcome.skipped.split(":", 1)[0]] += 1
            continue
        report.played += 1
        seen.update(outcome.situations)
        report.situations = len(seen)
        report.moves += outcome.moves
        report.states += outcome.states
        found = outcome.disagreement
        if found is None:
            continue
        if progress is not None:
            progress(number, report.rounds, f"round {number + 1}: shrinking ({found.what})")
        original = found.size()
        shrunk, checks = shrink(lambda line: check(line).disagreement, options, found,
                                budget=shrink_replays,
                                deadline=max(deadline, time.monotonic() + SHRINK_SECONDS))
        item = Found(number + 1, shrunk.kind, kind, shrunk, original, checks)
        if out is not None:
            item.file = write_vector(out, options, shrunk, report, number + 1)
        report.found.append(item)
        if len(report.found) >= max_found:
            report.stopped = f"{max_found} disagreement(s) found (--max-found)"
            break
    report.seconds = time.monotonic() - started


def write_vector(out: Path, options: Mapping[str, Any], found: Disagreement,
                 report: FuzzReport, number: int) -> Path:
    """The disagreement as a vector file ``OUT/fuzz-SEED-ROUND.json`` (the published format,
    its expectations this library's engine's), validated against the schema."""
    setup = setup_from_json({**options, "overrides": dict(options["overrides"])},
                            found.position)
    moves = list(found.moves)
    if found.what not in ("play", "setup", "engine") and found.mismatch.step < len(moves):
        moves = moves[: found.mismatch.step]
    recording = record(setup.start(), moves)
    vector_id = f"omens.fuzz.{report.seed}.{number}"
    players, cards, actions = found.size()
    why = (
        f"Found by differential fuzzing (omen-solver vectors fuzz, seed {report.seed}, round "
        f"{number}) against {report.engine} ({report.settings}): {found.mismatch.describe()} "
        f"Shrunk to {players} players, {cards} cards in hand and {actions} actions; the "
        f"expectations are this library's engine's."
    )
    draft = vector_json(vector_id, why, "differential fuzzing (omen-solver vectors fuzz)",
                        setup, recording)
    holds_under, _ = holds_info(GAME, draft)
    vector = vector_json(vector_id, why, "differential fuzzing (omen-solver vectors fuzz)",
                         setup, recording, holds_under=holds_under)
    data = {
        "format": "omen-solver-vectors", "version": 1, "game": GAME,
        "set": f"fuzz-{report.seed}-{number}",
        "description": "A disagreement found by omen-solver vectors fuzz, shrunk to a small "
        "position and line: a regression vector for the engine it was found against "
        "(omen-solver vectors check FILE --engine COMMAND).",
        "vectors": [vector],
    }
    path = out / f"fuzz-{report.seed}-{number}.json"
    validate(data, str(path))
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(path, dumps(data))
    return path


def describe_found(found: Found) -> list[str]:
    """A disagreement for people, a few lines."""
    d = found.disagreement
    players, cards, actions = d.size()
    before = found.original
    lines = [
        f"round {found.round} ({found.start}): {found.kind}",
        f"  {d.mismatch.describe()}".replace("\n", "\n  "),
        f"  shrunk from {before[0]} players, {before[1]} cards, {before[2]} actions to "
        f"{players} players, {cards} cards, {actions} actions ({found.checks} replays)",
        f"  position: {_position_text(d.position)}",
        f"  actions: {' '.join(repr(m) for m in d.moves) or '(none)'}",
    ]
    if found.file is not None:
        lines.append(f"  written to {found.file}")
    return lines


def _position_text(position: Mapping[str, Any]) -> str:
    if position.get("phase") == "new-game":
        return f"a new game of {position['players']} players"
    hands = " | ".join(f"{seat}: {' '.join(map(str, cards)) or '-'}"
                       for seat, cards in sorted(position["hands"].items(),
                                                 key=lambda item: int(item[0])))
    return (f"{position['players']} players, hands {hands}; seat {position['leader']} leads; "
            f"scope {position['scope']}, rounds won {position['rounds_won']}")


def reference_line(options: Mapping[str, Any], position: Mapping[str, Any],
                   moves: Sequence[str]) -> list[dict[str, Any]]:
    """The steps of a line as this library plays them (for tests and people)."""
    setup = setup_from_json(options, position)
    return record(setup.start(), moves).steps_json()
