"""Engine mutants: does anything notice when the engine's rules are changed?

``python -m tools.mutants [--out FILE] [--jobs N] [--bouts N] [--only TEXT]`` (from the project
folder; a development tool, not part of the installed package)

Each mutant is a copy of the engine (:mod:`omen_solver.omens.state`, :mod:`~.resolve`) with one
small change made by rewriting its syntax tree: a comparison flipped (``<`` and ``<=``, ``==``
and ``!=``, ``in`` and ``not in``), ``and`` and ``or`` swapped, a ``not`` dropped, an integer
one off (seats, counts), a statement dropped (an effect that no longer happens), two
statements in a row swapped (an order changed). Messages, explanations and error texts are not
mutated: they are not rules.

Every mutant runs in a fresh process on a **copy** of the package in a temporary folder, made
from a snapshot of the package and of ``proofs/`` taken when the run starts (the working tree is
never written; should the engine files change there meanwhile, the results, those of the
snapshot, are written and the run says so), against three detectors:

* ``differential``: the whole-bout model against the mutated engine on random bouts
  (:mod:`~omen_solver.omens.proofs.agreement`), placement by placement;
* ``theorems``: the engine side of the theorem suite: every committed counterexample file of
  ``proofs/counterexamples`` must still replay, and the enumeration theorems (which walk the
  engine) must still be proved;
* ``vectors``: the hand-written regression vectors of ``omen_solver/vectors/data/``.

A mutant that takes longer than the time limit (a loop that never ends) counts as killed by
the detector that was running. The result is a JSON file and a table for ``docs/proofs.md``.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from omen_solver.core.files import atomic_write, read_text
from omen_solver.core.processes import parent_death_signal
from omen_solver.errors import OmenSolverError

ROOT: Final = Path(__file__).resolve().parents[1]
"""The project folder (this file is ``tools/mutants.py``)."""
VECTORS: Final = "omen_solver/vectors/data/omens-examples.toml"
"""The hand-written Omens regression vectors."""
DATA: Final = Path(os.environ.get("OMENS_MUTANTS_DATA", ROOT))
"""Where the detectors read the project's data (theorems, counterexamples): the run's snapshot
of ``proofs/`` (taken with the package's when the run starts), so that a file edited while the
run goes on cannot count as a kill; the working tree when a detector is run by hand."""
TARGETS: Final = ("omen_solver/omens/state.py", "omen_solver/omens/resolve.py")
SKIP_CALLS: Final = frozenset(
    {"say", "_say", "TraceStep", "IllegalActionError", "ValueError", "AssertionError"}
)
"""Calls whose arguments are messages, not rules."""
SKIP_FUNCTIONS: Final = frozenset(
    {
        "__repr__",
        "__str__",
        "describe_state",
        "_illegal",
        "_sample_joint",
        "_note_law",
        "explain",
        "action_to_string",
        "string_to_action",
        "parse_move",
        "_check_legal",
        "_say",
    }
)
"""Functions that format text or check the caller's input (not rules of the game): never
mutated, and a message inside any function is not mutated either."""
NOT_RULES: Final = {
    **dict.fromkeys(
        ("derive_teams", "new_game", "start_of_bout", "_new_round", "_deal", "_deal_given",
         "_deal_queue", "_finish_deal", "chance_outcomes", "__init__"),
        "the deal, the set-up of a game and the start of a new round (the detectors start "
        "from dealt positions)",
    ),
    **dict.fromkeys(
        ("num_players", "hands", "in_play", "leader", "law", "pending", "phase", "rounds_won",
         "discard_pile", "box", "last_bout", "winner", "bouts_played", "played_this_bout",
         "teams", "all_cards", "fields", "name"),
        "a read-only view of one field of the state",
    ),
    **dict.fromkeys(
        ("freeze", "key", "to_text", "say", "child", "joint_child", "_as_move", "_apply",
         "apply_move", "moves", "legal_actions", "actions", "joint_actions"),
        "plumbing: copying the state, its identity and text form, and the protocol's entry "
        "points, which only dispatch to the rule functions",
    ),
    **dict.fromkeys(
        ("stop_predicate", "_bout_over", "returns", "team_returns"),
        "the searches' view of the state (their stopping points and payoffs), not play",
    ),
    "bout_resolved": "the observer's protocol (a signature with no body)",
    "from_text": "reading a state from its one-line text (the position format, not a rule of "
    "play)",
}  # fmt: skip
"""The functions of :data:`TARGETS` that are not rules of a bout, and why. Every other function
of those files (but :data:`SKIP_FUNCTIONS`) is mutated: :func:`rule_functions` derives the
list from the code, so a rule function added to the engine is mutated without being listed
(``tests/omens_proofs/test_mutants.py`` checks that every name here is still a function of the
engine)."""


def engine_functions() -> dict[str, set[str]]:
    """Every function (and method) defined in each file of :data:`TARGETS`, by name."""
    found: dict[str, set[str]] = {}
    for relative in TARGETS:
        tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
        found[relative] = {
            node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
        }
    return found


def rule_functions() -> frozenset[str]:
    """The functions that play a bout and end it: what the model and the theorems speak about
    (every function of the engine files but the set-up, views, plumbing and text)."""
    names = set().union(*engine_functions().values())
    return frozenset(names - NOT_RULES.keys() - SKIP_FUNCTIONS)


FLIP: Final = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Mutant:
    number: int
    file: str
    line: int
    kind: str
    what: str


def _skipped(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Inside a message, a docstring, a formatting function or an input check."""
    current: ast.AST | None = node
    while current is not None:
        if isinstance(current, ast.JoinedStr):
            return True
        if isinstance(current, ast.Call):
            func = current.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in SKIP_CALLS:
                return True
        if isinstance(current, ast.Raise):
            return True
        if isinstance(current, ast.FunctionDef) and current.name in SKIP_FUNCTIONS:
            return True
        current = parents.get(current)
    return False


def _in_rules(node: ast.AST, parents: dict[ast.AST, ast.AST], rules: frozenset[str]) -> bool:
    current: ast.AST | None = node
    while current is not None:
        if isinstance(current, ast.FunctionDef):
            return current.name in rules
        current = parents.get(current)
    return False


def _docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def mutations(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str, Any]]:
    """Every mutation of a module: (node, kind, description, how to apply)."""
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    rules = rule_functions()
    for node in ast.walk(tree):
        if _skipped(node, parents) or not _in_rules(node, parents, rules):
            continue
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                if type(op) in FLIP:
                    new = FLIP[type(op)]
                    yield (
                        node,
                        "flip comparison",
                        f"{type(op).__name__} -> {new.__name__}",
                        (
                            "op",
                            index,
                            new,
                        ),
                    )
        elif isinstance(node, ast.BoolOp):
            new_op = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield node, "and/or", f"{type(node.op).__name__} -> {new_op.__name__}", ("bool", new_op)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            parent = parents[node]
            for field, value in ast.iter_fields(parent):
                if value is node:
                    yield node, "drop not", "not x -> x", ("not", parent, field, None)
                elif isinstance(value, list) and node in value:
                    where = ("not", parent, field, value.index(node))
                    yield node, "drop not", "not x -> x", where
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and not isinstance(parents.get(node), ast.Subscript | ast.keyword)
        ):
            for delta in (1, -1):
                yield node, "off by one", f"{node.value} -> {node.value + delta}", ("int", delta)
        elif isinstance(node, ast.FunctionDef | ast.If | ast.For | ast.While | ast.With):
            for field in ("body", "orelse"):
                block = getattr(node, field, None)
                if not block:
                    continue
                for index, statement in enumerate(block):
                    if _docstring(statement) or isinstance(statement, ast.Pass):
                        continue
                    if _skipped(statement, parents) or _is_message(statement):
                        continue
                    if isinstance(statement, ast.Expr | ast.Assign | ast.AugAssign | ast.Return):
                        yield (
                            statement,
                            "drop statement",
                            ast.unparse(statement)[:60],
                            (
                                "drop",
                                node,
                                field,
                                index,
                            ),
                        )
                    if index + 1 < len(block):
                        following = block[index + 1]
                        simple = (ast.Expr, ast.Assign, ast.AugAssign)
                        if (
                            isinstance(statement, simple)
                            and isinstance(following, simple)
                            and not _is_message(statement)
                            and not _is_message(following)
                        ):
                            yield (
                                statement,
                                "swap order",
                                (
                                    ast.unparse(statement)[:30]
                                    + " <-> "
                                    + ast.unparse(following)[:30]
                                ),
                                ("swap", node, field, index),
                            )


def _is_message(statement: ast.AST) -> bool:
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return False
    func = statement.value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in SKIP_CALLS


def _mutated_source(tree: ast.Module, target: ast.AST, how: Any) -> str:
    """The source of ``tree`` with one mutation made at ``target``: made in place, written
    out, then undone."""
    kind = how[0]
    if kind == "op":
        old = target.ops[how[1]]  # type: ignore[attr-defined]
        target.ops[how[1]] = how[2]()  # type: ignore[attr-defined]
        try:
            return ast.unparse(tree)
        finally:
            target.ops[how[1]] = old  # type: ignore[attr-defined]
    if kind == "bool":
        old = target.op  # type: ignore[attr-defined]
        target.op = how[1]()  # type: ignore[attr-defined]
        try:
            return ast.unparse(tree)
        finally:
            target.op = old  # type: ignore[attr-defined]
    if kind == "not":
        parent, field, index = how[1], how[2], how[3]
        return _swap_in(tree, parent, field, index, target.operand)  # type: ignore[attr-defined]
    if kind == "int":
        old = target.value  # type: ignore[attr-defined]
        target.value = old + how[1]  # type: ignore[attr-defined]
        try:
            return ast.unparse(tree)
        finally:
            target.value = old  # type: ignore[attr-defined]
    owner, field, index = how[1], how[2], how[3]
    block = getattr(owner, field)
    saved = list(block)
    if kind == "drop":
        block[index] = ast.Pass()
    else:
        block[index], block[index + 1] = block[index + 1], block[index]
    try:
        return ast.unparse(tree)
    finally:
        block[:] = saved


def _swap_in(tree: ast.Module, parent: ast.AST, field: str, index: int | None, new: Any) -> str:
    value = getattr(parent, field)
    if index is None:
        setattr(parent, field, new)
        try:
            return ast.unparse(tree)
        finally:
            setattr(parent, field, value)
    old = value[index]
    value[index] = new
    try:
        return ast.unparse(tree)
    finally:
        value[index] = old


def all_mutants() -> list[tuple[Mutant, Any]]:
    """Every mutant of the target files, with a function giving its mutated source."""
    result: list[tuple[Mutant, Any]] = []
    for relative in TARGETS:
        tree = ast.parse((ROOT / relative).read_text(encoding="utf-8"))
        for node, kind, what, how in mutations(tree):
            line = getattr(node, "lineno", 0)

            def source(tree: ast.Module = tree, node: ast.AST = node, how: Any = how) -> str:
                return _mutated_source(tree, node, how)

            result.append((Mutant(len(result) + 1, relative, line, kind, what), source))
    return result


# -- running the detectors on one mutant (in a fresh process) ------------------------------


def detect(bouts: int) -> dict[str, str]:
    """Run the detectors on the engine as it is on ``sys.path``; which ones fail, and why."""
    killed: dict[str, str] = {}
    for name, check in (
        ("vectors", _vectors),
        ("differential", lambda: _differential(bouts)),
        ("theorems", lambda: _theorems(enumerate_too=not killed)),
    ):
        try:
            problem = check()
        except Exception as error:  # a mutant may crash the engine: that is a kill
            problem = f"{type(error).__name__}: {str(error)[:120]}"
        if problem:
            killed[name] = problem
    return killed


def _vectors() -> str | None:
    import tomllib

    from omen_solver.omens.position import parse_position
    from omen_solver.omens.report import play_report

    data = tomllib.loads((DATA / VECTORS).read_text(encoding="utf-8"))
    for vector in data["vector"]:
        position: dict[str, Any] = {"game": "omens"}
        position.update(
            {k: vector[k] for k in ("players", "teams", "preset", "rules") if k in vector}
        )
        position.setdefault("teams", [[1, 3], [2, 4]])
        position["hands"] = vector["hands"]
        position["bout"] = {"leader": vector["leader"]}
        parsed = parse_position(position, vector["id"])
        _, report = play_report(parsed, list(vector["moves"]))
        expect = vector["expect"]
        actual = {
            "bout_winner": report["bout_winner"] or 0,
            "discarded": report["discarded"],
            "hands": report["hands"],
            "next_leader": report["next_leader"] or 0,
            "round_winner_team": report["round_winner_team"] or [],
            "legal": report["legal"],
        }
        for key, value in expect.items():
            want = {s: list(c) for s, c in value.items()} if key == "hands" else value
            if actual[key] != want:
                return f"vector {vector['id']}: {key}"
    return None


def _differential(bouts: int) -> str | None:
    from omen_solver.omens.cards import default_catalogue
    from omen_solver.omens.proofs.agreement import check_bout
    from omen_solver.omens.proofs.model.deck import Deck

    deck = Deck(default_catalogue())
    for seed in range(bouts):
        _, problems = check_bout(seed, deck=deck)
        if problems:
            return f"seed {seed}: {problems[0]}"
    return None


def _theorems(*, enumerate_too: bool = True) -> str | None:
    """The counterexample files replay; and, with ``enumerate_too`` (the run skips it for a
    mutant another detector has killed: it is the slowest check), the enumeration theorems
    are still proved."""
    from omen_solver.core.smt import Outcome, SolverSettings
    from omen_solver.omens.position import load_position
    from omen_solver.omens.proofs.enumeration.walk import EnumerationTheorem
    from omen_solver.omens.proofs.theorems.library import load_theorems

    for path in sorted((DATA / "proofs/counterexamples").glob("*.toml")):
        position = load_position(path)
        _, steps = position.replay()
        if len(steps) != len(position.moves):
            return f"{path.name} no longer replays"
    if not enumerate_too:
        return None
    for theorem in load_theorems(DATA / "proofs"):
        if (
            isinstance(theorem, EnumerationTheorem)
            and theorem.check(None, SolverSettings()).outcome is not Outcome.PROVED
        ):
            return f"{theorem.name} is not proved"
    return None


# -- the run -------------------------------------------------------------------------------


_ORIGINAL: dict[str, str] = {}
_IGNORE = shutil.ignore_patterns("__pycache__")
_SNAPSHOT: Path | None = None
"""A copy of the package taken when the run starts: every mutant is made from it, so the run
is the same whatever happens to the working tree meanwhile."""


def _digest() -> str:
    return hashlib.sha256(b"".join((ROOT / t).read_bytes() for t in TARGETS)).hexdigest()


def _run_mutant(
    mutant: Mutant, source: str, bouts: int, timeout: float
) -> tuple[Mutant, dict[str, str], float]:
    started = time.perf_counter()
    if source == _ORIGINAL.get(mutant.file):
        return mutant, {"equivalent": "the mutated source is the same program"}, 0.0
    with tempfile.TemporaryDirectory(prefix="omens-mutant-") as folder:
        copy_root = Path(folder) / "omen_solver"
        shutil.copytree(_SNAPSHOT or ROOT / "omen_solver", copy_root, ignore=_IGNORE)
        atomic_write(Path(folder) / mutant.file, source)
        env = dict(
            os.environ,
            # the mutated copy of the package first; then these tools (the snapshot's)
            PYTHONPATH=os.pathsep.join((folder, str(_SNAPSHOT.parent if _SNAPSHOT else ROOT))),
            PYTHONDONTWRITEBYTECODE="1",
            OMENS_MUTANTS_DATA=str(_SNAPSHOT.parent if _SNAPSHOT else DATA),
        )
        command = [
            sys.executable,
            "-c",
            "import json, sys; from tools.mutants import detect; "
            f"print(json.dumps(detect({bouts})))",
        ]
        try:
            done = subprocess.run(  # ends with this run, however it ends
                command, env=env, cwd=folder, capture_output=True, text=True, timeout=timeout,
                preexec_fn=parent_death_signal,
            )
        except subprocess.TimeoutExpired:
            return mutant, {"timeout": f"no answer within {timeout:.0f} s"}, timeout
        seconds = time.perf_counter() - started
        if done.returncode != 0 or not done.stdout.strip():
            return mutant, {"crash": (done.stderr.strip().splitlines() or ["?"])[-1][:120]}, seconds
        return mutant, json.loads(done.stdout.strip().splitlines()[-1]), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutants")
    parser.add_argument("--out", type=Path, default=Path("mutants.json"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bouts", type=int, default=2000, help="random bouts per mutant")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per mutant")
    parser.add_argument("--only", default="", help="mutants whose description contains TEXT")
    parser.add_argument(
        "--numbers", default="", help="only the mutants of these numbers (e.g. 86,93,120-200)"
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument(
        "--table",
        type=Path,
        metavar="RESULTS",
        help="print the kill table of a results file and classify its survivors",
    )
    args = parser.parse_args(argv)
    if args.table is not None:
        return _print_table(args.table)
    global _SNAPSHOT
    before = _digest()
    snapshot = tempfile.TemporaryDirectory(prefix="omens-mutants-")
    _SNAPSHOT = Path(snapshot.name) / "omen_solver"
    shutil.copytree(ROOT / "omen_solver", _SNAPSHOT, ignore=_IGNORE)
    shutil.copytree(ROOT / "proofs", _SNAPSHOT.parent / "proofs", ignore=_IGNORE)
    shutil.copytree(ROOT / "tools", _SNAPSHOT.parent / "tools", ignore=_IGNORE)
    for relative in TARGETS:
        _ORIGINAL[relative] = ast.unparse(ast.parse((ROOT / relative).read_text("utf-8")))
    numbers: set[int] = set()
    for part in filter(None, (p.strip() for p in args.numbers.split(","))):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    chosen = [
        (m, s)
        for m, s in all_mutants()
        if args.only in f"{m.file}:{m.line} {m.what}" and (not numbers or m.number in numbers)
    ]
    if not args.list:
        # the detectors must pass on the engine as it is, or every kill would mean nothing
        baseline = Mutant(0, TARGETS[0], 0, "none", "the engine unchanged")
        source = (ROOT / TARGETS[0]).read_text(encoding="utf-8")
        _, killed, _ = _run_mutant(baseline, source + "\n", args.bouts, args.timeout)
        if killed:
            raise SystemExit(f"the detectors fail on the unchanged engine: {killed}")
    if args.list:
        for mutant, _ in chosen:
            print(f"{mutant.number:4} {mutant.file}:{mutant.line} {mutant.kind}: {mutant.what}")
        return 0
    results = []
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_run_mutant, m, s(), args.bouts, args.timeout) for m, s in chosen]
        for number, future in enumerate(futures, start=1):
            mutant, killed, seconds = future.result()
            results.append({**asdict(mutant), "killed_by": killed, "seconds": round(seconds, 1)})
            state = ", ".join(sorted(killed)) or "SURVIVED"
            print(
                f"[{number}/{len(futures)}] {mutant.file}:{mutant.line} {mutant.kind} "
                f"({mutant.what}): {state}",
                flush=True,
            )
    snapshot.cleanup()
    atomic_write(args.out, json.dumps(results, indent=1))
    survived = [r for r in results if not r["killed_by"]]
    print(
        f"{len(results)} mutants, {len(results) - len(survived)} killed, {len(survived)} survived"
    )
    if _digest() != before:
        # the mutants were made from the snapshot, so the results stand; the run itself never
        # writes the engine files, so someone else changed them: say so
        raise SystemExit(
            f"the engine files changed in the working tree during the run; {args.out} holds "
            "the results of the engine as it was when the run started"
        )
    return 0


def _print_table(path: Path) -> int:
    results = json.loads(read_text(path, OmenSolverError, 64 * 1024 * 1024))
    for row in results:
        if not row["killed_by"]:
            mutant = Mutant(row["number"], row["file"], row["line"], row["kind"], row["what"])
            row["equivalent"] = classify(mutant) or row.get("equivalent") or ""
    print(table(results))
    print()
    for row in results:
        if not row["killed_by"]:
            why = row["equivalent"] or "NOT CLASSIFIED"
            where = f"{row['file']}:{row['line']}"
            print(f"- {row['number']} {where} {row['kind']} ({row['what']}): {why}")
    return 0


# -- reading the results: the kill table and the survivors' classification ----------------

LOGGING: Final = frozenset({"_note_law", "say", "_say"})
"""Functions that only write explanations."""
METHOD_WRITES: Final = {
    "take_from_hand": "hands",
    "add_to_hand": "hands",
    "discard": "out",
    "remove_from_play": "front",
    "append": "",
    "pop": "",
    "remove": "",
    "extend": "",
    "clear": "",
    "sort": "",
}
"""What a method call changes: an attribute of the object it is called on ('' the object)."""


def _path(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _path(node.value)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, ast.Subscript):
        return _path(node.value)
    return None


PURE_CALLS: Final = frozenset(
    {
        "len", "list", "tuple", "set", "sorted", "next", "enumerate", "range", "int",
        "Placement", "frozenset", "any", "all", "max", "min", "_round_winner",
        "_luck_options", "_law_filter", "_next_to_play", "_pending_choices", "_now_choices",
        "owner", "BoutSummary", "_winning_card", "seat_after",
    }
)  # fmt: skip
"""Calls that change no state (some write an explanation, which does not count)."""


def _effects(statement: ast.stmt) -> tuple[set[str], set[str]]:
    """What a statement reads and writes, as dotted paths (the longest: ``work.hands``, not
    ``work``; ``*`` for anything: an unknown call that is handed the state). Writing
    explanations (``work.log``) is not counted."""
    reads: set[str] = set()
    writes: set[str] = set()
    sources: list[ast.AST] = [statement]
    if isinstance(statement, ast.Assign | ast.AugAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
                    path = _path(node)
                    if path:
                        writes.add(path)
                    if isinstance(node, ast.Subscript):
                        sources.append(node.slice)
                    break
        sources = [statement.value, *sources[1:]]
        if isinstance(statement, ast.AugAssign):
            reads |= writes
    inner: set[int] = set()
    for source in sources:
        for node in ast.walk(source):
            if isinstance(node, ast.Attribute):
                inner.add(id(node.value))
    for source in sources:
        for node in ast.walk(source):
            if id(node) in inner:
                continue
            if isinstance(node, ast.Name | ast.Attribute):
                path = _path(node)
                if path:
                    reads.add(path)
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if name in LOGGING or name in PURE_CALLS:
                    continue
                if isinstance(func, ast.Attribute) and name in METHOD_WRITES:
                    base = _path(func.value) or "*"
                    writes.add(f"{base}.{METHOD_WRITES[name]}".rstrip("."))
                else:
                    writes.add("*")
    return reads, writes


def _logging_only(statement: ast.stmt, log_names: set[str]) -> bool:
    """The statement only writes an explanation, or only names used in explanations."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in LOGGING
    if isinstance(statement, ast.Assign):
        names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
        return bool(names) and len(names) == len(statement.targets) and set(names) <= log_names
    return False


def _log_names(function: ast.FunctionDef) -> set[str]:
    """Local names used only as arguments of explanation calls."""
    calls = [
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) in LOGGING
    ]
    inside = {id(n) for c in calls for n in ast.walk(c)}
    used: dict[str, bool] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            used[node.id] = used.get(node.id, True) and id(node) in inside
    return {name for name, only in used.items() if only}


def _overlap(a: set[str], b: set[str]) -> bool:
    if ("*" in a and b) or ("*" in b and a):
        return True
    return any(x == y or x.startswith(y + ".") or y.startswith(x + ".") for x in a for y in b)


_LAW_FILTER_LINE: Final = (
    "following = [c for c in candidates if (c > value if direction > 0 else c < value)]"
)
_LAW_CHOICE_LINE: Final = "work.law = (card, 1 if keyword == HIGHER else -1)"
_PENDING_SLOT: Final = (
    "equivalent (read): an unused slot of a pending obligation: the fourth is read only for "
    "GIVE_BACK (the card offered in the open exchange, set from the move), the third of LUCK "
    "never; for this kind every reader unpacks it into '_'"
)
_LAW_SIGN: Final = (
    "equivalent (read): Law's direction is only ever compared with 0 ('direction > 0': "
    "_law_filter, _note_law, describe_state, the kernel's conversion), and +1/-1 keep their "
    "side of 0 under this change"
)
_LAW_VALUE: Final = (
    "equivalent (read): the candidates are cards in a hand and Law's value is the Law card, "
    "which lies in play, so a candidate never equals it and '>' / '>=' ('<' / '<=') agree"
)
_NOBODY_LEFT: Final = (
    "equivalent (read): _nobody_left is read only where a RESOLVE obligation's choices are "
    "listed, and it matters only to Law under law_when_last = skip; after every action "
    "_advance drops that obligation as void (_drop_void_pending, asking _Work.nobody_left of "
    "the same hands and turns) whenever nobody is left, so where the choices are listed the "
    "answer is False, as the mutant's"
)
_NOBODY_LEFT_LINE: Final = (
    "return _next_to_play(self.table, self._hands, self._played, self._leader) == -1"
)
READ_EQUIVALENT: Final[dict[tuple[str, str, str, str, str], str]] = {
    ("omen_solver/omens/state.py", "_nobody_left", "drop statement",
     "return _next_to_play(self.table, self._hands, self._played, ", _NOBODY_LEFT_LINE):
    _NOBODY_LEFT,
    ("omen_solver/omens/state.py", "_nobody_left", "off by one", "1 -> 2", _NOBODY_LEFT_LINE):
    _NOBODY_LEFT,
    (
        "omen_solver/omens/state.py",
        "_now_choices",
        "drop statement",
        "return []",
        "return []",
    ): (
        "equivalent with the game's cards (read): the last 'return []' of _now_choices is "
        "reached by no card of the deck; every immediate effect but Dream has its own branch, "
        "and Dream reaches _now_choices only when a Dream target places a second Dream card, "
        "which the deck does not have (a custom catalogue with two Dreams would tell them "
        "apart; the detectors play the game's cards)"
    ),
    **{
        ("omen_solver/omens/state.py", function, "off by one", what, line): _PENDING_SLOT
        for function, line in (
            ("_play", "work.pending.append((RESOLVE, resolver, card, 0))"),
            ("_dream", "work.pending.append((DREAM, target, seat, 0))"),
            ("_resolve_now", "work.pending.append((SHOW, target, resolver, 0))"),
            ("_wrath", "work.pending.append((REPLAY, placement.before, returned, 0))"),
            ("_betrayal", "work.pending.append((RESOLVE, chooser, given, 0))"),
            ("_start_exchange", "work.pending.append((kind, player, target, 0))"),
            ("_stage_luck", "work.pending.append((LUCK, seat, 0, 0))"),
            ("_stage_exchanges", "work.pending.append((END_ABSOLUTE, seat, card, 0))"),
        )
        for what in ("0 -> 1", "0 -> -1")
    },
    **{
        ("omen_solver/omens/state.py", function, kind, what, line): reason
        for function, kind, what, line, reason in (
            ("_law_filter", "flip comparison", "Lt -> LtE", _LAW_FILTER_LINE, _LAW_VALUE),
            ("_law_filter", "off by one", "0 -> -1", _LAW_FILTER_LINE, _LAW_SIGN),
            ("_resolve_now", "off by one", "1 -> 2", _LAW_CHOICE_LINE, _LAW_SIGN),
            ("_resolve_now", "off by one", "1 -> 0", _LAW_CHOICE_LINE, _LAW_SIGN),
        )
    },
    (
        "omen_solver/omens/state.py",
        "_jealousy",
        "swap order",
        "front[i] = Placement(mine.card <-> front[j] = Placement(theirs.ca",
        "front[i] = Placement(mine.card, theirs.before, mine.by)",
    ): (
        "equivalent (read): the two assignments write different slots (Jealousy's choices "
        "never name Jealousy itself, so i != j) and read only 'mine' and 'theirs', taken before "
        "both"
    ),
    (
        "omen_solver/omens/state.py",
        "_start_end_of_bout",
        "drop statement",
        "work.luck_victim = None",
        "work.luck_victim = None",
    ): (
        "equivalent (read): every bout begins through _reset_bout (the next bout, a new round, "
        "the end of a deal), which clears it, or from start_of_bout or new_game, where it is "
        "None; so it is already None when a bout ends"
    ),
    ("omen_solver/omens/state.py", "_play", "drop statement", "return", "return"): (
        "equivalent with the game's cards (read): the first return follows Dream, an immediate "
        "card with no choice of its own, the second a card with no immediate effect; without "
        "either the card goes on to be resolved with no choice: an explanation (no effect), or "
        "a RESOLVE obligation that _drop_void_pending drops at once, its choices being empty "
        "(every effect of the deck that has choices is immediate)"
    ),
    **{
        ("omen_solver/omens/state.py", function, "drop statement", line, line): reason
        for function, line, reason in (
            (
                "_start_end_of_bout",
                "work.winner = None",
                "equivalent (read): the winner is None until the game is over, and here it ends",
            ),
            (
                "_next_bout",
                "work.winner = None",
                "equivalent (read): the winner is None until the game is over, and here it ends",
            ),
            (
                "_next_bout",
                "work.phase = Phase.OVER",
                "equivalent (read): left in the bout phase, _advance finds nobody to play and "
                "_start_end_of_bout, with nothing in play, ends the round the same way (over, "
                "no winner); only the explanation is said twice",
            ),
        )
    },
    ("omen_solver/omens/state.py", "_stage_luck", "drop statement", "return", "return"): (
        "equivalent (read): without the return after Luck's obligation is pushed, the stage "
        "goes on only to an explanation"
    ),
    (
        "omen_solver/omens/state.py",
        "_now_choices",
        "and/or",
        "And -> Or",
        "if effect == Effect.ABSOLUTE and card in table.now:",
    ): (
        "equivalent with the game's cards (read): both callers of _now_choices pass only "
        "immediate cards (each checks table.now first), so 'card in table.now' holds there; "
        "the only other card to reach the line is a second Dream, which the deck does not have"
    ),
    (
        "omen_solver/omens/state.py",
        "_betrayal",
        "and/or",
        "And -> Or",
        "if given in table.now and table.effect[given] != Effect.DREAM:",
    ): (
        "equivalent with the game's cards (read): the cards 'or' adds (Dream, and cards with no "
        "immediate effect) have no choices when resolved, so their RESOLVE obligation is "
        "dropped at once as void by _drop_void_pending, with only an explanation"
    ),
    (
        "omen_solver/omens/state.py",
        "_actions",
        "and/or",
        "Or -> And",
        "if self._phase == Phase.DEAL or self.current_player() == CHANCE:",
    ): (
        "equivalent (read): at a deal the current player is always chance; at Luck's chance "
        "discard the other way lists the same actions (the LUCK branch yields a DISCARDS for "
        "each card of _luck_options, as chance_outcomes does), and they are sorted either way"
    ),
    (
        "omen_solver/omens/state.py",
        "_with_choices",
        "off by one",
        "1 -> 0",
        "top = self._pending[-1][0] if self._pending else None",
    ): (
        "equivalent (read): a card is placed with at most one obligation pending (the DREAM or "
        "REPLAY it answers): each obligation is popped before the effect that pushes the next, "
        "and only _stage_exchanges pushes several, after the bout's placements; so [-1] and [0] "
        "are the same obligation"
    ),
    **{
        ("omen_solver/omens/state.py", "_reset_bout", "drop statement", line, line): reason
        for line, reason in (
            (
                "work.front = []",
                "equivalent (read): nothing is in play when a bout or round is started: the "
                "return stage, which runs before the check, empties it, the Luck and exchange "
                "stages move only cards in hands, and a deal begins with nothing in play",
            ),
            (
                "work.pending = []",
                "equivalent (read): nothing is pending when a bout or round is started: a "
                "stage (the check, which starts them) runs only when no obligation is pending, "
                "and a deal has none",
            ),
            (
                "work.stages = []",
                "equivalent (read): the check, the last stage, is taken off the list before it "
                "runs, so the list is empty when it starts the next bout or round; a deal has "
                "no stages",
            ),
            (
                "work.end_abs = ()",
                "equivalent (read): the exchanges stage, in the list whenever it is not empty, "
                "empties it before the check; under the other absolute_timing it is never set",
            ),
        )
    },
    (
        "omen_solver/omens/resolve.py",
        "_protected",
        "drop statement",
        "return False",
        "return False",
    ): (
        "equivalent (read): without 'return False' the function returns None, and its only "
        "caller (_discards) reads the result as a condition"
    ),
    (
        "omen_solver/omens/resolve.py",
        "_winning_card",
        "drop statement",
        "return ordered[0]",
        "return ordered[0]",
    ): (
        "equivalent (read): without this return the lone Sadness falls through to the last two "
        "statements, an explanation and the same 'return ordered[0]'"
    ),
}
"""Survivors shown equivalent by reading the code, where no syntactic rule applies: (file,
function, kind of mutation, what, the source line) and the reason. Keyed by the source, not
the mutant's number, so that a change elsewhere in the engine does not carry a reason to
another mutant. The two mutants 'Gt -> GtE' of Law's filter line are both equivalent, for
the two reasons (``c > value``: the value; ``direction > 0``: the sign)."""


def classify(mutant: Mutant) -> str | None:
    """Why a surviving mutant is equivalent, when the syntax shows it or a reading of the code
    recorded in :data:`READ_EQUIVALENT` does; None otherwise."""
    tree = ast.parse((ROOT / mutant.file).read_text(encoding="utf-8"))
    statements = [
        node for node in ast.walk(tree) if isinstance(node, ast.stmt) and node.lineno == mutant.line
    ]
    if not statements:
        return None
    statement = statements[0]
    function = _enclosing(tree, statement)
    line = (ROOT / mutant.file).read_text(encoding="utf-8").splitlines()[mutant.line - 1]
    key = (mutant.file, function.name if function else "", mutant.kind, mutant.what, line.strip())
    if key in READ_EQUIVALENT:
        return READ_EQUIVALENT[key]
    law_filter = ("omen_solver/omens/state.py", "_law_filter", "flip comparison", "Gt -> GtE")
    if key == (*law_filter, _LAW_FILTER_LINE):
        return f"{_LAW_VALUE} ('c > value'); {_LAW_SIGN} ('direction > 0')"
    if mutant.kind in ("flip comparison", "and/or", "drop not", "off by one") and function:
        why = _explanation_only(statement, _log_names(function), function)
        if why:
            return why
    if mutant.kind == "drop statement":
        call = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") in LOGGING:
            return "logging only: the statement writes an explanation"
        function = _enclosing(tree, statement)
        if function is not None and _logging_only(statement, _log_names(function)):
            return "logging only: the value is used only in an explanation"
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                uses = [
                    node
                    for node in ast.walk(tree)
                    if isinstance(node, ast.Name)
                    and node.id == target.id
                    and isinstance(node.ctx, ast.Load)
                ]
                function = _enclosing(tree, statement)
                calls = (
                    [
                        node
                        for node in ast.walk(function)
                        if isinstance(node, ast.Call)
                        and getattr(node.func, "id", getattr(node.func, "attr", "")) in LOGGING
                    ]
                    if function
                    else []
                )
                inside = {id(n) for c in calls for n in ast.walk(c)}
                if function and all(id(u) in inside for u in uses if _within(function, u)):
                    return "logging only: the value is used only in an explanation"
        return None
    if mutant.kind == "swap order":
        owner = _enclosing_block(tree, statement)
        function = _enclosing(tree, statement)
        if owner is None or function is None:
            return None
        block, index = owner
        if index + 1 >= len(block):
            return None
        first, second = statement, block[index + 1]
        log_names = _log_names(function)
        if _logging_only(first, log_names) or _logging_only(second, log_names):
            return "logging only: one of the two statements only writes an explanation"
        reads1, writes1 = _effects(first)
        reads2, writes2 = _effects(second)
        if not (_overlap(writes1, reads2 | writes2) or _overlap(writes2, reads1)):
            return "independent statements (neither reads what the other writes)"
        multiset = {"work.hands", "work.out"}
        if writes1 | writes2 <= multiset and not ((reads1 | reads2) & multiset):
            return "commuting updates of hands and the discard pile (sets of cards)"
    return None


def _explanation_only(
    statement: ast.stmt, log_names: set[str], function: ast.FunctionDef
) -> str | None:
    """Why a change inside ``statement`` (its condition, its value) can only change an
    explanation: the statement writes an explanation, or is a condition or loop whose every
    branch only does (a loop's variable read nowhere else in the function)."""
    if _logging_only(statement, log_names):
        return "logging only: the changed value is used only in an explanation"
    if isinstance(statement, ast.If | ast.For | ast.While) and _only_explains(
        [*statement.body, *statement.orelse], log_names, function
    ):
        return "logging only: the condition guards only explanations"
    return None


def _only_explains(block: list[ast.stmt], log_names: set[str], function: ast.FunctionDef) -> bool:
    def local_loop(loop: ast.For) -> bool:
        inside = {id(n) for n in ast.walk(loop)}
        names = _names_in(loop.target)
        return not any(
            isinstance(n, ast.Name) and n.id in names and id(n) not in inside
            for n in ast.walk(function)
        )

    return all(
        _logging_only(s, log_names)
        or (
            isinstance(s, ast.If | ast.For)
            and _only_explains([*s.body, *s.orelse], log_names, function)
            and (not isinstance(s, ast.For) or local_loop(s))
        )
        for s in block
    )


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _enclosing(tree: ast.AST, target: ast.AST) -> ast.FunctionDef | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and _within(node, target):
            inner = [
                n
                for n in ast.walk(node)
                if isinstance(n, ast.FunctionDef) and n is not node and _within(n, target)
            ]
            if not inner:
                return node
    return None


def _within(outer: ast.AST, target: ast.AST) -> bool:
    return any(node is target for node in ast.walk(outer))


def _enclosing_block(tree: ast.AST, target: ast.stmt) -> tuple[list[ast.stmt], int] | None:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is target for s in block):
                return block, [id(s) for s in block].index(id(target))
    return None


def table(results: list[dict[str, Any]]) -> str:
    """The kill table (markdown) and every survivor with its classification."""
    kinds: dict[str, dict[str, int]] = {}
    for row in results:
        counts = kinds.setdefault(
            row["kind"],
            dict.fromkeys(
                (
                    "mutants",
                    "differential",
                    "theorems",
                    "vectors",
                    "killed",
                    "equivalent",
                    "survived",
                ),
                0,
            ),
        )
        counts["mutants"] += 1
        # a mutation that gives back the same program is equivalent, not killed
        killed = {k: v for k, v in row["killed_by"].items() if k != "equivalent"}
        for name in ("differential", "theorems", "vectors"):
            counts[name] += name in killed
        if killed:
            counts["killed"] += 1
        elif row.get("equivalent") or "equivalent" in row["killed_by"]:
            counts["equivalent"] += 1
        else:
            counts["survived"] += 1
    total = {key: sum(k[key] for k in kinds.values()) for key in next(iter(kinds.values()))}
    lines = [
        "| mutation | mutants | killed by the differential | by the theorems | by the vectors "
        "| killed | equivalent | not killed |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, k in [*sorted(kinds.items()), ("all", total)]:
        lines.append(
            f"| {name} | {k['mutants']} | {k['differential']} | {k['theorems']} | "
            f"{k['vectors']} | {k['killed']} | {k['equivalent']} | {k['survived']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
