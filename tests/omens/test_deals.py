"""The one deal generator (``omen_solver/omens/deals.py``) draws, for every seed, the deals its
three kinds drew before they were merged into it: the survey's named deals (so that existing
surveys reproduce byte for byte), the deals of ``solve --deal`` and the benchmarks, and the
deals of the playouts behind the generated puzzles. The digests below were taken from the
separate generators of the release before (``survey/deals.py``, ``omens/deals.py``,
``omens/playout.py``). Rules file 000, "Setup" and "End of a Round"."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from omen_solver.omens.deals import FIRST, LATER, DealKind, deal_round, draw_deal, random_deal
from omen_solver.omens.rules import make_rules
from omen_solver.omens.table import Scope, Table

PLAYERS = (4, 5, 6)


def _digest(values: list[Any]) -> str:
    return hashlib.sha256(json.dumps(values).encode()).hexdigest()[:16]


def test_the_survey_s_deals_are_drawn_again_byte_for_byte() -> None:
    deals = [draw_deal(7, players, index, cards).to_json()
             for players in PLAYERS for index in range(12) for cards in (None, 2, 3)]
    assert _digest(deals) == "5e8ea860b8ff99a7"


def test_a_deal_alone_from_a_seed_is_the_same_as_before() -> None:
    deals = []
    for players in PLAYERS:
        table = Table(players, make_rules(), scope=Scope.ROUND)
        for seed in range(6):
            for kind in (FIRST, LATER):
                deal = random_deal(table, seed, kind)
                deals.append([deal.hands, deal.teams, deal.leader, deal.box])
    assert _digest(deals) == "f2dc3df5339e7edd"


def test_the_playouts_deals_are_the_same_as_before() -> None:
    deals = []
    for players in PLAYERS:
        table = Table(players, make_rules(), scope=Scope.ROUND)
        for seed in range(6):
            for kind in (DealKind.START, DealKind.LATER):
                state = deal_round(table, kind, random.Random(seed))
                deals.append([state.hands, state.teams(), state.leader])
    assert _digest(deals) == "d1e51f5283995434"
