"""Arithmetic questions a player asks about a war, answered exactly with z3 and
python-constraint2, and cross-checked by the endgame search on the same position.

* ``win-city CITY``: can the active player, playing units from hand into the city this Surge
  step, make it war-torn and win its war this turn?
* ``fewest-coins CITY``: the fewest coins those plays cost (to take the city's top Reward).
* ``keep CITY``: after the active player's war in the city, which units to keep (one choice
  per distinct set of units) so that the opponent cannot win the city's war in their next turn.

**The question, exactly.** Only plays into the city of units with no ability at all (no
DEPLOY, Spirit choice, passive, Portent, end-of-Surge, AT WAR, RITUAL or SCORNED) count, and
nothing else the players could do: no Rewards, DIRGE, INVOKE, BARTER or Heroes; in ``keep``,
the active player makes no further choice this turn (no Offering) and the opponent's next turn
is its Wealth step (cards or coins, with the all-same bonus; every card drawn the one worst for
the active player) and then such plays. The cross-check asks the search the same question:
:func:`restricted` is the action filter, :func:`omen_solver.omen.endgame.goal_search` the
search.

**Where the arithmetic is exact.** Nothing else may change the city between the plays and the
war: no Priestess on the table (RITUAL, SCORNED), no unit in play with a Portent, end-of-Surge,
AT WAR or passive ability, no Relics of Olympus, no Heroes in hand; for ``keep``, a deck of at
least 4 cards (no reshuffle) and 003's extra Wealth actions off. A position outside this is an
error that says which condition fails (the endgame search answers it instead).

War rules used (003 Step 5, 001 Phase 5, 004 War Step): war-torn when a side has 3 units (R1:
whose side) or both have 5 (COLOSSAL and Enraged counting 2); the higher Strength wins, a tie
goes to R2 (more Soldiers, or higher total unit cost), else no winner; capacity 5 (001 Cities).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import constraint
import z3

from omen_solver.core.budget import Budget
from omen_solver.core.smt import Possibility, check, make_context, make_optimizer, make_solver
from omen_solver.errors import ArithmeticQuestionError
from omen_solver.omen.endgame import Draws, Goal, Restriction, goal_search
from omen_solver.omen.engine import settle
from omen_solver.omen.notation import Action
from omen_solver.omen.offering import COIN_CAP
from omen_solver.omen.rules import CoinLimit, ExtraWealthActions, Relics
from omen_solver.omen.state import OmenState
from omen_solver.omen.war import WAR_THREE, WAR_TOTAL, Keep
from omen_solver.omen.wealth import BASE_ACTIONS
from omen_solver.omen.zones import CAPACITY, Unit

__all__ = ["Answer", "ArithmeticQuestionError", "Check", "Question", "ask", "cross_check",
           "keep_sets", "plain_unit", "restricted"]


class Question(enum.Enum):
    WIN_CITY = "win-city"
    FEWEST_COINS = "fewest-coins"
    KEEP = "keep"


@dataclass(frozen=True)
class Side:
    """What the war arithmetic needs of one side of the city."""

    size: int
    strength: int
    soldiers: int
    cost: int


@dataclass(frozen=True)
class Piece:
    """A kind of card a player may play (or keep) in the model."""

    card: str
    count: int
    cost: int
    size: int
    strength: int
    soldier: int


@dataclass
class Answer:
    """The answer to one question (seats from 1 in every text)."""

    question: Question
    city: int
    seat: int
    possible: bool | None
    """win-city: the city can be won; fewest-coins: it can be won with some coins."""
    plays: tuple[str, ...] = ()
    """A witness: the plays (canonical notation)."""
    coins: int | None = None
    """fewest-coins: the fewest coins; the seat's coins are ``have``."""
    have: int | None = None
    holding: tuple[tuple[str, ...], ...] = ()
    """keep: the sets of kept units (canonical ``keep`` actions) after which the city holds."""
    choices: tuple[tuple[str, ...], ...] = ()
    """keep: every distinct set of units the seat may keep."""
    excluded: tuple[str, ...] = ()
    """Cards in hand the model does not play (they have an ability)."""
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question.value, "city": self.city + 1, "seat": self.seat,
            "possible": self.possible, "plays": list(self.plays), "coins": self.coins,
            "have": self.have, "holding": [list(k) for k in self.holding],
            "choices": [list(k) for k in self.choices], "excluded": list(self.excluded),
            "notes": self.notes,
        }

    @property
    def negative(self) -> bool:
        """The answer is "no": the city cannot be won (win-city, fewest-coins), or no choice
        of units to keep holds it (keep)."""
        if self.question is Question.KEEP:
            return not self.holding
        return not self.possible

    def lines(self) -> list[str]:
        where = f"city {self.city + 1}"
        if self.question is Question.WIN_CITY:
            text = (f"seat {self.seat} can make {where} war-torn and win it this turn: "
                    + ("yes, playing " + ", ".join(self.plays) if self.possible else "no"))
        elif self.question is Question.FEWEST_COINS:
            text = (f"the fewest coins for seat {self.seat} to win {where} this turn: "
                    + (f"{self.coins} (playing {', '.join(self.plays) or 'nothing'}); seat "
                       f"{self.seat} has {self.have}" if self.possible else "none will do"))
        else:
            held = ["; ".join(k) for k in self.holding]
            text = (f"seat {self.seat}'s choices of units to keep in {where} that hold it "
                    f"through the opponent's next turn: {' | '.join(held) or 'none'} (of "
                    f"{len(self.choices)} distinct choices)")
        extra = [f"not played (cards with an ability): {', '.join(self.excluded)}"] if (
            self.excluded) else []
        return [text, *extra, *self.notes]


# -- reading the position -------------------------------------------------------------------


def _side(state: OmenState, city: int, player: int, units: Sequence[Unit] | None = None
          ) -> Side:
    units = state.cities[city].sides[player] if units is None else units
    return Side(
        size=sum(state.unit_size(u) for u in units),
        strength=sum(state.strength(u) for u in units),
        soldiers=sum(state.unit_type(u) == "Soldier" for u in units),
        cost=sum(state.card(u.card).cost for u in units),
    )


def plain_unit(state: OmenState, card_id: str) -> bool:
    """A unit with no ability that could act once it is in a city (the model plays only
    these)."""
    card = state.card(card_id)
    return card.is_unit and card.unit_type != "Hero" and not (
        card.deploy or card.deploy_alt or card.passive or card.portent or card.end_of_surge
        or card.at_war or card.ritual or card.scorned)


def _pieces(state: OmenState, cards: Sequence[str]) -> tuple[list[Piece], list[str]]:
    """The units among ``cards`` the model plays, and those it leaves out."""
    pieces, excluded = [], []
    for card_id, count in sorted(Counter(cards).items()):
        card = state.card(card_id)
        if not plain_unit(state, card_id):
            excluded.append(card_id)
            continue
        pieces.append(Piece(card_id, count, card.cost, 2 if card.colossal else 1,
                            card.strength or 0, int(card.unit_type == "Soldier")))
    return pieces, excluded


def _check_domain(state: OmenState, city: int) -> None:
    """The conditions under which the arithmetic is the game (module docstring)."""
    if not 0 <= city < 3:
        raise ArithmeticQuestionError(f"city {city + 1}: the cities are 1, 2 and 3")
    problems = []
    if not state.cities[city].rewards:
        problems.append(f"city {city + 1} has no Reward left: it can never be war-torn")
    for owner, where, unit in state.units():
        card = state.card(unit.card)
        what = f"seat {owner + 1}'s {unit.card} in city {where + 1}"
        if card.ritual:
            problems.append(f"{what} is a Priestess (RITUAL and SCORNED can change the city)")
        elif not unit.enraged and (card.portent or card.end_of_surge or card.at_war
                                   or card.passive):
            problems.append(f"{what} has an ability that acts before the war")
    if state.rules.relics == Relics.ON and state.relic_pool:
        problems.append("Relics of Olympus are in play (a Relic's ability may act)")
    for seat, player in enumerate(state.players, start=1):
        heroes = [c for c in player.hand if state.card(c).unit_type == "Hero"]
        if heroes:
            problems.append(f"seat {seat} holds the Hero {heroes[0]}")
    if problems:
        raise ArithmeticQuestionError("the war arithmetic does not cover this position (ask the "
                               "endgame search instead): " + "; ".join(problems))


def _torn(rules_trigger: str, active: Any, opposing: Any) -> Any:
    """R1 (war_trigger), for the side sizes of the active and the opposing player."""
    three = {"active": active >= WAR_THREE, "opposing": opposing >= WAR_THREE,
             "either": z3.Or(active >= WAR_THREE, opposing >= WAR_THREE)}[rules_trigger]
    return z3.Or(three, active + opposing >= WAR_TOTAL)


def _wins(tiebreak: str, ours: Any, theirs: Any) -> Any:
    """R2: the higher Strength, else the tie-break (Soldiers or total unit cost)."""
    strength, soldiers, cost = ours
    t_strength, t_soldiers, t_cost = theirs
    broken = soldiers > t_soldiers if tiebreak == "soldiers" else cost > t_cost
    return z3.Or(strength > t_strength, z3.And(strength == t_strength, broken))


@dataclass
class _Model:
    """A z3 model of plays into one city by one player."""

    ctx: z3.Context
    counts: list[Any]
    pieces: list[Piece]

    def totals(self, attr: str) -> Any:
        return z3.Sum([z3.IntVal(0, self.ctx)] + [
            getattr(p, attr) * x for p, x in zip(self.pieces, self.counts, strict=True)])

    def plays(self, model: Any, city: int) -> tuple[str, ...]:
        texts = []
        for piece, x in zip(self.pieces, self.counts, strict=True):
            texts += [f"play {piece.card} {city + 1}"] * model.eval(x).as_long()
        return tuple(texts)


def _plays_model(ctx: z3.Context, pieces: list[Piece], prefix: str) -> tuple[_Model, list[Any]]:
    counts = [z3.Int(f"{prefix}_{p.card}", ctx) for p in pieces]
    facts = [z3.And(x >= 0, x <= p.count) for p, x in zip(pieces, counts, strict=True)]
    return _Model(ctx, counts, pieces), facts


def _win_facts(state: OmenState, city: int, model: _Model, ours: Side, theirs: Side,
               active_is_ours: bool) -> list[Any]:
    size = ours.size + model.totals("size")
    ours_z = (ours.strength + model.totals("strength"), ours.soldiers + model.totals("soldier"),
              ours.cost + model.totals("cost"))
    theirs_z = (theirs.strength, theirs.soldiers, theirs.cost)
    active, opposing = (size, theirs.size) if active_is_ours else (theirs.size, size)
    return [size <= CAPACITY, _torn(state.rules.war_trigger, active, opposing),
            _wins(state.rules.war_tiebreak, ours_z, theirs_z)]


def _surge_ready(state: OmenState) -> None:
    if state.over or state.turn.step != "surge" or state.current_player() != state.active:
        raise ArithmeticQuestionError("win-city and fewest-coins ask about the active "
                                      "player's Surge step: the position must be at a Surge "
                                      "decision")


def _win_city(state: OmenState, city: int, question: Question) -> Answer:
    _check_domain(state, city)
    _surge_ready(state)
    player = state.active
    pieces, excluded = _pieces(state, state.players[player].hand)
    ctx = make_context()
    model, facts = _plays_model(ctx, pieces, "play")
    facts += _win_facts(state, city, model, _side(state, city, player),
                        _side(state, city, 1 - player), True)
    have = state.players[player].coins
    answer = Answer(question, city, player + 1, None, excluded=tuple(excluded), have=have)
    cost = model.totals("cost")
    optimizer = make_optimizer(ctx)
    optimizer.add(*facts)
    if question is Question.WIN_CITY:
        optimizer.add(cost <= have)
    optimizer.minimize(cost)
    for x in model.counts:
        optimizer.minimize(x)  # the same witness every time: the cheapest, then the fewest
    result = optimizer.check()
    if result == z3.unknown:
        raise ArithmeticQuestionError(f"z3 could not decide ({optimizer.reason_unknown()})")
    answer.possible = result == z3.sat
    if answer.possible:
        found = optimizer.model()
        answer.plays = model.plays(found, city)
        answer.coins = found.eval(cost).as_long()
    return answer


# -- keep --------------------------------------------------------------------------------------


def _keep_frame(state: OmenState, city: int) -> Keep:
    frame = state.stack[-1] if state.stack else None
    if not isinstance(frame, Keep) or frame.city != city or frame.player != state.active or (
            frame.kept):
        raise ArithmeticQuestionError(f"keep asks about the active player's choice of units "
                                      f"to keep after the war in city {city + 1}: the "
                                      "position must be at that choice, before any unit is "
                                      "kept")
    return frame


def keep_sets(state: OmenState, units: Sequence[Unit], allowance: int) -> list[tuple[Unit, ...]]:
    """Every distinct set of units a player may keep (python-constraint2): within the
    allowance (COLOSSAL counting 2) and with no unit left out that would still fit (003 Step 5:
    "Winner discards all but 1 unit ... Loser discards all but 2 units")."""
    sizes = [state.unit_size(u) for u in units]
    if sum(sizes) <= allowance:
        return [tuple(sorted(units))]
    problem = constraint.Problem()
    names = [f"u{i}" for i in range(len(units))]
    problem.addVariables(names, [0, 1])
    problem.addConstraint(lambda *kept: sum(s * k for s, k in zip(sizes, kept, strict=True))
                          <= allowance, names)

    def full(*kept: int) -> bool:
        room = allowance - sum(s * k for s, k in zip(sizes, kept, strict=True))
        return all(k or s > room for s, k in zip(sizes, kept, strict=True))

    problem.addConstraint(full, names)
    found = {tuple(sorted(u for u, name in zip(units, names, strict=True) if solution[name]))
             for solution in problem.getSolutions()}
    return sorted(found)


def _opponent_can_take(state: OmenState, city: int, kept: tuple[Unit, ...],
                       their_choices: list[tuple[Unit, ...]]) -> bool:
    """After the active player keeps ``kept``: can the opponent win the city in their next
    turn (any of their own keep choices, any Wealth split, the draws worst for us)?"""
    player, opponent = state.active, 1 - state.active
    ours = _side(state, city, player, kept)
    hand = state.players[opponent].hand
    rest = Counter(state.deck_rest)
    capped = max(0, state.players[player].coins - COIN_CAP) if (
        state.rules.coin_cap == CoinLimit.TEN) else 0
    supply = state.supply + capped  # the active player's coins above the cap go back first
    for theirs_kept in their_choices:
        theirs = _side(state, city, opponent, theirs_kept)
        for cards in range(BASE_ACTIONS + 1):
            coin_actions = BASE_ACTIONS - cards
            bonus = int(cards in (0, BASE_ACTIONS))
            drawn = cards + bonus * (cards == BASE_ACTIONS)
            coins = coin_actions + bonus * (cards == 0)
            gained = min(coins, supply)
            top = list(state.deck_top[:drawn])
            from_rest = drawn - len(top)
            if _attack(state, city, opponent, hand + tuple(top), rest, from_rest,
                       state.players[opponent].coins + gained, theirs, ours):
                return True
    return False


def _attack(state: OmenState, city: int, attacker: int, hand: Sequence[str],
            rest: Counter[str], from_rest: int, coins: int, mine: Side, theirs: Side) -> bool:
    """Whether ``attacker`` (the active player of that turn) wins the city with plays from
    ``hand`` plus any ``from_rest`` cards of the shuffled ``rest`` (chosen by the attacker)."""
    ctx = make_context()
    pieces, _ = _pieces(state, hand)
    model, facts = _plays_model(ctx, pieces, "hand")
    drawable, _ = _pieces(state, list(rest.elements()))
    draws = [z3.Int(f"draw_{p.card}", ctx) for p in drawable]
    plays = [z3.Int(f"drawn_{p.card}", ctx) for p in drawable]
    for piece, d, x in zip(drawable, draws, plays, strict=True):
        facts += [d >= 0, d <= piece.count, x >= 0, x <= d]
    others = sum(rest.values()) - sum(p.count for p in drawable)
    facts.append(z3.Sum([z3.IntVal(0, ctx), *draws]) <= from_rest)
    facts.append(z3.Sum([z3.IntVal(0, ctx), *draws]) + others >= from_rest)
    both = _Model(ctx, model.counts + plays, model.pieces + drawable)
    facts.append(both.totals("cost") <= coins)
    facts += _win_facts(state, city, both, mine, theirs, True)
    solver = make_solver(ctx)
    solver.add(*facts)
    possibility, reason = check(solver)
    if reason:
        raise ArithmeticQuestionError(f"z3 could not decide ({reason})")
    return possibility is Possibility.POSSIBLE


def _keep(state: OmenState, city: int) -> Answer:
    _check_domain(state, city)
    frame = _keep_frame(state, city)
    if state.rules.extra_wealth_actions == ExtraWealthActions.ON:
        raise ArithmeticQuestionError("003's optional extra Wealth actions are on: not modelled")
    if len(state.deck_top) + len(state.deck_rest) < BASE_ACTIONS + 1:
        raise ArithmeticQuestionError("the deck has fewer than 4 cards: the opponent's Wealth step "
                               "could reshuffle the discard pile")
    player = state.active
    units = state.cities[city].sides[player]
    choices = keep_sets(state, units, frame.allowance)
    opponent = 1 - player
    theirs = state.stack[-2]  # the opponent keeps next (war.py: the active player first)
    assert isinstance(theirs, Keep) and theirs.player == opponent
    rewards_after = len(state.cities[city].rewards)
    answer = Answer(Question.KEEP, city, player + 1, None,
                    choices=tuple(_keep_texts(state, city, player, k) for k in choices))
    if rewards_after == 0:
        answer.holding = answer.choices
        answer.possible = True
        answer.notes.append(f"city {city + 1} has no Reward left: it is never war-torn again")
        return answer
    their_choices = keep_sets(state, state.cities[city].sides[opponent], theirs.allowance)
    holding = [_keep_texts(state, city, player, kept) for kept in choices
               if not _opponent_can_take(state, city, kept, their_choices)]
    answer.holding = tuple(holding)
    answer.possible = bool(holding)
    return answer


def _keep_texts(state: OmenState, city: int, player: int, kept: tuple[Unit, ...]
                ) -> tuple[str, ...]:
    return tuple(f"keep {state.ref(player, city, u)}" for u in kept)


def ask(state: OmenState, question: Question | str, city: int) -> Answer:
    """Answer ``question`` about ``city`` (0-based; the texts say cities 1-3)."""
    question = _question(question)
    if question is Question.KEEP:
        return _keep(state, city)
    return _win_city(state, city, question)


def _question(question: Question | str) -> Question:
    if isinstance(question, Question):
        return question
    try:
        return Question(question)
    except ValueError:
        known = ", ".join(q.value for q in Question)
        raise ArithmeticQuestionError(f"question {question!r}: choose one of {known}") from None


# -- the same questions asked of the search ------------------------------------------------


def restricted(city: int, attacker: int, passive: int | None = None) -> Restriction:
    """The action filter of the cross-check: ``attacker`` plays only units with no ability
    into ``city`` (and spends Wealth actions on cards or coins); ``passive`` (if given) makes
    no choice but the first."""

    def allowed(state: OmenState, actions: tuple[Action, ...]) -> tuple[Action, ...]:
        player = state.current_player()
        if player == passive:
            done = [a for a in actions if a.verb == "done"]
            return (done[0],) if done else actions[:1]
        if player != attacker:
            return actions
        step = state.turn.step
        if step == "surge":
            return tuple(a for a in actions if a.verb == "done" or (
                a.verb == "play" and a.city(1) == city
                and plain_unit(state, a.card())))
        if step == "wealth":
            return tuple(a for a in actions if a.verb == "wealth")
        return actions

    return allowed


@dataclass
class Check:
    """The search's answer to the same question, and whether it agrees (``None``: the
    search ran out of its budget)."""

    agrees: bool | None
    detail: str


def _search_wins(state: OmenState, city: int, budget: Budget) -> bool | None:
    goal = Goal(state.active, city, state.turn.number)
    run = goal_search(state, goal, restricted(city, state.active), asked=state.active,
                      budget=budget)
    if run.value is None or run.exceeded is not None:
        return None
    return run.value == 1


def _with_coins(state: OmenState, coins: int) -> OmenState:
    """The position with the active player holding ``coins`` (the supply makes up the rest)."""
    player = state.players[state.active]
    supply = state.supply + player.coins - coins
    if supply < 0:
        raise ArithmeticQuestionError(f"{coins} coins: more than the game has")
    # Settled again, so that the legal actions are those of the new coins.
    return settle(state.update_player(state.active, coins=coins).but(supply=supply))


def cross_check(state: OmenState, answer: Answer, budget: Budget | None = None) -> Check:
    """Ask the endgame search the same question on the same position (module docstring)."""
    budget = budget or Budget(max_nodes=500_000)
    city = answer.city
    if answer.question is Question.WIN_CITY:
        found = _search_wins(state, city, budget)
        if found is None:
            return Check(None, "the search ran out of its budget")
        return Check(found == answer.possible, f"search: {'yes' if found else 'no'}")
    if answer.question is Question.FEWEST_COINS:
        return _check_fewest(state, answer, budget)
    return _check_keep(state, answer, budget)


def _check_fewest(state: OmenState, answer: Answer, budget: Budget) -> Check:
    if not answer.possible or answer.coins is None:
        most = state.players[state.active].coins + state.supply
        found = _search_wins(_with_coins(state, most), answer.city, budget)
        agrees = None if found is None else not found
        return Check(agrees, f"search with all {most} coins of the game: "
                     f"{'wins' if found else 'does not win'}")
    enough = _search_wins(_with_coins(state, answer.coins), answer.city, budget)
    fewer = False if answer.coins == 0 else _search_wins(
        _with_coins(state, answer.coins - 1), answer.city, budget)
    if enough is None or fewer is None:
        return Check(None, "the search ran out of its budget")
    return Check(enough and not fewer, f"search: wins with {answer.coins} coins: {enough}; "
                 f"with one fewer: {fewer}")


def _check_keep(state: OmenState, answer: Answer, budget: Budget) -> Check:
    city, player = answer.city, state.active
    goal = Goal(1 - player, city, state.turn.number + 1)
    allowed = restricted(city, 1 - player, passive=player)
    # Asked for the holder: the draws fall worst for the holder (best for the attacker).
    holds = []
    for choice in answer.choices:
        after = state
        for text in choice:
            if after.current_player() == player and after.stack and isinstance(
                    after.stack[-1], Keep) and after.stack[-1].player == player:
                after = after.child(after.string_to_action(text))
        run = goal_search(after, goal, allowed, asked=player, draws=Draws.WORST_CASE,
                          budget=budget)
        if run.value is None or run.exceeded is not None:
            return Check(None, "the search ran out of its budget")
        if run.value == 1:
            holds.append(choice)
    agrees = tuple(holds) == answer.holding
    shown = " | ".join("; ".join(h) for h in holds) or "none"
    return Check(agrees, f"search: the choices that hold: {shown}")
