"""``omen-solver omen ...``: the legal actions of an Omen position, and playing moves with a
trace that names the rule behind every step."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from omen_solver.core.game import CHANCE
from omen_solver.core.options import describe
from omen_solver.core.positions import read_toml
from omen_solver.errors import CatalogueError, OmenSolverError, PositionError
from omen_solver.omen import scoring
from omen_solver.omen.cards import default_catalogue, load_catalogue
from omen_solver.omen.position import state_from_data
from omen_solver.omen.rules import PROFILES, OmenRules, make_rules
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import war_torn

__all__ = ["register", "state_summary"]


def register(subparsers: Any) -> None:
    """Add ``omen legal`` and ``omen play``."""
    omen = subparsers.add_parser("omen",
                                 help="Omen: legal actions, explained play, profiles, cards",
                                 description="Omen (A Reign of War, Fires in the East) positions.")
    commands = omen.add_subparsers(dest="omen_command", metavar="COMMAND", required=True)

    legal = commands.add_parser("legal", help="the legal actions of the player to act")
    legal.add_argument("file", type=Path, help="an Omen position file (TOML)")
    legal.add_argument("--json", action="store_true", help="print a JSON list of actions")
    legal.set_defaults(handler=_legal)

    play = commands.add_parser("play", help="apply moves and explain each step")
    play.add_argument("file", type=Path, help="an Omen position file (TOML)")
    play.add_argument("--moves", nargs="+", action="extend", default=[], metavar="ACTION",
                      help="actions in canonical notation, each quoted (or several joined "
                      "by ';')")
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.set_defaults(handler=_play)

    profiles = commands.add_parser("profiles", help="the rule profiles and every option")
    profiles.add_argument("--json", action="store_true", help="print JSON")
    profiles.set_defaults(handler=_profiles)

    cards = commands.add_parser("cards", help="list the cards; check your own card files")
    cards.add_argument("files", nargs="*", type=Path, help="card files added to the shipped ones")
    cards.add_argument("--only", action="store_true", help="the given files without the shipped")
    cards.add_argument("--stats", default="strength-red",
                       choices=["offering-red", "strength-red", "names-only"],
                       help="how colour-keyed stats are read (rule option stat_colours, R14)")
    cards.add_argument("--json", action="store_true", help="print JSON")
    cards.set_defaults(handler=_cards)


def _load(path: Path) -> tuple[OmenState, list[str], list[dict[str, Any]]]:
    """The position before its ``moves``, those moves, and the trace of setting it up."""
    data = read_toml(path)
    if data.get("game") != "omen":
        raise PositionError(f"{path}: key 'game': must be \"omen\" for an Omen position, got "
                            f"{data.get('game')!r}")
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
            action = state.string_to_action(text)
        except OmenSolverError as error:
            raise type(error)(f"{where}: {error}") from None
        state = state.child(action)
        trace.append({"action": text, "by": actor, "rule": "action", "text": f"{actor}: {text}"})
        trace.extend({"action": text, "rule": s.rule, "text": s.text} for s in state.trace)
    return state


def _actor(state: OmenState) -> str:
    player = state.current_player()
    return "chance" if player == CHANCE else f"seat {player + 1}"


def _legal_strings(state: OmenState) -> list[str]:
    return [state.action_to_string(action) for action in state.legal_actions()]


def state_summary(state: OmenState) -> dict[str, Any]:
    """The JSON view of a position."""
    seats = ("1", "2")
    winner = scoring.winner(state) if state.over else None
    player = state.current_player()
    return {
        "step": state.turn.step,
        "turn": state.turn.number,
        "active_player": state.active + 1,
        "to_act": None if state.over else "chance" if player == CHANCE else player + 1,
        "coins": {s: p.coins for s, p in zip(seats, state.players, strict=True)},
        "supply": state.supply,
        "hands": {s: list(p.hand) for s, p in zip(seats, state.players, strict=True)},
        "rewards": {
            s: {"in_hand": list(p.rewards), "unused": list(p.rewards_unused),
                "used": list(p.rewards_used)}
            for s, p in zip(seats, state.players, strict=True)
        },
        "feats": {s: list(p.feats) for s, p in zip(seats, state.players, strict=True)},
        "cities": [
            {
                "city": index + 1,
                "rewards": list(city.rewards),
                "seat1": [u.card + ("!" if u.enraged else "") for u in city.sides[0]],
                "seat2": [u.card + ("!" if u.enraged else "") for u in city.sides[1]],
                "relic": city.relic,
                "war_torn": war_torn(state, index),
            }
            for index, city in enumerate(state.cities)
        ],
        "deck": {"top": list(state.deck_top), "shuffled": len(state.deck_rest),
                 "discard": list(state.discard)},
        "scores": {s: scoring.score(state, i) for i, s in enumerate(seats)},
        "game_over": state.over,
        "winner": None if winner is None else winner + 1,
        "shared_victory": state.over and winner is None,
        "legal": _legal_strings(state),
    }


def _legal(args: argparse.Namespace) -> int:
    state, moves, _ = _load(args.file)
    state = _play_moves(state, [(f"{args.file}: key 'moves[{i}]'", m)
                                for i, m in enumerate(moves)], [])
    if args.json:
        print(json.dumps(_legal_strings(state)))
        return 0
    if state.over:
        print("the game is over")
        return 0
    print(f"{_actor(state)} to act ({state.turn.step} step, turn {state.turn.number}):")
    if state.current_player() == CHANCE:
        for action, probability in state.chance_outcomes():
            print(f"  {action}  {probability}")
    else:
        for text in _legal_strings(state):
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
        print(json.dumps(summary, indent=1))
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
    for city in summary["cities"]:
        torn = " (war-torn)" if city["war_torn"] else ""
        print(f"  city {city['city']}{torn}: Rewards {' '.join(city['rewards']) or '-'}; "
              f"seat 1: {', '.join(city['seat1']) or '-'}; seat 2: "
              f"{', '.join(city['seat2']) or '-'}")
    print(f"  supply {summary['supply']} coins; deck {len(state.deck_top)} known + "
          f"{len(state.deck_rest)} shuffled; discard {len(state.discard)}")
    if state.over:
        winner = summary["winner"]
        print("game over: " + ("shared victory" if winner is None else f"seat {winner} wins"))
    else:
        legal = summary["legal"]
        print(f"{_actor(state)} to act: {', '.join(legal[:20])}"
              f"{', ...' if len(legal) > 20 else ''}")


def _profiles(args: argparse.Namespace) -> int:
    names = list(PROFILES)
    table = {spec.name: {name: getattr(make_rules(name), spec.name) for name in names}
             for spec in describe(OmenRules)}
    if args.json:
        print(json.dumps({
            "profiles": {name: {"book": p.book, "summary": p.summary, "sets": list(p.sets),
                                "rewards_per_city": p.rewards_per_city}
                         for name, p in PROFILES.items()},
            "options": [{"name": spec.name, "question": spec.question, "summary": spec.summary,
                         "settings": dict(spec.settings), "source": spec.source,
                         "profiles": table[spec.name]} for spec in describe(OmenRules)],
        }, indent=1))
        return 0
    for name, profile in PROFILES.items():
        print(f"{name} ({profile.book}): {profile.summary}")
    print()
    for spec in describe(OmenRules):
        print(f"{spec.question} {spec.name}: {spec.summary}")
        for name in names:
            print(f"    {name}: {table[spec.name][name]}")
    return 0


def _cards(args: argparse.Namespace) -> int:
    base = None if args.only else default_catalogue()
    own = load_catalogue(args.files)
    catalogue = (own if base is None else base.overridden_by(own)).resolve(args.stats)
    replaced = sorted(set(own.cards) & set(base.cards)) if base is not None else []
    cards = [catalogue[card_id] for card_id in sorted(catalogue.cards)]
    if args.json:
        print(json.dumps([{
            "id": c.id, "name": c.name, "kind": c.kind, "set": c.set, "origin": c.origin,
            "type": c.unit_type, "copies": c.copies, "cost": c.cost if c.is_unit else None,
            "offering": c.offering, "strength": c.strength, "keywords": list(c.keywords()),
            "text": c.text, "source": c.source,
        } for c in cards], indent=1))
        return 0
    for c in cards:
        stats = f" {c.cost}/{c.offering}/{c.strength}" if c.is_unit else ""
        words = f" {' '.join(c.keywords())}" if c.keywords() else ""
        kind = c.unit_type or c.kind
        print(f"{c.id:24} {kind:10} {c.set:18} {c.origin:8} x{c.copies}{stats}{words}")
    print(f"{len(cards)} cards (cost/offering/strength), all valid")
    if replaced:
        print(f"your files replace {len(replaced)} shipped card(s) of the same id: "
              f"{', '.join(replaced)}")
    return 0
