"""Per-viewer views (DESIGN.md): own cards and public cards only; shown hands become public."""

from __future__ import annotations

import random

from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.history import dumps, replay_text
from boardroom.engine.view import events_for, view_for
from boardroom.rules import find_variant


def stud_hand(seed: int = 3) -> Hand:
    return Hand(find_variant("stud-hilo"), Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8),
                [100, 100, 100], 2, cards=Deck(rng=random.Random(seed)))


def test_stud_up_cards_are_public_down_cards_private() -> None:
    hand = stud_hand()
    spectator = view_for(hand, None)
    for seat in spectator.seats:
        assert [card is not None for card in seat.cards] == [False, False, True]
    mine = view_for(hand, 0)
    assert all(card is not None for card in mine.seats[0].cards)
    assert [card is not None for card in mine.seats[1].cards] == [False, False, True]
    burned = [e for e in events_for(hand, 0) if isinstance(e, ev.CardBurned)]
    assert all(e.card is None for e in burned)


def test_shown_cards_become_public_mucked_stay_hidden() -> None:
    hand = stud_hand()
    while not hand.is_over:
        if hand.can_post_bring_in():
            hand.post_bring_in()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    spectator = view_for(hand, None)
    for seat in spectator.seats:
        if seat.shown:
            assert all(card is not None for card in seat.cards)
        else:
            assert seat.shown is False
            assert sum(card is None for card in seat.cards) == 3  # 2 down + 7th street
    assert any(seat.shown is False for seat in spectator.seats)
    assert sum(spectator.winnings.values()) == sum(hand.contributed)
    assert replay_text(dumps(hand)).stacks == hand.stacks
