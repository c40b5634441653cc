"""The reasons a move is refused (``omens/why.py``) against the engine's legal actions.

``why.py`` restates parts of the rules to explain a refusal in words: whose turn it is (rules
file 000, "How a Bout Is Played"), that a card must be in hand, Law's constraint ("Law": the
next cards must be higher, or lower, than the Law card if their player holds one). On random
positions (4, 5 and 6 players, random rule options, whole rounds) every card a seat holds,
played by the seat to act or by another, is either legal or refused with a reason citing a
known rule id; where the reason is Law's, the cards it names as playable are exactly those the
engine lets the seat play.
"""

from __future__ import annotations

import random
import re

from omen_solver.omens.actions import OmensAction, Verb
from omen_solver.omens.rule_ids import RULES
from omen_solver.omens.why import why_illegal
from tests.omens_kernel.helpers import random_round, walk

_CITED = re.compile(r"\[([a-z0-9_.]+)\]$")


def test_every_refusal_cites_a_rule_and_law_s_names_the_engine_s_cards() -> None:
    rng = random.Random(20261205)
    refused = law = 0
    for index in range(60):
        for state in walk(rng, random_round(rng, (4, 5, 6)[index % 3])):
            player = state.current_player()
            if player < 0 or state.pending:
                continue
            legal = set(state.legal_actions())
            playable = {a.card for a in legal if isinstance(a, OmensAction)
                        and a.verb is Verb.PLAY}
            for seat, hand in enumerate(state.hands):
                for card in hand:
                    action = OmensAction(Verb.PLAY, seat, card)
                    if action in legal or (seat == player and card in playable):
                        continue  # legal (as written, or with a choice or target)
                    found = why_illegal(state, action)
                    assert found is not None, (state, action)
                    reason, rule = found
                    cited = _CITED.search(reason)
                    assert rule in RULES and cited is not None and cited.group(1) == rule, found
                    refused += 1
                    if rule == "card.law.constraint":
                        law += 1
                        named = re.search(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\): it must", reason)
                        assert named is not None, reason
                        values = {int(v) for v in re.findall(r"\((\d+)\)", named.group(1))}
                        assert values == playable, (reason, playable)
    assert refused > 1_000 and law > 20, (refused, law)
