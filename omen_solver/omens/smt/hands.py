"""The end of a bout with the players' hands: cards going back to hand, Luck's discard and the
end of the round, as z3 terms (a reading of rules file 000, "Game Sequence", "Luck" and "End of
a Round", independent of :mod:`omen_solver.omens.state`).

Hands are one z3 boolean per seat and card: ``held[s][c]`` is true when seat ``s`` holds card
``c``. The hands given are those at the moment the last card is placed (``mid``); the model
computes the hands once the bout is over (``after``) and the round's winner, if any.

Two choices the rules leave to a player are symbolic, so a query covers every way they go:
the card Luck makes a player discard (``luck_pick``), and, when several players are left with 0
cards under option ``zero_cards = "any"``, which of them the round goes to (``zero_pick``; the
rulebook does not say). With option ``absolute_timing = "end"`` the exchanges of the Absolutes
happen after the cards go back to hand; they only move cards between hands, one for one, so
the model lets the hands after them be any arrangement of the same cards that keeps every
seat's number of cards (an over-approximation: a theorem proved over it holds for every actual
sequence of exchanges).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from omen_solver.omens.smt.bout import BoutInputs, EndOfBout
from omen_solver.omens.smt.broken import Broken
from omen_solver.omens.smt.symbols import SymbolicDeck, SymbolicRules

__all__ = ["MAX_SEATS", "HandInputs", "RoundEnd", "resolve_hands"]

MAX_SEATS = 6

Grid = tuple[tuple[z3.BoolRef, ...], ...]
"""``grid[seat][index]``: seat holds the card ``deck.values[index]``."""


@dataclass(frozen=True)
class HandInputs:
    """The hands when the last card of the bout has been placed, and the open choices."""

    mid: Grid
    luck_pick: z3.ArithRef
    """The card Luck's victim discards (0: none)."""
    zero_pick: z3.ArithRef
    """With ``zero_cards = "any"``: which player at 0 cards wins when there are several."""
    exchanged: Grid
    """With ``absolute_timing = "end"``: the hands after the Absolutes' exchanges."""

    @classmethod
    def fresh(cls, deck: SymbolicDeck, prefix: str = "") -> HandInputs:
        ctx = deck.ctx

        def grid(name: str) -> Grid:
            return tuple(
                tuple(z3.Bool(f"{prefix}{name}[{s + 1}][{c}]", ctx) for c in deck.values)
                for s in range(MAX_SEATS)
            )

        return cls(
            mid=grid("hand"),
            luck_pick=z3.Int(f"{prefix}luck_pick", ctx),
            zero_pick=z3.Int(f"{prefix}zero_pick", ctx),
            exchanged=grid("exchanged"),
        )

    def substitution(
        self, deck: SymbolicDeck, hands: Sequence[Sequence[int]]
    ) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """Pairs pinning ``mid`` to concrete hands (0-based seats)."""
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        for s in range(MAX_SEATS):
            held = set(hands[s]) if s < len(hands) else set()
            for index, card in enumerate(deck.values):
                pairs.append((self.mid[s][index], z3.BoolVal(card in held, deck.ctx)))
        return pairs


@dataclass(frozen=True)
class RoundEnd:
    """What the end of the bout leaves in the hands, and whether the round is won."""

    in_play: tuple[z3.BoolRef, ...]
    """Card ``deck.values[index]`` lies in play."""
    returned: Grid
    """Card goes back to seat's hand."""
    luck_options: Grid
    """Cards Luck's victim may discard (only the victim's row can be true)."""
    luck_discards: z3.BoolRef
    """Luck's victim discards a card (``luck_pick``)."""
    after: Grid
    """The hands once the bout is over."""
    sizes: tuple[z3.ArithRef, ...]
    luck_zero: z3.BoolRef
    """Luck's victim was left with 0 cards by Luck's discard."""
    round_over: z3.BoolRef
    round_wins: tuple[z3.BoolRef, ...]
    """Seat ``s`` wins the round (exactly one when the round is over, by the theorems)."""
    round_winner: z3.ArithRef
    """The seat that wins the round (-1: the round goes on)."""
    next_round_leader: z3.ArithRef
    """Who leads next: the next bout's leader, or the next round's when the round is won."""
    choices: tuple[z3.BoolRef, ...]
    """Constraints on the symbolic choices (``luck_pick``, ``zero_pick``, ``exchanged``)."""


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
        self.cards = range(len(deck.values))
        self.seats = range(MAX_SEATS)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def any_of(self, terms: Sequence[z3.BoolRef]) -> z3.BoolRef:
        return z3.Or(*terms) if terms else self.false()

    def lies(self, i: int, index: int) -> z3.BoolRef:
        """Slot ``i`` holds card ``deck.values[index]``."""
        return z3.And(self.bout.present[i], self.bout.value[i] == self.deck.values[index])

    def destination(self, i: int) -> z3.ArithRef:
        """Where a card not discarded goes (rules file 000, "Game Sequence": "If your card was
        not discarded, take it back into your hand"; omens-cards.md: "to the hand of the player
        they lie in front of, whoever placed them"; option ``return_to``)."""
        b = self.bout
        if Broken.RETURN_TO_PLACER in self.broken:
            return b.by[i]
        return z3.If(self.rules.is_("return_to", "position"), b.before[i], b.by[i])

    def returned(self) -> Grid:
        end = self.end
        rows = []
        for s in self.seats:
            row = []
            for index in self.cards:
                terms = []
                for i in self.bout.slots:
                    kept = z3.Not(end.discarded[i])
                    if Broken.DISCARDED_ALSO_RETURN in self.broken:
                        kept = z3.Not(z3.And(end.discarded[i], end.wins[i]))
                    terms.append(z3.And(self.lies(i, index), kept, self.destination(i) == s))
                row.append(self.any_of(terms))
            rows.append(tuple(row))
        return tuple(rows)

    def luck(self, returned: Grid) -> tuple[Grid, z3.BoolRef, list[z3.BoolRef]]:
        """Luck (rules file 000, "Luck"): "If this card is discarded, discard a card from your
        hand ... Fear cannot be discarded using Luck's effect." Option ``luck_timing``: from
        the hand as it is, or once the cards have come back. Whoever chooses (option
        ``luck_chooser``), the card is one of the hand's cards other than Fear."""
        end, hands = self.end, self.hands
        after_return = self.rules.is_("luck_timing", "after_return")
        options = []
        for s in self.seats:
            row = []
            for index, card in enumerate(self.deck.values):
                held = z3.Or(hands.mid[s][index], z3.And(after_return, returned[s][index]))
                allowed = z3.BoolVal(True, self.ctx)
                if Broken.LUCK_MAY_DISCARD_FEAR not in self.broken:
                    allowed = z3.BoolVal(self.deck.card(card).effect != "fear", self.ctx)
                row.append(z3.And(end.luck_discarded, end.luck_seat == s, held, allowed))
            options.append(tuple(row))
        grid = tuple(options)
        can = self.any_of([option for row in grid for option in row])
        pick = hands.luck_pick
        choices = [
            z3.If(
                can,
                self.any_of(
                    [
                        z3.And(pick == card, self.any_of([grid[s][index] for s in self.seats]))
                        for index, card in enumerate(self.deck.values)
                    ]
                ),
                pick == 0,
            )
        ]
        return grid, can, choices

    def after(self, returned: Grid, discards: z3.BoolRef) -> Grid:
        end, hands = self.end, self.hands
        rows = []
        for s in self.seats:
            row = []
            for index, card in enumerate(self.deck.values):
                lost = z3.And(discards, end.luck_seat == s, hands.luck_pick == card)
                row.append(z3.And(z3.Or(hands.mid[s][index], returned[s][index]), z3.Not(lost)))
            rows.append(tuple(row))
        return tuple(rows)

    def exchanges(self, before: Grid) -> tuple[Grid, list[z3.BoolRef]]:
        """Option ``absolute_timing = "end"``: the Absolutes' exchanges after the return, over-
        approximated by any arrangement of the same cards keeping every seat's count."""
        absolute = self.any_of(
            [
                z3.And(self.bout.present[i], self.deck.effect(self.bout.value[i], "absolute"))
                for i in self.bout.slots
            ]
        )
        active = z3.And(self.rules.is_("absolute_timing", "end"), absolute)
        moved = self.hands.exchanged
        facts: list[z3.BoolRef] = []
        for index in self.cards:
            held_before = self.any_of([before[s][index] for s in self.seats])
            held_after = [z3.If(moved[s][index], 1, 0) for s in self.seats]
            facts.append(z3.If(held_before, z3.Sum(*held_after) == 1, z3.Sum(*held_after) == 0))
        for s in self.seats:
            facts.append(_size(moved[s]) == _size(before[s]))
        result = tuple(
            tuple(z3.If(active, moved[s][index], before[s][index]) for index in self.cards)
            for s in self.seats
        )
        return result, [z3.Implies(active, z3.And(*facts))]

    def round_end(
        self, after: Grid, luck_discards: z3.BoolRef
    ) -> tuple[
        z3.BoolRef, z3.BoolRef, tuple[z3.BoolRef, ...], list[z3.BoolRef], tuple[z3.ArithRef, ...]
    ]:
        """The end of a round (rules file 000, "End of a Round", "Luck"; option
        ``zero_cards``): Luck's victim left with 0 cards wins "even if other players end the
        same bout with 1 card in hand"; else the player left with 1 card, the highest card
        among several; option ``zero_cards = "any"``: any player at 0 wins as Luck's does."""
        end, b = self.end, self.bout
        sizes = tuple(_size(row) for row in after)
        seated = [b.seat(z3.IntVal(s, self.ctx)) for s in self.seats]
        luck_zero = z3.And(
            luck_discards,
            self.any_of([z3.And(end.luck_seat == s, sizes[s] == 0) for s in self.seats]),
        )
        if Broken.LUCK_ZERO_LOSES in self.broken:
            luck_zero = self.false()
        zero_any = self.rules.is_("zero_cards", "any")
        at_zero = [z3.And(seated[s], sizes[s] == 0, zero_any) for s in self.seats]
        singles = [z3.And(seated[s], sizes[s] == 1) for s in self.seats]
        single_value = [
            z3.Sum(*[z3.If(after[s][i], card, 0) for i, card in enumerate(self.deck.values)])
            for s in self.seats
        ]
        best = [
            z3.And(
                singles[s],
                *[
                    z3.Implies(singles[t], self._beats(single_value[s], single_value[t]))
                    for t in self.seats
                    if t != s
                ],
            )
            for s in self.seats
        ]
        zero = self.hands.zero_pick
        any_zero = self.any_of(at_zero)
        choices = [
            z3.Implies(
                any_zero,
                self.any_of([z3.And(zero == s, at_zero[s]) for s in self.seats]),
            )
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
        return over, luck_zero, wins, choices, sizes

    def _beats(self, mine: z3.ArithRef, theirs: z3.ArithRef) -> z3.BoolRef:
        if Broken.SINGLES_ALL_WIN in self.broken:
            return z3.BoolVal(True, self.ctx)
        if Broken.LOWEST_SINGLE_WINS in self.broken:
            return mine < theirs
        return mine > theirs

    def build(self) -> RoundEnd:
        returned = self.returned()
        options, discards, luck_choices = self.luck(returned)
        settled = self.after(returned, discards)
        after, exchange_facts = self.exchanges(settled)
        over, luck_zero, wins, zero_choices, sizes = self.round_end(after, discards)
        winner: z3.ArithRef = z3.IntVal(-1, self.ctx)
        for s in reversed(self.seats):
            winner = z3.If(wins[s], s, winner)
        end = self.end
        keep_pride = z3.And(end.pride, self.rules.is_("pride_next_round", "yes"))
        next_leader = z3.If(z3.And(over, z3.Not(keep_pride)), winner, end.next_leader)
        in_play = tuple(
            self.any_of([self.lies(i, index) for i in self.bout.slots]) for index in self.cards
        )
        return RoundEnd(
            in_play=in_play,
            returned=returned,
            luck_options=options,
            luck_discards=discards,
            after=after,
            sizes=sizes,
            luck_zero=luck_zero,
            round_over=over,
            round_wins=wins,
            round_winner=z3.If(over, winner, -1),
            next_round_leader=next_leader,
            choices=tuple(luck_choices + zero_choices + exchange_facts),
        )


def _size(row: Sequence[z3.BoolRef]) -> z3.ArithRef:
    return z3.Sum(*[z3.If(held, 1, 0) for held in row])


def hands_well_formed(deck: SymbolicDeck, bout: BoutInputs, hands: HandInputs) -> list[z3.BoolRef]:
    """Each card is in at most one hand and not also in play; seats beyond the players hold
    nothing."""
    facts: list[z3.BoolRef] = []
    for index, card in enumerate(deck.values):
        holders = [z3.If(hands.mid[s][index], 1, 0) for s in range(MAX_SEATS)]
        played = z3.Or(*[z3.And(bout.present[i], bout.value[i] == card) for i in bout.slots])
        facts.append(z3.Sum(*holders) <= z3.If(played, 0, 1))
    for s in range(MAX_SEATS):
        facts.append(z3.Implies(bout.players <= s, z3.Not(z3.Or(*hands.mid[s]))))
    return facts


def hand_size(hands: Grid, seat: int) -> z3.ArithRef:
    return _size(hands[seat])


def resolve_hands(
    deck: SymbolicDeck,
    rules: SymbolicRules,
    end: EndOfBout,
    hands: HandInputs,
    broken: frozenset[Broken] | Sequence[Broken] = frozenset(),
) -> RoundEnd:
    """The hands after the bout and the round end, for the symbolic end of bout ``end``."""
    return _Hands(deck, rules, end, hands, frozenset(broken)).build()
