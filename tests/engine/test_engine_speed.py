"""The engine's shortcuts give the answers of the long way, and save the work they claim."""

from __future__ import annotations

import random
from itertools import product

import pytest
from pure_engine import ran_in_pure_child

from action_script import play_passively
from boardroom.engine import Deck, Hand
from boardroom.engine import hand as hand_module
from boardroom.engine.betting import default_stakes
from boardroom.engine.stud import (
    _opening_key,
    _sorted_ranks,
    best_showing_ranks,
    best_showing_seat,
    bring_in_key,
    bring_in_seat,
    showing_key,
)
from boardroom.rules import BringIn, find_variant


@pytest.mark.parametrize("low", [False, True])
def test_the_showing_key_of_ranks_in_any_order_is_the_sorted_ranks_key(low: bool) -> None:
    """Every order of one to four up cards' ranks (suits never matter to the opener)."""
    for count in range(1, 5):
        for ranks in product(range(13), repeat=count):
            cards = [rank * 4 + k % 4 for k, rank in enumerate(ranks)]
            assert showing_key(ranks, low) == _opening_key(_sorted_ranks(cards, low), low)


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


@pytest.mark.parametrize("rule", list(BringIn))
def test_the_bring_in_from_the_card_table_is_the_largest_bring_in_key(rule: BringIn) -> None:
    """The bring-in looks its keys up in a table of every card's: the same seat as the
    largest ``bring_in_key`` (the first listed of equal ones), for 2,000 random third streets
    of 2 to 8 seats."""
    rng = random.Random(14)
    for _ in range(2000):
        cards = rng.sample(range(52), rng.randint(2, 8))
        up = list(zip(rng.sample(range(10), len(cards)), cards, strict=True))
        keys = [bring_in_key(card, rule) for _, card in up]
        assert bring_in_seat(up, rule) == up[keys.index(max(keys))][0]


@pytest.mark.parametrize("low", [False, True])
def test_the_best_showing_of_ranks_is_the_best_showing_of_cards(low: bool) -> None:
    rng = random.Random(15)
    for _ in range(2000):
        count = rng.randint(1, 4)
        deck = rng.sample(range(52), 8 * count)
        showing = [(seat, deck[seat * count:(seat + 1) * count])
                   for seat in range(rng.randint(2, 8))]
        ranks = [(seat, tuple(card >> 2 for card in up)) for seat, up in showing]
        assert best_showing_ranks(ranks, low=low) == best_showing_seat(showing, low=low)


def test_every_event_type_has_the_direct_constructor_with_the_dataclass_s_behaviour(
        request: pytest.FixtureRequest) -> None:
    """Each event type's constructor stores through the slots (``events._direct_init``), with
    the dataclass's parameters and defaults; its records stay frozen, equal by value,
    hashable and ``dataclasses.replace``-able, and read back what they were given. The pure
    module's constructors (``pure_engine``: the compiled ones are mypyc's own)."""
    if ran_in_pure_child(request):
        return
    import dataclasses
    import inspect

    from boardroom.engine import events as ev

    kinds = {kind for kind in vars(ev).values()
             if isinstance(kind, type) and issubclass(kind, ev.Event) and kind is not ev.Event}
    assert set(ev.EVENT_TYPES) == kinds
    assert len(kinds) > 20
    for kind in kinds:
        fields = dataclasses.fields(kind)
        assert kind.__init__.__qualname__ == f"{kind.__qualname__}.__init__"
        parameters = list(inspect.signature(kind).parameters.values())
        assert [p.name for p in parameters] == [f.name for f in fields]
        assert [p.default for p in parameters] == [
            inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
            for f in fields]
        values = {f.name: (k + 1, f"v{k}") for k, f in enumerate(fields)}
        made = kind(*values.values())
        assert made == kind(**values)
        assert {f.name: getattr(made, f.name) for f in fields} == values
        assert hash(made) == hash(dataclasses.replace(made))
        assert made == dataclasses.replace(made)
        if fields:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(made, fields[0].name, 0)
            other = dataclasses.replace(made, **{fields[0].name: "changed"})
            assert other != made
            assert getattr(other, fields[0].name) == "changed"
    assert ev.PotAwarded(0, 5, (1,), ((1, 5),), True).run == 1  # a default
    assert ev.RunsChosen(2, 1).automatic is False
