"""The coverage features of an Omens line of play: what a vector shows an engine, as short
stable keys (docs/vectors.md, "How the vectors are mined").

A line's features are computed step by step from the state before each step, the move and the
state after it (:func:`step_features`), following the bout in progress (:class:`BoutTrack`):

- ``pair:X>Y:partners|opponents``: effect X placed before effect Y in one bout, at least one
  of them immediate ("now"), by partners or by opponents;
- ``placement:X>Y:Z@P``: the same ordered pair with its immediate card Z (X or Y; both when
  both are) placed at P, relative to the players still to play: ``first`` (the bout's first
  card), ``middle`` (two or more still to play), ``second-to-last`` (one), ``last`` (none);
- ``scene:...``: the hands that make a rule matter (Law with the players after it holding
  cards on both sides of 15, or none that follow; Betrayal taking and giving each immediate
  card; Wrath returning each; Jealousy moving Law, Fear and Luck; Luck discarded when its
  player has nothing to discard; Pride and Luck in the bout that ends a round; the round-end
  tie between players left with one card, and Luck's zero over them);
- ``situation:...``: the situations in which engines go wrong, each crossed with the effects
  that touch it (:data:`SITUATIONS`): a hand of only Fear, of one card or empty when an effect
  takes from it, gives to it or shows from it; Law taken, given, given back, sent back,
  moved, replayed or placed through Dream, with several players, one or nobody left to play,
  and each kind of placement Law binds, from a hand with cards on both sides of it (and the
  gift of a Betrayal that took Law, which it no longer binds); every effect in the bout that
  ends a round and in the one that ends the game; Pride, Luck and the round end together, by
  what Luck did; the round-end tie between players left with one card and Luck's zero over
  them; each immediate card placed first, last, with one player left to play, and when the
  turn has passed the last seat (seat 1 next, several players or one still to play);
- ``rule:ID``, ``round_end:KIND:Np``, ``team_win:Np:SIZE``, ``absolute:TIMING:EXCHANGE:REL``;
- ``chain:A>B>C...``: three immediate cards or more placed in one bout, in that order (no
  fixed total: what random lines find).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from omen_solver.core.game import TraceStep
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.resolve import owner
from omen_solver.omens.rules import BetrayalGiveBack, WrathReplay
from omen_solver.omens.state import DREAM, REPLAY, OmensState
from omen_solver.omens.table import Placement, Scope
from omen_solver.omens.vocabulary import ChoiceWord, Effect, law_word

__all__ = [
    "ABSOLUTE",
    "EFFECTS",
    "IMPOSSIBLE_PLACEMENTS",
    "NOW_EFFECTS",
    "PLACEMENTS",
    "RELATIONS",
    "ROUND_ENDS",
    "SCENES",
    "SITUATIONS",
    "BoutTrack",
    "effect_name",
    "effect_pairs",
    "impossible_placements",
    "placement_features",
    "possible_placements",
    "step_features",
]

_CATALOGUE = default_catalogue()
ABSOLUTE: Final = "the-absolute"
RELATIONS: Final = ("partners", "opponents")
PLACEMENTS: Final = ("first", "middle", "second-to-last", "last")
ROUND_ENDS: Final = {
    "round.end.one_card": "one_card",
    "round.end.highest_single": "tie",
    "round.end.luck_zero": "luck_zero",
    "round.continue": "continue",
}
"""Kinds of bout end, by the rule id that decides them (``tie``: several players hold one card
and the highest single card wins)."""
_FEAR, _LUCK, _LAW, _PRIDE = 12, 13, 15, 22


def effect_name(card: int) -> str | None:
    """The effect a card stands for in the coverage: each card its own, the six Absolutes
    one; Malice (no effect) none."""
    entry = _CATALOGUE[card]
    if entry.effect == Effect.NONE:
        return None
    if entry.effect == Effect.ABSOLUTE:
        return ABSOLUTE
    return entry.name.lower()


NOW_EFFECTS: Final = frozenset(
    name for card, entry in _CATALOGUE.items() if entry.is_now and (name := effect_name(card))
)
EFFECTS: Final = tuple(dict.fromkeys(n for c in _CATALOGUE if (n := effect_name(c))))
_MOVING: Final = frozenset({Effect.WRATH, Effect.BETRAYAL})
"""The immediate effects after which a card is placed even when nobody is left to play
(Wrath's replacement, Betrayal's gift)."""


def effect_pairs() -> frozenset[str]:
    """Every ordered pair of different effects, at least one of them immediate ("now"), placed
    in the same bout by partners or by opponents."""
    return frozenset(
        f"pair:{first}>{second}:{relation}"
        for first, second in itertools.permutations(EFFECTS, 2)
        if first in NOW_EFFECTS or second in NOW_EFFECTS
        for relation in RELATIONS
    )


def placement_features() -> frozenset[str]:
    """Every ordered pair with each of its immediate cards at each placement."""
    return frozenset(
        f"placement:{first}>{second}:{now}@{where}"
        for first, second in itertools.permutations(EFFECTS, 2)
        for now in (first, second) if now in NOW_EFFECTS
        for where in PLACEMENTS
    )


_SECOND_FIRST: Final = "the second card of a pair placed first"
_FIRST_LAST: Final = "the first card of a pair placed last, unless it is Wrath or Betrayal"
IMPOSSIBLE_PLACEMENTS: Final = {
    _SECOND_FIRST: "the first card of a bout is placed before every other: a card placed "
    "after another in the same bout is never the bout's first",
    _FIRST_LAST: "once the last player has placed a card nobody places another, except the "
    "player Wrath sends a card back to (who plays another) and Betrayal's gift; so an "
    "immediate card placed last is followed by another only if it is Wrath or Betrayal",
}
"""The kinds of placement feature no line of play can have, and why."""


def _impossible(feature: str) -> str | None:
    """Which kind of :data:`IMPOSSIBLE_PLACEMENTS` a placement feature is, if any."""
    pair, rest = feature.removeprefix("placement:").split(":")
    first, second = pair.split(">")
    now, where = rest.split("@")
    if now == second and where == "first":
        return _SECOND_FIRST
    if now == first and where == "last" and first not in _MOVING:
        return _FIRST_LAST
    return None


def possible_placements() -> frozenset[str]:
    return frozenset(f for f in placement_features() if _impossible(f) is None)


def impossible_placements() -> dict[str, list[str]]:
    """The impossible placement features by their kind (a key of
    :data:`IMPOSSIBLE_PLACEMENTS`)."""
    found: dict[str, list[str]] = {}
    for feature in sorted(placement_features()):
        what = _impossible(feature)
        if what is not None:
            found.setdefault(what, []).append(feature)
    return found


_TAKEN: Final = tuple(sorted(NOW_EFFECTS - {Effect.BETRAYAL}))
_RETURNED: Final = tuple(sorted(NOW_EFFECTS - {Effect.WRATH}))
SCENES: Final = frozenset(
    [f"scene:law:{d}:{h}" for d in (ChoiceWord.HIGHER, ChoiceWord.LOWER)
     for h in ("both-sides", "cannot-follow")]
    + [f"scene:betrayal-{verb}:{e}" for verb in ("takes", "gives") for e in _TAKEN]
    + [f"scene:wrath-returns:{e}" for e in _RETURNED]
    + [f"scene:jealousy-moves:{e}" for e in (Effect.LAW, Effect.FEAR, Effect.LUCK)]
    + [f"scene:luck-nothing-to-discard:{h}" for h in ("empty-hand", "only-fear")]
    + [f"scene:round-end:{c}" for c in (Effect.PRIDE, Effect.LUCK, "pride-and-luck")]
    + ["scene:round-end:tie-one-card", "scene:round-end:luck-zero-over-one"]
)
"""The hands that make a rule matter (see the module's docstring)."""


HAND_KINDS: Final = ("only-fear", "one-card", "empty")
HAND_EFFECTS: Final = (
    Effect.BETRAYAL, Effect.DREAM, Effect.LUCK, Effect.SECRET, "the-absolute", Effect.WRATH
)
"""The effects that take a card from a hand, put one into it or show one from it: Betrayal's
player (the hand it takes into and gives from), Dream's target (who places from it), Luck's
player (who discards from it), the hand Secret shows from, both hands of The Absolute's
exchange, and the hand Wrath sends a card back to."""
LAW_EVENTS: Final = ("taken", "given", "given-back", "returned", "moved", "replayed",
                     "dream-placed")
"""What happens to Law in play: Betrayal takes it, gives it (a card it did not take), gives it
back (the card it took), Wrath sends it back, Jealousy swaps with it, Wrath's player replays
it, Dream's target places it."""
LEFT: Final = ("several-left", "one-left", "nobody-left")
"""How many players are still to play (a normal turn) right after."""
UNDER_LAW: Final = ("turn", "dream-placement", "wrath-replay", "betrayal-gift",
                    "betrayal-gift-law-taken")
"""The kinds of placement made while Law's constraint stands (option ``law_binds``), each
counted where the constraint decides something: the cards the placement may come from lie on
both sides of Law's value (some follow it, some do not). ``betrayal-gift-law-taken``: the gift
of a Betrayal that took Law, which its constraint no longer binds (rules 000, "Betrayal")."""
WRAPS: Final = ("turn", "dream-placement", "betrayal-gift")
"""An immediate card placed when the turn has passed the last seat (right after it, seat 1,
who did not lead, is the next to play), by each kind of placement: a turn, Dream's target
(whose card Dream's player resolves), Betrayal's gift (which the player it is given to
resolves). Dream's target cannot place Dream, nor Betrayal give Betrayal (one card each)."""
LUCK_WITH_PRIDE: Final = ("discards", "nothing-to-discard", "zero", "not-discarded")
"""What Luck does in a bout with Pride that ends the round: its player discards a card (and
keeps some), has nothing to discard (only Fear), discards its last card (0 cards win the
round), or Luck stays in play."""
SITUATIONS: Final = frozenset(
    [f"situation:hand-{kind}:{effect}" for kind in HAND_KINDS for effect in HAND_EFFECTS]
    + [f"situation:law-{event}:{left}" for event in LAW_EVENTS for left in LEFT]
    + [f"situation:under-law:{kind}" for kind in UNDER_LAW]
    + [f"situation:wraps:{effect}:{kind}" for effect in NOW_EFFECTS for kind in WRAPS
       if (effect, kind) not in ((Effect.DREAM, WRAPS[1]), (Effect.BETRAYAL, WRAPS[2]))]
    + [f"situation:ends-{what}:{effect}" for what in ("round", "game") for effect in EFFECTS]
    + [f"situation:pride-luck-round-end:{what}" for what in LUCK_WITH_PRIDE]
    + [f"situation:tie-one-card:{what}" for what in ("partners", "opponents", Effect.FEAR)]
    + [f"situation:luck-zero:{what}" for what in ("over-one-card", "over-several")]
    + [f"situation:{where}:{effect}" for where in ("first", "last", "one-left")
       for effect in NOW_EFFECTS]
)
"""The situations dimension (see the module's docstring)."""


def _placement(before: OmensState, seat: int, first: bool) -> str:
    """Where a card placed by ``seat`` stands relative to the players still to play."""
    if first:
        return "first"
    still = sum(
        1 for other in range(before.num_players())
        if other != seat and not before.played_this_bout(other) and before.hands[other]
    )
    return {0: "last", 1: "second-to-last"}.get(still, "middle")


def _placed(before: OmensState, move: Sequence[OmensAction]) -> Iterator[Placement]:
    """The cards a move puts into play, in order, as placements (the card, the seat it lies in
    front of, the seat that placed it): a card played (in front of the Dream player by Dream's
    target), and Betrayal's gift (in front of the player its card was taken from)."""
    for action in move:
        choice = action.choice
        if action.verb is Verb.PLAY:
            dream = _CATALOGUE[action.card].effect == Effect.DREAM
            before_seat = action.to if action.to >= 0 and not dream else action.seat
            yield Placement(action.card, before_seat, action.seat)
        if action.verb in (Verb.PLAY, Verb.RESOLVE) and choice and choice[0] == ChoiceWord.TAKE:
            taken = next((p for p in before.in_play if p.card == int(choice[1])), None)
            person = taken.before if taken is not None else action.seat
            yield Placement(int(choice[2]), person, action.seat)


@dataclass(frozen=True)
class BoutTrack:
    """The placements of the bout in progress along a line of play: (effect, placing seat,
    placement) in the order they were made, and whether Pride was placed."""

    placed: tuple[tuple[str, int, str], ...] = ()
    pride: bool = False
    rules: frozenset[str] = frozenset()
    law_watch: frozenset[str] = frozenset()
    """Law situations waiting to be seen (:func:`_law_seen`)."""

    def after(self, before: OmensState, move: Sequence[OmensAction]
              ) -> tuple[BoutTrack, set[str]]:
        features: set[str] = set()
        placed = list(self.placed)
        pride = self.pride
        first = not before.in_play and not placed
        for card, _, seat in _placed(before, move):
            pride = pride or card == _PRIDE
            name = effect_name(card)
            where = _placement(before, seat, first)
            first = False
            if name is None:
                continue
            for earlier, by, earlier_where in placed:
                if earlier == name or not (earlier in NOW_EFFECTS or name in NOW_EFFECTS):
                    continue
                same = before.team_of(by) == before.team_of(seat)
                features.add(f"pair:{earlier}>{name}:{RELATIONS[0 if same else 1]}")
                if earlier in NOW_EFFECTS:
                    features.add(f"placement:{earlier}>{name}:{earlier}@{earlier_where}")
                if name in NOW_EFFECTS:
                    features.add(f"placement:{earlier}>{name}:{name}@{where}")
            placed.append((name, seat, where))
        chain = [name for name, _, _ in placed if name in NOW_EFFECTS]
        if len(chain) >= 3 and len(chain) > len([n for n, _, _ in self.placed
                                                   if n in NOW_EFFECTS]):
            features.add(f"chain:{'>'.join(chain)}")
        return BoutTrack(tuple(placed), pride, self.rules, self.law_watch), features


def _exchange_target(move: Sequence[OmensAction]) -> tuple[int, int] | None:
    """(player, target) when the move starts an Absolute's exchange."""
    for action in move:
        choice = action.choice
        if action.verb in (Verb.PLAY, Verb.RESOLVE) and choice and choice[0] == ChoiceWord.WITH:
            return action.seat, int(choice[1])
    return None


def _law_scenes(before: OmensState, move: Sequence[OmensAction]) -> set[str]:
    """A card placed from hand while Law's constraint stands: the hand it came from."""
    law = before.law
    if law is None:
        return set()
    value, direction = law
    side = law_word(direction)
    found = set()
    for action in move:
        if action.verb is not Verb.PLAY or action.card not in before.hands[action.seat]:
            continue
        hand = before.hands[action.seat]
        if any(c > value for c in hand) and any(c < value for c in hand):
            found.add(f"scene:law:{side}:both-sides")
        if not any((c > value) if direction > 0 else (c < value) for c in hand):
            found.add(f"scene:law:{side}:cannot-follow")
    return found


def _choice_scenes(move: Sequence[OmensAction]) -> set[str]:
    found = set()
    for action in move:
        choice = action.choice
        if action.verb not in (Verb.PLAY, Verb.RESOLVE) or not choice:
            continue
        keyword = choice[0]
        if keyword == ChoiceWord.TAKE:
            for verb, card in (("takes", int(choice[1])), ("gives", int(choice[2]))):
                name = effect_name(card)
                if name in _TAKEN:
                    found.add(f"scene:betrayal-{verb}:{name}")
        elif keyword == ChoiceWord.RETURN:
            name = effect_name(int(choice[1]))
            if name in _RETURNED:
                found.add(f"scene:wrath-returns:{name}")
        elif keyword == ChoiceWord.SWAP and int(choice[1]) in (_LAW, _FEAR, _LUCK):
            found.add(f"scene:jealousy-moves:{effect_name(int(choice[1]))}")
    return found


def _luck_owner(before: OmensState, move: Sequence[OmensAction]) -> int | None:
    """Whose card Luck is, if it is in play at the end of this step's bout."""
    for placement in (*before.in_play, *_placed(before, move)):
        if placement.card == _LUCK:
            return owner(placement, before.table)
    return None


def _bout_end_scenes(before: OmensState, move: Sequence[OmensAction], after: OmensState,
                     rules: set[str], bout: BoutTrack) -> set[str]:
    summary = after.last_bout
    assert summary is not None
    found = set()
    luck = _LUCK in summary.discarded
    if luck and not any(action.verb is Verb.DISCARDS for action in move):
        seat = _luck_owner(before, move)
        if seat is not None:
            hand = summary.hands[seat]
            if not hand:
                found.add("scene:luck-nothing-to-discard:empty-hand")
                found.add("situation:hand-empty:luck")
            elif set(hand) == {_FEAR}:
                found.add("scene:luck-nothing-to-discard:only-fear")
                found.add("situation:hand-only-fear:luck")
    if summary.round_winner is not None:
        if bout.pride:
            found.add("scene:round-end:pride")
        if luck:
            found.add("scene:round-end:luck")
        if bout.pride and luck:
            found.add("scene:round-end:pride-and-luck")
    if "round.end.highest_single" in rules:
        found.add("scene:round-end:tie-one-card")
    if "round.end.luck_zero" in rules and any(len(h) == 1 for h in summary.hands):
        found.add("scene:round-end:luck-zero-over-one")
    return found


def step_features(
    before: OmensState,
    move: Sequence[OmensAction],
    after: OmensState,
    trace: Sequence[TraceStep],
    bout: BoutTrack,
) -> tuple[BoutTrack, set[str]]:
    """The features one step brings (resolver lines aside), and the bout after it."""
    features = _placement_situations(before, move)
    bout, placed = bout.after(before, move)
    features |= placed
    rules = {step.rule for step in trace}
    features |= {f"rule:{rule}" for rule in rules}
    features |= _law_scenes(before, move) | _choice_scenes(move)
    features |= _hand_situations(before, move)
    features |= _wrap_situations(before, move, after)
    seen = _law_seen(before, move, bout.law_watch)
    features |= seen
    watch = bout.law_watch - seen
    for feature in _law_situations(before, move, after):
        if feature.startswith(_WATCHED) and not feature.endswith(LEFT[2]):
            watch |= {feature}
        else:
            features.add(feature)
    players = before.num_players()
    exchange = _exchange_target(move)
    if exchange is not None:
        table_rules = before.table.rules
        same = before.team_of(exchange[0]) == before.team_of(exchange[1])
        features.add(
            f"absolute:{table_rules.absolute_timing}:{table_rules.absolute_exchange}:"
            f"{RELATIONS[0 if same else 1]}"
        )
    bout = BoutTrack(bout.placed, bout.pride, bout.rules | rules, frozenset(watch))
    summary = after.last_bout
    if summary is not None and summary is not before.last_bout:
        features |= _bout_end_scenes(before, move, after, rules, bout)
        features |= _end_situations(move, after, rules, bout)
        for rule, kind in ROUND_ENDS.items():
            if rule in rules:
                features.add(f"round_end:{kind}:{players}p")
        if summary.round_winner is not None:
            team = after.teams()[after.team_of(summary.round_winner)]
            features.add(f"team_win:{players}p:{len(team)}")
        bout = BoutTrack()
    return bout, features


# ---------------------------------------------------------------------------------------------
# Situations
# ---------------------------------------------------------------------------------------------


def _hand_kind(hand: Sequence[int]) -> str | None:
    if not hand:
        return "empty"
    if len(hand) == 1:
        return "only-fear" if hand[0] == _FEAR else "one-card"
    return None


def _left(before: OmensState, after: OmensState) -> str:
    """How many players are still to play a normal turn right after a step (none once the
    step has ended the bout)."""
    if after.last_bout is not before.last_bout or after.is_terminal():
        return LEFT[2]
    count = sum(1 for seat in range(after.num_players())
                if not after.played_this_bout(seat) and after.hands[seat])
    return {0: LEFT[2], 1: LEFT[1]}.get(count, LEFT[0])


def _hand_situations(before: OmensState, move: Sequence[OmensAction]) -> set[str]:
    """The hands effects take from, give to or show from, as they are when the effect acts."""
    found: set[str] = set()

    def touch(effect: str, hand: Sequence[int]) -> None:
        kind = _hand_kind(hand)
        if kind is not None:
            found.add(f"situation:hand-{kind}:{effect}")

    hands = before.hands
    for action in move:
        verb, seat, choice = action.verb, action.seat, action.choice
        own = [c for c in hands[seat] if not (verb is Verb.PLAY and c == action.card)]
        if verb is Verb.GIVES:
            touch(ABSOLUTE, hands[seat])
        elif verb is Verb.DISCARDS:
            touch(Effect.LUCK, hands[seat])
        elif (verb is Verb.PLAY and action.to >= 0
              and _CATALOGUE[action.card].effect == Effect.DREAM):
            touch(Effect.DREAM, hands[action.to])
        if verb not in (Verb.PLAY, Verb.RESOLVE) or not choice:
            continue
        keyword = choice[0]
        if keyword == ChoiceWord.TAKE:
            touch(Effect.BETRAYAL, own)
        elif keyword == ChoiceWord.ASK:
            touch(Effect.SECRET, hands[int(choice[1])])
        elif keyword == ChoiceWord.SHOW:
            touch(Effect.SECRET, own)
        elif keyword == ChoiceWord.RETURN:
            returned = int(choice[1])
            where = next((p.before for p in before.in_play if p.card == returned), None)
            if where is not None:
                touch(Effect.WRATH, hands[where])
    return found


def _law_situations(before: OmensState, move: Sequence[OmensAction],
                    after: OmensState) -> set[str]:
    """What happens to Law in play, and how many players are still to play right after."""
    events: set[str] = set()
    pending = before.pending[-1][0] if before.pending else None
    for action in move:
        choice = action.choice
        if action.verb is Verb.PLAY and action.card == _LAW:
            if pending == REPLAY:
                events.add("replayed")
            elif pending == DREAM:
                events.add("dream-placed")
        if action.verb is Verb.PLAY and before.law is not None:
            kinds = {str(REPLAY): "wrath-replay", str(DREAM): "dream-placement"}
            kind = kinds.get(str(pending), "turn")
            hand = list(before.hands[action.seat])
            if pending == REPLAY and before.table.rules.wrath_replay == WrathReplay.FORBIDDEN:
                hand = [card for card in hand if card != before.pending[-1][2]]
            if _both_sides(hand, before.law[0]):
                events.add(f"under:{kind}")
        if action.verb not in (Verb.PLAY, Verb.RESOLVE) or not choice:
            continue
        keyword = choice[0]
        if keyword == ChoiceWord.TAKE:
            taken, given = int(choice[1]), int(choice[2])
            if taken == _LAW:
                events.add("given-back" if given == _LAW else "taken")
            elif given == _LAW:
                events.add("given")
            if before.law is not None:
                hand = [*(c for c in before.hands[action.seat]
                          if not (action.verb is Verb.PLAY and c == action.card)), taken]
                if before.table.rules.betrayal_give_back == BetrayalGiveBack.FORBIDDEN:
                    hand.remove(taken)
                if _both_sides(hand, before.law[0]):
                    events.add("under:betrayal-gift" if taken != before.law[0]
                               else "under:betrayal-gift-law-taken")
        elif keyword == ChoiceWord.RETURN and int(choice[1]) == _LAW:
            events.add("returned")
        elif keyword == ChoiceWord.SWAP and int(choice[1]) == _LAW:
            events.add("moved")
    left = _left(before, after)
    return {f"situation:under-law:{e.removeprefix('under:')}" if e.startswith("under:")
            else f"situation:law-{e}:{left}" for e in events}


def _both_sides(hand: Sequence[int], value: int) -> bool:
    """Cards on both sides of Law's value: its constraint decides which may be placed."""
    return any(card > value for card in hand) and any(card < value for card in hand)


def _wrap_situations(before: OmensState, move: Sequence[OmensAction],
                     after: OmensState) -> set[str]:
    """Each immediate card placed when the turn has passed the last seat: right after, the
    bout goes on and seat 1, who did not lead it, is the next to play; by the kind of
    placement (:data:`WRAPS`)."""
    if after.last_bout is not before.last_bout or after.is_terminal() or after.leader == 0:
        return set()
    players = after.num_players()
    waiting = [seat for seat in ((after.leader + step) % players for step in range(players))
               if not after.played_this_bout(seat) and after.hands[seat]]
    if not waiting or waiting[0] != 0:
        return set()
    pending = before.pending[-1][0] if before.pending else None
    placed: list[tuple[int, str]] = []
    for action in move:
        if action.verb is Verb.PLAY and pending != REPLAY:
            placed.append((action.card, WRAPS[1] if pending == DREAM else WRAPS[0]))
        choice = action.choice
        if action.verb in (Verb.PLAY, Verb.RESOLVE) and choice and choice[0] == ChoiceWord.TAKE:
            placed.append((int(choice[2]), WRAPS[2]))
    return {f"situation:wraps:{name}:{kind}" for card, kind in placed
            if (name := effect_name(card)) in NOW_EFFECTS}


_WATCHED: Final = tuple(f"situation:law-{event}:" for event in ("taken", "returned", "moved"))
"""Law leaving play or moving with players still to play matters only when one of them is
bound, or no longer bound, in a way their hand shows: such a situation counts once a later
card is placed from a hand holding cards on both sides of Law's value."""


def _law_seen(before: OmensState, move: Sequence[OmensAction], watch: frozenset[str]
              ) -> set[str]:
    """The watched Law situations this step shows: a card placed from a hand with cards on
    both sides of Law (15)."""
    if not watch:
        return set()
    for action in move:
        if action.verb is Verb.PLAY and action.card in before.hands[action.seat]:
            hand = before.hands[action.seat]
        elif action.verb in (Verb.PLAY, Verb.RESOLVE) and action.choice and \
                action.choice[0] == ChoiceWord.TAKE:
            hand = (*before.hands[action.seat], int(action.choice[1]))
        else:
            continue
        if any(card > _LAW for card in hand) and any(card < _LAW for card in hand):
            return set(watch)
    return set()


def _placement_situations(before: OmensState, move: Sequence[OmensAction]) -> set[str]:
    """Each immediate card placed first, last, or with one player left to play."""
    found = set()
    first = not before.in_play and not any(
        before.played_this_bout(seat) for seat in range(before.num_players()))
    where_name = {"first": "first", "last": "last", "second-to-last": "one-left"}
    for card, _, seat in _placed(before, move):
        name = effect_name(card)
        where = _placement(before, seat, first)
        first = False
        if name in NOW_EFFECTS and where in where_name:
            found.add(f"situation:{where_name[where]}:{name}")
    return found


def _end_situations(move: Sequence[OmensAction], after: OmensState, rules: set[str],
                    bout: BoutTrack) -> set[str]:
    """The bout that ends a round or the game (every effect placed in it), Pride and Luck
    with the round end, the one-card tie and Luck's zero."""
    summary = after.last_bout
    assert summary is not None
    found: set[str] = set()
    if summary.round_winner is None:
        return found
    effects = {name for name, _, _ in bout.placed}
    game_over = after.is_terminal() and after.table.scope is Scope.GAME
    for effect in effects:
        found.add(f"situation:ends-round:{effect}")
        if game_over:
            found.add(f"situation:ends-game:{effect}")
    if bout.pride and Effect.LUCK in effects:
        if _LUCK not in summary.discarded:
            luck = "not-discarded"
        elif "round.end.luck_zero" in rules:
            luck = "zero"
        elif any(action.verb is Verb.DISCARDS for action in move):
            luck = "discards"
        else:
            luck = "nothing-to-discard"
        found.add(f"situation:pride-luck-round-end:{luck}")
    singles = [seat for seat, hand in enumerate(summary.hands) if len(hand) == 1]
    if "round.end.highest_single" in rules:
        teams = {after.team_of(seat) for seat in singles}
        found.add(f"situation:tie-one-card:{'partners' if len(teams) == 1 else 'opponents'}")
        if any(summary.hands[seat][0] == _FEAR for seat in singles):
            found.add("situation:tie-one-card:fear")
    if "round.end.luck_zero" in rules and singles:
        found.add(f"situation:luck-zero:{'over-one-card' if len(singles) == 1 else 'over-several'}")
    return found
