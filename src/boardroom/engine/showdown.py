"""Settling pots at showdown: categories, points, hi-lo halves and odd chips.

Pure functions over evaluated hands; the hand state machine calls ``settle_pots`` once the last
card is out, and ``boardroom showdown`` calls it for a hand typed on the command line.

RULES.md section 3: every pot (main first, then each side pot) is scored among its own eligible
players; each category is worth one point, a tie splits it in exact fractions, a category nobody
qualifies for is void; the most points take the pot, equal points split it, and odd chips go one at
a time to the tied winners closest clockwise from the button. Section 4: a hi-lo pot is halved
between the best high and the best low, the odd chip to the high, and the high scoops when nobody
has a low.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from boardroom.evaluation import HandValue
from boardroom.rules import Split

Seat = int
CategoryHands = Mapping[str, HandValue | None]
"""One player's hand in each category (None: no qualifying hand, e.g. no low)."""


@dataclass(frozen=True)
class Pot:
    """Chips and the seats that may win them, in the order the pots were built (main first)."""

    amount: int
    eligible: tuple[Seat, ...]

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise ValueError(f"a pot of {self.amount} chips cannot exist")
        if not self.eligible:
            raise ValueError("a pot needs at least one eligible seat")


@dataclass(frozen=True)
class CategoryResult:
    """A category scored among one pot's players: its winners (empty when void)."""

    name: str
    winners: tuple[Seat, ...]

    @property
    def is_void(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class PotResult:
    """How one pot was decided and paid."""

    pot: Pot
    categories: tuple[CategoryResult, ...]  # empty when the pot had a single eligible seat
    points: Mapping[Seat, Fraction]  # empty for hi-lo and uncontested pots
    winners: tuple[Seat, ...]  # every seat paid something, clockwise from the button
    shares: Mapping[Seat, int]  # chips paid to each seat


def category_winners(
    category: str, seats: Sequence[Seat], hands: Mapping[Seat, CategoryHands]
) -> tuple[Seat, ...]:
    """The seats with the best hand in ``category`` among ``seats`` (empty: void)."""
    best = 0
    winners: list[Seat] = []
    for seat in seats:
        value = hands[seat].get(category)
        if value is None:
            continue
        if value.strength > best:
            best, winners = value.strength, [seat]
        elif value.strength == best:
            winners.append(seat)
    return tuple(winners)


def split_chips(amount: int, winners: Sequence[Seat], order: Sequence[Seat]) -> dict[Seat, int]:
    """Split ``amount`` equally; odd chips one at a time in ``order`` (clockwise from button)."""
    ranked = sorted(winners, key=order.index)
    share, odd = divmod(amount, len(ranked))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ranked)}


def settle_pots(
    pots: Sequence[Pot],
    hands: Mapping[Seat, CategoryHands],
    categories: Sequence[str],
    split: Split,
    order: Sequence[Seat],
) -> tuple[PotResult, ...]:
    """Decide and pay every pot.

    ``hands`` holds each live seat's hand per category; ``order`` lists every seat clockwise
    starting with the first seat left of the button (the odd-chip order). A pot whose only
    eligible seat is still live goes to that seat without a showdown.
    """
    results = []
    for pot in pots:
        seats = [seat for seat in order if seat in pot.eligible]
        if len(seats) == 1:
            seat = seats[0]
            results.append(PotResult(pot, (), {}, (seat,), {seat: pot.amount}))
            continue
        scored = tuple(CategoryResult(name, category_winners(name, seats, hands))
                       for name in categories)
        if split is Split.HI_LO:
            results.append(_settle_hi_lo(pot, scored, order))
        else:
            results.append(_settle_points(pot, seats, scored, order))
    return tuple(results)


def _settle_points(
    pot: Pot, seats: Sequence[Seat], scored: tuple[CategoryResult, ...], order: Sequence[Seat]
) -> PotResult:
    points = dict.fromkeys(seats, Fraction(0))
    for result in scored:
        for seat in result.winners:
            points[seat] += Fraction(1, len(result.winners))
    top = max(points.values())
    winners = tuple(seat for seat in seats if points[seat] == top)
    return PotResult(pot, scored, points, winners, split_chips(pot.amount, winners, order))


def _settle_hi_lo(pot: Pot, scored: tuple[CategoryResult, ...], order: Sequence[Seat]) -> PotResult:
    high, low = scored
    if low.is_void:
        shares = split_chips(pot.amount, high.winners, order)
    else:
        low_half = pot.amount // 2  # the odd chip of an uneven pot goes to the high half
        shares = split_chips(pot.amount - low_half, high.winners, order)
        for seat, chips in split_chips(low_half, low.winners, order).items():
            shares[seat] = shares.get(seat, 0) + chips
    winners = tuple(seat for seat in order if seat in shares)
    return PotResult(pot, scored, {}, winners, {seat: shares[seat] for seat in winners})
