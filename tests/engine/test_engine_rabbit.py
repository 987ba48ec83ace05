"""Rabbit hunting (issue 15): after a hand ends before the last card, the board cards that would
have come, from the same deck, on every board (XMAS's Christmas card included), never a hole
card or a redraw, and without changing the hand."""

from __future__ import annotations

import random

import pytest

from boardroom.cards import Card, new_deck
from boardroom.engine import ActionError, Deck, Hand
from boardroom.engine.betting import default_stakes
from boardroom.rules import VARIANTS, Variant

STACKS = [500, 500, 500]


def _hand(variant: Variant, seed: int) -> Hand:
    deck = new_deck()
    random.Random(seed).shuffle(deck)
    return Hand(variant, default_stakes(variant), STACKS, 0,
                cards=Deck(deck, rng=random.Random(seed)))


def _passive(hand: Hand) -> None:
    while not hand.is_over:
        if hand.is_allocating:
            for seat in hand.allocation_pending:
                hand.allocate_best(seat)
            continue
        legal = hand.legal_actions()
        assert legal is not None
        if legal.check:
            hand.check()
        elif legal.bring_in is not None:
            hand.post_bring_in()
        else:
            hand.call()


def _by_board(hand: Hand) -> dict[str, tuple[Card, ...]]:
    boards: dict[str, tuple[Card, ...]] = {}
    for board, cards in hand.rabbit_hunt():
        boards[board] = boards.get(board, ()) + cards
    return boards


def _fold_out(hand: Hand) -> None:
    """The first decision bets (or raises), every later one folds: the hand ends at once."""
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.raise_min is not None and hand.current_bet <= hand.stakes.big_blind:
            hand.raise_to(legal.raise_min)
        elif legal.fold:
            hand.fold()
        elif legal.bring_in is not None:
            hand.post_bring_in()
        else:
            hand.check()


BOARD_GAMES = [v for v in VARIANTS if v.boards]


@pytest.mark.parametrize("variant", BOARD_GAMES, ids=lambda v: v.id)
@pytest.mark.parametrize("seed", range(3))
def test_the_rabbit_is_what_the_boards_would_have_dealt(variant: Variant, seed: int) -> None:
    folded, played = _hand(variant, seed), _hand(variant, seed)
    _fold_out(folded)
    _passive(played)
    events = list(folded.events)
    rabbit = _by_board(folded)
    assert rabbit  # the hand ended before its last card
    assert folded.events == events  # the hand is not changed
    for name, cards in played.boards.items():
        dealt = folded.boards[name]
        assert tuple(dealt) + rabbit.get(name, ()) == tuple(cards), name
    assert set(rabbit) == {name for name in played.boards
                           if len(folded.boards[name]) < len(played.boards[name])}
    hidden = {card for hole in played.hole for card in hole} | \
        {card for hole in folded.hole for card in hole}
    assert not hidden & {card for cards in rabbit.values() for card in cards}
    assert _by_board(folded) == rabbit  # asked twice, the same cards
    # In the order the streets deal: the first street left first.
    first = next(s for s in folded.variant.streets[folded.street_index + 1:] if s.reveals)
    assert [board for board, _ in folded.rabbit_hunt()[:len(first.reveals)]] == \
        [reveal.board for reveal in first.reveals]


def test_xmas_hunts_every_board_left() -> None:
    xmas = next(v for v in VARIANTS if v.id == "xmas")
    hand = _hand(xmas, 7)
    _fold_out(hand)
    assert hand.boards["X"]  # the Christmas card comes on the bomb, before the first bet
    assert [(name, len(cards)) for name, cards in hand.rabbit_hunt()] == \
        [("A", 1), ("B", 1), ("A", 1), ("B", 1)]


def test_no_rabbit_before_the_end_in_stud_or_after_a_full_board() -> None:
    plo = next(v for v in VARIANTS if v.id == "plo")
    hand = _hand(plo, 1)
    with pytest.raises(ActionError, match="the hand is not over: no rabbit hunting yet"):
        hand.rabbit_hunt()
    _passive(hand)
    assert hand.rabbit_hunt() == ()
    stud = next(v for v in VARIANTS if v.id == "stud-hilo")
    hand = _hand(stud, 1)
    _fold_out(hand)
    assert hand.rabbit_hunt() == ()  # stud has no board: every card left is a hole card
