"""The vectors find the games in the registry (docs/architecture.md, "A game, declared
once"): a game that registers a vector view is in the schemas' ``game`` enum, has its own
``NAMEVector`` and its items chosen by its name, with no line of ``vectors/`` changed; the
published games' schemas are as before."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from omen_solver.core.game import Game, registered
from omen_solver.vectors import schemas
from omen_solver.vectors.schema_parts import STRINGS, strict
from omen_solver.vectors.views import VECTORS, VectorView

TOY = Game(name="toyvec", title="Toy", players=(2,), chance=False, simultaneous=False)


def _refuse(*_: Any) -> Any:
    raise AssertionError("the schemas never play a state")


def _defs() -> dict[str, Any]:
    state = strict(["pile"], {"pile": {"type": "integer", "minimum": 0}})
    return {
        "toyvecOptions": strict(["settings"], {"settings": {"type": "object"}}),
        "toyvecHoldsUnder": strict([], {}),
        "toyvecPosition": state,
        "toyvecState": state,
    }


@pytest.fixture
def toy_view(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    view: VectorView[Any] = VectorView(start=_refuse, turn=_refuse, state=_refuse,
                                       record=_refuse, start_states=True, schema_defs=_defs,
                                       schema_cards=STRINGS)
    with registered(TOY):
        monkeypatch.setitem(VECTORS._parts, TOY.name, view)
        yield


def _toy_file(**vector: Any) -> dict[str, Any]:
    return {
        "format": "omen-solver-vectors", "version": 1, "game": TOY.name, "set": "examples",
        "description": "toy", "vectors": [{
            "id": "toyvec.one", "game": TOY.name, "why": "a pile", "source": "here",
            "rules": [], "cards": [], "options": {"settings": {}},
            "position": {"pile": 3}, "start": {"to_act": 1, "legal": ["1"], "state":
                                                {"pile": 3}},
            "steps": [], **vector,
        }],
    }


@pytest.mark.usefixtures("toy_view")
def test_a_registered_view_is_a_game_of_the_schemas() -> None:
    schema = schemas._vectors_schema()
    assert schema["properties"]["game"] == {"enum": ["omens", "omen", "toyvec"]}
    assert {"toyvecVector", "toyvecState", "omensVector", "omenVector"} <= set(schema["$defs"])
    # the chain of ifs ends with the last registered game's items
    assert schema["else"]["else"] == {"properties": {"vectors": {"items": {
        "$ref": "#/$defs/toyvecVector"}}}}
    assert schema["else"]["if"] == {"properties": {"game": {"const": "omen"}}}
    jsonschema.validate(_toy_file(), schema)
    with pytest.raises(jsonschema.ValidationError, match="'state' is a required property"):
        jsonschema.validate(_toy_file(start={"to_act": 1, "legal": []}), schema)
    with pytest.raises(jsonschema.ValidationError, match="-1 is less than the minimum"):
        jsonschema.validate(_toy_file(position={"pile": -1}), schema)
    perft = schemas._perft_schema()
    assert perft["allOf"][-1]["if"] == {"properties": {"game": {"enum": [
        "omens", "omen", "toyvec"]}}}


def test_without_it_the_schemas_name_the_two_games() -> None:
    schema = schemas._vectors_schema()
    assert schema["properties"]["game"] == {"enum": ["omens", "omen"]}
    assert schema["else"] == {"properties": {"vectors": {"items": {
        "$ref": "#/$defs/omenVector"}}}}
    assert "toyvecVector" not in schema["$defs"]
