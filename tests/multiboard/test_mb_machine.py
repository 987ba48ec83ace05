"""Hypothesis state machine over every multi-board variant with random actions and random
allocations. After every step: chips are conserved; no card is in two places at once (live hands,
boards, the pool); redraw counts are equal across live players, never above the street's cap and
never more than the pool gave; every view and every per-viewer event holds only cards its viewer
may see (never another seat's hidden cards, the pool or undealt board cards). At the end the
points of each pot sum to its number of non-void categories.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from boardroom.cards import Card
from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.engine.view import events_for, view_for
from boardroom.rules import ForcedBets, Variant, find_variant

VARIANTS: list[Variant] = [
    find_variant(v) for v in ("esg", "esg-low", "xmas", "balance", "allocator",
                              "allocator-redraw", "tilt")
] + [find_variant("bomb").with_options(hole_cards=h) for h in (4, 5, 6)]


def stakes_for(variant: Variant) -> Stakes:
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    return Stakes(ante=1, big_blind=2)


def _event_cards(event: ev.Event) -> list[Card | None]:
    if isinstance(event, ev.HoleDealt | ev.HandShown | ev.BoardDealt):
        return list(event.cards)
    if isinstance(event, ev.AllocationsRevealed):
        return [c for _, parts in event.allocations for _, cards in parts for c in cards]
    return []


class MultiBoardHands(RuleBasedStateMachine):
    hand: Hand

    @initialize(variant=st.sampled_from(VARIANTS), players=st.integers(2, 10),
                seed=st.integers(0, 2**32 - 1), button=st.integers(0, 9),
                stacks=st.lists(st.integers(3, 150), min_size=10, max_size=10))
    def deal(self, variant: Variant, players: int, seed: int, button: int,
             stacks: list[int]) -> None:
        players = min(players, variant.max_players)
        self.rng = random.Random(seed)
        self.total = sum(stacks[:players])
        self.hand = Hand(variant, stakes_for(variant), stacks[:players], button % players,
                         cards=Deck(rng=random.Random(seed)), manual_allocation=True)

    @precondition(lambda self: hasattr(self, "hand") and self.hand.is_over)
    @rule(seed=st.integers(0, 2**32 - 1))
    def next_hand(self, seed: int) -> None:
        """The next hand at the same table: the button moves, the busted leave (or, with fewer
        than two players left, everyone rebuys)."""
        old = self.hand
        stacks = [chips for chips in old.stacks if chips > 0]
        if len(stacks) < 2:
            stacks = [100] * old.seat_count
        self.total = sum(stacks)
        self.hand = Hand(old.variant, old.stakes, stacks, (old.button + 1) % len(stacks),
                         cards=Deck(rng=random.Random(seed)), manual_allocation=True)

    @precondition(lambda self: hasattr(self, "hand") and not self.hand.is_over)
    @rule(choice=st.integers(0, 5), fraction=st.fractions(0, 1))
    def act(self, choice: int, fraction: Fraction) -> None:
        hand = self.hand
        if hand.is_allocating:
            seat = hand.allocation_pending[choice % len(hand.allocation_pending)]
            if choice < 2:
                hand.allocate_best(seat)
            else:
                cards = list(hand.hole[seat])
                self.rng.shuffle(cards)
                allocation = {}
                for name, size in hand.variant.allocation_sizes.items():
                    allocation[name], cards = cards[:size], cards[size:]
                assert hand.can_allocate(seat, allocation)
                hand.allocate(seat, allocation)
            return
        legal = hand.legal_actions()
        assert legal is not None
        if choice == 0 and legal.fold:
            hand.fold()
        elif choice >= 4 and legal.raise_min is not None and legal.raise_max is not None:
            low, high = legal.raise_min, legal.raise_max
            hand.raise_to(low + int((high - low) * fraction))
        elif legal.check:
            hand.check()
        else:
            hand.call()

    @invariant()
    def chips_are_conserved(self) -> None:
        if not hasattr(self, "hand"):
            return
        hand = self.hand
        assert sum(hand.stacks) + hand.chips_in_play == self.total
        assert all(isinstance(c, int) and c >= 0 for c in hand.stacks)

    @invariant()
    def cards_are_in_one_place_and_redraws_are_fair(self) -> None:
        if not hasattr(self, "hand"):
            return
        hand = self.hand
        held = [c for seat in hand.live_seats for c in hand.hole[seat]]
        boards = [c for cards in hand.boards.values() for c in cards]
        assert len(set(held + boards)) == len(held + boards)
        if hand.pool_size is None:
            every = [c for cards in hand.hole for c in cards] + boards
            assert len(set(every)) == len(every)
            return
        variant = hand.variant
        assert hand.pool_size >= 0
        assert len(held) + variant.board_card_count + hand.pool_size == 52
        live = hand.live_seats
        assert len({hand.redraws[s] for s in live}) == 1
        street = hand.street or variant.streets[-1]
        caps = [s.redraw_cap or 0 for s in variant.streets[:variant.streets.index(street) + 1]]
        assert hand.redraws[live[0]] <= max(caps)
        for seat in live:
            assert len(hand.hole[seat]) == variant.hole_cards + hand.redraws[seat]

    @invariant()
    def views_hold_only_visible_cards(self) -> None:
        if not hasattr(self, "hand"):
            return
        hand = self.hand
        boards = {c for cards in hand.boards.values() for c in cards}
        for viewer in (None, *range(hand.seat_count)):
            visible = set(boards)
            if viewer is not None:
                visible.update(hand.hole[viewer])
            for seat in range(hand.seat_count):
                visible.update(hand.public_cards(seat))
            view = view_for(hand, viewer)
            cards = [c for s in view.seats for c in s.cards if c is not None]
            cards += [c for b in view.boards.values() for c in b]
            cards += [c for shown in view.showdown for c in shown.cards]
            cards += [c for _, part in view.allocation for c in part]
            assert set(cards) <= visible
            assert view.pool_size == hand.pool_size
            for event in events_for(hand, viewer):
                assert {c for c in _event_cards(event) if c is not None} <= visible

    @invariant()
    def points_sum_to_the_scored_categories(self) -> None:
        if not hasattr(self, "hand") or not self.hand.is_over:
            return
        hand = self.hand
        paid = sum(chips for r in hand.results for chips in r.shares.values())
        assert paid == sum(hand.contributed)
        for result in hand.results:
            if result.categories:
                assert sum(result.points.values()) == sum(
                    1 for c in result.categories if not c.is_void)
                assert len(result.categories) == len(hand.variant.categories)


MultiBoardHands.TestCase.settings = settings(max_examples=40, stateful_step_count=40,
                                             deadline=None)
test_multiboard_hands = MultiBoardHands.TestCase
