"""The pills' cache (``engine.pills``): a hand's seats keep their current pills alone, a
finished hand's go with ``forget``, anything kept is bounded, and a pill from the cache is the
pill computed afresh. Counted (entries, bytes), never timed."""

from __future__ import annotations

import gc
import random
import tracemalloc
from collections.abc import Iterator

import pytest

from boardroom.cards import Card
from boardroom.engine import Deck, Hand, Stakes, pills
from boardroom.engine.view import forget_pills, views_for
from boardroom.evaluation.nuts import forget as forget_tables
from boardroom.rules import find_variant


def _hand(seed: int, game: str = "esg") -> Hand:
    stakes = Stakes(ante=1, big_blind=2) if game == "allocator-redraw" else \
        Stakes(small_blind=1, big_blind=2)
    return Hand(find_variant(game), stakes, [200] * 6, seed % 6,
                cards=Deck(rng=random.Random(seed)))


def _step(hand: Hand) -> None:
    if hand.can_check():
        hand.check()
    else:
        hand.call()


def _states(hand: Hand) -> Iterator[Hand]:
    """``hand`` at each step of a passive play to its end (the end included)."""
    while not hand.is_over:
        yield hand
        _step(hand)
    yield hand


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    pills.clear_caches()
    yield
    pills.clear_caches()


@pytest.mark.parametrize("game", ["esg", "plo", "allocator-redraw"])
def test_a_hand_s_seats_keep_their_current_pills_alone_and_lose_them_with_the_hand(
        game: str) -> None:
    """At every step of a hand each of its six seats keeps one set of pills, its current
    state's: a step that changes no card builds nothing (every view after it a hit), a card
    dealt replaces a seat's pills instead of adding to them; ``forget_pills`` at the end leaves
    nothing of the hand."""
    hand = _hand(3, game)
    seen_misses = 0
    for state in _states(hand):
        views_for(state, range(6))
        info = pills.cache_info()
        assert info.owners == 6
        assert info.currsize <= 6, info
        if info.misses == seen_misses:  # no card changed: every seat's pills a hit
            assert info.hits >= 6
        seen_misses = info.misses
        views_for(state, range(6))  # again: nothing built
        assert pills.cache_info().misses == seen_misses
    assert seen_misses > 6  # the streets' cards changed the pills
    forget_pills(hand)
    info = pills.cache_info()
    assert (info.currsize, info.owners) == (0, 0)


def test_pills_from_the_cache_are_the_pills_computed_afresh() -> None:
    """Exact: every seat's pills at every step, as cached, equal those computed with an
    empty cache; and a finished hand's pills asked for again after ``forget_pills`` (a late
    view) are computed again, the same."""
    hand = _hand(11)
    for state in _states(hand):
        cached = {seat: view.pills for seat, view in views_for(state, range(6)).items()}
        again = {seat: view.pills for seat, view in views_for(state, range(6)).items()}
        pills.clear_caches()
        fresh = {seat: view.pills for seat, view in views_for(state, range(6)).items()}
        assert cached == again == fresh
    last = {seat: view.pills for seat, view in views_for(hand, range(6)).items()}
    forget_pills(hand)
    misses = pills.cache_info().misses
    assert {seat: view.pills for seat, view in views_for(hand, range(6)).items()} == last
    assert pills.cache_info().misses == misses + 6


def test_the_cache_is_bounded_for_callers_that_name_no_viewer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without an owner (history, tests) pills are kept oldest first out, up to
    ``CACHE_SIZE``; owners never forgotten are bounded the same way, their pills with them."""
    monkeypatch.setattr(pills, "CACHE_SIZE", 8)
    esg = find_variant("esg")
    cards = list(range(52))
    random.Random(5).shuffle(cards)
    holes: list[list[Card]] = [[Card(card) for card in cards[6 * n:6 * n + 6]]
                               for n in range(8)]
    flop = [Card(card) for card in cards[48:51]]
    boards = {"A": flop, "B": []}
    first = [pills.pills_for(esg, hole, boards) for hole in holes]
    second = [pills.pills_for(esg, hole, boards, owner=("hand", number))
              for number, hole in enumerate(holes)]
    assert first == second
    assert pills.cache_info().currsize == 8
    for number in range(20):
        pills.pills_for(esg, holes[number % 8], {"A": [*flop[:2], Card(cards[51])], "B": []},
                        owner=("other", number))
        assert pills.cache_info().currsize <= 8
        assert pills.cache_info().owners <= 8
    assert pills.cache_info().owners == 8


def _play_viewed(seeds: range) -> None:
    """Hands of six seats viewed at every step, each forgotten as it ends, its pills and its
    boards' tables (as a room does once its last views are sent)."""
    for seed in seeds:
        hand = _hand(seed)
        for state in _states(hand):
            views_for(state, range(6))
        forget_pills(hand)
        forget_tables(tuple(cards) for cards in hand.boards.values())


def test_twenty_hands_viewed_at_every_step_leave_no_pills_behind() -> None:
    """Bytes: twenty hands of six seats viewed at every step and forgotten as they end leave
    the pills' module holding less than 2 KiB (the cache of 8,192 kept every seat's pills of
    every street: about 1 KB each, over 100 KB for these hands). A full collection before each
    count empties the interpreter's free lists (of tuples and the like), which keep freed
    blocks."""
    _play_viewed(range(1))  # first uses (the variant's, the evaluator's) outside the count
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.take_snapshot()
        _play_viewed(range(1, 21))
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    only = [tracemalloc.Filter(True, pills.__file__)]
    held = sum(stat.size_diff for stat in
               after.filter_traces(only).compare_to(before.filter_traces(only), "filename"))
    assert held < 2048, held
