"""The Omens rules on integers: the pure-Python search kernel.

Every function here mirrors one of :mod:`omen_solver.omens.state` (the explaining engine, which
cites the rulebook for each step) and :mod:`omen_solver.omens.resolve`, on a compact state:

* a hand is an ``int`` bit set of card ranks (:mod:`~omen_solver.omens.kernel.spec`);
* a card in play is one ``int``: ``rank | before << 6 | by << 9``;
* Law's constraint is ``-1`` or ``rank << 1 | higher``;
* a pending obligation is a tuple ``(kind, seat, a, b)`` as in the engine, with cards as ranks;
* an action is one ``int`` whose order is the engine's order of legal actions
  (:func:`encode`), so that both list the same actions in the same order.

The kernel keeps no trace, no discard pile and no history: only what decides how play goes on.
The end of a bout is a pure function of the cards in play and the leader, so it is memoised
(:meth:`Machine.resolve`). The compiled kernel (``_ckernel``) is a C transcription of this
module; tests compare both with the engine state by state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from omen_solver.omens.kernel.spec import (
    C_EFFECT_IN_PLAY,
    C_LOWEST,
    C_NO_OTHER_OF_COLOUR,
    C_OTHER_OF_COLOUR,
    E_ABSOLUTE,
    E_ALL,
    E_BETRAYAL,
    E_DREAM,
    E_EXTREME,
    E_JEALOUSY,
    E_LAW,
    E_LUCK,
    E_MIRROR,
    E_PRIDE,
    E_SADNESS,
    E_SECRET,
    E_SELF_IF,
    E_WRATH,
    SCOPE_BOUT,
    SCOPE_ROUND,
    Spec,
)

__all__ = ["KState", "Machine", "decode", "encode"]

# Phases (as in the engine).
BOUT: Final = 1
END: Final = 2
OVER: Final = 3

# Pending obligations (the engine's kinds).
P_DREAM, P_REPLAY, P_RESOLVE, P_SHOW, P_EXCHANGE, P_GIVE, P_GIVE_BACK, P_LUCK, P_END_ABS = range(9)

# End-of-bout stages.
S_LUCK_BEFORE, S_RETURN, S_LUCK_AFTER, S_EXCHANGES, S_CHECK = range(5)

# Who acts (as in omen_solver.core.game).
CHANCE: Final = -1
SIMULTANEOUS: Final = -2
TERMINAL: Final = -4

# Verbs (omen_solver.omens.actions.Verb) and choice kinds, in the engine's sort order
# (choices sort by keyword: ask < higher < lower < return < show < swap < take < with).
V_PLAY, V_RESOLVE, V_SHOWS, V_GIVES, V_DISCARDS = range(5)
CK_NONE, CK_ASK, CK_HIGHER, CK_LOWER, CK_RETURN, CK_SHOW, CK_SWAP, CK_TAKE, CK_WITH = range(9)


def encode(verb: int, seat: int, card: int, to: int = -1, ck: int = 0, c1: int = 0,
           c2: int = 0) -> int:
    """One action as an ``int``; integer order is the engine's order of legal actions."""
    return verb << 28 | seat << 25 | card << 19 | (to + 1) << 16 | ck << 12 | c1 << 6 | c2


def decode(move: int) -> tuple[int, int, int, int, int, int, int]:
    """``(verb, seat, card, to, choice kind, c1, c2)`` of an encoded action."""
    return (
        move >> 28,
        move >> 25 & 7,
        move >> 19 & 63,
        (move >> 16 & 7) - 1,
        move >> 12 & 15,
        move >> 6 & 63,
        move & 63,
    )


Choice = tuple[int, int, int]
Outcome = tuple[int, int, int, int, int, int]
"""The end of a bout: (winning rank or -1, winner seat or -1, discarded ranks, Luck's seat or
-1, next leader, 1 if Pride chose the next leader else 0)."""


def _place(rank: int, before: int, by: int) -> int:
    return rank | before << 6 | by << 9


class KState:
    """A kernel state. Treated as immutable once built; :meth:`key` identifies it."""

    __slots__ = (
        "end_abs",
        "front",
        "hands",
        "law",
        "leader",
        "outcome",
        "pending",
        "phase",
        "played",
        "stages",
        "victim",
        "winner",
        "won",
    )

    phase: int
    hands: list[int]
    front: list[int]
    played: int
    leader: int
    law: int
    pending: list[tuple[int, int, int, int]]
    stages: list[int]
    outcome: Outcome | None
    victim: int
    end_abs: tuple[tuple[int, int], ...]
    won: list[int]
    winner: int

    def copy(self) -> KState:
        new = KState.__new__(KState)
        new.phase = self.phase
        new.hands = list(self.hands)
        new.front = list(self.front)
        new.played = self.played
        new.leader = self.leader
        new.law = self.law
        new.pending = list(self.pending)
        new.stages = list(self.stages)
        new.outcome = self.outcome
        new.victim = self.victim
        new.end_abs = self.end_abs
        new.won = list(self.won)
        new.winner = self.winner
        return new

    def key(self) -> tuple[object, ...]:
        """Equal for two states exactly when play goes on identically (the engine's key,
        on the kernel's fields)."""
        outcome = self.outcome
        return (
            self.phase,
            tuple(self.hands),
            tuple(self.front),
            self.played,
            self.leader,
            self.law,
            tuple(self.pending),
            tuple(self.stages),
            None if outcome is None else outcome[1:],
            self.victim,
            self.end_abs,
            tuple(self.won),
            self.winner,
        )


class Machine:
    """The rules of one compiled table: legal actions, successors, the end of a bout."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.players = spec.players
        self.memo: dict[tuple[tuple[int, ...], int], Outcome] = {}

    # -- construction ----------------------------------------------------------------------

    def start_of_bout(self, hands: Sequence[int], leader: int, won: Sequence[int]) -> KState:
        state = KState.__new__(KState)
        state.hands = list(hands)
        state.won = list(won)
        state.winner = -1
        self._reset_bout(state, leader)
        self._advance(state)
        return state

    # -- who acts --------------------------------------------------------------------------

    def next_to_play(self, hands: Sequence[int], played: int, leader: int) -> int:
        """The next seat clockwise from the leader that has not played and holds a card."""
        players = self.players
        for step in range(players):
            seat = (leader + step) % players
            if not played >> seat & 1 and hands[seat]:
                return seat
        return -1

    def current_player(self, state: KState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.pending:
            kind, seat, _, _ = state.pending[-1]
            if kind == P_EXCHANGE:
                return SIMULTANEOUS
            if kind == P_LUCK and self.spec.luck_random:
                return CHANCE
            return seat
        return self.next_to_play(state.hands, state.played, state.leader)

    def acting_players(self, state: KState) -> tuple[int, ...]:
        if state.pending and state.pending[-1][0] == P_EXCHANGE:
            _, player, target, _ = state.pending[-1]
            return (player, target)
        player = self.current_player(state)
        return (player,) if player >= 0 else ()

    # -- rules asked by both move generation and moving --------------------------------------

    def law_filter(self, law: int, candidates: int, turn: bool) -> int:
        """Law's constraint: follow it if the cards allow, else play freely."""
        spec = self.spec
        if law < 0 or not (turn or not spec.law_turns_only):
            return candidates
        rank = law >> 1
        bound = spec.above(rank) if law & 1 else spec.below(rank)
        following = candidates & bound
        return following or candidates

    def now_choices(
        self,
        card: int,
        resolver: int,
        lies_before: int,
        hands: Sequence[int],
        front: Sequence[int],
        law: int,
        nobody_left: bool,
    ) -> list[Choice]:
        """Every choice of an immediate effect, with ``card`` already in play (empty: the
        effect cannot apply)."""
        spec = self.spec
        effect = spec.effect[card]
        if effect == E_LAW:
            if nobody_left and spec.law_skip_when_last:
                return []
            return [(CK_HIGHER, 0, 0), (CK_LOWER, 0, 0)]
        if effect == E_WRATH:
            return [
                (CK_RETURN, p & 63, 0)
                for p in front
                if p >> 6 & 7 != resolver and p & 63 != card
            ]
        if effect == E_JEALOUSY:
            own = not spec.jealousy_own_forbidden
            return [
                (CK_SWAP, p & 63, 0)
                for p in front
                if p & 63 != card and (own or p >> 6 & 7 != lies_before)
            ]
        if effect == E_BETRAYAL:
            return self._betrayal_choices(card, resolver, hands, front, law)
        if effect == E_SECRET:
            choices: list[Choice] = []
            mine = _ranks(hands[resolver])
            for seat in range(self.players):
                if seat == resolver:
                    continue
                if hands[seat]:
                    choices.append((CK_ASK, seat, 0))
                choices.extend((CK_SHOW, seat, shown) for shown in mine)
            return choices
        if effect == E_ABSOLUTE and spec.now_mask >> card & 1:
            if not hands[resolver]:
                return []
            return [
                (CK_WITH, seat, 0)
                for seat in range(self.players)
                if seat != resolver and hands[seat]
            ]
        return []

    def _betrayal_choices(
        self, card: int, resolver: int, hands: Sequence[int], front: Sequence[int], law: int
    ) -> list[Choice]:
        """Take a card from in front of another player, then give one from the hand; taking
        Law ends its constraint before the gift is chosen."""
        choices: list[Choice] = []
        for placement in front:
            taken = placement & 63
            if placement >> 6 & 7 == resolver or taken == card:
                continue
            hand = hands[resolver] | 1 << taken
            if self.spec.give_back_forbidden:
                hand &= ~(1 << taken)
            remaining = -1 if law >= 0 and law >> 1 == taken else law
            for given in _ranks(self.law_filter(remaining, hand, False)):
                choices.append((CK_TAKE, taken, given))
        return choices

    def pending_choices(self, state: KState, top: tuple[int, int, int, int]) -> list[Choice]:
        """The choices of a RESOLVE or END_ABSOLUTE obligation."""
        kind, seat, card, _ = top
        hands = state.hands
        if kind == P_END_ABS:
            if not hands[seat]:
                return []
            return [
                (CK_WITH, other, 0)
                for other in range(self.players)
                if other != seat and hands[other]
            ]
        before = next(p >> 6 & 7 for p in state.front if p & 63 == card)
        nobody_left = self.next_to_play(hands, state.played, state.leader) == -1
        return self.now_choices(card, seat, before, hands, state.front, state.law, nobody_left)

    # -- legal actions ----------------------------------------------------------------------

    def legal(self, state: KState, player: int | None = None) -> list[int]:
        """The legal actions, sorted as the engine sorts them."""
        moves: list[int] = []
        if state.phase == OVER:
            return moves
        if not state.pending:
            seat = self.next_to_play(state.hands, state.played, state.leader)
            self._play_actions(state, seat, -1, moves)
            moves.sort()
            return moves
        top = state.pending[-1]
        kind, seat, a, _ = top
        if kind == P_EXCHANGE:
            if player is None or player not in (seat, a):
                raise ValueError("a simultaneous exchange: ask for the moves of one player")
            moves = [encode(V_GIVES, player, c) for c in _ranks(state.hands[player])]
        elif kind == P_DREAM:
            self._dream_placements(state, seat, a, moves)
        elif kind == P_REPLAY:
            self._play_actions(state, seat, a, moves)
        elif kind in (P_RESOLVE, P_END_ABS):
            moves = [
                encode(V_RESOLVE, seat, a, -1, *choice)
                for choice in self.pending_choices(state, top)
            ]
        elif kind in (P_SHOW, P_GIVE, P_GIVE_BACK):
            verb = V_SHOWS if kind == P_SHOW else V_GIVES
            moves = [encode(verb, seat, c) for c in _ranks(state.hands[seat])]
        else:  # P_LUCK: the owner's choice, or the outcomes of the chance node
            moves = [encode(V_DISCARDS, seat, c) for c in self.luck_options(state.hands[seat])]
        moves.sort()
        return moves

    def luck_options(self, hand: int) -> list[int]:
        """Luck's discard: any card of the hand but Fear."""
        return _ranks(hand & ~self.spec.fear_mask)

    def _play_actions(self, state: KState, seat: int, exclude: int, moves: list[int]) -> None:
        """Cards ``seat`` may play in front of themselves: a turn (``exclude`` -1) or Wrath's
        replacement (``exclude`` is the card sent back)."""
        spec = self.spec
        hand = state.hands[seat]
        candidates = hand
        if exclude >= 0 and not spec.wrath_replay_allowed:
            candidates = (hand & ~(1 << exclude)) or hand
        for card in _ranks(self.law_filter(state.law, candidates, exclude < 0)):
            if spec.effect[card] == E_DREAM:
                moves.append(encode(V_PLAY, seat, card))
                for target in range(self.players):
                    if target != seat and not state.played >> target & 1 and state.hands[target]:
                        moves.append(encode(V_PLAY, seat, card, target))
                continue
            self._with_choices(state, seat, card, seat, moves)

    def _dream_placements(self, state: KState, target: int, dreamer: int, moves: list[int]) -> None:
        """Dream's target places a card from hand in front of the Dream player."""
        spec = self.spec
        for card in _ranks(self.law_filter(state.law, state.hands[target], False)):
            if spec.resolver_placer and spec.effect[card] != E_DREAM:
                self._with_choices(state, target, card, dreamer, moves)
            else:
                moves.append(encode(V_PLAY, target, card, dreamer))

    def _with_choices(
        self, state: KState, seat: int, card: int, before: int, moves: list[int]
    ) -> None:
        """Play ``card`` from ``seat`` in front of ``before``, once per choice of its effect."""
        to = -1 if before == seat else before
        if not self.spec.now_mask >> card & 1:
            moves.append(encode(V_PLAY, seat, card, to))
            return
        hands = list(state.hands)
        hands[seat] &= ~(1 << card)
        front = [*state.front, _place(card, before, seat)]
        played = state.played
        top = state.pending[-1][0] if state.pending else -1
        if top < 0 or (top == P_DREAM and not self.spec.dream_plays_again):
            played |= 1 << seat
        nobody_left = self.next_to_play(hands, played, state.leader) == -1
        choices = self.now_choices(card, seat, before, hands, front, state.law, nobody_left)
        if not choices:
            moves.append(encode(V_PLAY, seat, card, to))
        for choice in choices:
            moves.append(encode(V_PLAY, seat, card, to, *choice))

    def chance_outcomes(self, state: KState) -> list[int]:
        """The outcomes of Luck's random discard, equally likely."""
        seat = state.pending[-1][1]
        return [encode(V_DISCARDS, seat, c) for c in self.luck_options(state.hands[seat])]

    # -- moving -----------------------------------------------------------------------------

    def child(self, state: KState, move: int) -> KState:
        """The successor after one action (not checked for legality: the caller's moves come
        from :meth:`legal`)."""
        work = state.copy()
        verb, seat, card, to, ck, c1, c2 = decode(move)
        if verb == V_PLAY:
            self._play(work, seat, card, to, ck, c1, c2)
        elif verb == V_RESOLVE:
            self._resolve_pending(work, ck, c1, c2)
        elif verb == V_SHOWS:
            work.pending.pop()
        elif verb == V_GIVES:
            self._give(work, card)
        else:
            self._luck_discard(work, card)
        self._advance(work)
        return work

    def joint_child(self, state: KState, moves: Sequence[int]) -> KState:
        """The successor of The Absolute's secret exchange: one gift per acting player."""
        work = state.copy()
        _, player, target, _ = work.pending.pop()
        gifts = {move >> 25 & 7: move >> 19 & 63 for move in moves}
        self._swap_cards(work, player, gifts[player], target, gifts[target])
        self._advance(work)
        return work

    def _play(
        self, work: KState, seat: int, card: int, to: int, ck: int, c1: int, c2: int
    ) -> None:
        """Place a card from hand: a turn, Dream's placement, or Wrath's replacement."""
        spec = self.spec
        kind = work.pending.pop()[0] if work.pending else -1
        work.hands[seat] &= ~(1 << card)
        before = seat if to < 0 else to
        work.front.append(_place(card, before, seat))
        if kind < 0 or (kind == P_DREAM and not spec.dream_plays_again):
            work.played |= 1 << seat
        if spec.effect[card] == E_DREAM and kind != P_DREAM:
            if to >= 0:
                work.pending.append((P_DREAM, to, seat, 0))
            return
        if not spec.now_mask >> card & 1:
            return
        resolver = seat if spec.resolver_placer else before
        if resolver == seat:
            self._resolve_now(work, card, seat, ck, c1, c2)
        else:
            work.pending.append((P_RESOLVE, resolver, card, 0))

    def _resolve_pending(self, work: KState, ck: int, c1: int, c2: int) -> None:
        kind, seat, card, _ = work.pending.pop()
        if kind == P_END_ABS:
            self._start_exchange(work, seat, c1)
            return
        self._resolve_now(work, card, seat, ck, c1, c2)

    def _resolve_now(
        self, work: KState, card: int, resolver: int, ck: int, c1: int, c2: int
    ) -> None:
        """Apply the chosen immediate effect of ``card``."""
        if ck in (CK_NONE, CK_SHOW):
            return
        if ck == CK_HIGHER:
            work.law = card << 1 | 1
        elif ck == CK_LOWER:
            work.law = card << 1
        elif ck == CK_RETURN:
            self._wrath(work, c1)
        elif ck == CK_TAKE:
            self._betrayal(work, resolver, c1, c2)
        elif ck == CK_SWAP:
            self._jealousy(work, card, c1)
        elif ck == CK_ASK:
            work.pending.append((P_SHOW, c1, resolver, 0))
        else:  # CK_WITH
            self._start_exchange(work, resolver, c1)

    def _remove_from_play(self, work: KState, card: int) -> int:
        """Take a card out of play; Law leaving play ends its constraint."""
        for index, placement in enumerate(work.front):
            if placement & 63 == card:
                del work.front[index]
                if work.law >= 0 and work.law >> 1 == card:
                    work.law = -1
                return placement
        raise AssertionError(f"rank {card} is not in play")  # pragma: no cover

    def _wrath(self, work: KState, returned: int) -> None:
        """The card goes back to the hand of the player it lies in front of, who must play
        another card."""
        placement = self._remove_from_play(work, returned)
        before = placement >> 6 & 7
        work.hands[before] |= 1 << returned
        work.pending.append((P_REPLAY, before, returned, 0))

    def _betrayal(self, work: KState, resolver: int, taken: int, given: int) -> None:
        """Take a card into hand and play one in its place, resolved by the player it lies in
        front of (option ``now_resolver``)."""
        spec = self.spec
        placement = self._remove_from_play(work, taken)
        work.hands[resolver] |= 1 << taken
        work.hands[resolver] &= ~(1 << given)
        victim = placement >> 6 & 7
        work.front.append(_place(given, victim, resolver))
        if spec.now_mask >> given & 1 and spec.effect[given] != E_DREAM:
            chooser = resolver if spec.resolver_placer else victim
            work.pending.append((P_RESOLVE, chooser, given, 0))

    def _jealousy(self, work: KState, card: int, other: int) -> None:
        """The two cards swap places; the card taken is not resolved again."""
        front = work.front
        i = next(n for n, p in enumerate(front) if p & 63 == card)
        j = next(n for n, p in enumerate(front) if p & 63 == other)
        mine, theirs = front[i], front[j]
        front[i] = (mine & ~(7 << 6)) | (theirs & (7 << 6))
        front[j] = (theirs & ~(7 << 6)) | (mine & (7 << 6))
        law = work.law
        if law >= 0 and law >> 1 in (card, other) and self.spec.law_ends_on_jealousy:
            work.law = -1

    def _start_exchange(self, work: KState, player: int, target: int) -> None:
        kind = P_GIVE if self.spec.exchange_open else P_EXCHANGE
        work.pending.append((kind, player, target, 0))

    def _give(self, work: KState, card: int) -> None:
        """The open exchange: the Absolute's player gives first, the target answers."""
        kind, seat, other, offered = work.pending.pop()
        if kind == P_GIVE:
            work.pending.append((P_GIVE_BACK, other, seat, card))
            return
        self._swap_cards(work, other, offered, seat, card)

    def _swap_cards(self, work: KState, a: int, card_a: int, b: int, card_b: int) -> None:
        hands = work.hands
        hands[a] = (hands[a] & ~(1 << card_a)) | 1 << card_b
        hands[b] = (hands[b] & ~(1 << card_b)) | 1 << card_a

    def _luck_discard(self, work: KState, card: int) -> None:
        """Luck: discard a card from hand, never Fear."""
        _, seat, _, _ = work.pending.pop()
        work.hands[seat] &= ~(1 << card)
        work.victim = seat << 6 | card

    # -- automatic steps ---------------------------------------------------------------------

    def _advance(self, work: KState) -> None:
        """Run every step that needs no decision, until a decision or chance (or the end)."""
        while True:
            phase = work.phase
            if phase == BOUT:
                self._drop_void_pending(work)
                if work.pending or self.next_to_play(work.hands, work.played, work.leader) >= 0:
                    return
                self._start_end_of_bout(work)
            elif phase == END:
                self._drop_void_pending(work)
                if work.pending:
                    return
                stage = work.stages.pop(0)
                if stage == S_RETURN:
                    self._stage_return(work)
                elif stage == S_EXCHANGES:
                    for card, seat in reversed(work.end_abs):
                        work.pending.append((P_END_ABS, seat, card, 0))
                    work.end_abs = ()
                elif stage == S_CHECK:
                    self._stage_check(work)
                else:
                    self._stage_luck(work)
            else:
                return

    def _drop_void_pending(self, work: KState) -> None:
        """An obligation whose effect cannot apply does nothing."""
        pending = work.pending
        while pending and pending[-1][0] in (P_RESOLVE, P_END_ABS):
            if self.pending_choices(work, pending[-1]):
                return
            pending.pop()

    def _start_end_of_bout(self, work: KState) -> None:
        """Everyone has played: the winner and the discards, then the stages in order."""
        spec = self.spec
        if not work.front:
            work.phase = OVER
            work.winner = -1
            return
        outcome = self.resolve(tuple(work.front), work.leader)
        if spec.absolute_end:
            work.end_abs = tuple(
                (p & 63, self.owner(p))
                for p in work.front
                if spec.effect[p & 63] == E_ABSOLUTE
            )
        discarded = outcome[2]
        work.front = [p for p in work.front if not discarded >> (p & 63) & 1]
        work.outcome = outcome
        work.victim = -1
        stages = [S_RETURN, S_LUCK_AFTER] if spec.luck_after_return else [S_LUCK_BEFORE, S_RETURN]
        if work.end_abs:
            stages.append(S_EXCHANGES)
        stages.append(S_CHECK)
        work.stages = stages
        work.phase = END

    def _stage_luck(self, work: KState) -> None:
        """If Luck was discarded, the player it lay in front of discards a card from hand."""
        assert work.outcome is not None
        seat = work.outcome[3]
        if seat >= 0 and work.hands[seat] & ~self.spec.fear_mask:
            work.pending.append((P_LUCK, seat, 0, 0))

    def _stage_return(self, work: KState) -> None:
        """Cards not discarded go back to hand (option ``return_to``)."""
        placer = self.spec.return_placer
        for placement in work.front:
            seat = placement >> 9 & 7 if placer else placement >> 6 & 7
            work.hands[seat] |= 1 << (placement & 63)
        work.front = []

    def round_winner(self, work: KState) -> int:
        """Luck's 0 cards first, then (option ``zero_cards``) any 0 cards, then the highest
        single card; -1 if nobody wins the round."""
        hands = work.hands
        victim = work.victim
        if victim >= 0 and not hands[victim >> 6]:
            return victim >> 6
        assert work.outcome is not None
        players = self.players
        if self.spec.zero_any:
            start = work.outcome[4]
            for step in range(players):
                seat = (start + step) % players
                if not hands[seat]:
                    return seat
        best, best_card = -1, -1
        for seat in range(players):
            hand = hands[seat]
            if hand and not hand & (hand - 1) and hand > best_card:
                best, best_card = seat, hand
        return best

    def _stage_check(self, work: KState) -> None:
        """The end of the bout: round end, game end, or the next bout."""
        spec = self.spec
        outcome = work.outcome
        assert outcome is not None
        winner = self.round_winner(work)
        if spec.scope == SCOPE_BOUT:
            work.phase = OVER
            work.winner = outcome[1]
            return
        if winner < 0:
            self._reset_bout(work, outcome[4])
            if not any(work.hands):
                work.phase = OVER
                work.winner = -1
            return
        work.won[spec.team_of[winner]] += 1
        if spec.scope == SCOPE_ROUND or work.won[spec.team_of[winner]] >= 2:
            work.phase = OVER
            work.winner = winner
            return
        raise AssertionError("the kernel plays game scope through GameKernel")  # pragma: no cover

    def next_round_leader(self, state: KState) -> int:
        """Who leads the next round after ``state`` ended one: the round winner, unless
        Pride's choice holds across the round end (option ``pride_next_round``; ``unless_luck``:
        not when a card was discarded from hand because of Luck in that bout;
        ``unless_luck_discarded``: not when Luck was discarded in that bout)."""
        outcome = state.outcome
        setting = self.spec.pride_next_round
        if outcome is not None and outcome[5] and (
            setting == 1
            or (setting == 2 and state.victim < 0)
            or (setting == 3 and outcome[3] < 0)
        ):
            return outcome[4]
        return state.winner

    def _reset_bout(self, work: KState, leader: int) -> None:
        work.phase = BOUT
        work.leader = leader
        work.played = 0
        work.law = -1
        work.front = []
        work.pending = []
        work.stages = []
        work.outcome = None
        work.victim = -1
        work.end_abs = ()

    # -- the end of a bout -------------------------------------------------------------------

    def owner(self, placement: int) -> int:
        """Whose card it is for winning, Pride and Luck (option ``card_owner``)."""
        return placement >> 9 & 7 if self.spec.owner_placer else placement >> 6 & 7

    def resolve(self, front: tuple[int, ...], leader: int) -> Outcome:
        """The end of a bout, memoised on the cards in play (who placed them, where they lie)
        and the leader."""
        key = (front, leader)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._resolve(front, leader)
        return found

    def _resolve(self, front: tuple[int, ...], leader: int) -> Outcome:
        spec = self.spec
        cards = 0
        for placement in front:
            cards |= 1 << (placement & 63)
        winning = self._winning_card(cards)
        by_card = {p & 63: p for p in front}
        winner = -1 if winning < 0 else self.owner(by_card[winning])
        discarded = 0 if winning < 0 else 1 << winning
        fear = spec.fear_mask
        for source in _ranks(cards):
            targets = self._effect_discards(source, cards)
            if winning >= 0:
                targets &= ~(fear & ~(1 << winning))
            else:
                targets &= ~fear
            discarded |= targets
        if winning < 0:
            discarded |= cards
        luck_seat = -1
        lucky = discarded & spec.effect_mask[E_LUCK]
        if lucky:
            luck_seat = self.owner(by_card[lucky.bit_length() - 1])
        next_leader = leader if winner < 0 else winner
        pride = 0
        for placement in front:
            if spec.effect[placement & 63] == E_PRIDE:
                next_leader = (self.owner(placement) + 1) % self.players
                pride = 1
        return (winning, winner, discarded, luck_seat, next_leader, pride)

    def _winning_card(self, cards: int) -> int:
        spec = self.spec
        if cards & spec.effect_mask[E_MIRROR]:
            return (cards & -cards).bit_length() - 1
        highest = cards.bit_length() - 1
        if cards & spec.effect_mask[E_SADNESS]:
            rest = cards & ~(1 << highest)
            if rest:
                return rest.bit_length() - 1
            return -1 if spec.sadness_no_winner else highest
        return highest

    def _effect_discards(self, source: int, cards: int) -> int:
        """The cards one 'end' effect asks to discard (before Fear's protection)."""
        spec = self.spec
        effect = spec.effect[source]
        if effect == E_EXTREME:
            candidates = cards & spec.colour_mask[spec.param_colour[source]]
            if spec.extreme_excludes_self:
                candidates &= ~(1 << source)
            if spec.fear_pass_on:
                candidates &= ~spec.fear_mask
            if not candidates:
                return 0
            if spec.param_highest[source]:
                return 1 << (candidates.bit_length() - 1)
            return candidates & -candidates
        if effect == E_ALL:
            return cards & spec.colour_mask[spec.param_colour[source]]
        if effect == E_SELF_IF:
            others = cards & ~(1 << source)
            condition = spec.param_condition[source]
            if condition == C_OTHER_OF_COLOUR:
                hit = bool(others & spec.colour_mask[spec.param_colour[source]])
            elif condition == C_NO_OTHER_OF_COLOUR:
                hit = not others & spec.colour_mask[spec.param_colour[source]]
            elif condition == C_LOWEST:
                hit = not cards & ((1 << source) - 1)
            else:
                hit = bool(others & spec.effect_mask[spec.param_effect[source]])
            return 1 << source if hit else 0
        return 0


def _ranks(mask: int) -> list[int]:
    """The ranks of a bit set, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


assert C_EFFECT_IN_PLAY == 3 and E_ALL == 2 and E_BETRAYAL == 14 and E_JEALOUSY == 11
assert E_LAW == 9 and E_SECRET == 12 and E_WRATH == 13 and SCOPE_ROUND == 1
assert E_LUCK == 5 and E_SADNESS == 7 and E_ABSOLUTE == 15
