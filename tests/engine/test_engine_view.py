"""Per-viewer views (DESIGN.md): own cards and public cards only; shown hands become public."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence

import pytest

from action_script import play_passively
from boardroom.cards import Card
from boardroom.engine import Deck, Hand, Stakes, pills
from boardroom.engine import events as ev
from boardroom.engine.history import dumps, replay_text
from boardroom.engine.pills import NO_HAND, NOT_YET
from boardroom.engine.view import events_for, view_for, views_for
from boardroom.evaluation import evaluate
from boardroom.rules import VARIANTS, Construction, ForcedBets, Variant, find_variant
from boardroom.rules.scoring import category_hand, is_scorable
from boardroom.rules.spec import Category


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
    hand = play_passively(stud_hand())
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


# -- pills and NUTS against brute force -----------------------------------------------------


def _stakes(variant: Variant) -> Stakes:
    if variant.forced_bets is ForcedBets.BRING_IN:
        return Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    return Stakes(ante=1, big_blind=2)


def _holding_size(category: Category) -> int:
    if category.construction is Construction.HOLE_ONLY:
        return category.ranking.card_count  # 5; a badugi 4
    if category.construction is Construction.TREE:
        return 4
    return category.allocated or 2


def _holding_strength(variant: Variant, category: Category, holding: Sequence[Card],
                      boards: Mapping[str, Sequence[Card]]) -> int:
    """An opponent holding exactly ``holding`` in the category, by the scorer's evaluators."""
    if category.construction is Construction.ALLOCATED:
        value = evaluate(category.ranking, holding)
    else:
        value = category_hand(variant, category, holding, boards)
    return 0 if value is None else value.strength


def reference_pills(hand: Hand, seat: int) -> list[tuple[str, bool, str, bool]]:
    """The rule book's pills by brute force: the scorer's hand, then every holding of unseen
    cards of the category's size (a private hand: any 5 unseen cards, 4 for a badugi, are a
    holding, so its best holding is the best hand of all unseen cards)."""
    variant, hole, boards = hand.variant, hand.hole[seat], hand.boards
    visible = set(hole)
    for other in range(hand.seat_count):
        if other != seat:
            visible |= hand.public_cards(other)
    for cards in boards.values():
        visible.update(cards)
    unseen = [card for card in range(52) if card not in visible]
    allocation = hand.allocations.get(seat) if hand.allocations_revealed else None
    pills = []
    for category in variant.categories:
        size = _holding_size(category)
        if len(hole) < max(size, 2) or not is_scorable(variant, category, boards):
            pills.append((category.name, False, NOT_YET, False))
            continue
        value = category_hand(variant, category, hole, boards, allocation)
        if value is None:
            pills.append((category.name, True, NO_HAND, False))
            continue
        if len(unseen) < size:
            beaten = False
        elif category.construction is Construction.HOLE_ONLY:
            beaten = _holding_strength(variant, category, unseen, boards) > value.strength
        else:
            beaten = any(_holding_strength(variant, category, holding, boards) > value.strength
                         for holding in itertools.combinations(unseen, size))
        pills.append((category.name, True, value.description, not beaten))
    return pills


def _states(variant: Variant, seed: int, players: int) -> Iterator[Hand]:
    """A random hand (random folds, calls and raises), yielded at every street, during the
    allocation and at the end."""
    rng = random.Random(seed)
    hand = Hand(variant, _stakes(variant), [rng.choice([30, 200])] * players, 0,
                cards=Deck(rng=rng), manual_allocation=True)
    street = None
    while not hand.is_over:
        if hand.street is not street:
            street = hand.street
            yield hand
        if hand.is_allocating:
            yield hand
            for seat in hand.allocation_pending:
                hand.allocate_best(seat)
            continue
        legal = hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        if legal.draw is not None:
            hand.draw(rng.sample(hand.hole[legal.seat], rng.randint(0, legal.draw)))
        elif hand.can_post_bring_in():
            hand.post_bring_in()
        elif legal.fold and roll < 0.15:
            hand.fold()
        elif legal.raise_min is not None and roll > 0.85:
            hand.raise_to(rng.choice([legal.raise_min, legal.raise_max or legal.raise_min]))
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    yield hand


PILL_VARIANTS = [variant.id for variant in VARIANTS]


@pytest.mark.parametrize("variant_id", PILL_VARIANTS)
def test_every_seats_pills_and_nuts_match_brute_force(variant_id: str) -> None:
    """Every variant, every seat, every street (allocation and showdown included), random
    player counts: the cached table-driven pills equal the brute-force rule book's."""
    variant = find_variant(variant_id)
    checked = 0
    for seed in range(3):
        players = random.Random(seed).randint(2, min(6, variant.max_players))
        for hand in _states(variant, seed, players):
            for seat in range(hand.seat_count):
                pills = [(p.category, p.ready, p.description, p.nuts)
                         for p in view_for(hand, seat).pills]
                assert pills == reference_pills(hand, seat), (variant_id, seed, seat)
                checked += 1
    assert checked >= 12


def test_pills_are_computed_once_per_change_and_each_board_once_for_every_viewer() -> None:
    """Counted, not timed: the first views of a turn build one holdings table per board for
    all seats and one set of pills per seat, and keep no table once built (the pills are kept
    by seat); a check changes no card, so the views after it build nothing; the next card
    does (a new board state), and a seat asking alone later, its pills kept, builds nothing."""
    import sys

    nuts_module = sys.modules["boardroom.evaluation.nuts"]
    hand = Hand(find_variant("esg"), Stakes(small_blind=1, big_blind=2), [200] * 6, 0,
                cards=Deck(rng=random.Random(4)))
    while hand.street is not None and hand.street.name != "turn":
        hand.check() if hand.can_check() else hand.call()
    pills.clear_caches()
    views_for(hand, range(6))
    assert nuts_module.cache_info()["built"] == 2  # boards A and B
    assert nuts_module.cache_info()["size"] == 0  # dropped once the round's views are built
    assert pills.cache_info().misses == 6
    hand.check()
    views_for(hand, [None, *range(6)])
    assert nuts_module.cache_info()["built"] == 2
    assert pills.cache_info().misses == 6
    assert pills.cache_info().hits == 6
    while hand.street is not None and hand.street.name == "turn":
        hand.check()
    views_for(hand, range(6))
    assert nuts_module.cache_info()["built"] == 4
    assert nuts_module.cache_info()["size"] == 0
    assert pills.cache_info().misses == 12
    view_for(hand, 3)  # a seat reconnecting: its pills are kept
    assert nuts_module.cache_info()["built"] == 4


def test_a_round_of_views_keeps_the_tables_it_found_built_only_until_it_ends() -> None:
    """Tables built before a round (a caller outside the server) are dropped with it too when
    it asks for them, and a nested round leaves them to the outer one."""
    import sys

    nuts_module = sys.modules["boardroom.evaluation.nuts"]
    from boardroom.evaluation.construction import Construction
    from boardroom.evaluation.values import Ranking

    pills.clear_caches()
    nuts_module.holdings(Construction.OMAHA, (0, 5, 10), Ranking.HIGH, None)
    nuts_module.holdings(Construction.OMAHA, (1, 6, 11), Ranking.HIGH, None)
    with nuts_module.one_round():
        with nuts_module.one_round():
            nuts_module.holdings(Construction.OMAHA, (0, 5, 10), Ranking.HIGH, None)
            nuts_module.holdings(Construction.OMAHA, (2, 7, 12), Ranking.HIGH, None)
        assert nuts_module.cache_info()["size"] == 3  # the outer round is still open
    assert nuts_module.cache_info() == {"size": 1, "built": 3, "hits": 1}


# -- every viewer's view at once --------------------------------------------------------------


def _check_views_together(hand: Hand) -> None:
    from boardroom.engine.view import views_for

    viewers = [None, *range(hand.seat_count)]
    together = views_for(hand, viewers)
    for viewer in viewers:
        alone = views_for(hand, [viewer])[viewer]
        assert together[viewer] == alone, viewer
        if viewer is not None:
            assert together[viewer].seats[viewer].cards == tuple(hand.hole[viewer])


@pytest.mark.parametrize("variant_id", PILL_VARIANTS)
def test_views_built_together_equal_each_built_alone(variant_id: str) -> None:
    """``views_for`` shares the parts every viewer sees alike; no viewer's own cards, pills,
    allocation or legal actions reach another's view, at every street of random hands and
    halfway through an allocation."""
    variant = find_variant(variant_id)
    for seed in range(4):
        for hand in _states(variant, seed, min(4, variant.max_players)):
            _check_views_together(hand)
            if hand.is_allocating and len(hand.allocation_pending) > 1:
                hand.allocate_best(hand.allocation_pending[0])  # one seat has committed
                _check_views_together(hand)


def test_a_card_a_later_event_shows_stays_hidden_in_its_own_event_as_it_came() -> None:
    # Heads-up Hold'em, both players all-in on their blinds: the deal and the showdown are one
    # batch. Pushed as they came (each event under its own version), the deal tells the other
    # player nothing; the HandShown after it shows the cards. Read back once the hand is over
    # (a story, a history), the deal may show them: they are public by then.
    hand = Hand(find_variant("holdem"), Stakes(small_blind=1, big_blind=2), [1, 2], 3,
                cards=Deck(rng=random.Random(4)), seats=[3, 7])
    assert hand.is_over
    kinds = [type(e) for e in hand.events]
    assert kinds.index(ev.HandShown) > kinds.index(ev.HoleDealt)
    dealt = {e.seat: e.cards for e in hand.events if type(e) is ev.HoleDealt}
    for viewer, other in ((3, 7), (7, 3), (None, 3), (None, 7)):
        pushed = events_for(hand, viewer, 0, as_they_came=True)
        deals = [e for e in pushed if type(e) is ev.HoleDealt and e.seat == other]
        assert deals
        assert all(card is None for e in deals for card in e.cards), (viewer, deals)
        shown = [e for e in pushed if isinstance(e, ev.HandShown) and e.seat == other]
        assert shown
        assert set(shown[0].cards) == set(dealt[other])
        later = [e for e in events_for(hand, viewer) if type(e) is ev.HoleDealt
                 and e.seat == other]
        assert later[0].cards == dealt[other]  # public now
    mine = [e for e in events_for(hand, 3, 0, as_they_came=True) if type(e) is ev.HoleDealt
            and e.seat == 3]
    assert mine[0].cards == dealt[3]  # one's own cards, always
