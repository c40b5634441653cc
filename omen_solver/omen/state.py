"""The Omen game state: every zone of the table (:mod:`.zones`), and the game protocol.

A turn is a small program: the state carries a *stack of frames* (``stack``), each frame one
pending piece of the turn (a step, an ability being resolved, a draw, a war). The top frame
says who decides next and what the legal actions are (a ``Prompt``), or does its work
automatically. After every action the engine runs automatic frames until a decision, a chance
event or the end of the game (``omen_solver.omen.engine.settle``).

Players are 0 and 1 (seats 1 and 2 in text). Hands, discard pile and face-down Rewards are
multisets stored as sorted tuples of card ids, so identical copies are interchangeable and
transpositions merge.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from omen_solver.core.game import (
    CHANCE,
    TERMINAL,
    GameState,
    TraceStep,
    game_named,
    openspiel_argument,
)
from omen_solver.core.suggest import did_you_mean
from omen_solver.errors import IllegalActionError, InvalidActionError, OptionError, PositionError
from omen_solver.omen.board import describe_state
from omen_solver.omen.cards import Card, Catalogue
from omen_solver.omen.engine import apply
from omen_solver.omen.notation import Action, UnitRef, parse_action
from omen_solver.omen.rules import EnragedBecomes, OmenRules, VpTokenSupply
from omen_solver.omen.scoring import returns
from omen_solver.omen.zones import (
    TERMINAL_PROMPT,
    City,
    Player,
    Prompt,
    TurnInfo,
    Unit,
    quick_replace,
)

if TYPE_CHECKING:
    from omen_solver.omen.frames import Frame
    from omen_solver.omen.search_settings import EndgameSettings

__all__ = ["OmenState"]

_FIRST_TURN = TurnInfo()


@dataclass(frozen=True, slots=True, eq=False)
class OmenState(GameState[Action]):
    """A position of Omen. Build one with ``position.load_state`` or ``setup.new_game``."""

    game_name: ClassVar[str | None] = "omen"

    rules: OmenRules
    catalogue: Catalogue
    players: tuple[Player, Player]
    cities: tuple[City, City, City]
    deck_top: tuple[str, ...] = ()
    """Cards on top of the deck in a known order (top first)."""
    deck_rest: tuple[str, ...] = ()
    """The shuffled rest of the deck (sorted multiset: drawing from it is a chance event)."""
    discard: tuple[str, ...] = ()
    supply: int = 0
    tokens: int = 6
    """VP tokens left in the supply (ignored with ``vp_token_supply = 'unlimited'``)."""
    reward_pool: tuple[str, ...] = ()
    """The identities of the face-down (hidden) Rewards still unseen, plus any left in the box."""
    relic_pool: tuple[str, ...] = ()
    challenge_pool: tuple[str, ...] = ()
    feat_cards: tuple[str, ...] = ()
    """The Feats each player has (the same set for both)."""
    box: tuple[str, ...] = ()
    """Cards removed from the game."""
    active: int = 0
    turn: TurnInfo = _FIRST_TURN
    stack: tuple[Frame, ...] = ()
    over: bool = False
    trace: tuple[TraceStep, ...] = field(default=(), compare=False)
    """The rule steps applied by the last action (and the automatic play after it)."""
    prompt: Prompt = field(default=TERMINAL_PROMPT, compare=False)
    search: EndgameSettings | None = field(default=None, compare=False)
    """How the position asks to be solved (its file's ``[search]`` table), if it says."""

    # -- the game protocol ----------------------------------------------------------------

    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        return TERMINAL if self.over else self.prompt.player

    def legal_actions(self, player: int | None = None) -> tuple[Action, ...]:
        if self.over or (player is not None and player != self.prompt.player):
            return ()
        return self.prompt.actions

    def chance_outcomes(self) -> tuple[tuple[Action, Fraction], ...]:
        if self.over or self.prompt.player != CHANCE:
            return ()
        return tuple(zip(self.prompt.actions, self.prompt.probabilities, strict=True))

    def child(self, action: Action | str) -> Self:
        """The state after ``action``, given as an :class:`Action` or its text."""
        if isinstance(action, str):
            action = self.string_to_action(action)
        if action not in self.legal_actions():
            raise IllegalActionError(self._illegal(str(action)))
        return cast(Self, apply(self, action))

    def explain(self, action: Action | str) -> tuple[OmenState, list[TraceStep]]:
        """The successor after ``action`` (an action or its canonical text) and the rule steps
        it caused, each naming its rule id (``docs/omen.md``, Rule ids)."""
        chosen = self.string_to_action(action) if isinstance(action, str) else action
        following = self.child(chosen)
        return following, list(following.trace)

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0,), (1,))

    def returns(self) -> tuple[Fraction, ...]:
        if not self.over:
            return (Fraction(0), Fraction(0))
        return returns(self)

    def key(self) -> Hashable:
        return (
            self.rules,
            self.catalogue.digest,
            self.players,
            self.cities,
            self.deck_top,
            self.deck_rest,
            self.discard,
            self.supply,
            self.tokens,
            self.reward_pool,
            self.relic_pool,
            self.challenge_pool,
            self.feat_cards,
            self.box,
            self.active,
            self.turn,
            self.stack,
            self.over,
        )

    def action_to_string(self, *args: Any) -> str:
        """The text of an action; takes ``(action)`` or OpenSpiel's ``(player, action)``."""
        return str(openspiel_argument(args, "action_to_string"))

    def string_to_action(self, *args: Any) -> Action:
        """The legal action a text names; takes ``(text)`` or OpenSpiel's ``(player, text)``."""
        text = openspiel_argument(args, "string_to_action")
        if not isinstance(text, str):
            raise InvalidActionError(f"expected the text of an action, not {text!r}")
        folded = " ".join(text.split()).casefold()
        for legal in self.legal_actions():  # card ids are lower case: 'Keep 1@1:Immortal'
            if str(legal).casefold() == folded:
                return legal
        action = parse_action(text)
        if action not in self.legal_actions():
            raise IllegalActionError(self._illegal(text))
        return action

    def _illegal(self, text: str) -> str:
        legal = [str(action) for action in self.legal_actions()]
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        where = "the game is over" if self.over else f"step {self.turn.step}"
        hint = did_you_mean(text, legal)
        return (f"{text!r} is not legal here ({where}); " + (f"{hint} " if hint else "")
                + f"legal: {shown or 'none'}")

    # -- the stopping points of its descriptor (omen_solver.omen.game) ----------------------

    def stop_predicate(self, name: str) -> Callable[[OmenState], bool]:
        """``step``: the step in progress here is over; ``turn``: the turn is over."""
        number, step = self.turn.number, self.turn.step
        if name == "turn":
            return lambda state: state.over or state.turn.number != number
        if name == "step":
            return lambda state: (state.over or state.turn.number != number
                                  or state.turn.step != step)
        raise OptionError(f"unknown stopping point {name!r}; known: step, turn")

    def to_text(self) -> str:
        """The position as one line of text (``docs/position-text.md``): the profile, the
        turn, each seat's coins and cards, the cities, the deck and the pools where they are
        not the rest of the cards, the pieces of a turn in progress, the options set apart
        from the profile; seats from 1. :func:`omen_solver.load` (and :meth:`from_text`,
        ``solve --position``) read it back to an equal state."""
        write = game_named("omen").write_text
        assert write is not None
        return str(write(self))

    @staticmethod
    def from_text(text: str) -> OmenState:
        """The state of a position's one-line text (:meth:`to_text`), or of any position
        :func:`omen_solver.omen.load` reads."""
        from omen_solver.core.positions import load

        state = load(text)
        if not isinstance(state, OmenState):
            raise PositionError(f"{text!r} is a position of {state.game_name}, not of Omen")
        return state

    def __repr__(self) -> str:
        """Code that makes the state again: ``OmenState.from_text('omen ...')`` (for a state
        whose cards were not read from card files, the turn, seat and step only)."""
        try:
            return f"OmenState.from_text({self.to_text()!r})"
        except PositionError:
            return f"<OmenState turn {self.turn.number} seat {self.active + 1} {self.turn.step}>"

    def __str__(self) -> str:
        """The table, a few lines: seats, cities, deck, who acts (:mod:`.board`)."""
        return describe_state(self)

    # -- reading the table ----------------------------------------------------------------

    def card(self, card_id: str) -> Card:
        return self.catalogue.cards[card_id]

    def unit_size(self, unit: Unit) -> int:
        """City capacity used by a unit: 2 if COLOSSAL (Beasts, Sphinxes) or Enraged."""
        return 2 if unit.enraged or self.card(unit.card).colossal else 1

    def side_size(self, city: int, player: int) -> int:
        return sum(self.unit_size(unit) for unit in self.cities[city].sides[player])

    def strength(self, unit: Unit) -> int:
        """An Enraged unit has Strength 4 (001, 003, 004 glossary)."""
        return 4 if unit.enraged else self.card(unit.card).strength or 0

    def unit_type(self, unit: Unit) -> str:
        """The type a unit counts as; an Enraged unit 'becomes a Beast' under R10 ``beast``."""
        if unit.enraged and self.rules.enraged_becomes == EnragedBecomes.BEAST:
            return "Beast"
        return self.card(unit.card).unit_type or ""

    def has_unit(self, cards: frozenset[str]) -> bool:
        """Whether some unit in a city is one of ``cards`` (a quick test before a scan)."""
        return any(unit.card in cards for city in self.cities for side in city.sides
                   for unit in side)

    def units(self, player: int | None = None) -> Iterator[tuple[int, int, Unit]]:
        """Every unit in the cities as ``(owner, city, unit)``."""
        for city_index, city in enumerate(self.cities):
            for owner in (0, 1):
                if player is None or owner == player:
                    for unit in city.sides[owner]:
                        yield owner, city_index, unit

    def ref(self, owner: int, city: int, unit: Unit) -> UnitRef:
        return UnitRef(owner, city, unit.card, unit.enraged)

    def find_unit(self, ref: UnitRef, *, unspent: bool = False) -> Unit:
        for unit in self.cities[ref.city].sides[ref.owner]:
            if unit.card == ref.card and unit.enraged == ref.enraged and not (
                unspent and unit.spent
            ):
                return unit
        raise KeyError(str(ref))

    def unlimited_tokens(self) -> bool:
        return self.rules.vp_token_supply == VpTokenSupply.UNLIMITED

    # -- building successors (used by the frames) -----------------------------------------

    def but(self, **changes: Any) -> OmenState:
        return quick_replace(self, **changes)

    def log(self, rule: str, text: str) -> OmenState:
        return quick_replace(self, trace=(*self.trace, TraceStep(rule, text)))

    def push(self, *frames: Frame) -> OmenState:
        """Put frames on the stack; the last one given runs first."""
        return quick_replace(self, stack=(*self.stack, *frames))

    def pop(self) -> OmenState:
        return quick_replace(self, stack=self.stack[:-1])

    def swap(self, *frames: Frame) -> OmenState:
        """Replace the top frame by ``frames`` (the last one given runs first)."""
        return quick_replace(self, stack=(*self.stack[:-1], *frames))

    def with_player(self, index: int, player: Player) -> OmenState:
        players = (player, self.players[1]) if index == 0 else (self.players[0], player)
        return quick_replace(self, players=players)

    def update_player(self, index: int, **changes: Any) -> OmenState:
        return self.with_player(index, quick_replace(self.players[index], **changes))

    def with_city(self, index: int, city: City) -> OmenState:
        cities = list(self.cities)
        cities[index] = city
        return quick_replace(self, cities=(cities[0], cities[1], cities[2]))

    def with_side(self, city: int, player: int, units: tuple[Unit, ...]) -> OmenState:
        return self.with_city(city, self.cities[city].with_side(player, tuple(sorted(units))))

    def add_unit(self, city: int, player: int, unit: Unit) -> OmenState:
        return self.with_side(city, player, (*self.cities[city].sides[player], unit))

    def remove_unit(self, city: int, player: int, unit: Unit) -> OmenState:
        units = list(self.cities[city].sides[player])
        units.remove(unit)
        return self.with_side(city, player, tuple(units))

    def gain_coins(self, player: int, amount: int) -> tuple[OmenState, int]:
        """Take up to ``amount`` coins from the supply: no player can gain more coins than the
        supply holds (004 Wealth Step). Returns the state and the coins actually gained."""
        gained = min(amount, self.supply)
        state = self.update_player(player, coins=self.players[player].coins + gained)
        return state.but(supply=self.supply - gained), gained

    def pay_coins(self, player: int, amount: int) -> OmenState:
        """Return coins to the supply (paying a cost, a coin loss, the coin cap)."""
        paid = min(amount, self.players[player].coins)
        state = self.update_player(player, coins=self.players[player].coins - paid)
        return state.but(supply=self.supply + paid)
