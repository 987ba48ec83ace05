"""Invariants checked after every event in the engine tests (issue 3): chips are conserved and
no card is dealt twice."""

from __future__ import annotations

from boardroom.engine import Hand


def check_invariants(hand: Hand) -> None:
    assert sum(hand.stacks) + hand.chips_in_play == sum(hand.starting_stacks), "chips"
    assert all(isinstance(chips, int) and chips >= 0 for chips in hand.stacks), hand.stacks
    assert all(bet >= 0 for bet in hand.bets)
    assert all(c >= 0 for c in hand.contributed)
    # In redraw games a folded hand goes back to the pool (RULES.md s.3): only live hands count.
    dealt = [card for seat, cards in enumerate(hand.hole)
             if hand.pool_size is None or hand.live[seat] for card in cards]
    dealt += [card for cards in hand.boards.values() for card in cards]
    dealt += [card for card in hand.burned if card is not None]
    assert len(dealt) == len(set(dealt)), "a card was dealt twice"
    assert all(0 <= card < 52 for card in dealt)
    if hand.is_over:
        paid = sum(chips for result in hand.results for chips in result.shares.values())
        assert paid == sum(hand.contributed), "every chip in the pots is paid out"
