"""The engine's shortcuts give the answers of the long way, and save the work they claim."""

from __future__ import annotations

import random
from itertools import product

import pytest

from action_script import play_passively
from boardroom.engine import Deck, Hand
from boardroom.engine import hand as hand_module
from boardroom.engine.betting import default_stakes
from boardroom.engine.stud import _opening_key, _showing_key, _sorted_ranks
from boardroom.rules import find_variant


@pytest.mark.parametrize("low", [False, True])
def test_the_showing_key_of_ranks_in_any_order_is_the_sorted_ranks_key(low: bool) -> None:
    """Every order of one to four up cards' ranks (suits never matter to the opener)."""
    for count in range(1, 5):
        for ranks in product(range(13), repeat=count):
            cards = [rank * 4 + k % 4 for k, rank in enumerate(ranks)]
            assert _showing_key(ranks, low) == _opening_key(_sorted_ranks(cards, low), low)


def test_a_strength_is_described_once_however_many_showdowns_show_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[object, int]] = []
    describe = hand_module.describe

    def counted(ranking: object, strength: int) -> str:
        calls.append((ranking, strength))
        return describe(ranking, strength)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_module, "describe", counted)
    hand_module._strength_value.cache_clear()
    variant = find_variant("stud")
    shown = []
    for _ in range(2):  # the same hands twice: the second showdown describes nothing
        rng = random.Random(7)
        for number in range(30):
            hand = play_passively(Hand(variant, default_stakes(variant), [200] * 4, number % 4,
                                       cards=Deck(rng=rng)))
            shown.append(hand.results)
    assert shown[:30] == shown[30:]
    assert calls
    assert len(calls) == len(set(calls))
