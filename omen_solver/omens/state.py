"""The Omens state machine: bouts, immediate effects, the end of a bout, rounds and the game.

Every rule lives in one small function named after it, with the rulebook passage in its
docstring; the choices the books leave open are read from :class:`OmensRules` (``docs/omens-
options.md``). States are immutable; :meth:`OmensState.child` builds the successor through a
mutable :class:`_Work` copy and then runs every automatic step (the end of a bout, cards going
back to hand, the round end) until a decision or chance is needed.

Decisions are stacked: an immediate effect that needs a decision from someone pushes a pending
obligation; the top one is resolved first, so an effect is "fully resolved before the next player
puts their card down" (rules file 000, "Details").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any, ClassVar, Final, Protocol, cast

from omen_solver.core.game import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    GameState,
    TraceStep,
    game_named,
    openspiel_argument,
)
from omen_solver.errors import IllegalActionError, InvalidActionError, PositionError, shown
from omen_solver.omens.actions import OmensAction, Verb, format_action, parse_action
from omen_solver.omens.resolve import BoutOutcome, owner, resolve_bout
from omen_solver.omens.rules import (
    AbsoluteExchange,
    AbsoluteTiming,
    BetrayalGiveBack,
    DreamTargetTurn,
    JealousyOwnCard,
    LawAfterJealousy,
    LawBinds,
    LawWhenLast,
    LuckChooser,
    LuckTiming,
    NowResolver,
    ReshuffleAbsolutes,
    ReturnTo,
    WrathReplay,
    ZeroCards,
)
from omen_solver.omens.table import Placement, Scope, Table, deal_sizes
from omen_solver.omens.vocabulary import ChoiceWord, Effect, PendingKind, Stage, law_word
from omen_solver.omens.why import choice_error, why_illegal

__all__ = ["BoutObserver", "BoutSummary", "OmensState", "Pending", "Phase", "derive_teams"]


class Phase:
    """The stage of play (small ints: they are part of every key)."""

    DEAL: Final = 0
    BOUT: Final = 1
    END: Final = 2
    OVER: Final = 3


# Pending obligations: (kind, seat, a, b). The seat is the one who decides; the kinds and what
# a and b hold are declared in omens/vocabulary.py (PendingKind, PENDING_FIELDS).
DREAM: Final = PendingKind.DREAM
REPLAY: Final = PendingKind.REPLAY
RESOLVE: Final = PendingKind.RESOLVE
SHOW: Final = PendingKind.SHOW
EXCHANGE: Final = PendingKind.EXCHANGE
GIVE: Final = PendingKind.GIVE
GIVE_BACK: Final = PendingKind.GIVE_BACK
LUCK: Final = PendingKind.LUCK
END_ABSOLUTE: Final = PendingKind.END_ABSOLUTE

Pending = tuple[str, int, int, int]

# The choice words the engine writes (omens/vocabulary.py ChoiceWord; SHOW is the pending kind
# above, so Secret's "show" is written in full).
ASK: Final = ChoiceWord.ASK
HIGHER: Final = ChoiceWord.HIGHER
LOWER: Final = ChoiceWord.LOWER
RETURN: Final = ChoiceWord.RETURN
SWAP: Final = ChoiceWord.SWAP
TAKE: Final = ChoiceWord.TAKE
WITH: Final = ChoiceWord.WITH

ANY_CARD: Final = JealousyOwnCard.ALLOWED
"""Jealousy may swap with any other card in play (option ``jealousy_own_card``)."""

_ZERO: Final = Fraction(0)
_ONE: Final = Fraction(1)

_ABSOLUTE_POOL: Final = 0
_MAIN_POOL: Final = 1

Log = list[TraceStep] | None


class BoutObserver(Protocol):
    """Watches a move being played: told of every bout the move resolves. Passed to
    :meth:`OmensState.child` by code that checks the engine from outside (the proofs'
    differential tests and enumerations, ``docs/proofs.md``); it only reads, so the move plays
    exactly as without it. Without an observer the engine makes no call at all."""

    def bout_resolved(self, state: OmensState, outcome: BoutOutcome) -> None:
        """``state``: the position as the bout is resolved (every card still in play, the
        hands, Law and who has played as they are then); ``outcome``: what was decided."""


@dataclass(frozen=True)
class BoutSummary:
    """The result of the last resolved bout, for explanations (not part of the state key)."""

    number: int
    winner: int | None
    winning_card: int | None
    discarded: tuple[int, ...]
    next_leader: int
    """The seat that leads next: the next bout, or the next round if this bout ended it."""
    round_winner: int | None
    """The seat that won the round at the end of this bout, if any."""
    hands: tuple[tuple[int, ...], ...] = ()
    """Every hand at the end of the bout (before a new round's cards are shuffled)."""


def derive_teams(absolute_of_seat: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Teams from the Absolutes dealt face up (rules file 000, "Setup").

    4 or 5 players: the highest and the lowest Absolute against the others. 6 players: the
    lowest with the highest, the second-lowest with the second-highest, the middle two.
    """
    players = len(absolute_of_seat)
    ranked = sorted(range(players), key=lambda seat: absolute_of_seat[seat])
    if players == 6:
        pairs = [(ranked[i], ranked[5 - i]) for i in range(3)]
        teams = [tuple(sorted(pair)) for pair in pairs]
    else:
        pair = tuple(sorted((ranked[0], ranked[-1])))
        teams = [pair, tuple(sorted(set(range(players)) - set(pair)))]
    return tuple(sorted(teams))


STATE_FIELDS: Final = (
    "teams",
    "phase",
    "hands",
    "front",
    "played",
    "leader",
    "law",
    "pending",
    "rounds_won",
    "stages",
    "outcome",
    "luck_victim",
    "end_abs",
    "out",
    "box",
    "deck",
    "deal_queue",
    "winner",
    "bouts",
    "last",
)
"""The fields of a state, in the order of :class:`OmensState`'s constructor."""


class _Work:
    """A mutable copy of a state's fields, used while applying an action."""

    __slots__ = ("table", "log", "observer", *STATE_FIELDS)

    table: Table
    log: Log
    observer: BoutObserver | None
    teams: tuple[tuple[int, ...], ...]
    phase: int
    hands: list[list[int]]
    front: list[Placement]
    played: int
    leader: int
    law: tuple[int, int] | None
    pending: list[Pending]
    rounds_won: list[int]
    stages: list[str]
    outcome: BoutOutcome | None
    luck_victim: tuple[int, int] | None
    end_abs: tuple[tuple[int, int], ...]
    out: tuple[int, ...]
    box: tuple[int, ...]
    deck: tuple[tuple[int, ...], tuple[int, ...]]
    deal_queue: tuple[tuple[int, int], ...]
    winner: int | None
    bouts: int
    last: BoutSummary | None

    def __init__(self, state: OmensState, log: Log, observer: BoutObserver | None = None) -> None:
        self.table = state.table
        self.log = log
        self.observer = observer
        self.teams = state._teams
        self.phase = state._phase
        self.hands = [list(hand) for hand in state._hands]
        self.front = list(state._front)
        self.played = state._played
        self.leader = state._leader
        self.law = state._law
        self.pending = list(state._pending)
        self.rounds_won = list(state._rounds_won)
        self.stages = list(state._stages)
        self.outcome = state._outcome
        self.luck_victim = state._luck_victim
        self.end_abs = state._end_abs
        self.out = state._out
        self.box = state._box
        self.deck = state._deck
        self.deal_queue = state._deal_queue
        self.winner = state._winner
        self.bouts = state._bouts
        self.last = state._last

    def name(self, card: int) -> str:
        return self.table.name(card)

    def say(self, rule: str, text: str) -> None:
        if self.log is not None:
            self.log.append(TraceStep(rule, text))

    def take_from_hand(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)

    def add_to_hand(self, seat: int, card: int) -> None:
        hand = self.hands[seat]
        hand.append(card)
        hand.sort()

    def discard(self, cards: Iterator[int] | Sequence[int] | frozenset[int]) -> None:
        self.out = tuple(sorted((*self.out, *cards)))

    def remove_from_play(self, card: int) -> Placement:
        """Take a card out of play; Law leaving play ends its constraint (rule card.law.ends)."""
        for index, placement in enumerate(self.front):
            if placement.card == card:
                del self.front[index]
                if self.law is not None and self.law[0] == card:
                    self.law = None
                    self.say(
                        "card.law.ends",
                        f"{self.name(card)} left play: its constraint no longer applies this bout",
                    )
                return placement
        raise AssertionError(f"card {card} is not in play")

    def nobody_left(self) -> bool:
        return _next_to_play(self.table, self.hands, self.played, self.leader) == -1

    def resolve(self) -> BoutOutcome:
        """The bout's winner and discards (:func:`~omen_solver.omens.resolve.resolve_bout`),
        told to the observer if there is one."""
        outcome = resolve_bout(self.front, self.leader, self.table, self.log)
        if self.observer is not None:
            self.observer.bout_resolved(self.freeze(), outcome)
        return outcome

    def freeze(self) -> OmensState:
        state = OmensState.__new__(OmensState)
        state.table = self.table
        state._teams = self.teams
        state._phase = self.phase
        state._hands = tuple([tuple(hand) for hand in self.hands])
        state._front = tuple(self.front)
        state._played = self.played
        state._leader = self.leader
        state._law = self.law
        state._pending = tuple(self.pending)
        state._rounds_won = tuple(self.rounds_won)
        state._stages = tuple(self.stages)
        state._outcome = self.outcome
        state._luck_victim = self.luck_victim
        state._end_abs = self.end_abs
        state._out = self.out
        state._box = self.box
        state._deck = self.deck
        state._deal_queue = self.deal_queue
        state._winner = self.winner
        state._bouts = self.bouts
        state._last = self.last
        state._key = None
        state._legal = {}
        return state


# ---------------------------------------------------------------------------------------------
# Rules that both legal-move generation and action application ask about
# ---------------------------------------------------------------------------------------------


def _next_to_play(table: Table, hands: Sequence[Sequence[int]], played: int, leader: int) -> int:
    """The next seat clockwise from the leader that has not played and holds a card.

    Rules file 000, "Game Sequence": clockwise from the leader; a player with no card cannot
    play (rule ``bout.turn.empty_hand``). Returns -1 when nobody is left to play.
    """
    players = table.players
    for step in range(players):
        seat = (leader + step) % players
        if not played >> seat & 1 and hands[seat]:
            return seat
    return -1


def _law_filter(
    table: Table, law: tuple[int, int] | None, candidates: list[int], turn: bool
) -> list[int]:
    """Law's constraint (rules file 000, "Law"): follow it if the hand allows, else play freely.

    Option ``law_binds`` decides whether placements other than normal turns are bound.
    """
    if law is None or not (turn or table.rules.law_binds == LawBinds.EVERY_PLACEMENT):
        return candidates
    value, direction = law
    following = [c for c in candidates if (c > value if direction > 0 else c < value)]
    return following or candidates


def _now_choices(
    table: Table,
    card: int,
    resolver: int,
    lies_before: int,
    hands: Sequence[Sequence[int]],
    front: Sequence[Placement],
    law: tuple[int, int] | None,
    nobody_left: bool,
) -> list[tuple[Any, ...]]:
    """Every choice of an immediate effect, with ``card`` already in play.

    An empty list means the effect cannot apply (rule ``bout.no_effect``).
    """
    effect = table.effect[card]
    rules = table.rules
    if effect == Effect.LAW:
        if nobody_left and rules.law_when_last == LawWhenLast.SKIP:
            return []
        return [(HIGHER,), (LOWER,)]
    if effect == Effect.WRATH:
        return [(RETURN, p.card) for p in front if p.before != resolver and p.card != card]
    if effect == Effect.JEALOUSY:
        return [
            (SWAP, p.card)
            for p in front
            if p.card != card and (rules.jealousy_own_card is ANY_CARD or p.before != lies_before)
        ]
    if effect == Effect.BETRAYAL:
        return _betrayal_choices(table, card, resolver, hands, front, law)
    if effect == Effect.SECRET:
        choices: list[tuple[Any, ...]] = []
        for seat in range(table.players):
            if seat == resolver:
                continue
            if hands[seat]:
                choices.append((ASK, seat))
            choices.extend((ChoiceWord.SHOW, seat, shown) for shown in hands[resolver])
        return choices
    if effect == Effect.ABSOLUTE and card in table.now:
        if not hands[resolver]:
            return []
        return [(WITH, seat) for seat in range(table.players) if seat != resolver and hands[seat]]
    return []


def _betrayal_choices(
    table: Table,
    card: int,
    resolver: int,
    hands: Sequence[Sequence[int]],
    front: Sequence[Placement],
    law: tuple[int, int] | None,
) -> list[tuple[Any, ...]]:
    """Betrayal (rules file 000, "Betrayal"): take a card from in front of another player,
    then give one from the hand (the taken one too, unless ``betrayal_give_back`` forbids it).
    Taking Law ends its constraint before the gift is chosen."""
    choices: list[tuple[Any, ...]] = []
    for placement in front:
        taken = placement.card
        if placement.before == resolver or taken == card:
            continue
        hand = sorted([*hands[resolver], taken])
        if table.rules.betrayal_give_back == BetrayalGiveBack.FORBIDDEN:
            hand.remove(taken)
        remaining_law = None if law is not None and law[0] == taken else law
        for given in _law_filter(table, remaining_law, hand, turn=False):
            choices.append((TAKE, taken, given))
    return choices


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------

Move = OmensAction | Sequence[OmensAction]
"""What a state moves by: one action, or a joint action (one action per acting seat)."""

Legal = OmensAction | tuple[OmensAction, ...]
"""What :meth:`OmensState.legal_actions` lists: actions, or at The Absolute's exchange (a
simultaneous node) the joint actions, one action per acting seat in seat order."""


class OmensState(GameState[Legal]):
    """An Omens position: hands, cards in play, pending decisions, rounds won.

    Create one with :func:`omen_solver.omens.position.load_state` (from a file),
    :meth:`OmensState.start_of_bout` (from hands) or :meth:`OmensState.new_game` (a chance deal).
    """

    __slots__ = ("_key", "_legal", "table", *("_" + name for name in STATE_FIELDS))

    game_name: ClassVar[str | None] = "omens"

    def __init__(
        self,
        table: Table,
        *,
        teams: tuple[tuple[int, ...], ...],
        phase: int,
        hands: tuple[tuple[int, ...], ...],
        front: tuple[Placement, ...] = (),
        played: int = 0,
        leader: int = 0,
        law: tuple[int, int] | None = None,
        pending: tuple[Pending, ...] = (),
        rounds_won: tuple[int, ...] = (),
        stages: tuple[str, ...] = (),
        outcome: BoutOutcome | None = None,
        luck_victim: tuple[int, int] | None = None,
        end_abs: tuple[tuple[int, int], ...] = (),
        out: tuple[int, ...] = (),
        box: tuple[int, ...] = (),
        deck: tuple[tuple[int, ...], tuple[int, ...]] = ((), ()),
        deal_queue: tuple[tuple[int, int], ...] = (),
        winner: int | None = None,
        bouts: int = 0,
        last: BoutSummary | None = None,
    ) -> None:
        self.table = table
        self._teams = teams
        self._phase = phase
        self._hands = hands
        self._front = front
        self._played = played
        self._leader = leader
        self._law = law
        self._pending = pending
        self._rounds_won = rounds_won or (0,) * len(teams)
        self._stages = stages
        self._outcome = outcome
        self._luck_victim = luck_victim
        self._end_abs = end_abs
        self._out = out
        self._box = box
        self._deck = deck
        self._deal_queue = deal_queue
        self._winner = winner
        self._bouts = bouts
        self._last = last
        self._key: Hashable | None = None
        self._legal: dict[int | None, tuple[Legal, ...]] = {}

    # -- construction --------------------------------------------------------------------

    @classmethod
    def start_of_bout(
        cls,
        table: Table,
        hands: Sequence[Sequence[int]],
        teams: Sequence[Sequence[int]],
        leader: int,
        *,
        rounds_won: Sequence[int] | None = None,
        out: Sequence[int] = (),
        box: Sequence[int] = (),
    ) -> OmensState:
        """A state at the start of a bout with the given hands (0-based seats)."""
        team_tuple = tuple(tuple(sorted(team)) for team in teams)
        state = cls(
            table,
            teams=team_tuple,
            phase=Phase.BOUT,
            hands=tuple(tuple(sorted(hand)) for hand in hands),
            leader=leader,
            rounds_won=tuple(rounds_won) if rounds_won else (0,) * len(team_tuple),
            out=tuple(sorted(out)),
            box=tuple(sorted(box)),
        )
        work = _Work(state, None)
        _advance(work)
        return work.freeze()

    @classmethod
    def new_game(cls, table: Table) -> OmensState:
        """The start of a game: the Absolutes, then the hands, are dealt by chance nodes
        (rules file 000, "Setup")."""
        absolutes = table.catalogue.absolutes
        if len(absolutes) < table.players:
            raise ValueError(
                f"the catalogue has {len(absolutes)} Absolutes; {table.players} players need one "
                "each"
            )
        main = tuple(sorted(set(table.catalogue) - set(absolutes)))
        return cls(
            table,
            teams=tuple((seat,) for seat in range(table.players)),
            phase=Phase.DEAL,
            hands=((),) * table.players,
            deck=(absolutes, main),
            deal_queue=tuple((seat, _ABSOLUTE_POOL) for seat in range(table.players)),
        )

    # -- facts about the position --------------------------------------------------------

    def num_players(self) -> int:
        return self.table.players

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's hand, sorted."""
        return self._hands

    @property
    def in_play(self) -> tuple[Placement, ...]:
        """The cards in play, in the order they were placed."""
        return self._front

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the current bout."""
        return self._leader

    @property
    def law(self) -> tuple[int, int] | None:
        """Law's active constraint: (Law's value, +1 for higher / -1 for lower), or None."""
        return self._law

    @property
    def pending(self) -> tuple[Pending, ...]:
        """Obligations waiting for a decision, the last one first."""
        return self._pending

    @property
    def phase(self) -> int:
        return self._phase

    @property
    def rounds_won(self) -> tuple[int, ...]:
        """Rounds won by each team, in the order of :meth:`teams` (the round just won included,
        also when the search stops at the end of the round)."""
        return self._rounds_won

    @property
    def discard_pile(self) -> tuple[int, ...]:
        """Cards out of this round (discarded, or not dealt this round), sorted."""
        return self._out

    @property
    def box(self) -> tuple[int, ...]:
        """Cards out of the whole game (the undealt Absolutes with 4 or 5 players)."""
        return self._box

    @property
    def last_bout(self) -> BoutSummary | None:
        """The most recently resolved bout."""
        return self._last

    @property
    def winner(self) -> int | None:
        """At a terminal state, the seat that won (the round, the bout or the game's last round)."""
        return self._winner

    @property
    def bouts_played(self) -> int:
        return self._bouts

    def played_this_bout(self, seat: int) -> bool:
        return bool(self._played >> seat & 1)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return self._teams

    def all_cards(self) -> dict[str, tuple[int, ...]]:
        """Where every card is: hands, in play, discard pile, box, deck (for invariant checks)."""
        return {
            "hands": tuple(sorted(card for hand in self._hands for card in hand)),
            "in_play": tuple(sorted(p.card for p in self._front)),
            "discard": self._out,
            "box": self._box,
            "deck": tuple(sorted(self._deck[0] + self._deck[1])),
        }

    # -- protocol: who acts ---------------------------------------------------------------

    def current_player(self) -> int:
        if self._phase == Phase.OVER:
            return TERMINAL
        if self._phase == Phase.DEAL:
            return CHANCE
        if self._pending:
            kind, seat, _, _ = self._pending[-1]
            if kind == EXCHANGE:
                return SIMULTANEOUS
            if kind == LUCK and self.table.rules.luck_chooser == LuckChooser.RANDOM:
                return CHANCE
            return seat
        return _next_to_play(self.table, self._hands, self._played, self._leader)

    def acting_players(self) -> tuple[int, ...]:
        if self._pending and self._pending[-1][0] == EXCHANGE:
            _, player, target, _ = self._pending[-1]
            return (player, target)
        return super().acting_players()

    def is_terminal(self) -> bool:
        return self._phase == Phase.OVER

    # -- protocol: legal actions -----------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> tuple[Legal, ...]:
        """The legal actions in a stable order (chance outcomes at a deal); at The Absolute's
        exchange, a simultaneous node, the joint actions (one action per acting seat, as
        :meth:`joint_actions`), or with ``player`` that seat's gifts. Each is what
        :meth:`child` takes."""
        cached = self._legal.get(player)
        if cached is None:
            if player is None and self.current_player() == SIMULTANEOUS:
                cached = tuple(self.joint_actions())
            else:
                cached = tuple(sorted(self._actions(player), key=OmensAction.sort_key))
            self._legal[player] = cached
        return cached

    def actions(self, player: int | None = None) -> tuple[OmensAction, ...]:
        """:meth:`legal_actions` where each is one action: at a simultaneous node ``player``
        names the seat (from 0) whose choices are listed."""
        if player is None and self.current_player() == SIMULTANEOUS:
            seats = " or ".join(f"actions({p}) for seat {p + 1}" for p in self.acting_players())
            raise ValueError(f"The Absolute's exchange: seats choose at once; ask {seats} "
                             "(players are indexed from 0), or legal_actions() for the pairs")
        return cast(tuple[OmensAction, ...], self.legal_actions(player))

    def _actions(self, player: int | None) -> Iterator[OmensAction]:
        if self._phase == Phase.OVER:
            return
        if self._phase == Phase.DEAL or self.current_player() == CHANCE:
            yield from (action for action, _ in self.chance_outcomes())
            return
        if not self._pending:
            yield from self._play_actions(self.current_player(), exclude=None)
            return
        kind, seat, a, _ = self._pending[-1]
        if kind == EXCHANGE:
            if player is None or player not in (seat, a):
                raise ValueError(
                    "The Absolute's exchange: seats choose at once; ask "
                    f"legal_actions({seat}) for seat {seat + 1} or legal_actions({a}) for "
                    f"seat {a + 1} (players are indexed from 0), or joint_actions() for both"
                )
            yield from (OmensAction(Verb.GIVES, player, c) for c in self._hands[player])
        elif kind == DREAM:
            yield from self._dream_placements(seat, a)
        elif kind == REPLAY:
            yield from self._play_actions(seat, exclude=a)
        elif kind in (RESOLVE, END_ABSOLUTE):
            for choice in _pending_choices(
                self.table,
                self._pending[-1],
                self._hands,
                self._front,
                self._law,
                self._nobody_left(),
            ):
                yield OmensAction(Verb.RESOLVE, seat, a, -1, choice)
        elif kind in (SHOW, GIVE, GIVE_BACK):
            verb = Verb.SHOWS if kind == SHOW else Verb.GIVES
            yield from (OmensAction(verb, seat, c) for c in self._hands[seat])
        elif kind == LUCK:
            yield from (OmensAction(Verb.DISCARDS, seat, c) for c in self._luck_options(seat))

    def _nobody_left(self) -> bool:
        return _next_to_play(self.table, self._hands, self._played, self._leader) == -1

    def _luck_options(self, seat: int) -> list[int]:
        """Luck's discard: any card of the hand but Fear (rules file 000, "Luck")."""
        return _luck_options(self.table, self._hands[seat])

    def _play_actions(self, seat: int, exclude: int | None) -> Iterator[OmensAction]:
        """Cards ``seat`` may play in front of themselves: a turn, or Wrath's replacement
        (``exclude`` is the card Wrath sent back; option ``wrath_replay``)."""
        table = self.table
        hand = list(self._hands[seat])
        candidates = hand
        if exclude is not None and table.rules.wrath_replay == WrathReplay.FORBIDDEN:
            candidates = [c for c in hand if c != exclude] or hand
        turn = exclude is None
        for card in _law_filter(table, self._law, candidates, turn):
            if table.effect[card] == Effect.DREAM:
                yield OmensAction(Verb.PLAY, seat, card)
                for target in self._dream_targets(seat):
                    yield OmensAction(Verb.PLAY, seat, card, target)
                continue
            yield from self._with_choices(seat, card, seat)

    def _dream_targets(self, seat: int) -> list[int]:
        """Dream's targets: players who have not played yet this bout and hold a card
        (rules file 000, "Dream")."""
        return [
            other
            for other in range(self.table.players)
            if other != seat and not self._played >> other & 1 and self._hands[other]
        ]

    def _dream_placements(self, target: int, dreamer: int) -> Iterator[OmensAction]:
        """Dream's target places a card from hand in front of the Dream player."""
        table = self.table
        inline = table.rules.now_resolver == NowResolver.PLACER
        for card in _law_filter(table, self._law, list(self._hands[target]), turn=False):
            if inline and table.effect[card] != Effect.DREAM:
                yield from self._with_choices(target, card, dreamer)
            else:
                yield OmensAction(Verb.PLAY, target, card, dreamer)

    def _with_choices(self, seat: int, card: int, before: int) -> Iterator[OmensAction]:
        """Play ``card`` from ``seat`` in front of ``before``, once per choice of its effect."""
        to = -1 if before == seat else before
        if card not in self.table.now:
            yield OmensAction(Verb.PLAY, seat, card, to)
            return
        hands = list(self._hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        front = (*self._front, Placement(card, before, seat))
        played = self._played
        top = self._pending[-1][0] if self._pending else None
        if top is None or (
            top == DREAM and self.table.rules.dream_target_turn == DreamTargetTurn.PLACEMENT_IS_TURN
        ):
            played |= 1 << seat
        nobody_left = _next_to_play(self.table, hands, played, self._leader) == -1
        choices = _now_choices(self.table, card, seat, before, hands, front, self._law, nobody_left)
        if not choices:
            yield OmensAction(Verb.PLAY, seat, card, to)
        for choice in choices:
            yield OmensAction(Verb.PLAY, seat, card, to, choice)

    def chance_outcomes(self) -> tuple[tuple[OmensAction, Fraction], ...]:
        if self._phase == Phase.DEAL:
            seat, pool = self._deal_queue[0]
            cards = self._deck[pool]
            share = Fraction(1, len(cards))
            return tuple((OmensAction(Verb.DEAL, seat, card), share) for card in cards)
        if self.current_player() == CHANCE:
            seat = self._pending[-1][1]
            options = self._luck_options(seat)
            share = Fraction(1, len(options))
            return tuple((OmensAction(Verb.DISCARDS, seat, card), share) for card in options)
        return ()

    # -- protocol: moving ------------------------------------------------------------------

    def child(self, action: Move | str, *, observer: BoutObserver | None = None) -> OmensState:
        """The state after ``action``: an action, the pair of actions of The Absolute's
        exchange (a joint action), or the text of either in canonical notation (``"2:18"``,
        ``"1:gives 9 & 3:gives 22"``). An illegal action raises
        :class:`~omen_solver.errors.IllegalActionError` listing the legal ones. An
        ``observer`` is told of every bout the action resolves (:class:`BoutObserver`)."""
        return self._apply(self._as_move(action), None, observer)

    def joint_child(self, actions: Sequence[Legal]) -> OmensState:
        return self._apply(self._as_move(tuple(actions)), None)

    def explain(self, move: Move | str) -> tuple[OmensState, list[TraceStep]]:
        """The successor and the rule-by-rule steps of what happened; ``move`` is what
        :meth:`child` takes."""
        log: list[TraceStep] = []
        return self._apply(self._as_move(move), log), log

    def _as_move(self, move: object) -> tuple[OmensAction, ...]:
        if isinstance(move, OmensAction):
            return (move,)
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, tuple | list) and move and all(
            isinstance(action, OmensAction) for action in move
        ):
            return tuple(move)
        raise InvalidActionError(
            f"expected an action, a joint action or the text of one (e.g. '2:18'), "
            f"not {shown(move)}"
        )

    def _apply(
        self, actions: tuple[OmensAction, ...], log: Log, observer: BoutObserver | None = None
    ) -> OmensState:
        self._check_legal(actions)
        work = _Work(self, log, observer)
        if len(actions) == 2:
            _exchange(work, actions[0], actions[1])
        else:
            _apply_action(work, actions[0])
        _advance(work)
        return work.freeze()

    def _check_legal(self, actions: tuple[OmensAction, ...]) -> None:
        if self.current_player() == SIMULTANEOUS:
            players = self.acting_players()
            if len(actions) != len(players) or any(
                action not in self.legal_actions(p)
                for p, action in zip(players, actions, strict=True)
            ):
                shown = " & ".join(format_action(a) for a in actions)
                raise IllegalActionError(
                    f"{shown!r} is not a legal joint action here; seats "
                    f"{' and '.join(str(p + 1) for p in players)} each give one card from "
                    f"hand, e.g. {self._sample_joint()!r}"
                )
            return
        if len(actions) != 1:
            raise IllegalActionError("one action at a time, except at a simultaneous exchange")
        if actions[0] not in self.legal_actions():
            raise self._illegal(actions[0])

    def _illegal(self, action: OmensAction) -> IllegalActionError:
        """The refusal of ``action``: why, with the rule id (``rule``), and what is legal."""
        text = format_action(action)
        if self._phase == Phase.OVER:
            return IllegalActionError(f"{text!r}: the {self.table.scope.value} is already over",
                                      value=text)
        who = self.current_player()
        lead = f"seat {who + 1} is to act" if who >= 0 else "a card is being dealt"
        legal = [self.move_to_string(a) for a in self.legal_actions()]
        sample = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        reason, rule = why_illegal(self, action) or (lead, None)
        return IllegalActionError(f"{text!r} is not legal here: {reason}; legal: {sample}",
                                  value=text, rule=rule)

    # -- protocol: results and identity ------------------------------------------------------

    def returns(self) -> tuple[Fraction, ...]:
        """1 for each player of the winning team, 0 for the others (all 0 if nobody won)."""
        team = self.winning_team() or ()
        return tuple(_ONE if seat in team else _ZERO for seat in range(self.table.players))

    def team_returns(self) -> tuple[Fraction, ...]:
        """1 for the winning team, 0 for the others."""
        team = self.winning_team()
        return tuple(_ONE if members == team else _ZERO for members in self._teams)

    def winning_team(self) -> tuple[int, ...] | None:
        """At a terminal state, the seats (0-based) of the team that won."""
        if self._phase != Phase.OVER or self._winner is None:
            return None
        return self._teams[self.team_of(self._winner)]

    def key(self) -> Hashable:
        if self._key is None:
            outcome = self._outcome
            self._key = (
                self._phase,
                self._hands,
                self._front,
                self._played,
                self._leader,
                self._law,
                self._pending,
                self._rounds_won,
                self._stages,
                None if outcome is None else outcome[1:],
                self._luck_victim,
                self._end_abs,
                self._deck,
                self._deal_queue,
                self._box,
                self._teams,
                self._winner,
            )
        return self._key

    def action_to_string(self, *args: Any) -> str:
        """The canonical text of an action, or of a joint action (its parts joined by
        ``&``). Takes ``(action)``, or OpenSpiel's ``(player, action)``."""
        action = openspiel_argument(args, "action_to_string")
        if isinstance(action, OmensAction):
            return format_action(action)
        return " & ".join(format_action(part) for part in self._as_move(action))

    def string_to_action(self, *args: Any) -> OmensAction:
        """The legal action a text names. Takes ``(text)``, or OpenSpiel's
        ``(player, text)``. At The Absolute's exchange it reads one seat's gift; a joint
        action's text goes to :meth:`child` (or :meth:`string_to_joint`) whole."""
        text = openspiel_argument(args, "string_to_action")
        if not isinstance(text, str):
            raise InvalidActionError(f"expected the text of an action, not {shown(text)}")
        try:
            action = parse_action(text, self.table.catalogue.value_of)
        except InvalidActionError as error:
            raise choice_error(self, text, error) from None
        if self.current_player() == SIMULTANEOUS:
            if action.seat not in self.acting_players() or action not in self.legal_actions(
                action.seat
            ):
                raise IllegalActionError(
                    f"{text!r}: at this simultaneous exchange each acting seat gives a card from "
                    f"hand; write both joined by '&', e.g. {self._sample_joint()!r}"
                )
            return action
        if action not in self.legal_actions():
            raise self._illegal(action)
        return action

    def _sample_joint(self) -> str:
        return self.joint_to_string([self.actions(p)[0] for p in self.acting_players()])

    def joint_actions(self) -> list[tuple[OmensAction, ...]]:
        """Every joint action at a simultaneous node, in a stable order."""
        return list(product(*(self.actions(p) for p in self.acting_players())))

    def moves(self) -> list[tuple[OmensAction, ...]]:
        """Every move here, each a tuple: one action, or at a simultaneous node a joint
        action. Each is what :meth:`child` and :meth:`action_to_string` take."""
        if self.current_player() == SIMULTANEOUS:
            return self.joint_actions()
        return [(action,) for action in self.actions()]

    def parse_move(self, text: str) -> tuple[OmensAction, ...]:
        """Read one move as a tuple: an action, or a joint action (``a & b``) at a
        simultaneous node (what :meth:`child` does with text)."""
        if self.current_player() != SIMULTANEOUS:
            return (self.string_to_action(text),)
        if "&" not in text:
            raise IllegalActionError(
                f"{text!r}: a simultaneous exchange is pending; write both gifts joined by "
                f"'&', e.g. {self._sample_joint()!r}"
            )
        parts = [parse_action(part, self.table.catalogue.value_of) for part in text.split("&")]
        by_seat = {action.seat: action for action in parts}
        players = self.acting_players()
        if sorted(by_seat) != sorted(players) or len(parts) != len(players):
            raise IllegalActionError(
                f"{text!r}: seats {' and '.join(str(p + 1) for p in players)} must each give "
                f"exactly one card, e.g. {self._sample_joint()!r}"
            )
        move = tuple(by_seat[p] for p in players)
        self._check_legal(move)
        return move

    def apply_move(self, move: Sequence[OmensAction]) -> OmensState:
        """The same as :meth:`child` (kept for code written against 0.1)."""
        return self._apply(self._as_move(move), None)

    # -- the stopping points of its descriptor (omen_solver.omens.game) --------------------

    def stop_predicate(self, name: str) -> Callable[[OmensState], bool]:
        """A predicate for the named stopping point, relative to this (root) state."""
        if name == "bout":
            return _bout_over
        if name == "round":
            rounds = self._rounds_won
            return lambda state: (
                state._phase in (Phase.OVER, Phase.DEAL) or state._rounds_won != rounds
            )
        raise ValueError(f"unknown stopping point {name!r}; known: bout, round")

    def fields(self) -> dict[str, Any]:
        """Every field of the position by name (:data:`STATE_FIELDS`): with the table, what
        ``OmensState(table, **fields)`` makes again."""
        return {name: getattr(self, "_" + name) for name in STATE_FIELDS}

    def to_text(self) -> str:
        """The position as one line of text (``docs/position-text.md``), like a chess FEN:
        the hands, the cards in play, the leader, Law, the decisions the rules wait for, the
        rounds won and the rule options set apart from the preset, seats from 1.
        :func:`omen_solver.load` (and :meth:`from_text`, ``solve --position``) read it back
        to an equal state."""
        write = game_named("omens").write_text  # omens/game.py: the codec's writer
        assert write is not None
        return str(write(self))

    @staticmethod
    def from_text(text: str) -> OmensState:
        """The state of a position's one-line text (:meth:`to_text`), or of any position
        :func:`omen_solver.omens.load` reads."""
        from omen_solver.core.positions import load

        state = load(text)
        if not isinstance(state, OmensState):
            raise PositionError(f"{shown(text)} is a position of {state.game_name}, not of "
                                "Omens")
        return state

    def __repr__(self) -> str:
        """Code that makes the state again: ``OmensState.from_text('omens ...')``."""
        return f"OmensState.from_text({self.to_text()!r})"

    def __str__(self) -> str:
        return describe_state(self)


def _bout_over(state: OmensState) -> bool:
    """The bout in progress is resolved: a new bout is about to start, or play is over."""
    if state._phase in (Phase.OVER, Phase.DEAL):
        return True
    return (
        state._phase == Phase.BOUT and not state._front and not state._pending and not state._played
    )


def describe_state(state: OmensState) -> str:
    """A few lines for people: hands, cards in play, Law, who acts."""
    table = state.table
    lines = []
    for seat, hand in enumerate(state.hands):
        team = state.team_of(seat) + 1
        lines.append(
            f"seat {seat + 1} (team {team}): {', '.join(table.name(c) for c in hand) or '-'}"
        )
    if state.in_play:
        lines.append(
            "in play: "
            + ", ".join(f"{table.name(p.card)} before seat {p.before + 1}" for p in state.in_play)
        )
    if state.law is not None:
        lines.append(f"Law: {law_word(state.law[1])} than {state.law[0]}")
    return "\n".join(lines)


def _luck_options(table: Table, hand: Sequence[int]) -> list[int]:
    """Luck's discard: any card of the hand but Fear (rules file 000, "Luck")."""
    return [card for card in hand if card not in table.fear]


def _pending_choices(
    table: Table,
    pending: Pending,
    hands: Sequence[Sequence[int]],
    front: Sequence[Placement],
    law: tuple[int, int] | None,
    nobody_left: bool,
) -> list[tuple[Any, ...]]:
    """The choices of a RESOLVE or END_ABSOLUTE obligation (empty: the effect cannot apply)."""
    kind, seat, card, _ = pending
    if kind == END_ABSOLUTE:
        if not hands[seat]:
            return []
        return [(WITH, other) for other in range(table.players) if other != seat and hands[other]]
    before = next(p.before for p in front if p.card == card)
    return _now_choices(table, card, seat, before, hands, front, law, nobody_left)


# ---------------------------------------------------------------------------------------------
# Applying actions
# ---------------------------------------------------------------------------------------------


def _apply_action(work: _Work, action: OmensAction) -> None:
    verb = action.verb
    if verb is Verb.DEAL:
        _deal(work, action)
    elif verb is Verb.PLAY:
        _play(work, action)
    elif verb is Verb.RESOLVE:
        _resolve_pending(work, action)
    elif verb is Verb.SHOWS:
        _, seat, viewer, _ = work.pending.pop()
        work.say(
            "card.secret.show",
            f"seat {seat + 1} shows {work.name(action.card)} to seat {viewer + 1}",
        )
    elif verb is Verb.GIVES:
        _give(work, action)
    elif verb is Verb.DISCARDS:
        _luck_discard(work, action.card)


def _play(work: _Work, action: OmensAction) -> None:
    """Place a card from hand: a normal turn, Dream's placement, or Wrath's replacement."""
    seat, card, to = action.seat, action.card, action.to
    kind = work.pending.pop()[0] if work.pending else None
    hand_before = list(work.hands[seat])
    work.take_from_hand(seat, card)
    before = seat if to < 0 else to
    work.front.append(Placement(card, before, seat))
    table = work.table
    if kind is None:
        work.played |= 1 << seat
        where = "in front of themselves" if to < 0 else f"in front of seat {to + 1}"
        work.say("bout.turn", f"seat {seat + 1} plays {work.name(card)} {where}")
    elif kind == DREAM:
        if table.rules.dream_target_turn == DreamTargetTurn.PLACEMENT_IS_TURN:
            work.played |= 1 << seat
        work.say(
            "card.dream.target",
            f"seat {seat + 1} places {work.name(card)} in front of seat {to + 1}",
        )
    else:
        work.say("card.wrath.replay", f"seat {seat + 1} plays {work.name(card)} instead")
    _note_law(work, seat, card, hand_before, turn=kind is None)
    if table.effect[card] == Effect.DREAM and kind != DREAM:
        _dream(work, card, seat, to)
        return
    if card not in table.now:
        return
    resolver = before if table.rules.now_resolver == NowResolver.POSITION else seat
    if resolver == seat:
        _resolve_now(work, card, seat, action.choice)
    else:
        work.say(
            "card.dream.placement",
            f"{work.name(card)} lies in front of seat {resolver + 1}, who resolves it",
        )
        work.pending.append((RESOLVE, resolver, card, 0))


def _note_law(work: _Work, seat: int, card: int, hand: list[int], turn: bool) -> None:
    """Explain how Law's constraint bound this placement (rule card.law.constraint)."""
    law = work.law
    if work.log is None or law is None:
        return
    if not (turn or work.table.rules.law_binds == LawBinds.EVERY_PLACEMENT):
        return
    value, direction = law
    word = law_word(direction)
    if _law_filter(work.table, law, hand, turn) == hand and not all(
        (c > value if direction > 0 else c < value) for c in hand
    ):
        work.say(
            "card.law.constraint",
            f"Law: seat {seat + 1} has no card {word} than {value}, so any card may be played",
        )
    else:
        work.say(
            "card.law.constraint",
            f"Law: seat {seat + 1} must play a card {word} than "
            f"{value}: {work.name(card)} follows it",
        )


def _dream(work: _Work, card: int, seat: int, target: int) -> None:
    """Dream (rules file 000, "Dream"): in front of yourself no effect; in front of a player
    who has not played yet, that player at once places a card in front of you."""
    if target < 0:
        work.say(
            "card.dream.self", f"{work.name(card)} is played in front of its player: no effect"
        )
        return
    work.say(
        "card.dream.target",
        f"{work.name(card)} is played in front of seat {target + 1}, "
        f"who must place a card in front of seat {seat + 1}",
    )
    work.pending.append((DREAM, target, seat, 0))


def _resolve_pending(work: _Work, action: OmensAction) -> None:
    kind, seat, card, _ = work.pending.pop()
    if kind == END_ABSOLUTE:
        other = int(action.choice[1])
        work.say(
            "card.absolute.target",
            f"at the end of the bout, seat {seat + 1} resolves "
            f"{work.name(card)}: exchange with seat {other + 1}",
        )
        _start_exchange(work, seat, other)
        return
    work.say("card.dream.placement", f"seat {seat + 1} resolves {work.name(card)}")
    _resolve_now(work, card, seat, action.choice)


def _resolve_now(work: _Work, card: int, resolver: int, choice: tuple[Any, ...]) -> None:
    """Apply the chosen immediate effect of ``card`` (rule ``bout.now``)."""
    name = work.name(card)
    if not choice:
        work.say("bout.no_effect", f"{name}: its effect cannot apply here; no effect")
        return
    work.say(
        "bout.now",
        f"{name} is an immediate card: seat {resolver + 1} resolves it now, "
        "before anyone else plays",
    )
    keyword = choice[0]
    if keyword in (HIGHER, LOWER):
        work.law = (card, 1 if keyword == HIGHER else -1)
        work.say(
            "card.law.choose",
            f"{name}: seat {resolver + 1} chooses {keyword}: the cards "
            f"placed after it must be {keyword} than {card} if possible",
        )
    elif keyword == RETURN:
        _wrath(work, card, int(choice[1]))
    elif keyword == TAKE:
        _betrayal(work, card, resolver, int(choice[1]), int(choice[2]))
    elif keyword == SWAP:
        _jealousy(work, card, int(choice[1]))
    elif keyword == ASK:
        target = int(choice[1])
        work.say(
            "card.secret.choose", f"{name}: seat {target + 1} must show seat {resolver + 1} a card"
        )
        work.pending.append((SHOW, target, resolver, 0))
    elif keyword == ChoiceWord.SHOW:
        work.say(
            "card.secret.choose",
            f"{name}: seat {resolver + 1} shows "
            f"{work.name(int(choice[2]))} to seat {int(choice[1]) + 1}",
        )
    elif keyword == WITH:
        work.say(
            "card.absolute.target",
            f"{name}: seat {resolver + 1} exchanges a card with seat {int(choice[1]) + 1}",
        )
        _start_exchange(work, resolver, int(choice[1]))


def _wrath(work: _Work, card: int, returned: int) -> None:
    """Wrath (rules file 000, "Wrath"): the card goes back to the hand of the player it lies in
    front of, who must play another card; sending Law back ends its constraint."""
    placement = work.remove_from_play(returned)
    work.add_to_hand(placement.before, returned)
    work.say(
        "card.wrath.return",
        f"{work.name(card)}: {work.name(returned)} goes back to seat "
        f"{placement.before + 1}'s hand; they must play another card",
    )
    work.pending.append((REPLAY, placement.before, returned, 0))


def _betrayal(work: _Work, card: int, resolver: int, taken: int, given: int) -> None:
    """Betrayal (rules file 000, "Betrayal"): take a card into hand and play one in its place;
    the person it lies in front of resolves it (option ``now_resolver``)."""
    placement = work.remove_from_play(taken)
    work.add_to_hand(resolver, taken)
    work.take_from_hand(resolver, given)
    victim = placement.before
    _note_law(work, resolver, given, [*work.hands[resolver], given], turn=False)
    work.front.append(Placement(given, victim, resolver))
    work.say(
        "card.betrayal.take",
        f"{work.name(card)}: seat {resolver + 1} takes "
        f"{work.name(taken)} from in front of seat {victim + 1}",
    )
    work.say(
        "card.betrayal.give",
        f"seat {resolver + 1} plays {work.name(given)} in front of seat {victim + 1}",
    )
    table = work.table
    if given in table.now and table.effect[given] != Effect.DREAM:
        chooser = victim if table.rules.now_resolver == NowResolver.POSITION else resolver
        work.pending.append((RESOLVE, chooser, given, 0))


def _jealousy(work: _Work, card: int, other: int) -> None:
    """Jealousy (rules file 000, "Jealousy"): the two cards swap places; the card taken is not
    resolved again. Option ``law_after_jealousy``: whether moving Law ends its constraint."""
    front = work.front
    i = next(n for n, p in enumerate(front) if p.card == card)
    j = next(n for n, p in enumerate(front) if p.card == other)
    mine, theirs = front[i], front[j]
    front[i] = Placement(mine.card, theirs.before, mine.by)
    front[j] = Placement(theirs.card, mine.before, theirs.by)
    work.say(
        "card.jealousy.swap",
        f"{work.name(card)} swaps places with {work.name(other)}: "
        f"it now lies in front of seat {theirs.before + 1}; {work.name(other)} is not "
        "resolved again",
    )
    law = work.law
    if (
        law is not None
        and law[0] in (card, other)
        and work.table.rules.law_after_jealousy == LawAfterJealousy.ENDS
    ):
        work.law = None
        work.say("card.law.ends", "Law was moved by Jealousy: its constraint ends")


def _start_exchange(work: _Work, player: int, target: int) -> None:
    """The Absolute's exchange: secret and simultaneous (option ``absolute_exchange``)."""
    kind = EXCHANGE if work.table.rules.absolute_exchange == AbsoluteExchange.SECRET else GIVE
    work.pending.append((kind, player, target, 0))


def _exchange(work: _Work, first: OmensAction, second: OmensAction) -> None:
    """Both cards are chosen at once, face down, then swapped (rule card.absolute.exchange)."""
    _, player, target, _ = work.pending.pop()
    gifts = {first.seat: first.card, second.seat: second.card}
    _swap_cards(work, player, gifts[player], target, gifts[target])


def _give(work: _Work, action: OmensAction) -> None:
    """The open variant of The Absolute's exchange: the target answers seeing the first gift."""
    kind, seat, other, offered = work.pending.pop()
    if kind == GIVE:
        work.pending.append((GIVE_BACK, other, seat, action.card))
        work.say(
            "card.absolute.exchange",
            f"seat {seat + 1} offers {work.name(action.card)} face up (open exchange)",
        )
        return
    _swap_cards(work, other, offered, seat, action.card)


def _swap_cards(work: _Work, a: int, card_a: int, b: int, card_b: int) -> None:
    work.take_from_hand(a, card_a)
    work.take_from_hand(b, card_b)
    work.add_to_hand(a, card_b)
    work.add_to_hand(b, card_a)
    work.say(
        "card.absolute.exchange",
        f"seat {a + 1} gives {work.name(card_a)} and seat {b + 1} gives {work.name(card_b)}",
    )


def _luck_discard(work: _Work, card: int) -> None:
    """Luck (rules file 000, "Luck"): discard a card from hand, never Fear."""
    _, seat, _, _ = work.pending.pop()
    work.take_from_hand(seat, card)
    work.discard((card,))
    work.luck_victim = (seat, card)
    work.say("card.luck.discard", f"Luck: seat {seat + 1} discards {work.name(card)} from hand")


def _deal(work: _Work, action: OmensAction) -> None:
    """Chance: one card is dealt (rules file 000, "Setup"; "End of a Round")."""
    (seat, pool), rest = work.deal_queue[0], work.deal_queue[1:]
    pools = list(work.deck)
    pools[pool] = tuple(c for c in pools[pool] if c != action.card)
    work.deck = (pools[0], pools[1])
    work.deal_queue = rest
    work.add_to_hand(seat, action.card)


# ---------------------------------------------------------------------------------------------
# Automatic steps: the end of a bout, the round end, dealing
# ---------------------------------------------------------------------------------------------


def _advance(work: _Work) -> None:
    """Run every step that needs no decision, until a decision or chance node (or the end)."""
    while True:
        if work.phase == Phase.DEAL:
            if work.deal_queue:
                return
            _finish_deal(work)
        elif work.phase == Phase.BOUT:
            _drop_void_pending(work)
            if work.pending or not work.nobody_left():
                return
            _start_end_of_bout(work)
        elif work.phase == Phase.END:
            _drop_void_pending(work)
            if work.pending:
                return
            _STAGES[work.stages.pop(0)](work)
        else:
            return


def _drop_void_pending(work: _Work) -> None:
    """An obligation whose effect cannot apply does nothing (rule ``bout.no_effect``)."""
    while work.pending and work.pending[-1][0] in (RESOLVE, END_ABSOLUTE):
        top = work.pending[-1]
        if _pending_choices(work.table, top, work.hands, work.front, work.law, work.nobody_left()):
            return
        work.pending.pop()
        work.say("bout.no_effect", f"{work.name(top[2])}: its effect cannot apply here; no effect")


def _start_end_of_bout(work: _Work) -> None:
    """Everyone has played: find the winner and the discards (rules file 000, "How a Bout Is
    Resolved"), then run the remaining stages in order."""
    table = work.table
    if not work.front:
        work.say("round.end.no_cards", "nobody holds a card: the round ends with no winner")
        work.phase = Phase.OVER
        work.winner = None
        return
    for seat, cards in enumerate(work.hands):
        if not cards and not work.played >> seat & 1:
            work.say("bout.turn.empty_hand", f"seat {seat + 1} holds no card and could not play")
    outcome = work.resolve()
    if table.rules.absolute_timing == AbsoluteTiming.END:
        work.end_abs = tuple(
            (p.card, owner(p, table)) for p in work.front if table.effect[p.card] == Effect.ABSOLUTE
        )
    work.front = [p for p in work.front if p.card not in outcome.discarded]
    work.discard(outcome.discarded)
    work.outcome = outcome
    work.luck_victim = None
    work.bouts += 1
    luck_first = table.rules.luck_timing == LuckTiming.BEFORE_RETURN
    work.stages = [
        *([Stage.LUCK_BEFORE] if luck_first else []),
        Stage.RETURN,
        *([] if luck_first else [Stage.LUCK_AFTER]),
        *([Stage.EXCHANGES] if work.end_abs else []),
        Stage.CHECK,
    ]
    work.phase = Phase.END


def _stage_luck(work: _Work) -> None:
    """If Luck was discarded, the player it lay in front of discards a card from hand."""
    assert work.outcome is not None
    seat = work.outcome.luck_seat
    if seat is None:
        return
    if _luck_options(work.table, work.hands[seat]):
        work.pending.append((LUCK, seat, 0, 0))
        return
    work.say(
        "card.luck.discard",
        f"Luck: seat {seat + 1} has no card it could discard (Fear is never discarded this way)",
    )


def _stage_return(work: _Work) -> None:
    """Cards not discarded go back to hand (option ``return_to``; official: by position)."""
    by_position = work.table.rules.return_to == ReturnTo.POSITION
    for placement in work.front:
        seat = placement.before if by_position else placement.by
        work.add_to_hand(seat, placement.card)
        work.say("bout.return", f"{work.name(placement.card)} goes back to seat {seat + 1}'s hand")
    work.front = []


def _stage_exchanges(work: _Work) -> None:
    """Option ``absolute_timing = "end"``: each Absolute played resolves now, in play order."""
    for card, seat in reversed(work.end_abs):
        work.pending.append((END_ABSOLUTE, seat, card, 0))
    work.end_abs = ()


def _round_winner(work: _Work) -> int | None:
    """The round end (rules file 000, "End of a Round"; "Luck"): Luck's 0 cards first, then
    (option ``zero_cards``) any 0 cards, then the highest single card."""
    hands = work.hands
    table = work.table
    victim = work.luck_victim
    if victim is not None and not hands[victim[0]]:
        work.say(
            "round.end.luck_zero",
            f"seat {victim[0] + 1} has 0 cards because of Luck and wins the round",
        )
        return victim[0]
    assert work.outcome is not None
    order = [(work.outcome.next_leader + step) % table.players for step in range(table.players)]
    empty = [seat for seat in order if not hands[seat]]
    if empty and table.rules.zero_cards == ZeroCards.ANY:
        work.say("round.end.zero_other", f"seat {empty[0] + 1} has 0 cards and wins the round")
        return empty[0]
    singles = [seat for seat in range(table.players) if len(hands[seat]) == 1]
    if not singles:
        if empty:
            names = ", ".join(str(seat + 1) for seat in empty)
            work.say(
                "round.end.zero_other",
                f"seat(s) {names} hold no card: they do not win and sit out the rest of the round",
            )
        return None
    best = max(singles, key=lambda seat: hands[seat][0])
    if len(singles) == 1:
        work.say("round.end.one_card", f"seat {best + 1} has 1 card left and wins the round")
    else:
        shown = ", ".join(f"seat {s + 1} holds {work.name(hands[s][0])}" for s in singles)
        work.say(
            "round.end.highest_single",
            f"{shown}: seat {best + 1} holds the highest card and wins the round",
        )
    return best


def _stage_check(work: _Work) -> None:
    """The end of the bout: round end, game end, or the next bout."""
    outcome = work.outcome
    assert outcome is not None
    table = work.table
    winner = _round_winner(work)
    discarded = set(outcome.discarded)
    if work.luck_victim is not None:
        discarded.add(work.luck_victim[1])
    next_leader = outcome.next_leader
    if winner is not None and not _pride_keeps_lead(table, outcome, work.luck_victim):
        next_leader = winner
    work.last = BoutSummary(
        work.bouts,
        outcome.winner,
        outcome.winning_card,
        tuple(sorted(discarded)),
        next_leader,
        winner,
        tuple(tuple(hand) for hand in work.hands),
    )
    if table.scope is Scope.BOUT:
        work.phase = Phase.OVER
        work.winner = outcome.winner
        return
    if winner is None:
        _next_bout(work, outcome.next_leader)
        return
    team = next(i for i, members in enumerate(work.teams) if winner in members)
    work.rounds_won[team] += 1
    if table.scope is Scope.ROUND:
        work.phase = Phase.OVER
        work.winner = winner
        return
    if work.rounds_won[team] >= 2:
        work.say("game.end", f"team {team + 1} has won 2 rounds and wins the game")
        work.phase = Phase.OVER
        work.winner = winner
        return
    leader = next_leader
    _new_round(work, leader)


def _pride_keeps_lead(
    table: Table, outcome: BoutOutcome, luck_victim: tuple[int, int] | None
) -> bool:
    """Whether Pride's choice of leader holds across the round end (option
    ``pride_next_round``; rules file 000, "End of a Round", says the round winner starts).
    ``unless_luck``: it holds unless a card was discarded from hand because of Luck in the
    bout that ended the round; ``unless_luck_discarded``: unless Luck itself was discarded in
    that bout (whether or not a card left its player's hand)."""
    setting = table.rules.pride_next_round
    if not outcome.pride or setting == "no":
        return False
    if setting == "unless_luck_discarded":
        return outcome.luck_seat is None
    return setting == "yes" or luck_victim is None


def _next_bout(work: _Work, leader: int) -> None:
    work.say("round.continue", f"nobody has won the round: seat {leader + 1} leads the next bout")
    _reset_bout(work, leader)
    if all(not hand for hand in work.hands):
        work.say("round.end.no_cards", "nobody holds a card: the round ends with no winner")
        work.phase = Phase.OVER
        work.winner = None


def _reset_bout(work: _Work, leader: int) -> None:
    work.phase = Phase.BOUT
    work.leader = leader
    work.played = 0
    work.law = None
    work.front = []
    work.pending = []
    work.stages = []
    work.outcome = None
    work.luck_victim = None
    work.end_abs = ()


def _new_round(work: _Work, leader: int) -> None:
    """A new round (rules file 000, "End of a Round"): every card is shuffled together (the
    boxed Absolutes too if option ``reshuffle_absolutes`` says so) and dealt again; or, for a
    game analysed with given deals (``Table.later_rounds``), the next given deal."""
    table = work.table
    if table.rules.reshuffle_absolutes == ReshuffleAbsolutes.ALL:
        work.box = ()
    index = sum(work.rounds_won) - table.later_from
    if 0 <= index < len(table.later_rounds):
        _deal_given(work, leader, table.later_rounds[index])
        return
    deck = tuple(sorted(set(table.catalogue) - set(work.box)))
    work.say(
        "round.new",
        f"a new round: {len(deck)} cards are shuffled and dealt; seat {leader + 1} leads",
    )
    for hand in work.hands:
        hand.clear()
    work.out = ()
    _reset_bout(work, leader)
    work.phase = Phase.DEAL
    work.deck = ((), deck)
    work.deal_queue = _deal_queue(deal_sizes(table.players, work.teams, first_round=False))


def _deal_given(work: _Work, leader: int, hands: tuple[tuple[int, ...], ...]) -> None:
    """The next round with the hands the analysis was given (no chance node)."""
    dealt = {card for hand in hands for card in hand}
    work.say(
        "round.new",
        "a new round with the given deal: "
        + ", ".join(f"seat {s + 1} {len(h)}" for s, h in enumerate(hands))
        + f"; seat {leader + 1} leads",
    )
    _reset_bout(work, leader)
    work.hands = [sorted(hand) for hand in hands]
    work.out = tuple(sorted(set(work.table.catalogue) - dealt - set(work.box)))


def _deal_queue(
    sizes: Sequence[int], have: Sequence[int] | None = None
) -> tuple[tuple[int, int], ...]:
    """One card at a time, seat by seat, until each seat has its size."""
    have = have or [0] * len(sizes)
    queue = []
    for step in range(max(sizes)):
        for seat, size in enumerate(sizes):
            if have[seat] + step < size:
                queue.append((seat, _MAIN_POOL))
    return tuple(queue)


def _finish_deal(work: _Work) -> None:
    """After the Absolutes: form teams and deal the rest; after the hands: start the round."""
    table = work.table
    if len(work.teams) == table.players:
        absolute_of = [hand[0] for hand in work.hands]
        work.teams = derive_teams(absolute_of)
        work.rounds_won = [0] * len(work.teams)
        work.box = work.deck[0]
        work.leader = max(range(table.players), key=lambda seat: absolute_of[seat])
        work.say(
            "setup.absolutes",
            "each player has an Absolute face up"
            + (f"; {', '.join(map(str, work.box))} go back to the box" if work.box else ""),
        )
        teams = " and ".join("+".join(str(s + 1) for s in team) for team in work.teams)
        work.say("setup.teams", f"teams: {teams}")
        work.say(
            "setup.first_leader", f"seat {work.leader + 1} holds the highest Absolute and leads"
        )
        sizes = deal_sizes(table.players, work.teams, first_round=True)
        work.deck = ((), work.deck[1])
        work.deal_queue = _deal_queue(sizes, [1] * table.players)
        return
    work.say(
        "setup.deal",
        "the cards are dealt: "
        + ", ".join(f"seat {s + 1} {len(h)}" for s, h in enumerate(work.hands)),
    )
    work.out = tuple(sorted(work.deck[1]))
    work.deck = ((), ())
    _reset_bout(work, work.leader)


_STAGES: Final[dict[str, Callable[[_Work], None]]] = {
    Stage.LUCK_BEFORE: _stage_luck,
    Stage.RETURN: _stage_return,
    Stage.LUCK_AFTER: _stage_luck,
    Stage.EXCHANGES: _stage_exchanges,
    Stage.CHECK: _stage_check,
}
