"""Scenarios of the multi-board golden hands: how a hand is played, and the predicate that says a
hand shows the rule it is kept for (RULES.md section 3). ``mb_golden_hands.py`` searches seeds
for hands that satisfy each predicate and writes them; ``test_mb_golden.py`` replays the files
with ``boardroom replay`` and checks the predicate again on the replayed hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from boardroom.engine import Deck, Hand, Stakes
from boardroom.engine import events as ev
from boardroom.evaluation import Ranking, best_of, omaha, tree
from boardroom.rules import Construction, ForcedBets, Variant, find_variant


def stakes_for(variant: Variant) -> Stakes:
    if variant.forced_bets is ForcedBets.BLINDS:
        return Stakes(small_blind=1, big_blind=2)
    return Stakes(ante=1, big_blind=2)


@dataclass(frozen=True)
class Policy:
    """A random-action player: fold, raise (half min, half max) or check/call."""

    fold: float = 0.0
    raise_: float = 0.0


def play(variant: Variant, stacks: list[int], button: int, seed: int, policy: Policy,
         deck: tuple[int, ...] | None = None) -> Hand:
    """A hand on a seeded deck (or ``deck`` in this order); allocations alternate between the
    suggestion, a random valid commit and a timeout (the engine's allocation)."""
    cards = Deck(list(deck)) if deck is not None else Deck(rng=random.Random(seed))
    hand = Hand(variant, stakes_for(variant), stacks, button, cards=cards,
                manual_allocation=True)
    rng = random.Random(seed * 7 + 1)
    while not hand.is_over:
        if hand.is_allocating:
            for k, seat in enumerate(hand.allocation_pending):
                allocate(hand, seat, k % 3, rng)
            continue
        legal = hand.legal_actions()
        assert legal is not None
        roll = rng.random()
        if legal.fold and roll < policy.fold:
            hand.fold()
        elif legal.raise_min is not None and legal.raise_max is not None and (
                roll < policy.fold + policy.raise_):
            hand.raise_to(legal.raise_min if rng.random() < 0.5 else legal.raise_max)
        elif legal.check:
            hand.check()
        else:
            hand.call()
    return hand


def allocate(hand: Hand, seat: int, how: int, rng: random.Random) -> None:
    if how == 0:
        hand.allocate(seat, hand.suggest_allocation(seat))
    elif how == 1:
        cards = list(hand.hole[seat])
        rng.shuffle(cards)
        allocation = {}
        for name, size in hand.variant.allocation_sizes.items():
            allocation[name], cards = tuple(cards[:size]), cards[size:]
        hand.allocate(seat, allocation)
    else:
        hand.allocate_best(seat)


# -- predicates -------------------------------------------------------------------------------


def won_by_folds(hand: Hand) -> bool:
    return not hand.shown and len(hand.results) == 1 and not hand.results[0].categories


def split_point(hand: Hand) -> bool:
    return any(len(c.winners) >= 2 for r in hand.results for c in r.categories)


def void_low(hand: Hand) -> bool:
    return any(c.is_void for r in hand.results for c in r.categories)


def side_pot_differs(hand: Hand) -> bool:
    contested = [r for r in hand.results if r.categories]
    if len(contested) < 2:
        return False
    main, side = contested[0], contested[1]
    return any(a.winners != b.winners and a.winners and b.winners
               for a, b in zip(main.categories, side.categories, strict=True))


def tied_points_odd_chips(hand: Hand) -> bool:
    for result in hand.results:
        if len(result.portions) == 1 and result.categories:
            sharing = result.portions[0][1]
            if len(sharing) >= 2 and result.pot.amount % len(sharing):
                return True
    return False


def _streets(hand: Hand) -> list[list[ev.Event]]:
    streets: list[list[ev.Event]] = []
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            streets.append([])
        if streets:
            streets[-1].append(event)
    return streets


_ACTION = (ev.Checked, ev.Called, ev.RaisedTo, ev.Folded)


def all_in_run_out(hand: Hand, with_redraws: bool) -> bool:
    """A street dealt with no betting (everyone all-in), ending in a showdown."""
    if not hand.shown:
        return False
    for events in _streets(hand)[1:]:
        dealt = any(isinstance(e, ev.BoardDealt) for e in events)
        betting = any(isinstance(e, _ACTION) for e in events)
        redrawn = any(isinstance(e, ev.Redrawn) for e in events)
        if dealt and not betting and (redrawn or not with_redraws):
            return True
    return False


def redraw_counts(hand: Hand) -> list[int]:
    """Cards each live player got on each redraw street, in street order."""
    counts = []
    for events, street in zip(_streets(hand), hand.variant.streets, strict=False):
        if street.redraw_cap is None:
            continue
        got = [len(e.cards) for e in events if isinstance(e, ev.Redrawn)]
        counts.append(got[0] if got else 0)
    return counts


def catch_up(hand: Hand) -> bool:
    """A street short of its cap for lack of cards, caught up on a later street."""
    caps = [s.redraw_cap for s in hand.variant.streets if s.redraw_cap is not None]
    counts = redraw_counts(hand)
    received = 0
    short = False
    previous = 0
    for cap, n in zip(caps, counts, strict=False):
        if short and n > cap - previous:
            return True
        if received + n < cap:
            short = True
        received += n
        previous = cap
    return False


def allocation_with_discards(hand: Hand) -> bool:
    if not hand.allocations_revealed:
        return False
    need = sum(hand.variant.allocation_sizes.values())
    return any(len(hand.hole[seat]) > need for seat in hand.allocations)


def allocation_shown(hand: Hand) -> bool:
    return hand.allocations_revealed and len(hand.allocations) >= 2


def tilt_forced(hand: Hand) -> bool:
    """A shown hand whose Tilt board hand is worse than plain Omaha on that board: the tilted
    card was forced in."""
    for seat, showed in hand.shown.items():
        if not showed:
            continue
        for category in hand.variant.categories:
            if category.construction is Construction.TILT_BOARD and category.board:
                forced = hand.category_hands(seat)[category.name]
                free = omaha(hand.hole[seat], hand.boards[category.board])
                if forced is not None and free is not None and forced.strength < free.strength:
                    return True
    return False


def tree_four_plus_one(hand: Hand) -> bool:
    """A shown hand whose Tree (4 hole + the Christmas card) is worse than its best 5 of hole
    plus Christmas card: exactly 4 + 1 mattered."""
    for seat, showed in hand.shown.items():
        if showed:
            christmas = hand.boards["X"][0]
            four_plus_one = tree(hand.hole[seat], christmas)
            free = best_of(Ranking.HIGH, [*hand.hole[seat], christmas])
            if free is not None and four_plus_one.strength < free.strength:
                return True
    return False


@dataclass(frozen=True)
class Scenario:
    name: str
    predicate: Callable[[Hand], bool]
    stacks: tuple[int, ...]
    policy: Policy
    options: tuple[tuple[str, int], ...] = ()
    deck: tuple[int, ...] | None = None  # a deck in this order instead of a seeded shuffle


FOLDS = Scenario("won_by_folds", won_by_folds, (100,) * 4, Policy(fold=0.9, raise_=0.1))
SPLIT = Scenario("split_point", split_point, (100,) * 4, Policy())
SIDE = Scenario("side_pot_differs", side_pot_differs, (8, 60, 60, 60), Policy(raise_=0.3))
TIED = Scenario("tied_points_odd_chips", tied_points_odd_chips, (100,) * 3, Policy(raise_=0.2))
RUN_OUT = Scenario("all_in_run_out", lambda h: all_in_run_out(h, h.variant.has_redraws),
                   (9,) * 4, Policy(raise_=0.6))


def scenarios(variant: Variant) -> list[Scenario]:
    """Every scenario kept for ``variant``: at least six, the ones its rules call for."""
    result = [FOLDS, SPLIT, SIDE, TIED, RUN_OUT]
    if any(c.ranking is Ranking.ESG_LOW for c in variant.categories):
        # A full table on a deck in rank order: every hand holds at most three ranks (and one
        # redraw at most), so nobody has five different ranks: the low is void.
        result.append(Scenario("void_low", void_low, (100,) * variant.max_players, Policy(),
                               deck=tuple(range(52))))
    if variant.has_redraws:
        result.append(Scenario("catch_up", catch_up, (100,) * variant.max_players,
                               Policy(fold=0.35)))
    if variant.has_allocation:
        allocation = allocation_with_discards if variant.has_redraws else allocation_shown
        result.append(Scenario("allocation", allocation, (100,) * 4, Policy()))
    if any(c.construction is Construction.TILT_BOARD for c in variant.categories):
        result.append(Scenario("tilted_card_forced", tilt_forced, (100,) * 4, Policy()))
    if any(c.construction is Construction.TREE for c in variant.categories):
        result.append(Scenario("tree_four_plus_one", tree_four_plus_one, (100,) * 4, Policy()))
    for hole in variant.hole_card_options:
        if hole != variant.hole_cards:
            result.append(Scenario(f"hole_cards_{hole}", split_point, (100,) * 4, Policy(),
                                   (("hole_cards", hole),)))
    if len(result) < 6:
        result.append(Scenario("full_table", lambda h: bool(h.shown),
                               (100,) * variant.max_players, Policy(fold=0.1)))
    return result


MULTIBOARD = ("esg", "esg-low", "xmas", "balance", "bomb", "allocator", "allocator-redraw", "tilt")


def variant_of(variant_id: str, scenario: Scenario) -> Variant:
    return find_variant(variant_id).with_options(**dict(scenario.options))
