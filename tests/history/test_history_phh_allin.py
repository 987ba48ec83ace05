"""Plain PHH of all-in hands: the shows are written where PHH expects them, before the run-out,
so PokerKit 0.7.7 reads our file without filling in a show; stud files say
``ante_trimming_status = true`` and PokerKit replays short antes to our stacks (issue 10)."""

from __future__ import annotations

import random
import tomllib
import warnings

import pytest

from boardroom.cards import parse_cards
from boardroom.engine import Deck, Hand, ScriptedCards, Stakes
from boardroom.engine.history import HistoryError, dumps, replay_text
from boardroom.rules import find_variant

PLO = find_variant("plo")
STUD = find_variant("stud-hilo").with_options(bring_in="lowest")
STUD_STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def pokerkit_repairs(text: str) -> tuple[list[str], list[int]]:
    """The operations PokerKit's reader had to supply itself, and its final stacks."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pokerkit import HandHistory

        repairs: list[str] = []
        state = None
        for state, action in HandHistory.loads(text).state_actions:
            if action is None and state.operations:
                repairs.append(type(state.operations[-1]).__name__)
    assert state is not None
    return repairs, list(state.stacks)


def actions_of(text: str) -> list[str]:
    return list(tomllib.loads(text)["actions"])


def play_down(hand: Hand) -> None:
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.bring_in is not None:
            hand.post_bring_in()
        elif legal.check:
            hand.check()
        else:
            hand.call()


def test_plo_all_in_preflop_shows_before_the_flop() -> None:
    hand = Hand(PLO, Stakes(small_blind=1, big_blind=2), [20, 30], 1,
                cards=Deck(rng=random.Random(3)))
    hand.raise_to(6)
    hand.raise_to(18)
    hand.raise_to(30)
    hand.call()
    text = dumps(hand)
    actions = actions_of(text)
    shows = [k for k, a in enumerate(actions) if " sm " in a]
    flop = next(k for k, a in enumerate(actions) if a.startswith("d db"))
    assert len(shows) == 2
    assert max(shows) < flop  # both hands are tabled before the run-out
    repairs, stacks = pokerkit_repairs(text)
    assert "HoleCardsShowingOrMucking" not in repairs
    assert stacks == hand.stacks
    assert replay_text(text).stacks == hand.stacks


def test_plo_big_blind_nobody_could_answer_has_no_check_in_the_history() -> None:
    # The small blind calls all-in for less; the big blind is not prompted, so we write no
    # check for it, and PokerKit reads the file as it stands.
    hand = Hand(PLO, Stakes(small_blind=2, big_blind=4), [100, 3], 1,
                cards=Deck(rng=random.Random(5)))
    hand.call()
    assert hand.is_over
    text = dumps(hand)
    repairs, stacks = pokerkit_repairs(text)
    assert "HoleCardsShowingOrMucking" not in repairs
    assert "CheckingOrCalling" not in repairs
    assert not any(a.startswith("p1 cc") for a in actions_of(text))
    assert stacks == hand.stacks
    assert replay_text(text).stacks == hand.stacks


def stud_hand(hole: list[str], stacks: list[int], stakes: Stakes = STUD_STAKES) -> Hand:
    cards = {seat: parse_cards(text) for seat, text in enumerate(hole)}
    return Hand(STUD, stakes, stacks, len(stacks) - 1, cards=ScriptedCards(cards, {}))


def test_stud_all_in_on_third_street_shows_then_shows_the_last_down_card() -> None:
    hand = stud_hand(["5d9c2sAsJcTc4s", "6s9d8h7h4h3h6d"], [5, 30])
    hand.raise_to(4)  # seat 0 brings in by completing all-in for less (4 behind the ante)
    play_down(hand)
    text = dumps(hand)
    actions = actions_of(text)
    assert tomllib.loads(text)["ante_trimming_status"] is True
    fourth = actions.index("d dh p1 As")
    early = [a for a in actions[:fourth] if " sm " in a]
    late = [a for a in actions[fourth:] if " sm " in a]
    assert sorted(early) == ["p1 sm 5d9c2s", "p2 sm 6s9d8h"]  # what each holds then
    assert sorted(late) == ["p1 sm 5d9c2sAsJcTc4s", "p2 sm 6s9d8h7h4h3h6d"]
    repairs, stacks = pokerkit_repairs(text)
    assert "HoleCardsShowingOrMucking" not in repairs
    assert stacks == hand.stacks
    assert replay_text(text).stacks == hand.stacks


def test_stud_ante_all_in_for_less_replays_in_pokerkit_with_ante_trimming() -> None:
    # Seat 0 has 1 chip against antes of 2: main pot 3, side pot between seats 1 and 2.
    stakes = Stakes(ante=2, bring_in=2, small_bet=5, big_bet=10)
    hand = stud_hand(["Ac2c3c4c5c6c7c", "KsKhKdQsQhQdJs", "9s9h8s8h7s7h6s"], [1, 100, 100],
                     stakes)
    play_down(hand)
    text = dumps(hand)
    assert tomllib.loads(text)["ante_trimming_status"] is True
    repairs, stacks = pokerkit_repairs(text)
    assert "HoleCardsShowingOrMucking" not in repairs
    assert stacks == hand.stacks
    assert replay_text(text).stacks == hand.stacks


def test_stud_heads_up_short_ante_comes_back_in_pokerkit_too() -> None:
    stakes = Stakes(ante=2, bring_in=2, small_bet=5, big_bet=10)
    hand = stud_hand(["Ac2c3c4c5c6c7c", "KsKhKdQsQhQdJs"], [1, 100], stakes)
    assert hand.is_over
    text = dumps(hand)
    repairs, stacks = pokerkit_repairs(text)
    assert "HoleCardsShowingOrMucking" not in repairs
    assert stacks == hand.stacks


def test_a_second_show_must_add_the_cards_dealt_since_the_first() -> None:
    """The reader takes stud's second show only as the first one plus the cards dealt since:
    a second show that changes a card, or repeats the first, is refused."""
    hand = stud_hand(["5d9c2sAsJcTc4s", "6s9d8h7h4h3h6d"], [5, 30])
    hand.raise_to(4)
    play_down(hand)
    text = dumps(hand)
    assert replay_text(text).stacks == hand.stacks
    for forged in ("p1 sm 5d9c3cAsJcTc4s", "p1 sm 5d9c2s"):
        mutated = text.replace('"p1 sm 5d9c2sAsJcTc4s"', f'"{forged}"')
        assert mutated != text
        with pytest.raises(HistoryError, match=r'player "p1" \(seat 1\) is already shown or '
                                               r"mucked at line \d+, action \d+"):
            replay_text(mutated)
