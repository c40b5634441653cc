"""Two term algebras for one model: concrete (Python ints and bools) and symbolic (z3).

The whole-bout model (:mod:`~omen_solver.omens.proofs.model.play`) is written once against the small
vocabulary of :class:`Ops`. Run with :class:`Concrete` it is a plain Python program that plays
one bout in microseconds (the differential tests run it on tens of thousands of engine bouts);
run with :class:`Symbolic` the same code builds z3 terms over symbolic cards, seats, options and
choices, which the theorems are proved on. So what is tested concretely is exactly what is
proved symbolically.

Sets of cards are bit masks of :data:`CARD_BITS` bits (bit ``v`` is the card of value ``v``);
one card is a mask with one bit, so cards compare as their values do. Seats are masks of
:data:`SEAT_BITS` bits (bit ``s`` is seat ``s + 1``). Python's ``&``, ``|``, ``^``, ``<<``,
``-`` and ``==`` mean the same on both kinds of terms for the masks used here; what differs
(``If``, ``And``, unsigned comparison, the highest bit, counting bits) is a method.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import z3

__all__ = ["CARD_BITS", "SEAT_BITS", "Concrete", "Ops", "Symbolic"]

CARD_BITS: Final = 36
"""Card values 1..35 (bit 0 is never used)."""
SEAT_BITS: Final = 6
"""Seats 1..6."""
STAMP_BITS: Final = 8
"""Placement numbers (a bout of up to 255 placements)."""

Term = Any
"""A mask, an integer or a flag: a Python value or a z3 expression, depending on the algebra."""


class Ops:
    """The operations the model is written with (see the module doc)."""

    symbolic: bool = False

    def card(self, mask: int) -> Term:
        raise NotImplementedError

    def seats(self, mask: int) -> Term:
        raise NotImplementedError

    def flag(self, value: bool) -> Term:
        raise NotImplementedError

    def If(self, condition: Term, then: Term, otherwise: Term) -> Term:
        raise NotImplementedError

    def And(self, *terms: Term) -> Term:
        raise NotImplementedError

    def Or(self, *terms: Term) -> Term:
        raise NotImplementedError

    def Not(self, term: Term) -> Term:
        raise NotImplementedError

    def Implies(self, a: Term, b: Term) -> Term:
        return self.Or(self.Not(a), b)

    def ugt(self, a: Term, b: Term) -> Term:
        raise NotImplementedError

    def ult(self, a: Term, b: Term) -> Term:
        return self.ugt(b, a)

    def stamp(self, value: int) -> Term:
        """A small counter (the number of a placement)."""
        raise NotImplementedError

    def highest(self, mask: Term) -> Term:
        """The highest bit of a mask (0 for the empty mask)."""
        raise NotImplementedError

    def count(self, mask: Term) -> Term:
        """How many bits are set."""
        raise NotImplementedError

    # -- derived, the same in both algebras ------------------------------------------------

    def any_of(self, terms: Iterable[Term]) -> Term:
        items = list(terms)
        return self.Or(*items) if items else self.flag(False)

    def all_of(self, terms: Iterable[Term]) -> Term:
        items = list(terms)
        return self.And(*items) if items else self.flag(True)

    def union(self, masks: Iterable[Term], zero: Term) -> Term:
        result = zero
        for mask in masks:
            result = result | mask
        return result

    def lowest(self, mask: Term) -> Term:
        """The lowest bit of a mask (0 for the empty mask)."""
        raise NotImplementedError

    def below(self, one: Term) -> Term:
        """Every bit below the single bit ``one`` (0 when ``one`` is 0)."""
        raise NotImplementedError

    def above(self, one: Term) -> Term:
        """Every bit above the single bit ``one`` (0 when ``one`` is 0)."""
        raise NotImplementedError

    def single(self, mask: Term) -> Term:
        """Exactly one bit is set."""
        raise NotImplementedError

    def within(self, mask: Term, allowed: Term) -> Term:
        """Every bit of ``mask`` is in ``allowed``."""
        return mask & ~allowed == 0

    def pick(self, mask: Term, allowed: Term) -> Term:
        """``mask`` is one element of ``allowed`` (never of the empty set)."""
        return self.And(self.single(mask), self.within(mask, allowed))

    def select(self, key: Term, keys: Iterable[Term], values: Iterable[Term], zero: Term) -> Term:
        """The value whose key equals ``key`` (keys are distinct single bits), else ``zero``."""
        result = zero
        for k, v in zip(keys, values, strict=True):
            result = self.If(key == k, v, result)
        return result

    def first_from(self, eligible: Term, start: Term) -> Term:
        """The first seat of ``eligible`` clockwise from seat ``start`` (seats are numbered
        clockwise, so from ``start`` upwards, then from seat 1): 0 when none is."""
        later = eligible & ~self.below(start)
        return self.If(later != 0, self.lowest(later), self.lowest(eligible))

    def next_seat(self, seat: Term, table: Term) -> Term:
        """The seat to the left (the next clockwise) of ``seat`` at a table of ``table``."""
        up = seat << 1
        return self.If(up & table == 0, self.seats(1), up)


class Concrete(Ops):
    """Python ints and bools."""

    symbolic = False

    def card(self, mask: int) -> int:
        return mask

    def seats(self, mask: int) -> int:
        return mask

    def flag(self, value: bool) -> bool:
        return value

    def stamp(self, value: int) -> int:
        return value

    def If(self, condition: Any, then: Any, otherwise: Any) -> Any:
        return then if condition else otherwise

    def And(self, *terms: Any) -> bool:
        return all(terms)

    def Or(self, *terms: Any) -> bool:
        return any(terms)

    def Not(self, term: Any) -> bool:
        return not term

    def ugt(self, a: Any, b: Any) -> bool:
        return bool(a > b)

    def highest(self, mask: Any) -> int:
        return 0 if mask == 0 else 1 << (int(mask).bit_length() - 1)

    def count(self, mask: Any) -> int:
        return int(mask).bit_count()

    def lowest(self, mask: Any) -> int:
        return int(mask) & -int(mask)

    def single(self, mask: Any) -> bool:
        return bool(mask != 0 and mask & (mask - 1) == 0)

    def below(self, one: Any) -> int:
        return 0 if one == 0 else (int(one) & -int(one)) - 1

    def above(self, one: Any) -> int:
        if one == 0:
            return 0
        return ((1 << CARD_BITS) - 1) & ~((1 << int(one).bit_length()) - 1)


class Symbolic(Ops):
    """z3 bit-vectors and booleans in one context."""

    symbolic = True

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx

    def card(self, mask: int) -> z3.BitVecRef:
        return z3.BitVecVal(mask, CARD_BITS, self.ctx)

    def seats(self, mask: int) -> z3.BitVecRef:
        return z3.BitVecVal(mask, SEAT_BITS, self.ctx)

    def flag(self, value: bool) -> z3.BoolRef:
        return z3.BoolVal(value, self.ctx)

    def stamp(self, value: int) -> z3.BitVecRef:
        return z3.BitVecVal(value, STAMP_BITS, self.ctx)

    def stamp_var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, STAMP_BITS, self.ctx)

    def card_var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, CARD_BITS, self.ctx)

    def seat_var(self, name: str) -> z3.BitVecRef:
        return z3.BitVec(name, SEAT_BITS, self.ctx)

    def flag_var(self, name: str) -> z3.BoolRef:
        return z3.Bool(name, self.ctx)

    def If(self, condition: Any, then: Any, otherwise: Any) -> Any:
        if isinstance(condition, bool):
            return then if condition else otherwise
        if z3.is_true(condition):
            return then
        if z3.is_false(condition):
            return otherwise
        return z3.If(condition, then, otherwise)

    def And(self, *terms: Any) -> Any:
        kept = [t for t in terms if not (t is True or z3.is_true(t))]
        if any(t is False or z3.is_false(t) for t in kept):
            return self.flag(False)
        if not kept:
            return self.flag(True)
        return kept[0] if len(kept) == 1 else z3.And(*kept)

    def Or(self, *terms: Any) -> Any:
        kept = [t for t in terms if not (t is False or z3.is_false(t))]
        if any(t is True or z3.is_true(t) for t in kept):
            return self.flag(True)
        if not kept:
            return self.flag(False)
        return kept[0] if len(kept) == 1 else z3.Or(*kept)

    def Not(self, term: Any) -> Any:
        if isinstance(term, bool):
            return self.flag(not term)
        return z3.Not(term)

    def ugt(self, a: Any, b: Any) -> Any:
        return z3.UGT(a, b)

    # Shifts by constants and ORs only, no subtraction: bit-blasted, they are wires and gates
    # without carry chains, which keeps the SAT problems of the proofs small and local.

    @staticmethod
    def _down(mask: Any) -> Any:
        """Every bit below some bit of ``mask``."""
        smeared = z3.LShR(mask, 1)
        for shift in (1, 2, 4, 8, 16, 32):
            smeared = smeared | z3.LShR(smeared, shift)
        return smeared

    @staticmethod
    def _up(mask: Any) -> Any:
        """Every bit above some bit of ``mask``."""
        smeared = mask << 1
        for shift in (1, 2, 4, 8, 16, 32):
            smeared = smeared | (smeared << shift)
        return smeared

    def below(self, one: Any) -> Any:
        return self._down(one)

    def above(self, one: Any) -> Any:
        return self._up(one)

    def lowest(self, mask: Any) -> Any:
        return mask & ~self._up(mask)

    def highest(self, mask: Any) -> Any:
        return mask & ~self._down(mask)

    def single(self, mask: Any) -> Any:
        return z3.And(mask != 0, mask & self._up(mask) == 0)

    def count(self, mask: Any) -> Any:
        width = mask.size()
        bits = [z3.ZeroExt(7, z3.Extract(i, i, mask)) for i in range(width)]
        return z3.Sum(*bits)
