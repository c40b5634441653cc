"""Benchmark: solving Omens rounds exactly, the search kernel against the reference solver and
OpenSpiel, with time, nodes, memory and the ratios side by side in one run.

Sections (``docs/benchmarks.md`` shows the last run on this machine):

1. **Rounds from the deal**: ``--deals`` seeded random deals per configuration, as at a game
   start (one Absolute each, teams and leader from them; ``omen_solver.omens.deals``), under
   the ``rulebook`` and ``gamepark`` presets: 4 players (5 cards), 5 players (5 and 4), 6
   players (4 cards, three teams: paranoid for the leader's team, and max-n). The kernel
   solves each within ``--seconds``; the rows give how many were solved, the median, 90th
   percentile and worst seconds (``> S`` when some ran out), nodes, nodes per second, the
   transposition table's entries and the peak memory of the process that ran them. The same
   deals cut to fewer cards per hand show where full answers come today.
2. **Ratios**: fixed positions (seeded deals of cards 1-29, seat 1 leads) that the reference
   solver finishes: the compiled kernel, the pure-Python kernel, the reference solver
   (``--engine reference``) and OpenSpiel's ``alpha_beta_search`` through the adapter, each
   under the same budget, and the ratios of their times to the compiled kernel's.
3. **A whole game**: the value of a game for a given deal of every round (small hands), kernel
   and reference.

Usage::

    python benchmarks/omens_search.py [--deals 100] [--seconds 30] [--write docs/benchmarks.md]

Every configuration runs in a child process of its own, so that its peak memory is its own;
OpenSpiel's search takes no budget, so it runs in a child process stopped at the limit.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEED = 20261130


# -- one configuration, in a child process ------------------------------------------------------


@dataclass
class Config:
    """What a child process solves."""

    kind: str
    """``deals``, ``ratio`` or ``game``."""
    players: int
    preset: str = "rulebook"
    concept: str = "minimax"
    cards: int | None = None
    """Cards per hand kept from each deal (None: the whole deal)."""
    deals: int = 1
    seconds: float = 30.0
    engine: str = "auto"
    pure_python: bool = False
    algorithm: str | None = None
    """The kernel's search (None: its default)."""
    seed: int = SEED


@dataclass
class Outcome:
    """What one child process measured."""

    statuses: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    states: list[int] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    table_bytes: int = 0
    peak_rss: int = 0
    engine: str = ""


def _deal_states(config: Config) -> list[Any]:
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(config.players, make_rules(config.preset))
    states = []
    for index in range(config.deals):
        deal = random_deal(table, config.seed + index, cards=config.cards)
        states.append(deal_position(table, deal))
    return states


RATIO_TEAMS = {4: [[0, 2], [1, 3]], 5: [[0, 3], [1, 2, 4]], 6: [[0, 3], [1, 4], [2, 5]]}


def ratio_hands(players: int, cards: int) -> list[list[int]]:
    """A fixed deal of cards 1-29 (no Absolute: OpenSpiel's sequential search cannot play The
    Absolute's secret exchange between two teams)."""
    rng = random.Random(SEED + 10 * players + cards)
    deck = list(range(1, 30))
    rng.shuffle(deck)
    return [sorted(deck[seat * cards : (seat + 1) * cards]) for seat in range(players)]


def _ratio_state(config: Config) -> Any:
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.state import OmensState
    from omen_solver.omens.table import Table

    assert config.cards is not None
    table = Table(config.players, make_rules(config.preset))
    hands = ratio_hands(config.players, config.cards)
    return OmensState.start_of_bout(table, hands, RATIO_TEAMS[config.players], 0)


def _game_state(config: Config) -> Any:
    from omen_solver.omens.position import parse_position

    rng = random.Random(config.seed)
    box = [30, 31, 32, 33, 34, 35][: 6 - config.players]
    cards = [c for c in range(1, 36) if c not in box]
    size = config.cards or 2

    def deal() -> list[list[int]]:
        rng.shuffle(cards)
        return [sorted(cards[size * s : size * s + size]) for s in range(config.players)]

    teams = [[t + 1 for t in team] for team in RATIO_TEAMS[config.players]]
    data = {
        "game": "omens", "players": config.players, "teams": teams, "scope": "game",
        "preset": config.preset, "box": box, "bout": {"leader": 1},
        "hands": {str(s + 1): hand for s, hand in enumerate(deal())},
        "later_rounds": [deal() for _ in teams],
    }
    return parse_position(data, "<benchmark game>").state


def run_config(config: Config) -> Outcome:
    """Solve what ``config`` names in this process and measure it."""
    from omen_solver.core.budget import Budget
    from omen_solver.core.search import solve

    if config.pure_python:
        os.environ["OMEN_SOLVER_PURE_PYTHON"] = "1"
    if config.kind == "deals":
        states = _deal_states(config)
    elif config.kind == "ratio":
        states = [_ratio_state(config)]
    else:
        states = [_game_state(config)]
    outcome = Outcome()
    for state in states:
        started = time.perf_counter()
        result = solve(state, concept=config.concept, team=1, engine=config.engine,
                       budget=Budget(max_seconds=config.seconds), algorithm=config.algorithm)
        outcome.seconds.append(time.perf_counter() - started)
        outcome.statuses.append(result.status.value)
        outcome.nodes.append(result.nodes)
        outcome.states.append(result.states)
        outcome.values.append("" if result.value is None else str(result.value))
        outcome.table_bytes = max(outcome.table_bytes, int(result.extra.get("table_bytes", 0)))
        outcome.engine = str(result.extra.get("engine", ""))
    outcome.peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return outcome


def in_child(config: Config, timeout: float) -> Outcome | None:
    """Run a configuration in a child process (its own peak memory); None if it was stopped."""
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", json.dumps(asdict(config))],
            capture_output=True, text=True, timeout=timeout, check=False, cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        raise RuntimeError(f"{config}: {done.stderr.strip()[-2000:]}")
    return Outcome(**json.loads(done.stdout))


_OPENSPIEL_DRIVER = """
import json, sys, time
from omen_solver.integrations.openspiel import make_game
from omen_solver.omens.rules import make_rules
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Table
from open_spiel.python.algorithms import minimax
spec = json.loads(sys.argv[1])
table = Table(spec["players"], make_rules("rulebook"))
state = OmensState.start_of_bout(table, spec["hands"], spec["teams"], 0)
start = time.perf_counter()
game = make_game(state)
value, _ = minimax.alpha_beta_search(game, maximum_depth=game.max_game_length() + 1,
                                     maximizing_player_id=0)
print(json.dumps({"value": value, "seconds": time.perf_counter() - start}))
"""


def openspiel(players: int, cards: int, seconds: float) -> tuple[str, float | None]:
    """OpenSpiel's alpha-beta on a ratio position: (status, seconds)."""
    spec = json.dumps({"players": players, "hands": ratio_hands(players, cards),
                       "teams": RATIO_TEAMS[players]})
    try:
        done = subprocess.run([sys.executable, "-c", _OPENSPIEL_DRIVER, spec],
                              capture_output=True, text=True, timeout=seconds, check=False)
    except subprocess.TimeoutExpired:
        return "unknown", None
    if done.returncode != 0:
        # the adapter refuses a position whose state graph is too large to scan, with the reason
        last = (done.stderr.strip().splitlines() or ["an error"])[-1]
        if "more than" in last and "states" in last:
            limit = last.split("more than", 1)[1].split("states", 1)[0].strip()
            return f"refused: over {int(limit):,} states", None
        return f"failed: {last[:80]}", None
    return "solved", float(json.loads(done.stdout)["seconds"])


# -- tables ---------------------------------------------------------------------------------------


def _seconds(values: list[float], statuses: list[str], budget: float) -> tuple[str, str, str]:
    """Median, 90th percentile and worst; a search that ran out counts as "> budget"."""
    padded = sorted(v if s == "solved" else float("inf") for v, s in zip(values, statuses,
                                                                         strict=True))

    def show(value: float) -> str:
        return f"> {budget:g}" if value == float("inf") else f"{value:.2f}"

    p90 = padded[min(len(padded) - 1, int(0.9 * len(padded)))]
    return show(statistics.median(padded)), show(p90), show(padded[-1])


def _mib(value: int) -> str:
    return f"{value / 2**20:,.0f}"


def deals_rows(args: argparse.Namespace) -> list[list[str]]:
    configs = []
    for players, concepts in ((4, ["minimax"]), (5, ["minimax"]), (6, ["paranoid", "maxn"])):
        for cards in (None, 3, 2):
            for preset in ("rulebook", "gamepark"):
                for concept in concepts:
                    configs.append(Config("deals", players, preset, concept, cards, args.deals,
                                          args.seconds))
    rows = []
    for config in configs:
        outcome = in_child(config, timeout=config.deals * (config.seconds * 3 + 30) + 120)
        label = f"{config.players}p, {'deal' if config.cards is None else f'{config.cards} cards'}"
        if outcome is None:
            rows.append([label, config.preset, config.concept, "stopped"] + ["-"] * 7)
            continue
        solved = outcome.statuses.count("solved")
        median, p90, worst = _seconds(outcome.seconds, outcome.statuses, config.seconds)
        nodes = sum(outcome.nodes)
        rate = nodes / max(sum(outcome.seconds), 1e-9)
        rows.append([
            label, config.preset, config.concept, f"{solved}/{len(outcome.statuses)}",
            median, p90, worst, f"{statistics.median(outcome.nodes):,.0f}", f"{rate:,.0f}",
            f"{max(outcome.states):,}", _mib(outcome.peak_rss),
        ])
        print(f"done {label} {config.preset} {config.concept}", file=sys.stderr, flush=True)
    return rows


RATIO_POSITIONS = [(4, 3), (4, 4), (4, 5), (5, 3), (5, 4), (6, 2), (6, 3)]


def _ratio(value: float) -> str:
    """A ratio of seconds: one decimal below 10 (0.4 says "faster"), whole numbers above."""
    return f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def ratio_rows(args: argparse.Namespace) -> list[list[str]]:
    rows = []
    for players, cards in RATIO_POSITIONS:
        concept = "paranoid" if players == 6 else "minimax"
        label = f"{players}p x {cards}"
        measured: list[tuple[str, str, float | None, int | None]] = []
        for name, engine, pure, algorithm in (
            ("kernel (compiled)", "kernel", False, None),
            ("kernel (compiled), alpha-beta alone", "kernel", False, "alphabeta"),
            ("kernel (pure Python)", "kernel", True, None),
            ("reference solver", "reference", False, None),
        ):
            config = Config("ratio", players, concept=concept, cards=cards,
                            seconds=args.ratio_seconds, engine=engine, pure_python=pure,
                            algorithm=algorithm)
            outcome = in_child(config, timeout=args.ratio_seconds * 3 + 60)
            if outcome is None or outcome.statuses[0] != "solved":
                measured.append((name, "unknown", None, outcome.nodes[0] if outcome else None))
            else:
                measured.append((name, "solved", outcome.seconds[0], outcome.nodes[0]))
        if players < 6:
            status, seconds = openspiel(players, cards, args.ratio_seconds)
            measured.append(("OpenSpiel alpha_beta_search", status, seconds, None))
        base = measured[0][2]
        for name, status, seconds, nodes in measured:
            if base is None or name == measured[0][0]:
                ratio = ""
            elif seconds is None:
                ratio = f"> {_ratio(args.ratio_seconds / base)}" if status == "unknown" else "-"
            else:
                ratio = _ratio(seconds / base)
            rows.append([label, name, status, "-" if nodes is None else f"{nodes:,}",
                         "-" if seconds is None else f"{seconds:.3f}", ratio])
        print(f"done ratios {label}", file=sys.stderr, flush=True)
    return rows


def game_rows(args: argparse.Namespace) -> list[list[str]]:
    rows = []
    for players in (4, 5, 6):
        concept = "paranoid" if players == 6 else "minimax"
        for engine in ("kernel", "reference"):
            config = Config("game", players, concept=concept, cards=2, engine=engine,
                            seconds=args.ratio_seconds)
            outcome = in_child(config, timeout=args.ratio_seconds * 3 + 60)
            if outcome is None:
                rows.append([f"{players}p, 2 cards a round", engine, "stopped", "-", "-", "-"])
                continue
            rows.append([f"{players}p, 2 cards a round", engine, outcome.statuses[0],
                         outcome.values[0] or "-", f"{outcome.nodes[0]:,}",
                         f"{outcome.seconds[0]:.3f}"])
    return rows


def markdown(args: argparse.Namespace, deals: list[list[str]], ratios: list[list[str]],
             games: list[list[str]]) -> str:
    def table(headers: list[str], rows: list[list[str]]) -> list[str]:
        out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
        return out + ["| " + " | ".join(row) + " |" for row in rows]

    from omen_solver.omens.kernel.solve import backend_name

    machine = (f"{platform.python_implementation()} {platform.python_version()}, "
               f"{platform.machine()}, {os.cpu_count()} cores")
    return "\n".join([
        BEGIN,
        "## Omens: exact solving",
        "",
        f"Measured by `python benchmarks/omens_search.py --deals {args.deals} --seconds "
        f"{args.seconds:g} --write docs/benchmarks.md` on {machine}, on "
        f"{time.strftime('%Y-%m-%d')}; the kernel ran {backend_name()}, with its default "
        "search (alpha-beta and df-pn by turns, `solve --search portfolio`; "
        "`benchmarks/omens_dfpn.py` compares the searches one by one). `make bench` runs a "
        "shorter version and writes nothing.",
        "",
        "## Rounds from the deal",
        "",
        f"{args.deals} seeded deals per row, as at a game start (one Absolute each; teams and "
        "leader from the Absolutes), every hand open, round scope, team of the leader asked. "
        f"Each search has {args.seconds:g} s; `> S` means at least one deal of the row ran "
        "out of time (counted as slower than the budget in the percentiles). \"3 cards\" and "
        "\"2 cards\" deal that many cards a hand (the Absolute and others), "
        "`solve --deal SEED --players N --cards K`. Memory is "
        "the peak resident size of the process that solved the row.",
        "",
        *table(["deal", "preset", "concept", "solved", "median s", "p90 s", "worst s",
                "median nodes", "nodes/s", "largest table", "peak MiB"], deals),
        "",
        "## Ratios, side by side",
        "",
        "Fixed deals of cards 1-29 (no Absolute, so that OpenSpiel's sequential search applies), "
        f"seat 1 leads, rulebook preset, {args.ratio_seconds:g} s each. The ratio is each "
        "search's time over the compiled kernel's (`> n`: it ran out first). Three teams: "
        "paranoid (team of seat 1); OpenSpiel's alpha-beta needs two.",
        "",
        *table(["position", "search", "status", "nodes", "seconds", "ratio"], ratios),
        "",
        "## A whole game for a given deal of every round",
        "",
        "Scope `game`, 2 cards a hand in every round (`later_rounds`), the value of the game for "
        "the team of seat 1.",
        "",
        *table(["game", "engine", "status", "value", "nodes", "seconds"], games),
        END,
    ])


BEGIN = "<!-- omens-search:begin -->"
END = "<!-- omens-search:end -->"


def write_section(path: Path, section: str) -> None:
    """Put the Omens section into ``path``, keeping the other sections (Omen endgames...)."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
    else:
        # the first run replaces what stands before the other sections
        cut = text.find("<!--")
        head, tail = "# Benchmarks\n\n", "\n" + (text[cut:] if cut >= 0 else "")
    path.write_text(head + section + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per configuration")
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per deal")
    parser.add_argument("--ratio-seconds", type=float, default=60.0,
                        help="budget per search in the ratio and game sections")
    parser.add_argument("--write", type=Path, help="also write the tables to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(asdict(run_config(Config(**json.loads(args.worker))))))
        return 0
    deals = deals_rows(args)
    ratios = ratio_rows(args)
    games = game_rows(args)
    text = markdown(args, deals, ratios, games)
    print(text)
    if args.write:
        write_section(args.write, text)
        print(f"wrote {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
