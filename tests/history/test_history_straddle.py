"""Straddled hands in histories (issue 15): ``blinds_or_straddles`` carries the straddle (p3 for
UTG, the last player for the button), PokerKit reads the history back to the same stacks and
the same first player to act, and our reader replays it to the same hand."""

from __future__ import annotations

import random
import tomllib
import warnings

import pytest
import tomli_w

from boardroom.engine import Call, Check, Deck, Fold, Hand, RaiseTo, Stakes
from boardroom.engine.history import History, HistoryError, dumps, replay_text
from boardroom.rules import find_variant

STAKES = Stakes(small_blind=1, big_blind=2)


def _played(game: str, straddle: str, seed: int, stacks: list[int] | None = None,
            raise_first: bool = False) -> Hand:
    hand = Hand(find_variant(game), STAKES, stacks or [100] * 5, 0,
                cards=Deck(rng=random.Random(seed)), straddle=straddle)
    rng = random.Random(seed)
    first = True
    while not hand.is_over:
        seat = hand.actor
        assert seat is not None
        legal = hand.legal_actions()
        assert legal is not None
        if first and raise_first and legal.raise_min is not None:
            hand.apply(seat, RaiseTo(legal.raise_min))
        elif legal.check:
            hand.apply(seat, Check())
        elif rng.random() < 0.2:
            hand.apply(seat, Fold())
        else:
            hand.apply(seat, Call())
        first = False
    return hand


def _pokerkit_final(text: str) -> tuple[list[int], object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pokerkit import HandHistory

        states = list(iter(HandHistory.loads(text)))
    return list(states[-1].stacks), states[0]


@pytest.mark.parametrize("straddle", ["utg", "button"])
@pytest.mark.parametrize("seed", range(6))
def test_pokerkit_reads_a_straddled_plo_history_to_the_same_stacks(straddle: str,
                                                                 seed: int) -> None:
    hand = _played("plo", straddle, seed, raise_first=seed % 2 == 1)
    text = dumps(hand)
    record = History.loads(text).record
    expected = [1, 2, 4, 0, 0] if straddle == "utg" else [1, 2, 0, 0, 4]
    assert record["blinds_or_straddles"] == expected
    stacks, _ = _pokerkit_final(text)
    assert stacks == record["finishing_stacks"]
    assert sum(stacks) == 500


@pytest.mark.parametrize("straddle", ["utg", "button"])
def test_pokerkit_asks_the_same_player_first(straddle: str) -> None:
    hand = Hand(find_variant("plo"), STAKES, [100] * 5, 0, cards=Deck(rng=random.Random(1)),
                straddle=straddle)
    text = dumps(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pokerkit import HandHistory

        history = HandHistory.loads(text)
        state = history.create_state()
        while state.can_deal_hole():
            state.deal_hole()
    assert hand.actor is not None
    assert state.actor_index == hand.order.index(hand.actor)
    assert state.checking_or_calling_amount == hand.to_call(hand.actor)
    assert hand.current_bet == 4


@pytest.mark.parametrize("game", ["plo", "esg", "tilt", "holdem"])
@pytest.mark.parametrize("straddle", ["utg", "button"])
def test_a_straddled_history_replays_to_the_same_hand(game: str, straddle: str) -> None:
    hand = _played(game, straddle, 3, stacks=[100, 100, 100, 3, 100])  # a short straddle
    text = dumps(hand)
    again = replay_text(text)
    assert again.straddle_seat == hand.straddle_seat
    assert again.stacks == hand.stacks
    assert again.events == hand.events


@pytest.mark.parametrize("written", [[1, 2, 3, 0, 0], [1, 2, 0, 4, 0], [1, 2, 4, 0, 4]])
def test_a_straddle_boardroom_does_not_play_is_refused(written: list[int]) -> None:
    record = tomllib.loads(dumps(_played("plo", "utg", 0)))
    record["blinds_or_straddles"] = written
    bad = tomli_w.dumps(record)
    with pytest.raises(HistoryError, match="at most one straddle of twice the big blind"):
        replay_text(bad)
