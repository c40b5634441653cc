"""A seed for df-pn fitted offline: does a bout start's attacker win for sure?

df-pn's numbers at a bout start not searched yet come from its mobility, its distance and
``Tuning.playouts`` random playouts (``docs/kernel.md``, "Proof-number search"). This script
asks whether a small model fitted on bout starts the kernel has solved tells positions apart
as well as the playouts do, for less work a node:

1. **Data.** Seeded 4-player deals of ``--cards`` cards (deal ``i`` from ``--first`` on,
   seed :data:`SEED` + i, not the targets' ``20261130 + i``) are played forward at random
   (``omens/playout.py``) several times each; every bout start met after the first bout is
   solved exactly by df-pn (``solve.dfpn_value``, compiled, ``--nodes`` nodes at most; the
   unsettled ones are left out). Each bout start gives two rows, one a question: the side
   that proves ("value 1?": the maximising team, "value 0?": the others) and whether it wins
   for sure.
2. **Features** (``omen_solver/omens/kernel/seed_model.py``: ``FEATURES``): what the kernel
   reads off a bout start's hands (bit sets of ranks) in a few instructions: the nearest
   player's distance to holding one card on each side, the cards and near players each side
   has, who holds the highest card in hand and whether a nearest player does, who leads, the
   Absolutes, Mirror and Sadness each side holds.
3. **Fit**: a logistic regression by Newton's method (numpy), on a train/test split by deal
   (the last quarter tests). The test set's accuracy and log-loss are printed beside those of
   the playouts' own estimate, ``(wins + 1) / 10`` of P = 8 playouts (the win fraction their
   seed stands for with ``playout_prior`` 1), the playouts refitted as the one feature of a
   regression, and the distance terms alone. ``--write`` prints the coefficients for
   ``omens/data/seed_model.toml`` and ``_ckernel.c``'s ``SEED_MODEL`` (``Tuning.seed_model``).

``docs/benchmarks.md``, "A seed fitted offline", has the figures and what the model did in
the search. The shipped model: ``python benchmarks/fit_seed.py --deals 1600 --out data.jsonl``
(about 25 minutes on one core; ``--data data.jsonl`` fits again from the rows written).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

SEED = 7_000_000
"""Deal ``i`` of the data set is ``random_deal(table, SEED + i)``: not a targets' deal."""

ROW_KEYS = frozenset({"deal", "hands", "side", "leader", "proved", "playouts"})
"""What :func:`report` reads of a data set's row (``--data``)."""

def bout_starts(players: int, cards: int, seed: int, walks: int) -> list[Any]:
    """The distinct bout starts after the first bout of ``walks`` random plays of deal
    ``seed``."""
    from omen_solver.omens.deals import deal_position, random_deal
    from omen_solver.omens.playout import play_forward
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    table = Table(players, make_rules("rulebook"))
    state = deal_position(table, random_deal(table, seed, cards=cards))
    seen: dict[str, Any] = {}
    for walk in range(walks):
        rng = random.Random(seed * 64 + walk)
        for reached in play_forward(state, rng):
            if reached.bouts >= 1 and not reached.moves:
                seen.setdefault(reached.start.to_text(), reached.start)
    return list(seen.values())


def build(deals: int, cards: list[int], walks: int, nodes: int, first: int) -> list[dict[str, Any]]:
    """The data set's rows: each bout start solved, with what :func:`features` and the
    playouts need."""
    from omen_solver.core.budget import Budget, BudgetExceeded
    from omen_solver.omens.kernel.convert import from_engine
    from omen_solver.omens.kernel.dfpn import DfpnSearch
    from omen_solver.omens.kernel.machine import Machine
    from omen_solver.omens.kernel.params import SearchParams
    from omen_solver.omens.kernel.solve import dfpn_value
    from omen_solver.omens.kernel.spec import compile_table

    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    for index in range(deals):
        deal = first + index
        size = cards[index % len(cards)]
        for state in bout_starts(4, size, SEED + deal, walks):
            teams = state.teams()
            spec = compile_table(state.table, teams)
            machine = Machine(spec)
            kstate = from_engine(spec, state)
            maximising = [seat in teams[0] for seat in range(spec.players)]
            params = SearchParams(budget=Budget(max_nodes=nodes))
            try:
                value, searched, _ = dfpn_value(machine, maximising, kstate, params)
            except BudgetExceeded:
                continue
            for question in (1, 0):
                playouts = DfpnSearch(machine, maximising, question)._playout_wins(kstate, 8)
                side = [flag == bool(question) for flag in maximising]
                rows.append({"deal": deal, "cards": size, "hands": list(kstate.hands),
                             "leader": kstate.leader, "side": side, "question": question,
                             "proved": int(value == question), "playouts": playouts,
                             "nodes": searched})
        if index % 20 == 19:
            print(f"  {index + 1} deals, {len(rows)} rows, {time.perf_counter() - began:.0f} s",
                  file=sys.stderr)
    return rows


def fit(x: Any, y: Any, ridge: float = 1e-3) -> Any:
    """Logistic regression's coefficients by Newton's method (a small ridge keeps it finite)."""
    import numpy as np

    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = _logistic(x @ w)
        gradient = x.T @ (p - y) + ridge * w
        hessian = (x.T * (p * (1 - p))) @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def _logistic(z: Any) -> Any:
    """The logistic function of ``z`` (a numpy array), as the model maps its sum."""
    import numpy as np

    return 1 / (1 + np.exp(-z))


def scores(p: Any, y: Any) -> tuple[float, float]:
    """Accuracy (at p = 1/2) and log-loss of the probabilities ``p`` for the labels ``y``."""
    import numpy as np

    p = np.clip(p, 1e-6, 1 - 1e-6)
    accuracy = float(((p >= 0.5) == (y == 1)).mean())
    return accuracy, float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def report(rows: list[dict[str, Any]], test_share: float = 0.25) -> list[float]:
    """Fit on the deals of the training share, print the test scores, return the model."""
    import numpy as np

    from omen_solver.omens.kernel.seed_model import FEATURES, features

    absolutes, mirror, sadness = _masks()
    x = np.array([features(r["hands"], r["side"], r["leader"], absolutes, mirror, sadness)
                  for r in rows])
    y = np.array([r["proved"] for r in rows], dtype=float)
    deals = sorted({r["deal"] for r in rows})
    test_deals = set(deals[int(len(deals) * (1 - test_share)):])
    test = np.array([r["deal"] in test_deals for r in rows])
    w = fit(x[~test], y[~test])
    wins = np.array([r["playouts"] for r in rows], dtype=float)
    print(f"rows {len(rows)} (train {int((~test).sum())}, test {int(test.sum())}), "
          f"bout starts {len(rows) // 2}, proved {y.mean():.3f}")
    base = fit(x[~test][:, :5], y[~test])
    for name, p in (("model", _logistic(x[test] @ w)),
                    ("distance terms only", _logistic(x[test][:, :5] @ base)),
                    ("playouts (w+1)/10", (wins[test] + 1) / 10),
                    ("playouts refitted", _refit(wins, y, test)),
                    ("constant", np.full(int(test.sum()), y[~test].mean()))):
        accuracy, loss = scores(p, y[test])
        print(f"  {name:22} accuracy {accuracy:.3f} log-loss {loss:.3f}")
    print("coefficients", {f: round(float(c), 3) for f, c in zip(FEATURES, w, strict=True)})
    return [round(float(c), 4) for c in w]


def _masks() -> tuple[int, int, int]:
    """The ranks of the Absolutes, Mirror and Sadness in the rulebook's catalogue."""
    from omen_solver.omens.kernel.spec import E_ABSOLUTE, E_MIRROR, E_SADNESS, compile_table
    from omen_solver.omens.rules import make_rules
    from omen_solver.omens.table import Table

    spec = compile_table(Table(4, make_rules("rulebook")), ((0, 1), (2, 3)))
    return spec.effect_mask[E_ABSOLUTE], spec.effect_mask[E_MIRROR], spec.effect_mask[E_SADNESS]


def _refit(wins: Any, y: Any, test: Any) -> Any:
    """The playouts' wins as the only feature of a logistic regression (their best use)."""
    import numpy as np

    z = np.stack([np.ones_like(wins), wins / 8], axis=1)
    return _logistic(z[test] @ fit(z[~test], y[~test]))


def _sizes(text: str) -> list[int]:
    """Hand sizes, comma-separated, each 1 to 5 (argparse's type)."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"hand sizes such as 3,4, not {text!r}") from None
    if not all(1 <= size <= 5 for size in sizes):
        raise argparse.ArgumentTypeError(f"hand sizes from 1 to 5, not {text!r}")
    return sizes


def main(argv: list[str] | None = None) -> int:
    from omen_solver.cli.args import count_between, node_count, whole_number

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=count_between(1, 1_000_000, "a number of deals"),
                        default=400)
    parser.add_argument("--first", type=whole_number, default=0, help="the first deal's index")
    parser.add_argument("--cards", type=_sizes, default="3,4", help="hand sizes, by turns")
    parser.add_argument("--walks", type=count_between(1, 1_000, "a number of plays"), default=8,
                        help="random plays of each deal")
    parser.add_argument("--nodes", type=node_count, default=200_000,
                        help="df-pn's budget a bout start")
    parser.add_argument("--out", help="write the data set here (JSON lines)")
    parser.add_argument("--data", help="fit from this data set instead of building one")
    parser.add_argument("--write", action="store_true",
                        help="print the coefficients as omens/data/seed_model.toml's list and "
                             "_ckernel.c's SEED_MODEL (both to be replaced by hand)")
    args = parser.parse_args(argv)
    if args.data:
        rows = []
        try:
            with open(args.data, encoding="utf-8") as lines:
                for number, line in enumerate(lines, 1):
                    row = json.loads(line)
                    missing = sorted(ROW_KEYS - set(row) if isinstance(row, dict) else ROW_KEYS)
                    if missing:
                        print(f"{args.data}: line {number}: a row without {', '.join(missing)}",
                              file=sys.stderr)
                        return 2
                    rows.append(row)
        except OSError as error:
            print(f"{args.data}: cannot read: {error.strerror}", file=sys.stderr)
            return 2
        except json.JSONDecodeError as error:
            print(f"{args.data}: line {number}: not JSON: {error.msg}", file=sys.stderr)
            return 2
    else:
        rows = build(args.deals, args.cards, args.walks, args.nodes, args.first)
        if args.out:
            from omen_solver.core.files import atomic_write

            atomic_write(args.out, "".join(json.dumps(row) + "\n" for row in rows))
    if not rows:
        print("no bout start settled", file=sys.stderr)
        return 1
    model = report(rows)
    if args.write:
        print("coefficients = [" + ", ".join(f"{c!r}" for c in model) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
