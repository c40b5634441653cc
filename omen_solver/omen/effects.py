"""Abilities: the effect-language interpreter and the triggers of units entering and leaving play.

Rules implemented here:

* **DEPLOY** (Soldiers, Warriors, Spirits) resolves whenever the unit is added to a city:
  played from hand, moved by an ability, or returned from the discard pile; its owner controls
  it (001 Soldiers and Note in Placing Units in Cities; 004 Warriors, Keyword Glossary: Deploy).
  A Spirit's owner picks one of its two DEPLOY abilities (001 Spirits).
* **SCORNED** resolves whenever the Priestess is destroyed while in play or discarded from
  hand (004 Priestesses).
* Abilities are mandatory unless their text says *may* (``may = true``): 003 Step 2, 004 Unit
  Card Types NOTE. A mandatory step with no possible target does nothing.
* **City capacity**: no ability may add a unit to a side at capacity, and a unit cannot be
  Enraged if that would exceed it (004 Surge Step; 001 Additional Rule: Enraged).
* **ENRAGE**: which units may be Enraged is the option ``enrage_targets`` (R10); an Enraged unit
  has Strength 4, no abilities and counts 2 units (001, 003, 004 Keyword Glossary: Enrage).
* Discard abilities apply only to Unit cards, never Rewards (003 Special Rules; 001 Rewards).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from omen_solver.omen.cards import Step
from omen_solver.omen.conditions import count, holds
from omen_solver.omen.draws import Draw, RevealReward
from omen_solver.omen.frames import Frame, decide
from omen_solver.omen.modifiers import unit_strength
from omen_solver.omen.notation import Action, UnitRef
from omen_solver.omen.rules import EnrageTargets
from omen_solver.omen.state import OmenState
from omen_solver.omen.zones import CAPACITY, HIDDEN, Prompt, Unit, add_card, remove_card

__all__ = [
    "DiscardCard",
    "Effect",
    "SpiritChoice",
    "can_enrage",
    "destroy_unit",
    "discard_from_hand",
    "fits",
    "place_unit",
    "use_hero",
]


def _seat(player: int) -> str:
    return f"seat {player + 1}"


# -- units entering and leaving play ----------------------------------------------------------


def fits(state: OmenState, city: int, player: int, size: int) -> bool:
    """Whether ``size`` more units fit on ``player``'s side of ``city`` (capacity 5)."""
    return state.side_size(city, player) + size <= CAPACITY


def card_size(state: OmenState, card: str) -> int:
    return 2 if state.card(card).colossal else 1


def place_unit(state: OmenState, player: int, city: int, unit: Unit, how: str) -> OmenState:
    """``unit`` enters ``player``'s side of ``city`` (the caller checked capacity); its DEPLOY
    ability triggers."""
    state = state.add_unit(city, player, unit)
    state = state.log(f"unit.{how}", f"{_seat(player)}: {unit.card} {how} into city {city + 1}")
    return trigger_deploy(state, player, city, unit)


def trigger_deploy(state: OmenState, player: int, city: int, unit: Unit) -> OmenState:
    card = state.card(unit.card)
    if unit.enraged or not card.deploy:
        return state
    if card.deploy_alt:
        return state.push(SpiritChoice(player, card.id, city))
    state = state.log("deploy", f"{card.id} enters city {city + 1}: its DEPLOY ability resolves")
    return state.push(Effect(player, card.id, city, card.deploy))


def _scorned(state: OmenState, owner: int, card_id: str) -> OmenState:
    card = state.card(card_id)
    if not card.scorned:
        return state
    state = state.log("scorned", f"{card_id} is destroyed or discarded: its SCORNED ability "
                      "resolves")
    return state.push(Effect(owner, card_id, None, card.scorned))


def destroy_unit(state: OmenState, owner: int, city: int, unit: Unit, why: str) -> OmenState:
    """Destroy a unit in play: it goes to the discard pile (an Enraged unit loses its token and
    has no abilities, so no SCORNED)."""
    state = state.remove_unit(city, owner, unit)
    state = state.but(discard=add_card(state.discard, unit.card))
    state = state.log(f"destroy.{why}", f"{_seat(owner)}'s {unit.card} in city {city + 1} is "
                      "destroyed")
    return state if unit.enraged else _scorned(state, owner, unit.card)


def discard_from_hand(state: OmenState, player: int, card: str, why: str) -> OmenState:
    """A unit card goes from ``player``'s hand to the discard pile."""
    hand = remove_card(state.players[player].hand, card)
    state = state.update_player(player, hand=hand).but(discard=add_card(state.discard, card))
    state = state.log(f"discard.{why}", f"{_seat(player)} discards {card}")
    return _scorned(state, player, card)


def use_hero(state: OmenState, player: int, card: str) -> OmenState:
    """A Hero is discarded from hand to use its ability (001 Heroes)."""
    hand = remove_card(state.players[player].hand, card)
    state = state.update_player(player, hand=hand).but(discard=add_card(state.discard, card))
    state = state.log("hero", f"{_seat(player)} discards the Hero {card} for its ability")
    return state.push(Effect(player, card, None, state.card(card).hero))


def can_enrage(state: OmenState, owner: int, city: int, unit: Unit) -> bool:
    """R10: which units may be Enraged; never beyond city capacity (an Enraged unit counts 2)."""
    if unit.enraged:
        return False
    unit_type = state.card(unit.card).unit_type
    allowed = {
        EnrageTargets.NOT_BEASTS_OR_SPIRITS: unit_type not in ("Beast", "Spirit"),
        EnrageTargets.SOLDIERS_AND_ORACLES: unit_type in ("Soldier", "Oracle"),
        EnrageTargets.ANY_UNIT: True,
    }[state.rules.enrage_targets]
    grows = 2 - state.unit_size(unit)
    return allowed and fits(state, city, owner, grows)


# -- the interpreter --------------------------------------------------------------------------


def _targets(state: OmenState, controller: int, step: Step, here: int | None
             ) -> list[tuple[int, int, Unit]]:
    owners = {"own": (controller,), "opponent": (1 - controller,), "any": (0, 1)}[step.side]
    if step.where == "here":
        cities: tuple[int, ...] = () if here is None else (here,)
    elif step.where == "other":
        cities = tuple(c for c in range(3) if c != here)
    else:
        cities = (0, 1, 2)
    found = []
    for owner in owners:
        for city in cities:
            for unit in state.cities[city].sides[owner]:
                if step.unit_type is not None and state.unit_type(unit) != step.unit_type:
                    continue
                if step.max_strength is not None and (
                        unit_strength(state, owner, city, unit) > step.max_strength):
                    continue
                found.append((owner, city, unit))
    return found


def _movable(state: OmenState, owner: int, city: int, unit: Unit) -> list[int]:
    size = state.unit_size(unit)
    return [c for c in range(3) if c != city and fits(state, c, owner, size)]


def _recover_cities(state: OmenState, controller: int, step: Step, here: int | None, card: str
                    ) -> list[int]:
    cities = ([] if here is None else [here]) if step.to == "here" else [0, 1, 2]
    return [c for c in cities if fits(state, c, controller, card_size(state, card))]


def _recoverable(state: OmenState, controller: int, step: Step, here: int | None) -> list[str]:
    cards = sorted(set(state.discard))
    if step.unit_type is not None:
        cards = [c for c in cards if state.card(c).unit_type == step.unit_type]
    if step.to != "hand":
        cards = [c for c in cards if _recover_cities(state, controller, step, here, c)]
    return cards


def _possible(state: OmenState, effect: Effect, step: Step) -> bool:
    """Whether an optional step could do anything (else it is skipped without asking)."""
    c = effect.controller
    if step.op in ("destroy", "move", "enrage", "return_to_hand", "swap"):
        targets = _targets(state, c, step, effect.here)
        if step.op == "move":
            return any(_movable(state, o, city, u) for o, city, u in targets)
        if step.op == "swap":
            return any(_partners(state, targets, t) for t in targets)
        if step.op == "enrage":
            return any(can_enrage(state, o, city, u) for o, city, u in targets)
        return bool(targets)
    if step.op == "return_from_discard":
        return bool(_recoverable(state, c, step, effect.here))
    if step.op == "take_from_hand":
        return any(step.unit_type in (None, state.card(card).unit_type)
                   for card in state.players[1 - c].hand)
    return True


@dataclass(frozen=True, slots=True)
class Effect(Frame):
    """An ability being resolved: ``steps[index]`` is next (``docs/omen-cards.md``)."""

    controller: int
    source: str
    here: int | None
    steps: tuple[Step, ...]
    index: int = 0
    chosen: int | None = None
    """The city chosen by a ``where = 'choose'`` step, for later ``where = 'chosen'`` steps."""
    asked: bool = False
    """The controller said yes to the optional current step."""

    def current(self) -> Step | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    def advanced(self, chosen: int | None = None) -> Effect:
        city = self.chosen if chosen is None else chosen
        return replace(self, index=self.index + 1, asked=False, chosen=city)

    def _blocked(self, state: OmenState, step: Step) -> bool:
        return bool(step.condition) and not holds(state, self.controller, step.condition,
                                                   self.here)

    def prompt(self, state: OmenState) -> Prompt | None:
        step = self.current()
        if step is None or step.op == "require" or self._blocked(state, step):
            return None
        if step.may and not self.asked:
            if not _possible(state, self, step):
                return None
            return decide(self.controller, [Action("yes"), Action("no")])
        if step.where == "choose":
            cities = [c for c in range(3) if step.op != "remove_top_reward"
                      or state.cities[c].rewards]
            if cities:
                return decide(self.controller, [Action.at_city("city", c) for c in cities])
        return None

    def run(self, state: OmenState) -> OmenState:
        step = self.current()
        if step is None:
            return state.pop()
        if step.op == "require":
            if holds(state, self.controller, step.condition, self.here):
                return state.swap(self.advanced())
            return state.log("effect.stop", f"{self.source}: its condition is not met; the "
                             "rest of the ability does not resolve").pop()
        if self._blocked(state, step):
            return state.log("effect.skip", f"{self.source}: condition not met, {step.op} "
                             "skipped").swap(self.advanced())
        if step.may and not self.asked:
            return state.log("effect.skip", f"{self.source}: {step.op} is not possible"
                             ).swap(self.advanced())
        if step.where == "choose":
            return state.log("effect.skip", f"{self.source}: no city to choose for {step.op}"
                             ).swap(self.advanced())
        city = self.here if step.where == "here" else self.chosen
        return _execute(state.swap(self.advanced()), self, step, city)

    def apply(self, state: OmenState, action: Action) -> OmenState:
        step = self.current()
        assert step is not None
        if action.verb == "yes":
            return state.swap(replace(self, asked=True))
        if action.verb == "no":
            return state.log("effect.may", f"{self.source}: {step.op} not used").swap(
                self.advanced())
        city = action.city()
        return _execute(state.swap(self.advanced(chosen=city)), self, step, city)


def _execute(state: OmenState, effect: Effect, step: Step, city: int | None) -> OmenState:
    """Carry out one step (the effect frame below has already advanced past it)."""
    c, amount, source = effect.controller, step.amount, effect.source
    opponent = 1 - c
    if step.per is not None:
        counted = count(state, c, step.per, effect.here)
        amount *= counted
        state = state.log("effect.per", f"{source}: {step.amount} x {counted} "
                          f"({step.per}) = {amount}")
        if amount <= 0:
            return state
    if step.op in _MORE_OPS:
        return _MORE_OPS[step.op](state, effect, step, amount)
    if step.op == "gain_coins":
        state, gained = state.gain_coins(c, amount)
        return state.log("effect.gain_coins", f"{source}: {_seat(c)} gains {gained} coin(s)")
    if step.op == "draw":
        return state.log("effect.draw", f"{source}: {_seat(c)} draws {amount}").push(
            Draw(c, amount))
    if step.op == "opponent_loses_coins":
        lost = min(amount, state.players[opponent].coins)
        return state.pay_coins(opponent, lost).log(
            "effect.opponent_loses_coins", f"{source}: {_seat(opponent)} returns {lost} coin(s)")
    if step.op == "steal_coins":
        taken = min(amount, state.players[opponent].coins)
        state = state.update_player(opponent, coins=state.players[opponent].coins - taken)
        state = state.update_player(c, coins=state.players[c].coins + taken)
        return state.log("effect.steal_coins", f"{source}: {_seat(c)} takes {taken} coin(s)")
    if step.op == "look_at_hand":
        hand = ", ".join(state.players[opponent].hand) or "no cards"
        return state.log("effect.look_at_hand", f"{source}: {_seat(c)} looks at {hand}")
    if step.op == "opponent_discards":
        return state.push(ForcedDiscard(opponent, c, amount))
    if step.op == "take_from_hand":
        return state.push(Steal(c, amount, step.unit_type))
    if step.op == "destroy":
        return state.push(Destroy(c, step, effect.here, amount))
    if step.op == "move":
        return state.push(Move(c, step, effect.here))
    if step.op == "enrage":
        return state.push(Enrage(c, step, effect.here, amount))
    if step.op == "return_from_discard":
        return state.push(Recover(c, step, effect.here, amount))
    if step.op == "destroy_all":
        return _destroy_all(state, source, city)
    if step.op == "remove_top_reward":
        if city is None:
            return state.log("effect.skip", f"{source}: no city chosen; nothing removed")
        return state.push(RemoveReward(city))
    raise AssertionError(f"unknown effect {step.op}")


def _destroy_all(state: OmenState, source: str, city: int | None) -> OmenState:
    if city is None:
        return state
    state = state.log("effect.destroy_all", f"{source}: every unit in city {city + 1} is "
                      "destroyed")
    # The active player's SCORNED abilities are pushed last, so they resolve first.
    for owner in (1 - state.active, state.active):
        for unit in state.cities[city].sides[owner]:
            state = destroy_unit(state, owner, city, unit, "ability")
    return state


def _next(state: OmenState, frame: Any, remaining: int) -> OmenState:
    """Pop a counting frame, or count it down when more choices remain."""
    if remaining <= 1:
        return state.pop()
    following: Frame = replace(frame, remaining=remaining - 1)
    return state.swap(following)


@dataclass(frozen=True, slots=True)
class _UnitsChosen(Frame):
    """``remaining`` units of the controller's choice among the step's targets, each chosen
    with the action ``VERB UNIT`` and then handled by :meth:`_take`; with no target left the
    frame ends, logging ``NONE_LEFT``."""

    VERB: ClassVar[str]
    RULE: ClassVar[str]
    NONE_LEFT: ClassVar[str]

    controller: int
    step: Step
    here: int | None
    remaining: int

    def prompt(self, state: OmenState) -> Prompt | None:
        targets = _targets(state, self.controller, self.step, self.here)
        if not targets:
            return None
        return decide(self.controller,
                      [Action.on(self.VERB, state.ref(o, c, u)) for o, c, u in targets])

    def run(self, state: OmenState) -> OmenState:
        return state.log(self.RULE, self.NONE_LEFT).pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        ref = action.unit()
        return self._take(_next(state, self, self.remaining), ref, state.find_unit(ref))

    def _take(self, state: OmenState, ref: UnitRef, unit: Unit) -> OmenState:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Destroy(_UnitsChosen):
    """Destroy ``remaining`` units of the controller's choice among the step's targets."""

    VERB: ClassVar[str] = "destroy"
    RULE: ClassVar[str] = "effect.destroy"
    NONE_LEFT: ClassVar[str] = "no unit to destroy"

    def _take(self, state: OmenState, ref: UnitRef, unit: Unit) -> OmenState:
        return destroy_unit(state, ref.owner, ref.city, unit, "ability")


@dataclass(frozen=True, slots=True)
class Move(Frame):
    """Move one unit of the controller's choice to another city with room for it."""

    controller: int
    step: Step
    here: int | None
    unit: UnitRef | None = None

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.unit is None:
            targets = [(o, c, u) for o, c, u in _targets(state, self.controller, self.step,
                                                          self.here)
                       if _movable(state, o, c, u)]
            if not targets:
                return None
            return decide(self.controller,
                          [Action.on("move", state.ref(o, c, u)) for o, c, u in targets])
        ref = self.unit
        unit = state.find_unit(ref)
        return decide(self.controller, [Action.at_city("to", c)
                                        for c in _movable(state, ref.owner, ref.city, unit)])

    def run(self, state: OmenState) -> OmenState:
        return state.log("effect.move", "no unit can be moved").pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "move":
            return state.swap(replace(self, unit=action.unit()))
        assert self.unit is not None
        ref, city = self.unit, action.city()
        unit = state.find_unit(ref)
        state = state.remove_unit(ref.city, ref.owner, unit).pop()
        return place_unit(state, ref.owner, city, unit, "moves")


@dataclass(frozen=True, slots=True)
class Enrage(Frame):
    """Enrage ``remaining`` units of the controller's choice (R10, capacity)."""

    controller: int
    step: Step
    here: int | None
    remaining: int

    def prompt(self, state: OmenState) -> Prompt | None:
        targets = [(o, c, u) for o, c, u in _targets(state, self.controller, self.step,
                                                      self.here)
                   if can_enrage(state, o, c, u)]
        if not targets:
            return None
        return decide(self.controller,
                      [Action.on("enrage", state.ref(o, c, u)) for o, c, u in targets])

    def run(self, state: OmenState) -> OmenState:
        return state.log("effect.enrage", "no unit can be Enraged").pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        ref = action.unit()
        unit = state.find_unit(ref)
        state = _next(state, self, self.remaining).remove_unit(ref.city, ref.owner, unit)
        state = state.add_unit(ref.city, ref.owner, replace(unit, enraged=True))
        return state.log("enrage", f"{ref} is Enraged: Strength 4, no abilities, counts 2 units")


@dataclass(frozen=True, slots=True)
class Recover(Frame):
    """Take cards from the discard pile into hand or onto the controller's side of a city."""

    controller: int
    step: Step
    here: int | None
    remaining: int
    card: str | None = None

    def prompt(self, state: OmenState) -> Prompt | None:
        if self.card is None:
            cards = _recoverable(state, self.controller, self.step, self.here)
            if not cards:
                return None
            return decide(self.controller, [Action("return", (card,)) for card in cards])
        cities = _recover_cities(state, self.controller, self.step, self.here, self.card)
        return decide(self.controller, [Action.at_city("to", c) for c in cities])

    def run(self, state: OmenState) -> OmenState:
        return state.log("effect.return_from_discard", "no card can be taken back").pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "return" and self.step.to != "hand":
            return state.swap(replace(self, card=action.card()))
        card = action.card() if action.verb == "return" else self.card
        assert card is not None
        state = state.but(discard=remove_card(state.discard, card))
        state = _next(state, replace(self, card=None), self.remaining)
        if action.verb == "return":
            hand = add_card(state.players[self.controller].hand, card)
            return state.update_player(self.controller, hand=hand).log(
                "effect.return_from_discard", f"{_seat(self.controller)} takes {card} back "
                "into hand (not a draw)")
        return place_unit(state, self.controller, action.city(), Unit(card),
                          "returns")


@dataclass(frozen=True, slots=True)
class ForcedDiscard(Frame):
    """``chooser`` discards ``remaining`` Unit cards of their choice, forced by ``by``."""

    chooser: int
    by: int
    remaining: int

    def _choice(self, state: OmenState) -> bool:
        hand = state.players[self.chooser].hand
        return len(hand) > self.remaining and len(set(hand)) > 1

    def prompt(self, state: OmenState) -> Prompt | None:
        if not self._choice(state):
            return None
        hand = state.players[self.chooser].hand
        return decide(self.chooser, [Action("discard", (card,)) for card in hand])

    def run(self, state: OmenState) -> OmenState:
        hand = state.players[self.chooser].hand
        if not hand:
            return state.log("effect.opponent_discards", f"{_seat(self.chooser)} has no Unit "
                             "card to discard").pop()
        return self._discard(state, hand[0])

    def apply(self, state: OmenState, action: Action) -> OmenState:
        return self._discard(state, action.card())

    def _discard(self, state: OmenState, card: str) -> OmenState:
        forced = list(state.turn.forced)
        forced[self.by] += 1
        state = state.but(turn=replace(state.turn, forced=(forced[0], forced[1])))
        return discard_from_hand(_next(state, self, self.remaining), self.chooser, card,
                                 "forced")


@dataclass(frozen=True, slots=True)
class Steal(Frame):
    """Take ``remaining`` Unit cards of the controller's choice from the opponent's hand."""

    controller: int
    remaining: int
    unit_type: str | None

    def _cards(self, state: OmenState) -> list[str]:
        hand = state.players[1 - self.controller].hand
        return [c for c in hand if self.unit_type is None or state.card(c).unit_type ==
                self.unit_type]

    def prompt(self, state: OmenState) -> Prompt | None:
        cards = self._cards(state)
        return decide(self.controller, [Action("steal", (c,)) for c in cards]) if cards else None

    def run(self, state: OmenState) -> OmenState:
        return state.log("effect.take_from_hand", "no card to take").pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        card, opponent = action.card(), 1 - self.controller
        state = state.update_player(opponent,
                                    hand=remove_card(state.players[opponent].hand, card))
        state = state.update_player(self.controller,
                                    hand=add_card(state.players[self.controller].hand, card))
        state = state.log("effect.take_from_hand",
                          f"{_seat(self.controller)} takes {card} from {_seat(opponent)}'s hand")
        return _next(state, self, self.remaining)


@dataclass(frozen=True, slots=True)
class RemoveReward(Frame):
    """The top Reward of ``city`` is removed from the game (Marduk's Decree, 004)."""

    city: int

    def run(self, state: OmenState) -> OmenState:
        rewards = state.cities[self.city].rewards
        if not rewards:
            return state.log("effect.remove_top_reward",
                             f"city {self.city + 1} has no Reward left").pop()
        if rewards[0] == HIDDEN:
            return state.push(RevealReward(self.city))
        city = replace(state.cities[self.city], rewards=rewards[1:])
        state = state.with_city(self.city, city).but(box=add_card(state.box, rewards[0]))
        return state.log("effect.remove_top_reward",
                         f"{rewards[0]}, the top Reward of city {self.city + 1}, is removed "
                         "from the game").pop()


@dataclass(frozen=True, slots=True)
class SpiritChoice(Frame):
    """A Spirit entered a city: its owner picks one of its two DEPLOY abilities (001 Spirits)."""

    owner: int
    card: str
    city: int

    def prompt(self, state: OmenState) -> Prompt | None:
        return decide(self.owner, [Action("choose", ("1",)), Action("choose", ("2",))])

    def apply(self, state: OmenState, action: Action) -> OmenState:
        card = state.card(self.card)
        steps = card.deploy if action.word() == "1" else card.deploy_alt
        state = state.log("deploy", f"{self.card} enters city {self.city + 1}: DEPLOY ability "
                          f"{action.word()} resolves")
        return state.swap(Effect(self.owner, self.card, self.city, steps))


@dataclass(frozen=True, slots=True)
class DiscardCard(Frame):
    """Discard a card from hand after its ability (DIRGE ``after-effect``, INVOKE)."""

    player: int
    card: str
    why: str

    def run(self, state: OmenState) -> OmenState:
        if self.card not in state.players[self.player].hand:
            return state.log(f"discard.{self.why}", f"{self.card} already left the hand").pop()
        return discard_from_hand(state.pop(), self.player, self.card, self.why)


# -- the primitives a public description of Omen cards mentions (omen-public-cards.md) --------


def _reveal_hand(state: OmenState, effect: Effect, step: Step, amount: int) -> OmenState:
    """A hand shown to both players (every hand is open to the solver: the trace shows it)."""
    who = effect.controller if step.side == "own" else 1 - effect.controller
    hand = ", ".join(state.players[who].hand) or "no cards"
    return state.log("effect.reveal_hand", f"{effect.source}: {_seat(who)} reveals {hand}")


def _cost_change(state: OmenState, effect: Effect, step: Step, amount: int) -> OmenState:
    """The controller's plays cost ``amount`` more (less) for the rest of the turn."""
    change = list(state.turn.cost_change)
    change[effect.controller] += amount
    state = state.but(turn=replace(state.turn, cost_change=(change[0], change[1])))
    word = "more" if amount > 0 else "less"
    return state.log("effect.cost_change", f"{effect.source}: {_seat(effect.controller)}'s "
                     f"units cost {abs(amount)} {word} to play this turn")


def _return_to_hand(state: OmenState, effect: Effect, step: Step, amount: int) -> OmenState:
    return state.push(Recall(effect.controller, step, effect.here, amount))


def _swap(state: OmenState, effect: Effect, step: Step, amount: int) -> OmenState:
    return state.push(Swap(effect.controller, step, effect.here))


_MORE_OPS = {"reveal_hand": _reveal_hand, "cost_change": _cost_change,
             "return_to_hand": _return_to_hand, "swap": _swap}


@dataclass(frozen=True, slots=True)
class Recall(_UnitsChosen):
    """Return ``remaining`` units of the controller's choice to their owners' hands."""

    VERB: ClassVar[str] = "recall"
    RULE: ClassVar[str] = "effect.return_to_hand"
    NONE_LEFT: ClassVar[str] = "no unit to return to its owner's hand"

    def _take(self, state: OmenState, ref: UnitRef, unit: Unit) -> OmenState:
        state = state.remove_unit(ref.city, ref.owner, unit)
        hand = add_card(state.players[ref.owner].hand, unit.card)
        state = state.update_player(ref.owner, hand=hand)
        return state.log(self.RULE, f"{ref} returns to {_seat(ref.owner)}'s hand "
                         "(not destroyed, not discarded)")


def _swapped_fits(state: OmenState, first: tuple[int, int, Unit], second: tuple[int, int, Unit]
                  ) -> bool:
    """Whether each unit fits on its owner's side of the other's city after the exchange."""
    (o1, c1, u1), (o2, c2, u2) = first, second
    if c1 == c2:
        return False
    size1, size2 = state.unit_size(u1), state.unit_size(u2)
    into2 = state.side_size(c2, o1) + size1 - (size2 if o1 == o2 else 0)
    into1 = state.side_size(c1, o2) + size2 - (size1 if o1 == o2 else 0)
    return into2 <= CAPACITY and into1 <= CAPACITY


def _partners(state: OmenState, targets: list[tuple[int, int, Unit]],
              first: tuple[int, int, Unit]) -> list[tuple[int, int, Unit]]:
    return [t for t in targets if _swapped_fits(state, first, t)]


@dataclass(frozen=True, slots=True)
class Swap(Frame):
    """Two units of the controller's choice in different cities exchange cities (each stays
    on its owner's side; both are moved, so their DEPLOY abilities resolve)."""

    controller: int
    step: Step
    here: int | None
    first: UnitRef | None = None

    def prompt(self, state: OmenState) -> Prompt | None:
        targets = _targets(state, self.controller, self.step, self.here)
        if self.first is None:
            firsts = [t for t in targets if _partners(state, targets, t)]
            if not firsts:
                return None
            return decide(self.controller,
                          [Action.on("swap", state.ref(*t)) for t in firsts])
        ref = self.first
        first = (ref.owner, ref.city, state.find_unit(ref))
        return decide(self.controller, [Action.on("with", state.ref(*t))
                                        for t in _partners(state, targets, first)])

    def run(self, state: OmenState) -> OmenState:
        return state.log("effect.swap", "no two units can exchange cities").pop()

    def apply(self, state: OmenState, action: Action) -> OmenState:
        if action.verb == "swap":
            return state.swap(replace(self, first=action.unit()))
        assert self.first is not None
        one, two = self.first, action.unit()
        unit1, unit2 = state.find_unit(one), state.find_unit(two)
        state = state.pop().remove_unit(one.city, one.owner, unit1)
        state = state.remove_unit(two.city, two.owner, unit2)
        state = state.log("effect.swap", f"{one} and {two} exchange cities")
        # Both are in place before either DEPLOY resolves; the first unit's resolves first.
        state = place_unit(state, two.owner, one.city, unit2, "moves")
        return place_unit(state, one.owner, two.city, unit1, "moves")
