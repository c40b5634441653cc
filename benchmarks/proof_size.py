"""Benchmark: how many nodes a search visits against the size of the proof it found.

A round whose value is 0 or 1 has a proof: a sub-graph of the game in which the side that wins
for sure makes one choice at each of its decisions and every choice of the others is answered.
After a search has solved a position, :func:`smallest_proof` builds the smallest proof its
tables can certify: from the root, at a node where the winning side chooses (an OR node) one
child the tables prove, at a node of the other side (an AND node) every child; at The
Absolute's secret exchange between two teams, one card of the winning side answered by every
card of the other (a row of the matrix that wins whatever is given); at Luck's random discard,
every outcome. Among the children the tables prove it keeps the one whose proof tree is
smallest (a tree measure: the graph's own minimum is a harder problem) and counts the distinct
states of the graph so chosen, leaves included. The extraction proves what it keeps: a node
enters the proof only with its whole sub-proof, down to leaves the rules score, so a table
entry is only a hint of where to look.

The ratio *nodes searched / proof size* says how much of the search was spent away from the
proof: 1 for a search that only ever looked at the proof (the proof's nodes must all be
visited by any search that proves the value), more for one that explores moves that do not
win or refutations that are not needed.

``python benchmarks/proof_size.py [--deals 30] [--nodes 3000000] [--searches ...] [--profile
SEARCH]`` runs the searches on seeded 4-player deals with 3 cards a hand (one Absolute each, as
in ``benchmarks/omens_search.py``), side by side, and prints one line per deal and the median
and worst ratio of each search on the deals every search solved, with the distinct states each
held; ``--profile`` says where the nodes of a df-pn search go (:func:`profile`). Node budgets,
not seconds, so the figures repeat from run to run; ``docs/benchmarks.md`` ("Proof size") has
the figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from omen_solver.core.budget import Budget, deep_recursion
from omen_solver.core.walk import Step, drive
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.search import skip_shows

__all__ = ["Proof", "check_proof", "smallest_proof", "table_proves"]

SEED = 20261130
"""The seeds of ``benchmarks/omens_search.py``: deal ``i`` is ``random_deal(table, SEED + i)``."""

Key = tuple[object, ...]
Proves = Callable[[KState, int], bool]
"""Whether a search's tables prove that ``state`` is worth ``value`` (0 or 1)."""


# -- what a solved search's tables prove ----------------------------------------------------------


def table_proves(search: Any) -> Proves:
    """What the tables of a solved kernel search prove: alpha-beta's proven bounds (a lower
    bound of 1, an upper bound of 0), df-pn's proof numbers of 0 for its question (a disproof
    says only "not that value"), and both for the searches by turns."""
    from omen_solver.omens.kernel.portfolio import Portfolio

    if isinstance(search, Portfolio | Questions):
        parts = [table_proves(search.alpha_beta)] if isinstance(search, Portfolio) else []
        parts += [table_proves(proof) for proof in search.proofs.values()]
        return lambda state, value: any(part(state, value) for part in parts)
    if hasattr(search, "numbers"):
        target = search.target

        def proved(state: KState, value: int) -> bool:
            found = search.numbers(state)
            return value == target and found is not None and found[0] == 0

        return proved

    def bounded(state: KState, value: int) -> bool:
        found = search.entry(state)
        if found is None:
            return False
        return bool(found[0] >= 1) if value == 1 else bool(found[1] <= 0)

    return bounded


# -- the proof ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Proof:
    """A proof graph: per state (key), the children its proof keeps."""

    root: Key
    children: dict[Key, tuple[Key, ...]]
    tree: int
    """The size of the proof as a tree (a state counted once per path to it): the measure the
    extractor minimises."""

    @property
    def size(self) -> int:
        """Distinct states of the proof, leaves included."""
        return len(self.children)

    @property
    def leaves(self) -> int:
        return sum(1 for kept in self.children.values() if not kept)


class _Extractor:
    def __init__(self, machine: Machine, maximising: Sequence[bool], value: int,
                 proves: Proves) -> None:
        self.machine = machine
        self.value = value
        self.winning = [flag == (value == 1) for flag in maximising]
        """The seats whose choices the proof makes."""
        self.maximising = list(maximising)
        self.proves = proves
        self.memo: dict[Key, tuple[int, tuple[KState, ...]] | None] = {}
        self.path: set[Key] = set()

    def leaf_value(self, state: KState) -> int:
        return 1 if state.winner >= 0 and self.maximising[state.winner] else 0

    def distinct(self, states: Sequence[KState]) -> list[KState]:
        seen: set[Key] = set()
        out = []
        for state in states:
            state = skip_shows(self.machine, state)
            key = state.key()
            if key not in seen:
                seen.add(key)
                out.append(state)
        return out

    def alternatives(self, state: KState) -> list[list[KState]]:
        """The ways to prove ``state``: one alternative must be proved whole."""
        machine = self.machine
        player = machine.current_player(state)
        if player >= 0:
            kids = self.distinct([machine.child(state, a) for a in machine.legal(state)])
            return [[kid] for kid in kids] if self.winning[player] else [kids]
        if player == m.CHANCE:
            return [self.distinct([machine.child(state, o)
                                   for o in machine.chance_outcomes(state)])]
        first, second = machine.acting_players(state)
        mine, theirs = machine.legal(state, first), machine.legal(state, second)
        if self.winning[first] == self.winning[second]:
            kids = self.distinct([machine.joint_child(state, (a, b))
                                  for a in mine for b in theirs])
            return [[kid] for kid in kids] if self.winning[first] else [kids]
        if self.winning[first]:
            return [self.distinct([machine.joint_child(state, (a, b)) for b in theirs])
                    for a in mine]
        return [self.distinct([machine.joint_child(state, (a, b)) for a in mine])
                for b in theirs]

    def hinted(self, state: KState) -> bool:
        if state.phase == m.OVER:
            return self.leaf_value(state) == self.value
        return self.proves(state, self.value)

    def tree(self, state: KState) -> tuple[int, tuple[KState, ...]] | None:
        """The smallest proof tree of ``state`` the tables lead to (its size, the children
        kept), or None."""
        return drive(self._tree(state))

    def _tree(self, state: KState) -> Step[tuple[int, tuple[KState, ...]] | None]:
        """:meth:`tree` as a node of a walk (``omen_solver.core.walk``): no recursion, so a
        proof deeper than Python's frames allow is extracted all the same."""
        key = state.key()
        if key in self.memo:
            return self.memo[key]
        if state.phase == m.OVER:
            found: tuple[int, tuple[KState, ...]] | None = (
                (1, ()) if self.leaf_value(state) == self.value else None
            )
            self.memo[key] = found
            return found
        if key in self.path:
            return None
        self.path.add(key)
        found = None
        options = self.alternatives(state)
        for option in options:
            if len(options) > 1 and not all(self.hinted(kid) for kid in option):
                continue
            total = 1
            for kid in option:
                sub = yield self._tree(kid)
                if sub is None:
                    break
                total += sub[0]
            else:
                if found is None or total < found[0]:
                    found = (total, tuple(option))
        self.path.discard(key)
        self.memo[key] = found
        return found

    def graph(self, root: KState) -> Proof | None:
        """The proof graph of the smallest tree; at a choice of the winning side, a child the
        graph already holds is kept rather than the smallest tree's (it costs no new
        state)."""
        top = self.tree(root)
        if top is None:
            return None
        children: dict[Key, tuple[Key, ...]] = {}
        stack = [root]
        while stack:
            state = stack.pop()
            key = state.key()
            if key in children:
                continue
            found = self.memo[key]
            assert found is not None
            kept = found[1]
            if len(kept) == 1 and kept[0].key() not in children:
                for option in self.alternatives(state):
                    other = self.memo.get(option[0].key()) if len(option) == 1 else None
                    # a smaller tree: not an ancestor, so no cycle
                    if other is not None and option[0].key() in children and other[0] < found[0]:
                        kept = (option[0],)
                        break
            children[key] = tuple(kid.key() for kid in kept)
            stack.extend(kept)
        return Proof(root.key(), children, top[0])


def smallest_proof(machine: Machine, maximising: Sequence[bool], root: KState, value: int,
                   proves: Proves) -> Proof | None:
    """The smallest proof that ``root`` is worth ``value`` (0 or 1) for the ``maximising``
    seats that the tables (``proves``) lead to, or None if they hold none."""
    return _Extractor(machine, maximising, value, proves).graph(skip_shows(machine, root))


def check_proof(machine: Machine, maximising: Sequence[bool], root: KState, value: int,
                proof: Proof) -> None:
    """Raise :class:`AssertionError` unless ``proof`` proves that ``root`` is worth ``value``:
    every leaf a round won by the right side, one kept child at an OR node, every child at an
    AND node, one whole row of an exchange between the teams, every outcome of chance."""
    extractor = _Extractor(machine, maximising, value, lambda state, value: False)
    start = skip_shows(machine, root)
    assert proof.root == start.key()
    stack, seen = [start], set()
    while stack:
        state = stack.pop()
        key = state.key()
        if key in seen:
            continue
        seen.add(key)
        kept = proof.children[key]
        if state.phase == m.OVER:
            assert not kept and extractor.leaf_value(state) == value, key
            continue
        by_key = {}
        for option in extractor.alternatives(state):
            keys = tuple(kid.key() for kid in option)
            if set(keys) == set(kept) and len(keys) == len(kept):
                by_key = {kid.key(): kid for kid in option}
                break
        assert by_key, f"{key}: the children kept are not one way to prove it"
        stack.extend(by_key.values())
    assert seen == set(proof.children), "the proof holds states it does not reach"


# -- the benchmark -----------------------------------------------------------------------------


@dataclass
class Run:
    """One search on one deal."""

    value: object
    nodes: int
    seconds: float
    proof: int | None
    states: int = 0
    """Distinct states the search's tables hold at the end (its re-visits not counted)."""

    @property
    def ratio(self) -> float | None:
        return None if not self.proof else self.nodes / self.proof


ALGORITHMS = ("portfolio", "alphabeta", "dfpn", "questions")
"""The searches of ``solve --search``, and ``questions``: df-pn's two questions ("value 1?",
"value 0?") by turns of doubling nodes (:class:`Questions`), measured here only."""

QUESTIONS_TURN = 10_000
"""Nodes of each question's first turn in :class:`Questions`."""


class Questions:
    """df-pn's questions "value 1?" and "value 0?" by turns, each keeping its table, the
    turns doubling from :data:`QUESTIONS_TURN` nodes: the question whose answer is cheaper is
    not kept waiting for the other's (``solve --search dfpn`` asks "value 1?" to the end
    first). A proof settles the value; a disproof of "value 1?" through decisions only
    settles 0; a disproof of both: a fraction, which this does not compute (None)."""

    def __init__(self, machine: Machine, maximising: Sequence[bool], params: Any,
                 pure_python: bool) -> None:
        from omen_solver.omens.kernel.dfpn import link_questions
        from omen_solver.omens.kernel.solve import make_dfpn

        self.proofs = {target: make_dfpn(machine, maximising, target, params,
                                         pure_python=pure_python) for target in (1, 0)}
        if params.tuning.hint:
            link_questions(self.proofs)
        self.limit = params.budget.max_nodes
        self.nodes = 0

    @property
    def states(self) -> int:
        return sum(proof.states for proof in self.proofs.values())

    def search(self, root: KState, alpha: object, beta: object) -> object:
        from omen_solver.omens.kernel.dfpn import settled_by

        open_questions = [1, 0]
        turn = QUESTIONS_TURN
        while open_questions:
            for question in list(open_questions):
                proof = self.proofs[question]
                proof.nodes = self.nodes
                limit = self.nodes + turn
                proof.limit_nodes(limit if self.limit is None else min(limit, self.limit))
                try:
                    proved = proof.prove(root)
                except BudgetExceeded:
                    self.nodes = proof.nodes
                    if self.limit is not None and self.nodes >= self.limit:
                        raise
                    continue
                self.nodes = proof.nodes
                settled = settled_by(question, proved, proof)
                if settled is not None:
                    return settled
                open_questions.remove(question)
            turn *= 2
        return None


def parse_search(text: str) -> tuple[str, Any]:
    """``ALGORITHM[+SETTING...]``: a search of ``solve --search`` with the settings of
    :class:`~omen_solver.omens.kernel.params.Tuning` named on (``mobility``; ``distance=3``
    for a number), the others off (the search as it was before them); ``ALGORITHM+defaults``
    for the kernel's defaults."""
    from dataclasses import fields

    from omen_solver.omens.kernel.params import Tuning

    algorithm, *settings = text.split("+")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{text!r}: the search must be one of {', '.join(ALGORITHMS)}")
    if settings == ["defaults"]:
        return algorithm, Tuning()
    off = Tuning.off()
    chosen = {f.name: getattr(off, f.name) for f in fields(Tuning)}
    for setting in settings:
        name, _, number = setting.partition("=")
        if name not in chosen:
            raise ValueError(f"{text!r}: {name!r} is not a setting ({', '.join(sorted(chosen))})")
        chosen[name] = int(number) if isinstance(chosen[name], int) and not isinstance(
            chosen[name], bool) else True
    return algorithm, Tuning(**chosen)


def run_search(machine: Machine, maximising: Sequence[bool], root: KState, search: str,
               nodes: int, pure_python: bool = False) -> Run:
    """Solve ``root`` with one kernel search (:func:`parse_search`) within ``nodes`` nodes
    and extract its proof."""
    from omen_solver.omens.kernel.params import SearchParams
    from omen_solver.omens.kernel.solve import make_search

    algorithm, tuning = parse_search(search)
    params = SearchParams(constant_sum=len(machine.spec.teams) == 2,
                          budget=Budget(max_nodes=nodes), tuning=tuning)
    made: Any
    if algorithm == "questions":
        made = Questions(machine, maximising, params, pure_python)
    else:
        made = make_search(machine, maximising, params, pure_python=pure_python,
                           algorithm=algorithm)
    began = time.perf_counter()
    try:
        with deep_recursion():
            value: object = made.search(root, 0, 1)
    except BudgetExceeded:
        return Run("unknown", made.nodes, time.perf_counter() - began, None, made.states)
    seconds = time.perf_counter() - began
    if value not in (0, 1):
        return Run(value, made.nodes, seconds, None, made.states)
    proof = smallest_proof(machine, maximising, root, 1 if value == 1 else 0, table_proves(made))
    return Run(value, made.nodes, seconds, None if proof is None else proof.size, made.states)


def deals(count: int, players: int = 4, cards: int = 3, preset: str = "rulebook",
          seed: int = SEED) -> list[tuple[Machine, list[bool], KState]]:
    """The seeded deals: each as its machine, the leader's team (asked) and the start."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.kernel.convert import from_engine
    from omen_solver.omens.kernel.spec import compile_table
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules(preset))
    out = []
    for index in range(count):
        state = deal_position(table, random_deal(table, seed + index, cards=cards))
        spec = compile_table(state.table, state.teams())
        start = from_engine(spec, state)
        maximising = [spec.team_of[seat] == spec.team_of[start.leader]
                      for seat in range(players)]
        out.append((Machine(spec), maximising, start))
    return out


PROFILE_PARTS = (
    "in the proof",
    "proved, outside the proof",
    "disproved",
    "left open",
    "exchange rows",
    "the question 'value 1?', disproved",
)
"""Where a df-pn search's nodes go (:func:`profile`)."""


def profile(machine: Machine, maximising: Sequence[bool], root: KState, search: str,
            nodes: int) -> dict[str, tuple[int, int]] | None:
    """Where the nodes of a df-pn search (``dfpn+SETTING...``, run in the pure-Python kernel,
    which visits the compiled one's nodes) go, as :data:`PROFILE_PARTS` with the nodes
    searched and the distinct states of each: the states of the proof extracted afterwards;
    the others by what the table says of them at the end (proved for the question, but
    another proof kept; disproved: a choice of the proving side that fails, or an answer of
    the other side that the proof does not need; neither); the exchange's rows (one card of
    the proving side fixed); and, for a round worth 0, the whole first question. None if the
    search does not settle the value with a proof within ``nodes`` nodes."""
    from collections import Counter

    from omen_solver.omens.kernel.dfpn import DfpnSearch, settled_by
    from omen_solver.omens.kernel.params import SearchParams

    algorithm, tuning = parse_search(search)
    if algorithm != "dfpn":
        raise ValueError(f"{search!r}: only df-pn is profiled")

    class Counting(DfpnSearch):
        visits: Counter[Key]

        def _mid(self, node: Any, th_pn: int, th_dn: int, depth: int) -> None:
            self.visits[node[0]] += 1
            super()._mid(node, th_pn, th_dn, depth)

    parts = {part: (0, 0) for part in PROFILE_PARTS}
    spent = 0
    for question in (1, 0):
        params = SearchParams(constant_sum=len(machine.spec.teams) == 2,
                              budget=Budget(max_nodes=nodes - spent), tuning=tuning)
        prover = Counting(machine, maximising, question, params)
        prover.visits = Counter()
        try:
            with deep_recursion():
                proved = prover.prove(root)
        except BudgetExceeded:
            return None
        if proved:
            break
        if settled_by(question, proved, prover) is not None:
            return None  # a disproof of "value 1?": no proof of 0 in its table
        parts[PROFILE_PARTS[-1]] = (prover.nodes, prover.states)
        spent = prover.nodes
    else:
        return None
    proof = smallest_proof(machine, maximising, root, question, table_proves(prover))
    if proof is None:
        return None
    counted: dict[str, Counter[str]] = {"nodes": Counter(), "states": Counter()}
    for key, visits in prover.visits.items():
        if len(key) == 3 and key[1] == "row":
            part = "exchange rows"
        elif key in proof.children:
            part = "in the proof"
        else:
            found = prover.table.get(key)
            part = ("left open" if found is None or 0 not in found
                    else "proved, outside the proof" if found[0] == 0 else "disproved")
        counted["nodes"][part] += visits
        counted["states"][part] += 1
    for part in PROFILE_PARTS[:-1]:
        parts[part] = (counted["nodes"][part], counted["states"][part])
    return parts


def summary(ratios: Sequence[float]) -> str:
    if not ratios:
        return "no deal"
    return f"median {statistics.median(ratios):,.1f}x, worst {max(ratios):,.1f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--cards", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=(4, 5))
    parser.add_argument("--nodes", type=int, default=3_000_000, help="node budget per search")
    parser.add_argument("--searches", default="portfolio,alphabeta,dfpn",
                        help="comma-separated ALGORITHM[+SETTING...] (see parse_search)")
    parser.add_argument("--pure-python", action="store_true")
    parser.add_argument("--profile", metavar="SEARCH",
                        help="also say where the nodes of this df-pn search go (pure Python, "
                        "on the deals it solves within --profile-nodes)")
    parser.add_argument("--profile-nodes", type=int, default=300_000)
    args = parser.parse_args(argv)
    if args.profile:
        try:
            if parse_search(args.profile)[0] != "dfpn":
                parser.error("--profile: a df-pn search (dfpn[+SETTING...])")
        except ValueError as error:
            parser.error(f"--profile: {error}")
    names = [name for name in args.searches.split(",") if name]
    for name in names:
        try:
            parse_search(name)
        except ValueError as error:
            parser.error(f"--searches: {error}")
    print(f"{args.deals} seeded deals, {args.players} players, {args.cards} cards a hand, "
          f"{args.nodes:,} nodes per search")
    results: dict[str, list[Run]] = {name: [] for name in names}
    disagreements = profiled = 0
    spent: dict[str, int] = dict.fromkeys(PROFILE_PARTS, 0)
    held: dict[str, int] = dict.fromkeys(PROFILE_PARTS, 0)
    for index, (machine, maximising, root) in enumerate(deals(args.deals, args.players,
                                                              args.cards)):
        values = set()
        print(f"deal {index:3}:", flush=True)
        for name in names:
            run = run_search(machine, maximising, root, name, args.nodes, args.pure_python)
            results[name].append(run)
            if run.value != "unknown":
                values.add(str(run.value))
            ratio = "-" if run.ratio is None else f"{run.ratio:,.1f}x"
            print(f"    {name:>24} {run.value!s:>7} {run.nodes:>10,} nodes {run.states:>10,} states"
                  f" {run.seconds:6.2f} s  proof {run.proof or '-':>7}  {ratio:>9}", flush=True)
        disagreements += len(values) > 1
        if args.profile:
            found = profile(machine, maximising, root, args.profile, args.profile_nodes)
            if found is not None:
                profiled += 1
                for part, (visits, states) in found.items():
                    spent[part] += visits
                    held[part] += states
    solved = [i for i in range(args.deals) if all(results[n][i].ratio for n in names)]
    print(f"on the {len(solved)} deals every search solved with a proof "
          "(against its own proof; against the smallest proof of the run):")
    for name in names:
        runs = [results[name][i] for i in solved]
        smallest = [min(results[n][i].proof or 0 for n in names) for i in solved]
        own = [run.ratio or 0.0 for run in runs]
        best = [run.nodes / size for run, size in zip(runs, smallest, strict=True)]
        count = sum(1 for r in results[name] if r.value != "unknown")
        nodes = statistics.median([run.nodes for run in runs]) if runs else 0
        seconds = statistics.median([run.seconds for run in runs]) if runs else 0
        revisits = [run.nodes / max(run.states, 1) for run in runs]
        outside = [run.states / (run.proof or 1) for run in runs]
        print(f"  {name:>24}: solved {count}/{args.deals}; median {nodes:,.0f} nodes, "
              f"{seconds:.2f} s; nodes / own proof {summary(own)}; "
              f"nodes / smallest proof {summary(best)}; where the nodes go: nodes / states "
              f"{summary(revisits)}, states / own proof {summary(outside)}")
    if args.profile:
        total = sum(spent.values()) or 1
        print(f"where the nodes of {args.profile} go, over the {profiled} deals it solved within "
              f"{args.profile_nodes:,} nodes (nodes, distinct states):")
        for part in PROFILE_PARTS:
            print(f"  {part:>36}: {spent[part]:>10,} nodes ({100 * spent[part] / total:4.1f} %), "
                  f"{held[part]:>9,} states")
    if disagreements:
        print(f"DISAGREEMENT on {disagreements} deals", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
