"""A patch folds into the view it was made from (copy on write), and a path that does not lead
into the view is an error naming it."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from boardroom.server.patch import apply, changes


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(6 if depth else 3)
    if kind == 0:
        return rng.randrange(5)
    if kind == 1:
        return rng.choice([None, True, "As", "x"])
    if kind == 2:
        return rng.choice([[], [1, 2], {}])
    if kind == 3:
        return [_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    return {rng.choice("abcdef"): _value(rng, depth - 1) for _ in range(rng.randrange(4))}


def _changed(rng: random.Random, value: Any, depth: int) -> Any:
    """``value`` with some of its parts changed, added or removed."""
    if isinstance(value, dict) and depth:
        out = {key: _changed(rng, item, depth - 1) if rng.random() < 0.5 else item
               for key, item in value.items() if rng.random() < 0.9}
        if rng.random() < 0.3:
            out[rng.choice("abcdefgh")] = _value(rng, depth)
        return out
    if isinstance(value, list) and depth and rng.random() < 0.7:
        return [_changed(rng, item, depth - 1) for item in value]
    return _value(rng, depth) if rng.random() < 0.5 else value


@pytest.mark.parametrize("seed", range(4))
def test_the_changes_of_a_table_fold_into_it(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        _round_trip(rng)


def _round_trip(rng: random.Random) -> None:
    old = {"table": {key: _value(rng, 3) for key in "abcde"}, "hand": None}
    new_table = _changed(rng, old["table"], 3)
    kept = copy.deepcopy(old)
    patch = changes(old["table"], new_table, ["table"])
    folded = apply(old, patch)
    assert folded == {"table": new_table, "hand": None}
    assert old == kept  # copy on write: the view held is left as it was
    for key, value in old["table"].items():  # what did not change is shared, not copied
        if key in new_table and new_table[key] == value and isinstance(value, dict | list):
            assert folded["table"][key] is value


def test_a_patch_sets_and_removes_inside_the_view_only() -> None:
    view = {"hand": {"seats": [{"bet": 0}, {"bet": 2}], "actor": 1}, "sizes": None}
    folded = apply(view, [[["hand", "seats", 1], {"bet": 6}], [["hand", "actor"], 0],
                          [["sizes"], {"min": 4}], [["hand", "gone"], 1], [["hand", "gone"]]])
    assert folded == {"hand": {"seats": [{"bet": 0}, {"bet": 6}], "actor": 0},
                      "sizes": {"min": 4}}
    assert view["hand"]["seats"][1] == {"bet": 2}
    assert view["sizes"] is None
    assert folded["hand"]["seats"][0] is view["hand"]["seats"][0]
    for bad in ([["hand", "seats", 2], {}], [["hand", "nope", "x"], 1], [["sizes", "min"], 1],
                [["hand", "seats", "0"], {}], [["table"]], [[], 1], ["hand", 1]):
        with pytest.raises(ValueError, match=r"patch's path|a change is"):
            apply(view, [bad])
