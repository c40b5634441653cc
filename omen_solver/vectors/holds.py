"""What each vector depends on: the rule settings under which every expectation is unchanged
(the ``holds_under`` field, docs/vectors.md).

A vector's expectations (who acts and the legal actions after every step, the states) are what
this library's engine gives for the vector's position and moves under its recorded settings.
Under other settings the same moves may play differently, or not at all. :func:`holds_under`
finds, by replaying the vector:

- ``presets``: the presets (Omen: profiles) under whose full settings the vector replays
  identically, each checked by one replay;
- ``settings``: for each option that matters, the settings it may take; the vector replays
  identically under **every** combination of the listed settings (the options not listed take
  any setting). That product is verified exhaustively, not sampled: while a vector is replayed
  the engine's reads of its rule options are recorded (:func:`reading_options`), and a replay
  that never read an option would have gone the same way under any setting of it. So the
  replays needed are one per path of the engine's decisions on the options it reads: the
  first replay under the recorded settings reads options ``a, b, c`` in that order; then for
  each of them, in turn, every other allowed setting is replayed with the earlier ones kept,
  and so on down each new replay's reads. Every combination of the product follows one of
  those paths, so if each replays identically, all do.

Options interact (Fear's pass-on only matters if the extreme pick lands on Fear, which
``extreme_includes_self`` decides), so a setting that is harmless alone can change a vector
together with another; then the product is narrowed (the later option in declaration order
loses that setting) and checked again. The recorded settings are always in the product.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

import omen_solver.core.options
from omen_solver.core.game import GameState, game_named
from omen_solver.core.options import RuleOptions
from omen_solver.vectors.settings import (
    preset_key,
    preset_names,
    preset_settings,
    rule_set,
    specs,
)
from omen_solver.vectors.views import VECTORS, Resume, VectorView

__all__ = ["Replayer", "holds_info", "holds_under", "reading_options"]

_OPTIONS_MODULE: Final = omen_solver.core.options.__file__
_MAX_REPLAYS: Final = 4_000
"""Replays one vector's product check may take before the product is narrowed to the options
the recorded line reads (then checked again)."""


class _Reads:
    """The rule options read during one replay, each with the step of its first read."""

    def __init__(self, inherited: Mapping[str, int] | None = None) -> None:
        self.first: dict[str, int] = dict(inherited or {})
        self.step = 0

    def order(self) -> list[str]:
        return sorted(self.first, key=lambda name: (self.first[name], _INDEX[name]))


_INDEX: Final = {spec.name: index for game in VECTORS.games()
                 for index, spec in enumerate(specs(game.name))}


@contextmanager
def reading_options(game: str, reads: _Reads | None = None) -> Iterator[_Reads]:
    """Record the rule options the engine reads inside the block (with the step at which each
    is first read: ``reads.step``, set by the caller).

    Reads made by the option class itself (validating, listing its settings) do not count:
    they are not decisions of the rules."""
    cls: type[RuleOptions] = rule_set(game).options
    names = frozenset(spec.name for spec in specs(game))
    log = reads if reads is not None else _Reads()

    def tracked(self: Any, name: str) -> Any:
        if name in names and name not in log.first:
            caller = sys._getframe(1).f_code.co_filename
            if caller != _OPTIONS_MODULE:
                log.first[name] = log.step
        return object.__getattribute__(self, name)

    cls.__getattribute__ = tracked  # type: ignore[method-assign]
    try:
        yield log
    finally:
        del cls.__getattribute__


@dataclass
class _Run:
    """One resumable replay of a vector: the states after each step, and the options read."""

    settings: dict[str, str]
    rules: RuleOptions
    states: list[GameState[Any]]
    reads: _Reads
    same: bool


class Replayer:
    """Replays one vector's position and moves under given settings.

    A game whose view can resume replays (:class:`omen_solver.vectors.views.Resume`: Omens)
    has them resume where they can: a replay that differs from an earlier one only in an
    option that the earlier one first read at step ``k`` shares its states up to step ``k - 2``
    (nothing before step ``k`` looked at that option, and the state before step ``k - 1``
    holds no look-up cached during step ``k``), so only the rest is played again, under the
    shared rules object set to the new settings."""

    def __init__(self, game: str, vector: Mapping[str, Any]) -> None:
        self.game = game
        self.view: VectorView[Any] = VECTORS.of(game_named(game))
        self.vector = vector
        self.moves = [step["action"] for step in vector["steps"]]
        self.expected: list[Any] = [vector["start"], *vector["steps"]]
        self.replays = 0
        self._memo: dict[tuple[str, ...], _Run | tuple[bool, _Reads]] = {}

    def observe(self, settings: Mapping[str, str], profile: str | None = None
                ) -> list[Any] | None:
        """The start and every step as a vector records them, played from scratch (None if
        the position is refused or a move is illegal under these settings)."""
        key = preset_key(self.game)
        options = {key: profile or self.vector["options"][key], "settings": dict(settings)}
        try:
            start = self.view.start(options, self.vector["position"], "replay")
            return [self.view.start_view(start), *self.view.record(start, self.moves)]
        except ValueError:  # the library's input errors: refused position, illegal move
            return None

    def _key(self, settings: Mapping[str, str]) -> tuple[str, ...]:
        return tuple(settings[spec.name] for spec in specs(self.game))

    def run(self, settings: Mapping[str, str], parent: _Run | None = None,
            changed: str | None = None) -> tuple[bool, list[str]]:
        """Whether the vector replays identically under ``settings``, and the options read in
        the order first read. ``parent``: a replay whose settings differ only in ``changed``
        (it may be resumed)."""
        found = self._memo.get(self._key(settings))
        if found is None:
            self.replays += 1
            if self.view.resume is not None:
                found = self._resumed_run(self.view.resume, dict(settings), parent, changed)
            else:
                with reading_options(self.game) as reads:
                    observed = self.observe(settings)
                found = (observed == self.expected, reads)
            self._memo[self._key(settings)] = found
        if isinstance(found, _Run):
            return found.same, found.reads.order()
        return found[0], found[1].order()

    def last_run(self, settings: Mapping[str, str]) -> _Run | None:
        found = self._memo.get(self._key(settings))
        return found if isinstance(found, _Run) else None

    def _resumed_run(self, resume: Resume[Any], settings: dict[str, str], parent: _Run | None,
                     changed: str | None) -> _Run:
        read = None if parent is None or changed is None else parent.reads.first.get(changed)
        if read is not None and read >= 2 and parent is not None:
            keep = read - 2
            reads = _Reads({name: step for name, step in parent.reads.first.items()
                            if step <= keep})
            for name, setting in settings.items():
                object.__setattr__(parent.rules, name, setting)
            run = _Run(settings, parent.rules, parent.states[: keep + 1], reads, True)
            return self._continue(resume, run)
        reads = _Reads()
        key = preset_key(self.game)
        options = {key: self.vector["options"][key], "settings": settings}
        with reading_options(self.game, reads):
            try:
                start = self.view.start(options, self.vector["position"], "replay")
                same = self.view.start_view(start) == self.expected[0]
            except ValueError:
                rules = rule_set(self.game)
                return _Run(settings, rules.make(rules.default_preset), [], reads, False)
        run = _Run(settings, resume.rules(start), [start], reads, same)
        return self._continue(resume, run) if same else run

    def _continue(self, resume: Resume[Any], run: _Run) -> _Run:
        """Play the moves from the last state of ``run`` on, comparing each step."""
        with reading_options(self.game, run.reads):
            for index in range(len(run.states), len(self.expected)):
                run.reads.step = index
                try:
                    after, view = resume.step(run.states[-1], self.moves[index - 1])
                except ValueError:
                    run.same = False
                    return run
                run.states.append(after)
                if view != self.expected[index]:
                    run.same = False
                    return run
        return run

    def same_under_preset(self, name: str) -> bool:
        settings = preset_settings(self.game, name)
        if self.view.resume is not None:
            return self.run(settings)[0]
        return self.observe(settings, profile=name) == self.expected


def holds_under(game: str, vector: Mapping[str, Any]) -> dict[str, Any]:
    """The ``holds_under`` field of a vector (see the module's docstring)."""
    return holds_info(game, vector)[0]


def holds_info(game: str, vector: Mapping[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """The ``holds_under`` field of a vector, and the options one of whose other settings,
    alone, changes its expectations (tried for a game whose replays resume, Omens; for
    another, Omen, empty: its ``settings`` keep only the recorded setting of each option the
    line reads)."""
    replayer = Replayer(game, vector)
    sensitive: set[str] = set()
    recorded: dict[str, str] = dict(vector["options"]["settings"])
    same, reads = replayer.run(recorded)
    if not same:
        raise AssertionError(f"{vector['id']}: the vector does not replay under its own "
                             "settings")
    allowed = {spec.name: list(spec.settings) if spec.name not in reads
               else [recorded[spec.name]] for spec in specs(game)}
    if replayer.view.resume is not None:
        root = replayer.last_run(recorded)
        for name in reads:
            for setting in _settings_of(game, name):
                if setting == recorded[name]:
                    continue
                if replayer.run({**recorded, name: setting}, root, name)[0]:
                    allowed[name].append(setting)
                else:
                    sensitive.add(name)
            allowed[name] = _in_order(game, name, allowed[name])
        while True:
            failing = _first_failure(replayer, recorded, allowed)
            if failing is None:
                break
            _narrow(game, recorded, allowed, failing)
    presets = [name for name in preset_names(game) if replayer.same_under_preset(name)]
    restricted = {spec.name: allowed[spec.name] for spec in specs(game)
                  if len(allowed[spec.name]) < len(spec.settings)}
    return {"presets": presets, "settings": restricted}, sensitive


def _settings_of(game: str, name: str) -> list[str]:
    return next(list(spec.settings) for spec in specs(game) if spec.name == name)


def _in_order(game: str, name: str, settings: Sequence[str]) -> list[str]:
    return [setting for setting in _settings_of(game, name) if setting in settings]


def _first_failure(replayer: Replayer, recorded: Mapping[str, str],
                   allowed: Mapping[str, Sequence[str]]) -> dict[str, str] | None:
    """A combination of the product under which the vector plays differently; None if there
    is none (every path of the engine's reads replayed); ``{}`` if the check ran over
    :data:`_MAX_REPLAYS`."""
    todo: list[tuple[dict[str, str], dict[str, str] | None, str | None]] = [({}, None, None)]
    start = replayer.replays
    while todo:
        fixed, parent, changed = todo.pop()
        settings = {**recorded, **fixed}
        run = None if parent is None else replayer.last_run(parent)
        same, reads = replayer.run(settings, run, changed)
        if not same:
            return settings
        if replayer.replays - start > _MAX_REPLAYS:
            return {}
        pinned = dict(fixed)
        for name in reads:
            if name in fixed:
                continue
            for setting in reversed(allowed[name]):
                if setting != recorded[name]:
                    todo.append(({**pinned, name: setting}, settings, name))
            pinned[name] = recorded[name]
    return None


def _narrow(game: str, recorded: Mapping[str, str], allowed: dict[str, list[str]],
            failing: Mapping[str, str]) -> None:
    """Take a setting out of the product: the one ``failing`` gives to the latest option (in
    declaration order) it changes; after a check that ran too long (``failing`` empty), every
    setting but the recorded one of the option with the most settings left (the latest of
    those)."""
    names = [spec.name for spec in specs(game)]
    if not failing:
        widest = max(reversed(names), key=lambda name: len(allowed[name]) if len(
            allowed[name]) > 1 and name in recorded else 0)
        allowed[widest] = [recorded[widest]]
        return
    changed = [name for name in names if failing[name] != recorded[name]]
    last = changed[-1]
    allowed[last] = [s for s in allowed[last] if s != failing[last]]
