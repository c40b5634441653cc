"""Endgames: exact best play over the last turns of an Omen game.

``solve_endgame(state, ...)`` answers "who wins from here with best play, and by how much?"
for a position some turns from the end, every hand open (the question a puzzle asks):
win, shared victory or loss for the asked seat, the VP margin, every optimal first action, and
the principal variation with the rule-by-rule trace of each of its steps.

**Draws.** A draw from the shuffled part of the deck is a chance event whose outcomes have
exact probabilities from the cards left in it (cards seen are not in it: ``draws.py``); a deck
of known order (``deck.top``) is drawn without chance. Two named concepts (:class:`Draws`):

* ``expected``: the expected result (expectimax). The value is the asked seat's expected
  return: 1 for a win, 1/2 for a shared victory, 0 for a loss, weighted by the draws'
  probabilities. Searched with Star1/Star2 pruning bounded by the victory points still
  reachable (``bounds.py``).
* ``worst-case``: adversarial draws. Every draw falls as badly as possible for the asked seat;
  the value is what that seat guarantees whatever is drawn.

**How far.** To the end of the game (the rulebooks' end conditions), or to ``turns`` turns
counting the turn in progress; a line still going on after the last of them is scored as it
stands (the rulebooks' scoring and tie-breaks applied to the table at that moment), and the
answer says that some line was cut there (``horizon_reached``).

**Reductions that keep the value** (:class:`Reduction`; the default set
:data:`DEFAULT_REDUCTIONS` is what the benchmark found never costs more nodes):

* Transpositions: a state reached by several orders is searched once (the transposition table
  keyed by the state: hands and city sides are sorted multisets). Always on.
* ``keep-orders``: keeping units after a war in sorted order, so each set of kept units is
  reached once.
* ``vp-bounds``: a state whose outcome is decided (one seat's guaranteed points exceed
  everything the other can still score) is not searched further.
* ``commuting-plays``: two consecutive plays of units with no entry ability (no DEPLOY, no
  Spirit choice, no passive modifier) while no Priestess is on the table reach the same state
  in either order, so after such a play only plays of such units that sort after it are tried.
* ``same-state``: choices leading to the same state are tried once, and of two leading to the
  same table the one leaving the chooser fewer coins (and the opponent no fewer) is dropped
  when no card still in play reads coins (no ``coins`` condition, no ``steal_coins``, no 003
  extra Wealth actions): then more coins never hurt their owner.
* ``star2``: Star2 probing at chance nodes (Star1 is always on).

The root's every legal action is tried, so the optimal first actions are complete.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from omen_solver.core.budget import Budget, Progress, Status
from omen_solver.core.game import CHANCE, TERMINAL, GameState
from omen_solver.core.search.alphabeta import exact
from omen_solver.core.search.result import Concept, SolveResult
from omen_solver.core.search.solver import principal_variation, root_bounds
from omen_solver.core.search.star import StarSearch, ValueBounds
from omen_solver.core.walk import TooDeep
from omen_solver.errors import BudgetExceeded, IllegalActionError, KernelRefused, OptionError
from omen_solver.omen import scoring
from omen_solver.omen.bounds import vp_bounds
from omen_solver.omen.notation import Action, parse_action
from omen_solver.omen.rules import ExtraWealthActions
from omen_solver.omen.search_settings import (
    ALL_REDUCTIONS,
    DEFAULT_REDUCTIONS,
    Draws,
    EndgameSettings,
    Reduction,
    reductions_of,
)
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import Keep
from omen_solver.omen.zones import quick_replace

__all__ = ["ALL_REDUCTIONS", "DEFAULT_REDUCTIONS", "Draws", "EndgameSettings", "EndgameView",
           "Goal", "Objective", "Reduction", "Restriction", "Run", "details", "goal_search",
           "kernel_solve", "reductions_of", "solve_endgame"]

Marker = tuple[str, ...] | None
KEEP_MARKER = ("keep",)


class Objective(enum.Enum):
    """What the search maximises for the asked seat."""

    RESULT = "result"
    """1 for a win, 1/2 for a shared victory, 0 for a loss (R13's tie-breaks decide ties)."""
    MARGIN = "margin"
    """The asked seat's victory points minus the other seat's."""
    GOAL = "goal"
    """1 if the asked seat wins the war of a given city in a given turn, else 0 (the
    arithmetic questions' cross-check, ``arithmetic.py``)."""


@dataclass
class _Rules:
    """What one endgame search asks: shared by every state of the search."""

    objective: Objective
    draws: Draws
    asked: int
    last_turn: int | None
    reductions: frozenset[Reduction]
    coins_monotone: bool
    margin_bounds: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))
    horizon_leaves: int = 0
    goal: Goal | None = None
    allowed: Restriction | None = None
    """A restriction of the legal actions (at every decision, the root's too): the question
    asked is about these actions only."""
    pruned: dict[str, int] = field(default_factory=lambda: {
        "commuting plays": 0, "keep orders": 0, "same state": 0, "fewer coins": 0})


class EndgameView(GameState[Action]):
    """An Omen state as the endgame search sees it: cut at the last turn, draws valued by the
    chosen concept, and the reductions applied to the legal actions (not at the root)."""

    __slots__ = ("_actions", "_children", "_dead", "goal_reached", "is_root", "marker", "rules",
                 "state")

    def __init__(self, state: OmenState, rules: _Rules, marker: Marker = None,
                 *, is_root: bool = False) -> None:
        self.state = state
        self.rules = rules
        self.marker = marker
        """What the last action (taken below the root) allows next: after a play that
        commutes, ``("play", card, city)`` (later commuting plays must not sort before it);
        after keeping a unit, ``("keep",)`` (later keeps must not sort before it)."""
        self.is_root = is_root
        self._children: dict[Action, EndgameView] | None = None
        self._dead: bool | None = None
        self._actions: tuple[Action, ...] | None = None
        self.goal_reached = False

    # -- the game protocol ------------------------------------------------------------------

    def num_players(self) -> int:
        return 2

    def at_horizon(self) -> bool:
        last = self.rules.last_turn
        return last is not None and not self.state.over and self.state.turn.number > last

    def dead_end(self) -> bool:
        """Keeping units in sorted order leaves no unit to keep although one must be kept:
        this order of keeps is not the sorted one, whose sibling reaches the same units."""
        if self._dead is None:
            self._dead = (self.marker == KEEP_MARKER and self.state.current_player() >= 0
                          and not _canonical_keeps(self.state, self.state.legal_actions()))
        return self._dead

    def past_goal(self) -> bool:
        """The goal was reached, or its War step is over without it."""
        goal = self.rules.goal
        if goal is None:
            return False
        turn = self.state.turn
        return self.goal_reached or turn.number > goal.turn or (
            turn.number == goal.turn and turn.step == "offering")

    def current_player(self) -> int:
        if self.state.over or self.at_horizon() or self.past_goal() or self.dead_end():
            return TERMINAL
        player = self.state.current_player()
        if player == CHANCE and self.rules.draws is Draws.WORST_CASE:
            return 1 - self.rules.asked
        return player

    def _draw_choice(self) -> bool:
        return (self.rules.draws is Draws.WORST_CASE
                and self.state.current_player() == CHANCE)

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        acting = self.current_player()
        if acting == TERMINAL or (player is not None and player != acting):
            return ()
        if self._actions is None:
            self._actions = self._legal(acting)
        return self._actions

    def _legal(self, acting: int) -> tuple[Action, ...]:
        if self._draw_choice():
            return tuple(outcome for outcome, _ in self.state.chance_outcomes())
        actions = self.state.legal_actions()
        if self.rules.allowed is not None:
            actions = self.rules.allowed(self.state, actions)
        if self.is_root or not self.rules.reductions or acting < 0:
            return actions
        return self._reduced(actions)

    def _on(self, reduction: Reduction) -> bool:
        return reduction in self.rules.reductions

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.current_player() != CHANCE:
            return ()
        return self.state.chance_outcomes()

    def child(self, action: Action) -> EndgameView:
        if self._children is not None and action in self._children:
            return self._children[action]
        return self._make_child(action)

    def _make_child(self, action: Action) -> EndgameView:
        following = self.state.child(action)  # the engine checks the action (or outcome)
        marker = None if self.is_root else _marker(self.state, action, self.rules.reductions)
        view = EndgameView(following, self.rules, marker)
        goal = self.rules.goal
        if goal is not None:
            view.goal_reached = _took_reward(self.state, following, goal)
        return view

    def returns(self) -> tuple[Fraction, ...]:
        if self.dead_end():
            # Never chosen: the worst outcome for the seat keeping units here.
            low, high = self.return_bounds()
            total = low + high
            keeper = self.state.current_player()
            return (low, total - low) if keeper == 0 else (high, total - high)
        if self.rules.goal is not None:
            reached = Fraction(int(self.goal_reached))
            return (reached, 1 - reached) if self.rules.goal.player == 0 else (
                1 - reached, reached)
        if not (self.state.over or self.at_horizon()):
            return (Fraction(0), Fraction(0))
        if not self.state.over:
            self.rules.horizon_leaves += 1
        if self.rules.objective is Objective.MARGIN:
            margin = Fraction(scoring.score(self.state, 0) - scoring.score(self.state, 1))
            return (margin, -margin)
        winner = scoring.winner(self.state)
        if winner is None:
            return (Fraction(1, 2), Fraction(1, 2))
        return (Fraction(int(winner == 0)), Fraction(int(winner == 1)))

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,))

    def key(self) -> Hashable:
        return (self.state.key(), self.marker, self.goal_reached)

    def action_to_string(self, action: Action) -> str:
        return str(action)

    def string_to_action(self, text: str) -> Action:
        action = parse_action(text)
        if action not in self.legal_actions():
            raise IllegalActionError(f"{text!r} is not legal here")
        return action

    def return_bounds(self) -> tuple[Fraction, Fraction]:
        if self.rules.objective is Objective.MARGIN:
            return self.rules.margin_bounds
        return (Fraction(0), Fraction(1))

    def __repr__(self) -> str:
        return f"<EndgameView {self.state!r}{' ' + str(self.marker) if self.marker else ''}>"

    # -- the reductions -----------------------------------------------------------------------

    def _reduced(self, actions: tuple[Action, ...]) -> tuple[Action, ...]:
        kept = actions
        if self.marker == KEEP_MARKER:
            kept = _canonical_keeps(self.state, actions)
            self.rules.pruned["keep orders"] += len(actions) - len(kept)
        elif self.marker is not None:
            ordered = tuple(a for a in kept if not _before_marker(self.state, a, self.marker))
            self.rules.pruned["commuting plays"] += len(kept) - len(ordered)
            kept = ordered
        return self._undominated(kept) if self._on(Reduction.SAME_STATE) else kept

    def _undominated(self, actions: tuple[Action, ...]) -> tuple[Action, ...]:
        """Drop choices whose state another choice reaches too, or reaches with more coins
        for the chooser (only when coins are monotone here)."""
        if len(actions) < 2:
            return actions
        chooser = self.state.current_player()
        children = {action: self._make_child(action) for action in actions}
        self._children = children
        groups: dict[Hashable, list[Action]] = {}
        for action in actions:
            groups.setdefault(_table_key(children[action].state,
                                         self.rules.coins_monotone), []).append(action)
        dropped: set[Action] = set()
        for group in groups.values():
            for loser in group:
                for winner in group:
                    if winner != loser and winner not in dropped and _dominates(
                            children[winner], children[loser], chooser):
                        dropped.add(loser)
                        same = children[winner].state.key() == children[loser].state.key()
                        self.rules.pruned["same state" if same else "fewer coins"] += 1
                        break
        return tuple(action for action in actions if action not in dropped)


@dataclass(frozen=True)
class Goal:
    """Winning the war of ``city`` in turn ``turn`` (taking its top Reward), for ``player``."""

    player: int
    city: int
    turn: int


Restriction = Callable[[OmenState, tuple[Action, ...]], tuple[Action, ...]]


def _took_reward(before: OmenState, after: OmenState, goal: Goal) -> bool:
    """The goal's player won the goal city's war in this step: its top Reward left the city
    and the player's Rewards grew (only a war gives a Reward)."""
    if after.turn.number != goal.turn:
        return False
    city = goal.city
    if len(after.cities[city].rewards) >= len(before.cities[city].rewards):
        return False
    p, q = before.players[goal.player], after.players[goal.player]
    held = len(p.rewards) + len(p.rewards_unused)
    return len(q.rewards) + len(q.rewards_unused) > held


def _canonical_keeps(state: OmenState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """After a war, kept units are chosen in sorted order (each set of units once)."""
    frame = state.stack[-1] if state.stack else None
    if not isinstance(frame, Keep) or not frame.kept:
        return actions
    last = frame.kept[-1]
    floor = (last.card, last.enraged)
    result = []
    for action in actions:
        if action.verb == "keep":
            ref = action.unit()
            if (ref.card, ref.enraged) < floor:
                continue
        result.append(action)
    return tuple(result)


def _plain(state: OmenState, card_id: str) -> bool:
    """A unit whose play changes nothing but its city and the coins: it commutes with every
    other such play (no entry ability, no passive, and no RITUAL that could fire between)."""
    card = state.card(card_id)
    if card.deploy or card.deploy_alt or card.passive:
        return False
    return not state.has_unit(state.catalogue.with_rituals)


def _marker(state: OmenState, action: Action, reductions: frozenset[Reduction]) -> Marker:
    if action.verb == "keep":
        return KEEP_MARKER if Reduction.KEEP_ORDERS in reductions else None
    if (Reduction.COMMUTING_PLAYS in reductions and action.verb == "play"
            and state.turn.step == "surge" and _plain(state, action.card())):
        return (action.verb, *action.args)
    return None


def _before_marker(state: OmenState, action: Action, marker: tuple[str, ...]) -> bool:
    if action.verb != "play" or (action.verb, *action.args) >= marker:
        return False
    return _plain(state, action.card())


def _table_key(state: OmenState, without_coins: bool) -> Hashable:
    """The state's key, with the coins left out when coins are monotone."""
    if not without_coins:
        return state.key()
    players = tuple(quick_replace(p, coins=0) for p in state.players)
    return (quick_replace(state, players=players, supply=0).key(),)


def _dominates(winner: EndgameView, loser: EndgameView, chooser: int) -> bool:
    """``winner`` is at least as good as ``loser`` for ``chooser``: the same table, at least
    as many coins for the chooser and no more for the opponent, and a search from it at
    least as free (no order restriction, or the same one)."""
    if winner.marker is not None and winner.marker != loser.marker:
        return False
    ours = winner.state.players[chooser].coins - loser.state.players[chooser].coins
    theirs = winner.state.players[1 - chooser].coins - loser.state.players[1 - chooser].coins
    if ours == theirs == 0:
        return winner.marker is None or winner.marker == loser.marker
    return ours >= 0 and theirs <= 0


def coins_monotone(state: OmenState) -> bool:
    """Whether more coins can never hurt their owner from here: no card still in play reads
    coins (a ``coins`` condition, ``steal_coins``) and 003's optional extra Wealth actions (for
    a player with no coins) are off."""
    if state.rules.extra_wealth_actions == ExtraWealthActions.ON:
        return False
    done_by_both = set(state.players[0].feats) & set(state.players[1].feats)
    ids: set[str] = set(state.deck_top) | set(state.deck_rest) | set(state.discard)
    for player in state.players:
        ids |= set(player.hand) | set(player.rewards) | set(player.rewards_unused)
    for city in state.cities:
        ids |= {unit.card for side in city.sides for unit in side}
        if city.relic:
            ids.add(city.relic)
    ids |= set(state.reward_pool) | set(state.relic_pool) | set(state.challenge_pool)
    ids |= set(state.feat_cards) - done_by_both
    return not any(_reads_coins(state, card_id) for card_id in ids)


def _reads_coins(state: OmenState, card_id: str) -> bool:
    card = state.card(card_id)
    effects = (card.deploy, card.deploy_alt, card.dirge, card.portent, card.end_of_surge,
               card.scorned, card.hero, card.at_war, card.effect)
    conditions = [*card.condition, *card.ritual]
    for effect in effects:
        for step in effect:
            if step.op == "steal_coins":
                return True
            conditions.extend(step.condition)
    return any(condition.test == "coins" for condition in conditions)


# -- the driver ---------------------------------------------------------------------------------


def _value_bounds(team: int, objective: Objective) -> ValueBounds:
    """Bounds on the asked seat's value from the victory points still reachable."""

    def bounds(view: GameState[Any]) -> tuple[Fraction, Fraction]:
        assert isinstance(view, EndgameView)
        both = vp_bounds(view.state)
        ours, theirs = both[team], both[1 - team]
        if objective is Objective.MARGIN:
            low, high = view.return_bounds()
            return (max(low, Fraction(ours[0] - theirs[1])),
                    min(high, Fraction(ours[1] - theirs[0])))
        if ours[0] > theirs[1]:
            return Fraction(1), Fraction(1)
        if ours[1] < theirs[0]:
            return Fraction(0), Fraction(0)
        return Fraction(0), Fraction(1)
    return bounds


@dataclass(frozen=True)
class Run:
    """One search of an endgame and what it found."""

    view: EndgameView
    search: StarSearch
    value: Fraction | None
    best: tuple[str, ...]
    line: tuple[str, ...]
    exceeded: BudgetExceeded | None


def _rules(state: OmenState, team: int, objective: Objective, draws: Draws, turns: int | None,
           reductions: bool | Iterable[Reduction | str]) -> _Rules:
    last = None if turns is None else state.turn.number + turns - 1
    chosen = reductions_of(reductions)
    rules = _Rules(objective, draws, team, last, chosen,
                   Reduction.SAME_STATE in chosen and coins_monotone(state))
    if objective is Objective.MARGIN:
        # |seat 1's points - seat 2's| never exceeds the larger of the two upper bounds.
        spread = Fraction(max(high for _, high in vp_bounds(state)))
        rules.margin_bounds = (-spread, spread)
    return rules


def _search(state: OmenState, rules: _Rules, budget: Budget, progress: Progress | None
            ) -> Run:
    team = rules.asked
    root = EndgameView(state, rules, is_root=True)
    bounded = Reduction.VP_BOUNDS in rules.reductions and rules.objective is not Objective.GOAL
    search = StarSearch(root, (team,), constant_sum=True, bounds=root.return_bounds(),
                        budget=budget, progress=progress,
                        value_bounds=_value_bounds(team, rules.objective) if bounded else None,
                        probing=Reduction.STAR2 in rules.reductions)
    value: Fraction | None = None
    try:
        value = exact(search.search(root, search.low, search.high))
        best = _best_actions(search, root, value)
        line = principal_variation(search, root, value)
    except BudgetExceeded as exceeded:
        return Run(root, search, value, (), (), exceeded)
    return Run(root, search, value, best, line, None)


def goal_search(state: OmenState, goal: Goal, allowed: Restriction, *, asked: int,
                draws: Draws = Draws.WORST_CASE, budget: Budget | None = None) -> Run:
    """Whether ``goal.player`` wins ``goal.city``'s war in turn ``goal.turn`` with the actions
    ``allowed`` leaves: the value for ``asked`` (1 when the goal is reached if ``asked`` is
    the goal's player, 1 when it is not otherwise); worst-case draws go against ``asked``."""
    rules = _Rules(Objective.GOAL, draws, asked, goal.turn, DEFAULT_REDUCTIONS, False,
                   goal=goal, allowed=allowed)
    return _search(state, rules, budget or Budget(), None)


def _best_actions(search: StarSearch, root: EndgameView, value: Fraction) -> tuple[str, ...]:
    player = root.current_player()
    if player < 0:
        return ()
    maximising = search.maximising[player]
    return tuple(str(a) for a in root.legal_actions()
                 if search.reaches(root.child(a), value, maximising))


def _trace(state: OmenState, line: Sequence[str], draws: Draws) -> list[dict[str, Any]]:
    """The principal variation replayed with the rule steps of each action."""
    steps: list[dict[str, Any]] = []
    for text in line:
        player = state.current_player()
        by = ("chance" if draws is Draws.EXPECTED else "draw, against the asked seat") if (
            player == CHANCE) else f"seat {player + 1}"
        state, trace = state.explain(text)
        steps.append({"action": text, "by": by,
                      "steps": [{"rule": s.rule, "text": s.text} for s in trace]})
    return steps


def _chance_branches(run: Run) -> list[dict[str, str]]:
    """At the first chance event of the principal variation: each outcome's probability and
    value (expected draws)."""
    view = run.view
    for text in run.line:
        view = view.child(parse_action(text))
    if view.current_player() != CHANCE:
        return []
    branches = []
    for outcome, probability in view.chance_outcomes():
        child = view.child(outcome)
        value = exact(run.search.search(child, run.search.low, run.search.high))
        branches.append({"outcome": str(outcome), "probability": str(probability),
                         "value": str(value)})
    return branches


def _describe(value: Fraction, draws: Draws) -> str:
    if value == 1:
        return "win"
    if value == 0:
        return "loss"
    if value == Fraction(1, 2) and draws is Draws.WORST_CASE:
        return "shared victory"
    return f"expected result {value}" if draws is Draws.EXPECTED else f"value {value}"


def solve_endgame(
    state: OmenState,
    *,
    seat: int | None = None,
    turns: int | None = None,
    draws: Draws | str = Draws.EXPECTED,
    margin: bool = True,
    reductions: bool | Iterable[Reduction | str] = True,
    budget: Budget | None = None,
    progress: Progress | None = None,
) -> SolveResult:
    """Best play from ``state`` for ``seat`` (1 or 2; default: the seat to act, the active
    seat at a chance event) to the end of the game or over ``turns`` turns.

    The result's ``value`` is the asked seat's result (1 win, 1/2 shared, 0 loss; an
    expectation with expected draws); ``extra["endgame"]`` holds the VP margin, the draws
    concept, how far the search went, the principal variation's trace and, at its first
    chance event, each outcome's value. When the budget runs out the answer is ``unknown``.
    """
    draws = _draws(draws)
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int)
                              or turns < 1):
        raise OptionError(f"turns {turns!r}: a number of turns from 1, or None for the end "
                          "of the game")
    if seat is None:
        player = state.current_player()
        team = state.active if player < 0 else player
    elif seat in (1, 2) and not isinstance(seat, bool):
        team = seat - 1
    else:
        raise OptionError(f"seat {seat!r}: the seat asked about is 1 or 2")
    budget = budget or Budget()
    rules = _rules(state, team, Objective.RESULT, draws, turns, reductions)
    run = _search(state, rules, budget, progress)
    extra = _extra(run, state, draws, turns)
    if run.value is not None and run.exceeded is None and margin:
        try:
            spent = budget.remaining(run.search.nodes, run.search.elapsed())
        except BudgetExceeded as exceeded:
            extra["margin"] = _margin_unknown(exceeded.reason, (None, None), 0)
        else:
            extra["margin"] = _margin(state, team, draws, turns, reductions, spent, progress)
    return _result(run, team, extra)


def kernel_solve(state: OmenState, settings: EndgameSettings | None, concept: Concept,
                 team: int, *, budget: Budget, simultaneous: Any = None,
                 progress: Progress | None = None) -> SolveResult:
    """The ``kernel_solve`` hook of :func:`omen_solver.core.search.solve`: its arguments,
    answered by :func:`solve_endgame`. Omen has two players and no simultaneous moves, so
    minimax and paranoid are the same search; max-n is left to the reference search."""
    if concept is Concept.MAXN:
        raise KernelRefused("the Omen endgame search answers minimax and paranoid, not max-n")
    settings = settings or EndgameSettings()
    result = solve_endgame(state, seat=team + 1, turns=settings.turns, draws=settings.draws,
                           margin=settings.margin, reductions=settings.reductions,
                           budget=budget, progress=progress)
    result.extra["engine"] = "omen endgame search"
    return result


def _draws(draws: Draws | str) -> Draws:
    if isinstance(draws, Draws):
        return draws
    try:
        return Draws(draws)
    except ValueError:
        known = ", ".join(d.value for d in Draws)
        raise OptionError(f"draws {draws!r}: choose one of {known}") from None


def _margin(state: OmenState, team: int, draws: Draws, turns: int | None,
            reductions: bool | Iterable[Reduction | str],
            budget: Budget, progress: Progress | None) -> dict[str, Any]:
    run = _search(state, _rules(state, team, Objective.MARGIN, draws, turns, reductions),
                  budget, progress)
    if run.value is None or run.exceeded is not None:
        assert run.exceeded is not None
        return _margin_unknown(_reason(run.exceeded, turns),
                               root_bounds(run.search, run.view), run.search.nodes)
    return {"status": Status.SOLVED.value, "value": str(run.value),
            "best_actions": list(run.best), "principal_variation": list(run.line),
            "nodes": run.search.nodes, "states": run.search.states}


def _margin_unknown(reason: str, bounds: tuple[Any, Any], nodes: int) -> dict[str, Any]:
    low, high = bounds
    return {"status": Status.UNKNOWN.value, "value": None,
            "lower": str(low) if isinstance(low, Fraction | int) else None,
            "upper": str(high) if isinstance(high, Fraction | int) else None,
            "nodes": nodes, "reason": reason}


def _reason(exceeded: BudgetExceeded, turns: int | None) -> str:
    """Why a search stopped, with what to do where a line of play never ended."""
    if isinstance(exceeded, TooDeep) and turns is None:
        return (f"{exceeded.reason}; an Omen game has no length limit, so search a number of "
                "turns instead of to the end of the game (turns=N, --turns N)")
    return exceeded.reason


def _extra(run: Run, state: OmenState, draws: Draws, turns: int | None) -> dict[str, Any]:
    rules = run.view.rules
    extra: dict[str, Any] = {
        "draws": draws.value,
        "turns": "end" if turns is None else turns,
        "last_turn": rules.last_turn,
        "reductions": sorted(r.value for r in rules.reductions),
        "coins_monotone": rules.coins_monotone,
        "horizon_reached": rules.horizon_leaves > 0,
        "pruned": dict(rules.pruned),
        "probes": run.search.probes,
        "repetitions": run.search.repetitions,
        "decided_by_bounds": run.search.bounded_cuts,
    }
    if run.value is not None and run.exceeded is None:
        extra["result"] = _describe(run.value, draws)
        extra["trace"] = _trace(state, run.line, draws)
        if draws is Draws.EXPECTED:
            # the budget may run out after the value was proven: the draws then go unsaid
            with suppress(BudgetExceeded):
                extra["chance"] = _chance_branches(run)
    return extra


def details(extra: dict[str, Any], seat: int) -> list[str]:
    """The answer in lines a player reads: the result, the margin, the line of play with the
    rule steps of each action, and the draws at its first chance event."""
    how = "to the end of the game" if extra["turns"] == "end" else (
        f"over {extra['turns']} turn(s), to the end of turn {extra['last_turn']}")
    lines = [f"endgame for seat {seat}: {extra.get('result', 'unknown')} (draws: "
             f"{extra['draws']}; {how})"]
    margin = extra.get("margin")
    if margin is not None:
        if margin["value"] is None:
            lines.append(f"VP margin for seat {seat}: unknown (between {margin['lower']} and "
                         f"{margin['upper']})")
        else:
            value = Fraction(margin["value"])
            lines.append(f"VP margin for seat {seat} with play for the most points: "
                         f"{'+' if value > 0 else ''}{value}")
    if extra.get("trace"):
        lines.append("the line of play, rule by rule:")
        for step in extra["trace"]:
            lines.append(f"  {step['by']}: {step['action']}")
            lines.extend(f"      [{s['rule']}] {s['text']}" for s in step["steps"])
    if extra.get("chance"):
        lines.append("then chance decides: " + "; ".join(
            f"{b['outcome']} ({b['probability']}): {b['value']}" for b in extra["chance"]))
    pruned = ", ".join(f"{count} {what}" for what, count in extra["pruned"].items() if count)
    lines.append(f"reductions: {', '.join(extra['reductions']) or 'none'}"
                 + (f" (pruned: {pruned})" if pruned else ""))
    return lines


def _result(run: Run, team: int, extra: dict[str, Any]) -> SolveResult:
    teams = ((0,), (1,))
    search = run.search
    if run.exceeded is not None or run.value is None:
        exceeded = run.exceeded
        assert exceeded is not None
        low, high = root_bounds(search, run.view)
        lower = exact(low) if isinstance(low, Fraction | int) else None
        upper = exact(high) if isinstance(high, Fraction | int) else None
        if run.value is not None:
            lower = upper = run.value
        return SolveResult(Status.UNKNOWN, Concept.MINIMAX, teams, team, None, None, lower,
                           upper, (), (), exceeded.nodes, search.states, exceeded.seconds,
                           note=_reason(exceeded, extra["turns"] if extra["turns"] != "end"
                                        else None),
                           extra={"endgame": extra, "details": details(extra, team + 1)})
    value = run.value
    values = (value, 1 - value) if team == 0 else (1 - value, value)
    note = None
    if extra["horizon_reached"]:
        note = (f"some lines were scored as they stand after turn {extra['last_turn']} (the "
                "search stops there); the game is not over in them")
    return SolveResult(Status.SOLVED, Concept.MINIMAX, teams, team, value, values, value, value,
                       run.best, run.line, search.nodes, search.states, search.elapsed(),
                       note=note, extra={"endgame": extra, "details": details(extra, team + 1)})

