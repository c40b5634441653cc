"""Theorems over the whole-bout model (:mod:`~omen_solver.omens.proofs.model.symbolic`).

A :class:`BoutTheorem` states a claim about one placement (``span = 1``), two placements in a
row (``span = 2``) or the end of a bout (``span = 0``). It is **proved** from any well-formed
state, so for every placement of every bout, every card, seat, number of players (4 to 6) and
option setting at once. Each **broken variant** is refuted by a whole bout from its start
(searched up to :attr:`BoutTheorem.search_steps` placements) whose moves the engine replays:
the counterexample file plays the real rules, and the moves the broken rule makes are the ones
listed. Should no such bout be found, the variant is refuted from any state and the file
describes the state instead.
"""

from __future__ import annotations

import inspect
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from omen_solver.core.smt import Outcome, SolverSettings, check, make_solver, prove
from omen_solver.omens.proofs.counterexamples import Counterexample, top_up
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import bits, cards_of
from omen_solver.omens.proofs.model.symbolic import StepModel, build_steps, exchange_step
from omen_solver.omens.proofs.observe import observe_bout
from omen_solver.omens.proofs.theorems.theorem import (
    Finding,
    Query,
    RuleRef,
    Theorem,
    Variant,
    check_definition,
)
from omen_solver.omens.rules import OmensRules, make_rules
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Scope, Table
from omen_solver.omens.vocabulary import Effect

__all__ = ["BoutTheorem", "replay_choices"]

StepQuery = Callable[[StepModel, int], Query]

TEAMS = {4: [[0, 2], [1, 3]], 5: [[0, 2], [1, 3, 4]], 6: [[0, 3], [1, 4], [2, 5]]}


@dataclass(frozen=True)
class BoutTheorem(Theorem):
    """A claim about placements or the end of a bout, proved over the whole-bout model."""

    name: str
    title: str
    statement: str
    rests_on: tuple[RuleRef, ...]
    query: StepQuery
    """``query(m, i)``: the claim about placement ``i`` (and ``i + 1`` when ``span`` is 2) of
    ``m``, or about the end of the bout when ``span`` is 0 (``i`` is then 0)."""
    broken: tuple[Broken, ...]
    span: int = 1
    search_steps: int = 4
    game: bool = False
    """The claim is about the game (rounds won, the game's end): counterexamples are played as
    a whole game, with the teams' rounds won."""
    exchange_lemma: bool = False
    """The claim speaks of the hands after The Absolute's exchanges at the end of the bout:
    prove first that one exchange keeps the hands (:func:`exchange_step`), then the claim for
    any hands the exchanges can leave (``build_steps(exchanges=False)``), which covers every
    sequence of exchanges by induction."""
    search_bit_blast: bool = True
    """Search counterexample bouts with the bit-blasting solver (else z3's default solver,
    which finds the end-of-bout counterexamples of some claims several times faster)."""
    method: str = field(default="z3 (bout)", init=False)

    def __post_init__(self) -> None:
        check_definition(self.name, self.statement, self.rests_on, len(self.broken))
        unknown = [b for b in self.broken if not isinstance(b, Broken)]
        if unknown:
            raise ValueError(
                f"theorem {self.name}: broken rules are members of Broken, not {unknown}"
            )

    def variants(self) -> tuple[Variant, ...]:
        return tuple(Variant(b.value, b.text, (b,)) for b in self.broken)

    def query_text(self) -> str:
        return textwrap.dedent(inspect.getsource(self.query))

    def _claims(self, m: StepModel) -> list[Query]:
        if self.span == 0:
            assert m.end is not None
            return [self.query(m, 0)]
        return [self.query(m, i) for i in range(len(m.steps) - self.span + 1)]

    def _setting(self, m: StepModel, broken: Sequence[Broken]) -> list[Any]:
        facts = [*m.facts, *m.broken_facts(broken)]
        if self.span == 0:
            assert m.end is not None
            facts.append(m.end.complete if m.start else m.bout.complete(m.states[-1]))
        return facts

    def check(self, variant: Variant | None, settings: SolverSettings) -> Finding:
        broken = () if variant is None else variant.broken
        started = time.perf_counter()
        if variant is not None:
            example = self.search(broken, settings)
            if example is not None:
                return Finding(
                    Outcome.REFUTED, time.perf_counter() - started, counterexample=example
                )
        lemma = variant is None and self.exchange_lemma
        if lemma:
            claim, facts = exchange_step()
            step = prove(claim, facts, settings=settings, bit_blast=True)
            if not step.proved:
                what = "refuted" if step.refuted else f"unknown ({step.reason})"
                reason = (
                    f"the lemma that one exchange at the end of the bout keeps the hands: {what}"
                )
                return Finding(Outcome.UNKNOWN, time.perf_counter() - started, reason)
        m = build_steps(max(self.span, 0), end=self.span == 0, exchanges=not lemma)
        (query,) = self._claims(m)
        verdict = prove(
            query.claim,
            [*self._setting(m, broken), *query.assumptions],
            settings=settings,
            bit_blast=True,
        )
        seconds = time.perf_counter() - started
        if verdict.outcome is not Outcome.REFUTED:
            return Finding(verdict.outcome, seconds, verdict.reason)
        example = self.search(broken, settings) if variant is None else None
        if example is None:
            # the hands of a position file hold at most 5 cards: look for such a state first
            sized = [*self._setting(m, broken), *query.assumptions, z3.Not(query.claim)]
            sized += [m.o.count(hand) <= 4 for hand in m.states[0].hands]
            model = _solve(m, sized, settings)
            example = _state_example(m, model if model is not None else verdict.model)
        return Finding(Outcome.REFUTED, time.perf_counter() - started, counterexample=example)

    def search(self, broken: Sequence[Broken], settings: SolverSettings) -> Counterexample | None:
        """A whole bout from its start where the claim fails: the shortest first, under the
        default options if it can be, fewest players first, seat 1 leading."""
        if self.span == 0:
            return self._end_search(broken, settings)
        lengths = [self.span + 1, self.search_steps]
        for steps in lengths:
            m = build_steps(steps, start=True, end=self.span == 0)
            claims = self._claims(m)
            failing = z3.Or(*[z3.And(*q.assumptions, z3.Not(q.claim)) for q in claims])
            base = [*self._setting(m, broken), failing, m.inputs.leader == 1]
            defaults = m.options.pin(make_rules().as_dict())
            for pinned in (defaults, []):
                for players in (4, 5, 6):
                    seated = [*base, *pinned, m.inputs.table == (1 << players) - 1]
                    model = _solve(m, seated, settings)
                    if model is not None and not _plain(m, model):
                        model = _solve(m, [*seated, *_plain_hands(m)], settings)
                    if model is not None:
                        return _bout_example(m, model, broken)
        return None

    def _end_search(
        self, broken: Sequence[Broken], settings: SolverSettings
    ) -> Counterexample | None:
        """The end of a bout where the claim fails, reached by plain moves: seat 1 leads,
        every player places one card in front of themselves (or Dream in front of a later
        player, who places a card in front of the Dream player), no other immediate card."""
        m = build_steps(0, end=True, exchanges=not self.exchange_lemma)
        (query,) = self._claims(m)
        base = [
            *self._setting(m, broken),
            *query.assumptions,
            z3.Not(query.claim),
            *_plain_end(m),
        ]
        if self.exchange_lemma:
            # a plain end has no Absolute in play: no exchange acts, the hands stay as they are
            assert m.end is not None
            base += [f == r for f, r in zip(m.end.final_hands, m.end.returned_hands, strict=True)]
        defaults = m.options.pin(make_rules().as_dict())
        for pinned in (defaults, []):
            for players in (4, 5, 6):
                seated = [*base, *pinned, m.inputs.table == (1 << players) - 1]
                if self.game:
                    seated += _game_facts(m, players)
                model = _solve(m, seated, settings, bit_blast=self.search_bit_blast)
                if model is not None:
                    return _end_example(m, model, broken, game=self.game)
        return None


def _game_facts(m: StepModel, players: int) -> list[Any]:
    """A bout of a whole game a position file can state: the teams of the counterexample
    files, and no Absolute in anyone's hand (the box then holds the ones a game of fewer than
    6 players leaves out); every player keeps 1 card in hand while the cards are in play, so
    that the bout ends the round (which z3 then finds at once)."""
    facts = [m.o.count(hand) == 1 for hand in m.states[0].hands[:players]]
    for team in TEAMS[players]:
        mask = sum(1 << seat for seat in team)
        facts += [m.inputs.mates[seat] == mask for seat in team]
    s = m.states[0]
    absolutes = m.cards(Effect.ABSOLUTE)
    facts += [
        (hand | placed) & absolutes == 0 for hand, placed in zip(s.hands, s.placed, strict=True)
    ]
    return facts


def _plain_end(m: StepModel) -> list[Any]:
    o, s = m.o, m.states[0]
    # Dream, and Secret (which moves no card), are the only immediate cards of a plain bout
    now = m.deck.now & ~m.deck.effect(Effect.DREAM) & ~m.deck.effect(Effect.SECRET)
    dream, secret = m.cards(Effect.DREAM), m.cards(Effect.SECRET)
    facts = [
        m.inputs.leader == 1,
        z3.Not(s.dreaming),
        z3.Not(s.replaying),
        z3.Not(s.giving),
        s.law == 0,
        m.in_play(s) & now == 0,
        m.in_play(s) & m.cards(Effect.ABSOLUTE) == 0,
    ]
    for i in m.seats:
        seated = m.inputs.table & (1 << i) != 0
        size = o.count(s.hands[i])
        facts.append(z3.If(seated, z3.And(o.single(s.placed[i]), size >= 1, size <= 3), True))
        shapes = [s.front[i] == s.placed[i]]
        for j in m.seats:
            dreamer, target = (i, j) if j > i else (j, i)
            if j == i:
                continue
            # the Dream player places Dream in front of a later player, who places a card in
            # front of the Dream player
            shapes.append(
                z3.And(
                    s.placed[dreamer] == dream,
                    s.front[target] == dream,
                    s.front[dreamer] == s.placed[target],
                )
            )
        facts.append(z3.Or(*shapes))
        facts.append(s.front[i] & secret == s.placed[i] & secret)
    facts.append(s.played == m.inputs.table)
    return facts


def _end_example(
    m: StepModel, model: Any, broken: Sequence[Broken], *, game: bool = False
) -> Counterexample:
    players = bin(_value(model, m.inputs.table)).count("1")
    s = m.states[0]
    placed = [cards_of(_value(model, s.placed[i]))[0] for i in range(players)]
    front = [cards_of(_value(model, s.front[i]))[0] for i in range(players)]
    mid = [cards_of(_value(model, s.hands[i])) for i in range(players)]
    hands = [sorted([*mid[i], placed[i]]) for i in range(players)]
    rules = m.options.read(model)
    secrets = set(m.deck.catalogue.with_effect(Effect.SECRET))
    moves, done = [], set()
    for i in range(players):
        if i in done:
            continue
        if front[i] == placed[i] and placed[i] in secrets:
            # Secret: ask the next player, who shows a card they hold throughout the bout
            asked = (i + 1) % players
            moves += [f"{i + 1}:{placed[i]} ask {asked + 1}", f"{asked + 1}:shows {mid[asked][0]}"]
            continue
        if front[i] == placed[i]:
            moves.append(f"{i + 1}:{placed[i]}")
            continue
        target = front.index(placed[i])
        moves += [f"{i + 1}:{placed[i]}>{target + 1}", f"{target + 1}:{placed[target]}>{i + 1}"]
        done.add(target)
    assert m.end is not None
    pick = cards_of(_value(model, m.end.luck_pick))
    if pick:
        seat = bits(_value(model, m.end.luck_seat))[0]
        moves.append(f"{seat + 1}:discards {pick[0]}")
    example = Counterexample(players, 0, hands, rules.differences(), moves=moves)
    if game:
        laurels = _value(model, m.inputs.laurels)
        example.rounds_won = [int(laurels >> team[0] & 1) for team in TEAMS[players]]
        example.box = list(m.deck.absolute_values[: 6 - players])
    legal, refused = example.legal_prefix()
    if refused is not None:
        example.moves = moves[:legal]
        example.notes.append(
            f"Under the broken rule '{broken[0].text}' the next move is "
            f"{moves[legal]!r}; the real rules refuse it: {refused}"
            if broken
            else f"The engine refuses {moves[legal]!r}: {refused}"
        )
    return example


def _solve(
    m: StepModel, facts: list[Any], settings: SolverSettings, *, bit_blast: bool = True
) -> Any:
    solver = make_solver(m.ctx, settings, bit_blast=bit_blast)
    solver.add(*facts)
    possibility, _ = check(solver)
    return solver.model() if possibility.name == "POSSIBLE" else None


def _plain(m: StepModel, model: Any) -> bool:
    """Hands a position file may start a bout with: 1 to 4 cards for every player (a hand
    holds at most 4 cards with 6 players, and an empty hand cannot start a bout)."""
    table = _value(model, m.inputs.table)
    return all(
        1 <= len(cards_of(_value(model, hand))) <= 4
        for s, hand in enumerate(m.inputs.hands)
        if table >> s & 1
    )


def _plain_hands(m: StepModel) -> list[Any]:
    """Hands of 2 to 4 cards (a position file holds at most 5 per hand)."""
    o = m.o
    facts = []
    for s, hand in enumerate(m.inputs.hands):
        size = o.count(hand)
        seated = m.inputs.table & (1 << s) != 0
        facts.append(z3.If(seated, z3.And(size >= 2, size <= 4), hand == 0))
    return facts


def _value(model: Any, term: Any) -> Any:
    value = model.eval(term, model_completion=True)
    return z3.is_true(value) if z3.is_bool(value) else value.as_long()


def _bout_example(m: StepModel, model: Any, broken: Sequence[Broken]) -> Counterexample:
    players = bin(_value(model, m.inputs.table)).count("1")
    leader = bits(_value(model, m.inputs.leader))[0]
    hands = [cards_of(_value(model, h)) for h in m.inputs.hands[:players]]
    rules = m.options.read(model)
    choices = {key: _value(model, var) for key, var in m.choices.made.items()}
    choices = {key: (int(v) if not isinstance(v, bool) else v) for key, v in choices.items()}
    example = Counterexample(players, leader, hands, rules.differences())
    moves, refused = replay_choices(
        _start(players, leader, hands, rules), choices, steps=len(m.steps), end=m.end is not None
    )
    example.moves = moves
    if refused:
        example.notes.append(
            f"Under the broken rule '{broken[0].text}' the next decision (the model's "
            f"choice there) is not one the real rules offer, so the moves stop here"
            if broken
            else f"The moves stop where the engine refuses the next one: {refused}"
        )
    return example


def _start(players: int, leader: int, hands: list[list[int]], rules: OmensRules) -> OmensState:
    table = Table(players, rules, scope=Scope.ROUND)
    held = {card for hand in hands for card in hand}
    return OmensState.start_of_bout(
        table,
        hands,
        TEAMS[players],
        leader,
        out=sorted(set(table.catalogue) - held),
    )


def replay_choices(
    start: OmensState,
    choices: dict[tuple[int, str], Any],
    *,
    steps: int = 1 << 30,
    end: bool = True,
) -> tuple[list[str], str | None]:
    """The engine moves that make the model's choices, from ``start`` to the end of the bout
    (Luck's discard included): at each decision, the first legal move whose observation agrees
    with the choices. Placements from ``steps`` on (and the end of the bout unless ``end``)
    were not modelled: any legal move will do there. The moves, and what the engine refuses
    if it cannot follow."""

    def agrees(key: tuple[int, str], value: Any) -> bool:
        modelled = key[0] < steps if key[0] >= 0 else end
        return not modelled or choices.get(key, 0) == value

    moves: list[tuple[Any, ...]] = []
    state = start
    while not state.is_terminal() and not (
        state.bouts_played > start.bouts_played and state.phase != Phase.END
    ):
        for move in state.moves():
            observed, _ = observe_bout(start, [*moves, move])
            if all(agrees(key, value) for key, value in observed.choices.items()):
                break
        else:
            made = sorted(
                f"{name} at placement {step + 1}"
                for step, name in choices
                if choices[(step, name)] and step >= 0
            )
            return _texts(start, moves), f"no legal move makes the model's choices ({made})"
        moves.append(move)
        state = state.apply_move(move)
    return _texts(start, moves), None


def _texts(start: OmensState, moves: Sequence[tuple[Any, ...]]) -> list[str]:
    texts, state = [], start
    for move in moves:
        texts.append(state.move_to_string(move))
        state = state.apply_move(move)
    return texts


def _state_example(m: StepModel, model: Any) -> Counterexample:
    """A counterexample from a state in the middle of a bout: the hands, and the state in the
    notes (no moves)."""
    players = bin(_value(model, m.inputs.table)).count("1")
    leader = bits(_value(model, m.inputs.leader))[0]
    state = m.states[0]
    hands = [cards_of(_value(model, h)) for h in state.hands[:players]]
    in_play = {c for f in state.front[:players] for c in cards_of(_value(model, f))}
    top_up(hands, [c for c in m.deck.catalogue if c not in in_play])
    front = ", ".join(
        f"seat {s + 1}: {cards_of(_value(model, f))}"
        for s, f in enumerate(state.front[:players])
        if _value(model, f)
    )
    example = Counterexample(players, leader, hands, m.options.read(model).differences())
    example.replayable = False
    example.notes.append(f"In the middle of a bout, with in play {front or 'nothing'}.")
    return example
