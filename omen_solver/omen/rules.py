"""Rule options and rule profiles of Omen.

The four Omen texts disagree in many places (the table R1–R14 of ``shared/rules/README.md``)
and are silent in others. Every such point is a named option of :class:`OmenRules`; a
*profile* is one rulebook's answer to all of them (:data:`PROFILES`). Any option can be
overridden one by one on top of a profile (``[rules]`` in a position file).

The rulebook files are cited by their number: ``001`` (*A Reign of War*, Omega edition extras,
a transcription of the German rulebook with translator's notes), ``003`` (*A Reign of War*,
English summary) and ``004`` (*Fires in the East*).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from omen_solver.core.options import RuleOptions, build, describe, option

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "OmenRules",
    "Profile",
    "make_rules",
    "option_specs",
]


@dataclass(frozen=True, slots=True)
class OmenRules(RuleOptions):
    """Every rule choice of Omen. The declared defaults are the *A Reign of War* (003) reading."""

    # -- R1 .. R14: the disagreement table ----------------------------------------------------

    war_trigger: str = option(
        default="opposing",
        question="R1",
        summary="Whose units count for the '3 or more units on one side' war-torn test.",
        settings={
            "active": "the active player has 3+ units in the city (001 as printed)",
            "opposing": "the opposing (non-active) player has 3+ units (003, 004)",
            "either": "either player has 3+ units (a reading of 004's 'an opponent')",
        },
        reason="003 and 004 agree on the opposing player; 001 prints the active player.",
        source="001 Phase 5: War; 003 Step 5: War; 004 War Step",
    )
    war_tiebreak: str = option(
        default="soldiers",
        question="R2",
        summary="Who wins a war when both sides have the same total Strength.",
        settings={
            "soldiers": "more Soldiers wins; still tied: no winner (001, 003)",
            "total-cost": "higher total unit cost wins; still tied: no winner (004)",
        },
        reason="As printed in 001 and 003.",
        source="001 Phase 5: War; 003 Step 5: War; 004 War Step",
    )
    hand_limit: str = option(
        default="none",
        question="R3",
        summary="Hand size the active player reduces to at the end of the Offering step.",
        settings={
            "none": "no hand limit (003 states none)",
            "5": "5 cards (004)",
            "7": "7 cards, excess Rewards are played face down (001)",
        },
        reason="003 states no hand limit.",
        source="001 Phase 6: Offering; 003 Step 6: Offering; 004 Offering Step",
    )
    coin_supply: str = option(
        default="40",
        question="R4",
        summary="The number of coins in the game (players' coins plus the supply).",
        settings={
            "20": "20 coins (004; 001 translator's note: the English base rulebook)",
            "25": "25 coins (001 as printed)",
            "40": "40 coins (003)",
        },
        reason="003 lists 40 coins among the components.",
        source="001 Setup; 003 Components; 004 Components",
    )
    game_end: str = option(
        default="two-cities-or-five-feats",
        question="R5",
        summary="The end-of-game test made at the end of each turn.",
        settings={
            "two-cities-or-five-feats": (
                "2 or more cities have no Rewards, or the opposing player has 5 achieved "
                "Feats (001, 003)"
            ),
            "no-rewards-left": "no city has any Reward left (004)",
        },
        reason="As printed in 003 (and 001 once its 'Hero cards' slip is read as Feats).",
        source="001 End of the Game and Scoring; 003 Scoring / Victory Conditions; "
        "004 End of Game and Scoring",
    )
    first_turn_bonus: str = option(
        default="none",
        question="R6",
        summary="Whether the first player's first Wealth step (2 actions) can earn the bonus.",
        settings={
            "allowed": "2 actions, both the same earn the bonus (001 clarification, 004)",
            "none": "2 actions, no bonus: the bonus needs all 3 actions (003 as written)",
        },
        reason="003 grants the bonus only when all 3 actions are the same.",
        source="001 Phase 1: Wealth and Rules Clarifications; 003 Step 1: Wealth; "
        "004 Wealth Step (NOTE)",
    )
    extra_wealth_actions: str = option(
        default="off",
        question="R7",
        summary="003's optional rule: extra Wealth actions with no cards or no coins.",
        settings={
            "off": "no extra actions (the optional rule is not used)",
            "on": "+1 action with no cards in hand or no coins, +2 with neither (003 optional)",
        },
        reason="003 marks the rule as optional; the other books do not have it.",
        source="003 Step 1: Wealth (Optional)",
    )
    offering_card: str = option(
        default="unit-card",
        question="R8",
        summary="Which card the Offering step may discard.",
        settings={
            "any-hand-card": "any card in hand (001); a Reward offers 0 and leaves the game",
            "unit-card": "exactly one Unit card (003, 004)",
        },
        reason="003 and 004 say a Unit card.",
        source="001 Phase 6: Offering; 003 Step 6: Offering; 004 Offering Step",
    )
    war_order: str = option(
        default="active-chooses",
        question="R9",
        summary="The order in which several war-torn cities are resolved.",
        settings={
            "active-chooses": "the active player picks the next war-torn city (004)",
            "city-order": "cities are resolved in their fixed order 1, 2, 3",
        },
        reason="Only 004 states an order; 001 ('repeat until none') and 003 are silent, and "
        "the active player carries out the step.",
        source="001 Phase 5: War; 004 War Step",
    )
    enrage_targets: str = option(
        default="soldiers-and-oracles",
        question="R10",
        summary="Which units an ENRAGE ability may target.",
        settings={
            "not-beasts-or-spirits": "any unit but Beasts and Spirits (001)",
            "soldiers-and-oracles": "only Soldiers and Oracles (003)",
            "any-unit": "any unit (004 glossary)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged, Spirits; 003 Special Rules (Enraged); "
        "004 Keyword Glossary (Enrage)",
    )
    enraged_becomes: str = option(
        default="beast",
        question="R10",
        summary="What an Enraged unit is while Enraged (it always has Strength 4 and no "
        "abilities, and counts 2 units).",
        settings={
            "beast": "it becomes a Beast (counts as a Beast for Feats and tie-breaks; 001, 003)",
            "colossal": "it keeps its type and becomes COLOSSAL (004 glossary)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged; 003 Special Rules; 004 Keyword Glossary",
    )
    enraged_ends: str = option(
        default="all-units",
        question="R11",
        summary="Which Enraged units turn back at the end of the Offering step.",
        settings={
            "active-players-units": "only the active player's units (001; 004: the owner's "
            "Offering step)",
            "all-units": "all Enraged units of both players (003)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged; 003 Step 6: Offering; 004 Keyword Glossary",
    )
    reward_destination: str = option(
        default="hand",
        question="R12",
        summary="Where the Reward won in a war goes.",
        settings={
            "hand": "into the winner's hand (2 VP unused, 1 VP used; 001, 003)",
            "play-area": "into the winner's play area, 2 VP side up (004)",
        },
        reason="As printed in 001 and 003.",
        source="001 Rewards; 003 Step 5: War; 004 War Step",
    )
    score_tiebreak: str = option(
        default="face-down-feats",
        question="R13",
        summary="Who wins when the scores are tied (a tie left after it is a shared victory).",
        settings={
            "face-down-cards": "most face-down cards in the play area (001)",
            "face-down-feats": "more face-down Feats (003)",
            "unused-rewards-tokens-treasured": "unused Rewards, then VP tokens, then TREASURED "
            "units in hand (004)",
        },
        reason="As printed in 003.",
        source="001 End of the Game and Scoring; 003 Scoring; 004 End of Game and Scoring",
    )
    stat_colours: str = option(
        default="strength-red",
        question="R14",
        summary="How colour-keyed card stats (a card file giving red/blue values) are read.",
        settings={
            "offering-red": "red is the Offering value, blue the Strength (001)",
            "strength-red": "red is the Strength, blue the Offering value (003)",
            "names-only": "the book gives no colours: card stats must be named (004)",
        },
        reason="As printed in 003.",
        source="001 Units; 003 Step 5: War and Step 6: Offering; 004 Unit card anatomy",
    )

    # -- points the books leave open or answer differently outside the table -----------------

    coin_cap: str = option(
        default="none",
        question="coin cap",
        summary="Coins the active player may keep at the end of the Offering step.",
        settings={
            "none": "no cap (003 states none, as it states no hand limit)",
            "10": "return coins to the supply down to 10 (001 Phase 6; 004 Offering Step)",
        },
        reason="003's Offering step states no coin cap; its silence is read as for the hand "
        "limit (R3).",
        source="001 Phase 6: Offering (\"until he has at most 10 coins left\"); 004 Offering "
        "Step (\"until they have a maximum of 10 coins\"); 003 Step 6: Offering (no cap)",
    )
    optional_units: str = option(
        default="off",
        question="Optional Units",
        summary="Whether Spirits and Heroes are used (001's Optional Units).",
        settings={
            "off": "Spirits and Heroes are removed from the game (001 Setup, as printed)",
            "on": "the players opt in: Spirits and Heroes are dealt and may be in a position",
        },
        reason="001 Setup: \"Remove all Spirit and Hero cards from the draw pile\"; 001 "
        "Optional Units recommends them once the players know the three original types.",
        source="001 Setup; 001 Optional Units",
    )

    resource_commit: str = option(
        default="as-you-go",
        question="wealth and offering",
        summary="Whether all Wealth actions (and the Offering split) are chosen before any "
        "card or coin is taken.",
        settings={
            "as-you-go": "each action takes its card or coin at once",
            "before-taking": "all choices first, then the cards and coins (004 Wealth NOTE)",
        },
        reason="001 and 003 let the actions 'be combined freely' and say nothing more.",
        source="001 Phase 1: Wealth; 004 Wealth Step (NOTE)",
    )
    reshuffle_timing: str = option(
        default="immediately",
        question="deck",
        summary="When the discard pile becomes the new deck.",
        settings={
            "immediately": "as soon as the deck is empty (001 clarification; 003)",
            "when-drawing": "only when a card must be drawn from the empty deck (004)",
        },
        reason="003: 'If the draw deck is empty, shuffle the discard pile'.",
        source="001 Rules Clarifications; 003 Special Rules; 004 Wealth Step",
    )
    dirge_discard: str = option(
        default="after-effect",
        question="DIRGE",
        summary="Whether a Beast used for its DIRGE ability is discarded before or after it.",
        settings={
            "after-effect": "pay, resolve the ability, then discard (001, 003)",
            "before-effect": "pay, discard, then resolve (004 glossary)",
        },
        reason="As printed in 001 and 003.",
        source="001 Discarding Beasts; 003 Actions; 004 Keyword Glossary (Dirge)",
    )
    oracle_activation: str = option(
        default="mandatory",
        question="Portent",
        summary="Whether each Oracle's ability must be carried out in the Portent step.",
        settings={
            "mandatory": "every Oracle is activated once (003)",
            "optional": "the abilities 'may be carried out' (001): the player may stop",
        },
        reason="As printed in 003.",
        source="001 Phase 3: Omen; 003 Step 3: Portent",
    )
    hero_timing: str = option(
        default="surge-only",
        question="Heroes",
        summary="When a Hero may be discarded for its effect.",
        settings={
            "surge-only": "by the active player during the Surge step",
            "step-windows": "also at the start of every step of either player's turn, the "
            "active player first, then the opponent (001: 'outside the Surge phase')",
        },
        reason="003 has no Heroes; 001's 'at any time' needs windows, given by 'step-windows'.",
        source="001 Heroes",
    )
    ritual_timing: str = option(
        default="state-based",
        question="RITUAL",
        summary="When a Priestess' RITUAL condition is checked.",
        settings={
            "state-based": "after every action, for both players' Priestesses",
            "end-of-surge": "at the end of the active player's Surge step, their Priestesses",
        },
        reason="004 says only 'a Priestess whose RITUAL condition is met is removed'.",
        source="004 Unit Card Types (Priestesses)",
    )
    vp_token_supply: str = option(
        default="6",
        question="VP tokens",
        summary="The VP tokens available to RITUAL.",
        settings={
            "6": "the 6 tokens of the box; with none left a RITUAL waits",
            "unlimited": "tokens never run out",
        },
        reason="004 lists 6 VP tokens among the components.",
        source="004 Components",
    )
    portent_and_feats: str = option(
        default="on",
        question="turn structure",
        summary="Whether the turn has the Portent and Feat steps of A Reign of War.",
        settings={
            "on": "Wealth, Surge, Portent, Feats, War, Offering (001, 003)",
            "off": "Wealth, Surge, War, Offering (004)",
        },
        reason="A Reign of War has six steps.",
        source="003 Turn Structure; 004 Gameplay, Combining Omen Sets",
    )
    challenges: str = option(
        default="off",
        question="Zeus' Challenge",
        summary="Whether the Zeus' Challenge expansion is used.",
        settings={"off": "not used", "on": "the Challenge step and end condition (001)"},
        reason="An expansion the players opt into.",
        source="001 Expansions: Zeus' Challenge",
    )
    challenge_end: str = option(
        default="any-condition",
        question="Zeus' Challenge",
        summary="With Challenges: how many end conditions must hold for the game to end.",
        settings={
            "any-condition": "any one end condition ends the game",
            "two-of-three": "two of the three end conditions (the players' agreement in 001)",
        },
        reason="The agreement is optional in 001.",
        source="001 Expansions: Zeus' Challenge",
    )
    relics: str = option(
        default="off",
        question="Relics of Olympus",
        summary="Whether the Relics of Olympus expansion is used.",
        settings={"off": "not used", "on": "a Relic may replace a Feat (001)"},
        reason="An expansion the players opt into.",
        source="001 Expansions: Relics of Olympus",
    )
    max_turns: str = option(
        default="none",
        question="safety limit",
        summary="A limit on the number of turns, after which the game is scored as it stands.",
        settings={
            "none": "no limit: only the rulebook's end conditions end the game",
            "50": "the game also ends after the 50th turn",
            "100": "the game also ends after the 100th turn",
            "200": "the game also ends after the 200th turn",
        },
        reason="No book limits the length of a game; 'none' plays the rules as written.",
        source="none (a project safety limit for random play; not a rule of any book)",
    )


def option_specs() -> tuple[str, ...]:
    """The names of all options, in declaration order."""
    return tuple(spec.name for spec in describe(OmenRules))


@dataclass(frozen=True, slots=True)
class Profile:
    """A rulebook's answer to every option, plus the card sets a new game is dealt from."""

    name: str
    book: str
    summary: str
    sets: tuple[str, ...]
    """Catalogue sets whose units, Rewards, Feats (and expansion cards) a new game uses."""
    rewards_per_city: int
    settings: Mapping[str, str]


_ROW: dict[str, str] = {}  # the option defaults are A Reign of War (003)

_OMEGA: dict[str, str] = {
    "coin_cap": "10",
    "war_trigger": "active",
    "hand_limit": "7",
    "coin_supply": "25",
    "first_turn_bonus": "allowed",
    "offering_card": "any-hand-card",
    "enrage_targets": "not-beasts-or-spirits",
    "enraged_ends": "active-players-units",
    "score_tiebreak": "face-down-cards",
    "stat_colours": "offering-red",
    "oracle_activation": "optional",
    "hero_timing": "step-windows",
}

_FIRES: dict[str, str] = {
    "coin_cap": "10",
    "war_trigger": "opposing",
    "war_tiebreak": "total-cost",
    "hand_limit": "5",
    "coin_supply": "20",
    "game_end": "no-rewards-left",
    "first_turn_bonus": "allowed",
    "enrage_targets": "any-unit",
    "enraged_becomes": "colossal",
    "enraged_ends": "active-players-units",
    "reward_destination": "play-area",
    "score_tiebreak": "unused-rewards-tokens-treasured",
    "stat_colours": "names-only",
    "resource_commit": "before-taking",
    "reshuffle_timing": "when-drawing",
    "dirge_discard": "before-effect",
    "portent_and_feats": "off",
}

PROFILES: Mapping[str, Profile] = MappingProxyType(
    {
        "reign-of-war": Profile(
            name="reign-of-war",
            book="003",
            summary="Omen: A Reign of War, the English summary (Soldiers, Beasts, Oracles).",
            sets=("reign-of-war",),
            rewards_per_city=4,
            settings=MappingProxyType(_ROW),
        ),
        "omega": Profile(
            name="omega",
            book="001",
            summary="A Reign of War, Omega edition as printed (with Spirits and Heroes); the "
            "translator's notes applied where they correct an obvious slip.",
            sets=("reign-of-war", "omega"),
            rewards_per_city=4,
            settings=MappingProxyType(_OMEGA),
        ),
        "omega-olympus": Profile(
            name="omega-olympus",
            book="001",
            summary="The omega profile with the Zeus' Challenge and Relics of Olympus "
            "expansions.",
            sets=("reign-of-war", "omega"),
            rewards_per_city=4,
            settings=MappingProxyType({**_OMEGA, "challenges": "on", "relics": "on"}),
        ),
        "fires-in-the-east": Profile(
            name="fires-in-the-east",
            book="004",
            summary="Omen: Fires in the East (Merchants, Priestesses, Sphinxes, Warriors).",
            sets=("fires-in-the-east",),
            rewards_per_city=2,
            settings=MappingProxyType(_FIRES),
        ),
        "fires-in-the-east+reign-of-war": Profile(
            name="fires-in-the-east+reign-of-war",
            book="004",
            summary="Fires in the East combined with A Reign of War's units and Feats: the "
            "Portent and Feat steps and A Reign of War's end conditions are added (004 "
            "Combining Omen Sets).",
            sets=("fires-in-the-east", "reign-of-war"),
            rewards_per_city=2,
            settings=MappingProxyType(
                {
                    **_FIRES,
                    "portent_and_feats": "on",
                    "game_end": "two-cities-or-five-feats",
                    "stat_colours": "strength-red",
                }
            ),
        ),
    }
)
"""The rule profiles by name."""

DEFAULT_PROFILE = "reign-of-war"


def make_rules(
    profile: str = DEFAULT_PROFILE,
    overrides: Mapping[str, object] | None = None,
    *,
    where: str = "rules",
) -> OmenRules:
    """The options of ``profile`` with ``overrides`` on top (raises ``OptionError``)."""
    presets = {name: prof.settings for name, prof in PROFILES.items()}
    return build(OmenRules, presets, profile, overrides, where=where)
