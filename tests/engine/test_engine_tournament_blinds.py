"""The engine's two tournament hooks (TDA): a dead small blind and the big-blind ante."""

from __future__ import annotations

import random

import pytest

from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.betting import StakesError
from boardroom.engine.history import HistoryError, dumps, replay_text, setup_of, to_record
from boardroom.rules import find_variant
from engine.engine_invariants import check_invariants, random_action

PLO = find_variant("plo")
BLINDS = Stakes(small_blind=10, big_blind=20, ante=20)


def _posted(hand: Hand) -> list[tuple[str, int, int]]:
    out = []
    for event in hand.events:
        if isinstance(event, ev.BlindPosted):
            out.append((event.blind, event.seat, event.amount))
        elif isinstance(event, ev.AntePosted):
            out.append(("ante", event.seat, event.amount))
    return out


def test_a_dead_small_blind_posts_only_the_big_blind_left_of_the_button() -> None:
    hand = Hand(PLO, Stakes(small_blind=10, big_blind=20), [1000] * 4, 0,
                cards=Deck(rng=random.Random(1)), dead_small_blind=True)
    assert _posted(hand) == [("big", 1, 20)]
    assert hand.actor == 2  # left of the big blind preflop
    assert hand.legal_actions().call == 20  # type: ignore[union-attr]
    # Everyone calls, the big blind checks: the flop opens with the big blind (left of the
    # button, the small blind's seat being empty).
    for _ in range(3):
        hand.call()
    hand.check()
    assert hand.actor == 1


def test_the_big_blind_ante_is_posted_by_the_big_blind_alone_after_its_blind() -> None:
    hand = Hand(PLO, BLINDS, [1000, 1000, 25], 0, cards=Deck(rng=random.Random(2)),
                big_blind_ante=True)
    # The big blind (seat 2) has 25: the blind first (20), then what is left of the ante (5).
    assert _posted(hand) == [("small", 1, 10), ("big", 2, 20), ("ante", 2, 5)]
    assert hand.stacks == [1000, 990, 0]


def test_hooks_need_a_blind_game_and_a_dead_small_blind_three_players() -> None:
    with pytest.raises(StakesError, match="heads-up"):
        Hand(PLO, BLINDS, [100, 100], 0, dead_small_blind=True)
    with pytest.raises(StakesError, match="no blinds"):
        Hand(find_variant("xmas"), Stakes(ante=1, big_blind=2), [100] * 3, 0,
             big_blind_ante=True)


@pytest.mark.parametrize("seed", range(40))
def test_random_hands_with_the_hooks_conserve_chips(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(3, 6)
    stacks = [rng.randint(1, 300) for _ in range(count)]
    hand = Hand(PLO, BLINDS, stacks, rng.randrange(count), cards=Deck(rng=rng),
                dead_small_blind=rng.random() < 0.5, big_blind_ante=True)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        random_action(hand, legal, rng)
        check_invariants(hand)
    check_invariants(hand)
    record = to_record(hand)
    assert sum(record["antes"]) <= BLINDS.ante
    if hand.dead_small_blind:
        assert record["blinds_or_straddles"][0] == 20
        assert sum(record["blinds_or_straddles"]) == 20


@pytest.mark.parametrize("seed", range(12))
def test_a_tournament_hand_written_with_its_hooks_replays_the_same(seed: int) -> None:
    rng = random.Random(seed)
    count = rng.randint(3, 6) if seed % 3 else 2
    dead = count >= 3 and seed % 2 == 0
    hand = Hand(PLO, BLINDS, [rng.randint(30, 300) for _ in range(count)], rng.randrange(count),
                cards=Deck(rng=rng), dead_small_blind=dead, big_blind_ante=seed % 4 != 1)
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        random_action(hand, legal, rng)
    text = dumps(hand)
    again = replay_text(text)
    assert again.dead_small_blind == hand.dead_small_blind
    assert again.big_blind_ante == hand.big_blind_ante
    assert again.stakes == hand.stakes
    assert _posted(again) == _posted(hand)
    assert again.stacks == hand.stacks
    assert dumps(again) == text


def test_a_history_with_an_ante_from_a_player_who_is_not_the_big_blind_is_refused() -> None:
    hand = Hand(PLO, BLINDS, [100, 100, 100], 0, cards=Deck(rng=random.Random(3)),
                big_blind_ante=True)
    record = to_record(hand)
    record["antes"] = [20, 0, 0]  # p1 is the small blind
    with pytest.raises(HistoryError, match=r"antes.*big blind"):
        setup_of(record)
    record["antes"] = [20, 10, 0]
    with pytest.raises(HistoryError, match="antes"):
        setup_of(record)
