"""``omen-solver graph``: the action tree or state graph below any position file, as GraphML,
DOT or a picture."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.markup import escape

from omen_solver.cli.args import (
    POSITION_HELP,
    add_max_memory,
    add_stop,
    describe_stop,
    position,
    seconds,
    whole_number,
)
from omen_solver.cli.output import console, heading, print_json
from omen_solver.core.budget import MIB, Budget
from omen_solver.core.graph import (
    DEFAULT_MAX_NODES,
    FORMATS,
    build_graph,
    check_target,
    write_graph,
)
from omen_solver.core.positions import load_state

__all__ = ["DEFAULT_GRAPH_SECONDS", "register"]

DEFAULT_GRAPH_SECONDS = 30.0
"""The time limit of building a graph when the command line sets none: past it nothing is
written (exit 2, like the node limit)."""

EXIT_OK = 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "graph",
        description="Write the action tree below a position (or, with --merge, the state "
                    "graph with transpositions merged) as GraphML, DOT, or a picture.",
    )
    parser.add_argument("file", type=position, help=POSITION_HELP)
    add_stop(parser)
    parser.add_argument("--out", type=Path, required=True, metavar="PATH", help="output file")
    parser.add_argument("--format", choices=FORMATS, help="default: from the suffix of --out")
    parser.add_argument("--merge", action="store_true", help="one node per distinct state")
    parser.add_argument("--max-nodes", type=whole_number, metavar="N", default=DEFAULT_MAX_NODES,
                        help=f"refuse graphs larger than N nodes (default {DEFAULT_MAX_NODES})")
    parser.add_argument("--max-seconds", type=seconds, metavar="S",
                        help=f"write nothing (exit 2) if the graph is not built within S "
                             f"seconds (default {DEFAULT_GRAPH_SECONDS:g})")
    add_max_memory(parser, "write nothing (exit 2)")
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.set_defaults(handler=_graph)


def _graph(args: argparse.Namespace) -> int:
    state = load_state(args.file)
    check_target(args.out)
    limit = args.max_seconds if args.max_seconds is not None else DEFAULT_GRAPH_SECONDS
    if not args.json:
        heading(f"{args.file}: building the graph within {Budget(None, limit).describe()}",
                args.max_seconds)
    graph = build_graph(state, args.depth, stop=args.to, merge=args.merge,
                        max_nodes=args.max_nodes, max_memory=args.max_memory * MIB,
                        max_seconds=limit)
    written = write_graph(graph, args.out, args.format)
    kind = "state graph" if args.merge else "action tree"
    cut = describe_stop(args.depth, args.to)
    if args.json:
        print_json({"file": str(args.file), "out": str(args.out), "format": written,
                    "kind": kind, "depth": args.depth, "to": args.to,
                    "nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(),
                    "max_nodes": args.max_nodes, "max_seconds": limit,
                    "max_memory_mib": args.max_memory})
        return EXIT_OK
    console().print(f"{escape(str(args.out))}: {kind} as {written}, {graph.number_of_nodes():,} "
                    f"nodes, {graph.number_of_edges():,} edges ({escape(str(args.file))} {cut}; "
                    f"at most {args.max_nodes:,} nodes, {args.max_memory:,} MiB)")
    return EXIT_OK
