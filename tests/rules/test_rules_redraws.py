"""The redraw formula (RULES.md section 3, "Redraws"), in one place: ``redraw_share`` per street
and ``redraw_schedule`` over streets, which the spec, the engine and the bots all use."""

from __future__ import annotations

import random

from boardroom.bots.equity import future_redraws
from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine.redraws import schedule
from boardroom.engine.view import view_for
from boardroom.rules import find_variant, redraw_schedule, redraw_share


def test_each_player_gets_the_cap_left_or_an_equal_share_of_the_pool() -> None:
    assert redraw_share(3, 0, 18, 4) == 3  # the cap
    assert redraw_share(6, 3, 6, 4) == 1  # floor(6 / 4); two cards stay in the pool
    assert redraw_share(9, 9, 30, 2) == 0  # the cap is reached
    assert redraw_share(3, 5, 30, 2) == 0  # never negative
    assert redraw_share(None, 0, 30, 2) == 0
    assert redraw_share(3, 0, 30, 0) == 0


def test_the_schedule_catches_up_a_missed_street_and_recycles_folded_hands() -> None:
    esg = find_variant("esg")
    # RULES.md s.7: six players leave a stub of 6 cards, one each at the flop, none after.
    assert redraw_schedule(esg.streets, 6, 6) == [("flop", 1, 0), ("turn", 0, 0),
                                                  ("river", 0, 0)]
    # Two fold before the flop's redraw, returning 6 cards each: 18 cards for 4 players.
    assert redraw_schedule(esg.streets, 6, 6, held=6, folds={"flop": 2}) == [
        ("flop", 3, 6), ("turn", 1, 2), ("river", 0, 2)]
    # Later streets only, from the public pool and the redraws so far (the bots' estimate).
    assert redraw_schedule(esg.streets[2:], 20, 2, received=3) == [("turn", 3, 14),
                                                                   ("river", 3, 8)]


def test_the_spec_the_engine_and_the_bots_agree_with_the_hand() -> None:
    esg = find_variant("esg")
    for players in range(2, 7):
        hand = Hand(esg, Stakes(small_blind=1, big_blind=2), [100] * players, 0,
                    cards=Deck(rng=random.Random(players)))
        assert hand.pool_size == esg.starting_pool(players)
        expected = sum(n for _, n, _ in schedule(esg, players))
        assert esg.guaranteed_redraws(players) == expected
        assert future_redraws(esg, view_for(hand, 0)) == expected
        while not hand.is_over:
            hand.check() if hand.can_check() else hand.call()
        assert hand.redraws == [expected] * players
