"""Monitors for the bounded exhaustive checks: each one a reading of the rule text that
watches the engine play (see :mod:`~omen_solver.omens.proofs.enumeration.walk`).

They do not ask the engine what the rule is: the Law monitor, for instance, follows where Law
lies and which direction its player chose from the moves themselves, and works out from the
rulebook which cards a player may place; the engine's legal moves must be exactly those.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from omen_solver.omens.actions import Verb
from omen_solver.omens.proofs.enumeration.walk import (
    Monitor,
    Move,
    Resolved,
    Space,
    Transform,
    deals,
    rebuild,
)
from omen_solver.omens.rules import (
    AbsoluteTiming,
    BetrayalGiveBack,
    LawAfterJealousy,
    LawBinds,
    WrathReplay,
)
from omen_solver.omens.state import OmensState, Phase
from omen_solver.omens.table import Placement
from omen_solver.omens.vocabulary import ChoiceWord, Effect, PendingKind, law_word

__all__ = [
    "ConservationMonitor",
    "LawMonitor",
    "ResolutionMonitor",
    "RoundMonitor",
    "law_against",
    "law_restored_after",
]


@dataclass(frozen=True)
class _Law:
    """What the Law monitor remembers within a bout."""

    bout: int
    card: int
    """Law's value while it lies in play (0 when it does not)."""
    direction: int
    """+1 "higher", -1 "lower", 0 no constraint (not chosen yet, or ended)."""
    left: bool
    """Law was in play this bout and was sent back or taken, and has not been placed again."""


LAW = 15
_LAW_POOL = (4, 9, 20, 21, 26, 32)
"""Calm 4 and Lie 9 (below Law), Harmony 20, Dream 21, Sadness 26, The Absolute 32 (above)."""


def law_against(card: int, name: str) -> Space:
    """The deals of the theorems about a card that removes Law from play (Wrath, Betrayal):
    seat 1 holds Law, another seat holds ``card``, the pool fills the rest."""
    layouts = [{0: [LAW], seat: [card]} for seat in (1, 2, 3)]
    return Space(
        description=f"4 players, seat 1 leads, 2 cards in every hand; seat 1 holds Law ({LAW}), "
        f"seat 2, 3 or 4 holds {name} ({card}); the other six cards are Calm 4, Lie 9, Harmony "
        "20, Dream 21, Sadness 26 and The Absolute 32, dealt every possible way; every legal "
        "sequence of moves to the end of the bout, default options",
        deals=deals(4, layouts, _LAW_POOL, 2),
    )


def law_restored_after(verb: str) -> Transform:
    """A broken rule: after a move that removes Law from play with ``verb`` (Wrath's
    ``return``, Betrayal's ``take``), Law's constraint is put back."""

    def restore(
        before: OmensState, move: Move, after: OmensState, resolved: Resolved
    ) -> OmensState:
        del resolved
        for action in move:
            if action.choice[:2] == (verb, LAW) and before.law is not None:
                return rebuild(after, law=before.law)
        return after

    return restore


def _follow(cards: Sequence[int], law: int, direction: int) -> list[int]:
    return [card for card in cards if (card > law if direction > 0 else card < law)]


def _describe(memo: _Law) -> str:
    if memo.card and memo.direction:
        return f"Law lies in play: {law_word(memo.direction)} than {memo.card}"
    if memo.card:
        return "Law lies in play with no direction chosen"
    return "Law has left play" if memo.left else "Law is not in play"


class LawMonitor(Monitor):
    """Law's constraint, read from the rulebook (rules file 000, "Law", "Wrath",
    "Betrayal"): while Law lies in play with a chosen direction, every card placed from a hand
    ("Everyone must, if possible, play a card lower or higher": ``binds = "every_placement"``,
    or only normal turns with ``"turns_only"``) must follow it if the hand has such a card,
    else any card may be placed; once Law is sent back or taken, nothing is
    constrained for the rest of the bout. At every decision, the cards the engine lets a player
    place (and give with Betrayal) must be exactly these. ``mode`` says where to look: after
    Law left play (``left``) or while it lies in play (``in_play``)."""

    def __init__(self, mode: str, *, binds: LawBinds = LawBinds.EVERY_PLACEMENT) -> None:
        super().__init__()
        if mode not in ("left", "in_play"):
            raise ValueError(f"LawMonitor: mode {mode!r} is neither 'left' nor 'in_play'")
        self.mode = mode
        self.binds = binds
        self.law_cards: frozenset[int] = frozenset()

    def start(self, state: OmensState) -> Hashable:
        self.law_cards = frozenset(state.table.catalogue.with_effect(Effect.LAW))
        self.rules = state.table.rules
        return _Law(state.bouts_played, 0, 0, False)

    def step(
        self,
        memo: Hashable,
        before: OmensState,
        move: Move,
        after: OmensState,
        resolved: Sequence[tuple[Placement, ...]],
    ) -> tuple[Hashable, str | None]:
        assert isinstance(memo, _Law)
        if after.bouts_played != memo.bout:
            return _Law(after.bouts_played, 0, 0, False), None
        lying = [p.card for p in after.in_play if p.card in self.law_cards]
        card = lying[0] if lying else 0
        direction, left = memo.direction, memo.left
        if memo.card and not card:
            direction, left = 0, True
        elif card and not memo.card:
            direction, left = 0, False
        for action in move:
            if action.card in self.law_cards and action.choice[:1] in (
                    (ChoiceWord.HIGHER,), (ChoiceWord.LOWER,)):
                direction = 1 if action.choice[0] == ChoiceWord.HIGHER else -1
            if (
                action.choice[:1] == (ChoiceWord.SWAP,)
                and action.choice[1] in self.law_cards
                and self.rules.law_after_jealousy == LawAfterJealousy.ENDS
            ):
                direction = 0
        return _Law(memo.bout, card, direction if card else 0, left), None

    def _watching(self, memo: _Law) -> bool:
        if self.mode == "left":
            return memo.left
        return bool(memo.card and memo.direction)

    def visit(self, state: OmensState, memo: Hashable) -> str | None:
        assert isinstance(memo, _Law)
        seat = state.current_player()
        if seat < 0:
            return None
        legal = state.legal_actions()
        problem = None
        if self._watching(memo):
            problem = self._placements(state, memo, seat, legal)
        return problem or self._gifts(state, memo, seat, legal)

    def _binds(self, memo: _Law, turn: bool) -> bool:
        if not (memo.card and memo.direction):
            return False
        return turn or self.binds is LawBinds.EVERY_PLACEMENT

    def _placements(
        self, state: OmensState, memo: _Law, seat: int, legal: Sequence[Any]
    ) -> str | None:
        placed = {a.card for a in legal if a.verb is Verb.PLAY}
        if not placed:
            return None
        kind = state.pending[-1][0] if state.pending else "turn"
        hand = list(state.hands[seat])
        candidates = hand
        if kind == PendingKind.REPLAY and self.rules.wrath_replay == WrathReplay.FORBIDDEN:
            returned = state.pending[-1][2]
            candidates = [c for c in hand if c != returned] or hand
        expected = candidates
        if self._binds(memo, kind == "turn"):
            expected = _follow(candidates, memo.card, memo.direction) or candidates
        self.tally["placements checked"] += 1
        if placed != set(expected):
            return (
                f"seat {seat + 1} may place {sorted(placed)}, but the rules allow "
                f"{sorted(expected)} ({_describe(memo)})"
            )
        return None

    def _gifts(self, state: OmensState, memo: _Law, seat: int, legal: Sequence[Any]) -> str | None:
        """Betrayal's gift: 'play a card from your hand in front of that person'; taking Law
        ends its constraint, so the gift is free then."""
        offered: dict[tuple[int, int], set[int]] = {}
        for action in legal:
            if action.choice[:1] == (ChoiceWord.TAKE,):
                offered.setdefault((action.card, int(action.choice[1])), set()).add(
                    int(action.choice[2])
                )
        for (betrayal, taken), given in offered.items():
            takes_law = taken in self.law_cards
            if self.mode == "left" and not (memo.left or takes_law):
                continue
            if self.mode == "in_play" and (takes_law or not self._watching(memo)):
                continue
            hand = [c for c in state.hands[seat] if c != betrayal] + [taken]
            if self.rules.betrayal_give_back == BetrayalGiveBack.FORBIDDEN:
                hand.remove(taken)
            expected = hand
            if not takes_law and self._binds(memo, turn=False):
                expected = _follow(hand, memo.card, memo.direction) or hand
            self.tally["Betrayal gifts checked"] += 1
            if given != set(expected):
                return (
                    f"seat {seat + 1} taking {taken} with Betrayal may give {sorted(given)}, but "
                    f"the rules allow {sorted(expected)}"
                )
        return None


class ConservationMonitor(Monitor):
    """No card is lost or duplicated: in every state reached, every card of the catalogue is
    in exactly one place (a hand, in play, the discard pile, the box or the deck)."""

    def start(self, state: OmensState) -> Hashable:
        self.cards = sorted(state.table.catalogue)
        return 0

    def visit(self, state: OmensState, memo: Hashable) -> str | None:
        self.tally["states checked"] += 1
        places = state.all_cards()
        seen = sorted(card for cards in places.values() for card in cards)
        if seen == self.cards:
            return None
        lost = sorted(set(self.cards) - set(seen))
        twice = sorted({card for card in seen if seen.count(card) > 1})
        return f"cards lost: {lost}; cards in two places: {twice}"


@dataclass(frozen=True)
class _Bout:
    sizes: tuple[int, ...]
    """Hand sizes at the start of the bout."""
    front: tuple[Placement, ...] | None
    """The cards in play when the bout was resolved (until the bout is over)."""
    luck: tuple[int, int] | None
    """(seat, card) discarded by Luck."""


class ResolutionMonitor(Monitor):
    """The end of every bout, checked once the bout is over (Luck's discard and the cards'
    return included). ``returns``: every card in play that was not discarded is back in the
    hand of the player it lay in front of, and in no other hand (rules file 000, "Game
    Sequence"; omens-cards.md clarifications). ``shape``: when the bout was resolved, every
    player who held cards at its start had exactly one card in front of them and still held
    a card (the premise of theorem round-progress)."""

    def __init__(self, *, returns: bool = False, shape: bool = False) -> None:
        super().__init__()
        self.returns = returns
        self.shape = shape

    def start(self, state: OmensState) -> Hashable:
        return _Bout(tuple(len(hand) for hand in state.hands), None, None)

    def step(
        self,
        memo: Hashable,
        before: OmensState,
        move: Move,
        after: OmensState,
        resolved: Sequence[tuple[Placement, ...]],
    ) -> tuple[Hashable, str | None]:
        assert isinstance(memo, _Bout)
        front = resolved[-1] if resolved else memo.front
        luck = memo.luck
        for action in move:
            if action.verb is Verb.DISCARDS:
                luck = (action.seat, action.card)
        if front is None:
            return memo, None
        if after.phase == Phase.END and not after.is_terminal():
            return _Bout(memo.sizes, front, luck), None
        problem = self._check(memo.sizes, front, luck, after)
        return _Bout(tuple(len(hand) for hand in after.hands), None, None), problem

    def _check(
        self,
        sizes: tuple[int, ...],
        front: tuple[Placement, ...],
        luck: tuple[int, int] | None,
        after: OmensState,
    ) -> str | None:
        summary = after.last_bout
        assert summary is not None
        gone = set(summary.discarded)
        kept = [p for p in front if p.card not in gone]
        self.tally["bouts checked"] += 1
        if self.returns and after.table.rules.absolute_timing == AbsoluteTiming.NOW:
            for p in kept:
                holders = [s for s, hand in enumerate(after.hands) if p.card in hand]
                if holders != [p.before]:
                    where = ", ".join(f"seat {s + 1}" for s in holders) or "no hand"
                    return (
                        f"{p.card} lay in front of seat {p.before + 1} (placed by seat "
                        f"{p.by + 1}) and was not discarded, but it is in {where}"
                    )
        if self.shape:
            for seat, size in enumerate(sizes):
                if not size:
                    continue
                lying = [p.card for p in front if p.before == seat]
                back = sum(1 for p in kept if p.before == seat)
                mid = len(after.hands[seat]) - back + (1 if luck and luck[0] == seat else 0)
                if len(lying) != 1 or mid < 1:
                    return (
                        f"when the bout was resolved seat {seat + 1} had {len(lying)} card(s) "
                        f"in front of it ({lying}) and {mid} in hand"
                    )
        return None


@dataclass(frozen=True)
class _Round:
    bouts: int
    bound: int


class RoundMonitor(Monitor):
    """Every round ends, within h_1 + ... + h_P - 2P + 1 bouts for hands of h_1..h_P cards at
    its start (theorem round-progress), with exactly one winning team (rules file 000, "End of
    a Round"; "Goal of the Game")."""

    def start(self, state: OmensState) -> Hashable:
        players = state.table.players
        total = sum(len(hand) for hand in state.hands)
        return _Round(0, total - 2 * players + 1)

    def step(
        self,
        memo: Hashable,
        before: OmensState,
        move: Move,
        after: OmensState,
        resolved: Sequence[tuple[Placement, ...]],
    ) -> tuple[Hashable, str | None]:
        assert isinstance(memo, _Round)
        if not resolved:
            return memo, None
        bouts = memo.bouts + len(resolved)
        self.tally["bouts played"] += len(resolved)
        self.longest = max(self.longest, bouts)
        if bouts > memo.bound:
            return memo, f"bout {bouts} was played, beyond the bound of {memo.bound} bouts"
        return _Round(bouts, memo.bound), None

    def finish(self, state: OmensState, memo: Hashable) -> str | None:
        self.tally["rounds finished"] += 1
        if state.winning_team() is None:
            return "the round ended with no winning team"
        return None
