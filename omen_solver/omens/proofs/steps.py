"""The symbolic whole-bout model, as the theorems use it.

Two builds of :class:`~omen_solver.omens.proofs.play.Machine` over z3 terms:

* **from any state** (``start=False``): the bout stands at an arbitrary state that satisfies
  :meth:`Machine.well_formed` (any hands, any cards in play in front of anyone, any pending
  placement, Law in force or not, any players and leader), and one or two placements follow,
  or the end of the bout. A claim proved here holds at every placement of every bout, however
  long, because every state a bout reaches is well formed (theorem ``well-formed-states``).
* **from the start of a bout** (``start=True``): every placement from a bout's first, up to
  a number of steps. Broken variants are refuted here, so that their counterexamples are whole
  bouts from their start, which the engine replays move by move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.deck import Deck
from omen_solver.omens.proofs.ops import Symbolic
from omen_solver.omens.proofs.play import SEAT, BoutEnd, Inputs, Machine, State, Step
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
    machine: Machine
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
        return self.machine.where(state.front, card)

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
    """One exchange of The Absolute at the end of a bout (:meth:`Machine.end_exchange`, the
    code the model runs) over fresh terms, any hands, Absolute, owners, table and option
    setting: the claim that it keeps the hands (:meth:`Machine.keeps_hands`), and the facts it
    is proved from (the table, the exchange's legal choices). The step of the induction behind
    ``build_steps(exchanges=False)``."""
    ctx = make_context()
    o = Symbolic(ctx)
    deck = Deck(catalogue or default_catalogue())
    table = o.seat_var("table")
    hands = tuple(o.card_var(f"hand[{s + 1}]") for s in range(len(SEAT)))
    mates = tuple(o.seat_var(f"team[{s + 1}]") for s in range(len(SEAT)))
    inputs = Inputs(table, o.seat_var("leader"), hands, mates, o.seat_var("laurels"))
    machine = Machine(o, deck, SymbolicOptions(o), inputs, SymbolicChoices(o))
    owners = tuple(o.card_var(f"owns[{s + 1}]") for s in range(len(SEAT)))
    after, _ = machine.end_exchange(0, hands, o.flag_var("acts"), owners, o.card_var("absolute"))
    facts = [z3.Or(*[table == (1 << p) - 1 for p in (4, 5, 6)]), *machine.legal]
    return machine.keeps_hands(hands, after), facts


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
    leave (:meth:`Machine.keeps_hands` from the hands they start from) instead of the
    exchanges one by one: a claim proved on it holds for every sequence of exchanges, because
    each exchange keeps what :meth:`Machine.keeps_hands` states (:func:`exchange_step`, proved
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
    machine = Machine(o, deck, options, inputs, choices)
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
    finish = machine.finish(state, exchanges=exchanges) if end else None
    facts += machine.legal
    return StepModel(
        ctx, o, deck, options, choices, machine, inputs, states, records, finish,
        start, facts,
    )  # fmt: skip
