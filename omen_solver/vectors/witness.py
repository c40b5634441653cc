"""Witnesses for the rule options: a smallest position and moves where the settings differ.

For each rule option of the engine and each pair of its settings, the search walks small
deals in a fixed order (4 players, 2 cards in every hand, then 3; the cards the option is
about plus a few plain ones), playing both settings in lockstep: the same moves from the
same position, one engine per setting. At every state it compares what a player can
observe: who acts and how (a decision, a chance draw, a simultaneous exchange), the legal
moves, and at the end the outcome (winner, discards, hands, who leads next, who wins the
round). The first difference is the witness: the moves that lead to it, and what differs.
Chance draws follow their first outcome only (the options are about decisions and rules, not
luck).

If no deal of the space shows a difference with the other options at their defaults, the
option changes nothing there, which is recorded as such; the search then tries the other
options' non-default settings one at a time ("companions") to show where it does matter.

``omen-solver witnesses`` runs the search and writes one position file per setting
(``proofs/witnesses/<option>--<setting>.toml``; for an option with more than two settings, one
per setting and pair, ``<option>--<setting>--vs-<other>.toml``), a summary
(``proofs/witnesses/summary.json``) and the table ``docs/omens-option-witnesses.md``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omen_solver.core.files import atomic_write, read_text
from omen_solver.core.game import CHANCE, SIMULTANEOUS
from omen_solver.errors import VectorFileError
from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.proofs.counterexamples import Counterexample
from omen_solver.omens.proofs.enumeration.walk import BoutDeal, deals
from omen_solver.omens.rules import DreamTargetTurn, OmensRules, ReturnTo, make_rules, option_specs
from omen_solver.omens.state import OmensState
from omen_solver.omens.table import Scope, Table

__all__ = [
    "PAIR_SEARCHES",
    "SEARCHES",
    "Search",
    "Witness",
    "find_witness",
    "find_witnesses",
    "observe",
    "read_summary",
    "setting_pairs",
    "witness_file",
    "witness_table",
    "write_witnesses",
]


@dataclass(frozen=True)
class Search:
    """Where to look for an option's witness."""

    fixed: Mapping[int, Sequence[int]]
    """Cards dealt to given seats (0-based) in every deal: the cards the option is about."""
    pool: Sequence[int]
    """Cards the rest of the hands are dealt from, every possible way."""
    scope: Scope = Scope.BOUT
    companions: tuple[Mapping[str, str], ...] = ()
    """Other options' settings to try, one set at a time, if nothing differs without them."""
    box: Sequence[int] = ()
    """Absolutes out of the game (for searches that go on to the next round)."""
    sizes: tuple[int, ...] = (2,)
    """Hand sizes tried, smallest first."""
    note: str = ""
    """What to know when no difference turns up."""

    def describe(self) -> str:
        fixed = "; ".join(
            f"seat {seat + 1} holds {', '.join(map(_label, cards))}"
            for seat, cards in sorted(self.fixed.items())
        )
        box = f"; {', '.join(map(_label, self.box))} in the box" if self.box else ""
        return (
            f"4 players, seat 1 leads, {' then '.join(map(str, self.sizes))} cards in every "
            f"hand; {fixed or 'no fixed cards'}; the rest dealt every way from "
            f"{', '.join(map(_label, self.pool))}{box}; play to the end of the "
            f"{self.scope.value}"
        )


def _label(card: int) -> str:
    return default_catalogue()[card].label()


_PLAIN = (4, 5, 9, 18, 20, 26, 27)
"""Calm 4, Feast 5, Lie 9 (below Law), Day 18, Harmony 20, Sadness 26, Winter 27 (above):
cards that act only at the end of the bout, so the trees stay small."""

SEARCHES: Mapping[str, Search] = {
    "absolute_timing": Search({0: [31]}, _PLAIN),
    "absolute_exchange": Search({0: [31]}, _PLAIN),
    "law_binds": Search({0: [15], 1: [21]}, _PLAIN),
    "law_after_jealousy": Search({0: [15], 2: [23]}, _PLAIN),
    "law_when_last": Search({3: [15]}, _PLAIN),
    "wrath_replay": Search({1: [28]}, _PLAIN),
    "jealousy_own_card": Search(
        {0: [21], 1: [23]}, _PLAIN, companions=({"dream_target_turn": DreamTargetTurn.PLAYS_AGAIN},)
    ),
    "dream_target_turn": Search({0: [21]}, _PLAIN),
    "now_resolver": Search({0: [21], 1: [15]}, _PLAIN),
    "betrayal_give_back": Search({1: [29]}, _PLAIN),
    "card_owner": Search({0: [21]}, _PLAIN),
    "return_to": Search({0: [21]}, _PLAIN),
    "sadness_lone_card": Search(
        {0: [26], 1: [21]},
        (4, 5, 9, 13, 18, 20, 27),
        scope=Scope.ROUND,
        companions=({"dream_target_turn": DreamTargetTurn.PLAYS_AGAIN},),
        note="Sadness alone in play needs a bout with a single card in play. Under the default "
        "options every player has exactly one card in front of them when a bout is resolved "
        "(theorem one-card-before-each), so it cannot happen; with dream_target_turn = "
        "plays_again a player can run out of cards, but no round of this space reaches a "
        "bout with one card in play",
    ),
    "fear_pass_on": Search({0: [9], 1: [12]}, (4, 5, 11, 16, 18, 26)),
    "luck_chooser": Search({0: [13]}, _PLAIN),
    "luck_timing": Search(
        {0: [21], 1: [13]},
        _PLAIN,
        companions=({"dream_target_turn": DreamTargetTurn.PLAYS_AGAIN},
                    {"return_to": ReturnTo.PLACER}),
    ),
    "zero_cards": Search(
        {0: [21]},
        (4, 5, 9, 13, 18, 20, 26),
        scope=Scope.ROUND,
        companions=({"dream_target_turn": DreamTargetTurn.PLAYS_AGAIN},),
    ),
    "pride_next_round": Search({0: [22]}, _PLAIN, scope=Scope.ROUND),
    "reshuffle_absolutes": Search({0: [30]}, _PLAIN, scope=Scope.GAME, box=(34, 35)),
    "extreme_includes_self": Search({0: [20]}, (4, 5, 9, 18, 26, 27, 30)),
}
"""One search per option, over the cards the option is about."""

PAIR_SEARCHES: Mapping[tuple[str, str, str], Search] = {
    ("pride_next_round", "yes", "unless_luck"): Search(
        {0: [22], 2: [13]}, _PLAIN, scope=Scope.ROUND
    ),
    ("pride_next_round", "yes", "unless_luck_discarded"): Search(
        {0: [22], 2: [13]}, _PLAIN, scope=Scope.ROUND
    ),
    ("pride_next_round", "unless_luck", "unless_luck_discarded"): Search(
        {0: [22], 2: [12, 13]}, _PLAIN, scope=Scope.ROUND
    ),
}
"""Searches for one pair of settings of an option with more than two (option, setting,
setting): the cards that pair is about (``unless_luck`` and ``unless_luck_discarded`` differ
from ``yes`` only when Luck is discarded in the bout that ends the round, and Pride names
someone other than the round winner; from each other only when Luck's player then has nothing
to discard, a hand of only Fear)."""


def setting_pairs(option: str) -> list[tuple[str, str]]:
    """Every pair of the option's settings, in declaration order."""
    spec = {s.name: s for s in option_specs()}[option]
    return list(itertools.combinations(spec.settings, 2))


def witness_file(option: str, setting: str, other: str) -> str:
    """The witness file of ``setting`` against ``other``: ``<option>--<setting>.toml`` for an
    option with two settings, ``<option>--<setting>--vs-<other>.toml`` with more."""
    if len(setting_pairs(option)) == 1:
        return f"{option}--{setting}.toml"
    return f"{option}--{setting}--vs-{other}.toml"


@dataclass(frozen=True)
class Witness:
    """The result of one option's search."""

    option: str
    settings: tuple[str, str]
    found: bool
    searched: str
    deals: int
    """Deals tried (with every companion tried)."""
    companions: Mapping[str, str] = field(default_factory=dict)
    """Other options' settings the witness needs (empty: the defaults)."""
    deal: BoutDeal | None = None
    moves: tuple[str, ...] = ()
    difference: str = ""
    """What differs, in words."""
    scope: Scope = Scope.BOUT
    box: tuple[int, ...] = ()

    def file(self, setting: str) -> str:
        """The witness file of one of the two settings."""
        first, second = self.settings
        return witness_file(self.option, setting, second if setting == first else first)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "option": self.option,
            "settings": list(self.settings),
            "found": self.found,
            "searched": self.searched,
            "deals": self.deals,
            "companions": dict(self.companions),
        }
        if self.found and self.deal is not None:
            data.update(
                {
                    "hands": [list(hand) for hand in self.deal.hands],
                    "moves": list(self.moves),
                    "difference": self.difference,
                    "scope": self.scope.value,
                    "box": list(self.box),
                    "files": [self.file(s) for s in self.settings],
                }
            )
        return data


def _outcome(state: OmensState) -> tuple[Any, ...]:
    """What the end of play shows: winner, rounds, the last bout and the hands."""
    summary = state.last_bout
    last = None
    if summary is not None:
        last = (
            summary.winner,
            summary.winning_card,
            summary.discarded,
            summary.next_leader,
            summary.round_winner,
        )
    return ("over", state.winner, state.rounds_won, last, state.hands)


def observe(state: OmensState) -> tuple[Any, ...]:
    """What a player can see at a state: the kind of node, who acts, the legal moves."""
    if state.is_terminal():
        return _outcome(state)
    player = state.current_player()
    kind = "chance" if player == CHANCE else "simultaneous" if player == SIMULTANEOUS else "turn"
    moves = tuple(sorted(state.move_to_string(move) for move in state.moves()))
    return (kind, state.acting_players(), moves)


def _say(observed: tuple[Any, ...], other: tuple[Any, ...]) -> str:
    """One side of a difference, in words (moves: only those the other side lacks, when both
    sides are the same kind of node)."""
    if observed[0] == "over":
        _, winner, rounds, last, hands = observed
        del winner, rounds
        text = []
        if last is not None:
            bout_winner, card, discarded, leader, round_winner = last
            if bout_winner is not None:
                text.append(f"seat {bout_winner + 1} wins the bout with {card}")
            text.append(f"discarded {sorted(discarded)}")
            if round_winner is not None:
                text.append(f"seat {round_winner + 1} wins the round")
            text.append(f"seat {leader + 1} leads next")
        text.append("hands " + " | ".join(" ".join(map(str, hand)) or "-" for hand in hands))
        return "; ".join(text)
    kind, acting, moves = observed
    who = " and ".join(f"seat {seat + 1}" for seat in acting) or "chance"
    shown = list(moves)
    if other[0] == kind and other[1] == acting:
        shown = [move for move in moves if move not in other[2]]
        listed = ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")
        return f"{kind} ({who}), also {listed}" if shown else f"{kind} ({who}), no other move"
    listed = ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")
    return f"{kind} ({who}): {listed}"


class _Budget(Exception):
    pass


@dataclass
class _Lockstep:
    max_nodes: int
    names: tuple[str, str]
    nodes: int = 0
    seen: set[Hashable] = field(default_factory=set)

    def run(self, a: OmensState, b: OmensState, path: list[str]) -> tuple[list[str], str] | None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        seen_a, seen_b = observe(a), observe(b)
        if seen_a != seen_b:
            first, second = self.names
            return (
                path,
                f"under {first}: {_say(seen_a, seen_b)}; under {second}: {_say(seen_b, seen_a)}",
            )
        if a.is_terminal():
            return None
        moves = a.moves()
        if a.current_player() == CHANCE:
            moves = moves[:1]
        for move in moves:
            text = a.move_to_string(move)
            next_a = a.apply_move(move)
            next_b = b.apply_move(b.parse_move(text))
            key = (next_a.key(), next_b.key())
            if key in self.seen:
                continue
            self.seen.add(key)
            found = self.run(next_a, next_b, [*path, text])
            if found is not None:
                return found
        return None


def _start(deal: BoutDeal, rules: OmensRules, search: Search) -> OmensState:
    table = Table(deal.players, rules, scope=search.scope)
    held = {card for hand in deal.hands for card in hand}
    out = sorted(set(table.catalogue) - held - set(search.box))
    return OmensState.start_of_bout(
        table, deal.hands, deal.teams, deal.leader, out=out, box=list(search.box)
    )


def find_witnesses(option: str, *, max_nodes: int = 200_000) -> list[Witness]:
    """A witness search for every pair of the option's settings."""
    return [find_witness(option, pair=pair, max_nodes=max_nodes) for pair in setting_pairs(option)]


def find_witness(
    option: str, *, pair: tuple[str, str] | None = None, max_nodes: int = 200_000
) -> Witness:
    """Search the option's space (:data:`SEARCHES`, or :data:`PAIR_SEARCHES` for the pair) for
    the first deal where two of its settings (by default its first two) play differently;
    companions are tried only if nothing differs without them."""
    first, second = pair or setting_pairs(option)[0]
    search = PAIR_SEARCHES.get((option, first, second), SEARCHES[option])
    tried = 0
    for companion in ({}, *search.companions):
        for size in search.sizes:
            for deal in deals(4, [search.fixed], search.pool, size):
                tried += 1
                rules_a = make_rules(None, {**companion, option: first})
                rules_b = make_rules(None, {**companion, option: second})
                walk = _Lockstep(max_nodes, (first, second))
                try:
                    found = walk.run(
                        _start(deal, rules_a, search), _start(deal, rules_b, search), []
                    )
                except _Budget:
                    continue
                if found is not None:
                    moves, difference = found
                    return Witness(
                        option,
                        (first, second),
                        True,
                        search.describe(),
                        tried,
                        dict(companion),
                        deal,
                        tuple(moves),
                        difference,
                        search.scope,
                        tuple(search.box),
                    )
    return Witness(option, (first, second), False, search.describe(), tried)


def _position(witness: Witness, setting: str) -> str:
    """The witness position for one setting, as a position file."""
    assert witness.deal is not None
    deal = witness.deal
    first, second = witness.settings
    other = second if setting == first else first
    rules = {**witness.companions, witness.option: setting}
    compare = witness.file(other)
    defaults = {s.name: s.default for s in option_specs()}
    example = Counterexample(
        deal.players,
        deal.leader,
        [list(hand) for hand in deal.hands],
        {name: value for name, value in rules.items() if defaults[name] != value},
        moves=list(witness.moves),
        notes=[
            f"What differs: {witness.difference}.",
            f"Compare with {compare} (the same position and moves under "
            f"{witness.option} = {other}).",
        ],
    )
    text = example.to_toml(
        f"Witness for option {witness.option} = {setting}",
        f"The rule option {witness.option} set to {setting!r}: after these moves the play "
        f"differs from the setting {other!r}.",
    )
    extra = [f'scope = "{witness.scope.value}"']
    if witness.box:
        extra.append(f"box = {json.dumps(list(witness.box))}")
    return text.replace('game = "omens"\n', 'game = "omens"\n' + "\n".join(extra) + "\n", 1)


def write_witnesses(witnesses: Sequence[Witness], folder: Path, docs: Path | None) -> list[Path]:
    """Write the position files, the summary and the table, each whole
    (:func:`~omen_solver.core.files.atomic_write`); return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for witness in witnesses:
        if not witness.found:
            continue
        for setting in witness.settings:
            path = folder / witness.file(setting)
            atomic_write(path, _position(witness, setting))
            written.append(path)
    summary = folder / "summary.json"
    atomic_write(
        summary, json.dumps([w.to_json() for w in witnesses], indent=2, ensure_ascii=False) + "\n"
    )
    written.append(summary)
    if docs is not None:
        docs.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(docs, witness_table(witnesses))
        written.append(docs)
    return written


def witness_table(witnesses: Sequence[Witness]) -> str:
    """``docs/omens-option-witnesses.md``."""
    lines = [
        "# Omens rule options: where each setting makes a difference",
        "",
        "Generated by `omen-solver witnesses` (`omen_solver/vectors/witness.py`); do not "
        "edit by hand.",
        "",
        "For every rule option of the engine (see [omens-options.md](omens-options.md)) and "
        "every pair of its settings the search plays small deals under the two settings in "
        "lockstep, the same moves from the "
        "same position, and stops at the first state where they differ: who acts and how, the "
        "legal moves, or the outcome. Deals are tried in a fixed order: 4 players (the fewest "
        "the game allows), 2 cards in every hand (the fewest a bout starts with), the cards the "
        "option is about in fixed seats and the rest dealt every way from a few plain cards. "
        "Chance draws follow their first outcome. The witness files are under "
        "`proofs/witnesses/`, one per setting; replay one with `omen-solver omens play FILE` "
        "(or `omen-solver omens legal FILE` when the difference is in the legal moves). When "
        "no deal of the space shows a difference with the other options at their defaults, "
        "the table says so (the option changes nothing there) and names the other option's "
        "setting under which it does.",
        "",
        "| option | settings | what differs | witness | deals searched |",
        "|---|---|---|---|---|",
    ]
    for w in witnesses:
        settings = " / ".join(f"`{s}`" for s in w.settings)
        if not w.found:
            note = SEARCHES[w.option].note
            lines.append(
                f"| `{w.option}` | {settings} | no difference within the bounds (the space "
                f"below, also with "
                + ", ".join(
                    f"`{k} = {v}`" for c in SEARCHES[w.option].companions for k, v in c.items()
                )
                + f"){': ' + note if note else ''} | none | {w.deals:,} |"
            )
            continue
        needs = ""
        if w.companions:
            shown = ", ".join(f"`{k} = {v}`" for k, v in w.companions.items())
            needs = f"No difference with the other options at their defaults; with {shown}: "
        files = ", ".join(f"[{s}](../proofs/witnesses/{w.file(s)})" for s in w.settings)
        moves = " ".join(f"`{m}`" for m in w.moves) or "(no move)"
        difference = w.difference.replace("|", "\\|")
        lines.append(
            f"| `{w.option}` | {settings} | {needs}after {moves}: {difference} | {files} | "
            f"{w.deals:,} |"
        )
    lines += [
        "",
        "Search spaces (the cards each option is about, then plain cards):",
        "",
    ]
    lines += [f"- `{w.option}`{_pair_label(w)}: {w.searched}." for w in witnesses]
    return "\n".join(lines) + "\n"


def _pair_label(witness: Witness) -> str:
    """`` (`a` / `b`)`` for an option with more than two settings, else nothing."""
    if len(setting_pairs(witness.option)) == 1:
        return ""
    return " (" + " / ".join(f"`{s}`" for s in witness.settings) + ")"


def read_summary(path: Path) -> list[Witness]:
    """The witnesses recorded in a ``summary.json`` (a file that is not one is an error naming
    it)."""
    text = read_text(path, VectorFileError)
    try:
        return _witnesses(json.loads(text))
    except (KeyError, IndexError, TypeError, ValueError) as problem:  # JSONDecodeError too
        raise VectorFileError(f"{path}: not a summary of witnesses: {problem!r}") from None


def _witnesses(items: Any) -> list[Witness]:
    witnesses = []
    for item in items:
        deal = None
        if item["found"]:
            hands = tuple(tuple(hand) for hand in item["hands"])
            deal = BoutDeal(len(hands), 0, hands)
        witnesses.append(
            Witness(
                item["option"],
                (item["settings"][0], item["settings"][1]),
                item["found"],
                item["searched"],
                item["deals"],
                item["companions"],
                deal,
                tuple(item.get("moves", ())),
                item.get("difference", ""),
                Scope(item.get("scope", "bout")),
                tuple(item.get("box", ())),
            )
        )
    return witnesses
