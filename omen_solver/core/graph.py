"""Action trees and state graphs as :mod:`networkx` graphs, with GraphML, DOT and pictures.

:func:`build_graph` walks the same tree as perft (same branching conventions, same depth and
stopping points, see ``docs/search.md``) and returns a :class:`networkx.DiGraph`:

* in **tree** mode one node per action sequence (prefix), numbered in depth-first order;
* in **merged** mode (``merge=True``) one node per distinct state (by
  :meth:`GameState.key`), numbered in breadth-first order, so transpositions share a node and
  a state's ``depth`` is the fewest plies that reach it. Two actions of one state that lead to
  the same state make one edge whose ``action`` lists both, joined by `` | ``.

Node attributes: ``label`` (the state's text, ``str(state)``), ``key`` (the text of its key),
``kind`` (decision, chance, simultaneous, terminal), ``seats`` (who acts, seats numbered from
1, comma-separated), ``depth``, ``returns`` (team returns at terminal states, comma-separated)
and ``cut`` (``depth`` or ``stop`` where the walk stopped before the end). Edge attributes:
``action`` (canonical text) and ``probability`` (at chance nodes). Every value is a string or
an integer, so GraphML keeps them all.

DOT export uses pydot (the optional extra ``dot``); pictures use Graphviz's ``dot`` program
when it is installed, and matplotlib (the optional extra ``draw``) otherwise.
"""

from __future__ import annotations

import shutil
from collections import deque
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import networkx as nx

from omen_solver.core.budget import Budget, MemoryCap, NodeMeter
from omen_solver.core.enumeration.hooks import StopPredicate, resolve_stop
from omen_solver.core.enumeration.tree import branches
from omen_solver.core.extras import missing
from omen_solver.core.files import atomic_write
from omen_solver.core.game import GameState, NodeKind
from omen_solver.errors import (
    BudgetExceeded,
    GraphTooLargeError,
    MissingDependencyError,
    OmenSolverError,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "FORMATS",
    "MAX_PICTURE_NODES",
    "build_graph",
    "check_target",
    "draw",
    "to_dot",
    "write_graph",
]

DEFAULT_MAX_NODES = 200_000
"""The default limit on graph size: a graph is held in memory whole."""
MAX_PICTURE_NODES = 400
"""Pictures are for small trees; larger graphs go to GraphML or DOT."""
FORMATS = ("graphml", "dot", "svg", "png")


def _seats(players: tuple[int, ...]) -> str:
    return ",".join(str(p + 1) for p in players)


def _node_attributes(state: GameState[Any], key: Hashable, depth: int) -> dict[str, Any]:
    kind = state.node_kind()
    attributes: dict[str, Any] = {
        "label": str(state),
        "key": str(key),
        "kind": kind.value,
        "seats": _seats(state.acting_players()),
        "depth": depth,
    }
    if kind is NodeKind.TERMINAL:
        attributes["returns"] = ",".join(str(v) for v in state.team_returns())
    return attributes


def _cut(state: GameState[Any], depth: int, limit: int | None, stop: StopPredicate | None) -> str:
    """Why the walk stops at this node: ``depth``, ``stop``, or '' to expand it."""
    if state.is_terminal():
        return ""
    if limit is not None and depth >= limit:
        return "depth"
    if depth > 0 and stop is not None and stop(state):
        return "stop"
    return ""


def build_graph(
    state: GameState[Any],
    depth: int | None = None,
    *,
    stop: str | StopPredicate | None = None,
    merge: bool = False,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_memory: int | None = None,
    max_seconds: float | None = None,
) -> nx.DiGraph:
    """The action tree (or, with ``merge``, the state graph) below ``state``.

    The graph is held in memory whole: ``max_nodes`` bounds its nodes, ``max_memory`` (bytes)
    the process's resident memory while it is built (and it always stops short of an
    address-space limit), ``max_seconds`` the time; past any, :class:`GraphTooLargeError` says
    which.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise OmenSolverError(f"depth: expected a whole number of plies ≥ 0, got {depth!r}")
    predicate = resolve_stop(state, stop)
    meter = NodeMeter(Budget(max_nodes=max_nodes, max_seconds=max_seconds),
                      memory=MemoryCap(max_memory))
    advice = "lower the depth, stop earlier, merge transpositions or raise the limit"
    try:
        if merge:
            return _merged(state, depth, predicate, meter)
        return _tree(state, depth, predicate, meter)
    except BudgetExceeded as exceeded:
        if exceeded.reason.startswith("node limit"):
            raise GraphTooLargeError(
                f"the graph has more than {max_nodes} nodes; {advice}"
            ) from None
        raise GraphTooLargeError(
            f"the graph was not built: {exceeded.reason} after {meter.nodes:,} nodes; {advice}"
        ) from None
    except MemoryError:
        raise GraphTooLargeError(
            f"the graph was not built: out of memory after {meter.nodes:,} nodes; {advice}"
        ) from None


def _add(graph: nx.DiGraph, meter: NodeMeter, node: int, attributes: dict[str, Any]) -> None:
    meter.nodes += 1
    if meter.nodes >= meter.next_check:
        meter.check()
    graph.add_node(node, **attributes)


def _tree(
    root: GameState[Any], limit: int | None, stop: StopPredicate | None, meter: NodeMeter
) -> nx.DiGraph:
    graph = nx.DiGraph()
    stack: list[tuple[GameState[Any], int, int, str, str | None]] = [(root, 0, -1, "", None)]
    while stack:
        state, depth, parent, action, probability = stack.pop()
        node = graph.number_of_nodes()
        attributes = _node_attributes(state, state.key(), depth)
        cut = _cut(state, depth, limit, stop)
        if cut:
            attributes["cut"] = cut
        _add(graph, meter, node, attributes)
        if parent >= 0:
            _edge(graph, parent, node, action, probability)
        if cut:
            continue
        # Reversed onto the stack so that children are numbered in branch order.
        for branch in reversed(list(branches(state))):
            probability_text = None if branch.probability is None else str(branch.probability)
            stack.append((branch.child, depth + 1, node, branch.text, probability_text))
    return graph


def _edge(graph: nx.DiGraph, parent: int, child: int, action: str, probability: str | None) -> None:
    if graph.has_edge(parent, child):
        data = graph.edges[parent, child]
        data["action"] = f"{data['action']} | {action}"
        if probability is not None:
            data["probability"] = f"{data['probability']} | {probability}"
        return
    attributes = {"action": action}
    if probability is not None:
        attributes["probability"] = probability
    graph.add_edge(parent, child, **attributes)


def _merged(
    root: GameState[Any], limit: int | None, stop: StopPredicate | None, meter: NodeMeter
) -> nx.DiGraph:
    graph = nx.DiGraph()
    ids: dict[Hashable, int] = {}
    queue: deque[tuple[GameState[Any], int]] = deque()

    def visit(state: GameState[Any], depth: int) -> int:
        key = state.key()
        known = ids.get(key)
        if known is not None:
            return known
        node = ids[key] = len(ids)
        attributes = _node_attributes(state, key, depth)
        cut = _cut(state, depth, limit, stop)
        if cut:
            attributes["cut"] = cut
        _add(graph, meter, node, attributes)
        if not cut:
            queue.append((state, depth))
        return node

    visit(root, 0)
    while queue:
        state, depth = queue.popleft()
        parent = ids[state.key()]
        for branch in branches(state):
            child = visit(branch.child, depth + 1)
            probability = None if branch.probability is None else str(branch.probability)
            _edge(graph, parent, child, branch.text, probability)
    return graph


# -- export --------------------------------------------------------------------------------


def _dot_graph(graph: nx.DiGraph) -> Any:
    try:
        import pydot  # noqa: F401
    except ImportError:
        raise missing("pydot", "dot", "DOT export") from None
    shown = nx.DiGraph()
    for node, data in graph.nodes(data=True):
        shown.add_node(node, **data, shape="box")
    for parent, child, data in graph.edges(data=True):
        label = data["action"]
        if "probability" in data:
            label = f"{label} ({data['probability']})"
        shown.add_edge(parent, child, **data, label=label)
    return nx.nx_pydot.to_pydot(shown)


def to_dot(graph: nx.DiGraph) -> str:
    """The graph in Graphviz's DOT language (node ``label`` and edge ``label`` shown)."""
    text: str = _dot_graph(graph).to_string()
    return text


def write_graph(graph: nx.DiGraph, path: Path | str, format: str | None = None) -> str:
    """Write ``graph`` to ``path`` as GraphML, DOT, SVG or PNG (by default from the suffix).

    Returns the format used. The file is written whole or not at all.
    """
    path = Path(path)
    check_target(path)
    chosen = (format or path.suffix.lstrip(".")).lower()
    if chosen not in FORMATS:
        raise OmenSolverError(
            f"{path}: unknown graph format {chosen!r}; choose one of {', '.join(FORMATS)}"
        )
    if chosen == "graphml":
        data = "\n".join(nx.generate_graphml(graph)).encode()
    elif chosen == "dot":
        data = to_dot(graph).encode()
    else:
        data = draw(graph, chosen)
    _write_whole(path, data)
    return chosen


def check_target(path: Path) -> None:
    """Refuse an output path that cannot be written, before any work is done."""
    if path.is_dir():
        raise OmenSolverError(f"{path}: is a folder; give a file name, e.g. {path / 'tree.svg'}")
    if not path.parent.is_dir():
        raise OmenSolverError(f"{path}: cannot be written: no folder {path.parent}")


def _write_whole(path: Path, data: bytes) -> None:
    """Write the file whole or not at all (:func:`~omen_solver.core.files.atomic_write`: a
    new temporary file beside it, never through a planted link); errors name the file."""
    try:
        atomic_write(path, data)
    except OSError as error:
        raise OmenSolverError(f"{path}: cannot be written: {error.strerror or error}") from None


def draw(graph: nx.DiGraph, format: str = "svg") -> bytes:
    """A picture of a small graph (SVG or PNG): Graphviz if installed, else matplotlib."""
    if format not in ("svg", "png"):
        raise OmenSolverError(f"picture format {format!r}: choose svg or png")
    if graph.number_of_nodes() > MAX_PICTURE_NODES:
        raise GraphTooLargeError(
            f"a picture is drawn for at most {MAX_PICTURE_NODES} nodes and this graph has "
            f"{graph.number_of_nodes()}; write GraphML or DOT instead, or lower the depth"
        )
    if shutil.which("dot") is not None:
        try:
            picture: bytes = _dot_graph(graph).create(format=format)
            return picture
        except MissingDependencyError:
            pass
    return _draw_with_matplotlib(graph, format)


def _layout(graph: nx.DiGraph) -> dict[int, tuple[float, float]]:
    """Layered positions: one row per depth; leaves side by side in depth-first order, each
    parent centred over its children (a spanning tree of first-found parents for merged
    graphs)."""
    children: dict[int, list[int]] = {node: [] for node in graph}
    placed = {0}
    for node in sorted(graph):
        for child in sorted(graph.successors(node)):
            if child not in placed:
                placed.add(child)
                children[node].append(child)
    positions: dict[int, tuple[float, float]] = {}
    next_x = 0.0
    # Depth first from the root with a stack of its own (a graph can be deeper than Python's
    # recursion allows): a node is placed once its children are.
    stack = [(0, 0, False)] if graph.number_of_nodes() else []
    while stack:
        node, depth, expanded = stack.pop()
        below = children[node]
        if not below:
            positions[node] = (next_x, -float(depth))
            next_x += 1.0
        elif expanded:
            x = (positions[below[0]][0] + positions[below[-1]][0]) / 2
            positions[node] = (x, -float(depth))
        else:
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in reversed(below))
    return positions


def _picture_label(node: int, data: dict[str, Any]) -> str:
    """A short node text for pictures (states can be long; GraphML and DOT keep them whole):
    the state's text when short, else who acts; team returns at terminal states."""
    label = str(data["label"])
    if len(label) > 30 or "\n" in label:
        kind = data["kind"]
        label = f"#{node} seat {data['seats']}" if data["seats"] else f"#{node} {kind}"
        if "," in data["seats"]:
            label = f"#{node} seats {data['seats']}"
    if "returns" in data:
        label = f"{label}\n→ {data['returns']}"
    if data.get("cut"):
        label = f"{label}\n(cut: {data['cut']})"
    return label


def _draw_with_matplotlib(graph: nx.DiGraph, format: str) -> bytes:
    try:
        from matplotlib import rc_context
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise missing("matplotlib", "draw", "pictures",
                      "install Graphviz's `dot` program and the 'dot' extra") from None
    import io

    positions = _layout(graph)
    width = max((x for x, _ in positions.values()), default=0.0) + 1
    height = -min((y for _, y in positions.values()), default=0.0) + 1
    figure = Figure(figsize=(max(4.0, 2.2 * width), max(3.0, 1.3 * height)))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_axis_off()
    for parent, child, data in graph.edges(data=True):
        (x0, y0), (x1, y1) = positions[parent], positions[child]
        axes.annotate(
            "", xy=(x1, y1), xytext=(x0, y0),
            arrowprops={"arrowstyle": "->", "color": "0.5", "shrinkA": 12, "shrinkB": 12},
        )
        label = data["action"]
        if "probability" in data:
            label = f"{label} ({data['probability']})"
        # Near the child, where sibling edges have spread apart, so labels do not overlap.
        axes.text(
            x0 + 0.65 * (x1 - x0), y0 + 0.65 * (y1 - y0), label, fontsize=7, ha="center",
            va="center", color="navy",
            bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"},
        )
    for node, (x, y) in positions.items():
        node_data = graph.nodes[node]
        axes.text(
            x, y, _picture_label(node, node_data), fontsize=6, ha="center", va="center",
            bbox={
                "boxstyle": "round",
                "facecolor": "lightyellow" if node_data.get("cut") else "white",
            },
        )
    axes.set_xlim(-0.8, width - 0.2)
    axes.set_ylim(-height + 0.5, 0.5)
    buffer = io.BytesIO()
    # A fixed salt for SVG ids, no date and no software tag: the same graph gives the same file.
    metadata = {"Date": None} if format == "svg" else {"Software": None}
    with rc_context({"svg.hashsalt": "omen-solver"}):
        figure.savefig(buffer, format=format, metadata=metadata, bbox_inches="tight")
    return buffer.getvalue()
