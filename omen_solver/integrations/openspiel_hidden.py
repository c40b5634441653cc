"""OpenSpiel adapter for hidden hands: a two-team game of imperfect information, and its exact
solution by the sequence-form linear program (and CFR+ as a cross-check).

:mod:`omen_solver.integrations.openspiel` presents one position as a game of perfect
information. Here the game starts with a **chance node over deals** (each a protocol state, with
a weight), and every decision is taken by a team that sees only its **information state**: a
string the caller computes from the deal, the state and the moves so far (the history). Two
states with the same information state for the team to act are one information set: the team
must play the same way in both. This is what OpenSpiel's imperfect-information solvers need:

* OpenSpiel player ``i`` is team ``i`` of :meth:`GameState.teams` (as in the perfect-information
  adapter); its information states must give it **perfect recall** (a team never forgets what
  it saw or did), which the caller's information function guarantees and
  :func:`sequence_form_value` relies on;
* an OpenSpiel action is the **canonical action text**, numbered once for the whole game, so a
  team's actions are the same ids in every state of an information set (a deal where the
  numbering would differ is an error, not a silent mix-up);
* returns are the team returns shifted by half their constant sum (zero-sum), as in the
  perfect-information adapter.

:func:`sequence_form_value` builds the sequence form with OpenSpiel's
``sequence_form_utils`` and solves the zero-sum linear program (Koller, Megiddo and von
Stengel, 1994) with SciPy's HiGHS: the exact value of the game of imperfect information (up to
floating point). :func:`cfr_value` runs OpenSpiel's CFR+ and reports the value of its average
strategy and its NashConv (0 at an equilibrium), an independent check of the same value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from omen_solver.core.game import CHANCE, SIMULTANEOUS, TERMINAL, GameState
from omen_solver.core.walk import Step as Node
from omen_solver.core.walk import TooDeep, drive
from omen_solver.errors import ConceptError
from omen_solver.integrations.openspiel import _joint_choice, _pyspiel

__all__ = [
    "HIDDEN_GAME_NAME",
    "MAX_HIDDEN_STATES",
    "CfrValue",
    "HiddenDeal",
    "Information",
    "SequenceFormValue",
    "Step",
    "cfr_value",
    "make_hidden_game",
    "sequence_form_value",
]

HIDDEN_GAME_NAME: Final = "python_omen_solver_hidden_hands"
MAX_HIDDEN_STATES: Final = 200_000
"""The most states (over all deals) the adapter walks; the sequence form grows with them."""


@dataclass(frozen=True, slots=True)
class HiddenDeal:
    """One deal the chance node at the root can choose, with its (relative) weight."""

    state: GameState[Any]
    weight: Fraction


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the history: the state before it and the move (one action, or a joint
    action at a simultaneous node where one team chooses)."""

    before: GameState[Any]
    move: tuple[Any, ...]


Information = Callable[[int, int, GameState[Any], tuple[Step, ...]], str]
"""``information(team, deal, state, history)``: what ``team`` knows at ``state`` (reached from
deal number ``deal`` by ``history``). It must not depend on anything the team cannot see, and
must let the team recall everything it saw before."""


def _options(state: GameState[Any], team_of: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """The moves at a decision node: single actions, or one team's joint choices."""
    if state.current_player() == SIMULTANEOUS:
        return _joint_choice(state, team_of)
    return [(action,) for action in state.legal_actions()]


def _move_text(state: GameState[Any], move: tuple[Any, ...]) -> str:
    if len(move) == 1 and state.current_player() != SIMULTANEOUS:
        return state.action_to_string(move[0])
    return state.joint_to_string(move)


@dataclass(frozen=True, slots=True)
class _Facts:
    texts: tuple[str, ...]
    """Every move text of every deal, sorted: the OpenSpiel action ids are indexes into it."""
    max_chance_outcomes: int
    max_length: int
    min_return: Fraction
    max_return: Fraction
    total: Fraction


Children = dict[tuple[Hashable, str], GameState[Any]]
"""State key and move text -> the state after the move: each child is made once (the scan
makes them all; OpenSpiel's walks then look them up)."""


def _scan(deals: Sequence[HiddenDeal], team_of: tuple[int, ...], max_states: int,
          children: Children) -> _Facts:
    texts: set[str] = set()
    lengths: dict[Hashable, int] = {}
    returns: set[Fraction] = set()
    totals: set[Fraction] = set()
    outcomes = [len(deals)]

    def walk(state: GameState[Any]) -> Node[int]:
        key = state.key()
        if key in lengths:
            return lengths[key]
        if len(lengths) >= max_states:
            raise ConceptError(
                f"the deals have more than {max_states} states: too large for the sequence form"
            )
        player = state.current_player()
        if player == TERMINAL:
            values = state.team_returns()
            returns.update(values)
            totals.add(sum(values, Fraction(0)))
            length = 0
        elif player == CHANCE:
            chances = state.chance_outcomes()
            outcomes.append(len(chances))
            following = [state.child(o) for o, _ in chances]
        else:
            following = []
            for move in _options(state, team_of):
                text = _move_text(state, move)
                texts.add(text)
                following.append(_child(children, state, move, text))
        if player != TERMINAL:
            longest = 0
            for child in following:
                longest = max(longest, (yield walk(child)))
            length = 1 + longest
        lengths[key] = length
        return length

    try:
        longest = max(drive(walk(deal.state)) for deal in deals)
    except TooDeep as deep:
        raise ConceptError(f"{deep.reason}: too long for the sequence form") from None
    if len(totals) != 1:
        raise ConceptError(
            "the two teams' returns do not add up to a constant "
            f"({', '.join(sorted(map(str, totals)))}): not a zero-sum game"
        )
    return _Facts(tuple(sorted(texts)), max(outcomes), longest + 1, min(returns), max(returns),
                  totals.pop())


def _child(children: Children, state: GameState[Any], move: tuple[Any, ...],
           text: str) -> GameState[Any]:
    key = (state.key(), text)
    found = children.get(key)
    if found is None:
        found = state.joint_child(move) if state.current_player() == SIMULTANEOUS else (
            state.child(move[0]))
        children[key] = found
    return found


@dataclass(frozen=True, slots=True)
class _Place:
    """Where an OpenSpiel state is: the game, the deal, the protocol state and the history.

    OpenSpiel makes a child by deep-copying the state's attributes; everything here is
    immutable, so the copy is the same object (a real deep copy would copy every protocol
    state, and would look the game up by a registered name)."""

    game: Any
    deal: int | None
    state: GameState[Any] | None
    history: tuple[Step, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Place:
        return self


def _game_type() -> Any:
    spiel = _pyspiel()
    kind = spiel.GameType
    return kind(
        short_name=HIDDEN_GAME_NAME,
        long_name="omen_solver deals with hidden hands (two teams)",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC,
        information=kind.Information.IMPERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )


_CLASSES: tuple[type[Any], type[Any]] | None = None


def _classes() -> tuple[type[Any], type[Any]]:
    """The game and state classes, made on first use (importing needs no OpenSpiel)."""
    global _CLASSES
    if _CLASSES is not None:
        return _CLASSES
    spiel = _pyspiel()
    import numpy

    class Observer:
        """OpenSpiel's observer protocol: the information state as a string, no tensor."""

        def __init__(self, game: Any) -> None:
            self.game = game
            self.tensor = numpy.zeros(0, numpy.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: Any, player: int) -> None:
            """No tensor to fill."""

        def string_from(self, state: Any, player: int) -> str:
            return str(state.information(player))

    class HiddenGame(spiel.Game):  # type: ignore[misc, name-defined]
        """Deals with hidden hands as one OpenSpiel game of imperfect information."""

        def __init__(self, deals: Sequence[HiddenDeal], information: Information,
                     max_states: int) -> None:
            if not deals:
                raise ConceptError("no deal to play: the chance node at the root needs one")
            first = deals[0].state
            if len(first.teams()) != 2:
                raise ConceptError(
                    f"the OpenSpiel adapter needs two teams; these deals have {len(first.teams())}"
                )
            self.team_of = tuple(first.team_of(p) for p in range(first.num_players()))
            self.children: Children = {}
            facts = _scan(deals, self.team_of, max_states, self.children)
            half = facts.total / 2
            info = spiel.GameInfo(
                num_distinct_actions=max(1, len(facts.texts)),
                max_chance_outcomes=facts.max_chance_outcomes,
                num_players=2,
                min_utility=float(facts.min_return - half),
                max_utility=float(facts.max_return - half),
                utility_sum=0.0,
                max_game_length=facts.max_length,
            )
            super().__init__(_game_type(), info, {})
            total = sum((deal.weight for deal in deals), Fraction(0))
            if total <= 0:
                raise ConceptError("the deals' weights add up to 0")
            self.deals = tuple(deals)
            self.probabilities = tuple(deal.weight / total for deal in deals)
            self.information = information
            self.facts = facts
            self.action_id = {text: index for index, text in enumerate(facts.texts)}
            self.infoset_actions: dict[tuple[int, str], list[int]] = {}

        def new_initial_state(self) -> Any:
            return HiddenState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer(self)

    class HiddenState(spiel.State):  # type: ignore[misc, name-defined]
        """Before the deal: a chance node; after it, a protocol state and its history."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.place = _Place(game, None, None, ())

        def _now(self) -> GameState[Any]:
            assert self.place.state is not None
            return self.place.state

        def current_player(self) -> int:
            state = self.place.state
            if state is None:
                return int(spiel.PlayerId.CHANCE)
            player = state.current_player()
            if player == TERMINAL:
                return int(spiel.PlayerId.TERMINAL)
            if player == CHANCE:
                return int(spiel.PlayerId.CHANCE)
            if player == SIMULTANEOUS:
                player = state.acting_players()[0]
            return int(self.place.game.team_of[player])

        def _moves(self) -> dict[int, tuple[tuple[Any, ...], str]]:
            state = self._now()
            game = self.place.game
            found: dict[int, tuple[tuple[Any, ...], str]] = {}
            for move in _options(state, game.team_of):
                text = _move_text(state, move)
                ident = game.action_id.get(text)
                if ident is None or ident in found:
                    raise ConceptError(f"{state}: the move {text!r} has no single action id")
                found[ident] = (move, text)
            return found

        def _legal_actions(self, player: int) -> list[int]:
            ids = sorted(self._moves())
            # One information set, one set of actions: else the information function merges
            # states the team can tell apart, and every solver would answer wrongly.
            game = self.place.game
            key = (player, self.information(player))
            known = game.infoset_actions.setdefault(key, ids)
            if known != ids:
                texts = [game.facts.texts[i] for i in (set(known) ^ set(ids))]
                raise ConceptError(
                    f"team {player + 1}: one information state has different legal actions in "
                    f"two deals ({', '.join(sorted(texts))}): the information function hides "
                    "something the team sees"
                )
            return ids

        def chance_outcomes(self) -> list[tuple[int, float]]:
            state = self.place.state
            if state is None:
                return [(i, float(p)) for i, p in enumerate(self.place.game.probabilities)]
            return [(i, float(p)) for i, (_, p) in enumerate(state.chance_outcomes())]

        def _apply_action(self, action: int) -> None:
            place = self.place
            if place.state is None:
                self.place = _Place(place.game, action, place.game.deals[action].state, ())
                return
            state = place.state
            if state.current_player() == CHANCE:
                outcome = state.chance_outcomes()[action][0]
                move: tuple[Any, ...] = (outcome,)
                after = state.child(outcome)
            else:
                move, text = self._moves()[action]
                after = _child(place.game.children, state, move, text)
            self.place = _Place(place.game, place.deal, after, (*place.history, Step(state, move)))

        def _action_to_string(self, player: int, action: int) -> str:
            state = self.place.state
            if state is None:
                return f"deal {action + 1}"
            if state.current_player() == CHANCE:
                return state.action_to_string(state.chance_outcomes()[action][0])
            return str(self.place.game.facts.texts[action])

        def information(self, player: int) -> str:
            place = self.place
            if place.state is None or place.deal is None:
                return "before the deal"
            return str(place.game.information(player, place.deal, place.state, place.history))

        def is_terminal(self) -> bool:
            return self.place.state is not None and self.place.state.is_terminal()

        def returns(self) -> list[float]:
            state = self.place.state
            if state is None or not state.is_terminal():
                return [0.0, 0.0]
            half = self.place.game.facts.total / 2
            return [float(value - half) for value in state.team_returns()]

        def __str__(self) -> str:
            state = self.place.state
            return "before the deal" if state is None else str(state)

    _CLASSES = (HiddenGame, HiddenState)
    return _CLASSES


def make_hidden_game(
    deals: Sequence[HiddenDeal], information: Information, max_states: int = MAX_HIDDEN_STATES
) -> Any:
    """An OpenSpiel game: chance picks one of ``deals`` (by weight), then the teams play, each
    seeing only ``information``. Refused (:class:`ConceptError`) with the reason: not two teams,
    not constant-sum, a simultaneous node where both teams choose, or more than ``max_states``
    states."""
    game_class, _ = _classes()
    return game_class(deals, information, max_states)


# -- solving it ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SequenceFormValue:
    """The value of the game of imperfect information for each team (a team return, e.g. its
    probability of winning), and the sizes of the linear program."""

    values: tuple[float, float]
    sequences: tuple[int, int]
    """The number of sequences of each team (the LP's variables)."""
    information_sets: tuple[int, int]


def _team_values(game: Any, zero_sum: float) -> tuple[float, float]:
    """Team returns from team 0's zero-sum value (the returns add up to the game's total; any
    other zero-sum OpenSpiel game, e.g. Kuhn poker, keeps its own returns)."""
    facts = getattr(game, "facts", None)
    half = 0.0 if facts is None else float(facts.total) / 2
    return zero_sum + half, half - zero_sum


def sequence_form_value(game: Any) -> SequenceFormValue:
    """Solve ``game`` exactly: the sequence-form linear program of a two-player zero-sum game
    with perfect recall, built by OpenSpiel's ``sequence_form_utils``, solved by SciPy's HiGHS.

    Team 0 chooses a realization plan ``x`` (``E x = e``, ``x >= 0``); against it team 1's best
    response is the linear program ``min (Aᵀx)·y, F y = f, y >= 0``, whose dual
    ``max f·v, Fᵀv <= Aᵀx`` is folded in: maximise ``f·v`` over ``x`` and ``v`` together.
    """
    import numpy
    from open_spiel.python.algorithms import sequence_form_utils as forms
    from scipy.optimize import linprog

    (infosets, sequences, action_maps, parents, payoff, _) = forms.construct_vars(game)
    constraints = forms.construct_constraint_vars(parents, sequences, action_maps)
    big_e, small_e = constraints[0]
    big_f, small_f = constraints[1]
    matrix = payoff[0]
    count_x, count_v = matrix.shape[0], big_f.shape[0]
    # Variables: x (count_x, >= 0), then v (count_v, free). Minimise -f.v.
    objective = numpy.concatenate([numpy.zeros(count_x), -small_f])
    upper = numpy.hstack([-matrix.T, big_f.T])
    equal = numpy.hstack([big_e, numpy.zeros((big_e.shape[0], count_v))])
    bounds = [(0, None)] * count_x + [(None, None)] * count_v
    solution = linprog(objective, A_ub=upper, b_ub=numpy.zeros(matrix.shape[1]), A_eq=equal,
                       b_eq=small_e, bounds=bounds, method="highs")
    if solution.status != 0:
        raise ConceptError(f"the sequence-form linear program failed: {solution.message}")
    return SequenceFormValue(
        _team_values(game, -float(solution.fun)),
        (len(sequences[0]), len(sequences[1])),
        (len(infosets[0]) - 1, len(infosets[1]) - 1),
    )


@dataclass(frozen=True)
class CfrValue:
    """CFR+'s average strategy after some iterations: its value for each team and its NashConv
    (the sum of what each team gains by deviating; 0 at an equilibrium)."""

    values: tuple[float, float]
    nash_conv: float
    iterations: int


def cfr_value(game: Any, iterations: int) -> CfrValue:
    """Run OpenSpiel's CFR+ for ``iterations`` and evaluate its average strategy."""
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    values = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    return CfrValue(_team_values(game, float(values[0])),
                    float(exploitability.nash_conv(game, average)), iterations)

