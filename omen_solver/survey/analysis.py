"""What a survey measures on one deal (``docs/survey.md``).

* the value of every team under best play (:func:`omen_solver.survey.exact.solve_exactly`);
* the "now" cards that are part of **every** optimal line: lines where every move keeps the
  value of the position (the winning side plays only winning moves; a side that cannot change
  the outcome may play anything), every chance outcome followed, and at a matrix game (The
  Absolute's secret exchange) every pair of choices both optimal strategies play. A card is part
  of a line when it is placed in play from a hand in it;
* for every rule option, whether the values change when only that option is set otherwise.

Every search has a budget; whatever runs out is recorded as unknown (``None``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL
from omen_solver.errors import OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb, parse_action
from omen_solver.omens.deals import Deal, check_size, draw_deal
from omen_solver.omens.rules import OmensRules, make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope
from omen_solver.survey.exact import Outcome, solve_exactly, values_of

__all__ = [
    "DEFAULT_LINE_STATES",
    "SurveyConfig",
    "analyse_batch",
    "analyse_deal",
    "essential_cards",
]

DEFAULT_LINE_STATES: Final = 2000
"""The most positions the walk over every optimal line visits before it says unknown."""


@dataclass(frozen=True)
class SurveyConfig:
    """Everything that decides a survey's results (stored in the results file's first line)."""

    seed: int = 0
    players: tuple[int, ...] = (4, 5, 6)
    deals: int = 100
    """Deals per player count."""
    cards: int | None = None
    """Cards per hand; ``None``: the rulebook's deal."""
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
    version: int = field(default=1)
    """The record format."""

    def __post_init__(self) -> None:
        for players in self.players:
            check_size(players, self.cards)
        if self.deals < 0:
            raise OmenSolverError(f"deals {self.deals}: must be 0 or more")
        if self.scope not in (Scope.ROUND.value, Scope.GAME.value):
            raise OmenSolverError(f"scope {self.scope!r}: a survey is over a round or a game")
        self.rules()

    def rules(self, **change: str) -> OmensRules:
        """The survey's rules, with ``change`` on top."""
        return make_rules(self.preset, {**dict(self.overrides), **change}, where="--rule")

    @property
    def budget(self) -> Budget:
        return Budget(self.max_nodes, self.max_seconds)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["overrides"] = dict(self.overrides)
        return data


def _text(values: tuple[Fraction, ...] | None) -> list[str] | None:
    return None if values is None else [str(v) for v in values]


def analyse_deal(config: SurveyConfig, players: int, index: int) -> dict[str, Any]:
    """The record of one deal: JSON-ready, seats and teams from 1."""
    deal = draw_deal(config.seed, players, index, config.cards)
    scope = Scope(config.scope)
    rules = config.rules()
    state = deal.state(rules, scope)
    base = values_of([state], config.budget)[0]
    seconds, nodes = base.seconds, base.nodes
    now = sorted(c for hand in deal.hands for c in hand if c in state.table.now)
    record: dict[str, Any] = {
        "id": deal.ident,
        "players": players,
        "index": index,
        **deal.to_json(),
        "leading_team": state.team_of(deal.leader) + 1,
        "values": _text(base.values),
        "nodes": base.nodes,
        "now_cards": now,
    }
    if base.reason:
        record["unknown_reason"] = base.reason
    if config.lines and len(deal.teams) == 2 and base.known:
        essential, line_nodes, line_seconds = essential_cards(
            state, config.budget, config.line_states
        )
        record["essential"] = (
            None if essential is None else sorted(c for c in essential if c in now)
        )
        seconds, nodes = seconds + line_seconds, nodes + line_nodes
    if config.options:
        record["options"], extra_nodes, extra_seconds = _option_impact(
            config, deal, scope, rules, base
        )
        seconds, nodes = seconds + extra_seconds, nodes + extra_nodes
    record["total_nodes"] = nodes
    record["seconds"] = round(seconds, 6)
    return record


def analyse_batch(config: SurveyConfig, items: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Records of a batch of deals ``(players, index)``: one Dask task."""
    return [analyse_deal(config, players, index) for players, index in items]


def _option_impact(
    config: SurveyConfig, deal: Deal, scope: Scope, rules: OmensRules, base: Outcome
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
            other = values_of([deal.state(config.rules(**{spec.name: setting}), scope)],
                              config.budget)[0]
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
            if action.choice and action.choice[0] == "take":
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
        key = state.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        if len(self.memo) >= self.max_states:
            raise _Unknown
        common: frozenset[int] | None = None
        if state.current_player() != TERMINAL:
            for move in self.optimal_moves(state):
                line = _placed(move) | self.walk(state.apply_move(move))
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
