"""A whole Omens bout as one program over an algebra of terms: placements in turn order with
every immediate ("now") effect, then the end of the bout, the cards going back to hand, Luck's
discard, The Absolute's end-of-bout exchanges and the end of the round.

This is a second reading of the rulebook (rules file 000, "Game Sequence", "How a Bout Is
Resolved", "Special Card Effects", "End of a Round") and of the card list (omens-cards.md),
written from the rule text and independent of the engine (:mod:`omen_solver.omens.state`).
It is written once against :class:`~omen_solver.omens.proofs.model.ops.Ops`: run concretely it
plays one bout (the differential tests compare it with the engine on thousands of bouts);
run symbolically it is a z3 formula over every card, seat, hand, option setting and choice at
once, on which the theorems of ``proofs/`` are proved.

A bout is a sequence of at most ``steps`` **placements**. Each places one card from a hand in
front of a player: a normal turn (clockwise from the leader, each player once), the card
Dream's target places in front of the Dream player, Wrath's replacement, or Betrayal's gift.
The placed card's immediate effect is resolved in the same step, by the player the rules say
(option ``now_resolver``); an effect that calls for another placement (Dream, Wrath, Betrayal)
makes it the next step, so every effect is "fully resolved before the next player puts their
card down" (rules file 000, "Details"). A bout that needs more placements than ``steps`` is
not ``complete``: theorems state the bound they are proved for.

Every decision a player makes is a **choice** term (which card, whom Dream targets, the card
Wrath sends back, ...); the model states which choices are legal (``legal``), so a symbolic
query ranges over every legal way to play the bout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import Deck
from omen_solver.omens.proofs.model.ops import Ops
from omen_solver.omens.proofs.model.records import (
    SEAT,
    SEATS,
    BoutEnd,
    BoutTrace,
    Choices,
    Inputs,
    Options,
    State,
    Step,
    Term,
)
from omen_solver.omens.rules import (
    AbsoluteTiming,
    BetrayalGiveBack,
    CardOwner,
    DreamTargetTurn,
    ExtremeIncludesSelf,
    FearPassOn,
    JealousyOwnCard,
    LawAfterJealousy,
    LawBinds,
    LawWhenLast,
    LuckTiming,
    NowResolver,
    PrideNextRound,
    ReturnTo,
    SadnessLoneCard,
    WrathReplay,
    ZeroCards,
)
from omen_solver.omens.vocabulary import Effect

__all__ = ["BoutMachine", "play_bout"]


class BoutMachine:
    """One bout's rules over an algebra of terms: :meth:`start`, :meth:`step`, :meth:`finish`
    (and :meth:`well_formed`, what every reachable state satisfies)."""

    def __init__(
        self, o: Ops, deck: Deck, options: Options, inputs: Inputs, choices: Choices
    ) -> None:
        self.o = o
        self.deck = deck
        self.opt = options.setting
        self.bk = options.broken
        self.inputs = inputs
        self.choose = choices
        self.legal: list[Term] = []
        self.zero_card = o.card(0)
        self.zero_seat = o.seats(0)
        self.dream_card = deck.effect(Effect.DREAM)
        self.absolutes = deck.effect(Effect.ABSOLUTE)

    # -- small vocabulary ------------------------------------------------------------------

    def hand_of(self, hands: Sequence[Term], seat: Term) -> Term:
        return self.o.select(seat, [self.o.seats(m) for m in SEAT], hands, self.zero_card)

    def holders(self, hands: Sequence[Term]) -> Term:
        o = self.o
        return o.union(
            (o.If(h != 0, o.seats(SEAT[s]), self.zero_seat) for s, h in enumerate(hands)),
            self.zero_seat,
        )

    def in_play(self, front: Sequence[Term]) -> Term:
        return self.o.union(front, self.zero_card)

    def where(self, masks: Sequence[Term], card: Term) -> Term:
        """The seat whose mask holds ``card`` (0 if none does)."""
        o = self.o
        return o.union(
            (o.If(m & card != 0, o.seats(SEAT[i]), self.zero_seat) for i, m in enumerate(masks)),
            self.zero_seat,
        )

    def put(self, masks: Sequence[Term], seat: Term, card: Term) -> tuple[Term, ...]:
        """``card`` added to the mask of ``seat``."""
        o = self.o
        return tuple(m | o.If(seat == SEAT[i], card, self.zero_card) for i, m in enumerate(masks))

    def next_turn(self, hands: Sequence[Term], played: Term) -> Term:
        """Rules file 000, "Game Sequence": clockwise from the leader, each player once; a
        player with no card cannot play."""
        eligible = self.inputs.table & ~played & self.holders(hands)
        return self.o.first_from(eligible, self.inputs.leader)

    def law_filter(self, law: Term, up: Term, candidates: Term, binds: Term) -> Term:
        """Law (rules file 000): "Everyone must, if possible, play a card lower or higher than
        this card's value"; "If you don't have a card ... you may play the card of your
        choice"."""
        o = self.o
        follow = candidates & o.If(up, o.above(law), o.below(law))
        return o.If(o.And(binds, law != 0, follow != 0), follow, candidates)

    def rule(self, condition: Term, name: str) -> None:
        self.legal.append(condition)
        del name

    # -- states ----------------------------------------------------------------------------

    def complete(self, s: State) -> Term:
        """Everyone has placed: nothing is pending and nobody is left to play."""
        o = self.o
        pending = o.Or(s.dreaming, s.replaying, s.giving)
        return o.Or(s.done, o.And(o.Not(pending), self.next_turn(s.hands, s.played) == 0))

    def well_formed(self, s: State) -> list[Term]:
        """What holds of every state a bout reaches (theorem well-formed-states proves it is
        kept by every placement): every card in one place; the cards in play each placed by
        one player; Law's constraint only while Law lies in play; a pending placement names a
        player who holds the card it needs."""
        o, deck = self.o, self.deck
        table = self.inputs.table
        zero = self.zero_card
        in_play = self.in_play(s.front)
        facts = [o.pick(self.inputs.leader, table), s.played & ~table == 0]
        for masks in (s.hands, s.front, s.placed):
            for i, m in enumerate(masks):
                facts.append(m & ~o.card(deck.all) == 0)
                facts.append(o.Or(table & SEAT[i] != 0, m == 0))
                facts += [m & other == 0 for other in masks[i + 1 :]]
        facts += [h & in_play == 0 for h in s.hands]
        facts.append(o.union(s.placed, zero) == in_play)
        law = o.card(deck.effect(Effect.LAW))
        facts.append(o.Or(s.law == 0, o.And(s.law == law, s.law & in_play != 0)))
        facts.append(o.Or(s.law != 0, o.Not(s.up)))
        pending = [s.dreaming, s.replaying, s.giving]
        facts += [o.Not(o.And(a, b)) for i, a in enumerate(pending) for b in pending[i + 1 :]]
        hand = self.hand_of(s.hands, s.next_seat)
        facts.append(
            o.If(
                s.dreaming,
                o.And(
                    o.pick(s.next_seat, table & ~s.played),
                    hand != 0,
                    o.pick(s.next_to, table & ~s.next_seat),
                    s.next_card == 0,
                ),
                o.If(
                    s.replaying,
                    o.And(
                        o.pick(s.next_to, table),
                        s.next_seat == s.next_to,
                        o.pick(s.next_card, hand),
                    ),
                    o.If(
                        s.giving,
                        o.And(
                            o.pick(s.next_seat, table),
                            o.pick(s.next_to, table),
                            o.pick(s.next_card, hand),
                        ),
                        o.And(s.next_seat == 0, s.next_to == 0, s.next_card == 0),
                    ),
                ),
            )
        )
        return facts

    # -- one placement ---------------------------------------------------------------------

    def start(self) -> State:
        o = self.o
        return State(
            hands=tuple(self.inputs.hands),
            front=(self.zero_card,) * len(SEAT),
            placed=(self.zero_card,) * len(SEAT),
            stamps=(o.stamp(0),) * len(self.deck.absolute_values),
            clock=o.stamp(0),
            played=self.zero_seat,
            law=self.zero_card,
            up=o.flag(False),
            dreaming=o.flag(False),
            replaying=o.flag(False),
            giving=o.flag(False),
            next_seat=self.zero_seat,
            next_to=self.zero_seat,
            next_card=self.zero_card,
            done=o.flag(False),
        )

    def step(self, k: int, s: State) -> tuple[State, Step]:
        o, opt = self.o, self.opt
        turn_seat = self.next_turn(s.hands, s.played)
        pending = o.Or(s.dreaming, s.replaying, s.giving)
        turn = o.Not(pending)
        ends = o.And(turn, turn_seat == 0)
        active = o.And(o.Not(s.done), o.Not(ends))
        placer = o.If(turn, turn_seat, s.next_seat)
        to = o.If(turn, placer, s.next_to)
        hand = self.hand_of(s.hands, placer)
        # Wrath (rules file 000): "They must play another card" (option wrath_replay);
        # Betrayal's gift may be the card just taken (option betrayal_give_back)
        others = hand & ~s.next_card
        candidates = o.If(
            o.And(s.replaying, opt(WrathReplay.FORBIDDEN), others != 0), others, hand
        )
        candidates = o.If(
            o.And(s.giving, opt(BetrayalGiveBack.FORBIDDEN)), others, candidates
        )
        binds = o.Or(turn, opt(LawBinds.EVERY_PLACEMENT))
        if_only_turns = o.And(o.Not(turn), self.bk(Broken.LAW_BINDS_TURNS_ONLY))
        binds = o.And(binds, o.Not(if_only_turns))
        allowed = self.law_filter(s.law, s.up, candidates, binds)
        card = self.choose.card(k, "card")
        self.rule(o.If(active, o.pick(card, allowed), card == 0), "card")
        # Dream: "it must be someone who has not yet played a card this bout"
        is_dream = card & self.dream_card != 0
        dream_on = o.And(active, is_dream, o.Or(turn, s.replaying))
        targets = self.inputs.table & ~s.played & self.holders(s.hands) & ~placer
        targets = o.If(dream_on, targets, self.zero_seat)
        target = self.choose.seat(k, "target")
        self.rule(o.If(dream_on, o.Or(target == 0, o.pick(target, targets)), target == 0), "dream")
        lies = o.If(o.And(dream_on, target != 0), target, to)
        hands = tuple(h & ~card for h in s.hands)
        front = self.put(s.front, lies, card)
        placed = self.put(s.placed, placer, card)
        stamps = tuple(
            o.If(card & (1 << a) != 0, s.clock, t)
            for a, t in zip(self.deck.absolute_values, s.stamps, strict=True)
        )
        counts = o.Or(turn, o.And(s.dreaming, opt(DreamTargetTurn.PLACEMENT_IS_TURN)))
        played = s.played | o.If(o.And(active, counts), placer, self.zero_seat)
        s = replace(s, front=front, placed=placed, stamps=stamps, clock=s.clock + 1)
        return self.resolve(
            k,
            s,
            active,
            turn,
            placer,
            to,
            lies,
            dream_on,
            candidates,
            allowed,
            card,
            targets,
            target,
            hands,
            played,
        )

    def resolve(
        self,
        k: int,
        s: State,
        active: Term,
        turn: Term,
        placer: Term,
        to: Term,
        lies: Term,
        dream_on: Term,
        candidates: Term,
        allowed: Term,
        card: Term,
        targets: Term,
        target: Term,
        hands: tuple[Term, ...],
        played: Term,
    ) -> tuple[State, Step]:
        """The placed card's immediate effect (rules file 000, "Special Card Effects")."""
        o, deck, opt = self.o, self.deck, self.opt
        timely = deck.now & ~self.dream_card & ~self.absolutes
        now = card & (
            o.card(timely)
            | o.If(opt(AbsoluteTiming.NOW), o.card(self.absolutes), self.zero_card)
        )
        resolves = o.And(active, now != 0)
        # Dream's placement and Betrayal's gift: "They then resolve the card's effect"
        # (option now_resolver); on a turn or a replacement the placer is also the position
        by_receiver = opt(NowResolver.POSITION)
        if_giver = o.And(s.giving, self.bk(Broken.GIFT_RESOLVED_BY_GIVER))
        resolver = o.If(o.And(by_receiver, o.Not(if_giver)), to, placer)
        no_effect = o.And(s.replaying, self.bk(Broken.REPLACEMENT_NO_EFFECT))
        resolves = o.And(resolves, o.Not(no_effect))
        nobody_left = self.next_turn(hands, played) == 0
        in_play = self.in_play(s.front)
        mine = self.hand_of(s.front, resolver)
        held = self.hand_of(hands, resolver)

        def has(keyword: str) -> Term:
            return card & deck.effect(keyword) != 0

        # Law: "you choose which"; option law_when_last
        law_choice = o.And(
            resolves, has(Effect.LAW), o.Not(o.And(nobody_left, opt(LawWhenLast.SKIP)))
        )
        up = self.choose.flag(k, "up")
        self.rule(o.Or(law_choice, o.Not(up)), "law")
        # Wrath: "a card found in front of another person"
        elsewhere = in_play & ~mine & ~card
        # Betrayal: "take a card that another player has already played ... Then play a card
        # from your hand": with give-back forbidden an empty hand has nothing to give
        can_give = o.Or(opt(BetrayalGiveBack.ALLOWED), held != 0)
        # Jealousy: "another card already in play" (option jealousy_own_card)
        own = o.If(
            opt(JealousyOwnCard.ALLOWED), o.card(deck.all), ~self.hand_of(s.front, lies)
        )
        options = o.If(
            has(Effect.WRATH),
            elsewhere,
            o.If(
                has(Effect.BETRAYAL),
                o.If(can_give, elsewhere, self.zero_card),
                o.If(has(Effect.JEALOUSY), in_play & ~card & own, self.zero_card),
            ),
        )
        options = o.If(resolves, options, self.zero_card)
        moves = o.And(resolves, options != 0)
        x = self.choose.card(k, "x")
        self.rule(o.If(moves, o.pick(x, options), x == 0), "x")
        # The Absolute: "Exchange a card from your hand with the player of your choice"
        hands, partners, partner, give, get = self.now_exchange(
            k, hands, resolver, held, resolves, card
        )
        swaps = partners != 0
        # Law's constraint from now on
        law = o.If(law_choice, card, s.law)
        new_up = o.If(law_choice, up, s.up)
        is_wrath = o.And(moves, has(Effect.WRATH))
        is_betrayal = o.And(moves, has(Effect.BETRAYAL))
        is_jealousy = o.And(moves, has(Effect.JEALOUSY))
        victim = self.where(s.front, x)
        # Wrath and Betrayal: "If the card ... is Law, its constraint no longer applies"
        leaves = o.Or(is_wrath, is_betrayal)
        keeps_law = o.Or(
            o.And(is_wrath, self.bk(Broken.LAW_SURVIVES_WRATH)),
            o.And(is_betrayal, self.bk(Broken.LAW_SURVIVES_BETRAYAL)),
        )
        law = o.If(o.And(leaves, x == law, o.Not(keeps_law)), self.zero_card, law)
        # Jealousy moving Law (option law_after_jealousy)
        ends = o.Or(opt(LawAfterJealousy.ENDS), self.bk(Broken.JEALOUSY_ALWAYS_ENDS_LAW))
        law = o.If(o.And(is_jealousy, x == law, ends), self.zero_card, law)
        redo = o.And(is_jealousy, x & deck.effect(Effect.LAW) != 0,
                     self.bk(Broken.JEALOUSY_REAPPLIES))
        law = o.If(redo, x, law)
        new_up = o.And(law != 0, o.If(redo, o.Not(new_up), new_up))
        front, placed, hands = self.move_cards(
            s, hands, card, x, lies, victim, resolver, is_wrath, is_betrayal, is_jealousy
        )
        dreams = o.And(dream_on, target != 0)
        state = State(
            hands=hands,
            front=front,
            placed=placed,
            stamps=s.stamps,
            clock=s.clock,
            played=played,
            law=law,
            up=new_up,
            dreaming=dreams,
            replaying=is_wrath,
            giving=is_betrayal,
            next_seat=o.If(
                dreams, target, o.If(is_wrath, victim, o.If(is_betrayal, resolver, self.zero_seat))
            ),
            next_to=o.If(dreams, placer, o.If(leaves, victim, self.zero_seat)),
            next_card=o.If(o.Or(is_wrath, is_betrayal), x, self.zero_card),
            done=o.Or(s.done, o.Not(active)),
        )
        resolved = o.Or(law_choice, moves, swaps)
        record = Step(
            active=active,
            turn=o.And(active, turn),
            dream=o.And(active, s.dreaming),
            replay=o.And(active, s.replaying),
            gift=o.And(active, s.giving),
            placer=o.If(active, placer, self.zero_seat),
            lies=o.If(active, lies, self.zero_seat),
            hands=s.hands,
            candidates=o.If(active, candidates, self.zero_card),
            allowed=o.If(active, allowed, self.zero_card),
            card=card,
            dream_targets=targets,
            target=target,
            resolver=o.If(resolved, resolver, self.zero_seat),
            law_choice=law_choice,
            up=up,
            options=options,
            x=x,
            victim=o.If(leaves, victim, self.zero_seat),
            partners=partners,
            partner=partner,
            give=give,
            get=get,
            law_before=s.law,
            up_before=s.up,
            law_after=law,
            up_after=new_up,
            hands_after=hands,
            in_play_after=self.in_play(front),
            front_after=front,
            played_after=played,
        )
        return state, record

    def now_exchange(
        self,
        k: int,
        hands: tuple[Term, ...],
        resolver: Term,
        held: Term,
        resolves: Term,
        card: Term,
    ) -> tuple[tuple[Term, ...], Term, Term, Term, Term]:
        """``card`` resolved now (``resolves``), if it is The Absolute and its resolver holds a
        card: "Exchange a card from your hand with the player of your choice". The hands
        after it, the partners it may choose, the partner, the card given and the card got."""
        o = self.o
        partners = self.inputs.table & self.holders(hands) & ~resolver
        is_absolute = card & self.deck.effect(Effect.ABSOLUTE) != 0
        partners = o.If(o.And(resolves, is_absolute, held != 0), partners, self.zero_seat)
        swaps = partners != 0
        partner = self.choose.seat(k, "partner")
        give = self.choose.card(k, "give")
        get = self.choose.card(k, "get")
        theirs = self.hand_of(hands, partner)
        self.rule(
            o.If(
                swaps,
                o.And(o.pick(partner, partners), o.pick(give, held), o.pick(get, theirs)),
                o.And(partner == 0, give == 0, get == 0),
            ),
            "absolute",
        )
        give_only = self.bk(Broken.ABSOLUTE_GIVE_ONLY)
        exchanged = tuple(
            o.If(
                resolver == SEAT[i],
                (h & ~give) | o.If(give_only, self.zero_card, get),
                o.If(partner == SEAT[i], (h & ~o.If(give_only, self.zero_card, get)) | give, h),
            )
            for i, h in enumerate(hands)
        )
        hands = tuple(o.If(swaps, e, h) for e, h in zip(exchanged, hands, strict=True))
        return hands, partners, partner, give, get

    def move_cards(
        self,
        s: State,
        hands: tuple[Term, ...],
        card: Term,
        x: Term,
        lies: Term,
        victim: Term,
        resolver: Term,
        is_wrath: Term,
        is_betrayal: Term,
        is_jealousy: Term,
    ) -> tuple[tuple[Term, ...], tuple[Term, ...], tuple[Term, ...]]:
        """Where the cards are once Wrath has sent ``x`` back to the hand of the player it lay
        before, Betrayal has taken it, or Jealousy has swapped places with it: the cards in
        front of each seat, the cards each seat placed, the hands."""
        o = self.o
        leaves = o.Or(is_wrath, is_betrayal)
        lost = self.bk(Broken.WRATH_LOSES_THE_CARD)
        gone = o.If(leaves, x, self.zero_card)
        moved = o.If(is_jealousy, x | card, self.zero_card)
        # Jealousy: the two cards swap places (the card stays placed by its player)
        front = tuple(
            (f & ~gone & ~moved)
            | o.If(o.And(is_jealousy, lies == SEAT[i]), x, self.zero_card)
            | o.If(o.And(is_jealousy, victim == SEAT[i]), card, self.zero_card)
            for i, f in enumerate(s.front)
        )
        placed = tuple(f & ~gone for f in s.placed)
        gets_back = o.If(
            is_wrath,
            o.If(lost, self.zero_seat, victim),
            o.If(is_betrayal, resolver, self.zero_seat),
        )
        hands = tuple(
            h | o.If(gets_back == SEAT[i], x, self.zero_card) for i, h in enumerate(hands)
        )
        return front, placed, hands

    # -- the end of the bout ---------------------------------------------------------------

    def owners(self, s: State) -> tuple[Term, ...]:
        """Whose card each card in play is for winning, Luck and Pride (option
        ``card_owner``): per seat, the cards it owns."""
        by_position = self.opt(CardOwner.POSITION)
        return tuple(self.o.If(by_position, f, p) for f, p in zip(s.front, s.placed, strict=True))

    def in_play_order(self, s: State, in_play: Term) -> list[Term]:
        """The Absolutes in play, in the order they were placed (a card per position, 0 when
        fewer are in play)."""
        o = self.o
        values = self.deck.absolute_values
        here = [in_play & (1 << a) != 0 for a in values]
        ranks = []
        for i in range(len(values)):
            earlier = [
                o.If(o.And(here[j], o.ult(s.stamps[j], s.stamps[i])), o.stamp(1), o.stamp(0))
                for j in range(len(values))
                if j != i
            ]
            ranks.append(sum(earlier[1:], earlier[0]) if earlier else o.stamp(0))
        return [
            o.union(
                (
                    o.If(o.And(here[i], ranks[i] == r), o.card(1 << a), self.zero_card)
                    for i, a in enumerate(values)
                ),
                self.zero_card,
            )
            for r in range(len(values))
        ]

    def winning(self, in_play: Term) -> Term:
        """Rules file 000, "How a Bout Is Resolved": the highest card wins; "Mirror": the
        lowest, and Sadness is ignored; "Sadness": the second-highest; Sadness alone in play:
        option ``sadness_lone_card``."""
        o, deck = self.o, self.deck
        mirror = o.And(in_play & deck.effect(Effect.MIRROR) != 0,
                       o.Not(self.bk(Broken.MIRROR_IGNORED)))
        sadness = o.And(
            in_play & deck.effect(Effect.SADNESS) != 0, o.Not(self.bk(Broken.SADNESS_IGNORED))
        )
        top = o.highest(in_play)
        second = o.highest(in_play & ~top)
        alone = o.single(in_play)
        lone = o.If(self.opt(SadnessLoneCard.WINS), top, self.zero_card)
        return o.If(mirror, o.lowest(in_play), o.If(sadness, o.If(alone, lone, second), top))

    def effect_picks(self, in_play: Term, win: Term) -> tuple[Term, ...]:
        """Every end-of-bout discard effect at once (omens-cards.md; rules file 000: "Even if
        an effect asks you to discard a card, the discarded card's effect is still applied"):
        what each card of :attr:`Deck.end_effects` asks to discard (0 when it is not in
        play), before Fear's protection."""
        o, deck = self.o, self.deck
        picks = []
        itself = self.opt(ExtremeIncludesSelf.YES)
        pass_on = o.And(self.opt(FearPassOn.YES), o.Not(self.bk(Broken.PASS_ON_IGNORED)))
        fear = deck.effect(Effect.FEAR)
        lowest = o.lowest(in_play)
        for source in deck.end_effects:
            c = o.card(source.card)
            here = in_play & c != 0
            params = source.params
            if source.effect == Effect.DISCARD_EXTREME:
                pool = in_play & self.colour(params["colour"])
                pool = o.If(itself, pool, pool & ~c)
                pool = o.If(pass_on, pool & ~fear, pool)
                pick = o.highest(pool) if params["which"] == "highest" else o.lowest(pool)
            elif source.effect == Effect.DISCARD_ALL:
                pick = in_play & self.colour(params["colour"])
            else:
                pick = o.If(self.condition(params, c, in_play, lowest), c, self.zero_card)
            picks.append(o.If(here, pick, self.zero_card))
        # the broken rule: a card that wins, or that another effect discards, has no effect
        lose = self.bk(Broken.DISCARDED_LOSE_EFFECT)
        before = [self.zero_card]
        for pick in picks[:-1]:
            before.append(before[-1] | pick)
        after = [self.zero_card]
        for pick in reversed(picks[1:]):
            after.append(after[-1] | pick)
        after.reverse()
        kept = []
        for source, pick, earlier, later in zip(
            deck.end_effects, picks, before, after, strict=True
        ):
            c = o.card(source.card)
            doomed = o.Or(win == c, (earlier | later) & c != 0)
            kept.append(o.If(o.And(lose, doomed), self.zero_card, pick))
        return tuple(kept)

    def colour(self, colour: str) -> Term:
        """The cards of a colour; Malice counts as every colour ("17 is every colour at
        once", omens-cards.md)."""
        o, deck = self.o, self.deck
        cards = o.card(deck.colour(colour))
        plural = deck.colour("green") & deck.colour("yellow")
        return o.If(self.bk(Broken.MALICE_NO_COLOUR), cards & ~o.card(plural), cards)

    def condition(self, params: Any, c: Term, in_play: Term, lowest: Term) -> Term:
        deck = self.deck
        others = in_play & ~c
        condition = params["condition"]
        if condition == "other_of_colour":
            return others & self.colour(params["colour"]) != 0
        if condition == "no_other_of_colour":
            return others & self.colour(params["colour"]) == 0
        if condition == "lowest_in_play":
            return lowest == c
        return others & deck.effect(params["effect"]) != 0

    def finish(self, s: State, *, exchanges: bool = True) -> BoutEnd:
        """The end of the bout from ``s``. ``exchanges=False`` (proofs only): when The Absolute
        acts at the end of the bout, the final hands are any its exchanges can leave
        (:meth:`keeps_hands`) rather than the exchanges played one by one; see
        :func:`~omen_solver.omens.proofs.model.symbolic.build_steps`."""
        o, deck, opt = self.o, self.deck, self.opt
        turn_seat = self.next_turn(s.hands, s.played)
        pending = o.Or(s.dreaming, s.replaying, s.giving)
        complete = o.Or(s.done, o.And(o.Not(pending), turn_seat == 0))
        in_play = self.in_play(s.front)
        front, placed = s.front, s.placed
        owners = self.owners(s)

        def owner_of(card: Term) -> Term:
            return o.union(
                (o.If(owners[i] & card != 0, o.seats(SEAT[i]), self.zero_seat) for i in SEATS),
                self.zero_seat,
            )

        win = self.winning(in_play)
        winner = owner_of(win)
        if_placer = self.bk(Broken.WINNER_IS_PLACER)
        by_placer = o.union(
            (o.If(placed[i] & win != 0, o.seats(SEAT[i]), self.zero_seat) for i in SEATS),
            self.zero_seat,
        )
        winner = o.If(if_placer, by_placer, winner)
        picks, hits, gone_win, discarded = self.discards(in_play, win)
        luck = deck.effect(Effect.LUCK)
        luck_gone = discarded & luck
        if_luck_placer = self.bk(Broken.LUCK_BY_PLACER)
        luck_seat = o.If(
            if_luck_placer,
            o.union(
                (o.If(placed[i] & luck_gone != 0, o.seats(SEAT[i]), self.zero_seat) for i in SEATS),
                self.zero_seat,
            ),
            owner_of(luck_gone),
        )
        pride_card = in_play & deck.effect(Effect.PRIDE)
        pride = pride_card != 0
        after_win = o.If(winner != 0, winner, self.inputs.leader)
        next_leader = o.If(
            pride, self.o.next_seat(owner_of(pride_card), self.inputs.table), after_win
        )
        # cards back to hand (option return_to) and Luck's discard (option luck_timing)
        mid = s.hands
        by_position = o.And(opt(ReturnTo.POSITION), o.Not(self.bk(Broken.RETURN_TO_PLACER)))
        back = tuple(
            o.If(by_position, f, p) & ~discarded for f, p in zip(front, placed, strict=True)
        )
        # the broken rule: the cards an effect discarded (not the winning card) go back too
        also = o.If(
            self.bk(Broken.DISCARDED_ALSO_RETURN), discarded & hits & ~gone_win, self.zero_card
        )
        back = tuple(
            b | (o.If(by_position, f, p) & also)
            for b, f, p in zip(back, front, placed, strict=True)
        )
        returned = tuple(h | b for h, b in zip(mid, back, strict=True))
        before = opt(LuckTiming.BEFORE_RETURN)
        luck_hand = o.If(before, self.hand_of(mid, luck_seat), self.hand_of(returned, luck_seat))
        luck_options = o.If(
            luck_seat != 0, luck_hand & ~o.card(deck.effect(Effect.FEAR)), self.zero_card
        )
        pick = self.choose.card(-1, "luck")
        self.rule(o.If(luck_options != 0, o.pick(pick, luck_options), pick == 0), "luck")
        hands = tuple(h & ~pick for h in returned)
        # The Absolute at the end of the bout (option absolute_timing = end), in play order
        hands, records = self.end_exchanges(s, in_play, owners, hands, exact=exchanges)
        # the end of the round (rules file 000, "End of a Round"; "Luck")
        round_winner, luck_zero, next_round_leader = self.round_end(
            hands, luck_seat, pick, next_leader, pride
        )
        round_team, laurels_after, game_over = self.game_end(round_winner)
        return BoutEnd(
            complete=complete,
            in_play=in_play,
            front=front,
            placed=placed,
            owners=owners,
            win=win,
            winner=winner,
            discarded=discarded,
            hits=hits,
            picks=picks,
            luck_seat=luck_seat,
            pride=pride,
            next_leader=next_leader,
            mid_hands=mid,
            luck_options=luck_options,
            luck_pick=pick,
            returned_hands=tuple(h & ~pick for h in returned),
            exchanges=tuple(records),
            final_hands=hands,
            round_winner=round_winner,
            luck_zero=luck_zero,
            next_round_leader=next_round_leader,
            round_team=round_team,
            laurels_after=laurels_after,
            game_over=game_over,
        )

    def discards(self, in_play: Term, win: Term) -> tuple[tuple[Term, ...], Term, Term, Term]:
        """What leaves play (rules file 000, "How a Bout Is Resolved"): the winning card and
        what the effects discard, all at once, but Fear unless it wins. Each effect's pick,
        every card an effect asks to discard, the winning card discarded (0 if it is kept),
        and every card discarded."""
        o, deck = self.o, self.deck
        picks = self.effect_picks(in_play, win)
        hits = o.union(picks, self.zero_card)
        swept = o.union(
            (p for e, p in zip(deck.end_effects, picks, strict=True)
             if e.effect == Effect.DISCARD_ALL),
            self.zero_card,
        )
        fear = deck.effect(Effect.FEAR)
        # Fear: "This card can never be discarded, except if it wins the bout. Ignore any
        # effect that asks you to discard Fear"
        shield = o.If(self.bk(Broken.FEAR_UNPROTECTED), self.zero_card, o.card(fear) & ~win)
        against_all = o.If(self.bk(Broken.FEAR_ONLY_VS_EXTREMES), self.zero_card, shield)
        kept_winner = o.Or(
            self.bk(Broken.WINNER_KEPT),
            o.And(win & fear != 0, self.bk(Broken.FEAR_KEPT_WHEN_WINNING)),
        )
        gone_win = o.If(kept_winner, self.zero_card, win)
        discarded = gone_win | (hits & ~shield) | (swept & ~against_all)
        discarded = discarded | o.If(o.And(win == 0, in_play != 0), in_play, self.zero_card)
        return picks, hits, gone_win, discarded

    def end_exchanges(
        self,
        s: State,
        in_play: Term,
        owners: Sequence[Term],
        hands: tuple[Term, ...],
        *,
        exact: bool,
    ) -> tuple[tuple[Term, ...], list[tuple[Term, Term, Term, Term, Term]]]:
        """The exchanges of the Absolutes at the end of the bout (option ``absolute_timing =
        end``), one by one in play order: the hands after them and each exchange's record.
        ``exact=False``: any hands they can leave (:meth:`keeps_hands`), and no records."""
        o, opt = self.o, self.opt
        records = []
        at_end = opt(AbsoluteTiming.END)
        exchanged = hands
        if exact:
            for j, card in enumerate(self.in_play_order(s, in_play)):
                is_abs = o.And(at_end, card != 0)
                exchanged, record = self.end_exchange(j, exchanged, is_abs, owners, card)
                records.append(record)
        else:
            exchanged = tuple(self.choose.card(-8, f"exchanged[{i + 1}]") for i in SEATS)
            self.rule(self.keeps_hands(hands, exchanged), "what the exchanges keep")
        return exchanged, records

    def round_end(
        self, hands: tuple[Term, ...], luck_seat: Term, pick: Term, next_leader: Term, pride: Term
    ) -> tuple[Term, Term, Term]:
        """Rules file 000, "End of a Round" and "Luck": who wins the round with the hands after
        the bout (a player left with 0 cards by Luck; option ``zero_cards``; the highest single
        card), whether Luck's 0 cards won it, and who leads next (option
        ``pride_next_round``)."""
        o, opt = self.o, self.opt
        table = self.inputs.table
        luck_zero = o.And(
            pick != 0, self.hand_of(hands, luck_seat) == 0, o.Not(self.bk(Broken.LUCK_ZERO_LOSES))
        )
        empty = (
            o.union(
                (o.If(h == 0, o.seats(SEAT[i]), self.zero_seat) for i, h in enumerate(hands)),
                self.zero_seat,
            )
            & table
        )
        zero_wins = o.And(opt(ZeroCards.ANY), empty != 0)
        singles = [o.single(h) for h in hands]
        top = o.highest(
            o.union(
                (o.If(one, h, self.zero_card) for one, h in zip(singles, hands, strict=True)),
                self.zero_card,
            )
        )
        best = o.union(
            (
                o.If(o.And(one, h & top != 0), o.seats(SEAT[i]), self.zero_seat)
                for i, (one, h) in enumerate(zip(singles, hands, strict=True))
            ),
            self.zero_seat,
        )
        round_winner = o.If(
            luck_zero, luck_seat, o.If(zero_wins, o.first_from(empty, next_leader), best)
        )
        # option pride_next_round (O13): ``unless_luck`` keeps Pride's choice unless Luck made
        # a player discard a card from hand in this bout, ``unless_luck_discarded`` unless
        # Luck was discarded in this bout
        keep_pride = o.And(
            pride,
            o.Or(
                opt(PrideNextRound.YES),
                o.And(opt(PrideNextRound.UNLESS_LUCK), pick == 0),
                o.And(opt(PrideNextRound.UNLESS_LUCK_DISCARDED), luck_seat == 0),
                self.bk(Broken.PRIDE_OVER_ROUND),
            ),
        )
        next_round_leader = o.If(
            o.And(round_winner != 0, o.Not(keep_pride)), round_winner, next_leader
        )
        return round_winner, luck_zero, next_round_leader

    def keeps_hands(self, before: Sequence[Term], after: Sequence[Term]) -> Term:
        """What an exchange of The Absolute at the end of the bout keeps, from hands that
        share no card: still no card in two hands, the same cards in the hands, no hand
        emptied (and so, one exchange after another, what all of them keep)."""
        o = self.o

        def disjoint(masks: Sequence[Term]) -> Term:
            return o.all_of(a & b == 0 for k, a in enumerate(masks) for b in masks[k + 1 :])

        return o.Implies(
            disjoint(before),
            o.And(
                disjoint(after),
                o.union(after, self.zero_card) == o.union(before, self.zero_card),
                *[(a == 0) == (b == 0) for a, b in zip(after, before, strict=True)],
            ),
        )

    def end_exchange(
        self, j: int, hands: tuple[Term, ...], is_abs: Term, owners: Sequence[Term], card: Term
    ) -> tuple[tuple[Term, ...], tuple[Term, Term, Term, Term, Term]]:
        """The exchange of The Absolute ``card``, the ``j``-th in play order, at the end of the
        bout (``is_abs``: it is one and acts now; rules file 000, "The Absolute": "Exchange a
        card from your hand with the player of your choice"): the hands after it, and
        ``(acts, owner, partner, give, get)``."""
        o = self.o
        who = self.where(owners, card)
        mine = self.hand_of(hands, who)
        partners = self.inputs.table & self.holders(hands) & ~who
        acts = o.And(is_abs, mine != 0, partners != 0)
        partner = self.choose.seat(-2 - j, "partner")
        give = self.choose.card(-2 - j, "give")
        get = self.choose.card(-2 - j, "get")
        theirs = self.hand_of(hands, partner)
        self.rule(
            o.If(
                acts,
                o.And(o.pick(partner, partners), o.pick(give, mine), o.pick(get, theirs)),
                o.And(partner == 0, give == 0, get == 0),
            ),
            "end absolute",
        )
        after = tuple(
            o.If(
                acts,
                o.If(
                    who == SEAT[i],
                    (h & ~give) | get,
                    o.If(partner == SEAT[i], (h & ~get) | give, h),
                ),
                h,
            )
            for i, h in enumerate(hands)
        )
        return after, (acts, o.If(acts, who, self.zero_seat), partner, give, get)

    def game_end(self, round_winner: Term) -> tuple[Term, Term, Term]:
        """Rules file 000, "End of a Round / End of the Game": the players of the team that
        won the round turn their Player Aids to the laurel side; "when a team wins 2 rounds
        (they won a round when their Player Aid cards were already on the side with the
        laurel leaves), they win the game". The round winner's team, the laurels after, and
        whether the game is over."""
        o = self.o
        # "all the players on the team that won the round": those whose team holds its winner
        team = o.union(
            (
                o.If(mates & round_winner != 0, o.seats(SEAT[s]), self.zero_seat)
                for s, mates in enumerate(self.inputs.mates)
            ),
            self.zero_seat,
        )
        gains = o.If(self.bk(Broken.ROUND_FOR_WINNER_ONLY), round_winner, team)
        laurels = self.inputs.laurels
        game_over = o.And(
            round_winner != 0, o.Or(gains & laurels != 0, self.bk(Broken.GAME_AFTER_ONE_ROUND))
        )
        return team, laurels | gains, game_over

    def team_facts(self) -> list[Term]:
        """Well-formed teams (rules file 000, "Setup": "Teams will not change members"): every
        seated player is in exactly one team, their own; a Player Aid shows the laurel for a
        whole team or for none of it."""
        o, inputs = self.o, self.inputs
        table, mates, laurels = inputs.table, inputs.mates, inputs.laurels
        facts = [laurels & ~table == 0]
        for s, team in enumerate(mates):
            seated = table & SEAT[s] != 0
            joined = [o.Implies(team & SEAT[t] != 0, mates[t] == team) for t in SEATS if t != s]
            facts.append(
                o.If(seated, o.And(team & SEAT[s] != 0, team & ~table == 0, *joined), team == 0)
            )
            facts.append(o.Implies(laurels & SEAT[s] != 0, team & ~laurels == 0))
        return facts


def play_bout(
    o: Ops, deck: Deck, options: Options, inputs: Inputs, choices: Choices, steps: int
) -> BoutTrace:
    """The bout from ``inputs``, at most ``steps`` placements (see the module doc)."""
    bout = BoutMachine(o, deck, options, inputs, choices)
    state = bout.start()
    records = []
    for k in range(steps):
        state, record = bout.step(k, state)
        records.append(record)
        if state.done is True:  # a concrete bout that is over: the other steps do nothing
            break
    end = bout.finish(state)
    return BoutTrace(inputs, tuple(records), end, tuple(bout.legal), tuple(bout.team_facts()))
