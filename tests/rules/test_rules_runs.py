"""Running it twice or three times (issue 15): offered when every player left is all-in before
the last card, in every game with boards to deal (the redraw games and Tilt included), dealt
from the same remaining deck, each run settling its share of every pot; declined, timed out
or short of cards it runs once, and the table is told why."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from boardroom.engine import ActionError, Call, Check, Deck, Hand, RaiseTo, Stakes
from boardroom.engine import events as ev
from boardroom.engine.actions import ChooseRuns
from boardroom.engine.runs import run_pool, run_shares, runs_refusal
from boardroom.rules import ForcedBets, find_variant
from boardroom.rules.variants import VARIANTS

RUN_GAMES = [v.id for v in VARIANTS if runs_refusal(v) is None]


def _stakes(game: str) -> Stakes:
    blinds = find_variant(game).forced_bets is ForcedBets.BLINDS
    return Stakes(small_blind=1, big_blind=2) if blinds else Stakes(ante=1, big_blind=2)


def _to_the_offer(game: str, stacks: list[int], street: int = 0, seed: int = 1,
                  offered: bool = True) -> Hand:
    """Check or call up to ``street``, then everyone all-in: the hand stops at the offer."""
    hand = Hand(find_variant(game), _stakes(game), stacks, 0,
                cards=Deck(rng=random.Random(seed)), runs_offered=offered)
    while hand.actor is not None:
        legal = hand.legal_actions()
        assert legal is not None
        if hand.street_index >= street and legal.raise_max is not None:
            hand.apply(hand.actor, RaiseTo(legal.raise_max))
        else:
            hand.apply(hand.actor, Check() if legal.check else Call())
    return hand


def _answer(hand: Hand, runs: int) -> None:
    for seat in hand.runs_pending:
        hand.apply(seat, ChooseRuns(runs))


def test_the_games_that_run_more_than_once() -> None:
    assert set(RUN_GAMES) == {"esg", "esg-low", "xmas", "balance", "bomb", "tilt", "plo",
                              "omaha-hilo", "courchevel", "holdem"}


@pytest.mark.parametrize("game", RUN_GAMES)
@pytest.mark.parametrize("runs", [2, 3])
def test_every_board_game_runs_the_rest_twice_or_three_times(game: str, runs: int) -> None:
    hand = _to_the_offer(game, [200, 200, 200], street=1)
    assert hand.is_choosing_runs
    assert hand.actor is None
    offer = next(e for e in hand.events if isinstance(e, ev.RunsOffered))
    assert offer.seats == hand.live_seats
    assert offer.most == 3
    pots = hand.pots()
    _answer(hand, runs)
    assert hand.is_over
    assert hand.run_count == runs
    assert len(hand.runs) == runs
    assert sum(hand.stacks) == 600
    # Each run deals every board whole, and no card twice across the runs.
    dealt: list[int] = []
    for run in hand.runs:
        boards = dict(run.boards)
        assert {name: len(cards) for name, cards in boards.items()} == {
            board.name: board.size for board in hand.variant.boards}
        dealt += [c for _, cards in run.dealt for c in cards]
        dealt += [c for _, cards in run.cards for c in cards]
    held = [c for seat in hand.live_seats for c in hand.hole[seat][:hand.variant.hole_cards]]
    assert not [c for c, n in Counter(dealt + held).items() if n > 1]
    assert len({tuple(dict(run.boards).items()) for run in hand.runs}) == runs
    # Each run settles its share of every pot.
    awarded = [e for e in hand.events if isinstance(e, ev.PotAwarded)]
    assert sorted({e.run for e in awarded}) == list(range(1, runs + 1))
    for index, pot in enumerate(pots):
        shares = [sum(e.amount for e in awarded if e.index == index and e.run == number)
                  for number in range(1, runs + 1)]
        assert shares == run_shares(pot.amount, runs)
        for number in range(1, runs + 1):
            paid = [e for e in awarded if e.index == index and e.run == number]
            assert sum(chips for e in paid for _, chips in e.shares) == shares[number - 1]


@pytest.mark.parametrize("game", ["esg", "esg-low", "balance", "tilt", "xmas"])
def test_the_redraw_games_share_the_pool_so_every_run_redraws_alike(game: str) -> None:
    hand = _to_the_offer(game, [300, 300])
    pool = hand.pool_size
    assert pool is not None
    board_cards = hand.variant.board_card_count - sum(map(len, hand.boards.values()))
    _answer(hand, 2)
    assert hand.pool_size is not None
    share = run_pool(pool, board_cards, 2)
    changed = [e.size for e in hand.events if isinstance(e, ev.PoolChanged)]
    assert share in changed
    first, second = hand.runs
    counts = [{seat: len(cards) for seat, cards in run.cards} for run in hand.runs]
    assert counts[0] == counts[1]
    assert sum(counts[0].values()) > 0  # the runs do redraw
    # The redraws of each run come street by street, as the hand deals them.
    redraws = [e for e in second.deals if isinstance(e, ev.HoleDealt)]
    assert {e.seat for e in redraws} == set(hand.live_seats)
    assert dict(first.cards) != dict(second.cards)


def test_esg_all_in_on_the_turn_runs_the_river_and_its_redraws_three_times() -> None:
    hand = _to_the_offer("esg", [300, 300, 300], street=2)
    assert hand.street is not None
    assert hand.street.name == "turn"
    _answer(hand, 3)
    assert [len(dict(run.dealt)["A"]) for run in hand.runs] == [1, 1, 1]
    assert [len(dict(run.dealt)["B"]) for run in hand.runs] == [1, 1, 1]
    assert sum(hand.stacks) == 900


def test_xmas_all_in_on_the_antes_runs_the_turn_and_river_after_the_christmas_card() -> None:
    hand = Hand(find_variant("xmas"), Stakes(ante=5, big_blind=2), [5, 5, 5], 0,
                cards=Deck(rng=random.Random(4)), runs_offered=True)
    # Everyone is all-in on the ante; the bomb (and the Christmas card) is out before any bet.
    assert hand.is_choosing_runs
    assert len(hand.boards["X"]) == 1
    _answer(hand, 3)
    assert [dict(run.boards)["X"] for run in hand.runs] == [tuple(hand.boards["X"])] * 3
    assert [[(name, len(cards)) for name, cards in run.dealt] for run in hand.runs] == [
        [("A", 2), ("B", 2)]] * 3
    for run in hand.runs:
        for result in run.results:
            assert [c.name for c in result.categories] == ["A", "B", "Tree"]
    assert sum(hand.stacks) == 15


@pytest.mark.parametrize("game", ["balance", "tilt"])
def test_all_in_preflop_the_thin_pool_deals_the_boards_twice_at_most(game: str) -> None:
    hand = _to_the_offer(game, [200, 200, 200])
    assert hand.runs_most == 2
    _answer(hand, 2)
    assert hand.run_count == 2
    assert sum(hand.stacks) == 600


def test_tilt_runs_every_board_and_the_diagonal() -> None:
    hand = _to_the_offer("tilt", [300, 300, 300], street=1)
    _answer(hand, 2)
    for run in hand.runs:
        assert [name for name, _ in run.dealt] == ["A", "B", "C"]  # turn and river to come
        for result in run.results:
            assert [c.name for c in result.categories] == ["A", "B", "C", "Tilt", "Hand"]
    assert sum(hand.stacks) == 900


def test_the_fewest_runs_anyone_chose_are_dealt_and_a_decline_is_once() -> None:
    hand = _to_the_offer("plo", [100, 100, 100])
    a, b, c = hand.live_seats
    hand.apply(a, ChooseRuns(3))
    hand.apply(b, ChooseRuns(2))
    assert hand.runs_pending == (c,)
    hand.apply(c, ChooseRuns(3))
    assert hand.run_count == 2
    hand = _to_the_offer("plo", [100, 100, 100])
    a, b, c = hand.live_seats
    hand.apply(a, ChooseRuns(2))
    hand.apply(b, ChooseRuns(1))  # declines
    hand.apply(c, ChooseRuns(2))
    assert hand.run_count == 1
    assert hand.runs == ()
    assert not [e for e in hand.events if isinstance(e, ev.RunDealt)]
    assert sum(hand.stacks) == 300


def test_a_timeout_runs_it_once() -> None:
    hand = _to_the_offer("esg", [100, 100])
    first = hand.live_seats[0]
    hand.apply(first, ChooseRuns(2))
    hand.runs_timed_out()
    assert hand.is_over
    assert hand.run_count == 1
    chosen = [e for e in hand.events if isinstance(e, ev.RunsChosen)]
    assert chosen == [ev.RunsChosen(first, 2), ev.RunsChosen(hand.live_seats[1], 1, True)]


def test_a_pot_that_does_not_divide_gives_its_odd_chips_to_the_first_runs() -> None:
    assert run_shares(41, 3) == [14, 14, 13]
    assert run_shares(41, 2) == [21, 20]
    assert run_shares(1, 2) == [1, 0]


def test_a_short_stack_makes_a_side_pot_that_every_run_shares() -> None:
    hand = _to_the_offer("plo", [30, 100, 100])
    pots = hand.pots()
    assert len(pots) == 2
    _answer(hand, 2)
    awarded = [e for e in hand.events if isinstance(e, ev.PotAwarded)]
    assert [(e.index, e.run) for e in awarded] == [(0, 1), (1, 1), (0, 2), (1, 2)]
    assert sum(hand.stacks) == 230


def test_not_offered_when_the_room_does_not_or_the_hand_is_not_all_in() -> None:
    hand = _to_the_offer("plo", [100, 100], offered=False)
    assert hand.is_over
    assert not [e for e in hand.events if isinstance(e, ev.RunsOffered | ev.RunsUnavailable)]
    # All-in on the river: nothing is left to run.
    hand = _to_the_offer("plo", [100, 100], street=3)
    assert hand.is_over
    assert not [e for e in hand.events if isinstance(e, ev.RunsOffered | ev.RunsUnavailable)]


def test_not_offered_where_the_cards_left_cannot_deal_two_runs_and_the_table_is_told_why() -> None:
    # Ten players of PLO leave 12 cards: one run of the board (5 cards and 3 burns) takes 8.
    hand = _to_the_offer("plo", [100] * 10)
    assert hand.is_over
    why = [e.reason for e in hand.events if isinstance(e, ev.RunsUnavailable)]
    assert why == ["the 12 cards left cannot deal the rest 2 times"]


@pytest.mark.parametrize("game", ["allocator", "allocator-redraw"])
def test_the_allocators_never_run_twice_and_say_why(game: str) -> None:
    hand = _to_the_offer(game, [100, 100])
    why = [e.reason for e in hand.events if isinstance(e, ev.RunsUnavailable)]
    assert why == [f"{hand.variant.name} allocates after the last card: a run would need its "
                   f"own allocation"]


def test_bad_answers_are_refused_by_name() -> None:
    hand = _to_the_offer("plo", [100, 100, 100])
    seat = hand.live_seats[0]
    with pytest.raises(ActionError, match="may run it 1 to 3 times, not 4"):
        hand.apply(seat, ChooseRuns(4))
    hand.apply(seat, ChooseRuns(2))
    with pytest.raises(ActionError, match="has already answered"):
        hand.apply(seat, ChooseRuns(2))
    with pytest.raises(ActionError, match="seat 7 is not in this hand"):
        hand.apply(7, ChooseRuns(2))
    done = _to_the_offer("plo", [100, 100], offered=False)
    with pytest.raises(ActionError, match="nobody is offered to run it more than once now"):
        done.apply(0, ChooseRuns(2))
