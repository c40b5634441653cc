"""One build of the symbolic model, with the vocabulary theorems are written in.

:func:`build_model` makes a fresh z3 context, the symbolic deck and options, the cards in play,
the end of the bout and (if asked) the hands and the round end, optionally with some rules
deliberately broken. :class:`SymbolicModel` offers the words a theorem's query needs ("Mirror
is in play", "slot i holds the lowest card") so that queries read like their statements.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import z3

from omen_solver.core.smt import make_context
from omen_solver.omens.cards import Catalogue, default_catalogue
from omen_solver.omens.proofs.bout import BoutInputs, EndOfBout, resolve_end
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.hands import (
    MAX_SEATS,
    HandInputs,
    RoundEnd,
    hand_size,
    hands_well_formed,
    resolve_hands,
)
from omen_solver.omens.proofs.symbols import SymbolicDeck, SymbolicRules

__all__ = ["SymbolicModel", "build_model"]


@dataclass(frozen=True)
class SymbolicModel:
    """The symbolic end of a bout (and, with ``hands``, the round end) in one z3 context."""

    ctx: z3.Context
    deck: SymbolicDeck
    rules: SymbolicRules
    bout: BoutInputs
    end: EndOfBout
    hands: HandInputs | None = None
    round: RoundEnd | None = None
    broken: frozenset[Broken] = field(default_factory=frozenset)

    # -- the space of bouts -----------------------------------------------------------------

    def base(self) -> list[z3.BoolRef]:
        """What every query assumes: well-formed cards in play, options within their settings,
        well-formed hands and the open choices within the rules."""
        facts = self.bout.well_formed(self.deck) + self.rules.domain()
        if self.hands is not None and self.round is not None:
            facts += hands_well_formed(self.deck, self.bout, self.hands)
            facts += list(self.round.choices)
        return facts

    # -- words for queries ------------------------------------------------------------------

    @property
    def slots(self) -> range:
        return self.bout.slots

    @property
    def seats(self) -> range:
        return range(MAX_SEATS)

    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def all_of(self, terms: Iterable[z3.BoolRef]) -> z3.BoolRef:
        items = list(terms)
        return z3.And(*items) if items else self.true()

    def any_of(self, terms: Iterable[z3.BoolRef]) -> z3.BoolRef:
        items = list(terms)
        return z3.Or(*items) if items else self.false()

    def count(self, terms: Iterable[z3.BoolRef]) -> z3.ArithRef:
        items = list(terms)
        if not items:
            return z3.IntVal(0, self.ctx)
        return z3.Sum(*[z3.If(term, 1, 0) for term in items])

    def option(self, name: str, setting: str) -> z3.BoolRef:
        return self.rules.is_(name, setting)

    def present(self, i: int) -> z3.BoolRef:
        return self.bout.present[i]

    def value(self, i: int) -> z3.ArithRef:
        return self.bout.value[i]

    def has(self, i: int, keyword: str) -> z3.BoolRef:
        """Slot ``i`` holds a card whose effect is ``keyword``."""
        return z3.And(self.present(i), self.deck.effect(self.value(i), keyword))

    def named(self, i: int, name: str) -> z3.BoolRef:
        """Slot ``i`` holds the card called ``name`` in the catalogue."""
        return z3.And(self.present(i), self.deck.where(self.value(i), name=name))

    def colour(self, i: int, colour: str) -> z3.BoolRef:
        """Slot ``i`` holds a card of ``colour`` as printed (Malice: every colour)."""
        return z3.And(self.present(i), self.deck.colour(self.value(i), colour))

    def in_play(self, keyword: str) -> z3.BoolRef:
        """A card with effect ``keyword`` is in play."""
        return self.any_of(self.has(i, keyword) for i in self.slots)

    def name_in_play(self, name: str) -> z3.BoolRef:
        return self.any_of(self.named(i, name) for i in self.slots)

    def card_in_play_term(self, card: z3.ArithRef) -> z3.BoolRef:
        """The (symbolic) ``card`` lies in play."""
        return self.any_of(z3.And(self.present(i), self.value(i) == card) for i in self.slots)

    def lowest(self, i: int) -> z3.BoolRef:
        """Slot ``i`` holds the lowest card in play."""
        return z3.And(
            self.present(i),
            self.all_of(
                z3.Implies(self.present(k), self.value(k) > self.value(i))
                for k in self.slots
                if k != i
            ),
        )

    def highest(self, i: int) -> z3.BoolRef:
        return z3.And(
            self.present(i),
            self.all_of(
                z3.Implies(self.present(k), self.value(k) < self.value(i))
                for k in self.slots
                if k != i
            ),
        )

    def discarded_card(self, name: str) -> z3.BoolRef:
        """The card called ``name`` is in play and discarded."""
        return self.any_of(z3.And(self.named(i, name), self.end.discarded[i]) for i in self.slots)

    def only_of_colour(self, names: Sequence[str], colour: str) -> z3.BoolRef:
        """The cards in play of ``colour`` are exactly the cards called ``names``."""
        return self.all_of(
            [self.name_in_play(name) for name in names]
            + [
                z3.Implies(
                    self.colour(i, colour),
                    self.any_of(self.named(i, name) for name in names),
                )
                for i in self.slots
            ]
        )

    # -- hands --------------------------------------------------------------------------------

    def require_round(self) -> tuple[HandInputs, RoundEnd]:
        if self.hands is None or self.round is None:
            raise ValueError("this query needs the model built with hands=True")
        return self.hands, self.round

    def mid_size(self, seat: int) -> z3.ArithRef:
        hands, _ = self.require_round()
        return hand_size(hands, seat)

    def held_mid(self, seat: int, card: z3.ArithRef | int) -> z3.BoolRef:
        """``seat`` holds ``card`` when the last card of the bout is placed."""
        hands, _ = self.require_round()
        return self.any_of(
            z3.And(hands.present[seat][h], hands.value[seat][h] == card)
            for h in range(len(hands.present[seat]))
        )

    def card(self, name: str) -> z3.ArithRef:
        """A symbolic card value ranging over the deck (add :meth:`card_domain` to the
        assumptions): a claim about it holds for every card."""
        return z3.Int(name, self.ctx)

    def card_domain(self, card: z3.ArithRef) -> z3.BoolRef:
        return self.deck.in_deck(card)

    def seated(self, seat: int) -> z3.BoolRef:
        return self.bout.players > seat


def build_model(
    broken: Iterable[Broken] = (),
    *,
    hands: bool = False,
    catalogue: Catalogue | None = None,
    ctx: z3.Context | None = None,
) -> SymbolicModel:
    """A fresh symbolic model (in its own z3 context unless ``ctx`` is given)."""
    ctx = ctx if ctx is not None else make_context()
    deck = SymbolicDeck(catalogue or default_catalogue(), ctx)
    rules = SymbolicRules(ctx)
    inputs = BoutInputs.fresh(ctx)
    chosen = frozenset(broken)
    end = resolve_end(deck, rules, inputs, chosen)
    if not hands:
        return SymbolicModel(ctx, deck, rules, inputs, end, broken=chosen)
    hand_inputs = HandInputs.fresh(ctx, len(inputs.present))
    round_end = resolve_hands(deck, rules, end, hand_inputs, chosen)
    return SymbolicModel(ctx, deck, rules, inputs, end, hand_inputs, round_end, chosen)
