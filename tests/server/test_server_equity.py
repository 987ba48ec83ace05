"""The room's equity payload (server.equity): table seats and names, percentages, and none for
a hand whose live cards are not all face up (its chances would tell its cards)."""

from __future__ import annotations

import random
from fractions import Fraction

from boardroom.cards import new_deck
from boardroom.engine import Deck, Hand, Stakes
from boardroom.rules import find_variant
from boardroom.server.equity import hand_equity, percent


def _all_in_hand() -> Hand:
    deck = new_deck()
    random.Random(11).shuffle(deck)
    hand = Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [20, 20], 3,
                cards=Deck(deck, rng=random.Random(11)), seats=RECORD["seats"])
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.raise_max is not None:
            hand.raise_to(legal.raise_max)
        else:
            hand.call()
    return hand


RECORD = {"hand_no": 4, "seats": [3, 5],
          "players": [{"seat": 3, "player": "p", "name": "Ann"},
                      {"seat": 5, "player": "q", "name": "Bob"}]}


def test_the_payload_names_table_seats_and_players() -> None:
    payload = hand_equity(_all_in_hand(), RECORD)
    assert payload is not None
    assert payload["hand_no"] == 4
    assert payload["points"] is False
    seats = payload["streets"][0]["pots"][0]["seats"]
    assert {(s["seat"], s["name"]) for s in seats} == {(3, "Ann"), (5, "Bob")}
    for s in seats:
        assert s["share_pct"] == percent(Fraction(s["share"]))


def test_no_payload_while_a_live_hand_is_face_down() -> None:
    hand = _all_in_hand()
    hand.shown[hand.live_seats[0]] = False
    assert hand_equity(hand, RECORD) is None


def test_percentages_round_half_up_to_a_tenth() -> None:
    assert percent(Fraction(2, 3)) == "66.7"
    assert percent(Fraction(1, 2000)) == "0.1"
    assert percent(Fraction(1)) == "100.0"
    assert percent(Fraction(0)) == "0.0"
