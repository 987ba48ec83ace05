"""Invariants checked after every event in the engine tests (issue 3): chips are conserved and
no card is dealt twice."""

from __future__ import annotations

import random

from boardroom.engine import Hand, LegalActions


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


def random_action(hand: Hand, legal: LegalActions, rng: random.Random) -> None:
    """One random legal action: check or call most often, else fold, bring in, or raise by the
    least or the most; at a draw, throw a random handful."""
    if legal.draw is not None:
        hand.draw(rng.sample(hand.hole[legal.seat], rng.randint(0, legal.draw)))
        return
    options = ["call"] * 3 if legal.check or legal.call is not None else []
    if legal.fold:
        options.append("fold")
    if legal.bring_in is not None:
        options.append("bring_in")
    if legal.raise_min is not None:
        options += ["min", "max"]
    choice = rng.choice(options)
    if choice == "fold":
        hand.fold()
    elif choice == "bring_in":
        hand.post_bring_in()
    elif choice == "call":
        if legal.check:
            hand.check()
        else:
            hand.call()
    else:
        assert legal.raise_min is not None
        assert legal.raise_max is not None
        hand.raise_to(legal.raise_min if choice == "min" else legal.raise_max)
