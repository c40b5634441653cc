"""What every kernel search is made with, in one object.

Alpha-beta (:mod:`.search`), df-pn (:mod:`.dfpn`), max-n (:mod:`.maxn`), their compiled
transcriptions (:mod:`.compiled`), the searches by turns (:mod:`.portfolio`) and the factories
that choose between them (:mod:`.solve`) take the same settings: whether the two teams'
returns add up to a constant, how a simultaneous choice is valued, the budget and its progress
callback, the size of the table, a payoff table for a game analysed round by round. They are
one :class:`SearchParams`, passed whole; each search refuses a setting it cannot apply rather
than ignoring it (:meth:`SearchParams.refuse`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.budget import Budget, Progress
from omen_solver.core.search.result import SimultaneousMode

__all__ = ["DEFAULT_PARAMS", "DEFAULT_TABLE_LIMIT", "IN_ORDER_TURN", "PLAYOUTS_AFTER",
           "PLAYOUTS_TURN", "SearchParams", "Tuning", "Value"]

Value = Fraction | int
"""An exact value: an ``int`` (0 or 1) where no fraction entered, else a :class:`Fraction`."""

PLAYOUTS_TURN: Final = 100_000
"""The default ``Tuning.playouts_turn``: the first turns of a root move (50,000 nodes a
question) are short ones, with the playouts only after ``playouts_after`` nodes (until
2026-12-05 the second turns were short too, from 200,000). With the playouts from the first
node of the first turn on the 3-card deals take fewer nodes, but a bout-3 position whose proof
the other seeds find in 10,223 nodes takes 1,035,937."""

PLAYOUTS_AFTER: Final = 2_000
"""The default ``Tuning.playouts_after`` (since 2026-12-05 18:30 UTC; 0 before: a root move's
first turns wholly without playouts). Measured (``docs/benchmarks.md``): the 100 seeded
3-card deals 32,701,871 nodes to 28,903,126 (29,252,461 to 25,376,011 with alpha-beta's
asks below a fraction), the rated puzzles 244,097 to 210,464, 4-card
deal 0 3,255,194 to 2,918,196; the bout-3 position above 10,223 to 10,738 (1,000: 28,552,039
on the deals; 5,000: 29.3 M; 20,000: 31.3 M)."""

IN_ORDER_TURN: Final = 50_000
"""The default ``Tuning.in_order_turn``: in every turn of a root move "value 0?" waits while
"value 1?" is open, since one move has a turn a round (``round_width``); until 2026-12-05
16:00 UTC from 100,000 (a root move's first turns asked both questions)."""

DEFAULT_TABLE_LIMIT: Final = 8_000_000
"""Entries the transposition table keeps at most (about 2 GB in pure Python)."""


@dataclass(frozen=True)
class Tuning:
    """How the searches look for a proof: each one a way of ordering or seeding the search
    that changes the nodes it visits, never its answers (the tests compare the answers with
    every setting, and the two kernels' node counts setting by setting). The defaults are the
    ones the proof-size benchmark (``benchmarks/proof_size.py``) kept; ``docs/kernel.md``
    gives the figures of each, kept or not."""

    mobility: bool = True
    """df-pn: a node not searched yet starts with the numbers of its mobility (the side to
    move's number of choices: an AND node needs that many proofs, an OR node that many
    disproofs) instead of 1 and 1."""

    distance: int = 4
    """df-pn: a node not searched yet has its proof number multiplied by ``(1 + a) **
    distance`` and its disproof number by ``(1 + d) ** distance``, where ``a`` and ``d`` are
    the cards the nearest player of the side that proves and of the other side must still lose
    to hold 1, as if the bout ended now (0: not at all; at most 7)."""

    playouts: int = 8
    """df-pn: a bout start not searched yet also plays this many random playouts to the
    round's end (every player and chance choosing uniformly, seeded by the position so that
    the figures repeat) and has its proof number multiplied by the playouts its side lost
    plus one, its disproof number by those it won plus one: a seed that tells positions apart,
    as in Monte Carlo proof-number search (0: none; at most 15). The searches by turns apply
    them from turns of ``playouts_turn`` nodes on, and in the shorter turns after a question's
    first ``playouts_after`` nodes at a position."""

    playouts_turn: int = PLAYOUTS_TURN
    """The searches by turns (:mod:`.portfolio`, and so every solve): df-pn's turns of fewer
    nodes than this seed without playouts, the longer ones (and a search to the end) with
    ``playouts``; the entries stored meanwhile keep their numbers (0: every turn with them).
    In the shorter turns the playouts start after ``playouts_after`` nodes of a question at a
    position. The default search by size: a position whose proof is short, which the other
    seeds find at once, is settled before the playouts' pull can send df-pn away from it, and
    the positions that need millions of nodes, where the playouts cut the nodes by two to
    four, get them. (A rule by the cards in play cannot tell the two apart: a fresh 4-card
    deal has 16 cards in play, bout 3 of a 5-card deal 16 to 18, and some of those have
    proofs of ten thousand nodes.)"""

    playouts_after: int = PLAYOUTS_AFTER
    """The searches by turns: in df-pn's turns shorter than ``playouts_turn``, a question's
    search at a position runs its first ``playouts_after`` nodes there without the playouts
    and the rest of the turn with them (0: those turns without them; a turn shorter than the
    searches' first, as the estimates' small turns, is wholly without them). A proof or disproof the
    other seeds find at once, where the playouts' pull can send df-pn away for a hundred
    times the nodes, is found first; every other search gets the playouts' cut from its first
    turn on."""

    squeeze: bool = False
    """alpha-beta: among children the distances rank alike, first the one that leaves the next
    player to choose fewest choices if the other side, most if the side choosing (Law's
    "lower" or "higher" against the cards still to be played, a card that ends a hand's
    choices)."""

    dfpn_first: bool = True
    """The searches by turns (:mod:`.portfolio`): each round of turns starts with df-pn's,
    not alpha-beta's: on the proof-size benchmark's deals df-pn settles nearly every round,
    often within its first turn."""

    alpha_beta_shift: int = 4
    """The searches by turns: while df-pn's question is open, alpha-beta's turn is df-pn's
    divided by ``2 ** alpha_beta_shift`` (0: turns of the same size); once df-pn has found
    that neither side wins for sure (a fraction), alpha-beta's turns are whole (at most 16)."""

    hint: bool = True
    """df-pn: each question's search reads what the other's has proved, so a state the
    search of "value 1?" proved is disproved at once in the search of "value 0?" (and the
    other way round) instead of being searched again."""

    hint_stored: bool = True
    """df-pn, with ``hint``: a state this question's table holds still open, which the other
    question's search has since disproved, starts each visit of its parent as a state not
    stored yet would (proof number 1, its disproof number :data:`~.dfpn.HINT_SCALE` times
    the stored one) until it is searched in that visit; the table keeps the numbers it
    learned, and a settled entry is never touched. (Without it the hint reaches only the
    states not stored yet, and a root move's "value 0?" searched in its first turns, before
    "value 1?" was disproved, keeps what it stored then.) The searches by turns apply it, as
    the playouts (``playouts_turn``, ``playouts_after``)."""
    both_questions: bool = True
    """The searches by turns: each round gives df-pn a turn on "value 1?" and one on "value
    0?" while both are open, not "value 0?" only once "value 1?" is disproved; "value 0?"
    joins once "value 1?" has met an exchange between the teams or a chance node (before, a
    disproof of "value 1?" proves value 0). With ``hint``, each reads what the other has
    settled so far."""

    in_order_turn: int = IN_ORDER_TURN
    """The searches by turns: in df-pn's turns of this many nodes or more "value 0?" waits
    while "value 1?" is open, and is asked in the step that disproves it; the shorter turns
    ask both as ``both_questions`` says (0: every turn as ``both_questions`` says). A root
    move still open after its first turns is a large one, where asking "value 0?" beside
    "value 1?" costs a question's turns on a move worth 1, and on a move worth 0 searches
    "value 0?" without what the disproof of "value 1?" tells it (``hint``); a small one
    (every puzzle) is settled by "value 1?" within its first turn, as before. By default
    (50,000, since one move has a turn a round: ``round_width``) every turn of a root move,
    its first included."""

    lone_move_shared: bool = True
    """The root's moves by rounds (:mod:`.rounds`): a move searched alone in its round stores
    straight into the root's shared tables, not into its own small ones (which replace their
    entries between two merges). No other search runs meanwhile, so the answers and node
    counts are still the same with any number of threads."""

    private_by_round: bool = True
    """The root's moves by rounds: the memory of the moves' own tables is divided among the
    moves searched in the round, not among every move of the root (a move's tables are
    emptied at the end of each round, so the moves still open have more room as the others
    settle)."""

    parallel_dfpn: bool = True
    """The root's moves by rounds on several threads (``solve --threads N``): a move searched
    alone in its round has its df-pn turns on all N threads at once, on one table (Kaneko's
    parallel df-pn with virtual proof and disproof numbers, in the compiled kernel). The
    answers are the same; the node counts then vary from run to run."""

    alpha_beta_proofs: bool = True
    """The searches by turns: alpha-beta reads df-pn's tables, and a state that "value 1?"
    has proved is worth 1 there, one that "value 0?" has proved worth 0, without a search
    (alpha-beta goes on alone once both questions are disproved at a root move worth a
    fraction, and its matrices need each entry's exact value: many of those entries are
    states df-pn has already settled)."""

    alpha_beta_asks: bool = True
    """With ``alpha_beta_proofs``, where both of df-pn's questions are disproved at the root of
    alpha-beta's search (a root move worth a fraction, which alpha-beta alone goes on with),
    alpha-beta asks them at each state it has not searched yet, "value 1?" and then "value 0?",
    each to its answer: a state either proves is worth that value without alpha-beta's search,
    and alpha-beta searches only the states both disprove (worth a fraction themselves)."""

    round_width: int = 1
    """The root's moves by rounds (:mod:`.turns`): how many open moves have a turn in one
    round, those of the smallest proof or disproof numbers (the same with any number of
    threads; a move alone in its round proves on every thread, ``parallel_dfpn``). With 1 each
    round serves only the move whose proof looks cheapest, and a move alone in its round
    stores straight into the root's shared tables (``lone_move_shared``); 2 (until
    2026-12-05) gave the machine's two threads a move each; 0: every open move, as the rounds
    of :mod:`.rounds` do."""

    ties: int = 1
    """df-pn: of a node's children of the same least number (the proof number at an OR
    node, the disproof number at an AND node), the one searched first: 1 the one of the
    largest other number (at an OR node the child hardest to disprove, at an AND node the
    one hardest to prove), 0 the first in the legal order (until 2026-12-05), 2 the one of
    the smallest other number, 3 as 1 at OR nodes and as 0 at AND nodes. Measured with
    ``playout_prior`` 1 (``docs/benchmarks.md``): the 100 seeded 3-card deals 24,235,709
    nodes with 0, 23,983,323 with 1, 23,843,051 with 3; 4-card deal 0 10.4x its proof's
    bout starts with 3, 9.1x with 1."""

    playout_prior: int = 1
    """df-pn, with ``playouts``: a bout start's proof number is multiplied by the playouts
    its side lost plus ``1 + playout_prior``, its disproof number by those it won plus as
    many (0 to 7; the larger, the weaker the playouts' pull). With 8 playouts and 1 (since
    2026-12-05; 0 before) the two factors stand at most 5 to 1 apart, not 9 to 1, as if eight
    random games were not a proof. The 100 seeded 3-card deals 25,376,011 nodes with 0,
    24,235,709 with 1, 24,540,168 with 2, 25,270,618 with 3 (``ties`` 0)."""

    seed_model: bool = True
    """df-pn, with ``playouts`` = P: a bout start's seed takes the wins of its P playouts from
    a model fitted offline instead of playing them (:mod:`.seed_model`,
    ``benchmarks/fit_seed.py``): its probability ``p`` that the side that proves wins for
    sure counts as ``round(P p)`` wins, with ``playout_prior``, where and when the playouts
    would be played (``playouts_turn``, ``playouts_after``). The default since 2026-12-06
    (``False``: the P random playouts played, as before). Measured
    (``docs/benchmarks.md``, "A seed fitted offline" and "The fitted seed by default"): about
    the playouts' nodes (the 100 seeded 3-card deals 23,905,060 against 23,983,323; the
    slowest 2 to 9 % more, within the spread of the playouts' random streams) in a quarter
    to a half less processor time; 4-card deals 2/6 solved within 40 s against 1/6."""

    def __post_init__(self) -> None:
        if not 0 <= self.distance <= 7:
            raise ValueError(f"distance: a power from 0 to 7, not {self.distance!r}")
        if not 0 <= self.playouts <= 15:
            raise ValueError(f"playouts: from 0 to 15, not {self.playouts!r}")
        if self.playouts_turn < 0:
            raise ValueError(f"playouts_turn: nodes, 0 or more, not {self.playouts_turn!r}")
        if self.playouts_after < 0:
            raise ValueError(f"playouts_after: nodes, 0 or more, not {self.playouts_after!r}")
        if self.in_order_turn < 0:
            raise ValueError(f"in_order_turn: nodes, 0 or more, not {self.in_order_turn!r}")
        if not 0 <= self.ties <= 3:
            raise ValueError(f"ties: 0 to 3, not {self.ties!r}")
        if not 0 <= self.playout_prior <= 7:
            raise ValueError(f"playout_prior: from 0 to 7, not {self.playout_prior!r}")
        if self.round_width < 0:
            raise ValueError(f"round_width: moves, 0 or more, not {self.round_width!r}")
        if not 0 <= self.alpha_beta_shift <= 16:
            raise ValueError(
                f"alpha_beta_shift: a power of 2 from 0 to 16, not {self.alpha_beta_shift!r}")

    @classmethod
    def off(cls) -> Tuning:
        """Every setting off: the searches as they were before any of them."""
        return cls(**{f.name: type(getattr(cls(), f.name))() for f in fields(cls)})

    def first_playouts(self) -> int:
        """The playouts a df-pn search starts with: ``playouts`` where every turn has them
        (``playouts_turn`` 0), else none (the searches by turns switch them on for their long
        turns, :mod:`.portfolio`; a df-pn search run alone keeps to its start)."""
        return 0 if self.playouts_turn else self.playouts

    def first_hint_stored(self) -> bool:
        """Whether a df-pn search starts with ``hint_stored``: where every turn has the
        playouts (``playouts_turn`` 0); the searches by turns switch it on with them."""
        return self.hint_stored and not self.playouts_turn

    def mask(self) -> int:
        """The settings the compiled kernel applies, as bits (``_ckernel.c``: ``TUNE_*``); the
        searches by turns are Python's in both kernels."""
        return (int(self.mobility) | self.distance << 1 | int(self.squeeze) << 4
                | self.first_playouts() << 5 | int(self.first_hint_stored()) << 9
                | self.ties << 10 | self.playout_prior << 12
                | int(self.seed_model) << 15)


@dataclass(frozen=True)
class SearchParams:
    """The settings of one kernel search (the side it searches for is its own argument)."""

    constant_sum: bool = False
    """Minimax: the two teams' returns must add up to the same total at every leaf (checked;
    a round that can end with no winner is refused). False for paranoid."""
    mode: SimultaneousMode = SimultaneousMode.MIXED
    """How The Absolute's secret exchange between two teams is valued."""
    budget: Budget = field(default_factory=Budget)
    progress: Progress | None = None
    """Called with the nodes so far and the seconds elapsed, every few thousand nodes."""
    table_limit: int = DEFAULT_TABLE_LIMIT
    """Entries the transposition table keeps at most."""
    payoff: Sequence[Sequence[Value]] | None = None
    """A game analysed round by round (:mod:`.game`): the maximising side's return by
    ``[winner + 1][next round's leader]``; None: 1 for a round won, 0 otherwise."""
    tuning: Tuning = field(default_factory=Tuning)
    """How the search orders and seeds its nodes (the answers are the same)."""
    table: Any = None
    """The table the search stores in (:class:`.tables.Table`, or ``_ckernel.Table`` for the
    compiled kernel); None: a table of its own of ``table_limit`` entries."""
    shared: Any = None
    """A table the search reads after its own and never writes (the compiled kernel's; a
    pure-Python :class:`.tables.Table` carries its shared table itself)."""
    pool: Any = None
    """The compiled kernel's count of the bytes a solve's tables hold (``_ckernel.Pool``)."""

    def with_budget(self, budget: Budget) -> SearchParams:
        """The same settings with another budget."""
        return replace(self, budget=budget)

    def refuse(self, search: str, *, mode: bool = False, payoff: bool = False) -> None:
        """Raise :class:`ValueError` for a setting ``search`` does not apply: a simultaneous
        mode other than mixed (``mode``), a payoff table (``payoff``)."""
        if mode and self.mode is not SimultaneousMode.MIXED:
            raise ValueError(
                f"{search} values exchanges by the mixed mode only, not {self.mode.value!r}"
            )
        if payoff and self.payoff is not None:
            raise ValueError(f"{search} takes no payoff table")


DEFAULT_PARAMS: Final = SearchParams()
"""Paranoid (no constant-sum check), the mixed mode, no budget, the default table."""
