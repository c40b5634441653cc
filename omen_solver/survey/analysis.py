"""What a survey measures on one deal (``docs/survey.md``).

The position measured is the deal itself, or the position its play reaches
(:mod:`omen_solver.survey.play`):

* the value of every team under best play, from the solver's per-move answers
  (:func:`omen_solver.survey.exact.settle`), with the proven bounds when the budget runs out;
* the "now" cards that are part of **every** optimal line: lines where every move keeps the
  value of the position (the winning side plays only winning moves; a side that cannot change
  the outcome may play anything), every chance outcome followed, and at a matrix game (The
  Absolute's secret exchange) every pair of choices both optimal strategies play. A card is part
  of a line when it is placed in play from a hand in it;
* for every rule option, whether the values change when only that option is set otherwise.

Every search has a budget; whatever runs out is recorded as unknown (``None``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from omen_solver.core.walk import Step, TooDeep, drive
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb, parse_action
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.deals import FIRST, KINDS, Deal, check_size, draw_deal
from omen_solver.omens.rules import OmensRules, ReshuffleAbsolutes, make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table
from omen_solver.omens.vocabulary import ChoiceWord
from omen_solver.survey.exact import Outcome, settle, solve_exactly
from omen_solver.survey.play import Reach, line_seed, play_to
from omen_solver.survey.policies import Policy

__all__ = [
    "DEFAULT_LINE_STATES",
    "VERSION",
    "SurveyConfig",
    "analyse_batch",
    "analyse_deal",
    "essential_cards",
    "position_state",
]

DEFAULT_LINE_STATES: Final = 500
"""The most positions the walk over every optimal line visits before it says unknown."""
VERSION: Final = 2
"""The record format: 2 added positions reached by play (``reached``, ``line``,
``position``) and the bounds of unsettled values."""


@dataclass(frozen=True)
class SurveyConfig:
    """Everything that decides a survey's results (stored in the results file's first line)."""

    seed: int = 0
    players: tuple[int, ...] = (4, 5, 6)
    deals: int = 100
    """Deals per player count (unless ``player_deals`` says otherwise)."""
    player_deals: tuple[tuple[int, int], ...] = ()
    """``(players, deals)``: deals for that player count instead of ``deals``."""
    cards: int | None = None
    """Cards per hand at the deal; ``None``: the rulebook's deal."""
    kind: str = FIRST
    """The deal: ``first`` (a game start) or ``later`` (a later round, reshuffled Absolutes)."""
    scope: str = Scope.ROUND.value
    preset: str = "rulebook"
    overrides: tuple[tuple[str, str], ...] = ()
    max_seconds: float | None = 60.0
    """The time limit of each search."""
    max_nodes: int | None = None
    """The node limit of each search (deterministic, unlike seconds)."""
    options: bool = True
    """Measure option impact (one more search per option setting)."""
    lines: bool = True
    """Find the "now" cards in every optimal line (two-team deals)."""
    line_states: int = DEFAULT_LINE_STATES
    until_cards: int | None = None
    """Play each deal forward to the first bout start with at most this many cards a hand."""
    after_bouts: int | None = None
    """Play each deal forward this many bouts."""
    policy: Policy | None = None
    """How the deals are played forward (``None`` when they are surveyed as dealt)."""
    version: int = field(default=VERSION)
    """The record format."""

    def __post_init__(self) -> None:
        for players in self.players:
            check_size(players, self.cards)
        if self.deals < 0 or any(count < 0 for _, count in self.player_deals):
            raise OmenSolverError(f"deals {self.deals}: must be 0 or more")
        stray = sorted(set(dict(self.player_deals)) - set(self.players))
        if stray:
            raise OmenSolverError(f"deals for {stray[0]} players, who are not surveyed")
        if self.scope not in (Scope.ROUND.value, Scope.GAME.value):
            raise OmenSolverError(f"scope {self.scope!r}: a survey is over a round or a game")
        if self.kind not in KINDS:
            raise OmenSolverError(f"deal {self.kind!r}: expected one of {', '.join(KINDS)}")
        self.rules()
        played = self.until_cards is not None or self.after_bouts is not None
        if played:
            self.reach()
            if self.scope != Scope.ROUND.value:
                raise OmenSolverError("a survey of positions reached by play (--until-cards, "
                                      "--after-bouts) solves rounds: --scope round")
            if self.policy is None:
                object.__setattr__(self, "policy", Policy())
        elif self.policy is not None:
            raise OmenSolverError("a policy plays the deals forward: give --until-cards K or "
                                  "--after-bouts B with it")

    def deals_for(self, players: int) -> int:
        """Deals surveyed with ``players`` players."""
        return dict(self.player_deals).get(players, self.deals)

    @property
    def total(self) -> int:
        """Deals surveyed in all."""
        return sum(self.deals_for(players) for players in self.players)

    def deals_text(self) -> str:
        """``100 deals per player count`` or ``1,900, 3,400 and 2,200 deals (4, 5, 6
        players)``."""
        counts = [self.deals_for(players) for players in self.players]
        shown = ", ".join(map(str, self.players))
        if len(set(counts)) == 1:
            return f"{counts[0]:,} deals per player count ({shown} players)"
        return (f"{', '.join(f'{c:,}' for c in counts[:-1])} and {counts[-1]:,} deals "
                f"({shown} players)")

    def rules(self, **change: str) -> OmensRules:
        """The survey's rules, with ``change`` on top."""
        return make_rules(self.preset, {**dict(self.overrides), **change}, where="--rule")

    def reach(self) -> Reach | None:
        """Where each deal's play stops (``None``: the deal itself is surveyed)."""
        if self.until_cards is None and self.after_bouts is None:
            return None
        return Reach(self.until_cards, self.after_bouts)

    @property
    def budget(self) -> Budget:
        return Budget(self.max_nodes, self.max_seconds)

    def describe(self) -> str:
        """How the positions were reached, in one sentence (tables and plots say it)."""
        cards = "the rulebook's deal" if self.cards is None else f"{self.cards} cards a hand"
        kind = "a game start" if self.kind == FIRST else "a later round"
        reach = self.reach()
        if reach is None or self.policy is None:
            return f"deals as at {kind} ({cards}), surveyed as dealt"
        return (f"deals as at {kind} ({cards}) played by the {self.policy.label()} policy to "
                f"{reach.label()}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["overrides"] = dict(self.overrides)
        data["player_deals"] = {str(p): n for p, n in self.player_deals}
        data["policy"] = None if self.policy is None else self.policy.to_json()
        return data


def _text(values: tuple[Fraction, ...] | None) -> list[str] | None:
    return None if values is None else [str(v) for v in values]


def position_state(rules: OmensRules, scope: Scope, players: int,
                   hands: Sequence[Sequence[int]], teams: Sequence[Sequence[int]], leader: int,
                   box: Sequence[int]) -> OmensState:
    """The start of a bout with these hands (seats from 0), as a position file gives it: the
    cards in no hand and not in the box are out of the round."""
    table = Table(players, rules, default_catalogue(), scope)
    held = {card for hand in hands for card in hand}
    out = sorted(set(table.catalogue) - held - set(box))
    return OmensState.start_of_bout(table, hands, teams, leader, out=out, box=box)


def analyse_deal(config: SurveyConfig, players: int, index: int) -> dict[str, Any]:
    """The record of one deal: JSON-ready, seats and teams from 1."""
    rules = config.rules()
    deal = draw_deal(config.seed, players, index, config.cards, kind=config.kind,
                     reshuffle_all=rules.reshuffle_absolutes == ReshuffleAbsolutes.ALL)
    scope = Scope(config.scope)
    state = deal.state(rules, scope)
    record: dict[str, Any] = {
        "id": deal.ident,
        "players": players,
        "index": index,
        **deal.to_json(),
        "first_leader_team": state.team_of(deal.leader) + 1,
    }
    reach = config.reach()
    hands, leader = deal.hands, deal.leader
    if reach is not None and config.policy is not None:
        rng = random.Random(line_seed(config.seed, players, index, config.kind))
        line = play_to(state, reach, config.policy, rng)
        record["line"] = line.to_json()
        if line.state is None:
            record["reached"] = False
            record["round_winner_team"] = (None if line.winner_team is None
                                           else line.winner_team + 1)
            return record
        record["reached"] = True
        hands, leader = line.state.hands, line.state.leader
        record["position"] = {"hands": [list(hand) for hand in hands], "leader": leader + 1}
        state = position_state(rules, scope, players, hands, deal.teams, leader, deal.box)
    base = settle(state, config.budget)
    seconds, nodes = base.seconds, base.nodes
    now = sorted(c for hand in hands for c in hand if c in state.table.now)
    record.update({
        "leading_team": state.team_of(leader) + 1,
        "values": _text(base.values),
        "nodes": base.nodes,
        "now_cards": now,
    })
    if base.reason:
        record["unknown_reason"] = base.reason
        record["bounds"] = [[str(low), str(high)] for low, high in base.bounds]
    if config.lines and len(deal.teams) == 2 and base.known:
        essential, line_nodes, line_seconds = essential_cards(
            state, config.budget, config.line_states
        )
        record["essential"] = (
            None if essential is None else sorted(c for c in essential if c in now)
        )
        seconds, nodes = seconds + line_seconds, nodes + line_nodes
    if config.options and not base.known:
        # Whether another setting changes the values cannot be told: no search is spent.
        record["options_skipped"] = "unsettled under the survey's rules"
    elif config.options:
        record["options"], extra_nodes, extra_seconds = _option_impact(
            config, players, hands, deal, leader, scope, rules, base
        )
        seconds, nodes = seconds + extra_seconds, nodes + extra_nodes
    record["total_nodes"] = nodes
    record["seconds"] = round(seconds, 6)
    return record


def analyse_batch(config: SurveyConfig, items: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Records of a batch of deals ``(players, index)``: one Dask task."""
    return [analyse_deal(config, players, index) for players, index in items]


def _option_impact(
    config: SurveyConfig, players: int, hands: Sequence[Sequence[int]], deal: Deal, leader: int,
    scope: Scope, rules: OmensRules, base: Outcome
) -> tuple[dict[str, Any], int, float]:
    """For each option, the values with its other setting(s) and whether they changed."""
    found: dict[str, Any] = {}
    nodes, seconds = 0, 0.0
    for spec in option_specs():
        current = getattr(rules, spec.name)
        settings: dict[str, Any] = {}
        for setting in spec.settings:
            if setting == current:
                continue
            other_rules = config.rules(**{spec.name: setting})
            state = position_state(other_rules, scope, players, hands, deal.teams, leader,
                                   deal.box)
            other = settle(state, config.budget)
            nodes, seconds = nodes + other.nodes, seconds + other.seconds
            changed = None if not (base.known and other.known) else other.values != base.values
            settings[setting] = {"values": _text(other.values), "changed": changed,
                                 "nodes": other.nodes}
            if other.reason:
                settings[setting]["unknown_reason"] = other.reason
        found[spec.name] = {"base": current, "settings": settings}
    return found, nodes, seconds


# -- the "now" cards in every optimal line --------------------------------------------------


class _Unknown(Exception):
    """The walk over the optimal lines ran out of budget."""


def _placed(move: tuple[OmensAction, ...]) -> frozenset[int]:
    """The cards a move places in play from a hand (a play, and Betrayal's gift)."""
    cards = set()
    for action in move:
        if action.verb is Verb.PLAY:
            cards.add(action.card)
            if action.choice and action.choice[0] == ChoiceWord.TAKE:
                cards.add(int(action.choice[2]))
    return frozenset(cards)


class _LineWalk:
    def __init__(self, budget: Budget, max_states: int) -> None:
        self.budget = budget
        self.max_states = max_states
        self.memo: dict[Hashable, frozenset[int]] = {}
        self.nodes = 0
        self.seconds = 0.0

    def optimal_moves(self, state: OmensState) -> list[tuple[OmensAction, ...]]:
        player = state.current_player()
        if player == CHANCE:
            return [(outcome,) for outcome, _ in state.chance_outcomes()]
        outcome = solve_exactly(state, self.budget)
        self.nodes += outcome.nodes
        self.seconds += outcome.seconds
        if not outcome.known:
            raise _Unknown
        matrix = outcome.root_matrix
        if player == SIMULTANEOUS and matrix is not None:
            acting = state.acting_players()
            moves = []
            for row, p in zip(matrix.rows, matrix.row_strategy, strict=True):
                for column, q in zip(matrix.columns, matrix.column_strategy, strict=True):
                    if p > 0 and q > 0:
                        parts = [parse_action(t) for t in (*row.split("&"), *column.split("&"))]
                        by_seat = {a.seat: a for a in parts}
                        moves.append(tuple(by_seat[seat] for seat in acting))
            return moves
        moves = [state.parse_move(text) for text in outcome.best_actions]
        if not moves:
            raise _Unknown
        return moves

    def walk(self, state: OmensState) -> frozenset[int]:
        """The cards placed in every optimal line from ``state`` (a walk with a stack of its
        own, :mod:`omen_solver.core.walk`; a line too deep to follow is unknown)."""
        try:
            return drive(self._walk(state))
        except TooDeep:
            raise _Unknown from None

    def _walk(self, state: OmensState) -> Step[frozenset[int]]:
        key = state.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        if len(self.memo) >= self.max_states:
            raise _Unknown
        common: frozenset[int] | None = None
        if state.current_player() != TERMINAL:
            for move in self.optimal_moves(state):
                line = _placed(move) | (yield self._walk(state.apply_move(move)))
                common = line if common is None else common & line
                if not common:
                    break
        result = common or frozenset()
        self.memo[key] = result
        return result


def essential_cards(
    state: OmensState, budget: Budget, max_states: int = DEFAULT_LINE_STATES
) -> tuple[frozenset[int] | None, int, float]:
    """The cards placed in play in every optimal line from ``state`` (``None``: unknown,
    the budget of a search or ``max_states`` positions ran out), with nodes and seconds spent."""
    walk = _LineWalk(budget, max_states)
    try:
        cards: frozenset[int] | None = walk.walk(state)
    except _Unknown:
        cards = None
    return cards, walk.nodes, walk.seconds
