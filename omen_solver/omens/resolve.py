"""The end of a bout: the winner and every 'end' effect, resolved simultaneously.

Rules file 000, "How a Bout Is Resolved": the highest card wins unless an effect says
otherwise; the winning card is discarded; every effect resolves at the same time, a discarded
card's effect still applies, and all discards happen together. This module is a pure function
of the cards in play; :mod:`omen_solver.omens.state` applies its result (Luck's discard, cards
going back to hand, the next leader, the round end).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from omen_solver.core.game import TraceStep
from omen_solver.omens.rules import CardOwner, ExtremeIncludesSelf, FearPassOn, SadnessLoneCard
from omen_solver.omens.table import Placement, Table
from omen_solver.omens.vocabulary import Effect

__all__ = ["BoutOutcome", "resolve_bout"]


class BoutOutcome(NamedTuple):
    """What the end of a bout decides before cards go back to hand."""

    winning_card: int | None
    winner: int | None
    """The seat that wins the bout (None only with ``sadness_lone_card = "no_winner"``)."""
    discarded: frozenset[int]
    luck_seat: int | None
    """The seat that must discard a card from hand because Luck was discarded."""
    next_leader: int
    pride: bool
    """Whether Pride chose the next leader."""


Log = list[TraceStep] | None


def _say(log: Log, rule: str, text: str) -> None:
    if log is not None:
        log.append(TraceStep(rule, text))


def owner(placement: Placement, table: Table) -> int:
    """Whose card it is for winning, Pride and Luck (option ``card_owner``, O8)."""
    return placement.before if table.rules.card_owner == CardOwner.POSITION else placement.by


def _winning_card(cards: list[int], table: Table, log: Log) -> int | None:
    effects = [table.effect[c] for c in cards]
    if Effect.MIRROR in effects:
        if Effect.SADNESS in effects:
            _say(log, "bout.winner.mirror_over_sadness", "Mirror is in play: Sadness is ignored")
        low = min(cards)
        _say(log, "bout.winner.mirror", f"Mirror: the lowest card, {table.name(low)}, wins")
        return low
    ordered = sorted(cards, reverse=True)
    if Effect.SADNESS in effects:
        if len(ordered) >= 2:
            _say(
                log,
                "bout.winner.sadness",
                f"Sadness: the highest card, {table.name(ordered[0])}, cannot win; "
                f"the second-highest, {table.name(ordered[1])}, wins",
            )
            return ordered[1]
        if table.rules.sadness_lone_card == SadnessLoneCard.DISCARDED_NO_WINNER:
            _say(log, "bout.winner.lone_card", "Sadness is the only card in play: nothing wins")
            return None
        _say(log, "bout.winner.lone_card", "Sadness is the only card in play, so it wins")
        return ordered[0]
    _say(log, "bout.winner.highest", f"the highest card, {table.name(ordered[0])}, wins")
    return ordered[0]


def _protected(card: int, winning: int | None, table: Table, by: int, log: Log) -> bool:
    """Fear ignores every effect that would discard it (rules file 000, "Fear")."""
    if card in table.fear and card != winning:
        _say(
            log,
            "card.fear.protected",
            f"{table.name(by)} would discard {table.name(card)}, but Fear cannot be discarded "
            "by an effect",
        )
        return True
    return False


def _extreme(source: int, cards: list[int], table: Table) -> int | None:
    params = table.catalogue[source].params
    colour = params["colour"]
    candidates = [c for c in cards if table.has_colour(c, colour)]
    if table.rules.extreme_includes_self == ExtremeIncludesSelf.NO:
        candidates = [c for c in candidates if c != source]
    if table.rules.fear_pass_on == FearPassOn.YES:
        candidates = [c for c in candidates if c not in table.fear]
    if not candidates:
        return None
    return max(candidates) if params["which"] == "highest" else min(candidates)


def _self_condition(source: int, cards: list[int], table: Table) -> bool:
    params = table.catalogue[source].params
    condition = params["condition"]
    others = [c for c in cards if c != source]
    if condition == "other_of_colour":
        return any(table.has_colour(c, params["colour"]) for c in others)
    if condition == "no_other_of_colour":
        return not any(table.has_colour(c, params["colour"]) for c in others)
    if condition == "lowest_in_play":
        return source == min(cards)
    return any(table.effect[c] == params["effect"] for c in others)


def _effect_discards(source: int, cards: list[int], table: Table) -> list[int]:
    """The cards one 'end' effect asks to discard (before Fear's protection)."""
    effect = table.effect[source]
    if effect == Effect.DISCARD_EXTREME:
        target = _extreme(source, cards, table)
        return [] if target is None else [target]
    if effect == Effect.DISCARD_ALL:
        colour = table.catalogue[source].params["colour"]
        return [c for c in cards if table.has_colour(c, colour)]
    if effect == Effect.DISCARD_SELF_IF:
        return [source] if _self_condition(source, cards, table) else []
    return []


_EFFECT_RULE: Final[dict[str, str]] = {
    Effect.DISCARD_EXTREME: "card.colour.extreme",
    Effect.DISCARD_ALL: "card.colour.all",
    Effect.DISCARD_SELF_IF: "card.colour.self",
}


def _discards(cards: list[int], winning: int | None, table: Table, log: Log) -> set[int]:
    discarded: set[int] = set()
    if winning is not None:
        discarded.add(winning)
        rule = "card.fear.wins" if winning in table.fear else "bout.discard.winner"
        _say(log, rule, f"{table.name(winning)} is discarded as the winning card")
    if log is not None and any(len(table.colours[c]) > 1 for c in cards):
        for card in cards:
            if len(table.colours[card]) > 1:
                colours = ", ".join(sorted(table.colours[card]))
                _say(log, "card.malice.colours", f"{table.name(card)} counts as {colours}")
    for source in cards:
        for target in _effect_discards(source, cards, table):
            if _protected(target, winning, table, source, log):
                continue
            discarded.add(target)
            _say(
                log,
                _EFFECT_RULE[table.effect[source]],
                f"{table.name(source)}: {table.catalogue[source].text} -> "
                f"{table.name(target)} is discarded",
            )
    return discarded


def resolve_bout(
    front: Sequence[Placement], leader: int, table: Table, log: Log = None
) -> BoutOutcome:
    """Resolve the end of a bout: the winner, the discards, Luck's victim and the next leader.

    ``front`` is every card in play; ``leader`` led this bout (it leads again if nothing wins).
    """
    cards = [p.card for p in front]
    _say(log, "bout.end", "everyone has played: the bout is resolved, all effects at once")
    winning = _winning_card(cards, table, log) if cards else None
    by_card = {p.card: p for p in front}
    winner = None if winning is None else owner(by_card[winning], table)
    if winner is not None:
        _say(log, "bout.winner.owner", f"seat {winner + 1} wins the bout")
    discarded = _discards(cards, winning, table, log)
    if winning is None:
        discarded |= set(cards)
        _say(log, "bout.winner.lone_card", "the lone card is discarded all the same")
    if len(discarded) > 1:
        names = ", ".join(table.name(c) for c in sorted(discarded))
        _say(log, "bout.discard.simultaneous", f"discarded together: {names}")
    luck_seat = None
    for card in sorted(discarded):
        if table.effect[card] == Effect.LUCK:
            luck_seat = owner(by_card[card], table)
    next_leader = leader if winner is None else winner
    pride = False
    for placement in front:
        if table.effect[placement.card] == Effect.PRIDE:
            next_leader = table.seat_after(owner(placement, table))
            pride = True
            _say(
                log,
                "card.pride.next_leader",
                f"{table.name(placement.card)}: seat {next_leader + 1}, to the left of seat "
                f"{owner(placement, table) + 1}, leads the next bout",
            )
    if not pride and winner is not None:
        _say(log, "bout.next_leader", f"the bout's winner, seat {winner + 1}, leads the next bout")
    return BoutOutcome(winning, winner, frozenset(discarded), luck_seat, next_leader, pride)
