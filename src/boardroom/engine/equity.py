"""All-in equity: each live player's chance of winning each pot, and their expected share of it.

From a ``RunoutSpot`` (the hand when no more betting can happen) the cards still to come are
every missing board card and every hole card still to be dealt: the redraws of the later streets
(RULES.md s.3, ``min(K - R, pool // L)`` each, nobody folds any more) and stud's later streets.
Seen from the table, once the live hands are face up, those cards are a uniform draw from the
cards nobody has seen (folded hands, burns, the stub and the pool look alike), so the equity is
public: one computation serves every viewer.

Every deal is scored as the showdown scores it: per pot among its eligible players, categories
worth one point each (ties split, a category nobody qualifies for is void), the most points take
the pot and equal points split it; a hi-lo pot is halved and the high scoops with no low. Shares
are fractions of the pot (odd chips aside), summed exactly as ``Fraction``.

When the deals can be counted within ``EXACT_WORK`` evaluations they are all enumerated and the
figures are exact; beyond, ``samples`` deals are drawn (from a generator seeded by the spot, so
the figures are reproducible) and ``margin`` states the precision: the 95% half-width of any
figure, at worst. The batch evaluator does the work (``engine.strengths``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardroom.cards import DECK_SIZE, Card
from boardroom.engine.runout import RunoutSpot
from boardroom.engine.strengths import category_strengths
from boardroom.evaluation import Ranking
from boardroom.rules import Split, Variant, redraw_schedule
from boardroom.rules.spec import Construction

Seat = int
Rows = npt.NDArray[np.intp]

# Work is counted in five-card evaluations (no clock: the engine reads none), the Tree's twice (it
# builds its rows one by one). The budgets keep every spot of every game under about 300 ms on a
# loaded machine (``boardroom bench equity``); a spot too costly for ``MIN_SAMPLES`` within the
# budget still gets them, with the wider margin that says so.
EXACT_WORK = 4_000_000
SAMPLE_WORK = 3_000_000
MIN_SAMPLES = 300
MAX_SAMPLES = 20_000
_CHUNK = 4_096  # deals scored at a time, to bound memory


@dataclass(frozen=True, slots=True)
class SeatEquity:
    """One player in one pot: the chance of taking all of it, and the expected share of it."""

    seat: Seat
    win: Fraction
    share: Fraction


@dataclass(frozen=True, slots=True)
class PotEquity:
    index: int
    amount: int
    seats: tuple[SeatEquity, ...]  # the pot's eligible players, dealing order


@dataclass(frozen=True, slots=True)
class Equity:
    """The equity at one spot: ``exact`` over ``deals`` deals, or estimated from ``deals``
    samples with every figure within ``margin`` (95%) of the truth."""

    street: str
    exact: bool
    deals: int
    margin: Fraction
    pots: tuple[PotEquity, ...]


def supports(variant: Variant) -> bool:
    """Games whose all-in spots have an equity: no allocation or draw decision still to come."""
    return not (variant.has_allocation or variant.is_draw)


def cards_to_come(variant: Variant, spot: RunoutSpot) -> int:
    """Hole cards each live player still gets: the later redraws and stud's later streets."""
    later = variant.streets[spot.street_index + 1:]
    count = sum(street.hole_down + street.hole_up for street in later)
    if spot.pool is not None:
        count += sum(n for _, n, _ in redraw_schedule(later, spot.pool, len(spot.hands),
                                                      received=spot.redraws))
    return count


def _groups(variant: Variant, spot: RunoutSpot) -> tuple[list[int], list[tuple[str, list[int]]]]:
    """The cards to come as groups whose order does not matter: each board's missing cards (a
    tilted board's tilted card alone), then each player's hole cards to come. Returns the group
    sizes and, per board, the group of each missing position."""
    sizes: list[int] = []
    positions: list[tuple[str, list[int]]] = []
    dealt = dict(spot.boards)
    for board in variant.boards:
        missing = board.size - len(dealt.get(board.name, ()))
        if not missing:
            continue
        first = board.size - missing + 1  # 1-based position of the first missing card
        slots: list[int] = []
        if board.tilted is not None and board.tilted >= first:
            others = missing - 1
            if others:
                sizes.append(others)
            rest, tilted_group = len(sizes) - 1, len(sizes)
            sizes.append(1)
            slots = [tilted_group if pos == board.tilted else rest
                     for pos in range(first, board.size + 1)]
        else:
            slots = [len(sizes)] * missing
            sizes.append(missing)
        positions.append((board.name, slots))
    extra = cards_to_come(variant, spot)
    if extra:
        sizes += [extra] * len(spot.hands)
    return sizes, positions


def _deal_count(unseen: int, sizes: Sequence[int]) -> int:
    count, left = 1, unseen
    for size in sizes:
        count *= math.comb(left, size)
        left -= size
    return count


def _evaluations(variant: Variant, spot: RunoutSpot, held: int) -> int:
    """Five-card evaluations one deal costs (every live hand in every category), roughly."""
    pairs = math.comb(held, 2)
    per_hand = 0
    for category in variant.categories:
        construction = category.construction
        if construction is Construction.OMAHA:
            per_hand += pairs * 10
        elif construction is Construction.TILT_BOARD:
            per_hand += pairs * 6
        elif construction is Construction.TILT_DIAGONAL:
            per_hand += pairs * 4
        elif construction is Construction.TREE:
            per_hand += 2 * math.comb(held, 4)
        elif construction is Construction.HOLDEM:
            per_hand += pairs * 21
        elif category.ranking is Ranking.HIGH:
            per_hand += math.comb(held, 5) if held <= 7 else 30
        else:
            per_hand += 20
    return max(1, per_hand * len(spot.hands))


def _patterns(sizes: Sequence[int]) -> Rows:
    """Every way to split positions 0..T-1 among groups of ``sizes`` (each group's positions
    ascending): one row per way, the groups' positions one after another."""
    rows: list[tuple[int, ...]] = [()]
    total = sum(sizes)
    for size in sizes:
        grown = []
        for row in rows:
            left = [p for p in range(total) if p not in row]
            grown += [row + chosen for chosen in combinations(left, size)]
        rows = grown
    return np.array(rows, dtype=np.intp).reshape(len(rows), total)


def _all_deals(unseen: Rows, sizes: Sequence[int]) -> Rows:
    total = sum(sizes)
    if total == 0:
        return np.zeros((1, 0), dtype=np.intp)
    sets = np.array(list(combinations(range(len(unseen)), total)), dtype=np.intp)
    patterns = _patterns(sizes)
    order = sets[:, patterns].reshape(-1, total)
    dealt: Rows = unseen[order]
    return dealt


def _seed(variant: Variant, spot: RunoutSpot) -> int:
    text = repr((variant.id, spot.street, spot.boards, spot.hands, spot.pool, spot.redraws))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _sampled_deals(unseen: Rows, total: int, samples: int, seed: int) -> Rows:
    rng = np.random.default_rng(seed)
    order = rng.permuted(np.tile(np.arange(len(unseen), dtype=np.intp), (samples, 1)), axis=1)
    dealt: Rows = unseen[order[:, :total]]
    return dealt


def _margin(samples: int) -> Fraction:
    """The 95% half-width of an estimated probability at worst (p = 1/2), rounded up to a tenth
    of a percent: the smallest m / 1000 with m / 1000 >= 1.96 * 0.5 / sqrt(samples)."""
    m = 1
    while m * m * samples < 960_400:
        m += 1
    return Fraction(m, 1000)


def runout_equity(variant: Variant, spot: RunoutSpot, *, exact_work: int = EXACT_WORK,
                  sample_work: int = SAMPLE_WORK) -> Equity:
    """Each live player's chance of winning each pot of ``spot``, and expected share of it."""
    if not supports(variant):
        raise ValueError(f"{variant.name} still has a decision after the betting: no equity")
    known: set[Card] = set()
    for _, cards in spot.boards:
        known.update(cards)
    for _, cards in spot.hands:
        known.update(cards)
    unseen = np.array([card for card in range(DECK_SIZE) if card not in known], dtype=np.intp)
    sizes, positions = _groups(variant, spot)
    total = sum(sizes)
    if total > len(unseen):
        raise ValueError("the spot needs more cards than the deck has left")
    held = len(spot.hands[0][1]) + cards_to_come(variant, spot)
    cost = _evaluations(variant, spot, held)
    deals = _deal_count(len(unseen), sizes)
    exact = deals * cost <= exact_work
    if exact:
        dealt = _all_deals(unseen, sizes)
    else:
        samples = max(MIN_SAMPLES, min(MAX_SAMPLES, sample_work // cost))
        dealt = _sampled_deals(unseen, total, samples, _seed(variant, spot))
    count = len(dealt)
    wins = {(index, seat): 0 for index, pot in enumerate(spot.pots) for seat in pot.eligible}
    shares = dict(wins)
    scale = 2 * math.lcm(*range(1, len(spot.hands) + 1))  # every share is a multiple of 1/scale
    for start in range(0, count, _CHUNK):
        _score(variant, spot, dealt[start:start + _CHUNK], sizes, positions, scale, wins, shares)
    pots = tuple(PotEquity(index, pot.amount, tuple(
        SeatEquity(seat, Fraction(wins[index, seat], count),
                   Fraction(shares[index, seat], count * scale))
        for seat in pot.eligible)) for index, pot in enumerate(spot.pots))
    return Equity(spot.street, exact, count, Fraction(0) if exact else _margin(count), pots)


def _score(variant: Variant, spot: RunoutSpot, dealt: Rows, sizes: Sequence[int],
           positions: Sequence[tuple[str, list[int]]], scale: int,
           wins: dict[tuple[int, Seat], int], shares: dict[tuple[int, Seat], int]) -> None:
    """Add the wins and scaled shares of every deal of ``dealt`` (one row per deal)."""
    rows = len(dealt)
    starts = np.cumsum([0, *sizes])
    taken = [0] * len(sizes)

    def take(group: int) -> Rows:
        column = int(starts[group]) + taken[group]
        taken[group] += 1
        part: Rows = dealt[:, column]
        return part

    boards: dict[str, Rows] = {}
    missing = dict(positions)
    dealt_boards = dict(spot.boards)
    for board in variant.boards:
        name, cards = board.name, dealt_boards.get(board.name, ())
        known = np.broadcast_to(np.asarray(cards, dtype=np.intp), (rows, len(cards)))
        columns = [known[:, k] for k in range(len(cards))]
        columns += [take(group) for group in missing.get(name, [])]
        boards[name] = (np.column_stack(columns) if columns
                        else np.zeros((rows, 0), dtype=np.intp))
    first_hole = max((max(groups) + 1 for _, groups in positions), default=0)
    hands: list[Rows] = []
    for k, (_, cards) in enumerate(spot.hands):
        known = np.broadcast_to(np.asarray(cards, dtype=np.intp), (rows, len(cards)))
        group = first_hole + k
        if group < len(sizes):  # hole cards still to come
            extra = dealt[:, int(starts[group]):int(starts[group + 1])]
            hands.append(np.concatenate([known, extra], axis=1))
        else:
            hands.append(np.ascontiguousarray(known))
    strengths = np.stack([  # (categories, players, rows)
        np.stack([category_strengths(variant, category, hole, boards, exact=True)
                  for hole in hands]) for category in variant.categories])
    seat_index = {seat: k for k, (seat, _) in enumerate(spot.hands)}
    for index, pot in enumerate(spot.pots):
        players = [seat_index[seat] for seat in pot.eligible]
        got = _pot_shares(variant, strengths[:, players, :], scale)
        for k, seat in enumerate(pot.eligible):
            shares[index, seat] += int(got[k].sum())
            wins[index, seat] += int((got[k] == scale).sum())


def _split(values: npt.NDArray[np.int32], scale: int) -> npt.NDArray[np.int64]:
    """Scaled shares of one point among the best of ``values`` (players, rows); 0 when void."""
    best = values.max(axis=0)
    winners = (values == best) & (best > 0)
    count = winners.sum(axis=0)
    result: npt.NDArray[np.int64] = np.where(
        winners, scale // np.maximum(count, 1), 0).astype(np.int64)
    return result


def _pot_shares(variant: Variant, strengths: npt.NDArray[np.int32],
                scale: int) -> npt.NDArray[np.int64]:
    """Each eligible player's share of the pot in each deal, times ``scale`` (players, rows)."""
    if variant.split is Split.HI_LO:
        high, low = (_split(strengths[k], scale) for k in range(2))
        no_low = low.sum(axis=0) == 0
        halves: npt.NDArray[np.int64] = np.where(no_low, high, (high + low) // 2)
        return halves
    points = sum((_split(strengths[k], scale) for k in range(len(strengths))),
                 start=np.zeros(strengths.shape[1:], dtype=np.int64))
    leaders = points == points.max(axis=0)
    result: npt.NDArray[np.int64] = np.where(
        leaders, scale // leaders.sum(axis=0), 0).astype(np.int64)
    return result
