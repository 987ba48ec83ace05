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

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from boardroom.evaluation import HandValue
from boardroom.rules import Split

Seat = int
CategoryHands = Mapping[str, HandValue | None]
"""One player's hand in each category (None: no qualifying hand, e.g. no low)."""
Portions = tuple[tuple[Fraction, tuple[Seat, ...]], ...]
"""Parts of a pot and the seats sharing each part equally (hi-lo: the high half first)."""


@dataclass(frozen=True)
class Pot:
    """Chips and the seats that may win them, in the order the pots were built (main first)."""

    amount: int
    eligible: tuple[Seat, ...]

    # Frozen and made of immutable values: a copy is the value itself. Said outright because
    # mypyc's build of this class cannot be rebuilt field by field as copy does by default.
    def __copy__(self) -> Pot:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Pot:
        return self

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

    # Frozen and made of immutable values: a copy is the value itself. Said outright because
    # mypyc's build of this class cannot be rebuilt field by field as copy does by default.
    def __copy__(self) -> CategoryResult:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> CategoryResult:
        return self

    @property
    def is_void(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class PotResult:
    """How one pot was decided and paid."""

    pot: Pot
    categories: tuple[CategoryResult, ...]  # empty when the pot had a single eligible seat
    points: Mapping[Seat, Fraction]  # category points (empty for an uncontested pot)
    portions: Portions  # (part of the pot, the seats sharing it equally), high half first
    shares: Mapping[Seat, int]  # chips paid to each seat, clockwise from the button

    @property
    def winners(self) -> tuple[Seat, ...]:
        """Every seat paid something, clockwise from the button."""
        return tuple(self.shares)

    @property
    def fractions(self) -> dict[Seat, Fraction]:
        """The exact part of the pot each winner is owed before chips are rounded."""
        return portion_fractions(self.portions)


def portion_fractions(portions: Portions) -> dict[Seat, Fraction]:
    """The exact part of a pot each seat is owed, from the portions it shares."""
    owed: dict[Seat, Fraction] = {}
    for part, seats in portions:
        for seat in seats:
            owed[seat] = owed.get(seat, Fraction(0)) + part / len(seats)
    return owed


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


@functools.cache
def _share(count: int) -> Fraction:
    """One point split ``count`` ways (a Fraction is immutable: one value serves every pot)."""
    return Fraction(1, count)


_ZERO = Fraction(0)
_WHOLE = Fraction(1)
_HALF = Fraction(1, 2)


def split_chips(amount: int, winners: Sequence[Seat], order: Sequence[Seat]) -> dict[Seat, int]:
    """Split ``amount`` equally; odd chips one at a time in ``order`` (clockwise from button)."""
    ranked = sorted(winners, key=order.index)
    share, odd = divmod(amount, len(ranked))
    return {seat: share + (1 if i < odd else 0) for i, seat in enumerate(ranked)}


def score_pot(
    seats: Sequence[Seat],
    hands: Mapping[Seat, CategoryHands],
    categories: Sequence[str],
    split: Split,
) -> tuple[tuple[CategoryResult, ...], dict[Seat, Fraction], Portions]:
    """Score the categories among ``seats``: the results, the points, and the pot's portions."""
    scored = tuple(CategoryResult(name, category_winners(name, seats, hands))
                   for name in categories)
    points = dict.fromkeys(seats, _ZERO)
    for result in scored:
        share = _share(len(result.winners)) if result.winners else _ZERO
        for seat in result.winners:
            points[seat] = share if points[seat] is _ZERO else points[seat] + share
    if split is Split.HI_LO:
        high, low = scored
        if low.is_void:
            return scored, points, ((_WHOLE, high.winners),)
        return scored, points, ((_HALF, high.winners), (_HALF, low.winners))
    if len(scored) == 1 and scored[0].winners:
        # One category: its winners hold the most points (no Fraction to compare).
        return scored, points, ((_WHOLE, scored[0].winners),)
    top = max(points.values())
    return scored, points, ((_WHOLE, tuple(s for s in seats if points[s] == top)),)


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
            whole = ((_WHOLE, (seats[0],)),)
            results.append(PotResult(pot, (), {}, whole, {seats[0]: pot.amount}))
            continue
        scored, points, portions = score_pot(seats, hands, categories, split)
        results.append(PotResult(pot, scored, points, portions, pay(pot.amount, portions, order)))
    return tuple(results)


def pay(
    amount: int, portions: Portions, order: Sequence[Seat]
) -> dict[Seat, int]:
    """Chips for each portion, rounded down except the first (a hi-lo pot's odd chip goes to the
    high half), then split equally inside each portion with odd chips clockwise from the button."""
    # floor(amount * part) in whole numbers (parts are positive fractions of the pot).
    rounded = [amount * part.numerator // part.denominator for part, _ in portions]
    rounded[0] += amount - sum(rounded)
    shares: dict[Seat, int] = {}
    for chips, (_, seats) in zip(rounded, portions, strict=True):
        for seat, won in split_chips(chips, seats, order).items():
            shares[seat] = shares.get(seat, 0) + won
    return {seat: shares[seat] for seat in order if seat in shares}
