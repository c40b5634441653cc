"""Advice for one seat that sees only its own hand: perfect-information Monte Carlo (PIMC).

What the seat knows is a :class:`View`: the position at the start of the current bout as that
seat sees it (its own hand, how many cards every other hand holds, the cards it knows to be in
other hands, the cards discarded face up and the box), and the moves of the bout so far, with
``?`` where the seat did not see a card (another seat's gift in The Absolute's secret exchange,
a card shown by Secret to someone else). The rest is hidden.

The deals **consistent** with a view give every hidden slot of every other hand one card of the
unseen pool (the card counts are exact); the rest of the pool is out of the round. A deal is
kept only if the bout's moves are legal in it (a player who did not follow Law had no card that
could). Every consistent deal has the same weight, unless the view states weights
(``weight(deal)`` is the product of the stated weights of the cards each seat holds), and a
``?`` stands for each of the player's legal actions with the same weight.

For every legal action of the seat, its team's value after the action is solved exactly in each
deal (every hand open): by default one solve of the deal whose root is the seat's decision, its
moves searched by turns on shared tables (the per-move answers of
:mod:`omen_solver.core.search.moves`), so that within the deal's budget the moves whose proofs
are small are settled first and the others keep the bounds proven for them; with
``per_move=False``, the values-only searches of :func:`omen_solver.survey.exact.values_of` (the
positions after each action in turn, sharing one search). The mean over the deals is the
action's win probability, over the deals that settled it; the mean of the bounds over every deal
searched bounds it whatever the unsettled deals are worth. With ``estimates`` (the default of
``per_move``), a deal's solve also evaluates the moves it leaves open
(:mod:`omen_solver.omens.kernel.estimate`), and the win probability is then the mean over the
deals of the exact value where the deal settled the action and the estimate's win rate where it
did not: an **estimate**, said as such, with the count of deals settled exactly.
``total_seconds`` bounds the whole advice: each deal gets an equal share of what is left (at
most its own budget). With few consistent deals every one is enumerated and the answer is exact
over deals; otherwise deals are sampled uniformly (rejecting the inconsistent ones) and each
probability has a 95 % Wilson interval (over the effective sample size when weights differ). A
search that runs out of budget is counted as unknown for that action and deal (with its bounds),
never as a win or a loss.

PIMC answers "which action is best if the hands were then shown": it may over-value an action
that needs to guess differently in deals the seat cannot tell apart (strategy fusion,
``docs/advice.md``).
"""

from __future__ import annotations

import itertools
import math
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.game import SIMULTANEOUS, GameState
from omen_solver.errors import AdviceError, IllegalActionError, InvalidActionError
from omen_solver.omens.actions import OmensAction, Verb, parse_action
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from omen_solver.omens.vocabulary import ChoiceWord
from omen_solver.survey.exact import values_of
from omen_solver.survey.stats import wilson

__all__ = [
    "DEFAULT_DEAL_SECONDS",
    "DEFAULT_EXACT_LIMIT",
    "DEFAULT_SAMPLES",
    "DEFAULT_TOTAL_SECONDS",
    "ActionValue",
    "Advice",
    "Tracker",
    "View",
    "advise",
    "consistent_count",
]

DEFAULT_SAMPLES: Final = 200
DEFAULT_TOTAL_SECONDS: Final = 60.0
"""The command line's time limit of a whole advice (every deal's searches together)."""
DEFAULT_DEAL_SECONDS: Final = 30.0
"""The time limit of one deal's searches at most (an interactive tool's budget)."""
DEFAULT_EXACT_LIMIT: Final = 500
"""Up to this many assignments of the hidden cards, every deal is enumerated."""
HIDDEN: Final = "?"
MAX_TRIES_PER_SAMPLE: Final = 1000


@dataclass(frozen=True)
class View:
    """What ``seat`` knows at the start of the current bout, and the bout's moves since."""

    table: Table
    teams: tuple[tuple[int, ...], ...]
    seat: int
    leader: int
    hand: tuple[int, ...]
    """The seat's own hand at the start of the bout."""
    sizes: tuple[int, ...]
    """How many cards each seat held at the start of the bout."""
    known: Mapping[int, frozenset[int]]
    """Other seats' cards the seat knows of (at the start of the bout)."""
    discarded: frozenset[int] = frozenset()
    box: frozenset[int] = frozenset()
    rounds_won: tuple[int, ...] = ()
    moves: tuple[str, ...] = ()
    """The bout's moves so far, canonical text, ``?`` for a card the seat did not see."""
    weights: Mapping[tuple[int, int], float] = field(default_factory=dict)
    """(seat, card) -> a relative weight of that seat holding that card (default 1)."""

    def unseen(self) -> tuple[int, ...]:
        """The cards the seat cannot place: in some hidden slot, or out of the round."""
        located = set(self.hand) | self.discarded | self.box
        for cards in self.known.values():
            located |= cards
        return tuple(sorted(set(self.table.catalogue) - located))

    def slots(self) -> tuple[int, ...]:
        """Hidden cards in each seat's hand."""
        return tuple(
            0 if seat == self.seat else self.sizes[seat] - len(self.known.get(seat, ()))
            for seat in range(self.table.players)
        )

    def check(self) -> None:
        """A view that cannot happen raises :class:`AdviceError` saying why."""
        if len(self.hand) != self.sizes[self.seat]:
            raise AdviceError(f"seat {self.seat + 1}: the hand has {len(self.hand)} cards, "
                              f"the size says {self.sizes[self.seat]}")
        for seat, cards in self.known.items():
            if seat == self.seat:
                continue
            if len(cards) > self.sizes[seat]:
                raise AdviceError(f"seat {seat + 1}: {len(cards)} known cards in a hand of "
                                  f"{self.sizes[seat]}")
        if sum(self.slots()) > len(self.unseen()):
            raise AdviceError(f"{sum(self.slots())} hidden cards in hands but only "
                              f"{len(self.unseen())} cards unseen")


# -- consistent deals --------------------------------------------------------------------------


def _from_hand(action: OmensAction) -> list[int]:
    """The cards an action shows to have been in its seat's hand: a card played, Betrayal's
    gift (other than the card just taken), a card shown by Secret, given or discarded."""
    if action.verb in (Verb.GIVES, Verb.SHOWS, Verb.DISCARDS):
        return [action.card]
    if action.verb is not Verb.PLAY:
        return []
    cards = [action.card]
    kind = action.choice[:1]
    gift = kind == (ChoiceWord.TAKE,) and action.choice[2] != action.choice[1]
    if gift or kind == (ChoiceWord.SHOW,):
        cards.append(int(action.choice[2]))
    return cards


def _moved(action: OmensAction) -> set[int]:
    """Every number an action names (cards it moves, and seats: a harmless excess)."""
    return {action.card, *(item for item in action.choice if isinstance(item, int))}


def revealed(view: View) -> dict[int, frozenset[int]]:
    """Cards the bout's moves show were in another seat's hand at the start of the bout.

    A card that leaves a hand in plain sight (played, given by Betrayal, shown, given or
    discarded) was in that hand at the start of the bout, unless it had moved earlier in the
    bout (taken from play, returned by Wrath, swapped): such cards prove nothing. After a gift
    the seat did not see (``gives ?``, The Absolute's exchange) a card has changed hands unseen,
    so later moves prove nothing either; a card shown to someone else (``?``) moves nothing.
    Every deal
    consistent with the moves holds these cards there, so placing them first changes no
    probability; it only spares sampling the deals that would be rejected.
    """
    found: dict[int, set[int]] = {}
    moved: set[int] = set()
    for text in view.moves:
        parts = [part.strip() for part in text.split("&")]
        try:
            # An unseen card reads as 0, which is no card.
            actions = [parse_action(part.replace(HIDDEN, "0")) for part in parts]
        except InvalidActionError:
            break
        for action in actions:
            if action.seat != view.seat:
                for card in _from_hand(action):
                    if card and card not in moved:
                        found.setdefault(action.seat, set()).add(card)
            moved |= _moved(action)
        if any(a.verb is Verb.GIVES and HIDDEN in part for a, part in zip(actions, parts,
                                                                           strict=True)):
            break
    return {seat: frozenset(cards) for seat, cards in found.items()}


def with_revealed(view: View) -> View:
    """``view`` with the cards its moves reveal (:func:`revealed`) added to what it knows."""
    known = {seat: frozenset(cards) for seat, cards in view.known.items()}
    for seat, cards in revealed(view).items():
        known[seat] = known.get(seat, frozenset()) | cards
    return replace(view, known=known)


def consistent_count(view: View) -> int:
    """The number of assignments of unseen cards to hidden slots (before the moves' check)."""
    left = len(view.unseen())
    total = 1
    for size in view.slots():
        total *= math.comb(left, size)
        left -= size
    return total


def _start(view: View, hidden: Sequence[Sequence[int]]) -> OmensState:
    hands = []
    for seat in range(view.table.players):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(sorted([*view.known.get(seat, ()), *hidden[seat]]))
    held = {c for hand in hands for c in hand}
    out = sorted(set(view.table.catalogue) - held - view.box)
    return OmensState.start_of_bout(
        view.table, hands, view.teams, view.leader,
        rounds_won=view.rounds_won or None, out=out, box=sorted(view.box),
    )


def _weight(view: View, hidden: Sequence[Sequence[int]]) -> float:
    weight = 1.0
    for seat, cards in enumerate(hidden):
        for card in cards:
            weight *= view.weights.get((seat, card), 1.0)
    return weight


def _replay(state: OmensState, moves: Sequence[str]) -> Iterator[tuple[OmensState, Fraction]]:
    """Every way the moves can be replayed (a ``?`` stands for each legal card), with the
    probability of the hidden choices; none if a move is illegal in this deal."""
    if not moves:
        yield state, Fraction(1)
        return
    text, rest = moves[0], moves[1:]
    if HIDDEN in text:
        options = _hidden_options(state, text)
        for option in options:
            for after, p in _replay(state.apply_move(option), rest):
                yield after, p / len(options)
        return
    try:
        move = state.parse_move(text)
    except IllegalActionError:
        return
    yield from _replay(state.apply_move(move), rest)


def _hidden_options(state: OmensState, text: str) -> list[tuple[OmensAction, ...]]:
    """The legal moves a text with ``?`` can stand for: each ``?`` is a card value the seat
    did not see (``3:gives ?``, ``1:gives 9 & 3:gives ?``, ``2:shows ?``, ``1:24 show 3 ?``)."""
    pattern = re.compile(r"\s*" + r"\s+".join(
        re.escape(word).replace(re.escape(HIDDEN), r"\d+") for word in text.split()
    ) + r"\s*")
    return [move for move in state.moves() if pattern.fullmatch(state.move_to_string(move))]


def _assignments(view: View) -> Iterator[list[list[int]]]:
    """Every assignment of unseen cards to hidden slots, in a fixed order."""
    slots = view.slots()

    def fill(seat: int, pool: tuple[int, ...]) -> Iterator[list[list[int]]]:
        if seat == len(slots):
            yield []
            return
        for chosen in itertools.combinations(pool, slots[seat]):
            remaining = tuple(c for c in pool if c not in chosen)
            for tail in fill(seat + 1, remaining):
                yield [list(chosen), *tail]

    yield from fill(0, view.unseen())


def _random_assignment(view: View, rng: random.Random) -> list[list[int]]:
    pool = list(view.unseen())
    rng.shuffle(pool)
    hidden, position = [], 0
    for size in view.slots():
        hidden.append(sorted(pool[position : position + size]))
        position += size
    return hidden


@dataclass(frozen=True)
class WeightedDeal:
    """One consistent deal: the current state and its weight."""

    state: OmensState
    weight: float


def enumerate_deals(view: View) -> list[WeightedDeal]:
    deals = []
    for hidden in _assignments(view):
        weight = _weight(view, hidden)
        for state, p in _replay(_start(view, hidden), view.moves):
            deals.append(WeightedDeal(state, weight * float(p)))
    return deals


def sample_deals(view: View, count: int, seed: int) -> tuple[list[WeightedDeal], int]:
    """``count`` deals drawn uniformly from the consistent ones, and how many were rejected."""
    rng = random.Random(seed)
    deals: list[WeightedDeal] = []
    rejected = 0
    while len(deals) < count:
        hidden = _random_assignment(view, rng)
        replays = list(_replay(_start(view, hidden), view.moves))
        if not replays:
            rejected += 1
            if rejected > MAX_TRIES_PER_SAMPLE * (len(deals) + 1):
                raise AdviceError(
                    f"no deal consistent with the moves found in {rejected} tries: check the "
                    "moves, the known cards and the hand sizes"
                )
            continue
        # A '?' move: choose one of its readings with its probability.
        pick = rng.random()
        chosen = len(replays) - 1
        for index, (_, p) in enumerate(replays):
            pick -= float(p)
            if pick <= 0:
                chosen = index
                break
        deals.append(WeightedDeal(replays[chosen][0], _weight(view, hidden)))
    return deals, rejected


# -- evaluation ------------------------------------------------------------------------------


@dataclass
class ActionValue:
    action: str
    total: float = 0.0
    weight: float = 0.0
    square: float = 0.0
    known: int = 0
    unknown: int = 0
    low_total: float = 0.0
    """The weighted sum over every deal searched of the proven lower bound (the value where
    settled)."""
    high_total: float = 0.0
    searched_weight: float = 0.0
    estimated: int = 0
    """Deals not settled whose solve gave the action an estimate."""
    estimate_total: float = 0.0
    """The weighted sum of the values where settled and the estimates where not."""
    estimate_weight: float = 0.0
    estimate_square: float = 0.0

    def add(self, weight: float, value: float | None, lower: float, upper: float,
            estimate: float | None = None) -> None:
        """One deal's answer: its value when settled, else only its bounds (and the
        estimate's win rate where the deal's solve evaluated the action)."""
        if value is None:
            self.unknown += 1
            if estimate is not None:
                self.estimated += 1
                self._estimated(weight, estimate)
        else:
            self.known += 1
            self.total += weight * value
            self.weight += weight
            self.square += weight * weight
            lower = upper = value
            self._estimated(weight, value)
        self.low_total += weight * lower
        self.high_total += weight * upper
        self.searched_weight += weight

    def _estimated(self, weight: float, value: float) -> None:
        self.estimate_total += weight * value
        self.estimate_weight += weight
        self.estimate_square += weight * weight

    @property
    def estimate(self) -> float | None:
        """The win probability with the estimates of the deals not settled (None where no
        deal was estimated: then :attr:`probability` is the whole answer)."""
        if not self.estimated or self.estimate_weight == 0:
            return None
        return self.estimate_total / self.estimate_weight

    def estimate_interval(self) -> tuple[float, float]:
        """The 95 % interval of :attr:`estimate` over the deals (the deals drawn, not the
        error of each estimate)."""
        p = self.estimate
        if p is None:
            return 0.0, 1.0
        n = max(1, round(self.estimate_weight ** 2 / self.estimate_square))
        return wilson(p * n, n)

    @property
    def score(self) -> float | None:
        """What orders the actions: the estimate where one was made, else the probability."""
        estimate = self.estimate
        return estimate if estimate is not None else self.probability

    @property
    def bounds(self) -> tuple[float, float]:
        """The win probability over every deal searched lies between these (settled deals at
        their value, the others anywhere within their proven bounds)."""
        if self.searched_weight == 0:
            return 0.0, 1.0
        return self.low_total / self.searched_weight, self.high_total / self.searched_weight

    @property
    def probability(self) -> float | None:
        return None if self.weight == 0 else self.total / self.weight

    @property
    def effective(self) -> float:
        """The effective sample size (Kish) of the weighted mean."""
        return 0.0 if self.square == 0 else self.weight * self.weight / self.square

    def interval(self, exact: bool) -> tuple[float, float]:
        p = self.probability
        if p is None:
            return 0.0, 1.0
        if exact and self.unknown == 0:
            return p, p
        n = max(1, round(self.effective))
        return wilson(p * n, n)

    def to_json(self, exact: bool) -> dict[str, Any]:
        low, high = self.interval(exact)
        p = self.probability
        least, most = self.bounds
        data: dict[str, Any] = {
            "action": self.action, "win_probability": None if p is None else round(p, 6),
            "low": round(low, 6), "high": round(high, 6), "deals": self.known,
            "settled": self.known, "unknown": self.unknown,
            "bounds": [round(least, 6), round(most, 6)]}
        estimate = self.estimate
        if estimate is not None:
            low, high = self.estimate_interval()
            # the settled deals' values with the estimates of the others: never a proof
            data["estimate"] = {"kind": "estimate", "win_rate": round(estimate, 4),
                                "low": round(low, 4), "high": round(high, 4),
                                "settled": self.known, "estimated": self.estimated}
        return data


def _rank(value: ActionValue) -> tuple[float, float]:
    p = value.score
    return (-(p if p is not None else -1.0), -value.bounds[1])


@dataclass
class Advice:
    seat: int
    team: tuple[int, ...]
    exact: bool
    deals: int
    rejected: int
    assignments: int
    actions: list[ActionValue]
    seconds: float = 0.0
    searched: int = 0
    """Deals searched (the others were not reached within ``total_seconds``)."""
    total_seconds: float | None = None

    @property
    def ranked(self) -> list[ActionValue]:
        """The actions best first: by win probability (none last), then by the upper bound of
        the deals not settled, then in the order of the legal actions."""
        return sorted(self.actions, key=_rank)

    @property
    def best(self) -> ActionValue | None:
        """The first of :attr:`ranked` with a win probability (with the estimates of the deals
        not settled, where there are some): the table's top row."""
        return next((a for a in self.ranked if a.score is not None), None)

    @property
    def estimated(self) -> bool:
        """Whether some action's probability rests on estimates (not only on proofs)."""
        return any(a.estimated for a in self.actions)

    @property
    def unknown(self) -> int:
        return sum(a.unknown for a in self.actions)

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "seat": self.seat + 1,
            "team": [s + 1 for s in self.team],
            "method": "exact over deals" if self.exact else "sampled",
            "deals": self.deals,
            "rejected": self.rejected,
            "hidden_assignments": self.assignments,
            "best_action": None if best is None else best.action,
            "actions": [{"rank": rank, **a.to_json(self.exact)}
                        for rank, a in enumerate(self.ranked, start=1)],
            "estimated": self.estimated,
            "unknown": self.unknown,
            "searched": self.searched,
            "seconds": round(self.seconds, 3),
            "total_seconds": self.total_seconds,
        }


def advise(
    view: View,
    *,
    samples: int = DEFAULT_SAMPLES,
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    seed: int = 0,
    budget: Budget | None = None,
    total_seconds: float | None = None,
    per_move: bool = True,
    estimates: bool | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Advice:
    """Every legal action of ``view.seat`` with its win probability over consistent deals.

    ``budget`` bounds one deal's searches, ``total_seconds`` (``None``: no limit) all of them:
    each deal gets an equal share of the time left; the deals not reached count as unknown for
    every action. ``estimates`` (default: with ``per_move``): each deal's moves left open are
    evaluated (an estimate beside the proofs). ``progress(done, deals, seconds)`` is called
    before the first deal and after each."""
    if estimates is None:
        estimates = per_move
    if estimates and not per_move:
        raise AdviceError("estimates come with the per-move answers (per_move=True)")
    view = with_revealed(view)
    view.check()
    budget = budget or Budget(max_seconds=DEFAULT_DEAL_SECONDS)
    began = time.perf_counter()
    assignments = consistent_count(view)
    exact = assignments <= exact_limit
    if exact:
        deals, rejected = enumerate_deals(view), 0
        if not deals:
            raise AdviceError("no deal is consistent with this view and its moves")
    else:
        deals, rejected = sample_deals(view, samples, seed)
    first = deals[0].state
    if first.is_terminal():
        raise AdviceError("the round is over: there is nothing to advise")
    acting = first.current_player()
    if acting != view.seat:
        who = "a simultaneous exchange" if acting == SIMULTANEOUS else f"seat {acting + 1}"
        raise AdviceError(f"seat {view.seat + 1} is not to act here ({who} is)")
    team_index = first.team_of(view.seat)
    texts = [first.action_to_string(a) for a in first.legal_actions()]
    values = {text: ActionValue(text) for text in texts}
    searched = 0
    if progress is not None:
        progress(0, len(deals), time.perf_counter() - began)
    for number, deal in enumerate(deals):
        state = deal.state
        legal = {state.action_to_string(a): a for a in state.legal_actions()}
        if set(legal) != set(texts):
            raise AdviceError("the seat's legal actions differ between deals it cannot tell "
                              "apart; the view is inconsistent")
        share = _share(budget, total_seconds, time.perf_counter() - began, len(deals) - number)
        if share is None:
            for entry in values.values():
                entry.unknown += 1
            continue
        searched += 1
        if per_move:
            answers = _per_move(state, view.seat, share, estimates, seed + number)
        else:
            answers = _values_only(state, legal, team_index, share)
        for text in legal:
            value, lower, upper, guess = answers.get(text, (None, 0.0, 1.0, None))
            values[text].add(deal.weight, value, lower, upper, guess)
        if progress is not None:
            progress(number + 1, len(deals), time.perf_counter() - began)
    return Advice(view.seat, first.teams()[team_index], exact, len(deals), rejected,
                  assignments, list(values.values()), time.perf_counter() - began, searched,
                  total_seconds)


def _share(budget: Budget, total: float | None, spent: float, left: int) -> Budget | None:
    """One deal's budget: its own, within an equal share of the total time left (``None``:
    none left)."""
    if total is None:
        return budget
    remaining = total - spent
    if remaining <= 0.01:
        return None
    share = remaining / left
    seconds = share if budget.max_seconds is None else min(budget.max_seconds, share)
    return Budget(budget.max_nodes, seconds)


Answer = tuple[float | None, float, float, float | None]
"""A move's value in one deal (``None``: not settled), its proven bounds, and its estimate's
win rate where the deal's solve evaluated it (``None``: none)."""


def _per_move(state: OmensState, seat: int, budget: Budget, estimates: bool = False,
              seed: int = 0) -> dict[str, Answer]:
    """The seat's moves in one deal by the solver's per-move answers (with ``estimates``,
    each move left open with its estimate, drawn from ``seed``)."""
    from omen_solver.core.search import solve
    from omen_solver.survey.exact import concept_for

    result = solve(state, concept=concept_for(state), team=seat + 1, budget=budget, threads=1,
                   estimate=estimates, seed=seed if estimates else None)
    answers: dict[str, Answer] = {}
    for move in result.moves:
        lower = 0.0 if move.lower is None else float(move.lower)
        upper = 1.0 if move.upper is None else float(move.upper)
        value = None if move.value is None else float(move.value)
        if value is None and result.solved and result.value is not None \
                and move.lower is not None and move.lower >= result.value:
            value = float(result.value)  # it reaches the best value, and none is above it
        guess = None if move.estimate is None or value is not None else move.estimate.win_rate
        answers[move.action] = (value, lower, upper, guess)
    return answers


def _values_only(state: OmensState, legal: Mapping[str, Any], team: int,
                 budget: Budget) -> dict[str, Answer]:
    """The seat's moves in one deal by values-only searches of the positions after them."""
    children: list[GameState[Any]] = [state.child(action) for action in legal.values()]
    answers: dict[str, Answer] = {}
    for text, outcome in zip(legal, values_of(children, budget), strict=True):
        if outcome.values is not None:
            value = float(outcome.values[team])
            answers[text] = (value, value, value, None)
        elif outcome.bounds:
            low, high = outcome.bounds[team]
            answers[text] = (None, float(low), float(high), None)
        else:
            answers[text] = (None, 0.0, 1.0, None)
    return answers


# -- who knows what, during play -------------------------------------------------------------


def _bout_start(state: OmensState) -> bool:
    return (not state.is_terminal() and not state.in_play and not state.pending
            and not any(state.played_this_bout(s) for s in range(state.num_players())))


class Tracker:
    """Who knows which card is in which hand, followed move by move through a round.

    A card that reaches a hand from play (cards going back to hand at the end of a bout,
    Betrayal's take, Wrath's return) is seen by everyone; a card that reaches a hand from
    another hand (The Absolute's exchange) is known to the two players of the exchange; a card
    shown by Secret is known to the one it is shown to; a card leaving a hand is forgotten there.
    Discards are face up.
    """

    def __init__(self, state: OmensState) -> None:
        players = state.num_players()
        self.players = players
        self.known: list[list[set[int]]] = [[set() for _ in range(players)]
                                            for _ in range(players)]
        for seat, hand in enumerate(state.hands):
            self.known[seat][seat] = set(hand)
        self.discarded: set[int] = set()
        self.bout_start = state
        self.bout_moves: list[list[str]] = [[] for _ in range(players)]
        self.start_known: list[list[frozenset[int]]] = self._snapshot()
        self.start_discarded: frozenset[int] = frozenset()

    def _snapshot(self) -> list[list[frozenset[int]]]:
        return [[frozenset(cards) for cards in row] for row in self.known]

    def observe(self, before: OmensState, move: Sequence[OmensAction], after: OmensState) -> None:
        in_play = {p.card for p in before.in_play}
        for seat in range(self.players):
            old, new = set(before.hands[seat]), set(after.hands[seat])
            for viewer in range(self.players):
                self.known[viewer][seat] &= new
            for card in new - old:
                if card in in_play:
                    witnesses: Sequence[int] = range(self.players)
                else:
                    witnesses = [a.seat for a in move]
                for viewer in (*witnesses, seat):
                    self.known[viewer][seat].add(card)
        for action in move:
            if action.verb is Verb.SHOWS:
                viewer = before.pending[-1][2]
                self.known[viewer][action.seat].add(action.card)
            elif action.verb is Verb.PLAY and action.choice[:1] == (ChoiceWord.SHOW,):
                self.known[int(action.choice[1])][action.seat].add(int(action.choice[2]))
        self.discarded |= set(after.discard_pile) - set(before.discard_pile)
        for seat in range(self.players):
            self.bout_moves[seat].append(self.seen_by(seat, before, move))
        if _bout_start(after):
            self.bout_start = after
            self.bout_moves = [[] for _ in range(self.players)]
            self.start_known = self._snapshot()
            self.start_discarded = frozenset(self.discarded)

    @staticmethod
    def seen_by(seat: int, before: OmensState, move: Sequence[OmensAction]) -> str:
        """The move as ``seat`` saw it: a card given or shown between two other seats is ``?``."""
        seats = {a.seat for a in move}
        if len(move) == 1 and before.pending and move[0].verb in (Verb.GIVES, Verb.SHOWS):
            seats.add(before.pending[-1][2])
        parts = []
        for action in move:
            text = str(action)
            private = action.verb in (Verb.GIVES, Verb.SHOWS) or (
                action.verb is Verb.PLAY and action.choice[:1] == (ChoiceWord.SHOW,)
            )
            if private and seat not in seats and not (
                action.verb is Verb.PLAY and int(action.choice[1]) == seat
            ):
                text = text.rsplit(" ", 1)[0] + " " + HIDDEN
            parts.append(text)
        return " & ".join(parts)

    def view(self, seat: int) -> View:
        start = self.bout_start
        known = {other: self.start_known[seat][other] for other in range(self.players)
                 if other != seat and self.start_known[seat][other]}
        return View(
            start.table, start.teams(), seat, start.leader, tuple(start.hands[seat]),
            tuple(len(hand) for hand in start.hands), known, self.start_discarded,
            frozenset(start.box), start.rounds_won, tuple(self.bout_moves[seat]),
        )
