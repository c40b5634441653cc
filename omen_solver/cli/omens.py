"""``omen-solver omens ...``: legal actions, explained play, rule options and catalogues."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.markup import escape

from omen_solver.cli.args import POSITION_HELP, position
from omen_solver.cli.output import Column, console, plural, print_json, print_rows, print_wrapped
from omen_solver.omens.cards import default_catalogue, load_catalogue
from omen_solver.omens.position import load_position
from omen_solver.omens.report import board_lines, legal_moves, play_report, to_act
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.rules import PRESETS, option_specs

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "omens",
        description="Work with Omens positions (docs/omens-positions.md).",
    )
    commands = parser.add_subparsers(dest="omens_command", metavar="COMMAND", required=True)

    legal = commands.add_parser(
        "legal", help="the legal actions of the player to act, in canonical notation"
    )
    legal.add_argument("file", type=position, help=f"{POSITION_HELP} (Omens)")
    legal.add_argument("--json", action="store_true", help="print a JSON list of strings")
    legal.set_defaults(handler=_legal)

    play = commands.add_parser(
        "play",
        help="apply the file's moves and more, and explain the resolution rule by rule",
        description="Apply the file's moves, then the given ones; a bout resolves when everyone "
        "has played. Each trace step names the rule it applies (docs/omens-rules.md).",
    )
    play.add_argument("file", type=position, help=f"{POSITION_HELP} (Omens)")
    play.add_argument(
        "--moves",
        nargs="+",
        default=[],
        metavar="MOVE",
        help="more moves in canonical notation, e.g. '2:18' '3:15 lower' (joint: '1:gives 9 & "
        "3:gives 22')",
    )
    play.add_argument("--json", action="store_true", help="print one JSON object")
    play.set_defaults(handler=_play)

    options = commands.add_parser("options", help="the named rule options and presets")
    options.add_argument("--json", action="store_true")
    options.set_defaults(handler=_options)

    cards = commands.add_parser("cards", help="list (and validate) a card catalogue")
    cards.add_argument("--catalogue", type=Path, help="a catalogue file (default: the 35 cards)")
    cards.add_argument("--json", action="store_true")
    cards.add_argument("-v", "--verbose", action="store_true",
                       help="each card's whole text (else cut to the terminal's width)")
    cards.set_defaults(handler=_cards)

    rules = commands.add_parser("rules", help="the rule ids that traces cite")
    rules.add_argument("--json", action="store_true")
    rules.add_argument("-v", "--verbose", action="store_true",
                       help="each rule's whole statement (else cut to the terminal's width)")
    rules.set_defaults(handler=_rules)


def _legal(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    state = position.state
    moves = legal_moves(state)
    if args.json:
        print_json(moves)
        return 0
    who = to_act(state)
    if who is None:
        print(f"the {state.table.scope.value} is over: no legal action")
        return 0
    heading = f"seat {who} to act" if isinstance(who, int) else f"{who} node"
    print(f"{heading}: {plural(len(moves), 'legal action')}")
    for move in moves:
        print(f"  {move}")
    return 0


def _play(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    state, report = play_report(position, list(args.moves))
    if args.json:
        print_json(report)
        return 0
    current = None
    for step in report["trace"]:
        if step["move"] != current:
            current = step["move"]
            print(current)
        print(f"    [{step['rule']}] {step['text']}")
    print()
    name = position.table.name
    if report["bout_winner"] is not None:
        discarded = ", ".join(name(card) for card in report["discarded"]) or "none"
        print(f"bout won by seat {report['bout_winner']}; discarded: {discarded}")
    if report["round_winner_team"] is not None:
        seats = " and ".join(map(str, report["round_winner_team"]))
        print(f"round won by the team of seats {seats}")
    elif report["next_leader"] is not None:
        print(f"seat {report['next_leader']} leads the next bout")
    print("the board:")
    for line in board_lines(state):
        print(f"  {line}")
    return 0


def _options(args: argparse.Namespace) -> int:
    specs = option_specs()
    if args.json:
        print_json(
            [
                {
                    "name": s.name,
                    "question": s.question,
                    "summary": s.summary,
                    "settings": dict(s.settings),
                    "default": s.default,
                    "reason": s.reason,
                    "source": s.source,
                    "presets": {p: over.get(s.name, s.default) for p, over in PRESETS.items()},
                }
                for s in specs
            ]
        )
        return 0
    out = console()
    for spec in specs:
        presets = ", ".join(
            f"{p}={over.get(spec.name, spec.default)}" for p, over in PRESETS.items()
        )
        print_wrapped(out, f"{spec.name} ({spec.question}): {spec.summary}")
        for setting, meaning in spec.settings.items():
            mark = "*" if setting == spec.default else " "
            print_wrapped(out, f"{mark} {setting}: {meaning}", indent="   ")
        print_wrapped(out, f"presets: {presets}", indent="     ")
    return 0


def _cards(args: argparse.Namespace) -> int:
    catalogue = load_catalogue(args.catalogue) if args.catalogue else default_catalogue()
    if args.json:
        print_json(
            [
                {
                    "value": c.value,
                    "name": c.name,
                    "french": c.french,
                    "colours": sorted(c.colours),
                    "timing": c.timing,
                    "effect": c.effect,
                    "params": dict(c.params),
                    "text": c.text,
                }
                for c in catalogue.values()
            ]
        )
        return 0
    out = console()
    out.print(escape(f"{plural(len(catalogue), 'card')} from {catalogue.source}"))
    columns = (Column("card", right=True), Column("name"), Column("colours"), Column("when"),
               Column("effect", shrink=not args.verbose))
    print_rows(out, columns, [(str(c.value), c.name, "/".join(sorted(c.colours)), c.timing,
                               c.text) for c in catalogue.values()])
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.json:
        print_json(
            [{"id": r.id, "statement": r.statement, "source": r.source} for r in RULES.values()]
        )
        return 0
    columns = (Column("rule"), Column("statement [rulebook passage]", shrink=not args.verbose))
    print_rows(console(), columns,
               [(rule.id, f"{rule.statement} [{rule.source}]") for rule in RULES.values()])
    return 0
