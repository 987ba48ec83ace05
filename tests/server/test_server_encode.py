"""Each audience's hand view is encoded from parts shared by identity (``dumps_shared``) and
from parts kept by value since the last change: the text must be exactly what encoding the view
alone gives, for every audience, whatever was encoded before it with the same memo and kept
texts; a part that did not change is not encoded again."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine.view import OWN_FIELDS, SeatView, own_views, views_for, with_own
from boardroom.rules import VARIANTS, ForcedBets, find_variant
from boardroom.server.encode import (
    KeptTexts,
    SharedTexts,
    dumps,
    dumps_shared,
    own_texts,
    plain,
    spectators_texts,
)


def _stakes(forced: ForcedBets, stud: bool) -> Stakes:
    if stud:
        return Stakes(ante=1, bring_in=1, small_bet=2, big_bet=4)
    if forced is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    return Stakes(ante=1, big_blind=2)


@pytest.mark.parametrize("variant_id", [variant.id for variant in VARIANTS])
def test_shared_encoding_says_what_each_view_alone_says(variant_id: str) -> None:
    variant = find_variant(variant_id)
    rng = random.Random(variant_id)
    players = min(4, variant.max_players)
    kept: KeptTexts = {}  # across changes and hands, as a room keeps them
    for _ in range(3):
        hand = Hand(variant, _stakes(variant.forced_bets, variant.is_stud), [60] * players, 0,
                    cards=Deck(rng=rng))
        while True:
            viewers = [None, *range(players)]
            views = views_for(hand, viewers)
            memo: SharedTexts = {}
            for viewer in rng.sample(viewers, len(viewers)):
                shared = dumps_shared(views[viewer], memo, kept=kept)
                assert shared == dumps(plain(views[viewer]))
            # each seat's view made from the spectators' texts and its own parts (as a room
            # encodes them), in any order
            base, owns = own_views(hand, range(players))
            like_memo: SharedTexts = {}
            spectators = spectators_texts(base, like_memo, kept)
            assert spectators.text == dumps(plain(views[None]))
            for seat in rng.sample(range(players), players):
                own = owns[seat]
                assert own_texts(spectators, seat, own, like_memo, kept).text == \
                    dumps(plain(views[seat]))
                # the view is the spectators' with the own parts, OWN_FIELDS and all
                view = with_own(base, seat, own)
                assert view == views[seat]
                assert all(getattr(view, name) is getattr(own, name) for name in OWN_FIELDS)
            if hand.is_over:
                break
            legal = hand.legal_actions()
            assert legal is not None
            if legal.draw is not None:
                seat = hand.actor
                assert seat is not None
                hand.draw(hand.hole[seat][:min(legal.draw, rng.randrange(3))])
            elif hand.can_post_bring_in():
                hand.post_bring_in()
            elif legal.raise_min is not None and rng.random() < 0.2:
                hand.raise_to(legal.raise_min)
            elif hand.can_check():
                hand.check()
            else:
                hand.call()


def test_a_part_is_encoded_once_for_every_audience() -> None:
    """The seats every audience sees alike are one entry of the memo, not one per audience."""
    hand = Hand(find_variant("plo"), Stakes(small_blind=1, big_blind=2), [60] * 4, 0,
                cards=Deck(rng=random.Random(5)))
    views = views_for(hand, [None, 0, 1, 2, 3])
    memo: SharedTexts = {}
    for view in views.values():
        dumps_shared(view, memo)
    seat_texts = [text for value, text in memo.values() if type(value).__name__ == "SeatView"]
    # 4 seats as everybody sees them, plus each seat as its own player sees it.
    assert len(seat_texts) == 4 + 4


def test_parts_that_did_not_change_are_not_encoded_again() -> None:
    """After a call, only the caller's seat (as everybody sees it, as its player does) and the
    pots are encoded again: the other seats and every pill come from the kept texts."""
    hand = Hand(find_variant("esg"), Stakes(small_blind=1, big_blind=2), [60] * 4, 0,
                cards=Deck(rng=random.Random(5)))
    kept: KeptTexts = {}
    for view in views_for(hand, [None, 0, 1, 2, 3]).values():
        dumps_shared(view, {}, kept=kept)
    before = set(kept)
    # a part is its own key (no tuple of its type and flag kept beside it, 64 bytes a part),
    # or (part, True) when its numbers are cards
    assert all(dataclasses.is_dataclass(key) or (
        type(key) is tuple and len(key) == 2 and key[1] is True) for key in kept)
    assert any(dataclasses.is_dataclass(key) for key in kept)
    assert len(before) >= 8  # 4 seats as everybody sees them, 4 as their own players do, pills
    caller = hand.actor
    hand.call()
    memo: SharedTexts = {}
    for view in views_for(hand, [None, 0, 1, 2, 3]).values():
        dumps_shared(view, memo, kept=kept)
    new = [key[0] if isinstance(key, tuple) else key for key in set(kept) - before]
    assert sorted(type(value).__name__ for value in new) == ["Pot", "Pot", "SeatView", "SeatView"]
    assert {value.seat for value in new if isinstance(value, SeatView)} == {caller}


def test_kept_texts_hold_only_the_last_two_changes_parts() -> None:
    """A room starts new kept texts at every change, on top of the last change's: a part
    unchanged since then is taken from them (moved into the new ones), not encoded again, and
    what neither change encoded is dropped, so a room keeps two changes' parts, not hundreds."""
    hand = Hand(find_variant("esg"), Stakes(small_blind=1, big_blind=2), [60] * 4, 0,
                cards=Deck(rng=random.Random(5)))
    first = KeptTexts()
    for view in views_for(hand, [None, 0, 1, 2, 3]).values():
        dumps_shared(view, {}, kept=first)
    hand.call()
    second = KeptTexts(first)
    memo: SharedTexts = {}
    for view in views_for(hand, [None, 0, 1, 2, 3]).values():
        dumps_shared(view, memo, kept=second)
    new = [key[0] if isinstance(key, tuple) else key for key in set(second) - set(first)]
    assert sorted(type(value).__name__ for value in new) == ["Pot", "Pot", "SeatView", "SeatView"]
    gone = set(first) - set(second)  # the caller's seat and the pots as they were
    assert gone
    assert all(key in first for key in gone)
    third = KeptTexts(second)
    assert third.previous is second
    assert second.previous is None
    for key in gone:
        with pytest.raises(KeyError):
            third[key]
    last = set(third)
    while not hand.is_over:  # the rest of the hand: each holds exactly its change's parts
        hand.check() if hand.can_check() else hand.call()
        third, alone = KeptTexts(third), KeptTexts()
        for view in views_for(hand, [None, 0, 1, 2, 3]).values():
            assert dumps_shared(view, {}, kept=third) == dumps(plain(view))
            dumps_shared(view, {}, kept=alone)
        assert set(third) == set(alone)
        assert third.previous is not None
        assert set(third.previous) <= last
        last = set(third)


def test_a_seat_s_view_encodes_only_what_it_has_of_its_own(monkeypatch: pytest.MonkeyPatch,
                                                           ) -> None:
    """After the spectators' view, each seat's view (the spectators' with its own seat, pills
    and legal actions) takes the spectators' texts for every field it shares with it: only its
    own fields are encoded, and the text is what encoding it alone gives."""
    hand = _esg_on_the_flop(7)
    views = views_for(hand, [None, *range(6)])
    calls = _count_encodings(monkeypatch)
    memo: SharedTexts = {}
    kept = KeptTexts()
    base, owns = own_views(hand, range(6))
    spectators = spectators_texts(base, memo, kept)
    assert spectators.text == dumps(plain(views[None]))
    calls.clear()
    own = 0
    for seat in range(6):
        view = views[seat]
        assert own_texts(spectators, seat, owns[seat], memo, kept).text == dumps(plain(view))
        # its viewer, its seat as its player sees it, its pills (each one), its allocation,
        # its runs, its legal actions (each field)
        own += 1 + 1 + 1 + len(view.pills) + 1 + 1 + (
            1 + len(dataclasses.fields(view.legal)) if view.legal is not None else 0)
    # and once, for all of them: the spectators' seats, one by one
    assert len(calls) <= own + len(base.seats), [type(value).__name__ for value in calls]


def test_a_seat_s_own_parts_unchanged_since_its_last_texts_are_not_encoded_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's pills within a street and its legal actions while it waits are the very
    values of its last change: their texts come from its last texts, not from encoding them
    again; a part that changed is encoded (and the text is what encoding the view gives)."""
    hand = _esg_on_the_flop(11)
    kept = KeptTexts()
    base, owns = own_views(hand, range(6))
    spectators = spectators_texts(base, {}, kept)
    last = {seat: own_texts(spectators, seat, owns[seat], {}, kept) for seat in range(6)}
    actor = hand.seat_to_act
    assert actor is not None
    hand.check()  # the same street: the same pills; the actor's legal actions go to the next
    calls = _count_encodings(monkeypatch)
    base, owns = own_views(hand, range(6))
    views = views_for(hand, [None, *range(6)])
    memo: SharedTexts = {}
    spectators = spectators_texts(base, memo, KeptTexts(kept))
    for seat in range(6):
        calls.clear()
        texts = own_texts(spectators, seat, owns[seat], memo, kept, last[seat])
        assert texts.text == dumps(plain(views[seat]))
        assert owns[seat].pills, "pills on the flop"
        assert owns[seat].pills is not None
        assert all(value is not owns[seat].pills for value in calls)  # taken from its last
        if seat == actor:  # it acted: its legal actions are gone, encoded anew (null)
            assert owns[seat].legal is None
        if seat == hand.seat_to_act:  # now to act: its legal actions are new, encoded
            assert owns[seat].legal in calls
        elif seat != actor:  # still waiting: None, as before, not encoded again
            assert owns[seat].legal is None
            assert all(value is not None for value in calls)


def _esg_on_the_flop(seed: int) -> Hand:
    """A six-handed ESG hand called and checked to the flop."""
    hand = Hand(find_variant("esg"), Stakes(small_blind=1, big_blind=2), [60] * 6, 0,
                cards=Deck(rng=random.Random(seed)))
    while hand.street is not None and hand.street.name == "preflop":
        hand.call() if hand.can_call() else hand.check()
    return hand


def _count_encodings(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The values ``dumps_shared`` is called with from now on, in a list that fills."""
    import boardroom.server.encode as encode

    calls: list[Any] = []
    real = encode.dumps_shared

    def counting(value: Any, *args: Any, **kwargs: Any) -> str:
        calls.append(value)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(encode, "dumps_shared", counting)
    return calls
