"""No walk of the library recurses without a bound: a scan of the package's source.

The call graph of every function is built from the source (``self.f()`` to the method of the
same class, ``f()`` to the function of the enclosing scope or module; a call whose generator
is yielded to :func:`omen_solver.core.walk.drive`, ``yield self.node(child)``, is not a call
into the callee, since the driver runs it from its own stack). Every cycle in it is a
recursion. A recursion over the lines of a game (a search, an enumeration, a principal
variation, a proof) must keep its own stack instead (``omen_solver/core/walk.py``,
docs/robustness.md, "Depth"); the recursions left are listed below, each with what bounds its
depth by construction. A new one fails the test, naming its ring of functions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "omen_solver"

BOUNDED_MODULES = {
    "omen_solver.omens.kernel.": "the Omens search kernel: one round (every bout discards a "
    "card), and at most MAX_DEPTH plies (omens/kernel/search.py), then 'unknown'",
}

BOUNDED = {
    "omen_solver.cli.__init__._add_epilog": "the command tree: two or three levels",
    "omen_solver.cli.__init__._mark_leaves": "the command tree: two or three levels",
    "omen_solver.core.values._body": "a position file's tables (two or three levels)",
    "omen_solver.core.values._inline": "the nesting of a position file's values (a few levels)",
    "omen_solver.core.values.write_value": "the nesting of a state's own values (a few levels)",
    "omen_solver.core.values._ValueReader.braces": "as _value",
    "omen_solver.core.values._ValueReader._value": "a value text, read at most MAX_DEPTH (64) "
    "levels deep",
    "omen_solver.core.values._ValueReader.value": "as _value",
    "omen_solver.omen.position._without": "a key's path in a position file (two keys)",
    "omen_solver.omens.state.OmensState.actions": "one state's legal actions (a few calls)",
    "omen_solver.omens.state.OmensState.joint_actions": "one state's legal actions",
    "omen_solver.omens.state.OmensState.legal_actions": "one state's legal actions",
    "omen_solver.omens.proofs.enumeration.walk._Walk.run": "one bout or round of a small deal, "
    "each state once per line, and a node limit",
    "omen_solver.omens.proofs.enumeration.walk._fill": "the seats of a table (at most 6)",
    "omen_solver.puzzles.depth.BoutSearch._after": "one round of Omens, and only where the "
    "kernel's search of the round (bounded) says the goal is still reachable",
    "omen_solver.puzzles.depth.BoutSearch._reaches": "as _after",
    "omen_solver.survey.advice._assignments.fill": "the seats of a table (at most 6)",
    "omen_solver.survey.advice._replay": "the moves of a game record, each legal in turn "
    "(one round's cards)",
    "omen_solver.vectors.coverage._functions": "the syntax tree of the engine's own source",
    "omen_solver.vectors.jsonfile._write": "JSON values, read at most 64 levels deep",
    "omen_solver.vectors.protocol._sorted_lists": "an engine's JSON answer, at most 64 levels",
    "omen_solver.vectors.omen_mine._Lockstep._run": "its depth argument (a few turns)",
    "omen_solver.vectors.omens_mine._Walker._visit": "one round of Omens and a node budget",
    "omen_solver.vectors.witness._Lockstep.run": "one round of Omens, each state pair once",
}


Where = dict[str, tuple[str, str | None]]
Calls = dict[str, list[ast.Call]]


def _scan(tree: ast.AST, module: str, where: Where, calls: Calls) -> None:
    """Every function of a module's tree by qualified name, with its module and class (if a
    method), and the calls it makes itself (not its nested functions' or lambdas'), but those
    whose result is yielded (a child node handed to the walk's driver)."""
    yielded = {id(node.value) for node in ast.walk(tree)
               if isinstance(node, ast.Yield) and isinstance(node.value, ast.Call)}
    stack: list[tuple[ast.AST, str, str | None, str | None]] = [(tree, module, None, None)]
    while stack:
        node, prefix, cls, function = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}.{child.name}"
                where[name] = (module, cls)
                calls[name] = []
                stack.append((child, name, None, name))
            elif isinstance(child, ast.ClassDef):
                stack.append((child, f"{prefix}.{child.name}", f"{prefix}.{child.name}", None))
            elif isinstance(child, ast.Lambda):
                stack.append((child, prefix, cls, None))
            else:
                if (isinstance(child, ast.Call) and function is not None
                        and id(child) not in yielded):
                    calls[function].append(child)
                stack.append((child, prefix, cls, function))


@cache
def _graph() -> dict[str, set[str]]:
    where: Where = {}
    calls: Calls = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        _scan(ast.parse(path.read_text(encoding="utf-8")), module, where, calls)
    return _links(where, calls)


def _links(where: Where, calls: Calls) -> dict[str, set[str]]:
    functions = where
    graph: dict[str, set[str]] = {name: set() for name in functions}
    for name, made in calls.items():
        module, cls = where[name]
        for call in made:
            target = call.func
            if isinstance(target, ast.Name):
                # the enclosing functions' nested functions, then the module's (class bodies
                # are not scopes a name is looked up in)
                scope = name
                while True:
                    candidate = f"{scope}.{target.id}"
                    if candidate in functions and where[candidate][1] is None:
                        graph[name].add(candidate)
                        break
                    if scope == module:
                        break
                    scope = scope.rsplit(".", 1)[0]
            elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                  and target.value.id in ("self", "cls") and cls is not None):
                candidate = f"{cls}.{target.attr}"
                if candidate in functions:
                    graph[name].add(candidate)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with a cycle (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    rings: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                ring = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    ring.append(member)
                    if member == node:
                        break
                if len(ring) > 1 or node in graph[node]:
                    rings.append(sorted(ring))
    return rings


def _bounded(name: str) -> bool:
    return name in BOUNDED or any(name.startswith(prefix) for prefix in BOUNDED_MODULES)


def test_every_recursion_is_bounded_by_construction() -> None:
    rings = _cycles(_graph())
    unbounded = [ring for ring in rings if not all(_bounded(name) for name in ring)]
    assert not unbounded, (
        "these functions recurse: write the walk as generators run by "
        "omen_solver.core.walk.drive (its own stack), or list them in BOUNDED with what bounds "
        "their depth:\n" + "\n".join(" <-> ".join(ring) for ring in unbounded))


def test_the_list_of_bounded_recursions_is_current() -> None:
    """Every function listed still exists and still recurses (a stale entry would hide a
    future one of the same name)."""
    recursing = {name for ring in _cycles(_graph()) for name in ring}
    assert sorted(set(BOUNDED) - recursing) == []
    assert [prefix for prefix in BOUNDED_MODULES
            if not any(name.startswith(prefix) for name in recursing)] == []


def test_the_scan_finds_a_recursion() -> None:
    """The scan is real: the searches of the reference solver would be found if they called
    themselves directly, and are not because they yield their children."""
    source = ast.parse(
        "class S:\n"
        "    def search(self, s):\n        return self.decide(s)\n"
        "    def decide(self, s):\n        return [self.search(c) for c in s]\n"
        "    def node(self, s):\n        value = yield self.node(s)\n        return value\n"
        "def walk(n):\n    return [walk(c) for c in n]\n"
    )
    where: Where = {}
    calls: Calls = {}
    _scan(source, "m", where, calls)
    assert sorted(_cycles(_links(where, calls))) == [
        ["m.S.decide", "m.S.search"], ["m.walk"]]
    graph = {"a": {"b"}, "b": {"a"}, "c": {"c"}, "d": {"a"}}
    assert sorted(_cycles(graph)) == [["a", "b"], ["c"]]
