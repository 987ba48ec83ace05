"""All-in equity (issue 15, part 5): each live player's chance of winning each pot and expected
share of it, checked against an exhaustive scalar computation on small spots (every ordered deal
of the cards to come, scored by the showdown's own rules), against independent evaluators
(phevaluator for PLO, PokerKit for Omaha Hi-Lo), and for the run-out spots a real hand records."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations

import pytest

from boardroom.bench.equity import shove_hand
from boardroom.cards import Card, parse_cards
from boardroom.engine.equity import Equity, cards_to_come, runout_equity, supports
from boardroom.engine.runout import RunoutSpot
from boardroom.engine.showdown import Pot, settle_pots
from boardroom.rules import Variant, find_variant
from boardroom.rules.scoring import category_hand


def _spot(street: str, index: int, boards: dict[str, str], hands: Sequence[str],
          pots: Sequence[tuple[int, Sequence[int]]], *, pool: int | None = None,
          redraws: int = 0) -> RunoutSpot:
    return RunoutSpot(
        street=street, street_index=index,
        boards=tuple((name, parse_cards(cards)) for name, cards in boards.items()),
        hands=tuple((seat, parse_cards(cards)) for seat, cards in enumerate(hands)),
        pots=tuple(Pot(amount, tuple(eligible)) for amount, eligible in pots),
        pool=pool, redraws=redraws)


def _brute(variant: Variant, spot: RunoutSpot) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    """Every ordered deal of the cards to come, each scored by ``settle_pots`` on scalar hands:
    (pot, seat) -> (chance of taking the whole pot, expected share of it)."""
    boards = dict(spot.boards)
    known = {card for _, cards in spot.boards for card in cards}
    known |= {card for _, cards in spot.hands for card in cards}
    unseen = [card for card in range(52) if card not in known]
    missing = [(board.name, board.size - len(boards.get(board.name, ())))
               for board in variant.boards]
    extra = cards_to_come(variant, spot)
    total = sum(count for _, count in missing) + extra * len(spot.hands)
    scale = 2 * math.lcm(*range(1, len(spot.hands) + 1))
    pots = [Pot(scale, pot.eligible) for pot in spot.pots]
    won = {(i, seat): [0, 0] for i, pot in enumerate(pots) for seat in pot.eligible}
    deals = 0
    for deal in permutations(unseen, total):
        rest = list(deal)
        full: dict[str, list[Card]] = {}
        for name, count in missing:
            full[name] = [*boards.get(name, ()), *rest[:count]]
            rest = rest[count:]
        holes = {}
        for seat, cards in spot.hands:
            holes[seat] = [*cards, *rest[:extra]]
            rest = rest[extra:]
        hands = {seat: {c.name: category_hand(variant, c, hole, full)
                        for c in variant.categories} for seat, hole in holes.items()}
        results = settle_pots(pots, hands, variant.category_names, variant.split,
                              [seat for seat, _ in spot.hands])
        for i, result in enumerate(results):
            for seat, chips in result.shares.items():
                won[i, seat][0] += chips == scale
                won[i, seat][1] += chips
        deals += 1
    return {key: (Fraction(w, deals), Fraction(s, deals * scale)) for key, (w, s) in won.items()}


def _figures(equity: Equity) -> dict[tuple[int, int], tuple[Fraction, Fraction]]:
    return {(pot.index, s.seat): (s.win, s.share) for pot in equity.pots for s in pot.seats}


SMALL_SPOTS = [
    # PLO heads-up, all-in on the flop: the turn and the river to come.
    ("plo", _spot("flop", 1, {"A": "Ah 7d 2c"}, ["As Ks Qd Jd", "7h 7c 9s 8s"],
                  [(200, (0, 1))])),
    # PLO three ways on the turn, the short stack in the main pot only.
    ("plo", _spot("turn", 2, {"A": "Ah 7d 2c 9h"}, ["As Ks Qh Jh", "7h 7c 9s 8s", "Td Jc 8d 6c"],
                  [(150, (0, 1, 2)), (400, (1, 2))])),
    # Omaha Hi-Lo three ways on the turn: lows possible, a side pot.
    ("omaha-hilo", _spot("turn", 2, {"A": "Ah 7d 2c Kd"}, ["As 3s Qh Jh", "4h 5c 9s 8s",
                                                             "Ac 3d Kh Ks"],
                         [(90, (0, 1, 2)), (60, (1, 2))])),
    # ESG on the turn, caps reached: the river's A5 and B5 to come, 15-card hands.
    ("esg", _spot("turn", 3, {"A": "2c 3c 4d 9h", "B": "Ks Qs 8d 8h"},
                  ["Ac Ad Kh Kc 5s 6s 7s 7c Tc Td 2h 3h 4h Js Jh",
                   "Ah As Kd Qc Qd 5c 5d 6c 6h 9c 9s Th Ts 2d 3d"],
                  [(300, (0, 1))], pool=0, redraws=9)),
    # ESG three ways on the turn with one redraw each still to come on the river.
    ("esg", _spot("turn", 3, {"A": "2c 3c 4d 9h", "B": "Ks Qs 8d 8h"},
                  ["Ac Ad Kh Kc 5s 6s 7s 7c Tc Td 2h 3h 4h",
                   "Ah As Kd Qc Qd 5c 5d 6c 6h 9c 9s Th Ts",
                   "Jc Jd Js Jh Qh 2s 3s 4s 4c 6d 7d 7h 2d"],
                  [(120, (0, 1, 2)), (80, (1, 2))], pool=3, redraws=6)),
    # Tilt with six hands on the turn: A5, B5 and C5 (A's tilted card) to come.
    ("tilt", _spot("turn", 2, {"A": "2c 3c 4c 5c", "B": "6c 7c 8c 9c", "C": "Tc Jc Qc Kc",
                               "D": "Ac"},
                   ["2d 3d 4d 5d 6d", "7d 8d 9d Td Jd", "Qd Kd Ad 2h 3h", "4h 5h 6h 7h 8h",
                    "9h Th Jh Qh Kh", "Ah 2s 3s 4s 5s"],
                   [(600, (0, 1, 2, 3, 4, 5))], pool=0, redraws=9)),
    # Tilt with A4 and A5 to come: which card lands on A5 (the tilted one) matters.
    ("tilt", _spot("turn", 2, {"A": "2c 3c 4c", "B": "6c 7c 8c 9c 5c", "C": "Tc Jc Qc Kc 9s",
                               "D": "Ac"},
                   ["2d 3d 4d 5d 6d", "7d 8d 9d Td Jd", "Qd Kd Ad 2h 3h", "4h 5h 6h 7h 8h",
                    "9h Th Jh Qh Kh", "Ah 2s 3s 4s 5s"],
                   [(600, (0, 1, 2, 3, 4, 5))], pool=0, redraws=9)),
]


@pytest.mark.parametrize(("game", "spot"), SMALL_SPOTS,
                         ids=[f"{g}-{s.street}-{len(s.hands)}" for g, s in SMALL_SPOTS])
def test_small_spots_match_every_deal_scored_by_the_showdown(game: str, spot: RunoutSpot) -> None:
    variant = find_variant(game)
    equity = runout_equity(variant, spot)
    assert equity.exact
    assert equity.margin == 0
    assert _figures(equity) == _brute(variant, spot)
    for pot in equity.pots:
        assert sum(s.share for s in pot.seats) == 1


def test_the_deal_count_is_every_distinct_deal() -> None:
    variant = find_variant("plo")
    spot = SMALL_SPOTS[0][1]
    assert runout_equity(variant, spot).deals == math.comb(52 - 8 - 3, 2)
    tilt = SMALL_SPOTS[-2][1]
    assert runout_equity(find_variant("tilt"), tilt).deals == 9 * 8 * 7  # positions matter


def test_points_games_give_exact_fractional_shares() -> None:
    variant = find_variant("esg")
    equity = runout_equity(variant, SMALL_SPOTS[3][1])
    for pot in equity.pots:
        for seat in pot.seats:
            assert isinstance(seat.share, Fraction)
            assert isinstance(seat.win, Fraction)
            assert 0 <= seat.win <= seat.share <= 1


def test_plo_agrees_with_phevaluator() -> None:
    from phevaluator import evaluate_omaha_cards

    from boardroom.cards import format_card

    variant = find_variant("plo")
    spot = _spot("flop", 1, {"A": "Kc 9d 4h"}, ["Ah Kh Qd Jd", "9h 9c 5s 6s", "Td Tc 8d 7c"],
                 [(300, (0, 1, 2))])
    board = [format_card(c) for c in dict(spot.boards)["A"]]
    holes = [[format_card(c) for c in cards] for _, cards in spot.hands]
    known = set(board) | {c for hole in holes for c in hole}
    unseen = [format_card(c) for c in range(52) if format_card(c) not in known]
    wins, shares, deals = [0, 0, 0], [Fraction(0)] * 3, 0
    for i, turn in enumerate(unseen):
        for river in unseen[i + 1:]:
            full = [*board, turn, river]
            ranks = [evaluate_omaha_cards(*full, *hole) for hole in holes]  # lower is better
            best = min(ranks)
            winners = [k for k, r in enumerate(ranks) if r == best]
            for k in winners:
                shares[k] += Fraction(1, len(winners))
                wins[k] += len(winners) == 1
            deals += 1
    equity = runout_equity(variant, spot)
    assert equity.exact
    assert equity.deals == deals
    got = equity.pots[0].seats
    assert [s.share for s in got] == [share / deals for share in shares]
    assert [s.win for s in got] == [Fraction(w, deals) for w in wins]


def test_omaha_hilo_agrees_with_pokerkit() -> None:
    from pokerkit import Card as PKCard
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

    from boardroom.cards import format_card

    variant = find_variant("omaha-hilo")
    spot = _spot("turn", 2, {"A": "Ah 7d 2c Kd"}, ["As 3s Qh Jh", "4h 5c 9s 8s", "Ac 3d Kh Ks"],
                 [(90, (0, 1, 2)), (60, (1, 2))])
    board = [format_card(c) for c in dict(spot.boards)["A"]]
    holes = {seat: [format_card(c) for c in cards] for seat, cards in spot.hands}
    known = set(board) | {c for hole in holes.values() for c in hole}
    unseen = [format_card(c) for c in range(52) if format_card(c) not in known]
    shares = {(p, seat): Fraction(0) for p, pot in enumerate(spot.pots) for seat in pot.eligible}

    def cards(text: list[str]) -> list[PKCard]:
        return list(PKCard.parse("".join(text)))

    for river in unseen:
        full = cards([*board, river])
        high = {s: OmahaHoldemHand.from_game(cards(h), full) for s, h in holes.items()}
        low: dict[int, OmahaEightOrBetterLowHand | None] = {}
        for s, h in holes.items():
            try:
                low[s] = OmahaEightOrBetterLowHand.from_game(cards(h), full)
            except ValueError:
                low[s] = None
        for p, pot in enumerate(spot.pots):
            seats = pot.eligible
            best_high = max(high[s] for s in seats)
            highs = [s for s in seats if high[s] == best_high]
            lows_held = [low[s] for s in seats if low[s] is not None]
            if not lows_held:
                for s in highs:
                    shares[p, s] += Fraction(1, len(highs))
                continue
            best_low = max(lows_held)  # PokerKit orders a better low as greater
            lows = [s for s in seats if low[s] is not None and low[s] == best_low]
            for s in highs:
                shares[p, s] += Fraction(1, 2 * len(highs))
            for s in lows:
                shares[p, s] += Fraction(1, 2 * len(lows))
    equity = runout_equity(variant, spot)
    assert equity.exact
    assert equity.deals == len(unseen)
    got = {(pot.index, s.seat): s.share for pot in equity.pots for s in pot.seats}
    assert got == {key: share / len(unseen) for key, share in shares.items()}


def test_a_sampled_estimate_states_its_margin_and_lands_within_it() -> None:
    variant = find_variant("plo")
    spot = _spot("flop", 1, {"A": "Ah 7d 2c"}, ["As Ks Qd Jd", "7h 7c 9s 8s"],
                 [(200, (0, 1))])
    exact = runout_equity(variant, spot)
    sampled = runout_equity(variant, spot, exact_work=0, sample_work=10**12)
    assert not sampled.exact
    assert sampled.deals == 20_000
    assert sampled.margin == Fraction(7, 1000)  # 1.96 * 0.5 / sqrt(20000) = 0.00693
    for mine, truth in zip(sampled.pots[0].seats, exact.pots[0].seats, strict=True):
        assert abs(mine.share - truth.share) <= sampled.margin
        assert abs(mine.win - truth.win) <= sampled.margin
    assert runout_equity(variant, spot, exact_work=0, sample_work=10**12) == sampled  # seeded


def test_the_sample_count_follows_the_work_budget() -> None:
    variant = find_variant("esg")
    spot = _spot("preflop", 0, {}, ["Ac Ad Kh Kc 5s 6s", "Ah As Kd Qc Qd 5c"],
                 [(400, (0, 1))], pool=30, redraws=0)
    small = runout_equity(variant, spot, sample_work=1)
    assert not small.exact
    assert small.deals == 300
    assert small.margin == Fraction(57, 1000)
    assert sum(s.share for s in small.pots[0].seats) == 1


@pytest.mark.parametrize("game", ["plo", "esg", "xmas", "tilt", "balance", "omaha-hilo"])
def test_a_hand_records_each_street_of_its_run_out(game: str) -> None:
    variant = find_variant(game)
    hand = shove_hand(variant, [300, 200, 100], 0, seed=3)
    streets = [street.name for street in variant.streets]
    assert [spot.street for spot in hand.runout] == streets[:-1]
    for spot in hand.runout:
        assert {seat for seat, _ in spot.hands} == set(hand.live_seats)
        assert sum(pot.amount for pot in spot.pots) == sum(hand.contributed)  # no more bets
        for seat, cards in spot.hands:
            assert set(cards) <= set(hand.hole[seat])
        equity = runout_equity(variant, spot)
        for pot in equity.pots:
            assert sum(s.share for s in pot.seats) == 1
    assert all(hand.shown[seat] for seat in hand.live_seats)  # face up: the equity is public


def test_no_spot_while_a_player_with_chips_can_still_bet() -> None:
    variant = find_variant("plo")
    hand = shove_hand(variant, [300, 300, 300], 99, seed=5)  # nobody is all-in: no run-out
    assert hand.runout == []


def test_games_with_a_decision_after_the_betting_have_no_equity() -> None:
    assert not supports(find_variant("allocator"))
    assert not supports(find_variant("allocator-redraw"))
    hand = shove_hand(find_variant("allocator"), [300, 200, 100], 0, seed=3)
    assert hand.runout == []
    with pytest.raises(ValueError, match="decision"):
        runout_equity(find_variant("allocator"), SMALL_SPOTS[0][1])
