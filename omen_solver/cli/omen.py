"""``omen-solver omen ...``: the legal actions of an Omen position, and playing moves with a
trace that names the rule behind every step."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.markup import escape

from omen_solver.cli.args import (
    POSITION_HELP,
    budget_json,
    node_count,
    position,
    seconds,
    whole_number,
)
from omen_solver.cli.output import (
    Column,
    Row,
    console,
    plural,
    print_json,
    print_rows,
    print_wrapped,
    progress,
)
from omen_solver.core.budget import Budget
from omen_solver.core.game import CHANCE
from omen_solver.core.options import describe
from omen_solver.core.positions import read_position
from omen_solver.errors import CatalogueError, OmenSolverError, OptionError, PositionError
from omen_solver.omen.arithmetic import ask, cross_check
from omen_solver.omen.cards import default_catalogue, load_catalogue
from omen_solver.omen.endgame import (
    DEFAULT_REDUCTIONS,
    EndgameSettings,
    Reduction,
    solve_endgame,
)
from omen_solver.omen.position import game_is_not_omen, state_from_data
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.omen.state import OmenState
from omen_solver.omen.summary import legal_strings, state_summary

__all__ = ["register"]

STATS_DEFAULT = "strength-red"
"""How ``omen cards`` reads colour-keyed stats unless told (rule option stat_colours)."""

DEFAULT_SECONDS = 30.0
"""The time limit of ``endgame`` and ``ask --check`` unless one is given: as ``solve``'s, an
interactive answer within half a minute (docs/search.md, "Budgets")."""


def register(subparsers: Any) -> None:
    """Add ``omen legal``, ``play``, ``endgame``, ``ask``, ``profiles`` and ``cards``."""
    omen = subparsers.add_parser("omen",
                                 description="Omen (A Reign of War, Fires in the East) positions.")
    commands = omen.add_subparsers(dest="omen_command", metavar="COMMAND", required=True)

    legal = commands.add_parser("legal", help="the legal actions of the player to act")
    legal.add_argument("file", type=position, help=f"{POSITION_HELP} (Omen)")
    legal.add_argument("--json", action="store_true", help="print a JSON list of actions")
    legal.set_defaults(handler=_legal)

    play = commands.add_parser("play", help="apply moves and explain each step")
    play.add_argument("file", type=position, help=f"{POSITION_HELP} (Omen)")
    play.add_argument("--moves", nargs="+", action="extend", default=[], metavar="ACTION",
                      help="actions in canonical notation, each quoted (or several joined "
                      "by ';')")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.set_defaults(handler=_play)

    _register_endgame(commands)
    _register_ask(commands)

    profiles = commands.add_parser("profiles", help="the rule profiles and every option")
    profiles.add_argument("--json", action="store_true", help="print JSON")
    profiles.set_defaults(handler=_profiles)

    cards = commands.add_parser("cards", help="list the cards; check your own card files")
    cards.add_argument("files", nargs="*", type=Path, help="card files added to the shipped ones")
    cards.add_argument("--only", action="store_true", help="the given files without the shipped")
    cards.add_argument("--stats", default=STATS_DEFAULT,
                       choices=["offering-red", "strength-red", "names-only"],
                       help="how colour-keyed stats are read (rule option stat_colours, R14)")
    cards.add_argument("--json", action="store_true", help="print JSON")
    cards.set_defaults(handler=_cards)


def _load(source: Path | str) -> tuple[OmenState, list[str], list[dict[str, Any]]]:
    """The position before its ``moves``, those moves, and the trace of setting it up."""
    data, name, _ = read_position(source)
    path = Path(name)
    game_is_not_omen(path, data)
    moves = data.pop("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise PositionError(f"{path}: key 'moves': must be a list of actions (strings)")
    try:
        state = state_from_data(path, data)
    except (PositionError, CatalogueError):
        raise
    except OmenSolverError as error:
        raise PositionError(f"{path}: {error}") from None
    trace = [{"action": None, "rule": step.rule, "text": step.text} for step in state.trace]
    return state, moves, trace


def _play_moves(state: OmenState, moves: list[tuple[str, str]], trace: list[dict[str, Any]]
                ) -> OmenState:
    for where, text in moves:
        actor = _actor(state)
        try:
            state, steps = state.explain(text)
        except OmenSolverError as error:
            raise type(error)(f"{where}: {error}") from None
        trace.append({"action": text, "by": actor, "rule": "action", "text": f"{actor}: {text}"})
        trace.extend({"action": text, "rule": s.rule, "text": s.text} for s in steps)
    return state


def _actor(state: OmenState) -> str:
    player = state.current_player()
    return "chance" if player == CHANCE else f"seat {player + 1}"


def _turns(text: str) -> int | None:
    if text == "end":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of turns, or 'end'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1 (the turn in progress counts)")
    return value


_count = whole_number


def _add_budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-nodes", type=node_count, metavar="N",
                        help="stop after N nodes and answer 'unknown'")
    parser.add_argument("--max-seconds", type=seconds, metavar="S",
                        help="stop after S seconds and answer 'unknown' (default: 600)")


def _register_endgame(commands: Any) -> None:
    endgame = commands.add_parser(
        "endgame", help="best play to the end of the game or over N turns",
        description="Solve an Omen position exactly (every hand open): win, shared victory or "
                    "loss for a seat, the VP margin, every optimal first action, and the line "
                    "of play with the rule steps of each action. Draws from the shuffled deck "
                    "are chance events (expected result) or go against the seat (worst case). "
                    "Defaults come from the file's [search] table.")
    endgame.add_argument("file", type=position, help=f"{POSITION_HELP} (Omen)")
    endgame.add_argument("--moves", nargs="+", action="extend", default=[], metavar="ACTION",
                         help="solve the position after these actions, as in 'omen play' "
                         "(each quoted, or several joined by ';')")
    endgame.add_argument("--seat", type=int, choices=[1, 2],
                         help="the seat asked about (default: the seat to act)")
    endgame.add_argument("--turns", type=_turns, metavar="N|end", default=argparse.SUPPRESS,
                         help="turns searched, the one in progress included, or 'end'")
    endgame.add_argument("--draws", choices=["expected", "worst-case"],
                         help="draws from the shuffled deck: chance or against the seat")
    endgame.add_argument("--no-margin", action="store_true", help="skip the VP margin search")
    endgame.add_argument("--no-reductions", action="store_true",
                         help="search without the reductions (a check, and a baseline)")
    endgame.add_argument("--reduce", action="append", metavar="NAME",
                         choices=[r.value for r in Reduction],
                         help="use exactly these reductions (repeatable): "
                         + ", ".join(r.value for r in Reduction) + " (default: "
                         + ", ".join(sorted(r.value for r in DEFAULT_REDUCTIONS)) + ")")
    endgame.add_argument("--json", action="store_true", help="print JSON")
    _add_budget(endgame)
    endgame.set_defaults(handler=_endgame)


def _register_ask(commands: Any) -> None:
    ask = commands.add_parser(
        "ask", help="arithmetic questions about a war (z3), checked by the search",
        description="win-city CITY: can the active player win the city's war this turn by "
                    "playing units into it? fewest-coins CITY: the fewest coins that takes. "
                    "keep CITY: after the war there, which units to keep so that the opponent "
                    "cannot take the city next turn. Answered with z3 and python-constraint2; "
                    "--check asks the endgame search the same question on the same position. "
                    "Exit 0: yes; 1: no (the city cannot be won, no choice holds it) or the "
                    "check disagrees or runs out; 2: bad input.")
    ask.add_argument("file", type=position, help=f"{POSITION_HELP} (Omen)")
    ask.add_argument("question", choices=["win-city", "fewest-coins", "keep"])
    ask.add_argument("city", type=int, choices=[1, 2, 3])
    ask.add_argument("--check", action="store_true", help="cross-check with the search")
    ask.add_argument("--json", action="store_true", help="print JSON")
    _add_budget(ask)
    ask.set_defaults(handler=_ask)


def _load_played(path: Path | str) -> OmenState:
    state, moves, _ = _load(path)
    return _play_moves(state, [(f"{path}: key 'moves[{i}]'", m) for i, m in enumerate(moves)],
                       [])


def _budget(args: argparse.Namespace) -> Budget:
    seconds = args.max_seconds if args.max_seconds is not None else DEFAULT_SECONDS
    return Budget(args.max_nodes, seconds)


def _endgame(args: argparse.Namespace) -> int:
    state = _load_played(args.file)
    more = _split(args.moves)
    state = _play_moves(state, [(f"--moves[{i}] (of {len(more)})", m)
                                for i, m in enumerate(more, start=1)], [])
    settings = state.search or EndgameSettings()
    turns = args.turns if "turns" in args else settings.turns
    draws = args.draws or settings.draws
    reductions: frozenset[Reduction] | list[str] = settings.reductions
    if args.reduce:
        reductions = args.reduce
    if args.no_reductions:
        reductions = []
    budget = _budget(args)
    with progress(f"solving {args.file}", budget.max_seconds) as report:
        result = solve_endgame(state, seat=args.seat, turns=turns, draws=draws,
                               margin=not args.no_margin, reductions=reductions,
                               budget=budget, progress=report)
    if args.json:
        played = {"played": more} if more else {}
        print_json({"file": str(args.file), **played, **result.to_json(),
                    "budget": budget_json(budget)})
    else:
        print(args.file)
        if more:
            print(f"after: {'; '.join(more)}")
        for line in result.extra["details"]:
            print(line)
        if result.solved:
            print(f"best first actions: {', '.join(result.best_actions) or '(no choice)'}")
        else:
            print(f"unknown ({result.note}): the value lies in [{result.lower}, "
                  f"{result.upper}]")
        if result.note and result.solved:
            print(f"note: {result.note}")
        print(f"nodes: {result.nodes:,}  states: {result.states:,}  seconds: "
              f"{result.seconds:.3f}")
    return 0 if result.solved else 1


def _ask(args: argparse.Namespace) -> int:
    if not args.check:
        for flag in ("max_nodes", "max_seconds"):
            if getattr(args, flag) is not None:
                raise OptionError(f"--{flag.replace('_', '-')} is the budget of the search "
                                  "that --check runs (z3 answers the question itself): give "
                                  "--check with it")
    state = _load_played(args.file)
    answer = ask(state, args.question, args.city - 1)
    check = cross_check(state, answer, _budget(args)) if args.check else None
    if args.json:
        data = answer.to_json()
        if check is not None:
            data["check"] = {"agrees": check.agrees, "detail": check.detail}
        print_json(data)
    else:
        for line in answer.lines():
            print(line)
        if check is not None:
            verdict = {True: "agrees", False: "DISAGREES", None: "unknown"}[check.agrees]
            print(f"cross-check by the search: {verdict} ({check.detail})")
    return 1 if answer.negative or (check is not None and not check.agrees) else 0


def _legal(args: argparse.Namespace) -> int:
    state, moves, _ = _load(args.file)
    state = _play_moves(state, [(f"{args.file}: key 'moves[{i}]'", m)
                                for i, m in enumerate(moves)], [])
    if args.json:
        print_json(legal_strings(state))
        return 0
    if state.over:
        print("the game is over")
        return 0
    print(f"{_actor(state)} to act ({state.turn.step} step, turn {state.turn.number}):")
    if state.current_player() == CHANCE:
        for action, probability in state.chance_outcomes():
            print(f"  {action}  {probability}")
    else:
        for text in legal_strings(state):
            print(f"  {text}")
    return 0


def _split(moves: list[str]) -> list[str]:
    return [part.strip() for move in moves for part in move.split(";") if part.strip()]


def _play(args: argparse.Namespace) -> int:
    state, moves, trace = _load(args.file)
    todo = [(f"{args.file}: key 'moves[{i}]'", m) for i, m in enumerate(moves)]
    more = _split(args.moves)
    todo += [(f"--moves[{i}] (of {len(more)})", m) for i, m in enumerate(more, start=1)]
    state = _play_moves(state, todo, trace)
    summary = state_summary(state)
    summary["trace"] = trace
    if args.json:
        print_json(summary)
        return 0
    _print_text(state, summary)
    return 0


def _print_text(state: OmenState, summary: dict[str, Any]) -> None:
    for step in summary["trace"]:
        if step["rule"] == "action":
            print(f"> {step['text']}")
        else:
            print(f"    [{step['rule']}] {step['text']}")
    print()
    print(f"turn {summary['turn']}, seat {summary['active_player']} active, "
          f"{summary['step']} step")
    for seat in ("1", "2"):
        rewards = summary["rewards"][seat]
        listed = {key: ", ".join(cards) or "-" for key, cards in rewards.items()}
        print(f"  seat {seat}: {summary['coins'][seat]} coins, hand "
              f"{', '.join(summary['hands'][seat]) or '-'}; Rewards in hand {listed['in_hand']}, "
              f"unused {listed['unused']}, used {listed['used']}; {summary['scores'][seat]} VP")
        more = _achievements(summary, seat)
        if more:
            print(f"    {more}")
    for city in summary["cities"]:
        torn = " (war-torn)" if city["war_torn"] else ""
        relic = f"; Relic {city['relic']} (seat {city['relic_seat']})" if city["relic"] else ""
        print(f"  city {city['city']}{torn}: Rewards {' '.join(city['rewards']) or '-'}; "
              f"seat 1: {', '.join(city['seat1']) or '-'}; seat 2: "
              f"{', '.join(city['seat2']) or '-'}{relic}")
    print(f"  supply {summary['supply']} coins; deck {len(state.deck_top)} known + "
          f"{len(state.deck_rest)} shuffled; discard {len(state.discard)}")
    if state.over:
        winner = summary["winner"]
        print("game over: " + ("shared victory" if winner is None else f"seat {winner} wins"))
    else:
        legal = summary["legal"]
        print(f"{_actor(state)} to act: {', '.join(legal[:20])}"
              f"{', ...' if len(legal) > 20 else ''}")


def _achievements(summary: dict[str, Any], seat: str) -> str:
    """Feats, Challenges, VP tokens and RITUAL Priestesses of a seat, those it has."""
    parts = []
    for key, label in (("feats", "Feats"), ("feats_rotated", "Feats rotated"),
                       ("challenges", "Challenges"), ("rituals", "RITUAL Priestesses")):
        if summary[key][seat]:
            parts.append(f"{label} {', '.join(summary[key][seat])}")
    if summary["vp_tokens"][seat]:
        parts.append(f"VP tokens {summary['vp_tokens'][seat]}")
    return "; ".join(parts)


def _profiles(args: argparse.Namespace) -> int:
    names = list(PROFILES)
    table = {spec.name: {name: getattr(make_rules(name), spec.name) for name in names}
             for spec in describe(OmenRules)}
    if args.json:
        print_json({
            "profiles": {name: {"book": p.book, "summary": p.summary, "sets": list(p.sets),
                                "rewards_per_city": p.rewards_per_city}
                         for name, p in PROFILES.items()},
            "options": [{"name": spec.name, "question": spec.question, "summary": spec.summary,
                         "settings": dict(spec.settings), "source": spec.source,
                         "profiles": table[spec.name]} for spec in describe(OmenRules)],
        })
        return 0
    out = console()
    for name, profile in PROFILES.items():
        print_wrapped(out, f"{name} ({profile.book}): {profile.summary}")
    out.print()
    for spec in describe(OmenRules):
        print_wrapped(out, f"{spec.question} {spec.name}: {spec.summary}")
        for name in names:
            print_wrapped(out, f"{name}: {table[spec.name][name]}", indent="    ")
    return 0


def _cards(args: argparse.Namespace) -> int:
    if not args.files and args.stats != STATS_DEFAULT:
        raise OptionError("--stats says how the colour-keyed stats of the card files given are "
                          "read; give the files (the shipped cards name their stats)")
    base = None if args.only else default_catalogue()
    own = load_catalogue(args.files)
    catalogue = (own if base is None else base.overridden_by(own)).resolve(args.stats)
    replaced = sorted(set(own.cards) & set(base.cards)) if base is not None else []
    cards = [catalogue[card_id] for card_id in sorted(catalogue.cards)]
    if args.json:
        print_json([{
            "id": c.id, "name": c.name, "kind": c.kind, "set": c.set, "origin": c.origin,
            "type": c.unit_type, "copies": c.copies, "cost": c.cost if c.is_unit else None,
            "offering": c.offering, "strength": c.strength, "keywords": list(c.keywords()),
            "text": c.text, "source": c.source,
        } for c in cards])
        return 0
    out = console()
    columns = (Column("card"), Column("kind"), Column("c/o/s"), Column("copies", right=True),
               Column("origin"), Column("keywords", shrink=True))
    rows: dict[str, list[Row]] = {}
    for c in cards:
        rows.setdefault(c.set, []).append((
            c.id, c.unit_type or c.kind, f"{c.cost}/{c.offering}/{c.strength}" if c.is_unit
            else "", str(c.copies), c.origin, " ".join(c.keywords())))
    every = [row for group in rows.values() for row in group]
    print_rows(out, columns, [], sizing=every)
    for name in sorted(rows):
        out.print(escape(f"set {name}: {plural(len(rows[name]), 'card')}"))
        print_rows(out, columns, rows[name], header=False, sizing=every)
    out.print(escape(f"{plural(len(cards), 'card')} (c/o/s: cost/offering/strength), all valid"))
    if replaced:
        out.print(escape(f"your files replace {plural(len(replaced), 'shipped card')} of the same "
                         f"id: {', '.join(replaced)}"))
    return 0
