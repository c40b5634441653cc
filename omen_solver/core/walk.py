"""Deep walks without recursion: a search written as generators, run from an explicit stack.

A tree search is easiest to read as a recursive function, but Python gives a recursion only a
thousand or so frames, and a game can be far deeper than that (an Omen game has no length
limit in the rulebooks; ``docs/robustness.md``). So every deep walk of the library (the
reference solvers, perft, the principal variation's checks) is written as a *generator* whose
recursive call is a ``yield``::

    def node(self, state):
        ...
        value = yield self.node(child)     # "search the child", answered by the driver
        ...
        return value

and :func:`drive` runs it: it keeps the generators of the nodes on the line being searched
on a list of its own, sends each child's value back to its parent, and passes an exception
(a budget that ran out, Ctrl-C) up the line through each parent's ``finally`` blocks, as a
recursive call would. Python's frame limit never enters: the depth of a walk is bounded by
:data:`MAX_DEPTH` (and, before that, by its budget and memory), and a line deeper than that
stops the walk with :class:`~omen_solver.errors.BudgetExceeded`, whose reason says so, and
the answer is "unknown", never a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final, Protocol, TypeVar

from omen_solver.errors import BudgetExceeded

__all__ = ["MAX_DEPTH", "Step", "TooDeep", "drive"]

MAX_DEPTH: Final = 10_000
"""Nodes on one line of a walk at most. A round of Omens is a few dozen actions and a whole
game a few hundred; a whole Omen game from its first turn is well under a thousand, but it can
also go on for ever (no rulebook limits its length), and a line that does is stopped here,
within a second or two, rather than followed until the budget runs out."""

T = TypeVar("T")

Step = Generator[Any, Any, T]
"""A node of a walk: yields the generators of the nodes below it, returns its value."""


class _Counted(Protocol):
    nodes: int

    def elapsed(self) -> float: ...


class TooDeep(BudgetExceeded):
    """A line of the walk went :data:`MAX_DEPTH` nodes deep: an "unknown" like any budget."""

    def __init__(self, depth: int, nodes: int, seconds: float) -> None:
        super().__init__(
            f"a line of play went {depth:,} actions deep without ending: from here the rules "
            "let play repeat for ever (or go on longer than a search follows)", nodes, seconds)
        self.depth = depth


def drive(root: Step[T], meter: _Counted | None = None, max_depth: int = MAX_DEPTH) -> T:
    """Run the walk whose root node is ``root`` and return its value.

    Each generator on the stack is resumed with the value of the child it yielded; an
    exception raised in a node is thrown into its parent at the ``yield`` that asked for the
    child, so ``try``/``finally`` and ``except`` in the nodes behave as in a recursion. A
    line of more than ``max_depth`` nodes raises :class:`BudgetExceeded` into the node that
    would have gone deeper (:class:`TooDeep`, counted on ``meter``'s nodes and clock).
    """
    stack: list[Step[Any]] = []
    top: Step[Any] = root
    value: Any = None
    error: BaseException | None = None
    while True:
        try:
            if error is None:
                child = top.send(value)
            else:
                failure, error = error, None
                child = top.throw(failure)
        except StopIteration as done:
            if not stack:
                return done.value  # type: ignore[no-any-return]
            value = done.value
            top = stack.pop()
            continue
        except BaseException as failure:
            if not stack:
                raise
            error = failure
            top = stack.pop()
            continue
        if len(stack) >= max_depth:
            child.close()
            nodes = meter.nodes if meter is not None else 0
            seconds = meter.elapsed() if meter is not None else 0.0
            error = TooDeep(max_depth, nodes, seconds)
            continue
        stack.append(top)
        top = child
        value = None
