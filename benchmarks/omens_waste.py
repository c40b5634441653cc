"""Benchmark: how wide the exact search is against the proof it certifies, variant beside variant.

A solve of an Omens round (its value and every lead, as ``omen-solver solve`` answers by
default) searches many bout starts that its final proof does not need: moves of the proving
side that fail, answers the proof does not use, positions left open when the root is settled.
This benchmark counts, on seeded 4-player deals with 3 and 4 cards a hand (one Absolute each;
the seeds of ``benchmarks/omens_search.py``):

* the **distinct bout starts searched**: the states at the start of a bout (no card in play,
  nothing pending) that the solve's shared tables hold at the end (alpha-beta's and df-pn's;
  a table stores a state only once it has been expanded);
* the **bout starts in the proof**: those of the smallest proofs the same tables certify for
  what the solve answers, every lead won or lost (``benchmarks/proof_size.py``'s extractor,
  each proof checked against the rules' successors);
* their ratio, per number of cards still in the hands (the depth) and in all, beside the nodes,
  the seconds and the table entries of the solve; and, since a variant that certifies a
  smaller proof has a smaller denominator, the bout starts searched against the smallest proof
  any variant certified on the same deals (one denominator for every variant).

Each **variant** is a search of ``solve --search`` with settings of
:class:`~omen_solver.omens.kernel.params.Tuning` changed from the defaults
(``ALGORITHM[:setting=value,...]``, e.g. ``dfpn:model=false``), so that a change and the
search before it run side by side in one run, on the same deals, with node budgets: the node
counts and the widths repeat from run to run and between machines (the seconds do not).

``python benchmarks/omens_waste.py [--deals3 20] [--deals4 2] [--variants V1,V2,...]
[--nodes3 N] [--nodes4 N] [--threads N]`` prints one line per deal and variant, then a table per
size: the widths by depth, side by side. ``docs/benchmarks.md`` has the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from proof_size import check_proof, smallest_proof  # noqa: E402

from omen_solver.core.budget import Budget, deep_recursion  # noqa: E402
from omen_solver.core.search.result import Concept  # noqa: E402

SEED = 20261130
"""The seeds of ``benchmarks/omens_search.py``: deal ``i`` is ``random_deal(table, SEED + i)``."""

DEFAULT_VARIANTS = "portfolio,dfpn"


@dataclass(frozen=True)
class Variant:
    """A search of ``solve --search`` with settings changed from the defaults."""

    name: str
    algorithm: str
    settings: tuple[tuple[str, Any], ...] = ()

    def tuning(self) -> Any:
        from omen_solver.omens.kernel.params import Tuning

        return Tuning(**dict(self.settings))


def parse_settings(text: str) -> dict[str, Any]:
    """``name=value,...``: settings of :class:`~omen_solver.omens.kernel.params.Tuning`
    (``true``/``false`` in any case, or a whole number), checked as ``Tuning`` checks them; a
    ValueError names the item at fault."""
    from omen_solver.omens.kernel.params import Tuning

    kinds = {f.name: type(getattr(Tuning(), f.name)) for f in fields(Tuning)}
    settings: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, given = (part.strip() for part in item.partition("="))
        if not equals or not given:
            raise ValueError(f"{item!r}: write name=value")
        if name not in kinds:
            raise ValueError(f"{item!r}: {name!r} is not a setting ({', '.join(sorted(kinds))})")
        if kinds[name] is bool:
            if given.lower() not in ("true", "false"):
                raise ValueError(f"{item!r}: {name} is true or false")
            settings[name] = given.lower() == "true"
        else:
            try:
                settings[name] = int(given)
            except ValueError:
                raise ValueError(f"{item!r}: {name} is a whole number") from None
    Tuning(**settings)  # a setting out of range is refused here
    return settings


def parse_variant(text: str) -> Variant:
    """``ALGORITHM[:name=value,...]``: the search and :func:`parse_settings`' settings."""
    from omen_solver.omens.kernel.solve import ALGORITHMS

    algorithm, _, rest = text.partition(":")
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{text!r}: the search must be one of {', '.join(ALGORITHMS)}")
    try:
        settings = parse_settings(rest)
    except ValueError as error:
        raise ValueError(f"{text!r}: {error}") from None
    return Variant(text, algorithm, tuple(settings.items()))


# -- bout starts ---------------------------------------------------------------------------------


def _packed_bout_start(words: Sequence[int], players: int) -> int | None:
    """The cards in the hands if the compiled table's key (``_ckernel_machine.h``:
    ``pack_key``) is a bout start, else None."""
    head = words[0]
    if head & 3 != 1 or head >> 2 & 63:  # the phase of a bout, no seat has played
        return None
    counts = words[players + 1]
    if counts & 0xFFFF:  # cards in play, or something pending
        return None
    return sum(int(hand).bit_count() for hand in words[1:players + 1])


def _state_bout_start(key: Any) -> int | None:
    """The cards in the hands if the pure-Python kernel's key (``KState.key()``) is a bout
    start, else None (an exchange row's key is not)."""
    if len(key) != 13:
        return None
    phase, hands, front, played, _, _, pending = key[:7]
    if phase != 1 or front or played or pending:
        return None
    return sum(int(hand).bit_count() for hand in hands)


def searched_bout_starts(tables: Sequence[Any], players: int) -> Counter[int]:
    """The distinct bout starts the tables hold, by the cards still in the hands."""
    seen: set[Any] = set()
    counted: Counter[int] = Counter()
    for table in tables:
        if hasattr(table, "entries"):  # pure Python: KState keys
            keys: Any = table.entries.keys()
            of = _state_bout_start
        else:
            keys = table.keys()

            def of(key: Any) -> int | None:
                return _packed_bout_start(key, players)
        for key in keys:
            if key in seen:
                continue
            seen.add(key)
            cards = of(key)
            if cards is not None:
                counted[cards] += 1
    return counted


# -- one solve -----------------------------------------------------------------------------------


@dataclass
class Measured:
    """One variant's solve of one deal."""

    status: str
    value: str
    nodes: int
    seconds: float
    entries: int
    collections: int
    searched: Counter[int] = field(default_factory=Counter)
    cpu: float = 0.0
    """Processor seconds of the solve (this process's, every thread)."""
    proof: Counter[int] | None = None
    """Bout starts of the proof by cards in the hands (None: no proof extracted)."""
    proof_states: int = 0
    completed: int = 0
    """Leads whose proof the solve's tables no longer held whole (see :func:`_completed`)."""

    @property
    def ratio(self) -> float | None:
        if not self.proof:
            return None
        return sum(self.searched.values()) / max(sum(self.proof.values()), 1)


def solve_deal(state: Any, variant: Variant, nodes: int, threads: int, check: bool = True,
               max_memory: int | None = None) -> Measured:
    """Solve ``state`` (an engine state) with ``variant`` within ``nodes`` nodes, as
    ``omen-solver solve`` does (every lead), and measure its width."""
    from omen_solver.omens.kernel import compiled
    from omen_solver.omens.kernel import machine as m
    from omen_solver.omens.kernel.convert import from_engine
    from omen_solver.omens.kernel.solve import Factory, backend_name, solve_with_kernel
    from omen_solver.omens.kernel.view import KernelView

    kept: list[Factory] = []
    team = _leader_team(state)
    recording = compiled.AVAILABLE and backend_name() == "compiled"
    if recording:
        compiled.record_bout_starts(True)
    began = time.perf_counter()
    cpu = time.process_time()
    try:
        result = solve_with_kernel(state, Concept.MINIMAX, team, budget=Budget(max_nodes=nodes),
                                   algorithm=variant.algorithm, threads=threads,
                                   tuning=variant.tuning(), keep=kept, max_memory=max_memory)
    finally:
        seconds = time.perf_counter() - began
        cpu = time.process_time() - cpu
        seen = compiled.record_bout_starts(False) if recording else None
    factory = kept[0]
    machine = factory.machine
    if seen is not None:
        searched = Counter(seen)
    else:  # the pure-Python kernel: the bout starts its tables still hold
        searched = searched_bout_starts(factory.all_tables[0].all(), machine.spec.players)
    root = from_engine(machine.spec, state)
    search = factory.made[0]
    if (root.phase == m.BOUT and not root.front and not root.played and not root.pending
            and (seen is not None or not _held(search, root))):
        # the root's own bout start: searched (its moves are), and in every proof
        searched[sum(hand.bit_count() for hand in root.hands)] += 1
    measured = Measured(
        result.status.value, str(result.value), result.nodes, seconds,
        int(result.extra.get("table_entries", 0)), int(result.extra.get("table_collections", 0)),
        searched, cpu=cpu)
    if result.value not in (0, 1):
        return measured
    view = KernelView(machine, root)
    maximising = list(factory.side)

    def proves(kstate: Any, wanted: int) -> bool:
        found = search.entry(kstate)
        if found is None:
            return False
        return bool(found[0] >= 1) if wanted == 1 else bool(found[1] <= 0)

    # what the solve certifies: every lead's proof of its value (won or lost), and the root
    keys: set[Any] = {root.key()}
    for move in result.moves or ():
        if move.same_as is not None or move.value not in (0, 1):
            continue
        child = machine.child(root, view.string_to_action(move.action))
        with deep_recursion():
            proof = smallest_proof(machine, maximising, child, int(move.value), proves)
            if proof is None:
                # the solve's tables dropped part of it (full tables replace what cost
                # least): the proof of a search of that lead alone with room for everything
                proof = _completed(machine, maximising, child, int(move.value))
                measured.completed += 1
            if proof is None:
                return measured
            if check:
                check_proof(machine, maximising, child, int(move.value), proof)
        keys.update(proof.children)
    counted: Counter[int] = Counter()
    for key in keys:
        if key[0] == m.BOUT and not key[2] and not key[3] and not key[6]:
            counted[sum(int(hand).bit_count() for hand in key[1])] += 1
    measured.proof = counted
    measured.proof_states = len(keys)
    return measured


COMPLETION_ENTRIES = 2**24
"""Entries of each table of a search that completes a proof the solve's tables dropped."""


def _completed(machine: Any, maximising: list[bool], state: Any, value: int) -> Any:
    """The smallest proof that ``state`` is worth ``value`` found by df-pn (compiled, its
    tables never full) on that position alone, or None. The completion searches without
    playouts, as it did before they were a default, so that its proofs (the ratio's
    denominator) stay those of the figures measured before (with the playouts of the long
    turns it finds other, often smaller, proofs: 4-card deal 0's hold 1,887 bout starts
    against 3,608)."""
    from proof_size import table_proves

    from omen_solver.omens.kernel.params import SearchParams, Tuning
    from omen_solver.omens.kernel.solve import make_search

    params = SearchParams(constant_sum=True, table_limit=COMPLETION_ENTRIES,
                          tuning=Tuning(playouts=0))
    search = make_search(machine, maximising, params, algorithm="dfpn")
    found = search.search(state, 0, 1)
    if found != value:
        raise AssertionError(f"the completion found {found}, the solve {value}")
    return smallest_proof(machine, maximising, state, value, table_proves(search))


def _held(search: Any, state: Any) -> bool:
    """Whether one of the tables of the root's search holds ``state``."""
    if search.entry(state) is not None:
        return True
    proofs = getattr(search, "proofs", {})
    return any(proof.numbers(state) is not None for proof in proofs.values())


def _leader_team(state: Any) -> int:
    seat = state.current_player()
    return next(i for i, seats in enumerate(state.teams()) if seat in seats)


def deal_states(count: int, cards: int, players: int = 4) -> list[Any]:
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules("rulebook"))
    return [deal_position(table, random_deal(table, SEED + index, cards=cards))
            for index in range(count)]


def bout_states(count: int, bout: int = 3, players: int = 4) -> list[Any]:
    """The starts of bout ``bout`` of real deals (5 cards a hand), the bouts before played at
    random, seeded: the positions of ``benchmarks/omens_targets.py``'s row from bout 3."""
    import random

    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.playout import play_forward
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules("rulebook"))
    states = []
    for index in range(count):
        state = deal_position(table, random_deal(table, SEED + index))
        rng = random.Random(SEED + index)
        states.append(next(reached.start for reached in play_forward(state, rng)
                           if reached.bouts == bout - 1))
    return states


# -- the report ----------------------------------------------------------------------------------


def _ratio(searched: int, proof: int) -> str:
    return f"{searched / proof:,.1f}x" if proof else "-"


def report(title: str, variants: Sequence[Variant],
           runs: dict[str, list[Measured]]) -> list[str]:
    """A table per size: the widths by depth over the deals every variant proved, and the
    totals, variant beside variant."""
    lines = [f"### {title}", ""]
    count = len(next(iter(runs.values()))) if runs else 0
    proved = [i for i in range(count) if all(runs[v.name][i].proof for v in variants)]
    # a variant that certifies a smaller proof has a smaller denominator: the width is also
    # given against the smallest proof any variant certified on each deal, the same for all
    smallest = {i: min(sum((runs[v.name][i].proof or Counter()).values()) for v in variants)
                for i in proved}
    lines.append(
        "| variant | solved | median nodes | nodes in all | median s | median cpu s | "
        "bout starts searched | in the proof | ratio (all) | median ratio | worst ratio | "
        "ratio against the smallest proof |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for variant in variants:
        mine = runs[variant.name]
        solved = sum(1 for m in mine if m.status == "solved")
        both = [mine[i] for i in proved]
        searched = sum(sum(m.searched.values()) for m in both)
        held = sum(sum((m.proof or Counter()).values()) for m in both)
        ratios = [m.ratio for m in both if m.ratio is not None]
        lines.append(
            f"| {variant.name} | {solved}/{len(mine)} | "
            f"{statistics.median(m.nodes for m in mine):,.0f} | {sum(m.nodes for m in mine):,} | "
            f"{statistics.median(m.seconds for m in mine):.2f} | "
            f"{statistics.median(m.cpu for m in mine):.2f} | {searched:,} | {held:,} | "
            f"{_ratio(searched, held)} | "
            f"{statistics.median(ratios) if ratios else 0:,.1f}x | "
            f"{max(ratios) if ratios else 0:,.1f}x | "
            f"{_ratio(searched, sum(smallest.values()))} |")
    lines.append("")
    if proved:
        lines.append(f"The smallest proofs of the {len(proved)} deals every variant proved hold "
                     f"{sum(smallest.values()):,} bout starts in all.")
        lines.append("")
    depths = sorted({d for v in variants for i in proved
                     for d in runs[v.name][i].searched}, reverse=True)
    if proved and depths:
        lines.append(f"By cards still in the hands (the {len(proved)} deals every variant "
                     "proved): bout starts searched / in the proof.")
        lines.append("")
        lines.append("| cards | " + " | ".join(v.name for v in variants) + " |")
        lines.append("|---|" + "---|" * len(variants))
        for depth in depths:
            cells = []
            for variant in variants:
                searched = sum(runs[variant.name][i].searched[depth] for i in proved)
                held = sum((runs[variant.name][i].proof or Counter())[depth] for i in proved)
                cells.append(f"{searched:,} / {held:,} ({_ratio(searched, held)})")
            lines.append(f"| {depth} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--deals3", type=int, default=20, help="3-card deals")
    parser.add_argument("--deals4", type=int, default=2, help="4-card deals")
    parser.add_argument("--first4", type=int, default=0,
                        help="the first 4-card deal (and bout-3 deal)")
    parser.add_argument("--bout3", type=int, default=0,
                        help="real 5-card deals from the start of bout 3")
    parser.add_argument("--nodes3", type=int, default=5_000_000, help="node budget, 3 cards")
    parser.add_argument("--nodes4", type=int, default=60_000_000, help="node budget, 4 cards")
    parser.add_argument("--variants", default=DEFAULT_VARIANTS,
                        help="comma-separated ALGORITHM[:setting=value ...], settings by ';'")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--no-check", action="store_true", help="do not check the proofs")
    parser.add_argument("--max-memory", default="2G",
                        help="each solve's memory budget (solve --max-memory)")
    args = parser.parse_args(argv)
    try:
        variants = [parse_variant(text.replace(";", ",")) for text in args.variants.split(",")
                    if text]
    except ValueError as error:
        parser.error(f"--variants: {error}")
    from omen_solver.omens.kernel.tables import parse_memory

    memory = parse_memory(args.max_memory)
    load = os.getloadavg()[0]
    print(f"seeded 4-player deals; {args.deals3} with 3 cards ({args.nodes3:,} nodes each), "
          f"{args.deals4} with 4 cards ({args.nodes4:,} nodes each); {args.threads} thread(s)",
          flush=True)
    out: list[str] = []
    disagreements = 0
    sets: list[tuple[str, int, int, int]] = [("3 cards", args.deals3, 0, args.nodes3),
                                             ("4 cards", args.deals4, args.first4, args.nodes4),
                                             ("bout 3", args.bout3, args.first4, args.nodes4)]
    for name, count, first, nodes in sets:
        if not count:
            continue
        runs: dict[str, list[Measured]] = {v.name: [] for v in variants}
        if name == "bout 3":
            states = bout_states(first + count)[first:]
        else:
            states = deal_states(first + count, int(name[0]))[first:]
        for index, state in enumerate(states, start=first):
            values = set()
            for variant in variants:
                measured = solve_deal(state, variant, nodes, args.threads, not args.no_check,
                                      memory)
                runs[variant.name].append(measured)
                if measured.status == "solved":
                    values.add(measured.value)
                searched = sum(measured.searched.values())
                held = sum((measured.proof or Counter()).values())
                print(f"{name}, deal {index:3}: {variant.name:>28} {measured.status:>7} "
                      f"{measured.value:>5} {measured.nodes:>12,} nodes {measured.seconds:7.2f} s "
                      f"({measured.cpu:.2f} cpu) "
                      f"{measured.entries:>11,} entries; bout starts {searched:>9,} / "
                      f"{held:>6,} ({_ratio(searched, held)})"
                      + (f"; {measured.completed} proof(s) completed" if measured.completed
                         else ""), flush=True)
            disagreements += len(values) > 1
        title = (f"from bout 3 of {count} real deals" if name == "bout 3"
                 else f"{name} a hand, {count} deals")
        out += report(title, variants, runs)
    print(f"load average (1 min) at the start {load:.1f}, at the end {os.getloadavg()[0]:.1f}, "
          f"on {os.cpu_count()} cores")
    print("\n".join(out))
    if disagreements:
        print(f"DISAGREEMENT on {disagreements} deals", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
