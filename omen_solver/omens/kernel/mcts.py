"""Monte Carlo tree search with proven values (MCTS-Solver) on the kernel: an estimate of every
root move where the exact searches have not settled it.

The search grows a tree from the root by **iterations**. Each one walks down from the root,
choosing at every node as below, to a node not yet expanded; expands it (one child per distinct
successor, identical successors merged as the exact searches merge them); plays on from there
to the end of the round by the **playout policy**; and adds the result (1 where the asked team
won, else 0; for max-n, a 1 for the winning team) to every node it walked through.

* **Decisions**: UCB1 on the mean result for the side choosing (``exploration``); children not
  visited yet come first, in legal order; at the root every move not settled gets at least
  ``min_visits`` iterations, so each has a win rate with an interval.
* **The Absolute's secret exchange between two sides** is a simultaneous move: each of the two
  players chooses by **regret matching** on its own results (the strategy in proportion to the
  positive regrets, mixed with ``gamma`` of uniform exploration), from the same random stream
  but without seeing the other's choice: the target never sees the card it receives (the rules'
  open question O2). Between teammates it is one choice of their side.
* **Chance** (Luck's random discard, option ``luck_chooser = random``): an outcome drawn at
  random.
* **The exact kernel as an oracle**: a bout start with at most ``oracle_cards`` cards in the
  hands is searched exactly (alpha-beta; max-n under that concept) for at most ``oracle_nodes``
  nodes, in the tree and in the playouts; a value it settles is the node's value (a playout
  that reaches such a bout start stops there with it). Its table is kept between calls, so a
  bout start seen again is answered at once and one it did not settle is taken up where it
  stopped.
* **Proven values are backed up** (MCTS-Solver): a node is **won** for the asked side when the
  side choosing there has a won child (the asked side) or every child is won (the others); an
  exchange between the two sides is won when one card of the asked side wins against every card
  of the other, and lost when one card of the other side loses every row for the asked side;
  lost likewise. A proven child is not searched again. Under max-n a node is proven when the
  team choosing has a child it is proven to win, or when every child is proven (the first in
  legal order then, as the exact max-n breaks ties). These are proofs: the same rules as the
  exact searches', on values the rules or the exact search settled.

The same search runs in C (``_ckernel.Mcts``) and in Python (:class:`PythonMcts`): both draw from
the same random stream (SplitMix64) and do the same arithmetic in the same order, so for the same
position, parameters and seed they give the same tree, the same estimates and the same node
counts (``tests/omens_kernel/test_mcts.py`` compares them).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget
from omen_solver.errors import BudgetExceeded
from omen_solver.omens.kernel import machine as m
from omen_solver.omens.kernel.machine import KState, Machine
from omen_solver.omens.kernel.params import SearchParams

__all__ = [
    "POLICIES",
    "MctsParams",
    "MoveEstimate",
    "PythonMcts",
    "SplitMix64",
]

POLICIES: Final = ("random", "heuristic", "greedy")
"""Playout policies: a uniformly random legal move; the survey's heuristic (the lowest card
above every card in play, else the lowest card; the first choice otherwise); greedy (the move
whose position, as if the bout ended now, leaves the side choosing nearest to one card against
the others, ties drawn at random). The last two play a random move with probability
``epsilon``."""

_MASK: Final = (1 << 64) - 1
_UNIT: Final = 1.0 / 9007199254740992.0  # 2**-53

# What a node is (as in _ckernel_mcts.h).
K_DECISION, K_MATRIX, K_CHANCE, K_TERMINAL = range(4)
NOT_PROVEN: Final = -1
"""A node's ``proven`` when nothing is proven; otherwise 0 or 1 (the asked side's value,
two sides) or the index of the winning team (max-n; ``teams`` for no winner)."""
UNTRIED, TRIED = 0, 1
CHECK: Final = 16
"""Iterations between two looks at the clock."""
PLIES_A_NODE: Final = 8
"""Kernel moves of the playouts and expansions that cost about one node of the exact search
(measured: about 7 M moves and 1 M oracle nodes a second of the compiled search), so that
the search's work is counted in the exact searches' units."""


class SplitMix64:
    """The random stream of both kernels (SplitMix64: Steele, Lea and Flood, 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, count: int) -> int:
        """An integer in ``[0, count)``."""
        return self.next() % count

    def uniform(self) -> float:
        """A float in ``[0, 1)``."""
        return (self.next() >> 11) * _UNIT


@dataclass(frozen=True)
class MctsParams:
    """How the evaluation searches (the defaults were measured: ``docs/benchmarks.md``)."""

    seed: int = 0
    exploration: float = 0.5
    """UCB1's constant: ``mean + exploration * sqrt(ln N / n)``."""
    policy: str = "greedy"
    epsilon: float = 0.25
    """heuristic and greedy playouts: a uniformly random move with this probability."""
    gamma: float = 0.1
    """Regret matching at an exchange: this share of the strategy is uniform."""
    oracle_cards: int = 6
    """The exact search settles bout starts with at most this many cards in the hands (0:
    never): 6 asks it at the last bout of a round (one card a hand, 4 to 6 players), 8 with
    four players at the two last. Measured (docs/benchmarks.md, "Estimates"): 6 ranks the
    moves of 3-card deals better than 8 at every budget tried, on three seeds (its calls are
    cheap, so the playouts are about three times as many), and 8 better than 12, where an
    oracle call costs up to ``oracle_nodes`` and leaves each move a handful of playouts."""
    oracle_nodes: int = 2000
    """Nodes of each exact search of a bout start at most."""
    oracle_table: int = 1 << 20
    """Entries of the exact oracle's table at most."""
    min_visits: int = 100
    """Iterations each root move not proven gets before the others' UCB1 applies."""
    max_tree: int = 1 << 21
    """Tree nodes at most; past it no node is expanded (the playouts go on)."""
    max_plies: int = 1000
    """A playout longer than this (play that repeats) ends with no winner."""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"policy {self.policy!r}: choose one of {', '.join(POLICIES)}")
        if not 0.0 <= self.epsilon <= 1.0 or not 0.0 < self.gamma <= 1.0:
            raise ValueError("epsilon must lie in [0, 1] and gamma in (0, 1]")
        if self.exploration < 0 or self.min_visits < 0 or self.oracle_nodes < 0:
            raise ValueError("exploration, min_visits and oracle_nodes must be 0 or more")
        if self.max_tree < 2 or self.max_plies < 1:
            raise ValueError("max_tree must be at least 2 and max_plies at least 1")

    def as_tuple(self) -> tuple[Any, ...]:
        """The parameters as the compiled search takes them."""
        return (self.seed & _MASK, self.exploration, POLICIES.index(self.policy), self.epsilon,
                self.gamma, self.oracle_cards, self.oracle_nodes, self.min_visits,
                self.max_tree, self.max_plies)


@dataclass(frozen=True)
class MoveEstimate:
    """What the search found for one root move (values are the asked team's)."""

    visits: int
    """Iterations through the move (its playouts)."""
    wins: float
    """The sum of their results."""
    proven: int
    """:data:`NOT_PROVEN`, or 0/1 for the asked team (lost/won)."""
    exact: Fraction | None
    """The exact value where the oracle settled the move with a fraction (an exchange
    without a saddle, chance), else None."""
    line: tuple[int, ...]
    """The continuation the search expects after the move (kernel actions; at an exchange
    between the sides, the two gifts as one joint entry ``a << 32 | b``)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.visits if self.visits else 0.0


# -- the nodes ----------------------------------------------------------------------------------


class _Node:
    __slots__ = (
        "acts_a",
        "acts_b",
        "children",
        "cum_a",
        "cum_b",
        "exact",
        "expanded",
        "fixed",
        "joint",
        "kind",
        "moves",
        "oracle",
        "player",
        "proven",
        "regret_a",
        "regret_b",
        "second",
        "side",
        "state",
        "visits",
        "wins",
    )

    def __init__(self, state: KState, teams: int) -> None:
        self.state = state
        self.kind = K_DECISION
        self.player = -1
        self.second = -1
        self.side = 0
        """Decision: 1 if the side choosing is the asked side (two sides) or the team choosing
        (max-n)."""
        self.visits = 0
        self.wins = [0.0] * teams
        self.proven = NOT_PROVEN
        self.fixed = -1.0
        """The exact value (two sides) of a node the oracle settled with a fraction."""
        self.exact: Fraction | None = None
        self.expanded = False
        self.oracle = UNTRIED
        self.children: list[int] = []
        self.moves: list[int] = []
        self.acts_a: list[int] = []
        self.acts_b: list[int] = []
        self.joint: list[int] = []
        self.regret_a: list[float] = []
        self.regret_b: list[float] = []
        self.cum_a: list[float] = []
        self.cum_b: list[float] = []


class PythonMcts:
    """The search in Python (the reference the compiled one is compared with).

    ``maximising``: the asked side's seats (two sides); ``maxn``: the teams each maximise their
    own results and the asked team is ``team``. ``oracle``: the exact search of bout starts
    (a :class:`~omen_solver.omens.kernel.search.KernelSearch` for two sides, a
    :class:`~omen_solver.omens.kernel.maxn.KernelMaxn` for max-n), or None."""

    def __init__(self, machine: Machine, root: KState, maximising: Sequence[bool],
                 params: MctsParams, *, maxn: bool = False, team: int = 0,
                 oracle: Any = None) -> None:
        self.machine = machine
        self.spec = machine.spec
        self.params = params
        self.maximising = [bool(x) for x in maximising]
        self.maxn = maxn
        self.team = team
        self.teams = len(self.spec.teams) if maxn else 1
        self.team_of = list(self.spec.team_of)
        self.rng = SplitMix64(params.seed)
        self.oracle = oracle
        self.oracle_nodes = 0
        self.nodes: list[_Node] = []
        self.root_map: dict[int, int] = {}
        """Every legal root move -> the root's child it leads to."""
        self.iterations = 0
        self.plies = 0
        """Kernel moves made (tree and playouts): the search's own node count."""
        self._new(root)
        if self.nodes[0].kind != K_TERMINAL:
            self._expand(0)

    # -- values -------------------------------------------------------------------------------

    def _leaf(self, state: KState) -> list[float]:
        """The results of an ended round: the asked side's (two sides), each team's (max-n)."""
        winner = state.winner
        if self.maxn:
            out = [0.0] * self.teams
            if winner >= 0:
                out[self.team_of[winner]] = 1.0
            return out
        return [1.0 if winner >= 0 and self.maximising[winner] else 0.0]

    def _leaf_proven(self, state: KState) -> int:
        winner = state.winner
        if self.maxn:
            return self.teams if winner < 0 else self.team_of[winner]
        return 1 if winner >= 0 and self.maximising[winner] else 0

    def _proven_values(self, proven: int) -> list[float]:
        if self.maxn:
            out = [0.0] * self.teams
            if proven < self.teams:
                out[proven] = 1.0
            return out
        return [float(proven)]

    # -- building the tree --------------------------------------------------------------------

    def _new(self, state: KState) -> int:
        node = _Node(state, self.teams)
        machine = self.machine
        player = machine.current_player(state)
        if player == m.TERMINAL:
            node.kind = K_TERMINAL
            node.proven = self._leaf_proven(state)
        elif player == m.CHANCE:
            node.kind = K_CHANCE
        elif player == m.SIMULTANEOUS:
            a, b = machine.acting_players(state)
            node.player, node.second = a, b
            if self._side_of(a) == self._side_of(b):
                node.kind = K_DECISION
                node.side = self._chooses(a)
            else:
                node.kind = K_MATRIX
        else:
            node.player = player
            node.side = self._chooses(player)
        self.nodes.append(node)
        return len(self.nodes) - 1

    def _side_of(self, seat: int) -> int:
        return self.team_of[seat] if self.maxn else int(self.maximising[seat])

    def _chooses(self, seat: int) -> int:
        return self.team_of[seat] if self.maxn else int(self.maximising[seat])

    def _expand(self, index: int) -> None:
        """Make the node's children (identical ones merged, the first move kept)."""
        node = self.nodes[index]
        machine = self.machine
        state = node.state
        node.expanded = True
        if node.kind == K_MATRIX:
            node.acts_a = machine.legal(state, node.player)
            node.acts_b = machine.legal(state, node.second)
            na, nb = len(node.acts_a), len(node.acts_b)
            node.joint = [-1] * (na * nb)
            node.regret_a, node.cum_a = [0.0] * na, [0.0] * na
            node.regret_b, node.cum_b = [0.0] * nb, [0.0] * nb
            return
        if node.kind == K_CHANCE:
            for move in machine.chance_outcomes(state):
                node.moves.append(move)
                node.children.append(self._new(machine.child(state, move)))
                self.plies += 1
            return
        if node.player >= 0 and node.second >= 0:  # an exchange between teammates
            pairs = [(x, y) for x in machine.legal(state, node.player)
                     for y in machine.legal(state, node.second)]
            kids = [(x << 32 | y, machine.joint_child(state, (x, y))) for x, y in pairs]
        else:
            kids = [(move, machine.child(state, move)) for move in machine.legal(state)]
        seen: dict[tuple[object, ...], int] = {}
        for move, child in kids:
            key = child.key()
            if key not in seen:
                seen[key] = self._new(child)
                node.moves.append(move)
                node.children.append(seen[key])
            if index == 0:
                self.root_map[move] = seen[key]
        self.plies += len(kids)

    # -- the oracle -----------------------------------------------------------------------------

    def _bout_start(self, state: KState) -> bool:
        params = self.params
        if self.oracle is None or params.oracle_nodes == 0:
            return False
        if state.phase != m.BOUT or state.pending or state.front or state.played:
            return False
        cards = 0
        for hand in state.hands:
            cards += hand.bit_count()
        return cards <= params.oracle_cards

    def _ask_oracle(self, state: KState) -> tuple[int, Fraction | None] | None:
        """The exact value of a bout start within the oracle's nodes: (proven, None) for a
        value the proofs use, (NOT_PROVEN, fraction) for a fraction, None if unsettled."""
        oracle = self.oracle
        before = oracle.nodes
        oracle.depth = 0
        oracle.limit_nodes(before + self.params.oracle_nodes)
        try:
            if self.maxn:
                vector = oracle.value(state, -1, 0)[0]
                found: Any = vector
            else:
                found = oracle.search(state, 0, 1)
        except BudgetExceeded:
            found = None
        finally:
            self.oracle_nodes += oracle.nodes - before
            oracle.limit_nodes(None)
        if found is None:
            return None
        if self.maxn:
            for team, value in enumerate(found):
                if value == 1:
                    return team, None
            if all(value == 0 for value in found):
                return self.teams, None
            return None  # a share (chance): not a value the proofs use
        if found == 0 or found == 1:
            return int(found), None
        return NOT_PROVEN, Fraction(found)

    # -- one iteration --------------------------------------------------------------------------

    @property
    def work(self) -> int:
        """What the search has done, in exact nodes: its kernel moves and its iterations (each
        one's walk down the tree counts one, so that iterations ending at values already known
        still spend the budget) over :data:`PLIES_A_NODE`, and its oracle's nodes."""
        return (self.plies + self.iterations) // PLIES_A_NODE + self.oracle_nodes

    def run(self, iterations: int, deadline: float = 0.0, work: int = 0) -> int:
        """Up to ``iterations`` more iterations; fewer if every root move is proven, the
        search's :attr:`work` reaches ``work`` (0: no limit), or the clock
        (``time.monotonic()``) passes ``deadline`` (0: none), which is looked at every 16
        iterations. Returns how many were made."""
        made = 0
        while made < iterations and not self.settled():
            if work > 0 and self.work >= work:
                break
            if made % CHECK == 0 and made and deadline > 0 and time.monotonic() > deadline:
                break
            self._iterate()
            made += 1
        return made

    def settled(self) -> bool:
        """Every root move proven (or settled with a fraction): nothing left to estimate."""
        root = self.nodes[0]
        if root.kind == K_MATRIX:
            return root.proven != NOT_PROVEN
        if root.kind != K_DECISION and root.kind != K_CHANCE:
            return True
        for child in root.children:
            node = self.nodes[child]
            if node.proven == NOT_PROVEN and node.exact is None:
                return False
        return True

    def _iterate(self) -> None:
        self.iterations += 1
        path: list[int] = [0]
        picks: list[tuple[int, int, float, float]] = []
        """Per matrix node on the path: (row, column, row probability, column probability)."""
        index = 0
        values: list[float]
        while True:
            node = self.nodes[index]
            if node.proven != NOT_PROVEN and index != 0:
                values = self._proven_values(node.proven)
                break
            if node.exact is not None:
                values = [node.fixed]
                break
            if node.kind == K_TERMINAL:
                values = self._leaf(node.state)
                break
            if not node.expanded:
                if node.oracle == UNTRIED and self._bout_start(node.state):
                    node.oracle = TRIED
                    found = self._ask_oracle(node.state)
                    if found is not None:
                        proven, fraction = found
                        if fraction is not None:
                            node.exact = fraction
                            node.fixed = float(fraction)
                            values = [node.fixed]
                        else:
                            node.proven = proven
                            values = self._proven_values(proven)
                        break
                if node.visits == 0 or len(self.nodes) >= self.params.max_tree:
                    values = self._playout(node.state)
                    break
                self._expand(index)
            if node.kind == K_MATRIX:
                index, pick = self._select_matrix(node)
                picks.append(pick)
            elif node.kind == K_CHANCE:
                index = node.children[self.rng.below(len(node.children))]
            else:
                index = node.children[self._select(node, index == 0)]
            path.append(index)
        self._backup(path, picks, values)

    def _select(self, node: _Node, root: bool) -> int:
        """The child to walk to: the root's moves below ``min_visits`` first (fewest first),
        then unvisited children in order, then UCB1 for the side choosing; children proven
        bad for it are passed over (at the root, every proven child)."""
        nodes = self.nodes
        children = node.children
        if root:
            low, low_visits = -1, self.params.min_visits
            for i, child in enumerate(children):
                kid = nodes[child]
                if kid.proven != NOT_PROVEN or kid.exact is not None:
                    continue
                if kid.visits < low_visits:
                    low, low_visits = i, kid.visits
            if low >= 0:
                return low
        log_n = math.log(node.visits) if node.visits > 0 else 0.0
        c = self.params.exploration
        best, best_score = -1, -1.0
        for i, child in enumerate(children):
            kid = nodes[child]
            if kid.proven != NOT_PROVEN:
                if root or self._bad(kid.proven, node):
                    continue
            elif root and kid.exact is not None:
                continue
            if kid.visits == 0:
                return i
            mean = kid.wins[node.side] / kid.visits if self.maxn else kid.wins[0] / kid.visits
            if not self.maxn and not node.side:
                mean = 1.0 - mean
            score = mean + c * math.sqrt(log_n / kid.visits)
            if score > best_score:
                best, best_score = i, score
        if best < 0:  # every child proven: walk to the first (its value is backed up)
            return 0
        return best

    def _bad(self, proven: int, node: _Node) -> bool:
        """Whether a child proven ``proven`` is a loss for the side choosing at ``node``."""
        if self.maxn:
            return proven != node.side
        return proven != node.side

    def _strategy(self, regrets: list[float]) -> list[float]:
        count = len(regrets)
        total = 0.0
        for r in regrets:
            if r > 0.0:
                total += r
        gamma = self.params.gamma
        out = []
        for r in regrets:
            share = (r / total if r > 0.0 else 0.0) if total > 0.0 else 1.0 / count
            out.append((1.0 - gamma) * share + gamma / count)
        return out

    def _sample(self, strategy: list[float]) -> int:
        u = self.rng.uniform()
        total = 0.0
        for i, p in enumerate(strategy):
            total += p
            if u < total:
                return i
        return len(strategy) - 1

    def _select_matrix(self, node: _Node) -> tuple[int, tuple[int, int, float, float]]:
        """Each of the two players draws a card from its own regret-matching strategy; neither
        sees the other's."""
        sa = self._strategy(node.regret_a)
        sb = self._strategy(node.regret_b)
        i = self._sample(sa)
        j = self._sample(sb)
        for k, p in enumerate(sa):
            node.cum_a[k] += p
        for k, p in enumerate(sb):
            node.cum_b[k] += p
        cell = i * len(node.acts_b) + j
        child = node.joint[cell]
        if child < 0:
            state = self.machine.joint_child(node.state, (node.acts_a[i], node.acts_b[j]))
            child = node.joint[cell] = self._new(state)
            self.plies += 1
        return child, (i, j, sa[i], sb[j])

    # -- playouts -------------------------------------------------------------------------------

    def _playout(self, state: KState) -> list[float]:
        """Play on by the policy to the end of the round; a bout start small enough for the
        oracle ends the playout with its exact value (after the oracle fails to settle one,
        it is asked again only at a bout start with at least two cards fewer)."""
        machine = self.machine
        rng = self.rng
        plies = 0
        below = self.params.oracle_cards + 1
        while True:
            player = machine.current_player(state)
            if player == m.TERMINAL:
                return self._leaf(state)
            if plies >= self.params.max_plies:
                return [0.5] if not self.maxn else [0.0] * self.teams
            if self._bout_start(state):
                cards = sum(hand.bit_count() for hand in state.hands)
                if cards < below:
                    found = self._ask_oracle(state)
                    if found is not None:
                        proven, fraction = found
                        if fraction is not None:
                            return [float(fraction)]
                        return self._proven_values(proven)
                    below = cards - 1
            if player == m.CHANCE:
                outcomes = machine.chance_outcomes(state)
                state = machine.child(state, outcomes[rng.below(len(outcomes))])
            elif player == m.SIMULTANEOUS:
                a, b = machine.acting_players(state)
                mine = machine.legal(state, a)
                theirs = machine.legal(state, b)
                x = mine[rng.below(len(mine))]
                y = theirs[rng.below(len(theirs))]
                state = machine.joint_child(state, (x, y))
            else:
                state = self._policy_child(state, player)
            plies += 1
            self.plies += 1

    def _policy_child(self, state: KState, player: int) -> KState:
        machine = self.machine
        rng = self.rng
        moves = machine.legal(state)
        policy = self.params.policy
        if len(moves) == 1:
            return machine.child(state, moves[0])
        if policy == "random" or rng.uniform() < self.params.epsilon:
            return machine.child(state, moves[rng.below(len(moves))])
        if policy == "heuristic":
            return machine.child(state, moves[self._heuristic(state, moves)])
        side = [self._side_of(seat) == self._side_of(player) for seat in range(self.spec.players)]
        best: list[int] = []
        best_score = -1000
        kids = []
        for i, move in enumerate(moves):
            child = machine.child(state, move)
            kids.append(child)
            score = _greedy_score(machine, side, child)
            if score > best_score:
                best, best_score = [i], score
            elif score == best_score:
                best.append(i)
        self.plies += len(moves) - 1
        return kids[best[rng.below(len(best))] if len(best) > 1 else best[0]]

    def _heuristic(self, state: KState, moves: list[int]) -> int:
        """The survey's heuristic: the lowest card above every card in play, else the lowest
        card (the first move placing it); the first move where none places a card."""
        top = -1
        for placement in state.front:
            if placement & 63 > top:
                top = placement & 63
        best = -1
        best_card = 99
        above = False
        for i, move in enumerate(moves):
            if move >> 28 != m.V_PLAY:
                continue
            card = move >> 19 & 63
            over = card > top
            if (over and not above) or (over == above and card < best_card):
                best, best_card, above = i, card, over
        return 0 if best < 0 else best

    # -- backing up ----------------------------------------------------------------------------

    def _backup(self, path: list[int], picks: list[tuple[int, int, float, float]],
                values: list[float]) -> None:
        nodes = self.nodes
        pick = len(picks) - 1
        for depth in range(len(path) - 1, -1, -1):
            node = nodes[path[depth]]
            node.visits += 1
            for t in range(self.teams):
                node.wins[t] += values[t]
            if node.kind == K_MATRIX and depth < len(path) - 1:
                i, j, pa, pb = picks[pick]
                pick -= 1
                self._regrets(node.regret_a, i, pa, self._value_for(node.player, values))
                self._regrets(node.regret_b, j, pb, self._value_for(node.second, values))
        for depth in range(len(path) - 2, -1, -1):
            if not self._prove(path[depth]):
                break

    def _value_for(self, seat: int, values: list[float]) -> float:
        if self.maxn:
            return values[self.team_of[seat]]
        return values[0] if self.maximising[seat] else 1.0 - values[0]

    @staticmethod
    def _regrets(regrets: list[float], chosen: int, p: float, value: float) -> None:
        for k in range(len(regrets)):
            gain = value / p if k == chosen else 0.0
            regrets[k] += gain - value

    def _prove(self, index: int) -> bool:
        """Whether the node is newly proven by its children (MCTS-Solver's rules)."""
        node = self.nodes[index]
        if node.proven != NOT_PROVEN or not node.expanded:
            return False
        nodes = self.nodes
        if node.kind == K_MATRIX:
            if self.maxn:
                return False
            na, nb = len(node.acts_a), len(node.acts_b)
            max_rows = self.maximising[node.player]
            found = NOT_PROVEN
            for i in range(na):  # a card of the first player that settles every answer
                want = 1 if max_rows else 0
                if all(node.joint[i * nb + j] >= 0
                       and nodes[node.joint[i * nb + j]].proven == want for j in range(nb)):
                    found = want
                    break
            if found == NOT_PROVEN:
                for j in range(nb):  # a card of the second player that does
                    want = 0 if max_rows else 1
                    if all(node.joint[i * nb + j] >= 0
                           and nodes[node.joint[i * nb + j]].proven == want for i in range(na)):
                        found = want
                        break
            if found == NOT_PROVEN:
                return False
            node.proven = found
            return True
        children = node.children
        if node.kind == K_CHANCE:
            first = nodes[children[0]].proven
            if first == NOT_PROVEN or any(nodes[c].proven != first for c in children):
                return False
            node.proven = first
            return True
        if self.maxn:
            for child in children:
                if nodes[child].proven == node.side:
                    node.proven = node.side
                    return True
            if all(nodes[c].proven != NOT_PROVEN for c in children):
                node.proven = nodes[children[0]].proven
                return True
            return False
        good = node.side  # the side choosing wins with a child worth this
        for child in children:
            if nodes[child].proven == good:
                node.proven = good
                return True
        if all(nodes[c].proven == 1 - good for c in children):
            node.proven = 1 - good
            return True
        return False

    # -- what was found ------------------------------------------------------------------------

    def root_moves(self) -> list[int]:
        """The root's moves as its children were made (identical ones merged)."""
        root = self.nodes[0]
        return list(root.moves) if root.kind in (K_DECISION, K_CHANCE) else []

    def estimate(self, move: int, limit: int = 24) -> MoveEstimate:
        """The root move's estimate (for a move merged with an earlier one: that one's), with
        at most ``limit`` moves of its line."""
        child = self.root_map.get(move)
        if child is None:
            raise ValueError(f"move {move} is not a root move")
        node = self.nodes[child]
        proven = node.proven
        if self.maxn and proven != NOT_PROVEN:
            proven = 1 if proven == self.team else 0
        wins = node.wins[self.team] if self.maxn else node.wins[0]
        return MoveEstimate(node.visits, wins, proven, node.exact,
                            tuple(self._line(child, limit)))

    def team_rate(self, move: int, team: int) -> float:
        """The mean result of ``team`` (max-n: a team; two sides: 0) through a root move."""
        child = self.root_map.get(move)
        if child is None or not 0 <= team < self.teams:
            raise ValueError(f"move {move} is not a root move, or no team {team}")
        node = self.nodes[child]
        return node.wins[team] / node.visits if node.visits else 0.0

    def _line(self, index: int, limit: int = 24) -> list[int]:
        """The most visited continuation below a node (proven choices first)."""
        line: list[int] = []
        nodes = self.nodes
        while len(line) < limit:
            node = nodes[index]
            if not node.expanded or node.kind == K_TERMINAL:
                break
            if node.kind == K_MATRIX:
                i = _argmax(node.cum_a)
                j = _argmax(node.cum_b)
                child = node.joint[i * len(node.acts_b) + j]
                line.append(node.acts_a[i] << 32 | node.acts_b[j])
                if child < 0:
                    break
                index = child
                continue
            if node.kind == K_CHANCE or not node.children:
                break
            pick = -1
            for i, child in enumerate(node.children):
                if nodes[child].proven != NOT_PROVEN and not self._bad(nodes[child].proven,
                                                                      node):
                    pick = i
                    break
            if pick < 0:
                pick = _argmax([float(nodes[c].visits) for c in node.children])
                if nodes[node.children[pick]].visits == 0:
                    break
            line.append(node.moves[pick])
            index = node.children[pick]
        return line

    @property
    def size(self) -> int:
        return len(self.nodes)

    def interrupt(self) -> None:
        """Nothing to do: the Python search runs in the thread that would stop it."""


def _argmax(values: Sequence[float]) -> int:
    best, best_value = 0, values[0]
    for i in range(1, len(values)):
        if values[i] > best_value:
            best, best_value = i, values[i]
    return best


def _greedy_score(machine: Machine, side: list[bool], state: KState) -> int:
    """The greedy policy's score of a position for ``side``: the cards the nearest player of
    the others must still lose minus those of its own, as if the bout ended now (an ended
    round: 1000 won, -1000 lost)."""
    from omen_solver.omens.kernel.search import distances

    if state.phase == m.OVER:
        return 1000 if state.winner >= 0 and side[state.winner] else -1000
    mine, theirs = distances(machine, side, state)
    return theirs - mine


def oracle_params(params: MctsParams) -> SearchParams:
    """The settings of the exact search the evaluation asks at bout starts."""
    return SearchParams(budget=Budget(), table_limit=params.oracle_table)


class CompiledMcts:
    """The search in C (``_ckernel.Mcts``), with :class:`PythonMcts`'s interface. ``oracle``: a
    compiled search (:class:`~omen_solver.omens.kernel.compiled.CompiledSearch`, or
    ``CompiledMaxn`` under max-n) or None; ``pool``: the solve's count of table bytes, which
    the tree's memory joins."""

    def __init__(self, machine: Machine, root: KState, maximising: Sequence[bool],
                 params: MctsParams, *, maxn: bool = False, team: int = 0,
                 oracle: Any = None, pool: Any = None) -> None:
        from omen_solver.omens.kernel import compiled

        if not compiled.AVAILABLE:  # pragma: no cover - depends on the build
            raise RuntimeError("the compiled kernel is not built")
        from omen_solver.omens.kernel import _ckernel  # type: ignore[attr-defined]

        self.machine = machine
        self.params = params
        self.oracle = oracle
        self._mcts = _ckernel.Mcts(
            machine.spec.as_tuple(), [int(bool(x)) for x in maximising], maxn, team,
            params.as_tuple(), root.key(),
            None if oracle is None else oracle._search, pool,
        )

    def run(self, iterations: int, deadline: float = 0.0, work: int = 0) -> int:
        return int(self._mcts.run(iterations, deadline, work))

    def settled(self) -> bool:
        return bool(self._mcts.settled())

    def root_moves(self) -> list[int]:
        return [int(move) for move in self._mcts.root_moves()]

    def estimate(self, move: int, limit: int = 24) -> MoveEstimate:
        visits, wins, proven, numerator, denominator, line = self._mcts.estimate(move, limit)
        exact = Fraction(numerator, denominator) if denominator else None
        return MoveEstimate(int(visits), float(wins), int(proven), exact, tuple(line))

    def team_rate(self, move: int, team: int) -> float:
        return float(self._mcts.team_rate(move, team))

    @property
    def threaded(self) -> bool:
        """Whether :meth:`run` lets go of the GIL (another thread may then run another tree)."""
        return bool(self._mcts.threaded)

    @threaded.setter
    def threaded(self, value: bool) -> None:
        self._mcts.threaded = value

    def interrupt(self) -> None:
        """Stop after the iteration in progress (from another thread); for good."""
        self._mcts.interrupt()

    @property
    def size(self) -> int:
        return int(self._mcts.size)

    @property
    def iterations(self) -> int:
        return int(self._mcts.iterations)

    @property
    def plies(self) -> int:
        return int(self._mcts.plies)

    @property
    def oracle_nodes(self) -> int:
        return int(self._mcts.oracle_nodes)

    @property
    def work(self) -> int:
        return (self.plies + self.iterations) // PLIES_A_NODE + self.oracle_nodes

    @property
    def bytes(self) -> int:
        return int(self._mcts.bytes)
