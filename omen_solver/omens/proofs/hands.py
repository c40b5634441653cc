"""The end of a bout with the players' hands: cards going back to hand, Luck's discard and the
end of the round, as z3 terms (a reading of rules file 000, "Game Sequence", "Luck" and "End of
a Round", independent of :mod:`omen_solver.omens.state`).

A hand is a few *hand slots* per seat, each with a presence flag and a symbolic card value,
like the cards in play; the hands given are those at the moment the last card of the bout is
placed (``mid``). A hand holds at most :data:`HAND_SLOTS` cards then: a hand starts a bout with
at most 5 cards (the deal) and every player has placed one. Every card is an *item*: a hand
slot or a slot in play. The model says where each item is once the bout is over: in a seat's
hand, or discarded.

Two choices the rules leave to a player are symbolic, so a query covers every way they go:
the card Luck makes a player discard (``luck_pick``), and, when several players are left with 0
cards under option ``zero_cards = "any"``, which of them the round goes to (``zero_pick``; the
rulebook does not say). With option ``absolute_timing = "end"`` the exchanges of the Absolutes
happen after the cards go back to hand; they only move cards between hands, one for one, so
the model lets each item end in any hand as long as every seat keeps its number of cards (an
over-approximation: a theorem proved over it holds for every actual sequence of exchanges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from omen_solver.omens.proofs.bout import BoutInputs, EndOfBout
from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.symbols import SymbolicDeck, SymbolicRules

__all__ = [
    "HAND_SLOTS",
    "MAX_SEATS",
    "HandInputs",
    "RoundEnd",
    "hands_well_formed",
    "resolve_hands",
]

MAX_SEATS = 6
HAND_SLOTS = 4
"""Cards a hand can hold when the last card of a bout is placed (5 dealt, 1 placed)."""


@dataclass(frozen=True)
class HandInputs:
    """The hands when the last card of the bout has been placed, and the open choices."""

    present: tuple[tuple[z3.BoolRef, ...], ...]
    """``present[seat][h]``: hand slot ``h`` of ``seat`` holds a card."""
    value: tuple[tuple[z3.ArithRef, ...], ...]
    luck_pick: z3.ArithRef
    """The card Luck's victim discards (0: none)."""
    zero_pick: z3.ArithRef
    """With ``zero_cards = "any"``: which player at 0 cards wins when there are several."""
    moved: tuple[tuple[z3.BoolRef, ...], ...]
    """With ``absolute_timing = "end"``: ``moved[k][seat]``, item ``k`` ends in ``seat``'s hand
    after the exchanges (items: the hand slots seat by seat, then the slots in play)."""
    top: z3.ArithRef
    """The highest card held by a player left with 1 card (0: no such player)."""

    @classmethod
    def fresh(cls, ctx: z3.Context, play_slots: int, prefix: str = "") -> HandInputs:
        seats = range(MAX_SEATS)
        slots = range(HAND_SLOTS)
        return cls(
            present=tuple(
                tuple(z3.Bool(f"{prefix}held[{s + 1}][{h}]", ctx) for h in slots) for s in seats
            ),
            value=tuple(
                tuple(z3.Int(f"{prefix}hand[{s + 1}][{h}]", ctx) for h in slots) for s in seats
            ),
            luck_pick=z3.Int(f"{prefix}luck_pick", ctx),
            zero_pick=z3.Int(f"{prefix}zero_pick", ctx),
            moved=tuple(
                tuple(z3.Bool(f"{prefix}moved[{k}][{s + 1}]", ctx) for s in seats)
                for k in range(MAX_SEATS * HAND_SLOTS + play_slots)
            ),
            top=z3.Int(f"{prefix}top_single", ctx),
        )

    def substitution(
        self, hands: Sequence[Sequence[int]], ctx: z3.Context
    ) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """Pairs pinning the hands to concrete ones (0-based seats, up to 4 cards each)."""
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        for s in range(MAX_SEATS):
            cards = sorted(hands[s]) if s < len(hands) else []
            if len(cards) > HAND_SLOTS:
                raise ValueError(f"seat {s + 1} holds {len(cards)} cards; the model holds 4")
            for h in range(HAND_SLOTS):
                used = h < len(cards)
                pairs.append((self.present[s][h], z3.BoolVal(used, ctx)))
                value = cards[h] if used else absent_hand_value(s, h)
                pairs.append((self.value[s][h], z3.IntVal(value, ctx)))
        return pairs


@dataclass(frozen=True)
class Item:
    """A card that may be somewhere at the end of the bout: a hand slot or a slot in play."""

    present: z3.BoolRef
    value: z3.ArithRef
    at: tuple[z3.BoolRef, ...]
    """``at[seat]``: the card is in ``seat``'s hand once Luck has acted (before exchanges)."""
    luck_time: tuple[z3.BoolRef, ...]
    """``luck_time[seat]``: the card is in ``seat``'s hand when Luck's discard is taken."""


@dataclass(frozen=True)
class RoundEnd:
    """What the end of the bout leaves in the hands, and whether the round is won."""

    items: tuple[Item, ...]
    final: tuple[tuple[z3.BoolRef, ...], ...]
    """``final[k][seat]``: item ``k`` is in ``seat``'s hand once the bout is over."""
    returned: tuple[z3.BoolRef, ...]
    """Slot in play ``i`` goes back to a hand (it was not discarded)."""
    destination: tuple[z3.ArithRef, ...]
    """The seat slot in play ``i`` goes back to (if it does)."""
    luck_discards: z3.BoolRef
    """Luck's victim discards a card (``luck_pick``)."""
    luck_options: tuple[z3.BoolRef, ...]
    """Item ``k`` is a card Luck's victim may discard."""
    sizes: tuple[z3.ArithRef, ...]
    luck_zero: z3.BoolRef
    """Luck's victim was left with 0 cards by Luck's discard."""
    round_over: z3.BoolRef
    round_wins: tuple[z3.BoolRef, ...]
    """Seat ``s`` wins the round."""
    round_winner: z3.ArithRef
    """The seat that wins the round (-1: the round goes on)."""
    next_round_leader: z3.ArithRef
    """Who leads next: the next bout's leader, or the next round's when the round is won."""
    choices: tuple[z3.BoolRef, ...]
    """Constraints on the symbolic choices (``luck_pick``, ``zero_pick``, ``moved``, ``top``)."""

    def holds(self, seat: int, card: z3.ArithRef | int) -> z3.BoolRef:
        """``seat`` holds ``card`` once the bout is over."""
        return z3.Or(
            *[
                z3.And(row[seat], item.value == card)
                for item, row in zip(self.items, self.final, strict=True)
            ]
        )

    def hand(self, seat: int, model: z3.ModelRef) -> list[int]:
        """A seat's hand after the bout, read from a z3 model."""
        cards = []
        for item, row in zip(self.items, self.final, strict=True):
            if z3.is_true(model.eval(row[seat], True)):
                cards.append(model.eval(item.value, True).as_long())
        return sorted(cards)


class _Hands:
    def __init__(
        self,
        deck: SymbolicDeck,
        rules: SymbolicRules,
        end: EndOfBout,
        hands: HandInputs,
        broken: frozenset[Broken],
    ) -> None:
        self.deck = deck
        self.rules = rules
        self.end = end
        self.bout: BoutInputs = end.inputs
        self.hands = hands
        self.broken = broken
        self.ctx = deck.ctx
        self.seats = range(MAX_SEATS)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def any_of(self, terms: Sequence[z3.BoolRef]) -> z3.BoolRef:
        return z3.Or(*terms) if terms else self.false()

    def count(self, terms: Sequence[z3.BoolRef]) -> z3.ArithRef:
        return z3.Sum(*[z3.If(term, 1, 0) for term in terms])

    def destination(self, i: int) -> z3.ArithRef:
        """Where a card not discarded goes (rules file 000, "Game Sequence": "If your card was
        not discarded, take it back into your hand"; omens-cards.md: "to the hand of the player
        they lie in front of, whoever placed them"; option ``return_to``)."""
        b = self.bout
        if Broken.RETURN_TO_PLACER in self.broken:
            return b.by[i]
        return z3.If(self.rules.is_("return_to", "position"), b.before[i], b.by[i])

    def returned(self, i: int) -> z3.BoolRef:
        end = self.end
        if Broken.DISCARDED_ALSO_RETURN in self.broken:
            return z3.And(self.bout.present[i], z3.Not(z3.And(end.discarded[i], end.wins[i])))
        return z3.And(self.bout.present[i], z3.Not(end.discarded[i]))

    def rows(self) -> list[tuple[z3.BoolRef, z3.ArithRef, list[z3.BoolRef], list[z3.BoolRef]]]:
        """Every item with where it is before Luck: ``(present, value, in seat's hand after the
        return, in seat's hand when Luck's discard is taken)``. Option ``luck_timing``: the
        discard is taken from the hand as it is, or once the cards have come back."""
        after_return = self.rules.is_("luck_timing", "after_return")
        rows = []
        for s in self.seats:
            for h in range(HAND_SLOTS):
                present = self.hands.present[s][h]
                here = [present if t == s else self.false() for t in self.seats]
                rows.append((present, self.hands.value[s][h], here, here))
        for i in self.bout.slots:
            back = self.returned(i)
            to = self.destination(i)
            here = [z3.And(back, to == t) for t in self.seats]
            rows.append((back, self.bout.value[i], here, [z3.And(after_return, x) for x in here]))
        return rows

    def luck(
        self, rows: Sequence[tuple[z3.BoolRef, z3.ArithRef, list[z3.BoolRef], list[z3.BoolRef]]]
    ) -> tuple[list[z3.BoolRef], z3.BoolRef, list[z3.BoolRef]]:
        """Luck (rules file 000, "Luck"): "If this card is discarded, discard a card from your
        hand ... Fear cannot be discarded using Luck's effect." Whoever chooses (option
        ``luck_chooser``), the card is one of the hand's cards other than Fear."""
        end = self.end
        options = []
        for _, value, _, at_luck in rows:
            allowed = z3.BoolVal(True, self.ctx)
            if Broken.LUCK_MAY_DISCARD_FEAR not in self.broken:
                allowed = z3.Not(self.deck.effect(value, "fear"))
            victim = self.any_of([z3.And(at_luck[s], end.luck_seat == s) for s in self.seats])
            options.append(z3.And(end.luck_discarded, victim, allowed))
        can = self.any_of(options)
        pick = self.hands.luck_pick
        chosen = self.any_of(
            [z3.And(option, pick == row[1]) for option, row in zip(options, rows, strict=True)]
        )
        return options, can, [z3.If(can, chosen, pick == 0)]

    def exchanges(
        self, items: Sequence[Item], sizes: Sequence[z3.ArithRef]
    ) -> tuple[list[tuple[z3.BoolRef, ...]], list[z3.BoolRef]]:
        """Option ``absolute_timing = "end"``: the Absolutes' exchanges after the return, over-
        approximated by any move of the items between hands that keeps every seat's count."""
        absolute = self.any_of(
            [
                z3.And(self.bout.present[i], self.deck.effect(self.bout.value[i], "absolute"))
                for i in self.bout.slots
            ]
        )
        active = z3.And(self.rules.is_("absolute_timing", "end"), absolute)
        moved = self.hands.moved
        facts: list[z3.BoolRef] = []
        for item, row in zip(items, moved, strict=True):
            held = self.any_of(list(item.at))
            facts.append(self.count(list(row)) == z3.If(held, 1, 0))
        for s in self.seats:
            facts.append(self.count([row[s] for row in moved]) == sizes[s])
        final = [
            tuple(z3.If(active, row[s], item.at[s]) for s in self.seats)
            for item, row in zip(items, moved, strict=True)
        ]
        return final, [z3.Implies(active, z3.And(*facts))]

    def highest_single(
        self,
        items: Sequence[Item],
        final: Sequence[Sequence[z3.BoolRef]],
        singles: Sequence[z3.BoolRef],
    ) -> tuple[list[z3.BoolRef], list[z3.BoolRef]]:
        """ "If multiple players have only 1 card in their hand at the end of a bout, the player
        with the highest-value card in their hand wins the round."

        ``top`` is the highest card held by a player with 1 card: a value constrained to be
        one of those cards and at least every other (a finite set of distinct values has a
        greatest element; stating it spares the solver from rediscovering it)."""
        top = self.hands.top
        lone = [self.any_of([z3.And(row[s], singles[s]) for s in self.seats]) for row in final]
        low = Broken.LOWEST_SINGLE_WINS in self.broken
        bound = [
            z3.Implies(c, item.value >= top if low else item.value <= top)
            for c, item in zip(lone, items, strict=True)
        ]
        reached = self.any_of(
            [z3.And(c, item.value == top) for c, item in zip(lone, items, strict=True)]
        )
        facts = [z3.If(self.any_of(list(singles)), z3.And(reached, *bound), top == 0)]
        best = []
        for s in self.seats:
            holds_top = self.any_of(
                [z3.And(row[s], item.value == top) for item, row in zip(items, final, strict=True)]
            )
            if Broken.SINGLES_ALL_WIN in self.broken:
                holds_top = z3.BoolVal(True, self.ctx)
            best.append(z3.And(singles[s], holds_top))
        return best, facts

    def round_end(
        self,
        items: Sequence[Item],
        final: Sequence[Sequence[z3.BoolRef]],
        sizes: Sequence[z3.ArithRef],
        discards: z3.BoolRef,
    ) -> tuple[z3.BoolRef, z3.BoolRef, tuple[z3.BoolRef, ...], list[z3.BoolRef]]:
        """The end of a round (rules file 000, "End of a Round", "Luck"; option
        ``zero_cards``): Luck's victim left with 0 cards wins "even if other players end the
        same bout with 1 card in hand"; else the player left with 1 card, the highest card
        among several; option ``zero_cards = "any"``: any player at 0 wins as Luck's does."""
        end, b = self.end, self.bout
        seated = [b.players > s for s in self.seats]
        luck_zero = z3.And(
            discards, self.any_of([z3.And(end.luck_seat == s, sizes[s] == 0) for s in self.seats])
        )
        if Broken.LUCK_ZERO_LOSES in self.broken:
            luck_zero = self.false()
        zero_any = self.rules.is_("zero_cards", "any")
        at_zero = [z3.And(seated[s], sizes[s] == 0, zero_any) for s in self.seats]
        singles = [z3.And(seated[s], sizes[s] == 1) for s in self.seats]
        best, top_facts = self.highest_single(items, final, singles)
        zero = self.hands.zero_pick
        any_zero = self.any_of(at_zero)
        choices = [
            z3.Implies(any_zero, self.any_of([z3.And(zero == s, at_zero[s]) for s in self.seats])),
            *top_facts,
        ]
        wins = tuple(
            z3.If(
                luck_zero,
                end.luck_seat == s,
                z3.If(any_zero, z3.And(zero == s, at_zero[s]), best[s]),
            )
            for s in self.seats
        )
        over = z3.Or(luck_zero, any_zero, self.any_of(singles))
        return over, luck_zero, wins, choices

    def build(self) -> RoundEnd:
        rows = self.rows()
        options, discards, luck_choices = self.luck(rows)
        pick = self.hands.luck_pick
        items = []
        for (present, value, at, at_luck), option in zip(rows, options, strict=True):
            kept = z3.Not(z3.And(discards, option, value == pick))
            items.append(Item(present, value, tuple(z3.And(x, kept) for x in at), tuple(at_luck)))
        # the exchanges keep every seat's count, so the sizes are those before them
        sizes = tuple(self.count([item.at[s] for item in items]) for s in self.seats)
        final, exchange_facts = self.exchanges(items, sizes)
        over, luck_zero, wins, zero_choices = self.round_end(items, final, sizes, discards)
        winner: z3.ArithRef = z3.IntVal(-1, self.ctx)
        for s in reversed(self.seats):
            winner = z3.If(wins[s], s, winner)
        end = self.end
        keep_pride = z3.And(
            end.pride,
            z3.Or(
                self.rules.is_("pride_next_round", "yes"),
                z3.And(self.rules.is_("pride_next_round", "unless_luck"), z3.Not(discards)),
            ),
        )
        next_leader = z3.If(z3.And(over, z3.Not(keep_pride)), winner, end.next_leader)
        return RoundEnd(
            items=tuple(items),
            final=tuple(tuple(row) for row in final),
            returned=tuple(self.returned(i) for i in self.bout.slots),
            destination=tuple(self.destination(i) for i in self.bout.slots),
            luck_discards=discards,
            luck_options=tuple(options),
            sizes=sizes,
            luck_zero=luck_zero,
            round_over=over,
            round_wins=wins,
            round_winner=z3.If(over, winner, -1),
            next_round_leader=next_leader,
            choices=tuple(luck_choices + zero_choices + exchange_facts),
        )


def absent_hand_value(seat: int, slot: int) -> int:
    """The value of an empty hand slot: negative, different for every slot and from the empty
    slots in play (see :func:`~omen_solver.omens.proofs.bout.absent_value`)."""
    return -100 - seat * HAND_SLOTS - slot


def hands_well_formed(deck: SymbolicDeck, bout: BoutInputs, hands: HandInputs) -> list[z3.BoolRef]:
    """Hand slots are filled from the first, in increasing order of value (so each hand is
    written one way); every card is of the deck and in one place only (empty slots hold
    distinct negative values, so one ``Distinct`` says it); seats beyond the players hold
    nothing."""
    facts: list[z3.BoolRef] = []
    values: list[z3.ArithRef] = list(bout.value)
    for s in range(MAX_SEATS):
        for h in range(HAND_SLOTS):
            present, value = hands.present[s][h], hands.value[s][h]
            facts.append(z3.If(present, deck.in_deck(value), value == absent_hand_value(s, h)))
            if h > 0:
                facts.append(
                    z3.Implies(
                        present, z3.And(hands.present[s][h - 1], hands.value[s][h - 1] < value)
                    )
                )
            facts.append(z3.Implies(bout.players <= s, z3.Not(present)))
            values.append(value)
    facts.append(z3.Distinct(*values))
    return facts


def hand_size(hands: HandInputs, seat: int) -> z3.ArithRef:
    return z3.Sum(*[z3.If(p, 1, 0) for p in hands.present[seat]])


def resolve_hands(
    deck: SymbolicDeck,
    rules: SymbolicRules,
    end: EndOfBout,
    hands: HandInputs,
    broken: frozenset[Broken] | Sequence[Broken] = frozenset(),
) -> RoundEnd:
    """The hands after the bout and the round end, for the symbolic end of bout ``end``."""
    return _Hands(deck, rules, end, hands, frozenset(broken)).build()
