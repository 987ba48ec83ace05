"""Payouts: which places are paid and how much, in whole tournament units.

A payout table is a list of exact fractions of the prize pool, one per paid place, best first,
adding up to exactly 1. Presets depend on the field size; a custom table is given in percents
(whole numbers or decimal strings such as ``"12.5"``) that must add up to exactly 100. Prizes
are whole units: each place gets its share rounded down and the units left over go one each
to the highest places (``prizes``). Players who finish together (eliminated in the same hand
with the same starting stack, TDA) share the prizes of the places they take (``award``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


class PayoutError(ValueError):
    """A payout table that cannot pay a prize pool; the text says why."""


# (largest field, percents of the pool per place). Past the last bracket: ``_large_field``.
_BRACKETS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (3, (100,)),
    (6, (65, 35)),
    (10, (50, 30, 20)),
    (18, (40, 25, 17, 11, 7)),
    (27, (35, 22, 15, 11, 8, 5, 4)),
    (45, (30, 20, 14, 10, 8, 6, 5, 4, 3)),
)


@dataclass(frozen=True)
class PayoutTable:
    """The share of the prize pool of each paid place, best first (exact, adding up to 1)."""

    shares: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        if not self.shares:
            raise PayoutError("a payout table pays at least one place")
        if any(share <= 0 for share in self.shares):
            raise PayoutError("every paid place gets more than 0%")
        total = sum(self.shares, Fraction(0))
        if total != 1:
            raise PayoutError(f"the payout table adds up to {_percent(total)}%, not 100%")
        if any(a < b for a, b in zip(self.shares, self.shares[1:], strict=False)):
            raise PayoutError("a place cannot pay more than the place above it")

    @property
    def places(self) -> int:
        return len(self.shares)

    @classmethod
    def from_percents(cls, percents: Sequence[object]) -> PayoutTable:
        """A custom table: ``[50, 30, 20]`` or ``["45.5", "30", "24.5"]``."""
        if isinstance(percents, str) or not isinstance(percents, Sequence):
            raise PayoutError("a payout table is a list of percents, best place first")
        shares = []
        for place, value in enumerate(percents, 1):
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise PayoutError(f"place {place}'s percent must be a whole number or a decimal "
                                  f"string such as \"12.5\", not {value!r}")
            try:
                share = Fraction(value) / 100
            except (ValueError, ZeroDivisionError):
                raise PayoutError(f"place {place}'s percent {value!r} is not a number") from None
            shares.append(share)
        return cls(tuple(shares))

    def percents(self) -> list[str]:
        return [_percent(share) for share in self.shares]

    def to_dict(self) -> dict[str, Any]:
        return {"percents": self.percents()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PayoutTable:
        return cls.from_percents(data["percents"])


def _percent(share: Fraction) -> str:
    """A share as an exact percent: ``"12"``, ``"25/2"`` (read back by ``Fraction``)."""
    return str(share * 100)


def percent_label(share: Fraction) -> str:
    """A share for people: ``"12.5%"``, to two decimals where it is not exact."""
    value = share * 100
    text = str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"
    return f"{text}%"


@functools.lru_cache(maxsize=64)
def preset_for(field: int) -> PayoutTable:
    """The preset table for ``field`` entries (re-entries count as entries)."""
    if field < 1:
        raise PayoutError("a tournament needs at least one entry to pay")
    for largest, percents in _BRACKETS:
        if field <= largest:
            return PayoutTable.from_percents(percents)
    return _large_field(field)


def _large_field(field: int) -> PayoutTable:
    """About 15% of the field paid, place k weighing about 1/(k + 1) (in whole millionths, so
    the shares stay small fractions): the winner gets a little over a tenth of a 1,000-entry
    pool and the last paid place about 1.5 buy-ins."""
    places = math.ceil(field * 15 / 100)
    weights = [round(Fraction(10**6, place + 1)) for place in range(1, places + 1)]
    total = sum(weights)
    return PayoutTable(tuple(Fraction(w, total) for w in weights))


def prizes(pool: int, table: PayoutTable) -> list[int]:
    """Whole prizes per place, best first, adding up to ``pool``: each place its share rounded
    down, then one more unit to each of the highest places until the pool is used up."""
    if not isinstance(pool, int) or isinstance(pool, bool) or pool < 0:
        raise PayoutError(f"a prize pool is a whole number of units, 0 or more, not {pool!r}")
    amounts = [pool * share.numerator // share.denominator for share in table.shares]
    for place in range(pool - sum(amounts)):
        amounts[place] += 1
    return amounts


@dataclass(frozen=True)
class Finish:
    """A player's result: the place (shared places give every tied player the best of them)
    and the prize."""

    player: str
    place: int
    prize: int
    tied: int = 1  # how many players share this place


def award(place_prizes: Sequence[int], group: Sequence[tuple[str, int]],
          best_place: int) -> list[Finish]:
    """Places and prizes for players who finish in the same hand (TDA: the player who started
    the hand with more chips finishes higher; equal stacks tie and split the prizes of the
    places they take, the odd units going to the earlier players in ``group``'s order).

    ``group`` is (player, stack at the start of the hand); ``best_place`` is the best place the
    group takes (1-based); ``place_prizes`` the prize of every place (unpaid places absent).
    """
    ordered = sorted(group, key=lambda item: -item[1])  # stable: ties keep group order
    results: list[Finish] = []
    place = best_place
    index = 0
    while index < len(ordered):
        stack = ordered[index][1]
        tied = [p for p, s in ordered[index:] if s == stack]
        shared = sum(_prize(place_prizes, place + k) for k in range(len(tied)))
        each, odd = divmod(shared, len(tied))
        for k, player in enumerate(tied):
            results.append(Finish(player, place, each + (1 if k < odd else 0), len(tied)))
        place += len(tied)
        index += len(tied)
    return results


def _prize(place_prizes: Sequence[int], place: int) -> int:
    return place_prizes[place - 1] if place <= len(place_prizes) else 0
