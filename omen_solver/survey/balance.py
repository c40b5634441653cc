"""Balance by self-play: whole games from the deal to the end (``docs/survey.md``, "Balance").

Game ``i`` of a run with seed ``s`` and ``n`` players starts from the survey's deal
``(s, n, i)`` at a game start (rules file 000, "Setup": one Absolute each, teams and the first
leader from them) and is played to its end, the first team to win 2 rounds (rules file 000,
"Goal of the Game"; later rounds dealt by the rules' own chance deals, "End of a Round"), every
seat by the stated policy (:mod:`omen_solver.survey.policies`), drawing from its own seeded
generator. Each preset plays the same deals with the same generator, so the presets are
compared on the same games as far as their rules let play coincide.

A game that goes on past :data:`MAX_MOVES` moves (play that can repeat for ever, which a fixed
policy may follow, see ``docs/kernel.md``) is stopped and counted apart as unfinished, never
as a win or a loss; so is a game whose round ends with nobody holding a card (no winner).

Counted, with 95 % Wilson intervals: the share of games won by the team of each seat, by each
team size (the pair against the trio at five players), by the team of the first leader, and how
often the first leader's team wins the first round.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import atomic_write
from omen_solver.errors import OmenSolverError
from omen_solver.omens.deals import check_size, draw_deal
from omen_solver.omens.rules import PRESETS, OmensRules, make_rules
from omen_solver.omens.state import Phase
from omen_solver.omens.table import Scope
from omen_solver.survey.play import bout_start
from omen_solver.survey.policies import Policy, Seats
from omen_solver.survey.stats import Rate

__all__ = [
    "GAMES_FILE",
    "MAX_MOVES",
    "BalanceConfig",
    "BalanceSummary",
    "game_seed",
    "markdown",
    "play_batch",
    "play_game",
    "summarise_games",
    "write_balance_outputs",
]

GAMES_FILE: Final = "games.jsonl"
MAX_MOVES: Final = 20_000
"""Moves after which a game is stopped as unfinished (a real game takes a few hundred)."""
VERSION: Final = 1


@dataclass(frozen=True)
class BalanceConfig:
    """Everything that decides a balance run's results (the results file's first line)."""

    seed: int = 0
    players: tuple[int, ...] = (4, 5, 6)
    games: int = 1000
    """Games per player count and preset."""
    presets: tuple[str, ...] = ("rulebook", "gamepark")
    overrides: tuple[tuple[str, str], ...] = ()
    policy: Policy = field(default_factory=Policy)
    version: int = VERSION

    def __post_init__(self) -> None:
        for players in self.players:
            check_size(players, None)
        if self.games < 0:
            raise OmenSolverError(f"games {self.games}: must be 0 or more")
        if not self.presets:
            raise OmenSolverError("presets: name at least one")
        for preset in self.presets:
            if preset not in PRESETS:
                raise OmenSolverError(
                    f"preset {preset!r}: unknown; choose from {', '.join(sorted(PRESETS))}"
                )
            self.rules(preset)

    def rules(self, preset: str) -> OmensRules:
        return make_rules(preset, dict(self.overrides), where="--rule")

    def describe(self) -> str:
        rules = f", rules {dict(self.overrides)}" if self.overrides else ""
        return (f"whole games from a game start (the rulebook's deal) to the end (two rounds "
                f"won), every seat played by the {self.policy.label()} policy{rules}, seed "
                f"{self.seed}")

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "players": list(self.players), "games": self.games,
            "presets": list(self.presets), "overrides": dict(self.overrides),
            "policy": self.policy.to_json(), "version": self.version,
        }

    def items(self) -> list[tuple[str, int]]:
        return [(preset, players) for preset in self.presets for players in self.players]


def game_seed(seed: int, players: int, index: int) -> str:
    """The play of game ``(seed, players, index)``: the same generator for every preset."""
    return f"omens-game:{seed}:{players}:{index}"


def game_id(preset: str, players: int, index: int) -> str:
    return f"{preset}/{players}p-{index}"


def play_game(config: BalanceConfig, preset: str, players: int, index: int) -> dict[str, Any]:
    """The record of one whole game: seats and teams from 1."""
    rules = config.rules(preset)
    deal = draw_deal(config.seed, players, index)
    state = deal.state(rules, Scope.GAME)
    seats = Seats(config.policy, random.Random(game_seed(config.seed, players, index)))
    seats.start(state)
    rounds: list[dict[str, Any]] = []
    leader: int | None = deal.leader
    won = state.rounds_won
    moves = 0
    while not state.is_terminal() and moves < MAX_MOVES:
        if leader is None and bout_start(state):
            leader = state.leader
        move = seats.move(state)
        after = state.apply_move(move)
        seats.observe(state, move, after)
        moves += 1
        if after.rounds_won != won:
            team = next(t for t, (a, b) in enumerate(zip(after.rounds_won, won, strict=True))
                        if a != b)
            rounds.append({"leader": None if leader is None else leader + 1,
                           "winner_team": team + 1})
            won, leader = after.rounds_won, None
        state = after
    teams = [[seat + 1 for seat in team] for team in deal.teams]
    record: dict[str, Any] = {
        "id": game_id(preset, players, index), "preset": preset, "players": players,
        "index": index, "teams": teams, "first_leader": deal.leader + 1,
        "rounds": rounds, "moves": moves, "play": seats.counts.to_json(),
    }
    if not state.is_terminal():
        record["unfinished"] = f"stopped after {moves} moves"
        record["winner_team"] = None
    elif state.winner is None or state.phase != Phase.OVER or max(state.rounds_won) < 2:
        record["unfinished"] = "a round ended with nobody holding a card: no winner"
        record["winner_team"] = None
    else:
        record["winner_team"] = state.team_of(state.winner) + 1
    return record


def play_batch(config: BalanceConfig, items: list[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """Records of a batch of games ``(preset, players, index)``: one Dask task."""
    return [play_game(config, preset, players, index) for preset, players, index in items]


# -- aggregates -------------------------------------------------------------------------------


def _rate(wins: int, games: int) -> Rate:
    return Rate(Fraction(wins), games)


@dataclass
class _Cell:
    """The games of one preset and player count."""

    games: int = 0
    finished: int = 0
    unfinished: Counter[str] = field(default_factory=Counter)
    seat_wins: Counter[int] = field(default_factory=Counter)
    size_wins: Counter[int] = field(default_factory=Counter)
    size_teams: Counter[int] = field(default_factory=Counter)
    first_leader_wins: int = 0
    first_round: int = 0
    first_round_games: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    moves: int = 0
    play: Counter[str] = field(default_factory=Counter)


@dataclass
class BalanceSummary:
    config: BalanceConfig
    cells: dict[tuple[str, int], _Cell]

    def seat_rate(self, preset: str, players: int, seat: int) -> Rate:
        cell = self.cells[preset, players]
        return _rate(cell.seat_wins[seat], cell.finished)

    def size_rate(self, preset: str, players: int, size: int) -> Rate:
        """The share of games won by a team of ``size`` seats (of all such teams' games)."""
        cell = self.cells[preset, players]
        return _rate(cell.size_wins[size], cell.size_teams[size])

    def leader_rate(self, preset: str, players: int) -> Rate:
        cell = self.cells[preset, players]
        return _rate(cell.first_leader_wins, cell.finished)

    def first_round_rate(self, preset: str, players: int) -> Rate:
        cell = self.cells[preset, players]
        return _rate(cell.first_round, cell.first_round_games)

    def games(self) -> int:
        return sum(cell.games for cell in self.cells.values())

    def unfinished(self) -> int:
        return sum(sum(cell.unfinished.values()) for cell in self.cells.values())

    def status(self) -> str:
        text = f"{self.games()} games, {self.games() - self.unfinished()} played to the end"
        if self.unfinished():
            text += f", {self.unfinished()} unfinished (counted apart, never as a win or a loss)"
        return text + "."

    def to_json(self) -> dict[str, Any]:
        cells: dict[str, Any] = {}
        for (preset, players), cell in sorted(self.cells.items()):
            sizes = sorted(cell.size_teams)
            cells[f"{preset}/{players}"] = {
                "games": cell.games, "finished": cell.finished,
                "unfinished": dict(cell.unfinished),
                "by_seat": {str(seat): self.seat_rate(preset, players, seat).to_json()
                            for seat in range(1, players + 1)},
                "by_team_size": {str(size): self.size_rate(preset, players, size).to_json()
                                 for size in sizes},
                "first_leader": self.leader_rate(preset, players).to_json(),
                "first_round_to_first_leader": self.first_round_rate(preset, players).to_json(),
                "rounds": {str(k): v for k, v in sorted(cell.rounds.items())},
                "mean_moves": round(cell.moves / cell.games, 2) if cell.games else None,
                "play": dict(cell.play),
            }
        return {"balance": self.config.to_json(), "how": self.config.describe(),
                "status": self.status(), "cells": cells}


def summarise_games(config: BalanceConfig, records: Any) -> BalanceSummary:
    """The aggregates of game records (one pass; the result does not depend on the order)."""
    cells: dict[tuple[str, int], _Cell] = defaultdict(_Cell)
    for preset, players in config.items():
        cells[preset, players] = _Cell()
    for record in records:
        cell = cells[record["preset"], record["players"]]
        cell.games += 1
        cell.moves += record["moves"]
        cell.play.update(record.get("play", {}))
        teams = record["teams"]
        leader_team = next(i for i, team in enumerate(teams) if record["first_leader"] in team)
        rounds = record["rounds"]
        if rounds:
            cell.first_round_games += 1
            cell.first_round += rounds[0]["winner_team"] - 1 == leader_team
        winner = record.get("winner_team")
        if winner is None:
            cell.unfinished[record.get("unfinished", "unfinished")] += 1
            continue
        cell.finished += 1
        cell.rounds[len(rounds)] += 1
        won = teams[winner - 1]
        for seat in won:
            cell.seat_wins[seat] += 1
        for index, team in enumerate(teams):
            cell.size_teams[len(team)] += 1
            if index == winner - 1:
                cell.size_wins[len(team)] += 1
        cell.first_leader_wins += winner - 1 == leader_team
    return BalanceSummary(config, dict(cells))


def markdown(summary: BalanceSummary, plot: str | None = None) -> str:
    """The balance tables: the presets side by side, one row per player count."""
    config = summary.config
    presets = list(config.presets)
    lines = [
        f"Balance: {config.describe()}; {config.games} games per player count and preset. "
        f"{summary.status()}",
        "",
        "## The first leader's team, and the team sizes",
        "",
        "The share of games won (95 % interval, games played to the end): by the team of the "
        "seat that led the first bout (the highest Absolute), and by a team of each size (at "
        "five players the pair plays the trio). Also how often the first leader's team wins "
        "the first round.",
        "",
        "| players | what | " + " | ".join(f"`{p}`" for p in presets) + " |",
        "|---|---|" + "---|" * len(presets),
    ]
    for players in config.players:
        lines.append(f"| {players} | first leader's team wins the game | "
                     + " | ".join(summary.leader_rate(p, players).text() for p in presets)
                     + " |")
        lines.append(f"| {players} | first leader's team wins round 1 | "
                     + " | ".join(summary.first_round_rate(p, players).text() for p in presets)
                     + " |")
        sizes = sorted({size for p in presets for size in summary.cells[p, players].size_teams})
        if len(sizes) > 1:
            for size in sizes:
                lines.append(f"| {players} | a team of {size} wins | "
                             + " | ".join(summary.size_rate(p, players, size).text()
                                          for p in presets) + " |")
    lines += [
        "",
        "## By seat",
        "",
        "The share of games won by the team of each seat (seats in play order; the first "
        "leader is the seat dealt the highest Absolute, any seat).",
        "",
        "| players | seat | " + " | ".join(f"`{p}`" for p in presets) + " |",
        "|---|---|" + "---|" * len(presets),
    ]
    for players in config.players:
        for seat in range(1, players + 1):
            lines.append(f"| {players} | {seat} | "
                         + " | ".join(summary.seat_rate(p, players, seat).text()
                                      for p in presets) + " |")
    lines += ["", "## Length of the games", "",
              "| players | preset | rounds played: games | mean moves | unfinished |",
              "|---|---|---|---|---|"]
    for players in config.players:
        for preset in presets:
            cell = summary.cells[preset, players]
            rounds = ", ".join(f"{k}: {v}" for k, v in sorted(cell.rounds.items())) or "-"
            mean = f"{cell.moves / cell.games:.1f}" if cell.games else "-"
            unfinished = "; ".join(f"{why} ({n})" for why, n in cell.unfinished.items()) or "0"
            lines.append(f"| {players} | `{preset}` | {rounds} | {mean} | {unfinished} |")
    if plot:
        lines += ["", f"![balance]({plot})"]
    return "\n".join(lines) + "\n"


def write_balance_outputs(summary: BalanceSummary, folder: Path,
                          plots: bool = True) -> list[Path]:
    """``balance.md``, ``balance.json`` and the plot ``balance.png``/``.svg``."""
    written: list[Path] = []
    name = None
    if plots:
        from omen_solver.survey.plots import write_balance_plot

        paths = write_balance_plot(summary, folder)
        written += paths
        name = paths[0].name
    atomic_write(folder / "balance.json", json.dumps(summary.to_json(), indent=2) + "\n")
    atomic_write(folder / "balance.md", markdown(summary, name))
    return [*written, folder / "balance.json", folder / "balance.md"]
