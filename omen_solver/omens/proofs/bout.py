"""The end of an Omens bout as z3 terms: a second, independent reading of the rule text.

Everything here is written from the rulebook (rules file 000, "How a Bout Is Resolved" and
"Special Card Effects") and the card list (omens-cards.md), not from the Python resolver
(:mod:`omen_solver.omens.resolve`); a test compares the two on many thousands of bouts, so a
mistake in either shows up as a disagreement.

The cards in play are ``slots``: slot ``i`` holds a card when ``present[i]``; its ``value`` is a
z3 integer, and the seats it lies in front of (``before``) and that placed it (``by``) are z3
integers too. Colours and effects are predicates over the value (:class:`SymbolicDeck`), rule
options are z3 parameters (:class:`SymbolicRules`), so one query speaks about every combination
of cards, seats and settings at once.

The outputs (:class:`EndOfBout`) are terms over those inputs: which slot wins, which slots are
discarded and why, whose hand Luck empties, who leads next. :class:`Broken` lists deliberately
wrong rules; passing some of them to :func:`resolve_end` builds the model with those rules
broken, so that every theorem can show its proof is not vacuous.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import z3

from omen_solver.omens.proofs.broken import Broken
from omen_solver.omens.proofs.symbols import EffectGroup, SymbolicDeck, SymbolicRules

__all__ = ["MAX_SLOTS", "BoutInputs", "Broken", "EndOfBout", "absent_value", "resolve_end"]

MAX_SLOTS = 8
"""At most players + 2 cards lie in play at the end of a bout: one per player, plus the card a
Dream target places each time Dream is resolved when the target also takes its own turn
(option ``dream_target_turn = plays_again``). Dream is resolved at most twice in a bout: when
Wrath sends it back and it is played again (``wrath_replay = allowed``); there is one Dream and
one Wrath in the deck."""


def absent_value(slot: int) -> int:
    """The value an empty slot in play holds: negative and different for every slot, so that
    every slot's value can be declared distinct at once (z3's ``Distinct``)."""
    return -1 - slot


@dataclass(frozen=True)
class BoutInputs:
    """The symbolic cards in play at the end of a bout, the players and the leader."""

    ctx: z3.Context
    players: z3.ArithRef
    leader: z3.ArithRef
    present: tuple[z3.BoolRef, ...]
    value: tuple[z3.ArithRef, ...]
    before: tuple[z3.ArithRef, ...]
    by: tuple[z3.ArithRef, ...]

    @classmethod
    def fresh(cls, ctx: z3.Context, slots: int = MAX_SLOTS, prefix: str = "") -> BoutInputs:
        def ints(name: str) -> tuple[z3.ArithRef, ...]:
            return tuple(z3.Int(f"{prefix}{name}[{i}]", ctx) for i in range(slots))

        return cls(
            ctx=ctx,
            players=z3.Int(f"{prefix}players", ctx),
            leader=z3.Int(f"{prefix}leader", ctx),
            present=tuple(z3.Bool(f"{prefix}present[{i}]", ctx) for i in range(slots)),
            value=ints("value"),
            before=ints("before"),
            by=ints("by"),
        )

    @property
    def slots(self) -> range:
        return range(len(self.present))

    def count(self) -> z3.ArithRef:
        """How many cards are in play."""
        return z3.Sum(*[z3.If(p, 1, 0) for p in self.present])

    def seat(self, term: z3.ArithRef) -> z3.BoolRef:
        return z3.And(term >= 0, term < self.players)

    def well_formed(self, deck: SymbolicDeck) -> list[z3.BoolRef]:
        """4-6 players; 1 to players + 2 cards in play, in the first slots; distinct values of
        the deck; seats at the table. Unused slots hold :func:`absent_value` and seat 0."""
        facts: list[z3.BoolRef] = [
            self.players >= 4,
            self.players <= 6,
            self.seat(self.leader),
            self.present[0],
            self.count() <= self.players + 2,
        ]
        for i in self.slots:
            if i > 0:
                facts.append(z3.Implies(self.present[i], self.present[i - 1]))
            facts.append(
                z3.If(
                    self.present[i],
                    z3.And(
                        deck.in_deck(self.value[i]),
                        self.seat(self.before[i]),
                        self.seat(self.by[i]),
                    ),
                    z3.And(self.value[i] == absent_value(i), self.before[i] == 0, self.by[i] == 0),
                )
            )
        facts.append(z3.Distinct(*self.value))
        return facts

    def substitution(
        self, players: int, leader: int, cards: Sequence[tuple[int, int, int]]
    ) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """The pairs that pin these inputs to a concrete bout: ``cards`` are
        ``(value, before, by)`` with 0-based seats."""
        if len(cards) > len(self.present):
            raise ValueError(f"{len(cards)} cards in play: the model has {len(self.present)} slots")
        ctx = self.ctx
        pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = [
            (self.players, z3.IntVal(players, ctx)),
            (self.leader, z3.IntVal(leader, ctx)),
        ]
        for i in self.slots:
            used = i < len(cards)
            value, before, by = cards[i] if used else (absent_value(i), 0, 0)
            pairs += [
                (self.present[i], z3.BoolVal(used, ctx)),
                (self.value[i], z3.IntVal(value, ctx)),
                (self.before[i], z3.IntVal(before, ctx)),
                (self.by[i], z3.IntVal(by, ctx)),
            ]
        return pairs


@dataclass(frozen=True)
class EndOfBout:
    """What the end of a bout decides, as terms over :class:`BoutInputs`."""

    inputs: BoutInputs
    wins: tuple[z3.BoolRef, ...]
    """Slot ``i`` holds the winning card."""
    has_winner: z3.BoolRef
    winning_value: z3.ArithRef
    """The winning card's value (0 when nothing wins)."""
    winner: z3.ArithRef
    """The seat that wins the bout (-1 when nothing wins)."""
    owner: tuple[z3.ArithRef, ...]
    """Whose card each slot is, for winning, Luck and Pride (option ``card_owner``)."""
    hits: Mapping[tuple[int, int], z3.BoolRef]
    """``(source, target)``: the effect of the card in slot ``source`` asks to discard the card
    in slot ``target``."""
    protected: tuple[z3.BoolRef, ...]
    """Slot ``i`` holds Fear, which is not the winning card, so it ignores every discard."""
    discarded: tuple[z3.BoolRef, ...]
    luck_discarded: z3.BoolRef
    luck_seat: z3.ArithRef
    """The seat that must discard a card from hand because Luck was discarded (-1: none)."""
    pride: z3.BoolRef
    next_leader: z3.ArithRef
    broken: frozenset[Broken] = field(default_factory=frozenset)


class _Reading:
    """One build of the model: the inputs, the deck, the options and the broken rules."""

    def __init__(
        self,
        deck: SymbolicDeck,
        rules: SymbolicRules,
        bout: BoutInputs,
        broken: frozenset[Broken],
    ) -> None:
        self.deck = deck
        self.rules = rules
        self.bout = bout
        self.broken = broken
        self.ctx = bout.ctx
        self.slots = bout.slots

    # -- small vocabulary -----------------------------------------------------------------

    def true(self) -> z3.BoolRef:
        return z3.BoolVal(True, self.ctx)

    def false(self) -> z3.BoolRef:
        return z3.BoolVal(False, self.ctx)

    def any_of(self, terms: Sequence[z3.BoolRef]) -> z3.BoolRef:
        return z3.Or(*terms) if terms else self.false()

    def all_of(self, terms: Sequence[z3.BoolRef]) -> z3.BoolRef:
        return z3.And(*terms) if terms else self.true()

    def has(self, i: int, keyword: str) -> z3.BoolRef:
        """Slot ``i`` holds a card with effect ``keyword``."""
        return z3.And(self.bout.present[i], self.deck.effect(self.bout.value[i], keyword))

    def in_play(self, keyword: str) -> z3.BoolRef:
        return self.any_of([self.has(i, keyword) for i in self.slots])

    def colour(self, i: int, colour: str) -> z3.BoolRef:
        """Slot ``i`` holds a card of ``colour``; Malice counts as every colour ("17 is every
        colour at once", omens-cards.md)."""
        value = self.bout.value[i]
        counts = self.deck.colour(value, colour)
        if Broken.MALICE_NO_COLOUR in self.broken:
            many = self.deck.member(
                value, [c.value for c in self.deck.catalogue.values() if len(c.colours) > 1]
            )
            counts = z3.And(counts, z3.Not(many))
        return z3.And(self.bout.present[i], counts)

    def above(self, i: int, k: int) -> z3.BoolRef:
        """The card in slot ``k`` is higher than the card in slot ``i``."""
        return self.bout.value[k] > self.bout.value[i]

    def extreme(self, candidates: Sequence[z3.BoolRef], which: str) -> list[z3.BoolRef]:
        """Among the candidate slots, the one holding the highest (or lowest) value."""
        picks = []
        for i in self.slots:
            beaten = [
                z3.Implies(
                    candidates[k], self.above(k, i) if which == "highest" else self.above(i, k)
                )
                for k in self.slots
                if k != i
            ]
            picks.append(z3.And(candidates[i], self.all_of(beaten)))
        return picks

    def second(self, candidates: Sequence[z3.BoolRef], which: str) -> list[z3.BoolRef]:
        """Among the candidate slots, the one holding the second-highest (or second-lowest)
        value: exactly one other candidate beats it that way."""
        picks = []
        for i in self.slots:
            beating = [
                z3.If(
                    z3.And(
                        candidates[k], self.above(i, k) if which == "highest" else self.above(k, i)
                    ),
                    1,
                    0,
                )
                for k in self.slots
                if k != i
            ]
            picks.append(z3.And(candidates[i], z3.Sum(*beating) == 1))
        return picks

    def owner(self, i: int) -> z3.ArithRef:
        """Whose card it is (option ``card_owner``, O8): the player it lies in front of, or
        the player who placed it."""
        b = self.bout
        return z3.If(self.rules.is_("card_owner", "position"), b.before[i], b.by[i])

    def choose(
        self, picks: Sequence[z3.BoolRef], terms: Sequence[z3.ArithRef], none: int
    ) -> z3.ArithRef:
        """The term of the picked slot (at most one is picked), else ``none``."""
        result: z3.ArithRef = z3.IntVal(none, self.ctx)
        for i in reversed(self.slots):
            result = z3.If(picks[i], terms[i], result)
        return result

    # -- the winner -----------------------------------------------------------------------

    def winning(self) -> tuple[list[z3.BoolRef], z3.BoolRef]:
        """The winning slot, and whether a lone Sadness is discarded with no winner.

        Rules file 000, "How a Bout Is Resolved": the highest card wins "unless the effect of
        a card in play indicates otherwise". "Mirror": the lowest card wins, and Sadness is
        ignored when Mirror is in play. "Sadness": the highest card cannot win, the second-
        highest does. Sadness alone in play (option ``sadness_lone_card``, O9): it wins, or
        nothing wins and it is discarded all the same.
        """
        b = self.bout
        present = list(b.present)
        highest = self.extreme(present, "highest")
        lowest = self.extreme(present, "lowest")
        second = self.second(present, "highest")
        second_lowest = self.second(present, "lowest")
        mirror = self.false() if Broken.MIRROR_IGNORED in self.broken else self.in_play("mirror")
        sadness = self.false() if Broken.SADNESS_IGNORED in self.broken else self.in_play("sadness")
        several = b.count() >= 2
        lone_wins = self.rules.is_("sadness_lone_card", "wins")
        wins = []
        for i in self.slots:
            if Broken.SADNESS_ANY_BUT_HIGHEST in self.broken:
                under_sadness = z3.And(b.present[i], z3.Not(highest[i]))
            else:
                under_sadness = z3.If(several, second[i], z3.And(highest[i], lone_wins))
            under_mirror = lowest[i]
            if Broken.SADNESS_OVER_MIRROR in self.broken:
                under_mirror = z3.If(
                    sadness, z3.If(several, second_lowest[i], lowest[i]), lowest[i]
                )
            wins.append(z3.If(mirror, under_mirror, z3.If(sadness, under_sadness, highest[i])))
        lone_discard = z3.And(z3.Not(mirror), sadness, z3.Not(several), z3.Not(lone_wins))
        if Broken.SADNESS_ANY_BUT_HIGHEST in self.broken:
            lone_discard = self.false()
        return wins, lone_discard

    # -- effects that discard ---------------------------------------------------------------

    def hits(self, wins: Sequence[z3.BoolRef]) -> dict[tuple[int, int], z3.BoolRef]:
        """Which card each end-of-bout effect asks to discard, before Fear's protection."""
        hits: dict[tuple[int, int], list[z3.BoolRef]] = {}
        for group in self.deck.groups:
            reading = _EFFECT_READINGS.get(group.effect)
            if reading is None:
                raise ValueError(
                    f"the symbolic model has no reading of effect {group.effect!r} (card "
                    f"{group.values[0]}); add one to omen_solver/omens/proofs/bout.py"
                )
            for j in self.slots:
                source = z3.And(self.bout.present[j], self.deck.in_group(self.bout.value[j], group))
                for i, target in reading(self, group, j).items():
                    hits.setdefault((j, i), []).append(z3.And(source, target))
        merged = {key: self.any_of(terms) for key, terms in hits.items()}
        if Broken.DISCARDED_LOSE_EFFECT in self.broken:
            merged = self._lose_effect(merged, wins)
        return merged

    def _lose_effect(
        self, hits: dict[tuple[int, int], z3.BoolRef], wins: Sequence[z3.BoolRef]
    ) -> dict[tuple[int, int], z3.BoolRef]:
        """The broken rule: a card discarded by another effect, or winning, has no effect."""
        doomed = [
            z3.Or(
                wins[j],
                self.any_of([hits[(k, j)] for k in self.slots if k != j and (k, j) in hits]),
            )
            for j in self.slots
        ]
        return {(j, i): z3.And(hit, z3.Not(doomed[j])) for (j, i), hit in hits.items()}

    def candidates(self, source: int, colour: str) -> list[z3.BoolRef]:
        """The cards 'the highest/lowest <colour> card in play' is chosen among.

        The card itself is in play, so it is a candidate (option ``extreme_includes_self``);
        option ``fear_pass_on`` (O10): with "yes" the effect looks past Fear.
        """
        result = []
        for i in self.slots:
            candidate = self.colour(i, colour)
            if i == source:
                if Broken.EXTREMES_EXCLUDE_SELF in self.broken:
                    candidate = self.false()
                else:
                    candidate = z3.And(candidate, self.rules.is_("extreme_includes_self", "yes"))
            skip_fear = z3.And(self.rules.is_("fear_pass_on", "yes"), self.has(i, "fear"))
            result.append(z3.And(candidate, z3.Not(skip_fear)))
        return result

    # -- putting it together -------------------------------------------------------------------

    def build(self) -> EndOfBout:
        b = self.bout
        wins, lone_discard = self.winning()
        has_winner = self.any_of(wins)
        owners = [self.owner(i) for i in self.slots]
        winners = list(b.by) if Broken.WINNER_IS_PLACER in self.broken else owners
        hits = self.hits(wins)
        protected = [self.protection(i, wins[i]) for i in self.slots]
        discarded = []
        for i in self.slots:
            by_effect = self.effect_discard(hits, protected[i], i)
            won = self.false() if Broken.WINNER_KEPT in self.broken else wins[i]
            gone = z3.And(b.present[i], z3.Or(won, by_effect, lone_discard))
            if Broken.FEAR_KEPT_WHEN_WINNING in self.broken:
                gone = z3.And(gone, z3.Not(self.has(i, "fear")))
            discarded.append(gone)
        luck = [z3.And(discarded[i], self.has(i, "luck")) for i in self.slots]
        luck_owner = list(b.by) if Broken.LUCK_BY_PLACER in self.broken else owners
        pride_slots = [self.has(i, "pride") for i in self.slots]
        pride = self.false() if Broken.PRIDE_IGNORED in self.broken else self.any_of(pride_slots)
        winner = self.choose(wins, winners, -1)
        after_win = z3.If(has_winner, winner, b.leader)
        return EndOfBout(
            inputs=b,
            wins=tuple(wins),
            has_winner=has_winner,
            winning_value=self.choose(wins, list(b.value), 0),
            winner=winner,
            owner=tuple(owners),
            hits=hits,
            protected=tuple(protected),
            discarded=tuple(discarded),
            luck_discarded=self.any_of(luck),
            luck_seat=self.choose(luck, luck_owner, -1),
            pride=pride,
            next_leader=z3.If(
                pride, self.choose(pride_slots, [self.pride_seat(o) for o in owners], -1), after_win
            ),
            broken=self.broken,
        )

    def effect_discard(
        self, hits: Mapping[tuple[int, int], z3.BoolRef], protected: z3.BoolRef, i: int
    ) -> z3.BoolRef:
        """Some effect asks to discard slot ``i`` and Fear's protection does not stop it."""
        terms = []
        for j in self.slots:
            if (j, i) not in hits:
                continue
            shield = protected
            if Broken.FEAR_ONLY_VS_EXTREMES in self.broken:
                shield = z3.And(shield, z3.Not(self._is_discard_all(j)))
            terms.append(z3.And(hits[(j, i)], z3.Not(shield)))
        return self.any_of(terms)

    def _is_discard_all(self, j: int) -> z3.BoolRef:
        groups = self.deck.groups_of("discard_all")
        value = self.bout.value[j]
        return self.any_of([self.deck.in_group(value, group) for group in groups])

    def protection(self, i: int, wins: z3.BoolRef) -> z3.BoolRef:
        """Fear (rules file 000, "Fear"): "This card can never be discarded, except if it wins
        the bout. Ignore any effect that asks you to discard Fear"."""
        if Broken.FEAR_UNPROTECTED in self.broken:
            return self.false()
        return z3.And(self.has(i, "fear"), z3.Not(wins))

    def pride_seat(self, owner: z3.ArithRef) -> z3.ArithRef:
        """Pride (omens-cards.md): "the player to the left of this card's player starts the
        next bout"; play goes clockwise, so the player to the left is the next seat."""
        players = self.bout.players
        if Broken.PRIDE_TO_THE_RIGHT in self.broken:
            return z3.If(owner == 0, players - 1, owner - 1)
        return z3.If(owner + 1 >= players, 0, owner + 1)


# -- the readings of the colour effects (omens-cards.md, one per primitive) ---------------------

_Targets = dict[int, z3.BoolRef]


def _discard_extreme(model: _Reading, group: EffectGroup, source: int) -> _Targets:
    """ "Discard the highest/lowest <colour> card in play" (Life, Death, Lie, Truth, Day, Night;
    Harmony for any colour)."""
    candidates = model.candidates(source, group.params["colour"])
    picks = model.extreme(candidates, group.params["which"])
    return dict(enumerate(picks))


def _discard_all(model: _Reading, group: EffectGroup, source: int) -> _Targets:
    """ "Discard every <colour> card in play" (Winter)."""
    del source
    return {i: model.colour(i, group.params["colour"]) for i in model.slots}


def _discard_self_if(model: _Reading, group: EffectGroup, source: int) -> _Targets:
    """ "Discard this card if ..." (Love, Friendship, Calm, Feast, Hope, Spring, Enigma,
    Summer, Autumn): the condition is read on the other cards in play."""
    condition = group.params["condition"]
    others = [i for i in model.slots if i != source]
    if condition == "other_of_colour":
        # "if another green card is in play" / "if a red card is in play"
        holds = model.any_of([model.colour(i, group.params["colour"]) for i in others])
    elif condition == "no_other_of_colour":
        # "if it is the only green card in play": it is green, and no other card is
        colour = group.params["colour"]
        holds = z3.And(
            model.colour(source, colour),
            z3.Not(model.any_of([model.colour(i, colour) for i in others])),
        )
    elif condition == "lowest_in_play":
        # "if it is the lowest card in play"
        holds = model.all_of(
            [z3.Implies(model.bout.present[i], model.above(source, i)) for i in others]
        )
    elif condition == "effect_in_play":
        # "if a The Absolute (30-35) is in play"
        holds = model.any_of([model.has(i, group.params["effect"]) for i in others])
    else:
        raise ValueError(f"the symbolic model has no reading of condition {condition!r}")
    return {source: holds}


def _no_discard(model: _Reading, group: EffectGroup, source: int) -> _Targets:
    """Effects that discard nothing at the end of a bout: they decide the winner (Mirror,
    Sadness), protect (Fear), act once discarded (Luck), pick the next leader (Pride), do
    nothing (Malice), or acted when played ('now' cards)."""
    del model, group, source
    return {}


_EFFECT_READINGS = {
    "discard_extreme": _discard_extreme,
    "discard_all": _discard_all,
    "discard_self_if": _discard_self_if,
    **{
        keyword: _no_discard
        for keyword in (
            "none",
            "fear",
            "luck",
            "mirror",
            "sadness",
            "pride",
            "law",
            "dream",
            "jealousy",
            "secret",
            "wrath",
            "betrayal",
            "absolute",
        )
    },
}


def resolve_end(
    deck: SymbolicDeck,
    rules: SymbolicRules,
    bout: BoutInputs,
    broken: frozenset[Broken] | Sequence[Broken] = frozenset(),
) -> EndOfBout:
    """The end of the bout for the symbolic cards in play (rules file 000, "How a Bout Is
    Resolved": the winner and every effect at once; a discarded card's effect still applies;
    all discards happen together)."""
    return _Reading(deck, rules, bout, frozenset(broken)).build()
