"""The symbolic whole-bout model, as the theorems use it.

Two builds of :class:`~omen_solver.omens.proofs.model.play.BoutMachine` over z3 terms:

* **from any state** (``start=False``): the bout stands at an arbitrary state that satisfies
  :meth:`BoutMachine.well_formed` (any hands, any cards in play in front of anyone, any pending
  placement, Law in force or not, any players and leader), and one or two placements follow,
  or the end of the bout. A claim proved here holds at every placement of every bout, however
  long, because every state a bout reaches is well formed (theorem ``well-formed-states``).
* **from the start of a bout** (``start=True``): every placement from a bout's first, up to
  a number of steps. Broken variants are refuted here, so that their counterexamples are whole
  bouts from their start, which the engine replays move by move.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import Deck
from omen_solver.omens.proofs.model.ops import Symbolic
from omen_solver.omens.proofs.model.play import BoutMachine
from omen_solver.omens.proofs.model.records import (
    SEAT,
    BoutEnd,
    Choices,
    Inputs,
    Options,
    State,
    Step,
)
from omen_solver.omens.proofs.model.runs import OPTION_SETTINGS, check_setting
from omen_solver.omens.rules import OmensRules, make_rules

__all__ = [
    "StepModel",
    "SymbolicChoices",
    "SymbolicOptions",
    "build_steps",
    "disjoint",
    "exchange_step",
]


class SymbolicChoices(Choices):
    """A fresh z3 variable for every decision."""

    def __init__(self, o: Symbolic) -> None:
        self.o = o
        self.made: dict[tuple[int, str], Any] = {}

    def _var(self, step: int, name: str, make: Any) -> Any:
        key = (step, name)
        if key not in self.made:
            self.made[key] = make(f"{name}[{step}]")
        return self.made[key]

    def card(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.card_var)

    def seat(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.seat_var)

    def flag(self, step: int, name: str) -> Any:
        return self._var(step, name, self.o.flag_var)


class SymbolicOptions(Options):
    """Each option is a ladder of z3 booleans, one fewer than its settings: setting ``k`` is the
    first ``k`` true and the next one false (a two-setting option is one boolean, true for its
    second setting). Every assignment of the booleans names one setting, so no domain fact is
    needed. Each broken rule is a z3 boolean (true: broken)."""

    def __init__(self, o: Symbolic) -> None:
        self.ladders = {
            name: tuple(
                o.flag_var(f"rule.{name}" if len(settings) == 2 else f"rule.{name}.{k}")
                for k in range(1, len(settings))
            )
            for name, settings in OPTION_SETTINGS.items()
        }
        self.broken_vars = {rule: o.flag_var(f"broken.{rule.value}") for rule in Broken}
        self.used: set[str] = set()

    def is_(self, name: str, setting: str) -> Any:
        check_setting(name, setting)
        self.used.add(name)
        ladder = self.ladders[name]
        index = OPTION_SETTINGS[name].index(setting)
        parts = list(ladder[:index])
        if index < len(ladder):
            parts.append(z3.Not(ladder[index]))
        return parts[0] if len(parts) == 1 else z3.And(*parts)

    def assignment(self, name: str, setting: str) -> list[tuple[Any, bool]]:
        """The booleans' values that name ``setting`` of option ``name``."""
        check_setting(name, setting)
        index = OPTION_SETTINGS[name].index(setting)
        return [(var, k < index) for k, var in enumerate(self.ladders[name])]

    def broken(self, rule: Broken) -> Any:
        return self.broken_vars[rule]

    def pin_broken(self, broken: Iterable[Broken] = ()) -> list[Any]:
        """Facts fixing every broken rule: those given broken, the others not."""
        chosen = set(broken)
        return [var if rule in chosen else z3.Not(var) for rule, var in self.broken_vars.items()]

    def pin(self, rules: Mapping[str, str]) -> list[Any]:
        """Facts fixing some options."""
        return [self.is_(name, setting) for name, setting in rules.items()]

    def read(self, model: Any) -> OmensRules:
        """The settings of a z3 model (options left free read as their defaults)."""
        chosen = {}
        for name, ladder in self.ladders.items():
            setting = _read_ladder(model, ladder)
            if setting is not None:
                chosen[name] = OPTION_SETTINGS[name][setting]
        return make_rules(None, chosen)


def _read_ladder(model: Any, ladder: Sequence[Any]) -> int | None:
    """The setting a model gives a ladder of booleans (None: the model leaves it open)."""
    for index, var in enumerate(ladder):
        value = model.eval(var, model_completion=False)
        if z3.is_false(value):
            return index
        if not z3.is_true(value):
            return None
    return len(ladder)


@dataclass
class StepModel:
    """States and placements of one symbolic bout (see the module doc)."""

    ctx: z3.Context
    o: Symbolic
    deck: Deck
    options: SymbolicOptions
    choices: SymbolicChoices
    bout: BoutMachine
    inputs: Inputs
    states: list[State]
    """``states[i]`` before placement ``i``; one more after the last."""
    steps: list[Step]
    end: BoutEnd | None
    """The end of the bout from the last state (when built with ``end=True``)."""
    start: bool
    facts: list[Any] = field(default_factory=list)

    # -- the words claims are written in ----------------------------------------------------

    @property
    def seats(self) -> range:
        return range(len(SEAT))

    def option(self, name: str, setting: str) -> Any:
        return self.options.is_(name, setting)

    def cards(self, keyword: str) -> Any:
        """The cards whose effect is ``keyword`` (a mask term)."""
        return self.o.card(self.deck.effect(keyword))

    def named(self, name: str) -> Any:
        return self.o.card(self.deck.named(name))

    def colour(self, colour: str) -> Any:
        return self.o.card(self.deck.colour(colour))

    def is_(self, card: Any, keyword: str) -> Any:
        """``card`` (a single card) has effect ``keyword``."""
        return card & self.deck.effect(keyword) != 0

    def union(self, masks: Iterable[Any]) -> Any:
        return self.o.union(masks, self.o.card(0))

    def seat_hand(self, hands: Any, seat: Any) -> Any:
        return self.bout.hand_of(hands, seat)

    def in_play(self, state: State) -> Any:
        return self.union(state.front)

    def pick(self, name: str) -> Any:
        """What the end-of-bout effect of the card called ``name`` asks to discard (0 when
        that card is not in play): ``m.pick("Day") & m.named("Secret") != 0`` is "Day
        discards Secret"."""
        assert self.end is not None, "build the model with end=True"
        card = self.deck.named(name)
        for source, pick in zip(self.deck.end_effects, self.end.picks, strict=True):
            if source.card == card:
                return pick
        raise KeyError(f"{name} has no end-of-bout discard effect")

    def size(self, mask: Any) -> Any:
        """How many cards a mask holds (an 8-bit term: compare it with ``z3.ULE``)."""
        return self.o.count(mask)

    def seated(self, seat: int) -> Any:
        """Seat ``seat`` (0-based) is at the table."""
        return self.inputs.table & SEAT[seat] != 0

    def where(self, state: State, card: Any) -> Any:
        """The seat ``card`` lies in front of in ``state`` (0: not in play)."""
        return self.bout.where(state.front, card)

    def broken_facts(self, broken: Iterable[Broken] = ()) -> list[Any]:
        """Pin every broken rule: those named broken, the others not."""
        return self.options.pin_broken(broken)


def _state(o: Symbolic, deck: Deck, hands: tuple[Any, ...]) -> State:
    def masks(name: str) -> tuple[Any, ...]:
        return tuple(o.card_var(f"{name}[{s + 1}]") for s in range(len(SEAT)))

    return State(
        hands=hands,
        front=masks("front"),
        placed=masks("placed"),
        stamps=tuple(o.stamp_var(f"stamp[{a}]") for a in deck.absolute_values),
        clock=o.stamp_var("clock"),
        played=o.seat_var("played"),
        law=o.card_var("law"),
        up=o.flag_var("up"),
        dreaming=o.flag_var("dreaming"),
        replaying=o.flag_var("replaying"),
        giving=o.flag_var("giving"),
        next_seat=o.seat_var("next_seat"),
        next_to=o.seat_var("next_to"),
        next_card=o.card_var("next_card"),
        done=o.flag(False),
    )


def disjoint(masks: Sequence[Any]) -> Any:
    """No two of the masks share a card."""
    return z3.And(*[a & b == 0 for k, a in enumerate(masks) for b in masks[k + 1 :]])


def exchange_step(catalogue: Catalogue | None = None) -> tuple[Any, list[Any]]:
    """One exchange of The Absolute at the end of a bout (:meth:`BoutMachine.end_exchange`, the
    code the model runs) over fresh terms, any hands, Absolute, owners, table and option
    setting: the claim that it keeps the hands (:meth:`BoutMachine.keeps_hands`), and the facts it
    is proved from (the table, the exchange's legal choices). The step of the induction behind
    ``build_steps(exchanges=False)``."""
    ctx = make_context()
    o = Symbolic(ctx)
    deck = Deck(catalogue or default_catalogue())
    table = o.seat_var("table")
    hands = tuple(o.card_var(f"hand[{s + 1}]") for s in range(len(SEAT)))
    mates = tuple(o.seat_var(f"team[{s + 1}]") for s in range(len(SEAT)))
    inputs = Inputs(table, o.seat_var("leader"), hands, mates, o.seat_var("laurels"))
    program = BoutMachine(o, deck, SymbolicOptions(o), inputs, SymbolicChoices(o))
    owners = tuple(o.card_var(f"owns[{s + 1}]") for s in range(len(SEAT)))
    after, _ = program.end_exchange(0, hands, o.flag_var("acts"), owners, o.card_var("absolute"))
    facts = [z3.Or(*[table == (1 << p) - 1 for p in (4, 5, 6)]), *program.legal]
    return program.keeps_hands(hands, after), facts


def build_steps(
    steps: int,
    *,
    start: bool = False,
    end: bool = False,
    exchanges: bool = True,
    catalogue: Catalogue | None = None,
) -> StepModel:
    """``steps`` placements from any well-formed state (or from the start of a bout), then,
    with ``end``, the end of the bout from the state reached.

    ``exchanges=False``: the end of the bout with any final hands The Absolute's exchanges can
    leave (:meth:`BoutMachine.keeps_hands` from the hands they start from) instead of the
    exchanges one by one: a claim proved on it holds for every sequence of exchanges, because
    each exchange keeps what :meth:`BoutMachine.keeps_hands` states (:func:`exchange_step`, proved
    first), so all of them do, by induction. A SAT solver does not find that induction itself:
    two exchanges in a row already take it minutes."""
    ctx = make_context()
    o = Symbolic(ctx)
    deck = Deck(catalogue or default_catalogue())
    options = SymbolicOptions(o)
    choices = SymbolicChoices(o)
    table = o.seat_var("table")
    leader = o.seat_var("leader")
    hands = tuple(o.card_var(f"hand[{s + 1}]") for s in range(len(SEAT)))
    mates = tuple(o.seat_var(f"team[{s + 1}]") for s in range(len(SEAT)))
    inputs = Inputs(table, leader, hands, mates, o.seat_var("laurels"))
    program = BoutMachine(o, deck, options, inputs, choices)
    facts = [z3.Or(*[table == (1 << p) - 1 for p in (4, 5, 6)])]
    if end:  # the teams are read only at the end of the bout (rounds won, the game's end)
        facts += program.team_facts()
    state = program.start() if start else _state(o, deck, hands)
    facts += program.well_formed(state)
    states, records = [state], []
    for k in range(steps):
        state, record = program.step(k, state)
        states.append(state)
        records.append(record)
    finish = program.finish(state, exchanges=exchanges) if end else None
    facts += program.legal
    return StepModel(
        ctx, o, deck, options, choices, program, inputs, states, records, finish,
        start, facts,
    )  # fmt: skip
