"""The symbolic whole-bout model, as the theorems use it.

Two builds of :class:`~omen_solver.omens.proofs.play.BoutMachine` over z3 terms:

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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import z3

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.deck import Deck
from omen_solver.omens.proofs.ops import Symbolic
from omen_solver.omens.proofs.play import SEAT, BoutEnd, BoutMachine, Inputs, State, Step
from omen_solver.omens.proofs.whole import SymbolicChoices, SymbolicOptions

__all__ = ["StepModel", "build_steps"]


@dataclass
class StepModel:
    """States and placements of one symbolic bout (see the module doc)."""

    ctx: z3.Context
    o: Symbolic
    deck: Deck
    options: SymbolicOptions
    choices: SymbolicChoices
    machine: BoutMachine
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
        return self.machine.hand_of(hands, seat)

    def in_play(self, state: State) -> Any:
        return self.union(state.front)

    def where(self, state: State, card: Any) -> Any:
        """The seat ``card`` lies in front of in ``state`` (0: not in play)."""
        return self.machine.where(state.front, card)

    def broken_facts(self, broken: Iterable[str] = ()) -> list[Any]:
        chosen = set(broken)
        return [
            var if name in chosen else z3.Not(var) for name, var in self.options.broken_vars.items()
        ]


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


def build_steps(
    steps: int,
    *,
    start: bool = False,
    end: bool = False,
    catalogue: Catalogue | None = None,
) -> StepModel:
    """``steps`` placements from any well-formed state (or from the start of a bout), then,
    with ``end``, the end of the bout from the state reached."""
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
    machine = BoutMachine(o, deck, options, inputs, choices)
    facts = [z3.Or(*[table == (1 << p) - 1 for p in (4, 5, 6)])]
    if end:  # the teams are read only at the end of the bout (rounds won, the game's end)
        facts += machine.team_facts()
    state = machine.start() if start else _state(o, deck, hands)
    facts += machine.well_formed(state)
    states, records = [state], []
    for k in range(steps):
        state, record = machine.step(k, state)
        states.append(state)
        records.append(record)
    finish = machine.finish(state) if end else None
    facts += machine.legal
    return StepModel(
        ctx, o, deck, options, choices, machine, inputs, states, records, finish,
        start, facts,
    )  # fmt: skip
