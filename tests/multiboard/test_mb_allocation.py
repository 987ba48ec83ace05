"""The allocation phase (RULES.md s.3): checked commits that name no card, hidden until all are
in, revealed at once, discards never shown, timeouts and the deterministic optimiser."""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest

from boardroom.cards import format_cards, parse_cards
from boardroom.engine import ActionError, Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.allocation import (
    AllocationError,
    allocation_score,
    best_allocation,
    check_allocation,
)
from boardroom.engine.view import events_for, view_for
from boardroom.rules import find_variant

ALLOCATOR = find_variant("allocator")
REDRAW = find_variant("allocator-redraw")
CARD = re.compile(r"\b(10|[2-9TJQKA])[cdhs]\b")


def to_allocation(variant_id: str, players: int = 3, seed: int = 5) -> Hand:
    hand = Hand(find_variant(variant_id), Stakes(ante=1, big_blind=2), [100] * players, 0,
                cards=Deck(rng=random.Random(seed)), manual_allocation=True)
    while not hand.is_allocating:
        assert hand.can_check() or hand.can_call()
        hand.check() if hand.can_check() else hand.call()
    return hand


def test_commit_checks_and_errors_name_no_card() -> None:
    hole = parse_cards("As Ks Qs Js Ts 9s")
    other = parse_cards("2c")[0]
    good = {"A": hole[:2], "B": hole[2:4], "Hand": hole[4:]}
    assert check_allocation(ALLOCATOR, hole, good) == good
    assert check_allocation(ALLOCATOR, hole, {"A": "AsKs", "B": "QsJs", "Hand": "Ts9s"}) == good
    bad = [
        ({"A": hole[:2], "B": hole[2:4]}, "no cards for Hand"),
        ({**good, "C": hole[:2]}, "no category 'C'"),
        ({**good, "Hand": hole[4:5]}, "Hand takes 2 cards, not 1"),
        ({**good, "Hand": (hole[4], other)}, "not in your hand"),
        ({**good, "Hand": (hole[4], hole[0])}, "allocated twice"),
        ({**good, "A": "Xx"}, "not readable"),
    ]
    for allocation, message in bad:
        with pytest.raises(AllocationError, match=message) as error:
            check_allocation(ALLOCATOR, hole, allocation)
        assert not CARD.search(str(error.value))
    with pytest.raises(AllocationError, match="no allocation phase"):
        check_allocation(find_variant("esg"), hole, good)


def test_commits_are_hidden_until_all_are_in_then_revealed_at_once() -> None:
    hand = to_allocation("allocator-redraw", players=3)
    assert hand.actor is None
    assert hand.legal_actions() is None
    assert hand.allocation_pending == (1, 2, 0)
    started = [e for e in hand.events if isinstance(e, ev.AllocationStarted)]
    assert started == [ev.AllocationStarted((1, 2, 0))]
    hand.allocate(1, hand.suggest_allocation(1))
    with pytest.raises(ActionError, match="already committed"):
        hand.allocate(1, hand.suggest_allocation(1))
    for viewer in (None, 0, 2):
        view = view_for(hand, viewer)
        assert view.allocating
        assert view.allocation == ()
        assert [s.allocated for s in view.seats] == [False, True, False]
        assert not any(isinstance(e, ev.AllocationsRevealed) for e in events_for(hand, viewer))
    assert dict(view_for(hand, 1).allocation) == hand.allocations[1]
    assert not hand.is_over
    hand.allocate(0, hand.suggest_allocation(0))
    hand.allocate_best(2)  # a timeout
    assert hand.is_over
    committed = [e for e in hand.events if isinstance(e, ev.AllocationCommitted)]
    assert [(e.seat, e.automatic) for e in committed] == [(1, False), (0, False), (2, True)]
    revealed = [e for e in hand.events if isinstance(e, ev.AllocationsRevealed)]
    assert len(revealed) == 1
    assert {seat for seat, _ in revealed[0].allocations} == {0, 1, 2}


def test_discards_are_never_shown() -> None:
    hand = to_allocation("allocator-redraw", players=2, seed=11)
    assert all(len(cards) > 7 for cards in hand.hole)  # redraws: more than the 7 allocated
    for seat in hand.allocation_pending:
        hand.allocate_best(seat)
    assert hand.is_over
    for seat in range(2):
        allocated = {c for part in hand.allocations[seat].values() for c in part}
        discards = set(hand.hole[seat]) - allocated
        assert discards
        other = 1 - seat
        for viewer in (None, other):
            view = view_for(hand, viewer)
            visible = {c for c in view.seats[seat].cards if c is not None}
            assert visible == allocated
            shown = next(s for s in view.showdown if s.seat == seat)
            assert set(shown.cards) == allocated
            for event in events_for(hand, viewer):
                if isinstance(event, ev.HoleDealt | ev.HandShown) and event.seat == seat:
                    assert not discards & {c for c in event.cards if c is not None}


def test_actions_outside_the_phase_are_refused() -> None:
    hand = Hand(ALLOCATOR, Stakes(ante=1, big_blind=2), [100] * 3, 0,
                cards=Deck(rng=random.Random(1)), manual_allocation=True)
    with pytest.raises(ActionError, match="no allocation to make now"):
        hand.allocate(0, {})
    assert not hand.can_allocate(0, {})
    assert set(hand.suggest_allocation(0)) == {"A", "B", "Hand"}  # a hint at any time
    esg = Hand(find_variant("esg"), Stakes(small_blind=1, big_blind=2), [100] * 3, 0,
               cards=Deck(rng=random.Random(1)))
    with pytest.raises(ActionError, match="no allocation phase"):
        esg.allocate(0, {})


def test_without_manual_allocation_every_seat_gets_the_engines_allocation() -> None:
    hand = Hand(ALLOCATOR, Stakes(ante=1, big_blind=2), [100] * 3, 0,
                cards=Deck(rng=random.Random(5)))
    while not hand.is_over:
        hand.check() if hand.can_check() else hand.call()
    committed = [e for e in hand.events if isinstance(e, ev.AllocationCommitted)]
    assert all(e.automatic for e in committed)
    assert len(committed) == 3
    for seat in range(3):
        assert hand.allocations[seat] == best_allocation(ALLOCATOR, hand.hole[seat], hand.boards)


def _all_allocations(hole: tuple[int, ...], sizes: list[int]) -> list[list[tuple[int, ...]]]:
    result = []
    for first in combinations(hole, sizes[0]):
        rest = [c for c in hole if c not in first]
        for second in combinations(rest, sizes[1]):
            left = [c for c in rest if c not in second]
            result += [[first, second, third] for third in combinations(left, sizes[2])]
    return result


@pytest.mark.parametrize(("variant", "cards"), [(ALLOCATOR, 6), (REDRAW, 8)])
def test_optimiser_finds_the_best_score_and_is_deterministic(variant: object,
                                                             cards: int) -> None:
    assert variant in (ALLOCATOR, REDRAW)
    v = ALLOCATOR if variant is ALLOCATOR else REDRAW
    for seed in range(3):
        deck = list(range(52))
        random.Random(seed).shuffle(deck)
        hole, boards = tuple(deck[:cards]), {"A": deck[cards:cards + 5],
                                             "B": deck[cards + 5:cards + 10]}
        best = best_allocation(v, hole, boards)
        names = list(v.allocation_sizes)
        brute = max(allocation_score(v, dict(zip(names, parts, strict=True)), boards)
                    for parts in _all_allocations(hole, list(v.allocation_sizes.values())))
        assert allocation_score(v, best, boards) == brute
        shuffled = list(hole)
        random.Random(seed + 1).shuffle(shuffled)
        assert best_allocation(v, shuffled, boards) == best
        check_allocation(v, hole, best)


def test_optimiser_routes_a_royal_flush_to_its_board() -> None:
    hole = parse_cards("Ah Th 2c 2d 7s 8d")
    boards = {"A": parse_cards("Kh Qh Jh 3c 5d"), "B": parse_cards("Ks Qs Js 3h 8c")}
    best = best_allocation(ALLOCATOR, hole, boards)
    assert format_cards(best["A"]) == "Ah Th"
    assert format_cards(best["Hand"]) == "2d 2c"
