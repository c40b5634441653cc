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

from omen_solver.core.options import RuleOptions, Setting, build, describe, option, preset

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "ChallengeEnd",
    "Challenges",
    "CoinLimit",
    "CoinSupply",
    "DirgeDiscard",
    "EnrageTargets",
    "EnragedBecomes",
    "EnragedEnds",
    "ExtraWealthActions",
    "FirstTurnBonus",
    "GameEnd",
    "HandSize",
    "HeroTiming",
    "MaxTurns",
    "OfferingCard",
    "OmenRules",
    "OptionalUnits",
    "OracleActivation",
    "PortentAndFeats",
    "Profile",
    "Relics",
    "ReshuffleTiming",
    "ResourceCommit",
    "RewardDestination",
    "RitualTiming",
    "ScoreTiebreak",
    "StatColours",
    "VpTokenSupply",
    "WarOrder",
    "WarTiebreak",
    "WarTrigger",
    "make_rules",
    "option_specs",
]


class WarTrigger(Setting):
    """The settings of ``war_trigger`` (R1)."""

    ACTIVE = "active"
    OPPOSING = "opposing"
    EITHER = "either"


class WarTiebreak(Setting):
    """The settings of ``war_tiebreak`` (R2)."""

    SOLDIERS = "soldiers"
    TOTAL_COST = "total-cost"


class HandSize(Setting):
    """The settings of ``hand_limit`` (R3)."""

    NONE = "none"
    FIVE = "5"
    SEVEN = "7"


class CoinSupply(Setting):
    """The settings of ``coin_supply`` (R4)."""

    TWENTY = "20"
    TWENTY_FIVE = "25"
    FORTY = "40"


class GameEnd(Setting):
    """The settings of ``game_end`` (R5)."""

    TWO_CITIES_OR_FIVE_FEATS = "two-cities-or-five-feats"
    NO_REWARDS_LEFT = "no-rewards-left"


class FirstTurnBonus(Setting):
    """The settings of ``first_turn_bonus`` (R6)."""

    ALLOWED = "allowed"
    NONE = "none"


class ExtraWealthActions(Setting):
    """The settings of ``extra_wealth_actions`` (R7)."""

    OFF = "off"
    ON = "on"


class OfferingCard(Setting):
    """The settings of ``offering_card`` (R8)."""

    ANY_HAND_CARD = "any-hand-card"
    UNIT_CARD = "unit-card"


class WarOrder(Setting):
    """The settings of ``war_order`` (R9)."""

    ACTIVE_CHOOSES = "active-chooses"
    CITY_ORDER = "city-order"


class EnrageTargets(Setting):
    """The settings of ``enrage_targets`` (R10)."""

    NOT_BEASTS_OR_SPIRITS = "not-beasts-or-spirits"
    SOLDIERS_AND_ORACLES = "soldiers-and-oracles"
    ANY_UNIT = "any-unit"


class EnragedBecomes(Setting):
    """The settings of ``enraged_becomes`` (R10)."""

    BEAST = "beast"
    COLOSSAL = "colossal"


class EnragedEnds(Setting):
    """The settings of ``enraged_ends`` (R11)."""

    ACTIVE_PLAYERS_UNITS = "active-players-units"
    ALL_UNITS = "all-units"


class RewardDestination(Setting):
    """The settings of ``reward_destination`` (R12)."""

    HAND = "hand"
    PLAY_AREA = "play-area"


class ScoreTiebreak(Setting):
    """The settings of ``score_tiebreak`` (R13)."""

    FACE_DOWN_CARDS = "face-down-cards"
    FACE_DOWN_FEATS = "face-down-feats"
    UNUSED_REWARDS_TOKENS_TREASURED = "unused-rewards-tokens-treasured"


class StatColours(Setting):
    """The settings of ``stat_colours`` (R14)."""

    OFFERING_RED = "offering-red"
    STRENGTH_RED = "strength-red"
    NAMES_ONLY = "names-only"


class CoinLimit(Setting):
    """The settings of ``coin_cap`` (coin cap)."""

    NONE = "none"
    TEN = "10"


class OptionalUnits(Setting):
    """The settings of ``optional_units`` (Optional Units)."""

    OFF = "off"
    ON = "on"


class ResourceCommit(Setting):
    """The settings of ``resource_commit`` (wealth and offering)."""

    AS_YOU_GO = "as-you-go"
    BEFORE_TAKING = "before-taking"


class ReshuffleTiming(Setting):
    """The settings of ``reshuffle_timing`` (deck)."""

    IMMEDIATELY = "immediately"
    WHEN_DRAWING = "when-drawing"


class DirgeDiscard(Setting):
    """The settings of ``dirge_discard`` (DIRGE)."""

    AFTER_EFFECT = "after-effect"
    BEFORE_EFFECT = "before-effect"


class OracleActivation(Setting):
    """The settings of ``oracle_activation`` (Portent)."""

    MANDATORY = "mandatory"
    OPTIONAL = "optional"


class HeroTiming(Setting):
    """The settings of ``hero_timing`` (Heroes)."""

    SURGE_ONLY = "surge-only"
    STEP_WINDOWS = "step-windows"


class RitualTiming(Setting):
    """The settings of ``ritual_timing`` (RITUAL)."""

    STATE_BASED = "state-based"
    END_OF_SURGE = "end-of-surge"


class VpTokenSupply(Setting):
    """The settings of ``vp_token_supply`` (VP tokens)."""

    SIX = "6"
    UNLIMITED = "unlimited"


class PortentAndFeats(Setting):
    """The settings of ``portent_and_feats`` (turn structure)."""

    ON = "on"
    OFF = "off"


class Challenges(Setting):
    """The settings of ``challenges`` (Zeus' Challenge)."""

    OFF = "off"
    ON = "on"


class ChallengeEnd(Setting):
    """The settings of ``challenge_end`` (Zeus' Challenge)."""

    ANY_CONDITION = "any-condition"
    TWO_OF_THREE = "two-of-three"


class Relics(Setting):
    """The settings of ``relics`` (Relics of Olympus)."""

    OFF = "off"
    ON = "on"


class MaxTurns(Setting):
    """The settings of ``max_turns`` (safety limit)."""

    NONE = "none"
    FIFTY = "50"
    HUNDRED = "100"
    TWO_HUNDRED = "200"


@dataclass(frozen=True, slots=True)
class OmenRules(RuleOptions):
    """Every rule choice of Omen. The declared defaults are the *A Reign of War* (003) reading."""

    # -- R1 .. R14: the disagreement table ----------------------------------------------------

    war_trigger: WarTrigger = option(
        default=WarTrigger.OPPOSING,
        question="R1",
        summary="Whose units count for the '3 or more units on one side' war-torn test.",
        settings={
            WarTrigger.ACTIVE: "the active player has 3+ units in the city (001 as printed)",
            WarTrigger.OPPOSING: "the opposing (non-active) player has 3+ units (003, 004)",
            WarTrigger.EITHER: "either player has 3+ units (a reading of 004's 'an opponent')",
        },
        reason="003 and 004 agree on the opposing player; 001 prints the active player.",
        source="001 Phase 5: War; 003 Step 5: War; 004 War Step",
    )
    war_tiebreak: WarTiebreak = option(
        default=WarTiebreak.SOLDIERS,
        question="R2",
        summary="Who wins a war when both sides have the same total Strength.",
        settings={
            WarTiebreak.SOLDIERS: "more Soldiers wins; still tied: no winner (001, 003)",
            WarTiebreak.TOTAL_COST: "higher total unit cost wins; still tied: no winner (004)",
        },
        reason="As printed in 001 and 003.",
        source="001 Phase 5: War; 003 Step 5: War; 004 War Step",
    )
    hand_limit: HandSize = option(
        default=HandSize.NONE,
        question="R3",
        summary="Hand size the active player reduces to at the end of the Offering step.",
        settings={
            HandSize.NONE: "no hand limit (003 states none)",
            HandSize.FIVE: "5 cards (004)",
            HandSize.SEVEN: "7 cards, excess Rewards are played face down (001)",
        },
        reason="003 states no hand limit.",
        source="001 Phase 6: Offering; 003 Step 6: Offering; 004 Offering Step",
    )
    coin_supply: CoinSupply = option(
        default=CoinSupply.FORTY,
        question="R4",
        summary="The number of coins in the game (players' coins plus the supply).",
        settings={
            CoinSupply.TWENTY: "20 coins (004; 001 translator's note: the English base rulebook)",
            CoinSupply.TWENTY_FIVE: "25 coins (001 as printed)",
            CoinSupply.FORTY: "40 coins (003)",
        },
        reason="003 lists 40 coins among the components.",
        source="001 Setup; 003 Components; 004 Components",
    )
    game_end: GameEnd = option(
        default=GameEnd.TWO_CITIES_OR_FIVE_FEATS,
        question="R5",
        summary="The end-of-game test made at the end of each turn.",
        settings={
            GameEnd.TWO_CITIES_OR_FIVE_FEATS: (
                "2 or more cities have no Rewards, or the opposing player has 5 achieved "
                "Feats (001, 003)"
            ),
            GameEnd.NO_REWARDS_LEFT: "no city has any Reward left (004)",
        },
        reason="As printed in 003 (and 001 once its 'Hero cards' slip is read as Feats).",
        source="001 End of the Game and Scoring; 003 Scoring / Victory Conditions; "
        "004 End of Game and Scoring",
    )
    first_turn_bonus: FirstTurnBonus = option(
        default=FirstTurnBonus.NONE,
        question="R6",
        summary="Whether the first player's first Wealth step (2 actions) can earn the bonus.",
        settings={
            FirstTurnBonus.ALLOWED: "2 actions, both the same earn the bonus (001 clarification, "
                "004)",
            FirstTurnBonus.NONE: "2 actions, no bonus: the bonus needs all 3 actions (003 as "
                "written)",
        },
        reason="003 grants the bonus only when all 3 actions are the same.",
        source="001 Phase 1: Wealth and Rules Clarifications; 003 Step 1: Wealth; "
        "004 Wealth Step (NOTE)",
    )
    extra_wealth_actions: ExtraWealthActions = option(
        default=ExtraWealthActions.OFF,
        question="R7",
        summary="003's optional rule: extra Wealth actions with no cards or no coins.",
        settings={
            ExtraWealthActions.OFF: "no extra actions (the optional rule is not used)",
            ExtraWealthActions.ON: "+1 action with no cards in hand or no coins, +2 with neither "
                "(003 optional)",
        },
        reason="003 marks the rule as optional; the other books do not have it.",
        source="003 Step 1: Wealth (Optional)",
    )
    offering_card: OfferingCard = option(
        default=OfferingCard.UNIT_CARD,
        question="R8",
        summary="Which card the Offering step may discard.",
        settings={
            OfferingCard.ANY_HAND_CARD: "any card in hand (001); a Reward offers 0 and leaves "
                "the game",
            OfferingCard.UNIT_CARD: "exactly one Unit card (003, 004)",
        },
        reason="003 and 004 say a Unit card.",
        source="001 Phase 6: Offering; 003 Step 6: Offering; 004 Offering Step",
    )
    war_order: WarOrder = option(
        default=WarOrder.ACTIVE_CHOOSES,
        question="R9",
        summary="The order in which several war-torn cities are resolved.",
        settings={
            WarOrder.ACTIVE_CHOOSES: "the active player picks the next war-torn city (004)",
            WarOrder.CITY_ORDER: "cities are resolved in their fixed order 1, 2, 3",
        },
        reason="Only 004 states an order; 001 ('repeat until none') and 003 are silent, and "
        "the active player carries out the step.",
        source="001 Phase 5: War; 004 War Step",
    )
    enrage_targets: EnrageTargets = option(
        default=EnrageTargets.SOLDIERS_AND_ORACLES,
        question="R10",
        summary="Which units an ENRAGE ability may target.",
        settings={
            EnrageTargets.NOT_BEASTS_OR_SPIRITS: "any unit but Beasts and Spirits (001)",
            EnrageTargets.SOLDIERS_AND_ORACLES: "only Soldiers and Oracles (003)",
            EnrageTargets.ANY_UNIT: "any unit (004 glossary)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged, Spirits; 003 Special Rules (Enraged); "
        "004 Keyword Glossary (Enrage)",
    )
    enraged_becomes: EnragedBecomes = option(
        default=EnragedBecomes.BEAST,
        question="R10",
        summary="What an Enraged unit is while Enraged (it always has Strength 4 and no "
        "abilities, and counts 2 units).",
        settings={
            EnragedBecomes.BEAST: "it becomes a Beast (counts as a Beast for Feats and "
                "tie-breaks; 001, 003)",
            EnragedBecomes.COLOSSAL: "it keeps its type and becomes COLOSSAL (004 glossary)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged; 003 Special Rules; 004 Keyword Glossary",
    )
    enraged_ends: EnragedEnds = option(
        default=EnragedEnds.ALL_UNITS,
        question="R11",
        summary="Which Enraged units turn back at the end of the Offering step.",
        settings={
            EnragedEnds.ACTIVE_PLAYERS_UNITS: (
                "only the active player's units (001; 004: the owner's "
                "Offering step)"
            ),
            EnragedEnds.ALL_UNITS: "all Enraged units of both players (003)",
        },
        reason="As printed in 003.",
        source="001 Additional Rule: Enraged; 003 Step 6: Offering; 004 Keyword Glossary",
    )
    reward_destination: RewardDestination = option(
        default=RewardDestination.HAND,
        question="R12",
        summary="Where the Reward won in a war goes.",
        settings={
            RewardDestination.HAND: "into the winner's hand (2 VP unused, 1 VP used; 001, 003)",
            RewardDestination.PLAY_AREA: "into the winner's play area, 2 VP side up (004)",
        },
        reason="As printed in 001 and 003.",
        source="001 Rewards; 003 Step 5: War; 004 War Step",
    )
    score_tiebreak: ScoreTiebreak = option(
        default=ScoreTiebreak.FACE_DOWN_FEATS,
        question="R13",
        summary="Who wins when the scores are tied (a tie left after it is a shared victory).",
        settings={
            ScoreTiebreak.FACE_DOWN_CARDS: "most face-down cards in the play area (001)",
            ScoreTiebreak.FACE_DOWN_FEATS: "more face-down Feats (003)",
            ScoreTiebreak.UNUSED_REWARDS_TOKENS_TREASURED: (
                "unused Rewards, then VP tokens, then TREASURED "
                "units in hand (004)"
            ),
        },
        reason="As printed in 003.",
        source="001 End of the Game and Scoring; 003 Scoring; 004 End of Game and Scoring",
    )
    stat_colours: StatColours = option(
        default=StatColours.STRENGTH_RED,
        question="R14",
        summary="How colour-keyed card stats (a card file giving red/blue values) are read.",
        settings={
            StatColours.OFFERING_RED: "red is the Offering value, blue the Strength (001)",
            StatColours.STRENGTH_RED: "red is the Strength, blue the Offering value (003)",
            StatColours.NAMES_ONLY: "the book gives no colours: card stats must be named (004)",
        },
        reason="As printed in 003.",
        source="001 Units; 003 Step 5: War and Step 6: Offering; 004 Unit card anatomy",
    )

    # -- points the books leave open or answer differently outside the table -----------------

    coin_cap: CoinLimit = option(
        default=CoinLimit.NONE,
        question="coin cap",
        summary="Coins the active player may keep at the end of the Offering step.",
        settings={
            CoinLimit.NONE: "no cap (003 states none, as it states no hand limit)",
            CoinLimit.TEN: "return coins to the supply down to 10 (001 Phase 6; 004 Offering Step)",
        },
        reason="003's Offering step states no coin cap; its silence is read as for the hand "
        "limit (R3).",
        source="001 Phase 6: Offering (\"until he has at most 10 coins left\"); 004 Offering "
        "Step (\"until they have a maximum of 10 coins\"); 003 Step 6: Offering (no cap)",
    )
    optional_units: OptionalUnits = option(
        default=OptionalUnits.OFF,
        question="Optional Units",
        summary="Whether Spirits and Heroes are used (001's Optional Units).",
        settings={
            OptionalUnits.OFF: "Spirits and Heroes are removed from the game (001 Setup, as "
                "printed)",
            OptionalUnits.ON: "the players opt in: Spirits and Heroes are dealt and may be in a "
                "position",
        },
        reason="001 Setup: \"Remove all Spirit and Hero cards from the draw pile\"; 001 "
        "Optional Units recommends them once the players know the three original types.",
        source="001 Setup; 001 Optional Units",
    )

    resource_commit: ResourceCommit = option(
        default=ResourceCommit.AS_YOU_GO,
        question="wealth and offering",
        summary="Whether all Wealth actions (and the Offering split) are chosen before any "
        "card or coin is taken.",
        settings={
            ResourceCommit.AS_YOU_GO: "each action takes its card or coin at once",
            ResourceCommit.BEFORE_TAKING: "all choices first, then the cards and coins (004 "
                "Wealth NOTE)",
        },
        reason="001 and 003 let the actions 'be combined freely' and say nothing more.",
        source="001 Phase 1: Wealth; 004 Wealth Step (NOTE)",
    )
    reshuffle_timing: ReshuffleTiming = option(
        default=ReshuffleTiming.IMMEDIATELY,
        question="deck",
        summary="When the discard pile becomes the new deck.",
        settings={
            ReshuffleTiming.IMMEDIATELY: "as soon as the deck is empty (001 clarification; 003)",
            ReshuffleTiming.WHEN_DRAWING: "only when a card must be drawn from the empty deck "
                "(004)",
        },
        reason="003: 'If the draw deck is empty, shuffle the discard pile'.",
        source="001 Rules Clarifications; 003 Special Rules; 004 Wealth Step",
    )
    dirge_discard: DirgeDiscard = option(
        default=DirgeDiscard.AFTER_EFFECT,
        question="DIRGE",
        summary="Whether a Beast used for its DIRGE ability is discarded before or after it.",
        settings={
            DirgeDiscard.AFTER_EFFECT: "pay, resolve the ability, then discard (001, 003)",
            DirgeDiscard.BEFORE_EFFECT: "pay, discard, then resolve (004 glossary)",
        },
        reason="As printed in 001 and 003.",
        source="001 Discarding Beasts; 003 Actions; 004 Keyword Glossary (Dirge)",
    )
    oracle_activation: OracleActivation = option(
        default=OracleActivation.MANDATORY,
        question="Portent",
        summary="Whether each Oracle's ability must be carried out in the Portent step.",
        settings={
            OracleActivation.MANDATORY: "every Oracle is activated once (003)",
            OracleActivation.OPTIONAL: "the abilities 'may be carried out' (001): the player may "
                "stop",
        },
        reason="As printed in 003.",
        source="001 Phase 3: Omen; 003 Step 3: Portent",
    )
    hero_timing: HeroTiming = option(
        default=HeroTiming.SURGE_ONLY,
        question="Heroes",
        summary="When a Hero may be discarded for its effect.",
        settings={
            HeroTiming.SURGE_ONLY: "by the active player during the Surge step",
            HeroTiming.STEP_WINDOWS: "also at the start of every step of either player's turn, the "
            "active player first, then the opponent (001: 'outside the Surge phase')",
        },
        reason="003 has no Heroes; 001's 'at any time' needs windows, given by 'step-windows'.",
        source="001 Heroes",
    )
    ritual_timing: RitualTiming = option(
        default=RitualTiming.STATE_BASED,
        question="RITUAL",
        summary="When a Priestess' RITUAL condition is checked.",
        settings={
            RitualTiming.STATE_BASED: "after every action, for both players' Priestesses",
            RitualTiming.END_OF_SURGE: "at the end of the active player's Surge step, their "
                "Priestesses",
        },
        reason="004 says only 'a Priestess whose RITUAL condition is met is removed'.",
        source="004 Unit Card Types (Priestesses)",
    )
    vp_token_supply: VpTokenSupply = option(
        default=VpTokenSupply.SIX,
        question="VP tokens",
        summary="The VP tokens available to RITUAL.",
        settings={
            VpTokenSupply.SIX: "the 6 tokens of the box; with none left a RITUAL waits",
            VpTokenSupply.UNLIMITED: "tokens never run out",
        },
        reason="004 lists 6 VP tokens among the components.",
        source="004 Components",
    )
    portent_and_feats: PortentAndFeats = option(
        default=PortentAndFeats.ON,
        question="turn structure",
        summary="Whether the turn has the Portent and Feat steps of A Reign of War.",
        settings={
            PortentAndFeats.ON: "Wealth, Surge, Portent, Feats, War, Offering (001, 003)",
            PortentAndFeats.OFF: "Wealth, Surge, War, Offering (004)",
        },
        reason="A Reign of War has six steps.",
        source="003 Turn Structure; 004 Gameplay, Combining Omen Sets",
    )
    challenges: Challenges = option(
        default=Challenges.OFF,
        question="Zeus' Challenge",
        summary="Whether the Zeus' Challenge expansion is used.",
        settings={Challenges.OFF: "not used",
                  Challenges.ON: "the Challenge step and end condition (001)"},
        reason="An expansion the players opt into.",
        source="001 Expansions: Zeus' Challenge",
    )
    challenge_end: ChallengeEnd = option(
        default=ChallengeEnd.ANY_CONDITION,
        question="Zeus' Challenge",
        summary="With Challenges: how many end conditions must hold for the game to end.",
        settings={
            ChallengeEnd.ANY_CONDITION: "any one end condition ends the game",
            ChallengeEnd.TWO_OF_THREE: "two of the three end conditions (the players' agreement "
                "in 001)",
        },
        reason="The agreement is optional in 001.",
        source="001 Expansions: Zeus' Challenge",
    )
    relics: Relics = option(
        default=Relics.OFF,
        question="Relics of Olympus",
        summary="Whether the Relics of Olympus expansion is used.",
        settings={Relics.OFF: "not used", Relics.ON: "a Relic may replace a Feat (001)"},
        reason="An expansion the players opt into.",
        source="001 Expansions: Relics of Olympus",
    )
    max_turns: MaxTurns = option(
        default=MaxTurns.NONE,
        question="safety limit",
        summary="A limit on the number of turns, after which the game is scored as it stands.",
        settings={
            MaxTurns.NONE: "no limit: only the rulebook's end conditions end the game",
            MaxTurns.FIFTY: "the game also ends after the 50th turn",
            MaxTurns.HUNDRED: "the game also ends after the 100th turn",
            MaxTurns.TWO_HUNDRED: "the game also ends after the 200th turn",
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
    settings: Mapping[str, Setting]


_ROW: Mapping[str, Setting] = {}  # the option defaults are A Reign of War (003)

_OMEGA: Mapping[str, Setting] = preset(
    OmenRules,
    CoinLimit.TEN,
    WarTrigger.ACTIVE,
    HandSize.SEVEN,
    CoinSupply.TWENTY_FIVE,
    FirstTurnBonus.ALLOWED,
    OfferingCard.ANY_HAND_CARD,
    EnrageTargets.NOT_BEASTS_OR_SPIRITS,
    EnragedEnds.ACTIVE_PLAYERS_UNITS,
    ScoreTiebreak.FACE_DOWN_CARDS,
    StatColours.OFFERING_RED,
    OracleActivation.OPTIONAL,
    HeroTiming.STEP_WINDOWS,
)

_FIRES: Mapping[str, Setting] = preset(
    OmenRules,
    CoinLimit.TEN,
    WarTrigger.OPPOSING,
    WarTiebreak.TOTAL_COST,
    HandSize.FIVE,
    CoinSupply.TWENTY,
    GameEnd.NO_REWARDS_LEFT,
    FirstTurnBonus.ALLOWED,
    EnrageTargets.ANY_UNIT,
    EnragedBecomes.COLOSSAL,
    EnragedEnds.ACTIVE_PLAYERS_UNITS,
    RewardDestination.PLAY_AREA,
    ScoreTiebreak.UNUSED_REWARDS_TOKENS_TREASURED,
    StatColours.NAMES_ONLY,
    ResourceCommit.BEFORE_TAKING,
    ReshuffleTiming.WHEN_DRAWING,
    DirgeDiscard.BEFORE_EFFECT,
    PortentAndFeats.OFF,
)

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
            settings=MappingProxyType({**_OMEGA, **preset(OmenRules, Challenges.ON, Relics.ON)}),
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
            settings=MappingProxyType({**_FIRES, **preset(
                OmenRules, PortentAndFeats.ON, GameEnd.TWO_CITIES_OR_FIVE_FEATS,
                StatColours.STRENGTH_RED)}),
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
