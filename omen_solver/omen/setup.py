"""A new game: the set-up of each rulebook, with the deal as chance events.

* Units of the profile's sets are shuffled into the deck, without Spirits and Heroes unless
  the players opt in (001 Setup: "Remove all Spirit and Hero cards from the draw pile"; 001
  Optional Units; option ``optional_units``); Rewards are shuffled and dealt face
  down onto the three cities (4 each in 001 and 003, 2 each in 004); each player has the Feats,
  draws 4 Unit cards and takes 4 coins; the rest of the coins form the supply (R4) (001 Setup;
  003 Setup; 004 Set Up). Expansions: the 6 Challenges and 6 Relics lie face up beside the deck
  (001 Zeus' Challenge, Relics of Olympus).
* The deal is a sequence of chance events (seat 1's four cards, then seat 2's); the Rewards are
  revealed by chance when first taken. The first player (001, 003, 004: the oldest player) is
  given; the Emissary of War variant is not modelled.
"""

from __future__ import annotations

from collections.abc import Mapping

from omen_solver.omen.cards import Catalogue, default_catalogue
from omen_solver.omen.draws import Draw
from omen_solver.omen.engine import settle
from omen_solver.omen.rules import (
    DEFAULT_PROFILE,
    PROFILES,
    Challenges,
    OptionalUnits,
    PortentAndFeats,
    Relics,
    make_rules,
)
from omen_solver.omen.state import OmenState
from omen_solver.omen.turn import BeginTurn
from omen_solver.omen.zones import HIDDEN, City, Player, TurnInfo

__all__ = ["STARTING_CARDS", "STARTING_COINS", "new_game"]

STARTING_CARDS = 4
STARTING_COINS = 4
VP_TOKENS = 6
OPTIONAL_TYPES = ("Spirit", "Hero")
"""001 Setup: "Remove all Spirit and Hero cards from the draw pile" (option optional_units)."""


def _copies(cards: Catalogue, kind: str, sets: tuple[str, ...],
            removed: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(sorted(card.id for card in cards.of_kind(kind, sets)
                        if card.unit_type not in removed for _ in range(card.copies)))


def new_game(
    profile: str = DEFAULT_PROFILE,
    overrides: Mapping[str, object] | None = None,
    catalogue: Catalogue | None = None,
    first_player: int = 0,
) -> OmenState:
    """The state before the deal of a new game under ``profile`` (with option overrides)."""
    rules = make_rules(profile, overrides)
    prof = PROFILES[profile]
    cards = (catalogue or default_catalogue()).resolve(rules.stat_colours)
    rewards = _copies(cards, "reward", prof.sets)
    per_city = min(prof.rewards_per_city, len(rewards) // 3)
    coins = int(rules.coin_supply)
    feats = tuple(c.id for c in cards.of_kind("feat", prof.sets))
    city = City(rewards=(HIDDEN,) * per_city)
    state = OmenState(
        rules=rules,
        catalogue=cards,
        players=(Player(coins=STARTING_COINS), Player(coins=STARTING_COINS)),
        cities=(city, city, city),
        deck_rest=_copies(cards, "unit", prof.sets,
                          OPTIONAL_TYPES if rules.optional_units == OptionalUnits.OFF else ()),
        supply=coins - 2 * STARTING_COINS,
        tokens=VP_TOKENS,
        reward_pool=rewards,
        relic_pool=_copies(cards, "relic", prof.sets) if rules.relics == Relics.ON else (),
        challenge_pool=(_copies(cards, "challenge", prof.sets)
                        if rules.challenges == Challenges.ON else ()),
        feat_cards=feats if rules.portent_and_feats == PortentAndFeats.ON else (),
        active=first_player,
        turn=TurnInfo(number=1, first=True, step="setup"),
        stack=(BeginTurn(), Draw(1, STARTING_CARDS), Draw(0, STARTING_CARDS)),
    )
    return settle(state)
