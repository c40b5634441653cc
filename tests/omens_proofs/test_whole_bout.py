"""The whole-bout model (omen_solver.omens.proofs.model) against the engine, placement by placement.

The model and the engine are two independent readings of rules file 000 ("Game Sequence", "How
a Bout Is Resolved", "Special Card Effects", "End of a Round") and omens-cards.md. Each random
bout (4-6 players, random hands, every rule option at a random setting, random legal moves) is
played by the engine, observed, and played again by the model with the same choices; at every
placement the hands, the cards the player may place, the choices each immediate effect offers,
Law's constraint and where every card lies must agree, and so must the end of the bout (winner,
discards, Luck, the hands after the bout, the round winner, who leads next).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import z3

from omen_solver.omens.cards import default_catalogue
from omen_solver.omens.proofs.agreement import check_bout, end_agreement, model_of, random_bout
from omen_solver.omens.proofs.model.broken import Broken
from omen_solver.omens.proofs.model.deck import Deck
from omen_solver.omens.proofs.model.symbolic import build_steps
from omen_solver.omens.proofs.observe import Resolutions, observe_bout
from omen_solver.omens.rules import make_rules, option_specs
from tests.omens_proofs.coverage import COVERAGE

DECK = Deck(default_catalogue())
DEFAULT_TIER = 1_500
SLOW_TIER = 40_000


def _check(seeds: range, *, default_rules: bool = False) -> None:
    failures = []
    for seed in seeds:
        observed, problems = check_bout(seed, deck=DECK, default_rules=default_rules)
        if observed is None:
            continue
        COVERAGE["whole bouts"] += 1
        COVERAGE["placements"] += len(observed.steps)
        if problems:
            failures.append(f"seed {seed}: " + "; ".join(problems[:3]))
    assert not failures, "\n".join(failures[:10])


def test_random_bouts_agree_with_the_engine() -> None:
    """Every option at a random setting (rules file 000, all of "Special Card Effects")."""
    _check(range(DEFAULT_TIER))


def test_random_bouts_under_the_default_options_agree() -> None:
    _check(range(10_000_000, 10_000_000 + DEFAULT_TIER // 4), default_rules=True)


@pytest.mark.slow
def test_many_random_bouts_agree_with_the_engine() -> None:
    _check(range(1_000_000, 1_000_000 + SLOW_TIER))


def test_an_observer_sees_each_bout_resolved_and_changes_nothing() -> None:
    """The engine's observer argument (``OmensState.child(move, observer=...)``) is told of
    every bout a move resolves, with the cards in play as the bout is resolved (rules file
    000, "How a Bout Is Resolved": everyone has played), and the move plays exactly as
    without it."""
    told = 0
    for seed in range(200):
        bout = random_bout(seed, catalogue=DECK.catalogue)
        if bout is None:
            continue
        watched = Resolutions()
        plain = watched_state = bout.start
        dealt = {card for hand in bout.start.hands for card in hand}
        for move in bout.moves:
            plain = plain.child(move)
            watched_state = watched_state.child(move, observer=watched)
            assert watched_state.key() == plain.key()
            if watched.calls:
                (seen,) = watched.calls
                in_play = {p.card for p in seen.front}
                held = {card for mask in seen.hands for card in range(64) if mask >> card & 1}
                # nothing has left the bout yet: every card dealt is in a hand or in play
                assert in_play | held == dealt and not in_play & held
                # everyone who still holds a card has played ("Game Sequence")
                assert all(seen.played >> seat & 1 for seat, hand in enumerate(seen.hands) if hand)
                assert seen.outcome.winning_card in in_play | {None}
                told += 1
                watched.calls.clear()
        assert watched_state.key() == bout.end.key()
    assert told >= 150


END_OPTIONS = (
    "extreme_includes_self", "fear_pass_on", "sadness_lone_card", "card_owner",
)  # fmt: skip
"""The options that act when a bout is resolved (the others act while cards are placed or
after the cards are back)."""


def test_every_small_set_of_cards_ends_as_the_engine_resolves_it() -> None:
    """Bounded exhaustive: every set of 1 or 2 cards of the deck in play (4 players, each card
    in front of its own player, seat 1 leading, default options): the model's end of the bout
    and the engine's resolve_bout agree (rules file 000, "How a Bout Is Resolved";
    omens-cards.md, every card's effect)."""
    rules = make_rules()
    failures = []
    for size in (1, 2):
        for values in itertools.combinations(sorted(DECK.catalogue), size):
            cards = [(v, seat, seat) for seat, v in enumerate(values)]
            problems = end_agreement(DECK, rules, 4, 0, cards)
            if problems:
                failures.append(f"{values}: {problems}")
            COVERAGE["ends of bouts"] += 1
    assert not failures, "\n".join(failures[:10])


@pytest.mark.slow
def test_every_set_of_three_cards_ends_as_the_engine_resolves_it() -> None:
    """Bounded exhaustive, slow tier: every set of 3 cards in play (6,545 sets) under every
    combination of the end-of-bout options, seats as above."""
    specs = {spec.name: spec for spec in option_specs()}
    failures = []
    for setting in itertools.product(*(list(specs[name].settings) for name in END_OPTIONS)):
        rules = make_rules(None, dict(zip(END_OPTIONS, setting, strict=True)))
        for values in itertools.combinations(sorted(DECK.catalogue), 3):
            cards = [(v, seat, seat) for seat, v in enumerate(values)]
            problems = end_agreement(DECK, rules, 4, 0, cards)
            if problems:
                failures.append(f"{values} {setting}: {problems}")
            COVERAGE["ends of bouts"] += 1
    assert not failures, "\n".join(failures[:10])


SEEN = sorted(set(Broken) - {Broken.PASS_ON_IGNORED}, key=lambda b: b.value)


@pytest.mark.parametrize("broken", SEEN, ids=lambda b: str(b.value))
def test_every_broken_rule_is_seen_by_the_comparison(broken: Broken) -> None:
    """The comparison is not vacuous: the model run with a broken rule disagrees with the
    engine on some random bout (pass-on-ignored only differs with fear_pass_on = yes and Fear
    the extreme of a colour, too rare to count on here)."""
    for seed in range(3_000):
        bout = random_bout(seed, catalogue=DECK.catalogue)
        if bout is None:
            continue
        observed, _ = observe_bout(bout.start, bout.moves)
        trace: Any = model_of(bout, observed, DECK, broken=[broken])
        from omen_solver.omens.proofs.observe import disagreements

        if disagreements(observed, trace):
            return
    pytest.fail(f"no random bout showed the broken rule {broken.value!r}")


SYMBOLIC = build_steps(9, start=True, end=True)
"""A whole bout from its start in z3 terms, nine placements: six turns and three more (a Dream
placement under ``plays_again``, Wrath's replacement, Betrayal's gift, or a chain of them)."""


def _pin(bout: Any, observed: Any, given: Any) -> z3.ModelRef:
    """A z3 model of the symbolic bout's inputs, options and choices for a concrete bout (the
    teams and laurels as the concrete run was ``given`` them)."""
    b = SYMBOLIC
    model = z3.Model(b.ctx)
    start = bout.start
    players = start.num_players()
    inputs = b.inputs
    o = b.o
    model.update_value(inputs.table, o.seats((1 << players) - 1))
    model.update_value(inputs.leader, o.seats(1 << start.leader))
    for seat, var in enumerate(inputs.hands):
        hand = start.hands[seat] if seat < players else ()
        model.update_value(var, o.card(sum(1 << c for c in hand)))
    for var, mates in zip(inputs.mates, given.mates, strict=True):
        model.update_value(var, o.seats(mates))
    model.update_value(inputs.laurels, o.seats(given.laurels))
    chosen = bout.rules.as_dict()
    for name in b.options.ladders:
        for var, value in b.options.assignment(name, chosen[name]):
            model.update_value(var, z3.BoolVal(value, b.ctx))
    for var in b.options.broken_vars.values():
        model.update_value(var, z3.BoolVal(False, b.ctx))
    for key, var in b.choices.made.items():
        value = observed.choices.get(key, 0)
        if z3.is_bool(var):
            model.update_value(var, z3.BoolVal(bool(value), b.ctx))
        else:
            model.update_value(var, z3.BitVecVal(int(value), var.size(), b.ctx))
    return model


def _values(model: z3.ModelRef, terms: list[Any]) -> list[int]:
    """Every term's value in one pass of z3's evaluator (shared sub-terms evaluated once)."""
    ctx = SYMBOLIC.ctx
    parts = [
        z3.If(t, z3.BitVecVal(1, 1, ctx), z3.BitVecVal(0, 1, ctx)) if z3.is_bool(t) else t
        for t in terms
    ]
    packed = model.eval(z3.Concat(*parts), model_completion=True).as_long()
    values = []
    for part in reversed(parts):
        width = part.size()
        values.append(packed & ((1 << width) - 1))
        packed >>= width
    return values[::-1]


def test_the_symbolic_model_is_the_tested_model() -> None:
    """The z3 terms the theorems are proved on evaluate, on concrete bouts, to what the
    concrete run gives (the same code in the two algebras)."""
    compared = 0
    for seed in range(150):
        bout = random_bout(seed, catalogue=DECK.catalogue)
        if bout is None:
            continue
        observed, _ = observe_bout(bout.start, bout.moves)
        if len(observed.steps) > len(SYMBOLIC.steps):
            continue
        concrete: Any = model_of(bout, observed, DECK)
        names = ("card", "allowed", "law_after", "in_play_after")
        steps = list(zip(SYMBOLIC.steps, concrete.steps, strict=False))
        end = SYMBOLIC.end
        ends = (
            "win", "discarded", "round_winner", "next_round_leader", "complete",
            "laurels_after", "game_over",
        )  # fmt: skip
        terms = [z3.And(*SYMBOLIC.facts)]
        expected: list[Any] = [True]
        for mine, step in steps:
            terms += [getattr(mine, name) for name in names] + list(mine.hands_after)
            expected += [getattr(step, name) for name in names] + list(step.hands_after)
        terms += [getattr(end, name) for name in ends] + list(end.final_hands)
        expected += [getattr(concrete.end, name) for name in ends] + list(concrete.end.final_hands)
        pinned = _pin(bout, observed, concrete.inputs)
        assert _values(pinned, terms) == [int(v) for v in expected], seed
        compared += 1
    assert compared >= 100
