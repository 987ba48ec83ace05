"""Payouts: presets, custom tables, whole prizes that add up to the pool, ties (TDA)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.tournament import PayoutError, PayoutTable, preset_for, prizes
from boardroom.tournament.payouts import Finish, award


@settings(deadline=None)  # a large field's preset is built once, slowly on a loaded machine
@given(st.integers(1, 5000), st.integers(0, 10**9))
def test_preset_prizes_add_up_to_the_pool_and_never_rise(field: int, pool: int) -> None:
    table = preset_for(field)
    assert sum(table.shares) == 1
    amounts = prizes(pool, table)
    assert sum(amounts) == pool
    assert all(isinstance(a, int) for a in amounts)
    assert amounts == sorted(amounts, reverse=True)
    assert table.places <= max(1, field)


@given(st.lists(st.integers(1, 1000), min_size=1, max_size=30), st.integers(0, 10**7))
def test_custom_table_prizes_add_up_to_the_pool(weights: list[int], pool: int) -> None:
    weights.sort(reverse=True)
    total = sum(weights)
    table = PayoutTable(tuple(Fraction(w, total) for w in weights))
    amounts = prizes(pool, table)
    assert sum(amounts) == pool
    # Each place is within one unit of its exact share, the extra units at the top.
    exact = [pool * share for share in table.shares]
    assert all(0 <= a - math.floor(e) <= 1 for a, e in zip(amounts, exact, strict=True))


def test_the_rounding_remainder_goes_to_the_highest_places() -> None:
    table = PayoutTable.from_percents([50, 30, 20])
    assert prizes(101, table) == [51, 30, 20]  # 50.5, 30.3, 20.2: one unit left, to 1st
    assert prizes(7, PayoutTable.from_percents(["33.4", "33.3", "33.3"])) == [3, 2, 2]


def test_presets_by_field_size() -> None:
    assert preset_for(2).percents() == ["100"]
    assert preset_for(6).percents() == ["65", "35"]
    assert preset_for(9).percents() == ["50", "30", "20"]
    assert preset_for(60).places == 9
    assert preset_for(1000).places == 150


@pytest.mark.parametrize(("percents", "message"), [
    ([50, 30], "adds up to 80%, not 100%"),
    (["50", "30", "20.5"], "adds up to 201/2%, not 100%"),
    ([60, 50, -10], "every paid place gets more than 0%"),
    ([20, 80], "cannot pay more than the place above it"),
    ([], "at least one place"),
    (["fifty", "50"], "'fifty' is not a number"),
    ([50.0, 50], "whole number or a decimal string"),
    ("100", "a list of percents"),
])
def test_a_payout_table_that_is_not_100_percent_is_refused(percents: object,
                                                           message: str) -> None:
    with pytest.raises(PayoutError, match=message.replace("(", r"\(").replace(")", r"\)")):
        PayoutTable.from_percents(percents)  # type: ignore[arg-type]


def test_same_hand_eliminations_rank_by_starting_stack_and_equal_stacks_split() -> None:
    places = [500, 300, 200, 100, 60, 40]
    # Four players out in one hand with 4 left: places 5 to 8 (only 5 and 6 are paid).
    group = [("a", 300), ("b", 900), ("c", 300), ("d", 100)]
    assert award(places, group, 5) == [
        Finish("b", 5, 60),  # the biggest starting stack finishes highest
        Finish("a", 6, 20, tied=2),  # a and c tie for 6th: (40 + 0) / 2 each
        Finish("c", 6, 20, tied=2),
        Finish("d", 8, 0),
    ]


def test_a_tied_split_gives_the_odd_unit_to_the_first_in_order() -> None:
    assert award([101, 50], [("x", 10), ("y", 10)], 1) == [Finish("x", 1, 76, 2),
                                                         Finish("y", 1, 75, 2)]


def test_a_negative_pool_is_refused() -> None:
    with pytest.raises(PayoutError, match="prize pool"):
        prizes(-1, preset_for(5))
