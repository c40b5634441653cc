"""Card facts as bit masks, read from the catalogue (cards are data).

Every fact the model asks about a card (its colour, its effect keyword and parameters, whether
it acts at once) is a mask of the cards that have it: "the card is green" is ``card & GREEN !=
0`` for a card mask, and "the green cards in play" is ``in_play & GREEN``. What each effect
*does* is written in :mod:`~omen_solver.omens.proofs.model.play` from the rule text, not read
from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from omen_solver.omens.cards import COLOURS, Catalogue
from omen_solver.omens.proofs.model.ops import CARD_BITS
from omen_solver.omens.vocabulary import Effect

__all__ = ["Deck", "bits", "cards_of", "mask_of"]


def mask_of(values: Iterable[int]) -> int:
    """The mask of some card values."""
    mask = 0
    for value in values:
        mask |= 1 << value
    return mask


def cards_of(mask: int) -> list[int]:
    """The card values of a mask, in increasing order."""
    return [value for value in range(CARD_BITS) if mask >> value & 1]


def bits(mask: int) -> list[int]:
    """The indexes of the bits set in a mask (seats: 0-based)."""
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


@dataclass(frozen=True)
class EndEffect:
    """One card with an end-of-bout discard effect and its parameters."""

    card: int
    """The card's mask."""
    effect: str
    params: Mapping[str, str]


@dataclass(frozen=True)
class Deck:
    """The masks of a catalogue."""

    catalogue: Catalogue

    def __post_init__(self) -> None:
        bad = [v for v in self.catalogue if not 1 <= v < CARD_BITS]
        if bad:
            raise ValueError(
                f"the symbolic model holds card values 1 to {CARD_BITS - 1}; the catalogue has "
                f"{bad}"
            )

    @cached_property
    def all(self) -> int:
        return mask_of(self.catalogue)

    def effect(self, keyword: str) -> int:
        """The cards whose effect keyword is ``keyword``."""
        masks = self._effects
        if keyword not in masks:
            masks[keyword] = mask_of(self.catalogue.with_effect(keyword))
        return masks[keyword]

    @cached_property
    def _effects(self) -> dict[str, int]:
        return {}

    def colour(self, colour: str) -> int:
        """The cards that count as ``colour`` ("any": every card; Malice counts as each)."""
        if colour == "any":
            return self.all
        masks = self._effects
        key = "colour:" + colour
        if key not in masks:
            masks[key] = mask_of(v for v, card in self.catalogue.items() if colour in card.colours)
        return masks[key]

    @cached_property
    def absolute_values(self) -> tuple[int, ...]:
        """The values of the Absolutes, ascending."""
        return tuple(self.catalogue.with_effect(Effect.ABSOLUTE))

    @cached_property
    def colours(self) -> dict[str, int]:
        return {colour: self.colour(colour) for colour in COLOURS}

    @cached_property
    def now(self) -> int:
        """Cards printed as immediate (the Absolutes included: option absolute_timing decides
        whether they act when played)."""
        return mask_of(v for v, card in self.catalogue.items() if card.is_now)

    @cached_property
    def end_effects(self) -> tuple[EndEffect, ...]:
        """Every card whose end-of-bout effect discards cards, in value order."""
        kinds = (Effect.DISCARD_EXTREME, Effect.DISCARD_ALL, Effect.DISCARD_SELF_IF)
        return tuple(
            EndEffect(1 << v, card.effect, dict(card.params))
            for v, card in sorted(self.catalogue.items())
            if card.effect in kinds
        )

    def named(self, name: str) -> int:
        """The card called ``name`` (English or French)."""
        for value, card in self.catalogue.items():
            if name in (card.name, card.french):
                return 1 << value
        raise KeyError(f"no card named {name!r} in the catalogue")
