"""Seats and positions at one tournament table: the dead button, who waits, where a moved
player sits (TDA).

Seats are numbered 0 to ``size - 1`` clockwise. ``Positions`` is where the button, the small
blind and the big blind are for one hand, as seat numbers; the small blind may be dead (its seat
is empty: nobody posts it) and the button may sit on an empty seat.

The dead button (TDA): from one hand to the next the big blind moves to the next player
clockwise who may be dealt in, the small blind to the seat of the last big blind and the button
to the seat of the last small blind, whoever sits there now. So nobody posts the big blind twice
in a row or skips it, whoever busts. A player who came to the table after its last hand began
and sits strictly between the button and the small blind waits until the button has passed
(TDA: a new player is dealt in anywhere but there). A player moved in to balance the tables
(a "mover") is never dealt the button or the small blind before posting a big blind: on those
seats they wait too, until the button has passed. Heads-up, the player who is not the big blind
has the button and posts the small blind.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Positions:
    """The forced-bet positions of one hand, as seat numbers; ``dealt`` in seat order."""

    button: int
    small_blind: int
    big_blind: int
    small_blind_dead: bool
    dealt: tuple[int, ...]
    waiting: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {"button": self.button, "small_blind": self.small_blind,
                "big_blind": self.big_blind, "small_blind_dead": self.small_blind_dead,
                "dealt": list(self.dealt), "waiting": list(self.waiting)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Positions:
        return cls(int(data["button"]), int(data["small_blind"]),  # type: ignore[call-overload]
                   int(data["big_blind"]), bool(data["small_blind_dead"]),  # type: ignore[call-overload]
                   tuple(data["dealt"]), tuple(data["waiting"]))  # type: ignore[arg-type]

    def engine_seating(self) -> tuple[tuple[int, ...], int, bool]:
        """How the engine deals this hand: the dealt seats in order, the engine's button (an
        index into them) and whether the small blind is dead. The engine posts the small blind
        left of its button and the big blind next (heads-up the button posts the small blind),
        so its button is the dealt player just before the small blind (before the big blind when
        the small blind is dead); a button on an empty seat acts the same."""
        dealt = self.dealt
        if len(dealt) == 2:
            return dealt, dealt.index(self.small_blind), False
        anchor = self.big_blind if self.small_blind_dead else self.small_blind
        index = dealt.index(anchor)
        return dealt, (index - 1) % len(dealt), self.small_blind_dead


def _clockwise(start: int, size: int) -> list[int]:
    """Every seat clockwise after ``start`` (excluded), ending with ``start``."""
    return [(start + k) % size for k in range(1, size + 1)]


def _between(seat: int, after: int, before: int, size: int) -> bool:
    """Whether ``seat`` is strictly clockwise between ``after`` and ``before``."""
    return 0 < (seat - after) % size < (before - after) % size


def draw_button(occupied: Sequence[int], size: int, rng: random.Random) -> Positions:
    """The first hand at a table: the button by draw, the blinds the next two players (heads-up:
    the button posts the small blind)."""
    seats = sorted(occupied)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    button = rng.choice(seats)
    after = [s for s in _clockwise(button, size) if s in seats]
    if len(seats) == 2:
        return Positions(button, button, after[0], False, tuple(seats))
    return Positions(button, after[0], after[1], False, tuple(seats))


def next_positions(last: Positions | None, occupied: Collection[int], newcomers: Collection[int],
                   size: int, rng: random.Random, *, movers: Collection[int] = ()) -> Positions:
    """The positions of a table's next hand (dead button, TDA). ``occupied`` are the seats with a
    player; ``newcomers`` those who were not dealt the table's last hand; ``movers`` those of
    the newcomers moved in to balance the tables (they wait on the button and small blind
    seats too)."""
    seats = sorted(occupied)
    if len(seats) < 2:
        raise ValueError("a hand needs at least two players")
    if last is None:
        return draw_button(seats, size, rng)
    button, small = last.small_blind, last.big_blind
    waiting = [s for s in seats if s in newcomers and (
        _between(s, button, small, size) or (s in movers and s in (button, small)))]
    eligible = [s for s in seats if s not in waiting]
    if len(eligible) < 2:  # too few to deal: the newcomers first, then the movers too
        waiting = [s for s in waiting if s in movers]
        eligible = [s for s in seats if s not in waiting]
    if len(eligible) < 2:
        waiting, eligible = [], seats
    big = next(s for s in _clockwise(last.big_blind, size) if s in eligible)
    if len(eligible) == 2:
        other = next(s for s in eligible if s != big)
        return Positions(other, other, big, False, tuple(eligible), tuple(waiting))
    return Positions(button, small, big, small not in eligible, tuple(eligible), tuple(waiting))


def worst_seat(last: Positions | None, occupied: Collection[int], size: int,
               rng: random.Random) -> int:
    """Where a player moved in to balance the tables sits (TDA: the worst position, never the
    small blind): the empty seat that gets the big blind soonest. Seats dealt in at once come
    first; then the seats where the mover waits for the button to pass, the big blind still
    ahead (between the next button and the next small blind, then the next button's own seat);
    the next small blind's seat only when it is the one empty seat (the mover waits there too).
    At a table that has not dealt yet, any empty seat."""
    empty = [s for s in range(size) if s not in occupied]
    if not empty:
        raise ValueError("the table has no empty seat")
    if last is None:
        return rng.choice(empty)
    button, small = last.small_blind, last.big_blind  # the next hand's

    def rank(seat: int) -> tuple[int, int, int]:
        if seat == small:
            kind = 3
        elif seat == button:
            kind = 2  # waits as a mover
        elif _between(seat, button, small, size):
            kind = 1  # waits as any newcomer
        else:
            kind = 0
        ahead = sum(1 for s in occupied if _between(s, last.big_blind, seat, size))
        return kind, ahead, (seat - last.big_blind) % size

    return min(empty, key=rank)


def next_big_blind(last: Positions | None, occupied: Collection[int],
                   newcomers: Collection[int], size: int, *,
                   movers: Collection[int] = ()) -> int | None:
    """The seat that posts the big blind next hand (None before the table's first hand)."""
    if last is None or len(occupied) < 2:
        return None
    return next_positions(last, occupied, newcomers, size, random.Random(0),
                          movers=movers).big_blind


def hands_until_big_blind(last: Positions, occupied: Collection[int], seat: int,
                          size: int) -> int:
    """How many hands the player at ``seat`` is dealt before posting the big blind (0: next)."""
    return sum(1 for s in occupied if _between(s, last.big_blind, seat, size))


def seat_draw(players: Sequence[str], tables: int, size: int,
              rng: random.Random) -> list[list[tuple[int, str]]]:
    """The random seat draw: players dealt round the tables so that they differ by at most one
    player, each at a random seat. Returns, per table, (seat, player) pairs."""
    if tables < 1 or len(players) > tables * size:
        raise ValueError(f"{len(players)} players do not fit {tables} tables of {size}")
    order = list(players)
    rng.shuffle(order)
    per_table: list[list[str]] = [order[k::tables] for k in range(tables)]
    result = []
    for group in per_table:
        seats = rng.sample(range(size), len(group))
        result.append(sorted(zip(seats, group, strict=True)))
    return result


def tables_needed(players: int, size: int) -> int:
    return max(1, -(-players // size))
