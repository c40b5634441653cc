"""The steps of a turn: Wealth, Surge, Portent, Feats (Relics, Challenges), Offering, and the
rules around them (Priestesses, Heroes, Spirits, Merchants, the deck, scoring).

Rulebooks: 001 = Omega edition extras, 003 = A Reign of War summary, 004 = Fires in the East.
"""

from __future__ import annotations

from fractions import Fraction

from omen_solver.core.game import CHANCE
from omen_solver.omen.notation import Action
from omen_solver.omen.scoring import breakdown, score
from tests.omen.helpers import advance, city, legal, make, play, play_traced, prefer

# -- Wealth -------------------------------------------------------------------------------------


def test_three_wealth_actions_and_the_card_bonus() -> None:
    """003 Step 1: "Receive 3 Wealth Actions ... If all 3 actions are spent on cards, draw 1
    additional card"."""
    state = make(step="wealth", deck={"top": ["seer", "augur", "hoplite", "veteran", "herald"]})
    state = play(state, "wealth card", "wealth card", "wealth card")
    assert state.players[0].hand == ("augur", "hoplite", "seer", "veteran")
    assert state.turn.step == "surge"


def test_mixed_wealth_actions_earn_no_bonus() -> None:
    """001 Phase 1: "These actions may be combined freely"; the bonus needs all the same."""
    state = make(step="wealth", deck={"top": ["seer", "augur"]})
    state = play(state, "wealth card", "wealth coin", "wealth coin")
    assert state.players[0].hand == ("seer",) and state.players[0].coins == 2


def test_the_first_turn_has_two_actions() -> None:
    """001 Phase 1: "During the first round of the first player, that player only receives 2
    actions"; 003 Step 1; 004 NOTE."""
    state = make(step="wealth", number=1, deck={"top": ["seer", "augur", "hoplite"]})
    state = play(state, "wealth card", "wealth coin")
    assert state.turn.step == "surge"


def test_barter_discards_a_merchant_for_an_extra_action() -> None:
    """004 Keyword Glossary (Barter): "During your Wealth Step, you may discard this card from
    your hand to gain 1 additional Wealth Action"."""
    state = make("fires-in-the-east", step="wealth", seat1={"hand": ["bazaar-elder"]},
                 cities=[city()] * 3)
    assert "barter bazaar-elder" in legal(state)
    state = play(state, "barter bazaar-elder", "wealth coin", "wealth coin", "wealth coin")
    assert state.turn.step == "wealth"
    state = play(state, "wealth coin")
    assert state.players[0].coins == 5  # 4 actions on coins, plus the bonus
    assert state.discard == ("bazaar-elder",)


def test_wealth_actions_are_chosen_before_taking_in_fires_in_the_east() -> None:
    """004 Wealth Step NOTE: "A player must decide how all of their Wealth actions will be spent
    prior to taking any coins or cards"; 001 and 003 take each at once (option
    resource_commit)."""
    top = {"top": ["immortal", "immortal", "immortal", "immortal"]}
    fires = play(make("fires-in-the-east", step="wealth", deck=top), "wealth card")
    assert fires.players[0].hand == () and fires.current_player() == 0
    row = play(make(step="wealth", deck=top), "wealth card")
    assert row.players[0].hand == ("immortal",)
    # The same position under each setting of the option.
    for setting, hand in (("before-taking", ()), ("as-you-go", ("immortal",))):
        state = make(step="wealth", deck=top, rules={"resource_commit": setting})
        assert play(state, "wealth card").players[0].hand == hand


# -- Surge -------------------------------------------------------------------------------------


def test_playing_a_unit_pays_its_cost_to_the_supply() -> None:
    """001 Placing Units in Cities: "return the cost of the Unit in coins ... to the coin
    supply"."""
    state = make(seat1={"hand": ["veteran"], "coins": 5})
    supply = state.supply
    state = play(state, "play veteran 2")
    assert state.players[0].coins == 1 and state.supply == supply + 4
    assert [u.card for u in state.cities[1].sides[0]] == ["veteran"]


def test_a_soldier_deploys_when_played() -> None:
    """003 Step 2: "Soldier: Ability activates immediately"."""
    state, trace = play_traced(make(seat1={"hand": ["spearman"], "coins": 2},
                                    deck={"top": ["augur"]}), "play spearman 1")
    assert state.players[0].hand == ("augur",)
    assert "deploy" in [s.rule for s in trace]


def test_a_beast_played_to_a_city_ignores_its_ability() -> None:
    """003 Step 2: "Beast: Ignore ability when played to a City"."""
    cities = [city(seat2=["hoplite"])] + [city()] * 2
    state = play(make(seat1={"hand": ["cyclops"], "coins": 4}, cities=cities), "play cyclops 2")
    assert state.cities[0].sides[1] and state.turn.step == "surge"
    assert not any(a.startswith("destroy") for a in legal(state))


def test_dirge_pays_and_discards_the_beast_before_or_after_its_ability() -> None:
    """001 Discarding Beasts: "return the cost ..., carry out the card effect, and discard the
    respective Beast"; 004 glossary (Dirge): "pay its cost, discard the Beast and resolve the
    ability" (option dirge_discard)."""
    cities = [city(seat2=["hoplite"])] + [city()] * 2
    after = play(make(seat1={"hand": ["cyclops"], "coins": 4}, cities=cities), "dirge cyclops")
    assert legal(after) == ["destroy 2@1:hoplite"] and after.players[0].hand == ("cyclops",)
    before = play(make(seat1={"hand": ["cyclops"], "coins": 4}, cities=cities,
                       rules={"dirge_discard": "before-effect"}), "dirge cyclops")
    assert before.players[0].hand == () and "cyclops" in before.discard + before.deck_rest
    done = play(after, "destroy 2@1:hoplite")
    assert done.players[0].coins == 0 and not done.cities[0].sides[1]
    assert done.players[0].hand == () and {"cyclops", "hoplite"} <= set(
        done.discard + done.deck_rest)


def test_a_spirit_chooses_one_ability_or_invokes_both() -> None:
    """001 Spirits: "one of which the player selects as soon as the Spirit enters a city ...
    a Summoning cost, which the player can pay in order to use both card effects and then
    discard the Spirit"; 004 glossary (Invoke)."""
    base = make("omega", seat1={"hand": ["nymph"], "coins": 4}, deck={"top": ["augur"]})
    played = play(base, "play nymph 1")
    assert legal(played) == ["choose 1", "choose 2"]
    assert play(played, "choose 2").players[0].coins == 3
    invoked = play(base, "invoke nymph")
    player = invoked.players[0]
    assert player.coins == 1 and player.hand == ("augur",)
    assert invoked.discard + invoked.deck_rest == ("nymph",)


def test_heroes_are_used_at_any_step_by_either_player() -> None:
    """001 Heroes: "discarded from a player's hand in order to use their card effects ... can be
    used outside the Surge phase of the current player" (option hero_timing)."""
    state = make("omega", step="war", seat2={"hand": ["atalanta"]},
                 deck={"top": ["augur", "seer"]})
    assert state.current_player() == 1 and legal(state) == ["done", "hero atalanta"]
    state = play(state, "hero atalanta")
    assert state.players[1].hand == ("augur", "seer")
    assert "atalanta" in state.discard + state.deck_rest
    surge_only = make("omega", step="war", seat2={"hand": ["atalanta"]},
                      rules={"hero_timing": "surge-only"})
    assert surge_only.active == 1  # no window: the turn went on to seat 2


def test_one_reward_per_surge_step() -> None:
    """001 Using Rewards: "the active player may once play a Reward card"; 003 Step 2: "May use
    1 Reward Card per Surge Step ... scores 1 VP instead of 2"."""
    state = make(seat1={"rewards": ["ambrosia", "athenas-counsel"]})
    assert score(state, 0) == 4
    state = play(state, "reward ambrosia")
    assert state.players[0].coins == 3 and not any(a.startswith("reward") for a in legal(state))
    assert score(state, 0) == 3


def test_merchants_resolve_at_the_end_of_the_surge_step() -> None:
    """004 Merchants: "a secondary ability that resolves at the end of the Surge Step while in a
    city" (Bazaar Elder: "Gain 1 coin and draw 1 card")."""
    cities = [city(seat1=["bazaar-elder"]), city(), city()]
    state, trace = play_traced(make("fires-in-the-east", cities=cities,
                                    deck={"top": ["immortal"]}), "done")
    assert state.players[0].coins == 1 and state.players[0].hand == ("immortal",)
    assert "surge.end" in [s.rule for s in trace]


# -- Portent -----------------------------------------------------------------------------------


def test_each_oracle_once_in_the_chosen_order() -> None:
    """003 Step 3: "Activate abilities on all your Oracle cards across all Cities, in any
    order"; 001 Phase 3: "The card effects of each Oracle are carried out once"."""
    cities = [city(seat1=["seer"]), city(seat1=["augur"]), city(seat1=["augur!"])]
    state = make(step="portent", cities=cities, deck={"top": ["hoplite"]})
    assert legal(state) == ["activate 1@1:seer", "activate 1@2:augur"]
    state = play(state, "activate 1@2:augur")
    assert state.players[0].coins == 1 and state.players[0].hand == ("hoplite",)
    assert state.turn.step != "portent"


def test_oracles_are_optional_in_the_omega_edition() -> None:
    """001 Phase 3: "the card effects of the Oracles ... may be carried out" (option
    oracle_activation)."""
    cities = [city(seat1=["augur"])] + [city()] * 2
    state = make("omega", step="portent", cities=cities)
    assert legal(state) == ["activate 1@1:augur", "done"]
    assert play(state, "done").players[0].coins == 0


def test_oracle_activation_each_setting_on_one_position() -> None:
    """Option oracle_activation: 001 Phase 3 "may be carried out" (optional) against 003 Step 3
    "Activate abilities on all your Oracle cards" (mandatory)."""
    cities = [city(seat1=["augur"])] + [city()] * 2
    optional = make("omega", step="portent", cities=cities,
                    rules={"oracle_activation": "optional"})
    assert legal(optional) == ["activate 1@1:augur", "done"]
    assert play(optional, "done").players[0].coins == 0
    mandatory = make("omega", step="portent", cities=cities,
                     rules={"oracle_activation": "mandatory"})
    # The only Oracle's ability is no choice: it is carried out and the turn moves on.
    assert mandatory.players[0].coins == 1 and mandatory.active == 1


# -- Feats, Relics, Challenges ------------------------------------------------------------------


def test_feats_are_turned_face_down_when_their_condition_holds() -> None:
    """003 Step 4: "turn completed Feats face down (each scores 2 VP)"; the README's Feat
    condition "a Soldier in every city"."""
    cities = [city(seat1=["hoplite"]), city(seat1=["veteran"]), city(seat1=["spearman"])]
    state = make(step="feats", cities=cities)
    assert state.players[0].feats == ("soldier-in-every-city",)
    assert breakdown(state, 0)["feats"] == 2


def test_making_the_opponent_discard_three_cards_in_one_turn() -> None:
    """The README's Feat condition "make the opponent discard 3 cards in one turn"."""
    state = make(seat1={"hand": ["minotaur", "herald"], "coins": 7},
                 seat2={"hand": ["hoplite", "augur", "seer", "veteran"]})
    state = play(state, "dirge minotaur", "discard augur", "discard seer", "play herald 1",
                 "discard hoplite")
    assert state.turn.forced == (3, 0)
    state = advance(state, lambda s: s.active == 1, prefer("done"))
    assert "three-discards" in state.players[0].feats


def test_a_relic_instead_of_a_feat() -> None:
    """001 Relics of Olympus: "instead of turning the achieved Feat face down, he rotates the
    Feat card 90 degrees. He then selects a Relic ... on his side of any City"; rotated Feats
    are worth 1 VP, Relics 1 VP."""
    cities = [city(seat1=["hoplite"]), city(seat1=["hoplite"]), city(seat1=["hoplite"])]
    state = make("omega-olympus", step="feats", cities=cities, seat1={"coins": 8})
    assert legal(state) == ["done", "rotate hoard", "rotate soldier-in-every-city"]
    state = play(state, "rotate hoard", "relic aegis", "to 2")
    player = state.players[0]
    assert player.feats_rotated == ("hoard",) and player.feats == ("soldier-in-every-city",)
    assert state.cities[1].relic == "aegis" and player.coins == 10  # Aegis: gain 2 coins
    points = breakdown(state, 0)
    assert (points["feats"], points["feats_rotated"], points["relics"]) == (2, 1, 1)


def test_relics_and_challenges_each_setting_on_one_position() -> None:
    """Options relics and challenges (001 Expansions: Relics of Olympus, Zeus' Challenge):
    without Relics an achieved Feat is turned face down at once; without Challenges the turn
    has no Challenge step."""
    cities = [city(seat1=["hoplite"]), city(seat1=["hoplite"]), city(seat1=["hoplite"])]
    with_relics = make("omega-olympus", step="feats", cities=cities, seat1={"coins": 8},
                       rules={"relics": "on"})
    assert legal(with_relics) == ["done", "rotate hoard", "rotate soldier-in-every-city"]
    no_relics = make("omega-olympus", step="feats", cities=cities, seat1={"coins": 8},
                     rules={"relics": "off"})
    assert no_relics.players[0].feats == ("hoard", "soldier-in-every-city")
    assert no_relics.turn.step == "challenge"
    no_challenges = make("omega-olympus", step="feats", cities=cities, seat1={"coins": 8},
                         rules={"relics": "off", "challenges": "off"})
    assert no_challenges.players[0].feats == ("hoard", "soldier-in-every-city")
    assert no_challenges.turn.step != "challenge" and no_challenges.active == 1


def test_a_second_relic_sends_the_first_back() -> None:
    """001 Relics of Olympus: "If a further Relic card is played onto the same city, the Relic
    card already lying there must be returned"."""
    cities = [city(seat1=["hoplite"], relic="aegis", relic_seat=2), city(seat1=["hoplite"]),
              city(seat1=["hoplite"])]
    state = make("omega-olympus", step="feats", cities=cities, deck={"top": ["augur"] * 2})
    state = play(state, "rotate soldier-in-every-city", "relic caduceus", "to 1")
    assert state.cities[0].relic == "caduceus" and "aegis" in state.relic_pool


def test_one_challenge_per_turn() -> None:
    """001 Zeus' Challenge: "he may lay it face down next to his Feat cards. A player may only
    fulfil one Challenge per round. At the end of the game, Challenges are worth 3 victory
    points"."""
    cities = [city(seat1=["hoplite"]), city(seat1=["augur"]), city(seat1=["seer"])]
    state = make("omega-olympus", step="challenge", cities=cities, seat1={"coins": 9})
    assert legal(state) == ["challenge host", "challenge plenty", "done"]
    state = play(state, "challenge plenty")
    assert state.players[0].challenges == ("plenty",) and state.turn.step != "challenge"
    assert breakdown(state, 0)["challenges"] == 3


# -- Offering ----------------------------------------------------------------------------------


def test_offering_splits_its_value_between_cards_and_coins() -> None:
    """004 Offering Step: "draw a number of cards and/or gain a number of coins equal to that
    card's Offering value"; 001 Phase 6: "may freely choose the division"."""
    state = make(step="offering", seat1={"hand": ["pythia"]}, deck={"top": ["augur", "seer"]})
    state = play(state, "offer pythia", "take card", "take coin", "take card")
    assert state.active == 1  # the turn is over
    assert state.players[0].hand == ("augur", "seer") and state.players[0].coins == 1


# -- Priestesses, TREASURED, VP tokens -----------------------------------------------------------


def test_ritual_removes_the_priestess_with_a_vp_token() -> None:
    """004 Priestesses: "A Priestess whose RITUAL condition is met is removed from its city,
    turned facedown, and a VP token is placed on it"; 004 scoring: 2 VP per token."""
    cities = [city(seat1=["moon-priestess", "immortal", "immortal"])]
    state = make("fires-in-the-east", seat1={"hand": ["immortal"], "coins": 2},
                 cities=[*cities, city(), city()])
    state, trace = play_traced(state, "play immortal 1")
    assert state.players[0].rituals == ("moon-priestess",) and state.players[0].vp_tokens == 1
    assert state.tokens == 5 and breakdown(state, 0)["vp_tokens"] == 2
    assert "ritual" in [s.rule for s in trace]


def test_ritual_waits_for_a_vp_token() -> None:
    """004 Components: 6 VP tokens (option vp_token_supply)."""
    cities = [city(seat1=["moon-priestess", "immortal", "immortal",
                                               "immortal"])]
    state = make("fires-in-the-east", cities=[*cities, city(), city()],
                 seat2={"vp_tokens": 6})
    assert state.players[0].rituals == () and state.tokens == 0


def test_scorned_resolves_when_a_priestess_is_discarded_from_hand() -> None:
    """004 Priestesses: "A Priestess' SCORNED ability is resolved whenever the Priestess is
    destroyed while in play or discarded from hand"."""
    state = make("fires-in-the-east", step="offering", seat1={"hand": ["fire-priestess"]},
                 seat2={"hand": ["immortal", "sphinx-of-giza"]},
                 cities=[city()] * 3)
    state = play(state, "offer fire-priestess")
    assert state.current_player() == 1 and legal(state) == [
        "discard immortal", "discard sphinx-of-giza"]


def test_treasured_units_and_heroes_score_in_hand() -> None:
    """004 Sphinxes: "TREASURED units are worth 1 victory point at the end of the game if in a
    player's hand"; 001 Heroes: "Hero cards in a player's hand: 1 victory point each"."""
    state = make("omega", seat1={"hand": ["sphinx-of-giza", "perseus", "hoplite"]})
    assert breakdown(state, 0)["treasured"] == 2


# -- the deck -----------------------------------------------------------------------------------


def test_drawing_from_the_shuffled_deck_is_a_chance_event() -> None:
    """001 General Terms: "The top card of the draw pile is taken"; the deck is shuffled, so
    each card is drawn with probability (copies left) / (cards left)."""
    state = play(make(step="wealth", deck={"shuffled": ["augur", "augur", "seer"]}),
                 "wealth card")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == (
        (Action("draw", ("augur",)), Fraction(2, 3)), (Action("draw", ("seer",)), Fraction(1, 3)))


def test_the_reshuffle_when_drawing_is_a_chance_event() -> None:
    """004 Wealth Step: "If a player would draw a card but the deck has no cards, shuffle the
    discard pile"."""
    state = play(make("fires-in-the-east", step="wealth", cities=[city()] * 3,
                      deck={"discard": ["immortal", "immortal", "sphinx-of-giza"]}),
                 "wealth card", "wealth coin", "wealth coin")
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == (
        (Action("reshuffle", ("immortal",)), Fraction(2, 3)),
        (Action("reshuffle", ("sphinx-of-giza",)), Fraction(1, 3)))
    state = play(state, "reshuffle sphinx-of-giza")
    assert state.deck_rest == ("immortal", "immortal") and state.discard == ()


def test_the_reshuffle_is_immediate_in_a_reign_of_war() -> None:
    """001 Rules Clarifications: "When the draw pile has no further cards, the discard pile is
    shuffled immediately to form the new draw pile"."""
    state = make(step="wealth", deck={"top": ["augur"], "discard": ["seer", "seer"]})
    state = play(state, "wealth card")
    assert state.deck_rest == ("seer", "seer") and state.discard == ()


def test_reshuffle_timing_each_setting_on_one_position() -> None:
    """Option reshuffle_timing (001 Rules Clarifications: "shuffled immediately"; 004 Wealth
    Step: "If a player would draw a card but the deck has no cards, shuffle the discard
    pile"): the last known card is drawn and the discard pile waits, or becomes the deck."""
    position = {"step": "wealth", "deck": {"top": ["augur"], "discard": ["seer", "seer"]}}
    now = play(make(rules={"reshuffle_timing": "immediately"}, **position), "wealth card")
    assert now.players[0].hand == ("augur",)
    assert now.deck_rest == ("seer", "seer") and now.discard == ()
    later = play(make(rules={"reshuffle_timing": "when-drawing"}, **position), "wealth card")
    assert later.players[0].hand == ("augur",)
    assert later.deck_rest == () and later.discard == ("seer", "seer")


def test_a_draw_with_no_cards_anywhere_is_lost() -> None:
    """001 General Terms (Draw cards) with an empty deck and discard pile: nothing to draw."""
    state = play(make(step="wealth"), "wealth card", "wealth card", "wealth card")
    assert state.players[0].hand == () and state.turn.step == "surge"


def test_a_face_down_reward_is_revealed_by_chance() -> None:
    """003 Setup: the Reward cards are shuffled and dealt face down."""
    cities = [city(rewards=["?"], seat1=["cyclops", "hoplite"], seat2=["hoplite"] * 3)]
    state = make(step="war", cities=cities + [city()] * 2,
                 pool={"rewards": ["ambrosia", "ambrosia", "ares-fury"]})
    assert state.current_player() == CHANCE
    assert [(str(a), p) for a, p in state.chance_outcomes()] == [
        ("reveal ambrosia", Fraction(2, 3)), ("reveal ares-fury", Fraction(1, 3))]


# -- end of the game ----------------------------------------------------------------------------


def test_scores_and_a_clear_winner() -> None:
    """003 Scoring: Feats 2 VP, Rewards in hand 2 VP, used Rewards 1 VP."""
    empty = [city(rewards=[])] * 3
    state = make(step="offering", cities=empty,
                 seat1={"feats": ["hoard"], "rewards": ["ambrosia"]},
                 seat2={"rewards_used": ["ambrosia", "thunderbolt"]})
    assert state.is_terminal() and state.returns() == (Fraction(1), Fraction(0))
    assert (score(state, 0), score(state, 1)) == (4, 2)


# -- the other options --------------------------------------------------------------------------


def test_ritual_timing() -> None:
    """004 Priestesses names no moment for RITUAL (option ritual_timing): state-based, or at the
    end of the active player's Surge step."""
    cities = [city(seat1=["moon-priestess", "immortal", "immortal"])]
    cities += [city(rewards=["ishtar-gate"]), city(rewards=["hanging-gardens"])]
    seat1 = {"hand": ["immortal"], "coins": 2}
    at_once = play(make("fires-in-the-east", seat1=seat1, cities=cities), "play immortal 1")
    assert at_once.players[0].rituals == ("moon-priestess",)
    later = play(make("fires-in-the-east", seat1=seat1, cities=cities,
                      rules={"ritual_timing": "end-of-surge"}), "play immortal 1")
    assert later.players[0].rituals == ()
    assert play(later, "done").players[0].rituals == ("moon-priestess",)


def test_unlimited_vp_tokens() -> None:
    """004 Components: 6 VP tokens; with vp_token_supply = 'unlimited' a RITUAL never waits."""
    cities = [city(seat1=["moon-priestess", "immortal", "immortal", "immortal"]), city(), city()]
    state = make("fires-in-the-east", cities=cities, seat2={"vp_tokens": 6},
                 rules={"vp_token_supply": "unlimited"}, turn={"vp_tokens": 0})
    assert state.players[0].rituals == ("moon-priestess",)


def test_fires_in_the_east_has_no_portent_or_feat_step() -> None:
    """004 Gameplay: Wealth, Surge, War, Offering; 004 Combining Omen Sets adds the Portent and
    Feat steps (option portent_and_feats)."""
    cities = [city(seat1=["augur"]), city(), city()]
    alone, trace = play_traced(make("fires-in-the-east", cities=cities), "done")
    assert "step.portent" not in [s.rule for s in trace] and alone.players[0].coins == 0
    combined, trace = play_traced(make("fires-in-the-east+reign-of-war", cities=cities), "done")
    assert "step.portent" in [s.rule for s in trace] and combined.players[0].coins == 1


def test_the_turn_limit_is_an_option() -> None:
    """No book limits a game; max_turns (default none) ends it after the given turn."""
    assert not make(step="offering", number=50).is_terminal()
    limited = make(step="offering", number=50, rules={"max_turns": "50"})
    assert limited.is_terminal() and limited.turn.step == "game-over"
