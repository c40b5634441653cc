"""The kernel's transposition tables: bounded, replacing what cost least, shareable, and within a
memory budget.

* **Replacement.** A table keeps at most ``limit`` entries. Every entry records the **work**
  spent on it: the nodes searched below it, added up over the searches that stored it. When a
  new key finds the table full, the cheapest half goes (:meth:`Table.collect`): entries are
  ranked by the bit length of their work, and within the last rank kept the most recently
  stored stay. Large subtrees survive, the many small ones near the leaves are searched again,
  and the search goes on learning (a full table used to stop storing, which made df-pn go
  round in circles once full). The same rule runs in the compiled kernel (``_ckernel.c``:
  ``table_collect``), with the same entries kept, so both kernels give the same node counts.
* **Sharing.** A table may read another, **shared**, one after its own entries, never writing
  to it. The searches of the root's moves (:mod:`.rounds`) each store in a table of their own
  over the shared one and, between rounds, their entries are merged into it in the order of
  the moves (:meth:`Table.merge`), so that what each search reads does not depend on which
  finished first: the answers and node counts are the same with one thread or several.
* **Memory.** :class:`MemoryPlan` turns a budget in bytes (``solve --max-memory``, 2 GiB by
  default) into the entry limits of a solve's tables and the pool the compiled kernel's
  allocations are counted in; a table that cannot grow within the pool replaces instead, and
  what still does not fit stops the search with "out of memory for the transposition table",
  never a crash. The limits depend on the budget alone, not on what the machine has free, so a
  solve repeats exactly.

This module is the pure-Python table; the compiled kernel's is ``_ckernel.Table``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, TypeVar, overload

__all__ = [
    "DEFAULT_MAX_MEMORY",
    "WORK_MAX",
    "MemoryPlan",
    "Table",
    "memory_text",
    "parse_memory",
]

WORK_MAX: Final = 2**32 - 1
"""The work an entry records at most (the compiled table keeps it in 32 bits)."""

DEFAULT_MAX_MEMORY: Final = 2 * 2**30
"""The memory a solve keeps to by default: 2 GiB, what a laptop holds beside everything else."""

MISSING: Final[Any] = object()

V = TypeVar("V")


class Table(Generic[V]):
    """A transposition table of the pure-Python kernel (see the module's text).

    ``get`` and ``in`` read the table's own entries, then the shared table's; ``store``
    writes the table's own; ``len`` counts its own."""

    __slots__ = ("collections", "entries", "limit", "shared", "works")

    def __init__(self, limit: int = 0, shared: Table[V] | None = None) -> None:
        self.limit = limit
        """Entries kept at most (0: no limit)."""
        self.shared = shared
        self.entries: dict[Hashable, V] = {}
        self.works: dict[Hashable, int] = {}
        self.collections = 0
        """How many times the cheapest half was dropped."""

    @classmethod
    def of(cls, params: Any) -> Table[Any]:
        """The table a search with ``params`` (:class:`.params.SearchParams`) stores in: its
        ``table``, else a new one of ``table_limit`` entries."""
        if params.table is not None:
            if not isinstance(params.table, Table):
                raise TypeError("the pure-Python kernel stores in a tables.Table")
            return params.table
        return cls(params.table_limit)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, key: Hashable) -> bool:
        return key in self.entries or (self.shared is not None and key in self.shared.entries)

    @overload
    def get(self, key: Hashable) -> V | None: ...

    @overload
    def get(self, key: Hashable, default: V) -> V: ...

    def get(self, key: Hashable, default: V | None = None) -> V | None:
        found = self.entries.get(key)
        if found is None and self.shared is not None:
            found = self.shared.entries.get(key)
        return default if found is None else found

    def __getitem__(self, key: Hashable) -> V:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def items(self) -> Iterator[tuple[Hashable, V]]:
        """The table's own entries, in the order their keys were first stored."""
        return iter(self.entries.items())

    def store(self, key: Hashable, value: V, spent: int) -> None:
        """Store ``value`` for ``key``; its work is what the key had (here, or in the shared
        table) plus ``spent`` nodes. A new key in a full table makes room first."""
        works = self.works
        old = works.get(key)
        if old is None:
            if self.limit and len(self.entries) >= self.limit:
                self.collect(self.limit // 2)
                works = self.works
            old = 0 if self.shared is None else self.shared.works.get(key, 0)
        self.entries[key] = value
        works[key] = min(old + max(spent, 0), WORK_MAX)

    def collect(self, keep: int) -> None:
        """Keep the ``keep`` entries that cost most: by the bit length of their work, and
        within the last bucket kept the most recently stored (``_ckernel.c``:
        ``table_collect``, which keeps the same ones)."""
        entries, works = self.entries, self.works
        if len(entries) <= keep:
            return
        buckets = [0] * 34
        for work in works.values():
            buckets[work.bit_length()] += 1
        total = 0
        top = 33
        while top > 0:
            if total + buckets[top] >= keep:
                break
            total += buckets[top]
            top -= 1
        skip = buckets[top] - min(keep - total, buckets[top])
        kept: dict[Hashable, V] = {}
        kept_works: dict[Hashable, int] = {}
        for key, value in entries.items():
            if len(kept) >= keep:
                break
            work = works[key]
            rank = work.bit_length()
            if rank < top:
                continue
            if rank == top and skip:
                skip -= 1
                continue
            kept[key] = value
            kept_works[key] = work
        self.entries, self.works = kept, kept_works
        self.collections += 1

    def merge(self, other: Table[V], numbers: bool) -> None:
        """``other``'s own entries into this table, in the order ``other`` stored them. Bounds
        (alpha-beta's ``(low, high, best)``) are both true, so they are intersected and
        ``other``'s best action taken if it has one; numbers (df-pn's ``(pn, dn)``): a proof or
        a disproof stays, otherwise ``other``'s numbers are taken. The work kept is the larger
        (``_ckernel.c``: ``Table_merge``)."""
        entries, works = self.entries, self.works
        for key, value in other.entries.items():
            work = other.works[key]
            mine = entries.get(key)
            if mine is None:
                if self.limit and len(entries) >= self.limit:
                    self.collect(self.limit // 2)
                    entries, works = self.entries, self.works
                entries[key] = value
                works[key] = work
                continue
            old: Any = mine
            new: Any = value
            if numbers:
                if old[0] != 0 and old[1] != 0:
                    entries[key] = value
            else:
                low = new[0] if new[0] > old[0] else old[0]
                high = new[1] if new[1] < old[1] else old[1]
                merged: Any = (low, high, new[2] if new[2] >= 0 else old[2])
                entries[key] = merged
            if work > works[key]:
                works[key] = work

    def clear(self) -> None:
        self.entries, self.works = {}, {}


@dataclass(frozen=True)
class MemoryPlan:
    """How a solve divides its memory budget between its tables (see the module's text).

    The compiled kernel's entries are counted at :data:`BYTES_PER_ENTRY` bytes (a slot of 32
    bytes, 48 with fractions' denominators, at a load of at most one half, the key's words, the
    room a replacement needs), the
    pure-Python kernel's at :data:`PURE_BYTES_PER_ENTRY` (measured); :data:`RESERVED` is kept
    for the interpreter, the pure-Python kernel's memo of ended bouts and everything else."""

    max_bytes: int = DEFAULT_MAX_MEMORY

    BYTES_PER_ENTRY: ClassVar[int] = 320
    PURE_BYTES_PER_ENTRY: ClassVar[int] = 900
    RESERVED: ClassVar[int] = 320 * 2**20
    MIN_ENTRIES: ClassVar[int] = 1024
    SHARES: ClassVar[dict[str | int, float]] = {"alpha_beta": 0.40, 1: 0.30, 0: 0.10}
    """The shares of the tables' bytes of a side's alpha-beta and df-pn tables."""
    PRIVATE_SHARE: ClassVar[float] = 0.20
    """The share of the tables the root's moves store in between two merges, divided among
    them (:mod:`.rounds`)."""

    def __post_init__(self) -> None:
        from omen_solver.errors import ChoiceError

        if isinstance(self.max_bytes, bool) or not isinstance(self.max_bytes, int):
            raise ChoiceError(key="max_memory", value=self.max_bytes,
                              problem=f"expected a number of bytes, got {self.max_bytes!r}")
        if self.max_bytes < self.RESERVED + 64 * 2**20:
            raise ChoiceError(
                key="max_memory", value=self.max_bytes,
                problem=f"{memory_text(self.max_bytes)} is too little; a solve needs at "
                f"least {memory_text(self.RESERVED + 64 * 2**20)}"
            )

    @property
    def table_bytes(self) -> int:
        """The bytes the tables may hold together."""
        return self.max_bytes - self.RESERVED

    def limit(self, share: float, compiled: bool) -> int:
        """The entry limit of a table given ``share`` of the tables' bytes: a power of two (the
        compiled table's slots are then exactly twice as many, at its largest)."""
        per = self.BYTES_PER_ENTRY if compiled else self.PURE_BYTES_PER_ENTRY
        entries = max(int(self.table_bytes * share) // per, self.MIN_ENTRIES)
        return 1 << (entries.bit_length() - 1)


    def tables(self, compiled_kernel: bool, make: Callable[[int, Any], Any], *,
               scale: float = 1.0, shared: TableSet | None = None) -> TableSet:
        """A side's tables of :data:`SHARES` (times ``scale``), each made by
        ``make(limit, base)`` where ``base`` is the table of ``shared`` it reads after its own
        (or None)."""

        def one(share: float, base: Any) -> Any:
            return make(self.limit(share * scale, compiled_kernel), base)

        return TableSet(
            one(self.SHARES["alpha_beta"], shared and shared.alpha_beta),
            {q: one(self.SHARES[q], shared and shared.proofs[q]) for q in (1, 0)},
        )


def parse_memory(text: str) -> int:
    """Bytes from ``2G``, ``1.5GB``, ``800M``, ``512MiB``, ``4096`` (binary units)."""
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    stripped = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = stripped[-1:] if stripped[-1:] in units and stripped[-1:] else ""
    number = stripped[: len(stripped) - len(unit)].strip()
    try:
        value = float(number) if number.replace(".", "", 1).isdigit() else float("nan")
    except ValueError:
        value = float("nan")
    if not value > 0 or value != value or value == float("inf"):
        raise ValueError(f"{text!r} is not an amount of memory (write e.g. 2G, 800M)")
    return int(value * units[unit])


def memory_text(size: int) -> str:
    """``2 GiB``, ``800 MiB``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale:
            shown = size / scale
            return f"{shown:.3g} {unit}" if shown != int(shown) else f"{int(shown)} {unit}"
    return f"{size} B"


@dataclass
class TableSet:
    """The tables of one side's searches: alpha-beta's, and df-pn's for each question (1 and
    0). Each is a :class:`Table` (pure Python) or a ``_ckernel.Table`` (compiled)."""

    alpha_beta: Any
    proofs: dict[int, Any]

    def all(self) -> tuple[Any, ...]:
        return (self.alpha_beta, *self.proofs.values())

    def merge(self, other: TableSet) -> None:
        """``other``'s entries into these tables (bounds for alpha-beta, numbers for df-pn)."""
        self.alpha_beta.merge(other.alpha_beta, False)
        for question, table in self.proofs.items():
            table.merge(other.proofs[question], True)

    def clear(self) -> None:
        for table in self.all():
            table.clear()

    @property
    def entries(self) -> int:
        return sum(len(t) if isinstance(t, Table) else int(t.size) for t in self.all())

    @property
    def collections(self) -> int:
        """How many times one of these tables dropped its cheapest half."""
        return sum(int(t.collections) for t in self.all())

    @property
    def bytes(self) -> int:
        """Memory held (the compiled tables'; 0 for the pure-Python ones)."""
        return sum(0 if isinstance(t, Table) else int(t.bytes) for t in self.all())
