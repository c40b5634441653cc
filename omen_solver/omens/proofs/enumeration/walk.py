"""Bounded exhaustive checks of the engine, for properties of whole bouts and rounds.

Properties of whole bouts with immediate effects (sequences of decisions: Law, Dream, Wrath,
Betrayal, Jealousy, The Absolute's exchange) are checked by walking every legal sequence of
moves of the engine from every deal of a stated :class:`Space` (players, hands, card sets),
while a :class:`Monitor` written from the rule text watches every state and every move. A
walk is bounded by a node budget: running out is ``unknown``, never ``proved``.

Broken variants (:class:`Mutant`) play the same walks under a deliberately wrong rule: a rule
option set to a reading the rulebook rules out, or a transformation of the engine's successor
states (e.g. "Law's constraint survives Wrath": after Wrath sends Law back, the constraint is
put back). The monitor must then find a violation, whose move sequence becomes a position file.

The monitors need the cards in play at the moment a bout is resolved, which the engine does
not keep once the cards have gone back to hand; the walk passes the engine an observer that
records them with every move (``OmensState.child(move, observer=...)``; read only).
"""

from __future__ import annotations

import abc
import itertools
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from omen_solver.core.smt import Outcome, SolverSettings
from omen_solver.omens.actions import OmensAction
from omen_solver.omens.proofs.counterexamples import DEFAULT_TEAMS, Counterexample
from omen_solver.omens.proofs.theorems.theorem import (
    Finding,
    RuleRef,
    Theorem,
    Variant,
    check_definition,
)
from omen_solver.omens.resolve import BoutOutcome
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Placement, Scope, Table

__all__ = [
    "BoutDeal",
    "EnumerationTheorem",
    "Monitor",
    "Move",
    "Mutant",
    "Resolved",
    "Space",
    "Transform",
    "deals",
    "rebuild",
]

Move = tuple[OmensAction, ...]


@dataclass(frozen=True)
class BoutDeal:
    """One starting position: hands (0-based seats), leader, teams."""

    players: int
    leader: int
    hands: tuple[tuple[int, ...], ...]

    @property
    def teams(self) -> list[list[int]]:
        return [[seat - 1 for seat in team] for team in DEFAULT_TEAMS[self.players]]


def deals(
    players: int,
    fixed: Sequence[Mapping[int, Sequence[int]]],
    pool: Sequence[int],
    size: int,
    leader: int = 0,
) -> tuple[BoutDeal, ...]:
    """Every deal where each seat holds ``size`` cards: the ``fixed`` cards of one of the
    layouts (seat -> cards, 0-based), then distinct cards of ``pool`` filling the hands seat by
    seat, in a fixed order."""
    result: list[BoutDeal] = []
    for layout in fixed:
        base = [list(layout.get(seat, ())) for seat in range(players)]
        used = {card for cards in base for card in cards}
        free = [card for card in pool if card not in used]
        result += [BoutDeal(players, leader, hands) for hands in _fill(base, free, size, 0)]
    return tuple(result)


def _fill(
    base: list[list[int]], free: list[int], size: int, seat: int
) -> Iterator[tuple[tuple[int, ...], ...]]:
    if seat == len(base):
        yield tuple(tuple(sorted(hand)) for hand in base)
        return
    need = size - len(base[seat])
    for chosen in itertools.combinations(free, need):
        rest = [card for card in free if card not in chosen]
        hands = [list(hand) for hand in base]
        hands[seat] += chosen
        yield from _fill(hands, rest, size, seat + 1)


@dataclass(frozen=True)
class Space:
    """What a check enumerates: the deals, how far play goes, and the rule options."""

    description: str
    """Exactly what is enumerated, in words: players, hand sizes, card sets."""
    deals: tuple[BoutDeal, ...]
    scope: Scope = Scope.BOUT
    rules: Mapping[str, str] = field(default_factory=dict)


def rebuild(state: OmensState, **changes: Any) -> OmensState:
    """A copy of an engine state with some fields changed: how a :class:`Mutant` plays a
    broken rule. It reads the engine's constructor fields, so a change to them breaks the
    mutants loudly (their theorems' broken variants stop being refuted)."""
    fields = state.fields()
    unknown = set(changes) - set(fields)
    if unknown:
        raise ValueError(f"rebuild: the engine state has no fields {sorted(unknown)}")
    fields.update(changes)
    return OmensState(state.table, **fields)


Resolved = Sequence[tuple[Placement, ...]]
"""The cards in play of each bout a move resolved (see :class:`_Recorder`)."""
Transform = Callable[[OmensState, Move, OmensState, Resolved], OmensState]


@dataclass(frozen=True)
class Mutant:
    """A broken variant of an enumeration theorem: rule options that the rulebook rules out,
    and/or a transformation of the engine's successor states."""

    name: str
    text: str
    rules: Mapping[str, str] = field(default_factory=dict)
    transform: Transform | None = None


class Monitor(abc.ABC):
    """Watches a walk: a state of its own (``memo``, hashable), a look at every state and at
    every move. A non-empty string is a violation of the property, in words. ``tally`` counts
    what was checked; ``longest`` is the most bouts seen in one round (0 if not counted)."""

    def __init__(self) -> None:
        self.tally: Counter[str] = Counter()
        self.longest = 0

    @abc.abstractmethod
    def start(self, state: OmensState) -> Hashable:
        """The memo at the start of a deal."""

    def visit(self, state: OmensState, memo: Hashable) -> str | None:
        """Look at a state before its moves are tried."""
        del state, memo
        return None

    def step(
        self,
        memo: Hashable,
        before: OmensState,
        move: Move,
        after: OmensState,
        resolved: Sequence[tuple[Placement, ...]],
    ) -> tuple[Hashable, str | None]:
        """Look at a move; ``resolved`` holds the cards in play of each bout it resolved."""
        del before, move, after, resolved
        return memo, None

    def finish(self, state: OmensState, memo: Hashable) -> str | None:
        """Look at a terminal state."""
        del state, memo
        return None


class _Recorder:
    """An engine observer (``omen_solver.omens.state.BoutObserver``): the cards in play of
    every bout the engine resolves, taken after each move."""

    def __init__(self) -> None:
        self.calls: list[tuple[Placement, ...]] = []

    def bout_resolved(self, state: OmensState, outcome: BoutOutcome) -> None:
        del outcome
        self.calls.append(state.in_play)

    def take(self) -> list[tuple[Placement, ...]]:
        calls, self.calls = self.calls, []
        return calls


class _Exhausted(Exception):
    pass


@dataclass
class _Walk:
    monitor: Monitor
    mutant: Mutant | None
    recorder: _Recorder
    max_nodes: int
    nodes: int = 0
    moves: int = 0
    seen: set[Hashable] = field(default_factory=set)
    on_path: set[Hashable] = field(default_factory=set)

    def run(
        self, state: OmensState, memo: Hashable, path: list[tuple[OmensState, Move]]
    ) -> tuple[list[str], str] | None:
        """Depth first over every move; the first violation with the moves that reach it
        (kept as states and moves on the way down, written as text only for a violation)."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Exhausted
        problem = self.monitor.visit(state, memo)
        if problem:
            return _texts(path), problem
        if state.is_terminal():
            problem = self.monitor.finish(state, memo)
            return (_texts(path), problem) if problem else None
        for move in state.moves():
            after = state.child(move, observer=self.recorder)
            resolved = self.recorder.take()
            if self.mutant is not None and self.mutant.transform is not None:
                after = self.mutant.transform(state, move, after, resolved)
            self.moves += 1
            memo_after, problem = self.monitor.step(memo, state, move, after, resolved)
            here = [*path, (state, move)]
            if problem:
                return _texts(here), problem
            key = (after.key(), memo_after)
            if key in self.on_path:
                return _texts(here), "play comes back to a position it has already been in"
            if key in self.seen:
                continue
            self.seen.add(key)
            self.on_path.add(key)
            found = self.run(after, memo_after, here)
            self.on_path.discard(key)
            if found is not None:
                return found
        return None


def _texts(path: Sequence[tuple[OmensState, Move]]) -> list[str]:
    return [state.move_to_string(move) for state, move in path]


@dataclass(frozen=True)
class EnumerationTheorem(Theorem):
    """A property of the engine checked on every legal sequence of moves of a bounded space."""

    name: str
    title: str
    statement: str
    rests_on: tuple[RuleRef, ...]
    space: Callable[[], Space]
    monitor: Callable[[], Monitor]
    broken: tuple[Mutant, ...]
    max_nodes: int = 2_000_000
    """The node budget of one check; when it runs out the answer is ``unknown``."""
    method: str = field(default="enumeration", init=False)

    def __post_init__(self) -> None:
        check_definition(self.name, self.statement, self.rests_on, len(self.broken))

    def variants(self) -> tuple[Variant, ...]:
        return tuple(Variant(m.name, m.text, payload=m) for m in self.broken)

    def query_text(self) -> str:
        space = self.space()
        doc = " ".join((type(self.monitor()).__doc__ or "").split())
        return (
            f"enumerated: {space.description} ({len(space.deals):,} deals; scope: "
            f"{space.scope.value}; options: {dict(space.rules) or 'the defaults'})\n"
            f"checked: {doc}"
        )

    def check(self, variant: Variant | None, settings: SolverSettings) -> Finding:
        del settings  # an enumeration has a node budget, not a solver
        mutant = None if variant is None else variant.payload
        space = self.space()
        rules = make_rules(None, {**space.rules, **(mutant.rules if mutant else {})})
        started = time.perf_counter()
        checked_moves = 0
        states = 0
        tally: Counter[str] = Counter()
        longest = 0
        recorder = _Recorder()
        for deal in space.deals:
            table = Table(deal.players, rules, scope=space.scope)
            held = {card for hand in deal.hands for card in hand}
            start = OmensState.start_of_bout(
                table,
                deal.hands,
                deal.teams,
                deal.leader,
                out=sorted(set(table.catalogue) - held),
            )
            monitor = self.monitor()
            walk = _Walk(monitor, mutant, recorder, self.max_nodes - states)
            try:
                found = walk.run(start, monitor.start(start), [])
            except _Exhausted:
                return Finding(
                    Outcome.UNKNOWN,
                    time.perf_counter() - started,
                    reason=f"node budget of {self.max_nodes:,} spent before the end "
                    f"({states:,} states, {checked_moves:,} moves checked)",
                    cases=checked_moves,
                )
            recorder.take()
            states += walk.nodes
            checked_moves += walk.moves
            tally.update(monitor.tally)
            longest = max(longest, monitor.longest)
            if found is not None:
                path, problem = found
                example = Counterexample(
                    deal.players,
                    deal.leader,
                    [list(hand) for hand in deal.hands],
                    rules.differences(),
                    moves=path,
                    notes=[f"After the moves listed: {problem}."],
                )
                _cut_to_real_rules(example)
                return Finding(
                    Outcome.REFUTED,
                    time.perf_counter() - started,
                    counterexample=example,
                    cases=checked_moves,
                )
        counted = "".join(f", {count:,} {what}" for what, count in sorted(tally.items()))
        most = f", longest round {longest} bouts" if longest else ""
        return Finding(
            Outcome.PROVED,
            time.perf_counter() - started,
            cases=checked_moves,
            note=f"{len(space.deals):,} deals, {states:,} states, {checked_moves:,} moves"
            f"{counted}{most}",
        )


def _cut_to_real_rules(example: Counterexample) -> None:
    """Keep the moves the real rules allow in a row (a broken rule may have moved cards where
    the real rules do not) and tell the rest in the notes."""
    legal, refused = example.legal_prefix()
    if refused is None:
        return
    rest = example.moves[legal:]
    example.moves = example.moves[:legal]
    example.notes = [
        f"Under the broken rule the bout goes on with {', '.join(map(repr, rest))}, and then: "
        + example.notes[0].removeprefix("After the moves listed: "),
        f"Under the real rules {rest[0]!r} cannot be played at that point: {refused}",
    ]
