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
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Placement
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
        return BoutTrack(tuple(placed), pride, self.rules), features


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
            elif set(hand) == {_FEAR}:
                found.add("scene:luck-nothing-to-discard:only-fear")
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
    bout, features = bout.after(before, move)
    rules = {step.rule for step in trace}
    features |= {f"rule:{rule}" for rule in rules}
    features |= _law_scenes(before, move) | _choice_scenes(move)
    players = before.num_players()
    exchange = _exchange_target(move)
    if exchange is not None:
        table_rules = before.table.rules
        same = before.team_of(exchange[0]) == before.team_of(exchange[1])
        features.add(
            f"absolute:{table_rules.absolute_timing}:{table_rules.absolute_exchange}:"
            f"{RELATIONS[0 if same else 1]}"
        )
    bout = BoutTrack(bout.placed, bout.pride, bout.rules | rules)
    summary = after.last_bout
    if summary is not None and summary is not before.last_bout:
        features |= _bout_end_scenes(before, move, after, rules, bout)
        for rule, kind in ROUND_ENDS.items():
            if rule in rules:
                features.add(f"round_end:{kind}:{players}p")
        if summary.round_winner is not None:
            team = after.teams()[after.team_of(summary.round_winner)]
            features.add(f"team_win:{players}p:{len(team)}")
        bout = BoutTrack()
    return bout, features
