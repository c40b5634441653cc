"""Puzzles that need insight: deep, unique wins found in real deals.

``omen-solver puzzles generate --kind deep`` deals rounds as at the table
(:mod:`omen_solver.omens.playout`: a game start, or a later round), plays them forward at random,
and examines every position on the way where a player is to play a card and few enough cards
are left to solve (:data:`DEFAULT_MAX_CARDS`). A position is kept when, with every hand open:

1. the team of the player to move wins the round with best play (value 1; with six players
   under the ``paranoid`` concept: against both other teams together), and exactly one play
   does it (:func:`omen_solver.core.search.solve`, the search kernel);
2. that play is not a *tempting* one: not a play of the mover's highest card, and not a play
   after which the team can make sure to win the bout in progress (solved with the ``bout``
   scope). Every tempting play therefore fails;
3. the win is *deep*: the team cannot force it in fewer than ``min_depth`` bouts (3 by
   default), counting the bout in progress (:class:`omen_solver.puzzles.depth.BoutSearch`).

Each kept position is rated (:class:`Rating`): its depth (bouts in the winning line when the
defence holds out longest), the number of tempting plays (all of them failing), and the nodes
the solver needs for it: exactly what ``omen-solver solve FILE`` reports (the default search,
within the file's budget; when the default search changes, the ratings are renewed with it).
Candidates are examined with one fixed search (:data:`RATING_SEARCH`), whose nodes set the
file's budget (ten times them). The puzzle file states the answer (the
value, the one winning play, the tempting plays excluded), the rating, and, in comments, the
idea in one sentence, how each tempting play is refuted and the winning line, bout by bout,
with the rules that decide each bout (the explaining engine's own words).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.core.files import atomic_write
from omen_solver.core.search import Concept, solve
from omen_solver.errors import BudgetExceeded, ConceptError, OmenSolverError
from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.deals import DealKind, deal_round
from omen_solver.omens.playout import Reached, play_forward
from omen_solver.omens.position import load_position, position_toml
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import BoutSummary, OmensState
from omen_solver.omens.table import Scope, Table
from omen_solver.puzzles.depth import BoutSearch, Goal

__all__ = [
    "BOUT_WIN",
    "DEFAULT_MAX_CARDS",
    "DEFAULT_MAX_NODES",
    "HIGHEST_CARD",
    "REASONS",
    "Bout",
    "DealProgress",
    "DeepPuzzle",
    "DeepRecipe",
    "Examined",
    "Rating",
    "Tempting",
    "comments",
    "describe_line",
    "examine",
    "followers",
    "generate_deep",
    "idea",
    "mover_team",
    "reached_from_file",
    "replay_line",
    "tempting_moves",
    "write_deep_puzzle",
]

DEFAULT_MAX_CARDS: Final = {4: 14, 5: 15, 6: 20}
"""Cards in hands and in play at most at a position examined, by player count: beyond, the
solver needs more than its default budget on most positions."""

DEFAULT_MAX_NODES: Final = {4: 1_000_000, 5: 1_000_000, 6: 200_000}
"""The solver's default budget per position, by player count. Six-player positions of up to
20 cards are settled in far fewer nodes or not for minutes: a small budget skips the latter."""

RATING_SEARCH: Final = "alphabeta"
"""The kernel search whose nodes a rating counts (and that examines candidates), run on the
root as one position (``per_move=False``), as when the ratings were made."""

HIGHEST_CARD: Final = "plays the highest card"
BOUT_WIN: Final = "wins the bout"

_NUMBERS: Final = {4: "Four", 5: "Five", 6: "Six"}


@dataclass(frozen=True)
class DeepRecipe:
    """What to look for, and how long."""

    players: int = 4
    deal: DealKind = DealKind.START
    count: int = 3
    seed: int = 0
    max_deals: int = 200
    """Deals played forward at most."""
    max_cards: int | None = None
    """Cards in hands and in play at a position examined (default: :data:`DEFAULT_MAX_CARDS`)."""
    min_depth: int = 3
    budget: Budget | None = None
    """The solver's budget per position (default: :data:`DEFAULT_MAX_NODES`): a position left
    unknown is skipped, never kept."""
    depth_budget: Budget = field(default_factory=lambda: Budget(max_nodes=300_000))
    """The bounded-bout search's budget per position."""

    def check(self) -> None:
        """Errors name the option and what is wrong."""
        if self.players not in (4, 5, 6):
            raise OmenSolverError(f"--players {self.players}: Omens is played by 4 to 6")
        if self.count < 1 or self.max_deals < 1:
            raise OmenSolverError("--count and --max-deals must be at least 1")
        if self.min_depth < 1:
            raise OmenSolverError(f"--min-depth {self.min_depth}: at least 1 bout")
        if self.max_cards is not None and self.max_cards < 2 * self.players:
            raise OmenSolverError(
                f"--max-cards {self.max_cards}: a round in progress has at least 2 cards in "
                f"each of the {self.players} hands"
            )

    @property
    def cards(self) -> int:
        return self.max_cards if self.max_cards is not None else DEFAULT_MAX_CARDS[self.players]

    @property
    def solver_budget(self) -> Budget:
        if self.budget is not None:
            return self.budget
        return Budget(max_nodes=DEFAULT_MAX_NODES[self.players])

    @property
    def concept(self) -> Concept:
        """Minimax with two teams; paranoid (the mover's team against all) with three."""
        return Concept.PARANOID if self.players == 6 else Concept.MINIMAX


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is."""

    depth: int
    """Bouts in the winning line when the defence holds out longest, the first included."""
    tempting: int
    """Tempting plays (the highest card, or a play that wins the bout), all of them failing."""
    nodes: int
    """Nodes the solver needs for the puzzle: what ``omen-solver solve FILE`` and ``puzzles
    check`` report for it (:func:`omen_solver.core.search.solve` with its defaults, within the
    puzzle's ``max_nodes``)."""
    max_nodes: int = 0
    """The puzzle's node budget (``puzzle.max_nodes``): ten times what the examining search
    (:data:`RATING_SEARCH`) needed."""


@dataclass(frozen=True)
class Bout:
    """One bout of a line of play, as the explaining engine played it."""

    number: int
    leader: int
    moves: tuple[str, ...]
    notes: tuple[str, ...]
    """What decided the bout, in the engine's words (winner, discards, effects)."""
    summary: BoutSummary
    hands: tuple[tuple[int, ...], ...]
    """Every hand after the bout."""


@dataclass(frozen=True)
class Tempting:
    """A tempting first play, why it tempts, what the team gets after it, and how the other
    side refutes it (a line, bout by bout; empty when the refutation is a mixed strategy)."""

    move: str
    reasons: tuple[str, ...]
    value: Fraction
    refutation: tuple[Bout, ...] = ()


@dataclass(frozen=True)
class DeepPuzzle:
    """A kept position and everything the puzzle file says about it."""

    reached: Reached
    """The position: the start of its bout and the moves made in the bout so far."""
    team: tuple[int, ...]
    """The team of the player to move (seats from 1)."""
    concept: Concept
    best: str
    rating: Rating
    tempting: tuple[Tempting, ...]
    line: tuple[Bout, ...]
    """The winning line, the defence holding out longest."""
    origin: str
    """Where the position comes from (seed, deal, bouts played)."""
    deal: int | None = None
    """The number of its deal among the seeded run's deals (from 1), which the title names so
    that puzzles of one size and depth keep distinct titles; ``None``: not from a run."""

    @property
    def state(self) -> OmensState:
        return self.reached.state


@dataclass(frozen=True)
class Examined:
    """A position examined: the puzzle, or why it was not kept (one of :data:`REASONS`)."""

    puzzle: DeepPuzzle | None = None
    reason: str = ""
    winning: tuple[str, ...] = ()
    """When the team wins but the position was not kept: its winning plays."""


REASONS: Final = (
    "unknown", "not won", "several winning plays", "natural play wins", "shallow",
)


def reached_from_file(path: Path | str) -> Reached:
    """A position file's position (the start of its bout and the moves made since)."""
    position = load_position(path)
    return Reached(position.start, position.moves, position.state, 0)


def mover_team(state: OmensState) -> tuple[int, ...]:
    """The team of the player to move, as its seats from 1."""
    mover = state.current_player()
    return next(tuple(seat + 1 for seat in team) for team in state.teams() if mover in team)


def _bout_only(reached: Reached) -> OmensState:
    """The same position, played only to the end of the bout in progress (scope ``bout``)."""
    start = reached.start
    table = start.table
    bout = Table(table.players, table.rules, table.catalogue, Scope.BOUT)
    state = OmensState.start_of_bout(
        bout, start.hands, start.teams(), start.leader, out=start.discard_pile, box=start.box
    )
    for move in reached.moves:
        state = state.apply_move(move)
    return state


def tempting_moves(
    reached: Reached, concept: Concept, team: Sequence[int], budget: Budget
) -> dict[str, tuple[str, ...]]:
    """The tempting plays of the player to move, each with why it tempts: a play of the
    player's highest card (every variant: Law's higher or lower, The Absolute's target), and a
    play after which the player's team can make sure to win the bout in progress (solved with
    scope ``bout``, under ``concept``, for ``team``: its seats from 1). Raises
    :class:`BudgetExceeded` if a bout cannot be solved within ``budget``."""
    state = reached.state
    highest = max(state.hands[state.current_player()])
    bout = _bout_only(reached)
    found: dict[str, tuple[str, ...]] = {}
    for move in state.moves():
        reasons = []
        if move[0].card == highest:
            reasons.append(HIGHEST_CARD)
        result = solve(bout.apply_move(move), concept=concept, team=team, budget=budget,
                       algorithm=RATING_SEARCH, per_move=False)
        if not result.solved:
            raise BudgetExceeded(
                f"the bout after {state.move_to_string(move)}", result.nodes, result.seconds
            )
        if result.value == 1:
            reasons.append(BOUT_WIN)
        if reasons:
            found[state.move_to_string(move)] = tuple(reasons)
    return found


def examine(reached: Reached, recipe: DeepRecipe, origin: str = "",
            deal: int | None = None) -> Examined:
    """Keep the position as a deep puzzle, or say why not."""
    state = reached.state
    concept = recipe.concept
    team = mover_team(state)
    try:
        result = solve(state, concept=concept, team=team, budget=recipe.solver_budget,
                       algorithm=RATING_SEARCH, per_move=False)
        if not result.solved:
            return Examined(reason="unknown")
        if result.value != 1:
            return Examined(reason="not won")
        winning = tuple(result.best_actions)
        if len(winning) != 1:
            return Examined(reason="several winning plays", winning=winning)
        best = winning[0]
        tempting = tempting_moves(reached, concept, team, recipe.solver_budget)
        if best in tempting or not tempting:
            return Examined(reason="natural play wins", winning=winning)
        search = BoutSearch(
            state, Goal.team_wins(state.num_players(), team), budget=recipe.depth_budget
        )
        if search.won_within(recipe.min_depth - 1):
            return Examined(reason="shallow", winning=winning)
        depth = search.depth()
        if depth is None:  # pragma: no cover - the round is won, so within some bouts
            return Examined(reason="unknown")
        line = [search.engine_move(step.move) for step in search.line(depth)]
        refuted = tuple(
            _refute(reached, move, reasons, concept, team, recipe)
            for move, reasons in tempting.items()
        )
    except (BudgetExceeded, ConceptError):
        return Examined(reason="unknown")
    # The rating's nodes are those of the solve a reader runs on the file (the default search,
    # every root move analysed), within the budget the file states.
    max_nodes = puzzle_budget(result.nodes)
    shown = solve(state, concept=concept, team=team, budget=Budget(max_nodes=max_nodes))
    if not shown.solved:
        return Examined(reason="unknown")
    rating = Rating(depth=depth, tempting=len(tempting), nodes=shown.nodes, max_nodes=max_nodes)
    return Examined(
        DeepPuzzle(
            reached=reached,
            team=team,
            concept=concept,
            best=best,
            rating=rating,
            tempting=refuted,
            line=tuple(replay_line(reached, line)),
            origin=origin,
            deal=deal,
        )
    )


def _refute(
    reached: Reached,
    text: str,
    reasons: tuple[str, ...],
    concept: Concept,
    team: Sequence[int],
    recipe: DeepRecipe,
) -> Tempting:
    """The team's value after a tempting play and, when the other side wins for certain, its
    quickest win against the longest resistance."""
    state = reached.state
    move = state.parse_move(text)
    child = state.apply_move(move)
    result = solve(child, concept=concept, team=team, budget=recipe.solver_budget,
                   algorithm=RATING_SEARCH, per_move=False)
    if not result.solved or result.value is None:
        raise BudgetExceeded(f"after {text}", result.nodes, result.seconds)
    if result.value != 0:
        return Tempting(text, reasons, result.value)
    search = BoutSearch(
        child, Goal.team_fails(state.num_players(), team), budget=recipe.depth_budget
    )
    depth = search.depth()
    if depth is None:  # pragma: no cover - value 0: the others win within some bouts
        return Tempting(text, reasons, result.value)
    line = [move, *(search.engine_move(step.move) for step in search.line(depth))]
    return Tempting(text, reasons, result.value, tuple(replay_line(reached, line)))


# -- describing a line -----------------------------------------------------------------------

_SHOWN_RULES: Final = ("bout.winner.", "bout.discard.simultaneous", "card.", "round.end")
_HIDDEN_RULES: Final = ("bout.winner.owner", "card.law.choose", "card.dream.placement")


def _shown(rule: str) -> bool:
    return rule.startswith(_SHOWN_RULES) and not rule.startswith(_HIDDEN_RULES)


def replay_line(reached: Reached, moves: Sequence[Sequence[OmensAction]]) -> list[Bout]:
    """A line of play from the position, bout by bout (the first bout's moves made before the
    position included)."""
    bouts: list[Bout] = []
    state = reached.start
    bout_over = state.stop_predicate("bout")
    bout_moves: list[str] = []
    notes: list[str] = []
    leader = state.leader
    for move in [*reached.moves, *moves]:
        actions = tuple(move)
        bout_moves.append(state.move_to_string(actions))
        state, steps = state.explain(actions if len(actions) > 1 else actions[0])
        notes += [step.text for step in steps if _shown(step.rule)]
        summary = state.last_bout
        if not bout_over(state) or summary is None:
            continue
        bouts.append(Bout(len(bouts) + 1, leader, tuple(bout_moves), tuple(notes), summary,
                          state.hands))
        leader = summary.next_leader
        bout_moves, notes = [], []
    return bouts


def describe_line(bouts: Sequence[Bout]) -> list[str]:
    """A line in words: the moves of each bout, what decided it, and the hands after it."""
    lines: list[str] = []
    for bout in bouts:
        lines.append(f"Bout {bout.number}, seat {bout.leader + 1} leads: {', '.join(bout.moves)}.")
        lines += [f"  {_sentence(note)}" for note in bout.notes]
        if bout.summary.round_winner is None:
            hands = "; ".join(
                f"{seat + 1}: {', '.join(map(str, hand))}" for seat, hand in enumerate(bout.hands)
            )
            lines.append(f"  Hands: {hands}. Seat {bout.summary.next_leader + 1} leads.")
    return lines


def idea(puzzle: DeepPuzzle) -> str:
    """The winning idea in one sentence, read off the winning line: what the play gives up
    (the highest card, the first bout), and how the round ends."""
    state = puzzle.state
    name = state.table.name
    mover = state.current_player()
    highest = max(state.hands[mover])
    card = state.parse_move(puzzle.best)[0].card
    first, last = puzzle.line[0], puzzle.line[-1]
    parts = [f"seat {mover + 1} plays {name(card)}, not its highest card, {name(highest)}"]
    winner = first.summary.winner
    if winner is not None and winner + 1 not in puzzle.team:
        assert first.summary.winning_card is not None
        parts.append(
            f"lets seat {winner + 1} win the first bout with {name(first.summary.winning_card)}"
        )
    elif winner is not None:
        parts.append(f"seat {winner + 1} still wins the first bout")
    if highest in first.hands[mover]:
        parts.append(f"keeps {name(highest)} for later")
    ending = ""
    out = last.summary.round_winner
    if out is not None:
        left = last.hands[out]
        held = f"with {name(left[0])} left" if left else "with no card left"
        ending = f"; in bout {last.number} seat {out + 1} wins the round {held}"
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return "The idea: " + said + ending + "."


def _sentence(text: str) -> str:
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


# -- the puzzle file -------------------------------------------------------------------------


def _seats(seats: Sequence[int]) -> str:
    """``2, 3 and 5`` (seats from 1)."""
    names = [str(seat) for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _situation(reached: Reached) -> str:
    """``seat 2 leads`` or ``seat 4 to play``."""
    seat = reached.state.current_player() + 1
    return f"seat {seat} to play" if reached.moves else f"seat {seat} leads"


def _question(puzzle: DeepPuzzle) -> str:
    seats = _seats(puzzle.team)
    against = " against both other teams together" if puzzle.concept is Concept.PARANOID else ""
    players = _NUMBERS[puzzle.state.num_players()]
    return (
        f"{players} players; {_situation(puzzle.reached)}. Which is the only play that wins "
        f"the round for seats {seats}{against}?"
    )


def _points(players: int) -> str:
    return {4: "deep", 5: "deep, five-players", 6: "deep, six-players-paranoid"}[players]


def _move_card(state: OmensState, move: str) -> str:
    action = state.parse_move(move)[0]
    return state.table.name(action.card) if action.verb is Verb.PLAY else move


_WIDTH: Final = 96


def _wrap(text: str, indent: str = "", more: str = "  ") -> list[str]:
    """One paragraph as comment lines of at most :data:`_WIDTH` characters."""
    return textwrap.wrap(
        text, _WIDTH - 2, initial_indent=indent, subsequent_indent=indent + more,
        break_on_hyphens=False, break_long_words=False,
    ) or [""]


def comments(puzzle: DeepPuzzle) -> list[str]:
    """The explanation a puzzle file opens with."""
    state = puzzle.state
    start = puzzle.reached.start
    rating = puzzle.rating
    team = _seats(puzzle.team)
    hands = "; ".join(
        f"seat {seat + 1} {', '.join(state.table.name(c) for c in hand)}"
        for seat, hand in enumerate(start.hands)
    )
    made = ", ".join(start.move_to_string(move) for move in puzzle.reached.moves)
    setting = f"Seat {start.leader + 1} leads. Hands: {hands}."
    if made:
        now = "; ".join(
            f"{seat + 1}: {', '.join(map(str, hand))}" for seat, hand in enumerate(state.hands)
        )
        setting += f" Played so far: {made}. Hands now: {now}; {_situation(puzzle.reached)}."
    plural = "s" if rating.tempting != 1 else ""
    out = [
        f"A win in {rating.depth} bouts that the obvious plays throw away.",
        f"points: {_points(state.num_players())}",
        "",
        *_wrap(setting),
        *_wrap(
            f"Seats {team} win the round only with {puzzle.best} "
            f"({_move_card(state, puzzle.best)}), and in no fewer than {rating.depth} bouts."
        ),
        *_wrap(
            f"Rating: depth {rating.depth} bouts; {rating.tempting} tempting play{plural}, "
            f"all failing; {rating.nodes:,} nodes."
        ),
        *_wrap(idea(puzzle)),
        "",
        "The tempting plays fail:",
    ]
    for group in _by_card(state, puzzle.tempting):
        first = group[0]
        why = " and ".join(first.reasons)
        if first.value == 0:
            out += _wrap(f"- {first.move} ({why}) loses:")
            out += [wrapped for line in describe_line(first.refutation) for wrapped in _line(line)]
        else:
            out += _wrap(
                f"- {first.move} ({why}) wins only with probability {first.value} "
                "(a secret exchange to guess)."
            )
        if len(group) > 1:
            others = ", ".join(t.move for t in group[1:])
            verdict = "lose too" if all(t.value == 0 for t in group[1:]) else "fail too"
            out += _wrap(f"- {others}: the same card otherwise played; they {verdict}.")
    out += ["", f"The winning line ({puzzle.best}), the defence holding out longest:"]
    out += [wrapped for line in describe_line(puzzle.line) for wrapped in _line(line)]
    if puzzle.origin:
        out += ["", *_wrap(puzzle.origin)]
    return out


def _by_card(state: OmensState, tempting: Sequence[Tempting]) -> list[list[Tempting]]:
    """The tempting plays grouped by the card played (Law's two choices, The Absolute's
    targets), in order."""
    groups: dict[int, list[Tempting]] = {}
    for play in tempting:
        groups.setdefault(state.parse_move(play.move)[0].card, []).append(play)
    return list(groups.values())


def _line(text: str) -> list[str]:
    """A line of :func:`describe_line`, indented under its heading."""
    depth = len(text) - len(text.lstrip(" "))
    return _wrap(text.strip(), "  " + " " * depth)


def puzzle_budget(nodes: int) -> int:
    """A node budget ten times what the solve needs, rounded up to a round figure."""
    step = 10_000
    return -(-10 * nodes // step) * step


def _title(puzzle: DeepPuzzle) -> str:
    players = _NUMBERS[puzzle.state.num_players()]
    deal = "" if puzzle.deal is None else f", deal {puzzle.deal}"
    return f"{players} players{deal}: a win in {puzzle.rating.depth} bouts"


def write_deep_puzzle(puzzle: DeepPuzzle, path: Path) -> None:
    """Write one puzzle file (``docs/puzzles.md``)."""
    state = puzzle.state
    start = puzzle.reached.start
    players = state.num_players()
    question = _question(puzzle)
    rating = puzzle.rating
    made = [start.move_to_string(move) for move in puzzle.reached.moves]
    data: dict[str, Any] = {
        "game": "omens", "title": _title(puzzle),
        "players": players, "teams": [[s + 1 for s in team] for team in state.teams()],
        "hands": {str(seat + 1): list(hand) for seat, hand in enumerate(start.hands)},
        "bout": {"leader": start.leader + 1, **({"moves": made} if made else {})},
        "puzzle": {
            "question": question, "team": list(puzzle.team),
            **({"concept": puzzle.concept.value} if puzzle.concept is Concept.PARANOID
               else {}),
            "max_nodes": rating.max_nodes or puzzle_budget(rating.nodes),
            "answer": {"value": "1", "best_actions": [puzzle.best],
                       "best_actions_exclude": [t.move for t in puzzle.tempting]},
            "rating": {"depth": rating.depth, "tempting": rating.tempting,
                       "nodes": rating.nodes},
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, position_toml(data, comments(puzzle)))  # whole or not at all


# -- generation ------------------------------------------------------------------------------

DealProgress = Callable[[int, int], None]
"""Called after each deal with the deals done and the puzzles found so far."""


def deal_rng(seed: int, index: int) -> random.Random:
    """The random source of one deal: fixed by the seed and the deal's number."""
    return random.Random(f"omens deal {seed} {index}")


def generate_deep(
    recipe: DeepRecipe,
    progress: DealProgress | None = None,
    on_found: Callable[[DeepPuzzle], None] | None = None,
) -> tuple[list[DeepPuzzle], dict[str, int]]:
    """The first ``count`` puzzles found (at most one per deal), and how many positions were
    examined and why the others were not kept. ``on_found`` is called with each puzzle as
    soon as it is found (so that an interrupted run keeps what it found).

    Each deal is played forward at random; every position on the way small enough to solve
    is examined, and so are the positions that follow a winning play of one that the team
    wins but that was not kept (:func:`followers`): a won position's neighbours are won too,
    and among them are the ones where only one play keeps the win."""
    recipe.check()
    table = Table(recipe.players, make_rules(), scope=Scope.ROUND)
    found: list[DeepPuzzle] = []
    tally = {"deals": 0, "positions": 0, **dict.fromkeys(REASONS, 0)}
    for index in range(recipe.max_deals):
        if len(found) >= recipe.count:
            break
        puzzle = _search_deal(table, recipe, index, tally)
        if puzzle is not None:
            found.append(puzzle)
            if on_found is not None:
                on_found(puzzle)
        tally["deals"] = index + 1
        if progress is not None:
            progress(index + 1, len(found))
    return found, tally


def _search_deal(
    table: Table, recipe: DeepRecipe, index: int, tally: dict[str, int]
) -> DeepPuzzle | None:
    rng = deal_rng(recipe.seed, index)
    seen: set[object] = set()
    for reached in play_forward(deal_round(table, recipe.deal, rng), rng):
        waiting = [reached]
        while waiting:
            here = waiting.pop(0)
            state = here.state
            in_play = sum(len(hand) for hand in state.hands) + len(state.in_play)
            if in_play > recipe.cards or len(state.moves()) < 2 or state.key() in seen:
                continue
            seen.add(state.key())
            tally["positions"] += 1
            examined = examine(here, recipe, _origin(recipe, index, here), index + 1)
            if examined.puzzle is not None:
                return examined.puzzle
            tally[examined.reason] += 1
            waiting += followers(here, examined.winning)
    return None


MAX_FOLLOWERS: Final = 48
"""Positions :func:`followers` gives at most, per position."""


def followers(reached: Reached, winning: Sequence[str]) -> list[Reached]:
    """The positions after one of the ``winning`` plays where a player of the same team is
    next to play a card in the same bout, whatever the others do in between (every reply, in
    legal order; at most :data:`MAX_FOLLOWERS`)."""
    state = reached.state
    team = {seat - 1 for seat in mover_team(state)}
    bout_over = state.stop_predicate("bout")
    out: list[Reached] = []
    stack = []
    for text in reversed(winning):
        move = state.parse_move(text)
        stack.append(((*reached.moves, move), state.apply_move(move)))
    while stack and len(out) < MAX_FOLLOWERS:
        moves, here = stack.pop()
        if here.is_terminal() or bout_over(here):
            continue
        player = here.current_player()
        if player >= 0 and not here.pending and player in team:
            out.append(Reached(reached.start, moves, here, reached.bouts))
            continue
        for move in reversed(here.moves()):
            stack.append(((*moves, tuple(move)), here.apply_move(move)))
    return out


def _origin(recipe: DeepRecipe, index: int, reached: Reached) -> str:
    """The command that finds the position again (the options that decide what a deal
    gives), and where in it the position is."""
    options = ""
    if recipe.max_cards is not None:
        options += f" --max-cards {recipe.max_cards}"
    if recipe.budget is not None:
        options += f" --max-nodes {recipe.budget.max_nodes}"
    if recipe.depth_budget != DeepRecipe().depth_budget:
        options += f" --depth-nodes {recipe.depth_budget.max_nodes}"
    if recipe.min_depth != DeepRecipe().min_depth:
        options += f" --min-depth {recipe.min_depth}"
    return (
        f"From a random {recipe.deal.value} deal: omen-solver puzzles generate --kind deep "
        f"--players {recipe.players} --deal {recipe.deal.value} --seed {recipe.seed}{options} "
        f"(deal {index + 1}, bout {reached.bouts + 1})."
    )
