"""Evaluating the symbolic model on concrete bouts, to compare it with the engine.

The model is built once; each concrete bout pins its inputs (players, leader, cards in play,
hands, option settings) and reads the outputs with one pass of z3's model evaluator
(:func:`omen_solver.core.smt.evaluate`), no solving. The differential tests in
``tests/omens_proofs`` run many thousands of bouts through both this and the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from omen_solver.core.smt import evaluate
from omen_solver.omens.cards import Catalogue
from omen_solver.omens.proofs.hands import HAND_SLOTS, MAX_SEATS
from omen_solver.omens.proofs.model import SymbolicModel, build_model
from omen_solver.omens.rules import OmensRules

__all__ = ["ModelBout", "ModelEvaluator", "ModelRound"]

Placement = tuple[int, int, int]
"""``(card, before, by)`` with 0-based seats."""


@dataclass(frozen=True)
class ModelBout:
    """The model's end of a bout, concretely."""

    winner: int | None
    winning_card: int | None
    discarded: frozenset[int]
    luck_seat: int | None
    next_leader: int
    pride: bool


@dataclass(frozen=True)
class ModelRound:
    """The model's hands and round end after a bout, concretely."""

    hands: tuple[tuple[int, ...], ...]
    round_winner: int | None
    next_leader: int
    luck_options: frozenset[int]
    """The cards Luck's victim may discard (empty: Luck discards nothing)."""
    choices_allowed: bool
    """The choices given (Luck's card, the 0-card winner, the exchanges) are ones the model
    allows."""


class ModelEvaluator:
    """One build of the model, evaluated on many concrete bouts."""

    def __init__(self, catalogue: Catalogue | None = None, *, hands: bool = False) -> None:
        self.model: SymbolicModel = build_model(hands=hands, catalogue=catalogue)
        self.ctx = self.model.ctx

    def _rules(self, rules: OmensRules) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        symbolic = self.model.rules
        chosen = rules.as_dict()
        return [
            (var, z3.IntVal(symbolic.index(name, chosen[name]), self.ctx))
            for name, var in symbolic.vars.items()
        ]

    def _inputs(
        self, players: int, leader: int, cards: Sequence[Placement], rules: OmensRules
    ) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        return self.model.bout.substitution(players, leader, cards) + self._rules(rules)

    def end_of_bout(
        self, players: int, leader: int, cards: Sequence[Placement], rules: OmensRules
    ) -> ModelBout:
        end = self.model.end
        terms = [
            end.winner,
            end.winning_value,
            end.luck_seat,
            end.next_leader,
            end.pride,
            *end.discarded,
        ]
        values = evaluate(terms, self._inputs(players, leader, cards, rules), self.ctx)
        winner, winning, luck, leader_next, pride = values[:5]
        flags = values[5:]
        return ModelBout(
            winner=None if winner == -1 else int(winner),
            winning_card=None if winning == 0 else int(winning),
            discarded=frozenset(
                card for (card, _, _), gone in zip(cards, flags, strict=False) if gone
            ),
            luck_seat=None if luck == -1 else int(luck),
            next_leader=int(leader_next),
            pride=bool(pride),
        )

    def round_end(
        self,
        players: int,
        leader: int,
        cards: Sequence[Placement],
        mid: Sequence[Sequence[int]],
        rules: OmensRules,
        *,
        luck_pick: int = 0,
        zero_pick: int = -1,
        final: Sequence[Sequence[int]] | None = None,
    ) -> ModelRound:
        """The hands after the bout: ``mid`` are the hands when the last card is placed;
        ``luck_pick`` and ``zero_pick`` the choices made; ``final`` the hands after The
        Absolute's end-of-bout exchanges, if any (used to pin the model's open choice)."""
        hands, end = self.model.require_round()
        pairs = self._inputs(players, leader, cards, rules)
        pairs += hands.substitution(mid, self.ctx)
        pairs += [
            (hands.luck_pick, z3.IntVal(luck_pick, self.ctx)),
            (hands.zero_pick, z3.IntVal(zero_pick, self.ctx)),
        ]
        pairs += self._moved(mid, cards, final)
        pairs += [(hands.top, z3.IntVal(_top(final if final is not None else None), self.ctx))]
        grid = [row[s] for row in end.final for s in range(MAX_SEATS)]
        terms = [
            end.round_winner,
            end.next_round_leader,
            z3.And(*end.choices),
            *grid,
            *end.luck_options,
            *[item.value for item in end.items],
        ]
        values = evaluate(terms, pairs, self.ctx)
        winner, leader_next, allowed = values[:3]
        rest = values[3:]
        cells, rest = rest[: len(grid)], rest[len(grid) :]
        options, item_values = rest[: len(end.items)], rest[len(end.items) :]
        held: list[list[int]] = [[] for _ in range(players)]
        for k, value in enumerate(item_values):
            for s in range(MAX_SEATS):
                if cells[k * MAX_SEATS + s]:
                    held[s].append(int(value))
        return ModelRound(
            hands=tuple(tuple(sorted(hand)) for hand in held),
            round_winner=None if winner == -1 else int(winner),
            next_leader=int(leader_next),
            luck_options=frozenset(
                int(value) for value, option in zip(item_values, options, strict=True) if option
            ),
            choices_allowed=bool(allowed),
        )

    def _moved(
        self,
        mid: Sequence[Sequence[int]],
        cards: Sequence[Placement],
        final: Sequence[Sequence[int]] | None,
    ) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """Pin the exchanges' open choice: where each item ends (from ``final``)."""
        hands, _ = self.model.require_round()
        where: dict[int, int] = {}
        if final is not None:
            where = {card: seat for seat, hand in enumerate(final) for card in hand}
        values: list[int | None] = []
        for s in range(MAX_SEATS):
            row = sorted(mid[s]) if s < len(mid) else []
            values += [row[h] if h < len(row) else None for h in range(HAND_SLOTS)]
        slots = len(self.model.bout.present)
        values += [cards[i][0] if i < len(cards) else None for i in range(slots)]
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
        for value, cells in zip(values, hands.moved, strict=True):
            for s, cell in enumerate(cells):
                pairs.append(
                    (cell, z3.BoolVal(value is not None and where.get(value) == s, self.ctx))
                )
        return pairs


def _top(final: Sequence[Sequence[int]] | None) -> int:
    """The highest card held by a player left with 1 card (0 if none)."""
    if final is None:
        return 0
    singles = [hand[0] for hand in final if len(hand) == 1]
    return max(singles, default=0)
